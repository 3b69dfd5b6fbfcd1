"""Bad input and faults, part 5: random busy worlds stepped many turns with random wishes keep the rules.

Hypothesis draws the seed, the size, the rule set and the length of each run, deterministically
(``derandomize=True``); the seed fixes the layout, the dice and every wish (``support.worlds``). Each turn the
checks of ``support.worlds`` run: no error but a refused wish the preview cannot see (and then the world is
byte for byte as before), velocities within what the rules allow, riders on a live mount or on foot, and no two
bodies, nor a body and an obstacle, meeting on a hex unless the rules put them there. Saving and loading at any
turn changes nothing that follows. Spelljammer chase worlds get the same treatment with their own rules.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Collection
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.worlds import (
    Cast,
    chase_world,
    crowding_problems,
    link_problems,
    meetings,
    mixed_world,
    plan_round,
    plan_turn,
    speed_problems,
    step_refusing,
    turn_limits,
)

from esper_motion.components import Mobility, Position, RoundIntent, RoundState
from esper_motion.ecs import Event, Phase, System, World
from esper_motion.ecs.hexgrid import Hex, distance
from esper_motion.systems.gurps import Rules
from esper_motion.systems.gurps.events import Collided
from esper_motion.systems.spelljammer.rules import SQUARE_FT, allowed_modes, movement_rate

RUNS = settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

seeds = st.integers(0, 2**32 - 1)
shapes = st.tuples(st.integers(1, 3), st.sampled_from([Rules.basic(), Rules.house()]))
"""(groups of ten entities, rule set) of a mixed world."""


def gurps_problems(
    world: World, cast: Cast, rng: random.Random, just_gone: Callable[[], Collection[int]] = tuple
) -> list[str]:
    """Plan and step one turn; every invariant broken by it. ``just_gone`` tells, after the step, which entities
    went after its MOUNTED phase (see ``link_problems``)."""
    plan_turn(world, cast, rng)
    events, _, (speeds, met) = step_refusing(world, lambda: (turn_limits(world), meetings(world)))
    problems = speed_problems(world, speeds, events) + link_problems(world, just_gone())
    return problems + crowding_problems(world, met, events)


@RUNS
@given(seed=seeds, shape=shapes, turns=st.integers(10, 30))
def test_random_gurps_worlds_keep_the_rules_turn_after_turn(seed: int, shape: tuple[int, Rules], turns: int) -> None:
    world, cast = mixed_world(seed, *shape)
    rng = random.Random(seed)
    for turn in range(turns):
        problems = gurps_problems(world, cast, rng)
        assert problems == [], f"turn {turn}: {problems}"


class QueuedDespawner(System):
    """A game's own part of the turn (after the COLLISION phase's systems): despawns a random live entity
    through ``World.despawn``, which queues it until the turn's last phase is over."""

    phase = Phase.COLLISION

    def __init__(self, rng: random.Random, chance: float) -> None:
        super().__init__()
        self.rng, self.chance = rng, chance
        self.despawned: list[int] = []
        self.last: list[int] = []

    def run(self) -> None:
        """Maybe despawn someone; ``last`` says whom, in this run only: a step the rules refuse after this phase is
        undone and played again, and runs this again."""
        self.last = []
        if self.rng.random() < self.chance:
            alive = self.world.entities()
            if alive:
                victim = self.rng.choice(alive)
                self.world.despawn(victim)
                self.last.append(victim)


@RUNS
@given(seed=seeds, shape=shapes, turns=st.integers(10, 25), chance=st.sampled_from([0.1, 0.3, 0.6]))
def test_despawning_any_entity_at_any_time_never_breaks_a_later_step(
    seed: int, shape: tuple[int, Rules], turns: int, chance: float
) -> None:
    """Entities vanish between steps, from a handler of the turn's events (which runs once the turn is over),
    and from a game's own system inside the turn (queued): every later step runs and the rules hold."""
    world, cast = mixed_world(seed, *shape)
    rng = random.Random(seed)
    despawner = QueuedDespawner(random.Random(seed + 1), chance)
    world.add_system(despawner)
    by_handler: list[int] = []

    def despawn_struck(event: Collided) -> None:
        if rng.random() < chance and world.exists(event.struck):
            world.despawn(event.struck)
            by_handler.append(event.struck)

    world.on(Collided, despawn_struck)
    for turn in range(turns):
        if world.entities() and rng.random() < chance:
            world.despawn(rng.choice(world.entities()))
        gone_before = {*despawner.despawned, *by_handler}
        problems = gurps_problems(
            world, cast, rng, lambda before=gone_before: {*despawner.despawned, *despawner.last, *by_handler} - before
        )
        despawner.despawned.extend(despawner.last)
        despawner.last = []
        assert problems == [], f"turn {turn}: {problems}"
        assert not any(world.exists(entity) for entity in despawner.despawned)


def gurps_run(world: World, cast: Cast, seed: int, *, turns: int, cut: int | None, folder: Path) -> list[Event]:
    """Every event of ``turns`` turns of a mixed world, saved and loaded back before turn ``cut``."""
    rng = random.Random(seed)
    log: list[Event] = []
    for turn in range(turns):
        if turn == cut:
            world.save(folder / "cut.json")
            world = World.load(folder / "cut.json")
        plan_turn(world, cast, rng)
        log.extend(step_refusing(world)[0])
    world.save(folder / f"end-{cut}.json")
    return log


@RUNS
@given(seed=seeds, shape=shapes, turns=st.integers(4, 16), cut=st.integers(0, 15))
def test_saving_and_loading_at_any_turn_changes_nothing_that_follows(
    tmp_path: Path, seed: int, shape: tuple[int, Rules], turns: int, cut: int
) -> None:
    cut %= turns
    straight = gurps_run(*mixed_world(seed, *shape), seed, turns=turns, cut=None, folder=tmp_path)
    reloaded = gurps_run(*mixed_world(seed, *shape), seed, turns=turns, cut=cut, folder=tmp_path)
    assert [event.describe() for event in reloaded] == [event.describe() for event in straight]
    assert reloaded == straight
    assert (tmp_path / f"end-{cut}.json").read_bytes() == (tmp_path / "end-None.json").read_bytes()


# --- Spelljammer ------------------------------------------------------------------------------------------


def chases_back(world: World, runner: int, pursuer: int) -> bool:
    """Whether the chain of chases from ``runner`` leads back to ``pursuer`` (then the runner may move after it)."""
    seen = set()
    while runner not in seen and world.has(runner, RoundIntent):
        seen.add(runner)
        chased = world.get(runner, RoundIntent).chase
        if chased is None:
            return False
        if chased == pursuer:
            return True
        runner = chased
    return False


def round_problems(world: World, start: dict[int, tuple[Hex, float]]) -> list[str]:
    """What the round just stepped broke: a mode the vegetation forbids, more squares than the mode's rate,
    more hexes than the squares cover, a pursuer running onto its runner's hex (it stops beside it; the rules
    know no collisions, so a runner may still come onto its pursuer's hex), a chase or flight naming the gone."""
    hex_ft = world.rules["spelljammer"].hex_ft
    problems = []
    for entity, (mobility, intent, state, position) in world.query(Mobility, RoundIntent, RoundState, Position):
        if entity not in start:
            continue
        where, carry = start[entity]
        assert state.mode is not None
        if state.mode not in allowed_modes(state.vegetation):
            problems.append(f"entity {entity} went at {state.mode} in {state.vegetation}")
        rate = movement_rate(mobility.tmr, state.mode, mobility.encumbrance, state.vegetation)
        if state.squares > rate + 1e-9:
            problems.append(f"entity {entity} covered {state.squares} squares, its rate is {rate}")
        moved = distance(where, position.hex)
        if moved != state.moved_hex or moved > math.floor(state.squares * SQUARE_FT / hex_ft + carry + 1e-9):
            problems.append(f"entity {entity} moved {moved} hexes on {state.squares} squares ({state.moved_hex})")
        runner = intent.chase
        if runner is not None:
            if not world.has(runner, Mobility):
                problems.append(f"entity {entity} chases {runner}, which is gone")
            elif moved and position.hex == world.get(runner, Position).hex and not chases_back(world, runner, entity):
                problems.append(f"entity {entity} ran onto the hex of its runner {runner}")
        gone = [foe for foe in intent.flee_from if not world.exists(foe)]
        problems.extend(f"entity {entity} flees {foe}, which is gone" for foe in gone)
    return problems


@RUNS
@given(
    seed=seeds,
    characters=st.integers(2, 12),
    zones=st.integers(0, 4),
    rounds=st.integers(10, 30),
    chance=st.sampled_from([0.0, 0.1, 0.3]),
)
def test_random_chase_worlds_keep_the_rules_round_after_round(
    seed: int, characters: int, zones: int, rounds: int, chance: float
) -> None:
    """The planner writes only what the rules allow, so no round is refused; characters vanish between rounds at
    random (a runner or a pursuer mid-chase) and the chase links let go of them."""
    world, cast = chase_world(seed, characters, zones)
    rng = random.Random(seed)
    for turn in range(rounds):
        alive = [entity for entity in cast if world.exists(entity)]
        if alive and rng.random() < chance:
            world.despawn(rng.choice(alive))
        plan_round(world, cast, rng)
        start = {
            entity: (position.hex, state.carry_hex) for entity, (position, state) in world.query(Position, RoundState)
        }
        world.step()
        problems = round_problems(world, start)
        assert problems == [], f"round {turn}: {problems}"


def chase_run(seed: int, characters: int, rounds: int, cut: int | None, folder: Path) -> list[Event]:
    """Every event of ``rounds`` rounds of a chase world, saved and loaded back before round ``cut``."""
    world, cast = chase_world(seed, characters, zones=3)
    rng = random.Random(seed)
    log: list[Event] = []
    for turn in range(rounds):
        if turn == cut:
            world.save(folder / "cut.json")
            world = World.load(folder / "cut.json")
        plan_round(world, cast, rng)
        log.extend(world.step())
    return log


@RUNS
@given(seed=seeds, characters=st.integers(2, 10), rounds=st.integers(4, 16), cut=st.integers(0, 15))
def test_saving_and_loading_a_chase_at_any_round_changes_nothing_that_follows(
    tmp_path: Path, seed: int, characters: int, rounds: int, cut: int
) -> None:
    cut %= rounds
    straight = chase_run(seed, characters, rounds, None, tmp_path)
    reloaded = chase_run(seed, characters, rounds, cut, tmp_path)
    assert reloaded == straight

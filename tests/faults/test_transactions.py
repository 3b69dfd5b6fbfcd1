"""Bad input and faults, part 3: a step that raises leaves the world exactly as it was before the step.

A busy mixed world (forty entities in motion: see ``support.worlds``) is made to fail at different points of
a turn: a bad intent refused in the INTENT phase after a mount's Riding roll has used the dice, a climb refused in
the MOVEMENT phase after every walker has moved and rolled, a rider's dismount refused in the MOUNTED phase after
collisions, falls and stalls, a game's own processor raising inside the turn band, and a failure after the step
queued spawns and despawns. Each time the world's save file (entities, components, dice, turn, next entity id,
rules) is byte for byte the one written before the step, the last step's events are still the world's events,
and no handler heard anything of the failed turn. Once the wish is put right, the world steps on exactly as a
twin that never failed.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest
from support import in_phase
from support.worlds import (
    Cast,
    chase_world,
    fingerprint,
    mixed_world,
    plan_round,
    plan_turn,
    saved_bytes,
    step_refusing,
)

from esper_motion.components import (
    Control,
    Facing,
    Flight,
    FlightIntent,
    Intent,
    Mount,
    Mover,
    MoveState,
    Position,
    Rider,
    RoundIntent,
    Velocity,
)
from esper_motion.components.spelljammer import SpeedMode
from esper_motion.ecs import Event, IntentError, Phase, RollMade, System, World
from esper_motion.systems.gurps import preview
from esper_motion.systems.gurps.shared.movers import bodies

SEED = 12


def busy_world(seed: int = SEED) -> tuple[World, Cast]:
    """Forty entities after six planned turns: some at speed, some mounted, some in the air."""
    world, cast = mixed_world(seed, groups=4)
    rng = random.Random(seed)
    for _ in range(6):
        plan_turn(world, cast, rng)
        step_refusing(world)
    return world, cast


def middle_runner(world: World, cast: Cast) -> int:
    """A runner on foot near the middle of the initiative order (others act before and after it)."""
    order = [body.entity for body in bodies(world) if body.entity in cast.runners]
    return order[len(order) // 2]


class Probe(System):
    """A game's own part of the turn that calls ``action`` when it runs."""

    def __init__(self, action: Callable[[], object]) -> None:
        super().__init__()
        self.action = action

    def run(self) -> None:
        """Run the action."""
        self.action()


def bad_throttle(world: World, cast: Cast) -> int:
    """A deceleration below a standstill written on a runner: a value the Intent accepts and the rules refuse."""
    runner = middle_runner(world, cast)
    world.get(runner, Intent).throttle = -(world.get(runner, Velocity).yps + 5)
    return runner


def bad_climb(world: World, cast: Cast) -> int:
    """A climb no turn's movement pays for, on a flier with lift."""
    flier = next(f for f in cast.fliers if not world.get(f, Flight).stalled)
    world.get(flier, FlightIntent).climb_yd = 500
    return flier


def bad_dismount(world: World, cast: Cast) -> int:
    """A rider's dismount by Change Posture, written by hand, from a horse that trots 6 yards this turn."""
    for horse in cast.horses:
        riders = world.get(horse, Mount).riders
        if not riders:
            continue
        world.get(horse, Velocity).yps = 6
        world.get(horse, Control).state, world.get(horse, Control).loss_cause = MoveState.NORMAL, None
        for heading in range(6):  # the way it faces, or another with room to trot
            world.get(horse, Velocity).heading = world.get(horse, Facing).direction = heading
            forecast = preview(world, horse)
            if len(forecast.path) == 6 and forecast.runs_into is None:
                link = world.get(riders[0], Rider)
                link.action, link.action_target = "dismount", horse
                return riders[0]
    raise AssertionError("no ridden horse with room to trot")


@pytest.mark.parametrize(
    ("spoil", "field_name", "phase"),
    [
        (bad_throttle, "throttle", Phase.INTENT),
        (bad_climb, "FlightIntent.climb_yd", Phase.MOVEMENT),
        (bad_dismount, "Rider.action", Phase.MOUNTED),
    ],
    ids=[
        "a deceleration refused in INTENT after a feat roll",
        "a climb refused in MOVEMENT as everyone moves",
        "a dismount refused in MOUNTED after the whole turn",
    ],
)
def test_a_refused_step_leaves_the_world_exactly_as_it_was(
    spoil: Callable[[World, Cast], int], field_name: str, phase: Phase
) -> None:
    world, cast = busy_world()
    proud = next(h for h in cast.horses if world.get(h, Mount).riders)
    world.get(proud, Mount).training = "not fully broken"
    world.get(proud, Intent).push = True  # a risky feat: its rider rolls Riding+2 before any intent is checked
    culprit = spoil(world, cast)
    heard: list[Event] = []
    world.on(RollMade, heard.append)
    where = {entity: position.hex for entity, (position,) in world.query(Position)}
    moved: list[bool] = []
    in_phase(world, Probe(lambda: world.dice.roll("3d6")), Phase.INTENT)  # the game's own roll, early in the turn
    probe = Probe(lambda: moved.append(any(p.hex != where[e] for e, (p,) in world.query(Position))))
    in_phase(world, probe, Phase.ACCELERATION)
    before = fingerprint(world)  # what a save holds
    events, turn = list(world.events), world.turn
    with pytest.raises(IntentError) as refused:
        world.step()
    assert (refused.value.entity, refused.value.field) == (culprit, field_name)
    assert moved == ([True] if phase is Phase.MOUNTED else [])  # how far the turn got before it failed
    assert fingerprint(world) == before
    assert world.events == events
    assert world.turn == turn
    assert heard == []


class Boom(System):
    """A game's own part of the turn that fails."""

    def run(self) -> None:
        """Fail."""
        raise RuntimeError("the game's own processor failed")


def test_a_game_system_failing_inside_the_turn_undoes_the_whole_turn(tmp_path: Path) -> None:
    world, _ = busy_world()
    before = fingerprint(world)
    in_phase(world, Boom(), Phase.ACCELERATION)  # after walking, collisions, stalls and falls
    with pytest.raises(RuntimeError, match="own processor failed"):
        world.step()
    assert fingerprint(world) == before


def test_spawns_and_despawns_queued_by_a_failed_step_are_dropped(tmp_path: Path) -> None:
    world, cast = busy_world()
    gone = cast.obstacles[0]
    made: list[int] = []

    def churn() -> None:
        made.append(world.spawn(Position(0, 0), Mover(basic_move=5)))
        world.despawn(gone)

    in_phase(world, Probe(churn), Phase.MOVEMENT)
    in_phase(world, Boom(), Phase.CLEANUP)
    before = fingerprint(world)
    with pytest.raises(RuntimeError):
        world.step()
    assert fingerprint(world) == before  # the next entity id included
    assert world.exists(gone)
    assert not world.exists(made[0])


def test_after_a_refusal_the_world_steps_on_as_one_that_never_failed(tmp_path: Path) -> None:
    failing, cast = busy_world()
    twin, _ = busy_world()
    runner = middle_runner(failing, cast)
    failing.get(runner, Intent).throttle = -(failing.get(runner, Velocity).yps + 5)
    with pytest.raises(IntentError):
        failing.step()
    failing.get(runner, Intent).throttle = 0
    rng_failing, rng_twin = random.Random(1), random.Random(1)
    for _ in range(5):
        assert step_refusing(failing)[0] == step_refusing(twin)[0]
        plan_turn(failing, cast, rng_failing)
        plan_turn(twin, cast, rng_twin)
    (tmp_path / "twin").mkdir()
    assert saved_bytes(failing, tmp_path) == saved_bytes(twin, tmp_path / "twin")


def test_a_refused_chase_round_leaves_the_save_file_byte_for_byte_the_same(tmp_path: Path) -> None:
    world, cast = chase_world(seed=4, characters=10, zones=3)
    rng = random.Random(4)
    for _ in range(4):
        plan_round(world, cast, rng)
        world.step()
    plan_round(world, cast, rng)
    chaser = cast[5]
    intent = world.get(chaser, RoundIntent)
    intent.chase, intent.heading, intent.flee_from = cast[6], None, ()
    intent.mode = SpeedMode.DODGE  # no chase is run at Dodge
    before = saved_bytes(world, tmp_path)
    with pytest.raises(IntentError, match="while chasing"):
        world.step()
    assert saved_bytes(world, tmp_path) == before

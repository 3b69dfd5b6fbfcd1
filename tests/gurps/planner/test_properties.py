"""Random busy worlds in which some movers have goals, stepped many turns: the planner never writes an intent the
step refuses, and the rules' invariants hold (``support.worlds``).

The mixed worlds of ``support.worlds`` (runners, vehicles, horses with riders and without, fliers, obstacles, bad
footing) get goals for some runners, vehicles, free horses, riders and fliers, drawn from the seed: a hex to go to,
stopping or not, someone to pursue (to a range, or to ram), flee, keep beside or charge pass after pass, a patrol, a
hold, each with a caution. Every other entity gets the random wishes of ``plan_turn``; the goal movers' intents are
the planner's. A step that refuses anything but a wish the preview cannot see fails the test, whoever it names.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.worlds import (
    Cast,
    crowding_problems,
    link_problems,
    meetings,
    mixed_world,
    plan_turn,
    speed_problems,
    step_refusing,
    turn_limits,
)

from esper_motion.components import Caution, Charge, Flee, GoTo, Hold, KeepStation, Patrol, Position, Pursue, Rider
from esper_motion.ecs import World
from esper_motion.systems.gurps import Rules
from esper_motion.systems.gurps.events import GoalLost
from esper_motion.systems.gurps.planner import system as planner_system

RUNS = settings(
    max_examples=12,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def give_goals(world: World, cast: Cast, rng: random.Random) -> list[int]:
    """Give the first mover and about half the other runners, vehicles, free horses, riders and fliers a goal (a
    rider's steers its mount); return them."""
    horses = [h for h in cast.horses if not _ridden(world, h)]
    movers = [*cast.runners, *cast.vehicles, *horses, *cast.riders, *cast.fliers]
    others = [entity for entity in world.entities() if world.has(entity, Position)]
    side = max(q for q, _ in (world.get(e, Position).hex for e in others)) + 1
    chosen = []
    for number, entity in enumerate(movers):
        if number and rng.random() < 0.5:  # the first always has one
            continue
        target = rng.choice([other for other in others if other != entity])
        hex = (rng.randrange(side), rng.randrange(side))
        goal = rng.choice(
            [
                GoTo(hex, stop=rng.random() < 0.5),
                Pursue(target, range_yd=rng.randrange(3), ram=rng.random() < 0.2),
                Flee(target, range_yd=rng.randrange(1, 15)),
                KeepStation(target, range_yd=rng.randrange(1, 3)),
                Patrol((hex, (rng.randrange(side), rng.randrange(side)))),
                Hold(),
                Charge(target, run_yd=rng.randrange(2, 15)),
            ]
        )
        world.add(entity, goal)
        world.add(entity, Caution(rng.choice([0.0, 0.0, 0.2, 0.5, 1.0])))
        chosen.append(entity)
    return chosen


def _ridden(world: World, horse: int) -> bool:
    return any(rider.mount == horse for _, (rider,) in world.query(Rider))


@RUNS
@given(
    seed=st.integers(0, 2**32 - 1),
    shape=st.tuples(st.integers(1, 2), st.sampled_from([Rules.basic(), Rules.house()])),
    turns=st.integers(15, 40),
)
def test_the_planner_never_writes_an_intent_the_step_refuses(seed: int, shape: tuple[int, Rules], turns: int) -> None:
    world, cast = mixed_world(seed, *shape)
    rng = random.Random(seed)
    planned = give_goals(world, cast, rng)
    for turn in range(turns):
        plan_turn(world, cast, rng)
        events, _, (speeds, met) = step_refusing(world, lambda: (turn_limits(world), meetings(world)))
        problems = speed_problems(world, speeds, events) + link_problems(world) + crowding_problems(world, met, events)
        assert problems == [], f"turn {turn}: {problems}"
        if turn == turns // 2 and planned:  # a goal's entity despawned mid-game: the mover holds, no step fails
            named = [g.target for e in planned if isinstance(g := world.try_get(e, Pursue), Pursue)]
            if named and named[0] is not None and world.exists(named[0]) and not world.has(named[0], Rider):
                world.despawn(named[0])
                assert any(isinstance(event, GoalLost) for event in world.step())


@RUNS
@given(seed=st.integers(0, 2**32 - 1), rules=st.sampled_from([Rules.basic(), Rules.house()]))
def test_no_turn_chosen_without_a_search_is_refused_either(
    monkeypatch: pytest.MonkeyPatch, seed: int, rules: Rules
) -> None:
    monkeypatch.setattr(planner_system, "SEARCHES_PER_TURN", 0)  # no search but where no such turn is found
    test_the_planner_never_writes_an_intent_the_step_refuses.hypothesis.inner_test(seed, (1, rules), 20)  # type: ignore[attr-defined]

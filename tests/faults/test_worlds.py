"""The random worlds of :mod:`support.worlds` hold what they promise; their planners write intents the rules take."""

from __future__ import annotations

import random

import pytest
from support.worlds import (
    GROUP_SIZE,
    chase_world,
    link_problems,
    meetings,
    mixed_world,
    plan_round,
    plan_turn,
    refusal_the_preview_cannot_see,
    step_refusing,
)

from esper_motion.components import (
    Intent,
    Rider,
)
from esper_motion.ecs import IntentError


def test_a_mixed_world_holds_every_kind_in_groups_of_ten() -> None:
    world, cast = mixed_world(seed=3, groups=4)
    assert len(world.entities()) == 4 * GROUP_SIZE
    assert {kind: len(ids) for kind, ids in cast.kinds().items()} == {
        "runner": 8,
        "vehicle": 4,
        "horse": 8,
        "rider": 8,
        "flier": 4,
        "obstacle": 4,
        "footing": 4,
    }
    seated = [rider for rider in cast.riders if world.get(rider, Rider).mount is not None]
    assert len(seated) == 4
    assert link_problems(world) == []
    assert meetings(world) == set()


def test_the_planner_writes_intents_the_step_takes() -> None:
    world, cast = mixed_world(seed=5, groups=3)
    rng = random.Random(5)
    asked = 0
    for _ in range(5):
        plan_turn(world, cast, rng)
        asked += sum(1 for _, (intent,) in world.query(Intent) if intent != Intent())
        step_refusing(world)
    assert asked > 20  # the planner does ask for things, not only the default
    assert world.turn == 5


def test_the_round_planner_writes_intents_the_rules_allow() -> None:
    world, cast = chase_world(seed=2, characters=12, zones=4)
    rng = random.Random(2)
    for _ in range(5):
        plan_round(world, cast, rng)
        world.step()
    assert world.turn == 5


@pytest.mark.parametrize("field_name", ["FlightIntent.climb_yd", "Rider.action"])
def test_only_wishes_the_preview_cannot_see_may_be_refused(field_name: str) -> None:
    _, cast = mixed_world(seed=1, groups=1)
    runner = cast.runners[0]
    assert refusal_the_preview_cannot_see(IntentError(runner, field_name, 1, "x"))
    assert not refusal_the_preview_cannot_see(IntentError(runner, "throttle", 1, "x"))
    assert not refusal_the_preview_cannot_see(IntentError(cast.horses[0], "maneuver", "Aim", "x"))

"""Goals and caution: bad input refused by name when set, the world as it was."""

from __future__ import annotations

from typing import Any

import pytest
from support import gurps_world
from support.highspeed import mover

import esper_motion.systems.spelljammer  # noqa: F401  (registers the rule set, for the test of PLAYED)
from esper_motion.components import (
    Caution,
    Charge,
    Flee,
    GoTo,
    Hold,
    Hunt,
    KeepStation,
    Mover,
    Patrol,
    Pursue,
    Velocity,
)
from esper_motion.components.goals import PLAYED
from esper_motion.ecs import LinkError, RuleValueError
from esper_motion.ecs.registry import registered_rule_sets
from esper_motion.ecs.world import declared_members


@pytest.mark.parametrize(
    ("build", "field", "value"),
    [
        (lambda: GoTo((1, 2, 3)), "hex", (1, 2, 3)),
        (lambda: GoTo([1, 2]), "hex", [1, 2]),
        (lambda: GoTo((0, 0), stop=1), "stop", 1),
        (lambda: Pursue(0), "target", 0),
        (lambda: Pursue(2, range_yd=-1), "range_yd", -1),
        (lambda: Flee(2, range_yd=0), "range_yd", 0),
        (lambda: KeepStation("2"), "target", "2"),
        (lambda: Patrol(()), "waypoints", ()),
        (lambda: Patrol([(0, 0)]), "waypoints", [(0, 0)]),
        (lambda: Patrol(((0, 0), (1,))), "waypoints[1]", (1,)),
        (lambda: Patrol(((0, 0),), next_index=1), "next_index", 1),
        (lambda: Charge(0), "target", 0),
        (lambda: Charge(2, run_yd=1), "run_yd", 1),
        (lambda: Charge(2, wheeling=None), "wheeling", None),
        (lambda: Caution(-0.1), "failure_chance", -0.1),
        (lambda: Caution(1.01), "failure_chance", 1.01),
        (lambda: Caution(float("nan")), "failure_chance", None),
    ],
)
def test_a_bad_goal_is_refused_naming_its_field(build: Any, field: str, value: Any) -> None:
    with pytest.raises(RuleValueError) as caught:
        build()
    assert caught.value.field == field
    if value is not None:
        assert caught.value.value == value


@pytest.mark.parametrize("make", [Pursue, Flee, KeepStation, Charge])
def test_a_goal_naming_a_missing_entity_is_refused_at_spawn_naming_entity_and_field(make: Any) -> None:
    world = gurps_world()
    runner = mover(world)
    before = world.entities()
    with pytest.raises(LinkError) as caught:
        mover(world, at=(3, 0), extra=(make(99),))
    field = "source" if make is Flee else "target"
    assert (caught.value.component, caught.value.field, caught.value.value) == (make.__name__, field, 99)
    assert caught.value.entity == runner + 1
    assert world.entities() == before


def test_a_goal_naming_a_missing_entity_or_the_mover_is_refused_at_add() -> None:
    world = gurps_world()
    runner = mover(world)
    with pytest.raises(LinkError, match=rf"entity {runner}: Pursue.target = 42: an entity of this world"):
        world.add(runner, Pursue(42))
    with pytest.raises(LinkError, match=rf"entity {runner}: Pursue.target = {runner}: another entity"):
        world.add(runner, Pursue(runner))
    assert not world.has(runner, Pursue)


def test_one_goal_at_a_time() -> None:
    world = gurps_world()
    runner = mover(world, extra=(GoTo((5, 0)),))
    with pytest.raises(LinkError, match=rf"entity {runner}: GoTo.goal = 'Hold': one goal at a time"):
        world.add(runner, Hold())
    assert not world.has(runner, Hold)
    world.remove(runner, GoTo)
    world.add(runner, Hold())
    assert world.has(runner, Hold)


GURPS_PLAYS = "one of GoTo, Pursue, Flee, KeepStation, Patrol, Hold, Charge, Climb, Land, Swoop"


def test_a_spelljammer_hunt_on_a_gurps_mover_is_refused_when_set_naming_entity_goal_and_what_the_planner_plays() -> (
    None
):
    world = gurps_world()
    runner = mover(world)
    before = world.entities()
    refusal = r"entity {}: Hunt.goal = 'Hunt': a goal the GURPS planner plays, .*\(it holds Mover and Velocity\)"
    with pytest.raises(LinkError, match=refusal.format(runner + 1)) as caught:
        mover(world, at=(3, 0), extra=(Hunt(),))
    assert str(caught.value).endswith(GURPS_PLAYS)
    assert world.entities() == before
    with pytest.raises(LinkError, match=refusal.format(runner)):
        world.add(runner, Hunt())
    assert not world.has(runner, Hunt)
    # What would make an entity holding a Hunt a GURPS mover is refused too.
    hunter = world.spawn(Hunt(), Velocity(0))
    with pytest.raises(LinkError, match=refusal.format(hunter)):
        world.add(hunter, Mover(5))
    assert not world.has(hunter, Mover)


def test_a_goal_set_wrong_between_steps_is_refused_before_the_next() -> None:
    world = gurps_world()
    runner = mover(world, extra=(Caution(0.5),))
    world.get(runner, Caution).failure_chance = 2.0
    with pytest.raises(RuleValueError, match=r"Caution\.failure_chance = 2\.0"):
        world.step()
    assert world.turn == 0


def test_what_played_says_of_each_rule_set_is_what_the_rule_set_itself_declares() -> None:
    # PLAYED restates, for the check made when a goal is set, what each rule set's package declares at import: what
    # makes an entity a member (declare_members) and the goals its scene files take (SceneSupport.goals). Two homes
    # of one fact must agree, and every bundled rule set whose scenes take goals must be in PLAYED (a test may
    # register rule sets of its own).
    bundled = [
        rule_set for rule_set in registered_rule_sets() if rule_set.install.__module__.startswith("esper_motion.")
    ]
    with_goals = {rule_set.name for rule_set in bundled if rule_set.scene and rule_set.scene.goals}
    assert {rule_set.lower() for rule_set, *_ in PLAYED} == with_goals == {"gurps", "spelljammer"}
    played = {rule_set.lower(): (marks, plays) for rule_set, _, marks, plays in PLAYED}
    for rule_set in bundled:
        if rule_set.name in played:
            marks, plays = played[rule_set.name]
            declared = declared_members(rule_set.name)
            assert declared is not None and declared[1] == marks, rule_set.name
            assert rule_set.scene is not None and rule_set.scene.goals == plays, rule_set.name

"""What the planner saves without changing its plans (the walks of one state's candidates, the yards fields round
walls), and where it searches less: a pursuer far behind keeps its plan when the quarry changes speed."""

from __future__ import annotations

from dataclasses import fields

import pytest
from support import gurps_world
from support.highspeed import mover

from esper_motion.components import Intent, KeptPlan, MoveState, Obstacle, Position, Pursue, Velocity
from esper_motion.systems.gurps import plan
from esper_motion.systems.gurps.planner.search import (
    WALKED_FIELDS,
    Fields,
    Walks,
    advance,
    candidates,
    state_of,
    yards_field,
)
from esper_motion.systems.gurps.shared.movers import body_of, installed_rules, limits
from esper_motion.systems.gurps.shared.spatial import SpatialIndex


def test_the_walked_fields_are_every_field_of_an_intent_but_its_throttle() -> None:
    assert set(WALKED_FIELDS) == {field.name for field in fields(Intent)} - {"throttle"}


@pytest.mark.parametrize(
    "start",
    [
        dict(velocity=0),
        dict(velocity=4),
        dict(velocity=9, state=MoveState.HIGH_SPEED, straight_yd=9),
    ],
    ids=["at rest", "ordinary movement", "high speed"],
)
def test_the_candidates_of_a_state_sharing_their_walks_have_the_outcomes_they_have_alone(
    start: dict[str, object],
) -> None:
    world = gurps_world()
    runner = mover(world, **start)  # type: ignore[arg-type]
    world.spawn(Position(4, 0), Obstacle())  # in the way straight on
    mover(world, at=(2, -2))  # a body beside the way
    chosen = installed_rules(world)
    index = SpatialIndex()
    index.rebuild(world)
    root = body_of(world, runner)
    lim = limits(world, root, chosen)
    state = state_of(root)
    walks: Walks = {}
    tried = candidates(root, lim, True, 20, (20, 0))
    shared = [advance(world, chosen, index, root._replace(intent=i), state, lim=lim, walks=walks) for i in tried]
    alone = [advance(world, chosen, index, root._replace(intent=i), state, lim=lim) for i in tried]
    assert shared == alone
    assert len(walks) < len([outcome for outcome in alone if outcome is not None])  # some walks were shared


def test_a_yards_field_kept_serves_a_mover_nearing_its_place_as_a_new_one_would() -> None:
    world = gurps_world()
    for r in range(-3, 4):
        world.spawn(Position(10, r), Obstacle())  # a wall before the place
    runner = mover(world)
    index = SpatialIndex()
    index.rebuild(world)
    body = body_of(world, runner)
    kept: Fields = {}
    for start in ((-40, 0), (-30, 0), (-20, 0), (-10, 0), (9, 0)):
        assert yards_field(index, (12, 0), start, body, kept) == yards_field(index, (12, 0), start, body)
    # reaches 64, 64, 48, 48 and 16: the first walk, no reach cut short, serves 48 too
    assert sum(len(found) for found in kept.values()) == 2


@pytest.mark.parametrize(
    ("quarry_at", "searches"), [((80, 0), False), ((12, 0), True)], ids=["far behind: kept", "near: searched"]
)
def test_a_pursuer_far_behind_keeps_its_plan_when_the_quarry_changes_speed_and_a_near_one_searches_again(
    quarry_at: tuple[int, int], searches: bool
) -> None:
    world = gurps_world()
    quarry = mover(world, at=quarry_at, velocity=3)
    pursuer = mover(world, extra=(Pursue(quarry),))
    world.step()
    assert world.get(pursuer, KeptPlan).throttles
    world.get(quarry, Velocity).yps = 5  # the game speeds it up: not where the plan put it next turn
    shown = plan(world, pursuer)
    assert (shown.evaluated > len(shown.turns)) is searches  # the kept turns only, simulated again: no search

"""How good the planner's plans are, on navigation cases small enough to search exhaustively over the rules' own
legal intents: with no caution it reaches the goal at most one turn later than the best possible and makes no roll;
with more caution it plans no slower.

The exhaustive search tries, from every state, every throttle from a stop to top speed, every turn of up to two
hexsides either way at every yard of the path (or as soon as the rules allow), and no veer or a veer to either side
for the whole path: each through the rules' own check and walk
(:func:`esper_motion.systems.gurps.planner.search.advance`), breadth first until the goal is met. A pushed intent
needs a roll or does what the same unpushed one does, so none is tried for a plan without rolls; yards run straight
past the turning radius at top speed change nothing, so states differing only there are one.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from support import gurps_world, of_type
from support.highspeed import mover

from esper_motion.components import Caution, GoTo, Intent, MoveState, Obstacle, Position, Velocity
from esper_motion.ecs import RollMade, World
from esper_motion.systems.gurps import plan
from esper_motion.systems.gurps.planner.search import advance, aim_of, body_in, meets, state_of
from esper_motion.systems.gurps.shared.movers import body_of, installed_rules, limits
from esper_motion.systems.gurps.shared.spatial import SpatialIndex

CASES = {
    "open ground": dict(start={}, goal=(6, 0), walls=()),
    "round a wall": dict(start={}, goal=(6, 0), walls=((3, -1), (3, 0), (2, 1))),
    "behind it": dict(start=dict(facing=0), goal=(-4, 1), walls=()),
    "from high speed": dict(start=dict(velocity=5, state=MoveState.HIGH_SPEED), goal=(9, 2), walls=()),
}


def world_of(case: dict[str, object], *, caution: float = 0.0) -> tuple[World, int]:
    world = gurps_world()
    start = dict(case["start"])  # type: ignore[call-overload]
    runner = mover(world, basic_move=3, **start, extra=(GoTo(case["goal"]), Caution(caution)))  # type: ignore[arg-type]
    for wall in case["walls"]:  # type: ignore[attr-defined]
        world.spawn(Position(*wall), Obstacle())
    return world, runner


def every_intent(velocity: int, top: int) -> Iterator[Intent]:
    for throttle in range(-velocity, top - velocity + 1):
        for veer in ((), (1,) * velocity, (-1,) * velocity):
            yield Intent(throttle=throttle, veer=veer)
            for turn in (1, -1, 2, -2):
                for at in (None, *range(velocity + 1)):
                    yield Intent(throttle=throttle, turn=turn, turn_at_yd=at, veer=veer)


def best_turns(world: World, runner: int, most: int) -> int:
    """The fewest turns any sequence of legal intents that needs no roll takes to meet the goal."""
    chosen = installed_rules(world)
    index = SpatialIndex()
    index.rebuild(world)
    root = body_of(world, runner)
    aim = aim_of(world, world.get(runner, GoTo), most)
    assert aim is not None
    top = limits(world, root, chosen).top_speed
    enough = int(limits(world, root._replace(velocity=Velocity(top)), chosen).radius)
    layer = {state_of(root)}
    seen = set(layer)
    for turn in range(1, most + 1):
        following = set()
        for state in layer:
            template = body_in(root, state)
            for intent in every_intent(state.velocity, top):
                outcome = advance(world, chosen, index, template._replace(intent=intent), state)
                if outcome is None or outcome.failure_chance or outcome.struck is not None:
                    continue
                if meets(aim, outcome.state, outcome.path, outcome.struck, turn):
                    return turn
                after = outcome.state._replace(straight_yd=min(outcome.state.straight_yd, enough))
                if after not in seen:
                    seen.add(after)
                    following.add(after)
        layer = following
    raise AssertionError(f"no plan within {most} turns")


def turns_played(world: World, runner: int, most: int) -> tuple[int, int]:
    """The turns the planner takes to stop on the goal in play, and the rolls made on the way."""
    goal = world.get(runner, GoTo).hex
    rolls = 0
    for turn in range(1, most + 1):
        rolls += len([roll for roll in of_type(world.step(), RollMade) if roll.entity == runner])
        body = body_of(world, runner)
        if body.position.hex == goal and body.control.state is MoveState.NORMAL:  # there, and it can stop at once
            return turn, rolls
    raise AssertionError(f"not there in {most} turns")


@pytest.mark.parametrize("name", list(CASES))
def test_with_no_caution_the_planner_is_at_most_a_turn_slower_than_the_best_and_rolls_nothing(name: str) -> None:
    world, runner = world_of(CASES[name])
    best = best_turns(world, runner, 8)
    played, rolls = turns_played(world, runner, best + 3)
    assert (played <= best + 1, rolls) == (True, 0), (played, best)


@pytest.mark.parametrize("name", list(CASES))
def test_with_more_caution_the_plan_is_never_slower(name: str) -> None:
    careful = plan(*world_of(CASES[name]), turns=8)
    bold = plan(*world_of(CASES[name], caution=0.5), turns=8)
    assert careful.reaches and bold.reaches
    assert len(bold.turns) <= len(careful.turns)

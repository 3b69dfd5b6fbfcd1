"""A mover with a goal that is down and at rest gets up before it moves on."""

from __future__ import annotations

from esper_motion.components import Control, Facing, GoTo, Intent, Mover, Position, Posture, Velocity
from esper_motion.components.gurps import Maneuver, PostureState
from esper_motion.ecs import World
from esper_motion.systems.gurps import install, plan


def _runner(world: World, posture: PostureState, yps: int = 0) -> int:
    return world.spawn(
        Position(0, 0),
        Facing(0),
        Velocity(yps, heading=0),
        Mover(5),
        Control(),
        Intent(),
        Posture(posture),
        GoTo((12, 0)),
    )


def test_a_prone_mover_at_rest_with_a_goal_stands_up_then_moves_toward_it() -> None:
    world = World(seed=1)
    install(world)
    runner = _runner(world, PostureState.PRONE)
    events = world.step()
    assert [type(e).__name__ for e in events if type(e).__name__ == "PostureChanged"] == ["PostureChanged"]
    assert world.get(runner, Posture).state is PostureState.STANDING
    assert world.get(runner, Position).hex == (0, 0)
    world.step()
    assert world.get(runner, Position).hex[0] > 0
    world.close()


def test_a_standing_mover_moves_at_once() -> None:
    world = World(seed=1)
    install(world)
    runner = _runner(world, PostureState.STANDING)
    world.step()
    assert world.get(runner, Position).hex[0] > 0
    world.close()


def test_the_plan_of_a_prone_mover_at_rest_shows_it_getting_up_first() -> None:
    world = World(seed=1)
    install(world)
    runner = _runner(world, PostureState.PRONE)
    shown = plan(world, runner)
    assert [(turn.intent.maneuver, turn.path, turn.rolls) for turn in shown.turns] == [
        (Maneuver.CHANGE_POSTURE, (), ())
    ]
    world.step()  # the step does what the plan showed: it stands up where it lay
    assert world.get(runner, Posture).state is PostureState.STANDING
    assert world.get(runner, Position).hex == (0, 0)
    assert plan(world, runner).turns[0].path  # standing, it plans a move
    world.close()

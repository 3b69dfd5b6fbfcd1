"""Fliers under the planner: a flier in the air is planned in level flight on its air Move, keeps its altitude
whatever climb the game asked, one that cannot hover never plans a turn below its stall speed, and a stalled flier is
not planned (said once)."""

from __future__ import annotations

from support import gurps_world, of_type
from support.highspeed import mover

from esper_motion.components import Control, GoTo, Position, Pursue, Velocity
from esper_motion.components.flight import Flight, FlightIntent, FlightMode
from esper_motion.ecs import World
from esper_motion.systems.gurps import plan
from esper_motion.systems.gurps.events import GoalUnreachable
from esper_motion.systems.gurps.shared.transitions import stall_speed


def flier(world: World, mode: FlightMode, goal: object, *, at: tuple[int, int] = (0, 0), velocity: int = 0) -> int:
    """A flier 10 yd up, air Move 12."""
    return mover(
        world,
        at=at,
        altitude_yd=10.0,
        velocity=velocity,
        basic_move=6,
        dx=12,
        ht=12,
        extra=(Flight(air_move=12, mode=mode), FlightIntent(), goal),
    )


def test_a_hovering_flier_flies_to_a_hex_and_stops_there_at_its_height() -> None:
    world = gurps_world()
    drake = flier(world, FlightMode.HOVER, GoTo((20, 4)))
    for _ in range(6):
        world.get(drake, FlightIntent).climb_yd = 3  # the game's wish: the plan keeps the height
        assert not of_type(world.step(), GoalUnreachable)
    assert world.get(drake, Position) == Position(20, 4, altitude_yd=10.0)
    assert world.get(drake, Velocity).yps == 0


def test_a_flier_that_cannot_hover_never_plans_below_its_stall_speed() -> None:
    world = gurps_world()
    quarry = mover(world, at=(6, 6))
    wyvern = flier(world, FlightMode.CANNOT_HOVER, Pursue(quarry, range_yd=2), velocity=8)
    least = stall_speed(world, wyvern)
    assert least > 0
    shown = plan(world, wyvern)
    assert shown.turns and all(len(turn.path) >= least for turn in shown.turns)
    for _ in range(10):
        world.step()
        assert not world.get(wyvern, Flight).stalled
        assert world.get(wyvern, Control).moved_yd >= least
        assert world.get(wyvern, Position).altitude_yd == 10.0


def test_a_stalled_flier_is_not_planned_and_says_so_once() -> None:
    world = gurps_world()
    wyvern = flier(world, FlightMode.CANNOT_HOVER, GoTo((20, 0)), velocity=8)
    world.get(wyvern, Flight).stalled = True
    said = of_type(world.step(), GoalUnreachable)
    assert [event.why for event in said] == ["stalled: it falls until it recovers"]
    if world.get(wyvern, Flight).stalled:
        assert not of_type(world.step(), GoalUnreachable)

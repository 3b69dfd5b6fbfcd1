"""Fliers for the planner: a flier in the air is planned in level flight at its altitude, on its air Move, and one
that cannot hover never below its stall speed.

A flier in the air with a goal keeps its altitude: the planner writes its ``FlightIntent`` level (no climb, no dive)
beside its ``Intent``, and searches its turns as any mover's (the limits read its air Move and top airspeed once it
is above the ground: Basic Set: High-Speed Movement > High-Speed Flying and Swimming). A flier that cannot hover
(``Flight.mode``) stalls when a turn covers less than a quarter of its top airspeed (Basic Set: Flying Combat >
Cannot Hover): the search takes no turn that covers fewer yards, or ends slower (:func:`floor_yd`). A flier stalled
or wiped out falls, and is not planned.
"""

from __future__ import annotations

from esper_motion.components.flight import Flight, FlightIntent
from esper_motion.ecs import World
from esper_motion.systems.gurps.shared.movers import Body
from esper_motion.systems.gurps.shared.transitions import stall_speed


def airborne_why(world: World, body: Body) -> str | None:
    """Why the planner cannot plan ``body`` in the air now, or None (on the ground, or flying in control)."""
    if body.position.altitude_yd <= 0:
        return None
    flight = world.try_get(body.entity, Flight)
    if flight is None:
        return "in the air without Flight: it falls"
    if flight.stalled or flight.wiped_out:
        return "stalled: it falls until it recovers" if flight.stalled else "wiped out: it falls"
    return None


def floor_yd(world: World, body: Body) -> int:
    """The fewest yards ``body`` may cover in a turn, and end it at: a flier in the air that cannot hover, its stall
    speed; 0 for any other mover."""
    flight = world.try_get(body.entity, Flight)
    if body.position.altitude_yd <= 0 or flight is None or flight.mode.can_hover:
        return 0
    return stall_speed(world, body.entity)


def fly_level(world: World, body: Body) -> None:
    """Write ``body``'s ``FlightIntent`` level, when it is in the air: the plan keeps its altitude."""
    intent = world.try_get(body.entity, FlightIntent)
    if intent is not None and body.position.altitude_yd > 0:
        intent.climb_yd, intent.dive, intent.legs = 0, False, ()

"""Diving: what a dive adds to a flier's speed limits this turn.

:func:`speed_limits` is what the high-speed rules ask for a flier's acceleration and top speed; this module
imports nothing of theirs, so ``esper_motion.systems.gurps.shared.movers`` can call it.
"""

from __future__ import annotations

from esper_motion.components.flight import Flight, FlightIntent
from esper_motion.components.gurps import Intent, Maneuver, Mover
from esper_motion.ecs import World
from esper_motion.systems.gurps import rules
from esper_motion.systems.gurps.options import Rules


def diving(world: World, entity: int) -> bool:
    """Whether ``entity`` spends this turn diving: ``FlightIntent.dive`` on a Move maneuver and nothing else
    (Basic Set: Flying Combat > Flying Fast)."""
    wish = world.try_get(entity, FlightIntent)
    intent = world.try_get(entity, Intent)
    return wish is not None and wish.dive and intent is not None and intent.maneuver is Maneuver.MOVE


def normal_top_speed(flight: Flight, mover: Mover, chosen: Rules) -> int:
    """A flier's top airspeed without any dive: its rated ``Flight.top_airspeed`` reduced for encumbrance as Move
    is, or else 20% over its air Move reduced for encumbrance; under the house rules the better of Encumbered
    Move + 20% and the rated figure (Basic Set: High-Speed Movement > Accelerating, with air Move per High-Speed
    Flying and Swimming; House rules: High Speed Movement). The same figure
    ``esper_motion.systems.gurps.shared.movers.limits`` uses."""
    move = rules.encumbered_move(flight.air_move, mover.encumbrance)
    if chosen.house_control:
        return rules.house_top_speed(move, flight.top_airspeed or 0)
    return rules.encumbered_top_speed(move, flight.top_airspeed, mover.encumbrance)


def speed_limits(world: World, entity: int, chosen: Rules, accel_step: int, top_speed: int) -> tuple[int, int]:
    """(acceleration step, top speed) of a flier in the air this turn, from the ordinary ones.

    - Basic Set: a turn spent diving on a Move maneuver adds 10 to basic air Move and doubles top airspeed
      (:func:`esper_motion.systems.gurps.rules.dive_limits`) (Basic Set: Flying Combat > Flying Fast). Reading chosen:
      the +10 raises the acceleration, the Flying Fast rule's purpose; the safe deceleration and the turning radius keep
      the plain air Move.
    - House rules: the lasting dive bonus (``Flight.dive_bonus_yps``) raises top speed, never past the
      absolute dive maximum (:func:`esper_motion.systems.gurps.rules.house_dive_speed_cap`) (House rules: Flying
      Movement and Combat).
    """
    flight = world.try_get(entity, Flight)
    if flight is None:
        return accel_step, top_speed
    if chosen.house_flight:
        return accel_step, min(top_speed + flight.dive_bonus_yps, rules.house_dive_speed_cap(top_speed))
    if diving(world, entity):
        return rules.dive_limits(accel_step, top_speed)
    return accel_step, top_speed

"""Climbing and descending under a flier's own power, paid from the turn's movement."""

from __future__ import annotations

from typing import Final

import esper

from components.flight import Flight, FlightIntent
from components.gurps import Control, Intent, Maneuver, MoveState
from components.motion import Position, Velocity
from ecs import IntentError, Phase, System
from systems.gurps.aerial import check_winged_flight, initiative_order, step_yards
from systems.gurps.events import AltitudeChanged
from systems.gurps.rules import vertical_move_cost

MOVING_MANEUVERS: Final = frozenset({Maneuver.MOVE, Maneuver.MOVE_AND_ATTACK})
"""Maneuvers that spend the turn's movement; any other maneuver that allows a step may climb a step."""

STILL_MANEUVERS: Final = frozenset({Maneuver.DO_NOTHING, Maneuver.CHANGE_POSTURE})
"""Maneuvers that allow no movement at all, so no climb or descent either."""


class AltitudeSystem(System):
    """MOVEMENT phase, after the level movement: climbs and descents.

    Reads ``FlightIntent`` (``climb_yd``, ``dive``), ``Flight``, ``Intent.maneuver``, ``Velocity``, ``Control``
    (``state``, and ``moved_yd``, the level yards flown this turn); writes ``Position.altitude_yd`` and
    ``Flight.climbed_yd``; emits :class:`AltitudeChanged`.

    Climbing or descending costs movement points like level movement, a 45-degree diagonal yard 1.5
    (:func:`systems.gurps.rules.vertical_move_cost`); the level movement of the turn has already left room
    for the vertical yards (:func:`systems.gurps.aerial.level_yards`) (Basic Set: Flying Combat > Aerial
    Movement > Changing Height). Readings chosen:

    - On Move or Move and Attack the turn has the greater of the velocity and basic air Move as movement
      points; a maneuver that allows a step may climb or descend a step of air Move
      (:func:`systems.gurps.aerial.step_yards`); Do Nothing and Change Posture allow no climb.
    - A flier out of control moves straight ahead and does nothing else, so its climb is not flown.
    - A dive has to be a Move maneuver and go down (Basic Set: Flying Combat > Flying Fast).
    - Asking more than the turn allows, a descent below the ground, a climb while stalled or wiped out (the
      flier falls instead) and a climb on wings in a trace atmosphere or vacuum are
      :class:`~ecs.errors.IntentError` or :class:`~ecs.errors.WorldError`, never clamped.
    """

    phase = Phase.MOVEMENT

    def run(self) -> None:
        """Fly every climb and descent asked for this turn, in initiative order."""
        world = self.world
        asked = []
        for entity, (flight, wish) in esper.get_components(Flight, FlightIntent):
            flight.climbed_yd = 0
            if wish.climb_yd or wish.dive:
                asked.append(entity)
        for entity in initiative_order(world, asked):
            wish = world.get(entity, FlightIntent)
            flight = world.get(entity, Flight)
            control = world.get(entity, Control)
            if control.state is MoveState.OUT_OF_CONTROL:
                continue
            maneuver = world.get(entity, Intent).maneuver
            climb = wish.climb_yd
            if wish.dive and (climb >= 0 or maneuver is not Maneuver.MOVE):
                raise IntentError(
                    entity, "maneuver", maneuver.value, "a dive is a Move maneuver going down and nothing else"
                )
            if flight.stalled or flight.wiped_out:
                raise IntentError(
                    entity, "climb_yd", climb, "0: a flier without lift falls and cannot climb or descend"
                )
            position = world.get(entity, Position)
            if position.altitude_yd + climb < 0:
                raise IntentError(
                    entity, "climb_yd", climb, f"at least {-position.altitude_yd}: the ground is that far below"
                )
            if climb > 0:
                check_winged_flight(world, entity)
            level = control.moved_yd
            cost = vertical_move_cost(level, abs(climb))
            if maneuver in MOVING_MANEUVERS:
                points = max(world.get(entity, Velocity).yps, flight.air_move)
                if cost > points:
                    raise IntentError(
                        entity,
                        "climb_yd",
                        climb,
                        f"a climb and {level} level yards costing at most {points} movement points "
                        f"(this costs {cost:g})",
                    )
            elif maneuver in STILL_MANEUVERS or abs(climb) > step_yards(flight.air_move):
                raise IntentError(
                    entity,
                    "climb_yd",
                    climb,
                    f"at most a step of {step_yards(flight.air_move)} yards up or down on {maneuver.value}, "
                    "none on Do Nothing or Change Posture",
                )
            position.altitude_yd += climb
            flight.climbed_yd = climb
            world.emit(AltitudeChanged(entity, climb, position.altitude_yd, level, cost))

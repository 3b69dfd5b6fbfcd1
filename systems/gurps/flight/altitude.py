"""Climbing and descending under a flier's own power, paid from the turn's movement."""

from __future__ import annotations

from typing import Final

import esper

from esper_motion.components.flight import Flight, FlightIntent, Leg
from esper_motion.components.gurps import Control, Intent, Maneuver, Mover, MoveState
from esper_motion.components.motion import Position, Velocity
from esper_motion.ecs import IntentError, Phase, World, WorldError
from esper_motion.systems.gurps import rules
from esper_motion.systems.gurps.events import AltitudeChanged, EnteredHighSpeed
from esper_motion.systems.gurps.flight.aerial import check_winged_flight, scene_atmosphere
from esper_motion.systems.gurps.shared.climbing import house_climbing, legs_cost, movement_points
from esper_motion.systems.gurps.shared.dive import normal_top_speed
from esper_motion.systems.gurps.shared.figure import occupied_hexes
from esper_motion.systems.gurps.shared.movers import initiative_order, installed_rules
from esper_motion.systems.gurps.shared.spatial import IndexedSystem, figure_height_yd

STILL_MANEUVERS: Final = frozenset({Maneuver.DO_NOTHING, Maneuver.CHANGE_POSTURE})
"""Maneuvers that allow no movement at all, so no climb or descent either."""


def _check_under(world: World, entity: int, ceiling_yd: float) -> None:
    """Refuse a flier whose top is above the scene's indoor ceiling (placed there, or the ceiling lowered)."""
    position, mover = world.try_get(entity, Position), world.try_get(entity, Mover)
    if position is None or mover is None:
        return  # not a body on the map
    top = position.altitude_yd + figure_height_yd(mover)
    if top > ceiling_yd:
        raise WorldError(
            f"entity {entity} reaches {top:g} yd up, above the ceiling {ceiling_yd:g} yd up "
            "(Atmosphere.ceiling_yd): place it lower or raise the ceiling"
        )


class AltitudeSystem(IndexedSystem):
    """MOVEMENT phase, after the level movement: climbs and descents. Reads ``FlightIntent`` (``climb_yd``, ``dive``),
    ``Flight``, ``Intent.maneuver``, ``Velocity``, ``Control`` (``state``, and ``moved_yd``, the level yards flown this
    turn) and the shared spatial index; writes ``Position.altitude_yd``, ``Flight.climbed_yd`` (last turn's moves to
    ``previous_climb_yd``) and, for a house take-off without hover, ``Control.state``; emits :class:`AltitudeChanged`
    and :class:`EnteredHighSpeed`. Implements Basic Set: Flying Combat.

    Its reading of the rules: docs/gurps-basic.md > How each system reads the rules > AltitudeSystem.
    """

    phase = Phase.MOVEMENT
    acts_on = (Flight,)

    def run(self) -> None:
        """Fly every climb and descent asked for this turn, in initiative order."""
        world = self.world
        fliers = esper.get_components(Flight, FlightIntent)
        if not fliers:
            return  # no scene air to look up
        house = installed_rules(world).house_flight
        ceiling = scene_atmosphere(world).ceiling_yd
        asked = []
        for entity, (flight, wish) in fliers:
            if ceiling is not None:
                _check_under(world, entity, ceiling)
            flight.previous_climb_yd = flight.last_climb_yd
            flight.climbed_yd, flight.flown_legs = 0, ()
            if wish.climb_yd or wish.dive or wish.legs:
                asked.append(entity)
        for entity in initiative_order(world, asked):
            wish = world.get(entity, FlightIntent)
            flight = world.get(entity, Flight)
            control = world.get(entity, Control)
            if control.state is MoveState.OUT_OF_CONTROL:
                continue
            maneuver = world.get(entity, Intent).maneuver
            legs = wish.vertical_legs()
            climb = sum(leg for _, leg in legs)
            asked_field, asked_value = (
                ("FlightIntent.legs", wish.legs) if wish.legs else ("FlightIntent.climb_yd", climb)
            )
            if wish.dive and (climb >= 0 or maneuver is not Maneuver.MOVE):
                raise IntentError(
                    entity, "maneuver", maneuver.value, "a dive is a Move maneuver going down and nothing else"
                )
            if flight.stalled or flight.wiped_out:
                raise IntentError(
                    entity, asked_field, asked_value, "0: a flier without lift falls and cannot climb or descend"
                )
            position = world.get(entity, Position)
            level = control.moved_yd
            self._check_legs(entity, wish, position.altitude_yd, level)
            if any(leg > 0 for _, leg in legs):
                check_winged_flight(world, entity)
                if house and position.altitude_yd == 0 and not flight.mode.can_hover:
                    top = normal_top_speed(flight, world.get(entity, Mover), installed_rules(world))
                    if not rules.house_can_take_off(level, top):
                        raise IntentError(
                            entity,
                            asked_field,
                            asked_value,
                            f"0 until it has run {-(-top // 4)} yards on the ground this turn: a flier that cannot "
                            f"hover takes off at a quarter of its top airspeed {top} (it ran {level})",
                        )
            cost = legs_cost(level, legs, house_climbing(world, entity))
            points = movement_points(world, entity)
            if points is not None:
                if cost > points:
                    raise IntentError(
                        entity,
                        asked_field,
                        asked_value,
                        f"a climb and {level} level yards costing at most {points} movement points "
                        f"(this costs {cost:g})",
                    )
            elif maneuver in STILL_MANEUVERS or sum(abs(leg) for _, leg in legs) > rules.step_yards(flight.air_move):
                raise IntentError(
                    entity,
                    asked_field,
                    asked_value,
                    f"at most a step of {rules.step_yards(flight.air_move)} yards up or down on {maneuver.value}, "
                    "none on Do Nothing or Change Posture",
                )
            self._check_room(entity, legs, asked_field, asked_value)
            took_off = position.altitude_yd == 0
            for _, leg in legs:
                position.altitude_yd += leg
                world.emit(AltitudeChanged(entity, leg, position.altitude_yd, level, cost))
            flight.climbed_yd, flight.flown_legs = climb, legs
            self.index.refile(world, entity)  # a flier lying flat fills two hexes in the air, one on the ground
            took_off = took_off and position.altitude_yd > 0
            if house and took_off and not flight.mode.can_hover and control.state is MoveState.NORMAL:
                control.state = MoveState.HIGH_SPEED
                world.emit(EnteredHighSpeed(entity, world.get(entity, Velocity).yps))

    def _check_room(self, entity: int, legs: tuple[Leg, ...], field: str, value: object) -> None:
        """Refuse climbs and descents that run into a body or an obstacle on the flier's hexes (one it did not meet
        already), each leg flown from where the last one ended (:meth:`SpatialIndex.met_on_the_way`), and climbs
        that would take its top past an indoor ceiling (``Atmosphere.ceiling_yd``)."""
        world = self.world
        altitude = world.get(entity, Position).altitude_yd
        height = figure_height_yd(world.get(entity, Mover))
        ceiling = scene_atmosphere(world).ceiling_yd
        for number, (_, leg) in enumerate(legs):
            end = altitude + leg
            if ceiling is not None and leg > 0 and end + height > ceiling:
                raise IntentError(
                    entity,
                    field,
                    value,
                    f"climbs and dives with room for them: leg {number} ({leg:+} yd from {altitude:g} yd) takes the "
                    f"flier's top ({height:g} yd tall) past the ceiling {ceiling:g} yd up",
                )
            met = self.index.met_on_the_way(
                entity,
                before=occupied_hexes(world, entity, altitude),
                after=occupied_hexes(world, entity, end),
                start_yd=altitude,
                end_yd=end,
                height_yd=height,
            )
            if met:
                bottom, top, other = met[0]
                raise IntentError(
                    entity,
                    field,
                    value,
                    f"climbs and dives with room for them: leg {number} ({leg:+} yd from {altitude:g} yd) runs into "
                    f"entity {other}, from {bottom:g} to {top:g} yd up on the flier's hexes",
                )
            altitude = end

    @staticmethod
    def _check_legs(entity: int, wish: FlightIntent, altitude_yd: float, level_yd: int) -> None:
        """Refuse a descent below the ground, and climbs and dives starting past the level yards flown."""
        if not wish.legs:
            if altitude_yd + wish.climb_yd < 0:
                raise IntentError(
                    entity,
                    "FlightIntent.climb_yd",
                    wish.climb_yd,
                    f"at least {-altitude_yd}: the ground is that far below",
                )
            return
        for index, (at, leg) in enumerate(wish.legs):
            if at > level_yd:
                raise IntentError(
                    entity,
                    "FlightIntent.legs",
                    wish.legs,
                    f"climbs and dives starting within the {level_yd} level yards flown this turn (leg {index} "
                    f"starts at yard {at})",
                )
            altitude_yd += leg
            if altitude_yd < 0:
                raise IntentError(
                    entity,
                    "FlightIntent.legs",
                    wish.legs,
                    f"climbs and dives that stay above the ground (leg {index} would end {-altitude_yd:g} yd below it)",
                )

"""Stalls: a flier that cannot hover has to keep moving, or it falls."""

from __future__ import annotations

from functools import lru_cache
from typing import Final

import esper

from esper_motion.components.flight import Flight
from esper_motion.components.gurps import Control, Intent, Mover
from esper_motion.components.motion import Position
from esper_motion.ecs import Phase, System
from esper_motion.systems.gurps import rules
from esper_motion.systems.gurps.shared.movers import installed_rules
from esper_motion.systems.gurps.shared.transitions import least_speed, stall

# The rules' arithmetic on a few small whole numbers, answered once for each (every flier asks every turn).
_move_cost: Final = lru_cache(maxsize=128, typed=True)(rules.vertical_move_cost)
_house_credit: Final = lru_cache(maxsize=128, typed=True)(rules.house_cannot_hover_credit)


class StallSystem(System):
    """STALL phase, after the flight ceiling: the least speed of a flier that cannot hover. Reads ``Flight``,
    ``Position``, ``Intent.maneuver``, ``Control.moved_yd`` (level yards flown) and the yards climbed and dived
    (``Flight.up_yd``, ``Flight.down_yd``); writes ``Flight`` (stall state) and ``Velocity``; emits :class:`Stalled`.
    Implements Basic Set: Flying Combat.

    Its reading of the rules: docs/gurps-basic.md > How each system reads the rules > StallSystem.
    """

    phase = Phase.STALL
    acts_on = (Flight,)

    def run(self) -> None:
        """Stall every non-hovering flier that flew too little this turn (no dice, entity order)."""
        world = self.world
        chosen = installed_rules(world)
        house = chosen.house_flight
        for entity, (flight, position) in esper.get_components(Flight, Position):
            if flight.mode.can_hover or flight.stalled or flight.wiped_out or position.altitude_yd <= 0:
                continue
            maneuver = world.get(entity, Intent).maneuver
            level = world.get(entity, Control).moved_yd
            vertical = flight.up_yd + flight.down_yd
            if house:
                covered: float = _house_credit(level, vertical)
            else:
                covered = _move_cost(level, vertical)
            needed = least_speed(flight, world.get(entity, Mover), chosen)
            if maneuver not in rules.MOVING_MANEUVERS:
                stall(world, entity, f"took {maneuver.value}, not Move or Move and Attack", covered, needed)
            elif covered < needed:
                stall(world, entity, "covered less than a quarter of top airspeed", covered, needed)

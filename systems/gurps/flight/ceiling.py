"""The flight ceiling: wings need air, and unprotected lungs need it thick enough."""

from __future__ import annotations

import esper

from esper_motion.components.flight import Flight
from esper_motion.components.motion import Position
from esper_motion.ecs import Phase, System
from esper_motion.systems.gurps.events import BreathingChanged
from esper_motion.systems.gurps.flight.aerial import altitude_ft, breathing, check_winged_flight


class CeilingSystem(System):
    """STALL phase, first: the flight ceiling. Reads ``Flight``, ``Position``, ``AirSupply`` and the scene's
    ``Atmosphere``; writes ``Flight.breathing``; emits :class:`BreathingChanged` when a flier crosses a breathing limit.
    Implements Basic Set: Flying Combat.

    Its reading of the rules: docs/gurps-basic.md > How each system reads the rules > CeilingSystem.
    """

    phase = Phase.STALL
    acts_on = (Flight,)

    def run(self) -> None:
        """Check every flier against the scene's air (no dice, entity order)."""
        world = self.world
        for entity, (flight, position) in esper.get_components(Flight, Position):
            if position.altitude_yd > 0 and flight.wings:  # only wings need the air to carry them
                check_winged_flight(world, entity)
            band = breathing(world, entity).value
            if band != flight.breathing:
                flight.breathing = band
                world.emit(BreathingChanged(entity, band, altitude_ft(world, entity)))

"""The flight ceiling: wings need air, and unprotected lungs need it thick enough."""

from __future__ import annotations

import esper

from esper_motion.components.flight import Flight
from esper_motion.components.motion import Position
from esper_motion.ecs import Phase, System
from esper_motion.systems.gurps.events import BreathingChanged
from esper_motion.systems.gurps.flight.aerial import altitude_ft, breathing, check_winged_flight


class CeilingSystem(System):
    """STALL phase, first: the flight ceiling.

    Reads ``Flight``, ``Position``, ``AirSupply`` and the scene's ``Atmosphere``; writes
    ``Flight.breathing``; emits :class:`BreathingChanged` when a flier crosses a breathing limit.

    - A winged flier in the air of a trace atmosphere or a vacuum cannot be flying at all: the step is
      refused with a :class:`~esper_motion.ecs.errors.WorldError` naming the entity and the atmosphere, and the world
      stays as it was before the step. Reading chosen: refusing rather than dropping the flier, because such a flier can
      never have got into the air there; a winged flier on the ground is left alone, and a climb from the ground is
      refused by :class:`~esper_motion.systems.gurps.flight.altitude.AltitudeSystem`.
    - Unprotected, a flier breathes with trouble above 6,000 ft and needs an oxygen mask or Doesn't Breathe
      above 20,000 ft, limits that move with the scene's air pressure
      (:func:`esper_motion.systems.gurps.flight.aerial.breathing`). The effects of thin air belong to the Basic Set's
      Atmospheric Pressure rules, outside these texts: the event tells the game when they begin and end.

    (Basic Set: Flying Combat > Flight Ceiling.)
    """

    phase = Phase.STALL

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

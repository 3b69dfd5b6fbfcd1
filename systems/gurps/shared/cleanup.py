"""CLEANUP: clearing this turn's intents, so nothing is done twice by accident."""

from __future__ import annotations

import esper

from esper_motion.components.flight import FlightIntent
from esper_motion.components.gurps import Intent, Maneuver
from esper_motion.components.mount import Rider
from esper_motion.ecs import Phase, System


class IntentReset(System):
    """CLEANUP phase: puts every ``Intent`` back to its defaults (a Move maneuver, no throttle, no turn, no veer, no
    push, no slam, no matter of life and death, no sequence of turns), in place: the component stays on the entity
    (docs/architecture.md > Performance). Reads ``Rider``; reads and writes ``Intent`` and ``FlightIntent`` (no climb,
    no dive, no legs); emits nothing. ``Control.path`` and the rest of the turn's record stay until the next turn opens,
    for the renderer and replays. Implements Basic Set: High-Speed Movement, the end of the turn.

    Its reading of the rules: docs/gurps-basic.md > How each system reads the rules > IntentReset.
    """

    phase = Phase.CLEANUP

    def run(self) -> None:
        """Clear every intent."""
        for _, intent in esper.get_component(Intent):
            intent.maneuver = Maneuver.MOVE
            intent.throttle = 0
            intent.turn = 0
            intent.turn_at_yd = None
            intent.turns = ()
            intent.push = False
            intent.veer = ()
            intent.slam = False
            intent.life_or_death = False
        for entity, rider in esper.get_component(Rider):
            if rider.mount is not None and (seated := esper.try_component(entity, Intent)) is not None:
                seated.maneuver = Maneuver.DO_NOTHING
        for _, wish in esper.get_component(FlightIntent):
            wish.climb_yd = 0
            wish.dive = False
            wish.legs = ()

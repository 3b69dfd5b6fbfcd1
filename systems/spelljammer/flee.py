"""Breaking off from melee: the free attack each foe gets."""

from __future__ import annotations

from esper_motion.ecs import Phase, System
from esper_motion.systems.spelljammer._shared import characters
from esper_motion.systems.spelljammer.events import Fled
from esper_motion.systems.spelljammer.rules import free_attack_on_fleeing


class Flee(System):
    """MOVEMENT phase, first: offers each foe a character breaks off from its one free melee attack. Reads
    ``RoundIntent.flee_from`` and ``RoundIntent.allies``; writes ``RoundState.fled_from``; emits :class:`Fled`, which a
    game answers by resolving the attack. Implements Spelljammer: Running, Shooting, Chasing and Fleeing > Chasing and
    Fleeing.

    Its reading of the rules: docs/spelljammer.md > How each system reads the rules > Flee.
    """

    phase = Phase.MOVEMENT

    def run(self) -> None:
        """Offer the free attacks of new flights, in initiative order."""
        for entity, (_, intent, state, _) in characters():
            foes = intent.flee_from
            new = [foe for foe in foes if foe not in state.fled_from]
            if new:
                free = free_attack_on_fleeing(len(foes), 1 + intent.allies)
                for foe in new:
                    self.world.emit(Fled(entity, foe, free))
            state.fled_from = foes

"""Breaking off from melee: the free attack each foe gets."""

from __future__ import annotations

from esper_motion.ecs import Phase, System
from esper_motion.systems.spelljammer._shared import characters
from esper_motion.systems.spelljammer.events import Fled
from esper_motion.systems.spelljammer.rules import free_attack_on_fleeing


class Flee(System):
    """MOVEMENT phase, first: offers each foe a character breaks off from its one free melee attack.

    Reads ``RoundIntent.flee_from`` and ``RoundIntent.allies``; writes ``RoundState.fled_from``; emits
    :class:`Fled`, which a game answers by resolving the attack.

    Spelljammer: Running, Shooting, Chasing and Fleeing > Chasing and Fleeing. Readings chosen:

    - The offer comes once a flight, the first round a foe is in ``flee_from``; emptying ``flee_from`` ends
      the flight, and a later one offers again.
    - The odds are the foes in ``flee_from`` against the character and its ``allies``; at 1 to 1 or better
      every foe gets its attack (:func:`~esper_motion.systems.spelljammer.rules.free_attack_on_fleeing`).
    - Who may chase needs no rule of its own: a foe gives chase by setting ``RoundIntent.chase``; if it has
      other opponents, it lists them in its own ``flee_from``, which offers them their free attacks in turn,
      and they may chase as well.
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

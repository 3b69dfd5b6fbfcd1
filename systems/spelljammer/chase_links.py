"""Ending chases and flights whose other side no longer exists."""

from __future__ import annotations

import esper

from esper_motion.ecs import Phase, System
from esper_motion.systems.spelljammer._shared import characters
from esper_motion.systems.spelljammer.events import ChaseEnded


class ChaseLinks(System):
    """INTENT phase, after ``IntentCheck``: ends every chase link that names an entity no longer in the world. Reads and
    writes ``RoundIntent.chase`` and ``RoundIntent.flee_from`` (and ``RoundState.fled_from``); emits
    :class:`ChaseEnded`. A pursuer whose runner is gone stops chasing (``chase`` becomes None) and a runner whose foe is
    gone stops fleeing it, so a despawned runner or pursuer ends the chase cleanly and the rest of the round never meets
    a missing entity (Spelljammer: Running, Shooting, Chasing and Fleeing > Chasing and Fleeing). Implements
    Spelljammer: Running, Shooting, Chasing and Fleeing > Chasing and Fleeing.

    Its page: docs/spelljammer.md.
    """

    phase = Phase.INTENT

    def run(self) -> None:
        """Drop the links to missing entities, in initiative order."""
        for entity, (_, intent, state, _) in characters():
            runner = intent.chase
            if runner is not None and not esper.entity_exists(runner):
                intent.chase = None
                self.world.emit(ChaseEnded(entity, runner, "the runner is gone"))
            gone = [foe for foe in intent.flee_from if not esper.entity_exists(foe)]
            if gone:
                intent.flee_from = tuple(foe for foe in intent.flee_from if foe not in gone)
                state.fled_from = tuple(foe for foe in state.fled_from if foe not in gone)
                for foe in gone:
                    self.world.emit(ChaseEnded(foe, entity, "the foe it fled is gone"))

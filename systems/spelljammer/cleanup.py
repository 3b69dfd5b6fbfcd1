"""Emptying the one-round parts of each intent at the end of the round."""

from __future__ import annotations

from esper_motion.ecs import Phase, System
from esper_motion.systems.spelljammer._shared import characters


class ClearRoundIntents(System):
    """CLEANUP phase: empties the parts of ``RoundIntent`` that last one round. Reads nothing else; writes
    ``RoundIntent`` (``pursuit_dice``, ``pursuit_label`` and ``pursuit_skill`` become empty and ``shots`` 0); emits
    nothing. A pursuit action and shots on the move are done once, in the round they are asked for (Spelljammer:
    Running, Shooting, Chasing and Fleeing > Chasing and Fleeing and > Moving and Shooting); the speed mode, heading and
    chase links stay until the game changes them. Implements Spelljammer: Running, Shooting, Chasing and Fleeing.

    Its page: docs/spelljammer.md.
    """

    phase = Phase.CLEANUP

    def run(self) -> None:
        """Clear every character's one-round intents."""
        for _, (_, intent, _, _) in characters():
            intent.pursuit_dice = None
            intent.pursuit_label = ""
            intent.pursuit_skill = None
            intent.shots = 0

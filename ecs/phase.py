"""The ordered phases of a turn, and the one place a phase becomes an esper priority."""

from __future__ import annotations

from enum import IntEnum
from typing import Final

#: esper runs processors from the highest priority down. Our phases occupy the band
#: ``PRIORITY_TOP - 1`` (INTENT) down to ``PRIORITY_TOP - 10`` (CLEANUP): give a game's own processors a
#: priority above the band to run before every phase, below it to run after the turn.
PRIORITY_TOP: Final = 100


class Phase(IntEnum):
    """One turn's phases in the order they run (docs/architecture.md > The turn).

    >>> [p.name for p in sorted(Phase, key=lambda p: -p.priority)][:3]
    ['INTENT', 'TURNING', 'MOVEMENT']
    """

    INTENT = 1
    TURNING = 2
    MOVEMENT = 3
    COLLISION = 4
    STALL = 5
    CONTROL = 6
    COMBAT = 7
    ACCELERATION = 8
    MOUNTED = 9
    CLEANUP = 10

    @property
    def priority(self) -> int:
        """The esper priority of every system in this phase (higher runs first)."""
        return PRIORITY_TOP - int(self)

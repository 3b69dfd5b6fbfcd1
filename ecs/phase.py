"""The ordered phases of a turn."""

from __future__ import annotations

from enum import IntEnum


class Phase(IntEnum):
    """One turn's phases in the order they run (docs/architecture.md > The turn): ``World.step`` runs the systems
    of a lower phase first, and within a phase in the order they were added.

    >>> [p.name for p in sorted(Phase)][:3]
    ['DECIDE', 'INTENT', 'TURNING']
    """

    DECIDE = 0
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

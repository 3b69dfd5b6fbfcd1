"""The game's own components, beside esper-motion's: ``Keys`` holds what the player pressed since the last turn
(the window's key handler, or the headless run's script, appends to it); ``Caught`` marks the player once a
hound has caught up. Neither is registered: a save would leave them out."""

from __future__ import annotations

from dataclasses import dataclass, field

from esper_motion.ecs import unsaved


@unsaved
@dataclass(slots=True)
class Keys:
    """The keys pressed since the last turn, oldest first: ``up`` and ``down`` change the throttle, ``left`` and
    ``right`` turn a hexside."""

    pressed: list[str] = field(default_factory=list)


@unsaved
@dataclass(slots=True)
class Caught:
    """Which hound caught the player, and on which turn."""

    by: int
    turn: int

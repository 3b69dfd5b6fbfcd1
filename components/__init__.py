"""Plain data the systems read and write: slotted dataclasses that check their values on construction."""

from __future__ import annotations

from components.gurps import (
    Condition,
    Control,
    Footing,
    Intent,
    Maneuver,
    Mover,
    MoveState,
    Obstacle,
    Posture,
    PostureState,
    Skills,
)
from components.motion import Facing, Position, Velocity

__all__ = [
    "Condition",
    "Control",
    "Facing",
    "Footing",
    "Intent",
    "Maneuver",
    "MoveState",
    "Mover",
    "Obstacle",
    "Position",
    "Posture",
    "PostureState",
    "Skills",
    "Velocity",
]

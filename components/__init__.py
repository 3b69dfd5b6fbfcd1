"""Plain data the systems read and write: slotted dataclasses that check their values on construction.

``motion`` holds what every rule set shares (Position, Facing, Velocity); ``gurps``, ``flight`` and
``mount`` the GURPS rule set's components; ``spelljammer`` the Spelljammer rule set's.
"""

from __future__ import annotations

from components.flight import AirSupply, Atmosphere, Flight, FlightIntent, FlightMode
from components.gurps import (
    Condition,
    Control,
    Footing,
    Intent,
    LossCause,
    Maneuver,
    Mover,
    MoveState,
    Obstacle,
    Posture,
    PostureState,
    Skills,
)
from components.motion import Facing, Position, Velocity
from components.mount import Mount, Nerve, Rider
from components.spelljammer import (
    Mobility,
    RangedWeapon,
    RoundIntent,
    RoundState,
    SpeedMode,
    Vegetation,
    VegetationZone,
)

__all__ = [
    "AirSupply",
    "Atmosphere",
    "Condition",
    "Control",
    "Facing",
    "Flight",
    "FlightIntent",
    "FlightMode",
    "Footing",
    "Intent",
    "LossCause",
    "Maneuver",
    "Mobility",
    "Mount",
    "MoveState",
    "Mover",
    "Nerve",
    "Obstacle",
    "Position",
    "Posture",
    "PostureState",
    "RangedWeapon",
    "Rider",
    "RoundIntent",
    "RoundState",
    "Skills",
    "SpeedMode",
    "Vegetation",
    "VegetationZone",
    "Velocity",
]

"""Plain data the systems read and write: slotted dataclasses that check their values on construction.

``motion`` holds what every rule set shares (Position, Facing, Velocity); ``gurps``, ``flight`` and
``mount`` the GURPS rule set's components; ``spelljammer`` the Spelljammer rule set's.
"""

from __future__ import annotations

from esper_motion.components.flight import AirSupply, Atmosphere, Flight, FlightIntent, FlightMode
from esper_motion.components.gurps import (
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
from esper_motion.components.motion import Facing, Position, Velocity
from esper_motion.components.mount import Mount, Nerve, Rider
from esper_motion.components.spelljammer import (
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

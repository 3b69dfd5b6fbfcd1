"""Plain data the systems read and write: slotted dataclasses that check their values on construction.

``motion`` holds what every rule set shares (Position, Facing, Velocity); ``gurps``, ``flight`` and
``mount`` the GURPS rule set's components; ``spelljammer`` the Spelljammer rule set's.
"""

from __future__ import annotations

from esper_motion.components.flight import (
    ATMOSPHERE_CATEGORIES,
    AirSupply,
    Atmosphere,
    Flight,
    FlightIntent,
    FlightMode,
    Leg,
)
from esper_motion.components.gurps import (
    Condition,
    Control,
    FacingChange,
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
from esper_motion.components.mount import (
    CHARGES,
    MOUNT_ATTACKS,
    MOUNT_DEFENSES,
    MOUNT_TRAININGS,
    MOUNTING_SKILLS,
    RANGED_TRICKS,
    RIDER_ACTIONS,
    RISKY_FEATS,
    Mount,
    Nerve,
    Rider,
)
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
    "ATMOSPHERE_CATEGORIES",
    "CHARGES",
    "MOUNTING_SKILLS",
    "MOUNT_ATTACKS",
    "MOUNT_DEFENSES",
    "MOUNT_TRAININGS",
    "RANGED_TRICKS",
    "RIDER_ACTIONS",
    "RISKY_FEATS",
    "AirSupply",
    "Atmosphere",
    "Condition",
    "Control",
    "Facing",
    "FacingChange",
    "Flight",
    "FlightIntent",
    "FlightMode",
    "Footing",
    "Intent",
    "Leg",
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

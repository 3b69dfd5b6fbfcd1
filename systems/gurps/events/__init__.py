"""Events of the GURPS rule set: frozen dataclasses the systems emit, one line each in a turn log.

One class per thing that can happen, in one module per section of the rules: ``highspeed``, ``flight``,
``mounted``, ``posture`` and ``combat``, and ``shared`` for what several sections emit (moving along a path, changes
of velocity, losing and regaining control, falls and collisions). This package re-exports every event,
so ``from esper_motion.systems.gurps.events import Moved`` works whichever module a class lives in. The
modules import nothing from one another; each class keeps the stable name it is registered under, which
is what a save file holds.

Every event names the entity it happened to first. Rolls are reported with ``esper_motion.ecs.RollMade``.
Hexes are axial ``(q, r)`` tuples, speeds yards per second.
"""

from __future__ import annotations

from esper_motion.systems.gurps.events.combat import (
    AttackNotMade,
    AttackRedirected,
    AttackRolled,
    DamageDealt,
    DefenseRolled,
)
from esper_motion.systems.gurps.events.flight import (
    AltitudeChanged,
    BreathingChanged,
    ClimbDiveTurn,
    Falling,
    FellClear,
    Landed,
    LiftRegained,
    Stalled,
    StallRecovered,
    WingspanObstructed,
    WipedOut,
)
from esper_motion.systems.gurps.events.goals import GoalLost, GoalUnreachable
from esper_motion.systems.gurps.events.highspeed import (
    EnteredHighSpeed,
    HighSpeedRefused,
    LeftHighSpeed,
    Skidded,
    Tripped,
)
from esper_motion.systems.gurps.events.mounted import (
    CarrierGone,
    ClimbedOn,
    CrushedByMount,
    Dismounted,
    FeatRefused,
    FellOff,
    ItemDropped,
    MountAttacked,
    MountCalledBack,
    MountCalmed,
    MountCharges,
    MountControlRegained,
    Mounted,
    MountFell,
    MountingAbandoned,
    MountingFailed,
    MountLossOfControl,
    MountOutOfControl,
    MountSpooked,
    PanicChecked,
    ReadyForced,
    SaddleTightening,
    StrappedTrauma,
    WeaponSheathed,
)
from esper_motion.systems.gurps.events.posture import (
    PostureChangeAbandoned,
    PostureChanged,
    PostureChanging,
)
from esper_motion.systems.gurps.events.shared import (
    Collided,
    DodgedAside,
    FallDamage,
    KnockedDown,
    LostControl,
    Moved,
    ObstacleCrossed,
    RegainedControl,
    Turned,
    VelocityChanged,
)

__all__ = [
    "AltitudeChanged",
    "AttackNotMade",
    "AttackRedirected",
    "AttackRolled",
    "BreathingChanged",
    "CarrierGone",
    "ClimbDiveTurn",
    "ClimbedOn",
    "Collided",
    "CrushedByMount",
    "DamageDealt",
    "DefenseRolled",
    "Dismounted",
    "DodgedAside",
    "EnteredHighSpeed",
    "FallDamage",
    "Falling",
    "FeatRefused",
    "FellClear",
    "FellOff",
    "GoalLost",
    "GoalUnreachable",
    "HighSpeedRefused",
    "ItemDropped",
    "KnockedDown",
    "Landed",
    "LeftHighSpeed",
    "LiftRegained",
    "LostControl",
    "MountAttacked",
    "MountCalledBack",
    "MountCalmed",
    "MountCharges",
    "MountControlRegained",
    "MountFell",
    "MountLossOfControl",
    "MountOutOfControl",
    "MountSpooked",
    "Mounted",
    "MountingAbandoned",
    "MountingFailed",
    "Moved",
    "ObstacleCrossed",
    "PanicChecked",
    "PostureChangeAbandoned",
    "PostureChanged",
    "PostureChanging",
    "ReadyForced",
    "RegainedControl",
    "SaddleTightening",
    "Skidded",
    "StallRecovered",
    "Stalled",
    "StrappedTrauma",
    "Tripped",
    "Turned",
    "VelocityChanged",
    "WeaponSheathed",
    "WingspanObstructed",
    "WipedOut",
]

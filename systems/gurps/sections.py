"""Which GURPS systems a world gets: every section's systems for a :class:`Rules`, less the sections a game leaves
out (docs/gurps-basic.md > Installing part of the rule set). Every GURPS system class (and ``IndexedSystem``, the
base of those that share the spatial index) is importable from here, for a game that places its own system beside
one of them (``World.add_system(system, before=PathWalker)``).

High-Speed Movement and the shared systems are the core every mover needs and always run; each other section
can be left out (a game without mounts need not run the MOUNTED phase). No section needs another: any of them may
be left out with any other.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Literal, get_args

from esper_motion.ecs import System, WorldError
from esper_motion.systems.gurps.combat.attack import AttackSystem
from esper_motion.systems.gurps.flight.altitude import AltitudeSystem
from esper_motion.systems.gurps.flight.ceiling import CeilingSystem
from esper_motion.systems.gurps.flight.fall import FallSystem
from esper_motion.systems.gurps.flight.house_climb_turns import HouseClimbTurns
from esper_motion.systems.gurps.flight.house_dive import HouseDiveSpeed
from esper_motion.systems.gurps.flight.house_dive_control import HouseDiveControl
from esper_motion.systems.gurps.flight.house_drop import HouseUncontrolledDrop
from esper_motion.systems.gurps.flight.house_wingspan import HouseWingspan
from esper_motion.systems.gurps.flight.house_wipe_out import HouseWipeOutRecovery
from esper_motion.systems.gurps.flight.stall import StallSystem
from esper_motion.systems.gurps.highspeed.acceleration import VelocityChange
from esper_motion.systems.gurps.highspeed.collision import CollisionResolver
from esper_motion.systems.gurps.highspeed.control import Tripping
from esper_motion.systems.gurps.highspeed.drift import Drifting
from esper_motion.systems.gurps.highspeed.house_recovery import HouseRecovery
from esper_motion.systems.gurps.highspeed.intent import IntentCheck
from esper_motion.systems.gurps.highspeed.maneuvers import ManeuverLimits
from esper_motion.systems.gurps.highspeed.movement import PathWalker
from esper_motion.systems.gurps.highspeed.turning import TurnPlanner
from esper_motion.systems.gurps.mounted.mount_control import MountRecoverySystem
from esper_motion.systems.gurps.mounted.mount_links import MountLinkSystem
from esper_motion.systems.gurps.mounted.mount_orders import MountOrderSystem, refuses_feat
from esper_motion.systems.gurps.mounted.mounted_results import MountedResultsSystem
from esper_motion.systems.gurps.mounted.mounting import MountingSystem
from esper_motion.systems.gurps.mounted.riding import RidingSystem
from esper_motion.systems.gurps.mounted.spooking import SpookingSystem
from esper_motion.systems.gurps.options import Rules
from esper_motion.systems.gurps.planner.system import GoalPlanner
from esper_motion.systems.gurps.posture.posture import PostureSystem
from esper_motion.systems.gurps.shared.cleanup import IntentReset
from esper_motion.systems.gurps.shared.consciousness import ConsciousnessCheck
from esper_motion.systems.gurps.shared.injury_model import InjuryChoice
from esper_motion.systems.gurps.shared.shock import ShockSystem
from esper_motion.systems.gurps.shared.spatial import IndexedSystem, SpatialIndex
from esper_motion.systems.gurps.shared.stun import StunRecovery

__all__ = [
    "SECTIONS",
    "AltitudeSystem",
    "AttackSystem",
    "CeilingSystem",
    "CollisionResolver",
    "ConsciousnessCheck",
    "Drifting",
    "FallSystem",
    "GoalPlanner",
    "HouseClimbTurns",
    "HouseDiveControl",
    "HouseDiveSpeed",
    "HouseRecovery",
    "HouseUncontrolledDrop",
    "HouseWingspan",
    "HouseWipeOutRecovery",
    "IndexedSystem",
    "InjuryChoice",
    "IntentCheck",
    "IntentReset",
    "ManeuverLimits",
    "MountLinkSystem",
    "MountOrderSystem",
    "MountRecoverySystem",
    "MountedResultsSystem",
    "MountingSystem",
    "PathWalker",
    "PostureSystem",
    "RidingSystem",
    "Section",
    "ShockSystem",
    "SpookingSystem",
    "StallSystem",
    "StunRecovery",
    "Tripping",
    "TurnPlanner",
    "VelocityChange",
    "systems_for",
]

Section = Literal["combat", "flight", "mounted", "posture"]
"""A section of the rule set a game may leave out: Combat (attacks and defenses), Flying Combat, Mounted Combat,
Changing Posture."""

SECTIONS: tuple[Section, ...] = get_args(Section)

_CORE = "highspeed"
"""The section of the systems that always run (High-Speed Movement, and the shared opening and closing)."""


def systems_for(rules: Rules, *, without: Collection[Section] = ()) -> list[System]:
    """Every GURPS system for ``rules`` but those of the sections in ``without``, in registration order (the
    phase decides when each runs)."""
    left_out = _checked_sections(without)
    index = SpatialIndex()
    house_flight = rules.house_flight
    every: list[tuple[str, System]] = [
        (_CORE, GoalPlanner()),
        ("mounted", MountOrderSystem()),
        (_CORE, IntentCheck()),
        (_CORE, ConsciousnessCheck()),
        (_CORE, ManeuverLimits()),
        ("posture", PostureSystem()),
        (_CORE, TurnPlanner()),
        (_CORE, PathWalker(index, refuses_feat)),
        ("flight", AltitudeSystem(index)),
        *([("flight", HouseClimbTurns()), ("flight", HouseDiveSpeed())] if house_flight else []),
        (_CORE, CollisionResolver()),
        ("flight", CeilingSystem()),
        *([("flight", HouseWingspan(index)), ("flight", HouseUncontrolledDrop(index))] if house_flight else []),
        ("flight", StallSystem()),
        ("flight", FallSystem(index)),
        (_CORE, Tripping(index)),
        *([("flight", HouseWipeOutRecovery(index))] if house_flight else []),
        (_CORE, HouseRecovery() if rules.house_control else Drifting()),
        ("combat", AttackSystem()),
        (_CORE, VelocityChange()),
        *([("flight", HouseDiveControl())] if house_flight else []),
        ("mounted", MountLinkSystem()),
        ("mounted", MountRecoverySystem()),
        ("mounted", SpookingSystem()),
        ("mounted", MountingSystem()),
        ("mounted", MountedResultsSystem()),
        ("mounted", RidingSystem()),
        (_CORE, StunRecovery()),
        (_CORE, ShockSystem()),
        (_CORE, IntentReset()),
    ]
    return [system for section, system in every if section not in left_out]


def _checked_sections(without: Collection[Section]) -> frozenset[Section]:
    """``without`` as a set, refusing a lone string and a name that is not a section a game may leave out."""
    if isinstance(without, str):
        raise WorldError(
            f"install: without takes a collection of section names, not the string {without!r}: write ({without!r},)"
        )
    for name in without:
        if name not in SECTIONS:
            core = " (High-Speed Movement always runs)" if name == _CORE else ""
            raise WorldError(
                f"install: without names {name!r}, which is not a section that can be left out{core}; "
                f"allowed: {', '.join(SECTIONS)}"
            )
    return frozenset(without)

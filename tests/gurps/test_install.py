"""Installing the GURPS rule set: every system in its phase, in one resolved order, sharing one spatial index."""

from __future__ import annotations

from support import gurps_world

from esper_motion.systems.gurps import PathWalker, Rules, Tripping, systems_for


def test_the_resolved_processor_order_after_install() -> None:
    world = gurps_world()
    assert [type(p).__name__ for p in world.systems] == [
        "GoalPlanner",
        "MountOrderSystem",
        "IntentCheck",
        "ManeuverLimits",
        "PostureSystem",
        "TurnPlanner",
        "PathWalker",
        "AltitudeSystem",
        "CollisionResolver",
        "CeilingSystem",
        "StallSystem",
        "FallSystem",
        "Tripping",
        "Drifting",
        "AttackSystem",
        "VelocityChange",
        "MountLinkSystem",
        "MountRecoverySystem",
        "SpookingSystem",
        "MountingSystem",
        "MountedResultsSystem",
        "RidingSystem",
        "IntentReset",
    ]


def test_the_walker_and_the_tripping_share_one_spatial_index() -> None:
    found = systems_for(Rules.basic())
    walker = next(s for s in found if isinstance(s, PathWalker))
    tripping = next(s for s in found if isinstance(s, Tripping))
    assert walker.index is tripping.index


def test_the_resolved_processor_order_with_the_house_rules() -> None:
    world = gurps_world(Rules.house())
    assert [type(p).__name__ for p in world.systems] == [
        "GoalPlanner",
        "MountOrderSystem",
        "IntentCheck",
        "ManeuverLimits",
        "PostureSystem",
        "TurnPlanner",
        "PathWalker",
        "AltitudeSystem",
        "HouseClimbTurns",
        "HouseDiveSpeed",
        "CollisionResolver",
        "CeilingSystem",
        "HouseWingspan",
        "HouseUncontrolledDrop",
        "StallSystem",
        "FallSystem",
        "Tripping",
        "HouseWipeOutRecovery",
        "HouseRecovery",
        "AttackSystem",
        "VelocityChange",
        "HouseDiveControl",
        "MountLinkSystem",
        "MountRecoverySystem",
        "SpookingSystem",
        "MountingSystem",
        "MountedResultsSystem",
        "RidingSystem",
        "IntentReset",
    ]

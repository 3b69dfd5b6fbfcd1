"""Installing the GURPS rule set: every system in its phase, in one resolved order, sharing one spatial index."""

from __future__ import annotations

import re
from typing import Any

import pytest
from support import gurps_world

from esper_motion.ecs import Phase, System, World, WorldError
from esper_motion.systems.gurps import Rules, install, systems_for
from esper_motion.systems.gurps.flight.altitude import AltitudeSystem
from esper_motion.systems.gurps.highspeed.control import Tripping
from esper_motion.systems.gurps.highspeed.movement import PathWalker
from esper_motion.systems.gurps.mounted.mounted_results import MountedResultsSystem


def test_the_resolved_processor_order_after_install() -> None:
    world = gurps_world()
    assert [type(p).__name__ for p in world.systems] == [
        "GoalPlanner",
        "MountOrderSystem",
        "IntentCheck",
        "ConsciousnessCheck",
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
        "StunRecovery",
        "ShockSystem",
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
        "ConsciousnessCheck",
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
        "StunRecovery",
        "ShockSystem",
        "IntentReset",
    ]


def test_the_resolved_order_of_a_trimmed_install() -> None:
    world = World(seed=7)
    install(world, Rules.house(), without=("mounted", "flight"))
    assert [type(p).__name__ for p in world.systems] == [
        "GoalPlanner",
        "IntentCheck",
        "ConsciousnessCheck",
        "ManeuverLimits",
        "PostureSystem",
        "TurnPlanner",
        "PathWalker",
        "CollisionResolver",
        "Tripping",
        "HouseRecovery",
        "AttackSystem",
        "VelocityChange",
        "StunRecovery",
        "ShockSystem",
        "IntentReset",
    ]


def test_leaving_out_posture_and_combat() -> None:
    world = World(seed=7)
    install(world, without=("posture", "combat"))
    assert [type(p).__name__ for p in world.systems] == [
        "GoalPlanner",
        "MountOrderSystem",
        "IntentCheck",
        "ConsciousnessCheck",
        "ManeuverLimits",
        "TurnPlanner",
        "PathWalker",
        "AltitudeSystem",
        "CollisionResolver",
        "CeilingSystem",
        "StallSystem",
        "FallSystem",
        "Tripping",
        "Drifting",
        "VelocityChange",
        "MountLinkSystem",
        "MountRecoverySystem",
        "SpookingSystem",
        "MountingSystem",
        "MountedResultsSystem",
        "RidingSystem",
        "StunRecovery",
        "ShockSystem",
        "IntentReset",
    ]


@pytest.mark.parametrize(
    ("without", "message"),
    [
        (("mounts",), "without names 'mounts', which is not a section that can be left out; allowed: combat, flight"),
        (("highspeed",), "'highspeed', which is not a section that can be left out (High-Speed Movement always runs)"),
        ("mounted", "without takes a collection of section names, not the string 'mounted': write ('mounted',)"),
    ],
)
def test_an_unknown_section_is_refused_and_nothing_is_installed(without: Any, message: str) -> None:
    world = World(seed=7)
    with pytest.raises(WorldError, match=re.escape(message)):
        install(world, without=without)
    assert world.systems == []
    assert world.rules == {}


class Weather(System):
    """A game's own MOVEMENT system, placed beside ours."""

    phase = Phase.MOVEMENT

    def run(self) -> None:
        pass


class Scoreboard(System):
    """A game's own MOUNTED system."""

    phase = Phase.MOUNTED

    def run(self) -> None:
        pass


def test_a_game_system_placed_between_two_of_ours() -> None:
    world = World(seed=7)
    install(world, without=("mounted", "posture", "combat"))
    world.add_system(Weather(), before=AltitudeSystem)
    assert [type(p).__name__ for p in world.systems] == [
        "GoalPlanner",
        "IntentCheck",
        "ConsciousnessCheck",
        "ManeuverLimits",
        "TurnPlanner",
        "PathWalker",
        "Weather",
        "AltitudeSystem",
        "CollisionResolver",
        "CeilingSystem",
        "StallSystem",
        "FallSystem",
        "Tripping",
        "Drifting",
        "VelocityChange",
        "StunRecovery",
        "ShockSystem",
        "IntentReset",
    ]
    world.step()  # the placed system runs in the turn like any other


def test_after_places_a_system_just_after_ours() -> None:
    world = gurps_world()
    world.add_system(Weather(), after=PathWalker)
    names = [type(p).__name__ for p in world.systems]
    assert names[names.index("PathWalker") + 1] == "Weather"


@pytest.mark.parametrize(
    ("system", "where", "message"),
    [
        (
            Scoreboard(),
            {"before": PathWalker},
            "add_system(Scoreboard) is to run beside PathWalker, but Scoreboard runs in phase MOUNTED and PathWalker "
            "in phase MOVEMENT",
        ),
        (
            Weather(),
            {"before": PathWalker, "after": AltitudeSystem},
            "add_system(Weather) takes before= or after=, not both (before=PathWalker, after=AltitudeSystem)",
        ),
        (
            Weather(),
            {"after": "PathWalker"},
            "add_system(Weather): before= and after= take the class of an installed system, not 'PathWalker'",
        ),
        (
            Scoreboard(),
            {"after": MountedResultsSystem},
            "add_system(Scoreboard) is to run beside MountedResultsSystem, which is not installed in this world",
        ),
    ],
)
def test_a_placement_that_cannot_stand_is_refused(system: System, where: dict[str, Any], message: str) -> None:
    world = World(seed=7)
    install(world, without=("mounted",))
    before = list(world.systems)
    with pytest.raises(WorldError, match=re.escape(message)):
        world.add_system(system, **where)
    assert world.systems == before

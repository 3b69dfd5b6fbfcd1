"""The GURPS rule set: High-Speed Movement, Flying Combat, Mounted Combat and Changing Posture in Armor,
with attacks and defenses in play.

``install(world, rules=Rules.basic())`` adds every system in its phase; ``Rules.house()`` switches to the
campaign's house rules where they differ. ``preview(world, entity)`` tells a game UI which rolls this turn's
intent would need. Everything a game uses is importable from here: the systems, every event, the questions a
game asks between steps (limits and defenses at speed, aerial combat, fighting from the saddle) and the
requests it makes of the MOUNTED phase (mounting, hits, spooking). The pure formulas and tables are in
:mod:`esper_motion.systems.gurps.rules`.

The modules are grouped by the rulebook section they implement, a house-rule system (``house_`` module) beside
the basic one it changes:

- ``highspeed/``: ``intent.IntentCheck`` (refuses bad intents before anything changes),
  ``maneuvers.ManeuverLimits`` (opens the turn; the maneuvers allowed at high speed), ``turning.TurnPlanner``
  (turning radius, early and tight turns), ``movement.PathWalker`` (the path hex by hex: footing, jumping,
  running into things), ``collision.CollisionResolver``, ``control.Tripping`` (trip, skid, fall damage),
  ``drift.Drifting`` (air, water, wheels) or ``house_recovery.HouseRecovery`` (the house cycle of losing and
  regaining control), ``acceleration.VelocityChange``, and ``queries`` (what a game asks of a mover at speed).
- ``flight/``: ``altitude.AltitudeSystem`` (climbs, dives), ``ceiling.CeilingSystem``, ``stall.StallSystem``,
  ``fall.FallSystem``, the house ``HouseClimbTurns``, ``HouseDiveSpeed``, ``HouseWingspan``,
  ``HouseUncontrolledDrop``, ``HouseWipeOutRecovery`` and ``HouseDiveControl``, and ``aerial`` (aerial combat
  questions).
- ``mounted/``: ``mount_orders.MountOrderSystem`` (what a mount agrees to do), ``mount_links.MountLinkSystem``,
  ``mount_control.MountRecoverySystem`` (calling a loose mount back), ``spooking.SpookingSystem``,
  ``mounting.MountingSystem`` (getting on and off), ``mounted_results.MountedResultsSystem`` (staying on, hits,
  noisy shots, the Mount Loss of Control Table), ``riding.RidingSystem`` (riders go with their mounts), and
  ``cavalry`` (fighting from the saddle).
- ``combat/``: ``attack.AttackSystem`` (the COMBAT phase: attack and defense rolls, damage and injury, and what
  they do to riders and mounts) and ``numbers`` (the modifiers of each roll, from the other sections' queries).
- ``posture/``: ``posture.PostureSystem`` (Change Posture, slowed by armor under the optional rule).
- ``shared/``: what every section uses: ``movers`` (initiative order, the Move in use on the ground, in the air
  and in water, top speed, the control roll), ``spatial`` (the index of what is on each hex), ``figure``,
  ``climbing``, ``impact`` (collision damage), ``transitions`` (losing and regaining control, stalling, coming
  to rest) and ``cleanup.IntentReset``.
- ``rules/`` and ``events/``: the pure rules and the events, by the same sections.

The phases and the order of every system in them are on the architecture page (docs/architecture.md).
"""

from __future__ import annotations

from esper_motion.components import Mover, Velocity
from esper_motion.ecs import System, World, declare_members, register_rule_set
from esper_motion.systems.gurps import events, rules
from esper_motion.systems.gurps.combat.attack import AttackSystem, strike_distance_yd, use_injury
from esper_motion.systems.gurps.combat.numbers import (
    AttackNumbers,
    DefenseNumbers,
    InjuryFunction,
    attack_numbers,
    default_injury,
    defense_numbers,
)
from esper_motion.systems.gurps.events import *  # noqa: F403 (every event class, as events.__all__ lists them)
from esper_motion.systems.gurps.flight.aerial import (
    AerialRetreat,
    HeightEffect,
    MoveAndAttack,
    acrobatic_dodge_skill,
    aerial_retreat,
    airborne,
    altitude_ft,
    breathing,
    height_effect,
    house_ranged_distance,
    move_and_attack,
    scene_atmosphere,
    step_yards,
    vertically_clear,
)
from esper_motion.systems.gurps.flight.altitude import AltitudeSystem
from esper_motion.systems.gurps.flight.ceiling import CeilingSystem
from esper_motion.systems.gurps.flight.fall import FallSystem, free_fall_yd
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
from esper_motion.systems.gurps.highspeed.intent import IntentCheck, check_intent
from esper_motion.systems.gurps.highspeed.maneuvers import ManeuverLimits
from esper_motion.systems.gurps.highspeed.movement import PathWalker
from esper_motion.systems.gurps.highspeed.queries import (
    at_high_speed,
    defenses,
    may_dive_for_cover,
    may_dodge,
    may_retreat,
    movement_limits,
    relative_speed_yps,
    speed_modifier,
)
from esper_motion.systems.gurps.highspeed.turning import TurnPlanner
from esper_motion.systems.gurps.mounted.cavalry import (
    HeightDifference,
    LanceAttack,
    MountedAttack,
    MountedDefense,
    Redirect,
    couched_lance,
    counts_as_standing,
    height_difference,
    missed_attack,
    mount_attack_damage,
    mounted_attack,
    mounted_defense,
    rider_dx_modifier,
    target_locations,
)
from esper_motion.systems.gurps.mounted.common import mount_body, mount_seat, seat, seat_hex
from esper_motion.systems.gurps.mounted.mount_control import (
    MountRecoverySystem,
    apply_loss_row,
    call_back,
    end_engagement,
    rest,
)
from esper_motion.systems.gurps.mounted.mount_links import MountLinkSystem
from esper_motion.systems.gurps.mounted.mount_orders import MountOrderSystem, attempt_feat, refuses_feat
from esper_motion.systems.gurps.mounted.mounted_results import (
    MountedResultsSystem,
    charge,
    fire_noisy_shot,
    mount_attack,
    mount_crippled,
    mount_hit,
    note_mount_dx_roll,
    rider_knocked_back,
    rider_stunned,
    take_trick,
)
from esper_motion.systems.gurps.mounted.mounting import (
    MountingSystem,
    dismount,
    jump_off,
    leap_astride,
    mount_up,
    sheathe,
    tighten_saddle,
)
from esper_motion.systems.gurps.mounted.riding import RidingSystem
from esper_motion.systems.gurps.mounted.spooking import SpookingSystem, spook
from esper_motion.systems.gurps.options import Rules
from esper_motion.systems.gurps.planner import GoalPlanner, Plan, PlannedTurn, plan
from esper_motion.systems.gurps.posture.posture import PostureSystem
from esper_motion.systems.gurps.preview import Forecast, RollForecast, preview
from esper_motion.systems.gurps.scene import SCENE_SUPPORT
from esper_motion.systems.gurps.shared.cleanup import IntentReset
from esper_motion.systems.gurps.shared.climbing import climb_cost, level_yards
from esper_motion.systems.gurps.shared.dive import normal_top_speed
from esper_motion.systems.gurps.shared.figure import occupied_hexes
from esper_motion.systems.gurps.shared.movers import BODY_TYPES, relative_velocity
from esper_motion.systems.gurps.shared.spatial import IndexedSystem, SpatialIndex, entity_height_yd, figure_height_yd

__all__ = [
    "AerialRetreat",
    "AltitudeSystem",
    "AttackNumbers",
    "AttackSystem",
    "CeilingSystem",
    "CollisionResolver",
    "DefenseNumbers",
    "Drifting",
    "FallSystem",
    "Forecast",
    "GoalPlanner",
    "HeightDifference",
    "HeightEffect",
    "HouseClimbTurns",
    "HouseDiveControl",
    "HouseDiveSpeed",
    "HouseRecovery",
    "HouseUncontrolledDrop",
    "HouseWingspan",
    "HouseWipeOutRecovery",
    "IndexedSystem",
    "InjuryFunction",
    "IntentCheck",
    "IntentReset",
    "LanceAttack",
    "ManeuverLimits",
    "MountLinkSystem",
    "MountOrderSystem",
    "MountRecoverySystem",
    "MountedAttack",
    "MountedDefense",
    "MountedResultsSystem",
    "MountingSystem",
    "MoveAndAttack",
    "PathWalker",
    "Plan",
    "PlannedTurn",
    "PostureSystem",
    "Redirect",
    "RidingSystem",
    "RollForecast",
    "Rules",
    "SpatialIndex",
    "SpookingSystem",
    "StallSystem",
    "Tripping",
    "TurnPlanner",
    "VelocityChange",
    "acrobatic_dodge_skill",
    "aerial_retreat",
    "airborne",
    "altitude_ft",
    "apply_loss_row",
    "at_high_speed",
    "attack_numbers",
    "attempt_feat",
    "breathing",
    "call_back",
    "charge",
    "check_intent",
    "climb_cost",
    "couched_lance",
    "counts_as_standing",
    "default_injury",
    "defense_numbers",
    "defenses",
    "dismount",
    "end_engagement",
    "entity_height_yd",
    "events",
    "figure_height_yd",
    "fire_noisy_shot",
    "free_fall_yd",
    "height_difference",
    "height_effect",
    "house_ranged_distance",
    "install",
    "jump_off",
    "leap_astride",
    "level_yards",
    "may_dive_for_cover",
    "may_dodge",
    "may_retreat",
    "missed_attack",
    "mount_attack",
    "mount_attack_damage",
    "mount_body",
    "mount_crippled",
    "mount_hit",
    "mount_seat",
    "mount_up",
    "mounted_attack",
    "mounted_defense",
    "move_and_attack",
    "movement_limits",
    "normal_top_speed",
    "note_mount_dx_roll",
    "occupied_hexes",
    "plan",
    "preview",
    "relative_speed_yps",
    "relative_velocity",
    "rest",
    "rider_dx_modifier",
    "rider_knocked_back",
    "rider_stunned",
    "rules",
    "scene_atmosphere",
    "seat",
    "seat_hex",
    "sheathe",
    "speed_modifier",
    "spook",
    "step_yards",
    "strike_distance_yd",
    "systems_for",
    "take_trick",
    "target_locations",
    "tighten_saddle",
    "use_injury",
    "vertically_clear",
]
__all__ += events.__all__


def systems_for(rules: Rules) -> list[System]:
    """Every GURPS system for ``rules``, in registration order (the phase decides when each runs)."""
    index = SpatialIndex()
    house_flight = rules.house_flight
    return [
        GoalPlanner(),
        MountOrderSystem(),
        IntentCheck(),
        ManeuverLimits(),
        PostureSystem(),
        TurnPlanner(),
        PathWalker(index, refuses_feat),
        AltitudeSystem(index),
        *([HouseClimbTurns(), HouseDiveSpeed()] if house_flight else []),
        CollisionResolver(),
        CeilingSystem(),
        *([HouseWingspan(index), HouseUncontrolledDrop(index)] if house_flight else []),
        StallSystem(),
        FallSystem(index),
        Tripping(index),
        *([HouseWipeOutRecovery(index)] if house_flight else []),
        HouseRecovery() if rules.house_control else Drifting(),
        AttackSystem(),
        VelocityChange(),
        *([HouseDiveControl()] if house_flight else []),
        MountLinkSystem(),
        MountRecoverySystem(),
        SpookingSystem(),
        MountingSystem(),
        MountedResultsSystem(),
        RidingSystem(),
        IntentReset(),
    ]


def install(world: World, rules: Rules | None = None) -> None:
    """Install the GURPS systems into ``world`` with ``rules`` (the Basic Set by default).

    Installing twice in one world is an error, not a double run.
    """
    chosen = Rules.basic() if rules is None else rules
    world.install_rules("gurps", chosen)
    for system in systems_for(chosen):
        world.add_system(system)


register_rule_set("gurps", install, Rules, scene=SCENE_SUPPORT)
declare_members("gurps", BODY_TYPES, marked_by=(Mover, Velocity))

"""The GURPS rule set: High-Speed Movement, Flying Combat, Mounted Combat and Changing Posture in Armor,
with attacks and defenses in play.

``install(world, rules=Rules.basic())`` adds every system in its phase; ``Rules.house()`` switches to the
campaign's house rules where they differ, and ``without=("mounted",)`` leaves out a section a game does not use
(:data:`~esper_motion.systems.gurps.sections.SECTIONS`). ``preview(world, entity)`` tells a game UI which rolls this
turn's intent would need. What a game uses is importable from here: every event, the questions a game asks between
steps (limits and defenses at speed, aerial combat, fighting from the saddle, the numbers of an attack) and the
requests it makes of the MOUNTED phase (mounting, hits, spooking). The systems themselves are importable from
:mod:`esper_motion.systems.gurps.sections` (``from esper_motion.systems.gurps.sections import PathWalker``) and
their modules, the geometry they share from the modules of their sections; the pure formulas and tables are in
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
  ``climbing``, ``impact`` (collision damage), ``injury`` (general injury: what an injury does at once),
  ``injury_model`` (the injury model a game chose), ``consciousness.ConsciousnessCheck``, ``stun.StunRecovery`` and
  ``shock.ShockSystem`` (its parts turn by turn), ``transitions`` (losing and regaining control, stalling, coming
  to rest) and ``cleanup.IntentReset``.
- ``sections``: which systems each section installs, and the sections a game may leave out.
- ``rules/`` and ``events/``: the pure rules and the events, by the same sections.

The phases and the order of every system in them are on the architecture page (docs/architecture.md).
"""

from __future__ import annotations

from collections.abc import Collection

from esper_motion.components import Mover, Velocity
from esper_motion.ecs import World, declare_members, register_rule_set
from esper_motion.systems.gurps import events, rules
from esper_motion.systems.gurps.combat.numbers import (
    AttackNumbers,
    DefenseNumbers,
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
)
from esper_motion.systems.gurps.highspeed.intent import check_intent
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
from esper_motion.systems.gurps.mounted.common import seat
from esper_motion.systems.gurps.mounted.mount_control import apply_loss_row, call_back, end_engagement, rest
from esper_motion.systems.gurps.mounted.mount_orders import attempt_feat
from esper_motion.systems.gurps.mounted.mounted_results import (
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
    dismount,
    jump_off,
    leap_astride,
    mount_up,
    sheathe,
    tighten_saddle,
)
from esper_motion.systems.gurps.mounted.spooking import spook
from esper_motion.systems.gurps.options import Rules
from esper_motion.systems.gurps.planner import Plan, PlannedTurn, plan
from esper_motion.systems.gurps.preview import Forecast, RollForecast, preview
from esper_motion.systems.gurps.scene import SCENE_SUPPORT
from esper_motion.systems.gurps.sections import SECTIONS, Section, systems_for
from esper_motion.systems.gurps.shared.injury_model import InjuryFunction, general_rules, register_injury, use_injury
from esper_motion.systems.gurps.shared.movers import BODY_TYPES

__all__ = [
    "SECTIONS",
    "AerialRetreat",
    "AttackNumbers",
    "DefenseNumbers",
    "Forecast",
    "HeightDifference",
    "HeightEffect",
    "InjuryFunction",
    "LanceAttack",
    "MountedAttack",
    "MountedDefense",
    "MoveAndAttack",
    "Plan",
    "PlannedTurn",
    "Redirect",
    "RollForecast",
    "Rules",
    "Section",
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
    "couched_lance",
    "counts_as_standing",
    "default_injury",
    "defense_numbers",
    "defenses",
    "dismount",
    "end_engagement",
    "events",
    "fire_noisy_shot",
    "general_rules",
    "height_difference",
    "height_effect",
    "house_ranged_distance",
    "install",
    "jump_off",
    "leap_astride",
    "may_dive_for_cover",
    "may_dodge",
    "may_retreat",
    "missed_attack",
    "mount_attack",
    "mount_attack_damage",
    "mount_crippled",
    "mount_hit",
    "mount_up",
    "mounted_attack",
    "mounted_defense",
    "move_and_attack",
    "movement_limits",
    "note_mount_dx_roll",
    "plan",
    "preview",
    "register_injury",
    "relative_speed_yps",
    "rest",
    "rider_dx_modifier",
    "rider_knocked_back",
    "rider_stunned",
    "rules",
    "scene_atmosphere",
    "seat",
    "sheathe",
    "speed_modifier",
    "spook",
    "systems_for",
    "take_trick",
    "target_locations",
    "tighten_saddle",
    "use_injury",
]
__all__ += events.__all__


def install(world: World, rules: Rules | None = None, *, without: Collection[Section] = ()) -> None:
    """Install the GURPS systems into ``world`` with ``rules`` (the Basic Set by default), each in its phase,
    leaving out the sections named in ``without`` (:data:`~esper_motion.systems.gurps.sections.SECTIONS`).

    Installing twice in one world is an error, not a double run; so is a name in ``without`` that is not a
    section a game may leave out.
    """
    chosen = Rules.basic() if rules is None else rules
    if not isinstance(world, World) or not isinstance(chosen, Rules):
        raise TypeError(
            "esper_motion.systems.gurps.install(world, rules) takes a World and a Rules: "
            f"got a {type(world).__name__} and a {type(rules).__name__}"
        )
    found = systems_for(chosen, without=without)
    world.install_rules("gurps", chosen)
    for system in found:
        world.add_system(system)


register_rule_set(
    "gurps",
    install,
    Rules,
    scene=SCENE_SUPPORT,
    new_fields={
        3: (
            "lance_speed_bonus",
            "house_height_riders",
            "house_height_fliers",
            "house_out_of_control_skills",
            "house_bareback_sitting",
            "house_top_speed_encumbered",
        )
    },
)
declare_members("gurps", BODY_TYPES, marked_by=(Mover, Velocity))

"""GURPS movement rules as pure tables and functions: numbers in, numbers out.

Nothing here touches the ECS, so a game can use any rule on its own and every worked example in the
rulebook is a one-line test. Speeds are in yards per second, distances in yards (feet where the rule
counts feet), and modifiers are signed numbers added to the roll's target.

One module per section of the rules; this package re-exports every public name of each, so
``rules.turning_radius(...)`` and ``from esper_motion.systems.gurps.rules import turning_radius`` work
whichever module a rule lives in:

- ``highspeed``: High-Speed Movement, and the house High Speed Movement.
- ``flight``: Flying Combat, Combat at Different Levels, and the house Flying Movement and Combat and
  "Dragon" rule.
- ``mounted``: Mounted Combat, and the house Mounts.
- ``posture``: Changing Posture in Armor.
- ``maneuvers``: how far each maneuver moves below high speed (a step), Move and Attack, and shock.
- ``combat``: the facts attacks and defenses lean on: posture, hit locations, Aim, retreats, wounding and
  injury, major wounds and knockback.
- ``damage``: Damage from Collisions, Falling, and the thrust column of the Damage Table.
- ``tables``: the Size and Speed/Range Table, Encumbrance and Move, and the ``Variant`` of a rule with
  two readings.

Imports run one way: ``tables`` and the private helpers of ``_common`` are at the bottom, and ``flight``
sits above ``mounted`` (the "Dragon" rule reads a flier's speed as the house mounted rule does); no
section module imports this package.

Sources, cited on each rule:

- "Basic Set: ..." is the GURPS 4th Edition Basic Set (High-Speed Movement, Changing Posture in Armor,
  Mounted Combat, Flying Combat); sections those lean on but do not contain (Falling, Damage from
  Collisions, the Size and Speed/Range Table, Encumbrance and Move, shock, maneuvers, the damage table,
  Combat at Different Levels) use the facts in docs/architecture.md > Facts the rules lean on.
- "House rules: ..." is the campaign's rewrite (Mounts, High Speed Movement, Flying Movement and
  Combat, the "Dragon" rule). Functions for those rules start with ``house_`` or take
  ``variant="house"``.

Readings chosen where a text leaves room are written on the function concerned; the main ones:

- Speeds, Moves, skills and yards moved are whole numbers; the collision and falling formulas and
  ranges accept fractions, since the house rules halve and quarter speeds.
- A Basic Move of 0 cannot turn at all: every turning radius is infinite (:func:`turning_radius`).
- A collision at velocity 0 does no damage: ``Damage(0)`` (:func:`collision_dice`).
- Between rows of the Size and Speed/Range Table, speed, range and size all use the next higher row;
  the table runs on in decades both ways (:func:`speed_range_modifier`, :func:`size_modifier`).
"""

from __future__ import annotations

# The maneuvers the high-speed rules take, re-exported with them.
from esper_motion.components.gurps import Maneuver
from esper_motion.systems.gurps.rules.combat import (
    ACROBATIC_DODGE_MODIFIER,
    HEAD_LOCATIONS,
    HIT_LOCATION_MODIFIERS,
    LEG_LOCATIONS,
    POSTURE_MODIFIERS,
    RETREAT_BONUS,
    WOUNDING_MULTIPLIERS,
    aim_bonus,
    can_parry,
    injury,
    knockback_yd,
    major_wound,
    posture_modifiers,
    retreat_bonus,
    rolled_damage,
)
from esper_motion.systems.gurps.rules.damage import (
    FALL_VELOCITY_TABLE,
    THRUST_TABLE,
    FallRow,
    ThrustRow,
    collision_dice,
    collision_velocity,
    fall_velocity,
    thrust_damage,
)
from esper_motion.systems.gurps.rules.flight import (
    DIFFERENT_LEVELS_TABLE,
    DRAGON_MOVE_YD,
    HOUSE_CLIMB_DIVE_TURN_TABLE,
    HOUSE_WIPE_OUT_REGAIN_DX_MODIFIER,
    SCALE_HEIGHT_FT,
    STALL_RECOVERY_DX_MODIFIER,
    Atmosphere,
    Breathing,
    ClimbDiveTurnRow,
    DifferentLevelsRow,
    aerial_retreat_bonus,
    breathing_limit,
    different_levels,
    dive_limits,
    dragon_melee_speed_modifier,
    house_can_take_off,
    house_cannot_hover_credit,
    house_climb_dive_turn_degrees,
    house_climb_speed_loss,
    house_dive_control_modifier,
    house_dive_speed_cap,
    house_dive_speed_gain,
    house_height_defense_modifiers,
    house_height_range,
    house_uncontrolled_drop_yd,
    stall_speed,
    vertical_move_cost,
    winged_flight_possible,
)
from esper_motion.systems.gurps.rules.highspeed import (
    MOVING_MANEUVERS,
    PUSHING_THE_ENVELOPE_DX_BONUS,
    RADIUS_READINGS,
    Deceleration,
    HighSpeedDefense,
    RadiusReading,
    RadiusVariant,
    can_enter_high_speed,
    early_turn_modifier,
    encumbered_top_speed,
    entry_velocity_limit,
    footing_deceleration,
    hasty_deceleration_modifier,
    high_speed_defense,
    high_speed_maneuver_allowed,
    house_high_speed_maneuver_allowed,
    house_high_speed_target_range,
    house_out_of_control_velocity,
    house_regains_control_automatically,
    house_top_speed,
    house_trip_collision_velocity,
    house_trip_fall_yards,
    house_trip_skid_yards,
    is_high_speed,
    max_accelerated_velocity,
    skid_yards,
    sprint_top_speed,
    turning_radius,
)
from esper_motion.systems.gurps.rules.maneuvers import (
    MOVE_AND_ATTACK_DX_MODIFIER,
    ORDINARY_MOVEMENT,
    OrdinaryMove,
    move_and_attack_melee_skill,
    move_and_attack_ranged_modifier,
    ordinary_move_yd,
    shock_penalty,
    step_yards,
)
from esper_motion.systems.gurps.rules.mounted import (
    BUCKING_SHEATHE_DX_MODIFIER,
    HOUSE_MOUNT_OUT_OF_CONTROL_RIDER_DX_MODIFIER,
    MOUNT_ATTACKED_RIDER_ATTACK_MODIFIER,
    MOUNT_LOSS_OF_CONTROL_TABLE,
    MOUNTED_HEIGHT_FT,
    RANGED_TRICK_TABLE,
    STUNNED_RIDER_RIDING_MODIFIER,
    TRAINING_TABLE,
    MountLossKind,
    MountLossRow,
    MultipleRiders,
    RangedTrick,
    SpookResult,
    SpookState,
    Training,
    TrainingRow,
    can_couch_lance,
    cavalry_skill,
    house_strapped_trauma,
    house_unseat_modifier,
    jousting_damage_cap,
    knockback_unseat_modifier,
    lance_damage,
    mount_loss_of_control,
    mounted_aim_limit,
    mounted_melee_speed_modifier,
    mounting_penalty,
    multiple_riders,
    panic_roll_modifier,
    panic_roll_needed,
    ranged_trick,
    riding_control_penalty,
    riding_defense_penalty,
    risky_feat_riding_modifier,
    spooked_mount_roll,
    training_penalty,
)
from esper_motion.systems.gurps.rules.posture import (
    posture_change_seconds,
)
from esper_motion.systems.gurps.rules.tables import (
    ENCUMBRANCE_TABLE,
    SPEED_RANGE_DECADE,
    Encumbrance,
    EncumbranceRow,
    SpeedRangeRow,
    Variant,
    dodge_encumbrance_penalty,
    encumbered_move,
    size_modifier,
    speed_range_modifier,
)

__all__ = [
    "ACROBATIC_DODGE_MODIFIER",
    "BUCKING_SHEATHE_DX_MODIFIER",
    "DIFFERENT_LEVELS_TABLE",
    "DRAGON_MOVE_YD",
    "ENCUMBRANCE_TABLE",
    "FALL_VELOCITY_TABLE",
    "HEAD_LOCATIONS",
    "HIT_LOCATION_MODIFIERS",
    "HOUSE_CLIMB_DIVE_TURN_TABLE",
    "HOUSE_MOUNT_OUT_OF_CONTROL_RIDER_DX_MODIFIER",
    "HOUSE_WIPE_OUT_REGAIN_DX_MODIFIER",
    "LEG_LOCATIONS",
    "MOUNTED_HEIGHT_FT",
    "MOUNT_ATTACKED_RIDER_ATTACK_MODIFIER",
    "MOUNT_LOSS_OF_CONTROL_TABLE",
    "MOVE_AND_ATTACK_DX_MODIFIER",
    "MOVING_MANEUVERS",
    "ORDINARY_MOVEMENT",
    "POSTURE_MODIFIERS",
    "PUSHING_THE_ENVELOPE_DX_BONUS",
    "RADIUS_READINGS",
    "RANGED_TRICK_TABLE",
    "RETREAT_BONUS",
    "SCALE_HEIGHT_FT",
    "SPEED_RANGE_DECADE",
    "STALL_RECOVERY_DX_MODIFIER",
    "STUNNED_RIDER_RIDING_MODIFIER",
    "THRUST_TABLE",
    "TRAINING_TABLE",
    "WOUNDING_MULTIPLIERS",
    "Atmosphere",
    "Breathing",
    "ClimbDiveTurnRow",
    "Deceleration",
    "DifferentLevelsRow",
    "Encumbrance",
    "EncumbranceRow",
    "FallRow",
    "HighSpeedDefense",
    "Maneuver",
    "MountLossKind",
    "MountLossRow",
    "MultipleRiders",
    "OrdinaryMove",
    "RadiusReading",
    "RadiusVariant",
    "RangedTrick",
    "SpeedRangeRow",
    "SpookResult",
    "SpookState",
    "ThrustRow",
    "Training",
    "TrainingRow",
    "Variant",
    "aerial_retreat_bonus",
    "aim_bonus",
    "breathing_limit",
    "can_couch_lance",
    "can_enter_high_speed",
    "can_parry",
    "cavalry_skill",
    "collision_dice",
    "collision_velocity",
    "different_levels",
    "dive_limits",
    "dodge_encumbrance_penalty",
    "dragon_melee_speed_modifier",
    "early_turn_modifier",
    "encumbered_move",
    "encumbered_top_speed",
    "entry_velocity_limit",
    "fall_velocity",
    "footing_deceleration",
    "hasty_deceleration_modifier",
    "high_speed_defense",
    "high_speed_maneuver_allowed",
    "house_can_take_off",
    "house_cannot_hover_credit",
    "house_climb_dive_turn_degrees",
    "house_climb_speed_loss",
    "house_dive_control_modifier",
    "house_dive_speed_cap",
    "house_dive_speed_gain",
    "house_height_defense_modifiers",
    "house_height_range",
    "house_high_speed_maneuver_allowed",
    "house_high_speed_target_range",
    "house_out_of_control_velocity",
    "house_regains_control_automatically",
    "house_strapped_trauma",
    "house_top_speed",
    "house_trip_collision_velocity",
    "house_trip_fall_yards",
    "house_trip_skid_yards",
    "house_uncontrolled_drop_yd",
    "house_unseat_modifier",
    "injury",
    "is_high_speed",
    "jousting_damage_cap",
    "knockback_unseat_modifier",
    "knockback_yd",
    "lance_damage",
    "major_wound",
    "max_accelerated_velocity",
    "mount_loss_of_control",
    "mounted_aim_limit",
    "mounted_melee_speed_modifier",
    "mounting_penalty",
    "move_and_attack_melee_skill",
    "move_and_attack_ranged_modifier",
    "multiple_riders",
    "ordinary_move_yd",
    "panic_roll_modifier",
    "panic_roll_needed",
    "posture_change_seconds",
    "posture_modifiers",
    "ranged_trick",
    "retreat_bonus",
    "riding_control_penalty",
    "riding_defense_penalty",
    "risky_feat_riding_modifier",
    "rolled_damage",
    "shock_penalty",
    "size_modifier",
    "skid_yards",
    "speed_range_modifier",
    "spooked_mount_roll",
    "sprint_top_speed",
    "stall_speed",
    "step_yards",
    "thrust_damage",
    "training_penalty",
    "turning_radius",
    "vertical_move_cost",
    "winged_flight_possible",
]

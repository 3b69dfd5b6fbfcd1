"""The pure GURPS rules: every worked example of the Basic Set and house texts, every table row with its
boundaries, and a clear error for every kind of bad input."""

from __future__ import annotations

import doctest
import importlib
import math
import pkgutil
from collections.abc import Callable
from enum import Enum
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from esper_motion.ecs.damage import Damage
from esper_motion.ecs.errors import RuleValueError
from esper_motion.systems.gurps import rules
from esper_motion.systems.gurps.rules import (
    DIFFERENT_LEVELS_TABLE,
    ENCUMBRANCE_TABLE,
    FALL_VELOCITY_TABLE,
    HOUSE_CLIMB_DIVE_TURN_TABLE,
    MOUNT_LOSS_OF_CONTROL_TABLE,
    MOUNTED_HEIGHT_FT,
    ORDINARY_MOVEMENT,
    RANGED_TRICK_TABLE,
    SPEED_RANGE_DECADE,
    THRUST_TABLE,
    TRAINING_TABLE,
    Atmosphere,
    Breathing,
    Deceleration,
    DifferentLevelsRow,
    Encumbrance,
    HighSpeedDefense,
    Maneuver,
    MountLossKind,
    MultipleRiders,
    SpookResult,
    SpookState,
    Training,
    aerial_retreat_bonus,
    breathing_limit,
    can_couch_lance,
    can_enter_high_speed,
    cavalry_skill,
    collision_dice,
    collision_velocity,
    different_levels,
    dive_limits,
    dodge_encumbrance_penalty,
    dragon_melee_speed_modifier,
    early_turn_modifier,
    encumbered_move,
    entry_velocity_limit,
    fall_velocity,
    footing_deceleration,
    hasty_deceleration_modifier,
    high_speed_defense,
    high_speed_maneuver_allowed,
    house_can_take_off,
    house_cannot_hover_credit,
    house_climb_dive_turn_degrees,
    house_climb_speed_loss,
    house_dive_control_modifier,
    house_dive_speed_cap,
    house_dive_speed_gain,
    house_height_defense_modifiers,
    house_height_range,
    house_high_speed_maneuver_allowed,
    house_high_speed_target_range,
    house_out_of_control_velocity,
    house_regains_control_automatically,
    house_strapped_trauma,
    house_top_speed,
    house_trip_collision_velocity,
    house_trip_fall_yards,
    house_trip_skid_yards,
    house_uncontrolled_drop_yd,
    house_unseat_modifier,
    is_high_speed,
    jousting_damage_cap,
    knockback_unseat_modifier,
    lance_damage,
    max_accelerated_velocity,
    mount_loss_of_control,
    mounted_aim_limit,
    mounted_melee_speed_modifier,
    mounting_penalty,
    move_and_attack_melee_skill,
    move_and_attack_ranged_modifier,
    multiple_riders,
    ordinary_move_yd,
    panic_roll_modifier,
    panic_roll_needed,
    posture_change_seconds,
    ranged_trick,
    riding_control_penalty,
    riding_defense_penalty,
    risky_feat_riding_modifier,
    shock_penalty,
    size_modifier,
    skid_yards,
    speed_range_modifier,
    spooked_mount_roll,
    sprint_top_speed,
    stall_speed,
    thrust_damage,
    training_penalty,
    turning_radius,
    vertical_move_cost,
    winged_flight_possible,
)


def test_module_doctests_pass() -> None:
    attempted = failed = 0
    for module in [rules, *(importlib.import_module(info.name) for info in rules_modules())]:
        result = doctest.testmod(module)
        attempted += result.attempted
        failed += result.failed
    assert attempted > 20
    assert failed == 0


def rules_modules() -> list[pkgutil.ModuleInfo]:
    """Every module of the rules package, where its doctests live (the package only re-exports them)."""
    return list(pkgutil.iter_modules(rules.__path__, f"{rules.__name__}."))


# --- Worked examples from the texts ----------------------------------------------------------------------


def test_velocity_13_basic_move_5_turning_radius_2() -> None:
    """Basic Set: High-Speed Movement > Direction and Turning Radius."""
    assert turning_radius(13, 5) == 2


def test_basic_move_5_decelerating_9_rolls_at_minus_2() -> None:
    """Basic Set: High-Speed Movement > Pushing the Envelope (hasty deceleration)."""
    assert hasty_deceleration_modifier(9, 5) == -2


def test_velocity_23_basic_move_3_early_turn_rolls_at_minus_6() -> None:
    """Basic Set: High-Speed Movement > Pushing the Envelope (early or tighter turn)."""
    assert early_turn_modifier(23, 3) == -6


@pytest.mark.parametrize("basic_move", [6, 7, 10], ids=lambda bm: f"Basic Move {bm}")
def test_velocity_14_through_six_yards_of_mud_ends_at_velocity_8(basic_move: int) -> None:
    """Basic Set: High-Speed Movement > Tactical Movement: six extra points paid, six yards/second lost."""
    assert footing_deceleration(14, 6, basic_move) == Deceleration(8, None, False)


def test_st_25_warhorse_charging_at_move_8_does_2d_plus_3() -> None:
    """Basic Set: Mounted Combat > Cavalry Weapons > Lances."""
    damage = lance_damage(25, 8)
    assert damage == Damage(2, 3)
    assert str(damage) == "2d+3"


def test_riding_9_defends_at_minus_3() -> None:
    """Basic Set: Mounted Combat > Mounted Defense."""
    assert riding_defense_penalty(9) == -3


@pytest.mark.parametrize(
    ("relative_velocity", "expected"),
    [(7, (-1, 1)), (50, (-6, 6))],
    ids=["house: 7 yd/s -> -1 to hit, +1 damage", "house: 50 yd/s -> -6 to hit, +6 damage"],
)
def test_house_mounted_speed_examples(relative_velocity: int, expected: tuple[int, int]) -> None:
    """House rules: Mounts, and the same numbers in the "Dragon" rule."""
    assert mounted_melee_speed_modifier(relative_velocity, "house") == expected


# --- High-speed movement ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("velocity", "move", "variant", "expected"),
    [
        (13, 5, "basic", 2),
        (10, 5, "basic", 2),
        (14, 5, "basic", 2),
        (15, 5, "basic", 3),
        (4, 5, "basic", 0),
        (0, 5, "basic", 0),
        (13, 5, "house", 3),
        (10, 5, "house", 2),
        (11, 5, "house", 3),
        (1, 5, "house", 1),
        (13, 5, "realistic", 16),
        (10, 1, "realistic", 10),
        (9, 30, "realistic", 8),
    ],
    ids=[
        "basic: velocity 13, Basic Move 5 -> radius 2",
        "basic: exact multiple 10 / 5 -> 2",
        "basic: 14 / 5 rounds down to 2",
        "basic: 15 / 5 -> 3",
        "basic: below Basic Move -> 0",
        "basic: standing still -> 0",
        "house: 13 / 5 rounds up to 3",
        "house: exact multiple 10 / 5 -> 2",
        "house: 11 / 5 rounds up to 3",
        "house: 1 / 5 rounds up to 1",
        "realistic: 13 squared / 10 -> 16",
        "realistic: 10 squared / 10 -> 10",
        "realistic: Move plays no part, 81 / 10 -> 8",
    ],
)
def test_turning_radius(velocity: int, move: int, variant: Any, expected: int) -> None:
    assert turning_radius(velocity, move, variant) == expected


@pytest.mark.parametrize("variant", ["basic", "house", "realistic"])
def test_a_move_of_0_cannot_turn(variant: Any) -> None:
    """Basic Set: High-Speed Movement > Direction and Turning Radius (Basic Move 0 only drifts)."""
    assert turning_radius(12, 0, variant) == math.inf


def test_unknown_turning_radius_variant_is_refused() -> None:
    with pytest.raises(RuleValueError, match=r"turning_radius\.variant = 'cinematic'.*'basic', 'house', 'realistic'"):
        turning_radius(13, 5, "cinematic")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("move", "expected"),
    [(4, 5), (5, 6), (9, 10), (10, 12), (13, 15), (14, 16)],
    ids=[
        "Move 4: 20% is 0.8, at least +1",
        "Move 5 -> 6",
        "Move 9: 10.8 -> 10",
        "Move 10 -> 12",
        "Move 13 -> 15",
        "Move 14: 16.8 -> 16",
    ],
)
def test_sprint_top_speed(move: int, expected: int) -> None:
    assert sprint_top_speed(move) == expected


@pytest.mark.parametrize(
    ("move", "basic_move", "enhanced", "expected"),
    [(5, 5, False, 6), (4, 5, False, 5), (10, 10, False, 12), (10, 5, True, 10), (3, 8, True, 16)],
    ids=[
        "Move 5 -> 6",
        "encumbered Move 4 of Basic Move 5 -> 5 (Move counts, +1 minimum)",
        "Move 10 -> 12",
        "Enhanced Move, Basic Move 5 -> 10",
        "Enhanced Move uses Basic Move 8, not Move 3 -> 16",
    ],
)
def test_entry_velocity_limit(move: int, basic_move: int, enhanced: bool, expected: int) -> None:
    assert entry_velocity_limit(move, basic_move, enhanced) == expected


@pytest.mark.parametrize(
    ("velocity", "basic_move", "top_speed", "expected"),
    [(6, 5, 12, 11), (8, 5, 12, 12), (12, 5, 12, 12), (15, 5, 12, 15), (0, 5, 6, 5)],
    ids=[
        "6 + 5 -> 11",
        "capped at top speed 12",
        "at top speed stays",
        "above top speed (a dive) stays",
        "from a standstill -> Basic Move",
    ],
)
def test_max_accelerated_velocity(velocity: int, basic_move: int, top_speed: int, expected: int) -> None:
    assert max_accelerated_velocity(velocity, basic_move, top_speed) == expected


@pytest.mark.parametrize(
    ("basic_move", "expected"),
    [(5, [5, 4, 3, 2, 1]), (10, [10, 8, 6, 4, 2]), (7, [7, 5, 4, 2, 1]), (2, [2, 1, 1, 1, 1]), (0, [0] * 5)],
    ids=[
        "Basic Move 5",
        "Basic Move 10",
        "Basic Move 7 rounds down",
        "Basic Move 2: never below 1",
        "Basic Move 0 stays 0",
    ],
)
def test_encumbered_move_by_level(basic_move: int, expected: list[int]) -> None:
    assert [encumbered_move(basic_move, level) for level in range(5)] == expected


def test_encumbrance_levels_accept_the_enum() -> None:
    assert encumbered_move(10, Encumbrance.HEAVY) == 4
    assert [row.level for row in ENCUMBRANCE_TABLE] == list(Encumbrance)


@pytest.mark.parametrize(("level", "expected"), [(0, 0), (1, -1), (2, -2), (3, -3), (4, -4)])
def test_dodge_encumbrance_penalty(level: int, expected: int) -> None:
    assert dodge_encumbrance_penalty(level) == expected


@pytest.mark.parametrize(
    ("decel", "basic_move", "expected"),
    [(9, 5, -2), (0, 5, 0), (5, 5, 0), (6, 5, 0), (7, 5, -1), (8, 5, -1), (10, 5, -2), (0, 0, 0), (23, 12, -5)],
    ids=[
        "Basic Move 5, decelerate 9 -> -2",
        "no deceleration -> 0",
        "exactly Basic Move -> 0",
        "one yard/second beyond is not two full -> 0",
        "two beyond -> -1",
        "three beyond -> -1",
        "twice Basic Move -> -2",
        "Basic Move 0 at rest -> 0",
        "Basic Move 12, cut 23 -> -5",
    ],
)
def test_hasty_deceleration_modifier(decel: int, basic_move: int, expected: int) -> None:
    assert hasty_deceleration_modifier(decel, basic_move) == expected


@pytest.mark.parametrize(
    ("decel", "basic_move"), [(11, 5), (1, 0)], ids=["11 with Basic Move 5", "1 with Basic Move 0"]
)
def test_voluntary_deceleration_beyond_twice_basic_move_is_refused(decel: int, basic_move: int) -> None:
    with pytest.raises(ValueError, match=r"hasty_deceleration_modifier\.decel.*twice Basic Move"):
        hasty_deceleration_modifier(decel, basic_move)


@pytest.mark.parametrize(
    ("velocity", "basic_move", "variant", "expected"),
    [
        (23, 3, "basic", -6),
        (3, 3, "basic", 0),
        (5, 3, "basic", 0),
        (6, 3, "basic", -1),
        (13, 5, "basic", -1),
        (2, 3, "basic", 0),
        (23, 3, "house", -8),
        (13, 5, "house", -3),
        (5, 5, "house", 0),
        (6, 5, "house", -2),
    ],
    ids=[
        "velocity 23, Basic Move 3 -> -6",
        "at Basic Move, not high speed -> 0",
        "2 over, not a full Basic Move -> 0",
        "one full Basic Move over -> -1",
        "13 with Basic Move 5 -> -1",
        "below Basic Move -> 0",
        "house: minus radius 8",
        "house: minus radius 3",
        "house: at Encumbered Move -> 0",
        "house: 6 / 5 rounds up -> -2",
    ],
)
def test_early_turn_modifier(velocity: int, basic_move: int, variant: Any, expected: int) -> None:
    assert early_turn_modifier(velocity, basic_move, variant) == expected


def test_early_turn_with_basic_move_0_is_refused() -> None:
    with pytest.raises(RuleValueError, match=r"early_turn_modifier\.basic_move = 0.*cannot turn"):
        early_turn_modifier(10, 0)


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        ((14, 6, 5), Deceleration(8, 0, False)),
        ((14, 6, 5, 4), Deceleration(4, -2, False)),
        ((14, 6, 5, 5), Deceleration(3, None, True)),
        ((14, 2, 5, 3), Deceleration(9, None, False)),
        ((14, 0, 5, 7), Deceleration(7, -1, False)),
        ((14, 14, 7), Deceleration(0, -3, False)),
        ((10, 0, 0), Deceleration(10, None, False)),
    ],
    ids=[
        "mud 6 with Basic Move 5 -> roll at 0",
        "mud 6 + voluntary 4 = 10, twice Basic Move -> roll at -2",
        "mud 6 + voluntary 5 = 11, past twice Basic Move -> control lost",
        "footing 2 + voluntary 3 = Basic Move -> no roll",
        "voluntary only, 7 with Basic Move 5 -> roll at -1",
        "every point spent on footing -> stopped, roll at -3",
        "Basic Move 0 drifting, nothing paid -> no roll",
    ],
)
def test_footing_deceleration(args: tuple[int, ...], expected: Deceleration) -> None:
    assert footing_deceleration(*args) == expected


@pytest.mark.parametrize(("remaining", "expected"), [(0, 0), (3, 0), (4, 1), (10, 2), (17, 4)])
def test_skid_yards_is_a_quarter_rounded_down(remaining: int, expected: int) -> None:
    assert skid_yards(remaining) == expected


@pytest.mark.parametrize(
    ("velocity", "basic_move", "expected"),
    [(6, 5, HighSpeedDefense(True, False, False)), (5, 5, HighSpeedDefense(True, True, True))],
    ids=["high speed: dodge only", "at Basic Move: all defenses"],
)
def test_high_speed_defense(velocity: int, basic_move: int, expected: HighSpeedDefense) -> None:
    assert high_speed_defense(velocity, basic_move) == expected


@pytest.mark.parametrize(("velocity", "basic_move", "expected"), [(6, 5, True), (5, 5, False), (1, 0, True)])
def test_is_high_speed(velocity: int, basic_move: int, expected: bool) -> None:
    assert is_high_speed(velocity, basic_move) is expected


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        ((5, 5, 0, Maneuver.MOVE, True), True),
        ((6, 5, 1, "Move and Attack", True), True),
        ((4, 5, 0, Maneuver.MOVE, True), False),
        ((5, 5, 2, Maneuver.MOVE, True), False),
        ((5, 5, 0, Maneuver.ATTACK, True), False),
        ((5, 5, 0, Maneuver.MOVE, False), False),
    ],
    ids=[
        "full Move straight",
        "one 60-degree turn, Move and Attack",
        "short of Move",
        "two turns",
        "wrong maneuver",
        "not standing",
    ],
)
def test_can_enter_high_speed(args: tuple[Any, ...], expected: bool) -> None:
    assert can_enter_high_speed(*args) is expected


@pytest.mark.parametrize("maneuver", list(Maneuver), ids=lambda m: m.value)
def test_only_move_and_move_and_attack_keep_control_at_high_speed(maneuver: Maneuver) -> None:
    expected = maneuver in (Maneuver.MOVE, Maneuver.MOVE_AND_ATTACK)
    assert high_speed_maneuver_allowed(maneuver) is expected
    assert high_speed_maneuver_allowed(maneuver.value) is expected


def test_maneuvers_of_another_string_enum_are_read_by_value() -> None:
    class Other(str, Enum):
        MOVE = "Move"
        DO_NOTHING = "Do Nothing"

    assert high_speed_maneuver_allowed(Other.MOVE) is True
    assert high_speed_maneuver_allowed(Other.DO_NOTHING) is False


def test_the_maneuver_list() -> None:
    assert {m.value for m in Maneuver} == {
        "Aim",
        "All-Out Attack",
        "All-Out Defense",
        "Attack",
        "Change Posture",
        "Concentrate",
        "Do Nothing",
        "Evaluate",
        "Feint",
        "Move",
        "Move and Attack",
        "Ready",
        "Wait",
        "All-Out Ready",
        "All-Out Concentrate",
    }


@pytest.mark.parametrize(
    ("maneuver", "velocity", "top_speed", "slam", "expected"),
    [
        (Maneuver.MOVE, 20, 12, False, True),
        (Maneuver.MOVE_AND_ATTACK, 12, 12, False, True),
        (Maneuver.ALL_OUT_ATTACK, 6, 12, False, True),
        (Maneuver.ALL_OUT_DEFENSE, 6, 12, False, True),
        (Maneuver.ALL_OUT_READY, 7, 12, False, False),
        (Maneuver.ALL_OUT_CONCENTRATE, 7, 13, False, False),
        (Maneuver.ALL_OUT_CONCENTRATE, 6, 13, False, True),
        (Maneuver.ALL_OUT_ATTACK, 12, 12, True, True),
        (Maneuver.ALL_OUT_DEFENSE, 12, 12, True, False),
        (Maneuver.ATTACK, 6, 12, False, False),
        (Maneuver.DO_NOTHING, 0, 12, False, False),
    ],
    ids=[
        "Move at any speed",
        "Move and Attack at top speed",
        "All-Out at exactly half top speed",
        "All-Out Defense at half",
        "All-Out Ready just over half",
        "All-Out Concentrate, 7 of 13 is over half",
        "All-Out Concentrate, 6 of 13",
        "All-Out Attack slam at full speed",
        "slam makes no exception for All-Out Defense",
        "plain Attack never",
        "Do Nothing never",
    ],
)
def test_house_high_speed_maneuvers(
    maneuver: Maneuver, velocity: int, top_speed: int, slam: bool, expected: bool
) -> None:
    assert house_high_speed_maneuver_allowed(maneuver, velocity, top_speed, slam) is expected


@pytest.mark.parametrize(
    ("skill", "dragon", "expected"),
    [(12, False, 8), (13, False, 9), (16, False, 9), (10, False, 6), (16, True, 16)],
    ids=["12 -> 8", "13 -> 9", "16 capped at 9", "10 -> 6", "Dragon rule: flier keeps 16"],
)
def test_move_and_attack_melee_skill(skill: int, dragon: bool, expected: int) -> None:
    assert move_and_attack_melee_skill(skill, dragon) == expected


@pytest.mark.parametrize(
    ("bulk", "dragon", "expected"),
    [(0, False, -2), (-1, False, -2), (-2, False, -2), (-4, False, -4), (-4, True, 0)],
    ids=["no Bulk -> -2", "Bulk -1 -> -2", "Bulk -2 -> -2", "Bulk -4 -> -4", "Dragon rule: flier 0"],
)
def test_move_and_attack_ranged_modifier(bulk: int, dragon: bool, expected: int) -> None:
    assert move_and_attack_ranged_modifier(bulk, dragon) == expected


_ORDINARY_ROWS = [
    (Maneuver.MOVE, 5),
    (Maneuver.MOVE_AND_ATTACK, 5),
    (Maneuver.ALL_OUT_ATTACK, 2),
    (Maneuver.CHANGE_POSTURE, 0),
    (Maneuver.DO_NOTHING, 0),
    (Maneuver.AIM, 1),
    (Maneuver.ALL_OUT_DEFENSE, 1),
    (Maneuver.ALL_OUT_READY, 1),
    (Maneuver.ALL_OUT_CONCENTRATE, 1),
    (Maneuver.ATTACK, 1),
    (Maneuver.CONCENTRATE, 1),
    (Maneuver.EVALUATE, 1),
    (Maneuver.FEINT, 1),
    (Maneuver.READY, 1),
    (Maneuver.WAIT, 1),
]


@pytest.mark.parametrize(("maneuver", "yards"), _ORDINARY_ROWS, ids=[maneuver.value for maneuver, _ in _ORDINARY_ROWS])
def test_ordinary_movement_by_maneuver(maneuver: Maneuver, yards: int) -> None:
    """Below high speed, Move 5: the full Move on Move and Move and Attack, half (2) on All-Out Attack, nothing on
    Change Posture and Do Nothing, a step (1 yard) on every other maneuver."""
    assert ordinary_move_yd(maneuver, 5, 5) == yards
    assert ordinary_move_yd(maneuver.value, 5, 5) == yards


def test_ordinary_movement_covers_every_maneuver_and_a_step_grows_with_move() -> None:
    """Every maneuver has its row; a step is a tenth of Basic Move from 20 up (a fast flier's 2 yards), and an
    encumbered Move of 4 halves to 2 on All-Out Attack."""
    assert set(ORDINARY_MOVEMENT) == set(Maneuver)
    assert ordinary_move_yd(Maneuver.ATTACK, 16, 20) == 2
    assert ordinary_move_yd(Maneuver.ALL_OUT_ATTACK, 4, 5) == 2


@pytest.mark.parametrize(("injury", "expected"), [(0, 0), (1, -1), (3, -3), (4, -4), (5, -4), (30, -4)])
def test_shock_penalty(injury: int, expected: int) -> None:
    assert shock_penalty(injury) == expected


# --- House high-speed rules ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("encumbered", "enhanced", "expected"),
    [(5, 0, 6), (4, 0, 5), (5, 10, 10), (10, 11, 12), (10, 13, 13)],
    ids=[
        "Move 5 +20% -> 6",
        "Move 4: at least +1 -> 5",
        "Enhanced Move 10 is better",
        "20% is better than 11",
        "Enhanced Move 13 is better than 12",
    ],
)
def test_house_top_speed(encumbered: int, enhanced: int, expected: int) -> None:
    assert house_top_speed(encumbered, enhanced) == expected


@pytest.mark.parametrize(("velocity", "basic_move", "expected"), [(12, 5, 7), (5, 5, 0), (3, 5, 0)])
def test_house_out_of_control_velocity(velocity: int, basic_move: int, expected: int) -> None:
    assert house_out_of_control_velocity(velocity, basic_move) == expected


@pytest.mark.parametrize(("velocity", "encumbered", "expected"), [(4, 5, True), (5, 5, False), (9, 5, False)])
def test_house_regains_control_automatically_below_encumbered_move(
    velocity: int, encumbered: int, expected: bool
) -> None:
    assert house_regains_control_automatically(velocity, encumbered) is expected


@pytest.mark.parametrize(
    ("velocity", "remaining", "expected"),
    [(20, 10, 5), (20, 3, 3), (15, 10, 3), (20, 5, 5)],
    ids=["a quarter of 20", "only 3 left", "a quarter of 15 rounds down", "both 5"],
)
def test_house_trip_skid_yards(velocity: int, remaining: int, expected: int) -> None:
    assert house_trip_skid_yards(velocity, remaining) == expected


def test_house_trip_falls_from_a_quarter_of_velocity_and_collides_at_half() -> None:
    assert house_trip_fall_yards(20) == 5
    assert fall_velocity(house_trip_fall_yards(20)) == 10
    assert house_trip_fall_yards(13) == 3.25
    assert house_trip_collision_velocity(13) == 6.5
    assert collision_dice(10, house_trip_collision_velocity(13)) == Damage(1, -1)


@pytest.mark.parametrize(
    ("range_yd", "velocity", "in_line", "expected"),
    [(10, 15, False, 25), (10, 15, True, 10), (0, 7, False, 7)],
    ids=["crossing target at 15 -> range 25", "same line -> range 10", "adjacent crossing target"],
)
def test_house_high_speed_target_range(range_yd: int, velocity: int, in_line: bool, expected: int) -> None:
    assert house_high_speed_target_range(range_yd, velocity, in_line) == expected


# --- Collisions and falling ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hp", "velocity", "hard", "expected"),
    [
        (10, 0, False, Damage(0)),
        (0, 10, False, Damage(0)),
        (1, 1, False, Damage(1, -3)),
        (5, 5, False, Damage(1, -3)),
        (2, 13, False, Damage(1, -2)),
        (10, 5, False, Damage(1, -2)),
        (3, 17, False, Damage(1, -1)),
        (9, 11, False, Damage(1, -1)),
        (10, 10, False, Damage(1)),
        (149, 1, False, Damage(1)),
        (15, 10, False, Damage(2)),
        (25, 10, False, Damage(3)),
        (20, 13, True, Damage(5)),
        (10, 8, True, Damage(2)),
        (5, 5, True, Damage(1, -2)),
        (10, 6.5, False, Damage(1, -1)),
        (10, 2.5, False, Damage(1, -3)),
    ],
    ids=[
        "velocity 0 -> no damage",
        "0 HP -> no damage",
        "0.01 dice -> 1d-3",
        "0.25 dice exactly -> 1d-3",
        "0.26 dice -> 1d-2",
        "0.5 dice exactly -> 1d-2",
        "0.51 dice -> 1d-1",
        "0.99 dice -> 1d-1",
        "1 die exactly -> 1d",
        "1.49 dice -> 1d",
        "1.5 dice rounds up -> 2d",
        "2.5 dice rounds up -> 3d",
        "hard obstacle: 20 HP at 13 counts 40 HP -> 5d",
        "10 HP falling 3 yd (velocity 8) onto the ground -> 2d",
        "hard obstacle: 0.25 doubles to 0.5 -> 1d-2",
        "fractional velocity 6.5 -> 0.65 -> 1d-1",
        "fractional velocity 2.5 -> 0.25 exactly -> 1d-3",
    ],
)
def test_collision_dice(hp: int, velocity: float, hard: bool, expected: Damage) -> None:
    assert collision_dice(hp, velocity, hard) == expected


@pytest.mark.parametrize(
    ("args", "reading", "expected"),
    [
        ((10, 0, 6, 180), "striker", 16),
        ((10, 90, 6, 270), "striker", 16),
        ((10, 0, 6, -180), "striker", 16),
        ((10, 0, 6, 0), "striker", 4),
        ((6, 0, 10, 0), "striker", 4),
        ((10, 0, 6, 360), "striker", 4),
        ((10, 0, 6, 90), "striker", 10),
        ((10, 0, 6, 120), "striker", 10),
        ((10, 300, 6, 0), "striker", 10),
        ((10, 0, 6, 180), "closing", 16),
        ((10, 0, 6, 0), "closing", 4),
        ((10, 0, 6, 60), "closing", math.sqrt(76)),
        ((3, 0, 4, 90), "closing", 5),
    ],
    ids=[
        "head-on: 10 + 6",
        "head-on at other headings",
        "head-on, heading -180",
        "rear-end: 10 - 6",
        "rear-end, slower one first: still 4",
        "heading 360 is heading 0: rear-end",
        "side impact at 90: striker's 10",
        "side impact at 120: striker's 10",
        "60 degrees across north: striker's 10",
        "closing reading agrees head-on",
        "closing reading agrees rear-end",
        "closing reading at 60 degrees",
        "closing reading at 90 degrees: 3-4-5",
    ],
)
def test_collision_velocity(args: tuple[float, ...], reading: Any, expected: float) -> None:
    v1, heading1, v2, heading2 = args
    assert collision_velocity(v1, heading1, v2, heading2, reading) == pytest.approx(expected)


_FALLS = [(1, 5), (2, 7), (3, 8), (5, 10), (17, 19)]


@pytest.mark.parametrize(("yards", "expected"), _FALLS, ids=[f"{y} yd -> {v} yd/s" for y, v in _FALLS])
def test_fall_velocity_table(yards: int, expected: int) -> None:
    assert fall_velocity(yards) == expected
    assert (yards, expected) in [(row.yards, row.velocity) for row in FALL_VELOCITY_TABLE]


def test_the_fall_table_agrees_with_the_formula() -> None:
    for row in FALL_VELOCITY_TABLE:
        assert math.floor(math.sqrt(21.4 * row.yards) + 0.5) == row.velocity


@pytest.mark.parametrize(
    ("yards", "gravity", "expected"),
    [(0, 1.0, 0), (4, 1.0, 9), (10, 1.0, 15), (100, 1.0, 46), (3, 0.5, 6), (3, 2.0, 11), (2, 0.0, 0), (0.5, 1.0, 3)],
    ids=["no fall", "4 yd", "10 yd", "100 yd", "3 yd at half gravity", "3 yd at 2 G", "no gravity", "half a yard"],
)
def test_fall_velocity_formula(yards: float, gravity: float, expected: int) -> None:
    assert fall_velocity(yards, gravity) == expected


# --- Size and Speed/Range Table --------------------------------------------------------------------------

_LISTED = [(2, 0), (3, -1), (5, -2), (7, -3), (10, -4), (15, -5), (20, -6), (30, -7), (50, -8), (70, -9), (100, -10)]


@pytest.mark.parametrize(("yards", "expected"), _LISTED, ids=[f"{y} yd -> {m}" for y, m in _LISTED])
def test_speed_range_listed_rows(yards: int, expected: int) -> None:
    assert speed_range_modifier(yards) == expected
    assert size_modifier(yards) == -expected


def test_the_decade_data_matches_the_listed_rows() -> None:
    assert [(row.yards, row.speed_range) for row in SPEED_RANGE_DECADE] == _LISTED[:6]


@pytest.mark.parametrize(
    ("yards", "expected"),
    [
        (150, -11),
        (200, -12),
        (700, -15),
        (1000, -16),
        (1500, -17),
        (2000, -18),
        (10_000, -22),
        (1.5, 1),
        (1, 2),
        (0.7, 3),
        (0.5, 4),
        (0.3, 5),
        (0.2, 6),
        (0.15, 7),
        (0.1, 8),
        (0.02, 12),
    ],
    ids=lambda v: str(v),
)
def test_speed_range_repeats_by_decade_both_ways(yards: float, expected: int) -> None:
    assert speed_range_modifier(yards) == expected
    assert size_modifier(yards) == -expected


@pytest.mark.parametrize(
    ("yards", "speed_range", "size"),
    [
        (2.5, -1, 1),
        (2.01, -1, 1),
        (4, -2, 2),
        (6, -3, 3),
        (11, -5, 5),
        (16, -6, 6),
        (101, -11, 11),
        (1.2, 1, -1),
        (0.69, 3, -3),
        (2 / 3, 3, -3),
        (1999, -18, 18),
    ],
    ids=[
        "2.5 yd",
        "just over 2 yd",
        "4 yd",
        "6 yd",
        "11 yd",
        "16 yd",
        "101 yd",
        "1.2 yd",
        "0.69 yd",
        "two feet (2/3 yd)",
        "1999 yd",
    ],
)
def test_size_and_speed_range_table_between_rows_reads_the_next_higher_row(
    yards: float, speed_range: int, size: int
) -> None:
    """Basic Set: Size and Speed/Range Table: between two rows, speed, range and size all take the next
    higher row (a 4-yard giant is SM +2, a 2.5-yard one +1, a 6-yard one +3)."""
    assert speed_range_modifier(yards) == speed_range
    assert size_modifier(yards) == size


@given(st.floats(min_value=1e-6, max_value=1e9, allow_nan=False, allow_infinity=False))
def test_size_is_the_speed_range_column_with_the_sign_reversed(yards: float) -> None:
    assert size_modifier(yards) == -speed_range_modifier(yards)


@given(st.floats(min_value=1e-6, max_value=1e9), st.floats(min_value=1e-6, max_value=1e9))
def test_speed_range_never_improves_with_distance(near: float, far: float) -> None:
    near, far = sorted((near, far))
    assert speed_range_modifier(far) <= speed_range_modifier(near)


# --- Flying ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("top", "expected"),
    [(20, 5), (18, 5), (17, 5), (16, 4), (1, 1), (0, 0)],
    ids=["20 -> 5", "18 -> 4.5 -> 5", "17 -> 4.25 -> 5", "16 -> 4", "1 -> 1", "0 -> 0"],
)
def test_stall_speed_is_a_quarter_rounded_up(top: int, expected: int) -> None:
    assert stall_speed(top) == expected


def test_dive_limits() -> None:
    assert dive_limits(6, 12) == (16, 24)
    assert dive_limits(0, 0) == (10, 0)


@pytest.mark.parametrize(
    ("horizontal", "vertical", "expected"),
    [(1, 1, 1.5), (1, 0, 1), (0, 1, 1), (3, 1, 3.5), (1, 3, 3.5), (2, 2, 3.0), (0, 0, 0), (0, 4, 4)],
    ids=[
        "one diagonal yard",
        "level yard",
        "straight up",
        "3 across 1 up",
        "1 across 3 up",
        "two diagonals",
        "not moving",
        "4 straight up",
    ],
)
def test_vertical_move_cost(horizontal: int, vertical: int, expected: float) -> None:
    assert vertical_move_cost(horizontal, vertical) == expected


@pytest.mark.parametrize(("level", "expected"), [(0, 1), (1, 1), (2, 2), (3, 3), (4, 4)])
def test_posture_change_seconds(level: int, expected: int) -> None:
    assert posture_change_seconds(level) == expected


@pytest.mark.parametrize(
    ("altitude", "pressure", "expected"),
    [
        (0, 1.0, Breathing.NORMAL),
        (6_000, 1.0, Breathing.NORMAL),
        (6_001, 1.0, Breathing.TROUBLE),
        (20_000, 1.0, Breathing.TROUBLE),
        (20_001, 1.0, Breathing.NEEDS_MASK),
        (-1_000, 1.0, Breathing.NORMAL),
        (24_700, 2.0, Breathing.NORMAL),
        (24_800, 2.0, Breathing.TROUBLE),
        (0, 0.5, Breathing.TROUBLE),
        (1_300, 0.5, Breathing.NEEDS_MASK),
        (0, 0.0, Breathing.NEEDS_MASK),
        (0, 0.01, Breathing.NEEDS_MASK),
    ],
    ids=[
        "sea level",
        "6,000 ft exactly",
        "just past 6,000 ft",
        "20,000 ft exactly",
        "just past 20,000 ft",
        "below sea level",
        "2 atm: trouble starts about 24,715 ft",
        "2 atm: past it",
        "0.5 atm: trouble on the ground",
        "0.5 atm: mask from about 1,285 ft",
        "vacuum",
        "trace atmosphere",
    ],
)
def test_breathing_limit(altitude: float, pressure: float, expected: Breathing) -> None:
    assert breathing_limit(altitude, pressure) is expected


@pytest.mark.parametrize("atmosphere", list(Atmosphere), ids=lambda a: a.value)
def test_wings_need_more_than_a_trace_of_air(atmosphere: Atmosphere) -> None:
    expected = atmosphere not in (Atmosphere.VACUUM, Atmosphere.TRACE)
    assert winged_flight_possible(atmosphere) is expected
    assert winged_flight_possible(atmosphere.value) is expected


@pytest.mark.parametrize(
    ("height", "reach", "defenses", "out_of_reach"),
    [
        (0, 1, (0, 0), (False, False)),
        (2.9, 1, (0, 0), (False, False)),
        (3, 1, (-1, 1), (False, False)),
        (4, 1, (-2, 2), (True, False)),
        (5, 1, (-3, 3), (True, True)),
        (12, 1, (-3, 3), (True, True)),
        (6, 2, (-1, 1), (False, False)),
        (6, 3, (0, 0), (False, False)),
        (8, 2, (-3, 3), (True, True)),
        (3, 0, (-1, 1), (False, False)),
    ],
    ids=[
        "level",
        "2.9 ft",
        "3 ft",
        "4 ft: legs out of reach from above",
        "5 ft: head out of reach from below",
        "12 ft",
        "6 ft, reach 2 cancels 3 ft",
        "6 ft, reach 3 cancels it all",
        "8 ft, reach 2 -> 5 ft",
        "close combat cancels nothing",
    ],
)
def test_different_levels(
    height: float, reach: int, defenses: tuple[int, int], out_of_reach: tuple[bool, bool]
) -> None:
    row = different_levels(height, reach)
    assert (row.lower_defense, row.higher_defense) == defenses
    assert (row.legs_out_of_reach_from_above, row.head_out_of_reach_from_below) == out_of_reach


def test_a_rider_is_a_different_level_from_a_standing_foe() -> None:
    row = different_levels(MOUNTED_HEIGHT_FT)
    assert (row.lower_defense, row.higher_defense) == (-1, 1)


def test_a_game_can_replace_the_different_levels_table() -> None:
    table = (
        DifferentLevelsRow(0, 0, 0, False, False, "a game's table"),
        DifferentLevelsRow(2, -2, 0, True, True, "a game's table"),
    )
    assert different_levels(2, table=table) is table[1]
    assert different_levels(1.5, table=table) is table[0]
    with pytest.raises(RuleValueError, match=r"different_levels\.table.*first at 0 ft"):
        different_levels(1, table=table[1:])


def test_default_different_levels_table_is_ascending_from_0() -> None:
    heights = [row.min_height_ft for row in DIFFERENT_LEVELS_TABLE]
    assert heights[0] == 0
    assert heights == sorted(heights)


@pytest.mark.parametrize(
    ("can_hover", "room", "expected"), [(True, True, 1), (True, False, 0), (False, True, 0), (False, False, 0)]
)
def test_aerial_retreat_bonus(can_hover: bool, room: bool, expected: int) -> None:
    assert aerial_retreat_bonus(can_hover, room) == expected


# --- House flying rules ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("ground", "top", "expected"), [(5, 20, True), (4, 20, False), (5, 21, False), (6, 21, True)])
def test_house_can_take_off_at_a_quarter_of_top_airspeed(ground: int, top: int, expected: bool) -> None:
    assert house_can_take_off(ground, top) is expected


@pytest.mark.parametrize(("yards", "expected"), [(0, 0), (3, 3), (10, 10), (11, 10), (30, 10)])
def test_house_climb_and_dive_change_speed_for_the_first_10_yards(yards: int, expected: int) -> None:
    assert house_climb_speed_loss(yards) == expected
    assert house_dive_speed_gain(yards) == expected


@pytest.mark.parametrize(("top", "expected"), [(30, 100), (100, 100), (120, 120)])
def test_house_dive_speed_cap(top: int, expected: int) -> None:
    assert house_dive_speed_cap(top) == expected


@pytest.mark.parametrize(("velocity", "top", "expected"), [(25, 20, 2), (21, 20, 2), (20, 20, None), (5, 20, None)])
def test_house_dive_control_modifier(velocity: int, top: int, expected: int | None) -> None:
    assert house_dive_control_modifier(velocity, top) == expected


@pytest.mark.parametrize(
    ("yards", "expected"),
    [(0, 0), (1, 0), (2, 0), (3, 60), (5, 60), (6, 120), (7, 120), (40, 120)],
    ids=[
        "level flight -> 0 degrees",
        "1 yd -> 0 degrees",
        "2 yd -> 0 degrees",
        "3 yd -> 60",
        "5 yd -> 60",
        "6 yd -> 120 (the gap the text leaves, read as 120)",
        "7 yd, more than 6 -> 120",
        "40 yd -> 120",
    ],
)
def test_house_climb_dive_turn_degrees(yards: int, expected: int) -> None:
    """House rules: Flying Movement and Combat: starting a climb or dive counts as a turn of 0, 60 or 120
    degrees by its yards."""
    assert house_climb_dive_turn_degrees(yards) == expected


def test_house_climb_dive_turn_table_rows() -> None:
    assert [(row.min_yd, row.degrees) for row in HOUSE_CLIMB_DIVE_TURN_TABLE] == [(0, 0), (3, 60), (6, 120)]


@pytest.mark.parametrize(
    ("horizontal", "vertical", "expected"), [(5, 0, 5), (5, 1, 5), (5, 3, 6), (5, 4, 7), (0, 9, 4)]
)
def test_house_cannot_hover_credit(horizontal: int, vertical: int, expected: int) -> None:
    assert house_cannot_hover_credit(horizontal, vertical) == expected


@pytest.mark.parametrize(
    ("turn", "wipe_out", "expected"), [(1, False, 5), (4, False, 5), (1, True, 10), (2, True, 20), (3, True, 30)]
)
def test_house_uncontrolled_drop(turn: int, wipe_out: bool, expected: int) -> None:
    assert house_uncontrolled_drop_yd(turn, wipe_out) == expected


@pytest.mark.parametrize(
    ("height", "expected"), [(1, (2, -2)), (10, (2, -2)), (0.9, (0, 0)), (0, (0, 0)), (-0.5, (0, 0)), (-1, (-2, 2))]
)
def test_house_height_defense_modifiers(height: float, expected: tuple[int, int]) -> None:
    assert house_height_defense_modifiers(height) == expected


@pytest.mark.parametrize(
    ("horizontal", "height", "spell", "expected"),
    [
        (20, 4, False, 18),
        (20, 5, False, 18),
        (20, 1, False, 20),
        (20, 30, False, 30),
        (20, 24, False, 24),
        (20, 16, False, 16),
        (10, 16, False, 16),
        (20, 15, False, 15),
        (30, 30, False, 30),
        (8, 12, False, 12),
        (40, 10, False, 35),
        (100, 120, False, 120),
        (20, -4, False, 24),
        (20, -4, True, 22),
        (20, -3, True, 21),
        (20, 0, False, 20),
    ],
    ids=[
        "4 yd above: -2",
        "5 yd above: two full pairs, -2",
        "1 yd above: nothing",
        "straight-down shot: floor is the height",
        "floor is the height 24",
        "20 - 8 = 12 is below the height 16",
        "floor 16 over half of 10",
        "20 - 7 = 13, floor is the height 15",
        "30 - 15 = 15, floor 30",
        "floor 12",
        "40 - 5 = 35 above both floors",
        "floor 120",
        "4 yd below: +4",
        "spell 4 yd below: +2",
        "spell 3 yd below: +1",
        "level",
    ],
)
def test_house_height_range(horizontal: float, height: float, spell: bool, expected: float) -> None:
    assert house_height_range(horizontal, height, spell) == expected


@given(
    st.floats(min_value=0, max_value=1e6, allow_nan=False, allow_infinity=False),
    st.floats(min_value=0, max_value=1e6, allow_nan=False, allow_infinity=False),
)
def test_house_height_range_from_above_stays_between_its_floors_and_the_distance(
    horizontal: float, height: float
) -> None:
    effective = house_height_range(horizontal, height)
    assert effective >= max(horizontal / 2, height)
    assert effective <= max(horizontal, height)


@pytest.mark.parametrize(
    ("yards", "relative", "expected"),
    [
        (8, 7, (-1, 1)),
        (50, 50, (-6, 6)),
        (7, 20, (0, 0)),
        (10, 0, (0, 0)),
        (0, 0, (0, 0)),
        (7.5, 7, (-1, 1)),
        (8, 5, (0, 0)),
        (12, 10, (-2, 2)),
    ],
    ids=[
        "moved 8, relative 7 -> -1/+1",
        "moved 50, relative 50 -> -6/+6",
        "moved 7, relative 20 -> none",
        "moved 10 toward a target fleeing at 10 -> relative 0 -> none",
        "standing still -> none",
        "moved 7.5, just past 7 yards, relative 7 -> -1/+1",
        "moved 8, relative 5 (Size value 2) -> none",
        "moved 12, relative 10 -> -2/+2",
    ],
)
def test_dragon_melee_speed_modifier(yards: float, relative: float, expected: tuple[int, int]) -> None:
    """House rules: "Dragon" Rule: past 7 yards of a Move and Attack, the relative speed through the Size and
    Speed/Range Table, Size value minus 2 (the text's examples: 7 yd/s -1/+1, 50 yd/s -6/+6)."""
    assert dragon_melee_speed_modifier(yards, relative) == expected


# --- Mounted combat --------------------------------------------------------------------------------------


@pytest.mark.parametrize(("hands", "expected"), [(0, -3), (1, -1), (2, 0)], ids=["no hands", "one hand", "two hands"])
def test_riding_control_penalty(hands: int, expected: int) -> None:
    assert riding_control_penalty(hands) == expected


@pytest.mark.parametrize(
    ("training", "penalty", "coax"),
    [(Training.WAR_TRAINED, 0, None), (Training.WELL_BROKEN, -3, 2), (Training.NOT_FULLY_BROKEN, -6, 2)],
    ids=lambda v: str(getattr(v, "value", v)),
)
def test_training(training: Training, penalty: int, coax: int | None) -> None:
    assert training_penalty(training) == penalty
    assert training_penalty(training.value) == penalty
    assert risky_feat_riding_modifier(training) == coax
    assert [row.training for row in TRAINING_TABLE] == list(Training)


@pytest.mark.parametrize(("stirrups", "expected"), [(False, -3), (True, 0)])
def test_mounting_penalty(stirrups: bool, expected: int) -> None:
    assert mounting_penalty(stirrups) == expected


@pytest.mark.parametrize(
    ("saddle", "stirrups", "expected"), [(True, True, True), (True, False, False), (False, True, False)]
)
def test_can_couch_lance(saddle: bool, stirrups: bool, expected: bool) -> None:
    assert can_couch_lance(saddle, stirrups) is expected


@pytest.mark.parametrize(
    ("st", "yards", "expected"),
    [(25, 8, "2d+3"), (25, 4, "1d+3"), (25, 3, "0d+3"), (10, 0, "0d+3"), (50, 10, "5d+3"), (33, 9, "2d+3")],
    ids=[
        "ST 25 at Move 8",
        "exactly 1 die",
        "0.75 dice rounds down to none",
        "standing still",
        "ST 50 at 10",
        "2.97 dice rounds down",
    ],
)
def test_lance_damage(st: int, yards: int, expected: str) -> None:
    assert str(lance_damage(st, yards)) == expected


@pytest.mark.parametrize(
    ("rolled", "expected"), [(0, (0, False)), (15, (15, False)), (16, (15, True)), (30, (15, True))]
)
def test_jousting_damage_cap(rolled: int, expected: tuple[int, bool]) -> None:
    assert jousting_damage_cap(rolled) == expected


_KINDS = {
    2: MountLossKind.THROWN,
    3: MountLossKind.LOST_GRIP,
    4: MountLossKind.DROPPED_ITEM,
    5: MountLossKind.CHARGES_TOWARD,
    6: MountLossKind.EXHAUSTED,
    7: MountLossKind.EXHAUSTED,
    8: MountLossKind.FRACTIOUS,
    9: MountLossKind.FRACTIOUS,
    10: MountLossKind.CHARGES_AWAY,
    11: MountLossKind.SADDLE_LOOSE,
    12: MountLossKind.MOUNT_FALLS,
}


@pytest.mark.parametrize(("roll", "kind"), list(_KINDS.items()), ids=[f"{r} -> {k.value}" for r, k in _KINDS.items()])
def test_mount_loss_of_control_rows(roll: int, kind: MountLossKind) -> None:
    row = mount_loss_of_control(roll)
    assert row.kind is kind
    assert row.kind == kind.value
    assert row.low <= roll <= row.high
    assert row.citation == "Basic Set: Mounted Combat > Mount Loss of Control Table"


def test_mount_loss_table_covers_2_to_12_once() -> None:
    covered = [roll for row in MOUNT_LOSS_OF_CONTROL_TABLE for roll in range(row.low, row.high + 1)]
    assert covered == list(range(2, 13))


def test_thrown_and_lost_grip_falls_and_calling_the_mount_back() -> None:
    thrown, grip = mount_loss_of_control(2), mount_loss_of_control(3)
    assert (thrown.fall_yd, thrown.fall_negated_by) == (3, ())
    assert (grip.fall_yd, set(grip.fall_negated_by)) == (2, {"Jumping", "Acrobatics"})
    for row in (thrown, grip):
        assert (row.call_back_modifier, row.call_back_retry_seconds) == (-3, 300)


def test_dropped_item_rolls_again_and_exhausted_walks_at_move_2() -> None:
    assert mount_loss_of_control(4).roll_again is True
    assert mount_loss_of_control(6).move_limit == 2
    assert mount_loss_of_control(7).move_limit == 2
    assert all(not mount_loss_of_control(r).roll_again for r in range(2, 13) if r != 4)


def test_fractious_and_loose_saddle_penalties() -> None:
    fractious = mount_loss_of_control(8)
    assert (fractious.riding_modifier, fractious.attack_modifier, fractious.cumulative) == (-1, 0, True)
    saddle = mount_loss_of_control(11)
    assert (saddle.riding_modifier, saddle.attack_modifier, saddle.cumulative) == (-3, -3, False)
    assert saddle.repair_seconds_dice == 4


def test_mount_falls_row() -> None:
    row = mount_loss_of_control(12)
    assert row.mount_dx_modifier == 1
    assert row.stay_seated_modifier == -2
    assert row.fall_yd == 3
    assert row.leap_clear_row == 3
    assert mount_loss_of_control(row.leap_clear_row).fall_yd == 2
    assert row.crushed_fall_yd == 2


@pytest.mark.parametrize(
    ("roll", "kind"),
    [(11, MountLossKind.LOST_GRIP), (2, MountLossKind.THROWN), (12, MountLossKind.MOUNT_FALLS)],
    ids=["loose saddle without a saddle reads as 3", "other rows unchanged: 2", "other rows unchanged: 12"],
)
def test_riding_without_a_saddle(roll: int, kind: MountLossKind) -> None:
    assert mount_loss_of_control(roll, saddled=False).kind is kind


@pytest.mark.parametrize(
    ("rolls", "result", "state"),
    [
        ([(True, False)] * 3, SpookResult.CALMED, SpookState()),
        ([(False, False)] * 3, SpookResult.LOST_CONTROL, SpookState()),
        ([(True, False)] * 2, SpookResult.BUCKING, SpookState(successes=2)),
        ([(True, False), (True, False), (False, False)], SpookResult.BUCKING, SpookState(failures=1)),
        ([(False, False), (False, False), (True, False)], SpookResult.BUCKING, SpookState(successes=1)),
        ([(True, True)], SpookResult.CALMED, SpookState()),
        ([(False, True)], SpookResult.LOST_CONTROL, SpookState()),
        ([(True, False), (False, True)], SpookResult.LOST_CONTROL, SpookState()),
    ],
    ids=[
        "three successes in a row calm it",
        "three failures in a row lose control",
        "two successes: still bucking",
        "a failure breaks the run of successes",
        "a success breaks the run of failures",
        "critical success calms at once",
        "critical failure loses control at once",
        "critical failure after a success",
    ],
)
def test_spooked_mount(rolls: list[tuple[bool, bool]], result: SpookResult, state: SpookState) -> None:
    current, outcome = SpookState(), SpookResult.BUCKING
    for success, critical in rolls:
        current, outcome = spooked_mount_roll(current, success, critical)
    assert (outcome, current) == (result, state)


def test_panic() -> None:
    assert panic_roll_modifier(True) == 6
    assert panic_roll_modifier(False) == 0
    assert panic_roll_needed(0, 1) is True
    assert panic_roll_needed(1, 1) is False
    assert panic_roll_needed(2, 1) is False


@pytest.mark.parametrize(
    ("weapon", "riding", "training", "expected"),
    [(14, 12, False, 12), (10, 12, False, 10), (12, 12, False, 12), (14, 12, True, 14)],
    ids=["Riding limits", "weapon skill is lower", "equal", "house Cavalry Training lifts the limit"],
)
def test_cavalry_skill(weapon: int, riding: int, training: bool, expected: int) -> None:
    assert cavalry_skill(weapon, riding, training) == expected


@pytest.mark.parametrize(("riding", "expected"), [(9, -3), (11, -1), (12, 0), (18, 0), (3, -9)])
def test_riding_defense_penalty(riding: int, expected: int) -> None:
    assert riding_defense_penalty(riding) == expected


@pytest.mark.parametrize(
    ("velocity", "variant", "expected"),
    [
        (0, "basic", (0, 0)),
        (6.9, "basic", (0, 0)),
        (7, "basic", (-1, 1)),
        (50, "basic", (-1, 1)),
        (0, "house", (0, 0)),
        (5, "house", (0, 0)),
        (6.9, "house", (-1, 1)),
        (8, "house", (-2, 2)),
        (10, "house", (-2, 2)),
        (14, "house", (-3, 3)),
        (100, "house", (-8, 8)),
    ],
    ids=[
        "still",
        "just under 7",
        "7",
        "50: still -1/+1",
        "house still",
        "house 5: SM +2 - 2",
        "house just under 7 reads up to 7",
        "house 8 reads up to 10: SM +4 - 2",
        "house 10",
        "house 14 reads up to 15",
        "house 100",
    ],
)
def test_mounted_melee_speed_modifier(velocity: float, variant: Any, expected: tuple[int, int]) -> None:
    assert mounted_melee_speed_modifier(velocity, variant) == expected


@pytest.mark.parametrize(("moved", "step", "expected"), [(2, 1, 1), (1, 1, None), (0, 1, None)])
def test_mounted_aim_limit(moved: int, step: int, expected: int | None) -> None:
    assert mounted_aim_limit(moved, step) == expected


@pytest.mark.parametrize(("kind", "weapon", "riding"), [("turn_in_saddle", -4, -1), ("far_side", -6, -3)])
def test_ranged_tricks(kind: str, weapon: int, riding: int) -> None:
    row = ranged_trick(kind)
    assert (row.weapon_modifier, row.riding_modifier) == (weapon, riding)
    assert row in RANGED_TRICK_TABLE


@pytest.mark.parametrize(
    ("yards", "saddle", "stirrups", "expected"),
    [(1, True, True, -4), (3, True, True, -12), (1, True, False, None), (2, False, True, None)],
    ids=["1 yd -> -4", "3 yd -> -12", "no stirrups: knocked off", "no saddle: knocked off"],
)
def test_knockback_unseat_modifier(yards: int, saddle: bool, stirrups: bool, expected: int | None) -> None:
    assert knockback_unseat_modifier(yards, saddle, stirrups) == expected


@pytest.mark.parametrize(
    ("stunned", "knockback", "war_saddle", "stirrups", "expected"),
    [
        (True, 0, False, False, -4),
        (False, 2, False, False, -8),
        (True, 2, False, False, -12),
        (True, 2, True, True, -8),
        (False, 1, True, False, -1),
        (False, 1, False, True, -3),
    ],
    ids=["stunned", "2 yd knockback", "both in one roll", "war saddle and stirrups", "war saddle", "stirrups"],
)
def test_house_unseat_modifier(stunned: bool, knockback: int, war_saddle: bool, stirrups: bool, expected: int) -> None:
    assert house_unseat_modifier(stunned, knockback, war_saddle, stirrups) == expected


def test_house_unseat_needs_a_cause() -> None:
    with pytest.raises(RuleValueError, match=r"house_unseat_modifier\.knockback_yd = 0"):
        house_unseat_modifier(False, 0)


def test_house_strapped_trauma_is_a_point_a_yard() -> None:
    assert house_strapped_trauma(3) == 3
    assert house_strapped_trauma(0) == 0


@pytest.mark.parametrize(
    ("riding", "st", "expected"),
    [(13, 10, MultipleRiders(12, 7)), (9, 12, MultipleRiders(8, 6))],
    ids=["passenger's ST is lower", "controller's Riding is lower"],
)
def test_multiple_riders(riding: int, st: int, expected: MultipleRiders) -> None:
    assert multiple_riders(riding, st) == expected


# The thrust column of the Basic Set damage table, written out by hand (not read back from THRUST_TABLE).
_THRUST = [
    (1, "1d-6"),
    (3, "1d-5"),
    (5, "1d-4"),
    (7, "1d-3"),
    (9, "1d-2"),
    (11, "1d-1"),
    (13, "1d"),
    (15, "1d+1"),
    (17, "1d+2"),
    (19, "2d-1"),
    (21, "2d"),
    (23, "2d+1"),
    (25, "2d+2"),
    (27, "3d-1"),
    (29, "3d"),
    (31, "3d+1"),
    (33, "3d+2"),
    (35, "4d-1"),
    (37, "4d"),
    (39, "4d+1"),
    (45, "5d"),
    (50, "5d+2"),
    (55, "6d"),
    (60, "7d-1"),
    (65, "7d+1"),
    (70, "8d"),
    (75, "8d+2"),
    (80, "9d"),
    (85, "9d+2"),
    (90, "10d"),
    (95, "10d+2"),
    (100, "11d"),
]


@pytest.mark.parametrize(("st", "expected"), _THRUST, ids=[f"ST {s} -> {d}" for s, d in _THRUST])
def test_thrust_table_rows(st: int, expected: str) -> None:
    assert str(thrust_damage(st)) == expected


def test_thrust_table_data_is_the_listed_rows() -> None:
    assert [(row.min_st, str(row.damage)) for row in THRUST_TABLE] == _THRUST


@pytest.mark.parametrize(
    ("st", "expected"),
    [
        (1, "1d-6"),
        (2, "1d-6"),
        (12, "1d-1"),
        (13, "1d"),
        (18, "1d+2"),
        (19, "2d-1"),
        (20, "2d-1"),
        (21, "2d"),
        (22, "2d"),
        (40, "4d+1"),
        (44, "4d+1"),
        (49, "5d"),
        (99, "10d+2"),
        (100, "11d"),
        (101, "11d"),
        (109, "11d"),
        (110, "12d"),
        (150, "16d"),
    ],
)
def test_thrust_damage_between_and_beyond_rows(st: int, expected: str) -> None:
    assert str(thrust_damage(st)) == expected


def test_every_table_row_carries_a_basic_set_or_house_citation() -> None:
    tables: list[tuple[Any, ...]] = [
        ENCUMBRANCE_TABLE,
        FALL_VELOCITY_TABLE,
        SPEED_RANGE_DECADE,
        DIFFERENT_LEVELS_TABLE,
        HOUSE_CLIMB_DIVE_TURN_TABLE,
        TRAINING_TABLE,
        MOUNT_LOSS_OF_CONTROL_TABLE,
        RANGED_TRICK_TABLE,
        THRUST_TABLE,
    ]
    for table in tables:
        for row in table:
            assert row.citation.startswith(("Basic Set: ", "House rules: "))


# --- Bad input -------------------------------------------------------------------------------------------

_NAN = float("nan")
_INF = float("inf")

_BAD: list[tuple[Callable[[], object], str]] = [
    (lambda: turning_radius(-1, 5), "turning_radius.velocity"),
    (lambda: turning_radius(13.5, 5), "turning_radius.velocity"),  # type: ignore[arg-type]
    (lambda: turning_radius(13, -1), "turning_radius.move"),
    (lambda: turning_radius(13, _NAN), "turning_radius.move"),  # type: ignore[arg-type]
    (lambda: turning_radius(True, 5), "turning_radius.velocity"),
    (lambda: entry_velocity_limit(-1, 5), "entry_velocity_limit.move"),
    (lambda: entry_velocity_limit(5, -5), "entry_velocity_limit.basic_move"),
    (lambda: entry_velocity_limit(5, 5, 1), "entry_velocity_limit.enhanced"),  # type: ignore[arg-type]
    (lambda: sprint_top_speed(-3), "sprint_top_speed.move"),
    (lambda: encumbered_move(-1, 0), "encumbered_move.basic_move"),
    (lambda: encumbered_move(5, 5), "encumbered_move.level"),
    (lambda: encumbered_move(5, -1), "encumbered_move.level"),
    (lambda: dodge_encumbrance_penalty(5), "dodge_encumbrance_penalty.level"),
    (lambda: posture_change_seconds(5), "posture_change_seconds.encumbrance_level"),
    (lambda: hasty_deceleration_modifier(-1, 5), "hasty_deceleration_modifier.decel"),
    (lambda: hasty_deceleration_modifier(3, -5), "hasty_deceleration_modifier.basic_move"),
    (lambda: early_turn_modifier(-1, 5), "early_turn_modifier.velocity"),
    (lambda: early_turn_modifier(10, 5, "realistic"), "early_turn_modifier.variant"),  # type: ignore[arg-type]
    (lambda: footing_deceleration(14, 15, 5), "footing_deceleration.extra_points"),
    (lambda: footing_deceleration(14, 6, 5, 9), "footing_deceleration.voluntary"),
    (lambda: footing_deceleration(-1, 0, 5), "footing_deceleration.velocity"),
    (lambda: footing_deceleration(14, 0, -5), "footing_deceleration.basic_move"),
    (lambda: skid_yards(-1), "skid_yards.remaining_movement"),
    (lambda: high_speed_defense(-1, 5), "high_speed_defense.velocity"),
    (lambda: is_high_speed(5, -1), "is_high_speed.basic_move"),
    (lambda: can_enter_high_speed(5, 5, 0, "Sprint", True), "can_enter_high_speed.maneuver"),
    (lambda: can_enter_high_speed(5, 5, -1, "Move", True), "can_enter_high_speed.sixty_degree_turns"),
    (lambda: can_enter_high_speed(5, 5, 0, "Move", "yes"), "can_enter_high_speed.standing"),  # type: ignore[arg-type]
    (lambda: max_accelerated_velocity(5, 5, -1), "max_accelerated_velocity.top_speed"),
    (lambda: high_speed_maneuver_allowed("Sprint"), "high_speed_maneuver_allowed.maneuver"),
    (lambda: high_speed_maneuver_allowed(3), "high_speed_maneuver_allowed.maneuver"),  # type: ignore[arg-type]
    (lambda: house_high_speed_maneuver_allowed("Move", -1, 12), "house_high_speed_maneuver_allowed.velocity"),
    (lambda: house_high_speed_maneuver_allowed("Step", 1, 12), "house_high_speed_maneuver_allowed.maneuver"),
    (lambda: move_and_attack_melee_skill(_NAN), "move_and_attack_melee_skill.skill"),  # type: ignore[arg-type]
    (lambda: move_and_attack_ranged_modifier(2), "move_and_attack_ranged_modifier.bulk"),
    (lambda: shock_penalty(-1), "shock_penalty.injury"),
    (lambda: house_top_speed(-1), "house_top_speed.encumbered_move"),
    (lambda: house_out_of_control_velocity(-3, 5), "house_out_of_control_velocity.velocity"),
    (lambda: house_regains_control_automatically(3, -5), "house_regains_control_automatically.encumbered_move"),
    (lambda: house_trip_skid_yards(10, -1), "house_trip_skid_yards.remaining_movement"),
    (lambda: house_trip_fall_yards(_NAN), "house_trip_fall_yards.velocity"),
    (lambda: house_trip_collision_velocity(-2), "house_trip_collision_velocity.velocity"),
    (lambda: house_high_speed_target_range(_INF, 5), "house_high_speed_target_range.range_yd"),
    (lambda: collision_dice(-1, 10), "collision_dice.hp"),
    (lambda: collision_dice(10, -1), "collision_dice.velocity"),
    (lambda: collision_dice(10, _NAN), "collision_dice.velocity"),
    (lambda: collision_dice(10, _INF), "collision_dice.velocity"),
    (lambda: collision_dice(10, 10, "yes"), "collision_dice.hard_obstacle"),  # type: ignore[arg-type]
    (lambda: collision_velocity(-1, 0, 5, 0), "collision_velocity.v1"),
    (lambda: collision_velocity(5, _NAN, 5, 0), "collision_velocity.heading1"),
    (lambda: collision_velocity(5, 0, 5, 0, "average"), "collision_velocity.reading"),  # type: ignore[arg-type]
    (lambda: fall_velocity(-1), "fall_velocity.yards"),
    (lambda: fall_velocity(_NAN), "fall_velocity.yards"),
    (lambda: fall_velocity(3, -1.0), "fall_velocity.gravity"),
    (lambda: fall_velocity(3, _INF), "fall_velocity.gravity"),
    (lambda: speed_range_modifier(0), "speed_range_modifier.yards"),
    (lambda: speed_range_modifier(-5), "speed_range_modifier.yards"),
    (lambda: speed_range_modifier(_NAN), "speed_range_modifier.yards"),
    (lambda: speed_range_modifier(_INF), "speed_range_modifier.yards"),
    (lambda: size_modifier(0), "size_modifier.yards"),
    (lambda: size_modifier("2"), "size_modifier.yards"),  # type: ignore[arg-type]
    (lambda: stall_speed(-4), "stall_speed.top_airspeed"),
    (lambda: dive_limits(-1, 10), "dive_limits.basic_air_move"),
    (lambda: vertical_move_cost(-1, 0), "vertical_move_cost.horizontal_yd"),
    (lambda: vertical_move_cost(1, 1.5), "vertical_move_cost.vertical_yd"),  # type: ignore[arg-type]
    (lambda: aerial_retreat_bonus(1, True), "aerial_retreat_bonus.can_hover"),  # type: ignore[arg-type]
    (lambda: breathing_limit(_NAN), "breathing_limit.altitude_ft"),
    (lambda: breathing_limit(0, -1.0), "breathing_limit.pressure"),
    (lambda: winged_flight_possible("soup"), "winged_flight_possible.atmosphere"),
    (lambda: different_levels(-1), "different_levels.height_ft"),
    (lambda: different_levels(3, -1), "different_levels.reach_yd"),
    (lambda: house_can_take_off(-1, 20), "house_can_take_off.ground_velocity"),
    (lambda: house_climb_speed_loss(-1), "house_climb_speed_loss.climb_yd"),
    (lambda: house_dive_speed_gain(-1), "house_dive_speed_gain.dive_yd"),
    (lambda: house_dive_speed_cap(-1), "house_dive_speed_cap.top_speed"),
    (lambda: house_dive_control_modifier(-1, 20), "house_dive_control_modifier.velocity"),
    (lambda: house_climb_dive_turn_degrees(-1), "house_climb_dive_turn_degrees.yards"),
    (lambda: house_cannot_hover_credit(1, -1), "house_cannot_hover_credit.vertical_yd"),
    (lambda: house_uncontrolled_drop_yd(0), "house_uncontrolled_drop_yd.turn"),
    (lambda: house_height_defense_modifiers(_NAN), "house_height_defense_modifiers.height_yd"),
    (lambda: house_height_range(-1, 3), "house_height_range.horizontal_yd"),
    (lambda: house_height_range(10, _INF), "house_height_range.height_yd"),
    (lambda: dragon_melee_speed_modifier(-1, 0), "dragon_melee_speed_modifier.yards_moved"),
    (lambda: dragon_melee_speed_modifier(8, -1), "dragon_melee_speed_modifier.relative_velocity"),
    (lambda: riding_control_penalty(3), "riding_control_penalty.hands_on_reins"),
    (lambda: training_penalty("feral"), "training_penalty.training"),
    (lambda: risky_feat_riding_modifier(0), "risky_feat_riding_modifier.training"),  # type: ignore[arg-type]
    (lambda: mounting_penalty(None), "mounting_penalty.stirrups"),  # type: ignore[arg-type]
    (lambda: can_couch_lance(True, None), "can_couch_lance.stirrups"),  # type: ignore[arg-type]
    (lambda: lance_damage(0, 8), "lance_damage.mount_st"),
    (lambda: lance_damage(25, -8), "lance_damage.yards_moved"),
    (lambda: jousting_damage_cap(-1), "jousting_damage_cap.rolled"),
    (lambda: mount_loss_of_control(1), "mount_loss_of_control.roll"),
    (lambda: mount_loss_of_control(13), "mount_loss_of_control.roll"),
    (lambda: mount_loss_of_control(7.0), "mount_loss_of_control.roll"),  # type: ignore[arg-type]
    (lambda: mount_loss_of_control(7, saddled=0), "mount_loss_of_control.saddled"),  # type: ignore[arg-type]
    (lambda: spooked_mount_roll(None, True), "spooked_mount_roll.state"),  # type: ignore[arg-type]
    (lambda: spooked_mount_roll(SpookState(), 1), "spooked_mount_roll.success"),  # type: ignore[arg-type]
    (lambda: SpookState(successes=3), "SpookState.successes"),
    (lambda: SpookState(failures=-1), "SpookState.failures"),
    (lambda: panic_roll_modifier(1), "panic_roll_modifier.combat_reflexes"),  # type: ignore[arg-type]
    (lambda: panic_roll_needed(_NAN, 1), "panic_roll_needed.foe_sm"),  # type: ignore[arg-type]
    (lambda: cavalry_skill(12, None), "cavalry_skill.riding"),  # type: ignore[arg-type]
    (lambda: riding_defense_penalty(_NAN), "riding_defense_penalty.riding"),  # type: ignore[arg-type]
    (lambda: mounted_melee_speed_modifier(-1), "mounted_melee_speed_modifier.relative_velocity"),
    (lambda: mounted_melee_speed_modifier(7, "dragon"), "mounted_melee_speed_modifier.variant"),  # type: ignore[arg-type]
    (lambda: mounted_aim_limit(-1, 1), "mounted_aim_limit.mount_moved_yd"),
    (lambda: ranged_trick("backflip"), "ranged_trick.kind"),
    (lambda: knockback_unseat_modifier(0), "knockback_unseat_modifier.yards"),
    (lambda: knockback_unseat_modifier(2, saddle=1), "knockback_unseat_modifier.saddle"),  # type: ignore[arg-type]
    (lambda: house_unseat_modifier(True, -1), "house_unseat_modifier.knockback_yd"),
    (lambda: house_strapped_trauma(-1), "house_strapped_trauma.knockback_yd"),
    (lambda: multiple_riders(12, -1), "multiple_riders.passenger_st"),
    (lambda: thrust_damage(0), "thrust_damage.st"),
    (lambda: ordinary_move_yd("Sprint", 5, 5), "ordinary_move_yd.maneuver"),
    (lambda: ordinary_move_yd("Move", -1, 5), "ordinary_move_yd.move"),
    (lambda: thrust_damage(_NAN), "thrust_damage.st"),  # type: ignore[arg-type]
]


@pytest.mark.parametrize(("call", "where"), _BAD, ids=[where for _, where in _BAD])
def test_bad_input_names_the_rule_and_field(call: Callable[[], object], where: str) -> None:
    with pytest.raises(RuleValueError) as raised:
        call()
    assert str(raised.value).startswith(f"{where} = ")
    assert isinstance(raised.value, ValueError)

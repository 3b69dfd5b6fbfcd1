"""Spelljammer: Running, Shooting, Chasing and Fleeing, checked table row by table row."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from esper_motion.ecs.errors import RuleValueError
from esper_motion.systems.spelljammer.rules import (
    CHASE_MODES,
    CHASE_TABLE,
    DEFENSES,
    DIE_LADDER,
    ENCUMBRANCE,
    HALF_MOVE_FIRE,
    MOVING_FIRE,
    PURSUIT_OUTCOMES,
    SPEEDS,
    VEGETATION,
    ChaseAttacks,
    DefenseAllowed,
    DropResult,
    PursuitLevel,
    RangedWeapon,
    SpeedMode,
    Vegetation,
    allowed_modes,
    chase,
    chase_attacks,
    defense_allowed,
    dex_grade,
    drop_check,
    fire_on_the_move,
    free_attack_on_fleeing,
    grade_name,
    movement_rate,
    moving_fire,
    moving_fire_row,
    nonlethal_damage,
    pursuit_action,
    pursuit_fall_seconds,
    scaled_time_dice,
)

RULE = "Spelljammer: Running, Shooting, Chasing and Fleeing"
M = SpeedMode
V = Vegetation


# --- Every table row carries its citation ---------------------------------------------------------


@pytest.mark.parametrize(
    ("table", "section"),
    [
        (SPEEDS, "Movement and Defense"),
        (DEFENSES, "Movement and Defense"),
        (ENCUMBRANCE, "Movement and Defense"),
        (VEGETATION, "Restricted Movement"),
        (CHASE_TABLE, "Chasing and Fleeing"),
        (PURSUIT_OUTCOMES, "Chasing and Fleeing (Pursuit Actions)"),
        (MOVING_FIRE, "Moving and Shooting"),
        (HALF_MOVE_FIRE, "Moving and Shooting"),
    ],
    ids=["speeds", "defenses", "encumbrance", "vegetation", "chase", "pursuit", "moving fire", "half-move fire"],
)
def test_every_table_row_cites_its_section(table: tuple[object, ...], section: str) -> None:
    assert table
    assert {row.source for row in table} == {f"{RULE} > {section}"}  # type: ignore[attr-defined]


def test_movement_tables_have_one_row_per_speed_mode() -> None:
    assert [row.mode for row in SPEEDS] == list(SpeedMode)
    assert [row.mode for row in DEFENSES] == list(SpeedMode)
    assert [row.vegetation for row in VEGETATION] == list(Vegetation)


# --- Movement and Defense -------------------------------------------------------------------------


def test_movement_example_tmr_9_covers_45_feet_a_round() -> None:
    """Movement and Defense: a TMR of 9 is nine 5-foot squares, 45 feet, a round."""
    assert movement_rate(9, M.WALK) * 5 == 45


@pytest.mark.parametrize(
    ("mode", "squares"),
    [(M.DODGE, 6.0), (M.WALK, 12.0), (M.RUN, 24.0), (M.SPRINT, 36.0), (M.FAST_SPRINT, 48.0), (M.STEALTHY, 6.0)],
    ids=["dodge 1/2 TMR", "walk TMR", "run 2x TMR", "sprint 3x TMR", "fast sprint 4x TMR", "stealthy 1/2 TMR"],
)
def test_movement_and_defense_speed_multiples(mode: SpeedMode, squares: float) -> None:
    assert movement_rate(12, mode) == squares


def test_movement_rate_keeps_fractions_of_a_square() -> None:
    """Movement and Defense: half of an odd TMR is not rounded."""
    assert movement_rate(9, M.DODGE) == 4.5


@pytest.mark.parametrize(
    ("encumbrance", "squares"),
    [(0, 12.0), (1, 9.0), (2, 6.0)],
    ids=["unencumbered full TMR", "encumbered -25%", "double encumbered -50%"],
)
def test_movement_and_defense_encumbrance(encumbrance: int, squares: float) -> None:
    assert movement_rate(12, M.WALK, encumbrance) == squares


@pytest.mark.parametrize(
    ("mode", "nl"),
    [(M.DODGE, None), (M.WALK, None), (M.RUN, None), (M.SPRINT, "1d6"), (M.FAST_SPRINT, "2d6"), (M.STEALTHY, None)],
    ids=["dodge none", "walk none", "run none", "sprint 1d6", "fast sprint 2d6", "stealthy none"],
)
def test_movement_and_defense_nonlethal_damage_per_round(mode: SpeedMode, nl: str | None) -> None:
    assert nonlethal_damage(mode) == nl


#: (full DEF, bonus vs ranged, DEX, Defense skill, magic, shield, Move Silently / Hide in Shadows)
DEFENSE_ROWS = [
    (M.DODGE, (True, 20, True, True, True, True, False)),
    (M.WALK, (True, 0, True, True, True, True, False)),
    (M.RUN, (False, 0, True, True, True, False, False)),
    (M.SPRINT, (False, 0, True, False, True, False, False)),
    (M.FAST_SPRINT, (False, 0, False, False, True, False, False)),
    (M.STEALTHY, (True, 0, True, True, True, True, True)),
]


@pytest.mark.parametrize(
    ("mode", "expected"),
    DEFENSE_ROWS,
    ids=[
        "dodge: full DEF +20 vs ranged",
        "walk: full DEF",
        "run: DEX, Defense skill, magic, no shield",
        "sprint: DEX and magic, no shield or Defense skill",
        "fast sprint: magic only",
        "stealthy: full DEF and stealth rolls",
    ],
)
def test_movement_and_defense_what_each_mode_allows(mode: SpeedMode, expected: tuple[object, ...]) -> None:
    row = defense_allowed(mode)
    assert isinstance(row, DefenseAllowed)
    assert row.mode is mode
    got = (row.full, row.ranged_bonus, row.dex, row.defense_skill, row.magic, row.shield, row.stealth_rolls)
    assert got == expected


# --- Restricted Movement --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("vegetation", "squares"),
    [(V.HEAVY, 15.0), (V.DENSE, 10.0), (V.VERY_DENSE, 5.0), (V.EXTREMELY_DENSE, 2.0)],
    ids=["heavy 3/4", "dense 1/2", "very dense 1/4", "extremely dense 1/10"],
)
def test_restricted_movement_fraction_of_tmr(vegetation: Vegetation, squares: float) -> None:
    assert movement_rate(20, M.WALK, vegetation=vegetation) == squares


@pytest.mark.parametrize(
    ("vegetation", "allowed"),
    [
        (None, [M.DODGE, M.WALK, M.RUN, M.SPRINT, M.FAST_SPRINT, M.STEALTHY]),
        (V.HEAVY, [M.DODGE, M.WALK, M.RUN, M.STEALTHY]),
        (V.DENSE, [M.DODGE, M.WALK, M.RUN, M.STEALTHY]),
        (V.VERY_DENSE, [M.DODGE, M.WALK, M.STEALTHY]),
        (V.EXTREMELY_DENSE, [M.DODGE, M.WALK, M.STEALTHY]),
    ],
    ids=[
        "open ground: every mode",
        "heavy: no sprint or fast sprint",
        "dense: no sprint or fast sprint",
        "very dense: no run, sprint or fast sprint",
        "extremely dense: no run, sprint or fast sprint",
    ],
)
def test_restricted_movement_allowed_modes(vegetation: Vegetation | None, allowed: list[SpeedMode]) -> None:
    assert list(allowed_modes(vegetation)) == allowed
    for mode in allowed:
        assert movement_rate(8, mode, vegetation=vegetation) > 0


@pytest.mark.parametrize(
    ("vegetation", "mode", "allowed_text"),
    [
        (V.HEAVY, M.SPRINT, "heavy vegetation allows: dodge, walk, run, stealthy"),
        (V.HEAVY, M.FAST_SPRINT, "heavy vegetation allows: dodge, walk, run, stealthy"),
        (V.DENSE, M.SPRINT, "dense vegetation allows: dodge, walk, run, stealthy"),
        (V.DENSE, M.FAST_SPRINT, "dense vegetation allows: dodge, walk, run, stealthy"),
        (V.VERY_DENSE, M.RUN, "very dense vegetation allows: dodge, walk, stealthy"),
        (V.VERY_DENSE, M.SPRINT, "very dense vegetation allows: dodge, walk, stealthy"),
        (V.VERY_DENSE, M.FAST_SPRINT, "very dense vegetation allows: dodge, walk, stealthy"),
        (V.EXTREMELY_DENSE, M.RUN, "extremely dense vegetation allows: dodge, walk, stealthy"),
        (V.EXTREMELY_DENSE, M.SPRINT, "extremely dense vegetation allows: dodge, walk, stealthy"),
        (V.EXTREMELY_DENSE, M.FAST_SPRINT, "extremely dense vegetation allows: dodge, walk, stealthy"),
    ],
    ids=[
        "heavy, sprint",
        "heavy, fast sprint",
        "dense, sprint",
        "dense, fast sprint",
        "very dense, run",
        "very dense, sprint",
        "very dense, fast sprint",
        "extremely dense, run",
        "extremely dense, sprint",
        "extremely dense, fast sprint",
    ],
)
def test_restricted_movement_forbidden_mode_names_mode_vegetation_and_allowed(
    vegetation: Vegetation, mode: SpeedMode, allowed_text: str
) -> None:
    with pytest.raises(RuleValueError) as caught:
        movement_rate(10, mode, vegetation=vegetation)
    message = str(caught.value)
    assert message.startswith("movement_rate.mode = ")
    assert repr(mode) in message
    assert allowed_text in message


def test_speed_encumbrance_and_vegetation_multiply() -> None:
    """Reading: every factor multiplies; run (2x), encumbered (3/4), heavy (3/4) on TMR 10 is 11.25."""
    assert movement_rate(10, M.RUN, 1, V.HEAVY) == 11.25


def test_movement_rate_is_the_nearest_float_to_the_exact_product() -> None:
    """Reading: no rounding inside; 9 x 3/4 x 1/10 is 27/40 exactly before the float."""
    assert movement_rate(9, M.WALK, 1, V.EXTREMELY_DENSE) == float(Fraction(27, 40))


def test_movement_rate_accepts_fractional_tmr_and_zero() -> None:
    assert movement_rate(7.5, M.RUN) == 15.0
    assert movement_rate(0, M.FAST_SPRINT) == 0.0


@given(
    tmr=st.integers(0, 200),
    mode=st.sampled_from(list(SpeedMode)),
    encumbrance=st.integers(0, 2),
)
def test_movement_rate_never_exceeds_four_times_tmr_and_falls_with_encumbrance(
    tmr: int, mode: SpeedMode, encumbrance: int
) -> None:
    rate = movement_rate(tmr, mode, encumbrance)
    assert 0 <= rate <= 4 * tmr
    if encumbrance:
        assert rate <= movement_rate(tmr, mode, encumbrance - 1)


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"tmr": -1, "mode": M.WALK}, "tmr"),
        ({"tmr": math.nan, "mode": M.WALK}, "tmr"),
        ({"tmr": math.inf, "mode": M.WALK}, "tmr"),
        ({"tmr": True, "mode": M.WALK}, "tmr"),
        ({"tmr": "9", "mode": M.WALK}, "tmr"),
        ({"tmr": 9, "mode": "walk"}, "mode"),
        ({"tmr": 9, "mode": M.WALK, "encumbrance": 3}, "encumbrance"),
        ({"tmr": 9, "mode": M.WALK, "encumbrance": -1}, "encumbrance"),
        ({"tmr": 9, "mode": M.WALK, "encumbrance": 0.5}, "encumbrance"),
        ({"tmr": 9, "mode": M.WALK, "vegetation": "dense"}, "vegetation"),
    ],
    ids=[
        "negative tmr",
        "NaN tmr",
        "infinite tmr",
        "bool tmr",
        "text tmr",
        "mode as text",
        "encumbrance 3",
        "encumbrance -1",
        "fractional encumbrance",
        "vegetation as text",
    ],
)
def test_movement_rate_bad_input_names_the_field(kwargs: dict[str, object], field: str) -> None:
    with pytest.raises(RuleValueError, match=rf"^movement_rate\.{field} = "):
        movement_rate(**kwargs)  # type: ignore[arg-type]


def test_unknown_mode_error_lists_the_modes() -> None:
    with pytest.raises(RuleValueError, match=r"SpeedMode\.DODGE, SpeedMode\.WALK, .*SpeedMode\.STEALTHY"):
        defense_allowed("sprint")  # type: ignore[arg-type]
    with pytest.raises(RuleValueError, match=r"^nonlethal_damage\.mode"):
        nonlethal_damage(None)  # type: ignore[arg-type]
    with pytest.raises(RuleValueError, match=r"^allowed_modes\.vegetation"):
        allowed_modes("heavy")  # type: ignore[arg-type]


# --- Chasing and Fleeing: the chase table ---------------------------------------------------------

#: (difference, max attacks, modifier): each printed row at both ends, plus the open ends.
CHASE_ROWS = [
    (-50, 0, 0),
    (-1, 0, 0),
    (0, 1, -50),
    (1, 1, -25),
    (5, 1, -25),
    (6, 1, -20),
    (10, 1, -20),
    (11, 1, -15),
    (15, 1, -15),
    (16, 1, -10),
    (20, 1, -10),
    (21, 1, -10),
    (25, 1, -10),
    (26, 2, -10),
    (30, 2, -10),
    (31, 2, -10),
    (35, 2, -10),
    (36, 2, -10),
    (40, 2, -10),
    (41, 2, -10),
    (45, 2, -10),
    (46, 2, -5),
    (50, 2, -5),
    (51, 2, -5),
    (55, 2, -5),
    (56, 3, -5),
    (60, 3, -5),
    (61, 3, -5),
    (65, 3, -5),
    (66, 3, -5),
    (70, 3, -5),
    (71, 3, -5),
    (75, 3, -5),
    (76, 3, -5),
    (80, 3, -5),
    (81, 3, -5),
    (85, 3, -5),
    (86, 3, 0),
    (500, 3, 0),
]


@pytest.mark.parametrize(
    ("difference", "attacks", "modifier"),
    CHASE_ROWS,
    ids=[f"difference {d} -> {a} attacks at {m}" for d, a, m in CHASE_ROWS],
)
def test_chase_table_rows_and_edges(difference: int, attacks: int, modifier: int) -> None:
    runner = 100
    assert chase(runner + difference, runner) == (attacks, modifier)


def test_chase_table_rows_cover_every_whole_difference_once() -> None:
    bounds = [(row.low, row.high) for row in CHASE_TABLE]
    assert bounds[0] == (None, -1)
    assert bounds[-1] == (86, None)
    for (_, high), (low, _) in itertools.pairwise(bounds):
        assert high is not None
        assert low == high + 1


@pytest.mark.parametrize(
    ("pursuer", "runner", "expected"),
    [
        (5.5, 5.0, (1, -50)),
        (10.5, 5.0, (1, -25)),
        (10.99, 5.0, (1, -25)),
        (11.0, 5.0, (1, -20)),
        (4.9, 5.0, (0, 0)),
        (90.5, 5.0, (3, -5)),
        (91.0, 5.0, (3, 0)),
    ],
    ids=[
        "difference 0.5 -> row 0",
        "difference 5.5 -> row 1-5",
        "difference 5.99 -> row 1-5",
        "difference 6 -> row 6-10",
        "difference -0.1 -> row < 0",
        "difference 85.5 -> row 81-85",
        "difference 86 -> row > 85",
    ],
)
def test_chase_fractional_difference_reads_the_row_at_or_below(
    pursuer: float, runner: float, expected: tuple[int, int]
) -> None:
    assert chase(pursuer, runner) == expected


def test_chase_float_noise_does_not_drop_a_row() -> None:
    """Reading: a difference a hair under a whole number through float noise reads that whole number."""
    assert 4.35 - 3.35 < 1
    assert chase(4.35, 3.35) == (1, -25)
    assert 0.3 - 0.1 * 3 < 0
    assert chase(0.3, 0.1 * 3) == (1, -50)


def test_chase_compares_speeds_after_movement_rate() -> None:
    """Chasing and Fleeing: speed effects apply in a chase; a TMR 12 runner sprinting outpaces a TMR 20 runner."""
    runner = movement_rate(12, M.SPRINT)  # 36 squares
    pursuer = movement_rate(20, M.RUN)  # 40 squares
    assert chase(pursuer, runner) == (1, -25)
    assert chase(runner, pursuer) == (0, 0)


@pytest.mark.parametrize(
    ("pursuer", "runner", "field"),
    [(-1, 5, "pursuer_tmr"), (5, -1, "runner_tmr"), (math.nan, 5, "pursuer_tmr"), (5, True, "runner_tmr")],
    ids=["negative pursuer", "negative runner", "NaN pursuer", "bool runner"],
)
def test_chase_bad_tmr_names_the_field(pursuer: float, runner: float, field: str) -> None:
    with pytest.raises(RuleValueError, match=rf"^chase\.{field} = "):
        chase(pursuer, runner)


# --- Chasing and Fleeing: the footnotes -----------------------------------------------------------


def test_chase_example_one_normal_attack_thirty_tmr_ahead_still_one_attack() -> None:
    """Chasing and Fleeing: a pursuer with one attack a round gets one, even 30 TMR faster than the runner."""
    assert chase(40, 10) == (2, -10)
    assert chase_attacks(40, 10, normal_attacks=1) == ChaseAttacks(1, -10, fell=False, rounds_lost=0.0)


@pytest.mark.parametrize(
    ("difference", "normal", "expected"),
    [(60, 2, 2), (60, 3, 3), (60, 5, 3), (30, 3, 2), (3, 4, 1), (-2, 4, 0), (10, 0, 0)],
    ids=[
        "table 3, normal 2 -> 2",
        "table 3, normal 3 -> 3",
        "table 3, normal 5 -> 3",
        "table 2, normal 3 -> 2",
        "table 1, normal 4 -> 1",
        "runner faster -> 0",
        "no normal attacks -> 0",
    ],
)
def test_chase_footnote_never_more_than_normal_attacks(difference: int, normal: int, expected: int) -> None:
    result = chase_attacks(50 + difference, 50, normal, M.RUN)
    assert result.attacks == expected
    assert not result.fell


def test_chase_defaults_to_a_run() -> None:
    assert chase_attacks(80, 10, 3) == chase_attacks(80, 10, 3, M.RUN)
    assert chase_attacks(80, 10, 3).attacks == 3


def test_chase_walk_uses_the_table_alone() -> None:
    assert chase_attacks(80, 10, 3, M.WALK) == ChaseAttacks(3, -5, fell=False, rounds_lost=0.0)


@pytest.mark.parametrize(
    ("difference", "expected"),
    [(60, 1), (30, 1), (3, 1), (-1, 0)],
    ids=["table 3 -> 1", "table 2 -> 1", "table 1 -> 1", "runner faster -> 0"],
)
def test_chase_footnote_sprint_at_most_one_attack(difference: int, expected: int) -> None:
    result = chase_attacks(50 + difference, 50, 3, M.SPRINT)
    assert result.attacks == expected
    assert result.modifier == chase(50 + difference, 50)[1]
    assert not result.fell


@pytest.mark.parametrize(
    ("grade", "attacks", "fell", "rounds_lost"),
    [
        (0.5, 1, False, 0.0),
        (1, 1, False, 0.0),
        (2, 1, False, 0.0),
        (3, 0, False, 0.0),
        (4, 0, False, 0.0),
        (5, 0, True, 0.5),
    ],
    ids=[
        "1/2x DEX -> one attack",
        "1x DEX -> one attack",
        "2x DEX -> one attack",
        "3x DEX -> no attack",
        "4x DEX -> no attack",
        "worse than 4x DEX -> no attack, falls, half a round",
    ],
)
def test_chase_footnote_fast_sprint_dex_roll(grade: float, attacks: int, fell: bool, rounds_lost: float) -> None:
    result = chase_attacks(90, 20, 3, M.FAST_SPRINT, grade)
    assert result == ChaseAttacks(attacks, -5, fell=fell, rounds_lost=rounds_lost)


def test_chase_fast_sprint_with_a_faster_runner_still_risks_a_fall() -> None:
    """Reading: the Fast Sprint DEX roll is made whatever the odds of reaching the runner."""
    assert chase_attacks(10, 20, 2, M.FAST_SPRINT, 1) == ChaseAttacks(0, 0, fell=False, rounds_lost=0.0)
    assert chase_attacks(10, 20, 2, M.FAST_SPRINT, 5) == ChaseAttacks(0, 0, fell=True, rounds_lost=0.5)


def test_chase_fast_sprint_uses_dex_grade() -> None:
    """A DEX 30 pursuer rolling 60 (2x) attacks once, 61 (3x) does not; DEX 20 rolling 100 (5x) falls."""
    assert chase_attacks(90, 20, 2, M.FAST_SPRINT, dex_grade(60, 30)).attacks == 1
    assert chase_attacks(90, 20, 2, M.FAST_SPRINT, dex_grade(61, 30)).attacks == 0
    assert chase_attacks(90, 20, 2, M.FAST_SPRINT, dex_grade(100, 20)).fell


@pytest.mark.parametrize(
    ("args", "field"),
    [
        ((30, 10, 1, M.FAST_SPRINT), "dex_grade_of_roll"),
        ((30, 10, 1, M.FAST_SPRINT, 2.5), "dex_grade_of_roll"),
        ((30, 10, 1, M.FAST_SPRINT, True), "dex_grade_of_roll"),
        ((30, 10, 1, M.FAST_SPRINT, 6), "dex_grade_of_roll"),
        ((30, 10, 1, M.RUN, 2), "dex_grade_of_roll"),
        ((30, 10, 1, M.DODGE), "pursuer_mode"),
        ((30, 10, 1, M.STEALTHY), "pursuer_mode"),
        ((30, 10, 1, "run"), "pursuer_mode"),
        ((30, 10, -1, M.RUN), "normal_attacks"),
        ((30, 10, 1.5, M.RUN), "normal_attacks"),
        ((-30, 10, 1, M.RUN), "pursuer_tmr"),
    ],
    ids=[
        "fast sprint without a DEX grade",
        "DEX grade 2.5",
        "DEX grade True",
        "DEX grade 6",
        "DEX grade below fast sprint",
        "dodge pursuer",
        "stealthy pursuer",
        "mode as text",
        "negative attacks",
        "fractional attacks",
        "negative tmr",
    ],
)
def test_chase_attacks_bad_input_names_the_field(args: tuple[object, ...], field: str) -> None:
    with pytest.raises(RuleValueError, match=rf"^chase_attacks\.{field} = "):
        chase_attacks(*args)  # type: ignore[arg-type]


def test_chase_modes_are_walk_run_sprint_and_fast_sprint() -> None:
    assert CHASE_MODES == (M.WALK, M.RUN, M.SPRINT, M.FAST_SPRINT)


@given(
    pursuer=st.floats(0, 200),
    runner=st.floats(0, 200),
    normal=st.integers(0, 6),
    mode=st.sampled_from(CHASE_MODES),
    grade=st.sampled_from([0.5, 1.0, 2.0, 3.0, 4.0, 5.0]),
)
def test_chase_attacks_never_exceed_table_normal_or_speed_cap(
    pursuer: float, runner: float, normal: int, mode: SpeedMode, grade: float
) -> None:
    result = chase_attacks(pursuer, runner, normal, mode, grade if mode is M.FAST_SPRINT else None)
    table_attacks, modifier = chase(pursuer, runner)
    assert 0 <= result.attacks <= min(table_attacks, normal)
    assert result.modifier == modifier
    if mode in (M.SPRINT, M.FAST_SPRINT):
        assert result.attacks <= 1
    assert result.fell == (mode is M.FAST_SPRINT and grade == 5)


# --- Chasing and Fleeing: fleeing ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("attackers", "defenders", "free"),
    [(1, 1, True), (2, 1, True), (3, 2, True), (1, 2, False), (2, 3, False)],
    ids=["1 to 1 -> free attack", "2 to 1", "3 to 2", "1 to 2 -> none", "2 to 3 -> none"],
)
def test_chasing_and_fleeing_free_attack_at_one_to_one_or_better(attackers: int, defenders: int, free: bool) -> None:
    assert free_attack_on_fleeing(attackers, defenders) is free


@pytest.mark.parametrize(("attackers", "defenders"), [(0, 1), (1, 0), (True, 1), (1, 1.0)])
def test_free_attack_bad_counts(attackers: int, defenders: int) -> None:
    with pytest.raises(RuleValueError, match=r"^free_attack_on_fleeing\."):
        free_attack_on_fleeing(attackers, defenders)


# --- DEX grades -----------------------------------------------------------------------------------

DEX_GRADE_ROWS = [
    (1, 40, 0.5),
    (20, 40, 0.5),
    (21, 40, 1.0),
    (40, 40, 1.0),
    (41, 40, 2.0),
    (80, 40, 2.0),
    (81, 40, 3.0),
    (60, 20, 3.0),
    (61, 20, 4.0),
    (80, 20, 4.0),
    (81, 20, 5.0),
    (100, 20, 5.0),
    (22, 45, 0.5),
    (23, 45, 1.0),
    (100, 25, 4.0),
    (1, 1, 1.0),
    (100, 200, 0.5),
]


@pytest.mark.parametrize(
    ("roll", "dex", "grade"),
    DEX_GRADE_ROWS,
    ids=[f"roll {r}, DEX {d} -> {g}x" for r, d, g in DEX_GRADE_ROWS],
)
def test_dex_grade_boundaries(roll: int, dex: int, grade: float) -> None:
    assert dex_grade(roll, dex) == grade


@pytest.mark.parametrize(
    ("roll", "dex", "field"),
    [(0, 40, "roll"), (101, 40, "roll"), (50, 0, "dex"), (50, -5, "dex"), (50.0, 40, "roll"), (50, True, "dex")],
    ids=["roll 0", "roll 101", "DEX 0", "negative DEX", "fractional roll", "bool DEX"],
)
def test_dex_grade_bad_input(roll: int, dex: int, field: str) -> None:
    with pytest.raises(RuleValueError, match=rf"^dex_grade\.{field} = "):
        dex_grade(roll, dex)


@pytest.mark.parametrize(
    ("grade", "name"),
    [(0.5, "1/2x"), (1.0, "1x"), (2.0, "2x"), (3.0, "3x"), (4.0, "4x"), (5.0, "5x or worse")],
    ids=["1/2x", "1x", "2x", "3x", "4x", "5x or worse"],
)
def test_grade_name_reads_as_the_pursuit_table_does(grade: float, name: str) -> None:
    assert grade_name(grade) == name


@pytest.mark.parametrize("grade", [0, 1.5, 6, True, "2x"], ids=["0", "1.5", "6", "bool", "text"])
def test_grade_name_refuses_what_dex_grade_never_gives(grade: object) -> None:
    with pytest.raises(RuleValueError, match=r"^grade_name\.grade = "):
        grade_name(grade)  # type: ignore[arg-type]


# --- Pursuit actions ------------------------------------------------------------------------------

PURSUIT_ROWS = [
    (0.5, PursuitLevel.SPECTACULAR, 0, None, False),
    (1, PursuitLevel.QUICK, 1, None, False),
    (2, PursuitLevel.SUCCESS, None, 0, False),
    (3, PursuitLevel.NEAR, None, 33, False),
    (4, PursuitLevel.PARTIAL, None, 66, False),
    (5, PursuitLevel.FAILURE, None, 100, True),
]


@pytest.mark.parametrize(
    ("grade", "level", "seconds", "extra", "fall_check"),
    PURSUIT_ROWS,
    ids=[
        "1/2x DEX -> spectacular, no time",
        "1x DEX -> succeeds in 1 second",
        "2x DEX -> succeeds in base time",
        "3x DEX -> nearly succeeds, base +33%",
        "4x DEX -> partially succeeds, base +66%",
        "5x or worse -> fails, base +100%, second roll",
    ],
)
def test_pursuit_actions_by_dex_grade(
    grade: float, level: PursuitLevel, seconds: int | None, extra: int | None, fall_check: bool
) -> None:
    row = pursuit_action(grade)
    assert (row.grade, row.level, row.seconds, row.extra_percent, row.fall_check) == (
        grade,
        level,
        seconds,
        extra,
        fall_check,
    )
    assert (row.seconds is None) != (row.extra_percent is None)


@pytest.mark.parametrize(
    ("second_grade", "seconds"),
    [(5, 5), (4, 0), (0.5, 0)],
    ids=["second roll 5x or worse -> falls, 5 more seconds", "second roll 4x -> no fall", "second roll 1/2x"],
)
def test_pursuit_failure_second_dex_roll(second_grade: float, seconds: int) -> None:
    assert pursuit_fall_seconds(second_grade) == seconds


@pytest.mark.parametrize("grade", [0, 1.5, 6, True, "2", None])
def test_pursuit_bad_grade(grade: object) -> None:
    with pytest.raises(RuleValueError, match=r"^pursuit_action\.grade = "):
        pursuit_action(grade)  # type: ignore[arg-type]
    with pytest.raises(RuleValueError, match=r"^pursuit_fall_seconds\.second_grade = "):
        pursuit_fall_seconds(grade)  # type: ignore[arg-type]


CHAIR_FORMS = [
    (0, None, "1d2"),
    (33, None, "1d3"),
    (33, 0, "1d2+1"),
    (66, None, "1d4"),
    (66, 1, "1d3+1"),
    (66, 0, "1d2+2"),
    (100, None, "1d6"),
    (100, 2, "1d4+1"),
    (100, 1, "1d3+2"),
    (100, 0, "1d2+3"),
]


@pytest.mark.parametrize(
    ("extra", "max_die_steps", "expected"),
    CHAIR_FORMS,
    ids=[
        f"chair example: base{f' +{extra}%' if extra else ''} -> {expected}"
        + ("" if steps is None else f" (at most {steps} die step{'s' * (steps != 1)})")
        for extra, steps, expected in CHAIR_FORMS
    ],
)
def test_pursuit_example_knocking_over_a_chair(extra: int, max_die_steps: int | None, expected: str) -> None:
    """Chasing and Fleeing (Pursuit Actions): a 1 to 2 second chair, 1d2; every form the example offers for
    +33%, +66% and +100%, larger dice first (the text's preference), then mixed, then adds alone."""
    assert scaled_time_dice("1d2", extra, max_die_steps=max_die_steps) == expected


@pytest.mark.parametrize("extra", [0, 33, 66, 100], ids=["base", "+33%", "+66%", "+100%"])
def test_scaled_time_dice_adds_alone_are_no_die_steps(extra: int) -> None:
    """``larger_dice=False``, the GM's other choice, is the same as allowing no die step."""
    assert scaled_time_dice("1d2", extra, larger_dice=False) == scaled_time_dice("1d2", extra, max_die_steps=0)
    assert scaled_time_dice("1d2", extra, larger_dice=False, max_die_steps=3) == scaled_time_dice(
        "1d2", extra, max_die_steps=0
    )


@pytest.mark.parametrize(
    ("base", "extra", "expected"),
    [
        ("1d6", 33, "1d8"),
        ("1d6", 66, "1d10"),
        ("2d6", 100, "2d12"),
        ("1d10", 100, "1d12+4"),
        ("1d12", 33, "1d12+3"),
        ("1d5", 33, "1d5+1"),
        ("d3", 33, "1d4"),
        ("1d2+1", 66, "1d4+1"),
        ("1d4-1", 33, "1d6-1"),
    ],
    ids=[
        "1d6 +33% -> 1d8",
        "1d6 +66% -> 1d10",
        "2d6 +100% -> 2d12",
        "1d10 +100% -> top of the ladder then adds",
        "1d12 +33% -> adds a third of 6.5",
        "d5 off the ladder -> adds",
        "d3 reads as 1d3",
        "base adds kept",
        "negative base adds kept",
    ],
)
def test_scaled_time_dice_general_reading(base: str, extra: int, expected: str) -> None:
    assert scaled_time_dice(base, extra) == expected


def test_die_ladder_is_the_texts_order() -> None:
    assert DIE_LADDER[:4] == (2, 3, 4, 6)


@pytest.mark.parametrize(
    ("base", "extra", "field"),
    [
        ("1d", 33, "base_dice"),
        ("2x6", 33, "base_dice"),
        ("0d6", 33, "base_dice"),
        ("1d1", 33, "base_dice"),
        (" 1d2", 33, "base_dice"),
        (12, 33, "base_dice"),
        ("1d2", 50, "extra_percent"),
        ("1d2", False, "extra_percent"),
        ("1d2", 33.0, "extra_percent"),
    ],
    ids=["no sides", "not dice", "no dice", "one-sided die", "space", "number", "50%", "bool", "float"],
)
def test_scaled_time_dice_bad_input(base: str, extra: int, field: str) -> None:
    with pytest.raises(RuleValueError, match=rf"^scaled_time_dice\.{field} = "):
        scaled_time_dice(base, extra)


def test_scaled_time_dice_larger_dice_must_be_bool() -> None:
    with pytest.raises(RuleValueError, match=r"^scaled_time_dice\.larger_dice = "):
        scaled_time_dice("1d2", 33, larger_dice=1)  # type: ignore[arg-type]


@pytest.mark.parametrize("steps", [-1, 1.0, True], ids=["negative", "float", "bool"])
def test_scaled_time_dice_max_die_steps_is_a_count(steps: object) -> None:
    with pytest.raises(RuleValueError, match=r"^scaled_time_dice\.max_die_steps = .*whole number, 0 or more"):
        scaled_time_dice("1d2", 33, max_die_steps=steps)  # type: ignore[arg-type]


# --- Moving and Shooting --------------------------------------------------------------------------

MOVING_FIRE_ROWS = [
    (M.WALK, 1, (1, -15, 4)),
    (M.WALK, 2, (1, -15, 4)),
    (M.WALK, 3, (2, -15, 4)),
    (M.RUN, 1, (0, -30, 3)),
    (M.RUN, 3, (1, -30, 3)),
    (M.RUN, 4, (2, -30, 3)),
    (M.SPRINT, 1, (1, -50, 2)),
    (M.SPRINT, 4, (1, -50, 2)),
    (M.FAST_SPRINT, 1, (1, -70, 1)),
    (M.FAST_SPRINT, 4, (1, -70, 1)),
    (M.DODGE, 1, (1, 0, None)),
    (M.DODGE, 4, (2, 0, None)),
    (M.STEALTHY, 3, (2, 0, None)),
]


@pytest.mark.parametrize(
    ("mode", "attacks", "expected"),
    MOVING_FIRE_ROWS,
    ids=[f"{m.value}, {a} attacks -> {e}" for m, a, e in MOVING_FIRE_ROWS],
)
def test_moving_and_shooting_table(mode: SpeedMode, attacks: int, expected: tuple[int, int, int | None]) -> None:
    assert moving_fire(mode, attacks) == expected


@pytest.mark.parametrize(
    ("mode", "attacks", "reading", "expected"),
    [
        (M.DODGE, 4, "normal", (2, 0, None)),
        (M.DODGE, 1, "normal", (1, 0, None)),
        (M.STEALTHY, 4, "normal", (2, 0, None)),
        (M.DODGE, 4, "walk", (2, -15, 4)),
        (M.STEALTHY, 3, "walk", (2, -15, 4)),
        (M.WALK, 4, "walk", (2, -15, 4)),
        (M.RUN, 4, "normal", (2, -30, 3)),
    ],
    ids=[
        "dodge, 4 attacks -> 2 at 0, no drop threat",
        "dodge, 1 attack -> 1 at 0 (half rounded up, as at Walk)",
        "stealthy, 4 attacks -> 2 at 0",
        "walk reading: dodge, 4 attacks -> the Walk row, 2 at -15, 4x DEX",
        "walk reading: stealthy, 3 attacks -> 2 at -15",
        "either reading leaves Walk as it is",
        "either reading leaves Run as it is",
    ],
)
def test_moving_and_shooting_at_half_tmr(
    mode: SpeedMode, attacks: int, reading: str, expected: tuple[int, int, int | None]
) -> None:
    """Spelljammer: Running, Shooting, Chasing and Fleeing > Moving and Shooting: the normal rule lets a
    character moving half its TMR make half its attacks; the table replaces it from Walk up ("normal"), or
    for every shot on the move, half TMR then falling in the Walk row ("walk")."""
    assert moving_fire(mode, attacks, half_move_fire=reading) == expected
    assert moving_fire_row(mode, reading).source == f"{RULE} > Moving and Shooting"


def test_moving_and_shooting_at_half_tmr_draws_without_risk() -> None:
    """With no drop threat at half TMR (the normal rule), a bowman's second, drawn arrow risks no drop."""
    result = fire_on_the_move(M.DODGE, 4, RangedWeapon.SHORT_BOW)
    assert (result.attacks, result.modifier, result.drop_multiple, result.drop_checks) == (2, 0, None, 0)
    walked = fire_on_the_move(M.DODGE, 4, RangedWeapon.SHORT_BOW, half_move_fire="walk")
    assert (walked.attacks, walked.modifier, walked.drop_multiple, walked.drop_checks) == (2, -15, 4, 1)
    assert drop_check(61, 15, M.DODGE, half_move_fire="walk") is DropResult.ARROW_DROPPED
    with pytest.raises(RuleValueError, match=r"^drop_check\.mode = .*a speed with a drop threat"):
        drop_check(61, 15, M.DODGE)


@pytest.mark.parametrize(
    ("args", "kwargs", "field"),
    [
        (("walk", 2), {}, "mode"),
        ((M.WALK, 0), {}, "attacks"),
        ((M.DODGE, 2), {"half_move_fire": "run"}, "half_move_fire"),
    ],
    ids=["mode as text", "no attacks", "no such reading of half TMR"],
)
def test_moving_fire_bad_input(args: tuple[object, ...], kwargs: dict[str, object], field: str) -> None:
    with pytest.raises(RuleValueError, match=rf"^moving_fire\.{field} = "):
        moving_fire(*args, **kwargs)  # type: ignore[arg-type]


def test_moving_fire_example_bowman_two_shots_on_the_run_draws_once() -> None:
    """Weapon Modifiers: the first arrow is nocked, the second must be drawn, so one drop check."""
    assert fire_on_the_move(M.RUN, 4, RangedWeapon.SHORT_BOW) == fire_on_the_move(M.RUN, 5, RangedWeapon.SHORT_BOW)
    result = fire_on_the_move(M.RUN, 4, RangedWeapon.SHORT_BOW)
    assert (result.attacks, result.modifier, result.drop_multiple, result.drop_checks) == (2, -30, 3, 1)


def test_moving_fire_self_reloading_weapon_risks_no_drop() -> None:
    result = fire_on_the_move(M.WALK, 6, RangedWeapon.OTHER, reloads_itself=True)
    assert (result.attacks, result.drop_checks) == (3, 0)


@pytest.mark.parametrize(
    ("mode", "modifier"),
    [(M.WALK, -7), (M.RUN, -15), (M.SPRINT, -25), (M.FAST_SPRINT, -35)],
    ids=["walk -15 -> -7", "run -30 -> -15", "sprint -50 -> -25", "fast sprint -70 -> -35"],
)
def test_moving_fire_centaur_short_bow_halves_the_penalty(mode: SpeedMode, modifier: int) -> None:
    assert fire_on_the_move(mode, 2, RangedWeapon.SHORT_BOW, centaur=True).modifier == modifier


def test_moving_fire_centaur_halving_is_for_short_bows_only() -> None:
    assert fire_on_the_move(M.RUN, 2, RangedWeapon.OTHER, centaur=True).modifier == -30
    assert fire_on_the_move(M.RUN, 2, RangedWeapon.SHORT_BOW).modifier == -30


@pytest.mark.parametrize(
    ("reduction", "modifier"),
    [(0, -30), (10, -20), (30, 0), (45, 0)],
    ids=["no Master skill", "Master -10", "Master cancels", "Master never a bonus"],
)
def test_moving_fire_master_skill_reduces_the_penalty(reduction: int, modifier: int) -> None:
    assert fire_on_the_move(M.RUN, 2, penalty_reduction=reduction).modifier == modifier


def test_moving_fire_master_reduction_comes_after_centaur_halving() -> None:
    assert fire_on_the_move(M.SPRINT, 1, RangedWeapon.SHORT_BOW, centaur=True, penalty_reduction=10).modifier == -15


@pytest.mark.parametrize(
    ("mode", "attacks", "expected"),
    [(M.WALK, 4, 1), (M.RUN, 4, 1), (M.RUN, 1, 0), (M.SPRINT, 2, 1)],
    ids=["walk 4 -> 1 shot", "run 4 -> 1 shot", "run 1 -> 0 shots", "sprint -> 1 shot"],
)
def test_moving_fire_crossbow_cannot_be_reloaded_by_hand(mode: SpeedMode, attacks: int, expected: int) -> None:
    result = fire_on_the_move(mode, attacks, RangedWeapon.CROSSBOW)
    assert (result.attacks, result.drop_checks) == (expected, 0)


@pytest.mark.parametrize(
    ("mode", "weapon", "expected"),
    [
        (M.SPRINT, RangedWeapon.SHORT_BOW, (1, 1)),
        (M.WALK, RangedWeapon.OTHER, (2, 2)),
        (M.WALK, RangedWeapon.CROSSBOW, (0, 0)),
    ],
    ids=["sprint: the one shot is drawn", "walk 4 -> 2 shots, both drawn", "an empty crossbow fires nothing"],
)
def test_moving_fire_a_weapon_not_ready_draws_every_shot(
    mode: SpeedMode, weapon: RangedWeapon, expected: tuple[int, int]
) -> None:
    """Spelljammer: ... > Moving and Shooting > Drop Threat; Crossbows."""
    result = fire_on_the_move(mode, 4, weapon, ready=False)
    assert (result.attacks, result.drop_checks) == expected


def test_moving_fire_self_loading_crossbow_keeps_every_shot() -> None:
    result = fire_on_the_move(M.WALK, 4, RangedWeapon.CROSSBOW, reloads_itself=True)
    assert (result.attacks, result.drop_checks) == (2, 0)


def test_moving_fire_long_bow_cannot_be_fired_on_the_move() -> None:
    with pytest.raises(RuleValueError, match=r"^fire_on_the_move\.weapon = .*long bow"):
        fire_on_the_move(M.WALK, 2, RangedWeapon.LONG_BOW)


@pytest.mark.parametrize(
    ("kwargs", "modifier"),
    [
        ({"large": True}, -35),
        ({"centaur": True}, -35),
        ({"large": True, "penalty_reduction": 20}, -15),
    ],
    ids=["large creature -15 -20", "centaur counts as large", "Master Bowman reduces it"],
)
def test_moving_fire_long_bow_large_creature_extra_minus_20(kwargs: dict[str, object], modifier: int) -> None:
    result = fire_on_the_move(M.WALK, 2, RangedWeapon.LONG_BOW, **kwargs)  # type: ignore[arg-type]
    assert (result.attacks, result.modifier) == (1, modifier)


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"weapon": "crossbow"}, "weapon"),
        ({"reloads_itself": 1}, "reloads_itself"),
        ({"large": None}, "large"),
        ({"centaur": "yes"}, "centaur"),
        ({"penalty_reduction": -5}, "penalty_reduction"),
    ],
    ids=["weapon as text", "reloads_itself 1", "large None", "centaur text", "negative reduction"],
)
def test_fire_on_the_move_bad_input(kwargs: dict[str, object], field: str) -> None:
    with pytest.raises(RuleValueError, match=rf"^fire_on_the_move\.{field} = "):
        fire_on_the_move(M.WALK, 2, **kwargs)  # type: ignore[arg-type]


DROP_ROWS = [
    (M.WALK, 40, 10, DropResult.NOTHING_DROPPED),
    (M.WALK, 41, 10, DropResult.ARROW_DROPPED),
    (M.RUN, 30, 10, DropResult.NOTHING_DROPPED),
    (M.RUN, 31, 10, DropResult.ARROW_DROPPED),
    (M.SPRINT, 20, 10, DropResult.NOTHING_DROPPED),
    (M.SPRINT, 21, 10, DropResult.ARROW_DROPPED),
    (M.FAST_SPRINT, 10, 10, DropResult.NOTHING_DROPPED),
    (M.FAST_SPRINT, 11, 10, DropResult.ARROW_DROPPED),
    (M.FAST_SPRINT, 95, 10, DropResult.ARROW_DROPPED),
    (M.FAST_SPRINT, 96, 10, DropResult.WEAPON_DROPPED),
    (M.FAST_SPRINT, 100, 10, DropResult.WEAPON_DROPPED),
    (M.WALK, 96, 24, DropResult.NOTHING_DROPPED),
    (M.WALK, 97, 24, DropResult.WEAPON_DROPPED),
    (M.FAST_SPRINT, 98, 98, DropResult.NOTHING_DROPPED),
]


@pytest.mark.parametrize(
    ("mode", "roll", "dex", "result"),
    DROP_ROWS,
    ids=[f"{m.value}, roll {r}, DEX {d} -> {res.value}" for m, r, d, res in DROP_ROWS],
)
def test_moving_and_shooting_drop_threat(mode: SpeedMode, roll: int, dex: int, result: DropResult) -> None:
    assert drop_check(roll, dex, mode) is result


@pytest.mark.parametrize(
    ("args", "field"),
    [
        ((0, 10, M.WALK), "threat_roll"),
        ((101, 10, M.WALK), "threat_roll"),
        ((50, 0, M.WALK), "dex"),
        ((50, 10, M.DODGE), "mode"),
    ],
    ids=["roll 0", "roll 101", "DEX 0", "dodge"],
)
def test_drop_check_bad_input(args: tuple[object, ...], field: str) -> None:
    with pytest.raises(RuleValueError, match=rf"^drop_check\.{field} = "):
        drop_check(*args)  # type: ignore[arg-type]

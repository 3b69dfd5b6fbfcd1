"""Spelljammer running, chasing and shooting rules as pure tables and functions: numbers in, numbers out.

Everything here comes from "Spelljammer: Running, Shooting, Chasing and Fleeing". Nothing touches the
ECS, so a game can use a rule on its own. The campaign plays ten-second rounds; movement is counted in
5-foot squares a round, the Tactical Movement Rate (TMR): a TMR of 9 covers 45 feet a round.

Readings chosen where the text leaves room (each is repeated on the function it concerns):

- Speed mode, encumbrance and vegetation all multiply the TMR; the product is kept exact and only
  turned into a float at the end, with no rounding (:func:`movement_rate`).
- The chase table compares the squares each side actually covers this round, so pass the results of
  :func:`movement_rate`; a fractional difference falls in the row of the whole number at or below it
  (:func:`chase`).
- A percentile roll is graded by multiples of DEX in :func:`dex_grade` alone.

Citations written "... > Section" stand for "Spelljammer: Running, Shooting, Chasing and Fleeing > Section".
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from typing import Final, TypeVar

from esper_motion.components.spelljammer import RangedWeapon, SpeedMode, Vegetation, parse_time_dice
from esper_motion.ecs.errors import RuleValueError
from esper_motion.ecs.validate import check_bool, check_choice, check_int, check_number

__all__ = [
    "CHASE_MODES",
    "CHASE_TABLE",
    "DEFENSES",
    "DEX_MULTIPLES",
    "DIE_LADDER",
    "ENCUMBRANCE",
    "HALF_MOVE_FIRE",
    "HALF_MOVE_FIRE_READINGS",
    "LARGE_LONG_BOW_MODIFIER",
    "MOVING_FIRE",
    "PURSUIT_FALL_SECONDS",
    "PURSUIT_OUTCOMES",
    "ROUND_SECONDS",
    "SPEEDS",
    "SQUARE_FT",
    "VEGETATION",
    "WEAPON_DROP_ROLL",
    "WORST_GRADE",
    "AttackCount",
    "ChaseAttacks",
    "ChaseRow",
    "DefenseAllowed",
    "DropResult",
    "EncumbranceRow",
    "MovingFire",
    "MovingFireRow",
    "PursuitLevel",
    "PursuitOutcome",
    "RangedWeapon",
    "SpeedMode",
    "SpeedRow",
    "Vegetation",
    "VegetationRow",
    "allowed_modes",
    "chase",
    "chase_attacks",
    "defense_allowed",
    "dex_grade",
    "drop_check",
    "fire_on_the_move",
    "free_attack_on_fleeing",
    "grade_name",
    "movement_rate",
    "moving_fire",
    "moving_fire_row",
    "nonlethal_damage",
    "pursuit_action",
    "pursuit_fall_seconds",
    "scaled_time_dice",
]

_RULE: Final = "Spelljammer: Running, Shooting, Chasing and Fleeing"
_MOVEMENT: Final = f"{_RULE} > Movement and Defense"
_RESTRICTED: Final = f"{_RULE} > Restricted Movement"
_CHASING: Final = f"{_RULE} > Chasing and Fleeing"
_PURSUIT: Final = f"{_RULE} > Chasing and Fleeing (Pursuit Actions)"
_SHOOTING: Final = f"{_RULE} > Moving and Shooting"

_E = TypeVar("_E", bound=Enum)

SQUARE_FT: Final = 5
"""A square of the Tactical Movement Rate is 5 feet (... > Movement and Defense)."""

ROUND_SECONDS: Final = 10
"""The campaign plays ten-second rounds: one ``World.step``."""


def _check_in(owner: str, field: str, value: object, members: tuple[_E, ...]) -> _E:
    """Return ``value`` if it is one of ``members``; raise a :class:`RuleValueError` listing them."""
    for member in members:
        if value is member:
            return member
    names = ", ".join(f"{type(member).__name__}.{member.name}" for member in members)
    raise RuleValueError(owner, field, value, f"one of {names}")


def _check_enum(owner: str, field: str, value: object, kind: type[_E]) -> _E:
    """Return ``value`` if it is a member of ``kind``; raise a :class:`RuleValueError` listing the members."""
    return _check_in(owner, field, value, tuple(kind))


# --- Movement and Defense -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SpeedRow:
    """One row of the Movement and Defense table: the TMR multiple and the non-lethal damage a round."""

    mode: SpeedMode
    tmr_multiple: Fraction
    nonlethal_dice: str | None
    source: str


SPEEDS: Final[tuple[SpeedRow, ...]] = (
    SpeedRow(SpeedMode.DODGE, Fraction(1, 2), None, _MOVEMENT),
    SpeedRow(SpeedMode.WALK, Fraction(1), None, _MOVEMENT),
    SpeedRow(SpeedMode.RUN, Fraction(2), None, _MOVEMENT),
    SpeedRow(SpeedMode.SPRINT, Fraction(3), "1d6", _MOVEMENT),
    SpeedRow(SpeedMode.FAST_SPRINT, Fraction(4), "2d6", _MOVEMENT),
    SpeedRow(SpeedMode.STEALTHY, Fraction(1, 2), None, _MOVEMENT),
)
"""TMR multiple and non-lethal damage dice per round for each speed mode."""

_SPEED_BY_MODE: Final = {row.mode: row for row in SPEEDS}


@dataclass(frozen=True, slots=True)
class DefenseAllowed:
    """What a speed mode leaves of a character's defense (DEF).

    ``full`` is the whole DEF, which includes DEX, the Defense skill, magic and a shield (reading: the
    text lists the parts only for the modes that lose some of them). ``ranged_bonus`` is added to DEF
    against ranged attacks only. ``stealth_rolls`` says whether Move Silently and Hide in Shadows rolls
    may be made to avoid detection.
    """

    mode: SpeedMode
    full: bool
    ranged_bonus: int
    dex: bool
    defense_skill: bool
    magic: bool
    shield: bool
    stealth_rolls: bool
    source: str


DEFENSES: Final[tuple[DefenseAllowed, ...]] = (
    DefenseAllowed(SpeedMode.DODGE, True, 20, True, True, True, True, False, _MOVEMENT),
    DefenseAllowed(SpeedMode.WALK, True, 0, True, True, True, True, False, _MOVEMENT),
    DefenseAllowed(SpeedMode.RUN, False, 0, True, True, True, False, False, _MOVEMENT),
    DefenseAllowed(SpeedMode.SPRINT, False, 0, True, False, True, False, False, _MOVEMENT),
    DefenseAllowed(SpeedMode.FAST_SPRINT, False, 0, False, False, True, False, False, _MOVEMENT),
    DefenseAllowed(SpeedMode.STEALTHY, True, 0, True, True, True, True, True, _MOVEMENT),
)
"""The defense column of the Movement and Defense table, one row per speed mode."""

_DEFENSE_BY_MODE: Final = {row.mode: row for row in DEFENSES}


def defense_allowed(mode: SpeedMode) -> DefenseAllowed:
    """The parts of DEF a character keeps while moving in ``mode`` (... > Movement and Defense)."""
    return _DEFENSE_BY_MODE[_check_enum("defense_allowed", "mode", mode, SpeedMode)]


def nonlethal_damage(mode: SpeedMode) -> str | None:
    """Non-lethal damage dice taken each round in ``mode`` ("1d6" sprinting, "2d6" fast), else None.

    Spelljammer: Running, Shooting, Chasing and Fleeing > Movement and Defense.
    """
    return _SPEED_BY_MODE[_check_enum("nonlethal_damage", "mode", mode, SpeedMode)].nonlethal_dice


@dataclass(frozen=True, slots=True)
class EncumbranceRow:
    """An encumbrance level and the fraction of TMR it leaves."""

    level: int
    name: str
    tmr_fraction: Fraction
    source: str


ENCUMBRANCE: Final[tuple[EncumbranceRow, ...]] = (
    EncumbranceRow(0, "unencumbered", Fraction(1), _MOVEMENT),
    EncumbranceRow(1, "encumbered", Fraction(3, 4), _MOVEMENT),
    EncumbranceRow(2, "double encumbered", Fraction(1, 2), _MOVEMENT),
)
"""Encumbrance cuts TMR by 25%, double encumbrance by 50% (encumbrance itself comes from Strength)."""

_ENCUMBRANCE_BY_LEVEL: Final = {row.level: row for row in ENCUMBRANCE}


# --- Restricted Movement --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class VegetationRow:
    """The fraction of TMR a kind of vegetation leaves, and the speed modes it rules out."""

    vegetation: Vegetation
    tmr_fraction: Fraction
    forbidden: tuple[SpeedMode, ...]
    source: str


_NO_SPRINTS: Final = (SpeedMode.SPRINT, SpeedMode.FAST_SPRINT)
_NO_RUNS: Final = (SpeedMode.RUN, SpeedMode.SPRINT, SpeedMode.FAST_SPRINT)

VEGETATION: Final[tuple[VegetationRow, ...]] = (
    VegetationRow(Vegetation.HEAVY, Fraction(3, 4), _NO_SPRINTS, _RESTRICTED),
    VegetationRow(Vegetation.DENSE, Fraction(1, 2), _NO_SPRINTS, _RESTRICTED),
    VegetationRow(Vegetation.VERY_DENSE, Fraction(1, 4), _NO_RUNS, _RESTRICTED),
    VegetationRow(Vegetation.EXTREMELY_DENSE, Fraction(1, 10), _NO_RUNS, _RESTRICTED),
)
"""Restricted movement: TMR fraction and forbidden speed modes for each kind of vegetation."""

_VEGETATION_BY_KIND: Final = {row.vegetation: row for row in VEGETATION}


def allowed_modes(vegetation: Vegetation | None) -> tuple[SpeedMode, ...]:
    """The speed modes a character may use in ``vegetation`` (every mode when it is None).

    Spelljammer: Running, Shooting, Chasing and Fleeing > Restricted Movement.
    """
    if vegetation is None:
        return tuple(SpeedMode)
    row = _VEGETATION_BY_KIND[_check_enum("allowed_modes", "vegetation", vegetation, Vegetation)]
    return tuple(mode for mode in SpeedMode if mode not in row.forbidden)


def movement_rate(tmr: float, mode: SpeedMode, encumbrance: int = 0, vegetation: Vegetation | None = None) -> float:
    """The 5-foot squares a character with ``tmr`` covers in one round moving in ``mode``.

    Reading (... > Movement and Defense; ... > Restricted Movement): the speed mode's TMR multiple, the
    encumbrance fraction (level 0 none, 1 encumbered -25%, 2 double encumbered -50%) and the vegetation
    fraction all multiply the TMR. The product is exact and only becomes a float at the end, with no
    rounding to whole squares: a game that moves square by square rounds as it sees fit.

    A mode the vegetation rules out (no Sprint or Fast Sprint in heavy or dense vegetation; no Run,
    Sprint or Fast Sprint in very dense or extremely dense vegetation) raises a
    :class:`~esper_motion.ecs.errors.RuleValueError` naming the vegetation and the modes it allows.
    """
    owner = "movement_rate"
    check_number(owner, "tmr", tmr, low=0)
    _check_enum(owner, "mode", mode, SpeedMode)
    check_int(owner, "encumbrance", encumbrance, 0, 2)
    rate = Fraction(tmr) * _SPEED_BY_MODE[mode].tmr_multiple
    rate *= _ENCUMBRANCE_BY_LEVEL[encumbrance].tmr_fraction
    if vegetation is not None:
        row = _VEGETATION_BY_KIND[_check_enum(owner, "vegetation", vegetation, Vegetation)]
        if mode in row.forbidden:
            modes = ", ".join(m.value for m in allowed_modes(vegetation))
            where = row.vegetation.value.replace("_", " ")
            raise RuleValueError(owner, "mode", mode, f"a mode {where} vegetation allows: {modes}")
        rate *= row.tmr_fraction
    return float(rate)


# --- DEX grades -----------------------------------------------------------------------------------

DEX_MULTIPLES: Final[tuple[float, ...]] = (0.5, 1.0, 2.0, 3.0, 4.0)
"""The multiples of DEX a percentile roll is graded against, best first."""

WORST_GRADE: Final = 5.0
"""The grade of a roll above 4 x DEX: "5x or worse"."""

_GRADES: Final = (*DEX_MULTIPLES, WORST_GRADE)


def dex_grade(roll: int, dex: int) -> float:
    """The grade of a d100 ``roll`` against ``dex``: 0.5, 1, 2, 3, 4, or 5 for "5x or worse".

    Reading (docs/architecture.md > Facts the rules lean on): the smallest multiple m of 0.5, 1, 2, 3 and 4 with
    roll <= m x DEX; a roll above 4 x DEX grades 5. A roll exactly at a multiple earns that multiple. This is the one
    place the grading lives, so a table that reads the text differently changes only this function.
    A skill roll used instead of DEX (for example Acrobatics in a pursuit action) grades the same way.
    """
    check_int("dex_grade", "roll", roll, 1, 100)
    check_int("dex_grade", "dex", dex, low=1)
    for multiple in DEX_MULTIPLES:
        if roll <= multiple * dex:
            return multiple
    return WORST_GRADE


def grade_name(grade: float) -> str:
    """A DEX grade as a table names it: ``"1/2x"``, ``"1x"`` ... ``"4x"``, ``"5x or worse"``.

    >>> grade_name(0.5), grade_name(3.0), grade_name(5.0)
    ('1/2x', '3x', '5x or worse')
    """
    grade = _check_grade("grade_name", "grade", grade)
    if grade == WORST_GRADE:
        return "5x or worse"
    return "1/2x" if grade == 0.5 else f"{grade:g}x"


def _check_grade(owner: str, field: str, grade: object) -> float:
    """Return ``grade`` if it is one of the grades :func:`dex_grade` gives."""
    if not isinstance(grade, bool):
        for known in _GRADES:
            if grade == known:
                return known
    raise RuleValueError(owner, field, grade, "a DEX grade: 0.5, 1, 2, 3, 4 or 5 (5x or worse)")


# --- Chasing and Fleeing --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ChaseRow:
    """A row of the chase table, keyed by pursuer TMR minus runner TMR.

    ``low`` and ``high`` are the whole-number differences the row covers, inclusive; None leaves that
    side open. ``max_attacks`` is the most melee attacks a round, ``modifier`` the attack modifier.
    """

    low: int | None
    high: int | None
    max_attacks: int
    modifier: int
    source: str


CHASE_TABLE: Final[tuple[ChaseRow, ...]] = (
    ChaseRow(None, -1, 0, 0, _CHASING),
    ChaseRow(0, 0, 1, -50, _CHASING),
    ChaseRow(1, 5, 1, -25, _CHASING),
    ChaseRow(6, 10, 1, -20, _CHASING),
    ChaseRow(11, 15, 1, -15, _CHASING),
    ChaseRow(16, 20, 1, -10, _CHASING),
    ChaseRow(21, 25, 1, -10, _CHASING),
    ChaseRow(26, 30, 2, -10, _CHASING),
    ChaseRow(31, 35, 2, -10, _CHASING),
    ChaseRow(36, 40, 2, -10, _CHASING),
    ChaseRow(41, 45, 2, -10, _CHASING),
    ChaseRow(46, 50, 2, -5, _CHASING),
    ChaseRow(51, 55, 2, -5, _CHASING),
    ChaseRow(56, 60, 3, -5, _CHASING),
    ChaseRow(61, 65, 3, -5, _CHASING),
    ChaseRow(66, 70, 3, -5, _CHASING),
    ChaseRow(71, 75, 3, -5, _CHASING),
    ChaseRow(76, 80, 3, -5, _CHASING),
    ChaseRow(81, 85, 3, -5, _CHASING),
    ChaseRow(86, None, 3, 0, _CHASING),
)
"""The chase table: a runner faster than the pursuer cannot be attacked; an equal TMR barely keeps up."""

_DIFFERENCE_DECIMALS: Final = 9


def _chase_row(owner: str, pursuer_tmr: float, runner_tmr: float) -> ChaseRow:
    check_number(owner, "pursuer_tmr", pursuer_tmr, low=0)
    check_number(owner, "runner_tmr", runner_tmr, low=0)
    # Rounding to 9 decimals first keeps float noise (as from 1/10 TMR) from dropping a whole row.
    whole = math.floor(round(pursuer_tmr - runner_tmr, _DIFFERENCE_DECIMALS))
    return next(
        row for row in CHASE_TABLE if (row.low is None or row.low <= whole) and (row.high is None or whole <= row.high)
    )


def chase(pursuer_tmr: float, runner_tmr: float) -> tuple[int, int]:
    """(most melee attacks a round, attack modifier) for a pursuer chasing a runner.

    Spelljammer: Running, Shooting, Chasing and Fleeing > Chasing and Fleeing (the chase table).
    Readings: each TMR is the squares that side covers this round at its chosen speed (the speed
    effects apply in a chase too), so pass :func:`movement_rate` results. A fractional difference falls
    in the row of the whole number at or below it: a row "1-5" covers differences from 1 up to but not
    including 6, so 5.5 reads as 5 and 0.5 as 0; any negative difference, however small, is "< 0".
    The footnotes (speed, the pursuer's own attacks) are applied by :func:`chase_attacks`.
    """
    row = _chase_row("chase", pursuer_tmr, runner_tmr)
    return row.max_attacks, row.modifier


CHASE_MODES: Final[tuple[SpeedMode, ...]] = (
    SpeedMode.WALK,
    SpeedMode.RUN,
    SpeedMode.SPRINT,
    SpeedMode.FAST_SPRINT,
)
"""The speeds a chase may be run at; a chase is at a Run unless someone changes speed."""

_SPRINTING_MAX_ATTACKS: Final = 1
_FAST_SPRINT_ATTACK_GRADE: Final = 2.0
_CHASE_FALL_ROUNDS: Final = 0.5


@dataclass(frozen=True, slots=True)
class ChaseAttacks:
    """What a pursuer may do this round: ``attacks`` at ``modifier``; whether it ``fell`` and the
    ``rounds_lost`` getting back up (half a round after a fall)."""

    attacks: int
    modifier: int
    fell: bool
    rounds_lost: float


def chase_attacks(
    pursuer_tmr: float,
    runner_tmr: float,
    normal_attacks: int,
    pursuer_mode: SpeedMode = SpeedMode.RUN,
    dex_grade_of_roll: float | None = None,
) -> ChaseAttacks:
    """The chase table with its footnotes applied (... > Chasing and Fleeing).

    - The pursuer never makes more attacks than its ``normal_attacks``.
    - At Sprint (3x TMR) it makes at most one attack.
    - At Fast Sprint (4x TMR) it rolls DEX (``dex_grade_of_roll``, from :func:`dex_grade`): a 2x grade
      or better allows at most one attack; 3x or 4x allows none; worse than 4x allows none and the
      pursuer falls, losing half a round regaining its feet. Reading chosen for the 3x and 4x grades, on
      which the footnote is silent: it grants the attack only at 2x or better and the fall only past 4x,
      so between them the pursuer keeps its feet but does not attack.

    ``pursuer_mode`` is one of :data:`CHASE_MODES` and defaults to Run, the speed a chase is assumed
    to be at. ``dex_grade_of_roll`` is required at Fast Sprint and refused at other speeds, where the
    text calls for no roll. Reading: the Fast Sprint roll is made even when the runner is faster, so a
    pursuer can fall while out of reach. ``modifier`` is the table's and applies to any attacks made.
    """
    owner = "chase_attacks"
    row = _chase_row(owner, pursuer_tmr, runner_tmr)
    check_int(owner, "normal_attacks", normal_attacks, low=0)
    _check_in(owner, "pursuer_mode", pursuer_mode, CHASE_MODES)
    attacks = min(row.max_attacks, normal_attacks)
    if pursuer_mode is not SpeedMode.FAST_SPRINT:
        if dex_grade_of_roll is not None:
            raise RuleValueError(owner, "dex_grade_of_roll", dex_grade_of_roll, "None below Fast Sprint")
        if pursuer_mode is SpeedMode.SPRINT:
            attacks = min(attacks, _SPRINTING_MAX_ATTACKS)
        return ChaseAttacks(attacks, row.modifier, fell=False, rounds_lost=0.0)
    if dex_grade_of_roll is None:
        raise RuleValueError(owner, "dex_grade_of_roll", None, "a DEX grade at Fast Sprint")
    grade = _check_grade(owner, "dex_grade_of_roll", dex_grade_of_roll)
    if grade <= _FAST_SPRINT_ATTACK_GRADE:
        return ChaseAttacks(min(attacks, _SPRINTING_MAX_ATTACKS), row.modifier, fell=False, rounds_lost=0.0)
    fell = grade == WORST_GRADE
    return ChaseAttacks(0, row.modifier, fell=fell, rounds_lost=_CHASE_FALL_ROUNDS if fell else 0.0)


def free_attack_on_fleeing(attackers: int, defenders: int) -> bool:
    """Whether an opponent gets its free melee attack on someone fleeing melee (... > Chasing and Fleeing).

    Each opponent gets one free melee attack when the odds against the fleeing side are 1 to 1 or
    better. Reading: ``attackers`` is how many fight on the opponents' side of that melee and
    ``defenders`` how many fight on the fleeing character's side (the fleeing character included);
    the odds hold when attackers >= defenders. A pursuer who leaves other opponents behind to give
    chase is itself fleeing them, and this same test applies to their free attacks.
    """
    check_int("free_attack_on_fleeing", "attackers", attackers, low=1)
    check_int("free_attack_on_fleeing", "defenders", defenders, low=1)
    return attackers >= defenders


# --- Pursuit actions ------------------------------------------------------------------------------


class PursuitLevel(Enum):
    """How well a pursuit action went (... > Chasing and Fleeing (Pursuit Actions))."""

    SPECTACULAR = "spectacular"
    """Succeeds spectacularly and costs no time."""
    QUICK = "quick"
    """Succeeds in one second."""
    SUCCESS = "success"
    """Succeeds in the base time."""
    NEAR = "near"
    """Nearly succeeds, in the base time + 33%."""
    PARTIAL = "partial"
    """Partially succeeds, in the base time + 66%."""
    FAILURE = "failure"
    """Fails, in the base time + 100%, and calls for a second DEX roll against a fall."""


@dataclass(frozen=True, slots=True)
class PursuitOutcome:
    """One row of the pursuit action results, by DEX grade.

    The time taken is either ``seconds`` (a fixed number, for the 1/2x and 1x grades) or the GM's base
    time increased by ``extra_percent`` (see :func:`scaled_time_dice`); exactly one is not None.
    ``fall_check`` asks for a second DEX roll (see :func:`pursuit_fall_seconds`).
    """

    grade: float
    level: PursuitLevel
    seconds: int | None
    extra_percent: int | None
    fall_check: bool
    source: str


PURSUIT_OUTCOMES: Final[tuple[PursuitOutcome, ...]] = (
    PursuitOutcome(0.5, PursuitLevel.SPECTACULAR, 0, None, False, _PURSUIT),
    PursuitOutcome(1.0, PursuitLevel.QUICK, 1, None, False, _PURSUIT),
    PursuitOutcome(2.0, PursuitLevel.SUCCESS, None, 0, False, _PURSUIT),
    PursuitOutcome(3.0, PursuitLevel.NEAR, None, 33, False, _PURSUIT),
    PursuitOutcome(4.0, PursuitLevel.PARTIAL, None, 66, False, _PURSUIT),
    PursuitOutcome(5.0, PursuitLevel.FAILURE, None, 100, True, _PURSUIT),
)
"""Pursuit action results for DEX grades 1/2x, 1x, 2x, 3x, 4x and 5x or worse."""

_PURSUIT_BY_GRADE: Final = {row.grade: row for row in PURSUIT_OUTCOMES}

PURSUIT_FALL_SECONDS: Final = 5
"""Seconds lost getting up after falling on a failed pursuit action."""


def pursuit_action(grade: float) -> PursuitOutcome:
    """The result of a pursuit action whose DEX roll got ``grade`` (from :func:`dex_grade`).

    Spelljammer: Running, Shooting, Chasing and Fleeing > Chasing and Fleeing (Pursuit Actions). The GM
    still judges what the action does to the other side.
    """
    return _PURSUIT_BY_GRADE[_check_grade("pursuit_action", "grade", grade)]


def pursuit_fall_seconds(second_grade: float) -> int:
    """Seconds lost to a fall after a failed pursuit action, given the grade of the second DEX roll.

    A second roll of 5x or worse means a fall and :data:`PURSUIT_FALL_SECONDS` more seconds; any other
    grade costs nothing more (... > Chasing and Fleeing (Pursuit Actions)).
    """
    grade = _check_grade("pursuit_fall_seconds", "second_grade", second_grade)
    return PURSUIT_FALL_SECONDS if grade == WORST_GRADE else 0


DIE_LADDER: Final[tuple[int, ...]] = (2, 3, 4, 6, 8, 10, 12)
"""Die sizes in the order a longer time steps up through them."""

_EXTRA_STEPS: Final = {0: 0, 33: 1, 66: 2, 100: 3}


def scaled_time_dice(
    base_dice: str, extra_percent: int, *, larger_dice: bool = True, max_die_steps: int | None = None
) -> str:
    """The dice for a pursuit action's base time increased by ``extra_percent`` (0, 33, 66 or 100).

    Reading of the text's example (... > Chasing and Fleeing (Pursuit Actions)), where a base of 1d2
    becomes 1d3, 1d4 and 1d6 (or 1d2+1, 1d2+2, 1d2+3 with adds): each 33% is one step, and a step
    moves every die one size up :data:`DIE_LADDER` (d2, d3, d4, d6, d8, d10, d12), as the text prefers
    larger dice. Where the ladder ends, or the die is not on it, or ``larger_dice`` is False (the
    GM's other choice), the step adds a third of the base's average roll, rounded up, instead.
    The base's own add is kept. For example 2d6 +100% is 2d12; 1d12 +33% is 1d12+3.

    The example also offers mixed forms, a larger die with adds: 1d3+1 for +66%, 1d4+1 and 1d3+2 for
    +100%. ``max_die_steps`` gives them: at most that many steps move the die, the rest add (1 gives
    1d3, 1d3+1, 1d3+2; 2 gives 1d3, 1d4, 1d4+1). None lets every step move the die; ``larger_dice``
    False is the same as 0.
    """
    owner = "scaled_time_dice"
    count, size, adds = parse_time_dice(owner, "base_dice", base_dice)
    check_int(owner, "extra_percent", extra_percent)
    steps = _EXTRA_STEPS[check_choice(owner, "extra_percent", extra_percent, tuple(_EXTRA_STEPS))]
    check_bool(owner, "larger_dice", larger_dice)
    die_steps = steps if max_die_steps is None else check_int(owner, "max_die_steps", max_die_steps, low=0)
    if not larger_dice:
        die_steps = 0
    step_adds = -(-count * (size + 1) // 6)  # a third of the average roll count * (size + 1) / 2
    for step in range(steps):
        if step < die_steps and size in DIE_LADDER[:-1]:
            size = DIE_LADDER[DIE_LADDER.index(size) + 1]
        else:
            adds += step_adds
    return f"{count}d{size}" + (f"{adds:+d}" if adds else "")


# --- Moving and Shooting --------------------------------------------------------------------------


class AttackCount(Enum):
    """How the moving-fire table turns a character's normal attacks into attacks on the move."""

    HALF_ROUND_UP = "half_round_up"
    HALF_ROUND_DOWN = "half_round_down"
    ONE = "one"


@dataclass(frozen=True, slots=True)
class MovingFireRow:
    """One row of the moving-and-shooting table: attacks, strike modifier and drop threat (x DEX; None for
    no drop threat)."""

    mode: SpeedMode
    attacks: AttackCount
    modifier: int
    drop_multiple: int | None
    source: str


MOVING_FIRE: Final[tuple[MovingFireRow, ...]] = (
    MovingFireRow(SpeedMode.WALK, AttackCount.HALF_ROUND_UP, -15, 4, _SHOOTING),
    MovingFireRow(SpeedMode.RUN, AttackCount.HALF_ROUND_DOWN, -30, 3, _SHOOTING),
    MovingFireRow(SpeedMode.SPRINT, AttackCount.ONE, -50, 2, _SHOOTING),
    MovingFireRow(SpeedMode.FAST_SPRINT, AttackCount.ONE, -70, 1, _SHOOTING),
)
"""Ranged attacks while moving, replacing the normal half-move, half-attacks rule."""

_MOVING_FIRE_BY_MODE: Final = {row.mode: row for row in MOVING_FIRE}

HALF_MOVE_FIRE: Final[tuple[MovingFireRow, ...]] = (
    MovingFireRow(SpeedMode.DODGE, AttackCount.HALF_ROUND_UP, 0, None, _SHOOTING),
    MovingFireRow(SpeedMode.STEALTHY, AttackCount.HALF_ROUND_UP, 0, None, _SHOOTING),
)
"""Ranged attacks at half TMR (Dodge, Stealthy) under the normal combat rules, which the moving-fire table
replaces only from Walk up: half the attacks, no modifier, no drop threat (see :func:`moving_fire_row`)."""

_HALF_MOVE_FIRE_BY_MODE: Final = {row.mode: row for row in HALF_MOVE_FIRE}

HALF_MOVE_FIRE_READINGS: Final = ("normal", "walk")
"""How a table reads shooting at half TMR: ``normal`` (:data:`HALF_MOVE_FIRE`) or ``walk`` (the Walk row)."""


def moving_fire_row(mode: SpeedMode, half_move_fire: str = "normal") -> MovingFireRow:
    """The row of the moving-and-shooting rules for a character moving at ``mode`` this round.

    Walk, Run, Sprint and Fast Sprint have their rows of :data:`MOVING_FIRE` (... > Moving and Shooting).
    The text replaces the normal rule, which lets a character moving up to half its TMR make half its attacks,
    with that table for ranged attacks on the move, and the table starts at Walk; so at half TMR (Dodge,
    Stealthy) ``half_move_fire`` picks the reading:

    - ``"normal"`` (the default): the normal rule still holds below Walk, as the table only covers greater
      speeds: half the attacks, with no modifier and no drop threat (:data:`HALF_MOVE_FIRE`). Reading chosen:
      half is rounded up, as at Walk, so that going slower never leaves fewer shots than walking.
    - ``"walk"``: the table replaces the normal rule for every ranged attack on the move, and half TMR falls
      in its slowest row, Walk.
    """
    return _moving_fire_row("moving_fire_row", mode, half_move_fire)


def _moving_fire_row(owner: str, mode: object, half_move_fire: object) -> MovingFireRow:
    chosen = _check_enum(owner, "mode", mode, SpeedMode)
    reading = check_choice(owner, "half_move_fire", half_move_fire, HALF_MOVE_FIRE_READINGS)
    if chosen in _HALF_MOVE_FIRE_BY_MODE:
        return _MOVING_FIRE_BY_MODE[SpeedMode.WALK] if reading == "walk" else _HALF_MOVE_FIRE_BY_MODE[chosen]
    return _MOVING_FIRE_BY_MODE[chosen]


def moving_fire(mode: SpeedMode, attacks: int, *, half_move_fire: str = "normal") -> tuple[int, int, int | None]:
    """(attacks allowed, strike chance modifier, drop threat multiple of DEX or None) shooting while moving.

    Spelljammer: Running, Shooting, Chasing and Fleeing > Moving and Shooting. ``attacks`` is the
    character's normal number of ranged attacks a round. Walk: half, rounded up, at -15, drop threat
    4x DEX; Run: half, rounded down, at -30, 3x; Sprint: 1 at -50, 2x; Fast Sprint: 1 at -70, 1x.
    Dodge and Stealthy (half TMR) as ``half_move_fire`` reads them (:func:`moving_fire_row`): by default
    half, rounded up, at 0 and no drop threat. See :func:`fire_on_the_move` for the weapon rules.
    """
    row = _moving_fire_row("moving_fire", mode, half_move_fire)
    check_int("moving_fire", "attacks", attacks, low=1)
    if row.attacks is AttackCount.HALF_ROUND_UP:
        allowed = (attacks + 1) // 2
    elif row.attacks is AttackCount.HALF_ROUND_DOWN:
        allowed = attacks // 2
    else:
        allowed = 1
    return allowed, row.modifier, row.drop_multiple


LARGE_LONG_BOW_MODIFIER: Final = -20
"""Extra strike modifier for a large creature firing a long bow on the move."""


@dataclass(frozen=True, slots=True)
class MovingFire:
    """Ranged attacks on the move after the weapon rules: ``attacks`` at ``modifier``, and how many of
    them (``drop_checks``) risk a drop against ``drop_multiple`` x DEX (see :func:`drop_check`); at half
    TMR under the normal rule there is no drop threat (``drop_multiple`` None, no drop checks)."""

    attacks: int
    modifier: int
    drop_multiple: int | None
    drop_checks: int


def fire_on_the_move(
    mode: SpeedMode,
    attacks: int,
    weapon: RangedWeapon = RangedWeapon.OTHER,
    *,
    reloads_itself: bool = False,
    large: bool = False,
    centaur: bool = False,
    penalty_reduction: int = 0,
    half_move_fire: str = "normal",
    ready: bool = True,
) -> MovingFire:
    """:func:`moving_fire` with the weapon modifiers and footnotes (... > Moving and Shooting).

    - A centaur (``centaur``) with a short bow halves the table's penalty, rounded toward zero
      (Walk -15 becomes -7).
    - A long bow cannot be fired on the move (an error), except by a large creature (``large``;
      a centaur counts as large) at a further -20.
    - ``ready``: the weapon is loaded (an arrow nocked) from before the run. Only then is the first attack
      free of a draw; once a shooter has fired on the move, every later attack of the run is drawn.
    - A crossbow can be fired on the move but not reloaded by hand: one shot at most while ``ready``, none
      once it has been fired on the move, unless it ``reloads_itself``.
    - Every attack after the first, and the first too when the weapon is not ``ready``, needs a new arrow or
      weapon drawn and so risks a drop, unless the weapon ``reloads_itself`` (or appears in the hand by
      itself).
    - ``penalty_reduction`` is what the game's Master skill (Master Bowman for the long bow's -20)
      takes off the penalty. Reading: it comes after the centaur halving, applies to the whole
      moving-fire penalty, and can remove the penalty but never turn it into a bonus.
    - ``half_move_fire`` reads shooting at half TMR (:func:`moving_fire_row`); with no drop threat there,
      no attack risks a drop.
    """
    owner = "fire_on_the_move"
    allowed, modifier, drop_multiple = moving_fire(mode, attacks, half_move_fire=half_move_fire)
    _check_enum(owner, "weapon", weapon, RangedWeapon)
    check_bool(owner, "reloads_itself", reloads_itself)
    check_bool(owner, "large", large)
    check_bool(owner, "centaur", centaur)
    check_int(owner, "penalty_reduction", penalty_reduction, low=0)
    check_bool(owner, "ready", ready)
    if weapon is RangedWeapon.LONG_BOW:
        if not (large or centaur):
            raise RuleValueError(owner, "weapon", weapon, "a weapon other than a long bow (unless large)")
        modifier += LARGE_LONG_BOW_MODIFIER
    if weapon is RangedWeapon.SHORT_BOW and centaur:
        modifier = -(-modifier // 2)
    if weapon is RangedWeapon.CROSSBOW and not reloads_itself:
        allowed = min(allowed, 1 if ready else 0)
    modifier = min(0, modifier + penalty_reduction)
    drop_checks = 0 if reloads_itself or drop_multiple is None else max(0, allowed - (1 if ready else 0))
    return MovingFire(allowed, modifier, drop_multiple, drop_checks)


class DropResult(Enum):
    """What a drawn-and-fired attack on the move drops (... > Moving and Shooting > Weapon Modifiers)."""

    NOTHING_DROPPED = "nothing_dropped"
    ARROW_DROPPED = "arrow_dropped"
    """The arrow (or other missile being drawn) is dropped and that attack is lost."""
    WEAPON_DROPPED = "weapon_dropped"
    """The weapon itself is dropped, and that attack is lost."""


WEAPON_DROP_ROLL: Final = 96
"""A failed drop check with a threat roll this high or higher drops the weapon, not the arrow."""


def drop_check(threat_roll: int, dex: int, mode: SpeedMode, *, half_move_fire: str = "normal") -> DropResult:
    """Whether an attack on the move that needed a draw drops the arrow or the weapon.

    The attack's threat roll (d100) is graded against DEX (:func:`dex_grade`) and fails when the
    grade is worse than the speed's drop threat multiple (4x walking, 3x running, 2x sprinting, 1x at
    a fast sprint). A failed roll of 96 or more drops the weapon instead of the arrow. Use it for each
    attack counted in :attr:`MovingFire.drop_checks`. A speed without a drop threat (half TMR under the
    ``"normal"`` reading of ``half_move_fire``) is refused: nothing there risks a drop.
    """
    owner = "drop_check"
    check_int(owner, "threat_roll", threat_roll, 1, 100)
    check_int(owner, "dex", dex, low=1)
    row = _moving_fire_row(owner, mode, half_move_fire)
    if row.drop_multiple is None:
        raise RuleValueError(owner, "mode", mode, "a speed with a drop threat: walk, run, sprint or fast_sprint")
    if dex_grade(threat_roll, dex) <= row.drop_multiple:
        return DropResult.NOTHING_DROPPED
    if threat_roll >= WEAPON_DROP_ROLL:
        return DropResult.WEAPON_DROPPED
    return DropResult.ARROW_DROPPED

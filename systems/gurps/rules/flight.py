"""Flying Combat (Basic Set), Combat at Different Levels, and the house rules' Flying Movement and Combat and
"Dragon" rule: stall speed, dives, climbing and diving costs, the flight ceiling and breathing, fighting across
heights, house climbs, dives, wipe-outs and uncontrolled drops, and a flier's melee at speed."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Final

from esper_motion.ecs.errors import RuleValueError
from esper_motion.ecs.validate import check_bool, check_int, check_number
from esper_motion.systems.gurps.rules._common import _enum
from esper_motion.systems.gurps.rules.mounted import mounted_melee_speed_modifier
from esper_motion.systems.gurps.rules.tables import Variant

_LEVELS: Final = "Basic Set: Combat at Different Levels"
_HOUSE_FLYING: Final = "House rules: Flying Movement and Combat"

STALL_RECOVERY_DX_MODIFIER: Final = -4
"""A stalled flier turns its fall into a dive and regains speed on a DX-4 roll each turn
(Basic Set: Flying Combat > Cannot Hover)."""


def stall_speed(top_airspeed: int) -> int:
    """Fewest yards a flier with Cannot Hover (or a glider) must cover each turn: a quarter of its top
    airspeed. Reading: distances are whole yards, so the quarter rounds up (top airspeed 18: 4.5, so
    5 yards); covering less stalls it (Basic Set: Flying Combat > Cannot Hover).

    >>> stall_speed(20), stall_speed(18)
    (5, 5)
    """
    top_airspeed = check_int("stall_speed", "top_airspeed", top_airspeed, low=0)
    return -(-top_airspeed // 4)


def dive_limits(basic_air_move: int, top_airspeed: int) -> tuple[int, int]:
    """(acceleration per turn, top airspeed) on a turn spent only diving on a Move maneuver: basic air
    Move + 10 and twice top airspeed (Basic Set: Flying Combat > Flying Fast)."""
    basic_air_move = check_int("dive_limits", "basic_air_move", basic_air_move, low=0)
    top_airspeed = check_int("dive_limits", "top_airspeed", top_airspeed, low=0)
    return basic_air_move + 10, 2 * top_airspeed


def vertical_move_cost(horizontal_yd: int, vertical_yd: int) -> float:
    """Movement points to move ``horizontal_yd`` across and ``vertical_yd`` up or down in one move.

    Climbing or descending a yard costs the same as a level yard; a 45-degree diagonal yard (one up
    and one across together) costs 1.5 (Basic Set: Flying Combat > Aerial Movement > Changing Height).
    Reading for mixed moves: as many yards as possible pair into diagonals at 1.5 each, and the rest,
    all level or all vertical, cost 1 each (3 across and 1 up: 1.5 + 2 = 3.5).

    >>> vertical_move_cost(1, 1), vertical_move_cost(3, 1), vertical_move_cost(0, 4)
    (1.5, 3.5, 4)
    """
    horizontal_yd = check_int("vertical_move_cost", "horizontal_yd", horizontal_yd, low=0)
    vertical_yd = check_int("vertical_move_cost", "vertical_yd", vertical_yd, low=0)
    diagonal = min(horizontal_yd, vertical_yd)
    straight = max(horizontal_yd, vertical_yd) - diagonal
    if diagonal == 0:
        return straight
    return 1.5 * diagonal + straight


def aerial_retreat_bonus(can_hover: bool, room_vertical: bool) -> int:
    """Extra bonus on top of the usual retreat bonus: +1 for a flier that can hover and has room to
    move a step up or down (Basic Set: Flying Combat > Aerial Attack and Defense). The house rules give
    the same +1 for a hover-capable flier retreating by changing altitude
    (House rules: Flying Movement and Combat)."""
    can_hover = check_bool("aerial_retreat_bonus", "can_hover", can_hover)
    room_vertical = check_bool("aerial_retreat_bonus", "room_vertical", room_vertical)
    return 1 if can_hover and room_vertical else 0


class Breathing(Enum):
    """How an unprotected human breathes at an altitude (see :func:`breathing_limit`)."""

    NORMAL = "normal"
    TROUBLE = "trouble"
    NEEDS_MASK = "needs_mask"


SCALE_HEIGHT_FT: Final = 27_000
"""Feet over which Earth-like air thins by a factor of e; used to scale the breathing limits to other
air pressures (see :func:`breathing_limit`)."""


def breathing_limit(altitude_ft: float, pressure: float = 1.0) -> Breathing:
    """Whether an unprotected human breathes normally at ``altitude_ft``.

    On Earth (``pressure`` 1) breathing is hard above 6,000 ft and needs an oxygen mask (or
    Doesn't Breathe) above 20,000 ft (Basic Set: Flying Combat > Flight Ceiling). The text only says
    denser air allows higher flight and thinner air less. Reading: what matters is the air pressure
    reached, so on a world whose surface pressure is ``pressure`` atmospheres both limits move by
    :data:`SCALE_HEIGHT_FT` x ln(pressure): at 2 atm about 18,700 ft higher, at 0.5 atm as much lower
    (trouble from the ground up). ``pressure`` 0 is vacuum: a mask is needed everywhere.

    >>> breathing_limit(6_000), breathing_limit(6_001), breathing_limit(20_001)
    (<Breathing.NORMAL: 'normal'>, <Breathing.TROUBLE: 'trouble'>, <Breathing.NEEDS_MASK: 'needs_mask'>)
    """
    altitude_ft = check_number("breathing_limit", "altitude_ft", altitude_ft)
    pressure = check_number("breathing_limit", "pressure", pressure, low=0)
    if pressure == 0:
        return Breathing.NEEDS_MASK
    shift = SCALE_HEIGHT_FT * math.log(pressure)
    if altitude_ft > 20_000 + shift:
        return Breathing.NEEDS_MASK
    if altitude_ft > 6_000 + shift:
        return Breathing.TROUBLE
    return Breathing.NORMAL


class Atmosphere(Enum):
    """Categories of atmospheric pressure, thinnest first, as the Basic Set names them for worlds
    (Basic Set: Atmospheric Pressure, referred to from Flying Combat > Flight Ceiling)."""

    VACUUM = "vacuum"
    TRACE = "trace"
    VERY_THIN = "very thin"
    THIN = "thin"
    STANDARD = "standard"
    DENSE = "dense"
    VERY_DENSE = "very dense"
    SUPERDENSE = "superdense"


def winged_flight_possible(atmosphere: Atmosphere | str) -> bool:
    """Whether wings can fly in ``atmosphere``: not with only a trace of air or none at all; in anything
    thicker yes (Basic Set: Flying Combat > Flight Ceiling)."""
    air = _enum("winged_flight_possible", "atmosphere", atmosphere, Atmosphere)
    return air not in (Atmosphere.VACUUM, Atmosphere.TRACE)


@dataclass(frozen=True, slots=True)
class DifferentLevelsRow:
    """Effects of fighting across a height difference of at least ``min_height_ft`` (after reach).

    ``lower_defense`` is the lower fighter's active-defense modifier, ``higher_defense`` the higher
    fighter's; ``legs_out_of_reach_from_above`` means the higher fighter cannot reach the lower one's
    legs and feet, ``head_out_of_reach_from_below`` that the lower cannot reach the higher one's head.
    """

    min_height_ft: int
    lower_defense: int
    higher_defense: int
    legs_out_of_reach_from_above: bool
    head_out_of_reach_from_below: bool
    citation: str


DIFFERENT_LEVELS_TABLE: Final[tuple[DifferentLevelsRow, ...]] = (
    DifferentLevelsRow(0, 0, 0, False, False, _LEVELS),
    DifferentLevelsRow(3, -1, 1, False, False, _LEVELS),
    DifferentLevelsRow(4, -2, 2, True, False, _LEVELS),
    DifferentLevelsRow(5, -3, 3, True, True, _LEVELS),
)
"""The project's default reading of Combat at Different Levels (docs/architecture.md > Facts the rules lean on),
ascending by height. It is not in the rule texts implemented here and less certain than the rest: pass another table to
:func:`different_levels` to replace it."""


def different_levels(
    height_ft: float, reach_yd: int = 1, table: Sequence[DifferentLevelsRow] = DIFFERENT_LEVELS_TABLE
) -> DifferentLevelsRow:
    """The row of ``table`` for two fighters ``height_ft`` apart in height, one with ``reach_yd`` reach.

    Each yard of reach past the first cancels 3 ft of the difference (a reach of 0, close combat,
    cancels nothing); the row is the last whose ``min_height_ft`` the remaining difference reaches.
    ``table`` must be in ascending order of height and start at 0 ft
    (Basic Set: Combat at Different Levels, as in docs/architecture.md > Facts the rules lean on).

    >>> from esper_motion.systems.gurps.rules import MOUNTED_HEIGHT_FT
    >>> different_levels(MOUNTED_HEIGHT_FT).lower_defense, different_levels(6, reach_yd=2).lower_defense
    (-1, -1)
    """
    height_ft = check_number("different_levels", "height_ft", height_ft, low=0)
    reach_yd = check_int("different_levels", "reach_yd", reach_yd, low=0)
    effective = max(0, height_ft - 3 * max(0, reach_yd - 1))
    chosen = None
    for row in table:
        if row.min_height_ft <= effective:
            chosen = row
    if chosen is None:
        raise RuleValueError("different_levels", "table", table, "rows in ascending order, the first at 0 ft")
    return chosen


def house_can_take_off(ground_velocity: int, top_airspeed: int) -> bool:
    """House rules: a flier that cannot hover takes off only when moving on the ground at no less than
    a quarter of its top air speed (House rules: Flying Movement and Combat)."""
    ground_velocity = check_int("house_can_take_off", "ground_velocity", ground_velocity, low=0)
    top_airspeed = check_int("house_can_take_off", "top_airspeed", top_airspeed, low=0)
    return 4 * ground_velocity >= top_airspeed


def house_climb_speed_loss(climb_yd: int) -> int:
    """House rules: velocity lost at once by climbing ``climb_yd`` this turn, a yard per yard for the
    first 10 yards only. Each yard climbed also takes a yard of movement that cannot go sideways
    (House rules: Flying Movement and Combat)."""
    climb_yd = check_int("house_climb_speed_loss", "climb_yd", climb_yd, low=0)
    return min(climb_yd, 10)


def house_dive_speed_gain(dive_yd: int) -> int:
    """House rules: velocity and maximum speed gained by diving ``dive_yd`` this turn, a yard per yard
    for the first 10 yards only; deeper dives spend horizontal movement a yard per yard. The bonus to
    maximum speed lasts while diving and one more turn per turn spent diving
    (House rules: Flying Movement and Combat)."""
    dive_yd = check_int("house_dive_speed_gain", "dive_yd", dive_yd, low=0)
    return min(dive_yd, 10)


def house_dive_speed_cap(top_speed: int) -> int:
    """House rules: no dive goes faster than the normal maximum speed or 100 yards/second, whichever is
    higher (House rules: Flying Movement and Combat)."""
    top_speed = check_int("house_dive_speed_cap", "top_speed", top_speed, low=0)
    return max(top_speed, 100)


def house_dive_control_modifier(velocity: int, top_speed: int) -> int | None:
    """House rules: a diver faster than its normal maximum speed (without the dive bonus) rolls DX+2 at
    the end of the turn or loses control; returns +2 then, None when no roll is due
    (House rules: Flying Movement and Combat)."""
    velocity = check_int("house_dive_control_modifier", "velocity", velocity, low=0)
    top_speed = check_int("house_dive_control_modifier", "top_speed", top_speed, low=0)
    return 2 if velocity > top_speed else None


@dataclass(frozen=True, slots=True)
class ClimbDiveTurnRow:
    """House rules: a climb or dive of at least ``min_yd`` yards counts as a turn of ``degrees``."""

    min_yd: int
    degrees: int
    citation: str


HOUSE_CLIMB_DIVE_TURN_TABLE: Final[tuple[ClimbDiveTurnRow, ...]] = (
    ClimbDiveTurnRow(0, 0, _HOUSE_FLYING),
    ClimbDiveTurnRow(3, 60, _HOUSE_FLYING),
    ClimbDiveTurnRow(6, 120, _HOUSE_FLYING),
)
"""House rules: Flying Movement and Combat. The text gives 1-2 yards 0 degrees, 3-5 yards 60 and
"more than 6" 120; reading: 6 yards and up is 120, so that no climb falls between rows."""


def house_climb_dive_turn_degrees(yards: int) -> int:
    """House rules: the turn a climb or dive of ``yards`` counts as, for turning radius and control
    rolls: 0-2 yards 0 degrees, 3-5 yards 60, 6 or more 120. Keeping the same climb or dive on later
    turns is not a new turn (House rules: Flying Movement and Combat)."""
    yards = check_int("house_climb_dive_turn_degrees", "yards", yards, low=0)
    return next(row.degrees for row in reversed(HOUSE_CLIMB_DIVE_TURN_TABLE) if yards >= row.min_yd)


def house_cannot_hover_credit(horizontal_yd: int, vertical_yd: int) -> int:
    """House rules: yards that count toward a Cannot Hover flier's minimum movement: every level yard,
    plus one per two full yards climbed or dived (House rules: Flying Movement and Combat)."""
    horizontal_yd = check_int("house_cannot_hover_credit", "horizontal_yd", horizontal_yd, low=0)
    vertical_yd = check_int("house_cannot_hover_credit", "vertical_yd", vertical_yd, low=0)
    return horizontal_yd + vertical_yd // 2


HOUSE_WIPE_OUT_REGAIN_DX_MODIFIER: Final = -4
"""House rules: DX rolls to regain control after a wipe-out are at -4 (House rules: Flying Movement
and Combat)."""


def house_uncontrolled_drop_yd(turn: int, wipe_out: bool = False) -> int:
    """House rules: yards a flier at high speed drops on its ``turn``-th turn out of control (1 is the
    first): 5 a turn after losing control; after a wipe-out, 10 more each turn (10, 20, 30, ...)
    (House rules: Flying Movement and Combat)."""
    turn = check_int("house_uncontrolled_drop_yd", "turn", turn, low=1)
    if check_bool("house_uncontrolled_drop_yd", "wipe_out", wipe_out):
        return 10 * turn
    return 5


def house_height_defense_modifiers(height_yd: float) -> tuple[int, int]:
    """House rules, melee across heights: (your defense modifier, your foe's defense modifier against
    your attacks) for ``height_yd`` yards of height over your foe (negative when below).

    A yard or more above: (+2, -2); a yard or more below, the mirror (-2, +2); less than a yard
    either way: (0, 0) (House rules: Flying Movement and Combat).
    """
    height_yd = check_number("house_height_defense_modifiers", "height_yd", height_yd)
    if height_yd >= 1:
        return 2, -2
    if height_yd <= -1:
        return -2, 2
    return 0, 0


def house_height_range(horizontal_yd: float, height_yd: float, spell: bool = False) -> float:
    """House rules, ranged combat across heights: effective range for a target ``horizontal_yd`` away
    when the attacker is ``height_yd`` yards above it (negative when below).

    Above: the horizontal distance shrinks by 1 per 2 full yards of height, but not below half the
    horizontal distance nor below the height itself, whichever is greater. Below: 1 more yard of
    range per yard of depth; for a spell only half as much (1 per 2 full yards)
    (House rules: Flying Movement and Combat).

    Reading: the range being adjusted is the horizontal distance. Both floors are kept as written,
    though on this reading the height floor is the one that binds (the reduction only reaches half the
    distance once the height exceeds the distance).

    >>> house_height_range(20, 4), house_height_range(20, -4), house_height_range(20, -4, spell=True)
    (18, 24, 22)
    """
    horizontal_yd = check_number("house_height_range", "horizontal_yd", horizontal_yd, low=0)
    height_yd = check_number("house_height_range", "height_yd", height_yd)
    spell = check_bool("house_height_range", "spell", spell)
    if height_yd >= 0:
        return max(horizontal_yd - height_yd // 2, horizontal_yd / 2, height_yd)
    depth = -height_yd
    return horizontal_yd + (depth // 2 if spell else depth)


DRAGON_MOVE_YD: Final = 7
"""A flier's Move and Attack melee counts its speed only after more than this many yards of movement
(House rules: "Dragon" Rule)."""


def dragon_melee_speed_modifier(yards_moved: float, relative_velocity: float) -> tuple[int, int]:
    """(to-hit modifier, damage bonus) for a flier's melee attack during a Move and Attack under the
    house "Dragon" rule: only after moving more than 7 yards in the turn, then for the speed relative to
    the target, as the house mounted rule reads it (:func:`mounted_melee_speed_modifier` with
    ``variant="house"``): 7 yd/s relative gives -1/+1, 50 yd/s -6/+6 (House rules: "Dragon" Rule). The yards
    moved only open the rule; a target fleeing as fast as the flier closes gives nothing."""
    owner = "dragon_melee_speed_modifier"
    yards_moved = check_number(owner, "yards_moved", yards_moved, low=0)
    relative_velocity = check_number(owner, "relative_velocity", relative_velocity, low=0)
    if yards_moved <= DRAGON_MOVE_YD:
        return 0, 0
    return mounted_melee_speed_modifier(relative_velocity, Variant.HOUSE)

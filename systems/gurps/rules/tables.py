"""Tables several sections use: the Size and Speed/Range Table (speed/range modifier and Size Modifier),
Encumbrance and Move, and the :data:`Variant` of a rule that the Basic Set and the house rules read differently."""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import Enum, IntEnum
from fractions import Fraction
from typing import Any, Final

from esper_motion.ecs.validate import check_int
from esper_motion.systems.gurps.rules._common import _exact, _positive

_ENCUMBRANCE: Final = "Basic Set: Encumbrance and Move"
_SIZE_SPEED: Final = "Basic Set: Size and Speed/Range Table"


class Reading(str, Enum):
    """A named reading of a rule, equal to its name and shown as it (a scene or a save writes the name)."""

    def __repr__(self) -> str:
        return repr(self.value)

    def __str__(self) -> str:
        return str(self.value)

    def __format__(self, spec: Any) -> str:
        return format(str(self.value), spec)


class Variant(Reading):
    """Which rule set a function with two readings follows: the Basic Set or the house rules."""

    BASIC = "basic"
    HOUSE = "house"


_VARIANTS: Final = tuple(Variant)


class Encumbrance(IntEnum):
    """Encumbrance levels 0 to 4 (Basic Set: Encumbrance and Move). Any int 0-4 works as well."""

    NONE = 0
    LIGHT = 1
    MEDIUM = 2
    HEAVY = 3
    X_HEAVY = 4


@dataclass(frozen=True, slots=True)
class EncumbranceRow:
    """One encumbrance level: Move as a percentage of Basic Move, and the Dodge modifier."""

    level: Encumbrance
    move_percent: int
    dodge: int
    citation: str


ENCUMBRANCE_TABLE: Final[tuple[EncumbranceRow, ...]] = (
    EncumbranceRow(Encumbrance.NONE, 100, 0, _ENCUMBRANCE),
    EncumbranceRow(Encumbrance.LIGHT, 80, -1, _ENCUMBRANCE),
    EncumbranceRow(Encumbrance.MEDIUM, 60, -2, _ENCUMBRANCE),
    EncumbranceRow(Encumbrance.HEAVY, 40, -3, _ENCUMBRANCE),
    EncumbranceRow(Encumbrance.X_HEAVY, 20, -4, _ENCUMBRANCE),
)
"""Basic Set: Encumbrance and Move, one row per level 0-4."""


def encumbered_move(basic_move: int, level: int) -> int:
    """Move at encumbrance ``level`` (0-4): Basic Move times 1, 0.8, 0.6, 0.4 or 0.2, rounded down.

    The result is never below 1, except that a Basic Move of 0 stays 0: a creature that cannot move
    under its own power gains no Move from the minimum (Basic Set: Encumbrance and Move).

    >>> encumbered_move(5, Encumbrance.HEAVY), encumbered_move(2, 4), encumbered_move(0, 0)
    (2, 1, 0)
    """
    basic_move = check_int("encumbered_move", "basic_move", basic_move, low=0)
    level = check_int("encumbered_move", "level", level, low=0, high=4)
    if basic_move == 0:
        return 0
    return max(1, basic_move * ENCUMBRANCE_TABLE[level].move_percent // 100)


def dodge_encumbrance_penalty(level: int) -> int:
    """Dodge modifier at encumbrance ``level`` (0-4): 0, -1, -2, -3, -4 (Basic Set: Encumbrance and Move)."""
    level = check_int("dodge_encumbrance_penalty", "level", level, low=0, high=4)
    return ENCUMBRANCE_TABLE[level].dodge


@dataclass(frozen=True, slots=True)
class SpeedRangeRow:
    """One row of the Size and Speed/Range Table: a linear measurement and its speed/range modifier.
    The size modifier is the same number with the sign reversed."""

    yards: int
    speed_range: int
    citation: str


SPEED_RANGE_DECADE: Final[tuple[SpeedRangeRow, ...]] = (
    SpeedRangeRow(2, 0, _SIZE_SPEED),
    SpeedRangeRow(3, -1, _SIZE_SPEED),
    SpeedRangeRow(5, -2, _SIZE_SPEED),
    SpeedRangeRow(7, -3, _SIZE_SPEED),
    SpeedRangeRow(10, -4, _SIZE_SPEED),
    SpeedRangeRow(15, -5, _SIZE_SPEED),
)
"""One decade of the Size and Speed/Range Table (2 to 15 yards). The whole table repeats these steps
every factor of ten, 6 rows (and a modifier of 6) per decade: 20 yd -6, 30 yd -7, ... 100 yd -10,
150 yd -11; downward 1.5 yd +1, 1 yd +2, 0.7 yd +3, 0.5 yd +4, 0.3 yd +5, 0.2 yd +6, 0.15 yd +7."""


def _row_yards(index: int) -> Fraction:
    """Linear measurement of the table row ``index`` rows below the 2-yard row (negative: above it)."""
    decade, step = divmod(index, len(SPEED_RANGE_DECADE))
    return Fraction(SPEED_RANGE_DECADE[step].yards) * Fraction(10) ** decade


def _row_at_or_below(yards: Fraction) -> int:
    """Index of the last table row whose measurement is at most ``yards`` (which is above 0)."""
    index = len(SPEED_RANGE_DECADE) * math.floor(math.log10(yards / 2))
    while _row_yards(index) > yards:
        index -= 1
    while _row_yards(index + 1) <= yards:
        index += 1
    return index


def speed_range_modifier(yards: float) -> int:
    """Speed/range modifier for ``yards`` (speed and range added first): 2 yd 0, 3 yd -1, 5 yd -2,
    7 yd -3, 10 yd -4, 15 yd -5, 20 yd -6, ... 100 yd -10, and on by decades
    (Basic Set: Size and Speed/Range Table).

    Between rows the next higher row counts (4 yd reads as 5 yd: -2). Below 2 yd the table runs on
    upward by the same decades (1.5 yd +1, 1 yd +2, 0.7 yd +3, 0.5 yd +4, ...), so very short
    distances give bonuses. ``yards`` must be above 0. Decimal floats are read exactly as written
    (0.7 is the 0.7-yard row).

    >>> speed_range_modifier(2), speed_range_modifier(4), speed_range_modifier(100), speed_range_modifier(1)
    (0, -2, -10, 2)
    """
    exact = _exact(_positive("speed_range_modifier", "yards", yards))
    index = _row_at_or_below(exact)
    if _row_yards(index) != exact:
        index += 1
    return -index


def size_modifier(yards: float) -> int:
    """Size Modifier for an object whose longest dimension is ``yards``: the Size and Speed/Range
    Table with the sign reversed (2 yd 0, 3 yd +1, 5 yd +2, ... 1 yd -2).

    Between rows the next higher row counts, as for speed and range: a 2.5-yard object is SM +1, a
    4-yard giant +2, a 6-yard one +3. ``yards`` must be above 0 (Basic Set: Size and Speed/Range Table).

    >>> size_modifier(2), size_modifier(2.5), size_modifier(4), size_modifier(6), size_modifier(1)
    (0, 1, 2, 3, -2)
    """
    return -speed_range_modifier(_positive("size_modifier", "yards", yards))

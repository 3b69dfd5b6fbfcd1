"""A hex grid of one-yard hexes in axial coordinates, pointy-top, with six facings.

A hex is a plain ``(q, r)`` tuple. On screen (y pointing up, as arcade draws) ``+q`` runs east and
``+r`` runs north-east, so the third cube coordinate is ``s = -q - r``. Facing 0 points east and
facings count counterclockwise in 60-degree steps: 1 north-east, 2 north-west, 3 west, 4 south-west,
5 south-east. Turning by a positive number of hexsides turns left (counterclockwise), a negative
number turns right. One hexside is a 60-degree turn (Basic Set: High-Speed Movement > Tactical
Movement).

>>> neighbour((0, 0), 1), distance((0, 0), (3, -1)), turn(5, 2)
((0, 1), 3, 1)
"""

from __future__ import annotations

import math
from typing import Final

from esper_motion.ecs.errors import RuleValueError
from esper_motion.ecs.validate import check_int

Hex = tuple[int, int]
"""Axial coordinates ``(q, r)`` of one hex."""

DIRECTIONS: Final[tuple[Hex, ...]] = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))
"""The axial offset to the neighbouring hex for each facing 0-5 (east, NE, NW, west, SW, SE)."""

_FACING_OF_OFFSET: Final[dict[Hex, int]] = {offset: facing for facing, offset in enumerate(DIRECTIONS)}

_SQRT3: Final = math.sqrt(3.0)

# Added to the cube coordinates of both ends of a line so that no point falls exactly between two
# hexes; the three parts sum to zero and differ, so ties always break the same way.
_NUDGE: Final = (1e-6, 2e-6, -3e-6)


def check_facing(owner: str, field: str, value: object) -> int:
    """Return ``value`` if it is a facing, a whole number from 0 to 5; raise :class:`RuleValueError`."""
    if value.__class__ is int and 0 <= value <= 5:  # the common case, without a call
        return value
    return check_int(owner, field, value, 0, 5)


def check_hex(owner: str, field: str, value: object) -> Hex:
    """Return ``value`` if it is a hex, a tuple of two whole numbers; raise :class:`RuleValueError`."""
    if (
        not isinstance(value, tuple)
        or len(value) != 2
        or not all(isinstance(part, int) and not isinstance(part, bool) for part in value)
    ):
        raise RuleValueError(owner, field, value, "a hex: a tuple (q, r) of two whole numbers")
    return value


def turn(facing: int, hexsides: int) -> int:
    """The facing after turning ``hexsides`` 60-degree steps; positive turns left, negative right.

    >>> turn(0, 1), turn(0, -1), turn(4, 6)
    (1, 5, 4)
    """
    check_facing("turn", "facing", facing)
    check_int("turn", "hexsides", hexsides)
    return (facing + hexsides) % 6


def facing_change(a: int, b: int) -> int:
    """The signed number of hexsides to turn from facing ``a`` to facing ``b``, from -2 to 3.

    Positive is left (counterclockwise), negative right; a reversal counts as 3.

    >>> facing_change(0, 1), facing_change(0, 5), facing_change(1, 4), facing_change(2, 2)
    (1, -1, 3, 0)
    """
    check_facing("facing_change", "a", a)
    check_facing("facing_change", "b", b)
    change = (b - a) % 6
    return change - 6 if change > 3 else change


def neighbour(hex: Hex, facing: int) -> Hex:
    """The adjacent hex in the direction ``facing``."""
    check_facing("neighbour", "facing", facing)
    dq, dr = DIRECTIONS[facing]
    return (hex[0] + dq, hex[1] + dr)


def front_hexes(hex: Hex, facing: int) -> tuple[Hex, Hex, Hex]:
    """The three front hexes: front-right, straight ahead and front-left (facings f-1, f, f+1).

    Basic Set: High-Speed Movement > Direction and Turning Radius lets a fast mover step into any of these
    without changing facing.
    """
    check_facing("front_hexes", "facing", facing)
    q, r = hex
    right, ahead, left = DIRECTIONS[facing - 1], DIRECTIONS[facing], DIRECTIONS[(facing + 1) % 6]
    return (q + right[0], r + right[1]), (q + ahead[0], r + ahead[1]), (q + left[0], r + left[1])


def distance(a: Hex, b: Hex) -> int:
    """The number of hex steps (yards) from ``a`` to ``b``.

    >>> distance((0, 0), (2, 2)), distance((1, -4), (1, -4))
    (4, 0)
    """
    dq = a[0] - b[0]
    dr = a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def direction_to(a: Hex, b: Hex) -> int | None:
    """The facing whose neighbour of ``a`` is ``b``, or ``None`` when ``b`` is not adjacent to ``a``."""
    return _FACING_OF_OFFSET.get((b[0] - a[0], b[1] - a[1]))


def away_from(hex: Hex, source: Hex) -> tuple[int, ...]:
    """The facings from ``hex`` whose neighbours are farthest from ``source`` (one yard farther than ``hex``), in
    facing order: the ways straight away from it.

    >>> away_from((3, 0), (0, 0)), away_from((0, 0), (0, 0))
    ((0, 1, 5), (0, 1, 2, 3, 4, 5))
    """
    gone = distance(hex, source) + 1
    return tuple(facing for facing in range(6) if distance(neighbour(hex, facing), source) == gone)


def _round(q: float, r: float) -> Hex:
    """The hex containing fractional axial point ``(q, r)`` (rounding in cube coordinates)."""
    s = -q - r
    rq, rr, rs = round(q), round(r), round(s)
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    return (rq, rr)


def line(a: Hex, b: Hex) -> list[Hex]:
    """The hexes on the straight line from ``a`` to ``b``, both included, each adjacent to the next.

    Where the line runs exactly between two hexes, a fixed tiny offset picks one, the same one in
    either direction: ``line(b, a)`` is ``line(a, b)`` reversed.

    >>> line((0, 0), (3, 0))
    [(0, 0), (1, 0), (2, 0), (3, 0)]
    """
    steps = distance(a, b)
    if steps == 0:
        return [a]
    aq, ar = a[0] + _NUDGE[0], a[1] + _NUDGE[1]
    dq, dr = b[0] - a[0], b[1] - a[1]
    return [_round(aq + dq * i / steps, ar + dr * i / steps) for i in range(steps + 1)]


def _check_size(owner: str, size: float) -> None:
    if isinstance(size, bool) or not isinstance(size, (int, float)) or not 0 < size < math.inf:
        raise RuleValueError(owner, "size", size, "a finite number above 0 (pixels, centre to corner)")


def to_pixel(hex: Hex, size: float) -> tuple[float, float]:
    """The centre of ``hex`` in pixels, y up, for hexes ``size`` pixels from centre to corner."""
    _check_size("to_pixel", size)
    q, r = hex
    return (size * _SQRT3 * (q + r / 2), size * 1.5 * r)


def from_pixel(x: float, y: float, size: float) -> Hex:
    """The hex containing pixel ``(x, y)`` (y up), for hexes ``size`` pixels from centre to corner."""
    _check_size("from_pixel", size)
    r = y / (1.5 * size)
    q = x / (_SQRT3 * size) - r / 2
    return _round(q, r)

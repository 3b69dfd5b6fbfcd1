"""Damage from Collisions and Falling (Basic Set, as in docs/architecture.md > Facts the rules lean on), and the thrust
column of the Damage Table."""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Final, Literal

from esper_motion.ecs.damage import Damage
from esper_motion.ecs.validate import check_bool, check_choice, check_int, check_number
from esper_motion.systems.gurps.rules._common import _exact, _half_up

_FALLING: Final = "Basic Set: Falling"
_DAMAGE_TABLE: Final = "Basic Set: Damage Table"


def collision_dice(hp: int, velocity: float, hard_obstacle: bool = False) -> Damage:
    """Crushing damage one side of a collision takes: (the other side's HP x velocity) / 100 dice.

    Under 1 die: up to 0.25 is 1d-3, up to 0.5 is 1d-2, else 1d-1; from 1 die up, round to the nearest
    die, halves up. For an immovable hard obstacle (ground, wall) pass the mover's own HP with
    ``hard_obstacle=True``: the HP count double and the mover takes what it would inflict. A soft
    obstacle uses its normal HP. A collision at velocity 0 (or with 0 HP) does no damage and returns
    ``Damage(0)`` (Basic Set: Damage from Collisions, as in docs/architecture.md > Facts the rules lean on).

    >>> str(collision_dice(10, 10)), str(collision_dice(20, 13, hard_obstacle=True))
    ('1d', '5d')
    """
    hp = check_int("collision_dice", "hp", hp, low=0)
    velocity = check_number("collision_dice", "velocity", velocity, low=0)
    multiplier = 2 if check_bool("collision_dice", "hard_obstacle", hard_obstacle) else 1
    dice = Fraction(hp * multiplier) * _exact(velocity) / 100
    if dice == 0:
        return Damage(0)
    if dice <= Fraction(1, 4):
        return Damage(1, -3)
    if dice <= Fraction(1, 2):
        return Damage(1, -2)
    if dice < 1:
        return Damage(1, -1)
    return Damage(_half_up(dice))


def collision_velocity(
    v1: float,
    heading1: float,
    v2: float,
    heading2: float,
    reading: Literal["striker", "closing"] = "striker",
) -> float:
    """Velocity a collision is worked out at; mover 1 is the one that strikes mover 2.

    Headings are compass degrees (any finite number; 360 is 0). Head-on (headings 180 degrees apart)
    the velocities add; rear-end (same heading) the smaller is subtracted from the larger
    (Basic Set: Damage from Collisions, as in docs/architecture.md > Facts the rules lean on). The text gives no other
    angle, so:

    - ``striker`` (default): any other angle is a side impact at the striker's velocity ``v1``.
    - ``closing``: the closing speed, the length of the difference of the two velocity vectors; it
      agrees with the two cases above and grows smoothly in between.

    >>> collision_velocity(10, 0, 6, 180), collision_velocity(10, 0, 6, 0), collision_velocity(10, 0, 6, 90)
    (16, 4, 10)
    """
    owner = "collision_velocity"
    v1 = check_number(owner, "v1", v1, low=0)
    heading1 = check_number(owner, "heading1", heading1)
    v2 = check_number(owner, "v2", v2, low=0)
    heading2 = check_number(owner, "heading2", heading2)
    check_choice(owner, "reading", reading, ("striker", "closing"))
    angle = abs(heading1 - heading2) % 360
    angle = min(angle, 360 - angle)
    if angle == 180:
        return v1 + v2
    if angle == 0:
        return abs(v1 - v2)
    if reading == "striker":
        return v1
    return math.sqrt(v1 * v1 + v2 * v2 - 2 * v1 * v2 * math.cos(math.radians(angle)))


@dataclass(frozen=True, slots=True)
class FallRow:
    """One listed fall: the height in yards and the velocity it ends at, at Earth gravity."""

    yards: int
    velocity: int
    citation: str


FALL_VELOCITY_TABLE: Final[tuple[FallRow, ...]] = (
    FallRow(1, 5, _FALLING),
    FallRow(2, 7, _FALLING),
    FallRow(3, 8, _FALLING),
    FallRow(5, 10, _FALLING),
    FallRow(17, 19, _FALLING),
)
"""Basic Set: Falling, the listed heights (docs/architecture.md > Facts the rules lean on)."""


def fall_velocity(yards: float, gravity: float = 1.0) -> int:
    """Velocity a fall of ``yards`` ends at, in yards/second; a fall is a collision with the ground.

    The listed heights at gravity 1 come from :data:`FALL_VELOCITY_TABLE`; anything else is
    sqrt(21.4 x gravity x yards) rounded to the nearest whole number, halves up. ``gravity`` is in
    Earth gravities (Basic Set: Falling, as in docs/architecture.md > Facts the rules lean on).

    >>> fall_velocity(3), fall_velocity(100), fall_velocity(3, gravity=0.5)
    (8, 46, 6)
    """
    yards = check_number("fall_velocity", "yards", yards, low=0)
    gravity = check_number("fall_velocity", "gravity", gravity, low=0)
    if gravity == 1:
        for row in FALL_VELOCITY_TABLE:
            if row.yards == yards:
                return row.velocity
    return math.floor(math.sqrt(21.4 * gravity * yards) + 0.5)


@dataclass(frozen=True, slots=True)
class ThrustRow:
    """Thrust damage from ``min_st`` up to the next row's ST."""

    min_st: int
    damage: Damage
    citation: str


THRUST_TABLE: Final[tuple[ThrustRow, ...]] = tuple(
    ThrustRow(st, Damage(dice, adds), _DAMAGE_TABLE)
    for st, dice, adds in (
        (1, 1, -6), (3, 1, -5), (5, 1, -4), (7, 1, -3), (9, 1, -2), (11, 1, -1), (13, 1, 0), (15, 1, 1),
        (17, 1, 2), (19, 2, -1), (21, 2, 0), (23, 2, 1), (25, 2, 2), (27, 3, -1), (29, 3, 0), (31, 3, 1),
        (33, 3, 2), (35, 4, -1), (37, 4, 0), (39, 4, 1), (45, 5, 0), (50, 5, 2), (55, 6, 0), (60, 7, -1),
        (65, 7, 1), (70, 8, 0), (75, 8, 2), (80, 9, 0), (85, 9, 2), (90, 10, 0), (95, 10, 2), (100, 11, 0),
    )
)  # fmt: skip
"""Basic Set: Damage Table, thrust column, ST 1 to 100: two ST per step up to 40, then the listed
rows every 5 ST."""


def thrust_damage(st: int) -> Damage:
    """Basic thrust damage for ``st`` (1 or more), as used for a mount falling on its rider.

    ST 1-100 come from :data:`THRUST_TABLE`; an ST between listed rows (41-44, 46-49, ...) uses the
    row below it. Above 100: 1 die per full 10 ST, plus 1 die (ST 110: 12d)
    (Basic Set: Damage Table).

    >>> str(thrust_damage(10)), str(thrust_damage(25)), str(thrust_damage(120))
    ('1d-2', '2d+2', '13d')
    """
    st = check_int("thrust_damage", "st", st, low=1)
    if st > 100:
        return Damage(st // 10 + 1)
    return next(row.damage for row in reversed(THRUST_TABLE) if row.min_st <= st)

"""Where an entity is, which way it faces, and how fast it goes: the components every rule set shares."""

from __future__ import annotations

from dataclasses import dataclass

from esper_motion.ecs.hexgrid import check_facing
from esper_motion.ecs.registry import register
from esper_motion.ecs.validate import check_int, check_number


@register("Position")
@dataclass(slots=True)
class Position:
    """An axial hex (``q``, ``r``) of one yard, and the height above the ground in yards.

    >>> Position(2, -1, altitude_yd=4.0)
    Position(q=2, r=-1, altitude_yd=4.0)
    """

    q: int
    r: int
    altitude_yd: float = 0.0

    def __post_init__(self) -> None:
        check_int("Position", "q", self.q)
        check_int("Position", "r", self.r)
        check_number("Position", "altitude_yd", self.altitude_yd, low=0)

    @property
    def hex(self) -> tuple[int, int]:
        """The axial hex as a tuple."""
        return (self.q, self.r)


@register("Facing")
@dataclass(slots=True)
class Facing:
    """Which of the six hexsides the entity faces: 0 east, counting counterclockwise (``esper_motion.ecs.hexgrid``)."""

    direction: int = 0

    def __post_init__(self) -> None:
        check_facing("Facing", "direction", self.direction)


@register("Velocity")
@dataclass(slots=True)
class Velocity:
    """Speed in yards per second along ``heading``, a hexside direction that may differ from the facing.

    >>> Velocity(-1)
    Traceback (most recent call last):
    ...
    esper_motion.ecs.errors.RuleValueError: Velocity.yps = -1: expected a whole number, 0 or more
    """

    yps: int = 0
    heading: int = 0

    def __post_init__(self) -> None:
        check_int("Velocity", "yps", self.yps, low=0)
        check_facing("Velocity", "heading", self.heading)

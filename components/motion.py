"""Where an entity is, which way it faces, and how fast it goes: the components every rule set shares."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from esper_motion.ecs.hexgrid import check_facing
from esper_motion.ecs.registry import register
from esper_motion.ecs.validate import check_int, check_number

MAX_SPEED_YPS: Final = 10_000
"""The fastest speed a component holds, in yards per second (about Mach 27, past orbital speed): velocities, Moves,
top speeds and a turn's path are bounded by it, so one turn never walks more than this many hexes. No rule needs
more; it keeps a mistyped speed from costing a turn gigabytes."""

MAX_MOVE: Final = MAX_SPEED_YPS // 2
"""The largest Move or top speed a component holds, in yards per second (5,000): half of :data:`MAX_SPEED_YPS`,
since a dive may reach twice the top airspeed (Basic Set: Flying Combat > Flying Fast), so no rule can take a
velocity past its bound."""

MAX_ALTITUDE_YD: Final = 1_000_000
"""The greatest height above the ground a component holds, in yards (about 570 miles); climbs, dives and falls
are bounded by it too."""


@register("Position")
@dataclass(slots=True)
class Position:
    """An axial hex (``q``, ``r``) of one yard, and the height above the ground in yards (at most
    :data:`MAX_ALTITUDE_YD`).

    >>> Position(2, -1, altitude_yd=4.0)
    Position(q=2, r=-1, altitude_yd=4.0)
    """

    q: int
    r: int
    altitude_yd: float = 0.0

    def __post_init__(self) -> None:
        check_int("Position", "q", self.q)
        check_int("Position", "r", self.r)
        check_number("Position", "altitude_yd", self.altitude_yd, low=0, high=MAX_ALTITUDE_YD)

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
    """Speed in yards per second (at most :data:`MAX_SPEED_YPS`) along ``heading``, a hexside direction that may
    differ from the facing. ``heading`` is given by name (``Velocity(6, heading=2)``), so that the pair is never
    read as a vector.

    >>> Velocity(-1)
    Traceback (most recent call last):
    ...
    esper_motion.ecs.errors.RuleValueError: Velocity.yps = -1: expected a whole number from 0 to 10000
    """

    yps: int = 0
    heading: int = field(default=0, kw_only=True)

    def __post_init__(self) -> None:
        check_int("Velocity", "yps", self.yps, low=0, high=MAX_SPEED_YPS)
        check_facing("Velocity", "heading", self.heading)

"""Events of Flying Combat (Basic Set) and the house rules' Flying Movement and Combat: climbs and dives,
stalls and falls, breathing limits, climbs and dives as turns, wingspans and wipe-outs."""

from __future__ import annotations

from dataclasses import dataclass

from esper_motion.ecs.events import Event
from esper_motion.ecs.hexgrid import Hex
from esper_motion.ecs.registry import register


@register("gurps.AltitudeChanged")
@dataclass(frozen=True, slots=True)
class AltitudeChanged(Event):
    """A flier climbed (``climb_yd`` above 0) or descended to ``altitude_yd``, paying ``cost`` movement points
    for the vertical yards and the ``level_yd`` level yards flown with them (Basic Set: Flying Combat >
    Aerial Movement > Changing Height). A turn of several climbs and dives (``FlightIntent.legs``) reports each
    in order, every one with the turn's level yards and its whole cost."""

    entity: int
    climb_yd: int
    altitude_yd: float
    level_yd: int
    cost: float

    def describe(self) -> str:
        """One log line."""
        way = "climbs" if self.climb_yd > 0 else "descends"
        return (
            f"entity {self.entity} {way} {abs(self.climb_yd)} yd to {self.altitude_yd:g} yd "
            f"({self.level_yd} yd level, {self.cost:g} movement points)"
        )


@register("gurps.Stalled")
@dataclass(frozen=True, slots=True)
class Stalled(Event):
    """A flier that cannot hover stalled and starts to fall: it covered ``covered_yd`` of the ``needed_yd`` it
    must, or did not take Move or Move and Attack (``reason``) (Basic Set: Flying Combat > Cannot Hover)."""

    entity: int
    reason: str
    covered_yd: float
    needed_yd: int

    def describe(self) -> str:
        """One log line."""
        return f"entity {self.entity} stalls ({self.reason}; covered {self.covered_yd:g} of {self.needed_yd} yd)"


@register("gurps.Falling")
@dataclass(frozen=True, slots=True)
class Falling(Event):
    """A flier without lift dropped ``drop_yd`` this second, ``fall_yd`` in all, to ``altitude_yd``."""

    entity: int
    drop_yd: float
    fall_yd: float
    altitude_yd: float

    def describe(self) -> str:
        """One log line."""
        return f"entity {self.entity} falls {self.drop_yd:g} yd to {self.altitude_yd:g} yd ({self.fall_yd:g} yd so far)"


@register("gurps.StallRecovered")
@dataclass(frozen=True, slots=True)
class StallRecovered(Event):
    """A stalled flier turned its fall into a dive and flies again at ``velocity_yps``
    (Basic Set: Flying Combat > Cannot Hover)."""

    entity: int
    velocity_yps: int
    altitude_yd: float

    def describe(self) -> str:
        """One log line."""
        return (
            f"entity {self.entity} pulls out of the stall into a dive at {self.velocity_yps} yd/s, "
            f"{self.altitude_yd:g} yd up"
        )


@register("gurps.Landed")
@dataclass(frozen=True, slots=True)
class Landed(Event):
    """A falling flier reached the ground after ``fall_yd`` yards, at ``velocity_yps``; the damage follows as
    :class:`FallDamage` (Basic Set: Falling)."""

    entity: int
    fall_yd: float
    velocity_yps: int

    def describe(self) -> str:
        """One log line."""
        return f"entity {self.entity} hits the ground after falling {self.fall_yd:g} yd, at {self.velocity_yps} yd/s"


@register("gurps.FellClear")
@dataclass(frozen=True, slots=True)
class FellClear(Event):
    """A falling flier came down onto ``struck`` (the damage was a :class:`Collided` from above) and ended on the
    ground beside it, at ``at``."""

    entity: int
    struck: int
    at: Hex

    def describe(self) -> str:
        """One log line."""
        return f"entity {self.entity} comes down off entity {self.struck} onto the ground at {self.at}"


@register("gurps.BreathingChanged")
@dataclass(frozen=True, slots=True)
class BreathingChanged(Event):
    """A flier crossed a breathing limit: ``breathing`` is now ``"normal"``, ``"trouble"`` or ``"needs_mask"``
    at ``altitude_ft`` above sea level (Basic Set: Flying Combat > Flight Ceiling)."""

    entity: int
    breathing: str
    altitude_ft: float

    def describe(self) -> str:
        """One log line."""
        return f"entity {self.entity} breathes: {self.breathing} at {self.altitude_ft:g} ft"


@register("gurps.ClimbDiveTurn")
@dataclass(frozen=True, slots=True)
class ClimbDiveTurn(Event):
    """Starting or changing a climb or dive of ``climb_yd`` counted as a turn of ``degrees``; ``pushed`` when it
    came before the turning radius (or was a 120-degree turn) and needed a roll (House rules: Flying Movement
    and Combat)."""

    entity: int
    climb_yd: int
    degrees: int
    pushed: bool

    def describe(self) -> str:
        """One log line."""
        way = "climb" if self.climb_yd > 0 else "dive"
        how = " (pushing the envelope)" if self.pushed else ""
        return f"entity {self.entity} starts a {abs(self.climb_yd)} yd {way}, a {self.degrees}-degree turn{how}"


@register("gurps.WingspanObstructed")
@dataclass(frozen=True, slots=True)
class WingspanObstructed(Event):
    """Something (``obstacles``: entity ids) came within the wingspan of a winged flier; ``whole_movement``
    when it stayed there all the way, which wipes the flier out (House rules: Flying Movement and Combat)."""

    entity: int
    obstacles: tuple[int, ...]
    whole_movement: bool

    def describe(self) -> str:
        """One log line."""
        where = "all along its movement" if self.whole_movement else "on its way"
        return f"entity {self.entity} has {', '.join(map(str, self.obstacles))} in its wingspan {where}"


@register("gurps.WipedOut")
@dataclass(frozen=True, slots=True)
class WipedOut(Event):
    """A flier wiped out: no lift at all, out of control and dropping faster each second (``reason`` says why)
    (House rules: Flying Movement and Combat)."""

    entity: int
    reason: str

    def describe(self) -> str:
        """One log line."""
        return f"entity {self.entity} wipes out ({self.reason})"


@register("gurps.LiftRegained")
@dataclass(frozen=True, slots=True)
class LiftRegained(Event):
    """A wiped-out flier regained control, adding the speed of its dive (``dive_yps``) to its velocity, now
    ``velocity_yps`` (House rules: Flying Movement and Combat)."""

    entity: int
    dive_yps: int
    velocity_yps: int

    def describe(self) -> str:
        """One log line."""
        return f"entity {self.entity} pulls out of the wipe-out, +{self.dive_yps} yd/s: {self.velocity_yps} yd/s"

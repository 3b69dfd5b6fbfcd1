"""Events of Changing Posture in Armor (Basic Set)."""

from __future__ import annotations

from dataclasses import dataclass

from esper_motion.ecs.events import Event
from esper_motion.ecs.registry import register


@register("gurps.PostureChanging")
@dataclass(frozen=True, slots=True)
class PostureChanging(Event):
    """A second of a Change Posture went by and ``seconds_left`` more are needed; until then the entity counts
    as still ``posture`` (Basic Set: Changing Posture in Armor)."""

    entity: int
    posture: str
    target: str
    seconds_left: int

    def describe(self) -> str:
        """One log line."""
        return f"entity {self.entity} is getting from {self.posture} to {self.target}: {self.seconds_left} s to go"


@register("gurps.PostureChanged")
@dataclass(frozen=True, slots=True)
class PostureChanged(Event):
    """A change of posture completed: the entity now counts as ``new``."""

    entity: int
    old: str
    new: str

    def describe(self) -> str:
        """One log line."""
        return f"entity {self.entity} goes from {self.old} to {self.new}"


@register("gurps.PostureChangeAbandoned")
@dataclass(frozen=True, slots=True)
class PostureChangeAbandoned(Event):
    """A change of posture under way was given up for another maneuver; the entity stays ``posture``."""

    entity: int
    posture: str
    target: str
    seconds_left: int

    def describe(self) -> str:
        """One log line."""
        return f"entity {self.entity} gives up getting to {self.target} and stays {self.posture}"

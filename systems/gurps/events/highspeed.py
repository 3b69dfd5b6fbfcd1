"""Events of High-Speed Movement (Basic Set, and the house rules' High Speed Movement): entering and leaving
high speed, and tripping and skidding after losing control on the ground."""

from __future__ import annotations

from dataclasses import dataclass

from esper_motion.ecs.events import Event
from esper_motion.ecs.hexgrid import Hex
from esper_motion.ecs.registry import register


@register("gurps.EnteredHighSpeed")
@dataclass(frozen=True, slots=True)
class EnteredHighSpeed(Event):
    """The entity switched to high-speed movement at the end of a turn (Basic Set: High-Speed Movement)."""

    entity: int
    velocity_yps: int

    def describe(self) -> str:
        """One log line."""
        return f"entity {self.entity} goes to high speed: {self.velocity_yps} yd/s next turn"


@register("gurps.LeftHighSpeed")
@dataclass(frozen=True, slots=True)
class LeftHighSpeed(Event):
    """The entity is back to ordinary movement; ``reason`` says how (slowed down, tripped, collided)."""

    entity: int
    velocity_yps: int
    reason: str

    def describe(self) -> str:
        """One log line."""
        return f"entity {self.entity} leaves high speed at {self.velocity_yps} yd/s ({self.reason})"


@register("gurps.HighSpeedRefused")
@dataclass(frozen=True, slots=True)
class HighSpeedRefused(Event):
    """The entity asked to go past its Move but the turn did not qualify; its velocity stays as it was."""

    entity: int
    velocity_yps: int
    reason: str

    def describe(self) -> str:
        """One log line."""
        return f"entity {self.entity} cannot go to high speed ({self.reason}); stays at {self.velocity_yps} yd/s"


@register("gurps.Tripped")
@dataclass(frozen=True, slots=True)
class Tripped(Event):
    """The entity fell over at ``at`` (losing control on the ground, or knocked down in a collision)."""

    entity: int
    at: Hex

    def describe(self) -> str:
        """One log line."""
        return f"entity {self.entity} falls over at {self.at}"


@register("gurps.Skidded")
@dataclass(frozen=True, slots=True)
class Skidded(Event):
    """The entity skidded along ``path`` on the ground after tripping, then stopped."""

    entity: int
    path: tuple[Hex, ...]

    def describe(self) -> str:
        """One log line."""
        end = self.path[-1] if self.path else "where it fell"
        return f"entity {self.entity} skids {len(self.path)} yd and stops at {end}"

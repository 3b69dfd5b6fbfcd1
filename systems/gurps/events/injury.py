"""Events of general injury: a major wound, being knocked down, stunned, recovering from a stun, knocked out, a
death check and death (Basic Set: Injury, as in docs/architecture.md > Facts the rules lean on). The HT rolls
behind them are reported with ``esper_motion.ecs.RollMade``."""

from __future__ import annotations

from dataclasses import dataclass

from esper_motion.ecs.events import Event
from esper_motion.ecs.registry import register


@register("gurps.MajorWound")
@dataclass(frozen=True, slots=True)
class MajorWound(Event):
    """One injury of more than half the entity's HP: its HT roll's ``outcome`` (``"holds on"``, ``"stunned"`` or
    ``"unconscious"``)."""

    entity: int
    injury: int
    hp: int
    outcome: str

    def describe(self) -> str:
        """One log line."""
        return (
            f"entity {self.entity} takes a major wound ({self.injury} injury, more than half of {self.hp} HP): "
            f"{self.outcome}"
        )


@register("gurps.KnockedDownByWound")
@dataclass(frozen=True, slots=True)
class KnockedDownByWound(Event):
    """The entity falls prone from its injury (a major wound it failed to shrug off, or unconsciousness)."""

    entity: int
    cause: str

    def describe(self) -> str:
        """One log line."""
        return f"entity {self.entity} is knocked down: {self.cause}"


@register("gurps.Stunned")
@dataclass(frozen=True, slots=True)
class Stunned(Event):
    """The entity is stunned: it may only Do Nothing, and defends at -4, until an HT roll at the end of one of its
    turns ends it."""

    entity: int
    cause: str

    def describe(self) -> str:
        """One log line."""
        return f"entity {self.entity} is stunned: {self.cause}"


@register("gurps.StunEnded")
@dataclass(frozen=True, slots=True)
class StunEnded(Event):
    """The entity made its HT roll at the end of its turn: no longer stunned from its next turn."""

    entity: int

    def describe(self) -> str:
        """One log line."""
        return f"entity {self.entity} recovers from its stun"


@register("gurps.KnockedOut")
@dataclass(frozen=True, slots=True)
class KnockedOut(Event):
    """The entity falls unconscious, for ``cause``."""

    entity: int
    cause: str

    def describe(self) -> str:
        """One log line."""
        return f"entity {self.entity} falls unconscious: {self.cause}"


@register("gurps.DeathCheck")
@dataclass(frozen=True, slots=True)
class DeathCheck(Event):
    """The entity's injury first reached -``multiple`` x HP: its HT roll's ``outcome`` (``"survives"``,
    ``"mortally wounded"`` or ``"dies"``)."""

    entity: int
    multiple: int
    outcome: str

    def describe(self) -> str:
        """One log line."""
        return f"entity {self.entity} is at -{self.multiple} x HP and rolls to live: {self.outcome}"


@register("gurps.Died")
@dataclass(frozen=True, slots=True)
class Died(Event):
    """The entity is dead, for ``cause``."""

    entity: int
    cause: str

    def describe(self) -> str:
        """One log line."""
        return f"entity {self.entity} dies: {self.cause}"

"""Events: frozen dataclasses a step emits, logged in ``World.events`` and dispatched through esper."""

from __future__ import annotations

from dataclasses import dataclass, fields

from esper_motion.ecs.dice import Roll, SuccessRoll


@dataclass(frozen=True, slots=True)
class Event:
    """Base class of every event. Subclasses are ``@dataclass(frozen=True, slots=True)``.

    An event is dispatched through ``esper.dispatch_event`` under its class name, so
    ``esper.set_handler("Collided", handler)`` receives it, as does ``world.on(Collided, handler)``.
    """

    def describe(self) -> str:
        """One line for a turn log: the class name and its fields."""
        parts = ", ".join(f"{f.name}={getattr(self, f.name)}" for f in fields(self))
        return f"{type(self).__name__}({parts})"


@dataclass(frozen=True, slots=True)
class RollMade(Event):
    """A die roll the rules called for, with its story (``purpose`` says what it decided)."""

    entity: int
    purpose: str
    result: Roll | SuccessRoll

    def describe(self) -> str:
        """The roll's own story, after whose roll it was and what for."""
        return f"entity {self.entity} rolls for {self.purpose}: {self.result.story}"

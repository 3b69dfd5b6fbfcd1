"""Events: frozen dataclasses a step emits, logged in ``World.events`` and dispatched through esper."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import ClassVar

from esper_motion.ecs.dice import Roll, SuccessRoll


def _esper_name(module: str, name: str) -> str:
    """An event class's name in esper's handler registry (see :class:`Event`)."""
    parts = module.split(".")
    if parts[:2] == ["esper_motion", "systems"] and len(parts) > 2:
        return f"esper_motion.{parts[2]}.{name}"
    if parts[0] == "esper_motion":
        return f"esper_motion.{name}"
    return f"{module}.{name}"


@dataclass(frozen=True, slots=True)
class Event:
    """Base class of every event. Subclasses are ``@dataclass(frozen=True, slots=True)``.

    After each turn, the world hands its events to the handlers of ``world.on`` (a handler for a class hears
    its subclasses too: ``world.on(Event, h)`` hears everything) and to esper's handlers by name, under
    ``esper_name``: ``"esper_motion.<rule set>.<class>"`` for a rule set's events (``"esper_motion.gurps.Moved"``),
    ``"esper_motion.<class>"`` for the core's, the module and class name for any other. A subclass may set its
    own ``esper_name``.

    >>> from esper_motion.systems.gurps import Moved
    >>> Moved.esper_name
    'esper_motion.gurps.Moved'
    """

    esper_name: ClassVar[str] = "esper_motion.Event"

    def __init_subclass__(cls) -> None:  # no super() call: slotted dataclasses are rebuilt, and object's takes nothing
        if "esper_name" not in cls.__dict__:
            cls.esper_name = _esper_name(cls.__module__, cls.__qualname__)

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

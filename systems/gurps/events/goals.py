"""Events of the planner: a goal the planner could not follow, and why (docs: Movers that decide)."""

from __future__ import annotations

from dataclasses import dataclass

from esper_motion.ecs.events import Event
from esper_motion.ecs.registry import register


@register("gurps.GoalLost")
@dataclass(frozen=True, slots=True)
class GoalLost(Event):
    """The entity ``target`` that ``entity``'s goal named is gone (``why``: despawned, or for a ``Charge``, out of
    the fight): the goal became a ``Hold``."""

    entity: int
    goal: str
    target: int
    why: str = "gone"

    def describe(self) -> str:
        """One log line."""
        return f"entity {self.entity} holds: the {self.goal} goal's entity {self.target} is {self.why}"


@register("gurps.GoalUnreachable")
@dataclass(frozen=True, slots=True)
class GoalUnreachable(Event):
    """No plan the rules allow (within the mover's caution and the search's budget) brings ``entity`` nearer its
    goal this turn: it does its best, ``why`` says what stood in the way."""

    entity: int
    goal: str
    why: str

    def describe(self) -> str:
        """One log line."""
        return f"entity {self.entity} cannot get nearer its {self.goal} goal: {self.why}"

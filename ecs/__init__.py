"""esper-motion's framework core: World, phases, systems, events, dice and odds, hex grid, errors.

It knows no movement rule; those live in ``systems``.

Persistence and the registry of names know the world, not the other way round: their names here load their
modules (:mod:`esper_motion.ecs.persist`, :mod:`esper_motion.ecs.registry`) when first asked for, so
importing the world alone imports neither.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from esper_motion.ecs import hexgrid
from esper_motion.ecs.damage import Damage
from esper_motion.ecs.dice import (
    Dice,
    Roll,
    SuccessRoll,
    critical_failure_probability,
    critical_success_probability,
    success_probability,
)
from esper_motion.ecs.errors import IntentError, MotionError, RuleValueError, WorldError
from esper_motion.ecs.events import Event, RollMade
from esper_motion.ecs.phase import PRIORITY_TOP, Phase
from esper_motion.ecs.world import System, World

if TYPE_CHECKING:
    from esper_motion.ecs.persist import Linked, SaveError
    from esper_motion.ecs.registry import RuleSet, name_of, register, register_rule_set, rule_set_named, type_named

_LATER: dict[str, str] = {
    "Linked": "persist",
    "SaveError": "persist",
    "RuleSet": "registry",
    "name_of": "registry",
    "register": "registry",
    "register_rule_set": "registry",
    "rule_set_named": "registry",
    "type_named": "registry",
}
"""Each name exported from a module that is imported when the name is first asked for, with that module."""

__all__ = [
    "PRIORITY_TOP",
    "Damage",
    "Dice",
    "Event",
    "IntentError",
    "Linked",
    "MotionError",
    "Phase",
    "Roll",
    "RollMade",
    "RuleSet",
    "RuleValueError",
    "SaveError",
    "SuccessRoll",
    "System",
    "World",
    "WorldError",
    "critical_failure_probability",
    "critical_success_probability",
    "hexgrid",
    "name_of",
    "register",
    "register_rule_set",
    "rule_set_named",
    "success_probability",
    "type_named",
]


def __getattr__(name: str) -> Any:
    """A name of :data:`_LATER`, from its module, or one of those modules itself (imported now if not yet)."""
    if name in _LATER.values():
        return import_module(f"{__name__}.{name}")
    module = _LATER.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """The package's names, those loaded when first asked for included."""
    return sorted({*globals(), *__all__})

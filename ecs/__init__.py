"""esper-motion's framework core: World, phases, systems, events, dice and odds, hex grid, errors.

It knows no movement rule; those live in ``esper_motion.systems``. Its modules import one way when imported: the
links between entities, persistence and the registry of names know the world, and the world's module imports none of
them. ``World`` is the facade over the links and persistence: its spawn, add, step checks, save, load and restore
call them, importing them inside those methods when called (docs/architecture.md > Layers and imports).
"""

from __future__ import annotations

from esper_motion.ecs import hexgrid
from esper_motion.ecs._context import duplicate
from esper_motion.ecs.damage import Damage
from esper_motion.ecs.dice import (
    Dice,
    Roll,
    SuccessRoll,
    critical_failure_probability,
    critical_success_probability,
    success_probability,
)
from esper_motion.ecs.errors import HandlerError, IntentError, MotionError, RuleValueError, WorldError
from esper_motion.ecs.events import Event, RollMade
from esper_motion.ecs.hexgrid import Hex
from esper_motion.ecs.links import Consistent, LinkError, LinkView, check_links
from esper_motion.ecs.persist import Linked, SaveError
from esper_motion.ecs.phase import Phase
from esper_motion.ecs.registry import (
    NewFields,
    RuleSet,
    SavedSystem,
    SceneSupport,
    added_fields,
    name_of,
    register,
    register_rule_set,
    register_system,
    registered_rule_sets,
    rule_set_named,
    system_named,
    type_named,
    unsaved,
)
from esper_motion.ecs.validate import LARGEST_WHOLE, check_bool, check_choice, check_int, check_number, recheck
from esper_motion.ecs.world import System, World, declare_members

__all__ = [
    "LARGEST_WHOLE",
    "Consistent",
    "Damage",
    "Dice",
    "Event",
    "HandlerError",
    "Hex",
    "IntentError",
    "LinkError",
    "LinkView",
    "Linked",
    "MotionError",
    "NewFields",
    "Phase",
    "Roll",
    "RollMade",
    "RuleSet",
    "RuleValueError",
    "SaveError",
    "SavedSystem",
    "SceneSupport",
    "SuccessRoll",
    "System",
    "World",
    "WorldError",
    "added_fields",
    "check_bool",
    "check_choice",
    "check_int",
    "check_links",
    "check_number",
    "critical_failure_probability",
    "critical_success_probability",
    "declare_members",
    "duplicate",
    "hexgrid",
    "name_of",
    "recheck",
    "register",
    "register_rule_set",
    "register_system",
    "registered_rule_sets",
    "rule_set_named",
    "success_probability",
    "system_named",
    "type_named",
    "unsaved",
]

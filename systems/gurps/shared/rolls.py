"""The rolls every GURPS section makes: each draws the world's dice and reports them with one
:class:`~esper_motion.ecs.events.RollMade`."""

from __future__ import annotations

from collections.abc import Iterable

from esper_motion.components.gurps import Condition, Mover, Skills
from esper_motion.ecs import Roll, RollMade, SuccessRoll, World, WorldError
from esper_motion.ecs.dice import modified


def skill_level(world: World, entity: int, skill: str) -> int:
    """The entity's level in ``skill``; a clear error when it has none (no defaults are assumed)."""
    skills = world.try_get(entity, Skills)
    level = skills.level(skill) if skills is not None else None
    if level is None:
        raise WorldError(f"entity {entity} has no {skill} skill: set Skills.levels[{skill!r}]")
    return level


def best_skill(world: World, entity: int, names: Iterable[str]) -> tuple[str, int] | None:
    """The entity's best skill among ``names`` as ``(name, level)``, or None when it has none of them."""
    skills = world.try_get(entity, Skills)
    if skills is None:
        return None
    found = [(level, name) for name in names if (level := skills.level(name)) is not None]
    if not found:
        return None
    level, name = max(found, key=lambda pair: (pair[0], pair[1]))
    return name, level


def shock(world: World, entity: int) -> int:
    """This turn's shock penalty (``Condition.shock``, 0 without a ``Condition``): it counts against DX- and
    IQ-based rolls (docs/architecture.md > Facts the rules lean on)."""
    condition = world.try_get(entity, Condition)
    return condition.shock if condition is not None else 0


def success_roll(world: World, entity: int, target: int, label: str, purpose: str, *, modifier: int = 0) -> SuccessRoll:
    """Roll 3d6 for ``entity`` against ``target`` plus ``modifier`` (the label shows the modifier, e.g. ``DX-3``),
    reported with a ``RollMade`` saying ``purpose``."""
    result = world.dice.success(target + modifier, modified(label, modifier))
    world.emit(RollMade(entity, purpose, result))
    return result


def skill_roll(world: World, entity: int, skill: str, modifier: int, purpose: str) -> SuccessRoll:
    """Roll ``entity``'s ``skill`` (``"DX"``: its ``Mover.dx``, 10 without a ``Mover``) plus ``modifier`` and its
    shock (:func:`success_roll`)."""
    if skill == "DX":
        mover = world.try_get(entity, Mover)
        level = mover.dx if mover is not None else 10
    else:
        level = skill_level(world, entity, skill)
    return success_roll(world, entity, level, skill, purpose, modifier=modifier + shock(world, entity))


def dice_roll(world: World, entity: int, expression: str, purpose: str) -> Roll:
    """Roll the dice ``expression`` for ``entity`` (damage, a table, a count of seconds), reported with a
    ``RollMade`` saying ``purpose``."""
    roll = world.dice.roll(expression)
    world.emit(RollMade(entity, purpose, roll))
    return roll

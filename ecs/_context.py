"""The few places that reach into esper 3.9's per-context storage.

esper keeps one set of module globals per world context and swaps them in ``switch_world``. A World needs
two things esper has no public call for: the next entity id (to restore it after a failed step or a load)
and a copy of the entity table (to undo a failed step). Both live here, and only here.
"""

from __future__ import annotations

import copy
import itertools
import types
import typing
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import fields, is_dataclass
from enum import Enum
from operator import attrgetter
from typing import Any, Final, NamedTuple, TypeVar

import esper

C = TypeVar("C")


@contextmanager
def active(name: str) -> Iterator[None]:
    """Make esper context ``name`` current for the block, then restore whichever context was current."""
    previous = esper.current_world
    if previous == name:
        yield
        return
    esper.switch_world(name)
    try:
        yield
    finally:
        esper.switch_world(previous)


def peek_next_entity() -> int:
    """The id the active context will give its next entity (without using it up)."""
    following = next(esper._entity_count)
    esper._entity_count = itertools.count(following)
    return following


def set_next_entity(entity: int) -> None:
    """Make the active context give ``entity`` as its next id."""
    esper._entity_count = itertools.count(entity)


def entity_table() -> dict[int, dict[type[Any], Any]]:
    """The active context's entity table: entity id -> {component type: component}. Read only."""
    return esper._entities


def component(entity: int, component_type: type[C]) -> C | None:
    """The active context's component of ``component_type`` on ``entity``, or None (also for a dead entity)."""
    table = esper._entities.get(entity)
    if table is None or entity in esper._dead_entities:
        return None
    found: C | None = table.get(component_type)
    return found


_IMMUTABLE_TYPES: Final = frozenset({int, float, complex, str, bytes, bool, type(None)})
_CONTAINERS: Final = (list, dict, set)


def _immutable(hint: Any) -> bool:
    """Whether a value of the annotated type ``hint`` can never change in place: a number, string, bool,
    None, enum member, literal, or a tuple, frozenset or union of those."""
    if hint in _IMMUTABLE_TYPES:
        return True
    if isinstance(hint, type):
        return issubclass(hint, Enum)
    origin = typing.get_origin(hint)
    if origin is typing.Literal:
        return True
    if origin in (tuple, frozenset, typing.Union, types.UnionType):
        return all(arg is Ellipsis or _immutable(arg) for arg in typing.get_args(hint))
    return False


class _Plan(NamedTuple):
    """How to keep the values of one dataclass component type: its field names, and ``take``, which gives one
    component's values in that order."""

    names: tuple[str, ...]
    take: Callable[[Any], Sequence[Any]]


def _make_plan(kind: type[Any]) -> _Plan | None:
    """Read a dataclass component type's annotations: fields declared immutable are kept as they are, containers
    of immutable values (``list[Hex]``, ``dict[str, int]``) copied one level down, anything else deep-copied.
    None for any other type, or a dataclass whose annotations cannot be resolved."""
    if not is_dataclass(kind):
        return None
    try:
        hints = typing.get_type_hints(kind)
    except (NameError, TypeError):
        return None
    names = tuple(item.name for item in fields(kind))
    shallow, deep = [], []
    for index, name in enumerate(names):
        hint = hints.get(name)
        if _immutable(hint):
            continue
        if typing.get_origin(hint) in _CONTAINERS and all(_immutable(arg) for arg in typing.get_args(hint)):
            shallow.append(index)
        else:
            deep.append(index)
    get = _getter(names)
    if not shallow and not deep:
        return _Plan(names, get)

    def take(component: Any) -> list[Any]:
        values = list(get(component))
        for index in shallow:
            value = values[index]
            values[index] = value.copy() if type(value) in _CONTAINERS else copy.deepcopy(value)
        for index in deep:
            values[index] = copy.deepcopy(values[index])
        return values

    return _Plan(names, take)


def _getter(names: tuple[str, ...]) -> Callable[[Any], Sequence[Any]]:
    """The values of ``names`` as a tuple (``attrgetter`` gives a bare value for one name and fails for none)."""
    if len(names) > 1:
        return attrgetter(*names)
    return lambda component: tuple(getattr(component, name) for name in names)


_PLANS: dict[type[Any], _Plan | None] = {}
"""Each component type's plan, worked out the first time a snapshot meets the type (types do not change)."""

_TAKERS: dict[type[Any], Callable[[Any], Sequence[Any]]] = {}
"""What a snapshot keeps of a component of each type: its plan's ``take``, or a deep copy of a non-dataclass."""


def _taker(kind: type[Any]) -> Callable[[Any], Sequence[Any]]:
    plan = _PLANS[kind] = _make_plan(kind)
    taker = _TAKERS[kind] = plan.take if plan is not None else _deep_copy
    return taker


def _deep_copy(component: Any) -> tuple[Any]:
    return (copy.deepcopy(component),)


Snapshot = tuple[int, list[Any], list[Any], set[int]]
"""The id counter; the layout (for each entity: its id, its number of components, their types, the component
objects); every component's kept values, one after another in layout order; the dead list."""


def snapshot() -> Snapshot:
    """What it takes to undo a step: the id counter, every component object with a copy of its values, and the
    dead list.

    A dataclass component keeps its field values: those its annotations declare immutable (numbers, strings,
    enums, tuples of them) as they are, containers of immutable values copied one level down, anything else
    deep-copied (:func:`_make_plan`). That makes it cheap enough to take every turn; a game that keeps mutable
    objects in a field must declare the field as what it holds. Any other component is deep-copied whole.

    Everything goes into two flat lists rather than an object per entity or component: what the snapshot
    holds through the turn is then a handful of objects for Python's garbage collector to look at, not tens of
    thousands.
    """
    takers = _TAKERS
    layout: list[Any] = []
    kept: list[Any] = []
    for entity, table in esper._entities.items():
        layout.append(entity)
        layout.append(len(table))
        layout.extend(table)
        layout.extend(table.values())
        for component in table.values():
            kept.extend((takers.get(type(component)) or _taker(type(component)))(component))
    return peek_next_entity(), layout, kept, set(esper._dead_entities)


def _put_back(original: Any, saved: Any) -> Any:
    """Give ``original`` the values the snapshot kept, so references a game holds stay live."""
    plan = _PLANS.get(type(original))
    if plan is not None:
        for name, value in zip(plan.names, saved, strict=True):
            object.__setattr__(original, name, value)
        return original
    (copied,) = saved
    if is_dataclass(original) and not isinstance(original, type):
        for item in fields(original):
            object.__setattr__(original, item.name, getattr(copied, item.name))
        return original
    if hasattr(original, "__dict__"):
        original.__dict__.clear()
        original.__dict__.update(copied.__dict__)
        return original
    return copied


def restore(saved: Snapshot) -> None:
    """Put back what :func:`snapshot` took: every entity, every component's values, the id counter.

    Component objects that existed at the snapshot are refilled in place rather than replaced, so a
    component a game fetched before a failed step is still the one in the world afterwards.
    """
    following, layout, kept, dead = saved
    entities: dict[int, dict[type[Any], Any]] = {}
    at = taken = 0
    while at < len(layout):
        entity, count = layout[at], layout[at + 1]
        kinds = layout[at + 2 : at + 2 + count]
        components = layout[at + 2 + count : at + 2 + 2 * count]
        at += 2 + 2 * count
        table = entities[entity] = {}
        for kind, component in zip(kinds, components, strict=True):
            plan = _PLANS[type(component)]
            size = len(plan.names) if plan is not None else 1
            table[kind] = _put_back(component, kept[taken : taken + size])
            taken += size
    replace(following, entities)
    esper._dead_entities.update(dead)


def replace(following: int, entities: dict[int, dict[type[Any], Any]]) -> None:
    """Make ``entities`` (id -> {type: component}) the active context's whole table, next id ``following``."""
    esper.clear_database()
    for entity, table in entities.items():
        esper._entities[entity] = table
        for component_type in table:
            esper._components.setdefault(component_type, set()).add(entity)
    set_next_entity(following)
    esper.clear_cache()

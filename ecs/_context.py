"""The few places that reach into esper 3.9's per-context storage.

esper keeps one set of module globals per world context and swaps them in ``switch_world``. A World needs
two things esper has no public call for: the next entity id (to restore it after a failed step or a load)
and a copy of the entity table (to undo a failed step). Both live here, and only here.
"""

from __future__ import annotations

import copy
import itertools
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import fields, is_dataclass
from typing import Any, TypeVar

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


Snapshot = tuple[int, dict[int, dict[type[Any], Any]], dict[int, dict[type[Any], Any]], set[int]]


def component(entity: int, component_type: type[C]) -> C | None:
    """The active context's component of ``component_type`` on ``entity``, or None (also for a dead entity)."""
    table = esper._entities.get(entity)
    if table is None or entity in esper._dead_entities:
        return None
    found: C | None = table.get(component_type)
    return found


def snapshot() -> Snapshot:
    """The id counter, the component objects themselves, deep copies of their values, and the dead list."""
    originals = {entity: dict(components) for entity, components in esper._entities.items()}
    return peek_next_entity(), originals, copy.deepcopy(originals), set(esper._dead_entities)


def _put_back(original: Any, saved: Any) -> Any:
    """Give ``original`` the values of its saved copy, so references a game holds stay live."""
    if is_dataclass(original) and not isinstance(original, type):
        for item in fields(original):
            object.__setattr__(original, item.name, getattr(saved, item.name))
        return original
    if hasattr(original, "__dict__"):
        original.__dict__.clear()
        original.__dict__.update(saved.__dict__)
        return original
    return saved


def restore(saved: Snapshot) -> None:
    """Put back what :func:`snapshot` took: every entity, every component's values, the id counter.

    Component objects that existed at the snapshot are refilled in place rather than replaced, so a
    component a game fetched before a failed step is still the one in the world afterwards.
    """
    following, originals, copies, dead = saved
    replace(
        following,
        {
            entity: {kind: _put_back(originals[entity][kind], value) for kind, value in components.items()}
            for entity, components in copies.items()
        },
    )
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

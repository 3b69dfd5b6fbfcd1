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
from typing import Any

import esper


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


def snapshot() -> tuple[int, dict[int, dict[type[Any], Any]], set[int]]:
    """A deep copy of the active context's entities, dead-entity list and id counter."""
    return peek_next_entity(), copy.deepcopy(esper._entities), set(esper._dead_entities)


def restore(saved: tuple[int, dict[int, dict[type[Any], Any]], set[int]]) -> None:
    """Put back what :func:`snapshot` copied: every entity, every component, the id counter."""
    following, entities, dead = saved
    esper.clear_database()
    for entity, components in entities.items():
        esper._entities[entity] = components
        for component_type in components:
            esper._components.setdefault(component_type, set()).add(entity)
    esper._dead_entities.update(dead)
    set_next_entity(following)
    esper.clear_cache()

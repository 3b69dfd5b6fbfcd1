"""The few places that reach into esper 3.9's per-context storage.

esper keeps one set of module globals per world context and swaps them in ``switch_world``. A World needs
two things esper has no public call for: the next entity id (to restore it after a failed step or a load)
and a copy of the entity table (to undo a failed step). Both live here, and only here.
"""

from __future__ import annotations

import copy
import dataclasses
import itertools
import weakref
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from operator import attrgetter, itemgetter
from typing import Any, Final, NamedTuple, TypeVar

import esper

from esper_motion.ecs import fields, watch
from esper_motion.ecs.errors import WorldError

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


class _Keeper:
    """Never a processor: kept in a context's own table of processors (which ``esper.process()`` never runs: it runs
    the list of them), so that it goes with the context when the context is deleted."""

    __slots__ = ("__weakref__",)


def when_deleted(callback: Callable[[], None]) -> Callable[[], None]:
    """Call ``callback()`` once the active esper context is deleted (``esper.delete_world``), at once, without a
    look at every use; return what stops that (for a world that leaves a game's context to the game)."""
    keeper = _Keeper()
    kept: dict[Any, Any] = esper._processors_dict
    kept[keeper] = keeper
    notice = weakref.finalize(keeper, callback)
    name = esper.current_world

    def stop() -> None:
        held = notice.detach()  # None once the context is gone
        if held is not None:
            with active(name):
                table: dict[Any, Any] = esper._processors_dict
                table.pop(held[0], None)

    return stop


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


def entities_with(kind: type[Any]) -> set[int]:
    """The active context's entities holding a component of ``kind`` (esper's own set: read only)."""
    return esper._components.get(kind, _NONE)


_NONE: Final[set[int]] = set()


def component_sets() -> dict[type[Any], set[int]]:
    """The active context's entities by component type: esper's own table, which holds a type only while some entity
    holds a component of it (read only)."""
    return esper._components


class _Structure:
    """Never a component: esper's cached list of its rows (always empty) is one more entry of esper's query cache,
    which esper drops whole whenever an entity or a component comes or goes in the context."""


class Created:
    """Never a component: the type :func:`reshaping` counts as touched when an entity is created, so that a token of
    :func:`structure` given it changes with every entity made."""


def structure(*kinds: type[Any]) -> list[Any]:
    """A token of the active context's structure: the very same object until an entity or a component is added,
    removed or replaced anywhere in it (compare by identity), a new one after. Given ``kinds``, until a component of
    one of those types is added, removed or replaced (an entity holding one created or deleted): the token of what
    a check reading only those types depends on."""
    if not kinds:
        return esper.get_component(_Structure)
    return esper.get_components(_Structure, *kinds)  # always empty: dropped with the queries of ``kinds``


@contextmanager
def reshaping() -> Iterator[set[type[Any]]]:
    """Around changes of structure that add, remove or replace components of the types the block puts in the set it
    is given (and may create entities with no components): esper drops every cached query at any such change, and
    this keeps those that involve none of those types, so a game's own tag coming and going leaves the rules' queries,
    and what is built on them, as they are. A cache esper had already marked stale (a game's own esper calls) is left
    stale. The active context is the one changed."""
    clean = not esper._cache_dirty
    touched: set[type[Any]] = set()
    yield touched
    if clean and esper._cache_dirty:
        single: dict[type[Any], Any] = esper._get_component_cache
        single.pop(_Structure, None)
        for kind in touched:
            single.pop(kind, None)
        if touched:
            several: dict[tuple[type[Any], ...], Any] = esper._get_components_cache
            for key in [key for key in several if not touched.isdisjoint(key)]:
                del several[key]
        esper._cache_dirty = False


def clear_dead(touched: set[type[Any]]) -> None:
    """Delete the active context's entities deleted lazily (``esper.delete_entity``), adding the types of their
    components to ``touched`` (:func:`reshaping`)."""
    dead = esper._dead_entities
    if dead:
        entities = esper._entities
        for entity in dead:
            touched.update(entities[entity])
        esper.clear_dead_entities()


def dead_entities() -> set[int]:
    """The active context's entities deleted lazily and not yet removed. Read only."""
    return esper._dead_entities


def component(entity: int, component_type: type[C]) -> C | None:
    """The active context's component of ``component_type`` on ``entity``, or None (also for a dead entity)."""
    table = esper._entities.get(entity)
    if table is None or entity in esper._dead_entities:
        return None
    found: C | None = table.get(component_type)
    return found


def _same(value: Any) -> Any:
    return value


def _copier(kind: fields.Kind, where: str) -> Callable[[Any], Any]:
    """A function giving an exact, independent copy of a value of ``kind``, copying only what can change in place:
    lists, sets, dicts and tuples of them, unions with None, non-frozen dataclasses of such fields. A kind whose
    values can change in place in ways no copy follows (a union of two or more such kinds, a frozenset of them)
    cannot be rolled back exactly: a clear error naming ``where``."""
    if not kind.mutable:
        return _same
    match kind:
        case fields.ListOf(item=item) | fields.SetOf(item=item, frozen=False):
            each, container = _copier(item, where), list if isinstance(kind, fields.ListOf) else set
            return container.copy if each is _same else lambda value: container(each(one) for one in value)
        case fields.DictOf(key=key, value=val):
            keys, vals = _copier(key, where), _copier(val, where)
            if keys is _same and vals is _same:
                return dict.copy
            return lambda value: {keys(k): vals(v) for k, v in value.items()}
        case fields.TupleOf(items=(), rest=rest) if rest is not None:
            one = _copier(rest, where)
            return lambda value: tuple(one(item) for item in value)
        case fields.TupleOf(items=items):
            parts = [_copier(item, where) for item in items]
            return lambda value: tuple(part(item) for part, item in zip(parts, value, strict=True))
        case fields.OptionalOf(inner=inner):
            within = _copier(inner, where)
            return lambda value: None if value is None else within(value)
        case fields.DataclassOf(plan=plan):
            copies = _copies(plan, where)

            def copy_dataclass(value: Any) -> Any:
                duplicate = copy.copy(value)
                for name, copier in copies:
                    object.__setattr__(duplicate, name, copier(getattr(value, name)))
                return duplicate

            return copy_dataclass
    raise _refused(where, kind.declared)


def _refused(where: str, declared: Any) -> WorldError:
    return WorldError(
        f"{where}: a field declared {declared!r} cannot be put back exactly after a failed step; declare it as "
        "numbers, strings, enums, or lists, dicts, sets, tuples and dataclasses of them"
    )


def _copies(plan: fields.Plan, where: str) -> tuple[tuple[str, Callable[[Any], Any]], ...]:
    """For each field of ``plan`` whose value can change in place, its name and the function that copies it."""
    return tuple(
        (field.name, _copier(field.kind, f"{where}.{field.name}")) for field in plan.fields if field.kind.mutable
    )


class _Plan(NamedTuple):
    """How to keep the values of one registered component type: its field names; ``take``, which gives one
    component's values in that order as a tuple (a bare value for a type of one field), as they are; and for each
    field whose value can change in place, its name and the function that copies it."""

    names: tuple[str, ...]
    take: Callable[[Any], Any]
    copies: tuple[tuple[str, Callable[[Any], Any]], ...]


def _make_plan(kind: type[Any]) -> _Plan:
    """The undo copy's plan of a registered dataclass type, from its field plan (:func:`esper_motion.ecs.fields.plan`):
    the fields that cannot change in place kept as they are, the others copied by :func:`_copier`."""
    try:
        read = fields.plan(kind)
    except fields.FieldTypeError as error:
        if error.declared is None:
            raise WorldError(str(error)) from None
        raise _refused(".".join((error.steps[0][0], *(name for _, name in error.steps))), error.declared) from None
    return _Plan(read.names, attrgetter(*read.names), _copies(read, kind.__name__))


_PLANS: dict[type[Any], _Plan | None] = {}
"""Each component type's plan, worked out the first time a snapshot meets the type (types do not change); None
for a type whose components are never rolled back (not registered, not a dataclass, or without fields)."""


def _plan(kind: type[Any]) -> _Plan | None:
    if kind not in _PLANS:
        keep = kind in watch.looked_after and dataclasses.is_dataclass(kind) and bool(dataclasses.fields(kind))
        _PLANS[kind] = _make_plan(kind) if keep else None
    return _PLANS[kind]


def holds_containers(kind: type[Any]) -> bool:
    """Whether components of ``kind`` are registered dataclasses with fields that can change in place (lists,
    dicts, sets...) and that a copy follows exactly."""
    return bool(_kept_fields(kind))


_KEPT: dict[type[Any], tuple[tuple[str, Callable[[Any], Any]], ...]] = {}


def _kept_fields(kind: type[Any]) -> tuple[tuple[str, Callable[[Any], Any]], ...]:
    """For each field of ``kind`` that can change in place, its name and what keeps its value for
    :func:`contents`: a list as a tuple (which Python's garbage collector soon stops looking at, where thousands of
    lists kept from turn to turn would make its full collections come sooner), anything else as the undo copy
    copies it. None for a type with no such field, or whose fields no copy follows (the undo copy refuses it)."""
    found = _KEPT.get(kind)
    if found is None:
        try:
            plan = _PLANS[kind] if kind in _PLANS else _plan(kind)
        except WorldError:
            plan = None
        copies = plan.copies if plan is not None else ()
        found = _KEPT[kind] = tuple((name, tuple if copier is list.copy else copier) for name, copier in copies)
    return found


Contents = list[tuple[tuple[tuple[str, Callable[[Any], Any]], ...], list[Any], list[list[Any]]]]
"""What :func:`contents` keeps: for each component type, the names of its fields that can change in place with
what keeps their values, its components, and for each such field the values kept."""


def contents() -> Contents:
    """What the fields that can change in place hold, for every registered component of the active context: what
    :func:`changed_in_place` compares with. It goes one type at a time, through C-level maps, as :func:`snapshot`
    does."""
    kept: Contents = []
    for kind in esper._components:
        keeps = _kept_fields(kind)
        if not keeps:
            continue
        components = held(kind)
        kept.append((keeps, components, [_keep_all(keep, map(attrgetter(name), components)) for name, keep in keeps]))
    return kept


def _keep_all(keep: Callable[[Any], Any], values: Iterable[Any]) -> list[Any]:
    """``keep`` of each of ``values``; for a value of another type than its field's (a game's write not yet
    checked), something equal to nothing else, so that its component is checked."""
    values = list(values)
    try:
        return list(map(keep, values))
    except Exception:
        return [_kept_or_unequal(keep, value) for value in values]


def _kept_or_unequal(keep: Callable[[Any], Any], value: Any) -> Any:
    try:
        return keep(value)
    except Exception:
        return object()


def changed_in_place(kept: Contents) -> list[Any]:
    """The components of ``kept`` whose lists, dicts or sets hold other values than they did then (compared
    through C-level maps; one whose values cannot be compared counts as changed)."""
    found = []
    for keeps, components, values in kept:
        for (name, keep), before in zip(keeps, values, strict=True):
            now = _keep_all(keep, map(attrgetter(name), components))
            try:
                if now == before:
                    continue
            except Exception:  # a value whose comparison raises: its component's checks say what it is
                found.extend(components)
                continue
            found.extend(_differing(components, now, before))
    return found


def _differing(components: list[Any], now: list[Any], before: list[Any]) -> list[Any]:
    found = []
    for component, value, kept in zip(components, now, before, strict=True):
        try:
            same = value == kept
        except Exception:  # as above
            same = False
        if not same:
            found.append(component)
    return found


def duplicate(component: C) -> C:
    """An exact, independent copy of registered dataclass ``component``, made without its constructor: the fields
    that can change in place (lists, dicts, sets...) copied by their declared types, as the undo copy keeps them,
    the others shared. For a component whose values have passed its checks already (a scene's blueprint, built once
    with every check, copies its components into each new world)."""
    kind = type(component)
    plan = _plan(kind)
    if plan is None and kind in watch.looked_after and dataclasses.is_dataclass(kind) and not dataclasses.fields(kind):
        return kind()  # a registered component with no fields (a Hold goal): nothing to copy, nothing to check
    if plan is None:
        raise WorldError(
            f"{kind.__name__} is not a registered dataclass component with fields: it cannot be duplicated"
        )
    twin = object.__new__(kind)
    put = object.__setattr__
    for name in plan.names:
        put(twin, name, getattr(component, name))
    for name, copier in plan.copies:
        put(twin, name, copier(getattr(component, name)))
    return twin


class Snapshot(NamedTuple):
    """What :func:`snapshot` keeps: the id counter; each entity's table as it was (a copy of the dict, holding the
    same component objects); for each registered component type, its plan, its components, their values (what
    ``take`` gave, in the same order) and, for each field that can change in place, the copies of its values; and
    the dead list."""

    following: int
    tables: dict[int, dict[type[Any], Any]]
    kept: list[tuple[_Plan, list[Any], list[Any], list[list[Any]]]]
    dead: set[int]


_second = itemgetter(1)


def held(kind: type[Any]) -> list[Any]:
    """The active context's components of ``kind``, in the order esper's query of it gives them: from esper's
    cached rows when a query made them, else straight from its tables, without making rows that would stay in its
    cache (a few dozen bytes an entity for each type)."""
    cached = None if esper._cache_dirty else esper._get_component_cache.get(kind)
    if cached is not None:
        return list(map(_second, cached))
    return list(map(itemgetter(kind), map(esper._entities.__getitem__, esper._components.get(kind, _NONE))))


def snapshot() -> Snapshot:
    """What it takes to undo a step: the id counter, every entity's table of component objects, a copy of the field
    values of each registered component, and the dead list.

    A registered dataclass component keeps its field values: those its annotations declare immutable (numbers,
    strings, enums, tuples of them) as they are, the others copied by their declared types (:func:`_copier`).
    Components of other types are kept as objects only: the undo leaves their contents as the step left them.

    It goes one component type at a time, through C-level maps (``attrgetter`` and the copiers of lists, sets and
    dicts), never a Python call per component or entity for the common types: at 10,000 entities it copies some
    70,000 components every turn. What it holds through the turn is a few lists per type for Python's garbage
    collector to look at, and the tables.
    """
    entities = esper._entities
    tables = dict(zip(entities, map(dict.copy, entities.values()), strict=True))
    kept = []
    for kind in esper._components:
        plan = _PLANS[kind] if kind in _PLANS else _plan(kind)
        if plan is None:
            continue
        components = held(kind)
        copies = [list(map(copier, map(attrgetter(name), components))) for name, copier in plan.copies]
        kept.append((plan, components, list(map(plan.take, components)), copies))
    return Snapshot(peek_next_entity(), tables, kept, set(esper._dead_entities))


def restore(saved: Snapshot) -> None:
    """Put back what :func:`snapshot` took: every entity with its component objects, every registered
    component's values, the id counter.

    Component objects are never replaced: those that existed at the snapshot are refilled in place, so a
    component a game fetched before a failed step is still the one in the world afterwards.
    """
    put = object.__setattr__
    for plan, components, values, copies in saved.kept:
        if len(plan.names) == 1:
            (name,) = plan.names
            for component, value in zip(components, values, strict=True):
                put(component, name, value)
        else:
            for component, row in zip(components, values, strict=True):
                for name, value in zip(plan.names, row, strict=True):
                    put(component, name, value)
        for (name, _), copied in zip(plan.copies, copies, strict=True):  # the snapshot's own copies, used once
            for component, value in zip(components, copied, strict=True):
                put(component, name, value)
    replace(saved.following, saved.tables)
    esper._dead_entities.update(saved.dead)


def replace(following: int, entities: dict[int, dict[type[Any], Any]]) -> None:
    """Make ``entities`` (id -> {type: component}) the active context's whole table, next id ``following``."""
    esper.clear_database()
    for entity, table in entities.items():
        esper._entities[entity] = table
        for component_type in table:
            esper._components.setdefault(component_type, set()).add(entity)
    set_next_entity(following)
    esper.clear_cache()

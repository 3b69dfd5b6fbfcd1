"""Saving a World as JSON and loading it back: data only, checked field by field, written atomically.

A save is one JSON object (format version 3)::

    {"format": "esper-motion save", "version": 3, "turn": 3, "next_entity": 4,
     "dice": {"version": 3, "random": [625 whole numbers], "gauss": null, "script": [4, 2]},
     "rules": {"gurps": {"module": "esper_motion.systems.gurps",
                         "options": {"turning_radius": "basic", "control": "basic", ...}}},
     "entities": [{"id": 1, "components": {"Position": {"q": 0, "r": 0, "altitude_yd": 0.0},
                                           "Velocity": {"yps": 3, "heading": 0}}},
                  {"id": 3, "components": {}}],
     "systems": [{"system": "demos.ScriptSystem", "data": {"path": "sprint.toml", ...}}, {"rules": "gurps"}]}

- ``turn`` is ``World.turn``; ``next_entity`` the id the next spawn gets; ``dice`` is ``Dice.getstate()``.
- ``rules`` holds the installed rule sets by name, in install order, each with its options' fields. ``module`` is
  where its install function lived when saved; it is only named in the error for a rule set that no
  imported package has registered (see :func:`esper_motion.ecs.registry.register_rule_set`), never imported.
- ``entities`` lists every live entity of the world's esper context in creation order, with every
  component under its registered name (:func:`esper_motion.ecs.register`) and every dataclass field.
- ``systems`` lists every system of ``World.systems`` in the order they run: the systems a rule set installs as
  one ``{"rules": name}`` where the first of them stands, any other as its name and data registered with
  :func:`esper_motion.ecs.register_system`. A system neither accounts for cannot be saved: the save is refused,
  naming it. Version 1 files, which have no ``systems``, load with their rule sets in install order.
- A field added in a later version (declared where its class is registered:
  :func:`~esper_motion.ecs.registry.added_fields`) may be absent from an older save: it loads with its default.
  Any other absent field, or one without a default, is refused by name.
  :meth:`World.restore` keeps the world's own systems and reads no system data.
- Queued changes exist only inside a step, and saving or restoring inside a step is refused, so a save
  never holds any. The events of the last step, event handlers and the game's plain esper processors are not
  saved: they belong to the game's code, which sets them up again after :meth:`World.load`.

Fields are written by their declared types, as :func:`esper_motion.ecs.fields.plan` reads them: ``int``,
``float``, ``bool``, ``str``, ``None``, ``X | None``, Enums with string values (by value), ``tuple[X, Y]`` and
``tuple[X, ...]``, ``list[X]``, ``dict[str, X]``, and nested dataclasses, which are written as objects of their fields.
A field of any other type cannot be saved; the error names the component and the field.

Loading reads the file with ``json`` alone and builds only registered classes, through their
constructors, so every component validates itself again. Anything wrong (a newer format, a truncated or
malformed file, an unknown component or rule set, a missing, unknown or mistyped field, a value a component
refuses, a link to a missing entity) raises :class:`SaveError` naming the file, the entity, the component
and the field, before the world is touched.

Links between entities: a component that holds entity ids defines ``links()`` returning them (see
:class:`Linked`). Every id it returns must be an entity of the same save. Saving checks this too, so a
world whose links dangle (a rider whose mount was despawned between steps) is refused when saved, not
when loaded; the next step lets its rules deal with the missing entity.

Writing is atomic: the text goes to a temporary file in the same directory, is flushed and synced to
disk, and replaces the old save in one rename, so a crash mid-save leaves the previous save whole. A save
through a symbolic link replaces the link's target and keeps the link; the file keeps its permission bits; a
temporary file left by a save that was killed is removed by the next save to the same file.

A save never writes what loading would refuse: every component's constructor checks run again on its present
fields (:func:`esper_motion.ecs.recheck`), and the links are checked as loading checks them
(:func:`esper_motion.ecs.check_links`). A refused save raises :class:`SaveError` and leaves the old file as it was.
"""

from __future__ import annotations

import bisect
import contextlib
import enum
import json
import math
import os
import re
import secrets
import stat
import typing
from collections.abc import Container, Iterable
from dataclasses import dataclass
from typing import Any, Final, Protocol, runtime_checkable

import esper

from esper_motion.ecs import _context, fields, links
from esper_motion.ecs.dice import Dice
from esper_motion.ecs.errors import RuleValueError, WorldError, cut, shown
from esper_motion.ecs.registry import (
    added_fields,
    is_unsaved,
    name_of,
    rule_set_named,
    saved_system_of,
    system_named,
    type_named,
)
from esper_motion.ecs.validate import LARGEST_WHOLE, recheck
from esper_motion.ecs.world import System, World

FORMAT: Final = "esper-motion save"
"""The value of a save file's ``format`` key."""

VERSION: Final = 3
"""The format version this code writes, and the newest it reads."""


def _added_since(version: int, label: str) -> frozenset[str]:
    """The fields of ``label`` (a registered component name, or ``rules.<rule set>``) that a save of ``version``
    may lack: those a later version added (:func:`~esper_motion.ecs.registry.added_fields`)."""
    return frozenset(name for name, added in added_fields(label).items() if added > version)


MAX_SAVE_BYTES: Final = 256 * 2**20
"""The largest save file read, in bytes (256 MiB)."""

_KEYS_1: Final = ("format", "version", "turn", "next_entity", "dice", "rules", "entities")
_KEYS: Final = (*_KEYS_1, "systems")


class SaveError(WorldError):
    """A save file that cannot be written or read, and where: file, entity, component, field.

    ``entity``, ``component`` and ``field`` are None where they do not apply (a truncated file has no entity);
    ``value`` is the refused value where a component's own checks or a link refused it (the message shows it too).

    >>> str(SaveError("game.json", "expected a whole number, got 'x'", entity=3, component="Position", field="q"))
    "game.json: entity 3: Position.q: expected a whole number, got 'x'"
    """

    def __init__(
        self,
        file: str,
        problem: str,
        *,
        entity: int | None = None,
        component: str | None = None,
        field: str | None = None,
        value: Any = None,
    ) -> None:
        self.file = file
        self.value = value
        self.problem = problem
        self.entity = entity
        self.component = component
        self.field = field
        place = [file]
        if entity is not None:
            place.append(f"entity {entity}")
        where = ".".join(cut(part) for part in (component, field) if part)
        if where:
            place.append(where)
        super().__init__(f"{': '.join(place)}: {problem}")


@runtime_checkable
class Linked(Protocol):
    """A component that refers to other entities by id, for instance a rider to its mount.

    Saving and loading check that every id ``links()`` returns is an entity of the same world.
    """

    def links(self) -> Iterable[int]:
        """The ids of the entities this component refers to."""
        ...


@dataclass(frozen=True, slots=True)
class _Saved:
    """A save file read and checked in full, ready to become a world's contents."""

    turn: int
    next_entity: int
    dice: dict[str, object]
    rules: dict[str, Any]
    entities: dict[int, dict[type[Any], Any]]
    systems: tuple[str | System, ...]
    """In the order they run: a rule set's name (its install adds its systems) or a system restored from its data."""


class _FieldError(Exception):
    """A value that does not fit its declared type, at ``where`` (a field path such as ``path[2][0]``)."""

    def __init__(self, where: str, message: str) -> None:
        super().__init__(message)
        self.where = where
        self.message = message


def _join(where: str, name: str) -> str:
    return f"{where}.{name}" if where else name


# -- codecs: one per declared field type ------------------------------------------------------


class _Codec(Protocol):
    def encode(self, value: Any, where: str) -> Any: ...

    def decode(self, data: Any, where: str) -> Any: ...


class _Exact:
    """``int``, ``bool``, ``str`` or ``None``: written as itself, of exactly that kind (a bool is no int)."""

    __slots__ = ("kind", "text")

    def __init__(self, kind: type[Any], text: str) -> None:
        self.kind = kind
        self.text = text

    def encode(self, value: Any, where: str) -> Any:
        return self.decode(value, where)

    def decode(self, data: Any, where: str) -> Any:
        if not isinstance(data, self.kind) or (self.kind is int and isinstance(data, bool)):
            raise _FieldError(where, f"expected {self.text}, got {shown(data)}")
        if self.kind is int and abs(data) > LARGEST_WHOLE:
            raise _FieldError(where, f"expected a whole number at most {LARGEST_WHOLE:,} in size, got {shown(data)}")
        return data


class _Float:
    """``float``: a finite number; a whole number stays a whole number, as the component held it."""

    __slots__ = ()

    def encode(self, value: Any, where: str) -> Any:
        return self.decode(value, where)

    def decode(self, data: Any, where: str) -> Any:
        if not isinstance(data, (int, float)) or isinstance(data, bool):
            raise _FieldError(where, f"expected a finite number, got {shown(data)}")
        if isinstance(data, int) and abs(data) > LARGEST_WHOLE:
            raise _FieldError(where, f"expected a number at most {LARGEST_WHOLE:,} in size, got {shown(data)}")
        if not math.isfinite(data):
            raise _FieldError(where, f"expected a finite number, got {shown(data)}")
        return data


class _Optional:
    """``X | None``: null, or an X."""

    __slots__ = ("inner",)

    def __init__(self, inner: _Codec) -> None:
        self.inner = inner

    def encode(self, value: Any, where: str) -> Any:
        return None if value is None else self.inner.encode(value, where)

    def decode(self, data: Any, where: str) -> Any:
        return None if data is None else self.inner.decode(data, where)


class _Enum:
    """An Enum with string values, written as its value."""

    __slots__ = ("allowed", "cls")

    def __init__(self, cls: type[enum.Enum]) -> None:
        self.cls = cls
        self.allowed = ", ".join(repr(member.value) for member in cls)

    def encode(self, value: Any, where: str) -> Any:
        try:
            return self.cls(value).value
        except ValueError:
            raise _FieldError(where, f"expected a {self.cls.__name__}, got {shown(value)}") from None

    def decode(self, data: Any, where: str) -> Any:
        if isinstance(data, str):
            with contextlib.suppress(ValueError):
                return self.cls(data)
        raise _FieldError(where, f"expected one of {self.allowed}, got {shown(data)}")


class _Tuple:
    """``tuple[X, Y]`` (``items``) or ``tuple[X, ...]`` (``rest``), written as a list."""

    __slots__ = ("items", "rest")

    def __init__(self, items: tuple[_Codec, ...], rest: _Codec | None) -> None:
        self.items = items
        self.rest = rest

    def _codecs(self, value: Any, where: str, kind: type[Any]) -> Iterable[_Codec]:
        _expect(value, kind, where)
        if self.rest is not None:
            return [self.rest] * len(value)
        if len(value) != len(self.items):
            raise _FieldError(where, f"expected {len(self.items)} items, got {len(value)}")
        return self.items

    def encode(self, value: Any, where: str) -> Any:
        codecs = self._codecs(value, where, tuple)
        return [codec.encode(item, f"{where}[{i}]") for i, (codec, item) in enumerate(zip(codecs, value, strict=True))]

    def decode(self, data: Any, where: str) -> Any:
        codecs = self._codecs(data, where, list)
        return tuple(
            codec.decode(item, f"{where}[{i}]") for i, (codec, item) in enumerate(zip(codecs, data, strict=True))
        )


class _List:
    """``list[X]``."""

    __slots__ = ("item",)

    def __init__(self, item: _Codec) -> None:
        self.item = item

    def encode(self, value: Any, where: str) -> Any:
        return [self.item.encode(item, f"{where}[{i}]") for i, item in enumerate(_expect(value, list, where))]

    def decode(self, data: Any, where: str) -> Any:
        return [self.item.decode(item, f"{where}[{i}]") for i, item in enumerate(_expect(data, list, where))]


class _Dict:
    """``dict[str, X]``, written as an object."""

    __slots__ = ("value",)

    def __init__(self, value: _Codec) -> None:
        self.value = value

    def encode(self, value: Any, where: str) -> Any:
        return {key: self.value.encode(item, f"{where}[{key!r}]") for key, item in _text_keyed(value, where).items()}

    def decode(self, data: Any, where: str) -> Any:
        return {key: self.value.decode(item, f"{where}[{key!r}]") for key, item in _text_keyed(data, where).items()}


def _expect(value: Any, kind: type[Any], where: str) -> Any:
    if not isinstance(value, kind):
        raise _FieldError(where, f"expected a {kind.__name__}, got {shown(value)}")
    return value


def _text_keyed(value: Any, where: str) -> dict[str, Any]:
    for key in _expect(value, dict, where):
        if not isinstance(key, str):
            raise _FieldError(where, f"expected text keys, got {shown(key)}")
    return typing.cast("dict[str, Any]", value)


class _Dataclass:
    """A dataclass, written as an object of all its fields and rebuilt through its constructor."""

    __slots__ = ("cls", "defaults", "fields")

    def __init__(self, cls: type[Any], fields: dict[str, _Codec], defaults: frozenset[str]) -> None:
        self.cls = cls
        self.fields = fields
        self.defaults = defaults

    def encode(self, value: Any, where: str) -> Any:
        if type(value) is not self.cls:
            raise _FieldError(where, f"expected a {self.cls.__name__}, got {shown(value)}")
        return {name: codec.encode(getattr(value, name), _join(where, name)) for name, codec in self.fields.items()}

    def decode(self, data: Any, where: str, may_lack: frozenset[str] = frozenset()) -> Any:
        """Rebuild the dataclass from ``data``; a field of ``may_lack`` (new since the save) that has a default
        may be absent."""
        if not isinstance(data, dict):
            raise _FieldError(where, f"expected an object of {self.cls.__name__} fields, got {shown(data)}")
        for name in self.fields:
            if name not in data and not (name in may_lack and name in self.defaults):
                raise _FieldError(_join(where, name), "missing")
        for name in data:
            if name not in self.fields:
                raise _FieldError(_join(where, name), f"unknown field (fields: {', '.join(self.fields)})")
        values = {
            name: codec.decode(data[name], _join(where, name)) for name, codec in self.fields.items() if name in data
        }
        try:
            return self.cls(**values)
        except ValueError as error:
            field = _join(where, error.field) if isinstance(error, RuleValueError) else where
            raise _FieldError(field, f"refused: {error}") from error


_EXACT: Final[dict[Any, _Exact]] = {
    int: _Exact(int, "a whole number"),
    bool: _Exact(bool, "true or false"),
    str: _Exact(str, "text"),
    type(None): _Exact(type(None), "null"),
}

_SUPPORTED: Final = (
    "int, float, bool, str, None, X | None, Enums with string values, tuple[X, Y], tuple[X, ...], "
    "list[X], dict[str, X] and dataclasses of those"
)


_DATACLASS_CODECS: Final[dict[type[Any], _Dataclass]] = {}


def _codec(kind: fields.Kind) -> _Codec:
    """The codec of a field of ``kind``; :class:`TypeError` for a kind a save cannot hold."""
    match kind:
        case fields.Plain(declared=declared) if declared is float:
            return _Float()
        case fields.Plain(declared=declared) if declared in _EXACT:
            return _EXACT[declared]
        case fields.OptionalOf(inner=inner):
            return _Optional(_codec(inner))
        case fields.EnumOf(declared=declared) if all(isinstance(member.value, str) for member in declared):
            return _Enum(declared)
        case fields.TupleOf(items=(), rest=rest) if rest is not None:
            return _Tuple((), _codec(rest))
        case fields.TupleOf(items=items) if items:
            return _Tuple(tuple(_codec(item) for item in items), None)
        case fields.ListOf(item=item):
            return _List(_codec(item))
        case fields.DictOf(key=fields.Plain(declared=key), value=value) if key is str:
            return _Dict(_codec(value))
        case fields.DataclassOf(plan=plan):
            return _dataclass_codec(plan)
    raise TypeError(f"a field of type {kind.declared!r} cannot be saved; a save holds {_SUPPORTED}")


def _class_plan(cls: type[Any]) -> fields.Plan:
    """The field plan of dataclass ``cls``; :class:`TypeError` naming the field a save cannot hold."""
    try:
        return fields.plan(cls)
    except fields.FieldTypeError as error:
        if error.declared is None:
            raise TypeError(str(error)) from None
        where = ": ".join(f"{owner}.{name}" for owner, name in error.steps)
        problem = f"a field of type {error.declared!r} cannot be saved; a save holds {_SUPPORTED}"
        raise TypeError(f"{where}: {problem}") from None


def _dataclass_codec(plan: fields.Plan) -> _Dataclass:
    """The codec of a dataclass, built once per class; :class:`TypeError` naming the field that cannot be saved."""
    cls = plan.cls
    known = _DATACLASS_CODECS.get(cls)
    if known is not None:
        return known
    codecs: dict[str, _Codec] = {}
    for field in plan.fields:
        if not field.init:
            raise TypeError(f"{cls.__name__}.{field.name}: a field its constructor does not take cannot be saved")
        try:
            codecs[field.name] = _codec(field.kind)
        except TypeError as error:
            raise TypeError(f"{cls.__name__}.{field.name}: {error}") from None
    defaults = frozenset(field.name for field in plan.fields if field.default)
    codec = _DATACLASS_CODECS[cls] = _Dataclass(cls, codecs, defaults)
    return codec


def check_savable(cls: type[Any]) -> None:
    """Raise :class:`TypeError` naming the field if a save could not hold the fields of dataclass ``cls``.

    A component's own tests can call it; saving calls it for every component class it meets.
    """
    _dataclass_codec(_class_plan(cls))


def _class_codec(cls: type[Any], file: str, entity: int | None, label: str) -> _Dataclass:
    try:
        return _dataclass_codec(_class_plan(cls))
    except TypeError as error:
        raise SaveError(file, str(error), entity=entity, component=label) from None


# -- saving -----------------------------------------------------------------------------------


def save(world: World, path: str | os.PathLike[str]) -> None:
    """Write ``world`` to ``path`` (see the module docstring); the caller has checked it is not mid-step."""
    file = os.fspath(path)
    text = json.dumps(_encode(world, file), allow_nan=False, separators=(",", ":"))
    _write_atomically(file, text + "\n")


def _encode(world: World, file: str) -> dict[str, Any]:
    rules: dict[str, Any] = {}
    for name, options in world.rules.items():
        try:
            rule_set = rule_set_named(name)
        except WorldError as error:
            raise SaveError(
                file, f"{error}: its package must call esper_motion.ecs.register_rule_set", field="rules"
            ) from None
        codec = _class_codec(rule_set.options_type, file, None, f"rules.{name}.options")
        try:
            written = codec.encode(options, "")
        except _FieldError as problem:
            raise SaveError(file, problem.message, component=f"rules.{name}.options", field=problem.where) from None
        rules[name] = {"module": rule_set.install.__module__, "options": written}
    entities = world.entities()
    alive = set(entities)
    records = []
    for entity in entities:
        components: dict[str, Any] = {}
        for component in world.components(entity):
            if is_unsaved(type(component)):
                continue
            try:
                name = name_of(type(component))
            except WorldError as error:
                raise SaveError(file, str(error), entity=entity) from None
            if name in components:
                raise SaveError(file, "two components of this class on one entity", entity=entity, component=name)
            codec = _class_codec(type(component), file, entity, name)
            try:
                components[name] = codec.encode(component, "")
            except _FieldError as problem:
                raise SaveError(file, problem.message, entity=entity, component=name, field=problem.where) from None
            except Exception as error:  # a value whose comparisons or hash raise
                raise SaveError(
                    file, f"refused: {type(error).__name__}: {error}", entity=entity, component=name
                ) from error
            _recheck(component, file=file, entity=entity, name=name)
            _check_links(
                component,
                alive,
                file=file,
                entity=entity,
                name=name,
                missing="which does not exist: the save could not be loaded",
            )
        records.append({"id": entity, "components": components})
    with _context.active(world.context):
        _consistent(file, _context.entity_table())
        following = _context.peek_next_entity()
    return {
        "format": FORMAT,
        "version": VERSION,
        "turn": world.turn,
        "next_entity": following,
        "dice": world.dice.getstate(),
        "rules": rules,
        "entities": records,
        "systems": _encode_systems(world, file),
    }


def _encode_systems(world: World, file: str) -> list[dict[str, Any]]:
    """Every system of ``world`` in the order it runs: a rule set's systems as one ``{"rules": name}`` where the
    first of them stands, any other as ``{"system": name, "data": {...}}`` through :func:`register_system`."""
    installs = {name: _installed_types(name, options) for name, options in world.rules.items()}
    owners: dict[type[Any], str] = {}
    for name, kinds in installs.items():
        for kind in kinds:
            owners.setdefault(kind, name)
    entries: list[dict[str, Any]] = []
    placed: set[str] = set()
    rebuilt: list[type[System]] = []  # the systems a load of these entries installs, in the order they would run
    for system in world.systems:
        kind = type(system)
        owner = owners.get(kind)
        if owner is not None:
            if owner not in placed:
                entries.append({"rules": owner})
                placed.add(owner)
                for installed in installs[owner]:
                    _run_in_phase(rebuilt, installed)
            continue
        _run_in_phase(rebuilt, kind)
        saved = saved_system_of(kind)
        if saved is None:
            raise SaveError(
                file,
                f"the system {kind.__module__}.{kind.__qualname__} is installed by no registered rule set and "
                "holds no data a save can keep: register it with esper_motion.ecs.register_system",
                field="systems",
            )
        label = f"systems.{saved.name}"
        data = typing.cast("Any", system).saved_data()
        codec = _class_codec(saved.data_type, file, None, label)
        try:
            written = codec.encode(data, "")
            recheck(data)
        except _FieldError as problem:
            raise SaveError(file, problem.message, component=label, field=problem.where) from None
        except ValueError as error:
            raise SaveError(file, f"refused: {error}", component=label) from None
        entries.append({"system": saved.name, "data": written})
    entries.extend({"rules": name} for name in world.rules if name not in placed)  # a rule set with no system
    running = [type(system) for system in world.systems]
    if rebuilt != running:
        raise SaveError(
            file,
            f"the world runs {', '.join(k.__name__ for k in running)}, but a load would install and run "
            f"{', '.join(k.__name__ for k in rebuilt)}: a save keeps a rule set as its whole install and a game's "
            "system at the end of its phase (not a part of a rule set, nor a system placed with before= or after=)",
            field="systems",
        )
    return entries


def _run_in_phase(order: list[type[System]], kind: type[System]) -> None:
    """Add ``kind`` to ``order`` as ``World.add_system`` adds a system: after every one of its phase or before."""
    order.insert(bisect.bisect_right([k.phase for k in order], kind.phase), kind)


def _installed_types(name: str, options: Any) -> list[type[Any]]:
    """The classes of the systems rule set ``name`` installs with ``options``, found by installing it into a
    world made for the purpose and then deleted."""
    scratch = World()
    try:
        rule_set_named(name).install(scratch, options)
        return [type(system) for system in scratch.systems]
    finally:
        esper.delete_world(scratch.context)


def _consistent(file: str, entities: dict[int, dict[type[Any], Any]]) -> None:
    """Refuse links that cannot stand (:func:`esper_motion.ecs.links.check_table`, strictly: nothing in a save is
    gone), naming the entity, the component by its registered name, and the field."""
    try:
        links.check_table(entities, strict=True)
    except links.LinkError as error:
        kind = next((kind for kind in entities[error.entity] if kind.__name__ == error.component), None)
        name = name_of(kind) if kind is not None else error.component
        raise SaveError(
            file,
            f"{shown(error.value)}: {error.problem}",
            entity=error.entity,
            component=name,
            field=error.field,
            value=error.value,
        ) from None


def _recheck(component: Any, *, file: str, entity: int, name: str) -> None:
    """Refuse to save a component whose constructor would refuse its present fields, as loading it would."""
    try:
        recheck(component)
    except Exception as error:  # the library's checks, a game's own, or a value whose comparisons raise
        field, value = (error.field, error.value) if isinstance(error, RuleValueError) else (None, None)
        told = error if isinstance(error, ValueError) else f"{type(error).__name__}: {error}"
        problem = f"{told} (loading would refuse it, so nothing was written)"
        raise SaveError(file, problem, entity=entity, component=name, field=field, value=value) from None


def _check_links(component: Any, entities: Container[int], *, file: str, entity: int, name: str, missing: str) -> None:
    if not isinstance(component, Linked):
        return
    for target in component.links():
        if isinstance(target, bool) or not isinstance(target, int):
            raise SaveError(file, f"links() gave {shown(target)}, not an entity id", entity=entity, component=name)
        if target not in entities:
            raise SaveError(file, f"links to entity {target}, {missing}", entity=entity, component=name)


def _write_atomically(file: str, text: str) -> None:
    """Write ``text`` to ``file`` through a temporary file and one rename. A symbolic link is followed (its target
    is replaced, the link stays); the target keeps its permission bits (a new file gets the usual ones, under the
    umask); our temporary files left behind by a process that died mid-save are removed first."""
    target = os.path.realpath(file)
    directory, name = os.path.split(target)
    _remove_stale(directory, name)
    try:
        mode: int | None = stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        mode = None
    temporary = os.path.join(directory, f".{name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666 if mode is None else mode)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            if mode is not None:
                os.chmod(temporary, mode)  # the umask may have taken bits the old file had
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
        raise
    if os.name == "posix":  # make the rename itself durable
        directory_handle = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(directory_handle)
        finally:
            os.close(directory_handle)


def _remove_stale(directory: str, name: str) -> None:
    """Remove the temporary files of saves to ``name`` whose process no longer runs (killed mid-save)."""
    pattern = re.compile(rf"\.{re.escape(name)}\.(\d+)\.[0-9a-f]{{8}}\.tmp")
    with os.scandir(directory) as found:
        stale = [entry.path for entry in found if (match := pattern.fullmatch(entry.name)) and _gone(int(match[1]))]
    for path in stale:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)


def _gone(pid: int) -> bool:
    """Whether no process ``pid`` runs any more (ours is running: its own saves finish or clean up)."""
    if pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except (ProcessLookupError, OverflowError):  # no such process, or a number no process can have
        return True
    except PermissionError:  # another user's process
        return False
    return False


# -- loading ----------------------------------------------------------------------------------


def load(cls: type[World], path: str | os.PathLike[str], *, context: str | None, transactional: bool) -> World:
    """A new ``cls`` world built from the save at ``path``: its rule sets reinstalled, then its contents."""
    saved = _read(os.fspath(path))
    world = cls(context=context, transactional=transactional)
    for entry in saved.systems:
        if isinstance(entry, str):
            rule_set_named(entry).install(world, saved.rules[entry])
        else:
            world.add_system(entry)
    _apply(world, saved)
    return world


def restore(world: World, path: str | os.PathLike[str]) -> None:
    """Replace ``world``'s contents with the save at ``path``, or raise and change nothing.

    The world must have the save's rule sets installed, in the same order and with equal options, since
    its systems stay; :meth:`World.load` builds a world for any save.
    """
    file = os.fspath(path)
    saved = _read(file)
    if list(saved.rules.items()) != list(world.rules.items()):
        raise SaveError(
            file,
            f"the save has rule sets {saved.rules!r}, this world {world.rules!r}: restoring needs the same rule "
            "sets with the same options (World.load builds a new world for any save)",
            field="rules",
        )
    _apply(world, saved)


def _apply(world: World, saved: _Saved) -> None:
    with _context.active(world.context):
        _context.replace(saved.next_entity, saved.entities)
    world.dice.setstate(saved.dice)
    world.turn = saved.turn
    world.events = []


def _refuse_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise ValueError(f"the key {key!r} appears twice in one object")
        result[key] = value
    return result


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number a save may hold")


def _read(file: str) -> _Saved:
    """Read and check a whole save file; nothing is built into a world until every part has passed."""
    raw = _read_bytes(file)
    try:
        data = json.loads(raw.decode("utf-8"), object_pairs_hook=_refuse_duplicates, parse_constant=_refuse_constant)
    except json.JSONDecodeError as error:
        raise SaveError(file, f"not a complete JSON document (truncated or malformed): {error}") from None
    except (ValueError, RecursionError) as error:
        raise SaveError(file, f"malformed: {error}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SaveError(file, f'not an esper-motion save (no "format": {FORMAT!r})')
    version = data.get("version")
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise SaveError(file, f"expected a format version from 1 to {VERSION}, got {shown(version)}", field="version")
    if version > VERSION:
        raise SaveError(
            file, f"written in format version {version} by a newer esper-motion; this one reads up to {VERSION}"
        )
    keys = _KEYS if version >= 2 else _KEYS_1
    if set(data) != set(keys):
        extra = sorted(set(data) - set(keys))
        lacking = sorted(set(keys) - set(data))
        raise SaveError(file, f"expected exactly the keys {list(keys)}; missing {lacking}, unknown {extra}")
    turn = _top_level_int(data, "turn", 0, file)
    following = _top_level_int(data, "next_entity", 1, file)
    try:
        Dice().setstate(data["dice"])
    except RuleValueError as error:
        raise SaveError(file, str(error), field="dice") from None
    rules = _read_rules(data["rules"], file, version)
    systems = _read_systems(data["systems"], rules, file) if version >= 2 else tuple(rules)
    entities = _read_entities(data["entities"], file, version)
    if entities and following <= max(entities):
        raise SaveError(file, f"must be above every entity id (the highest is {max(entities)})", field="next_entity")
    for entity, components in entities.items():
        for component in components.values():
            _check_links(
                component,
                entities,
                file=file,
                entity=entity,
                name=name_of(type(component)),
                missing="which is not in the save",
            )
    _consistent(file, entities)
    return _Saved(turn, following, data["dice"], rules, entities, systems)


def _read_bytes(file: str) -> bytes:
    """The bytes of save file ``file``, which must be a regular file of at most :data:`MAX_SAVE_BYTES` bytes: a named
    pipe or a device is refused at once, unread (opened without waiting for a writer)."""
    handle = os.open(file, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    with os.fdopen(handle, "rb") as stream:
        if not stat.S_ISREG(os.fstat(handle).st_mode):
            raise SaveError(file, "not a regular file; a save is one")
        raw = stream.read(MAX_SAVE_BYTES + 1)
    if len(raw) > MAX_SAVE_BYTES:
        raise SaveError(file, f"larger than {MAX_SAVE_BYTES:,} bytes, the most a save file may hold")
    return raw


def _top_level_int(data: dict[str, Any], key: str, low: int, file: str) -> int:
    value = data[key]
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise SaveError(file, f"expected a whole number, {low} or more, got {shown(value)}", field=key)
    if value > LARGEST_WHOLE:  # a save could not write it again
        raise SaveError(file, f"expected a whole number at most {LARGEST_WHOLE:,}, got {shown(value)}", field=key)
    return value


def _read_rules(data: Any, file: str, version: int) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise SaveError(file, f"expected an object of rule sets, got {shown(data)}", field="rules")
    rules: dict[str, Any] = {}
    for name, record in data.items():
        label = f"rules.{name}"
        if not isinstance(record, dict) or set(record) != {"module", "options"}:
            raise SaveError(
                file, f"expected an object with keys 'module' and 'options', got {shown(record)}", component=label
            )
        try:
            rule_set = rule_set_named(name)
        except WorldError as error:
            raise SaveError(
                file, f"{error}: import {record['module']} (the package that installs it) before loading", field=label
            ) from None
        codec = _class_codec(rule_set.options_type, file, None, f"{label}.options")
        try:
            rules[name] = codec.decode(record["options"], "", _added_since(version, f"rules.{name}"))
        except _FieldError as problem:
            raise SaveError(file, problem.message, component=f"{label}.options", field=problem.where) from None
    return rules


def _read_systems(data: Any, rules: dict[str, Any], file: str) -> tuple[str | System, ...]:
    """The save's systems in order: each rule set's name once, and the others rebuilt from their data."""
    if not isinstance(data, list):
        raise SaveError(file, f"expected a list of systems, got {shown(data)}", field="systems")
    found: list[str | System] = []
    for index, entry in enumerate(data):
        where = f"systems[{index}]"
        if isinstance(entry, dict) and set(entry) == {"rules"}:
            name = entry["rules"]
            if name not in rules or name in found:
                raise SaveError(file, f"expected each rule set of 'rules' once, got {shown(name)}", field=where)
            found.append(name)
            continue
        if not (isinstance(entry, dict) and set(entry) == {"system", "data"} and isinstance(entry["system"], str)):
            raise SaveError(
                file,
                f"expected {{'rules': name}} or {{'system': name, 'data': {{...}}}}, got {shown(entry)}",
                field=where,
            )
        try:
            saved = system_named(entry["system"])
        except WorldError as error:
            raise SaveError(file, f"{error}: import the module that registers it before loading", field=where) from None
        label = f"systems.{saved.name}"
        codec = _class_codec(saved.data_type, file, None, label)
        try:
            system = saved.system_type.restored(codec.decode(entry["data"], ""))
        except _FieldError as problem:
            raise SaveError(file, problem.message, component=label, field=problem.where) from None
        except ValueError as error:
            raise SaveError(file, f"refused: {error}", component=label) from None
        found.append(system)
    missing = [name for name in rules if name not in found]
    if missing:
        raise SaveError(file, f"the rule sets {missing} of 'rules' are not placed among the systems", field="systems")
    return tuple(found)


def _read_entities(data: Any, file: str, version: int) -> dict[int, dict[type[Any], Any]]:
    if not isinstance(data, list):
        raise SaveError(file, f"expected a list of entities, got {shown(data)}", field="entities")
    entities: dict[int, dict[type[Any], Any]] = {}
    for index, record in enumerate(data):
        if not isinstance(record, dict) or set(record) != {"id", "components"}:
            raise SaveError(
                file,
                f"expected an object with keys 'id' and 'components', got {shown(record)}",
                field=f"entities[{index}]",
            )
        entity = record["id"]
        if isinstance(entity, bool) or not isinstance(entity, int) or entity < 1:
            raise SaveError(
                file, f"expected an entity id, 1 or more, got {shown(entity)}", field=f"entities[{index}].id"
            )
        if entity in entities:
            raise SaveError(file, "this entity id appears twice", entity=entity)
        components = record["components"]
        if not isinstance(components, dict):
            raise SaveError(file, f"expected an object of components, got {shown(components)}", entity=entity)
        table: dict[type[Any], Any] = {}
        for name, values in components.items():
            try:
                cls = type_named(name)
            except WorldError as error:
                raise SaveError(file, str(error), entity=entity, component=name) from None
            codec = _class_codec(cls, file, entity, name)
            try:
                table[cls] = codec.decode(values, "", _added_since(version, name))
            except _FieldError as problem:
                raise SaveError(file, problem.message, entity=entity, component=name, field=problem.where) from None
        entities[entity] = table
    return entities

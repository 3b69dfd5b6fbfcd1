"""Stable names for component and event classes, and the rule sets a save file can reinstall.

A name, not a module path, is what a save file holds, so a save survives a refactor that moves a class.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from esper_motion.ecs.errors import WorldError, shown
from esper_motion.ecs.watch import watch

if TYPE_CHECKING:
    from esper_motion.ecs.world import World

T = TypeVar("T", bound=type[Any])
V = TypeVar("V")

_BY_NAME: dict[str, type[Any]] = {}
_BY_TYPE: dict[type[Any], str] = {}


NewFields = Mapping[int, Collection[str]]
"""The fields a save-format version added to a component or a rule set's options: ``{version: field names}``."""

_ADDED: dict[str, dict[str, int]] = {}


def register(name: str, *, new_fields: NewFields | None = None) -> Callable[[T], T]:
    """Class decorator giving a component (or event) class its stable name.

    A registered component is also one the world looks after: the undo of a failed step puts its fields back,
    and fields a game sets between steps are checked by its constructor's checks before the next step
    (:mod:`esper_motion.ecs.watch`).

    The class must be a dataclass (its fields are what is saved, checked and rolled back). A name can belong to
    one class only, so a game's class under a name the library uses is refused, naming both;
    registering the same class again under the same name is allowed (a module reloaded in tests).

    ``new_fields`` names the fields each save-format version added (``{3: ("turns",)}``): a save of an older
    version may lack them, and each then loads with its default (:func:`added_fields`). A field the class does
    not have, or a version that is not a whole number of 2 or more, is refused.
    """

    def decorate(cls: T) -> T:
        if not (isinstance(cls, type) and dataclasses.is_dataclass(cls)):
            what = _path(cls) if isinstance(cls, type) else repr(cls)
            raise WorldError(
                f"{what} is not a dataclass: a registered class is saved, checked and put back after a failed step "
                "field by field, so decorate it with @dataclass (under @register)"
            )
        owner = _BY_NAME.get(name)
        if owner is not None and _path(owner) != _path(cls):
            raise WorldError(f"registered name {name!r} already names {_path(owner)}: {_path(cls)} needs another")
        if cls in _UNSAVED:
            raise WorldError(f"{cls.__module__}.{cls.__qualname__} is marked unsaved: a save leaves it out")
        added = _versions(name, cls, new_fields)
        _BY_NAME[name] = cls
        _BY_TYPE[cls] = name
        _ADDED[name] = added
        watch(cls)
        return cls

    return decorate


def _versions(label: str, cls: type[Any], new_fields: NewFields | None) -> dict[str, int]:
    """``new_fields`` of dataclass ``cls``, registered as ``label``, as the version that added each field."""
    names = [field.name for field in dataclasses.fields(cls)]
    found: dict[str, int] = {}
    for version, fields in (new_fields or {}).items():
        if isinstance(version, bool) or not isinstance(version, int) or version < 2:
            raise WorldError(
                f"{label}: new_fields: a key is the save-format version that added the fields, a whole number of 2 "
                f"or more, not {shown(version)}"
            )
        if isinstance(fields, str):
            raise WorldError(f"{label}: new_fields[{version}]: a collection of field names, not the text {fields!r}")
        for field in fields:
            if field not in names:
                raise WorldError(
                    f"{label}: new_fields[{version}]: {shown(field)} is no field of {cls.__name__} "
                    f"(fields: {', '.join(names)})"
                )
            found[field] = version
    return found


def added_fields(label: str) -> Mapping[str, int]:
    """The fields of ``label`` (a registered component name, or ``rules.<rule set name>`` for a rule set's options)
    that a save-format version after the first added, each with that version, as :func:`register` and
    :func:`register_rule_set` were given them in ``new_fields``. A save of an older version may lack them.
    """
    return dict(_ADDED.get(label, {}))


def _path(cls: type[Any]) -> str:
    """Where ``cls`` is defined: its module and qualified name (the same for a class reloaded with its module)."""
    return f"{cls.__module__}.{cls.__qualname__}"


_UNSAVED: set[type[Any]] = set()


def unsaved(cls: T) -> T:
    """Class decorator marking a game's component class (a sprite, an animation: what its frames redraw) as no
    part of a save: ``World.save`` leaves its components out, so a loaded world has none. Like any class that is
    not registered, the world does not watch it: a failed step does not put its fields back, and no checks run
    on what a game writes to it. A registered class is saved, so it cannot be marked."""
    if cls in _BY_TYPE:
        raise WorldError(f"{cls.__module__}.{cls.__qualname__} is registered as {_BY_TYPE[cls]!r}: a save holds it")
    _UNSAVED.add(cls)
    return cls


def is_unsaved(cls: type[Any]) -> bool:
    """Whether :func:`unsaved` marked ``cls``."""
    return cls in _UNSAVED


def name_of(cls: type[Any]) -> str:
    """The stable name of a registered class; a clear error for one that was never registered."""
    try:
        return _BY_TYPE[cls]
    except KeyError:
        raise WorldError(
            f"{_path(cls)} has no registered name: decorate it with esper_motion.ecs.register(name)"
        ) from None


def registered_types() -> tuple[type[Any], ...]:
    """Every registered class, in the order of registration."""
    found = _IN_ORDER[0]
    if len(found) != len(_BY_TYPE):  # classes are only ever added
        found = _IN_ORDER[0] = tuple(_BY_TYPE)
    return found


_IN_ORDER: list[tuple[type[Any], ...]] = [()]


def type_named(name: str) -> type[Any]:
    """The class registered under ``name``; a clear error naming the unknown name otherwise."""
    try:
        return _BY_NAME[name]
    except KeyError:
        known = ", ".join(sorted(_BY_NAME))
        raise WorldError(f"unknown component name {shown(name)}; known names: {known}") from None


@dataclass(frozen=True, slots=True)
class SceneSupport:
    """What a scene file (``esper-motion``'s demo scenes) needs to know of a rule set beyond its install function
    and options class.

    ``intent`` is the registered name of the component a scene's script writes; ``steer`` and ``throttle`` name
    its fields a player's steering and throttle keys change (``None`` when it has no such field);
    ``steer_wraps`` is set when the steering field is an absolute direction that wraps round (six hexsides)
    rather than a change counted from 0 each turn; ``steer_ends`` names a field holding an entity that steering
    ends (sets to None: a Spelljammer chase, which keeps no heading), the steering then starting from the way to
    that entity. ``yards_before_turn`` gives the yards an entity must still
    run straight before it may turn, or None where that does not apply. ``readouts`` are queries a scene may
    show for an entity (``readouts = ["couched lance"]``): each returns one line, or raises a ``MotionError``
    when it does not apply. ``die_faces`` is the highest face a script's ``dice`` may show (the largest die the
    rule set rolls). ``goals`` are the component types that give an entity a goal (the window sets them aside
    while a player steers the entity), and ``plan(world, entity)`` the plan of an entity with one, as the window
    draws it: an object whose ``turns`` each hold ``path`` (the hexes entered) and ``failure_chance`` (that any of
    its rolls fails), with ``reaches`` (whether the goal is met at the end) and ``entity`` (the body the plan
    moves); a ``MotionError`` for an entity it does not plan now. ``steering_pair(world, entity)`` gives, for a
    rider that steers its mount by its own goal or for that mount, the two as ``(rider, mount)`` (None for any other
    entity): the window shows the rider's plan on either, takes the two over together and steers the mount.
    """

    intent: str
    steer: str | None = None
    steer_wraps: int | None = None
    steer_ends: str | None = None
    throttle: str | None = None
    yards_before_turn: Callable[[World, int], int | None] | None = None
    readouts: Mapping[str, Callable[[World, int], str]] = dataclasses.field(default_factory=dict)
    die_faces: int = 6
    goals: tuple[type[Any], ...] = ()
    plan: Callable[[World, int], Any] | None = None
    steering_pair: Callable[[World, int], tuple[int, int] | None] | None = None


@dataclass(frozen=True, slots=True)
class RuleSet:
    """A registered rule set: its name in ``World.rules``, its install function, its options class, and what a
    scene file needs of it (``scene``; None for a rule set no scene can play).

    ``install(world, options)`` must record ``options`` under ``name`` (``World.install_rules``) and add the
    rule set's systems, exactly as a game's own call to it does.
    """

    name: str
    install: Callable[[World, Any], None]
    options_type: type[Any]
    scene: SceneSupport | None = None


_RULE_SETS: dict[str, RuleSet] = {}


def register_rule_set(
    name: str,
    install: Callable[[World, Any], None],
    options_type: type[Any],
    *,
    scene: SceneSupport | None = None,
    new_fields: NewFields | None = None,
) -> None:
    """Let ``World.load`` reinstall rule set ``name``, and scene files play it when ``scene`` is given: its package
    calls this once, when it is imported.

    ``options_type`` is the dataclass the rule set keeps in ``World.rules[name]``; ``new_fields`` names the options
    each save-format version added, as for :func:`register` (:func:`added_fields` of ``rules.<name>``).
    Registering the same install function again under the same name is allowed (a module reloaded in tests).
    """
    if not (isinstance(options_type, type) and dataclasses.is_dataclass(options_type)):
        raise WorldError(f"rule set {name!r}: options_type must be a dataclass, not {options_type!r}")
    owner = _RULE_SETS.get(name)
    if owner is not None and owner.install.__qualname__ != install.__qualname__:
        raise WorldError(
            f"rule set name {name!r} already belongs to {owner.install.__module__}.{owner.install.__qualname__}"
        )
    added = _versions(f"rules.{name}", options_type, new_fields)
    _RULE_SETS[name] = RuleSet(name, install, options_type, scene)
    _ADDED[f"rules.{name}"] = added


def registered_rule_sets() -> tuple[RuleSet, ...]:
    """Every registered rule set, in the order of registration."""
    return tuple(_RULE_SETS.values())


def rule_set_named(name: str) -> RuleSet:
    """The rule set registered under ``name``; a clear error for one no imported package registered."""
    return _registered(_RULE_SETS, "rule set", name)


def _registered(table: Mapping[str, V], what: str, name: str) -> V:
    """``table[name]``, or a :class:`WorldError` naming the ``what`` asked for and every name registered."""
    try:
        return table[name]
    except KeyError:
        known = ", ".join(sorted(table)) or "none"
        raise WorldError(f"{what} {shown(name)} is not registered (registered: {known})") from None


@dataclass(frozen=True, slots=True)
class SavedSystem:
    """A system class a save can hold, as a save file knows it: its name, its class, the dataclass of its data.

    The class defines ``saved_data(self)``, returning a ``data_type`` instance that holds all its state (a save
    writes it field by field, as it writes a component), and a class method ``restored(data)`` that builds an
    equal system from such an instance (see :func:`register_system`).
    """

    name: str
    system_type: type[Any]
    data_type: type[Any]


_SYSTEMS: dict[str, SavedSystem] = {}
_SYSTEM_NAMES: dict[type[Any], str] = {}


def register_system(name: str, data_type: type[Any]) -> Callable[[T], T]:
    """Class decorator letting ``World.save`` hold a game's own system (one no rule set installs) and
    ``World.load`` add it again, in its place among the systems.

    ``data_type`` is a dataclass whose fields a save can hold; the system class defines ``saved_data(self) ->
    data_type`` and a class method ``restored(cls, data: data_type)``. A world holding a system that is neither
    installed by a registered rule set nor registered here refuses to save, naming it.

    >>> from dataclasses import dataclass
    >>> from esper_motion.ecs import Phase, System
    >>> @dataclass(frozen=True)
    ... class GustData:
    ...     yards: int
    >>> @register_system("example.GustSystem", GustData)
    ... class GustSystem(System):
    ...     phase = Phase.MOVEMENT
    ...     def __init__(self, yards: int) -> None:
    ...         super().__init__()
    ...         self.yards = yards
    ...     def run(self) -> None: ...
    ...     def saved_data(self) -> GustData:
    ...         return GustData(self.yards)
    ...     @classmethod
    ...     def restored(cls, data: GustData) -> GustSystem:
    ...         return cls(data.yards)
    >>> system_named("example.GustSystem").data_type.__name__
    'GustData'
    """
    if not (isinstance(data_type, type) and dataclasses.is_dataclass(data_type)):
        raise WorldError(f"system {name!r}: data_type must be a dataclass, not {data_type!r}")

    def decorate(cls: T) -> T:
        for method in ("saved_data", "restored"):
            if not callable(getattr(cls, method, None)):
                raise WorldError(f"system {name!r}: {cls.__qualname__} must define {method}() to be saved")
        owner = _SYSTEMS.get(name)
        if owner is not None and _path(owner.system_type) != _path(cls):
            raise WorldError(
                f"registered system name {name!r} already names {_path(owner.system_type)}: {_path(cls)} needs another"
            )
        _SYSTEMS[name] = SavedSystem(name, cls, data_type)
        _SYSTEM_NAMES[cls] = name
        return cls

    return decorate


def system_named(name: str) -> SavedSystem:
    """The system registered under ``name``; a clear error for one no imported module registered."""
    return _registered(_SYSTEMS, "system", name)


def saved_system_of(cls: type[Any]) -> SavedSystem | None:
    """How a save holds systems of class ``cls``, or None for a class never registered with :func:`register_system`."""
    name = _SYSTEM_NAMES.get(cls)
    return None if name is None else _SYSTEMS[name]

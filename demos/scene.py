"""A scene built into a world: its entities, terrain, rule set and script (:class:`ScriptSystem`) installed.

:func:`build_scene` builds a scene read from its file (:mod:`esper_motion.demos.scene_file`) with every check;
:class:`Blueprint` builds it once that way and again and again without them, for outcome studies.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from esper_motion.components import Position
from esper_motion.demos.scene_file import SceneError, SceneSpec, read_scene
from esper_motion.ecs import (
    Event,
    LinkError,
    MotionError,
    Phase,
    System,
    World,
    check_links,
    duplicate,
    name_of,
    register_system,
    rule_set_named,
    type_named,
)
from esper_motion.ecs.errors import shown
from esper_motion.ecs.fields import (
    DataclassOf,
    DictOf,
    EnumOf,
    FieldTypeError,
    Kind,
    ListOf,
    OptionalOf,
    Plain,
    TupleOf,
    plan,
)
from esper_motion.ecs.world import declared_members

_ENTITY: Final = re.compile(r"\bentity (\d+)\b")
_CHAIN: Final = re.compile(r"\b\d+(?: -> \d+)+\b")


@dataclass(frozen=True, slots=True)
class ScriptData:
    """Everything a :class:`ScriptSystem` holds, as a save keeps it (``esper_motion.ecs.register_system``).

    ``path`` is the scene file (named in errors); ``intent`` the registered name of the rule set's intent component;
    ``names`` each scene entity's id by name; ``script`` the file's ``[script]`` tables as JSON text (turn, then
    entity name, then component name, then fields, as written); ``dice`` each turn's die faces; ``manual`` the
    fields the window's keys set for the next turn, by entity id.
    """

    path: str
    intent: str
    names: dict[str, int]
    script: str
    dice: dict[str, list[int]]
    manual: dict[str, dict[str, int]]


@register_system("demos.ScriptSystem", ScriptData)
class ScriptSystem(System):
    """Demo driver, last in the ``DECIDE`` phase: sets each turn's scripted fields and queues its dice. It runs after
    the planner of movers with goals, so a scripted intent field overrides the plan for that turn (the next turn's
    plan writes every intent field again), and a scripted goal field counts from the next turn's plan.

    A scripted field changes the component the entity already has, in place (no component is added during a
    turn), and the component's own checks run on the result. ``manual`` holds fields of the rule set's intent
    component that the window's keys set for the next turn; they apply over the script. A save holds the script
    (:class:`ScriptData`), so a loaded scene plays on as the saved one would.
    """

    phase = Phase.DECIDE

    def __init__(self, data: ScriptData) -> None:
        super().__init__()
        self.data = data
        self.intent_type = type_named(data.intent)
        self.dice = {int(turn): tuple(faces) for turn, faces in data.dice.items()}
        self.manual: dict[int, dict[str, Any]] = {int(entity): dict(fields) for entity, fields in data.manual.items()}
        self.orders: dict[int, list[tuple[int, type[Any], dict[str, Any]]]] = {}
        path = Path(data.path)
        for turn, orders in sorted((int(turn), orders) for turn, orders in json.loads(data.script).items()):
            for name, parts in orders.items():
                for component_name, fields in parts.items():
                    cls = type_named(component_name)
                    values = _values(path, f"script turn {turn}, entity {shown(name)}", cls, fields, data.names)
                    self.orders.setdefault(turn, []).append((data.names[name], cls, values))

    @classmethod
    def of_scene(cls, spec: SceneSpec, world: World, ids: Mapping[str, int]) -> ScriptSystem:
        """The driver of scene ``spec`` built into ``world`` (``ids``: its entities by name): every scripted field is
        checked now against the component it will change, so a bad script is refused before the first turn."""
        script = {str(turn): orders for turn, orders in spec.script.items()}
        dice = {str(turn): list(faces) for turn, faces in spec.dice.items()}
        driver = cls(ScriptData(str(spec.path), spec.rule_set.intent, dict(ids), json.dumps(script), dice, {}))
        for turn, orders in sorted(driver.orders.items()):
            for entity, kind, values in orders:
                name = next(n for n, e in ids.items() if e == entity)
                where = f"script turn {turn}, entity {shown(name)}"
                current = world.try_get(entity, kind)
                if current is None:
                    raise SceneError(spec.path, where, name_of(kind), f"entity {shown(name)} has no {name_of(kind)}")
                _replace(spec.path, where, current, values)
        return driver

    def saved_data(self) -> ScriptData:
        """What a save keeps of this driver: its script and the window's pending steering."""
        manual = {str(entity): dict(fields) for entity, fields in self.manual.items()}
        return dataclasses.replace(self.data, manual=manual)

    @classmethod
    def restored(cls, data: ScriptData) -> ScriptSystem:
        """The driver a save kept."""
        return cls(data)

    def run(self) -> None:
        """Apply the script (and manual steering) for the turn about to resolve."""
        turn = self.world.turn + 1
        faces = self.dice.get(turn)
        if faces:
            self.world.dice.script(*faces)
        for entity, cls, values in self.orders.get(turn, []):
            _set(self.world.get(entity, cls), values)
        for entity, values in self.manual.items():
            _set(self.world.get(entity, self.intent_type), values)
        self.manual = {}


def _set(component: Any, values: dict[str, Any]) -> None:
    """Change ``component`` in place to ``values``, as its constructor takes them (an enum given as its text, say),
    after its own checks have passed on a copy."""
    kind = type(component)
    checked = kind(**{name: getattr(component, name) for name in _fields_of(kind)[1]} | values)
    for name in values:
        setattr(component, name, getattr(checked, name))


@dataclass(slots=True)
class Scene:
    """A scene built into a world: the world, its driver, and the names and colours the renderer shows."""

    spec: SceneSpec
    seed: int
    world: World
    driver: ScriptSystem
    names: dict[int, str] = field(default_factory=dict)
    colours: dict[int, tuple[int, int, int]] = field(default_factory=dict)
    zones: dict[int, str] = field(default_factory=dict)
    readout_names: dict[int, tuple[str, ...]] = field(default_factory=dict)

    @property
    def actors(self) -> list[int]:
        """The scene's named entities that still exist, in file order."""
        return [e for e in self.names if self.world.exists(e)]

    def step(self) -> list[Any]:
        """Resolve one turn; return its events."""
        return self.world.step()

    def yards_before_turn(self, entity: int) -> int | None:
        """Yards ``entity`` must still run straight before it may turn, if its rule set tracks that."""
        count = self.spec.rule_set.yards_before_turn
        return None if count is None else count(self.world, entity)

    def readouts(self, entity: int) -> list[str]:
        """The readouts the scene asks for on ``entity``, as ``label: value`` lines (those that apply now)."""
        lines = []
        for label in self.readout_names.get(entity, ()):
            try:
                lines.append(f"{label}: {self.spec.rule_set.readouts[label](self.world, entity)}")
            except MotionError:
                continue
        return lines

    def cast(self) -> str:
        """Who is who: ``1 Runner, 2 Car``."""
        return ", ".join(f"{entity} {name}" for entity, name in self.names.items())


def build_scene(spec: SceneSpec, seed: int | None = None) -> Scene:
    """A fresh world for ``spec`` (with ``seed`` in place of the file's), its rule set and script installed."""
    chosen = spec.seed if seed is None else seed
    world = World(seed=chosen)
    names: dict[int, str] = {}
    ids: dict[str, int] = {}
    for actor in spec.actors:
        entity = world.spawn()
        ids[actor.name] = entity
        names[entity] = actor.name
    intent_type = _intent_type(spec)
    scripted = _scripted(spec)
    for actor in spec.actors:
        entity = ids[actor.name]
        for cls, fields in actor.components:
            component = _construct(spec.path, f"entity {shown(actor.name)}", cls, fields, ids)
            try:
                world.add(entity, component)
            except LinkError as error:
                raise _link_error(spec.path, world, names, error, component) from None
        if actor.name in scripted and not world.has(entity, intent_type):
            world.add(entity, intent_type())
    try:
        check_links(world)  # both ways, now that every entity has all its components
    except LinkError as error:
        raise _link_error(spec.path, world, names, error) from None
    _check_members(spec, world, ids)
    zones = _spawn_zones(spec, world, ids)
    driver = ScriptSystem.of_scene(spec, world, ids)
    return _finish(spec, chosen, world, driver=driver, ids=ids, zones=zones)


@dataclass(frozen=True, slots=True)
class Blueprint:
    """A scene read and built once with every check (:meth:`of`, through :func:`build_scene`), for building it again
    and again: an outcome study builds one world per run.

    :meth:`build` spawns each entity with copies of the checked build's components (:func:`esper_motion.ecs.duplicate`:
    what can change in place copied, nothing shared that a turn could change), so it leaves out every check whose
    outcome depends on the scene file alone, which the checked build passed: each component's own checks, the links
    between entities and each scripted field against the component it will change. What the builds share is the
    spec (never changed), ``ids`` (each entity's id, the same in every fresh world), ``parts`` (the checked build's
    components, never stepped), ``zones`` (each terrain hex entity's zone), ``script`` (the driver's data, which
    each driver reads into values of its own) and ``late``, the entities spawned empty and given their components
    once all exist (one with a goal naming an entity spawned after it).
    """

    spec: SceneSpec
    ids: dict[str, int]
    parts: tuple[tuple[Any, ...], ...]
    zones: dict[int, str]
    script: ScriptData
    late: frozenset[int] = frozenset()

    @classmethod
    def of(cls, spec: SceneSpec) -> Blueprint:
        """Build ``spec`` once with every check; a scene the checks refuse raises :class:`SceneError` here."""
        scene = build_scene(spec)
        world = scene.world
        parts = tuple(tuple(world.components(entity)) for entity in world.entities())
        world.close()
        ids = {name: entity for entity, name in scene.names.items()}
        return cls(spec, ids, parts, dict(scene.zones), scene.driver.data, _late(parts))

    def build(self, seed: int, *, transactional: bool = True) -> Scene:
        """A fresh world for the scene with dice ``seed``, as :func:`build_scene` makes it; with ``transactional``
        False, one that keeps no undo copy of its turns (``World(transactional=False)``)."""
        world = World(seed=seed, transactional=transactional)
        _spawn_all(world, self.parts, self.late)
        return _finish(self.spec, seed, world, driver=ScriptSystem(self.script), ids=self.ids, zones=dict(self.zones))


def _spawn_all(world: World, parts: tuple[tuple[Any, ...], ...], late: frozenset[int]) -> None:
    """Spawn entity 1, 2... of a fresh ``world`` with copies of ``parts``; those in ``late`` empty, given their
    components once every entity exists."""
    for entity, held in enumerate(parts, start=1):
        spawned = world.spawn() if entity in late else world.spawn(*map(duplicate, held))
        assert spawned == entity, "a fresh world numbers its entities from 1, in spawn order"
    for entity in sorted(late):
        for part in parts[entity - 1]:
            world.add(entity, duplicate(part))


def _late(parts: tuple[tuple[Any, ...], ...]) -> frozenset[int]:
    """The entities of ``parts`` that cannot be spawned with their components before the entities after them exist
    (a goal naming its quarry, spawned later), found by spawning them so in a scratch world."""
    late = set()
    world = World(seed=0, transactional=False)
    try:
        for entity, held in enumerate(parts, start=1):
            try:
                world.spawn(*map(duplicate, held))
            except LinkError:  # nothing was spawned: the entity waits for the others
                world.spawn()
                late.add(entity)
    finally:
        world.close()
    return frozenset(late)


def _intent_type(spec: SceneSpec) -> type[Any]:
    """The class of the component the scene's rule set writes intents to."""
    try:
        return type_named(spec.rule_set.intent)
    except MotionError as error:
        raise SceneError(spec.path, "", "rules", str(error)) from None


def _scripted(spec: SceneSpec) -> set[str]:
    """The names of the entities the script gives orders to (each gets the rule set's intent component)."""
    return {name for turn in spec.script.values() for name in turn}


def _check_members(spec: SceneSpec, world: World, ids: Mapping[str, int]) -> None:
    """Refuse a scene entity its rule set counts as one of its own (``declare_members``) that is short of a component
    the rule set needs: the world would refuse it at the first step, by id."""
    declared = declared_members(spec.rules)
    if declared is None:
        return
    needs, marks = declared
    for name, entity in ids.items():
        held = {type(component) for component in world.components(entity)}
        missing = [kind for kind in needs if kind not in held]
        if missing and held.issuperset(marks):
            problem = (
                f"missing: an entity of the {spec.rules} rule set with {', '.join(map(name_of, marks))} needs "
                f"{', '.join(map(name_of, needs))}"
            )
            raise SceneError(spec.path, f"entity {shown(name)}", ", ".join(map(name_of, missing)), problem)


def _spawn_zones(spec: SceneSpec, world: World, ids: Mapping[str, int]) -> dict[int, str]:
    """Spawn every hex of every terrain zone with the zone's components, and every hex of the map's edge with the
    edge's; return each zone hex entity's zone label (the edge is no zone: it is not drawn)."""
    zones: dict[int, str] = {}
    for zone in spec.zones:
        for hex in zone.hexes:
            built = [_construct(spec.path, f"terrain {shown(zone.label)}", cls, f, ids) for cls, f in zone.components]
            zones[world.spawn(Position(*hex), *built)] = zone.label
    if spec.edge:
        for hex in spec.edge_hexes():
            world.spawn(Position(*hex), *(_construct(spec.path, "map edge", cls, f, ids) for cls, f in spec.edge))
    return zones


def _finish(
    spec: SceneSpec, seed: int, world: World, *, driver: ScriptSystem, ids: Mapping[str, int], zones: dict[int, str]
) -> Scene:
    """Install the rule set and the driver into ``world`` (the driver last in its phase: after the planner of movers
    with goals, so a scripted intent overrides the plan for its turn); the scene, with what the renderer shows."""
    rule_set_named(spec.rules).install(world, spec.options)
    world.add_system(driver)
    names = {entity: name for name, entity in ids.items()}
    colours = {ids[a.name]: a.colour for a in spec.actors}
    readouts = {ids[a.name]: a.readouts for a in spec.actors if a.readouts}
    return Scene(spec, seed, world, driver, names, colours, zones, readouts)


def _link_error(path: Path, world: World, names: Mapping[int, str], error: LinkError, adding: Any = None) -> SceneError:
    """A link between scene entities that cannot stand (in the world, or in the component ``adding``), named as the
    file names things: entity and field."""
    present = [*world.components(error.entity), adding]
    kind = next((type(c) for c in present if type(c).__name__ == error.component), None)
    component = name_of(kind) if kind is not None else error.component
    value = names.get(error.value, error.value) if isinstance(error.value, int) else error.value
    problem = _ENTITY.sub(lambda m: repr(names.get(int(m.group(1)), m.group(0))), error.problem)
    problem = _CHAIN.sub(lambda m: " -> ".join(repr(names.get(int(e), e)) for e in m.group(0).split(" -> ")), problem)
    where = f"entity {names[error.entity]!r}" if error.entity in names else f"entity {error.entity}"
    return SceneError(path, where, f"{component}.{error.field}", f"{shown(value)}: {problem}")


def turn_log(turn: int, events: Iterable[Event], names: Mapping[int, str] | None = None) -> list[str]:
    """The log lines of one turn: a heading, then each event's own description (a roll tells its story).

    With ``names``, "entity 3" in a description reads as that entity's name.
    """
    lines = [f"turn {turn}"]
    for event in events:
        line = event.describe()
        lines.append(f"  {named(line, names) if names else line}")
    return lines


def named(text: str, names: Mapping[int, str]) -> str:
    """``text`` with "entity 3" read as that entity's name, where ``names`` has it."""
    return _ENTITY.sub(lambda m: names.get(int(m.group(1)), m.group(0)), text)


def load_scene(name: str, seed: int | None = None) -> World:
    """A world ready to step for scene ``name``: its entities, terrain, rules and script installed.

    ``seed`` replaces the file's seed. Stepping the world plays the scene's script turn by turn.
    """
    return build_scene(read_scene(name), seed).world


# --- checking -------------------------------------------------------------------------------------------


def _values(path: Path, where: str, cls: type[Any], fields: dict[str, Any], ids: Mapping[str, int]) -> dict[str, Any]:
    """Scene ``fields`` for component ``cls``, converted to what its fields hold; unknown fields are errors."""
    name = name_of(cls)
    kinds, known, plain = _fields_of(cls)
    values: dict[str, Any] = {}
    for key, value in fields.items():
        if key in plain and not isinstance(value, dict):
            values[key] = value  # what _convert gives such a value for such a field
            continue
        if key not in known:
            raise SceneError(path, where, f"{name}.{key}", f"no such field; {name} has {', '.join(known)}")
        try:
            values[key] = _convert(value, kinds.get(key), ids)
        except ValueError as error:
            raise SceneError(path, where, f"{name}.{key}", str(error)) from None
    return values


_FIELDS_OF: Final[dict[type[Any], tuple[dict[str, Kind], tuple[str, ...], frozenset[str]]]] = {}


def _fields_of(cls: type[Any]) -> tuple[dict[str, Kind], tuple[str, ...], frozenset[str]]:
    """The kinds of the fields of component ``cls`` (:func:`esper_motion.ecs.fields.plan`), its init field names,
    and those of its init fields whose values :func:`_convert` leaves as they are unless they are tables (a field
    declared a number, text or a dataclass): worked out once per class."""
    found = _FIELDS_OF.get(cls)
    if found is None:
        try:
            read = plan(cls)
        except FieldTypeError:  # a component whose field types have no plan: take the values as written
            known = tuple(f.name for f in dataclasses.fields(cls) if f.init)
            found = _FIELDS_OF[cls] = ({}, known, frozenset(known))
            return found
        kinds = {f.name: f.kind for f in read.fields if f.init}
        plain = frozenset(key for key, kind in kinds.items() if isinstance(kind, (Plain, DataclassOf)))
        found = _FIELDS_OF[cls] = (kinds, tuple(kinds), plain)
    return found


def _construct(path: Path, where: str, cls: type[Any], fields: dict[str, Any], ids: Mapping[str, int]) -> Any:
    """Build component ``cls`` from scene ``fields`` so that its own checks run; errors become SceneErrors."""
    values = _values(path, where, cls, fields, ids)
    try:
        return cls(**values)
    except MotionError as error:
        raise _component_error(path, where, cls, error) from None
    except TypeError as error:
        raise SceneError(path, where, name_of(cls), str(error)) from None


def _replace(path: Path, where: str, component: Any, values: dict[str, Any]) -> Any:
    """``component`` with ``values`` in place of its fields, checked by the component; errors become SceneErrors."""
    try:
        return dataclasses.replace(component, **values)
    except MotionError as error:
        raise _component_error(path, where, type(component), error) from None


def _component_error(path: Path, where: str, cls: type[Any], error: MotionError) -> SceneError:
    bad = getattr(error, "field", "")
    return SceneError(path, where, f"{name_of(cls)}.{bad}" if bad else name_of(cls), str(error))


def _convert(value: Any, kind: Kind | None, ids: Mapping[str, int]) -> Any:
    """Turn a TOML value into what a field of ``kind`` holds: entity references, enums, tuples (a field of no known
    kind takes the value as written)."""
    if isinstance(value, dict) and set(value) == {"entity"}:
        target = value["entity"]
        if not isinstance(target, str) or target not in ids:
            raise ValueError(f"{shown(target)} is not an entity of this scene; entities: {', '.join(ids)}")
        return ids[target]
    match kind:
        case OptionalOf(inner=inner) if value is not None:
            return _convert(value, inner, ids)
        case EnumOf(declared=declared) if not isinstance(value, declared):
            try:
                return declared(value)
            except ValueError:
                allowed = ", ".join(repr(m.value) for m in declared)
                raise ValueError(f"{shown(value)} is not one of {allowed}") from None
        case TupleOf(items=items, rest=rest) if isinstance(value, list):
            # each item by its own kind; items past a fixed tuple's length as written, for the component to refuse
            each = (rest,) * len(value) if rest is not None else items + (None,) * (len(value) - len(items))
            return tuple(_convert(v, k, ids) for v, k in zip(value, each, strict=False))
        case ListOf(item=item) if isinstance(value, list):
            return [_convert(v, item, ids) for v in value]
        case DictOf(value=inner) if isinstance(value, dict):
            return {k: _convert(v, inner, ids) for k, v in value.items()}
    return value

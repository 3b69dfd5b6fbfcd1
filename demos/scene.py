"""Scene files: TOML under ``demos/scenes/``, checked on load, built into a World that follows its script.

A scene names its rule set and options, a seed, a map, terrain, entities and a script. Everything game-specific
lives in the file; the loader knows only the few things each rule set needs (:data:`RULE_SETS`), and the
renderer draws from the components, so a new scene needs no code. The format::

    title = "Sprint"                      # shown in the window
    description = "One line for --list."
    rules = "gurps"                        # a key of RULE_SETS
    seed = 7                               # the world's dice seed (--seed overrides it)
    turns = 8                              # how many turns a headless run shows by default

    [options]                              # fields of the rule set's options (gurps.Rules, spelljammer.Options);
    preset = "basic"                       # preset starts from a class method such as Rules.basic() or
    turning_radius = "basic"               # Rules.house()

    [map]                                  # width columns by height rows of hexes; row r = 0 runs through
    width = 40                             # the middle, and hex (q, 0) sits in column q
    height = 9

    [[terrain]]                            # a zone: components put on each of its hexes, and a legend label
    label = "mud"
    line = [[10, 0], [15, 0]]              # or hexes = [[q, r], ...], or disc = { centre = [q, r], radius = 2 }
    components = { "gurps.Footing" = { extra_cost = 1, name = "mud" } }

    [[entity]]                             # an actor: a name, a colour, components by registered name
    name = "Runner"
    colour = "#f2c14e"
    readouts = []                          # rule-set queries to show for it, e.g. ["couched lance"]
    [entity.components]
    Position = { q = 0, r = 0 }
    "gurps.Mover" = { basic_move = 6, dx = 12 }

    [script.2]                             # before turn 2 (the first step is turn 1):
    dice = [6, 6, 5]                       #   faces the next dice will show
    Runner = { throttle = 2, push = true } #   fields of the rule set's intent component, and of any other
                                           #   component by registered name: { "gurps.FlightIntent" = {...} }

A scripted field changes the entity's component in place and stays until something changes it again (the
rules may clear an intent at the end of a turn). An entity with a script gets the rule set's intent component
if it has none.

A field written ``{ entity = "Horse" }`` stands for that entity's id (a rider's mount, a pursuer's quarry). Strings
become enum members where the field is an enum, lists become tuples where it is a tuple (a hex).

A ``[study]`` table is for outcome studies (``esper-motion study``, :mod:`esper_motion.studies`), which read it;
playing a scene ignores it.

Every mistake raises :class:`SceneError` naming the file, the entity (or terrain zone, or script turn) and the
field, and what would have been allowed.
"""

from __future__ import annotations

import dataclasses
import enum
import importlib
import json
import math
import re
import sys
import types
import typing
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import esper_motion.components  # noqa: F401  (registers the shared component names)
from esper_motion.components import Control, Mover, MoveState, Position, Rider
from esper_motion.ecs import (
    Event,
    Hex,
    LinkError,
    MotionError,
    Phase,
    System,
    World,
    check_links,
    duplicate,
    hexgrid,
    name_of,
    register_system,
    rule_set_named,
    type_named,
)
from esper_motion.ecs.errors import shown
from esper_motion.systems import gurps

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib  # type: ignore[import-not-found,unused-ignore]

SCENE_DIR: Final = Path(__file__).with_name("scenes")
"""Where the bundled scene files live."""

DEFAULT_SCENE: Final = "sprint"
"""The scene ``esper-motion`` runs when given no name."""

MAX_SCENE_BYTES: Final = 1_000_000
"""The largest scene file read, in bytes."""

MAX_TURNS: Final = 1_000
"""The most turns a scene may ask a headless run for (``turns``), and the last turn a script may name."""

MAX_ENTITIES: Final = 1_000
"""The most entities (``[[entity]]``) and the most terrain zones (``[[terrain]]``) a scene may have."""

MAX_TERRAIN_HEXES: Final = 100_000
"""The most terrain hexes all zones of a scene may cover together (a hex counts once per zone covering it)."""

_COLOUR: Final = re.compile(r"#[0-9a-fA-F]{6}")
_TURN: Final = re.compile(r"[1-9][0-9]{0,5}")
_RESERVED_SCRIPT_KEYS: Final = ("dice",)
_ENTITY: Final = re.compile(r"\bentity (\d+)\b")
_CHAIN: Final = re.compile(r"\b\d+(?: -> \d+)+\b")


class SceneError(MotionError):
    """A scene file that cannot be used; the message names the file, the entity or zone, and the field."""

    def __init__(self, path: Path | str, where: str, field: str, problem: str) -> None:
        self.path = str(path)
        self.where = where
        self.field = field
        self.problem = problem
        located = f"{self.path}: {where}" if where else self.path
        super().__init__(f"{located}: {field}: {problem}" if field else f"{located}: {problem}")


@dataclass(frozen=True, slots=True)
class DemoRuleSet:
    """What the demos need to know about one rule set, beyond what it registered with
    ``esper_motion.ecs.register_rule_set``.

    ``module`` is imported so the rule set registers itself (its install function and options type); a scene's
    ``[options]`` become that options type (``preset`` names a class method such as ``basic`` or ``house``,
    the other keys replace fields). ``intent`` is the registered name of the component a script writes;
    ``steer`` and ``throttle`` name its fields the window's arrow keys and +/- change (``None`` when it has no
    such field); ``steer_wraps`` is set when the steering field is an absolute direction that wraps round
    (six hexsides) rather than a change counted from 0 each turn. ``yards_before_turn`` gives the
    turning-radius ticks. ``readouts`` are queries a scene may show for an entity
    (``readouts = ["couched lance"]``): each returns one line, or raises a ``MotionError`` when it does not apply.
    ``die_faces`` is the highest face a script's ``dice`` may show (the largest die the rule set rolls).
    """

    module: str
    intent: str
    steer: str | None = None
    steer_wraps: int | None = None
    throttle: str | None = None
    yards_before_turn: Callable[[World, int], int | None] | None = None
    readouts: Mapping[str, Callable[[World, int], str]] = field(default_factory=dict)
    die_faces: int = 6


def gurps_yards_before_turn(world: World, entity: int) -> int | None:
    """Yards a GURPS mover at high speed must still run straight before it may turn without a roll.

    The rule set's own figure (``esper_motion.systems.gurps.movement_limits(...).free_turn_yd``); None
    when the entity is not at high speed, is no GURPS mover, or cannot turn under its own power (Basic Set: High-Speed
    Movement > Direction and Turning Radius).
    """
    control = world.try_get(entity, Control)
    if control is None or control.state is not MoveState.HIGH_SPEED:
        return None
    try:
        free = gurps.movement_limits(world, entity).free_turn_yd
    except MotionError:
        return None
    return None if math.isinf(free) else int(free)


def gurps_couched_lance(world: World, rider: int) -> str:
    """The damage of a lance couched by a mounted rider, and where it comes from: the mount's ST times the
    yards it moved last turn, over 100, in dice, +3 (``esper_motion.systems.gurps.couched_lance``; Basic
    Set: Mounted Combat > Cavalry Weapons > Lances)."""
    attack = gurps.couched_lance(world, rider)
    mount = world.get(rider, Rider).mount
    assert mount is not None  # couched_lance refuses a rider on foot
    st = world.get(mount, Mover).st
    moved = world.get(mount, Control).moved_yd
    return f"{attack.damage} {attack.damage_type} (mount ST {st} x {moved} yd / 100)"


RULE_SETS: Final[dict[str, DemoRuleSet]] = {
    "gurps": DemoRuleSet(
        "esper_motion.systems.gurps",
        "gurps.Intent",
        steer="turn",
        throttle="throttle",
        yards_before_turn=gurps_yards_before_turn,
        readouts={"couched lance": gurps_couched_lance},
    ),
    "spelljammer": DemoRuleSet(
        "esper_motion.systems.spelljammer", "spelljammer.RoundIntent", steer="heading", steer_wraps=6, die_faces=100
    ),
}
"""The rule sets a scene may name in ``rules``."""


@dataclass(frozen=True, slots=True)
class Zone:
    """One terrain zone: its legend label, the hexes it covers and the components each hex gets."""

    label: str
    hexes: tuple[Hex, ...]
    components: tuple[tuple[type[Any], dict[str, Any]], ...]


@dataclass(frozen=True, slots=True)
class Actor:
    """One entity of a scene as written: name, colour and (component class, fields) pairs."""

    name: str
    colour: tuple[int, int, int]
    components: tuple[tuple[type[Any], dict[str, Any]], ...]
    readouts: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class SceneSpec:
    """A scene file, read and checked, not yet built into a world."""

    path: Path
    name: str
    title: str
    description: str
    rules: str
    options: Any
    seed: int
    turns: int
    width: int
    height: int
    zones: tuple[Zone, ...]
    actors: tuple[Actor, ...]
    script: dict[int, dict[str, dict[str, dict[str, Any]]]]
    dice: dict[int, tuple[int, ...]]

    @property
    def rule_set(self) -> DemoRuleSet:
        """The rule set this scene plays."""
        return RULE_SETS[self.rules]

    def rows(self) -> range:
        """The map's rows, bottom to top; row 0 runs through the middle."""
        low = -(self.height // 2)
        return range(low, low + self.height)

    def on_map(self, hex: Hex) -> bool:
        """Whether ``hex`` lies on the map."""
        return hex[1] in self.rows() and 0 <= column(hex) < self.width

    def map_hexes(self) -> list[Hex]:
        """Every hex of the map, row by row from the bottom."""
        return rectangle(self.rows(), range(self.width))


def rectangle(rows: range, columns: range) -> list[Hex]:
    """Every hex in ``rows`` and map ``columns`` (:func:`column`), row by row from the bottom."""
    return [(c - (r - (r & 1)) // 2, r) for r in rows for c in columns]


def column(hex: Hex) -> int:
    """The map column of an axial hex (rows alternate half a hex, so the map is a rectangle)."""
    q, r = hex
    return q + (r - (r & 1)) // 2


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
    """Demo driver, first in the ``INTENT`` phase: sets each turn's scripted fields and queues its dice.

    A scripted field changes the component the entity already has, in place (no component is added during a
    turn), and the component's own checks run on the result. ``manual`` holds fields of the rule set's intent
    component that the window's keys set for the next turn; they apply over the script. A save holds the script
    (:class:`ScriptData`), so a loaded scene plays on as the saved one would.
    """

    phase = Phase.INTENT

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


# --- reading -------------------------------------------------------------------------------------------


def scene_names() -> list[str]:
    """The bundled scenes, by file name without ``.toml``, in order (the default scene first)."""
    names = sorted(p.stem for p in SCENE_DIR.glob("*.toml"))
    if DEFAULT_SCENE in names:
        names.remove(DEFAULT_SCENE)
        names.insert(0, DEFAULT_SCENE)
    return names


def scene_path(name: str) -> Path:
    """The file of bundled scene ``name``, or ``name`` itself when it is a path to a ``.toml`` file."""
    if name.endswith(".toml"):
        path = Path(name)
        if not path.is_file():
            raise SceneError(path, "", "", "no such scene file")
        return path
    if name not in scene_names():
        raise SceneError(SCENE_DIR, "", "", f"unknown scene {shown(name)}; known scenes: {', '.join(scene_names())}")
    return SCENE_DIR / f"{name}.toml"


def read_scene(name: str) -> SceneSpec:
    """Read and check scene ``name`` (a bundled name or a path to a ``.toml`` file)."""
    path = scene_path(name)
    try:
        with path.open("rb") as stream:
            raw = stream.read(MAX_SCENE_BYTES + 1)
    except OSError as error:
        raise SceneError(path, "", "", f"cannot be read: {error.strerror or error}") from None
    if len(raw) > MAX_SCENE_BYTES:
        raise SceneError(path, "", "", f"larger than {MAX_SCENE_BYTES:,} bytes, the most a scene file may hold")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise SceneError(path, "", "", f"not UTF-8 text (byte {error.start}: {error.reason})") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise SceneError(path, "", "", f"not valid TOML: {error}") from None
    return scene_from_data(path, data)


def scene_from_data(path: Path, data: dict[str, Any]) -> SceneSpec:
    """Check the parsed TOML ``data`` of scene file ``path`` (named in every error) and read it."""
    return _Reader(path).scene(data)


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
    components, never stepped), ``zones`` (each terrain hex entity's zone) and ``script`` (the driver's data, which
    each driver reads into values of its own).
    """

    spec: SceneSpec
    ids: dict[str, int]
    parts: tuple[tuple[Any, ...], ...]
    zones: dict[int, str]
    script: ScriptData

    @classmethod
    def of(cls, spec: SceneSpec) -> Blueprint:
        """Build ``spec`` once with every check; a scene the checks refuse raises :class:`SceneError` here."""
        scene = build_scene(spec)
        world = scene.world
        parts = tuple(tuple(world.components(entity)) for entity in world.entities())
        world.close()
        ids = {name: entity for entity, name in scene.names.items()}
        return cls(spec, ids, parts, dict(scene.zones), scene.driver.data)

    def build(self, seed: int, *, transactional: bool = True) -> Scene:
        """A fresh world for the scene with dice ``seed``, as :func:`build_scene` makes it; with ``transactional``
        False, one that keeps no undo copy of its turns (``World(transactional=False)``)."""
        world = World(seed=seed, transactional=transactional)
        for entity, parts in enumerate(self.parts, start=1):
            spawned = world.spawn(*map(duplicate, parts))
            assert spawned == entity, "a fresh world numbers its entities from 1, in spawn order"
        return _finish(self.spec, seed, world, driver=ScriptSystem(self.script), ids=self.ids, zones=dict(self.zones))


def _intent_type(spec: SceneSpec) -> type[Any]:
    """The class of the component the scene's rule set writes intents to."""
    try:
        return type_named(spec.rule_set.intent)
    except MotionError as error:
        raise SceneError(spec.path, "", "rules", str(error)) from None


def _scripted(spec: SceneSpec) -> set[str]:
    """The names of the entities the script gives orders to (each gets the rule set's intent component)."""
    return {name for turn in spec.script.values() for name in turn}


def _spawn_zones(spec: SceneSpec, world: World, ids: Mapping[str, int]) -> dict[int, str]:
    """Spawn every hex of every terrain zone with the zone's components; return each hex entity's zone label."""
    zones: dict[int, str] = {}
    for zone in spec.zones:
        for hex in zone.hexes:
            built = [_construct(spec.path, f"terrain {shown(zone.label)}", cls, f, ids) for cls, f in zone.components]
            zones[world.spawn(Position(*hex), *built)] = zone.label
    return zones


def _finish(
    spec: SceneSpec, seed: int, world: World, *, driver: ScriptSystem, ids: Mapping[str, int], zones: dict[int, str]
) -> Scene:
    """Install the driver and the rule set into ``world``; the scene, with what the renderer shows."""
    world.add_system(driver)
    rule_set_named(spec.rules).install(world, spec.options)
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
        if names:
            line = _ENTITY.sub(lambda m: names.get(int(m.group(1)), m.group(0)), line)
        lines.append(f"  {line}")
    return lines


def load_scene(name: str, seed: int | None = None) -> World:
    """A world ready to step for scene ``name``: its entities, terrain, rules and script installed.

    ``seed`` replaces the file's seed. Stepping the world plays the scene's script turn by turn.
    """
    return build_scene(read_scene(name), seed).world


# --- checking -------------------------------------------------------------------------------------------


def _values(path: Path, where: str, cls: type[Any], fields: dict[str, Any], ids: Mapping[str, int]) -> dict[str, Any]:
    """Scene ``fields`` for component ``cls``, converted to what its fields hold; unknown fields are errors."""
    name = name_of(cls)
    hints, known, plain = _fields_of(cls)
    values: dict[str, Any] = {}
    for key, value in fields.items():
        if key in plain and not isinstance(value, dict):
            values[key] = value  # what _convert gives such a value for such a field
            continue
        if key not in known:
            raise SceneError(path, where, f"{name}.{key}", f"no such field; {name} has {', '.join(known)}")
        try:
            values[key] = _convert(value, hints.get(key, Any), ids)
        except ValueError as error:
            raise SceneError(path, where, f"{name}.{key}", str(error)) from None
    return values


_FIELDS_OF: Final[dict[type[Any], tuple[dict[str, Any], tuple[str, ...], frozenset[str]]]] = {}


def _fields_of(cls: type[Any]) -> tuple[dict[str, Any], tuple[str, ...], frozenset[str]]:
    """The type hints and the init field names of component ``cls``, and those of its init fields whose values
    :func:`_convert` leaves as they are unless they are tables (a field declared neither an enum nor a generic
    such as a tuple, a list, a dict or a union): worked out once per class (resolving the hints is most of what
    building a scene costs)."""
    found = _FIELDS_OF.get(cls)
    if found is None:
        try:
            hints = typing.get_type_hints(cls)
        except Exception:  # a component whose annotations cannot be resolved: take the values as written
            hints = {}
        known = tuple(f.name for f in dataclasses.fields(cls) if f.init)
        plain = frozenset(key for key in known if _plain_hint(hints.get(key, Any)))
        found = _FIELDS_OF[cls] = (hints, known, plain)
    return found


def _plain_hint(hint: Any) -> bool:
    """Whether :func:`_convert` returns any value but a table as it is for a field of type ``hint``."""
    is_enum = isinstance(hint, type) and issubclass(hint, enum.Enum)
    return typing.get_origin(hint) is None and not is_enum


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


def _convert(value: Any, hint: Any, ids: Mapping[str, int]) -> Any:
    """Turn a TOML value into what a field of type ``hint`` holds: entity references, enums, tuples."""
    if isinstance(value, dict) and set(value) == {"entity"}:
        target = value["entity"]
        if not isinstance(target, str) or target not in ids:
            raise ValueError(f"{shown(target)} is not an entity of this scene; entities: {', '.join(ids)}")
        return ids[target]
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        arms = [arm for arm in typing.get_args(hint) if arm is not type(None)]
        return _convert(value, arms[0], ids) if len(arms) == 1 and value is not None else value
    if isinstance(hint, type) and issubclass(hint, enum.Enum) and not isinstance(value, hint):
        try:
            return hint(value)
        except ValueError:
            allowed = ", ".join(repr(m.value) for m in hint)
            raise ValueError(f"{shown(value)} is not one of {allowed}") from None
    if origin is tuple and isinstance(value, list):
        args = typing.get_args(hint)
        inner = args[0] if args else Any
        return tuple(_convert(v, inner, ids) for v in value)
    if origin is list and isinstance(value, list):
        args = typing.get_args(hint)
        return [_convert(v, args[0] if args else Any, ids) for v in value]
    if origin is dict and isinstance(value, dict):
        args = typing.get_args(hint)
        inner = args[1] if len(args) == 2 else Any
        return {k: _convert(v, inner, ids) for k, v in value.items()}
    return value


class _Reader:
    """Checks one scene file's data, naming the file in every error."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def fail(self, where: str, field: str, problem: str) -> SceneError:
        return SceneError(self.path, where, field, problem)

    def take(
        self, table: dict[str, Any], where: str, key: str, kind: type | tuple[type, ...], default: Any = ...
    ) -> Any:
        if key not in table:
            if default is ...:
                raise self.fail(where, key, "missing")
            return default
        value = table[key]
        if not isinstance(value, kind) or (isinstance(value, bool) and bool not in _as_tuple(kind)):
            names = " or ".join(k.__name__ for k in _as_tuple(kind))
            raise self.fail(where, key, f"{shown(value)} is not a {names}")
        return value

    def only(self, table: dict[str, Any], where: str, allowed: tuple[str, ...]) -> None:
        for key in table:
            if key not in allowed:
                raise self.fail(where, key, f"unknown key; expected one of {', '.join(allowed)}")

    def scene(self, data: dict[str, Any]) -> SceneSpec:
        top = ("title", "description", "rules", "options", "seed", "turns", "map", "terrain", "entity", "script")
        self.only(data, "", (*top, "study"))  # [study] is read by esper_motion.studies
        rules = self.take(data, "", "rules", str)
        if rules not in RULE_SETS:
            raise self.fail("", "rules", f"{shown(rules)} is not a rule set; expected one of {', '.join(RULE_SETS)}")
        self.rule_module(rules)
        options = self.options(rules, self.take(data, "", "options", dict, {}))
        seed = self.take(data, "", "seed", int)
        turns = self.take(data, "", "turns", int, 8)
        if not 1 <= turns <= MAX_TURNS:
            raise self.fail("", "turns", f"{turns} is not a whole number from 1 to {MAX_TURNS}")
        board = self.take(data, "", "map", dict)
        self.only(board, "map", ("width", "height"))
        width = self.take(board, "map", "width", int)
        height = self.take(board, "map", "height", int)
        for key, value in (("width", width), ("height", height)):
            if not 1 <= value <= 200:
                raise self.fail("map", key, f"{value} is not a whole number from 1 to 200")
        spec = SceneSpec(
            path=self.path,
            name=self.path.stem,
            title=self.take(data, "", "title", str, self.path.stem),
            description=self.take(data, "", "description", str),
            rules=rules,
            options=options,
            seed=seed,
            turns=turns,
            width=width,
            height=height,
            zones=(),
            actors=(),
            script={},
            dice={},
        )
        actors = tuple(self.actor(spec, i, a) for i, a in enumerate(self.most(data, "entity", list)))
        names = [a.name for a in actors]
        for name in names:
            if names.count(name) > 1:
                raise self.fail(f"entity {shown(name)}", "name", "two entities share this name")
        zones: list[Zone] = []
        covered = 0
        for index, table in enumerate(self.most(data, "terrain", [])):
            zones.append(self.zone(spec, index, table))
            covered += len(zones[-1].hexes)
            if covered > MAX_TERRAIN_HEXES:  # checked zone by zone: the work stops at the bound
                raise self.fail(
                    "", "terrain", f"its zones cover {covered:,} hexes or more; at most {MAX_TERRAIN_HEXES:,}"
                )
        script, dice = self.script(spec, names, self.take(data, "", "script", dict, {}))
        return dataclasses.replace(spec, actors=actors, zones=tuple(zones), script=script, dice=dice)

    def most(self, data: dict[str, Any], key: str, default: Any = ...) -> list[Any]:
        """The list under ``key``, of at most :data:`MAX_ENTITIES` tables."""
        found: list[Any] = self.take(data, "", key, list, default)
        if len(found) > MAX_ENTITIES:
            raise self.fail("", key, f"{len(found):,} tables; at most {MAX_ENTITIES:,}")
        return found

    def rule_module(self, rules: str) -> types.ModuleType:
        try:
            return importlib.import_module(RULE_SETS[rules].module)
        except ImportError as error:
            raise self.fail("", "rules", f"rule set {shown(rules)} cannot be imported: {error}") from None

    def options(self, rules: str, table: dict[str, Any]) -> Any:
        options_type = rule_set_named(rules).options_type
        kind = options_type.__name__
        preset = self.take(table, "options", "preset", str, None)
        presets = [name for name, found in vars(options_type).items() if isinstance(found, classmethod)]
        if preset is not None and preset not in presets:
            listed = ", ".join(presets)
            raise self.fail("options", "preset", f"{shown(preset)} is not a preset of {kind}; presets: {listed}")
        make: Any = options_type if preset is None else getattr(options_type, preset)
        chosen = {k: v for k, v in table.items() if k != "preset"}
        known = [f.name for f in dataclasses.fields(options_type)]
        for key in chosen:
            if key not in known:
                raise self.fail("options", key, f"not an option of {kind}; options: {', '.join(known)}")
        try:
            return dataclasses.replace(make(), **chosen)
        except MotionError as error:
            raise self.fail("options", getattr(error, "field", ""), str(error)) from None

    def components(self, where: str, table: Any) -> tuple[tuple[type[Any], dict[str, Any]], ...]:
        if not isinstance(table, dict):
            raise self.fail(where, "components", f"{shown(table)} is not a table of components by registered name")
        found = []
        for name, fields in table.items():
            try:
                cls = type_named(name)
            except MotionError as error:
                raise self.fail(where, name, str(error)) from None
            if not isinstance(fields, dict):
                raise self.fail(where, name, f"{shown(fields)} is not a table of fields")
            found.append((cls, fields))
        return tuple(found)

    def actor(self, spec: SceneSpec, index: int, table: Any) -> Actor:
        where = f"entity #{index + 1}"
        if not isinstance(table, dict):
            raise self.fail(where, "", "not a table")
        name = self.take(table, where, "name", str)
        where = f"entity {shown(name)}"
        self.only(table, where, ("name", "colour", "components", "readouts"))
        if name in _RESERVED_SCRIPT_KEYS:
            raise self.fail(where, "name", f"{shown(name)} is reserved in scripts; choose another name")
        colour = self.take(table, where, "colour", str)
        if not _COLOUR.fullmatch(colour):
            raise self.fail(where, "colour", f"{shown(colour)} is not a colour like '#f2c14e'")
        parts = self.components(where, self.take(table, where, "components", dict))
        position = next((fields for cls, fields in parts if cls is Position), None)
        if position is None:
            raise self.fail(where, "Position", "missing: every entity needs a Position on the map")
        hex = (position.get("q"), position.get("r"))
        if all(isinstance(v, int) for v in hex) and not spec.on_map(typing.cast(Hex, hex)):
            raise self.fail(where, "Position", f"{hex} is off the {spec.width} x {spec.height} map")
        rgb = (int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16))
        readouts = self.take(table, where, "readouts", list, [])
        for readout in readouts:
            if not isinstance(readout, str) or readout not in spec.rule_set.readouts:
                known = ", ".join(spec.rule_set.readouts) or "none"
                problem = f"{shown(readout)} is not a readout of {spec.rules}; readouts: {known}"
                raise self.fail(where, "readouts", problem)
        return Actor(name, rgb, parts, tuple(readouts))

    def zone(self, spec: SceneSpec, index: int, table: Any) -> Zone:
        where = f"terrain #{index + 1}"
        if not isinstance(table, dict):
            raise self.fail(where, "", "not a table")
        label = self.take(table, where, "label", str)
        where = f"terrain {shown(label)}"
        self.only(table, where, ("label", "hexes", "line", "disc", "components"))
        shapes = [key for key in ("hexes", "line", "disc") if key in table]
        if len(shapes) != 1:
            raise self.fail(where, "hexes", "give exactly one of hexes, line or disc")
        shape = shapes[0]
        if shape == "hexes":
            hexes = [self.hex(where, "hexes", h) for h in self.take(table, where, "hexes", list)]
        elif shape == "line":
            ends = self.take(table, where, "line", list)
            if len(ends) != 2:
                raise self.fail(where, "line", f"{shown(ends)} is not two hexes [[q, r], [q, r]]")
            start, end = self.hex(where, "line", ends[0]), self.hex(where, "line", ends[1])
            for hex in (start, end):  # before drawing the line: its length is then bounded by the map's
                if not spec.on_map(hex):
                    raise self.fail(where, "line", f"{hex} is off the {spec.width} x {spec.height} map")
            hexes = hexgrid.line(start, end)
        else:
            disc = self.take(table, where, "disc", dict)
            self.only(disc, f"{where} disc", ("centre", "radius"))
            centre = self.hex(where, "disc.centre", disc.get("centre"))
            radius = self.take(disc, where, "radius", int)
            hexes = _disc(spec, centre, radius)
        for hex in hexes:
            if not spec.on_map(hex):
                raise self.fail(where, shape, f"{hex} is off the {spec.width} x {spec.height} map")
        parts = self.components(where, self.take(table, where, "components", dict))
        if any(cls is Position for cls, _ in parts):
            raise self.fail(where, "Position", "terrain takes its positions from its shape")
        return Zone(label, tuple(dict.fromkeys(hexes)), parts)

    def hex(self, where: str, field: str, value: Any) -> Hex:
        if not (isinstance(value, list) and len(value) == 2 and all(type(v) is int for v in value)):
            raise self.fail(where, field, f"{shown(value)} is not a hex [q, r]")
        return (value[0], value[1])

    def script(
        self, spec: SceneSpec, names: list[str], table: dict[str, Any]
    ) -> tuple[dict[int, dict[str, dict[str, dict[str, Any]]]], dict[int, tuple[int, ...]]]:
        intent_name = spec.rule_set.intent
        script: dict[int, dict[str, dict[str, dict[str, Any]]]] = {}
        dice: dict[int, tuple[int, ...]] = {}
        for key, orders in table.items():
            where = f"script turn {key}"
            if not _TURN.fullmatch(key) or int(key) > MAX_TURNS:
                raise self.fail(where, "", f"turns are numbered from 1 to {MAX_TURNS} in digits 0-9")
            if not isinstance(orders, dict):
                raise self.fail(where, "", "not a table of entity names")
            turn = int(key)
            for name, fields in orders.items():
                if name == "dice":
                    most = spec.rule_set.die_faces
                    if not (isinstance(fields, list) and all(type(f) is int and 1 <= f <= most for f in fields)):
                        raise self.fail(where, "dice", f"{shown(fields)} is not a list of die faces from 1 to {most}")
                    dice[turn] = tuple(fields)
                    continue
                if name not in names:
                    raise self.fail(where, name, f"not an entity of this scene; entities: {', '.join(names)}")
                if not isinstance(fields, dict):
                    raise self.fail(where, name, f"{shown(fields)} is not a table of {intent_name} fields")
                parts: dict[str, dict[str, Any]] = {}
                for field_name, value in fields.items():
                    if not _plain(value):
                        raise self.fail(where, f"{name}.{field_name}", f"{shown(value)} is not plain data (a date?)")
                    if isinstance(value, dict) and _is_component(field_name):
                        parts[field_name] = value
                    else:
                        parts.setdefault(intent_name, {})[field_name] = value
                script.setdefault(turn, {})[name] = parts
        return script, dice


def _disc(spec: SceneSpec, centre: Hex, radius: int) -> list[Hex]:
    """The map's hexes within ``radius`` of ``centre``, row by row from the bottom as :meth:`SceneSpec.map_hexes`
    lists them, found around the centre (no more hexes looked at than a disc as wide as the map holds)."""
    reach = min(radius, spec.width + spec.height)
    q, r = centre
    found = [
        (q + dq, r + dr)
        for dq in range(-reach, reach + 1)
        for dr in range(max(-reach, -dq - reach), min(reach, -dq + reach) + 1)
        if spec.on_map((q + dq, r + dr))
    ]
    return sorted(found, key=lambda hex: (hex[1], column(hex)))


def _plain(value: Any) -> bool:
    """Whether a TOML value is text, a number, a flag, or a list or table of those (no date or time)."""
    if isinstance(value, (str, int, float, bool)):
        return True
    if isinstance(value, list):
        return all(_plain(item) for item in value)
    if isinstance(value, dict):
        return all(_plain(item) for item in value.values())
    return False


def _is_component(name: str) -> bool:
    """Whether ``name`` is a registered component name."""
    try:
        type_named(name)
    except MotionError:
        return False
    return True


def _as_tuple(kind: type | tuple[type, ...]) -> tuple[type, ...]:
    return kind if isinstance(kind, tuple) else (kind,)

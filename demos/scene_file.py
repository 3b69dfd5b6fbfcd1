"""Scene files: TOML under ``demos/scenes/``, read and checked into a :class:`SceneSpec`, which
:func:`esper_motion.demos.scene.build_scene` builds into a World that follows its script.

A scene names its rule set and options, a seed, a map, terrain, entities and a script. Everything game-specific
lives in the file; what the reader needs of a rule set, the rule set registered with it
(``esper_motion.ecs.register_rule_set(..., scene=SceneSupport(...))``), and the renderer draws from the
components, so a new scene needs no code, and a new rule set no edit here. The format::

    title = "Sprint"                      # shown in the window
    description = "One line for --list."
    rules = "gurps"                        # a rule set registered with scene support (scene_rule_sets())
    seed = 7                               # the world's dice seed (--seed overrides it)
    turns = 8                              # how many turns a headless run shows by default

    [options]                              # fields of the rule set's options (gurps.Rules, spelljammer.Options);
    preset = "basic"                       # preset starts from a class method such as Rules.basic() or
    turning_radius = "basic"               # Rules.house()

    [map]                                  # width columns by height rows of hexes; row r = 0 runs through
    width = 40                             # the middle, and hex (q, 0) sits in column q
    height = 9
    edge = { "gurps.Obstacle" = {} }       # optional: components put on each hex just outside the map, a fence
                                           # that goals route round and a skid runs into (not drawn)

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
    "gurps.GoTo" = { hex = [30, 0] }       # a goal, like any component: the planner writes its intents
    "gurps.Caution" = { failure_chance = 0.25 }   # (docs/goals.md); a Pursue names its quarry as
                                           # target = { entity = "Horse" }, a Patrol its waypoints = [[q, r], ...]

    [script.2]                             # before turn 2 (the first step is turn 1):
    dice = [6, 6, 5]                       #   faces the next dice will show
    Runner = { throttle = 2, push = true } #   fields of the rule set's intent component, and of any other
                                           #   component by registered name: { "gurps.FlightIntent" = {...} }

A scripted field changes the entity's component in place and stays until something changes it again (the
rules may clear an intent at the end of a turn). An entity with a script gets the rule set's intent component
if it has none. The script runs after the planner of movers with goals: a scripted intent field overrides a
mover's plan for that turn (a scripted moment), and the next turn's plan writes its intent again. A study plays
the scene with other dice, so a scripted order must be one no earlier roll can make impossible.

A goal is checked like every other table: one naming an entity the scene lacks (or the mover itself), a hex that
is not ``[q, r]`` or is off the map, an empty waypoint list or a caution outside 0 to 1 is refused naming the file,
the entity and the field.

A field written ``{ entity = "Horse" }`` stands for that entity's id (a rider's mount, a pursuer's quarry). Strings
become enum members where the field is an enum, lists become tuples where it is a tuple (a hex).

A ``[study]`` table is for outcome studies (``esper-motion study``, :mod:`esper_motion.studies`), which read it;
playing a scene ignores it.

Every mistake raises :class:`SceneError` naming the file, the entity (or terrain zone, or script turn) and the
field, and what would have been allowed.
"""

from __future__ import annotations

import dataclasses
import importlib
import pkgutil
import re
import sys
import typing
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import esper_motion.systems
from esper_motion.components import Position
from esper_motion.components.goals import place_fields
from esper_motion.ecs import (
    Hex,
    MotionError,
    SceneSupport,
    hexgrid,
    name_of,
    registered_rule_sets,
    rule_set_named,
    type_named,
)
from esper_motion.ecs.errors import shown

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


class SceneError(MotionError):
    """A scene file that cannot be used; the message names the file (``path``: empty for a scene name that is
    none), the entity or zone, and the field."""

    def __init__(self, path: Path | str, where: str, field: str, problem: str) -> None:
        self.path = str(path)
        self.where = where
        self.field = field
        self.problem = problem
        located = f"{self.path}: {where}" if where else self.path
        said = f"{field}: {problem}" if field else problem
        super().__init__(f"{located}: {said}" if located else said)


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
    edge: tuple[tuple[type[Any], dict[str, Any]], ...]
    script: dict[int, dict[str, dict[str, dict[str, Any]]]]
    dice: dict[int, tuple[int, ...]]

    @property
    def rule_set(self) -> SceneSupport:
        """What this scene's rule set registered for scene files."""
        support = rule_set_named(self.rules).scene
        assert support is not None, "the reader refuses a rule set without scene support"
        return support

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

    def edge_hexes(self) -> list[Hex]:
        """Every hex just outside the map (the ring round it), row by row from the bottom."""
        rows = range(self.rows().start - 1, self.rows().stop + 1)
        return [hex for hex in rectangle(rows, range(-1, self.width + 1)) if not self.on_map(hex)]


def rectangle(rows: range, columns: range) -> list[Hex]:
    """Every hex in ``rows`` and map ``columns`` (:func:`column`), row by row from the bottom."""
    return [(c - (r - (r & 1)) // 2, r) for r in rows for c in columns]


def column(hex: Hex) -> int:
    """The map column of an axial hex (rows alternate half a hex, so the map is a rectangle)."""
    q, r = hex
    return q + (r - (r & 1)) // 2


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
        known = ", ".join(scene_names())
        raise SceneError("", "", "", f"unknown scene {shown(name)} (nor a .toml file); known scenes: {known}")
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
    return scene_from_data(path, parse_toml(path, text))


def parse_toml(path: Path, text: str) -> dict[str, Any]:
    """The TOML document ``text`` of scene file ``path``; a :class:`SceneError` naming the file for text that is not
    TOML, or that nests tables and lists too deep for the reader."""
    try:
        data: dict[str, Any] = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise SceneError(path, "", "", f"not valid TOML: {error}") from None
    except RecursionError:
        raise SceneError(path, "", "", "nested too deep to read (lists and tables within each other)") from None
    return data


def scene_from_data(path: Path, data: dict[str, Any]) -> SceneSpec:
    """Check the parsed TOML ``data`` of scene file ``path`` (named in every error) and read it."""
    return _Reader(path).scene(data)


def scene_rule_sets() -> list[str]:
    """The rule sets a scene may name, in order: every rule set registered with scene support, and every bundled one
    (a package of :mod:`esper_motion.systems`, which registers the rule set of its own name when a scene names it)."""
    registered = [each.name for each in registered_rule_sets() if each.scene is not None]
    return sorted({*registered, *_bundled_rule_sets()})


def _bundled_rule_sets() -> list[str]:
    """The packages of :mod:`esper_motion.systems`: the bundled rule sets, by name."""
    return [found.name for found in pkgutil.iter_modules(esper_motion.systems.__path__) if found.ispkg]


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
        self.rule_set(rules)
        options = self.options(rules, self.take(data, "", "options", dict, {}))
        seed = self.take(data, "", "seed", int)
        turns = self.take(data, "", "turns", int, 8)
        if not 1 <= turns <= MAX_TURNS:
            raise self.fail("", "turns", f"{turns} is not a whole number from 1 to {MAX_TURNS}")
        board = self.take(data, "", "map", dict)
        self.only(board, "map", ("width", "height", "edge"))
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
            edge=self.edge(self.take(board, "map", "edge", dict, {})),
            script={},
            dice={},
        )
        actors = tuple(self.actor(spec, i, a) for i, a in enumerate(self.most(data, "entity", list)))
        names = [a.name for a in actors]
        read_as: dict[str, str] = {}
        for name in names:
            seen = read_as.setdefault(unicodedata.normalize("NFKC", name), name)
            if seen == name and names.count(name) > 1:
                raise self.fail(f"entity {shown(name)}", "name", "two entities share this name")
            if seen != name:
                raise self.fail(f"entity {shown(name)}", "name", f"reads as {shown(seen)}, the name of another entity")
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

    def rule_set(self, rules: str) -> SceneSupport:
        """What rule set ``rules`` registered for scene files, importing it first when it is bundled."""
        if rules in _bundled_rule_sets():
            try:
                importlib.import_module(f"{esper_motion.systems.__name__}.{rules}")
            except ImportError as error:
                raise self.fail("", "rules", f"rule set {shown(rules)} cannot be imported: {error}") from None
        found = next((each for each in registered_rule_sets() if each.name == rules), None)
        if found is None:
            raise self.fail(
                "", "rules", f"{shown(rules)} is not a rule set; expected one of {', '.join(scene_rule_sets())}"
            )
        if found.scene is None:
            problem = f"rule set {shown(rules)} registered no scene support (register_rule_set(..., scene=...))"
            raise self.fail("", "rules", problem)
        return found.scene

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
        hidden = next((c for c in name if unicodedata.category(c).startswith("C")), None)
        if hidden is not None:
            problem = f"{shown(name)} holds an invisible character, U+{ord(hidden):04X}; a name is visible text"
            raise self.fail(where, "name", problem)
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
        for cls, fields in parts:
            for field, place in _goal_places(cls, fields):
                if not spec.on_map(place):
                    problem = f"{place} is off the {spec.width} x {spec.height} map: a goal's places are on it"
                    raise self.fail(where, f"{name_of(cls)}.{field}", problem)
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

    def edge(self, table: dict[str, Any]) -> tuple[tuple[type[Any], dict[str, Any]], ...]:
        parts = self.components("map edge", table)
        if any(cls is Position for cls, _ in parts):
            raise self.fail("map edge", "Position", "the edge takes its positions from the map")
        return parts

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
                        off = _off_map(spec, value) if type_named(field_name) is Position else None
                        if off is not None:
                            problem = f"{off} is off the {spec.width} x {spec.height} map"
                            raise self.fail(where, f"{name}.{field_name}", problem)
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


def _goal_places(cls: type[Any], fields: dict[str, Any]) -> list[tuple[str, Hex]]:
    """The hexes the ``fields`` of component ``cls`` name in its places
    (:func:`esper_motion.components.goals.place_fields`: ``GoTo.hex``, each of ``Patrol.waypoints``), each with its
    field, as far as they are pairs of whole numbers (the component's own checks refuse any other)."""
    named: list[tuple[str, Any]] = []
    for name in place_fields(cls):
        value = fields.get(name)
        if isinstance(value, list) and value and all(isinstance(item, list) for item in value):
            named.extend((f"{name}[{i}]", item) for i, item in enumerate(value))
        else:
            named.append((name, value))
    return [
        (field, (value[0], value[1]))
        for field, value in named
        if isinstance(value, list) and len(value) == 2 and all(type(v) is int for v in value)
    ]


def _off_map(spec: SceneSpec, fields: dict[str, Any]) -> str | None:
    """Where scripted Position ``fields`` put an entity off the map, as an error shows it, or None. A script may set
    the row or the column alone: ``r`` must be a row of the map, ``q`` a column of some row (of row ``r`` if given)."""
    q, r = fields.get("q"), fields.get("r")
    if type(q) is int and type(r) is int:
        return None if spec.on_map((q, r)) else str((q, r))
    if type(r) is int:
        return None if r in spec.rows() else f"row {r}"
    if type(q) is int:
        return None if any(spec.on_map((q, row)) for row in spec.rows()) else f"q = {q}"
    return None  # no whole numbers: the component's own checks refuse what they are


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

"""What a study plays: a scene file's text, with overrides and a rule preset, read into a scene, and what its
``[study]`` table asks for.

A worker receives the text, never a built world, so the same work runs in a local process or on a cluster node.
An override ``ENTITY.COMPONENT.FIELD=VALUE`` changes one field of one entity's component before the scene is
read (``Knight.gurps.Skills.levels={Riding=14, Lance=14}``), giving the entity that component if the file gives it
none; the scene's own checks then apply to it, so a bad value is refused naming the file, the entity and the
field. VALUE is TOML (a number, ``true``, ``"text"``, ``[1, 2]``, ``{ entity = "Horse" }``); anything that is not
TOML is taken as text (``state=sitting``).

The scene's scripted dice are left out: in a study every roll comes from the run's seed.

The ``[study]`` table of a scene file::

    [study]
    outcomes = ["FellOff", "PanicChecked.panicked"]  # event types the report leads with (class names), or
                                                     # TYPE.FIELD: that event with a true-or-false field true
    fields = ["gurps.Mover.hp"]             # final values to record, beside DEFAULT_FIELDS

>>> Override.parse("Knight.gurps.Skills.levels={Riding = 14}").value
{'Riding': 14}
>>> Override.parse("Footman.gurps.Posture.state=kneeling")
Override(entity='Footman', component='gurps.Posture', field='state', raw='kneeling')
"""

from __future__ import annotations

import dataclasses
import functools
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from esper_motion.demos.scene import Blueprint
from esper_motion.demos.scene_file import SceneError, SceneSpec, parse_toml, scene_from_data, scene_path
from esper_motion.ecs import Event, MotionError, type_named
from esper_motion.ecs.errors import shown

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib  # type: ignore[import-not-found,unused-ignore]

DEFAULT_FIELDS: Final[tuple[tuple[str, str], ...]] = (
    ("Position", "q"),
    ("Position", "r"),
    ("Position", "altitude_yd"),
    ("Velocity", "yps"),
    ("gurps.Control", "state"),
    ("gurps.Posture", "state"),
    ("gurps.Condition", "injury"),
    ("gurps.Rider", "mount"),
)
"""The (registered component name, field) pairs a study records at the end of every run, for each named entity
that has the component: position, velocity, control state, posture, injury, and the mount a rider sits on."""

ENTITY_FIELDS: Final = frozenset({("gurps.Rider", "mount")})
"""Recorded fields that hold an entity id; the report names the entity instead (``none`` when unset)."""

RUN_STOPPED = "RunStopped"
"""What a study counts, for the entity and the turn, when the rules refuse a scripted intent (an
``IntentError``: the scene's script asked for something the dice of this run made impossible, such as standing
up after a trip that never happened). That run stops there; its fields are those of the turn before."""

LEFT_MAP = "LeftMap"
"""What a study counts, for the entity and the first turn it happened, when a named entity ends a turn off the
scene's map (a defect of the scene: its goals or script led a body off the board, or a skid carried it there)."""

_STUDY_KEYS: Final = ("outcomes", "fields")


class StudyError(MotionError):
    """A study that cannot run or cannot finish: the message names what was wrong (the scene, entity, component,
    field, outcome or value, or the run and worker) and what is allowed."""


class StudyRunError(StudyError):
    """A study that started but could not finish: a run whose turn could not be resolved (the message names the
    scene, the seed and the turn), or a worker that died (the seeds it held)."""


@dataclass(frozen=True, slots=True)
class Override:
    """One ``ENTITY.COMPONENT.FIELD=VALUE`` change to a scene, as written (``raw`` is VALUE's text)."""

    entity: str
    component: str
    field: str
    raw: str

    @classmethod
    def parse(cls, text: str) -> Override:
        """Read ``ENTITY.COMPONENT.FIELD=VALUE``, on one line; the component is a registered name and may hold
        dots."""
        if "\n" in text or "\r" in text:  # TOML would read the first line alone
            raise StudyError(f"override {shown(text)}: holds a line break; give one VALUE on one line")
        target, equals, raw = text.partition("=")
        parts = target.strip().split(".")
        if not equals or len(parts) < 3 or not all(parts):
            raise StudyError(
                f"override {text!r}: expected ENTITY.COMPONENT.FIELD=VALUE, as in Knight.gurps.Mover.dx=13"
            )
        return cls(parts[0], ".".join(parts[1:-1]), parts[-1], raw.strip())

    @property
    def value(self) -> Any:
        """VALUE read as TOML, or as text when it is not TOML."""
        try:
            return tomllib.loads(f"value = {self.raw}")["value"]
        except tomllib.TOMLDecodeError:
            return self.raw
        except RecursionError:
            raise StudyError(f"override {shown(str(self))}: VALUE is nested too deep to read") from None

    def __str__(self) -> str:
        return f"{self.entity}.{self.component}.{self.field}={self.raw}"


@dataclass(frozen=True, slots=True)
class StudyScene:
    """A scene read for a study: the scene built once with every check (its scripted dice left out), from which
    every run builds its world; the outcomes its ``[study]`` table names; and the (component, field) pairs
    recorded for each named entity."""

    blueprint: Blueprint
    outcomes: tuple[str, ...]
    fields: tuple[tuple[str, str], ...]

    @property
    def spec(self) -> SceneSpec:
        """The scene as read, its scripted dice left out."""
        return self.blueprint.spec

    def recorded(self) -> list[tuple[str, str, str]]:
        """The (entity name, component, field) figures each run records: every field of :attr:`fields` on every
        named entity the scene file gives that component."""
        return [
            (actor.name, component, field)
            for actor in self.spec.actors
            for component, field in self.fields
            if any(cls is type_named(component) for cls, _ in actor.components)
        ]


def scene_text(scene: str) -> tuple[Path, str]:
    """The file and text of ``scene``: a bundled scene's name or a path to a ``.toml`` file."""
    try:
        path = scene_path(scene)
    except SceneError as error:
        raise StudyError(str(error)) from None
    return path, path.read_text(encoding="utf-8")


@functools.lru_cache(maxsize=8)
def prepare(path: str, text: str, rules: str | None, overrides: tuple[Override, ...]) -> StudyScene:
    """Read scene ``text`` (from file ``path``) for a study, with ``rules`` as its options preset (``basic``,
    ``house``) when given and ``overrides`` applied; a worker reads each scene once."""
    where = Path(path)
    try:
        data = parse_toml(where, text)
    except SceneError as error:
        raise StudyError(str(error)) from None
    table = data.pop("study", {})
    if rules is not None:
        options = data.setdefault("options", {})
        if isinstance(options, dict):
            options["preset"] = rules
    for override in overrides:
        _apply(where, data, override)
    try:
        spec = dataclasses.replace(scene_from_data(where, data), dice={})
        blueprint = Blueprint.of(spec)  # the components check themselves as the scene is built: a bad value fails here
    except SceneError as error:
        raise StudyError(str(error)) from None
    outcomes, extra = _study_table(where, table)
    fields = DEFAULT_FIELDS + tuple(f for f in extra if f not in DEFAULT_FIELDS)
    return StudyScene(blueprint, outcomes, fields)


def event_names() -> list[str]:
    """What an outcome may name: every event type the imported rule sets define, by class name, and each of
    their true-or-false fields as ``TYPE.FIELD`` (the event happened with that field true), and
    :data:`RUN_STOPPED` and :data:`LEFT_MAP`."""
    found = {RUN_STOPPED, LEFT_MAP}
    pending = list(Event.__subclasses__())
    while pending:
        cls = pending.pop()
        found.add(cls.__name__)
        found.update(f"{cls.__name__}.{f.name}" for f in dataclasses.fields(cls) if f.type in ("bool", bool))
        pending.extend(cls.__subclasses__())
    return sorted(found)


def _apply(path: Path, data: dict[str, Any], override: Override) -> None:
    """Write ``override`` into the scene's parsed ``data``; the scene reader checks the field and the value."""
    actors = [a for a in data.get("entity", []) if isinstance(a, dict)]
    names = [str(a.get("name")) for a in actors]
    actor = next((a for a in actors if a.get("name") == override.entity), None)
    if actor is None:
        raise StudyError(
            f"{path}: override {override}: {override.entity!r} is not an entity of this scene; "
            f"entities: {', '.join(names)}"
        )
    try:
        type_named(override.component)
    except MotionError as error:
        raise StudyError(f"{path}: override {override}: {error}") from None
    components = actor.setdefault("components", {})
    table = components.setdefault(override.component, {}) if isinstance(components, dict) else None
    if not isinstance(table, dict):
        raise StudyError(f"{path}: override {override}: entity {override.entity!r} has no table of components")
    table[override.field] = override.value


def _study_table(path: Path, table: Any) -> tuple[tuple[str, ...], tuple[tuple[str, str], ...]]:
    """The outcomes and the extra fields a scene's ``[study]`` table names, checked."""
    if not isinstance(table, dict):
        raise StudyError(f"{path}: study: {table!r} is not a table")
    for key in table:
        if key not in _STUDY_KEYS:
            raise StudyError(f"{path}: study: {key}: unknown key; expected one of {', '.join(_STUDY_KEYS)}")
    outcomes = table.get("outcomes", [])
    if not (isinstance(outcomes, list) and all(isinstance(o, str) for o in outcomes)):
        raise StudyError(f"{path}: study: outcomes: {outcomes!r} is not a list of event type names")
    known = event_names()
    for outcome in outcomes:
        if outcome not in known:
            raise StudyError(
                f"{path}: study: outcomes: {outcome!r} is not an event type; event types: {', '.join(known)}"
            )
    fields = table.get("fields", [])
    if not (isinstance(fields, list) and all(isinstance(f, str) for f in fields)):
        raise StudyError(f"{path}: study: fields: {fields!r} is not a list of COMPONENT.FIELD names")
    pairs = []
    for name in fields:
        component, dot, field = name.rpartition(".")
        try:
            cls = type_named(component) if dot else None
        except MotionError:
            cls = None
        if cls is None or field not in [f.name for f in dataclasses.fields(cls)]:
            raise StudyError(
                f"{path}: study: fields: {name!r} is not COMPONENT.FIELD, a registered component and one of its fields"
            )
        pairs.append((component, field))
    return tuple(dict.fromkeys(outcomes)), tuple(pairs)

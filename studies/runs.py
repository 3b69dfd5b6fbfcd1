"""One batch of a study's runs, as a worker plays it: the scene's text, the seeds and the overrides in, one
record per run out.

A run builds the scene with its seed, steps it the study's number of turns and keeps, from the events alone (so
it works for any scene and rule set): how often each event type happened to each entity, the turn each type
first happened, and the final value of the recorded fields of each named entity. A named entity that ends a turn
off the scene's map counts a :data:`~esper_motion.studies.scene.LEFT_MAP` once, at the first such turn.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from esper_motion.components import Position
from esper_motion.demos.scene import Scene
from esper_motion.ecs import Event, IntentError, MotionError, type_named, watch
from esper_motion.studies.scene import (
    ENTITY_FIELDS,
    LEFT_MAP,
    RUN_STOPPED,
    Override,
    StudyRunError,
    StudyScene,
    prepare,
)

NO_ENTITY = "-"
"""The entity an event that names none is counted under."""


@dataclass(frozen=True, slots=True)
class Batch:
    """The work a worker receives: a scene's file name and text, its preset and overrides, the turns of each run,
    and the runs' seeds (``first_seed`` up to, not including, ``first_seed + runs``)."""

    path: str
    text: str
    rules: str | None
    overrides: tuple[Override, ...]
    turns: int
    first_seed: int
    runs: int

    @property
    def seeds(self) -> range:
        """The seeds of this batch's runs."""
        return range(self.first_seed, self.first_seed + self.runs)


@dataclass(frozen=True, slots=True)
class RunRecord:
    """What one run measured: its seed; event counts by type, then by entity name; the first turn of each event
    type; and the final value of each recorded field, by ``ENTITY COMPONENT.FIELD`` (None when the entity had
    no such component at the end)."""

    seed: int
    counts: dict[str, dict[str, int]]
    first_turn: dict[str, int]
    fields: dict[str, Any]


def run_batch(batch: Batch) -> list[RunRecord]:
    """Play every run of ``batch``; a run whose turn cannot be resolved stops the batch with a StudyRunError naming
    the scene, the seed and the turn."""
    scene = prepare(batch.path, batch.text, batch.rules, batch.overrides)
    recorded = scene.recorded()
    return [run_one(scene, seed, batch.turns, recorded) for seed in batch.seeds]


def run_one(study_scene: StudyScene, seed: int, turns: int, recorded: Iterable[tuple[str, str, str]]) -> RunRecord:
    """Play ``study_scene`` for ``turns`` turns with dice ``seed``; return what it measured, with the
    ``recorded`` fields (:meth:`StudyScene.recorded`).

    The run's world keeps no undo copy of its turns (``World(transactional=False)``): the study drops the world once
    the run ends, and of a turn that fails it keeps nothing but the fields the turn before left (a run stopped by
    the rules, :data:`~esper_motion.studies.scene.RUN_STOPPED`): such a run is played again, with the same dice, up
    to that turn, and :func:`final_fields` reads them there.

    The field watch (:mod:`esper_motion.ecs.watch`), which records what a game writes between steps for the next
    step to check, stays paused through the run: a run writes no component between its steps (the script's orders
    are written inside each turn, by the scene's driver, as in play), so there is nothing for it to record. That
    spares recording every assignment of every constructor as the world is built, and switching the watch off and
    on again at every step.
    """
    watch.pause()
    try:
        return _play(study_scene, seed, turns, recorded)
    finally:
        watch.resume()


def _play(study_scene: StudyScene, seed: int, turns: int, recorded: Iterable[tuple[str, str, str]]) -> RunRecord:
    """:func:`run_one`'s run, the watch paused."""
    scene = study_scene.blueprint.build(seed, transactional=False)
    names = scene.names
    counts: dict[str, dict[str, int]] = {}
    first_turn: dict[str, int] = {}
    for turn in range(1, turns + 1):
        try:
            events = scene.step()
        except IntentError as refused:
            # The dice went otherwise than the script expected: the run stops here, and says so.
            who = names.get(refused.entity, f"entity {refused.entity}")
            counts[RUN_STOPPED] = {who: 1}
            first_turn[RUN_STOPPED] = turn
            scene.world.close()
            scene = _replayed(study_scene, seed, turn - 1)
            break
        except MotionError as error:
            raise StudyRunError(f"{study_scene.spec.path}: run with seed {seed}: turn {turn}: {error}") from None
        for event in events:
            subject, flags = event_shape(type(event))
            entity = None if subject is None else getattr(event, subject)
            who = names.get(entity, f"entity {entity}") if isinstance(entity, int) else NO_ENTITY
            kind = type(event).__name__
            for name in (kind, *(f"{kind}.{flag}" for flag in flags if getattr(event, flag))):
                by_entity = counts.setdefault(name, {})
                by_entity[who] = by_entity.get(who, 0) + 1
                first_turn.setdefault(name, turn)
        for who in _off_map(scene):  # once per entity and run: the first turn it ended off the map
            counts.setdefault(LEFT_MAP, {}).setdefault(who, 1)
            first_turn.setdefault(LEFT_MAP, turn)
    found = RunRecord(seed, counts, first_turn, final_fields(scene, recorded))
    scene.world.close()  # esper would keep a finished run's context as long as the worker lives
    return found


def _off_map(scene: Scene) -> list[str]:
    """The names of the scene's entities that stand off its map now."""
    world, on_map = scene.world, scene.spec.on_map
    found = []
    for entity, name in scene.names.items():
        position = world.try_get(entity, Position) if world.exists(entity) else None
        if position is not None and not on_map(position.hex):
            found.append(name)
    return found


def _replayed(study_scene: StudyScene, seed: int, turns: int) -> Scene:
    """The run's scene played again from the start with the same dice, for ``turns`` turns (all of which went
    through the first time, and go the same way again)."""
    scene = study_scene.blueprint.build(seed, transactional=False)
    for _ in range(turns):
        scene.step()
    return scene


def event_shape(cls: type[Event]) -> tuple[str | None, tuple[str, ...]]:
    """Who an event of type ``cls`` is about (its first field, when that holds an entity id: ``entity``,
    ``rider``, ``mount``, ``foe``...) and its true-or-false fields, each of which, when true, counts as an
    event of its own, ``TYPE.FIELD`` (``PanicChecked.panicked``)."""
    found = _SHAPES.get(cls)
    if found is None:
        fields = dataclasses.fields(cls)
        subject = fields[0].name if fields and fields[0].type in ("int", "int | None", int) else None
        flags = tuple(f.name for f in fields if f.type in ("bool", bool))
        found = _SHAPES[cls] = (subject, flags)
    return found


_SHAPES: dict[type[Event], tuple[str | None, tuple[str, ...]]] = {}


def final_fields(scene: Scene, recorded: Iterable[tuple[str, str, str]]) -> dict[str, Any]:
    """The ``recorded`` (entity name, component, field) figures of a built scene as they are now, by ``ENTITY
    COMPONENT.FIELD``: numbers, booleans and text as they are, enum members by value, entity ids by name; None
    when the entity has lost the component or left the world."""
    world, names = scene.world, scene.names
    ids = {name: entity for entity, name in names.items()}
    found: dict[str, Any] = {}
    for name, component, field in recorded:
        held = world.try_get(ids[name], type_named(component))
        value = None if held is None else getattr(held, field)
        if (component, field) in ENTITY_FIELDS:
            value = "none" if value is None else names.get(value, f"entity {value}")
        elif isinstance(value, enum.Enum):
            value = value.value
        found[f"{name} {component}.{field}"] = value
    return found

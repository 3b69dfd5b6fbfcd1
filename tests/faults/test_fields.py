"""Bad input and faults: any field of any component set to any value between steps.

A random mixed GURPS world plays turns; before each, random fields of random components are set to random values
(values of the same field on other entities, which are mostly valid, and values of every other shape, which
mostly are not), or their lists and dicts changed in place. The writes are made between steps, while a second
world steps in another thread, or by a game's own system in the middle of the turn. Each step then either refuses
with one of the library's own errors (``MotionError``), leaving the world exactly as it was, or goes through; and a
world that went through always saves, loads, and goes on exactly as the world that never saved.
"""

from __future__ import annotations

import copy
import random
import threading
from dataclasses import dataclass, fields, is_dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.worlds import fingerprint, mixed_world, plan_turn

from esper_motion.ecs import MotionError, Phase, RuleValueError, System, World, register_system
from esper_motion.ecs.registry import registered_types
from esper_motion.systems.gurps import Rules

ODD_VALUES = st.one_of(
    st.integers(-(10**6), 10**6),
    st.integers(),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
    st.none(),
    st.booleans(),
    st.lists(st.integers(-3, 12), max_size=4),
    st.tuples(st.integers(-3, 3), st.integers(-3, 3)),
    st.dictionaries(st.text(max_size=6), st.integers(-3, 20), max_size=2),
)


def settable(world: World, entity: int) -> list[Any]:
    """The registered dataclass components of ``entity`` (those the world checks and rolls back)."""
    kinds = registered_types()
    return [c for c in world.components(entity) if type(c) in kinds and is_dataclass(c)]


def same_field_elsewhere(world: World, kind: type[Any], name: str) -> list[Any]:
    """The values ``name`` has on every other component of ``kind`` in the world."""
    return [getattr(component, name) for _, (component,) in world.query(kind)]


Change = tuple[Any, str, Any, bool]
"""A change drawn: the component, the field, the value, and whether it goes in place into the field's list or
dict (an item appended or a key set) instead of replacing the field."""


def draw_changes(world: World, data: st.DataObject, count: int) -> list[Change]:
    """``count`` random changes of random fields (fewer where an entity has no component to change)."""
    changes = []
    for _ in range(count):
        entity = data.draw(st.sampled_from(world.entities()))
        choices = settable(world, entity)
        if not choices:
            continue
        component = data.draw(st.sampled_from(choices))
        name = data.draw(st.sampled_from([item.name for item in fields(component)]))
        in_place = isinstance(getattr(component, name), list | dict) and data.draw(st.booleans())
        elsewhere = same_field_elsewhere(world, type(component), name)
        value = copy.deepcopy(data.draw(st.one_of(st.sampled_from(elsewhere), ODD_VALUES)))  # never one list in two
        changes.append((component, name, value, in_place))
    return changes


def make_changes(changes: list[Change]) -> list[tuple[Any, str, Any]]:
    """Make ``changes``; what was there before, to put back."""
    changed = []
    for component, name, value, in_place in changes:
        old = getattr(component, name)
        changed.append((component, name, copy.deepcopy(old) if in_place else old))
        if not in_place:
            setattr(component, name, value)
        elif isinstance(old, list):
            old.append(value)
        else:
            old["Riding"] = value
    return changed


def change_fields(world: World, data: st.DataObject, count: int) -> list[tuple[Any, str, Any]]:
    """Make ``count`` random changes between steps (:func:`draw_changes`); what was there before, to put back."""
    return make_changes(draw_changes(world, data, count))


class Meddler(System):
    """A game's own system that makes the changes it is given, in the middle of the turn."""

    phase = Phase.MOUNTED

    def __init__(self) -> None:
        super().__init__()
        self.changes: list[Change] = []
        self.made: list[tuple[Any, str, Any]] = []

    def run(self) -> None:
        self.made, self.changes = make_changes(self.changes), []

    def saved_data(self) -> MeddlerData:
        return MeddlerData()

    @classmethod
    def restored(cls, data: MeddlerData) -> Meddler:
        return cls()


@dataclass(frozen=True, slots=True)
class MeddlerData:
    """Nothing: a meddler keeps no state from turn to turn."""


register_system("test.Meddler", MeddlerData)(Meddler)


class SteppingBeside:
    """A second world stepping over and over in another thread, for as long as the block lasts (the block only
    writes fields: esper's current context belongs to the whole process, and the other thread switches it)."""

    def __init__(self, seed: int) -> None:
        self.world = mixed_world(seed + 1, 1)[0]
        self.stop = threading.Event()
        self.failures: list[BaseException] = []
        self.thread = threading.Thread(target=self._steps)

    def _steps(self) -> None:
        try:
            while not self.stop.is_set():
                self.world.step()
        except MotionError:  # a turn its rules refuse: nothing to do with the writes beside it
            pass
        except BaseException as error:  # reported by the main thread
            self.failures.append(error)

    def __enter__(self) -> SteppingBeside:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join(60)
        assert not self.failures, self.failures
        self.world.close()


def play(world: World, data: st.DataObject, rounds: int, folder: Path, seed: int, *, how: str = "between") -> None:
    """``rounds`` turns, each with random field changes made ``how``: ``"between"`` steps, ``"beside"`` another
    world stepping in another thread, or by a game's system ``"mid-turn"``; see the module docstring for what must
    hold."""
    meddler = Meddler()
    if how == "mid-turn":
        world.add_system(meddler)
    world_cast = mixed_world(seed, 1, world.rules["gurps"])[1]  # the same ids: the cast of the world built alike
    for turn in range(rounds):
        try:
            plan_turn(world, world_cast, random.Random(seed + turn))
        except MotionError:  # the fields written before leave a state the rules refuse (the planner's preview says)
            before = fingerprint(world)
            with pytest.raises(MotionError):
                world.step()  # and so does the step, with a clear error and the world as it was
            assert fingerprint(world) == before
            return
        count = data.draw(st.integers(1, 3))
        if how == "mid-turn":
            meddler.changes, changed = draw_changes(world, data, count), []
        elif how == "beside":  # drawn first: esper's current context is the process's, which the other switches
            changes = draw_changes(world, data, count)
            with SteppingBeside(seed):
                changed = make_changes(changes)
        else:
            changed = change_fields(world, data, count)
        before = fingerprint(world)
        try:
            world.step()
        except MotionError as error:
            assert fingerprint(world) == before, f"turn {turn}: {error}"
            if isinstance(error, RuleValueError) and error.entity is not None:
                assert f"entity {error.entity}: {error.owner}.{error.field} = " in str(error)
            for component, name, value in reversed(changed or meddler.made):
                setattr(component, name, value)
            meddler.made = []
            continue
        path = folder / f"turn-{turn}.json"
        world.save(path)
        twin = World.load(path)
        rng, twin_rng = random.Random(seed * 7 + turn), random.Random(seed * 7 + turn)
        plan_turn(world, world_cast, rng)
        plan_turn(twin, world_cast, twin_rng)
        try:
            events = world.step()
        except MotionError as error:
            with pytest.raises(type(error)):
                twin.step()
            continue
        assert twin.step() == events
        assert fingerprint(twin)[1:] == fingerprint(world)[1:]
        twin.close()


FIELD_RUNS = settings(
    max_examples=40,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def _fields_test(rules: Rules, tmp_path: Path, seed: int, data: st.DataObject, how: str = "between") -> None:
    world, _ = mixed_world(seed, 1, rules)
    play(world, data, 6, tmp_path, seed, how=how)


@FIELD_RUNS
@given(seed=st.integers(0, 2**16), rules=st.sampled_from([Rules.basic(), Rules.house()]), data=st.data())
def test_any_field_set_to_any_value_between_steps_is_refused_cleanly_or_saves_and_plays_on(
    tmp_path: Path, seed: int, rules: Rules, data: st.DataObject
) -> None:
    _fields_test(rules, tmp_path, seed, data)


@pytest.mark.slow
@settings(FIELD_RUNS, max_examples=400)
@given(seed=st.integers(0, 2**16), rules=st.sampled_from([Rules.basic(), Rules.house()]), data=st.data())
def test_any_field_set_to_any_value_between_steps_at_length(
    tmp_path: Path, seed: int, rules: Rules, data: st.DataObject
) -> None:
    _fields_test(rules, tmp_path, seed, data)


@FIELD_RUNS
@given(
    seed=st.integers(0, 2**16),
    rules=st.sampled_from([Rules.basic(), Rules.house()]),
    how=st.sampled_from(["beside", "mid-turn"]),
    data=st.data(),
)
def test_any_field_written_mid_turn_or_beside_another_world_stepping_is_refused_cleanly_or_plays_on(
    tmp_path: Path, seed: int, rules: Rules, how: str, data: st.DataObject
) -> None:
    _fields_test(rules, tmp_path, seed, data, how)

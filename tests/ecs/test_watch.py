"""The field watch (``esper_motion.ecs.watch``): a write between steps is checked by the world that holds the
component, whatever another world or thread is doing, and a write by a game's own system right after that system
ran; what no step will check is not kept.

The library's own systems are stood for by a test system marked ``trusted``, as theirs are: the watch is paused
in the thread that runs it.
"""

from __future__ import annotations

import dataclasses
import gc
import threading

import esper
import pytest
from support import gurps_world, in_phase
from support.highspeed import mover
from support.worlds import fingerprint

from esper_motion.components import Facing, Intent, Maneuver, Velocity
from esper_motion.ecs import Phase, RuleValueError, System, World, check_int, register, watch
from esper_motion.ecs.world import _UNHOOK_FROM as UNHOOK_FROM

WAIT_S = 10


class Holds(System):
    """One of the library's own systems, as the watch sees it, that holds its turn until told to go on."""

    phase = Phase.MOVEMENT

    def __init__(self) -> None:
        super().__init__()
        self.started = threading.Event()
        self.go_on = threading.Event()
        self.hooked: list[bool] = []

    def run(self) -> None:
        self.hooked.append("__setattr__" in Velocity.__dict__)
        self.started.set()
        assert self.go_on.wait(WAIT_S)


Holds.trusted = True


def test_a_write_while_another_world_steps_in_another_thread_is_checked_at_its_own_worlds_step() -> None:
    world = gurps_world()
    runner = mover(world, velocity=4)
    velocity = world.get(runner, Velocity)
    other = World(seed=2)
    holds = Holds()
    other.add_system(holds)
    failures: list[BaseException] = []

    def step_other() -> None:
        try:
            other.step()
        except BaseException as error:  # reported by the main thread
            failures.append(error)

    stepping = threading.Thread(target=step_other)
    stepping.start()
    try:
        assert holds.started.wait(WAIT_S)
        velocity.heading = 9  # the other world's library systems are running, in the other thread
    finally:
        holds.go_on.set()
        stepping.join(WAIT_S)
    assert failures == [] and other.turn == 1
    with pytest.raises(RuleValueError, match=rf"entity {runner}: Velocity.heading = 9") as caught:
        world.step()
    assert (caught.value.entity, caught.value.owner, caught.value.field, caught.value.value) == (
        runner,
        "Velocity",
        "heading",
        9,
    )
    assert world.turn == 0


def test_refused_constructions_leave_nothing_in_the_record() -> None:
    before = len(watch.written())
    refused = 0
    for _ in range(100_000):
        try:
            Velocity(heading=9)
        except RuleValueError:
            refused += 1
    after = len(watch.written())
    assert refused == 100_000
    assert after == before


@pytest.mark.parametrize("end", ["closed", "collected", "context deleted"])
def test_the_components_of_a_world_that_is_gone_are_not_kept(end: str) -> None:
    world = gurps_world()
    runner = mover(world, velocity=4)
    velocity = world.get(runner, Velocity)
    velocity.heading = 2  # a write its world's next step would check
    assert any(component is velocity for component in watch.written())
    if end == "closed":
        world.close()
    elif end == "context deleted":
        esper.delete_world(world.context)
    else:
        del world
        gc.collect()
    assert all(component is not velocity for component in watch.written())


def test_the_hooks_are_taken_off_only_while_the_one_thread_of_the_process_steps(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    world = World(seed=1)
    for _ in range(UNHOOK_FROM):  # a world this small keeps them on (the next test)
        world.spawn(Facing(0))
    holds = Holds()
    world.add_system(holds)
    holds.go_on.set()
    monkeypatch.setattr(threading, "active_count", lambda: 1)
    world.step()
    monkeypatch.undo()
    keeps_going = threading.Event()
    beside = threading.Thread(target=keeps_going.wait, args=(WAIT_S,))
    beside.start()
    try:
        world.step()
    finally:
        keeps_going.set()
        beside.join(WAIT_S)
    assert holds.hooked == [False, True]
    assert "__setattr__" in Velocity.__dict__  # on again between steps


class Turns(System):
    """One of the library's own systems, as the watch sees it, that turns every ``Facing`` one hexside and keeps
    whether the hooks were on and whether its writes were recorded."""

    phase = Phase.MOVEMENT

    def __init__(self) -> None:
        super().__init__()
        self.hooked: list[bool] = []
        self.recorded: list[bool] = []

    def run(self) -> None:
        self.hooked.append("__setattr__" in Facing.__dict__)
        turned = [facing for _, (facing,) in self.world.query(Facing)]
        for facing in turned:
            facing.direction = (facing.direction + 1) % 6
        self.recorded.append(any(component is facing for component in watch.written() for facing in turned))


Turns.trusted = True


def test_a_small_world_keeps_the_hooks_on_and_its_systems_writes_still_go_unrecorded() -> None:
    world = World(seed=1)
    facings = [Facing(0) for _ in range(UNHOOK_FROM - 1)]
    for facing in facings:
        world.spawn(facing)
    turns = Turns()
    world.add_system(turns)
    world.step()
    assert turns.hooked == [True]
    assert turns.recorded == [False]
    assert all(facing.direction == 1 for facing in facings)
    world.close()


class Vandal(System):
    """A game's own system that writes a bad value into a component during the turn."""

    phase = Phase.INTENT

    def __init__(self, kind: type, name: str, value: object) -> None:
        super().__init__()
        self.kind, self.name, self.value = kind, name, value

    def run(self) -> None:
        for _, (component,) in self.world.query(self.kind):
            setattr(component, self.name, self.value)


@pytest.mark.parametrize(
    ("kind", "name", "value"), [(Facing, "direction", 9), (Velocity, "yps", 2_000_000), (Velocity, "heading", -1)]
)
def test_a_bad_value_a_games_system_writes_is_refused_before_the_rules_read_it(
    kind: type, name: str, value: object
) -> None:
    world = gurps_world()
    runner = mover(world, velocity=4)
    in_phase(world, Vandal(kind, name, value), Phase.INTENT)
    before = fingerprint(world)
    with pytest.raises(RuleValueError, match=rf"entity {runner}: {kind.__name__}.{name} = {value}") as caught:
        world.step()
    assert (caught.value.entity, caught.value.owner, caught.value.field) == (runner, kind.__name__, name)
    assert fingerprint(world) == before and world.turn == 0  # the turn undone


def test_a_component_given_the_esper_way_and_written_is_checked_at_the_step() -> None:
    world = gurps_world()
    runner = mover(world, velocity=4)
    facing = Facing(1)
    esper.switch_world(world.context)
    esper.add_component(runner, facing)  # past World.add: the world's index of what it was given misses it
    esper.switch_world("default")
    facing.direction = 9
    with pytest.raises(RuleValueError, match=rf"entity {runner}: Facing.direction = 9"):
        world.step()
    world.close()  # its refused write leaves the record with it


@register("test.Bearing")
@dataclasses.dataclass(slots=True)
class Bearing:
    """A game's own component whose checks take a value that is not a field (an ``InitVar``)."""

    degrees: int = 0
    limit: dataclasses.InitVar[int] = 359

    def __post_init__(self, limit: int) -> None:
        check_int("Bearing", "degrees", self.degrees, low=0, high=limit)


def test_a_component_whose_checks_take_more_than_its_fields_is_still_checked() -> None:
    world = gurps_world()
    bearing = Bearing(10)
    entity = world.spawn(bearing)
    world.step()
    bearing.degrees = 400
    with pytest.raises(RuleValueError, match=rf"entity {entity}: Bearing.degrees = 400"):
        world.step()
    assert bearing.degrees == 400
    world.close()


class Idle(System):
    """A part of the turn that reads nothing and writes nothing."""

    phase = Phase.MOVEMENT

    def run(self) -> None:
        pass


def test_checks_run_on_the_written_component_leave_it_normalised_and_its_record_alone() -> None:
    world = World(seed=1)
    world.add_system(Idle())
    intent = Intent()
    entity = world.spawn(intent)
    intent.maneuver = "all-out attack"  # type: ignore[assignment]  # the text of a choice, as a game may write it
    world.step()
    assert intent.maneuver is Maneuver.ALL_OUT_ATTACK
    intent.turn = 5
    with pytest.raises(RuleValueError, match=rf"entity {entity}: Intent.turn = 5"):
        world.step()
    with pytest.raises(RuleValueError, match=rf"entity {entity}: Intent.turn = 5"):
        world.step()  # refused again until the game puts it right
    world.close()

"""The embedding contract: a World inside a game that has its own esper processors, components and handlers.

One test (or a few) per seam: what ``esper.process()`` and ``World.step`` each run; a game's per-frame processors
beside ours; the undo copy and the game's own components; entities deleted the esper way; handlers that raise or
step again; worlds freed; event names in esper's registry and handlers on base classes; setup mistakes.
"""

from __future__ import annotations

import gc
import threading
import tracemalloc
from dataclasses import dataclass

import esper
import pytest
from support import gurps_world, in_phase
from support.highspeed import mover

from esper_motion.components import Control, Intent, Mover, Position, Velocity
from esper_motion.ecs import Event, HandlerError, Phase, RuleValueError, System, World, WorldError
from esper_motion.systems.gurps import Collided, Moved


@dataclass(frozen=True, slots=True)
class GameMoved:
    """The game's own event that happens to share our event's class name."""

    who: str


class Sprites(esper.Processor):
    """A game's per-frame processor: it takes the frame's ``dt``, as esper games' processors do."""

    def __init__(self) -> None:
        self.frames: list[float] = []

    def process(self, dt: float) -> None:
        self.frames.append(dt)


class Unpicklable:
    """A game's component that cannot be copied (a sprite holding a GPU texture, a lock, a file)."""

    __slots__ = ("lock", "touched")

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.touched = 0

    def __deepcopy__(self, memo: object) -> Unpicklable:
        raise NotImplementedError("a texture cannot be copied")


class Boom(System):
    """A game's own part of the turn that touches its own component, then fails."""

    def __init__(self, entity: int) -> None:
        super().__init__()
        self.entity = entity

    def run(self) -> None:
        self.world.get(self.entity, Unpicklable).touched += 1
        raise RuntimeError("the game's system failed")


def game_context(name: str) -> World:
    """A game's own esper context with our GURPS systems attached to it."""
    esper.switch_world(name)
    world = World.attach(seed=7)
    from esper_motion.systems.gurps import install

    install(world)
    return world


@pytest.fixture(autouse=True)
def back_to_default() -> object:
    yield
    esper.switch_world("default")


# 1. esper.process() and World.step ---------------------------------------------------------------------------


def test_esper_process_runs_the_games_processors_and_never_ours() -> None:
    world = game_context("game-1")
    runner = mover(world, velocity=4)
    sprites = Sprites()
    esper.add_processor(sprites)
    esper.process(0.016)
    assert sprites.frames == [0.016]
    assert world.get(runner, Position).hex == (0, 0)  # our systems did not run
    assert world.turn == 0
    heard: list[Event] = []
    world.on(Event, heard.append)
    events = world.step()
    assert world.get(runner, Position).hex == (4, 0)
    assert world.turn == 1
    assert heard == events != []
    assert world._emitted == []  # nothing kept back for a later turn


# 2. A game's per-frame processors beside ours ---------------------------------------------------------------


def test_step_never_runs_a_games_per_frame_processor_that_takes_dt() -> None:
    world = game_context("game-2")
    mover(world, velocity=3)
    sprites = Sprites()
    esper.add_processor(sprites)
    world.step(2)  # sprites.process(dt) would raise TypeError if the step ran it
    assert sprites.frames == []
    assert world.turn == 2


def test_add_system_refuses_an_esper_processor() -> None:
    with pytest.raises(WorldError, match=r"add_system takes a System .* \(esper.add_processor\)"):
        gurps_world().add_system(Sprites())  # type: ignore[arg-type]


# 3. The undo copy and the game's own components -------------------------------------------------------------


def test_the_undo_copy_never_copies_or_replaces_a_games_own_components() -> None:
    world = gurps_world()
    runner = mover(world, velocity=4)
    texture = Unpicklable()
    world.add(runner, texture)
    world.step()  # a step copies for undo: it must not try to copy the texture
    in_phase(world, Boom(runner), Phase.MOVEMENT)
    at = world.get(runner, Position).hex
    with pytest.raises(RuntimeError, match="the game's system failed"):
        world.step()
    assert world.get(runner, Unpicklable) is texture  # the very object the game holds
    assert texture.touched == 1  # the game's own component is not rolled back (documented)
    assert world.get(runner, Position).hex == at  # ours are


# 4. Entities deleted the esper way ---------------------------------------------------------------------------


@pytest.mark.parametrize("immediate", [False, True], ids=["lazily", "at once"])
def test_an_entity_deleted_through_esper_between_turns_is_a_despawn(immediate: bool) -> None:
    world = game_context(f"game-4-{immediate}")
    first, second = mover(world, velocity=4), mover(world, velocity=4, at=(0, 3))
    world.step()
    esper.delete_entity(first, immediate=immediate)
    world.step(2)
    assert not world.exists(first)
    assert world.get(second, Position).hex == (12, 3)


def test_an_entity_deleted_lazily_by_a_games_system_inside_the_turn_goes_with_the_turn() -> None:
    world = gurps_world()
    first, second = mover(world, velocity=4), mover(world, velocity=4, at=(0, 3))

    class Deleter(System):
        def run(self) -> None:
            if esper.entity_exists(first):
                esper.delete_entity(first)

    in_phase(world, Deleter(), Phase.COLLISION)
    world.step(2)
    assert not world.exists(first)
    assert world.get(second, Position).hex == (8, 3)


# 5. Handlers ------------------------------------------------------------------------------------------------


def test_a_handler_that_raises_leaves_its_turn_done_and_every_other_handler_served() -> None:
    world = gurps_world()
    runner = mover(world, velocity=4)
    heard: list[Event] = []

    def broken(event: Moved) -> None:
        raise KeyError("the game's bug")

    world.on(Moved, broken)
    world.on(Event, heard.append)
    with pytest.raises(HandlerError) as caught:
        world.step(3)
    assert world.turn == 1  # the first turn stands; the two after it were not played
    assert world.get(runner, Position).hex == (4, 0)
    assert heard == world.events != []  # every handler heard every event of the turn that stands
    [(handler, event, error)] = caught.value.failures
    assert handler is broken and isinstance(event, Moved) and isinstance(error, KeyError)
    assert "broken on Moved: KeyError" in str(caught.value)
    assert caught.value.turn == 1


def test_a_handler_may_not_step_the_world_again() -> None:
    world = gurps_world()
    mover(world, velocity=4)
    world.on(Moved, lambda event: world.step())
    with pytest.raises(HandlerError) as caught:
        world.step()
    [(_, _, error)] = caught.value.failures
    assert isinstance(error, WorldError) and "from inside an event handler" in str(error)
    assert world.turn == 1


def test_a_system_may_not_step_its_world() -> None:
    world = gurps_world()
    mover(world, velocity=4)

    class Again(System):
        def run(self) -> None:
            self.world.step()

    in_phase(world, Again(), Phase.MOVEMENT)
    with pytest.raises(WorldError, match="from inside a step"):
        world.step()
    assert world.turn == 0


# 6. Worlds are freed -----------------------------------------------------------------------------------------


def test_close_and_with_free_the_esper_context() -> None:
    world = World()
    name = world.context
    assert name in esper.list_worlds()
    world.close()
    assert name not in esper.list_worlds()
    with pytest.raises(WorldError, match="closed"):
        world.step()
    with World() as scoped:
        inside = scoped.context
        assert inside in esper.list_worlds()
    assert inside not in esper.list_worlds()


def test_closing_an_attached_world_leaves_the_games_context() -> None:
    esper.switch_world("game-6")
    mine = esper.create_entity(Position(1, 1))
    World.attach().close()
    assert "game-6" in esper.list_worlds()
    assert esper.component_for_entity(mine, Position) == Position(1, 1)


def churn(count: int) -> None:
    """Make ``count`` GURPS worlds of 50 movers, step each once, and drop them."""
    for _ in range(count):
        world = gurps_world()
        for row in range(50):
            mover(world, velocity=2, at=(0, row))
        world.step()


def test_a_thousand_worlds_made_and_dropped_leave_no_esper_context_behind() -> None:
    churn(10)
    gc.collect()
    contexts = len(esper.list_worlds())
    churn(1000)
    gc.collect()
    assert len(esper.list_worlds()) == contexts


@pytest.mark.slow
def test_a_thousand_worlds_made_and_dropped_keep_memory_flat() -> None:
    churn(50)  # warm caches and class plans
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    churn(1000)
    gc.collect()
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    assert after - before < 2_000_000  # 1,000 worlds of 50 movers kept would be well over 100 MB


# 7. Event names and handlers on base classes ----------------------------------------------------------------


def test_our_events_carry_our_namespace_in_esper_and_a_games_own_moved_is_left_alone() -> None:
    world = game_context("game-7")
    mover(world, velocity=4)
    theirs: list[object] = []
    ours: list[Moved] = []

    def game_handler(event: object) -> None:
        theirs.append(event)

    def our_handler(event: Moved) -> None:
        ours.append(event)

    esper.set_handler("Moved", game_handler)
    esper.set_handler(Moved.esper_name, our_handler)
    world.step()
    esper.dispatch_event("Moved", GameMoved("the game's"))
    assert Moved.esper_name == "esper_motion.gurps.Moved"
    assert Collided.esper_name == "esper_motion.gurps.Collided"
    assert theirs == [GameMoved("the game's")]
    assert len(ours) == 1
    esper.remove_handler("Moved", game_handler)
    esper.remove_handler(Moved.esper_name, our_handler)


def test_a_handler_on_a_base_class_hears_its_subclasses() -> None:
    world = gurps_world()
    mover(world, velocity=4)
    everything: list[Event] = []
    moved: list[Moved] = []
    world.on(Event, everything.append)
    world.on(Moved, moved.append)
    events = world.step()
    assert everything == events
    assert moved == [event for event in events if isinstance(event, Moved)] != []


# 8. Setup mistakes -------------------------------------------------------------------------------------------


def test_stepping_a_world_with_no_rule_set_is_an_error() -> None:
    world = World()
    world.spawn(Position(0, 0), Velocity(4))
    with pytest.raises(WorldError, match="no systems: install a rule set first"):
        world.step()


@pytest.mark.parametrize("missing", [Intent, Control])
def test_a_mover_short_of_a_component_is_named(missing: type) -> None:
    world = gurps_world()
    runner = mover(world, velocity=4)
    world.remove(runner, missing)
    with pytest.raises(WorldError, match=rf"entity {runner} is missing {missing.__name__}: an entity of the gurps"):
        world.step()


def test_a_class_where_a_component_belongs_is_an_error() -> None:
    world = gurps_world()
    with pytest.raises(WorldError, match="spawn takes component instances: got the class Position"):
        world.spawn(Position)
    runner = mover(world, velocity=1)
    with pytest.raises(WorldError, match="add takes component instances: got the class Mover"):
        world.add(runner, Mover)


def test_a_field_set_between_steps_to_a_value_its_constructor_refuses_is_named_before_the_turn() -> None:
    world = gurps_world()
    runner = mover(world, velocity=4)
    world.get(runner, Velocity).heading = 9
    with pytest.raises(RuleValueError, match=rf"entity {runner}: Velocity.heading = 9") as caught:
        world.step()
    assert (caught.value.entity, caught.value.owner, caught.value.field) == (runner, "Velocity", "heading")
    assert world.turn == 0
    world.get(runner, Velocity).heading = 1
    world.step()
    assert world.turn == 1

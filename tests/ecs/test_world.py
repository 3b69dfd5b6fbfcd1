"""The World: entities, queued structural changes, isolation, events both ways, phases, failed steps."""

from __future__ import annotations

import gc
from dataclasses import dataclass

import esper
import pytest

from esper_motion.components import Control, Facing, MoveState, Position, Skills, Velocity
from esper_motion.ecs import Event, Phase, System, World, WorldError, duplicate, register


@dataclass(frozen=True, slots=True)
class Moved(Event):
    entity: int
    yards: int


class Mover1D(System):
    """A toy system: moves every Position east by its Velocity and says so."""

    phase = Phase.MOVEMENT

    def run(self) -> None:
        for entity, (position, velocity) in esper.get_components(Position, Velocity):
            position.q += velocity.yps
            self.world.emit(Moved(entity, velocity.yps))


class Spawner(System):
    """A toy system that changes structure mid-step: spawns, adds, removes and despawns."""

    phase = Phase.CLEANUP

    def __init__(self, victim: int) -> None:
        super().__init__()
        self.victim = victim
        self.seen_during_step: list[bool] = []

    def run(self) -> None:
        world = self.world
        child = world.spawn(Position(9, 9))
        world.remove(self.victim, Velocity)
        world.add(self.victim, Facing(3))
        # Nothing structural has happened yet: the queries of this turn still see the old shape.
        self.seen_during_step.append(world.has(child, Position) or not world.has(self.victim, Velocity))


class Boom(System):
    phase = Phase.COLLISION

    def run(self) -> None:
        self.world.dice.roll("3d6")
        for _, position in esper.get_component(Position):
            position.q = 999
        raise RuntimeError("boom")


def test_spawn_get_has_try_get_and_remove() -> None:
    world = World(seed=1)
    entity = world.spawn(Position(1, 2), Velocity(3))
    assert world.get(entity, Position) == Position(1, 2)
    assert world.has(entity, Velocity)
    assert world.try_get(entity, Facing) is None
    world.add(entity, Facing(2))
    assert world.get(entity, Facing).direction == 2
    world.remove(entity, Velocity)
    assert not world.has(entity, Velocity)
    with pytest.raises(WorldError, match="has no Velocity"):
        world.get(entity, Velocity)
    world.despawn(entity)
    assert not world.exists(entity)
    assert world.try_get(entity, Position) is None
    with pytest.raises(WorldError, match="does not exist"):
        world.despawn(entity)


def test_query_returns_components_of_entities_having_them_all() -> None:
    world = World()
    a = world.spawn(Position(0, 0), Velocity(2))
    world.spawn(Position(1, 0))
    assert world.query(Position, Velocity) == [(a, (Position(0, 0), Velocity(2)))]
    assert [e for e, _ in world.query(Position)] == [a, a + 1]


def test_two_worlds_never_see_each_other() -> None:
    first, second = World(seed=1), World(seed=1)
    a = first.spawn(Position(0, 0), Velocity(1))
    first.add_system(Mover1D())
    b = second.spawn(Position(5, 5), Velocity(4))
    assert first.query(Position) == [(a, (Position(0, 0),))]
    assert second.query(Position) == [(b, (Position(5, 5),))]
    heard: list[Event] = []
    second.on(Moved, heard.append)
    first.step()
    assert first.get(a, Position).q == 1
    assert second.get(b, Position).q == 5  # second has no system and heard nothing
    assert heard == []
    assert first.dice.roll("3d6").dice == second.dice.roll("3d6").dice  # own dice, same seed


def test_world_leaves_the_games_current_esper_context_alone() -> None:
    esper.switch_world("a-game-of-its-own")
    world = World()
    world.spawn(Position(0, 0))
    assert esper.current_world == "a-game-of-its-own"
    esper.switch_world("default")


def test_attach_adopts_a_context_a_game_already_uses() -> None:
    esper.switch_world("existing-game")
    mine = esper.create_entity(Position(4, 4))
    esper.switch_world("default")
    world = World.attach("existing-game")
    assert world.get(mine, Position) == Position(4, 4)


def test_events_reach_world_on_and_esper_set_handler() -> None:
    world = World()
    entity = world.spawn(Position(0, 0), Velocity(2))
    world.add_system(Mover1D())
    typed: list[Moved] = []
    by_name: list[Moved] = []
    world.on(Moved, lambda event: typed.append(event))  # a lambda survives: held strongly

    def handler(event: Moved) -> None:
        by_name.append(event)

    esper.set_handler(Moved.esper_name, handler)  # in the game's own context, current when it steps
    events = world.step()
    assert events == [Moved(entity, 2)]
    assert world.events == events
    assert typed == [Moved(entity, 2)]
    assert by_name == [Moved(entity, 2)]
    assert world.turn == 1
    esper.remove_handler(Moved.esper_name, handler)


def test_off_stops_a_handler() -> None:
    world = World()
    world.spawn(Position(0, 0), Velocity(1))
    world.add_system(Mover1D())
    heard: list[Moved] = []
    world.on(Moved, heard.append)
    world.step()
    world.off(Moved, heard.append)
    world.step()
    assert len(heard) == 1
    with pytest.raises(WorldError, match="is not handling Moved"):
        world.off(Moved, heard.append)


def test_structural_changes_during_a_step_are_queued_and_applied_once() -> None:
    world = World()
    victim = world.spawn(Position(0, 0), Velocity(1))
    spawner = Spawner(victim)
    world.add_system(spawner)
    world.step()
    assert spawner.seen_during_step == [False]
    assert not world.has(victim, Velocity)
    assert world.get(victim, Facing).direction == 3
    assert [pos for _, (pos,) in world.query(Position)][-1] == Position(9, 9)


def test_a_step_that_raises_leaves_the_world_as_it_was() -> None:
    world = World(seed=3)
    entity = world.spawn(Position(0, 0), Velocity(2))
    world.add_system(Mover1D())
    world.add_system(Boom())
    dice_before = world.dice.getstate()
    with pytest.raises(RuntimeError, match="boom"):
        world.step()
    assert world.get(entity, Position) == Position(0, 0)
    assert world.turn == 0
    assert world.events == []
    assert world.dice.getstate() == dice_before
    assert world.spawn() == entity + 1  # the id counter is back too


def test_installing_a_system_twice_is_an_error() -> None:
    world = World()
    world.add_system(Mover1D())
    with pytest.raises(WorldError, match="already installed"):
        world.add_system(Mover1D())


def test_the_phases_in_the_order_a_step_runs_them() -> None:
    assert [p.name for p in sorted(Phase)] == [
        "DECIDE",
        "INTENT",
        "TURNING",
        "MOVEMENT",
        "COLLISION",
        "STALL",
        "CONTROL",
        "COMBAT",
        "ACCELERATION",
        "MOUNTED",
        "CLEANUP",
    ]


def test_systems_run_in_phase_order_whatever_order_they_were_added() -> None:
    world = World()
    victim = world.spawn(Position(0, 0))
    world.add_system(Spawner(victim))
    world.add_system(Mover1D())
    assert [type(s).__name__ for s in world.systems] == ["Mover1D", "Spawner"]


def test_step_refuses_a_bad_turn_count() -> None:
    with pytest.raises(ValueError, match=r"World.step.turns = 0"):
        World().step(0)


def test_components_fetched_before_a_failed_step_stay_the_worlds_own() -> None:
    world = World(seed=3)
    entity = world.spawn(Position(0, 0), Velocity(2))
    position = world.get(entity, Position)
    world.add_system(Mover1D())
    world.add_system(Boom())
    with pytest.raises(RuntimeError, match="boom"):
        world.step()
    assert position == Position(0, 0)
    position.q = 5  # a game steering through the reference it already held
    assert world.get(entity, Position) is position


def test_query_is_in_entity_order_even_after_a_rebuilt_table() -> None:
    world = World()
    kept = [world.spawn(Position(i, 0)) for i in range(100)]
    for entity in kept:
        if entity not in (50, 97, 100):
            world.despawn(entity)
    world.add_system(Boom())
    with pytest.raises(RuntimeError):
        world.step()  # the rollback rebuilds esper's component sets
    assert [e for e, _ in world.query(Position)] == [50, 97, 100]


@register("test.Ledger")
@dataclass(slots=True)
class Ledger:
    """A toy component a game registered, with containers: of immutable values, and of values that change in
    place themselves."""

    marks: list[int]
    names: dict[str, int]
    nested: list[list[int]]


class Notes:
    """A toy component of the game's that no one registered (and not a dataclass)."""

    def __init__(self) -> None:
        self.lines = ["first"]


class Scribbler(System):
    """Changes every kind of value in place, adds a component behind the world's back, then fails."""

    phase = Phase.MOVEMENT

    def __init__(self, entity: int) -> None:
        super().__init__()
        self.entity = entity

    def run(self) -> None:
        ledger = self.world.get(self.entity, Ledger)
        ledger.marks.append(3)
        ledger.names["b"] = 2
        ledger.nested[0].append(9)
        self.world.get(self.entity, Notes).lines.append("second")
        esper.add_component(self.entity, Facing(2))
        raise RuntimeError("scribbled")


def test_a_failed_step_puts_back_registered_containers_and_leaves_the_games_own_components_alone() -> None:
    world = World()
    ledger, notes = Ledger([1, 2], {"a": 1}, [[7]]), Notes()
    entity = world.spawn(Position(0, 0), ledger, notes)
    world.add_system(Scribbler(entity))
    with pytest.raises(RuntimeError, match="scribbled"):
        world.step()
    assert world.get(entity, Ledger) is ledger
    assert ledger == Ledger([1, 2], {"a": 1}, [[7]])
    assert world.get(entity, Notes) is notes
    assert notes.lines == ["first", "second"]  # never copied, never rolled back
    assert not world.has(entity, Facing)


def test_per_turn_and_per_run_keep_a_value_for_a_turn_and_for_one_system_run() -> None:
    world = World(seed=1)
    computed: list[str] = []

    def ask(key: str, keep: str) -> None:
        keeper = world.per_turn if keep == "turn" else world.per_run
        keeper(key, lambda: computed.append(key))

    class First(System):
        phase = Phase.INTENT
        name = "first"

        def run(self) -> None:
            for _ in range(3):
                ask(f"{self.name} run", "run")
                ask("turn", "turn")

    class Second(First):
        phase = Phase.CLEANUP
        name = "second"

    world.add_system(First())
    world.add_system(Second())
    world.step()
    # once per run for per_run, once per turn for per_turn, whatever the number of asks
    assert computed == ["first run", "turn", "second run"]
    world.step()
    assert computed == ["first run", "turn", "second run"] * 2
    ask("between steps", "run")
    ask("between steps", "run")
    ask("between steps", "turn")
    assert computed[6:] == ["between steps"] * 3  # outside a step: computed every time


def test_recheck_runs_a_components_constructor_checks_on_its_present_fields():
    from esper_motion.components import Facing
    from esper_motion.ecs import RuleValueError, recheck

    facing = Facing(2)
    recheck(facing)
    facing.direction = 7
    with pytest.raises(RuleValueError, match=r"Facing.direction = 7"):
        recheck(facing)
    assert facing.direction == 7


class CollectorWatch(System):
    """A toy system that notes whether Python's garbage collector is on while it runs."""

    phase = Phase.MOVEMENT

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[bool] = []

    def run(self) -> None:
        self.seen.append(gc.isenabled())


def test_the_garbage_collector_is_paused_while_a_turn_runs_and_resumed_after() -> None:
    world = World(seed=1)
    watch = CollectorWatch()
    world.add_system(watch)
    assert gc.isenabled()
    world.step(2)
    assert watch.seen == [False, False] and gc.isenabled()
    world.add_system(Boom())
    with pytest.raises(RuntimeError, match="boom"):
        world.step()
    assert gc.isenabled()  # resumed after a failed turn too


def test_a_game_may_keep_the_collector_on_or_off_through_a_step() -> None:
    world = World(seed=1)
    watch = CollectorWatch()
    world.add_system(watch)
    world.pause_collector = False
    world.step()
    assert watch.seen == [True] and gc.isenabled()
    world.pause_collector = True
    gc.disable()  # a game that runs without the collector keeps it off
    try:
        world.step()
        assert not gc.isenabled()
    finally:
        gc.enable()
    assert watch.seen == [True, False]


class FieldScribbler(System):
    """A toy system that writes every kind of field the undo copy keeps, in place and by assignment, then fails."""

    phase = Phase.COLLISION

    def run(self) -> None:
        for _, (position, control, skills) in esper.get_components(Position, Control, Skills):
            position.q, position.altitude_yd = 50, 3.0
            control.path.append((7, 7))
            control.state, control.moved_yd = MoveState.HIGH_SPEED, 4
            skills.levels["Riding"] = 1
            skills.levels = {"Jumping": 2}
        raise RuntimeError("scribbled")


def test_a_failed_step_puts_back_every_kind_of_field_into_the_same_objects() -> None:
    world = World(seed=1)
    world.add_system(FieldScribbler())
    entities = [world.spawn(Position(i, 0), Control(path=[(i, 0)]), Skills({"Riding": 12})) for i in range(3)]
    objects = {entity: world.components(entity) for entity in entities}
    with pytest.raises(RuntimeError, match="scribbled"):
        world.step()
    for i, entity in enumerate(entities):
        position, control, skills = (world.get(entity, kind) for kind in (Position, Control, Skills))
        assert (position, control.path) == (Position(i, 0), [(i, 0)])
        assert (control.state, control.moved_yd) == (MoveState.NORMAL, 0)
        assert skills.levels == {"Riding": 12}
        assert all(any(c is o for o in objects[entity]) for c in (position, control, skills))
    with pytest.raises(RuntimeError, match="scribbled"):  # the snapshot's copies are the world's now: a second
        world.step()  # failure puts back the same again
    assert world.get(entities[0], Control).path == [(0, 0)] and world.get(entities[0], Skills).levels == {"Riding": 12}


def test_duplicate_copies_a_component_exactly_with_its_own_containers_and_without_its_constructor() -> None:
    skills = Skills({"Riding": 13, "Jumping": 11})
    control = Control(state=MoveState.HIGH_SPEED, path=[(1, 0), (2, 0)], straight_yd=4)
    twins = duplicate(skills), duplicate(control)
    assert twins == (skills, control)
    assert twins[0].levels is not skills.levels and twins[1].path is not control.path
    twins[1].path.append((3, 0))
    assert control.path == [(1, 0), (2, 0)]
    # no constructor ran: a value its checks refuse, set on the original past the watch, is copied as it is
    object.__setattr__(control, "straight_yd", -1)
    assert duplicate(control).straight_yd == -1


def test_duplicate_refuses_what_is_not_a_registered_component() -> None:
    @dataclass
    class Loose:
        size: int = 1

    with pytest.raises(WorldError, match="Loose is not a registered dataclass component"):
        duplicate(Loose())


@register("test.Badge")
@dataclass(slots=True)
class Badge:
    """A toy component a game registered, with no checks (so never watched)."""

    level: int = 0


def test_the_undo_copy_leaves_no_cached_rows_of_types_no_system_queries() -> None:
    world = World(seed=1)
    world.add_system(Mover1D())
    runner = world.spawn(Position(0, 0), Velocity(1, heading=0), Badge(3))
    world.step(2)
    with world:
        esper.switch_world(world.context)
        cached = set(esper._get_component_cache)
        esper.switch_world("default")
        assert Badge not in cached  # its rows would stay in esper's cache, an entity each
        assert world.get(runner, Position).q == 2


class SkillCounter(System):
    """A toy system acting only on entities with Skills or Facing: counts the turns it ran."""

    phase = Phase.CLEANUP
    acts_on = (Skills, Facing)

    def __init__(self) -> None:
        super().__init__()
        self.runs = 0

    def run(self) -> None:
        self.runs += 1


def test_a_system_runs_only_in_turns_where_an_entity_holds_a_type_it_acts_on() -> None:
    """``System.acts_on``: while no entity holds Skills or Facing the step skips the system (the others run); holding
    either type is enough for it to run; once none holds one again, it is skipped again."""
    world = World(seed=1)
    counter = SkillCounter()
    world.add_system(Mover1D())
    world.add_system(counter)
    walker = world.spawn(Position(0, 0), Velocity(1))
    world.step(2)
    assert counter.runs == 0
    assert world.get(walker, Position).q == 2  # the other system ran
    world.add(walker, Facing(0))
    world.step(2)
    assert counter.runs == 2
    world.remove(walker, Facing)
    world.step()
    assert counter.runs == 2
    world.spawn(Skills({"Riding": 12}))
    world.step()
    assert counter.runs == 3

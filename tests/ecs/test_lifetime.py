"""A world that is closed, or whose esper context the game deleted, refuses every use by name; a load into a
context the game already uses refuses to wipe it unless told to."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import esper
import pytest
from support import gurps_world
from support.highspeed import mover

from esper_motion.components import Position, Velocity
from esper_motion.ecs import Event, HandlerError, Phase, System, World, WorldError, _context


class Idle(System):
    phase = Phase.MOVEMENT

    def run(self) -> None: ...


USES: dict[str, Callable[[World, int, Path], Any]] = {
    "spawn": lambda world, _, __: world.spawn(Position(0, 0)),
    "despawn": lambda world, entity, _: world.despawn(entity),
    "add": lambda world, entity, _: world.add(entity, Position(1, 1)),
    "remove": lambda world, entity, _: world.remove(entity, Velocity),
    "get": lambda world, entity, _: world.get(entity, Velocity),
    "try_get": lambda world, entity, _: world.try_get(entity, Velocity),
    "has": lambda world, entity, _: world.has(entity, Velocity),
    "exists": lambda world, entity, _: world.exists(entity),
    "entities": lambda world, _, __: world.entities(),
    "components": lambda world, entity, _: world.components(entity),
    "query": lambda world, _, __: world.query(Velocity),
    "scan": lambda world, _, __: world.scan(Velocity),
    "per_shape": lambda world, _, __: world.per_shape("k", (Velocity,), len),
    "per_turn": lambda world, _, __: world.per_turn("k", lambda: 1),
    "per_run": lambda world, _, __: world.per_run("k", lambda: 1),
    "add_system": lambda world, _, __: world.add_system(Idle()),
    "install_rules": lambda world, _, __: world.install_rules("other", None),
    "emit": lambda world, _, __: world.emit(Event()),
    "on": lambda world, _, __: world.on(Event, print),
    "off": lambda world, _, __: world.off(Event, print),
    "step": lambda world, _, __: world.step(),
    "save": lambda world, _, path: world.save(path),
    "restore": lambda world, _, path: world.restore(path),
}


def _saved_world(tmp_path: Path) -> tuple[World, int, Path]:
    world = gurps_world()
    runner = mover(world, velocity=4)
    world.step()
    path = tmp_path / "good.json"
    world.save(path)
    return world, runner, path


@pytest.mark.parametrize("use", sorted(USES))
@pytest.mark.parametrize("end", ["closed", "context deleted"])
def test_every_use_of_a_world_that_is_gone_is_refused_by_name(tmp_path: Path, use: str, end: str) -> None:
    world, runner, path = _saved_world(tmp_path)
    good = path.read_bytes()
    contexts = set(esper.list_worlds())
    if end == "closed":
        world.close()
        expected = rf"World\.{use}: world {world.context!r} is closed"
    else:
        esper.delete_world(world.context)
        expected = rf"World\.{use}: the esper context {world.context!r} of this world was deleted"
    with pytest.raises(WorldError, match=expected):
        USES[use](world, runner, path)
    assert path.read_bytes() == good  # a save is never written over by an empty world
    assert set(esper.list_worlds()) <= contexts  # and no empty context is made again
    world.close()  # closing again is allowed


def test_an_attached_world_once_closed_refuses_to_read_the_games_context() -> None:
    with _context.active("game-lifetime"):
        mine = esper.create_entity(Position(1, 1))
    try:
        world = World.attach("game-lifetime")
        world.close()
        with pytest.raises(WorldError, match="is closed"):
            world.get(mine, Position)
        with _context.active("game-lifetime"):
            assert esper.component_for_entity(mine, Position) == Position(1, 1)
    finally:
        esper.delete_world("game-lifetime")


def test_a_load_into_a_context_the_game_uses_refuses_to_wipe_it_unless_told_to(tmp_path: Path) -> None:
    _, runner, path = _saved_world(tmp_path)
    with _context.active("game-load"):
        mine = esper.create_entity(Position(2, 2))
    try:
        with pytest.raises(WorldError, match=r"'game-load' holds 1 entity of the game's.*replace=True"):
            World.load(path, context="game-load")
        with _context.active("game-load"):
            assert esper.component_for_entity(mine, Position) == Position(2, 2)
        loaded = World.load(path, context="game-load", replace=True)
        assert loaded.turn == 1 and loaded.entities() == [runner]
    finally:
        esper.delete_world("game-load")


@pytest.mark.parametrize("where", ["same world", "two worlds"])
@pytest.mark.parametrize("how", ["spawn", "add"])
def test_one_component_object_given_to_two_entities_is_refused_naming_both(where: str, how: str) -> None:
    world = gurps_world()
    runner = mover(world, velocity=4)
    shared = world.get(runner, Velocity)
    other = world if where == "same world" else gurps_world()
    target = other.spawn(Position(5, 5))
    before = [(entity, other.components(entity)) for entity in other.entities()]
    with pytest.raises(WorldError) as caught:
        if how == "spawn":
            other.spawn(Position(5, 5), shared)
        else:
            other.add(target, shared)
    message = str(caught.value)
    assert f"World.{how}: " in message and f"is already the Velocity of entity {runner}" in message
    assert (world.context in message) == (where == "two worlds")
    assert [(entity, other.components(entity)) for entity in other.entities()] == before


def test_a_component_taken_off_may_be_given_again() -> None:
    world = gurps_world()
    runner = mover(world, velocity=4)
    velocity = world.get(runner, Velocity)
    world.remove(runner, Velocity)
    world.add(runner, velocity)
    world.despawn(runner)
    assert world.spawn(velocity) != runner


@pytest.mark.parametrize("call", ["close", "restore"])
def test_close_and_restore_from_an_event_handler_are_refused_and_the_step_stops(tmp_path: Path, call: str) -> None:
    world, _, path = _saved_world(tmp_path)
    refused: list[BaseException] = []

    def handler(event: Event) -> None:
        try:
            world.close() if call == "close" else world.restore(path)
        except WorldError as error:
            refused.append(error)
            raise

    world.on(Event, handler)
    with pytest.raises(HandlerError) as caught:
        world.step(3)
    assert caught.value.turn == 2 and world.turn == 2  # the turn played stands, no other is played
    assert refused and all(f"World.{call} cannot run from an event handler" in str(error) for error in refused)
    assert world.entities()  # neither closed nor restored

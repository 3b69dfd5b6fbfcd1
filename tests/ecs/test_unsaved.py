"""A game's per-frame components (a sprite) marked ``unsaved``: a save leaves them out, and the world neither
rolls them back nor checks them, while an unmarked class the registry does not know still refuses a save."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest

from esper_motion.components import Condition, Control, Facing, Intent, Mover, Position, Posture, Velocity
from esper_motion.ecs import Phase, SaveError, System, World, WorldError, register, unsaved
from esper_motion.systems import gurps


@unsaved
@dataclass(slots=True)
class Sprite:
    frame: int = 0

    def __post_init__(self) -> None:
        if self.frame < 0:
            raise ValueError("a frame is 0 or more")


@dataclass(slots=True)
class Score:
    points: int = 0


def _world() -> tuple[World, int]:
    world = World(seed=5)
    gurps.install(world)
    runner = world.spawn(
        Position(0, 0), Facing(0), Velocity(3), Mover(basic_move=5, dx=12), Control(), Intent(), Posture(), Condition()
    )
    return world, runner


def test_a_save_leaves_an_unsaved_component_out_and_loads_without_it(tmp_path: Path) -> None:
    world, runner = _world()
    loaded = None
    try:
        world.add(runner, Sprite(3))
        world.save(tmp_path / "game.json")
        saved = json.loads((tmp_path / "game.json").read_text(encoding="utf-8"))
        assert "Sprite" not in json.dumps(saved["entities"])
        loaded = World.load(tmp_path / "game.json")
        assert not loaded.has(runner, Sprite)
        assert loaded.get(runner, Position) == world.get(runner, Position)
    finally:
        world.close()
        if loaded is not None:
            loaded.close()


def test_a_component_neither_registered_nor_unsaved_still_refuses_a_save(tmp_path: Path) -> None:
    world, runner = _world()
    try:
        world.add(runner, Score())
        with pytest.raises(SaveError, match="Score has no registered name"):
            world.save(tmp_path / "game.json")
    finally:
        world.close()


class BreakingSystem(System):
    phase = Phase.MOVEMENT

    def run(self) -> None:
        self.world.get(1, Sprite).frame = 9
        raise RuntimeError("the game's system fails mid-turn")


def test_an_unsaved_component_is_neither_rolled_back_nor_checked() -> None:
    world, runner = _world()
    try:
        world.add(runner, Sprite(0))
        world.get(runner, Sprite).frame = -1  # its own check is not run on what the game writes
        world.step()
        world.add_system(BreakingSystem())
        with pytest.raises(RuntimeError, match="fails mid-turn"):
            world.step()
        assert world.get(runner, Sprite).frame == 9  # the turn was undone, the sprite left as the game drew it
        assert world.turn == 1
    finally:
        world.close()


def test_a_class_is_registered_or_unsaved_not_both() -> None:
    with pytest.raises(WorldError, match="is marked unsaved"):
        register("test.Sprite")(Sprite)

    @register("test.Kept")
    @dataclass(slots=True)
    class Kept:
        value: int = 0

    with pytest.raises(WorldError, match=r"is registered as 'test\.Kept'"):
        unsaved(Kept)

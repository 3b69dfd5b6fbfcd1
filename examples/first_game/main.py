"""A first game: an esper game of its own (``components.py``, ``processors.py`` and
this loop) with esper-motion's GURPS movers in its context. Each frame runs the game's
processors; once a second the loop steps the rules. At the end it saves, loads the
save into a world of its own and prints JSON: what happened and what came back.

Run it from this folder: ``python main.py``.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import esper

from esper_motion.components import (
    Condition,
    Control,
    Facing,
    Intent,
    Mover,
    Obstacle,
    Position,
    Posture,
    Velocity,
)
from esper_motion.ecs import World
from esper_motion.systems.gurps import Collided, install

from components import Health, Sprite
from processors import Finish, Glide

FRAME = 1 / 60
"""Seconds per frame."""

esper.switch_world("first-game")
world = World.attach(seed=5)  # the rules' world, in the game's own esper context
install(world)
esper.add_processor(Glide())
esper.add_processor(Finish())

log: list[str] = []


def on_collided(event: Collided) -> None:
    """The rules' collision event lowers the game's Health."""
    esper.component_for_entity(event.entity, Health).hp -= event.injury_taken
    log.append(event.describe())


world.on(Collided, on_collided)


def runner(q: int, r: int, basic_move: int) -> int:
    """A GURPS mover with the game's Health and Sprite."""
    return world.spawn(
        Position(q, r),
        Facing(0),
        Velocity(0),
        Mover(basic_move=basic_move),
        Control(),
        Intent(),
        Posture(),
        Condition(),
        Health(10),
        Sprite(),
    )


sprinter = runner(0, 0, basic_move=6)
jogger = runner(0, 3, basic_move=4)
world.spawn(Position(8, 0), Obstacle())  # a wall in the sprinter's way

clock = 0.0
for _ in range(60 * 8):  # eight seconds of frames
    clock += FRAME
    if clock >= 1 - 1e-9:  # a turn of the rules every second
        clock -= 1
        for _, (intent,) in world.query(Intent):
            # The game's orders: speed up for four turns, then hold.
            intent.throttle = int(world.turn < 4)
        world.step()
    esper.process(FRAME)

with tempfile.TemporaryDirectory() as folder:
    world.save(Path(folder) / "game.json")
    # A world of its own, with the game's registered Health.
    loaded = World.load(Path(folder) / "game.json")

report = {
    "turn": world.turn,
    "jogger_deleted": not world.exists(jogger),
    "sprinter": {
        "hex": world.get(sprinter, Position).hex,
        "hp": world.get(sprinter, Health).hp,
    },
    "log": log,
    "loaded": {
        "turn": loaded.turn,
        "hex": loaded.get(sprinter, Position).hex,
        "hp": loaded.get(sprinter, Health).hp,
        "sprite": loaded.has(sprinter, Sprite),
    },
}
loaded.close()
world.close()
print(json.dumps(report))

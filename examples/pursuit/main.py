"""A chase: the player's runner flees, and two hounds with ``Pursue`` goals run it down. An esper game laid out as
esper's tutorials lay one out (``components.py``, ``processors.py`` and this loop): each frame runs the game's
processors, ``Steer`` writing the player's intent from its keys; once a second the loop steps the rules, whose
planner writes each hound's intent from its goal. The keys here are scripted, so that the chase plays without a
window; a game's key handler would append to the same ``Keys``. At the end it prints JSON: the hounds' first plans,
the log, and who caught the player when.

Run it from this folder: ``python main.py``.
"""

from __future__ import annotations

import json
from typing import Any

import esper

from esper_motion.components import (
    Caution,
    Condition,
    Control,
    Facing,
    Intent,
    Mover,
    Obstacle,
    Position,
    Posture,
    Pursue,
    Velocity,
)
from esper_motion.ecs import World
from esper_motion.systems.gurps import GoalUnreachable, Moved, install, plan

from components import Caught, Keys
from processors import Referee, Steer

FRAME = 1 / 60
"""Seconds per frame."""

SCRIPT = {1: ["up"] * 5, 3: ["left"], 4: ["right", "right", "right"], 5: ["left"], 7: ["down", "down", "down"]}
"""The player's keys, by the turn they steer: pressed during the second before it (five yards a second, then a
swerve north-east and back; a turn of three hexsides at once is more than the rules allow, and refused)."""

esper.switch_world("pursuit")
world = World.attach(seed=11)  # the rules' world, in the game's own esper context
install(world)
log: list[str] = []
esper.add_processor(Steer(world, log))
esper.add_processor(Referee(world))


def runner(q: int, r: int, basic_move: int, *parts: Any) -> int:
    """A GURPS mover at rest facing east, with the game's components ``parts``."""
    return world.spawn(
        Position(q, r),
        Facing(0),
        Velocity(0),
        Mover(basic_move=basic_move),
        Control(),
        Intent(),
        Posture(),
        Condition(),
        *parts,
    )


player = runner(6, 0, 5, Keys())
hounds = {
    "Hound": runner(0, 2, 7, Pursue(player)),
    "Lurcher": runner(0, -2, 7, Pursue(player), Caution(0.1)),  # accepts a 10% chance of failing a roll a turn
}
names = {player: "the player", **{entity: name for name, entity in hounds.items()}}
for q, r in ((10, 1), (10, 2), (11, -2), (11, -3)):
    world.spawn(Position(q, r), Obstacle())  # rocks


def said(event: Any) -> str:
    """An event in words, with the game's names for its entities."""
    line: str = event.describe()
    for entity, name in names.items():
        line = line.replace(f"entity {entity} ", f"{name} ")
    return line


# What each hound means to do, before the first turn: the planner's own plan, its path and each turn's odds.
plans = {
    name: [{"to": list(turn.path[-1]), "odds": float(1 - turn.failure_chance)} for turn in plan(world, hound).turns]
    for name, hound in hounds.items()
}

clock = 0.0
for frame in range(60 * 12):  # at most twelve seconds of frames
    if frame % 60 == 20:  # the keys for the next turn, a third of the way through the second before it
        esper.component_for_entity(player, Keys).pressed.extend(SCRIPT.get(world.turn + 1, []))
    esper.process(FRAME)
    if esper.has_component(player, Caught):
        break
    clock += FRAME
    if clock >= 1 - 1e-9:  # a turn of the rules every second
        clock -= 1
        for event in world.step():
            if isinstance(event, (Moved, GoalUnreachable)):
                log.append(f"turn {world.turn}: {said(event)}")

caught = esper.try_component(player, Caught)
report = {
    "plans": plans,
    "log": log,
    "turn": world.turn,
    "caught": None if caught is None else {"by": names[caught.by], "turn": caught.turn},
    "hexes": {name: list(world.get(entity, Position).hex) for entity, name in names.items()},
}
world.close()
print(json.dumps(report))

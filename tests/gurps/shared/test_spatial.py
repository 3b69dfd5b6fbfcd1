"""The spatial index: refreshed from turn to turn, it answers every question as a fresh rebuild would."""

from __future__ import annotations

import random

from esper_motion.components import Control, Facing, Footing, Mover, Obstacle, Position
from esper_motion.components.flight import Flight
from esper_motion.ecs import World
from esper_motion.ecs.hexgrid import Hex
from esper_motion.systems.gurps.shared.spatial import SpatialIndex

AREA = [(q, r) for q in range(-2, 14) for r in range(-2, 14)]
TALL = 1000.0  # a figure this tall meets everything on a hex


def answers(index: SpatialIndex) -> list[tuple[Hex, list[int], list[int], int, bool]]:
    """Everything the index says about every hex of the area."""
    return [
        (
            hex,
            index.bodies_in_way(hex, 0, 0.0, TALL),
            [entity for entity, _ in index.obstacles_in_way(hex, 0.0, TALL)],
            index.footing_extra(hex),
            hex in index.occupied,
        )
        for hex in AREA
    ]


def fresh(world: World) -> SpatialIndex:
    index = SpatialIndex()
    index.rebuild(world)
    return index


def spot(rng: random.Random) -> Position:
    return Position(rng.randrange(12), rng.randrange(12))


def test_a_refreshed_index_answers_as_a_rebuilt_one_whatever_moved_between_turns() -> None:
    rng = random.Random(7)
    world = World(seed=1)
    bodies = [world.spawn(spot(rng), Facing(rng.randrange(6)), Mover(5), Control()) for _ in range(12)]
    flier = world.spawn(
        Position(5, 5, altitude_yd=3.0), Facing(0), Mover(5), Control(), Flight(air_move=10, lying_flat=True)
    )
    walls = [world.spawn(spot(rng), Obstacle()) for _ in range(4)]
    mud = world.spawn(Position(20, 20), Footing())
    index = SpatialIndex()
    index.refresh(world)
    for _ in range(300):
        change = rng.randrange(8)
        if change == 0:  # a game moves a body
            position = world.get(rng.choice(bodies), Position)
            position.q, position.r = spot(rng).hex
        elif change == 1:  # a body walks during the turn, and the index follows it
            body = rng.choice([entity for entity in bodies if world.get(entity, Control).carried_by is None])
            position = world.get(body, Position)
            start = position.hex
            position.q, position.r = spot(rng).hex
            index.move(body, start, position.hex)
        elif change == 2:  # someone gets on or off a mount
            control = world.get(rng.choice(bodies), Control)
            control.carried_by = None if control.carried_by is not None else flier
        elif change == 3:  # the flier lands, takes off, turns, or stops lying flat
            world.get(flier, Position).altitude_yd = rng.choice([0.0, 3.0])
            world.get(flier, Facing).direction = rng.randrange(6)
            world.get(flier, Flight).lying_flat = rng.random() < 0.8
        elif change == 4:  # a wall or the mud is moved
            position = world.get(rng.choice([*walls, mud]), Position)
            position.q, position.r = spot(rng).hex if rng.random() < 0.5 else (20 + rng.randrange(5), 20)
        elif change == 5:  # the world changes shape
            walls.append(world.spawn(spot(rng), Obstacle()))
        elif change == 6 and len(walls) > 1:
            world.despawn(walls.pop(0))
        index.refresh(world)
        assert answers(index) == answers(fresh(world))

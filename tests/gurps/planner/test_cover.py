"""Flee to cover: a runner makes for the nearest hex its source cannot see behind an obstacle, and stays there;
line of sight on the hex grid as the cover module reads it."""

from __future__ import annotations

from support import gurps_world
from support.highspeed import mover

from esper_motion.components import Flee, Obstacle, Position, Velocity
from esper_motion.ecs import World
from esper_motion.ecs.hexgrid import distance
from esper_motion.systems.gurps.planner.cover import cover_hex, hidden
from esper_motion.systems.gurps.shared.movers import body_of
from esper_motion.systems.gurps.shared.spatial import SpatialIndex

WALL = ((4, -4), (4, -3), (4, -2))
"""A wall up and to the right of the runner at (0, 0); open ground straight ahead of it."""


def field(*, cover: bool, height_yd: float = 2.0) -> tuple[World, int, int]:
    """A runner at (0, 0) facing away from a hunter at (-6, 0) who stands still, and :data:`WALL`:
    ``(world, runner, hunter)``."""
    world = gurps_world()
    hunter = mover(world, at=(-6, 0))
    runner = mover(world, extra=(Flee(hunter, range_yd=20, cover=cover),))
    for hex in WALL:
        world.spawn(Position(*hex), Obstacle(height_yd=height_yd))
    return world, runner, hunter


def index_of(world: World) -> SpatialIndex:
    index = SpatialIndex()
    index.rebuild(world)
    return index


def test_a_wall_hides_the_hexes_behind_it_and_a_low_hedge_does_not() -> None:
    world, _, _ = field(cover=True)
    index = index_of(world)
    assert hidden(index, (-6, 0), (5, -3), 0.0, 2.0)  # the line from the hunter crosses the wall
    assert not hidden(index, (-6, 0), (5, 0), 0.0, 2.0)  # open ground
    assert not hidden(index, (-6, 0), (4, -3), 0.0, 2.0)  # the wall's own hex: neither end counts
    low, _, _ = field(cover=True, height_yd=1.0)
    assert not hidden(index_of(low), (-6, 0), (5, -3), 0.0, 2.0)  # a man stands taller than it


def test_the_cover_is_the_nearest_hex_out_of_sight() -> None:
    world, runner, _ = field(cover=True)
    index = index_of(world)
    found = cover_hex(index, body_of(world, runner), (-6, 0))
    assert found == (5, -2)
    nearer = [(q, r) for q in range(-5, 6) for r in range(-5, 6) if distance((0, 0), (q, r)) < distance((0, 0), found)]
    assert not [hex for hex in nearer if hex not in WALL and hidden(index, (-6, 0), hex, 0.0, 2.0)]


def test_a_runner_to_cover_stops_behind_the_wall_where_one_in_the_open_runs_on() -> None:
    world, runner, hunter = field(cover=True)
    open_world, open_runner, _ = field(cover=False)
    for _ in range(6):
        world.step()
        open_world.step()
    index = index_of(world)
    at = world.get(runner, Position).hex
    assert at == (5, -2)
    assert hidden(index, world.get(hunter, Position).hex, at, 0.0, 2.0)
    assert world.get(runner, Velocity).yps == 0
    world.step()
    assert world.get(runner, Position).hex == at  # it stays
    assert not hidden(index_of(open_world), (-6, 0), open_world.get(open_runner, Position).hex, 0.0, 2.0)

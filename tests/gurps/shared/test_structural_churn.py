"""Structural changes drop only the queries they touch: a game's own component coming and going between steps, or in
a turn, leaves esper's cached rows of the rules' queries, the bodies, the spatial index and the link check as they
were, and a world that drops every query at each change (as esper does on its own) plays every turn the same."""

from __future__ import annotations

import random
from dataclasses import dataclass

import esper
import pytest
from support.worlds import fingerprint, mixed_world, plan_turn, step_refusing

from esper_motion.components import Footing, Mover, Obstacle, Position
from esper_motion.ecs import World, register
from esper_motion.systems.gurps import Rules
from esper_motion.systems.gurps.shared import movers, spatial


@register("test.Tagged")
@dataclass(slots=True)
class Tagged:
    """A game's own component, a tag with a count."""

    turns: int = 0


def reshape(world: World, rng: random.Random, turn: int) -> None:
    """Tag or untag a few entities, and now and then take a footing tile away or put a wall down."""
    entities = world.entities()
    for entity in rng.sample(entities, 4):
        if world.has(entity, Tagged):
            world.remove(entity, Tagged)
        else:
            world.add(entity, Tagged(turn))
    tiles = world.query(Position, Footing)
    if turn % 3 == 1 and tiles:
        world.remove(tiles[0][0], Footing)
    if turn % 4 == 2:
        world.spawn(Position(rng.randrange(-20, 0), rng.randrange(-20, 0)), Obstacle(hp=50, height_yd=3.0))


def everything_dropped(world: World) -> None:
    """What esper does on its own at any change of structure: every cached query goes."""
    previous = esper.current_world
    esper.switch_world(world.context)
    esper.clear_cache()
    esper.switch_world(previous)


@pytest.mark.parametrize("rules", [Rules.basic(), Rules.house()], ids=["basic", "house"])
@pytest.mark.parametrize("seed", [1, 2])
def test_keeping_the_queries_a_change_leaves_alone_plays_every_turn_the_same(rules: Rules, seed: int) -> None:
    kept, cast = mixed_world(seed, 5, rules)
    dropped, _ = mixed_world(seed, 5, rules)
    for turn in range(10):
        for world in (kept, dropped):
            plan_turn(world, cast, random.Random(seed * 100 + turn))
            reshape(world, random.Random(seed * 1_000 + turn), turn)
        everything_dropped(dropped)
        step_refusing(kept)
        step_refusing(dropped)
        assert fingerprint(kept) == fingerprint(dropped), f"turn {turn}"


def test_a_games_tag_leaves_the_rules_queries_and_what_is_built_on_them() -> None:
    world, _ = mixed_world(3, 2)
    world.step()
    rows = world.scan(Position, Mover)
    found = movers.bodies(world)
    body_list = world.per_shape(movers.bodies, movers.BODY_TYPES, movers._Bodies)
    runner = found[0].entity
    world.add(runner, Tagged())
    assert world.scan(Position, Mover) is rows
    assert world.per_shape(movers.bodies, movers.BODY_TYPES, movers._Bodies) is body_list
    world.remove(runner, Tagged)
    assert world.scan(Position, Mover) is rows
    assert world.scan(Tagged) == []
    world.add(runner, Position(0, 0))  # one of the rules' own types: its queries go
    assert world.scan(Position, Mover) is not rows


def test_the_index_sees_footing_taken_away_and_a_wall_put_down() -> None:
    world, cast = mixed_world(4, 2)
    world.step()
    index = spatial.shared_index(world)
    tile = cast.footing[0]
    at = world.get(tile, Position).hex
    assert index.footing_extra(at) > 0
    world.remove(tile, Footing)
    assert spatial.shared_index(world).footing_extra(at) == 0
    wall = world.spawn(Position(-5, -5), Obstacle(hp=50, height_yd=3.0))
    index = spatial.shared_index(world)
    assert index.obstacles_in_way((-5, -5), 0.0, 2.0) == [(wall, world.get(wall, Obstacle))]

"""Navigation near a fence: a quarry running at a fence is looked for at the fence, not beyond it; a horse (a body
three hexes long, which turns about its front and cannot back up) never ends a turn where it could not get clear,
and steps short of what is in its way to come round; in the pursuit scene it is never stuck in the far corner."""

from __future__ import annotations

from pathlib import Path

import pytest
from support import gurps_world, of_type
from support.highspeed import mover

from esper_motion.components import Obstacle, Position, Pursue
from esper_motion.demos.scene import build_scene
from esper_motion.demos.scene_file import read_scene
from esper_motion.studies.runs import run_one
from esper_motion.studies.scene import LEFT_MAP, RUN_STOPPED, prepare
from esper_motion.systems.gurps.events import GoalUnreachable
from esper_motion.systems.gurps.planner.room import way_on
from esper_motion.systems.gurps.planner.search import aim_of
from esper_motion.systems.gurps.shared.spatial import SpatialIndex

CORNER = ((41, -2), (41, -1), (40, 0), (40, 1), (39, 2), (42, -3), (42, -4))
"""The pursuit scene's east fence near the runner's goal: the map's edge zigzags in axial hexes."""


def fenced() -> SpatialIndex:
    world = gurps_world()
    for hex in CORNER:
        world.spawn(Position(*hex), Obstacle(hp=1000, height_yd=3.0))
    index = SpatialIndex()
    index.rebuild(world)
    return index


@pytest.mark.parametrize(("front", "facing"), [((40, -1), 0), ((40, -1), 5), ((39, 0), 0), ((39, 1), 1)])
def test_a_horse_with_its_nose_in_the_corner_cannot_get_clear(front: tuple[int, int], facing: int) -> None:
    assert not way_on(fenced(), front, facing, 3, altitude_yd=0.0, height_yd=2.0)


@pytest.mark.parametrize(("front", "facing"), [((36, 0), 0), ((38, -1), 3)])
def test_a_horse_further_off_or_facing_away_can(front: tuple[int, int], facing: int) -> None:
    assert way_on(fenced(), front, facing, 3, altitude_yd=0.0, height_yd=2.0)


def test_a_man_in_the_corner_turns_where_he_stands() -> None:
    assert way_on(fenced(), (40, -1), 0, 1, altitude_yd=0.0, height_yd=2.0)


def test_a_quarry_running_at_a_fence_is_looked_for_at_the_fence() -> None:
    world = gurps_world()
    for hex in CORNER:
        world.spawn(Position(*hex), Obstacle(hp=1000, height_yd=3.0))
    runner = mover(world, at=(38, -1), velocity=6)
    chaser = mover(world, at=(30, 0), extra=(Pursue(runner),))
    index = SpatialIndex()
    index.rebuild(world)
    aim = aim_of(world, world.get(chaser, Pursue), 3, index=index)
    assert aim is not None and aim.places == ((40, -1), (40, -1), (40, -1))


@pytest.mark.parametrize("seed", [11, 24])
def test_the_pursuits_horse_is_never_stuck_in_the_far_corner(seed: int) -> None:
    """With these seeds the rider is thrown near the far fence and the horse, on its own goal, ran its nose into
    the corner and stood there saying it could get no nearer, turn after turn."""
    scene = build_scene(read_scene("pursuit"), seed=seed)
    horse = next(entity for entity, name in scene.names.items() if name == "Horse")
    stuck = 0
    for _ in range(20):
        said = [event for event in of_type(scene.step(), GoalUnreachable) if event.entity == horse]
        stuck = stuck + 1 if said else 0
        assert stuck < 2, said


def test_the_goals_pages_hunt_keeps_hare_and_hounds_on_the_field() -> None:
    """The hounds followed a scripted hare off an open map; the field is fenced now and the hare flees by a goal."""
    path = Path(__file__).resolve().parents[3] / "docs" / "scenes" / "goals" / "hunt.toml"
    prepared = prepare(str(path), path.read_text(encoding="utf-8"), None, ())
    for seed in range(1, 6):
        record = run_one(prepared, seed, 12, ())
        assert LEFT_MAP not in record.counts, (seed, record.counts[LEFT_MAP])
        assert RUN_STOPPED not in record.counts, seed

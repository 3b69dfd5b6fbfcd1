"""Demo rendering in a real headless GL context: pixels, animation along paths, keys, PNG and GIF output.

All tests draw into the one session window of ``conftest.py``.
"""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

arcade = pytest.importorskip("arcade")

from PIL import Image  # noqa: E402 (after the skip: pillow comes with arcade)

from esper_motion import cli  # noqa: E402
from esper_motion.components import Control, Intent, MoveState, Position, Posture, PostureState  # noqa: E402
from esper_motion.components.flight import Flight  # noqa: E402
from esper_motion.demos import render  # noqa: E402
from esper_motion.demos.scene import build_scene  # noqa: E402
from esper_motion.demos.scene_file import read_scene  # noqa: E402
from esper_motion.demos.window import DemoView  # noqa: E402
from esper_motion.ecs import Phase, System  # noqa: E402

SCENE = """\
title = "Render test"
description = "A runner that dashes round a corner, a walker, mud and a wall."
rules = "gurps"
seed = 5
turns = 2

[map]
width = 16
height = 5

[[terrain]]
label = "mud"
hexes = [[8, -2], [9, -2]]
components = { "gurps.Footing" = {} }

[[terrain]]
label = "wall"
hexes = [[12, 2]]
components = { "gurps.Obstacle" = {} }

[[entity]]
name = "Runner"
colour = "#f2c14e"
[entity.components]
Position = { q = 1, r = 0 }
Facing = { direction = 0 }
"gurps.Control" = {}
"gurps.Mover" = { basic_move = 6 }

[[entity]]
name = "Walker"
colour = "#4ea1f2"
[entity.components]
Position = { q = 3, r = -2 }
"gurps.Mover" = { basic_move = 5 }
"gurps.Intent" = {}

[[entity]]
name = "Kite"
colour = "#c98bf0"
[entity.components]
Position = { q = 12, r = -1, altitude_yd = 9.0 }
"""

REPO = Path(__file__).resolve().parents[2]

DASH = [(2, 0), (3, 0), (4, 0), (4, 1), (4, 2)]
"""The toy path: three hexes east, then two north-east (a turn on the way)."""


class Dash(System):
    """A toy movement system: the runner runs DASH on the first turn and records it as its path."""

    phase = Phase.MOVEMENT

    def __init__(self) -> None:
        super().__init__()
        self.turns_seen: list[int] = []

    def run(self) -> None:
        world = self.world
        self.turns_seen.append(world.get(2, Intent).turn)
        if world.turn == 0:
            world.get(1, Position).q, world.get(1, Position).r = DASH[-1]
            world.get(1, Control).path = list(DASH)


def stage(tmp_path: Path) -> tuple[render.Stage, Dash]:
    path = tmp_path / "render.toml"
    path.write_text(SCENE, encoding="utf-8")
    scene = build_scene(read_scene(str(path)))
    dash = Dash()
    scene.world.add_system(dash)
    return render.Stage(scene), dash


def pixel(image: Image.Image, x: float, y: float) -> tuple[int, int, int]:
    """The colour at window point (x, y), y up."""
    value = image.getpixel((round(x), render.HEIGHT - round(y)))
    assert isinstance(value, tuple)
    return (value[0], value[1], value[2])


def test_entities_terrain_and_grid_are_drawn_where_they_are(window: Any, tmp_path: Path) -> None:
    played, _ = stage(tmp_path)
    renderer = render.Renderer(played)
    renderer.draw(1.0)
    image = render.snapshot()
    assert image.size == (render.WIDTH, render.HEIGHT)
    layout = renderer.layout
    assert pixel(image, *layout.centre((3, -2))) == (0x4E, 0xA1, 0xF2)  # the walker, in its colour
    assert pixel(image, *layout.centre((1, 0))) == (0xF2, 0xC1, 0x4E)  # the runner
    assert pixel(image, *layout.centre((8, -2))) == render.TERRAIN_STYLES[2][1][:3]  # mud: footing
    assert pixel(image, *layout.centre((12, 2))) == render.TERRAIN_STYLES[0][1][:3]  # wall: obstacle
    x, y = layout.centre((6, 1))
    assert pixel(image, x, y) == render.GROUND[:3]
    edge = x + layout.size * math.sqrt(3) / 2  # the side this hex shares with its east neighbour
    assert render.GRID[:3] in [pixel(image, edge + dx, y) for dx in (-1.5, -1, -0.5, 0, 0.5, 1, 1.5)]
    assert pixel(image, 3, 400) == render.BACKGROUND[:3]
    # a flier stands on its hex; its shadow falls below and to the right, darker than the ground
    kx, ky = layout.centre((12, -1))
    assert pixel(image, kx, ky) == (0xC9, 0x8B, 0xF0)
    dx, dy = layout.shadow(ky, 9.0)
    assert dx > 0 and dy < 0
    assert sum(pixel(image, kx + dx, ky + dy)) < sum(render.GROUND[:3])
    assert sum(pixel(image, kx + dx, ky + dy)) < sum(pixel(image, *layout.centre((12, -1))))


def test_a_body_steered_off_the_map_stays_in_view_on_a_grown_ground(window: Any, tmp_path: Path) -> None:
    played, _ = stage(tmp_path)
    renderer = render.Renderer(played)
    renderer.draw(1.0)
    assert renderer.grow() is False  # everyone on the 16 x 5 map: nothing to grow
    before = renderer.layout.size
    position = played.world.get(1, Position)
    position.q, position.r = 20, 4  # two rows above the map's top row (2), in column 22 (its last is 15)
    renderer.draw(1.0)
    image = render.snapshot()
    assert renderer.area == (range(-2, 6), range(0, 24))  # a hex to spare beyond the runner
    assert (20, 4) in renderer.ground and (3, -2) in renderer.ground  # the map's own hexes are still there
    assert renderer.layout.size < before  # the same window area holds more hexes
    x, y = renderer.layout.centre((20, 4))
    assert 0 < x < render.WIDTH and render.BOTTOM_H < y < render.HEIGHT - render.HEADER_H
    assert pixel(image, x, y) == (0xF2, 0xC1, 0x4E)  # the runner, drawn in its colour
    assert renderer.grow() is False  # grown once, it stays put while the runner stays in it


def test_a_body_moved_far_off_the_map_is_out_of_view_and_the_ground_stays_bounded(window: Any, tmp_path: Path) -> None:
    """Issue 15, finding 9: a script that moved an entity a million hexes off used to make the renderer lay out a
    ground of a million by a million hexes. The ground grows at most GROW_LIMIT (2) maps beyond each edge: the
    16 x 5 map (rows -2 to 2, columns 0 to 15) grows toward the body to column 47 (15 + 32), and then to row -12
    (-2 - 10) and column -32 (0 - 32), never past rows -12 to 12 and columns -32 to 47: 25 x 80 hexes."""
    played, _ = stage(tmp_path)
    renderer = render.Renderer(played)
    position = played.world.get(1, Position)
    position.q, position.r = 1_000_000, 4
    renderer.draw(1.0)
    assert renderer.area == (range(-2, 6), range(0, 48))
    position.q, position.r = -1_000_000, -1_000_000
    renderer.draw(1.0)
    assert renderer.area == (range(-12, 6), range(-32, 48))
    assert len(renderer.ground) <= 25 * 80
    assert renderer.grow() is False


def test_badges_come_from_state_enums_and_flags_of_any_component(window: Any, tmp_path: Path) -> None:
    played, _ = stage(tmp_path)
    world = played.world
    assert render.badges(world, 1) == []
    world.get(1, Control).state = MoveState.HIGH_SPEED
    world.add(1, Posture(PostureState.PRONE))
    world.add(1, Flight(air_move=4, stalled=True))
    assert render.badges(world, 1) == ["high speed", "prone", "stalled"]


def test_movement_animates_along_the_path_turn_included(window: Any, tmp_path: Path) -> None:
    played, _ = stage(tmp_path)
    renderer = render.Renderer(played)
    played.step()
    assert played.motions[1].hexes == [(1, 0), *DASH]
    runner = (0xF2, 0xC1, 0x4E)
    layout = renderer.layout
    # five equal steps: at 60% of the turn the runner stands on the corner hex (4, 0), not on the straight line
    renderer.draw(0.6)
    midway = render.snapshot()
    assert pixel(midway, *layout.centre((4, 0))) == runner
    assert pixel(midway, *layout.centre((4, 2))) != runner
    renderer.draw(1.0)
    done = render.snapshot()
    assert pixel(done, *layout.centre((4, 2))) == runner
    assert pixel(done, *layout.centre((4, 0))) != runner


def test_keys_select_steer_and_step(window: Any, tmp_path: Path) -> None:
    played, dash = stage(tmp_path)
    view = DemoView(played)
    window.show_view(view)
    assert played.selected == 1
    view.on_key_press(arcade.key.TAB, 0)
    assert played.selected == 2
    view.on_key_press(arcade.key.LEFT, 0)
    view.on_key_press(arcade.key.LEFT, 0)
    view.on_key_press(arcade.key.LEFT, 0)  # a third hexside is more than an intent may ask
    assert "Intent.turn = 3" in view.renderer.message
    view.on_key_press(arcade.key.PLUS, 0)
    assert played.scene.driver.manual == {2: {"turn": 2, "throttle": 1}}
    view.on_key_press(arcade.key.SPACE, 0)
    assert played.world.turn == 1
    assert dash.turns_seen == [2]
    assert view.progress == 0.0
    view.on_update(0.45)
    assert 0.0 < view.progress < 1.0
    view.on_draw()
    view.on_update(5.0)
    assert view.progress == 1.0
    view.on_key_press(arcade.key.P, 0)
    assert view.playing
    for _ in range(3):
        view.on_update(0.45)
    assert played.world.turn == 2


def test_a_headless_run_prints_the_log_and_writes_a_png_per_turn_and_a_gif(window: Any, tmp_path: Path) -> None:
    played, _ = stage(tmp_path)
    printed: list[str] = []
    written = render.run_headless(played, 2, tmp_path / "out", print_line=printed.append, tween_frames=3)
    assert [p.name for p in written] == ["turn_00.png", "turn_01.png", "turn_02.png", "render.gif"]
    assert printed == played.log
    assert printed[:2] == [
        "Render test: A runner that dashes round a corner, a walker, mud and a wall.",
        "cast: 1 Runner, 2 Walker, 3 Kite",
    ]
    assert "turn 1" in printed and "turn 2" in printed
    with Image.open(written[-1]) as gif:
        assert gif.n_frames == 1 + 2 * 3
        assert gif.size == (render.WIDTH, render.HEIGHT)
    with Image.open(written[1]) as first_turn:
        layout = render.Renderer(played).layout
        assert pixel(first_turn.convert("RGB"), *layout.centre((4, 2))) == (0xF2, 0xC1, 0x4E)


def test_the_command_runs_headless_and_repeats_byte_for_byte_with_a_seed(tmp_path: Path) -> None:
    runs = []
    for folder in ("a", "b"):
        out = tmp_path / folder
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "esper_motion.demos",
                "sprint",
                "--headless",
                "--turns",
                "4",
                "--out",
                str(out),
                "--seed",
                "5",
            ],
            cwd=REPO,
            capture_output=True,
            check=True,
        )
        runs.append(done.stdout.replace(str(out).encode(), b"OUT"))
        assert sorted(p.name for p in out.iterdir()) == ["sprint.gif", *(f"turn_{n:02d}.png" for n in range(5))]
    assert runs[0] == runs[1]
    lines = runs[0].decode().splitlines()
    assert "turn 4" in lines
    assert any("rolls for tight turn" in line for line in lines)
    assert lines[-1] == "wrote 5 PNG frames and sprint.gif to OUT"


def test_arrow_keys_turn_an_absolute_heading_round_and_refuse_what_the_intent_forbids(window: Any) -> None:
    played = render.Stage(build_scene(read_scene("chase")))
    view = DemoView(played)
    window.show_view(view)
    assert played.scene.names[played.selected] == "Thief"  # fleeing with heading 0
    view.on_key_press(arcade.key.T, 0)  # her Flee goal set aside: the keys steer her
    view.on_key_press(arcade.key.RIGHT, 0)
    assert played.scene.driver.manual == {1: {"heading": 5}}  # one hexside right of 0 wraps round to 5
    view.on_key_press(arcade.key.LEFT, 0)
    view.on_key_press(arcade.key.LEFT, 0)
    assert played.scene.driver.manual == {1: {"heading": 1}}
    view.on_key_press(arcade.key.PLUS, 0)
    assert view.renderer.message == "this rule set has no such intent"
    view.on_key_press(arcade.key.TAB, 0)
    view.on_key_press(arcade.key.T, 0)
    view.on_key_press(arcade.key.LEFT, 0)  # the guard chases: the key ends it, a hexside left of the way to her
    assert view.renderer.message == "Guard next turn: chase ends, heading +1"
    assert played.scene.driver.manual[2] == {"chase": None, "heading": 1}
    view.on_key_press(arcade.key.SPACE, 0)
    assert played.world.turn == 1
    assert played.motions[1].hexes[-1] == played.world.get(1, Position).hex


def test_the_window_plays_turns_and_escape_closes_it() -> None:
    # arcade's headless loop calls on_update and on_draw until the window closes; run it in its own process
    code = (
        "import arcade\n"
        "from esper_motion.demos import render, window\n"
        "from esper_motion.demos.scene import build_scene\n"
        "from esper_motion.demos.scene_file import read_scene\n"
        "stage = render.Stage(build_scene(read_scene('sprint')))\n"
        "update = window.DemoView.on_update\n"
        "def on_update(self, dt):\n"
        "    if stage.world.turn == 0 and not self.playing:\n"
        "        self.on_key_press(arcade.key.P, 0)\n"
        "    update(self, dt)\n"
        "    if stage.world.turn == 2 and self.progress >= 1.0:\n"
        "        self.on_key_press(arcade.key.ESCAPE, 0)\n"
        "window.DemoView.on_update = on_update\n"
        "window.play(stage)\n"
        "print(stage.world.turn, stage.log[-1].strip())\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True, timeout=120
    )
    assert done.stdout.splitlines()[-1].startswith("2 ")


@pytest.mark.parametrize(
    ("t", "point", "kept"),
    [
        (0.0, (0.0, 0.0), [(0.0, 0.0), (0.0, 0.0)]),
        (0.25, (5.0, 0.0), [(0.0, 0.0), (5.0, 0.0)]),
        (0.75, (10.0, 5.0), [(0.0, 0.0), (10.0, 0.0), (10.0, 5.0)]),
        (1.0, (10.0, 10.0), [(0.0, 0.0), (10.0, 0.0), (10.0, 10.0)]),
    ],
    ids=["start", "a quarter: along the first leg", "three quarters: round the corner", "the end"],
)
def test_a_turns_animation_follows_the_path_round_its_corners(
    t: float, point: tuple[float, float], kept: list[tuple[float, float]]
) -> None:
    corner = [(0.0, 0.0), (10.0, 0.0), (10.0, 10.0)]
    x, y, _ = render.along(corner, t)
    assert (x, y) == pytest.approx(point)
    assert render.so_far(corner, t) == kept


def test_a_turn_the_rules_refuse_exits_1_naming_the_turn_and_the_intent(
    window: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "refused.toml"
    path.write_text(
        SCENE.replace('"gurps.Control" = {}\n', '"gurps.Control" = {}\n"gurps.Posture" = {}\n', 1)
        + '\n[script.2]\nRunner = { maneuver = "Change Posture" }\n',
        encoding="utf-8",
    )
    assert cli.main([str(path), "--turns", "3", "--out", str(tmp_path / "out")]) == 1
    captured = capsys.readouterr()
    assert captured.err.startswith("error: turn 2: entity 1: Intent.maneuver = 'Change Posture'")
    assert "turn 1" in captured.out.splitlines()

"""The examples in ``examples/`` (not part of the package): each runs headless against the installed package, and
each sprite it draws stands where the world says its entity is.

The two that draw print JSON: for each sprite its pixel position, its entity's hex and Health, and whether it has
finished gliding along its turn's path. A sprite that has arrived must be exactly on ``origin +
hexgrid.to_pixel(hex, hex_size)``. The first game prints what happened and what its save brought back; the pursuit
game its chase (the hounds' plans, the log, the catch). The scripts run in a folder of their own (or their own
folder) with a clean environment, so nothing is imported from the source folders by path. Each example also passes
``mypy --strict`` in a folder of its own, as a game's sources would.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from esper_motion.ecs import hexgrid

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
ENVIRONMENT = {name: value for name, value in os.environ.items() if name not in {"PYTHONPATH", "ARCADE_HEADLESS"}}
"""This environment without what would point the example elsewhere or make arcade headless for it (the arcade
example's own ``--headless`` must do that)."""

needs_arcade = pytest.mark.skipif(importlib.util.find_spec("arcade") is None, reason="needs the demos extra (arcade)")


def run(script: Path, *args: str, cwd: Path) -> dict[str, Any]:
    """Run an example with this interpreter; return the JSON it printed."""
    done = subprocess.run(
        [sys.executable, str(script), *args],
        cwd=cwd,
        env=ENVIRONMENT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, f"{script.name} exited {done.returncode}\n{done.stdout}\n{done.stderr}"
    report: dict[str, Any] = json.loads(done.stdout)
    return report


def where_the_world_says(report: dict[str, Any], sprite: dict[str, Any]) -> tuple[float, float]:
    """The pixel of the sprite's entity's hex, in the example's own layout."""
    x, y = hexgrid.to_pixel(tuple(sprite["hex"]), report["hex_size"])
    return (report["origin"][0] + x, report["origin"][1] + y)


def assert_on_their_hexes(report: dict[str, Any]) -> None:
    for sprite in report["sprites"]:
        assert sprite["arrived"], sprite
        assert (sprite["x"], sprite["y"]) == pytest.approx(where_the_world_says(report, sprite), abs=1e-6), sprite


def test_the_headless_example_draws_each_dot_on_its_hex(tmp_path: Path) -> None:
    report = run(EXAMPLES / "headless.py", cwd=tmp_path)
    assert report["turn"] == 8
    assert_on_their_hexes(report)
    runner, walker = report["sprites"]
    assert runner["hex"] == [11, 0]  # stopped by the obstacle at (12, 0)
    assert walker["hex"][0] > 10  # walked on
    assert runner["injury"] > 0
    for sprite in report["sprites"]:  # the game's Health, lowered by the esper handler of Collided
        assert sprite["hp"] == 10 - sprite["injury"]


@needs_arcade
def test_the_arcade_example_draws_each_sprite_on_its_hex_at_the_end_of_a_turn(tmp_path: Path) -> None:
    frames = 60 * 10 + 50  # ten turns, and most of a second for the sprites to glide along the tenth
    report = run(EXAMPLES / "arcade_hexes" / "main.py", "--headless", "--frames", str(frames), cwd=tmp_path)
    assert report["turn"] == 10
    assert_on_their_hexes(report)
    sprites = {sprite["name"]: sprite for sprite in report["sprites"]}
    assert set(sprites) == {"Runner", "Horse", "Rider"}
    assert sprites["Runner"]["hex"][0] > 10 and sprites["Horse"]["hex"][0] > 10  # the keys drove them on
    assert sprites["Horse"]["hex"][1] > 4  # ... and the horse swerved left
    assert hexgrid.distance(tuple(sprites["Rider"]["hex"]), tuple(sprites["Horse"]["hex"])) == 1  # still seated
    assert sprites["Runner"]["injury"] > 0  # it ran into the wall
    assert any("hits the wall" in line for line in report["log"])
    # S pressed five times at 4 yd/s: below high speed the throttle applies at once, and 4 - 5 is refused
    refused = [line for line in report["log"] if line.startswith("refused: Horse")]
    assert len(refused) == 1 and "Intent.throttle = -5" in refused[0]
    assert report["log"][-2:] == ["Horse moves 4 yd to (28, 8)", "Horse moves 4 yd to (32, 8)"]  # no orders played
    for sprite in sprites.values():  # the game's Health follows our damage events
        assert sprite["hp"] == sprite["max_hp"] - sprite["injury"]


@needs_arcade
def test_the_arcade_example_glides_between_hexes_mid_turn_and_saves_a_frame(tmp_path: Path) -> None:
    frames = 60 * 4 + 20  # a third of a second into the fourth turn's glide
    png = tmp_path / "frame.png"
    report = run(
        EXAMPLES / "arcade_hexes" / "main.py", "--headless", "--frames", str(frames), "--png", str(png), cwd=tmp_path
    )
    assert report["turn"] == 4
    for sprite in report["sprites"]:
        assert not sprite["arrived"]
        assert (sprite["x"], sprite["y"]) != pytest.approx(where_the_world_says(report, sprite))  # on the way there
        assert sprite["y"] == pytest.approx(where_the_world_says(report, sprite)[1])  # along their row, eastwards
        assert sprite["x"] < where_the_world_says(report, sprite)[0]
    header = png.read_bytes()[:24]
    assert header.startswith(b"\x89PNG\r\n\x1a\n")
    assert (int.from_bytes(header[16:20], "big"), int.from_bytes(header[20:24], "big")) == (1040, 640)


def test_the_first_game_steps_the_rules_beside_its_processors_and_saves(tmp_path: Path) -> None:
    report = run(EXAMPLES / "first_game" / "main.py", cwd=EXAMPLES / "first_game")
    assert report["turn"] == 8  # a turn a second for eight seconds of frames
    assert report["jogger_deleted"]  # the game's Finish processor deleted it, the esper way
    assert report["sprinter"]["hex"] == [7, 0]  # stopped by the wall at (8, 0)
    assert len(report["log"]) == 1 and "hits entity 3 obstacle" in report["log"][0]  # heard with world.on
    injury = int(report["log"][0].split("takes ")[1].split(" = ")[1].split(",")[0])
    assert report["sprinter"]["hp"] == 10 - injury
    assert report["loaded"] == {"turn": 8, "hex": [7, 0], "hp": report["sprinter"]["hp"], "sprite": False}


def test_the_pursuit_examples_hounds_follow_their_goals_and_run_the_player_down() -> None:
    report = run(EXAMPLES / "pursuit" / "main.py", cwd=EXAMPLES / "pursuit")
    for plan in report["plans"].values():  # each hound's plan before the first turn: where each turn ends, and odds
        assert plan and all(turn["odds"] == 1.0 for turn in plan)
    moved = [line for line in report["log"] if "the player moves" in line]
    assert moved[:2] == ["turn 1: the player moves 5 yd to (11, 0)", "turn 2: the player moves 5 yd to (16, 0)"]
    assert "turn 3: the player moves 5 yd to (16, 5)" in moved  # the game's Steer turned it a hexside left
    refused = [line for line in report["log"] if "refused" in line]
    assert refused == ["turn 4: right refused: Intent.turn = -3: expected a whole number from -2 to 2"]
    caught = report["caught"]  # by the hound the planner brings alongside first (turn 7, as the planner is now)
    assert caught is not None and caught["by"] in {"Hound", "Lurcher"} and caught["turn"] <= 10
    assert report["turn"] == caught["turn"]  # the game stopped there
    player = tuple(report["hexes"]["the player"])
    assert hexgrid.distance(tuple(report["hexes"][caught["by"]]), player) <= 1
    for name in ("Hound", "Lurcher"):  # the planner wrote their intents: they ran on every turn of the chase
        runs = [line for line in report["log"] if line.split(": ")[1].startswith(f"{name} moves")]
        assert len(runs) == caught["turn"]


@pytest.mark.parametrize("folder", ["first_game", "pursuit", "arcade_hexes"])
def test_an_example_game_type_checks_strictly_in_a_folder_of_its_own(folder: str, tmp_path: Path) -> None:
    if folder == "arcade_hexes" and importlib.util.find_spec("arcade") is None:
        pytest.skip("needs the demos extra (arcade)")
    game = tmp_path / folder  # as a game's own folder: no package above it
    game.mkdir()
    for source in (EXAMPLES / folder).glob("*.py"):
        (game / source.name).write_text(source.read_text(encoding="utf-8"), encoding="utf-8")
    checked = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "."],
        cwd=game,
        env=ENVIRONMENT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr

"""What the demo command says when it cannot open a window: no display (it plays headless and says where the
frames went), a display it cannot reach or no OpenGL (one line naming the problem and ``--headless``); the
window's key summary, with Esc, stays in view after a step; an unknown scene's message leads with the scene."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

arcade = pytest.importorskip("arcade")

from esper_motion import cli  # noqa: E402
from esper_motion.demos import cli as demo_command  # noqa: E402
from esper_motion.demos import render  # noqa: E402
from esper_motion.demos.scene import build_scene  # noqa: E402
from esper_motion.demos.scene_file import read_scene  # noqa: E402
from esper_motion.demos.window import DemoView  # noqa: E402


def test_no_display_says_it_plays_headless_and_where_the_frames_go(
    window: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(demo_command, "has_display", lambda: False)
    assert cli.main(["sprint", "--seed", "1"]) == 0
    err = capsys.readouterr().err.splitlines()
    assert err == [f"no display (DISPLAY is not set): playing headless, frames to {Path('out') / 'sprint'}"]
    assert (tmp_path / "out" / "sprint" / "turn_00.png").is_file()


@pytest.mark.parametrize(
    ("display", "said"),
    [
        (":99", "no window could open on display ':99' (NoSuchDisplayError: Cannot connect)"),
        (None, "no OpenGL to draw with"),
    ],
)
def test_a_window_that_cannot_open_is_one_line_naming_the_problem(
    monkeypatch: pytest.MonkeyPatch, display: str | None, said: str
) -> None:
    class NoSuchDisplayError(Exception):
        pass

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise NoSuchDisplayError("Cannot connect")

    monkeypatch.setattr(arcade, "Window", refuse)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    if display is None:
        monkeypatch.delenv("DISPLAY", raising=False)
    else:
        monkeypatch.setenv("DISPLAY", display)
    with pytest.raises(render.NoWindowError) as raised:
        render.open_window("test", visible=display is not None)
    assert str(raised.value).startswith(said)


def test_the_command_names_headless_when_no_window_opens(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def refuse(stage: Any) -> None:
        raise render.NoWindowError("no window could open on display ':99' (NoSuchDisplayException: ...)")

    monkeypatch.setattr(demo_command, "has_display", lambda: True)
    monkeypatch.setattr("esper_motion.demos.window.play", refuse)
    assert cli.main(["sprint"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith("error: no window could open on display ':99'")
    assert err.rstrip().endswith("play without a window with --headless")


def test_the_key_summary_lists_esc_and_stays_after_a_step(window: Any) -> None:
    view = DemoView(render.Stage(build_scene(read_scene("sprint"), None)))
    window.show_view(view)
    assert "Esc quit" in view.renderer.hint
    view.on_key_press(arcade.key.SPACE, 0)
    assert view.renderer.message == ""
    assert view.renderer.hint == view.renderer.keys_help()
    assert "Esc" in cli.demo_parser().format_help()


def test_an_unknown_scene_leads_with_the_scene_not_a_path(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["no_such_scene", "--headless"]) == 2
    assert capsys.readouterr().err.startswith("error: unknown scene 'no_such_scene' (nor a .toml file); known")

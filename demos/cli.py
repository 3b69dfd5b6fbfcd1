"""The ``esper-motion`` command line.

``esper-motion`` plays the default scene; ``esper-motion NAME`` plays scene NAME (or a path to a scene
file); ``--list`` lists the scenes; ``esper-motion study NAME --runs N`` runs an outcome study
(:mod:`esper_motion.studies.cli`). Without a display (or with ``--headless``) it plays without a window:
it prints the turn log and writes one PNG per turn and an animated GIF to ``--out``. ``--turns`` and ``--out``
imply ``--headless``. ``--seed`` replaces the scene's seed, so a run repeats exactly.

Exit status: 0 on success, 2 for a bad scene or bad arguments, 1 when a turn cannot be resolved.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from esper_motion.demos.scene import DEFAULT_SCENE, SceneError, build_scene, read_scene, scene_names
from esper_motion.ecs import MotionError


def has_display() -> bool:
    """Whether a window can open: on Linux and the BSDs that needs an X11 or Wayland display."""
    if sys.platform.startswith(("linux", "freebsd", "openbsd", "netbsd")):
        return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    return True


def positive_whole(value: str) -> int:
    """An argument that must be a whole number, 1 or more (turns, runs, workers)."""
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a whole number") from None
    if number < 1:
        raise argparse.ArgumentTypeError(f"{number} is not a whole number, 1 or more")
    return number


def parser() -> argparse.ArgumentParser:
    """The command's argument parser."""
    made = argparse.ArgumentParser(
        prog="esper-motion",
        description="Play an esper-motion demo scene in a window, or headless to PNG frames and a GIF.",
        epilog="Keys in the window: Space step a turn, P play/pause, Tab select, Left/Right steer, +/- throttle. "
        "Outcome studies: esper-motion study SCENE --runs N (esper-motion study --help).",
    )
    made.add_argument("scene", nargs="?", default=DEFAULT_SCENE, help="scene name (see --list) or a .toml file")
    made.add_argument("--list", action="store_true", help="list the scenes and exit")
    made.add_argument("--headless", action="store_true", help="run without a window: print the log, write images")
    made.add_argument("--turns", type=positive_whole, help="turns to run headless (default: the scene's own)")
    made.add_argument("--out", type=Path, help="folder for the PNG frames and the GIF (default: out/SCENE)")
    made.add_argument("--seed", type=int, help="dice seed in place of the scene's")
    return made


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; return its exit status. ``esper-motion study ...`` runs an outcome study
    (:mod:`esper_motion.studies.cli`)."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    if arguments[:1] == ["study"]:
        from esper_motion.studies.cli import main as study_main  # noqa: PLC0415

        return study_main(arguments[1:])
    args = parser().parse_args(arguments)
    if args.list:
        for name in scene_names():
            print(f"{name:<16} {read_scene(name).description}")
        return 0
    try:
        scene = build_scene(read_scene(args.scene), args.seed)
    except SceneError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    headless = args.headless or args.turns is not None or args.out is not None or not has_display()
    if headless:
        os.environ["ARCADE_HEADLESS"] = "1"  # must be set before arcade is imported
    try:
        from esper_motion.demos import render  # noqa: PLC0415 (arcade loads only when drawing)
    except ImportError as error:
        print(f"error: drawing needs arcade ({error}); pip install 'esper-motion[demos]'", file=sys.stderr)
        return 2
    stage = render.Stage(scene)
    try:
        if not headless:
            from esper_motion.demos.window import play  # noqa: PLC0415

            play(stage)
            return 0
        render.current_window()
        out = args.out if args.out is not None else Path("out") / scene.spec.name
        written = render.run_headless(stage, args.turns or scene.spec.turns, out)
    except MotionError as error:
        print(f"error: turn {scene.world.turn + 1}: {error}", file=sys.stderr)
        return 1
    print(f"wrote {len(written) - 1} PNG frames and {written[-1].name} to {out}")
    return 0

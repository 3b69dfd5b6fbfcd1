"""The demo command, ``esper-motion [SCENE]`` (its arguments are read by :mod:`esper_motion.cli`): play a scene in a
window, or headless to PNG frames and a GIF; or list the scenes.

Exit status: 0 on success, 2 for a bad scene, bad arguments or no window to open, 1 when a turn cannot be resolved.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from esper_motion.demos.scene import build_scene
from esper_motion.demos.scene_file import SceneError, read_scene, scene_names
from esper_motion.ecs import MotionError
from esper_motion.ecs.errors import needs_extra


def has_display() -> bool:
    """Whether a window can open: on Linux and the BSDs that needs an X11 or Wayland display."""
    if sys.platform.startswith(("linux", "freebsd", "openbsd", "netbsd")):
        return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    return True


def run(args: argparse.Namespace) -> int:
    """Run the demo command with its parsed arguments (:func:`esper_motion.cli.demo_parser`); return its exit
    status."""
    if args.list:
        for name in scene_names():
            print(f"{name:<16} {read_scene(name).description}")
        return 0
    try:
        scene = build_scene(read_scene(args.scene), args.seed)
    except SceneError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    asked = args.headless or args.turns is not None or args.out is not None
    headless = asked or not has_display()
    out = args.out if args.out is not None else Path("out") / scene.spec.name
    if not asked and headless:
        print(f"no display (DISPLAY is not set): playing headless, frames to {out}", file=sys.stderr)
    if headless:
        os.environ["ARCADE_HEADLESS"] = "1"  # must be set before arcade is imported
    try:
        from esper_motion.demos import render  # noqa: PLC0415 (arcade loads only when drawing)
    except ImportError as error:
        print(f"error: {needs_extra(f'drawing needs arcade ({error})', 'demos')}", file=sys.stderr)
        return 2
    stage = render.Stage(scene)
    try:
        if not headless:
            from esper_motion.demos.window import play  # noqa: PLC0415

            play(stage)
            return 0
        render.current_window()
        written = render.run_headless(stage, args.turns or scene.spec.turns, out)
    except render.NoWindowError as error:
        print(f"error: {error}; play without a window with --headless", file=sys.stderr)
        return 2
    except MotionError as error:
        print(f"error: turn {scene.world.turn + 1}: {error}", file=sys.stderr)
        return 1
    print(f"wrote {len(written) - 1} PNG frames and {written[-1].name} to {out}")
    return 0

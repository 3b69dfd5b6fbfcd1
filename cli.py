"""The ``esper-motion`` command line, and the argument types its commands share.

``esper-motion`` plays the default scene; ``esper-motion NAME`` plays scene NAME (or a path to a scene
file); ``--list`` lists the scenes (:mod:`esper_motion.demos.cli`). ``esper-motion study NAME --runs N`` runs an
outcome study (:mod:`esper_motion.studies.cli`). Without a display (or with ``--headless``) a scene plays without a
window: it prints the turn log and writes one PNG per turn and an animated GIF to ``--out``. ``--turns`` and
``--out`` imply ``--headless``. ``--seed`` replaces the scene's seed, so a run repeats exactly.

Exit status: 0 on success, 2 for a bad scene, bad arguments or no window to open, 1 when a turn cannot be
resolved, 141 when the reader of its output stops reading early (``| head``); a study's are in
:mod:`esper_motion.studies.cli`.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Final

from esper_motion.demos import cli as demo_command
from esper_motion.demos.scene_file import DEFAULT_SCENE
from esper_motion.studies import cli as study_command
from esper_motion.studies.backends import BACKENDS
from esper_motion.studies.study import RULE_PRESETS


def positive_whole(value: str) -> int:
    """An argument that must be a whole number, 1 or more (turns, runs, workers)."""
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a whole number") from None
    if number < 1:
        raise argparse.ArgumentTypeError(f"{number} is not a whole number, 1 or more")
    return number


def demo_parser() -> argparse.ArgumentParser:
    """The demo command's argument parser (``esper-motion [SCENE]``)."""
    made = argparse.ArgumentParser(
        prog="esper-motion",
        description="Play an esper-motion demo scene in a window, or headless to PNG frames and a GIF.",
        epilog="Keys in the window: Space step a turn, P play/pause, Tab select, T take over the selected entity "
        "(its goal set aside) or hand it back, Left/Right steer, +/- throttle, Esc quit. "
        "The selected entity's plan toward its goal is drawn with each turn's odds. "
        "Outcome studies: esper-motion study SCENE --runs N (esper-motion study --help).",
    )
    made.add_argument("scene", nargs="?", default=DEFAULT_SCENE, help="scene name (see --list) or a .toml file")
    made.add_argument("--list", action="store_true", help="list the scenes and exit")
    made.add_argument("--headless", action="store_true", help="run without a window: print the log, write images")
    made.add_argument("--turns", type=positive_whole, help="turns to run headless (default: the scene's own)")
    made.add_argument("--out", type=Path, help="folder for the PNG frames and the GIF (default: out/SCENE)")
    made.add_argument("--seed", type=int, help="dice seed in place of the scene's")
    return made


def study_parser() -> argparse.ArgumentParser:
    """The study command's argument parser (``esper-motion study``)."""
    made = argparse.ArgumentParser(
        prog="esper-motion study",
        description="Play a scene many times with seeded dice and report the chance of each outcome.",
    )
    made.add_argument("scene", help="scene name (esper-motion --list) or a .toml file")
    made.add_argument("--runs", type=positive_whole, required=True, help="how many runs")
    made.add_argument("--turns", type=positive_whole, help="turns per run (default: the scene's own)")
    made.add_argument("--workers", type=positive_whole, help="worker processes (default: every core)")
    made.add_argument("--seed", type=int, help="base seed: run i rolls with seed S+i (default: the scene's)")
    made.add_argument(
        "--set",
        dest="overrides",
        action="append",
        default=[],
        metavar="ENTITY.COMPONENT.FIELD=VALUE",
        help="change a field of the scene before the runs (TOML value), e.g. Knight.gurps.Mover.dx=13",
    )
    made.add_argument("--rules", choices=RULE_PRESETS, help="the rule preset (default: the scene's own)")
    made.add_argument("--backend", choices=BACKENDS, default="local", help="where the runs play (default: local)")
    made.add_argument("--address", help="the Ray cluster to join (ray backend; default: a local Ray)")
    made.add_argument(
        "--histogram",
        action="append",
        default=[],
        metavar="'ENTITY COMPONENT.FIELD'",
        help="also plot this numeric field's histogram, e.g. 'Footman Position.q'",
    )
    made.add_argument("--out", type=Path, help="folder for study.json and the PNG plots (default: out/SCENE-study)")
    made.add_argument("--no-progress", action="store_true", help="no progress bar")
    return made


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; return its exit status. ``esper-motion study ...`` runs an outcome study, anything else
    plays a scene."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    try:
        if arguments[:1] == ["study"]:
            return study_command.run(study_parser().parse_args(arguments[1:]), ["esper-motion", *arguments])
        return demo_command.run(demo_parser().parse_args(arguments))
    except BrokenPipeError:  # the reader of the output stopped reading (``| head``): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # so that the exit's flush does not fail
        return PIPE_CLOSED


PIPE_CLOSED: Final = 141
"""The exit status when whoever reads the output stops reading early, as a shell reports a command its closed pipe
ended (128 + SIGPIPE)."""

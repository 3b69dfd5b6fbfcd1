"""Outcome studies of the bundled scenes, each as ``esper-motion study NAME --runs N``, and a table of the measure
the scenes are held to: a study of every bundled scene stops no more than 1% of its runs (``RunStopped``) and keeps
every body on the map (no ``LeftMap``).

Run by hand (never a timed test)::

    python tests/benchmarks/scene_studies.py --runs 2000              # every bundled scene
    python tests/benchmarks/scene_studies.py --runs 200 --workers 2 joust pursuit

Printed, a row a scene: the runs, the share of runs that stopped (``RunStopped``), how many runs left a body off the
map (``LeftMap``), and the CPU seconds the study took (its process and its workers: ``resource.RUSAGE_CHILDREN``)
beside its wall time, with the load average before it (the machine's other load moves the wall time). Each
study's ``study.json`` is kept under ``--out``. Exit status 1 when a scene misses the measure, 2 when a study
fails.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from esper_motion.demos.scene_file import scene_names
from esper_motion.studies.report import StudyReport
from esper_motion.studies.scene import LEFT_MAP, RUN_STOPPED

MOST_STOPPED: Final = 0.01
"""The largest share of a study's runs that may stop (``RunStopped``)."""


@dataclass(frozen=True, slots=True)
class Row:
    """One scene's study, as the table shows it."""

    scene: str
    runs: int
    stopped: float
    left_map: int
    cpu_s: float
    wall_s: float
    load: float

    @property
    def passes(self) -> bool:
        """Whether the study meets the measure: at most :data:`MOST_STOPPED` of its runs stopped, none left the
        map."""
        return self.stopped <= MOST_STOPPED and self.left_map == 0


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _command() -> str:
    """The ``esper-motion`` command of this Python (its environment's), else the one on the path."""
    beside = Path(sys.executable).with_name("esper-motion")
    found = str(beside) if beside.exists() else shutil.which("esper-motion")
    if found is None:
        raise SystemExit("esper-motion: no such command here: install the package (pip install -e .)")
    return found


def one(scene: str, runs: int, workers: int | None, out: Path) -> Row:
    """Study ``scene`` with ``runs`` runs through the command line; its row. A ``CalledProcessError`` when the
    study fails."""
    folder = out / scene
    command = [_command(), "study", scene, "--runs", str(runs), "--no-progress"]
    command += ["--out", str(folder)] + ([] if workers is None else ["--workers", str(workers)])
    load = os.getloadavg()[0]
    cpu, wall = _children_cpu(), time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    cpu, wall = _children_cpu() - cpu, time.perf_counter() - wall
    report = StudyReport.load(folder / "study.json")
    left = report.figures["events"].get(LEFT_MAP)
    left_map = 0 if left is None else int(left["runs"])
    return Row(scene, report.runs, report.chance(RUN_STOPPED), left_map, cpu, wall, load)


HEADER: Final = (
    f"{'scene':<16} {'runs':>6} {'RunStopped %':>12} {'LeftMap':>7} {'CPU s':>8} {'wall s':>8} {'load':>5}  measure"
)
"""The table's head: scene, runs, RunStopped %, LeftMap runs, CPU and wall seconds, load average before."""


def line(row: Row) -> str:
    """``row`` as a line of the table under :data:`HEADER`."""
    return (
        f"{row.scene:<16} {row.runs:>6} {100 * row.stopped:>12.2f} {row.left_map:>7} {row.cpu_s:>8.1f} "
        f"{row.wall_s:>8.1f} {row.load:>5.1f}  {'met' if row.passes else 'MISSED'}"
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Study each scene named (every bundled scene without one) and print the table; the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("scenes", nargs="*", metavar="SCENE", help="bundled scene names (default: every one)")
    parser.add_argument("--runs", type=int, default=2000, help="runs per scene (default: 2000)")
    parser.add_argument("--workers", type=int, default=None, help="worker processes (default: the study's own)")
    parser.add_argument("--out", type=Path, default=None, help="folder for each study.json (default: a new temp)")
    args = parser.parse_args(argv)
    known = scene_names()
    unknown = [name for name in args.scenes if name not in known]
    if unknown:
        parser.error(f"unknown scene {', '.join(unknown)}: expected one of {', '.join(known)}")
    out = args.out if args.out is not None else Path(tempfile.mkdtemp(prefix="scene-studies-"))
    print(HEADER, flush=True)
    missed = []
    for scene in args.scenes or known:
        try:
            row = one(scene, args.runs, args.workers, out)
        except subprocess.CalledProcessError as error:
            print(f"{scene}: the study failed (exit status {error.returncode})")
            return 2
        print(line(row), flush=True)  # each row as its study ends
        if not row.passes:
            missed.append(scene)
    print(f"study.json files: {out}; measure missed by: {', '.join(missed) or 'none'}")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())

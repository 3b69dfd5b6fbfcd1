"""``esper-motion study``: an outcome study of a scene from the command line.

It prints the report's table, writes ``study.json`` (every figure, the command and the versions) to ``--out``
with ``outcomes.png`` and a histogram per ``--histogram`` field (with the ``studies`` extra), and shows a progress
bar on a terminal. Ctrl-C stops it, keeping and reporting the runs that finished.

Exit status: 0 on success, 2 for bad input, 1 when a run cannot be resolved or a worker dies, 130 when stopped by
Ctrl-C (after reporting the runs that finished).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from esper_motion.demos.cli import positive_whole
from esper_motion.studies.backends import BACKENDS
from esper_motion.studies.progress import ProgressBar
from esper_motion.studies.report import StudyReport
from esper_motion.studies.scene import StudyError, StudyRunError
from esper_motion.studies.study import RULE_PRESETS, study


def parser() -> argparse.ArgumentParser:
    """The study command's argument parser."""
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
    """Run the study command; return its exit status."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    args = parser().parse_args(arguments)
    bar = None
    if not args.no_progress and sys.stderr.isatty():
        bar = ProgressBar(args.runs, sys.stderr)
    try:
        report = study(
            args.scene,
            args.runs,
            seed=args.seed,
            turns=args.turns,
            overrides=args.overrides,
            rules=args.rules,
            backend=args.backend,
            workers=args.workers,
            address=args.address,
            progress=bar,
            command=["esper-motion", "study", *arguments],
        )
    except StudyError as error:
        if bar is not None:
            bar.close()
        print(f"error: {error}", file=sys.stderr)
        return 1 if isinstance(error, StudyRunError) else 2
    except KeyboardInterrupt:  # a second Ctrl-C, while the batches already running were finishing
        print("stopped; no report", file=sys.stderr)
        return 130
    if bar is not None:
        bar.close()
    print(report.table())
    out = args.out if args.out is not None else Path("out") / f"{report.scene}-study"
    written = [report.save(out / "study.json")]
    try:
        written += _plots(report, args.histogram, out)
    except StudyError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(f"wrote {', '.join(str(p) for p in written)}")
    return 130 if report.interrupted else 0


def _plots(report: StudyReport, histograms: Sequence[str], out: Path) -> list[Path]:
    try:
        from esper_motion.studies import plots  # noqa: PLC0415 (matplotlib loads only when plotting)

        made = [plots.plot_outcomes(report, out / "outcomes.png")]
    except StudyError as error:
        print(f"note: {error}; no plots written", file=sys.stderr)
        return []
    for index, label in enumerate(histograms, start=1):
        made.append(plots.plot_histogram(report, label, out / f"histogram-{index}.png"))
    return made

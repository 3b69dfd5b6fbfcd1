"""``esper-motion study``: an outcome study of a scene from the command line (its arguments are read by
:mod:`esper_motion.cli`).

It prints the report's table, writes ``study.json`` (every figure, the command and the versions) to ``--out``
with ``outcomes.png`` and a histogram per ``--histogram`` field (with the ``studies`` extra), and shows a progress
bar on a terminal. Ctrl-C (or SIGTERM) stops it, keeping and reporting the runs that finished.

Exit status: 0 on success, 2 for bad input, 1 when a run cannot be resolved or a worker dies, 130 when stopped by
Ctrl-C or SIGTERM (after reporting the runs that finished).
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
from collections.abc import Sequence
from pathlib import Path

from esper_motion.studies.progress import ProgressBar
from esper_motion.studies.report import StudyReport
from esper_motion.studies.scene import StudyError, StudyRunError
from esper_motion.studies.study import study


def run(args: argparse.Namespace, command: Sequence[str]) -> int:
    """Run the study command with its parsed arguments (:func:`esper_motion.cli.study_parser`), as ``command``
    (the words typed, which the report keeps); return its exit status."""
    out = args.out if args.out is not None else Path("out") / f"{Path(args.scene).stem}-study"
    unwritable = _unwritable(out)
    if unwritable is not None:
        print(f"error: --out {out}: {unwritable}", file=sys.stderr)
        return 2
    bar = None
    if not args.no_progress and sys.stderr.isatty():
        bar = ProgressBar(args.runs, sys.stderr)
    stopping = signal.signal(signal.SIGTERM, _interrupt)  # SIGTERM stops the study as Ctrl-C does
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
            command=list(command),
            histograms=args.histogram,
        )
    except StudyError as error:
        if bar is not None:
            bar.close()
        print(f"error: {error}", file=sys.stderr)
        return 1 if isinstance(error, StudyRunError) else 2
    except KeyboardInterrupt:  # a second Ctrl-C, while the batches already running were finishing
        print("stopped; no report", file=sys.stderr)
        return 130
    finally:
        signal.signal(signal.SIGTERM, stopping)
    if bar is not None:
        bar.close()
    print(report.table())
    written = [report.save(out / "study.json")]
    try:
        written += _plots(report, args.histogram, out)
    except StudyError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(f"wrote {', '.join(str(p) for p in written)}")
    return 130 if report.interrupted else 0


def _interrupt(signum: int, frame: object) -> None:
    """SIGTERM, taken as Ctrl-C."""
    raise KeyboardInterrupt


def _unwritable(out: Path) -> str | None:
    """Why the report cannot be written to folder ``out``, or None: found before any run, and nothing made."""
    if out.exists() and not out.is_dir():
        return "is a file, not a folder"
    found = out
    while not found.exists():  # the folder that holds what is to be made
        found = found.parent
    if not found.is_dir():
        return f"cannot be made or written ({found} is a file)"
    if not os.access(found, os.W_OK | os.X_OK):
        return f"cannot be made or written (no permission to write in {found})"
    return None


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

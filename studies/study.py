"""Outcome studies: many seeded runs of one scene, and the chance of each outcome.

:func:`study` plays a scene ``runs`` times, run ``i`` with dice seed ``seed + i``, and reports what happened
(:class:`~esper_motion.studies.report.StudyReport`). The same base seed gives the same figures whatever the backend
and the number of workers.
"""

from __future__ import annotations

import importlib.metadata
import os
import platform
import sys
import time
from collections.abc import Iterable, Sequence
from typing import Final

from esper_motion.demos.scene_file import MAX_TURNS
from esper_motion.studies.backends import BACKENDS, Progress, batches, run_in_process, run_local, run_ray
from esper_motion.studies.report import StudyReport, figures
from esper_motion.studies.scene import Override, StudyError, prepare, scene_text

MAX_RUNS: Final = 1_000_000
"""The most runs a study may play (each run's record is kept until the report is made)."""

RULE_PRESETS = ("basic", "house")
"""The rule presets a study may choose (``--rules``): GURPS ``Rules.basic()`` and ``Rules.house()``."""


def study(
    scene: str,
    runs: int,
    *,
    seed: int | None = None,
    turns: int | None = None,
    overrides: Iterable[str | Override] = (),
    rules: str | None = None,
    backend: str = "local",
    workers: int | None = None,
    address: str | None = None,
    progress: Progress | None = None,
    command: Sequence[str] = (),
    histograms: Sequence[str] = (),
) -> StudyReport:
    """Play ``scene`` (a bundled scene's name or a ``.toml`` path) ``runs`` times and report the outcomes.

    Run ``i`` rolls with seed ``seed + i`` (``seed`` defaults to the scene's own) for ``turns`` turns (the
    scene's own by default; at most :data:`~esper_motion.demos.scene_file.MAX_TURNS`); ``runs`` is at most
    :data:`MAX_RUNS`. ``overrides`` are ``ENTITY.COMPONENT.FIELD=VALUE`` changes
    (:class:`~esper_motion.studies.scene.Override`); ``rules`` picks a preset of the scene's rule options
    (``basic`` or ``house``). ``backend`` is ``local`` (a pool of ``workers`` processes, all the machine's cores
    by default, never more than the runs; one worker plays in this process) or ``ray`` (``address`` as for
    ``ray.init``; a local Ray with ``workers`` CPUs when None, while a cluster at an address brings its own).
    ``progress`` is told the runs finished after each batch; ``command`` is what the report records as the
    command that made it (by default the call itself); ``histograms`` are fields the caller will plot
    (``ENTITY COMPONENT.FIELD``), each of which must be one the runs record. Ctrl-C stops early and keeps the
    runs that finished (the report says so). Bad input raises :class:`~esper_motion.studies.scene.StudyError`
    before any run. The local pool starts fresh interpreters (``spawn``), so a script that calls this with more
    than one worker does so under ``if __name__ == "__main__":``.

    >>> report = study("cavalry_charge", 20, seed=1, turns=2, workers=1)
    >>> report.runs, report.figures["events"]["PanicChecked"]["chance"]
    (20, 1.0)
    """
    if type(runs) is not int or not 1 <= runs <= MAX_RUNS:
        raise StudyError(f"study: runs = {runs!r}: expected a whole number from 1 to {MAX_RUNS:,}")
    if backend not in BACKENDS:
        raise StudyError(f"study: backend = {backend!r}: expected one of {', '.join(BACKENDS)}")
    if address is not None and backend != "ray":
        raise StudyError(f"study: address = {address!r} is for the ray backend, not {backend!r}")
    if address is not None and workers is not None:
        raise StudyError(f"study: workers = {workers!r}: a Ray cluster at an address brings its own CPUs; give either")
    if rules is not None and rules not in RULE_PRESETS:
        raise StudyError(f"study: rules = {rules!r}: expected one of {', '.join(RULE_PRESETS)}")
    chosen_workers = (os.cpu_count() or 1) if workers is None else workers
    if type(chosen_workers) is not int or chosen_workers < 1:
        raise StudyError(f"study: workers = {workers!r}: expected a whole number, 1 or more")
    if turns is not None and (type(turns) is not int or not 1 <= turns <= MAX_TURNS):
        raise StudyError(f"study: turns = {turns!r}: expected a whole number from 1 to {MAX_TURNS}")
    chosen_workers = min(chosen_workers, runs)  # a worker more would have no batch to play
    changes = tuple(o if isinstance(o, Override) else Override.parse(o) for o in overrides)
    path, text = scene_text(scene)
    prepared = prepare(str(path), text, rules, changes)
    recorded = [f"{name} {component}.{field}" for name, component, field in prepared.recorded()]
    for label in histograms:
        if label not in recorded:
            raise StudyError(f"histogram: {label!r} is not a recorded field; fields: {', '.join(recorded)}")
    first_seed = prepared.spec.seed if seed is None else seed
    played_turns = prepared.spec.turns if turns is None else turns
    work = batches(
        str(path),
        text,
        rules=rules,
        overrides=changes,
        turns=played_turns,
        first_seed=first_seed,
        runs=runs,
        workers=chosen_workers,
    )
    tell = progress or (lambda done: None)
    started = time.monotonic()
    if backend == "ray":
        records, interrupted, offered = run_ray(work, chosen_workers, address, tell)
        chosen_workers = offered if address is not None else chosen_workers
    elif chosen_workers == 1:
        records, interrupted = run_in_process(work, tell)
    else:
        records, interrupted = run_local(work, chosen_workers, tell)
    seconds = time.monotonic() - started
    if not records:
        raise StudyError(f"{path}: the study stopped before any run finished; no figures to report")
    keywords: dict[str, object] = {"seed": first_seed, "turns": played_turns, "overrides": [str(o) for o in changes]}
    keywords |= {"rules": rules, "backend": backend, "address": address}
    made_by = list(command) or [_call(scene, runs, keywords)]
    return StudyReport(
        scene=prepared.spec.name,
        path=str(path),
        rules=rules,
        overrides=[str(o) for o in changes],
        turns=played_turns,
        first_seed=first_seed,
        runs_asked=runs,
        seeds=sorted(r.seed for r in records),
        outcomes=list(prepared.outcomes),
        figures=figures(records, prepared.outcomes),
        backend=backend,
        workers=chosen_workers,
        seconds=seconds,
        interrupted=interrupted,
        command=made_by,
        versions=versions(backend),
    )


def _call(scene: str, runs: int, options: dict[str, object]) -> str:
    """The Python call that repeats a study made from Python (the report's ``command`` when it has none): the
    ``options`` that are set, as keywords."""
    chosen = "".join(f", {key}={value!r}" for key, value in options.items() if value not in (None, []))
    return f"esper_motion.studies.study({scene!r}, {runs}{chosen})"


def versions(backend: str) -> dict[str, str]:
    """The versions a study ran with: esper-motion, esper, Python, the platform (and Ray on its backend)."""
    found = {
        "esper-motion": importlib.metadata.version("esper-motion"),
        "esper": importlib.metadata.version("esper"),
        "python": sys.version.split()[0],
        "platform": platform.platform(),
    }
    if backend == "ray":
        found["ray"] = importlib.metadata.version("ray")
    return found

"""A study's figures from its runs, and the report: a table for the terminal and a JSON file.

The figures depend on the runs' records alone, taken in seed order, so the same seeds give the same figures
whatever the backend and the number of workers. A chance comes with its 95% Wilson score interval; a numeric
field with its mean, standard deviation, least and greatest value and how often each value came up.

>>> low, high = wilson(50, 100)
>>> round(low, 4), round(high, 4)
(0.4038, 0.5962)
>>> wilson(0, 10)[0]
0.0
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Final

from esper_motion.studies.runs import RunRecord
from esper_motion.studies.scene import StudyError

FORMAT: Final = "esper-motion study 1"
"""The ``format`` key of a study's JSON file."""

Z_95: Final = 1.959963984540054
"""The standard normal quantile of a two-sided 95% interval."""


def wilson(successes: int, runs: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a chance seen ``successes`` times in ``runs`` runs."""
    if runs <= 0:
        raise StudyError(f"wilson: runs = {runs}: expected a whole number, 1 or more")
    p = successes / runs
    z2 = Z_95 * Z_95
    centre = (p + z2 / (2 * runs)) / (1 + z2 / runs)
    half = Z_95 * math.sqrt(p * (1 - p) / runs + z2 / (4 * runs * runs)) / (1 + z2 / runs)
    # With none (or every run) seen, the low (high) end is exactly 0 (1); the formula leaves a rounding error.
    low = 0.0 if successes == 0 else centre - half
    high = 1.0 if successes == runs else centre + half
    return low, high


def _chance(successes: int, runs: int) -> dict[str, Any]:
    low, high = wilson(successes, runs)
    return {"runs": successes, "chance": successes / runs, "low": low, "high": high}


def figures(records: Sequence[RunRecord], outcomes: Sequence[str]) -> dict[str, Any]:
    """Every figure of a study from its run ``records`` (any order): event types (``outcomes`` first, then the
    others by name) and recorded fields. Keys are text and containers lists, so the figures survive JSON."""
    ordered = sorted(records, key=lambda r: r.seed)
    runs = len(ordered)
    if runs == 0:
        raise StudyError("a study needs at least one finished run to report figures")
    seen = sorted({kind for r in ordered for kind in r.counts} - set(outcomes))
    events: dict[str, Any] = {}
    for kind in [*outcomes, *seen]:
        happened = [r for r in ordered if kind in r.counts]
        entities = sorted({who for r in happened for who in r.counts[kind]})
        first: dict[str, int] = {}
        for r in happened:
            turn = str(r.first_turn[kind])
            first[turn] = first.get(turn, 0) + 1
        events[kind] = {
            **_chance(len(happened), runs),
            "outcome": kind in outcomes,
            "mean_count": sum(sum(r.counts[kind].values()) for r in happened) / runs,
            "first_turn": dict(sorted(first.items(), key=lambda item: int(item[0]))),
            "mean_first_turn": (sum(r.first_turn[kind] for r in happened) / len(happened)) if happened else None,
            "by_entity": {
                who: {
                    **_chance(sum(1 for r in happened if who in r.counts[kind]), runs),
                    "mean_count": sum(r.counts[kind].get(who, 0) for r in happened) / runs,
                }
                for who in entities
            },
        }
    labels = list(dict.fromkeys(label for r in ordered for label in r.fields))
    return {"runs": runs, "events": events, "fields": {label: _field(ordered, label) for label in labels}}


def _field(records: Sequence[RunRecord], label: str) -> dict[str, Any]:
    """The figures of one recorded field over ``records``: numeric (mean, spread, counts of each value) or by
    value (the chance of each)."""
    values = [r.fields.get(label) for r in records]
    present = [v for v in values if v is not None]
    numeric = bool(present) and all(isinstance(v, int | float) and not isinstance(v, bool) for v in present)
    if not numeric:
        names = [("absent" if v is None else str(v)) for v in values]
        order = sorted(set(names))
        return {"kind": "category", "values": {name: _chance(names.count(name), len(records)) for name in order}}
    n = len(present)
    mean = math.fsum(present) / n
    spread = math.sqrt(math.fsum((v - mean) ** 2 for v in present) / (n - 1)) if n > 1 else 0.0
    counts: dict[float, int] = {}
    for v in present:
        counts[v] = counts.get(v, 0) + 1
    return {
        "kind": "number",
        "runs": n,
        "absent": len(values) - n,
        "mean": mean,
        "sd": spread,
        "min": min(present),
        "max": max(present),
        "counts": [[value, count] for value, count in sorted(counts.items())],
    }


@dataclass(slots=True)
class StudyReport:
    """A study: what was asked (scene, rules, overrides, turns, seeds, runs), how it ran (backend, workers, wall
    time, the command and versions), whether it was stopped early, and its :func:`figures` over the runs that
    finished (``figures["runs"]`` of them, seeds ``first_seed`` onward: see ``seeds``)."""

    scene: str
    path: str
    rules: str | None
    overrides: list[str]
    turns: int
    first_seed: int
    runs_asked: int
    seeds: list[int]
    outcomes: list[str]
    figures: dict[str, Any]
    backend: str
    workers: int
    seconds: float
    interrupted: bool
    command: list[str] = field(default_factory=list)
    versions: dict[str, str] = field(default_factory=dict)

    @property
    def runs(self) -> int:
        """How many runs the figures come from."""
        return int(self.figures["runs"])

    def chance(self, outcome: str) -> float:
        """The share of runs in which event type ``outcome`` happened (0 for one that never did)."""
        found = self.figures["events"].get(outcome)
        return 0.0 if found is None else float(found["chance"])

    def to_json(self) -> str:
        """The report as JSON text (every figure, the command and the versions)."""
        return json.dumps({"format": FORMAT, **asdict(self)}, indent=2)

    @classmethod
    def from_json(cls, text: str) -> StudyReport:
        """A report from :meth:`to_json`'s text; a clear error for anything else."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise StudyError(f"not a study report: not valid JSON: {error}") from None
        if not isinstance(data, dict) or data.pop("format", None) != FORMAT:
            raise StudyError(f"not a study report: its format is not {FORMAT!r}")
        try:
            return cls(**data)
        except TypeError as error:
            raise StudyError(f"not a study report: {error}") from None

    def save(self, path: Path) -> Path:
        """Write the report's JSON to ``path`` (atomically); return the path."""
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        temporary.write_text(self.to_json(), encoding="utf-8")
        os.replace(temporary, path)
        return path

    @classmethod
    def load(cls, path: Path) -> StudyReport:
        """Read a report :meth:`save` wrote."""
        return cls.from_json(path.read_text(encoding="utf-8"))

    def table(self) -> str:
        """The report as text for a terminal: the outcomes first, by entity; the other events; the fields."""
        runs = self.runs
        last = (
            self.first_seed + runs - 1 if self.seeds == list(range(self.first_seed, self.first_seed + runs)) else None
        )
        seeds = f"seeds {self.first_seed} to {last}" if last is not None else f"{runs} seeds from {self.first_seed}"
        head = [
            f"{self.scene}: {runs} runs of {self.turns} turns, {seeds}, rules {self.rules or 'as in the scene'}"
            + (f", {', '.join(self.overrides)}" if self.overrides else ""),
            f"{self.backend} backend, {self.workers} worker{'s' if self.workers != 1 else ''}, {self.seconds:.1f} s"
            + (f"; stopped after {runs} of {self.runs_asked} runs" if self.interrupted else ""),
        ]
        events = self.figures["events"]
        lines = [*head, ""]
        header = f"{'event':<28} {'chance':>7}  {'95% interval':<15} {'per run':>7}  {'first turn':>10}"
        for title, chosen in (("outcomes", True), ("other events", False)):
            kinds = [k for k, e in events.items() if e["outcome"] is chosen]
            if not kinds:
                continue
            lines += [f"{title}:", header]
            for kind in kinds:
                lines.append(_event_line(kind, events[kind]))
                if chosen:
                    lines += [_event_line(f"  {who}", each) for who, each in events[kind]["by_entity"].items()]
            lines.append("")
        lines += ["fields at the end:", f"{'field':<40} {'mean':>8} {'sd':>7} {'min':>7} {'max':>7}  values"]
        for label, each in self.figures["fields"].items():
            if each["kind"] == "number":
                absent = f"  absent in {each['absent']} runs" if each["absent"] else ""
                lines.append(
                    f"{label:<40} {each['mean']:>8.2f} {each['sd']:>7.2f} {each['min']:>7g} {each['max']:>7g}{absent}"
                )
            else:
                shares = ", ".join(
                    f"{name} {_percent(v['chance'])} {_interval(v['low'], v['high'])}"
                    for name, v in each["values"].items()
                )
                lines.append(f"{label:<40} {'':>8} {'':>7} {'':>7} {'':>7}  {shares}")
        return "\n".join(line.rstrip() for line in lines)


def _percent(share: float) -> str:
    return f"{100 * share:.1f}%"


def _interval(low: float, high: float) -> str:
    """An interval in percent to one decimal, its ends rounded outwards (so it never looks narrower)."""
    return f"[{math.floor(1000 * low + 1e-9) / 10:.1f}%, {math.ceil(1000 * high - 1e-9) / 10:.1f}%]"


def _event_line(label: str, each: dict[str, Any]) -> str:
    interval = _interval(each["low"], each["high"])
    turn = each.get("mean_first_turn")
    first = "" if turn is None else f"{turn:.1f}"
    return f"{label:<28} {_percent(each['chance']):>7}  {interval:<15} {each['mean_count']:>7.2f}  {first:>10}"

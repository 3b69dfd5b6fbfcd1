"""A study's plots as PNG files (matplotlib, the ``studies`` extra): the chance of each outcome with its 95%
interval, and the histogram of a numeric field."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from esper_motion.ecs.errors import needs_extra
from esper_motion.studies.report import StudyReport
from esper_motion.studies.scene import StudyError


def _pyplot() -> Any:
    try:
        import matplotlib  # noqa: PLC0415 (an optional extra)
    except ImportError:
        raise StudyError(needs_extra("plots need matplotlib", "studies")) from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # noqa: PLC0415

    return plt


def plot_outcomes(report: StudyReport, path: Path) -> Path:
    """Horizontal bars of the chance of each outcome (every event type when the scene names none), with the
    95% interval as error bars; written to ``path``."""
    plt = _pyplot()
    events = report.figures["events"]
    kinds = [k for k, e in events.items() if e["outcome"]] or list(events)
    chances = [100 * events[k]["chance"] for k in kinds]
    # the interval's ends as distances from the chance; a rounding error may put an end a hair on the wrong side
    below = [max(0.0, 100 * (events[k]["chance"] - events[k]["low"])) for k in kinds]
    above = [max(0.0, 100 * (events[k]["high"] - events[k]["chance"])) for k in kinds]
    figure, axes = plt.subplots(figsize=(7, 0.45 * len(kinds) + 1.6), dpi=100)
    rows = list(range(len(kinds)))
    axes.barh(rows, chances, xerr=[below, above], color="#4c78a8", ecolor="#222222", capsize=3)
    axes.set_yticks(rows, kinds)
    axes.invert_yaxis()
    axes.set_xlim(0, 100)
    axes.set_xlabel("chance in a run (%), with its 95% interval")
    axes.set_title(f"{report.scene}: {report.runs} runs of {report.turns} turns ({report.rules or 'scene rules'})")
    for row, chance, up in zip(rows, chances, above, strict=True):
        axes.text(min(chance + up + 1.5, 90), row, f"{chance:.1f}%", va="center", fontsize=9)
    figure.tight_layout()
    return _save(plt, figure, path)


def plot_histogram(report: StudyReport, label: str, path: Path) -> Path:
    """The histogram of numeric field ``label`` (``ENTITY COMPONENT.FIELD``, as in the report) over the runs;
    written to ``path``."""
    plt = _pyplot()
    fields = report.figures["fields"]
    if label not in fields:
        raise StudyError(f"histogram: {label!r} is not a recorded field; fields: {', '.join(fields)}")
    each = fields[label]
    if each["kind"] != "number":
        raise StudyError(f"histogram: {label!r} is not numeric; its values are {', '.join(each['values'])}")
    values = [value for value, _ in each["counts"]]
    counts = [count for _, count in each["counts"]]
    figure, axes = plt.subplots(figsize=(7, 3.6), dpi=100)
    whole = all(float(v).is_integer() for v in values)
    width = 0.8 if whole else (max(values) - min(values) or 1) / 30
    axes.bar(values, counts, width=width, color="#f58518")
    if whole:
        axes.xaxis.set_major_locator(plt.MaxNLocator(integer=True))
        axes.set_xlim(min(values) - 1, max(values) + 1)
    axes.set_xlabel(label)
    axes.set_ylabel("runs")
    axes.set_title(f"{report.scene}: {label}\nmean {each['mean']:.2f}, sd {each['sd']:.2f}, {each['runs']} runs")
    figure.tight_layout()
    return _save(plt, figure, path)


def _save(plt: Any, figure: Any, path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path)
    plt.close(figure)
    return path

"""The PNG plots of a study: bars as long as the chances, a histogram with a bar per value."""

from __future__ import annotations

from pathlib import Path

import pytest

from esper_motion.studies import StudyError, study
from esper_motion.studies.plots import plot_histogram, plot_outcomes

Image = pytest.importorskip("PIL.Image")
pytest.importorskip("matplotlib")

TIGHT_TURN = str(Path(__file__).with_name("tight_turn.toml"))
BAR = (0x4C, 0x78, 0xA8)
HISTOGRAM = (0xF5, 0x85, 0x18)


def _runs_of(pixels: list[tuple[int, int, int]], width: int, height: int, colour: tuple[int, int, int]) -> list[int]:
    """The length of each horizontal bar of ``colour``: the count of its pixels in each band of rows, per band."""
    counts = [sum(1 for x in range(width) if pixels[y * width + x] == colour) for y in range(height)]
    bands: list[int] = []
    inside = False
    for count in counts:
        if count and not inside:
            bands.append(count)
        elif count and inside:
            bands[-1] = max(bands[-1], count)
        inside = bool(count)
    return bands


def test_the_outcome_bars_are_as_long_as_the_chances(tmp_path: Path) -> None:
    report = study(TIGHT_TURN, 400, workers=1)
    path = plot_outcomes(report, tmp_path / "outcomes.png")
    image = Image.open(path).convert("RGB")
    width, height = image.size
    bars = _runs_of(list(image.getdata()), width, height, BAR)
    lost, made = report.chance("LostControl"), report.chance("Turned.pushed")
    assert len(bars) == 2  # one bar per outcome the scene names, in its order
    # A bar's pixels are proportional to its chance (the axis runs 0 to 100%), to within a pixel or two.
    assert bars[1] / bars[0] == pytest.approx(made / lost, rel=0.03)
    assert len(set(image.getdata())) > 20  # text, axes, error bars: not a blank or one-colour image


def test_the_histogram_has_a_bar_per_value_as_tall_as_its_count(tmp_path: Path) -> None:
    report = study(TIGHT_TURN, 400, workers=1)
    label = "Runner Velocity.yps"
    counts = report.figures["fields"][label]["counts"]
    path = plot_histogram(report, label, tmp_path / "histogram.png")
    image = Image.open(path).convert("RGB").transpose(Image.Transpose.ROTATE_90)  # vertical bars read as rows
    width, height = image.size
    bars = _runs_of(list(image.getdata()), width, height, HISTOGRAM)
    assert len(bars) == len(counts)
    tallest = max(count for _, count in counts)
    for bar, (_, count) in zip(reversed(bars), counts, strict=True):  # rotated: the first value is at the bottom
        assert bar / max(bars) == pytest.approx(count / tallest, abs=0.02)


def test_a_histogram_of_a_field_that_is_no_number_is_refused(tmp_path: Path) -> None:
    report = study(TIGHT_TURN, 10, workers=1)
    with pytest.raises(StudyError, match=r"'Runner gurps\.Control\.state' is not numeric"):
        plot_histogram(report, "Runner gurps.Control.state", tmp_path / "h.png")
    with pytest.raises(StudyError, match=r"'Runner Mover\.hp' is not a recorded field"):
        plot_histogram(report, "Runner Mover.hp", tmp_path / "h.png")

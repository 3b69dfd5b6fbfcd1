"""The scene studies runner (``scene_studies.py``, run by hand at 2,000 runs a scene) at a size that takes a second:
it studies a scene through the command line, reads its report and prints its row, and refuses an unknown scene."""

from __future__ import annotations

from pathlib import Path

import pytest
from benchmarks import scene_studies


def test_the_runner_studies_a_scene_through_the_command_and_prints_its_row(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert scene_studies.main(["--runs", "3", "--workers", "1", "--out", str(tmp_path), "dive_and_stall"]) == 0
    head, row, last = capsys.readouterr().out.splitlines()
    assert head == scene_studies.HEADER
    assert row.split()[:4] == ["dive_and_stall", "3", "0.00", "0"] and row.endswith("met")
    assert last == f"study.json files: {tmp_path}; measure missed by: none"
    assert (tmp_path / "dive_and_stall" / "study.json").is_file()


def test_a_row_misses_the_measure_past_one_run_in_a_hundred_stopped_or_one_body_off_the_map() -> None:
    rows = [
        scene_studies.Row("s", 200, stopped, left, 1.0, 1.0, 0.0) for stopped, left in ((0.01, 0), (0.015, 0), (0, 1))
    ]
    assert [row.passes for row in rows] == [True, False, False]


def test_an_unknown_scene_is_refused_naming_the_bundled_ones(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        scene_studies.main(["--runs", "3", "nowhere"])
    assert stopped.value.code == 2
    assert "unknown scene nowhere: expected one of sprint, car" in capsys.readouterr().err

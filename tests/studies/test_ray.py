"""The Ray backend: the same work as the local one, on a local Ray here (slow: Ray takes seconds to start)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from esper_motion.studies import StudyError, study

CAVALRY = str(Path(__file__).with_name("cavalry_scripted.toml"))
"""The cavalry charge of a script alone: many runs, cheap (no goal to plan)."""


@pytest.mark.slow
def test_the_ray_backend_gives_the_same_report_as_the_local_one() -> None:
    pytest.importorskip("ray")
    on_ray = study(CAVALRY, 400, seed=40, turns=8, backend="ray", workers=2)
    local = study(CAVALRY, 400, seed=40, turns=8, workers=2)
    assert on_ray.figures == local.figures
    assert on_ray.seeds == local.seeds == list(range(40, 440))
    assert on_ray.backend == "ray"
    assert "ray" in on_ray.versions


@pytest.mark.slow
def test_ctrl_c_on_ray_keeps_the_runs_that_finished() -> None:
    pytest.importorskip("ray")
    calls: list[int] = []

    def stop(done: int) -> None:  # Ctrl-C once, after the first batch
        calls.append(done)
        if len(calls) == 1:
            raise KeyboardInterrupt

    report = study(CAVALRY, 4000, seed=1, turns=8, backend="ray", workers=2, progress=stop)
    assert report.interrupted
    assert calls[0] <= report.runs < 4000
    assert report.runs == len(report.seeds) == len(set(report.seeds))


def test_without_ray_the_backend_asks_for_the_cluster_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray now fails, as where it is not installed
    with pytest.raises(StudyError, match=r"the ray backend needs ray: install esper-motion with its 'cluster' extra"):
        study("cavalry_charge", 10, backend="ray", workers=1)

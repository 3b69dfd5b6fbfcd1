"""Every bundled scene plays out under any dice: a short study of each (seeded runs, the scripted dice left out)
stops no run (``RunStopped``: the script ordered what the dice made impossible) and keeps every body on the map
(``LeftMap``)."""

from __future__ import annotations

from typing import Any

import pytest

from esper_motion.demos.scene_file import scene_names
from esper_motion.studies.runs import run_one
from esper_motion.studies.scene import LEFT_MAP, RUN_STOPPED, prepare, scene_text

SCENES = scene_names()


def faults(name: str, runs: int) -> list[tuple[int, str, Any, int]]:
    """Each run of scene ``name`` with seeds 1 to ``runs`` that stopped or left the map: seed, what, by whom, turn."""
    path, text = scene_text(name)
    prepared = prepare(str(path), text, None, ())
    found = []
    for seed in range(1, runs + 1):
        record = run_one(prepared, seed, prepared.spec.turns, ())
        for fault in (RUN_STOPPED, LEFT_MAP):
            if fault in record.counts:
                found.append((seed, fault, record.counts[fault], record.first_turn[fault]))
    return found


@pytest.mark.parametrize("name", SCENES)
def test_ten_runs_of_a_bundled_scene_neither_stop_nor_leave_the_map(name: str) -> None:
    assert faults(name, 10) == []


@pytest.mark.slow
@pytest.mark.parametrize("name", SCENES)
def test_fifty_runs_of_a_bundled_scene_neither_stop_nor_leave_the_map(name: str) -> None:
    assert faults(name, 50) == []

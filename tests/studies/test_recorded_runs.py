"""A study's runs give what they gave before the study's own speed work: every bundled scene, the seeds below, each
run's record (event counts by entity, first turns, final fields) compared with ``recorded_runs.json``.

The file was written by this module's ``main`` from the code before study worlds went without the undo copy and
before the scene builder's study path (commit 792f30e); rewrite it (``python tests/studies/test_recorded_runs.py``)
only for a change of rules that is meant to change what the scenes do.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from esper_motion.demos.scene_file import scene_names
from esper_motion.studies.runs import run_one
from esper_motion.studies.scene import prepare, scene_text

RECORDED = Path(__file__).with_name("recorded_runs.json")
SEEDS = range(1, 13)
"""Twelve seeds a scene: in the sprint scene nearly every run stops (the sprinter stood up who never fell), in
dive_and_stall some stop on turn 3 and some on turn 6, in the others few or none."""

CASES = [(name, None) for name in scene_names()] + [("cavalry_charge", 8)]
"""Each bundled scene at its own number of turns, and the benchmark's cavalry charge at 8 turns."""


def records(scene: str, turns: int | None) -> list[dict[str, Any]]:
    """The records of ``scene``'s runs with :data:`SEEDS`, as JSON data."""
    path, text = scene_text(scene)
    prepared = prepare(str(path), text, None, ())
    recorded = prepared.recorded()
    played = turns if turns is not None else prepared.spec.turns
    runs = [dataclasses.asdict(run_one(prepared, seed, played, recorded)) for seed in SEEDS]
    found: list[dict[str, Any]] = json.loads(json.dumps(runs))
    return found


def _key(scene: str, turns: int | None) -> str:
    return scene if turns is None else f"{scene} {turns} turns"


@pytest.mark.parametrize(("scene", "turns"), CASES, ids=[_key(*case) for case in CASES])
def test_runs_give_the_records_the_code_gave_before(scene: str, turns: int | None) -> None:
    expected = json.loads(RECORDED.read_text(encoding="utf-8"))[_key(scene, turns)]
    assert records(scene, turns) == expected


def main() -> None:
    """Write :data:`RECORDED` from the code as it is."""
    found = {_key(scene, turns): records(scene, turns) for scene, turns in CASES}
    RECORDED.write_text(json.dumps(found, indent=1, sort_keys=True) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()

"""Outcome studies: odds against ``preview``'s exact ones, repeatable figures whatever the workers, the JSON report,
overrides, clear errors, a clean stop, a worker that dies, and the command line."""

from __future__ import annotations

import io
import json
import sys
from concurrent.futures import ProcessPoolExecutor
from fractions import Fraction
from pathlib import Path
from typing import Any

import esper
import pytest
from support import dying

from esper_motion import cli
from esper_motion.components import Intent, Mover, Skills
from esper_motion.demos.scene import build_scene
from esper_motion.demos.scene_file import MAX_TURNS, read_scene
from esper_motion.ecs import IntentError, RuleValueError
from esper_motion.studies import Override, StudyError, StudyReport, StudyRunError, backends, study, wilson
from esper_motion.studies.runs import final_fields, run_one
from esper_motion.studies.scene import prepare, scene_text
from esper_motion.studies.study import MAX_RUNS
from esper_motion.systems.gurps import preview

TIGHT_TURN = str(Path(__file__).with_name("tight_turn.toml"))
STANDS_UP = str(Path(__file__).with_name("stands_up.toml"))
CAVALRY = str(Path(__file__).with_name("cavalry_scripted.toml"))
"""The cavalry charge of a script alone: many runs, cheap (no goal to plan)."""
"""A script that assumes its dice: turn 5 stands up a sprinter its scripted turn-4 dice tripped."""
"""One decisive roll: a runner at 6 yd/s turns 120 degrees at once on turn 2, DX 9 + 3 = 12 (or loses control)."""


def _tight_turn_odds(dx_override: int | None = None) -> Fraction:
    """``preview``'s exact chance of making the tight turn, from the world just before turn 2 with the intent
    the script gives on turn 2."""
    scene = build_scene(read_scene(TIGHT_TURN), seed=1)
    if dx_override is not None:
        scene.world.get(1, Mover).dx = dx_override
    scene.step()
    intent = scene.world.get(1, Intent)
    intent.turn, intent.push = -2, True
    (roll,) = preview(scene.world, 1).rolls
    assert roll.purpose == "tight turn"
    return roll.chance


def test_pushing_the_envelope_chances_from_a_study_match_previews_exact_odds() -> None:
    # High-Speed Movement > Pushing the Envelope: the 120-degree turn at once rolls DX+3 = 12, which 3d6 make
    # in 160 of 216 ways (20/27 = 74.07%); a failure loses control.
    made = _tight_turn_odds()
    assert made == Fraction(20, 27)
    report = study(TIGHT_TURN, 1500, workers=1)
    events = report.figures["events"]
    assert report.runs == 1500
    assert events["Turned.pushed"]["low"] <= made <= events["Turned.pushed"]["high"]
    assert events["LostControl"]["low"] <= 1 - made <= events["LostControl"]["high"]
    assert events["Turned.pushed"]["runs"] + events["LostControl"]["runs"] == 1500  # one or the other, every run


def test_an_override_changes_the_odds_the_way_preview_says() -> None:
    # DX 12 + 3 = 15: 3d6 make it in 206 of 216 ways (103/108 = 95.4%).
    made = _tight_turn_odds(dx_override=12)
    assert made == Fraction(103, 108)
    report = study(TIGHT_TURN, 1000, workers=1, overrides=["Runner.gurps.Mover.dx=12"])
    lost = report.figures["events"]["LostControl"]
    assert lost["low"] <= 1 - made <= lost["high"]
    assert report.overrides == ["Runner.gurps.Mover.dx=12"]


def test_the_same_base_seed_gives_the_same_report_with_one_and_two_workers() -> None:
    one = study(CAVALRY, 300, seed=40, turns=8, workers=1)
    two = study(CAVALRY, 300, seed=40, turns=8, workers=2)
    assert one.figures == two.figures
    assert one.seeds == two.seeds == list(range(40, 340))
    assert (one.workers, two.workers) == (1, 2)
    other = study(CAVALRY, 300, seed=41, turns=8, workers=1)
    assert other.figures != one.figures


def test_the_json_report_round_trips(tmp_path: Path) -> None:
    report = study(TIGHT_TURN, 60, workers=1, command=["esper-motion", "study", TIGHT_TURN, "--runs", "60"])
    path = report.save(tmp_path / "out" / "study.json")
    again = StudyReport.load(path)
    assert again == report
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["format"] == "esper-motion study 1"
    assert data["command"] == ["esper-motion", "study", TIGHT_TURN, "--runs", "60"]
    assert set(data["versions"]) >= {"esper-motion", "esper", "python", "platform"}
    from_python = study(TIGHT_TURN, 6, seed=2, workers=1, overrides=["Runner.gurps.Mover.dx=10"])
    assert from_python.command == [
        f"esper_motion.studies.study({TIGHT_TURN!r}, 6, seed=2, turns=2, "
        "overrides=['Runner.gurps.Mover.dx=10'], backend='local')"
    ]
    with pytest.raises(StudyError, match="not a study report"):
        StudyReport.from_json('{"format": "something else"}')


def test_the_report_leads_with_the_outcomes_the_scene_names() -> None:
    report = study(TIGHT_TURN, 40, workers=1)
    assert report.outcomes == ["LostControl", "Turned.pushed"]
    assert list(report.figures["events"])[:2] == ["LostControl", "Turned.pushed"]
    lines = report.table().splitlines()
    first = lines.index("outcomes:")
    assert lines[first + 2].startswith("LostControl")
    assert lines[first + 3].startswith("  Runner")
    assert "other events:" in lines


def test_the_numeric_and_category_fields_of_the_last_turn() -> None:
    report = study(TIGHT_TURN, 200, workers=1)
    fields = report.figures["fields"]
    velocity = fields["Runner Velocity.yps"]
    assert velocity["kind"] == "number"
    assert velocity["runs"] == 200
    assert sum(count for _, count in velocity["counts"]) == 200
    state = fields["Runner gurps.Control.state"]
    assert state["kind"] == "category"
    assert sum(v["runs"] for v in state["values"].values()) == 200


def test_the_wilson_interval_of_a_chance() -> None:
    # 50 of 100: centre 0.5, half-width 1.96 * sqrt(0.25/100 + 1.96^2/40000) / (1 + 1.96^2/100) = 0.0962.
    low, high = wilson(50, 100)
    assert (round(low, 4), round(high, 4)) == (0.4038, 0.5962)
    assert wilson(0, 100)[0] == 0.0
    assert wilson(100, 100)[1] == 1.0


def test_a_body_that_ends_a_turn_off_the_map_counts_once_at_the_first_such_turn() -> None:
    # The tight-turn runner starts 4 columns from the east edge at 5 yd/s: turn 1 runs it off the map.
    report = study(TIGHT_TURN, 10, workers=1, overrides=[Override.parse("Runner.Position.q=26")])
    left = report.figures["events"]["LeftMap"]
    assert left["runs"] == 10
    assert left["first_turn"] == {"1": 10}
    assert left["mean_count"] == 1.0  # turn 2 ends off the map too, and is not counted again
    at_home = study(TIGHT_TURN, 10, workers=1).figures["events"]  # from q = 0 turn 1 ends on the map
    assert "1" not in at_home.get("LeftMap", {"first_turn": {}})["first_turn"]


def test_a_scripted_intent_the_dice_made_impossible_stops_that_run_and_is_counted() -> None:
    # Turn 5 stands the sprinter up after a trip its scripted dice forced; with seeded dice most sprinters make the
    # turn and the rules refuse the Change Posture.
    report = study(STANDS_UP, 100, workers=1)
    stopped = report.figures["events"]["RunStopped"]
    tripped = report.figures["events"]["Tripped"]
    assert stopped["runs"] + tripped["runs"] == 100
    assert stopped["first_turn"] == {"5": stopped["runs"]}
    assert list(stopped["by_entity"]) == ["Sprinter"]


def test_a_stopped_run_reports_the_fields_its_last_whole_turn_left_though_its_world_keeps_no_undo_copy() -> None:
    # Seed 1: turn 5's Change Posture is refused after the turn has begun; the sprinter's control state
    # was already out of control in the world the failed turn left, high speed in the world an undo puts back.
    path, text = scene_text(STANDS_UP)
    prepared = prepare(str(path), text, None, ())
    recorded = prepared.recorded()
    stopped = run_one(prepared, 1, 5, recorded)
    assert stopped.first_turn["RunStopped"] == 5
    worlds = {}
    for transactional in (True, False):
        scene = prepared.blueprint.build(1, transactional=transactional)
        scene.world.step(4)
        with pytest.raises(IntentError):
            scene.step()
        worlds[transactional] = final_fields(scene, recorded)
    assert stopped.fields == worlds[True]
    assert stopped.fields["Sprinter gurps.Control.state"] == "high speed"
    assert worlds[False]["Sprinter gurps.Control.state"] == "out of control"


def test_a_scene_file_with_a_study_table_still_plays_as_a_demo() -> None:
    scene = build_scene(read_scene(TIGHT_TURN))
    kinds = [type(event).__name__ for event in scene.world.step(2)]
    assert "EnteredHighSpeed" in kinds
    assert "RollMade" in kinds  # the tight turn's DX+3 roll on turn 2


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        (["Rider.gurps.Mover.dx=12"], "'Rider' is not an entity of this scene; entities: Runner"),
        (["Runner.gurps.Mover.agility=12"], r"gurps.Mover.agility: no such field"),
        (["Runner.gurps.Mover.dx=twelve"], r"gurps.Mover.dx"),
        (["Runner.gurps.Mover.dx=-3"], r"gurps.Mover.dx"),
        (["Runner.gurps.Wings.dx=1"], "unknown component name 'gurps.Wings'"),
        (["Runner.dx=12"], "expected ENTITY.COMPONENT.FIELD=VALUE"),
        (["Runner.gurps.Mover.dx"], "expected ENTITY.COMPONENT.FIELD=VALUE"),
        (
            ["Runner.gurps.Mover.dx=12\nbasic_move = 3"],
            r"'Runner.gurps.Mover.dx=12\\nbasic_move = 3': holds a line break",
        ),
        (["Runner.gurps.Mover.dx=9\r"], r"holds a line break; give one VALUE on one line"),
        ([f"Runner.gurps.Mover.dx={'[' * 3000}{']' * 3000}"], r"VALUE is nested too deep to read"),
    ],
)
def test_a_bad_override_is_refused_naming_what_was_wrong(overrides: list[str], message: str) -> None:
    with pytest.raises(StudyError, match=message):
        study(TIGHT_TURN, 10, workers=1, overrides=overrides)


def test_bad_arguments_are_refused_before_any_run() -> None:
    with pytest.raises(StudyError, match="unknown scene 'nowhere'"):
        study("nowhere", 10)
    with pytest.raises(StudyError, match="runs = 0"):
        study(TIGHT_TURN, 0)
    with pytest.raises(StudyError, match="backend = 'cloud'"):
        study(TIGHT_TURN, 10, backend="cloud")
    with pytest.raises(StudyError, match="rules = 'dragon'"):
        study(TIGHT_TURN, 10, rules="dragon")
    with pytest.raises(StudyError, match="workers = 0"):
        study(TIGHT_TURN, 10, workers=0)
    with pytest.raises(StudyError, match="address = 'auto' is for the ray backend, not 'local'"):
        study(TIGHT_TURN, 10, address="auto")
    with pytest.raises(StudyError, match="workers = 2: a Ray cluster at an address brings its own CPUs"):
        study(TIGHT_TURN, 10, backend="ray", address="auto", workers=2)
    with pytest.raises(StudyError, match="turns = 0"):
        study(TIGHT_TURN, 10, turns=0)


def test_runs_and_turns_past_their_bounds_are_refused_before_any_run() -> None:
    def no_run(done: int) -> None:
        raise AssertionError(f"{done} runs played")

    with pytest.raises(StudyError, match=r"runs = 1000001: expected a whole number from 1 to 1,000,000"):
        study(TIGHT_TURN, MAX_RUNS + 1, workers=1, progress=no_run)
    with pytest.raises(StudyError, match=r"turns = 1001: expected a whole number from 1 to 1000"):
        study(TIGHT_TURN, 1, turns=MAX_TURNS + 1, workers=1, progress=no_run)


def test_no_more_workers_start_than_there_are_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[int] = []

    class Pool(ProcessPoolExecutor):
        def __init__(self, workers: int, **options: Any) -> None:
            started.append(workers)
            super().__init__(workers, **options)

    monkeypatch.setattr(backends, "ProcessPoolExecutor", Pool)
    assert study(TIGHT_TURN, 3, workers=13).workers == 3
    assert started == [3]
    assert study(TIGHT_TURN, 1, workers=13).workers == 1  # played here, in no pool
    assert started == [3]


def test_an_unknown_outcome_or_study_key_in_the_scene_file_is_refused(tmp_path: Path) -> None:
    text = Path(TIGHT_TURN).read_text(encoding="utf-8")
    bad = tmp_path / "bad.toml"
    bad.write_text(text.replace('"Turned.pushed"', '"Unhorsed"'), encoding="utf-8")
    with pytest.raises(StudyError, match=r"bad.toml: study: outcomes: 'Unhorsed' is not an event type"):
        study(str(bad), 10, workers=1)
    bad.write_text(text.replace("outcomes =", "results ="), encoding="utf-8")
    with pytest.raises(StudyError, match="study: results: unknown key; expected one of outcomes, fields"):
        study(str(bad), 10, workers=1)
    bad.write_text(text + 'fields = ["gurps.Mover.agility"]\n', encoding="utf-8")
    with pytest.raises(StudyError, match=r"'gurps\.Mover\.agility' is not COMPONENT\.FIELD"):
        study(str(bad), 10, workers=1)


def test_a_scene_nested_too_deep_is_refused_naming_the_file(tmp_path: Path) -> None:
    bad = tmp_path / "deep.toml"
    text = Path(TIGHT_TURN).read_text(encoding="utf-8")
    bad.write_text(text + f"fields = {'[' * 3000}{']' * 3000}\n", encoding="utf-8")
    with pytest.raises(StudyError, match=r"deep.toml: nested too deep to read"):
        study(str(bad), 10, workers=1)


def test_a_field_the_scene_asks_for_is_recorded(tmp_path: Path) -> None:
    scene = tmp_path / "fields.toml"
    scene.write_text(Path(TIGHT_TURN).read_text(encoding="utf-8") + 'fields = ["gurps.Mover.dx"]\n', encoding="utf-8")
    report = study(str(scene), 5, workers=1)
    assert report.figures["fields"]["Runner gurps.Mover.dx"]["mean"] == 9


def test_the_house_rules_preset_replaces_the_scenes() -> None:
    report = study("cavalry_charge", 5, rules="house", workers=1)
    assert report.rules == "house"
    with pytest.raises(StudyError, match="'house' is not a preset of Options"):
        study("chase", 5, rules="house", workers=1)


def test_ctrl_c_stops_the_study_and_keeps_the_runs_that_finished() -> None:
    def stop(done: int) -> None:  # Ctrl-C after the first batch
        raise KeyboardInterrupt

    report = study(TIGHT_TURN, 400, workers=1, progress=stop)
    # 400 runs for one worker come in batches of 25: the first finished before the stop.
    assert report.interrupted
    assert report.runs == len(report.seeds) == 25
    assert report.seeds == list(range(5, 30))
    assert "stopped after 25 of 400 runs" in report.table()


def test_ctrl_c_on_a_process_pool_keeps_every_batch_that_finished() -> None:
    calls: list[int] = []

    def stop(done: int) -> None:  # Ctrl-C once, after the first batch
        calls.append(done)
        if len(calls) == 1:
            raise KeyboardInterrupt

    report = study(TIGHT_TURN, 2000, workers=2, progress=stop)
    assert report.interrupted
    assert calls[0] <= report.runs < 2000
    assert report.runs == len(report.seeds) == len(set(report.seeds))


def test_a_worker_that_dies_stops_the_study_with_no_figures(monkeypatch: pytest.MonkeyPatch) -> None:
    # The worker ends itself mid-play (support.dying), never while it sends a result: a worker killed from outside
    # in the middle of sending one leaves the pool of Python 3.10 waiting for the rest of it for good.
    monkeypatch.setattr(backends, "run_batch", dying.dying_batch)
    with pytest.raises(StudyRunError, match=r"a worker died while playing .*tight_turn.toml with seeds \d+ to \d+"):
        study(TIGHT_TURN, 2000, seed=dying.FIRST_SEED, workers=2)


def test_the_command_prints_the_table_and_writes_the_json_and_the_plot(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("matplotlib")
    out = tmp_path / "study"
    status = cli.main(["study", TIGHT_TURN, "--runs", "80", "--workers", "1", "--out", str(out)])
    printed = capsys.readouterr().out
    assert status == 0
    assert printed.startswith("tight_turn: 80 runs of 2 turns, seeds 5 to 84, rules as in the scene")
    report = StudyReport.load(out / "study.json")
    assert report.command == ["esper-motion", "study", TIGHT_TURN, "--runs", "80", "--workers", "1", "--out", str(out)]
    assert (out / "outcomes.png").stat().st_size > 0


def test_the_command_refuses_a_bad_override_with_status_2(capsys: pytest.CaptureFixture[str]) -> None:
    status = cli.main(["study", TIGHT_TURN, "--runs", "5", "--set", "Nobody.gurps.Mover.dx=3", "--no-progress"])
    assert status == 2
    assert "'Nobody' is not an entity of this scene" in capsys.readouterr().err


def test_a_worker_keeps_no_world_of_a_finished_run() -> None:
    before = set(esper.list_worlds())
    study(TIGHT_TURN, 30, workers=1)
    assert set(esper.list_worlds()) == before


def test_a_game_write_between_steps_is_still_checked_after_study_runs_paused_the_field_watch() -> None:
    path, text = scene_text(STANDS_UP)
    prepared = prepare(str(path), text, None, ())
    run_one(prepared, 1, 5, prepared.recorded())  # stopped by the rules on turn 5
    run_one(prepared, 2, 2, prepared.recorded())
    scene = build_scene(read_scene(STANDS_UP))
    scene.world.get(1, Mover).dx = -3
    with pytest.raises(RuleValueError, match="dx"):
        scene.step()


def test_an_override_may_give_an_entity_a_component_the_scene_file_does_not() -> None:
    path, text = scene_text("cavalry_charge")
    read = prepare(str(path), text, None, (Override.parse("Footman.gurps.Skills.levels={Riding = 11}"),))
    footman = next(actor for actor in read.spec.actors if actor.name == "Footman")
    assert (Skills, {"levels": {"Riding": 11}}) in footman.components
    assert study("cavalry_charge", 5, workers=1, overrides=["Footman.gurps.Skills.levels={Riding = 11}"]).runs == 5


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_command_shows_a_progress_bar_on_a_terminal_and_plots_a_histogram(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("matplotlib")
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    out = tmp_path / "study"
    argv = ["study", TIGHT_TURN, "--runs", "64", "--workers", "1", "--out", str(out)]
    status = cli.main([*argv, "--histogram", "Runner Velocity.yps"])
    assert status == 0
    # 64 runs for one worker come in batches of 4: the bar is redrawn after each, and ends its line.
    drawn = terminal.getvalue()
    assert drawn.count("\r") == 16
    assert "   64/64 runs" in drawn
    assert drawn.endswith("\n")
    assert (out / "histogram-1.png").stat().st_size > 0
    assert "histogram-1.png" in capsys.readouterr().out


@pytest.mark.parametrize("histogram", ["Runner hp", "Nobody Velocity.yps", "Runner Velocity.speed"])
def test_the_command_refuses_a_histogram_of_no_recorded_field_before_any_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], histogram: str
) -> None:
    out = tmp_path / "study"
    argv = ["study", TIGHT_TURN, "--runs", "8", "--workers", "1", "--out", str(out), "--histogram", histogram]
    assert cli.main(argv) == 2
    printed = capsys.readouterr()
    assert printed.err.startswith(f"error: histogram: {histogram!r} is not a recorded field; fields: Runner Position.q")
    assert printed.err.count("\n") == 1
    assert printed.out == ""  # no table: no run was played
    assert not (out / "study.json").exists()


@pytest.mark.parametrize(
    ("out", "problem"), [("taken", "is a file, not a folder"), ("taken/study", "cannot be made or written")]
)
def test_the_command_refuses_an_out_it_cannot_write_before_any_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], out: str, problem: str
) -> None:
    (tmp_path / "taken").write_text("a file\n", encoding="utf-8")
    target = tmp_path / out
    assert cli.main(["study", TIGHT_TURN, "--runs", "8", "--workers", "1", "--out", str(target)]) == 2
    printed = capsys.readouterr()
    assert printed.err.startswith(f"error: --out {target}: {problem}")
    assert printed.err.count("\n") == 1
    assert printed.out == ""

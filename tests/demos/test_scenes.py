"""Demo scenes without a window: loading, checking, the script, determinism and the command line's errors."""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any, ClassVar

import pytest

import esper_motion.demos
from esper_motion import cli
from esper_motion.components import Caution, Facing, Hold, Intent, Obstacle, Patrol, Position, Pursue
from esper_motion.components.spelljammer import Vegetation
from esper_motion.demos import scene_file
from esper_motion.demos.cli import has_display
from esper_motion.demos.scene import build_scene, turn_log
from esper_motion.demos.scene_file import SceneError, _Reader, read_scene, scene_path
from esper_motion.ecs import Event, Phase, Roll, RollMade, System, hexgrid, register

REPO = Path(__file__).resolve().parents[2]

SCENE = """\
title = "Test lane"
description = "A runner on a lane with mud and a wall."
rules = "gurps"
seed = 11
turns = 3

[options]
preset = "basic"
turning_radius = "realistic"

[map]
width = 20
height = 5

[[terrain]]
label = "mud"
line = [[5, 0], [7, 0]]
components = { "gurps.Footing" = { extra_cost = 1, name = "mud" } }

[[terrain]]
label = "wall"
disc = { centre = [15, 1], radius = 1 }
components = { "gurps.Obstacle" = { hp = 100 } }

[[entity]]
name = "Runner"
colour = "#f2c14e"
[entity.components]
Position = { q = 1, r = 0 }
Facing = { direction = 0 }
Velocity = { yps = 0 }
"gurps.Mover" = { basic_move = 6, dx = 12 }
"gurps.Control" = {}

[[entity]]
name = "Walker"
colour = "#4ea1f2"
[entity.components]
Position = { q = 1, r = 2 }
"gurps.Mover" = { basic_move = 5 }
"gurps.Intent" = {}

[script.1]
Runner = { throttle = 2, maneuver = "Move" }

[script.2]
dice = [6, 5, 4]
Runner = { turn = 1, push = true }
Walker = { maneuver = "Move and Attack" }
"""


def write(tmp_path: Path, text: str, name: str = "lane.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_the_bundled_scenes_are_listed_default_first_each_with_a_description() -> None:
    names = esper_motion.demos.scene_names()
    assert names[0] == "sprint"
    for name in names:
        spec = read_scene(name)
        assert spec.name == name
        assert spec.description.strip()


def test_a_scene_file_becomes_a_world_with_its_entities_terrain_options_and_seed(tmp_path: Path) -> None:
    scene = build_scene(read_scene(str(write(tmp_path, SCENE))))
    world = scene.world
    assert scene.names == {1: "Runner", 2: "Walker"}
    assert world.get(1, Position).hex == (1, 0)
    assert world.get(1, Facing).direction == 0
    assert sorted(scene.zones.values()) == ["mud"] * 3 + ["wall"] * 7
    assert world.rules["gurps"].turning_radius == "realistic"
    assert scene.seed == 11
    assert scene.colours[2] == (0x4E, 0xA1, 0xF2)
    # the runner is scripted, so it was given the rule set's intent component
    assert world.get(1, Intent) == Intent()


def test_seed_replaces_the_files_seed(tmp_path: Path) -> None:
    spec = read_scene(str(write(tmp_path, SCENE)))
    assert build_scene(spec, seed=99).seed == 99
    assert build_scene(spec, seed=99).world.dice.roll("3d6") == build_scene(spec, seed=99).world.dice.roll("3d6")


class Probe(System):
    """Records each turn's intents and pending scripted dice as the INTENT phase leaves them."""

    phase = Phase.INTENT

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[tuple[Intent, Intent, int]] = []

    def run(self) -> None:
        world = self.world
        self.seen.append(
            (Intent(**_fields(world.get(1, Intent))), Intent(**_fields(world.get(2, Intent))), world.dice.scripted)
        )


def _fields(intent: Intent) -> dict[str, object]:
    return {name: getattr(intent, name) for name in ("maneuver", "throttle", "turn", "turn_at_yd", "push")}


def test_the_script_sets_intents_and_queues_dice_before_the_turn_it_names(tmp_path: Path) -> None:
    scene = build_scene(read_scene(str(write(tmp_path, SCENE))))
    probe = Probe()
    scene.world.add_system(probe)
    scene.world.step(2)
    first, second = probe.seen
    assert first[0].throttle == 2
    assert first[1] == Intent()
    assert first[2] == 0
    assert second[0].turn == 1 and second[0].push
    assert second[1].maneuver == "Move and Attack"
    assert second[2] >= 0


def test_manual_fields_apply_over_the_script_for_one_turn(tmp_path: Path) -> None:
    scene = build_scene(read_scene(str(write(tmp_path, SCENE))))
    probe = Probe()
    scene.world.add_system(probe)
    scene.driver.manual[2] = {"throttle": 3}
    scene.world.step()
    assert probe.seen[0][1].throttle == 3
    assert scene.driver.manual == {}


def play(name: str, seed: int | None = None) -> tuple[list[str], list[Event], dict[int, str]]:
    """Run scene ``name`` for its own number of turns; return its log, its events and its names."""
    scene = build_scene(read_scene(name), seed)
    log: list[str] = []
    events: list[Event] = []
    for _ in range(scene.spec.turns):
        emitted = scene.step()
        events.extend(emitted)
        log.extend(turn_log(scene.world.turn, emitted, scene.names))
    return log, events, scene.names


@pytest.mark.parametrize("name", esper_motion.demos.scene_names())
def test_every_scene_builds_and_steps_headless_within_eight_turns(name: str) -> None:
    spec = read_scene(name)
    assert 1 <= spec.turns <= 8
    world = esper_motion.demos.load_scene(name)
    world.step(spec.turns)
    assert world.turn == spec.turns


@pytest.mark.parametrize("name", esper_motion.demos.scene_names())
def test_the_same_seed_gives_the_same_log(name: str) -> None:
    assert play(name, seed=1234)[0] == play(name, seed=1234)[0]
    assert play(name)[0] == play(name, seed=read_scene(name).seed)[0]


def _by(events: list[Event], names: dict[int, str], kind: str, who: str) -> list[Any]:
    """The events of class ``kind`` that happened to ``who`` (their first field names the entity)."""
    return [e for e in events if type(e).__name__ == kind and names.get(getattr(e, fields(e)[0].name)) == who]


def test_sprint_builds_speed_crosses_mud_pushes_the_envelope_and_trips() -> None:
    _, events, names = play("sprint")
    assert _by(events, names, "EnteredHighSpeed", "Sprinter")
    assert any(e.forced_yps > 0 for e in _by(events, names, "VelocityChanged", "Sprinter"))
    rolls = _by(events, names, "RollMade", "Sprinter")
    assert any("turn" in e.purpose and not e.result.success for e in rolls)
    assert _by(events, names, "LostControl", "Sprinter")
    assert _by(events, names, "Tripped", "Sprinter")
    assert _by(events, names, "FallDamage", "Sprinter")


def test_car_loses_control_and_merely_decelerates_while_the_runner_trips() -> None:
    _, events, names = play("car")
    [lost] = _by(events, names, "LostControl", "Car")
    assert lost.mode == "wheels"
    assert not _by(events, names, "Tripped", "Car")
    assert _by(events, names, "RegainedControl", "Car")
    assert [e.mode for e in _by(events, names, "LostControl", "Runner")] == ["trip"]
    assert _by(events, names, "Tripped", "Runner")


def test_dive_and_stall_dives_past_top_airspeed_slows_stalls_falls_and_recovers() -> None:
    _, events, names = play("dive_and_stall")
    speeds = [e.to_yps for e in _by(events, names, "VelocityChanged", "Hawk")]
    assert speeds[0] == 12  # past the normal top airspeed of 8, in a dive
    assert speeds[1:4] == [8, 4, 0]  # braking by air Move, no roll, then stopping dead at 4 yd/s
    assert _by(events, names, "Stalled", "Hawk")
    assert _by(events, names, "Falling", "Hawk")
    [recovered] = _by(events, names, "StallRecovered", "Hawk")
    assert recovered.velocity_yps > 0
    order = [type(e).__name__ for e in events]
    assert order.index("Stalled") < order.index("Falling") < order.index("StallRecovered")


def test_cavalry_charge_panics_the_footman_and_the_couched_lance_strikes_by_the_horses_st_and_distance() -> None:
    scene = build_scene(read_scene("cavalry_charge"))
    ids = {name: entity for entity, name in scene.names.items()}
    first = scene.step()
    assert _by(first, scene.names, "EnteredHighSpeed", "Destrier")
    [panic] = _by(first, scene.names, "PanicChecked", "Footman")
    assert (panic.rolled, panic.panicked) == (True, True)
    assert scene.readouts(ids["Knight"]) == ["couched lance: 2d+3 impaling (mount ST 25 x 8 yd / 100)"]
    second = scene.step()
    [attack] = _by(second, scene.names, "AttackRolled", "Knight")
    assert (scene.names[attack.target], attack.modifiers, attack.roll.success) == (
        "Footman",
        (("relative velocity", -1),),
        True,
    )
    [hit] = _by(second, scene.names, "DamageDealt", "Knight")
    assert (hit.damage, hit.damage_type) == ("3d+3", "impaling")  # ST 25 x 12 yd / 100 = 3d, +3; no speed bonus
    assert scene.readouts(ids["Knight"]) == ["couched lance: 3d+3 impaling (mount ST 25 x 12 yd / 100)"]


def test_mounted_archer_aims_once_on_the_move_shoots_back_in_the_saddle_and_spooks_the_horse_with_a_pistol() -> None:
    _, events, names = play("mounted_archer")
    first, back, pistol = _by(events, names, "AttackRolled", "Archer")
    assert ("Aim", 2) in first.modifiers  # Acc 2 for one turn, not +3 for two: the horse ran more than a step
    assert ("turn in saddle", -4) in back.modifiers
    assert [names[a.target] for a in (first, back, pistol)] == ["Lookout", "Bandit", "Lookout"]
    [held] = [e for e in _by(events, names, "RollMade", "Archer") if "noisy shot" in e.purpose]
    assert (held.result.target, held.result.success) == (10, False)
    assert _by(events, names, "MountSpooked", "Steppe horse")


def test_dragon_strike_shows_the_dragon_rule_and_height_advantage_both_ways() -> None:
    _, events, names = play("dragon_strike")
    claws = _by(events, names, "AttackRolled", "Drake")[0]
    assert (claws.skill, claws.modifiers) == (14, (("relative speed", -2),))  # no -4, no cap of 9; 10 yd/s: -2
    parry = _by(events, names, "DefenseRolled", "Spearman")[0]
    assert ("height", -2) in parry.modifiers
    dodge = _by(events, names, "DefenseRolled", "Drake")[0]
    assert ("height", 2) in dodge.modifiers and ("retreat", 4) in dodge.modifiers
    shot = _by(events, names, "AttackRolled", "Archer")[0]
    assert ("speed and range", -5) in shot.modifiers  # 10 yd, +1 for the yard of height disadvantage: 11


def test_spooked_mount_spooks_at_a_shot_fails_three_riding_rolls_and_rolls_on_the_table() -> None:
    _, events, names = play("spooked_mount")
    assert _by(events, names, "MountSpooked", "Mare")
    fights = [e for e in _by(events, names, "RollMade", "Gunslinger") if "spooked" in e.purpose]
    assert [e.result.success for e in fights] == [False, False, False]
    [table] = _by(events, names, "MountLossOfControl", "Mare")
    assert (table.roll, table.kind) == (10, "charges_away")
    [bolt] = _by(events, names, "MountCharges", "Mare")
    assert names[bolt.threat] == "Bandit"


def test_pursuit_plays_from_goals_alone_the_runner_jumps_the_log_at_the_third_try_and_the_horse_keeps_up() -> None:
    spec = read_scene("pursuit")
    assert spec.script == {} and spec.dice == {}
    scene = build_scene(spec)
    events: list[Event] = []
    for _ in range(spec.turns):
        events.extend(scene.step())
        assert all(spec.on_map(scene.world.get(e, Position).hex) for e in scene.names)
    names = scene.names
    jumps = [e for e in _by(events, names, "RollMade", "Runner") if "jump" in e.purpose]
    tries = [(e.result.success, e.result.critical_failure) for e in jumps]
    assert tries == [(False, False), (False, True), (True, False)]
    assert len([e for e in _by(events, names, "Collided", "Runner") if e.kind == "obstacle"]) == 2
    ids = {name: entity for entity, name in names.items()}
    runner, horse = (scene.world.get(ids[n], Position).hex for n in ("Runner", "Horse"))
    assert runner[0] > 30 and hexgrid.distance(runner, horse) <= 5  # across the square, the horse hard behind
    assert _by(events, names, "Moved", "Porter") and _by(events, names, "Moved", "Hawker")
    assert scene.world.get(ids["Onlooker"], Position).hex == (12, 3)


def test_chase_the_thief_flees_through_the_thicket_the_guard_pursues_and_both_take_pursuit_actions() -> None:
    _, events, names = play("chase")
    assert _by(events, names, "Fled", "Thief")
    modes = [(names[e.entity], e.mode.value, e.vegetation) for e in events if type(e).__name__ == "SpeedModeChosen"]
    assert modes[:2] == [("Thief", "run", Vegetation.DENSE), ("Guard", "run", Vegetation.DENSE)]
    assert modes[-1] == ("Guard", "sprint", None)  # out of the thicket at last, too late
    [barrow] = _by(events, names, "PursuitActionResolved", "Thief")
    [leap] = _by(events, names, "PursuitActionResolved", "Guard")
    assert (barrow.label, barrow.level.value) == ("knock over a barrow", "success")
    assert (leap.label, leap.against, leap.level.value) == ("leap the barrow", "Acrobatics", "failure")
    assert _by(events, names, "FellDown", "Guard")
    assert not [e for e in events if type(e).__name__ == "ChaseRound" and e.in_reach]
    moved = [e for e in events if type(e).__name__ == "SquaresMoved"]
    assert [(names[e.entity], e.end) for e in moved[-2:]] == [("Thief", (36, 0)), ("Guard", (21, 0))]


def test_the_turn_log_is_a_heading_and_one_line_per_event_with_names_for_entity_ids() -> None:
    scene = build_scene(read_scene("sprint"))
    events = scene.step()
    assert events
    assert turn_log(1, events) == ["turn 1", *(f"  {event.describe()}" for event in events)]
    named = turn_log(1, [RollMade(1, "a test", Roll("3d6", (1, 2, 3), 6, 0, 6))], {1: "Runner"})
    assert named == ["turn 1", "  Runner rolls for a test: 3d6 (1, 2, 3) = 6"]


def test_load_scene_and_scene_names_work_without_arcade() -> None:
    code = (
        "import sys; sys.modules['arcade'] = None\n"
        "import esper_motion.demos\n"
        "world = esper_motion.demos.load_scene('sprint', seed=3)\n"
        "world.step()\n"
        "loaded = 'arcade' in sys.modules and sys.modules['arcade'] is not None\n"
        "print(esper_motion.demos.scene_names()[0], world.turn, loaded)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["sprint", "1", "False"]


# --- bad scene files: the error names the file, the entity (or zone, or turn) and the field -------------------


BAD = [
    pytest.param(
        ('"gurps.Mover" = { basic_move = 6, dx = 12 }', '"gurps.Mover" = { basic_move = 6, dx = 0 }'),
        ("entity 'Runner'", "Mover.dx", "1 or more"),
        id="component value out of range",
    ),
    pytest.param(
        ('"gurps.Mover" = { basic_move = 6, dx = 12 }', '"gurps.Mover" = { basic_move = 6, agility = 12 }'),
        ("entity 'Runner'", "gurps.Mover.agility", "no such field"),
        id="unknown component field",
    ),
    pytest.param(
        ('"gurps.Mover" = { basic_move = 6, dx = 12 }', '"gurps.Mover" = { basic_move = "fast" }'),
        ("entity 'Runner'", "Mover.basic_move", "'fast'"),
        id="wrong type",
    ),
    pytest.param(
        ("Velocity = { yps = 0 }", "Speed = { yps = 0 }"),
        ("entity 'Runner'", "Speed", "unknown component name"),
        id="unknown component",
    ),
    pytest.param(
        ('colour = "#f2c14e"', 'colour = "gold"'),
        ("entity 'Runner'", "colour", "'gold'"),
        id="bad colour",
    ),
    pytest.param(
        ("Position = { q = 1, r = 0 }", "Position = { q = 40, r = 0 }"),
        ("entity 'Runner'", "Position", "off the 20 x 5 map"),
        id="off the map",
    ),
    pytest.param(
        ("line = [[5, 0], [7, 0]]", "line = [[5, 0], [7, 9]]"),
        ("terrain 'mud'", "line", "off the 20 x 5 map"),
        id="terrain off the map",
    ),
    pytest.param(
        ('{ "gurps.Footing" = { extra_cost = 1, name = "mud" } }', '{ "gurps.Footing" = { extra_cost = -1 } }'),
        ("terrain 'mud'", "Footing.extra_cost", "0 or more"),
        id="terrain component value",
    ),
    pytest.param(
        ('Walker = { maneuver = "Move and Attack" }', 'Walker = { maneuver = "Sprint" }'),
        ("script turn 2, entity 'Walker'", "gurps.Intent.maneuver", "'Sprint' is not one of"),
        id="script enum value",
    ),
    pytest.param(
        ("Runner = { turn = 1, push = true }", "Runner = { turn = 3, push = true }"),
        ("script turn 2, entity 'Runner'", "Intent.turn", "from -2 to 2"),
        id="script value out of range",
    ),
    pytest.param(
        ("Runner = { turn = 1, push = true }", "Runer = { turn = 1 }"),
        ("script turn 2", "Runer", "not an entity of this scene"),
        id="script names an unknown entity",
    ),
    pytest.param(
        ("Runner = { turn = 1, push = true }", "Runner = { steer = 1 }"),
        ("script turn 2, entity 'Runner'", "gurps.Intent.steer", "no such field"),
        id="script unknown intent field",
    ),
    pytest.param(
        ("[script.2]", "[script.0]"),
        ("script turn 0", "", "numbered from 1"),
        id="script turn 0",
    ),
    pytest.param(
        ("dice = [6, 5, 4]", "dice = [6, 0, 4]"),
        ("script turn 2", "dice", "die faces"),
        id="script dice",
    ),
    pytest.param(
        ('turning_radius = "realistic"', 'turning_radius = "tight"'),
        ("options", "turning_radius", "'tight'"),
        id="bad option value",
    ),
    pytest.param(
        ('turning_radius = "realistic"', "grip = 2"),
        ("options", "grip", "not an option of Rules"),
        id="unknown option",
    ),
    pytest.param(
        ('rules = "gurps"', 'rules = "d20"'),
        ("", "rules", "'d20' is not a rule set"),
        id="unknown rule set",
    ),
    pytest.param(
        ("seed = 11", 'seed = "eleven"'),
        ("", "seed", "'eleven' is not a int"),
        id="seed not a number",
    ),
    pytest.param(
        ("width = 20", "width = 0"),
        ("map", "width", "from 1 to 200"),
        id="empty map",
    ),
    pytest.param(
        ('name = "Walker"', 'name = "Runner"'),
        ("entity 'Runner'", "name", "two entities share this name"),
        id="duplicate name",
    ),
]


# Issue 15, findings 9-11: each of these used to end in a Python traceback (exit code 1), a run out of memory, or an
# error at turn N naming neither file nor field.
BAD += [
    pytest.param(
        ('preset = "basic"', 'preset = "__init__"'),
        ("options", "preset", "'__init__' is not a preset of Rules; presets: basic, house"),
        id="preset that is no preset",
    ),
    pytest.param(
        ("[script.1]", '[script."²"]'),
        ("script turn ²", "", "turns are numbered from 1 to 1000 in digits 0-9"),
        id="script turn in other digits",
    ),
    pytest.param(
        ("[script.1]", "[script.1001]"),
        ("script turn 1001", "", "from 1 to 1000"),
        id="script turn past the last",
    ),
    pytest.param(
        ("dice = [6, 5, 4]", "dice = [6, 7, 4]"),
        ("script turn 2", "dice", "[6, 7, 4] is not a list of die faces from 1 to 6"),
        id="die face of 7",
    ),
    pytest.param(
        ("Runner = { turn = 1, push = true }", "Runner = { turn = 1, push = 1979-05-27 }"),
        ("script turn 2", "Runner.push", "is not plain data"),
        id="a date in a script",
    ),
    pytest.param(
        ("line = [[5, 0], [7, 0]]", "line = [[5, 0], [700000000, 0]]"),
        ("terrain 'mud'", "line", "(700000000, 0) is off the 20 x 5 map"),
        id="terrain line far off the map",
    ),
    pytest.param(
        ("turns = 3", "turns = 1000000"),
        ("", "turns", "1000000 is not a whole number from 1 to 1000"),
        id="a million turns",
    ),
    pytest.param(
        ('colour = "#4ea1f2"', 'colour = "#4ea1f2"\nreadouts = [["couched lance"]]'),
        ("entity 'Walker'", "readouts", "['couched lance'] is not a readout of gurps"),
        id="a list where a readout name belongs",
    ),
]

RUNNER_CONTROL = '"gurps.Control" = {}'
"""The Runner's last component line in :data:`SCENE`, after which a test gives it a goal."""


def _goal(line: str) -> tuple[str, str]:
    """The change to :data:`SCENE` that gives the Runner the goal or caution ``line``."""
    return (RUNNER_CONTROL, f"{RUNNER_CONTROL}\n{line}")


BAD += [
    pytest.param(
        _goal('"gurps.Pursue" = { target = { entity = "Nobody" } }'),
        ("entity 'Runner'", "gurps.Pursue.target", "'Nobody' is not an entity of this scene; entities: Runner"),
        id="a goal naming a missing entity",
    ),
    pytest.param(
        _goal('"gurps.KeepStation" = { target = { entity = "Runner" } }'),
        ("entity 'Runner'", "KeepStation.target", "a mover cannot take itself as its goal"),
        id="a goal naming the mover itself",
    ),
    pytest.param(
        _goal('"gurps.GoTo" = { hex = [3] }'),
        ("entity 'Runner'", "gurps.GoTo.hex", "expected a hex: a tuple (q, r) of two whole numbers"),
        id="a goal hex of one number",
    ),
    pytest.param(
        _goal('"gurps.GoTo" = { hex = { q = 3, r = 0 } }'),
        ("entity 'Runner'", "gurps.GoTo.hex", "expected a hex"),
        id="a goal hex as a table",
    ),
    pytest.param(
        _goal('"gurps.Patrol" = { waypoints = [[3, 0], [4.5, 0]] }'),
        ("entity 'Runner'", "gurps.Patrol.waypoints[1]", "expected a hex"),
        id="a waypoint that is no hex",
    ),
    pytest.param(
        _goal('"gurps.Patrol" = { waypoints = [] }'),
        ("entity 'Runner'", "gurps.Patrol.waypoints", "a tuple of one or more hexes"),
        id="empty waypoints",
    ),
    pytest.param(
        _goal('"gurps.Caution" = { failure_chance = 1.5 }'),
        ("entity 'Runner'", "gurps.Caution.failure_chance", "expected a finite number from 0 to 1"),
        id="caution above 1",
    ),
    pytest.param(
        _goal('"gurps.Caution" = { failure_chance = -0.1 }'),
        ("entity 'Runner'", "gurps.Caution.failure_chance", "expected a finite number from 0 to 1"),
        id="caution below 0",
    ),
    pytest.param(
        _goal('"gurps.GoTo" = { hex = [30, 0] }'),
        ("entity 'Runner'", "gurps.GoTo.hex", "(30, 0) is off the 20 x 5 map: a goal's places are on it"),
        id="a goal hex off the map",
    ),
    pytest.param(
        _goal('"gurps.Land" = { hex = [3, 9] }'),
        ("entity 'Runner'", "gurps.Land.hex", "(3, 9) is off the 20 x 5 map: a goal's places are on it"),
        id="a landing hex off the map",
    ),
    pytest.param(
        _goal('"gurps.Patrol" = { waypoints = [[4, 1], [9, -9]] }'),
        ("entity 'Runner'", "gurps.Patrol.waypoints[1]", "(9, -9) is off the 20 x 5 map"),
        id="a waypoint off the map",
    ),
    pytest.param(
        _goal('"gurps.GoTo" = { hex = [3, 0] }\n"gurps.Hold" = {}'),
        ("entity 'Runner'", "GoTo.goal", "one goal at a time"),
        id="two goals",
    ),
    pytest.param(
        _goal('"spelljammer.Hunt" = {}'),
        ("entity 'Runner'", "Hunt.goal", "being a GURPS mover (it holds Mover and Velocity): one of GoTo"),
        id="a goal the rule set's planner does not play",
    ),
    pytest.param(
        ("height = 5", "height = 5\nedge = { Position = { q = 0, r = 0 } }"),
        ("map edge", "Position", "the edge takes its positions from the map"),
        id="a map edge with a position",
    ),
    pytest.param(
        ("height = 5", 'height = 5\nedge = { "gurps.Obstacle" = { hp = 0 } }'),
        ("map edge", "Obstacle.hp", "1 or more"),
        id="a map edge component out of range",
    ),
]


@register("test.Lookout")
@dataclass(slots=True)
class Lookout:
    """A goal of a game's own with places: a hex to watch from, and hexes it may fall back to."""

    spot: hexgrid.Hex
    fallbacks: tuple[hexgrid.Hex, ...] = ()
    cover: hexgrid.Hex | None = None

    PLACES: ClassVar[tuple[str, ...]] = ("spot", "fallbacks", "cover")


@pytest.mark.parametrize(
    ("line", "field", "place"),
    [
        ("spot = [30, 0]", "test.Lookout.spot", "(30, 0)"),
        ("spot = [3, 0], fallbacks = [[4, 1], [9, -9]]", "test.Lookout.fallbacks[1]", "(9, -9)"),
        ("spot = [3, 0], cover = [-8, 0]", "test.Lookout.cover", "(-8, 0)"),
    ],
)
def test_a_goal_of_a_games_own_names_its_places_and_the_scene_file_refuses_them_off_the_map(
    tmp_path: Path, line: str, field: str, place: str
) -> None:
    # The loader knows no Lookout: its PLACES class attribute alone says which fields are hexes of the map.
    path = write(tmp_path, SCENE.replace(*_goal(f'"test.Lookout" = {{ {line} }}')))
    with pytest.raises(SceneError) as raised:
        build_scene(read_scene(str(path)))
    assert (raised.value.where, raised.value.field) == ("entity 'Runner'", field)
    assert str(raised.value).endswith(f"{place} is off the 20 x 5 map: a goal's places are on it")
    on_map = SCENE.replace(*_goal('"test.Lookout" = { spot = [3, 0], fallbacks = [[4, 1]] }'))
    world = build_scene(read_scene(str(write(tmp_path, on_map, "on_map.toml")))).world
    assert world.get(1, Lookout) == Lookout((3, 0), ((4, 1),))


def test_goals_in_a_scene_file_become_goal_components_with_entity_names_read_as_ids(tmp_path: Path) -> None:
    text = SCENE.replace(*_goal('"gurps.Pursue" = { target = { entity = "Walker" }, range_yd = 2 }'))
    text = text.replace(*_goal('"gurps.Caution" = { failure_chance = 0.25 }'))
    text = text.replace('"gurps.Mover" = { basic_move = 5 }', '"gurps.Mover" = { basic_move = 5 }\n"gurps.Hold" = {}')
    scene = build_scene(read_scene(str(write(tmp_path, text))))
    ids = {name: entity for entity, name in scene.names.items()}
    world = scene.world
    assert world.get(ids["Runner"], Pursue) == Pursue(ids["Walker"], range_yd=2)
    assert world.get(ids["Runner"], Caution) == Caution(0.25)
    assert world.has(ids["Walker"], Hold)
    text = SCENE.replace(*_goal('"gurps.Patrol" = { waypoints = [[4, 1], [9, -1]] }'))
    patrol = build_scene(read_scene(str(write(tmp_path, text, "patrol.toml")))).world.get(1, Patrol)
    assert patrol.waypoints == ((4, 1), (9, -1))


def test_a_map_edge_fences_the_map_with_its_components_on_every_hex_round_it(tmp_path: Path) -> None:
    # The 20 x 5 lane: a ring of 2 x 22 + 2 x 5 = 54 hexes round it; the runner, put at the east end heading east at
    # 4 yd/s and speeding up, runs into it instead of off the map.
    text = SCENE.replace("height = 5", 'height = 5\nedge = { "gurps.Obstacle" = { hp = 500 } }')
    text = text.replace("Position = { q = 1, r = 0 }", "Position = { q = 17, r = 0 }")
    text = text.replace("Velocity = { yps = 0 }", "Velocity = { yps = 4, heading = 0 }")
    scene = build_scene(read_scene(str(write(tmp_path, text))))
    spec, world = scene.spec, scene.world
    fence = {position.hex for entity, (position, _) in world.scan(Position, Obstacle) if entity not in scene.zones}
    assert len(spec.edge_hexes()) == 54
    assert fence == set(spec.edge_hexes())
    assert not any(spec.on_map(hex) for hex in fence)
    way_out = {hexgrid.neighbour(hex, side) for hex in spec.map_hexes() for side in range(6)}
    assert {hex for hex in way_out if not spec.on_map(hex)} <= fence  # no step leaves the map but into the fence
    [hit] = [event for event in scene.step() if type(event).__name__ == "Collided"]
    assert world.get(hit.struck, Position).hex == (20, 0)
    assert world.get(1, Position).hex == (19, 0)


RIDERS = (
    SCENE
    + """
[[entity]]
name = "Horse"
colour = "#8b5a2b"
[entity.components]
Position = { q = 4, r = -2 }
"gurps.Mount" = { riders = [{ entity = "Knight" }] }
"gurps.Rider" = { mount = { entity = "Knight" } }

[[entity]]
name = "Knight"
colour = "#d9dde6"
[entity.components]
Position = { q = 4, r = -1 }
"gurps.Mount" = { riders = [{ entity = "Horse" }] }
"gurps.Rider" = { mount = { entity = "Horse" } }
"""
)


def test_a_riding_loop_in_a_scene_is_refused_when_the_file_is_read_naming_entity_and_field(tmp_path: Path) -> None:
    """Finding 11: the Knight rides the Horse that rides the Knight; it used to fail at turn 1 with neither file nor
    field named."""
    path = write(tmp_path, RIDERS)
    with pytest.raises(SceneError) as raised:
        build_scene(read_scene(str(path)))
    assert (raised.value.where, raised.value.field) == ("entity 'Knight'", "gurps.Rider.mount")
    assert str(raised.value) == (
        f"{path}: entity 'Knight': gurps.Rider.mount: 'Horse': the riding chain 'Knight' -> 'Horse' -> 'Knight' "
        "loops back to it"
    )


def test_a_mount_listing_a_rider_that_does_not_ride_it_is_refused_naming_entity_and_field(tmp_path: Path) -> None:
    text = RIDERS.replace('"gurps.Rider" = { mount = { entity = "Horse" } }', '"gurps.Rider" = {}')
    text = text.replace('"gurps.Rider" = { mount = { entity = "Knight" } }', "")
    text = text.replace('"gurps.Mount" = { riders = [{ entity = "Horse" }] }', "")
    path = write(tmp_path, text)
    with pytest.raises(SceneError) as raised:
        build_scene(read_scene(str(path)))
    assert (raised.value.where, raised.value.field) == ("entity 'Horse'", "gurps.Mount.riders[0]")
    assert "'Knight' is on foot" in str(raised.value)


def test_a_file_that_is_not_utf8_is_refused_naming_the_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "latin.toml"
    path.write_bytes(SCENE.replace("Test lane", "Pr\u00e9").encode("latin-1"))
    with pytest.raises(SceneError, match=r"not UTF-8 text \(byte 11: invalid continuation byte\)") as raised:
        read_scene(str(path))
    assert raised.value.path == str(path)
    assert cli.main([str(path), "--headless"]) == 2
    assert capsys.readouterr().err.startswith(f"error: {path}: not UTF-8 text")


def test_a_file_too_large_is_refused_before_it_is_parsed(tmp_path: Path) -> None:
    path = write(tmp_path, SCENE + "#" * 1_000_000)
    with pytest.raises(SceneError, match=r"larger than 1,000,000 bytes"):
        read_scene(str(path))


def test_terrain_covering_too_many_hexes_is_refused(tmp_path: Path) -> None:
    """A zone covers at most the map (200 x 200 at most), but many zones together are bounded too."""
    zone = '\n[[terrain]]\nlabel = "grass"\ndisc = { centre = [10, 0], radius = 30 }\ncomponents = {}\n'
    path = write(tmp_path, SCENE.replace("[[entity]]", zone * 1001 + "\n[[entity]]", 1))
    with pytest.raises(SceneError, match=r"terrain: 1,003 tables; at most 1,000"):
        read_scene(str(path))
    wide = SCENE.replace("width = 20", "width = 200").replace("height = 5", "height = 200")
    path = write(tmp_path, wide.replace("[[entity]]", zone.replace("30", "300") * 3 + "\n[[entity]]", 1))
    with pytest.raises(SceneError, match=r"terrain: its zones cover 120,010 hexes or more; at most 100,000"):
        read_scene(str(path))


@pytest.mark.parametrize(
    "change",
    [('preset = "basic"', 'preset = "__init__"'), ("[script.1]", '[script."²"]'), ("dice = [6, 5, 4]", "dice = [7]")],
    ids=["preset", "turn key", "die face"],
)
def test_each_of_these_mistakes_exits_2_from_the_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], change: tuple[str, str]
) -> None:
    path = write(tmp_path, SCENE.replace(*change))
    assert cli.main([str(path), "--headless"]) == 2
    assert capsys.readouterr().err.startswith(f"error: {path}: ")


@pytest.mark.parametrize(("change", "expected"), BAD)
def test_a_bad_scene_file_is_refused_naming_file_entity_and_field(
    tmp_path: Path, change: tuple[str, str], expected: tuple[str, str, str]
) -> None:
    old, new = change
    assert old in SCENE
    path = write(tmp_path, SCENE.replace(old, new, 1))
    with pytest.raises(SceneError) as raised:
        build_scene(read_scene(str(path)))
    where, field, problem = expected
    message = str(raised.value)
    assert message.startswith(f"{path}: ")
    assert raised.value.where == where
    assert field in raised.value.field
    assert problem in message


def test_a_charge_on_a_spelljammer_character_is_refused_naming_file_entity_and_field(tmp_path: Path) -> None:
    flee = '"gurps.Flee" = { source = { entity = "Guard" }, range_yd = 8 }'
    text = scene_path("chase").read_text(encoding="utf-8")
    assert flee in text
    path = write(tmp_path, text.replace(flee, '"gurps.Charge" = { target = { entity = "Guard" } }'), "chase.toml")
    with pytest.raises(SceneError) as raised:
        build_scene(read_scene(str(path)))
    assert str(raised.value).startswith(f"{path}: ")
    assert (raised.value.where, raised.value.field) == ("entity 'Thief'", "gurps.Charge.goal")
    assert "a goal the Spelljammer planner plays" in str(raised.value)
    assert str(raised.value).endswith("one of GoTo, Pursue, Flee, KeepStation, Patrol, Hold, Hunt")


def test_broken_toml_is_refused_naming_the_file(tmp_path: Path) -> None:
    path = write(tmp_path, SCENE.replace("[map]", "[map"))
    with pytest.raises(SceneError, match="not valid TOML") as raised:
        read_scene(str(path))
    assert raised.value.path == str(path)


def test_a_scene_nested_too_deep_is_refused_naming_the_file(tmp_path: Path) -> None:
    path = write(tmp_path, SCENE.replace("dx = 12", f"dx = {'[' * 3000}{']' * 3000}"))
    with pytest.raises(SceneError, match=r": nested too deep to read") as raised:
        read_scene(str(path))
    assert raised.value.path == str(path)


def test_an_entity_short_of_a_component_its_rule_set_needs_is_refused_when_built_by_name(tmp_path: Path) -> None:
    # A Mover with a Velocity is a body of the GURPS rule set, which needs a Facing too: refused before turn 1.
    path = write(tmp_path, SCENE.replace("Facing = { direction = 0 }\n", "", 1))
    with pytest.raises(SceneError) as raised:
        build_scene(read_scene(str(path)))
    assert (raised.value.where, raised.value.field) == ("entity 'Runner'", "Facing")
    assert str(raised.value) == (
        f"{path}: entity 'Runner': Facing: missing: an entity of the gurps rule set with gurps.Mover, Velocity needs "
        "Position, Facing, Velocity, gurps.Mover, gurps.Control, gurps.Intent"
    )


@pytest.mark.parametrize(
    ("name", "problem"),
    [
        ("Run\u200bner", r"'Run\\u200bner' holds an invisible character, U\+200B; a name is visible text"),
        ("Walker\u0007", r"'Walker\\x07' holds an invisible character, U\+0007; a name is visible text"),
        ("\uff32unner", r"reads as 'Runner', the name of another entity"),
    ],
    ids=["zero-width space", "control character", "full-width letter"],
)
def test_a_name_with_an_invisible_character_or_that_reads_as_another_is_refused(
    tmp_path: Path, name: str, problem: str
) -> None:
    path = write(tmp_path, SCENE.replace('name = "Walker"', f"name = {json.dumps(name)}"))
    with pytest.raises(SceneError, match=problem) as raised:
        read_scene(str(path))
    assert raised.value.field == "name"


@pytest.mark.parametrize(
    ("fields", "shown"),
    [("q = 5018, r = 4000", "(5018, 4000)"), ("q = 3, r = 4", "(3, 4)"), ("r = -3", "row -3"), ("q = 30", "q = 30")],
)
def test_a_scripted_position_off_the_map_is_refused_like_a_start_position(
    tmp_path: Path, fields: str, shown: str
) -> None:
    path = write(tmp_path, SCENE + f"\n[script.3]\nRunner = {{ Position = {{ {fields} }} }}\n")
    with pytest.raises(SceneError) as raised:
        read_scene(str(path))
    assert (raised.value.where, raised.value.field) == ("script turn 3", "Runner.Position")
    assert raised.value.problem == f"{shown} is off the 20 x 5 map"


def test_a_scripted_position_on_the_map_is_taken(tmp_path: Path) -> None:
    path = write(
        tmp_path, SCENE + "\n[script.3]\nRunner = { Position = { q = 19 } }\nWalker = { Position = { r = -2 } }\n"
    )
    assert read_scene(str(path)).script[3] == {"Runner": {"Position": {"q": 19}}, "Walker": {"Position": {"r": -2}}}


# --- the command line ----------------------------------------------------------------------------------


def test_list_prints_every_scene_with_its_description(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["--list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines] == esper_motion.demos.scene_names()
    assert all(read_scene(line.split()[0]).description in line for line in lines)


def test_a_listing_whose_reader_stops_reading_ends_quietly_with_141() -> None:
    reader, writer = os.pipe()
    os.close(reader)  # as `esper-motion --list | head` once head has read enough
    try:
        listed = subprocess.run(
            [sys.executable, "-c", "import sys; from esper_motion.cli import main; sys.exit(main(['--list']))"],
            stdout=writer,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
        )
    finally:
        os.close(writer)
    assert (listed.returncode, listed.stderr) == (cli.PIPE_CLOSED, "")


def test_an_unknown_scene_exits_2_and_lists_the_known_ones(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["no_such_scene", "--headless"]) == 2
    err = capsys.readouterr().err
    assert "unknown scene 'no_such_scene'" in err
    assert "sprint" in err


def test_a_bad_scene_file_exits_2_naming_file_entity_and_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, SCENE.replace("dx = 12", "dx = 0"))
    assert cli.main([str(path), "--headless"]) == 2
    err = capsys.readouterr().err
    assert err == f"error: {path}: entity 'Runner': gurps.Mover.dx: Mover.dx = 0: expected a whole number, 1 or more\n"


def test_a_missing_scene_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main([str(tmp_path / "gone.toml")]) == 2
    assert "no such scene file" in capsys.readouterr().err


@pytest.mark.parametrize("turns", ["0", "-2", "many"])
def test_turns_must_be_a_whole_number_from_1(turns: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as raised:
        cli.main(["sprint", "--turns", turns])
    assert raised.value.code == 2
    assert "--turns" in capsys.readouterr().err


def test_the_display_check_follows_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    assert not has_display()
    monkeypatch.setenv("WAYLAND_DISPLAY", "wayland-0")
    assert has_display()


def test_a_disc_covers_the_map_hexes_within_its_radius_in_map_order(tmp_path: Path) -> None:
    """A disc is found around its centre, not by measuring every map hex; the hexes and their order are those of the
    map within the radius. A radius far past the map reaches no farther than the map."""
    spec = read_scene(str(write(tmp_path, SCENE)))
    wall = next(zone for zone in spec.zones if zone.label == "wall")
    assert list(wall.hexes) == [h for h in spec.map_hexes() if hexgrid.distance(h, (15, 1)) <= 1]
    huge = read_scene(str(write(tmp_path, SCENE.replace("radius = 1 }", "radius = 1000000000 }"))))
    assert list(next(z for z in huge.zones if z.label == "wall").hexes) == spec.map_hexes()


def test_a_long_value_in_a_scene_is_cut_in_the_error(tmp_path: Path) -> None:
    """Finding 8 for scenes: a megabyte-long colour is named by its first characters and its length."""
    path = write(tmp_path, SCENE.replace('colour = "#f2c14e"', f'colour = "{"f" * 500_000}"'))
    with pytest.raises(SceneError) as raised:
        read_scene(str(path))
    assert raised.value.field == "colour"
    assert len(str(raised.value)) < 400
    assert "(500002 characters in all)" in str(raised.value)


# --- every value of a bundled scene replaced by a hostile one: a SceneError or a scene that builds ----------------

HOSTILE: list[Any] = [[], {}, "x", -1, 10**30, 1.5, True, {"entity": ["x"]}, {"entity": "Nobody"}, float("nan")]


def _places(node: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every key path into a scene's data, tables and lists included."""
    if path:
        yield path
    children = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for key, value in children:
        yield from _places(value, (*path, key))


def _spoiled(data: dict[str, Any], path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    spoiled = copy.deepcopy(data)
    node: Any = spoiled
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = copy.deepcopy(value)
    return spoiled


def _every_value_spoiled_is_refused_or_builds(name: str, hostile: list[Any]) -> None:
    path = scene_path(name)
    data = scene_file.tomllib.loads(path.read_text(encoding="utf-8"))  # tomllib, or tomli on Python 3.10
    for place in _places(data):
        for value in hostile:
            try:
                build_scene(_Reader(path).scene(_spoiled(data, place, value)))
            except SceneError as error:
                assert error.path == str(path), (place, value)


def test_every_value_of_the_sprint_scene_spoiled_is_refused_as_a_scene_error_or_builds() -> None:
    """Findings 9-11: no hostile value anywhere in a scene ends in a Python traceback."""
    _every_value_spoiled_is_refused_or_builds("sprint", HOSTILE[:6])


@pytest.mark.slow
@pytest.mark.parametrize("name", esper_motion.demos.scene_names())
def test_every_value_of_every_scene_spoiled_every_way_is_refused_as_a_scene_error_or_builds(name: str) -> None:
    _every_value_spoiled_is_refused_or_builds(name, HOSTILE)

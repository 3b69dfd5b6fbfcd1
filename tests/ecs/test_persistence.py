"""Saving and loading a world (docs/architecture.md > Saving and loading): what a save holds, that
loading and stepping changes nothing, that bad files are refused with the place named and the world untouched,
and that writes are atomic."""

from __future__ import annotations

import importlib
import json
import os
import pkgutil
import re
import subprocess
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import esper_motion.components
from esper_motion.components import (
    MAX_ALTITUDE_YD,
    MAX_MOVE,
    MAX_SPEED_YPS,
    Caution,
    Charge,
    Climb,
    Condition,
    Control,
    Facing,
    Flee,
    Footing,
    GoTo,
    Hold,
    Hunt,
    Intent,
    KeepStation,
    KeptPlan,
    Land,
    Maneuver,
    Mover,
    MoveState,
    Obstacle,
    Patrol,
    Position,
    Posture,
    PostureState,
    Pursue,
    Skills,
    Swoop,
    Velocity,
)
from esper_motion.components.combat import DAMAGE_TYPES, HIT_LOCATIONS, LANCES, Attack, Defenses
from esper_motion.components.flight import (
    ATMOSPHERE_CATEGORIES,
    AirSupply,
    Atmosphere,
    Flight,
    FlightIntent,
    FlightMode,
)
from esper_motion.components.goals import ALL_GOAL_TYPES, MAX_RANGE_YD, PLAYED
from esper_motion.components.gurps import LossCause
from esper_motion.components.mount import (
    CHARGES,
    MOUNT_ATTACKS,
    MOUNT_DEFENSES,
    MOUNT_TRAININGS,
    MOUNTING_SKILLS,
    RANGED_TRICKS,
    RIDER_ACTIONS,
    RISKY_FEATS,
    Mount,
    Nerve,
    Rider,
)
from esper_motion.components.spelljammer import (
    Mobility,
    RangedWeapon,
    RoundIntent,
    RoundState,
    SpeedMode,
    Vegetation,
    VegetationZone,
)
from esper_motion.ecs import (
    Event,
    Linked,
    Phase,
    RollMade,
    RuleValueError,
    SaveError,
    System,
    World,
    WorldError,
    name_of,
    persist,
    register,
    register_rule_set,
    register_system,
)
from esper_motion.ecs.hexgrid import Hex
from esper_motion.ecs.persist import FORMAT, VERSION, check_savable
from esper_motion.ecs.validate import LARGEST_WHOLE, check_int

# --- a toy rule set: moves, rolls, spawns and despawns, so a turn uses every part of the world -----------


@dataclass(frozen=True, slots=True)
class ToyOptions:
    """How many hexes a mover goes per yard per second of velocity."""

    stride: int = 1

    def __post_init__(self) -> None:
        check_int("ToyOptions", "stride", self.stride, low=1)


@dataclass(frozen=True, slots=True)
class Moved(Event):
    entity: int
    to: Hex


def by_id(pairs: list[tuple[int, Any]]) -> list[tuple[int, Any]]:
    """Entities in id order: esper yields them in the order of its internal sets, which a load rebuilds."""
    return sorted(pairs, key=lambda pair: pair[0])


class Drift(System):
    """Moves every mover east by velocity times the stride, and says where it went."""

    phase = Phase.MOVEMENT

    def run(self) -> None:
        stride = self.world.rules["test.toy"].stride
        for entity, (position, velocity) in by_id(self.world.query(Position, Velocity)):
            position.q += velocity.yps * stride
            self.world.emit(Moved(entity, position.hex))


class Gamble(System):
    """Rolls 1d6 for every mover: a 5 or 6 spawns a follower behind it, a 1 takes the mover off the map."""

    phase = Phase.CONTROL

    def run(self) -> None:
        world = self.world
        for entity, (position, _) in by_id(world.query(Position, Velocity)):
            roll = world.dice.roll("1d6")
            world.emit(RollMade(entity, "gamble", roll))
            if roll.total >= 5:
                world.spawn(Position(position.q - 1, position.r), Velocity(1))
            elif roll.total == 1:
                world.despawn(entity)


def install_toy(world: World, options: ToyOptions) -> None:
    world.install_rules("test.toy", options)
    world.add_system(Drift())
    world.add_system(Gamble())


register_rule_set("test.toy", install_toy, ToyOptions)


# --- components for the corners of the format ------------------------------------------------------------


class Mood(str, Enum):
    CALM = "calm"
    WILD = "wild"


@dataclass(slots=True)
class Crate:
    label: str
    weight: float

    def __post_init__(self) -> None:
        if self.weight < 0:
            raise ValueError(f"Crate.weight must be 0 or more, not {self.weight}")


@register("test.Kit")
@dataclass(slots=True)
class Kit:
    """Every kind of field a save holds: nested dataclass, variadic tuple, dict of lists of hexes, enum or None."""

    crate: Crate
    marks: tuple[int, ...]
    routes: dict[str, list[Hex]]
    mood: Mood | None
    spare: Crate | None = None


@register("test.Beacon")
@dataclass(slots=True)
class Beacon:
    """Points at another entity, as a rider points at its mount."""

    target: int

    def links(self) -> tuple[int]:
        return (self.target,)


@register("test.Bag")
@dataclass(slots=True)
class Bag:
    items: set[int] = field(default_factory=set)


@dataclass(slots=True)
class Stray:
    """Never registered."""

    x: int = 0


def toy_world(seed: int = 11) -> World:
    world = World(seed=seed)
    install_toy(world, ToyOptions(stride=2))
    for q in range(6):
        world.spawn(Position(q, q % 3), Velocity(q % 4), Facing(q % 6))
    world.spawn(Position(-3, 4))  # no Velocity: never moves or rolls
    world.dice.script(6, 6, 2)  # scripted faces still queued when the world is saved
    return world


def saved_text(world: World, where: Path) -> str:
    """Everything a save holds about ``world``, as text, to compare a world before and after."""
    world.save(where)
    return where.read_text(encoding="utf-8")


# --- what a save holds -----------------------------------------------------------------------------------


def test_a_save_holds_format_turn_next_id_dice_rules_and_every_component(tmp_path: Path) -> None:
    world = toy_world()
    world.step(2)
    empty = world.spawn()
    world.save(tmp_path / "game.json")
    data = json.loads((tmp_path / "game.json").read_text(encoding="utf-8"))
    assert list(data) == ["format", "version", "turn", "next_entity", "dice", "rules", "entities", "systems"]
    assert (data["format"], data["version"], data["turn"]) == (FORMAT, VERSION, 2)
    assert data["systems"] == [{"rules": "test.toy"}]
    assert data["next_entity"] == empty + 1
    assert data["dice"] == world.dice.getstate()
    assert data["rules"] == {"test.toy": {"module": __name__, "options": {"stride": 2}}}
    assert [record["id"] for record in data["entities"]] == world.entities()
    first = data["entities"][0]
    assert first["components"]["Position"] == {
        "q": world.get(first["id"], Position).q,
        "r": world.get(first["id"], Position).r,
        "altitude_yd": 0.0,
    }
    assert data["entities"][-1] == {"id": empty, "components": {}}


def test_every_kind_of_field_round_trips(tmp_path: Path) -> None:
    world = World()
    kit = Kit(Crate("rope", 2.5), (3, 1, 4), {"north": [(0, 1), (0, 2)], "": []}, Mood.WILD, spare=None)
    plain = Kit(Crate("", 0), (), {}, None, spare=Crate("tent", 7.0))
    control = Control(state=MoveState.HIGH_SPEED, path=[(0, 0), (1, 0)])
    a = world.spawn(kit, control, Posture(PostureState.KNEELING, target=PostureState.STANDING, seconds_left=1))
    b = world.spawn(plain, Skills({"Riding": 12, "Über-Jumping": 0}), Mover(5, top_speed=None, handling=-2))
    world.save(tmp_path / "kit.json")
    loaded = World.load(tmp_path / "kit.json")
    assert loaded.components(a) == world.components(a)
    assert loaded.components(b) == world.components(b)
    assert repr(loaded.components(a)) == repr(world.components(a))  # enums stay members, tuples stay tuples
    assert loaded.get(b, Kit).crate.weight == 0 and isinstance(loaded.get(b, Kit).crate.weight, int)


def test_load_rebuilds_ids_turn_dice_rules_and_systems(tmp_path: Path) -> None:
    world = toy_world()
    world.step(3)
    gone = world.entities()[1]
    world.despawn(gone)
    world.save(tmp_path / "game.json")
    loaded = World.load(tmp_path / "game.json")
    assert loaded.context != world.context
    assert loaded.entities() == world.entities()
    assert gone not in loaded.entities()
    assert all(loaded.components(e) == world.components(e) for e in world.entities())
    assert loaded.turn == world.turn == 3
    assert loaded.dice.getstate() == world.dice.getstate()
    assert loaded.rules == {"test.toy": ToyOptions(stride=2)}
    assert [type(s) for s in loaded.systems] == [Drift, Gamble]
    assert all(s.world is loaded for s in loaded.systems)
    assert loaded.events == []
    assert loaded.spawn() == world.spawn()  # the same next id


@pytest.mark.parametrize("turns_before", [0, 1, 4], ids=["saved at turn 0", "saved at turn 1", "saved at turn 4"])
def test_loading_then_stepping_gives_the_events_of_never_saving(tmp_path: Path, turns_before: int) -> None:
    never_saved = toy_world()
    if turns_before:
        never_saved.step(turns_before)
    expected = never_saved.step(12)

    world = toy_world()
    if turns_before:
        world.step(turns_before)
    world.save(tmp_path / "game.json")
    loaded = World.load(tmp_path / "game.json")
    assert loaded.step(12) == expected
    assert loaded.entities() == never_saved.entities()
    assert all(loaded.components(e) == never_saved.components(e) for e in never_saved.entities())
    assert loaded.dice.getstate() == never_saved.dice.getstate()
    # The run compared is worth comparing: movers moved, spawned followers and were taken off the map.
    rolled = {event.result.total for event in expected if isinstance(event, RollMade)}
    assert {1, 5} <= rolled or {1, 6} <= rolled
    assert len(loaded.query(Position, Velocity)) > 3  # and movers were still about at the end


def test_restore_puts_a_world_back_in_place_keeping_its_systems_and_handlers(tmp_path: Path) -> None:
    world = toy_world()
    world.step(2)
    world.save(tmp_path / "game.json")
    first_run = world.step(5)
    heard: list[Moved] = []
    world.on(Moved, heard.append)
    systems = list(world.systems)
    world.restore(tmp_path / "game.json")
    assert world.turn == 2
    assert world.events == []
    assert world.systems == systems
    assert world.step(5) == first_run
    assert heard == [event for event in first_run if isinstance(event, Moved)]


def test_load_never_imports_the_module_a_save_names(tmp_path: Path) -> None:
    toy_world().save(tmp_path / "game.json")
    data = json.loads((tmp_path / "game.json").read_text(encoding="utf-8"))
    data["rules"]["test.toy"]["module"] = "no_such_package.anywhere"
    (tmp_path / "game.json").write_text(json.dumps(data), encoding="utf-8")
    assert World.load(tmp_path / "game.json").rules == {"test.toy": ToyOptions(stride=2)}


def test_the_gurps_rule_set_reinstalls_and_steps_the_same(tmp_path: Path) -> None:
    from esper_motion.systems import gurps
    from esper_motion.systems.gurps.mounted.common import seat

    def gurps_world() -> World:
        """A runner speeding up into an obstacle, a flier too slow to stay up (it stalls and falls), someone
        getting up, and a rider on a galloping horse."""
        world = World(seed=5)
        gurps.install(world, gurps.Rules.house())
        world.spawn(
            Position(0, 0),
            Facing(0),
            Velocity(4),
            Mover(basic_move=5, basic_speed=5.5),
            Intent(maneuver=Maneuver.MOVE, throttle=1),
            Control(),
            Posture(),
            Condition(),
        )
        world.spawn(
            Position(2, 0, altitude_yd=30.0),
            Facing(0),
            Velocity(2),
            Mover(basic_move=5),
            Intent(),
            Control(MoveState.HIGH_SPEED),  # house rules: a flier that cannot hover is at high speed in the air
            Posture(),
            Condition(),
            Flight(air_move=12, mode=FlightMode.CANNOT_HOVER, wings=True),
            FlightIntent(),
        )
        world.spawn(Position(5, 1), Posture(PostureState.PRONE, target=PostureState.STANDING, seconds_left=2))
        world.spawn(Position(8, 0), Obstacle(hp=30, hard=False))
        horse = world.spawn(
            Position(0, 3),
            Facing(0),
            Velocity(4),
            Mover(basic_move=8, st=25, hp=25, size_modifier=1, enhanced=True, top_speed=16),
            Intent(throttle=2),
            Control(),
            Posture(),
            Condition(),
            Mount(),
        )
        rider = world.spawn(
            Position(0, 4),
            Facing(0),
            Velocity(0),
            Mover(basic_move=5, dx=12, st=11, hp=11, basic_speed=6.0),
            Intent(),
            Control(),
            Posture(),
            Condition(),
            Skills({"Riding": 12}),
            Rider(),
        )
        seat(world, rider, horse)
        return world

    never_saved = gurps_world()
    never_saved.step(1)
    expected = never_saved.step(3)
    world = gurps_world()
    world.step(1)
    world.save(tmp_path / "gurps.json")
    loaded = World.load(tmp_path / "gurps.json")
    assert loaded.rules == {"gurps": gurps.Rules.house()}
    assert [type(s) for s in loaded.systems] == [type(s) for s in world.systems]
    assert loaded.step(3) == expected
    assert all(loaded.components(e) == never_saved.components(e) for e in never_saved.entities())
    assert loaded.dice.getstate() == never_saved.dice.getstate()


# --- refusing bad files: the place is named and the world loaded into is unchanged ------------------------


def good_save(tmp_path: Path) -> dict[str, Any]:
    world = toy_world()
    world.spawn(Control(path=[(0, 0), (1, 0)]), Kit(Crate("rope", 1.0), (1,), {"north": [(0, 1)]}, Mood.CALM))
    world.spawn(Beacon(target=1))
    horse = world.spawn(Mount())
    rider = world.spawn(Rider(mount=horse))
    world.get(horse, Mount).riders.append(rider)
    world.step(1)
    world.save(tmp_path / "good.json")
    data: dict[str, Any] = json.loads((tmp_path / "good.json").read_text(encoding="utf-8"))
    return data


def _rider(**fields: Any) -> Rider:
    """A Rider; a leap astride or jump off drawn without its skill gets one (the request names its skill)."""
    if fields["action"] in ("leap astride", "jump off") and fields["action_skill"] is None:
        fields["action_skill"] = "Acrobatics"
    return Rider(**fields)


def components_of(data: dict[str, Any], name: str) -> dict[str, Any]:
    """The fields of the first component called ``name`` in a save's data."""
    record = next(r for r in data["entities"] if name in r["components"])
    fields: dict[str, Any] = record["components"][name]
    return fields


def entity_with(data: dict[str, Any], name: str) -> int:
    entity: int = next(r["id"] for r in data["entities"] if name in r["components"])
    return entity


def renamed(data: dict[str, Any], old: str, new: str) -> None:
    record = next(r for r in data["entities"] if old in r["components"])
    record["components"] = {new if k == old else k: v for k, v in record["components"].items()}


Change = Callable[[dict[str, Any]], None]

BAD_DATA: list[tuple[str, Change, str]] = [
    ("newer format version", lambda d: d.update(version=VERSION + 1), rf"format version {VERSION + 1} by a newer"),
    ("format version zero", lambda d: d.update(version=0), r"version: expected a format version from 1"),
    ("not a save", lambda d: d.update(format="something else"), r"not an esper-motion save"),
    ("unknown top-level key", lambda d: d.update(cheat=True), r"unknown \['cheat'\]"),
    ("missing top-level key", lambda d: d.pop("dice"), r"missing \['dice'\]"),
    ("negative turn", lambda d: d.update(turn=-1), r"turn: expected a whole number, 0 or more, got -1"),
    ("next id not above every id", lambda d: d.update(next_entity=2), r"next_entity: must be above every entity id"),
    ("bad dice state", lambda d: d["dice"].update(script=[0]), r"dice: Dice.setstate.script = 0"),
    ("entities not a list", lambda d: d.update(entities={}), r"entities: expected a list of entities"),
    ("entity id twice", lambda d: d["entities"].append(d["entities"][0]), r"entity 1: this entity id appears twice"),
    ("entity id zero", lambda d: d["entities"][0].update(id=0), r"entities\[0\].id: expected an entity id"),
    (
        "unknown component name",
        lambda d: renamed(d, "Velocity", "os.system"),
        r"entity 1: os.system: unknown component name 'os.system'",
    ),
    (
        "field of the wrong type",
        lambda d: components_of(d, "Position").update(q="3"),
        r"entity 1: Position.q: expected a whole number, got '3'",
    ),
    (
        "true is not a whole number",
        lambda d: components_of(d, "Velocity").update(yps=True),
        r"entity 1: Velocity.yps: expected a whole number, got True",
    ),
    (
        "a value the component refuses",
        lambda d: components_of(d, "Velocity").update(yps=-1),
        r"entity 1: Velocity.yps: refused: Velocity.yps = -1: expected a whole number from 0 to 10000",
    ),
    (
        "missing field",
        lambda d: components_of(d, "Position").pop("r"),
        r"entity 1: Position.r: missing",
    ),
    (
        "unknown field",
        lambda d: components_of(d, "Position").update(z=0),
        r"entity 1: Position.z: unknown field \(fields: q, r, altitude_yd\)",
    ),
    (
        "enum value that is no member",
        lambda d: components_of(d, "gurps.Control").update(state="flying"),
        r"gurps.Control.state: expected one of 'normal', 'high speed', 'out of control', got 'flying'",
    ),
    (
        "hex of three numbers",
        lambda d: components_of(d, "gurps.Control").update(path=[[0, 0], [1, 0, 0]]),
        r"gurps.Control.path\[1\]: expected 2 items, got 3",
    ),
    (
        "nested field of the wrong type",
        lambda d: components_of(d, "test.Kit")["crate"].update(weight="heavy"),
        r"test.Kit.crate.weight: expected a finite number, got 'heavy'",
    ),
    (
        "nested value refused",
        lambda d: components_of(d, "test.Kit")["crate"].update(weight=-1),
        r"test.Kit.crate: refused: Crate.weight must be 0 or more",
    ),
    (
        "deep hex of the wrong type",
        lambda d: components_of(d, "test.Kit")["routes"]["north"][0].__setitem__(1, 1.5),
        r"test.Kit.routes\['north'\]\[0\]\[1\]: expected a whole number, got 1.5",
    ),
    (
        "link to a missing entity",
        lambda d: components_of(d, "test.Beacon").update(target=99),
        r"test.Beacon: links to entity 99, which is not in the save",
    ),
    (
        "rider pointing at a missing mount",
        lambda d: components_of(d, "gurps.Rider").update(mount=99),
        r"entity \d+: gurps.Rider: links to entity 99, which is not in the save",
    ),
    (
        "rule options refused",
        lambda d: d["rules"]["test.toy"]["options"].update(stride=0),
        r"rules.test.toy.options.stride: refused: ToyOptions.stride = 0",
    ),
    (
        "rule set no package registered",
        lambda d: d["rules"].update({"test.unheard-of": {"module": "tests.elsewhere", "options": {}}}),
        r"rule set 'test.unheard-of' is not registered .*: import tests.elsewhere",
    ),
]


@pytest.mark.parametrize(("change", "message"), [row[1:] for row in BAD_DATA], ids=[row[0] for row in BAD_DATA])
def test_bad_data_is_refused_naming_the_place_and_nothing_changes(tmp_path: Path, change: Change, message: str) -> None:
    data = good_save(tmp_path)
    change(data)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(SaveError, match=rf"^{re.escape(str(bad))}: .*{message}") as refused:
        World.load(bad)
    assert isinstance(refused.value, WorldError)

    world = toy_world(seed=99)
    world.step(1)
    before, events = saved_text(world, tmp_path / "before.json"), list(world.events)
    with pytest.raises(SaveError, match=message):
        world.restore(bad)
    assert saved_text(world, tmp_path / "after.json") == before
    assert world.events == events


def test_the_error_carries_file_entity_component_and_field(tmp_path: Path) -> None:
    data = good_save(tmp_path)
    components_of(data, "Velocity").update(heading=9)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(SaveError) as refused:
        World.load(bad)
    error = refused.value
    assert (error.file, error.entity, error.component, error.field) == (str(bad), 1, "Velocity", "heading")


BAD_TEXT: list[tuple[str, Callable[[str], str], str]] = [
    ("empty file", lambda text: "", r"not a complete JSON document"),
    ("truncated after one character", lambda text: text[:1], r"not a complete JSON document"),
    ("truncated in the middle", lambda text: text[: len(text) // 2], r"not a complete JSON document"),
    ("truncated before the last brace", lambda text: text.rstrip()[:-1], r"not a complete JSON document"),
    ("a list, not an object", lambda text: f"[{text}]", r"not an esper-motion save"),
    ("NaN", lambda text: text.replace('"turn":', '"turn":NaN,"x":', 1), r"NaN is not a number a save may hold"),
    (
        "a number too large for a float",
        lambda text: text.replace('"altitude_yd":0.0', '"altitude_yd":1e999', 1),
        r"Position.altitude_yd: expected a finite number, got inf",
    ),
    ("a key twice", lambda text: text.replace('"turn":', '"turn":0,"turn":', 1), r"the key 'turn' appears twice"),
    ("nested too deep", lambda text: "[" * 100_000 + "]" * 100_000, r"malformed"),
]


@pytest.mark.parametrize(("spoil", "message"), [row[1:] for row in BAD_TEXT], ids=[row[0] for row in BAD_TEXT])
def test_malformed_files_are_refused_and_nothing_changes(
    tmp_path: Path, spoil: Callable[[str], str], message: str
) -> None:
    good_save(tmp_path)
    bad = tmp_path / "bad.json"
    bad.write_text(spoil((tmp_path / "good.json").read_text(encoding="utf-8")), encoding="utf-8")
    with pytest.raises(SaveError, match=message):
        World.load(bad)
    world = toy_world(seed=99)
    before = saved_text(world, tmp_path / "before.json")
    with pytest.raises(SaveError, match=message):
        world.restore(bad)
    assert saved_text(world, tmp_path / "after.json") == before


def test_bytes_that_are_not_utf8_are_refused(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_bytes(b'{"format": "\xff"}')
    with pytest.raises(SaveError, match=r"bad.json: malformed: 'utf-8' codec can't decode"):
        World.load(bad)


def test_restore_refuses_a_save_with_other_rules(tmp_path: Path) -> None:
    toy_world().save(tmp_path / "game.json")
    world = World(seed=1)
    install_toy(world, ToyOptions(stride=3))
    world.spawn(Position(0, 0))
    before = saved_text(world, tmp_path / "before.json")
    with pytest.raises(SaveError, match=r"rules: the save has rule sets .*stride=2.*this world .*stride=3"):
        world.restore(tmp_path / "game.json")
    assert saved_text(world, tmp_path / "after.json") == before


# --- refusing to save what could not be loaded -----------------------------------------------------------


class SaveMidStep(System):
    phase = Phase.MOVEMENT

    def __init__(self, action: Callable[[World], None]) -> None:
        super().__init__()
        self.action = action

    def run(self) -> None:
        self.action(self.world)


@pytest.mark.parametrize("action", ["save", "restore"])
def test_save_and_restore_are_refused_during_a_step(tmp_path: Path, action: str) -> None:
    toy_world().save(tmp_path / "game.json")
    world = World()
    world.spawn(Position(0, 0))
    world.add_system(SaveMidStep(lambda w: getattr(w, action)(tmp_path / "game.json")))
    with pytest.raises(WorldError, match=rf"World.{action} cannot run during a step; call it between steps"):
        world.step()
    assert world.turn == 0


SAVE_REFUSALS: list[tuple[str, Callable[[World], None], str]] = [
    ("unregistered component", lambda w: w.spawn(Stray()), r"entity 1: .*Stray has no registered name"),
    (
        "field type a save cannot hold",
        lambda w: w.spawn(Bag({1})),
        r"entity 1: test.Bag: Bag.items: a field of type set\[int\] cannot be saved",
    ),
    (
        "field changed to the wrong type after construction",
        lambda w: setattr(w.get(w.spawn(Position(0, 0)), Position), "q", "x"),
        r"entity 1: Position.q: expected a whole number, got 'x'",
    ),
    (
        "list where a tuple is declared",
        lambda w: w.spawn(Kit(Crate("", 0), [1], {}, None)),  # type: ignore[arg-type]
        r"entity 1: test.Kit.marks: expected a tuple, got \[1\]",
    ),
    (
        # issue 15, finding 1: a value the constructor would refuse, set between steps, used to be written
        "field changed to a value its constructor refuses",
        lambda w: setattr(w.get(w.spawn(Facing(0)), Facing), "direction", 7),
        r"entity 1: Facing.direction: Facing.direction = 7: expected a whole number from 0 to 5 "
        r"\(loading would refuse it, so nothing was written\)",
    ),
    (
        # finding 2: a whole number longer than Python writes out (4,300 digits) in a field with no check of its own
        "whole number too long to write",
        lambda w: w.spawn(Beacon(target=10**5000)),
        r"entity 1: test.Beacon.target: expected a whole number at most 9,007,199,254,740,991 in size, "
        r"got a whole number of about 5000 digits",
    ),
    (
        "link to a missing entity",
        lambda w: w.spawn(Beacon(target=7)),
        r"entity 1: test.Beacon: links to entity 7, which does not exist: the save could not be loaded",
    ),
    (
        "rule set with no registered installer",
        lambda w: w.install_rules("test.unregistered", ToyOptions()),
        r"rules: rule set 'test.unregistered' is not registered .*: its package must call "
        r"esper_motion.ecs.register_rule_set",
    ),
]


@pytest.mark.parametrize(
    ("spoil", "message"), [row[1:] for row in SAVE_REFUSALS], ids=[row[0] for row in SAVE_REFUSALS]
)
def test_save_refuses_what_it_cannot_write_and_keeps_the_previous_save(
    tmp_path: Path, spoil: Callable[[World], None], message: str
) -> None:
    target = tmp_path / "game.json"
    target.write_text("the previous save", encoding="utf-8")
    world = World()
    spoil(world)
    with pytest.raises(SaveError, match=message):
        world.save(target)
    assert target.read_text(encoding="utf-8") == "the previous save"
    assert sorted(os.listdir(tmp_path)) == ["game.json"]


# --- atomic writes -------------------------------------------------------------------------------------


@pytest.mark.parametrize("failing", ["fsync", "replace"])
def test_a_crash_mid_save_keeps_the_previous_save(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, failing: str
) -> None:
    target = tmp_path / "game.json"
    world = toy_world()
    world.save(target)
    previous = target.read_bytes()
    world.step(3)

    def crash(*args: object) -> None:
        raise OSError("disk pulled out")

    monkeypatch.setattr(os, failing, crash)
    with pytest.raises(OSError, match="disk pulled out"):
        world.save(target)
    monkeypatch.undo()
    assert target.read_bytes() == previous
    assert sorted(os.listdir(tmp_path)) == ["game.json"]  # no temporary file left behind
    assert World.load(target).turn == 0


def test_saving_again_replaces_the_save_whole(tmp_path: Path) -> None:
    target = tmp_path / "game.json"
    world = toy_world()
    world.save(target)
    world.step(2)
    world.save(str(target))
    assert World.load(target).turn == 2
    assert sorted(os.listdir(tmp_path)) == ["game.json"]


def test_a_value_its_constructor_refuses_set_between_steps_is_refused_at_save_and_the_last_good_save_loads(
    tmp_path: Path,
) -> None:
    """The save is refused (and so is the next step), the previous save still loads."""
    target = tmp_path / "game.json"
    world = toy_world()
    world.save(target)
    runner = world.spawn(Position(0, 0), Velocity(1), Facing(0))
    world.get(runner, Facing).direction = 7
    with pytest.raises(RuleValueError, match=rf"entity {runner}: Facing.direction = 7"):
        world.step()
    with pytest.raises(SaveError, match=rf"entity {runner}: Facing.direction: Facing.direction = 7") as refused:
        world.save(target)
    found = refused.value
    assert (found.entity, found.component, found.field, found.value) == (runner, "Facing", "direction", 7)
    assert World.load(target).turn == 0


def test_a_whole_number_past_the_largest_is_refused_when_built() -> None:
    """Finding 2: the constructor refuses what a save could not write, naming the bound."""
    with pytest.raises(RuleValueError, match=r"Position.q = a whole number of about 5000 digits: expected a whole "
                       r"number at most 9,007,199,254,740,991 in size"):  # fmt: skip
        Position(10**5000, 0)
    with pytest.raises(RuleValueError, match=r"Position.r = -9007199254740992: expected a whole number at most 9,007"):
        Position(0, -LARGEST_WHOLE - 1)
    with pytest.raises(RuleValueError, match=r"Velocity.yps = a whole number of about 5000 digits: expected a whole "
                       r"number from 0 to 10000"):  # fmt: skip
        Velocity(10**5000)
    assert Position(LARGEST_WHOLE, -LARGEST_WHOLE).q == LARGEST_WHOLE


def test_a_whole_number_past_the_largest_in_a_file_is_refused_when_loaded(tmp_path: Path) -> None:
    data = good_save(tmp_path)
    entity = entity_with(data, "Position")
    components_of(data, "Position")["q"] = LARGEST_WHOLE + 1
    target = tmp_path / "bad.json"
    target.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(SaveError, match=rf"entity {entity}: Position.q: expected a whole number at most"):
        World.load(target)


@pytest.mark.parametrize("key", ["turn", "next_entity"])
def test_a_turn_or_next_id_past_the_largest_whole_number_is_refused_when_loaded(tmp_path: Path, key: str) -> None:
    data = good_save(tmp_path)
    data[key] = 10**4299  # 4,300 digits: the most Python reads from text
    target = tmp_path / "bad.json"
    target.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(SaveError, match=rf"bad.json: {key}: expected a whole number at most 9,007,199,254,740,991, "
                       r"got 1000+\.\.\. \(4300 characters in all\)$"):  # fmt: skip
        World.load(target)


def _load_in_a_thread(path: Path | str) -> BaseException | None:
    """What ``World.load(path)`` raised, run in a thread given ten seconds (a load that blocks fails the test)."""
    raised: list[BaseException | None] = []

    def load() -> None:
        try:
            World.load(path)
        except BaseException as error:
            raised.append(error)
        else:
            raised.append(None)

    thread = threading.Thread(target=load, daemon=True)
    thread.start()
    thread.join(timeout=10)
    assert not thread.is_alive(), f"World.load({str(path)!r}) still blocks after ten seconds"
    return raised[0]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes as POSIX has them")
def test_a_named_pipe_is_refused_at_once_as_no_regular_file(tmp_path: Path) -> None:
    pipe = tmp_path / "pipe.json"
    os.mkfifo(pipe)
    raised = _load_in_a_thread(pipe)
    assert isinstance(raised, SaveError)
    assert str(raised) == f"{pipe}: not a regular file; a save is one"


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="a device file as POSIX has it")
def test_an_endless_device_is_refused_as_no_regular_file() -> None:
    raised = _load_in_a_thread("/dev/zero")
    assert isinstance(raised, SaveError)
    assert str(raised) == "/dev/zero: not a regular file; a save is one"


def test_a_file_larger_than_a_save_may_be_is_refused_unread(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    good_save(tmp_path)
    size = (tmp_path / "good.json").stat().st_size
    monkeypatch.setattr(persist, "MAX_SAVE_BYTES", size - 1)
    with pytest.raises(SaveError, match=rf"good.json: larger than {size - 1:,} bytes, the most a save file may hold"):
        World.load(tmp_path / "good.json")
    monkeypatch.setattr(persist, "MAX_SAVE_BYTES", size)
    World.load(tmp_path / "good.json").close()


@pytest.mark.parametrize(
    "spoil",
    [
        lambda data, long: renamed(data, "Velocity", long),
        lambda data, long: components_of(data, "Position").update({long: 0}),
    ],
    ids=["component name", "field name"],
)
def test_a_very_long_component_or_field_name_is_cut_in_the_error(
    tmp_path: Path, spoil: Callable[[dict[str, Any], str], None]
) -> None:
    data = good_save(tmp_path)
    spoil(data, "x" * 1_000_000)
    target = tmp_path / "bad.json"
    target.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(SaveError, match=r"\(100000\d characters in all\)") as refused:
        World.load(target)
    assert "x" * 200 not in str(refused.value)


# --- where a save lands: links, permissions, leftovers (finding 5) ------------------------------------------


@pytest.mark.skipif(os.name != "posix", reason="symbolic links and permission bits as POSIX has them")
def test_saving_through_a_symbolic_link_replaces_its_target_and_keeps_the_link(tmp_path: Path) -> None:
    (tmp_path / "saves").mkdir()
    real = tmp_path / "saves" / "slot1.json"
    link = tmp_path / "current.json"
    world = toy_world()
    world.save(real)
    link.symlink_to(real)
    world.step(2)
    world.save(link)
    assert link.is_symlink()
    assert World.load(real).turn == 2
    assert sorted(os.listdir(tmp_path / "saves")) == ["slot1.json"]


@pytest.mark.skipif(os.name != "posix", reason="permission bits as POSIX has them")
def test_a_save_keeps_the_permission_bits_of_the_file_it_replaces(tmp_path: Path) -> None:
    target = tmp_path / "game.json"
    world = toy_world()
    world.save(target)
    target.chmod(0o640)
    world.step()
    world.save(target)
    assert target.stat().st_mode & 0o777 == 0o640


@pytest.mark.skipif(os.name != "posix", reason="permission bits as POSIX has them")
def test_a_new_save_gets_the_usual_permission_bits_under_the_umask(tmp_path: Path) -> None:
    previous = os.umask(0o022)
    try:
        toy_world().save(tmp_path / "game.json")
    finally:
        os.umask(previous)
    assert (tmp_path / "game.json").stat().st_mode & 0o777 == 0o644


def test_a_temporary_file_left_by_a_killed_save_is_removed_by_the_next_save(tmp_path: Path) -> None:
    """A process that dies between writing its temporary file and the rename (as kill -9 would) leaves the file;
    the next save to the same file removes it, and leaves other files alone."""
    target = tmp_path / "game.json"
    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")
    killed = (
        "import os, sys\n"
        "from esper_motion.ecs import persist\n"
        "os.replace = lambda *args: os._exit(9)\n"
        "persist._write_atomically(sys.argv[1], 'half a save')\n"
    )
    finished = subprocess.run([sys.executable, "-c", killed, str(target)], check=False)
    assert finished.returncode == 9
    assert len([name for name in os.listdir(tmp_path) if name.endswith(".tmp")]) == 1
    toy_world().save(target)
    assert sorted(os.listdir(tmp_path)) == ["game.json", "notes.txt"]


# --- a game's own systems (issue 15, finding 4) ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TollData:
    """What the toll system holds: how much it takes a turn, and what it has taken so far."""

    fee: int
    taken: list[int]

    def __post_init__(self) -> None:
        check_int("TollData", "fee", self.fee, low=1)


@register_system("test.Toll", TollData)
class Toll(System):
    """Runs before the toy's Drift in MOVEMENT, so its place among the systems matters: slows every mover by its
    fee, once, and keeps the turns it did."""

    phase = Phase.MOVEMENT

    def __init__(self, fee: int, taken: list[int] | None = None) -> None:
        super().__init__()
        self.fee = fee
        self.taken = taken if taken is not None else []

    def run(self) -> None:
        for _, (velocity,) in by_id(self.world.query(Velocity)):
            velocity.yps = max(0, velocity.yps - self.fee)
        self.taken.append(self.world.turn)

    def saved_data(self) -> TollData:
        return TollData(self.fee, list(self.taken))

    @classmethod
    def restored(cls, data: TollData) -> Toll:
        return cls(data.fee, list(data.taken))


def test_a_registered_system_is_saved_with_its_data_and_loaded_in_its_place(tmp_path: Path) -> None:
    world = World(seed=3)
    world.add_system(Toll(1))  # before the rule set: it runs before Drift
    install_toy(world, ToyOptions(stride=1))
    for q in range(4):
        world.spawn(Position(q, 0), Velocity(3))
    twin_events = world.step(2)
    world.save(tmp_path / "toll.json")
    data = json.loads((tmp_path / "toll.json").read_text(encoding="utf-8"))
    assert data["systems"] == [{"system": "test.Toll", "data": {"fee": 1, "taken": [0, 1]}}, {"rules": "test.toy"}]
    loaded = World.load(tmp_path / "toll.json")
    assert [type(system) for system in loaded.systems] == [Toll, Drift, Gamble]
    assert twin_events
    assert loaded.step(3) == world.step(3)
    assert next(s for s in loaded.systems if isinstance(s, Toll)).taken == [0, 1, 2, 3, 4]


def test_a_system_placed_before_a_rule_set_s_first_loads_in_its_place(tmp_path: Path) -> None:
    world = World(seed=3)
    install_toy(world, ToyOptions(stride=1))
    world.add_system(Toll(1), before=Drift)
    world.save(tmp_path / "toll.json")
    assert [type(system) for system in World.load(tmp_path / "toll.json").systems] == [Toll, Drift, Gamble]


def test_a_system_placed_between_two_of_a_rule_set_is_refused_by_a_save(tmp_path: Path) -> None:
    from esper_motion.systems import gurps
    from esper_motion.systems.gurps.highspeed.movement import PathWalker

    world = World(seed=3)
    gurps.install(world)
    world.add_system(Toll(1), after=PathWalker)  # a load would add it after AltitudeSystem
    with pytest.raises(
        SaveError, match=r"PathWalker, Toll, AltitudeSystem, .*, but a load would .*AltitudeSystem, Toll"
    ):
        world.save(tmp_path / "toll.json")
    assert not (tmp_path / "toll.json").exists()


def test_a_rule_set_installed_in_part_is_refused_by_a_save_that_would_install_it_whole(tmp_path: Path) -> None:
    from esper_motion.systems import gurps

    world = World(seed=3)
    gurps.install(world, without=("mounted",))
    with pytest.raises(SaveError, match=r"a save keeps a rule set as its whole install") as refused:
        world.save(tmp_path / "part.json")
    assert "MountOrderSystem" in str(refused.value)
    assert refused.value.field == "systems"


def test_a_version_1_save_with_no_systems_loads_its_rule_sets(tmp_path: Path) -> None:
    world = toy_world()
    world.save(tmp_path / "game.json")
    data = json.loads((tmp_path / "game.json").read_text(encoding="utf-8"))
    del data["systems"]
    data["version"] = 1
    (tmp_path / "old.json").write_text(json.dumps(data), encoding="utf-8")
    loaded = World.load(tmp_path / "old.json")
    assert [type(system) for system in loaded.systems] == [Drift, Gamble]
    assert loaded.step(2) == world.step(2)


@pytest.mark.parametrize(
    ("systems", "message"),
    [
        ([{"rules": "test.toy"}, {"system": "test.Nowhere", "data": {}}], r"systems\[1\]: system 'test.Nowhere' is not "
         r"registered .*: import the module that registers it before loading"),
        ([{"system": "test.Toll", "data": {"fee": 0, "taken": []}}, {"rules": "test.toy"}],
         r"systems.test.Toll.fee: refused: TollData.fee = 0: expected a whole number, 1 or more"),
        ([{"system": "test.Toll", "data": {"fee": 1}}, {"rules": "test.toy"}], r"systems.test.Toll.taken: missing"),
        ([], r"systems: the rule sets \['test.toy'\] of 'rules' are not placed among the systems"),
        ([{"rules": "test.toy"}, {"rules": "test.toy"}], r"systems\[1\]: expected each rule set of 'rules' once"),
    ],
    ids=["unknown system", "data its class refuses", "missing field", "rule set not placed", "rule set twice"],
)  # fmt: skip
def test_bad_systems_in_a_save_are_refused_naming_the_place(tmp_path: Path, systems: list[Any], message: str) -> None:
    toy_world().save(tmp_path / "game.json")
    data = json.loads((tmp_path / "game.json").read_text(encoding="utf-8"))
    data["systems"] = systems
    (tmp_path / "bad.json").write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(SaveError, match=message):
        World.load(tmp_path / "bad.json")


# --- the rule-set registry --------------------------------------------------------------------------------


def test_a_rule_set_name_belongs_to_one_install_function() -> None:
    def other_install(world: World, options: ToyOptions) -> None:
        raise AssertionError("never called")

    register_rule_set("test.toy", install_toy, ToyOptions)  # again, same function: allowed
    with pytest.raises(WorldError, match=r"rule set name 'test.toy' already belongs to .*install_toy"):
        register_rule_set("test.toy", other_install, ToyOptions)
    with pytest.raises(WorldError, match=r"options_type must be a dataclass"):
        register_rule_set("test.other", other_install, int)


def test_links_is_the_hook_a_component_implements() -> None:
    assert isinstance(Beacon(3), Linked)
    assert not isinstance(Position(0, 0), Linked)


# --- property: random worlds of the existing components round-trip ----------------------------------------
#
# Fields that hold entity ids draw them from ``ids``, the entities that will still exist, so a component
# whose links() the save checks never points at a missing entity.

whole = st.integers(-LARGEST_WHOLE, LARGEST_WHOLE)  # what check_int accepts at most (a save holds it exactly)
natural = st.integers(0, LARGEST_WHOLE)
positive = st.integers(1, LARGEST_WHOLE)
length = st.floats(min_value=0, allow_nan=False, allow_infinity=False) | natural
speed = st.integers(0, MAX_MOVE)  # Moves and top speeds at most MAX_MOVE; velocities may go to MAX_SPEED_YPS
height = st.floats(min_value=0, max_value=MAX_ALTITUDE_YD) | st.integers(0, MAX_ALTITUDE_YD)
climb = st.integers(-MAX_ALTITUDE_YD, MAX_ALTITUDE_YD)
finite = st.floats(allow_nan=False, allow_infinity=False)
facing = st.integers(0, 5)
hexes = st.tuples(whole, whole)
text = st.text(max_size=8)


def maybe(strategy: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.none() | strategy


@st.composite
def movers(draw: st.DrawFn) -> Mover:
    water_move = draw(maybe(speed))
    top_speed = draw(maybe(speed))
    return Mover(
        basic_move=draw(speed),
        dx=draw(positive),
        ht=draw(positive),
        hp=draw(positive),
        st=draw(positive),
        basic_speed=draw(length),
        encumbrance=draw(st.integers(0, 4)),
        top_speed=top_speed,
        enhanced=top_speed is not None and draw(st.booleans()),
        wheels=draw(natural),
        legs=draw(st.booleans()),
        handling=draw(maybe(whole)),
        operator_skill=draw(maybe(natural)),
        size_modifier=draw(st.integers(-30, 30)),
        water_move=water_move,
        swimming=water_move is not None and draw(st.booleans()),
    )


@st.composite
def intents(draw: st.DrawFn) -> Intent:
    maneuver = draw(st.sampled_from(Maneuver))
    return Intent(
        maneuver=maneuver,
        throttle=draw(st.integers(-MAX_SPEED_YPS, MAX_SPEED_YPS)),
        turn=draw(st.integers(-2, 2)),
        turn_at_yd=draw(maybe(speed)),
        push=draw(st.booleans()),
        veer=tuple(draw(st.lists(st.integers(-1, 1), max_size=4))),
        slam=maneuver is Maneuver.ALL_OUT_ATTACK and draw(st.booleans()),
    )


@st.composite
def legs(draw: st.DrawFn) -> tuple[tuple[int, int], ...]:
    """Climbs and dives in order along a path: increasing starts, none of 0 yards."""
    starts = sorted(draw(st.sets(speed, max_size=3)))
    return tuple((at, draw(st.integers(-MAX_ALTITUDE_YD // 3, MAX_ALTITUDE_YD // 3).filter(bool))) for at in starts)


@st.composite
def controls(draw: st.DrawFn, ids: st.SearchStrategy[int]) -> Control:
    state = draw(st.sampled_from(MoveState))
    return Control(
        state=state,
        straight_yd=draw(natural),
        moved_yd=draw(natural),
        extra_cost=draw(natural),
        path=draw(st.lists(hexes, max_size=4)),
        loss_cause=draw(st.sampled_from(LossCause)) if state is MoveState.OUT_OF_CONTROL else None,
        carried_by=None,  # links that must agree both ways are written by seat_riders()
        turned_hexsides=draw(natural),
        turn_yd=draw(maybe(natural)),
        lost_at_yd=draw(maybe(natural)),
        struck=draw(maybe(ids)),
        halted=draw(st.booleans()),
        straight_before_yd=draw(natural),
    )


@st.composite
def flights(draw: st.DrawFn) -> Flight:
    wings = draw(st.booleans())
    flown = draw(legs().filter(lambda flown: abs(sum(climb for _, climb in flown)) <= MAX_ALTITUDE_YD))  # a climbed_yd
    return Flight(
        air_move=draw(speed),
        climbed_yd=sum(climb for _, climb in flown) if flown else draw(climb),
        flown_legs=flown,
        previous_climb_yd=draw(climb),
        top_airspeed=draw(maybe(speed)),
        mode=draw(st.sampled_from(FlightMode)),
        wings=wings,
        lying_flat=draw(st.booleans()),
        stalled=draw(st.booleans()),
        fall_seconds=draw(natural),
        fall_yd=draw(height),
        breathing=draw(st.sampled_from(("normal", "trouble", "needs_mask"))),
        dive_bonus_yps=draw(speed),
        dive_bonus_turns=draw(natural),
        wiped_out=draw(st.booleans()),
        wingspan_yd=draw(natural) if wings else 0,
        crippled_wing=draw(st.booleans()) if wings else False,
    )


@st.composite
def flight_intents(draw: st.DrawFn) -> FlightIntent:
    if draw(st.booleans()):
        return FlightIntent(legs=draw(legs()))
    climb_yd = draw(climb)
    return FlightIntent(climb_yd=climb_yd, dive=climb_yd < 0 and draw(st.booleans()))


@st.composite
def atmospheres(draw: st.DrawFn) -> Atmosphere:
    category = draw(st.sampled_from(ATMOSPHERE_CATEGORIES))
    pressure = 0.0 if category == "vacuum" else draw(st.floats(min_value=0.01, max_value=1e6))
    return Atmosphere(category, pressure, draw(finite))


@st.composite
def mounts(draw: st.DrawFn, ids: st.SearchStrategy[int]) -> Mount:
    seats = draw(st.integers(1, 4))
    return Mount(
        riders=[],
        training=draw(st.sampled_from(MOUNT_TRAININGS)),
        hexes=draw(st.integers(2, 3)),
        saddle=draw(st.booleans()),
        stirrups=draw(st.booleans()),
        war_saddle=draw(st.booleans()),
        iron_horseshoes=draw(st.booleans()),
        open_vehicle=draw(st.booleans()),
        seats=seats,
        fall_yd=draw(positive),
        defenses=tuple(draw(st.lists(st.sampled_from(MOUNT_DEFENSES), min_size=1, max_size=3))),
        spooked_from=draw(maybe(natural)),
        spook_successes=draw(st.integers(0, 2)),
        spook_failures=draw(st.integers(0, 2)),
        threat=draw(maybe(ids)),
        fractious=draw(st.integers(-LARGEST_WHOLE, 0)),
        saddle_loose=draw(st.booleans()),
        tightening_left=draw(natural),
        exhausted=draw(st.booleans()),
        charging=draw(maybe(st.sampled_from(CHARGES))),
        broken_leg=draw(st.booleans()),
        loose=draw(st.booleans()),
        call_back_by=draw(maybe(ids)),
        call_back_in=draw(natural),
        out_of_control=draw(st.booleans()),
        attacked_turn=draw(maybe(natural)),
        dx_rolls=draw(st.lists(st.booleans(), max_size=3)),
        feat=draw(maybe(st.sampled_from(RISKY_FEATS))),
        attack=draw(maybe(st.sampled_from(MOUNT_ATTACKS))),
        hits=draw(st.lists(natural, max_size=3)),
        crippled=draw(st.booleans()),
        charge_foe=draw(maybe(ids)),
    )


@st.composite
def attacks(draw: st.DrawFn, ids: st.SearchStrategy[int]) -> Attack:
    ranged = draw(st.booleans())
    lance = None if ranged else draw(maybe(st.sampled_from(LANCES)))
    return Attack(
        target=draw(maybe(ids)),
        weapon="ranged" if ranged else "melee",
        skill=draw(natural),
        skill_name=draw(st.text(min_size=1, max_size=8)),
        damage_dice=draw(natural),
        damage_adds=draw(st.integers(-3, 3)),
        damage_type=draw(st.sampled_from(DAMAGE_TYPES)),
        reach_yd=draw(positive),
        bulk=draw(st.integers(-6, 0)),
        accuracy=draw(natural),
        noisy=draw(st.booleans()) if ranged else False,
        lance=lance,
        aim_turns=draw(natural) if ranged else 0,
        trick=draw(maybe(st.sampled_from(RANGED_TRICKS))) if ranged else None,
        location=draw(maybe(st.sampled_from(HIT_LOCATIONS))),
        strike_at_yd=draw(maybe(positive)),
        spell=draw(st.booleans()),
        natural=None if ranged or lance is not None else draw(maybe(st.sampled_from(MOUNT_ATTACKS))),
    )


@st.composite
def round_intents(draw: st.DrawFn, ids: st.SearchStrategy[int]) -> RoundIntent:
    kind = draw(st.sampled_from(("stays", "flees", "chases")))
    return RoundIntent(
        mode=draw(maybe(st.sampled_from(SpeedMode))),
        heading=draw(facing) if kind == "flees" else draw(maybe(facing)) if kind == "stays" else None,
        flee_from=tuple(draw(st.lists(ids, min_size=1, max_size=3, unique=True))) if kind == "flees" else (),
        allies=draw(natural),
        chase=draw(ids) if kind == "chases" else None,
        match_speed=draw(st.booleans()),
        pursuit_dice=draw(maybe(st.sampled_from(("1d2", "2d6", "d3+1")))),
        pursuit_label=draw(text),
        pursuit_skill=draw(maybe(st.text(min_size=1, max_size=8))),
        shots=draw(natural),
        weapon=draw(st.sampled_from(RangedWeapon)),
        reloads_itself=draw(st.booleans()),
    )


@st.composite
def vegetation_zones(draw: st.DrawFn) -> VegetationZone:
    radius = draw(maybe(natural))
    zone_hexes = draw(st.lists(hexes, min_size=0 if radius is not None else 1, max_size=3))
    return VegetationZone(draw(st.sampled_from(Vegetation)), radius_hex=radius, hexes=tuple(zone_hexes))


def strategies(ids: st.SearchStrategy[int]) -> dict[type[Any], st.SearchStrategy[Any]]:
    """A strategy for every component class, entity ids drawn from ``ids``."""
    return {
        Position: st.builds(Position, q=whole, r=whole, altitude_yd=height),
        Facing: st.builds(Facing, direction=facing),
        Velocity: st.builds(Velocity, yps=st.integers(0, MAX_SPEED_YPS), heading=facing),
        Mover: movers(),
        Intent: intents(),
        Control: controls(ids),
        Posture: st.builds(
            Posture,
            state=st.sampled_from(PostureState),
            target=maybe(st.sampled_from(PostureState)),
            seconds_left=natural,
        ),
        Condition: st.builds(
            Condition, injury=natural, stunned=st.booleans(), conscious=st.booleans(), shock=st.integers(-4, 0)
        ),
        Skills: st.builds(Skills, levels=st.dictionaries(text, natural, max_size=3)),
        Footing: st.builds(Footing, extra_cost=natural, name=text),
        Obstacle: st.builds(Obstacle, hp=positive, hard=st.booleans(), height_yd=height),
        Flight: flights(),
        FlightIntent: flight_intents(),
        AirSupply: st.builds(AirSupply, oxygen_mask=st.booleans(), doesnt_breathe=st.booleans()),
        Atmosphere: atmospheres(),
        Rider: st.builds(
            _rider,
            mount=st.none(),
            hands_on_reins=st.integers(0, 2),
            strapped_in=st.booleans(),
            cavalry_training=st.booleans(),
            ready_turn=maybe(natural),
            climbing_onto=maybe(ids),
            action=maybe(st.sampled_from(RIDER_ACTIONS)),
            action_target=maybe(ids),
            action_skill=maybe(st.sampled_from(MOUNTING_SKILLS)),
            stunned_now=st.booleans(),
            knockback_yd=natural,
            noisy_shots=natural,
            trick=maybe(st.sampled_from(RANGED_TRICKS)),
        ),
        Mount: mounts(ids),
        Attack: attacks(ids),
        Defenses: st.builds(
            Defenses,
            dodge=natural,
            parry=maybe(natural),
            block=maybe(natural),
            retreat=st.booleans(),
            acrobatic=st.booleans(),
            dr=natural,
        ),
        Nerve: st.builds(
            Nerve, will=natural, combat_reflexes=st.booleans(), unused_to_cavalry=st.booleans(), panicked=st.booleans()
        ),
        Mobility: st.builds(
            Mobility,
            tmr=speed,
            dex=positive,
            attacks=natural,
            encumbrance=st.integers(0, 2),
            skills=st.dictionaries(st.text(min_size=1, max_size=8), positive, max_size=3),
            master_reduction=natural,
            large=st.booleans(),
            centaur=st.booleans(),
        ),
        RoundIntent: round_intents(ids),
        RoundState: st.builds(
            RoundState,
            mode=maybe(st.sampled_from(SpeedMode)),
            vegetation=maybe(st.sampled_from(Vegetation)),
            squares=length,
            moved_hex=natural,
            carry_hex=st.floats(min_value=0, max_value=1, exclude_max=True),
            seconds_lost=natural,
            seconds_owed=natural,
            fallen=st.booleans(),
            nonlethal_taken=natural,
            nonlethal_total=natural,
            fled_from=st.lists(ids, unique=True, max_size=3).map(tuple),
        ),
        VegetationZone: vegetation_zones(),
        # goals naming an entity name none here: one that exists is checked when set (tests/gurps/planner)
        GoTo: st.builds(GoTo, hex=hexes, stop=st.booleans()),
        Pursue: st.builds(Pursue, target=st.none(), range_yd=st.integers(0, MAX_RANGE_YD), ram=st.booleans()),
        Flee: st.builds(Flee, source=st.none(), range_yd=st.integers(1, MAX_RANGE_YD)),
        KeepStation: st.builds(KeepStation, target=st.none(), range_yd=st.integers(1, MAX_RANGE_YD)),
        Charge: st.builds(Charge, target=st.none(), run_yd=st.integers(2, MAX_RANGE_YD), wheeling=st.booleans()),
        Patrol: st.lists(hexes, min_size=1, max_size=3).flatmap(
            lambda points: st.builds(
                Patrol, waypoints=st.just(tuple(points)), next_index=st.integers(0, len(points) - 1)
            )
        ),
        Hold: st.builds(Hold),
        Climb: st.builds(Climb, altitude_yd=st.integers(1, MAX_ALTITUDE_YD), hex=st.none() | hexes),
        Land: st.builds(Land, hex=st.none() | hexes),
        Swoop: st.builds(
            Swoop,
            target=st.none(),
            height_yd=st.integers(1, MAX_ALTITUDE_YD),
            run_yd=st.integers(2, MAX_RANGE_YD),
            wheeling=st.booleans(),
        ),
        Hunt: st.builds(Hunt, range_yd=st.integers(0, MAX_RANGE_YD)),
        Caution: st.builds(Caution, failure_chance=st.floats(0, 1)),
        KeptPlan: kept_plans(),
    }


@st.composite
def kept_plans(draw: st.DrawFn) -> KeptPlan:
    """A kept plan of 0 to 3 turns (its states one more, none without turns)."""
    count = draw(st.integers(0, 3))
    states = count + 1 if count else 0

    def each(strategy: st.SearchStrategy[Any], length: int) -> tuple[Any, ...]:
        return tuple(draw(st.lists(strategy, min_size=length, max_size=length)))

    facing = st.integers(0, 5)
    return KeptPlan(
        throttles=each(st.integers(-6, 6), count),
        turns=each(st.integers(-2, 2), count),
        at_once=each(st.booleans(), count),
        pushes=each(st.booleans(), count),
        veers=each(st.integers(-1, 1), count),
        meets=each(st.booleans(), count),
        hexes=each(hexes, states),
        facings=each(facing, states),
        headings=each(facing, states),
        velocities=each(st.integers(0, 12), states),
        straight_yd=each(st.integers(0, 12), states),
        high_speed=each(st.booleans(), states),
        reaches=draw(st.booleans()),
        goal=draw(st.text(max_size=12)),
        caution=draw(st.floats(0, 1)),
        target_hex=draw(maybe(hexes)),
        target_yps=draw(st.integers(0, 12)),
        target_heading=draw(facing),
        followed=draw(st.integers(0, 4)),
    )


def registered_component_classes() -> set[type[Any]]:
    """Every class the modules of the ``components`` package register under a stable name."""
    found: set[type[Any]] = set()
    for module_info in pkgutil.iter_modules(esper_motion.components.__path__, "esper_motion.components."):
        module = importlib.import_module(module_info.name)
        for value in vars(module).values():
            if isinstance(value, type) and value.__module__ == module.__name__:
                try:
                    name_of(value)
                except WorldError:
                    continue
                found.add(value)
    return found


@pytest.mark.parametrize("cls", sorted(registered_component_classes(), key=name_of), ids=name_of)
def test_every_component_class_can_be_saved(cls: type[Any]) -> None:
    check_savable(cls)


def test_the_property_test_draws_every_component_class() -> None:
    missing = sorted(name_of(cls) for cls in registered_component_classes() - set(strategies(st.just(1))))
    assert missing == [], f"add strategies for {missing} to strategies() in tests/test_persistence.py"


def test_a_class_with_a_field_a_save_cannot_hold_is_named() -> None:
    with pytest.raises(TypeError, match=r"Bag.items: a field of type set\[int\] cannot be saved"):
        check_savable(Bag)


@st.composite
def worlds(draw: st.DrawFn) -> World:
    """A world of up to 8 entities with random components, some despawned, with used and scripted dice."""
    world = World(seed=draw(st.integers(0, 2**64)))
    for _ in range(draw(st.integers(0, 3))):
        world.dice.roll("3d6")
    world.dice.script(*draw(st.lists(st.integers(1, 6), max_size=4)))
    world.turn = draw(natural)
    keep = draw(st.lists(st.booleans(), max_size=8))
    kept = [entity for entity, kept in enumerate(keep, start=1) if kept]
    ids = st.sampled_from(kept) if kept else st.just(1)  # with none kept, every entity is despawned unsaved
    choices = strategies(ids)
    for kept_entity in keep:
        kinds = draw(st.lists(st.sampled_from(list(choices)), unique=True, max_size=6))
        goal = [kind for kind in kinds if kind in ALL_GOAL_TYPES and played(kind, kinds)][:1]  # one goal at a time
        kinds = [kind for kind in kinds if kind not in ALL_GOAL_TYPES or kind in goal]
        entity = world.spawn(*(draw(choices[kind]) for kind in kinds))
        if not kept_entity:
            world.despawn(entity)
    seat_riders(draw, world, kept)
    return world


def played(goal: type[Any], kinds: list[type[Any]]) -> bool:
    """Whether an entity of component ``kinds`` may hold ``goal``: its rule set's planner plays it (``PLAYED``)."""
    return all(goal in plays for _, _, marks, plays in PLAYED if all(mark in kinds for mark in marks))


def seat_riders(draw: st.DrawFn, world: World, kept: list[int]) -> None:
    """Write the links that must agree both ways (``esper_motion.ecs.links``), as the rules would: riders seated on
    mounts with a free seat, in no loop, each listed by its mount and carried by it; other entities carried by any
    other entity, or by none."""
    for entity in kept:
        rider = world.try_get(entity, Rider)
        control = world.try_get(entity, Control)
        if rider is None:
            if control is not None:
                others = [other for other in kept if other != entity]
                control.carried_by = draw(maybe(st.sampled_from(others))) if others else None
            continue
        free = [
            m for m, (mount,) in world.query(Mount) if len(mount.riders) < mount.seats and not loops(world, entity, m)
        ]
        chosen = draw(maybe(st.sampled_from(free))) if free else None
        if chosen is not None:
            rider.mount = chosen
            world.get(chosen, Mount).riders.append(entity)
        if control is not None:
            control.carried_by = chosen


def loops(world: World, rider: int, mount: int) -> bool:
    """Whether seating ``rider`` on ``mount`` would close a riding chain (the mount is, or rides, the rider)."""
    current: int | None = mount
    while current is not None:
        if current == rider:
            return True
        below = world.try_get(current, Rider)
        current = below.mount if below is not None else None
    return False


@settings(deadline=None, max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(world=worlds())
def test_random_worlds_save_and_load_component_by_component(tmp_path: Path, world: World) -> None:
    world.save(tmp_path / "random.json")
    loaded = World.load(tmp_path / "random.json")
    assert loaded.entities() == world.entities()
    for entity in world.entities():
        assert loaded.components(entity) == world.components(entity)
        assert repr(loaded.components(entity)) == repr(world.components(entity))
    assert loaded.turn == world.turn
    assert loaded.dice.getstate() == world.dice.getstate()
    assert loaded.spawn() == world.spawn()

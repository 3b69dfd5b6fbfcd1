"""Registering a game's component classes: a name belongs to one class, what is registered can be saved and
rolled back, and what a game's class or value raises reaches the game as the library's own errors."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from support import gurps_world
from support.highspeed import mover
from support.worlds import fingerprint

from esper_motion.components import Control, Intent, Position
from esper_motion.ecs import SaveError, World, WorldError, added_fields, register
from esper_motion.ecs.registry import type_named


def test_a_game_class_under_a_name_the_library_uses_is_refused_naming_both() -> None:
    @dataclass(slots=True)
    class Position:  # the game's own, same class name as the library's
        x: int = 0

    with pytest.raises(WorldError) as caught:
        register("Position")(Position)
    message = str(caught.value)
    assert "'Position'" in message
    assert "esper_motion.components" in message and f"{__name__}." in message
    assert type_named("Position") is not Position


def test_the_same_class_registered_again_under_its_name_is_allowed() -> None:
    assert register("Position")(Position) is Position
    assert type_named("Position") is Position


def test_a_class_that_is_not_a_dataclass_is_refused_at_register() -> None:
    class Slotted:  # fields in __slots__: no dataclass fields to save, check or put back
        __slots__ = ("charge",)

        def __init__(self, charge: int) -> None:
            self.charge = charge

    with pytest.raises(WorldError, match=r"test_registry\..*Slotted is not a dataclass.*@dataclass"):
        register("test.Slotted")(Slotted)
    with pytest.raises(WorldError, match=r"unknown component name 'test\.Slotted'"):
        type_named("test.Slotted")


@register("test.Battery")
@dataclass(slots=True)
class Battery:
    """A game's component whose own checks raise plain errors."""

    charge: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.charge, int):
            raise TypeError(f"charge must be a whole number, not {self.charge!r}")
        if self.charge < 0:
            raise ValueError("a battery cannot hold less than nothing")


class Unequal:
    """A value whose comparisons and hash raise."""

    def __eq__(self, other: object) -> bool:
        raise RuntimeError("no comparing this")

    def __hash__(self) -> int:
        raise RuntimeError("no hashing this")


@pytest.mark.parametrize("value", [-1, "full"])
def test_a_game_components_own_plain_errors_are_refused_by_name_with_the_world_as_it_was(value: object) -> None:
    world = gurps_world()
    runner = mover(world, velocity=3, extra=(Battery(5),))
    world.get(runner, Battery).charge = value  # type: ignore[assignment]
    before = fingerprint(world)
    with pytest.raises(WorldError, match=rf"entity {runner}: Battery: refused by its own checks: (Value|Type)Error"):
        world.step()
    assert fingerprint(world) == before


@pytest.mark.parametrize(("kind", "name"), [(Control, "state"), (Intent, "maneuver")])
def test_a_value_whose_comparison_raises_is_refused_by_step_and_save(tmp_path: Path, kind: type, name: str) -> None:
    world = gurps_world()
    runner = mover(world, velocity=3)
    path = tmp_path / "game.json"
    world.save(path)
    good = path.read_bytes()
    setattr(world.get(runner, kind), name, Unequal())
    before = fingerprint(world)
    with pytest.raises(WorldError, match=rf"entity {runner}: {kind.__name__}: refused by its own checks: RuntimeError"):
        world.step()
    assert fingerprint(world) == before
    with pytest.raises(SaveError, match=rf"entity {runner}: gurps.{kind.__name__}: refused: RuntimeError"):
        world.save(path)
    assert path.read_bytes() == good


# --- fields new in a save-format version -------------------------------------------------------------------------


@register("test.Lantern", new_fields={3: ("lit",)})
@dataclass(slots=True)
class Lantern:
    """A game's component whose ``lit`` came with save-format version 3."""

    oil: int = 5
    lit: bool = False


def test_a_game_component_says_where_it_is_registered_which_fields_are_new(tmp_path: Path) -> None:
    """A version 2 save from before ``Lantern.lit`` lacks it: it loads with its default. A version 3 save lacking it
    is refused by name, as is an old save lacking a field that is not new."""
    assert added_fields("test.Lantern") == {"lit": 3}
    world = World(seed=1)
    lamp = world.spawn(Lantern(oil=2, lit=True))
    world.save(tmp_path / "new.json")
    data = json.loads((tmp_path / "new.json").read_text(encoding="utf-8"))
    (record,) = [record for record in data["entities"] if record["id"] == lamp]
    del record["components"]["test.Lantern"]["lit"]
    (tmp_path / "lacking.json").write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(SaveError, match=r"test\.Lantern\.lit: missing"):
        World.load(tmp_path / "lacking.json")
    data["version"] = 2
    (tmp_path / "old.json").write_text(json.dumps(data), encoding="utf-8")
    assert World.load(tmp_path / "old.json").get(lamp, Lantern) == Lantern(oil=2, lit=False)
    del record["components"]["test.Lantern"]["oil"]
    (tmp_path / "older.json").write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(SaveError, match=r"test\.Lantern\.oil: missing"):
        World.load(tmp_path / "older.json")


@pytest.mark.parametrize(
    ("new_fields", "message"),
    [
        ({3: ("wick",)}, r"test\.Candle: new_fields\[3\]: 'wick' is no field of Candle \(fields: oil, lit\)"),
        ({1: ("lit",)}, r"test\.Candle: new_fields: a key is the save-format version .* 2 or more, not 1"),
        ({True: ("lit",)}, r"a whole number of 2 or more, not True"),
        ({3: "lit"}, r"test\.Candle: new_fields\[3\]: a collection of field names, not the text 'lit'"),
    ],
    ids=["no such field", "version 1", "a bool for a version", "a string for the names"],
)
def test_new_fields_a_class_does_not_have_or_a_bad_version_are_refused(new_fields: Any, message: str) -> None:
    @dataclass(slots=True)
    class Candle:
        oil: int = 5
        lit: bool = False

    with pytest.raises(WorldError, match=message):
        register("test.Candle", new_fields=new_fields)(Candle)
    with pytest.raises(WorldError, match=r"unknown component name 'test\.Candle'"):
        type_named("test.Candle")


def test_a_rule_set_says_which_options_are_new() -> None:
    """The GURPS options new in save-format version 3, as the rule set registered them."""
    assert added_fields("rules.gurps") == {
        "lance_speed_bonus": 3,
        "house_height_riders": 3,
        "house_height_fliers": 3,
        "house_out_of_control_skills": 3,
        "house_bareback_sitting": 3,
        "house_top_speed_encumbered": 3,
    }

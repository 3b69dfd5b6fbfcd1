"""Registering a game's component classes: a name belongs to one class, what is registered can be saved and
rolled back, and what a game's class or value raises reaches the game as the library's own errors."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
from support import gurps_world
from support.highspeed import mover
from support.worlds import fingerprint

from esper_motion.components import Control, Intent, Position
from esper_motion.ecs import SaveError, WorldError, register
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

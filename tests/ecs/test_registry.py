"""Registering a game's component classes: a name belongs to one class, and what is registered can be saved and
rolled back."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from esper_motion.components import Position
from esper_motion.ecs import WorldError, register
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

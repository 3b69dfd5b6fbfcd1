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

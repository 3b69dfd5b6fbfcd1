"""The mistakes a newcomer makes first get errors that say what was expected: arguments swapped, a maneuver
written in lower case or misspelt, a rider on an entity that does not exist, a game's own ``Position``."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from esper_motion.components import Control, Facing, Intent, Maneuver, Mover, Position, Rider, Velocity
from esper_motion.ecs import LinkError, RuleValueError, World, WorldError
from esper_motion.systems import gurps


def _runner(world: World, *components: object) -> int:
    return world.spawn(Facing(0), Velocity(0), Mover(basic_move=5, dx=12), Control(), Intent(), *components)


@pytest.mark.parametrize(
    ("given", "wanted"),
    [
        ("move", Maneuver.MOVE),
        ("MOVE", Maneuver.MOVE),
        ("all-out attack", Maneuver.ALL_OUT_ATTACK),
        ("ALL_OUT_ATTACK", Maneuver.ALL_OUT_ATTACK),
        ("Move And Attack", Maneuver.MOVE_AND_ATTACK),
    ],
)
def test_a_maneuver_is_named_by_its_name_or_value_in_any_case(given: str, wanted: Maneuver) -> None:
    assert Intent(maneuver=given).maneuver is wanted


def test_a_misspelt_maneuver_names_the_values_and_the_closest() -> None:
    with pytest.raises(RuleValueError, match=r"expected one of 'Aim', .* 'Wait' \(the closest is 'Move'\)$") as raised:
        Intent(maneuver="mvoe")
    assert "<Maneuver" not in str(raised.value)


def test_swapped_get_arguments_are_a_type_error() -> None:
    world = World()
    try:
        entity = world.spawn(Position(0, 0))
        for lookup in (world.get, world.try_get):
            with pytest.raises(
                TypeError, match=r"takes an entity id and a component class: got <class .*Position'> and 1"
            ):
                lookup(Position, entity)  # type: ignore[arg-type]
        assert world.try_get(99, Position) is None
    finally:
        world.close()


def test_swapped_install_arguments_are_a_type_error() -> None:
    world = World()
    try:
        with pytest.raises(
            TypeError, match=r"install\(world, rules\) takes a World and a Rules: got a Rules and a World"
        ):
            gurps.install(gurps.Rules.basic(), world)  # type: ignore[arg-type]
    finally:
        world.close()


def test_a_rider_on_an_entity_that_does_not_exist_says_so() -> None:
    world = World()
    try:
        gurps.install(world)
        with pytest.raises(LinkError, match=r"Rider.mount is 99, an entity that does not exist"):
            _runner(world, Position(0, 0), Rider(mount=99))
    finally:
        world.close()


@dataclass(slots=True)
class GamePosition:
    x: float


GamePosition.__name__ = GamePosition.__qualname__ = "Position"


def test_missing_position_beside_a_games_own_position_names_the_rule_sets_class() -> None:
    world = World()
    try:
        gurps.install(world)
        _runner(world, GamePosition(0.0))
        with pytest.raises(WorldError, match=r"is missing esper_motion\.components\.Position \(its Position is "):
            world.step()
    finally:
        world.close()

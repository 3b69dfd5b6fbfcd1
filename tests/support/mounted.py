"""Builders and dice scripts for the Mounted Combat tests: a GURPS world, a horse, a rider, a seated pair."""

from __future__ import annotations

from typing import Any

from esper_motion.components import (
    Condition,
    Control,
    Facing,
    Intent,
    Maneuver,
    Mover,
    MoveState,
    Position,
    Posture,
    Skills,
)
from esper_motion.components.motion import Velocity
from esper_motion.components.mount import Mount, Rider
from esper_motion.ecs import Event, RollMade, World
from esper_motion.systems.gurps.mounted.common import seat
from esper_motion.systems.gurps.mounted.mounted_results import (
    fire_noisy_shot,
)
from support import of_type


def faces(total: int) -> tuple[int, int, int]:
    """Three d6 faces that add up to ``total`` (3 to 18), for scripting a success roll."""
    assert 3 <= total <= 18
    first = min(6, total - 2)
    second = min(6, total - first - 1)
    return first, second, total - first - second


def script(world: World, *totals: int) -> None:
    """Queue one 3d6 success roll per total."""
    for total in totals:
        world.dice.script(*faces(total))


def spawn_horse(
    world: World,
    at: tuple[int, int] = (0, 0),
    facing: int = 0,
    *,
    velocity: int = 0,
    dx: int = 10,
    st: int = 25,
    size_modifier: int = 1,
    basic_move: int = 8,
    state: MoveState = MoveState.NORMAL,
    **mount: Any,
) -> int:
    """A horse: 3 hexes, war-trained, saddle and stirrups unless told otherwise."""
    return world.spawn(
        Position(*at),
        Facing(facing),
        Velocity(velocity, heading=facing),
        Mover(
            basic_move=basic_move,
            dx=dx,
            st=st,
            hp=st,
            basic_speed=5.0,
            size_modifier=size_modifier,
            enhanced=True,
            top_speed=16,
        ),
        Control(state=state),
        Intent(),
        Posture(),
        Condition(),
        Mount(**mount),
    )


def spawn_rider(
    world: World,
    at: tuple[int, int] = (0, 1),
    *,
    riding: int = 12,
    skills: dict[str, int] | None = None,
    st: int = 11,
    dx: int = 12,
    speed: float = 6.0,
    size_modifier: int = 0,
    encumbrance: int = 0,
    **rider: Any,
) -> int:
    """A rider on foot next to the horse: Riding 12, Jumping 11, Acrobatics 10, Animal Handling 12."""
    levels = {"Riding": riding, "Jumping": 11, "Acrobatics": 10, "Animal Handling": 12}
    levels.update(skills or {})
    return world.spawn(
        Position(*at),
        Facing(0),
        Velocity(0),
        Mover(
            basic_move=5, dx=dx, st=st, hp=st, basic_speed=speed, size_modifier=size_modifier, encumbrance=encumbrance
        ),
        Control(),
        Intent(),
        Posture(),
        Condition(),
        Skills(levels),
        Rider(**rider),
    )


def mounted_pair(world: World, riding: int = 12, **horse: Any) -> tuple[int, int]:
    """A horse with a rider already in the saddle: ``(horse, rider)``."""
    mount = spawn_horse(world, **horse)
    rider = spawn_rider(world, riding=riding)
    seat(world, rider, mount)
    return mount, rider


def rolls(events: list[Event], purpose: str) -> list[RollMade]:
    """The rolls whose purpose mentions ``purpose``."""
    return [event for event in of_type(events, RollMade) if purpose in event.purpose]


def targets(events: list[Event], purpose: str) -> list[int]:
    """The targets of the success rolls whose purpose mentions ``purpose``."""
    found = []
    for event in rolls(events, purpose):
        assert hasattr(event.result, "target")
        found.append(event.result.target)
    return found


def set_maneuver(world: World, entity: int, maneuver: Maneuver) -> None:
    """The game's choice of maneuver for this turn."""
    world.get(entity, Intent).maneuver = maneuver


def lose_control(world: World, rider: int, table: int, *then: int) -> list[Event]:
    """Step a turn in which ``rider``'s noisy shot critically fails and the table's 2d come up ``table``;
    ``then`` are the faces of whatever the row rolls next."""
    fire_noisy_shot(world, rider)
    script(world, 18)
    world.dice.script(*_TWO_DICE[table], *then)
    return world.step()


_TWO_DICE = {
    2: (1, 1),
    3: (1, 2),
    4: (1, 3),
    5: (2, 3),
    6: (3, 3),
    7: (3, 4),
    8: (4, 4),
    9: (4, 5),
    10: (5, 5),
    11: (5, 6),
    12: (6, 6),
}

"""GURPS regressions: one test per rule a fault found the library breaking, named after the rule.

Each reproduces the fault's own scene (a small world with no window, dice scripted) and checks what the rule, as
the library reads it, gives instead. The readings are in the docstrings of the systems named.
"""

from __future__ import annotations

from typing import Any

from components import Condition, Control, Facing, Intent, Mover, MoveState, Position, Posture, Velocity
from components.mount import Mount
from ecs import Event, RollMade, SuccessRoll, World
from systems.gurps import Rules, install
from systems.gurps.events import Collided
from systems.gurps.figure import occupied_hexes


def make_world(rules: Rules | None = None) -> World:
    world = World(seed=11)
    install(world, rules)
    return world


def mover(
    world: World,
    *,
    at: tuple[int, int] = (0, 0),
    facing: int = 0,
    velocity: int = 0,
    state: MoveState = MoveState.NORMAL,
    intent: Intent | None = None,
    extra: tuple[Any, ...] = (),
    **stats: Any,
) -> int:
    """A GURPS mover (Basic Move 5, DX 10, HP 10 unless ``stats`` say otherwise)."""
    stats.setdefault("basic_move", 5)
    return world.spawn(
        Position(*at),
        Facing(facing),
        Velocity(velocity, facing),
        Mover(**stats),
        Control(state=state),
        intent or Intent(),
        Condition(),
        Posture(),
        *extra,
    )


def horse(world: World, *, at: tuple[int, int] = (0, 0), facing: int = 0, velocity: int = 0, **control: Any) -> int:
    """A horse: 3 hexes, its front on ``at``, the rest behind it."""
    return mover(
        world,
        at=at,
        facing=facing,
        velocity=velocity,
        basic_move=8,
        hp=25,
        size_modifier=1,
        enhanced=True,
        top_speed=16,
        extra=(Mount(),),
        **control,
    )


def of_type(events: list[Event], kind: type[Any]) -> list[Any]:
    return [event for event in events if isinstance(event, kind)]


def rolls(events: list[Event]) -> list[tuple[int, str, int]]:
    """(entity, purpose, target or total) of every roll, in order."""
    return [
        (
            event.entity,
            event.purpose,
            event.result.target if isinstance(event.result, SuccessRoll) else event.result.total,
        )
        for event in of_type(events, RollMade)
    ]


def knocked_out(world: World, entity: int) -> int:
    world.get(entity, Condition).conscious = False  # cannot dodge: whatever runs into it collides
    return entity


# --- Basic Set: Mounted Combat > Mounting Up: a horse fills three hexes ---------------------------------------


def test_mounting_up_a_horse_fills_three_hexes_so_a_runner_meets_its_hindquarters() -> None:
    """The fault: a runner at (-5, 0) doing 4 yd/s east ended on (-1, 0), inside a horse whose front hex is (0, 0),
    because only the front hex was a body to the collision rules."""
    world = make_world()
    steed = knocked_out(world, horse(world))
    runner = mover(world, at=(-5, 0), velocity=4)
    assert occupied_hexes(world, steed) == ((0, 0), (-1, 0), (-2, 0))
    world.dice.script(1, 1, 1, 1)  # collision damage: 1d-2 each way at 4 yd/s (HP 10 and 25)
    events = world.step()
    [hit] = of_type(events, Collided)
    assert (hit.entity, hit.struck, hit.at) == (runner, steed, (-3, 0))
    assert world.get(runner, Position).hex == (-3, 0)


def test_mounting_up_a_veering_horse_sweeps_its_whole_body_sideways() -> None:
    """Direction and Turning Radius: a walker entering a front hex without changing facing moves its whole body
    over; the hindquarters' new hex holds a body, so the horse runs into it and stays where it was."""
    world = make_world()
    steed = horse(world, velocity=4, intent=Intent(veer=(1,)))
    bystander = knocked_out(world, mover(world, at=(-2, 1)))  # beside the horse's last hex, where it would go
    world.dice.script(1, 1, 1, 1)
    events = world.step()
    [hit] = of_type(events, Collided)
    assert (hit.entity, hit.struck, hit.at) == (steed, bystander, (0, 0))
    assert occupied_hexes(world, steed) == ((0, 0), (-1, 0), (-2, 0))


def test_mounting_up_a_turning_horse_swings_its_body_round_its_front() -> None:
    """A 60-degree turn swings the hexes behind the front; a body where they would swing stops the horse, which
    does not turn."""
    world = make_world()
    steed = horse(world, velocity=3, intent=Intent(turn=1))
    bystander = knocked_out(world, mover(world, at=(0, -2)))  # behind the front once the horse faces direction 1
    world.dice.script(1, 1, 1, 1)
    events = world.step()
    [hit] = of_type(events, Collided)
    assert (hit.entity, hit.struck) == (steed, bystander)
    assert world.get(steed, Facing).direction == 0
    assert world.get(steed, Position).hex == (0, 0)

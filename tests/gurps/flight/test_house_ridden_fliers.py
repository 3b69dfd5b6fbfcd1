"""Ridden fliers under the house rules (``Rules.house()``, seed 001): the flying rolls a mount makes to control
itself make its rider roll Riding (House rules: Mounts; Flying Movement and Combat).

Scenario tests build a world with no window, step it with scripted dice, and assert on events and state.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from support import gurps_world, of_type
from support.mounted import script, spawn_rider

from esper_motion.components import Condition, Control, Facing, Intent, LossCause, Mover, MoveState, Position, Posture
from esper_motion.components.flight import Flight, FlightIntent, FlightMode
from esper_motion.components.gurps import Obstacle
from esper_motion.components.motion import Velocity
from esper_motion.components.mount import Mount, Rider
from esper_motion.ecs import RollMade, World
from esper_motion.systems.gurps import Rules, WingspanObstructed
from esper_motion.systems.gurps.mounted.common import seat


def griffon(world: World, *, velocity: int = 12, straight_yd: int = 5, **flight: object) -> int:
    """A winged mount that cannot hover, 30 yards up, flying east at high speed: air Move 10, top airspeed 20,
    DX 12, Basic Speed 5."""
    flight.setdefault("air_move", 10)
    flight.setdefault("top_airspeed", 20)
    return world.spawn(
        Position(0, 0, 30.0),
        Facing(0),
        Velocity(velocity),
        Mover(basic_move=6, dx=12, hp=20, st=20, basic_speed=5.0),
        Condition(),
        Control(MoveState.HIGH_SPEED, straight_yd=straight_yd),
        Intent(),
        Posture(),
        Flight(mode=FlightMode.CANNOT_HOVER, wings=True, **flight),  # type: ignore[arg-type]
        FlightIntent(),
        Mount(training="war-trained"),
    )


def early_climb(world: World, mount: int) -> None:
    """A 4-yard climb from the start of the turn with nothing run straight before it: 60 degrees inside the 2-yard
    radius (12 yd/s over air Move 10, rounded up), so the early-turn roll DX+3-2 = 13."""
    world.get(mount, Control).straight_yd = 0
    world.get(mount, FlightIntent).climb_yd = 4


def fast_dive(world: World, mount: int) -> None:
    """From 19 yd/s a 2-yard dive ends at 21, past the normal top airspeed of 20: DX+2 = 14 at the end of the
    turn."""
    world.get(mount, Velocity).yps = 19
    world.get(mount, FlightIntent).climb_yd = -2


def pole_on_the_way(world: World, mount: int) -> None:
    """A tall pole 2 hexes beside a few hexes of the path, within half the 4-yard wingspan: DX 12."""
    world.get(mount, Flight).wingspan_yd = 4
    world.spawn(Position(3, 2), Obstacle(hp=50, height_yd=40))


def wiped_out(world: World, mount: int) -> None:
    """Wiped out the turn before, one second into the drop: DX-4 = 8 to win lift back."""
    world.add(mount, Control(MoveState.OUT_OF_CONTROL, loss_cause=LossCause.WIPE_OUT))
    flight = world.get(mount, Flight)
    flight.wiped_out, flight.fall_seconds, flight.fall_yd = True, 1, 10.0


@pytest.mark.parametrize(
    ("setup", "purpose", "target"),
    [
        (early_climb, "climb or dive before the turning radius", 13),
        (fast_dive, "dive past top speed", 14),
        (pole_on_the_way, "obstacle in the wingspan", 12),
        (wiped_out, "regain control after a wipe-out", 8),
    ],
    ids=["an early climb", "a dive past top speed", "an obstacle in the wingspan", "a wipe-out"],
)
@pytest.mark.parametrize("made", [True, False], ids=["the mount's roll made", "the mount's roll failed"])
def test_house_rules_mounts_a_flying_mounts_rolls_to_control_itself_make_its_rider_roll_riding(
    setup: Callable[[World, int], None], purpose: str, target: int, made: bool
) -> None:
    """House rules: Mounts: whenever a mount rolls DX to control itself, made or failed, its rider rolls Riding or
    falls off. The flying rolls of House rules: Flying Movement and Combat are such rolls: the early climb (DX+3
    minus the radius), the fast dive (DX+2), the wingspan (DX) and the wipe-out (DX-4). The rider has Riding 12 on
    a war-trained mount, both hands on the reins: no modifier, and the stirrups (a plain saddle with stirrups, the
    Mount's defaults) add +1 to stay on: 13."""
    world = gurps_world(Rules.house(), seed=3)
    mount = griffon(world)
    rider = spawn_rider(world, at=(0, 0))
    seat(world, rider, mount)
    setup(world, mount)
    script(world, 7 if made else 17, 10)  # the mount's roll, then the rider's Riding
    events = world.step()
    rolls = of_type(events, RollMade)
    assert [(roll.entity, roll.purpose, roll.result.target, roll.result.success) for roll in rolls[:2]] == [  # type: ignore[attr-defined]
        (mount, purpose, target, made),
        (rider, "stay on through the mount's maneuver", 13, True),
    ]
    assert world.get(rider, Rider).mount == mount  # still in the saddle


def test_house_rules_flying_movement_and_combat_the_whole_movement_wingspan_covers_every_hex_of_the_body() -> None:
    """House rules: Flying Movement and Combat: a winged flier with something in its wingspan during the whole of its
    movement wipes out. The griffon (3 hexes, wingspan 4: 2 hexes each side) flies 12 yards east from (0, 0); a
    wingless flier 3 hexes behind its front and 2 across, on (-3, 2), flies the same 12 yards beside it. It is
    3 hexes from the griffon's front hex all the way, out of reach, but 2 from its rear hex: in the wingspan of its
    body the whole movement, so the griffon wipes out."""
    world = gurps_world(Rules.house())
    mount = griffon(world, wingspan_yd=4)
    beside = griffon(world)
    world.get(beside, Flight).wings = False
    world.get(beside, Position).q, world.get(beside, Position).r = -3, 2
    events = world.step()
    assert [(event.entity, event.obstacles) for event in of_type(events, WingspanObstructed)] == [(mount, (beside,))]

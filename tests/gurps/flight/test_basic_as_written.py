"""Flying Combat as the Basic Set writes it: scenarios played through ``World.step`` with scripted dice, one per
rule section whose reading was put right (Basic Set: Flying Combat)."""

from __future__ import annotations

import pytest
from support import gurps_world, of_type
from support.highspeed import mover
from support.mounted import rolls, script

from esper_motion.components import (
    Control,
    Flight,
    FlightIntent,
    FlightMode,
    Intent,
    Maneuver,
    MoveState,
    Position,
    Velocity,
)
from esper_motion.systems.gurps import Rules
from esper_motion.systems.gurps.events import Stalled, StallRecovered

BASIC = Rules.basic()


@pytest.mark.parametrize("cause", ["covered too little", "slowed by a loss of control"])
def test_cannot_hover_a_stalled_flier_rolls_dx_minus_4_every_turn(cause: str) -> None:
    """Basic Set: Flying Combat > Cannot Hover. A hawk (DX 12, air Move 10, top airspeed 40: least speed 10)
    stalls either by flying 3 yards (under 10) or by losing control at 12 yd/s on a failed early turn (3d6
    6, 6, 6) and slowing by its air Move to 2. On each of the next two turns it rolls DX-4 = 8: 9 fails and
    it falls on; 8 pulls it out into a dive."""
    world = gurps_world(BASIC, seed=1)
    velocity, state = (3, MoveState.NORMAL) if cause == "covered too little" else (12, MoveState.HIGH_SPEED)
    hawk = mover(
        world,
        velocity=velocity,
        state=state,
        altitude_yd=60.0,
        dx=12,
        extra=(Flight(air_move=10, top_airspeed=40, mode=FlightMode.CANNOT_HOVER), FlightIntent()),
    )
    if cause != "covered too little":
        intent = world.get(hawk, Intent)
        intent.turn, intent.turn_at_yd, intent.push = 1, 0, True
        world.dice.script(6, 6, 6)
    stalling = world.step()
    assert len(of_type(stalling, Stalled)) == 1
    assert world.get(hawk, Flight).stalled
    script(world, 9)
    falling = world.step()
    assert [roll.result.target for roll in rolls(falling, "stall recovery")] == [8]  # type: ignore[union-attr]
    assert world.get(hawk, Flight).stalled
    script(world, 8)
    recovering = world.step()
    assert [roll.result.target for roll in rolls(recovering, "stall recovery")] == [8]  # type: ignore[union-attr]
    assert len(of_type(recovering, StallRecovered)) == 1
    assert not world.get(hawk, Flight).stalled


@pytest.mark.parametrize(
    ("maneuver", "yards"), [(Maneuver.MOVE, 10), (Maneuver.ATTACK, 2)], ids=["Move: 10 at once", "Attack: a step of 2"]
)
def test_aerial_movement_ordinary_flight_moves_by_the_ordinary_movement_rules_on_air_move(
    maneuver: Maneuver, yards: int
) -> None:
    """Basic Set: Flying Combat > Flying Fast sends a fast flier to High-Speed Movement, with basic air Move for
    Basic Move (High-Speed Flying and Swimming); below it the ordinary movement rules hold on air Move. A hovering
    flier at rest, air Move 20, with a throttle of 10 flies 0 + 10 = 10 yards this very turn on a Move; on an Attack
    it goes a step, which Steps and Retreats reckons on basic air Move: 20 // 10 = 2 yards."""
    world = gurps_world(BASIC)
    flier = mover(
        world,
        altitude_yd=10.0,
        intent=Intent(maneuver=maneuver, throttle=10),
        extra=(Flight(air_move=20, top_airspeed=40), FlightIntent()),
    )
    world.step()
    assert world.get(flier, Position).hex == (yards, 0)
    assert world.get(flier, Velocity).yps == yards
    assert world.get(flier, Control).state is MoveState.NORMAL

"""Initiative order, the same in every system (docs/architecture.md > The turn; House rules: Mounts)."""

from __future__ import annotations

import pytest
from support import gurps_world
from support.highspeed import mover
from support.mounted import rolls, script, spawn_horse, spawn_rider

from esper_motion.components import Flight, FlightIntent, FlightMode, Position
from esper_motion.systems.gurps import Rules
from esper_motion.systems.gurps.mounted.common import seat


@pytest.mark.parametrize(
    ("chosen", "order"),
    [(Rules.basic(), ["hawk", "horse"]), (Rules.house(), ["horse", "hawk"])],
    ids=["Basic Set: each on its own Basic Speed", "house: the ridden mount on its rider's"],
)
def test_mounts_a_ridden_mount_acts_on_its_riders_initiative_in_every_phase(chosen: Rules, order: list[str]) -> None:
    """House rules: Mounts (a mount acts on its rider's initiative), in the STALL phase as in the others. Two
    fliers stalled since the last turn roll to recover: a winged horse (Basic Speed 5) ridden by a rider of Basic
    Speed 6, and a hawk of Basic Speed 5.5. Under the Basic Set the hawk rolls first (5.5 before 5); under the
    house rules the horse does (6 before 5.5). Both fail with 18."""
    world = gurps_world(chosen)
    horse = spawn_horse(world)
    world.get(horse, Position).altitude_yd = 40.0
    world.add(horse, Flight(air_move=16, mode=FlightMode.CANNOT_HOVER, wings=True, stalled=True))
    world.add(horse, FlightIntent())
    rider = spawn_rider(world, at=(0, 1), speed=6.0)
    seat(world, rider, horse)
    hawk = mover(
        world,
        at=(9, 9),
        altitude_yd=40.0,
        basic_speed=5.5,
        extra=(Flight(air_move=16, mode=FlightMode.CANNOT_HOVER, wings=True, stalled=True), FlightIntent()),
    )
    names = {horse: "horse", hawk: "hawk"}
    script(world, 18, 18)
    assert [names[roll.entity] for roll in rolls(world.step(), "stall recovery")] == order

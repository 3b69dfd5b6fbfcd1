"""Mounted Combat as the Basic Set writes it: scenarios played through ``World.step`` with scripted dice, one per
rule section whose reading was put right (Basic Set: Mounted Combat; House rules: Mounts)."""

from __future__ import annotations

import pytest
from support import gurps_world, of_type
from support.mounted import faces, mounted_pair, spawn_horse, spawn_rider

from esper_motion.components import Flight, FlightIntent, FlightMode, Intent, Mover, Position, Velocity
from esper_motion.components.mount import Rider
from esper_motion.ecs import IntentError
from esper_motion.systems.gurps import Rules, movement_limits
from esper_motion.systems.gurps.events import FallDamage, FellOff, Landed, MountFell
from esper_motion.systems.gurps.mounted.cavalry import mounted_attack
from esper_motion.systems.gurps.mounted.common import seat

HOUSE = Rules.house()
BASIC = Rules.basic()


def test_size_and_speed_range_table_relative_speed_between_rows_reads_the_next_higher_row() -> None:
    """Basic Set: Size and Speed/Range Table, read by House rules: Mounts (relative speed). A horse cruising at
    8 yd/s past a standing foe: 8 lies between the 7 and 10 rows, so the 10 row counts, Size +4, minus 2:
    -2 to hit and +2 damage (the 7 row would give only -1/+1)."""
    world = gurps_world(HOUSE)
    _, rider = mounted_pair(world, velocity=8)
    foe = spawn_rider(world, at=(20, 3))
    world.step()
    attack = mounted_attack(world, rider, 14, foe)
    assert dict(attack.modifiers)["relative velocity"] == -2
    assert attack.damage_bonus == 2


def test_movement_and_maneuvers_encumbrance_reduces_the_gallop_as_it_reduces_move() -> None:
    """Basic Set: Mounted Combat > Movement and Maneuvers (encumbrance penalties apply normally). A horse with
    Basic Move 8 and a gallop (Enhanced Move) of 16 at Medium encumbrance: Move 8 x 0.6 = 4.8, so 4; top speed
    16 x 0.6 = 9.6, so 9. From 4 yd/s it speeds up to 9 and enters high speed; asking 7 more is refused (at most
    0), where the unreduced gallop let it reach 16."""
    world = gurps_world(BASIC)
    horse = spawn_horse(world, velocity=4)
    world.get(horse, Mover).encumbrance = 2
    assert (movement_limits(world, horse).move, movement_limits(world, horse).top_speed) == (4, 9)
    world.get(horse, Intent).throttle = 5
    world.step()
    assert world.get(horse, Velocity).yps == 9
    world.get(horse, Intent).throttle = 7
    with pytest.raises(IntentError, match="throttle"):
        world.step()
    assert world.get(horse, Velocity).yps == 9


def test_mount_loss_of_control_table_a_ridden_flier_that_crashes_is_a_mount_that_falls() -> None:
    """Basic Set: Mounted Combat > Mount Loss of Control Table (the row applies whenever a mount falls), row 12,
    with Flying Combat > Cannot Hover. A winged horse (HP 25, DX 10, least speed a quarter of 32 = 8) flying 2
    yards at 5 yards up stalls and falls the 5 yards in its first second (5.35 yd). It hits the ground at 10
    yd/s: 50 x 10 / 100 = 5d (scripted 1s: 5 injury). Row 12: it rolls DX+1 = 11 (10: keeps its legs); its
    rider rolls Riding-2 = 10 (11: fails) and is unseated, falling the row's 3 yards plus the 5 the mount fell:
    8 yards, sqrt(21.4 x 8) = 13 yd/s, 22 x 13 / 100 = 2.86, so 3d (scripted 1s: 3 injury)."""
    world = gurps_world(BASIC)
    horse = spawn_horse(world, velocity=2)
    world.get(horse, Position).altitude_yd = 5.0
    world.add(horse, Flight(air_move=16, top_airspeed=32, mode=FlightMode.CANNOT_HOVER, wings=True))
    world.add(horse, FlightIntent())
    rider = spawn_rider(world)
    seat(world, rider, horse)
    world.dice.script(1, 1, 1, 1, 1, *faces(10), *faces(11), 1, 1, 1)
    events = world.step()
    assert [(e.entity, e.fall_yd) for e in of_type(events, Landed)] == [(horse, 5.0)]
    assert [(e.mount, e.broken_leg) for e in of_type(events, MountFell)] == [(horse, False)]
    assert [(e.rider, e.fall_yd) for e in of_type(events, FellOff)] == [(rider, 8.0)]
    assert [(e.entity, e.velocity_yps, e.injury) for e in of_type(events, FallDamage)] == [
        (horse, 10, 5),
        (rider, 13, 3),
    ]
    assert world.get(rider, Rider).mount is None

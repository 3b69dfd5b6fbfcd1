"""Mounted Combat as the Basic Set writes it: scenarios played through ``World.step`` with scripted dice, one per
rule section whose reading was put right (Basic Set: Mounted Combat; House rules: Mounts)."""

from __future__ import annotations

import pytest
from support import gurps_world
from support.mounted import mounted_pair, spawn_horse, spawn_rider

from esper_motion.components import Intent, Mover, Velocity
from esper_motion.ecs import IntentError
from esper_motion.systems.gurps import Rules, movement_limits
from esper_motion.systems.gurps.mounted.cavalry import mounted_attack

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

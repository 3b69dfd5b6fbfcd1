"""Mounted Combat as the Basic Set writes it: scenarios played through ``World.step`` with scripted dice, one per
rule section whose reading was put right (Basic Set: Mounted Combat; House rules: Mounts)."""

from __future__ import annotations

from support import gurps_world
from support.mounted import mounted_pair, spawn_rider

from esper_motion.systems.gurps import Rules
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

"""High-Speed Movement as the Basic Set writes it: scenarios played through ``World.step`` with scripted dice,
one per rule section whose reading was put right (Basic Set: High-Speed Movement)."""

from __future__ import annotations

import pytest
from support import gurps_world
from support.highspeed import mover
from support.mounted import mounted_pair

from esper_motion.components import MoveState
from esper_motion.systems.gurps import Rules, defenses, speed_modifier

HOUSE = Rules.house()
BASIC = Rules.basic()


@pytest.mark.parametrize("chosen", [BASIC, HOUSE], ids=["Basic Set", "house"])
def test_attacking_and_defending_a_rider_is_as_hard_to_hit_as_its_mount(chosen: Rules) -> None:
    """Basic Set: High-Speed Movement > Attacking and Defending. A rider on a horse at 16 yd/s, 10 yards from a
    standing archer: range 10 plus speed 16 is 26, read as the 30-yard row, -7, as against the horse itself
    (the rider's own Velocity of 0 would give the 10-yard row, -4). Under the house rules the target's
    velocity is added to the range the same way (10 + 16 = 26, -7). At high speed the rider may dodge but
    not retreat, like the horse under it."""
    world = gurps_world(chosen)
    horse, rider = mounted_pair(world, velocity=16, state=MoveState.HIGH_SPEED)
    archer = mover(world, at=(0, 12))
    world.step()
    assert speed_modifier(world, archer, horse, 10) == -7
    assert speed_modifier(world, archer, rider, 10) == -7
    assert defenses(world, horse).retreat is False
    assert defenses(world, rider).retreat is False
    assert defenses(world, rider).dodge is True

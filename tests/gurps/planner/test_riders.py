"""Riders and their mounts under the planner: a controlling rider's goal steers the mount (and wins over the mount's
own goal), a mount with a goal and no steering rider goes on its own, a passenger is not planned, and a mover out of
control is not planned and said so once, then planned again when back in control."""

from __future__ import annotations

import pytest
from support import gurps_world, of_type
from support.highspeed import mover
from support.mounted import mounted_pair, spawn_rider

from esper_motion.components import Control, GoTo, Hold, Intent, LossCause, MoveState, Position, Velocity
from esper_motion.components.mount import Mount
from esper_motion.ecs import WorldError
from esper_motion.systems.gurps import Rules, plan
from esper_motion.systems.gurps.events import GoalUnreachable
from esper_motion.systems.gurps.mounted.common import seat
from esper_motion.systems.gurps.mounted.spooking import spook


def test_a_rider_with_a_goal_steers_its_mount_there() -> None:
    world = gurps_world()
    horse, rider = mounted_pair(world)
    world.add(rider, GoTo((14, 0)))
    shown = plan(world, rider)
    assert shown.entity == horse and shown.reaches
    for _ in range(6):
        events = world.step()
        assert not of_type(events, GoalUnreachable)
    assert world.get(horse, Position).hex == (14, 0)
    assert world.get(horse, Velocity).yps == 0
    assert world.get(rider, Intent).throttle == 0  # the rider's own intent moves nothing


def test_the_riders_goal_wins_over_the_mounts() -> None:
    world = gurps_world()
    horse, rider = mounted_pair(world)
    world.add(horse, Hold())
    world.add(rider, GoTo((10, 0)))
    world.step()
    assert world.get(horse, Position).hex != (0, 0)
    with pytest.raises(WorldError, match=f"its rider entity {rider} steers it"):
        plan(world, horse)


def test_a_mount_with_a_goal_and_a_rider_without_one_goes_on_its_own() -> None:
    world = gurps_world()
    horse, _ = mounted_pair(world)
    world.add(horse, GoTo((8, 0)))
    for _ in range(4):
        world.step()
    assert world.get(horse, Position).hex == (8, 0)


def test_a_passenger_is_not_planned_and_says_so_once() -> None:
    world = gurps_world()
    horse, driver = mounted_pair(world)
    passenger = spawn_rider(world, at=(1, 1))
    seat(world, passenger, horse)
    world.add(passenger, GoTo((10, 0)))
    said = [of_type(world.step(), GoalUnreachable) for _ in range(3)]
    assert [[event.entity for event in turn] for turn in said] == [[passenger], [], []]
    assert "passenger" in said[0][0].why
    assert world.get(horse, Position).hex == (0, 0)
    assert driver != passenger


def test_a_mount_out_of_control_is_not_planned_said_once_and_planned_again_when_back() -> None:
    world = gurps_world(Rules.house())
    horse, rider = mounted_pair(world)
    world.add(rider, GoTo((12, 0)))
    world.get(horse, Mount).out_of_control = True
    first, second = (of_type(world.step(), GoalUnreachable) for _ in range(2))
    assert [event.why for event in first] == [f"its rider has lost control of mount {horse}"]
    assert second == []
    assert world.get(horse, Position).hex == (0, 0)
    world.get(horse, Mount).out_of_control = False
    world.step()
    assert world.get(horse, Position).hex != (0, 0)


def test_a_mover_out_of_control_is_said_once_and_resumes_in_control() -> None:
    world = gurps_world()
    runner = mover(
        world, velocity=3, state=MoveState.OUT_OF_CONTROL, cause=LossCause.FAILED_ROLL, extra=(GoTo((12, 0)),)
    )
    events = world.step()
    assert [event.why for event in of_type(events, GoalUnreachable)] == ["out of control"]
    control = world.get(runner, Control)
    if control.state is MoveState.OUT_OF_CONTROL:  # still: the game takes it back in hand
        control.state, control.loss_cause = MoveState.NORMAL, None
    world.get(runner, Velocity).yps = 0
    start = world.get(runner, Position).hex
    for _ in range(6):
        assert not of_type(world.step(), GoalUnreachable)
    assert world.get(runner, Position).hex == (12, 0) != start


def test_a_spooked_mount_is_not_planned_until_its_rider_calms_it() -> None:
    """Basic Set: Mounted Combat > Spooked Mounts: a spooked mount shies and bucks; its rider's goal steers it again
    once it is calmed."""
    world = gurps_world()
    horse, rider = mounted_pair(world, velocity=4)
    world.add(rider, GoTo((20, 0)))
    spook(world, horse)
    world.get(horse, Intent).throttle = -4  # what the game (or the last plan) left it: the planner leaves it
    with pytest.raises(WorldError, match=f"its mount {horse} is spooked: it bucks until its rider calms it"):
        plan(world, rider)
    assert not of_type(world.step(), GoalUnreachable)  # MountSpooked has said it
    assert world.get(horse, Velocity).yps == 0
    world.get(horse, Mount).spooked_from = None  # calmed
    world.step()
    assert world.get(horse, Velocity).yps > 0  # steered by the rider's goal again

"""GURPS High-Speed Movement: bad input refused with clear errors, the preview for game UIs, and the queries.

Sources: Basic Set: High-Speed Movement (Direction and Turning Radius, Accelerating, Decelerating, Pushing the
Envelope, Tactical Movement, Attacking and Defending); Size and Speed/Range Table as docs/architecture.md > Facts the
rules lean on.
"""

from __future__ import annotations

import copy
from fractions import Fraction
from typing import Any

import pytest
from support import gurps_world
from support.highspeed import mover

from esper_motion.components import (
    Condition,
    Control,
    Footing,
    Intent,
    Maneuver,
    Mover,
    MoveState,
    Obstacle,
    Position,
    Posture,
    Velocity,
)
from esper_motion.components.flight import Flight
from esper_motion.components.gurps import LossCause
from esper_motion.ecs import IntentError, RuleValueError, World, WorldError, success_probability
from esper_motion.systems.gurps import Forecast, RollForecast, Rules, install, preview
from esper_motion.systems.gurps.highspeed.queries import (
    at_high_speed,
    may_dive_for_cover,
    may_dodge,
    may_retreat,
    movement_limits,
    relative_speed_yps,
    speed_modifier,
)


def snapshot(world: World) -> Any:
    return (
        copy.deepcopy([world.components(entity) for entity in world.entities()]),
        world.dice.getstate(),
        world.turn,
        list(world.events),
    )


# --- components refuse bad values on construction --------------------------------------------------------


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: Mover(basic_move=-1), "Mover.basic_move = -1"),
        (lambda: Mover(basic_move=5, water_move=-2), "Mover.water_move = -2"),
        (lambda: Mover(basic_move=5, swimming=True), "Mover.swimming = True: expected False unless water_move"),
        (lambda: Mover(basic_move=5, enhanced=True), "Mover.enhanced = True: expected False unless top_speed is set"),
        (lambda: Intent(turn=3), "Intent.turn = 3"),
        (lambda: Intent(maneuver="Fly"), "Intent.maneuver = 'Fly'"),
        (lambda: Intent(veer=(0, 2)), r"Intent.veer\[1\] = 2"),
        (lambda: Intent(veer=[1]), r"Intent.veer = \[1\]"),
        (
            lambda: Intent(maneuver=Maneuver.ATTACK, slam=True),
            "Intent.slam = True: expected False unless the maneuver is All-Out Attack",
        ),
        (lambda: Control(state=MoveState.OUT_OF_CONTROL), "Control.loss_cause = None: expected a LossCause"),
        (lambda: Control(loss_cause=LossCause.STUNNED), "exactly when state is out of control"),
        (lambda: Control(carried_by=-1), "Control.carried_by = -1"),
        (lambda: Obstacle(crossable="yes"), "Obstacle.crossable = 'yes'"),
    ],
    ids=[
        "negative Basic Move",
        "negative water Move",
        "swimming without water Move",
        "Enhanced Move without a top speed",
        "a 180-degree turn",
        "an unknown maneuver",
        "a veer that sidesteps",
        "a veer that is not a tuple",
        "slam=True on a plain Attack is refused",
        "out of control without a cause",
        "a cause while in control",
        "a negative carrier id",
        "crossable not a bool",
    ],
)
def test_components_refuse_bad_values(build: Any, message: str) -> None:
    with pytest.raises(RuleValueError, match=message):
        build()


# --- intents the rules forbid ------------------------------------------------------------------------


def refused(world: World, field: str, text: str) -> None:
    before = snapshot(world)
    with pytest.raises(IntentError, match=text) as caught:
        world.step()
    assert caught.value.field == field
    assert snapshot(world) == before  # the step left the world as it was


def refused_field(world: World, entity: int, field: str, text: str) -> None:
    """Step, expecting the world's check of a field the game wrote: an error naming entity, field and value."""
    before = snapshot(world)
    with pytest.raises(RuleValueError, match=text) as caught:
        world.step()
    assert (caught.value.entity, caught.value.field) == (entity, field)
    assert snapshot(world) == before


def test_a_180_degree_turn_written_after_construction_is_refused() -> None:
    world = gurps_world(seed=11)
    runner = mover(world, velocity=10, state=MoveState.HIGH_SPEED)
    world.get(runner, Intent).turn = 3
    refused_field(world, runner, "turn", f"entity {runner}: Intent.turn = 3: expected a whole number from -2 to 2")


def test_an_unknown_maneuver_written_after_construction_is_refused() -> None:
    world = gurps_world(seed=11)
    runner = mover(world, velocity=10, state=MoveState.HIGH_SPEED)
    world.get(runner, Intent).maneuver = "Fly"  # type: ignore[assignment]
    refused_field(world, runner, "maneuver", "Intent.maneuver = 'Fly'")


def test_a_slam_written_after_construction_on_another_maneuver_is_refused() -> None:
    """House rules: High Speed Movement: only an All-Out Attack can be a slam."""
    world = gurps_world(Rules.house(), seed=11)
    runner = mover(world, velocity=10, state=MoveState.HIGH_SPEED, intent=Intent(maneuver=Maneuver.ATTACK))
    world.get(runner, Intent).slam = True
    refused_field(world, runner, "slam", "False unless the maneuver is All-Out Attack")


def test_a_turn_before_the_radius_without_push_is_refused() -> None:
    world = gurps_world(seed=11)
    mover(world, velocity=13, state=MoveState.HIGH_SPEED, intent=Intent(turn=1, turn_at_yd=1))
    refused(world, "turn_at_yd", r"push=True for an early turn: pushing the envelope needs a roll at -1")


def test_a_tight_turn_without_push_is_refused() -> None:
    world = gurps_world(seed=11)
    mover(world, velocity=13, state=MoveState.HIGH_SPEED, intent=Intent(turn=-2))
    refused(world, "turn", "push=True for a 120-degree turn")


def test_a_radius_longer_than_the_turn_is_refused_unless_turning_early() -> None:
    world = gurps_world(Rules(turning_radius="realistic"), seed=11)
    mover(world, velocity=11, state=MoveState.HIGH_SPEED, intent=Intent(turn=1))
    refused(world, "turn", r"radius of 12 yd \(12 yd still to run straight\) is not met within this turn's 11 yd")


def test_a_turn_past_the_end_of_the_path_is_refused() -> None:
    world = gurps_world(seed=11)
    mover(world, velocity=6, state=MoveState.HIGH_SPEED, intent=Intent(turn=1, turn_at_yd=7))
    refused(world, "turn_at_yd", "at most 6, the yards of this turn")


def test_basic_move_0_cannot_turn() -> None:
    world = gurps_world(seed=11)
    mover(world, velocity=4, basic_move=0, state=MoveState.HIGH_SPEED, intent=Intent(turn=1))
    refused(world, "turn", "Basic Move 0 it cannot turn")


def test_basic_move_0_cannot_veer_either() -> None:
    world = gurps_world(seed=11)
    mover(world, velocity=4, basic_move=0, state=MoveState.HIGH_SPEED, intent=Intent(veer=(1,)))
    refused(world, "turn", "only drift")


def test_accelerating_past_top_speed_is_refused_not_clamped() -> None:
    world = gurps_world(seed=11)
    mover(world, velocity=11, top_speed=12, state=MoveState.HIGH_SPEED, intent=Intent(throttle=2))
    refused(world, "throttle", "at most \\+1: accelerating past the top speed of 12 yd/s is not possible")


def test_accelerating_by_more_than_basic_move_is_refused() -> None:
    world = gurps_world(seed=11)
    mover(world, velocity=8, top_speed=30, state=MoveState.HIGH_SPEED, intent=Intent(throttle=6))
    refused(world, "throttle", "at most \\+5")


def test_decelerating_past_twice_basic_move_is_refused() -> None:
    world = gurps_world(seed=11)
    mover(world, velocity=15, state=MoveState.HIGH_SPEED, intent=Intent(throttle=-11, push=True))
    refused(world, "throttle", "at least -10")


def test_decelerating_past_basic_move_without_push_is_refused() -> None:
    world = gurps_world(seed=11)
    mover(world, velocity=15, state=MoveState.HIGH_SPEED, intent=Intent(throttle=-7))
    refused(world, "throttle", "hasty deceleration \\(a roll at -1\\)")


def test_decelerating_below_0_is_refused() -> None:
    world = gurps_world(seed=11)
    mover(world, velocity=7, state=MoveState.HIGH_SPEED, intent=Intent(throttle=-8, push=True))
    refused(world, "throttle", "at least -7")


def test_starting_high_speed_above_the_entry_limit_is_refused() -> None:
    world = gurps_world(seed=11)
    mover(world, velocity=5, intent=Intent(throttle=2))
    refused(world, "throttle", "no more than 6 yd/s")


def test_starting_high_speed_without_a_full_move_is_refused() -> None:
    """At 4 yd/s a throttle of 2 on a Move would go the full Move of 5 at once and qualify; on an All-Out Attack the
    turn goes only half of Move 5, 2 yards, so asking for 6 is refused (before, the velocity of 4 alone fell short)."""
    world = gurps_world(seed=11)
    mover(world, velocity=4, intent=Intent(maneuver=Maneuver.ALL_OUT_ATTACK, throttle=2))
    refused(world, "throttle", r"moving the full Move of 5 yd \(this turn moves 2\)")


def test_starting_high_speed_on_an_attack_lying_down_is_refused() -> None:
    world = gurps_world(seed=11)
    runner = mover(world, velocity=5, intent=Intent(maneuver=Maneuver.ATTACK, throttle=1))
    world.get(runner, Posture).state = world.get(runner, Posture).state.PRONE
    refused(world, "throttle", "a Move or Move and Attack maneuver, standing")


def test_out_of_control_nothing_can_be_steered() -> None:
    world = gurps_world(seed=11)
    mover(
        world,
        velocity=20,
        wheels=4,
        state=MoveState.OUT_OF_CONTROL,
        cause=LossCause.FAILED_ROLL,
        intent=Intent(throttle=-2),
    )
    refused(world, "throttle", "out of control")


def test_house_rules_out_of_control_takes_move_maneuvers() -> None:
    world = gurps_world(Rules(control="house"), seed=11)
    mover(
        world,
        velocity=20,
        wheels=4,
        state=MoveState.OUT_OF_CONTROL,
        cause=LossCause.FAILED_ROLL,
        intent=Intent(maneuver=Maneuver.ATTACK),
    )
    refused(world, "maneuver", "Move: out of control, it takes Move maneuvers")


def test_house_rules_out_of_control_cannot_turn() -> None:
    world = gurps_world(Rules(control="house"), seed=11)
    mover(
        world, velocity=20, wheels=4, state=MoveState.OUT_OF_CONTROL, cause=LossCause.FAILED_ROLL, intent=Intent(turn=1)
    )
    refused(world, "turn", "out of control, it moves straight ahead")


def test_a_rider_cannot_steer() -> None:
    world = gurps_world(seed=11)
    rider = mover(world, intent=Intent(turn=1))
    world.get(rider, Control).carried_by = 99
    refused(world, "turn", "a rider does not move under its own power")


def test_more_veer_than_yards_is_refused() -> None:
    world = gurps_world(seed=11)
    mover(world, velocity=2, state=MoveState.HIGH_SPEED, intent=Intent(veer=(0, 0, 1)))
    refused(world, "veer", "at most 2 entries")


def test_a_normal_velocity_above_basic_move_is_a_value_error() -> None:
    world = gurps_world(seed=11)
    mover(world, velocity=9)
    with pytest.raises(RuleValueError, match=r"Velocity\.yps = 9: expected at most 5 while"):
        world.step()


def test_two_footing_tiles_on_one_hex_are_refused() -> None:
    world = gurps_world(seed=11)
    mover(world, velocity=3)
    world.spawn(Position(1, 0), Footing())
    world.spawn(Position(1, 0), Footing(extra_cost=2))
    with pytest.raises(WorldError, match=r"hex \(1, 0\) has two Footing tiles"):
        world.step()


def test_installing_twice_is_refused() -> None:
    world = gurps_world(seed=11)
    with pytest.raises(WorldError, match="already installed"):
        install(world)


# --- preview ----------------------------------------------------------------------------------------


def test_preview_of_an_early_turn_gives_its_exact_chance_and_leaves_the_world_alone() -> None:
    world = gurps_world(seed=11)
    runner = mover(world, velocity=23, basic_move=3, dx=12, state=MoveState.HIGH_SPEED)
    world.get(runner, Intent).turn = 1
    world.get(runner, Intent).turn_at_yd = 0
    world.get(runner, Intent).push = True
    before = snapshot(world)
    forecast = preview(world, runner)
    assert snapshot(world) == before
    assert forecast.rolls == (RollForecast("early turn", "DX+3-6", 9, Fraction(81, 216), Fraction(4, 216)),)
    assert forecast.loses_control is None
    assert len(forecast.path) == 23


def test_preview_of_mud_and_a_hasty_deceleration_adds_them_up() -> None:
    world = gurps_world(seed=11)
    runner = mover(world, velocity=14, basic_move=5, state=MoveState.HIGH_SPEED, intent=Intent(throttle=-2, push=True))
    for q in range(1, 7):
        world.spawn(Position(q, 0), Footing(extra_cost=1))
    before = snapshot(world)
    forecast = preview(world, runner)
    assert snapshot(world) == before
    # 6 yards of mud and 2 voluntary: 8, three over Basic Move 5: -1 on DX+3
    assert forecast.rolls == (RollForecast.of("hasty deceleration", "DX+3-1", 12),)
    assert forecast.rolls[0].chance == success_probability(12)


def test_preview_of_mud_past_twice_basic_move_loses_control_with_no_roll() -> None:
    world = gurps_world(seed=11)
    runner = mover(world, velocity=14, basic_move=2, state=MoveState.HIGH_SPEED)
    for q in range(1, 7):
        world.spawn(Position(q, 0), Footing(extra_cost=1))
    assert preview(world, runner) == Forecast(runner, (), "footing", tuple((q, 0) for q in range(1, 9)), None)


def test_preview_lists_the_jump_and_what_the_path_runs_into() -> None:
    world = gurps_world(seed=11)
    runner = mover(world, velocity=8, dx=11, state=MoveState.HIGH_SPEED)
    fence = world.spawn(Position(2, 0), Obstacle(hard=False, hp=20, height_yd=1.0, crossable=True))
    wall = world.spawn(Position(5, 0), Obstacle())
    forecast = preview(world, runner)
    assert forecast.rolls == (RollForecast.of(f"jump obstacle {fence}", "DX or Jumping", 11),)
    assert forecast.path == ((1, 0), (2, 0), (3, 0), (4, 0))
    assert forecast.runs_into == wall


def test_preview_of_a_stunned_runner_is_a_certain_loss_of_control() -> None:
    world = gurps_world(seed=11)
    runner = mover(world, velocity=8, state=MoveState.HIGH_SPEED)
    world.get(runner, Condition).stunned = True
    assert preview(world, runner) == Forecast(runner, (), "stunned", (), None)


def test_preview_refuses_a_bad_intent_as_the_step_would() -> None:
    world = gurps_world(seed=11)
    runner = mover(world, velocity=8, top_speed=8, state=MoveState.HIGH_SPEED, intent=Intent(throttle=1))
    with pytest.raises(IntentError, match="top speed of 8"):
        preview(world, runner)


def test_preview_needs_the_rules_installed_and_a_mover() -> None:
    bare = World()
    entity = bare.spawn(Position(0, 0))
    with pytest.raises(WorldError, match=r"call esper_motion\.systems\.gurps\.install"):
        preview(bare, entity)
    world = gurps_world(seed=11)
    lamp = world.spawn(Position(0, 0))
    with pytest.raises(WorldError, match="is not a GURPS mover: it has no Facing, Velocity, Mover, Control, Intent"):
        preview(world, lamp)


# --- queries ------------------------------------------------------------------------------------------


def test_at_high_speed_one_may_dodge_but_not_retreat_or_dive_for_cover() -> None:
    world = gurps_world(seed=11)
    fast = mover(world, velocity=9, state=MoveState.HIGH_SPEED)
    slow = mover(world, at=(0, 3), velocity=3)
    assert (at_high_speed(world, fast), may_dodge(world, fast), may_retreat(world, fast)) == (True, True, False)
    assert may_dive_for_cover(world, fast) is False
    assert (at_high_speed(world, slow), may_retreat(world, slow), may_dive_for_cover(world, slow)) == (
        False,
        True,
        True,
    )


@pytest.mark.parametrize(
    ("target_yps", "target_heading", "range_yd", "expected"),
    [
        (0, 0, 1.0, 0),
        (0, 0, 2.0, 0),
        (7, 0, 0.0, -3),
        (7, 1, 3.0, -4),
        (20, 3, 0.0, -6),
    ],
    ids=[
        "standing, adjacent -> 0",
        "2 yd -> 0",
        "7 yd/s across -> -3",
        "7 yd/s plus 3 yd -> 10 -> -4",
        "20 yd/s -> -6",
    ],
)
def test_speed_modifier_adds_relative_speed_to_range(
    target_yps: int, target_heading: int, range_yd: float, expected: int
) -> None:
    world = gurps_world(seed=11)
    shooter = world.spawn(Position(0, 0), Velocity(0))
    target = world.spawn(Position(3, 0), Velocity(target_yps, heading=target_heading))
    assert speed_modifier(world, shooter, target, range_yd) == expected


@pytest.mark.parametrize(
    ("shooter_heading", "expected"),
    [(1, -5), (0, -2), (3, -2)],
    ids=[
        "house: a target at 10 yd/s 4 yd away, off line -> 14 yd -> -5",
        "moving the same way -> the range alone, 4 yd -> -2",
        "moving exactly opposite -> the range alone -> -2",
    ],
)
def test_house_rules_add_a_fast_targets_velocity_to_the_range(shooter_heading: int, expected: int) -> None:
    world = gurps_world(Rules.house(), seed=11)
    shooter = world.spawn(Position(0, 0), Velocity(3, heading=shooter_heading))
    target = mover(world, at=(4, 0), velocity=10, state=MoveState.HIGH_SPEED)
    assert speed_modifier(world, shooter, target, 4.0) == expected


@pytest.mark.parametrize(
    ("shooter_yps", "shooter_heading", "shooter_climb", "target_climb", "expected"),
    [
        (10, 0, 0, -5, -5),
        (10, 0, -5, -5, -2),
        (5, 0, -2, -4, -2),
        (10, 3, 5, -5, -2),
        (10, 3, -5, -5, -5),
        (10, 0, 3, 0, -5),
    ],
    ids=[
        "same heading, target dived 5, shooter level -> 14 yd -> -5",
        "same heading, both dived 5 -> 4 yd -> -2",
        "same heading, 5 yd/s down 2 and 10 yd/s down 4 -> the same slope -> -2",
        "opposite heading, shooter climbed 5 as the target dived 5 -> exactly opposite -> -2",
        "opposite heading, both dived 5 -> not opposite -> -5",
        "same heading, shooter climbed 3, target level -> -5",
    ],
)
def test_house_rules_high_speed_movement_altitude_changes_count_for_moving_in_line(
    shooter_yps: int, shooter_heading: int, shooter_climb: int, target_climb: int, expected: int
) -> None:
    """House rules: High Speed Movement: the velocity of a target at high speed is added to the range unless
    the two move exactly the same or exactly the opposite way, altitude changes included. A target at 10 yd/s
    4 yards away: 14 yards (-5) off line, 4 yards (-2) in line."""
    world = gurps_world(Rules.house(), seed=11)
    shooter = world.spawn(
        Position(0, 0, 20.0),
        Velocity(shooter_yps, heading=shooter_heading),
        Flight(air_move=10, climbed_yd=shooter_climb),
    )
    target = mover(world, at=(4, 0), velocity=10, state=MoveState.HIGH_SPEED)
    world.add(target, Flight(air_move=10, climbed_yd=target_climb))
    world.get(target, Position).altitude_yd = 20.0
    assert speed_modifier(world, shooter, target, 4.0) == expected


@pytest.mark.parametrize(
    ("chosen", "retreat"),
    [(Rules.basic(), True), (Rules.house(), False)],
    ids=[
        "Basic Set: velocity 5, Basic Move 5 -> not high speed, may retreat",
        "house: velocity 5 above Encumbered Move 4 -> high speed, no retreat",
    ],
)
def test_house_rules_high_speed_movement_defenses_count_from_encumbered_move(chosen: Rules, retreat: bool) -> None:
    """Basic Set: High-Speed Movement > Attacking and Defending, with the threshold of high speed each rule set
    uses: Basic Move, or Encumbered Move (House rules: High Speed Movement). Basic Move 5 at Light encumbrance
    (Move 4), at velocity 5."""
    world = gurps_world(chosen, seed=11)
    runner = mover(world, velocity=5, encumbrance=1, state=MoveState.HIGH_SPEED)
    assert movement_limits(world, runner).move == 4
    assert (may_dodge(world, runner), may_retreat(world, runner), may_dive_for_cover(world, runner)) == (
        True,
        retreat,
        retreat,
    )


def test_relative_speed_is_the_difference_of_the_velocities() -> None:
    world = gurps_world(seed=11)
    a = world.spawn(Position(0, 0), Velocity(10))
    b = world.spawn(Position(5, 0), Velocity(6))
    c = world.spawn(Position(5, 5), Velocity(6, heading=3))
    d = world.spawn(Position(5, 9), Velocity(10, heading=2))
    assert relative_speed_yps(world, a, b) == pytest.approx(4)
    assert relative_speed_yps(world, a, c) == pytest.approx(16)
    assert relative_speed_yps(world, a, d) == pytest.approx(10 * 3**0.5)


def test_movement_limits_give_the_turning_radius_and_speed_steps() -> None:
    world = gurps_world(seed=11)
    runner = mover(world, velocity=13, state=MoveState.HIGH_SPEED)
    world.get(runner, Control).straight_yd = 1
    limits = movement_limits(world, runner)
    assert (limits.radius, limits.free_turn_yd, limits.top_speed, limits.accel_step) == (2, 1, 6, 5)
    assert (limits.safe_decel, limits.max_decel, limits.environment) == (5, 10, "ground")

"""GURPS High-Speed Movement end to end: worked examples and scenarios in worlds with no window.

Every roll that matters is scripted (``world.dice.script``); the comments give each roll's arithmetic.
Sources: Basic Set: High-Speed Movement (Direction and Turning Radius, Accelerating, Decelerating, Pushing the
Envelope, Tactical Movement, Losing Control, High-Speed Flying and Swimming); Basic Set: Damage from
Collisions and Falling as docs/architecture.md > Facts the rules lean on gives them.
"""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from support import gurps_world, of_type
from support.highspeed import mover

from esper_motion.components import (
    Condition,
    Control,
    Facing,
    Footing,
    Intent,
    Maneuver,
    Mover,
    MoveState,
    Obstacle,
    Position,
    Posture,
    PostureState,
    Velocity,
)
from esper_motion.components.flight import Flight
from esper_motion.components.gurps import LossCause
from esper_motion.components.mount import Mount
from esper_motion.ecs import Event, Hex, IntentError, RollMade, SuccessRoll, World
from esper_motion.systems.gurps import Rules, install
from esper_motion.systems.gurps.events import (
    Collided,
    DodgedAside,
    EnteredHighSpeed,
    FallDamage,
    HighSpeedRefused,
    KnockedDown,
    LeftHighSpeed,
    LostControl,
    Moved,
    ObstacleCrossed,
    RegainedControl,
    Skidded,
    Tripped,
    Turned,
    VelocityChanged,
)
from esper_motion.systems.gurps.shared.movers import body_of, unmanned


def rolls(events: list[Event]) -> list[tuple[int, str, int]]:
    """(entity, purpose, target or total) of every roll, in order."""
    found = []
    for event in of_type(events, RollMade):
        result = event.result
        found.append((event.entity, event.purpose, result.target if isinstance(result, SuccessRoll) else result.total))
    return found


# --- the worked examples of the section, through the systems ------------------------------------------


def test_velocity_13_basic_move_5_turns_after_2_yards() -> None:
    """Direction and Turning Radius: velocity 13 and Basic Move 5 give a radius of 2 yards."""
    world = gurps_world()
    runner = mover(world, velocity=13, state=MoveState.HIGH_SPEED, intent=Intent(turn=1))
    events = world.step()
    assert of_type(events, Turned) == [Turned(runner, 0, 1, (2, 0), 2, False)]
    assert rolls(events) == []
    path = world.get(runner, Control).path
    assert path[:3] == [(1, 0), (2, 0), (2, 1)]
    assert len(path) == 13
    assert world.get(runner, Facing).direction == 1
    assert world.get(runner, Velocity).heading == 1
    assert world.get(runner, Control).straight_yd == 11


def test_velocity_17_moves_17_yards() -> None:
    """Velocity: at velocity 17 a mover must move 17 yards that turn (Basic Move 5, Enhanced Move to a top speed
    of 20, at high speed, nothing in the way)."""
    world = gurps_world()
    runner = mover(world, velocity=17, top_speed=20, enhanced=True, state=MoveState.HIGH_SPEED)
    events = world.step()
    path = world.get(runner, Control).path
    assert len(path) == 17
    assert of_type(events, Moved) == [Moved(runner, tuple((q, 0) for q in range(1, 18)), 0)]
    assert world.get(runner, Position).hex == (17, 0)


def test_decelerate_9_with_basic_move_5_rolls_at_minus_2() -> None:
    """Pushing the Envelope: cutting 9 yd/s with Basic Move 5 is a DX+3 roll at -2 (DX 10: 11)."""
    world = gurps_world()
    runner = mover(world, velocity=15, state=MoveState.HIGH_SPEED, intent=Intent(throttle=-9, push=True))
    world.dice.script(3, 4, 4)  # 11 against 11: made
    events = world.step()
    assert rolls(events) == [(runner, "hasty deceleration", 11)]
    assert world.get(runner, Velocity).yps == 6
    assert world.get(runner, Control).state is MoveState.HIGH_SPEED
    assert of_type(events, VelocityChanged) == [VelocityChanged(runner, 15, 6, -9, 0)]


def test_velocity_23_basic_move_3_turns_early_at_minus_6() -> None:
    """Pushing the Envelope: an early turn at 23 yd/s with Basic Move 3 is a DX+3 roll at -6 (DX 12: 9)."""
    world = gurps_world()
    runner = mover(
        world, velocity=23, basic_move=3, dx=12, state=MoveState.HIGH_SPEED, intent=Intent(turn=1, push=True)
    )
    world.get(runner, Intent).turn_at_yd = 0
    world.dice.script(2, 3, 4)  # 9 against 9: made
    events = world.step()
    assert rolls(events) == [(runner, "early turn", 9)]
    assert of_type(events, Turned) == [Turned(runner, 0, 1, (0, 0), 0, True)]


def test_velocity_14_through_six_yards_of_mud_ends_at_8() -> None:
    """Tactical Movement: velocity 14 through six yards of mud (+1 a yard) decelerates to 8."""
    world = gurps_world()
    runner = mover(world, velocity=14, basic_move=7, state=MoveState.HIGH_SPEED)
    for q in range(1, 7):
        world.spawn(Position(q, 0), Footing(extra_cost=1))
    events = world.step()
    assert of_type(events, Moved) == [Moved(runner, tuple((q, 0) for q in range(1, 9)), 6)]
    assert world.get(runner, Velocity).yps == 8
    assert of_type(events, VelocityChanged) == [VelocityChanged(runner, 14, 8, 0, 6)]
    assert rolls(events) == []


# --- entering, accelerating, decelerating, leaving ------------------------------------------------------


def test_a_full_move_turn_on_move_enters_high_speed_next_turn() -> None:
    world = gurps_world()
    runner = mover(world, velocity=5, intent=Intent(throttle=1))
    events = world.step()
    assert of_type(events, EnteredHighSpeed) == [EnteredHighSpeed(runner, 6)]
    assert world.get(runner, Control).state is MoveState.HIGH_SPEED
    assert world.get(runner, Position).hex == (5, 0)
    assert world.get(runner, Intent) == Intent()  # cleared for the next turn


def test_enhanced_move_may_start_high_speed_at_twice_basic_move() -> None:
    world = gurps_world()
    horse = mover(world, velocity=5, top_speed=16, enhanced=True, intent=Intent(throttle=5))
    world.step()
    assert world.get(horse, Velocity).yps == 10


def test_a_run_cut_short_by_footing_is_refused_high_speed_and_keeps_its_velocity() -> None:
    world = gurps_world()
    runner = mover(world, velocity=5, intent=Intent(throttle=1))
    world.spawn(Position(1, 0), Footing(extra_cost=2))
    events = world.step()
    assert len(world.get(runner, Control).path) == 3
    assert of_type(events, HighSpeedRefused) == [HighSpeedRefused(runner, 5, "moved 3 of its Move of 5 yd")]
    assert world.get(runner, Velocity).yps == 5
    assert world.get(runner, Control).state is MoveState.NORMAL


def test_accelerating_by_basic_move_up_to_top_speed() -> None:
    world = gurps_world()
    runner = mover(world, velocity=8, basic_move=5, top_speed=13, state=MoveState.HIGH_SPEED)
    world.get(runner, Intent).throttle = 5
    world.step()
    assert world.get(runner, Velocity).yps == 13


def test_decelerating_to_basic_move_leaves_high_speed() -> None:
    world = gurps_world()
    runner = mover(world, velocity=9, state=MoveState.HIGH_SPEED, intent=Intent(throttle=-4))
    events = world.step()
    assert of_type(events, LeftHighSpeed) == [LeftHighSpeed(runner, 5, "slowed out of high speed")]
    assert world.get(runner, Control).state is MoveState.NORMAL


def test_a_failed_hasty_deceleration_loses_control_and_trips_next_turn() -> None:
    world = gurps_world()
    runner = mover(world, velocity=16, state=MoveState.HIGH_SPEED, intent=Intent(throttle=-8, push=True))
    world.dice.script(5, 5, 4)  # 14 against DX+3-1 = 12: failed by 2
    events = world.step()
    assert rolls(events) == [(runner, "hasty deceleration", 12)]
    assert of_type(events, LostControl) == [LostControl(runner, "failed roll", "trip", 16)]
    assert world.get(runner, Velocity).yps == 16  # the deceleration did not happen
    world.dice.script(1, 1, 2, 2, 2, 2)  # fall at 16 yd/s, HP 10 doubled: 3.2 -> 3d; then nothing more
    events = world.step()
    assert of_type(events, Tripped) == [Tripped(runner, (16, 0))]
    assert of_type(events, Skidded) == [Skidded(runner, ((17, 0), (18, 0), (19, 0), (20, 0)))]
    assert of_type(events, FallDamage) == [FallDamage(runner, 16, "3d", 4, 4)]


def test_footing_past_twice_basic_move_loses_control_outright() -> None:
    world = gurps_world()
    runner = mover(world, velocity=14, basic_move=2, state=MoveState.HIGH_SPEED)
    for q in range(1, 7):
        world.spawn(Position(q, 0), Footing(extra_cost=1))
    events = world.step()
    assert rolls(events) == []
    assert of_type(events, LostControl) == [LostControl(runner, "footing", "trip", 8)]
    assert world.get(runner, Velocity).yps == 8  # the footing still slowed it
    assert world.get(runner, Control).loss_cause is LossCause.FOOTING


def test_footing_past_basic_move_needs_the_pushing_the_envelope_roll() -> None:
    world = gurps_world()
    runner = mover(world, velocity=14, basic_move=5, state=MoveState.HIGH_SPEED)
    for q in range(1, 7):
        world.spawn(Position(q, 0), Footing(extra_cost=1))
    world.dice.script(4, 4, 5)  # 13 against DX+3, no modifier for 1 yd/s over: made
    events = world.step()
    assert rolls(events) == [(runner, "hasty deceleration", 13)]
    assert world.get(runner, Velocity).yps == 8


# --- turning --------------------------------------------------------------------------------------------


def test_front_hexes_are_entered_without_changing_facing() -> None:
    world = gurps_world()
    runner = mover(world, velocity=10, state=MoveState.HIGH_SPEED, intent=Intent(veer=(1, -1, -1)))
    world.step()
    # front-left of (0, 0) facing east, then front-right twice
    assert world.get(runner, Control).path[:4] == [(0, 1), (1, 0), (2, -1), (3, -1)]
    assert world.get(runner, Facing).direction == 0


def test_a_turn_when_the_radius_was_already_run_last_turn_comes_at_once() -> None:
    world = gurps_world()
    runner = mover(world, velocity=13, state=MoveState.HIGH_SPEED, straight_yd=5, intent=Intent(turn=-1))
    events = world.step()
    assert of_type(events, Turned) == [Turned(runner, 0, 5, (0, 0), 0, False)]


@pytest.mark.parametrize(
    ("variant", "velocity", "basic_move", "encumbrance", "radius"),
    [
        ("basic", 13, 5, 0, 2),
        ("basic", 10, 5, 0, 2),
        ("basic", 9, 5, 0, 1),
        ("realistic", 8, 5, 0, 6),
        ("house", 13, 5, 1, 4),
        ("house", 12, 4, 0, 3),
    ],
    ids=[
        "velocity 13, Basic Move 5 -> radius 2",
        "velocity 10, Basic Move 5 -> radius 2 (exact)",
        "velocity 9, Basic Move 5 -> radius 1 (rounded down)",
        "realistic: velocity 8 -> 64 / 10 -> radius 6",
        "house: velocity 13, Encumbered Move 4 -> radius 4 (rounded up)",
        "house: velocity 12, Encumbered Move 4 -> radius 3 (exact)",
    ],
)
def test_a_turn_comes_once_the_turning_radius_is_run(
    variant: str, velocity: int, basic_move: int, encumbrance: int, radius: int
) -> None:
    world = gurps_world(Rules(turning_radius=variant, control="house" if variant == "house" else "basic"))
    runner = mover(
        world,
        velocity=velocity,
        basic_move=basic_move,
        encumbrance=encumbrance,
        top_speed=30,
        enhanced=True,
        state=MoveState.HIGH_SPEED,
        intent=Intent(turn=1),
    )
    events = world.step()
    assert [(turned.entity, turned.after_yd, turned.pushed) for turned in of_type(events, Turned)] == [
        (runner, radius, False)
    ]
    assert rolls(events) == []


def test_movers_act_in_initiative_order_fastest_first() -> None:
    world = gurps_world()
    slow = mover(world, velocity=4, basic_speed=5.0)
    fast = mover(world, at=(8, 0), facing=3, velocity=4, basic_speed=6.0)
    # fast (the higher id) moves first and takes (4, 0); slow then runs into it: fast's Dodge 9 fails on 15
    world.dice.script(5, 5, 5, 1, 1)
    events = world.step()
    assert [event.entity for event in of_type(events, Moved)] == [fast, slow]
    assert world.get(fast, Position).hex == (4, 0)
    assert [(hit.entity, hit.struck, hit.at) for hit in of_type(events, Collided)] == [(slow, fast, (3, 0))]


def test_a_tight_120_degree_turn_pushes_the_envelope() -> None:
    world = gurps_world()
    runner = mover(world, velocity=13, state=MoveState.HIGH_SPEED, intent=Intent(turn=2, push=True))
    world.dice.script(1, 2, 3)
    events = world.step()
    assert rolls(events) == [(runner, "tight turn", 12)]  # DX+3 at -1 (13 is one full Basic Move over 5)
    assert world.get(runner, Facing).direction == 2


def test_basic_move_0_drifts_straight_and_never_loses_control_on_its_maneuver() -> None:
    world = gurps_world()
    barrel = mover(
        world, velocity=4, basic_move=0, state=MoveState.HIGH_SPEED, intent=Intent(maneuver=Maneuver.DO_NOTHING)
    )
    events = world.step()
    assert of_type(events, LostControl) == []
    assert world.get(barrel, Position).hex == (4, 0)
    assert world.get(barrel, Velocity).yps == 4


# --- losing control ----------------------------------------------------------------------------------


def test_an_early_turn_failed_trips_skids_a_quarter_of_the_rest_and_takes_fall_damage() -> None:
    world = gurps_world()
    runner = mover(world, velocity=13, state=MoveState.HIGH_SPEED, intent=Intent(turn=1, turn_at_yd=1, push=True))
    # early turn: DX 10 + 3 - 1 = 12; 14 fails by 2. Fall at 13 yd/s, HP 10 doubled: 2.6 -> 3d = 6.
    world.dice.script(6, 6, 2, 1, 2, 3)
    events = world.step()
    # 6 injury is more than half of 10 HP, a major wound: an HT roll against 10.
    assert rolls(events) == [(runner, "early turn", 12), (runner, "fall damage", 6), (runner, "a major wound", 10)]
    assert of_type(events, LostControl) == [LostControl(runner, "failed roll", "trip", 1)]
    assert of_type(events, Turned) == []
    assert of_type(events, Moved) == [Moved(runner, ((1, 0),), 0)]
    assert of_type(events, Tripped) == [Tripped(runner, (1, 0))]
    assert of_type(events, Skidded) == [Skidded(runner, ((2, 0), (3, 0), (4, 0)))]  # (13 - 1) // 4 = 3
    assert of_type(events, FallDamage) == [FallDamage(runner, 13, "3d", 6, 6)]
    assert of_type(events, LeftHighSpeed) == [LeftHighSpeed(runner, 0, "tripped")]
    assert world.get(runner, Condition).injury == 6
    assert world.get(runner, Posture).state is PostureState.PRONE
    assert world.get(runner, Velocity).yps == 0
    assert world.get(runner, Control).state is MoveState.NORMAL
    assert world.get(runner, Position).hex == (4, 0)


def test_a_stunned_runner_trips_before_moving() -> None:
    world = gurps_world()
    runner = mover(world, velocity=10, state=MoveState.HIGH_SPEED)
    world.get(runner, Condition).stunned = True
    world.dice.script(3, 3, 3, 3)  # fall at 10 yd/s: 2.0 -> 2d = 6
    events = world.step()
    assert of_type(events, LostControl) == [LostControl(runner, "stunned", "trip", 0)]
    assert of_type(events, Skidded) == [Skidded(runner, ((1, 0), (2, 0)))]  # 10 // 4
    assert of_type(events, FallDamage) == [FallDamage(runner, 10, "2d", 6, 6)]


def test_any_maneuver_but_move_at_speed_loses_control() -> None:
    world = gurps_world()
    runner = mover(world, velocity=8, state=MoveState.HIGH_SPEED, intent=Intent(maneuver=Maneuver.ATTACK))
    world.dice.script(1, 1)  # fall at 8: 1.6 -> 2d
    events = world.step()
    assert of_type(events, LostControl) == [LostControl(runner, "maneuver", "trip", 0)]


def test_a_car_on_four_wheels_only_decelerates_until_back_to_basic_move() -> None:
    world = gurps_world()
    car = mover(
        world,
        velocity=30,
        basic_move=10,
        top_speed=40,
        wheels=4,
        legs=False,
        operator_skill=12,
        handling=0,
        hp=30,
        state=MoveState.HIGH_SPEED,
        intent=Intent(turn=1, turn_at_yd=0, push=True),
    )
    world.dice.script(6, 5, 4)  # Driving 12 + Handling 0 - 2 = 10; 15 fails by 5, not a critical failure
    events = world.step()
    assert rolls(events) == [(car, "early turn", 10)]
    assert of_type(events, LostControl) == [LostControl(car, "failed roll", "wheels", 0)]
    assert of_type(events, Tripped) == []
    assert world.get(car, Position).hex == (30, 0)
    assert world.get(car, Velocity).yps == 20
    assert world.get(car, Control).state is MoveState.OUT_OF_CONTROL
    events = world.step()
    assert world.get(car, Position).hex == (50, 0)
    assert of_type(events, RegainedControl) == [RegainedControl(car, 10)]
    assert world.get(car, Control).state is MoveState.NORMAL


def test_a_vehicle_nobody_controls_loses_control_and_slows_on_its_wheels() -> None:
    """Basic Set: High-Speed Movement > Maneuvers During High-Speed Movement: a vehicle at speed with nobody
    controlling it loses control (Losing Control). Being unmanned is no injury, so four wheels only decelerate:
    20 yards straight on, then down by Basic Move 10, where control is back."""
    world = gurps_world()
    car = mover(
        world, velocity=20, basic_move=10, top_speed=40, wheels=4, legs=False, handling=0, hp=30,
        state=MoveState.HIGH_SPEED,
    )  # fmt: skip
    events = world.step()
    assert of_type(events, LostControl) == [LostControl(car, "nobody at the controls", "wheels", 0)]
    assert of_type(events, Tripped) == []
    assert world.get(car, Position).hex == (20, 0)
    assert world.get(car, Velocity).yps == 10
    assert rolls(events) == []


def test_house_rules_a_vehicle_nobody_controls_rolls_nothing_to_win_control_back() -> None:
    """House rules: High Speed Movement, with nobody at the controls: no DX roll, only the slowing by Basic Move
    each turn until the velocity is under Encumbered Move."""
    world = gurps_world(Rules.house())
    car = mover(
        world, velocity=20, basic_move=10, top_speed=40, wheels=4, legs=False, handling=0, hp=30,
        state=MoveState.HIGH_SPEED,
    )  # fmt: skip
    events = world.step(2)
    assert of_type(events, LostControl) == [LostControl(car, "nobody at the controls", "wheels", 0)]
    assert rolls(events) == []
    assert world.get(car, Position).hex == (30, 0)
    assert world.get(car, Velocity).yps == 0
    assert of_type(events, RegainedControl) == [RegainedControl(car, 0)]


def test_a_vehicle_with_a_driver_or_a_rider_is_controlled() -> None:
    """A driver's skill (``operator_skill``), or a rider in the saddle of a ridden vehicle, is someone at the
    controls: no loss of control at a steady speed."""
    world = gurps_world()
    driven = mover(world, velocity=20, basic_move=10, top_speed=40, wheels=4, handling=0, operator_skill=12,
                   state=MoveState.HIGH_SPEED)  # fmt: skip
    bike = mover(world, at=(0, 5), velocity=20, basic_move=10, top_speed=40, wheels=2, handling=0,
                 state=MoveState.HIGH_SPEED, extra=(Mount(riders=[99], open_vehicle=True),))  # fmt: skip
    assert unmanned(world, body_of(world, driven)) is False
    assert unmanned(world, body_of(world, bike)) is False
    world.get(bike, Mount).riders.clear()
    assert unmanned(world, body_of(world, bike)) is True


def test_a_car_that_critically_fails_trips_after_all() -> None:
    world = gurps_world()
    car = mover(
        world,
        velocity=30,
        basic_move=10,
        top_speed=40,
        wheels=4,
        legs=False,
        operator_skill=12,
        hp=30,
        state=MoveState.HIGH_SPEED,
        intent=Intent(turn=1, turn_at_yd=0, push=True),
    )
    world.dice.script(6, 6, 6, *[1] * 18)  # 18: critical failure; fall at 30, HP 30 doubled: 18d
    events = world.step()
    assert of_type(events, LostControl) == [LostControl(car, "critical failure", "trip", 0)]
    assert of_type(events, FallDamage) == [FallDamage(car, 30, "18d", 18, 18)]


def test_wheels_give_no_stability_when_the_rule_is_off() -> None:
    world = gurps_world(Rules(wheeled_stability=False))
    car = mover(world, velocity=20, basic_move=10, wheels=4, state=MoveState.HIGH_SPEED)
    world.get(car, Condition).conscious = True
    world.get(car, Intent).maneuver = Maneuver.READY
    world.dice.script(1, 1, 1, 1)
    events = world.step()
    assert of_type(events, LostControl) == [LostControl(car, "maneuver", "trip", 0)]


def test_losing_control_in_the_air_drifts_straight_then_slows_by_air_move() -> None:
    world = gurps_world()
    bird = mover(
        world,
        velocity=20,
        basic_move=2,
        altitude_yd=10.0,
        state=MoveState.HIGH_SPEED,
        intent=Intent(maneuver=Maneuver.ATTACK),
        extra=(Flight(air_move=12, top_airspeed=24),),
    )
    events = world.step()
    assert of_type(events, LostControl) == [LostControl(bird, "maneuver", "drift", 0)]
    assert world.get(bird, Position).hex == (20, 0)
    assert of_type(events, VelocityChanged) == [VelocityChanged(bird, 20, 8, 0, 12)]
    assert of_type(events, RegainedControl) == [RegainedControl(bird, 8)]
    assert of_type(events, Tripped) == []
    assert world.get(bird, Control).state is MoveState.NORMAL


def test_losing_control_in_water_uses_water_move() -> None:
    world = gurps_world()
    boat = mover(
        world,
        velocity=9,
        basic_move=0,
        water_move=4,
        swimming=True,
        top_speed=12,
        state=MoveState.HIGH_SPEED,
        cause=None,
    )
    world.get(boat, Condition).stunned = True
    events = world.step()
    assert of_type(events, LostControl) == [LostControl(boat, "stunned", "drift", 0)]
    assert world.get(boat, Velocity).yps == 5
    assert world.get(boat, Control).state is MoveState.HIGH_SPEED


# --- collisions -------------------------------------------------------------------------------------


def test_a_head_on_collision_adds_velocities_and_hurts_both() -> None:
    world = gurps_world()
    a = mover(world, velocity=10, basic_speed=6.0, hp=12, state=MoveState.HIGH_SPEED)
    b = mover(world, at=(6, 0), facing=3, velocity=8, state=MoveState.HIGH_SPEED)
    # b's Dodge 8: 15 fails. At 18 yd/s a takes 10 x 18 / 100 = 1.8 -> 2d, b takes 12 x 18 / 100 -> 2d.
    world.dice.script(5, 5, 5, 3, 4, 2, 2)
    events = world.step()
    assert rolls(events) == [
        (b, "dodge out of the way of entity 1", 8),
        (a, "collision damage from entity 2", 7),
        (b, "collision damage from entity 1", 4),
        (a, "a major wound", 10),  # 7 injury is more than half of 12 HP: an HT roll against 10
    ]
    assert of_type(events, Collided) == [Collided(a, b, (5, 0), "head-on", 18, "2d", 7, 7, "2d", 4, 4)]
    assert world.get(a, Condition).injury == 7
    assert world.get(b, Condition).injury == 4
    assert world.get(a, Position).hex == (5, 0)
    assert world.get(b, Position).hex == (6, 0)  # struck before its own move: it stops
    assert world.get(a, Velocity).yps == world.get(b, Velocity).yps == 0
    assert of_type(events, LeftHighSpeed) == [LeftHighSpeed(a, 0, "collision"), LeftHighSpeed(b, 0, "collision")]
    assert of_type(events, KnockedDown) == []


def test_a_rear_end_collision_subtracts_and_can_knock_down() -> None:
    world = gurps_world()
    a = mover(world, velocity=12, basic_speed=6.0, hp=20, state=MoveState.HIGH_SPEED)
    b = mover(world, at=(3, 0), velocity=6, hp=10, state=MoveState.HIGH_SPEED)
    world.get(b, Condition).conscious = False  # cannot dodge
    # at 6 yd/s: a takes 10 x 6 / 100 = 0.6 -> 1d-1; b takes 20 x 6 / 100 = 1.2 -> 1d
    world.dice.script(1, 6)
    events = world.step()
    assert of_type(events, Collided) == [Collided(a, b, (2, 0), "rear-end", 6, "1d-1", 0, 0, "1d", 6, 6)]
    assert of_type(events, KnockedDown) == [KnockedDown(b, a)]
    assert world.get(b, Posture).state is PostureState.PRONE


def test_a_body_that_dodges_lets_the_runner_through() -> None:
    world = gurps_world()
    runner = mover(world, velocity=6, basic_speed=6.0, state=MoveState.HIGH_SPEED)
    bystander = world.spawn(Position(2, 0), Mover(basic_move=5, basic_speed=5.0))
    world.dice.script(1, 2, 3)
    events = world.step()
    assert of_type(events, DodgedAside) == [DodgedAside(bystander, runner, (2, 0), (1, 1))]
    assert world.get(runner, Position).hex == (6, 0)


def test_a_wall_doubles_the_runners_hp_and_both_take_it() -> None:
    world = gurps_world()
    runner = mover(world, velocity=10, state=MoveState.HIGH_SPEED)
    wall = world.spawn(Position(4, 0), Obstacle(hp=200, hard=True))
    world.dice.script(1, 2, 3, 4)  # 10 HP doubled at 10 yd/s: 2d each way
    events = world.step()
    assert of_type(events, Collided) == [Collided(runner, wall, (3, 0), "obstacle", 10, "2d", 3, 3, "2d", 7, 7)]


def test_a_flier_above_a_wall_passes_over_it() -> None:
    world = gurps_world()
    bird = mover(
        world,
        velocity=6,
        altitude_yd=3.0,
        state=MoveState.HIGH_SPEED,
        extra=(Flight(air_move=5),),
    )
    world.spawn(Position(2, 0), Obstacle(height_yd=2.0))
    events = world.step()
    assert of_type(events, Collided) == []
    assert world.get(bird, Position).hex == (6, 0)


def test_a_runner_with_legs_jumps_a_fence_on_a_dx_roll() -> None:
    world = gurps_world()
    runner = mover(world, velocity=6, state=MoveState.HIGH_SPEED)
    fence = world.spawn(Position(2, 0), Obstacle(hp=20, hard=False, height_yd=1.0, crossable=True))
    world.dice.script(3, 3, 4)  # 10 against DX 10
    events = world.step()
    assert rolls(events) == [(runner, f"jump obstacle {fence}", 10)]
    assert of_type(events, ObstacleCrossed) == [ObstacleCrossed(runner, fence, (2, 0))]
    assert world.get(runner, Position).hex == (6, 0)


@pytest.mark.parametrize(
    ("wheels", "mode"),
    [(0, "trip"), (4, "trip")],
    ids=["a runner trips", "four wheels still trip: being knocked out is an injury"],
)
def test_a_knocked_out_runner_trips(wheels: int, mode: str) -> None:
    """Basic Set: High-Speed Movement > Losing Control: a mover knocked out at high speed loses control before
    it moves, and the stability of three or more wheels does not help after an injury."""
    world = gurps_world()
    runner = mover(world, velocity=10, state=MoveState.HIGH_SPEED, wheels=wheels)
    world.get(runner, Condition).conscious = False
    events = world.step()
    assert of_type(events, LostControl)[0] == LostControl(runner, "unconscious", mode, 0)


@pytest.mark.parametrize(
    ("chosen", "target"),
    [(Rules.basic(), 10), (Rules.house(), 8)],
    ids=["Basic Set: DX 10 on a Move and Attack", "house: DX 10 - 2 on a Move and Attack"],
)
def test_house_rules_dragon_rule_a_move_and_attack_takes_2_off_the_jump(chosen: Rules, target: int) -> None:
    """House rules: "Dragon" Rule: every DX roll made during a Move and Attack is at -2, here the runner's roll
    to jump a fence (Basic Set: High-Speed Movement > Direction and Turning Radius). The Basic Set seeds give no
    such penalty."""
    world = gurps_world(chosen)
    runner = mover(world, velocity=6, state=MoveState.HIGH_SPEED, intent=Intent(maneuver=Maneuver.MOVE_AND_ATTACK))
    fence = world.spawn(Position(2, 0), Obstacle(hp=20, hard=False, height_yd=1.0, crossable=True))
    world.dice.script(3, 3, 2)  # 8: made either way
    events = world.step()
    assert rolls(events) == [(runner, f"jump obstacle {fence}", target)]
    assert of_type(events, ObstacleCrossed) == [ObstacleCrossed(runner, fence, (2, 0))]


@pytest.mark.parametrize(("veer", "bystander"), [((0, 1), (1, 1)), ((0, -1), (2, -1))], ids=["veer left", "veer right"])
def test_a_jump_lands_straight_on_past_the_fence_never_on_it(veer: tuple[int, ...], bystander: Hex) -> None:
    """Basic Set: High-Speed Movement > Direction and Turning Radius (jumping an obstacle), issue 15 finding 12: the
    runner clears the fence on (1, 0) and meant to veer into the front hex where a bystander stands; it used to run
    into the bystander and end its move on the fence. A jump carries it straight on: (2, 0), then 4 yd more east,
    6 yd in all to (6, 0), and the bystander is not touched."""
    world = gurps_world()
    runner = mover(world, velocity=6, state=MoveState.HIGH_SPEED, intent=Intent(veer=veer))
    fence = world.spawn(Position(1, 0), Obstacle(hp=20, hard=False, height_yd=1.0, crossable=True))
    other = mover(world, at=bystander)
    world.dice.script(3, 3, 4)  # 10 against DX 10: cleared
    events = world.step()
    assert of_type(events, ObstacleCrossed) == [ObstacleCrossed(runner, fence, (1, 0))]
    assert of_type(events, Collided) == []
    assert world.get(runner, Position).hex == (6, 0)
    assert world.get(other, Position).hex == bystander


def test_basic_set_high_speed_movement_jumping_obstacles_a_veering_horse_needs_room_for_its_whole_body() -> None:
    """Basic Set: High-Speed Movement, jumping obstacles: a two-hex horse facing east veers north-east (0, +1) onto the
    fence on (0, 1) and would be carried on north-east with its body still laid out behind it to the west, its rear
    coming to fill (-1, 2), where a bystander stands. It used to clear the fence, strike the bystander with its rear
    and end its move on the fence; with nowhere to land its whole body it stops short of the fence, with no roll."""
    world = gurps_world()
    horse = mover(
        world,
        velocity=6,
        state=MoveState.HIGH_SPEED,
        intent=Intent(veer=(1,)),
        extra=(Mount(riders=[], hexes=2, training="war-trained"),),
    )
    world.spawn(Position(0, 1), Obstacle(hp=20, hard=False, height_yd=1.0, crossable=True))
    other = mover(world, at=(-1, 2))
    events = world.step()
    assert of_type(events, ObstacleCrossed) == []
    assert [roll for roll in of_type(events, RollMade) if roll.entity == horse] == []
    assert world.get(horse, Position).hex == (0, 0)
    assert world.get(other, Position).hex == (-1, 2)


def test_a_horse_that_veers_over_a_fence_with_room_for_its_whole_body_lands_beyond_it() -> None:
    """The same jump with the bystander gone: the horse clears the fence and is carried on north-east, its front
    past the fence, and goes on east: 6 yd to (3, 3)."""
    world = gurps_world()
    horse = mover(
        world,
        velocity=6,
        state=MoveState.HIGH_SPEED,
        intent=Intent(veer=(1,)),
        extra=(Mount(riders=[], hexes=2, training="war-trained"),),
    )
    fence = world.spawn(Position(0, 1), Obstacle(hp=20, hard=False, height_yd=1.0, crossable=True))
    world.dice.script(3, 3, 4)  # 10 against DX 10: cleared
    events = world.step()
    assert of_type(events, ObstacleCrossed) == [ObstacleCrossed(horse, fence, (0, 1))]
    assert of_type(events, Collided) == []
    assert world.get(horse, Position).hex == (3, 3)


def test_a_turn_due_over_the_fence_is_made_on_landing() -> None:
    """Finding 12, the turn: velocity 6 gives a turning radius of 6 // 5 = 1 yd, and the turn asked at yard 1 falls on
    the fence's hex; it is made on landing at (2, 0) after 2 yd, and the 4 yd left go north-east (0, +1) to (2, 4)."""
    world = gurps_world()
    runner = mover(world, velocity=6, state=MoveState.HIGH_SPEED, intent=Intent(turn=1, turn_at_yd=1))
    world.spawn(Position(1, 0), Obstacle(hp=20, hard=False, height_yd=1.0, crossable=True))
    world.dice.script(3, 3, 4)
    events = world.step()
    assert of_type(events, Turned) == [Turned(runner, 0, 1, (2, 0), 2, False)]
    assert world.get(runner, Position).hex == (2, 4)


def test_a_sequence_of_changes_of_facing_over_a_fence_is_made_from_the_landing_on() -> None:
    """Finding 12 with several changes of facing (``Intent.turns``; Basic Set: High-Speed Movement > Direction and
    Turning Radius): the change asked at yard 1 falls on the fence's hex and is made on landing at (2, 0) after 2 yd;
    the one at yard 3 comes where asked, on (2, 1), and the 3 yd left go east to (5, 1)."""
    world = gurps_world()
    runner = mover(world, velocity=6, state=MoveState.HIGH_SPEED, intent=Intent(turns=((1, 1), (3, -1))))
    world.spawn(Position(1, 0), Obstacle(hp=20, hard=False, height_yd=1.0, crossable=True))
    world.dice.script(3, 3, 4)
    events = world.step()
    assert of_type(events, Turned) == [Turned(runner, 0, 1, (2, 0), 2, False), Turned(runner, 1, 0, (2, 1), 3, False)]
    assert world.get(runner, Position).hex == (5, 1)


def test_two_changes_of_facing_due_in_mid_air_are_both_made_on_landing() -> None:
    """A two-hex horse is carried 2 yd over the fence on (1, 0), landing at (3, 0) after 3 yd: both changes asked
    in mid-air, at yards 1 and 2, are made there, in order, and it goes on east to (6, 0). Neither is pushed: a
    change needs a roll by the yard it was asked at (velocity 6: radius 1), as the TURNING phase planned it."""
    world = gurps_world()
    horse = mover(
        world,
        velocity=6,
        state=MoveState.HIGH_SPEED,
        intent=Intent(turns=((1, 1), (2, -1))),
        extra=(Mount(riders=[], hexes=2, training="war-trained"),),
    )
    world.spawn(Position(1, 0), Obstacle(hp=20, hard=False, height_yd=1.0, crossable=True))
    world.dice.script(3, 3, 4)
    events = world.step()
    assert of_type(events, Turned) == [Turned(horse, 0, 1, (3, 0), 3, False), Turned(horse, 1, 0, (3, 0), 3, False)]
    assert world.get(horse, Position).hex == (6, 0)


def test_a_failed_jump_runs_into_the_fence() -> None:
    world = gurps_world()
    runner = mover(world, velocity=6, state=MoveState.HIGH_SPEED)
    fence = world.spawn(Position(2, 0), Obstacle(hp=20, hard=False, height_yd=1.0, crossable=True))
    # 13 fails; the runner takes the soft fence's HP 20 x 6 / 100 = 1.2 -> 1d, the fence 10 x 6 / 100 -> 1d-1
    world.dice.script(6, 6, 1, 2, 3)
    events = world.step()
    assert of_type(events, Collided) == [Collided(runner, fence, (1, 0), "obstacle", 6, "1d", 2, 2, "1d-1", 2, 2)]


def test_a_skid_into_a_wall_is_a_collision_instead_of_a_fall() -> None:
    world = gurps_world()
    runner = mover(world, velocity=12, state=MoveState.HIGH_SPEED, intent=Intent(maneuver=Maneuver.AIM))
    wall = world.spawn(Position(2, 0), Obstacle())
    world.dice.script(1, 1, 1, 1, 1, 1)  # HP 10 doubled at 12 yd/s: 2.4 -> 2d each way
    events = world.step()
    assert of_type(events, Skidded) == [Skidded(runner, ((1, 0),))]
    assert of_type(events, FallDamage) == []
    assert of_type(events, Collided) == [Collided(runner, wall, (1, 0), "obstacle", 12, "2d", 2, 2, "2d", 2, 2)]


# --- riders and the house rules ---------------------------------------------------------------------


def test_a_rider_is_never_moved_or_put_out_of_control() -> None:
    world = gurps_world()
    horse = mover(world, velocity=10, state=MoveState.HIGH_SPEED)
    rider = mover(world, intent=Intent(maneuver=Maneuver.ATTACK))
    world.get(rider, Control).carried_by = horse
    events = world.step()
    assert of_type(events, LostControl) == []
    assert world.get(rider, Position).hex == (0, 0)
    assert world.get(horse, Position).hex == (10, 0)  # a rider is no body in the way


def test_house_rules_trip_falls_from_a_quarter_of_the_velocity() -> None:
    world = gurps_world(Rules.house())
    runner = mover(world, velocity=12, state=MoveState.HIGH_SPEED, intent=Intent(maneuver=Maneuver.DO_NOTHING))
    world.dice.script(2, 2)  # fall from 3 yd: 8 yd/s; HP 10 doubled: 1.6 -> 2d
    events = world.step()
    assert of_type(events, Skidded) == [Skidded(runner, ((1, 0), (2, 0), (3, 0)))]
    assert of_type(events, FallDamage) == [FallDamage(runner, 8, "2d", 4, 4)]


def test_house_rules_high_speed_starts_above_encumbered_move() -> None:
    house, basic = gurps_world(Rules(turning_radius="house", control="house")), gurps_world()
    runners = [mover(world, velocity=4, encumbrance=1, intent=Intent(throttle=1)) for world in (house, basic)]
    house_events, basic_events = house.step(), basic.step()
    assert of_type(house_events, EnteredHighSpeed) == [EnteredHighSpeed(runners[0], 5)]
    assert of_type(basic_events, EnteredHighSpeed) == []  # 5 is not above Basic Move 5
    assert basic.get(runners[1], Velocity).yps == 5


def test_house_rules_failed_early_turn_changes_facing_not_direction() -> None:
    world = gurps_world(Rules(turning_radius="house", control="house"))
    runner = mover(
        world,
        velocity=13,
        top_speed=20,
        enhanced=True,
        state=MoveState.HIGH_SPEED,
        intent=Intent(turn=1, turn_at_yd=1, push=True),
    )
    # DX+3 minus the house radius (13 / 5 rounded up: 3) = 10; 12 fails. A fall from 13 / 4 = 3.25 yd is at
    # 8 yd/s (round(sqrt(21.4 x 3.25))): HP 10 doubled, 1.6 -> 2d.
    world.dice.script(4, 4, 4, 3, 3)
    events = world.step()
    assert rolls(events)[0] == (runner, "early turn", 10)
    assert of_type(events, Turned) == [Turned(runner, 0, 1, (1, 0), 1, True)]
    assert of_type(events, Skidded) == [Skidded(runner, ((2, 0), (3, 0), (4, 0)))]
    assert of_type(events, FallDamage) == [FallDamage(runner, 8, "2d", 6, 6)]
    assert world.get(runner, Facing).direction == 1


def test_house_rules_cycle_slows_by_basic_move_until_a_dx_roll_wins_control_back() -> None:
    world = gurps_world(Rules(turning_radius="house", control="house"))
    bird = mover(
        world,
        velocity=34,
        basic_move=2,
        altitude_yd=100.0,
        state=MoveState.HIGH_SPEED,
        intent=Intent(maneuver=Maneuver.ATTACK),
        extra=(Flight(air_move=10, top_airspeed=40),),
    )
    events = world.step()  # loses control; straight on, then 34 - 10
    assert of_type(events, LostControl) == [LostControl(bird, "maneuver", "drift", 0)]
    assert world.get(bird, Velocity).yps == 24
    assert rolls(events) == []
    world.dice.script(6, 6, 1)  # DX 10: 13 fails, 24 - 10
    events = world.step()
    assert rolls(events) == [(bird, "regain control", 10)]
    assert world.get(bird, Position).hex == (58, 0)
    assert world.get(bird, Velocity).yps == 14
    assert world.get(bird, Control).state is MoveState.OUT_OF_CONTROL
    world.get(bird, Intent).throttle = -4
    world.dice.script(1, 2, 3)  # made: control is back, and the throttle applies
    events = world.step()
    assert of_type(events, RegainedControl) == [RegainedControl(bird, 14)]
    assert of_type(events, VelocityChanged) == [VelocityChanged(bird, 14, 10, -4, 0)]
    assert world.get(bird, Control).state is MoveState.NORMAL


def test_house_rules_control_returns_at_once_below_encumbered_move() -> None:
    world = gurps_world(Rules(turning_radius="house", control="house"))
    bird = mover(
        world,
        velocity=12,
        altitude_yd=50.0,
        state=MoveState.HIGH_SPEED,
        intent=Intent(maneuver=Maneuver.READY),
        extra=(Flight(air_move=8),),
    )
    events = world.step()
    assert of_type(events, RegainedControl) == [RegainedControl(bird, 4)]


@pytest.mark.parametrize(
    ("velocity", "lost"),
    [(7, False), (8, True)],
    ids=["All-Out Defense at half top speed keeps control", "above half top speed loses it"],
)
def test_house_rules_allow_all_out_maneuvers_at_up_to_half_top_speed(velocity: int, lost: bool) -> None:
    world = gurps_world(Rules(turning_radius="house", control="house"))
    runner = mover(
        world,
        velocity=velocity,
        basic_move=5,
        top_speed=14,
        enhanced=True,
        state=MoveState.HIGH_SPEED,
        intent=Intent(maneuver=Maneuver.ALL_OUT_DEFENSE),
    )
    world.dice.script(*[1] * 10)
    events = world.step()
    assert [event.entity for event in of_type(events, LostControl)] == ([runner] if lost else [])


@pytest.mark.parametrize(
    ("slam", "lost"),
    [(True, False), (False, True)],
    ids=[
        "All-Out Attack slam at top speed keeps control",
        "All-Out Attack without slam at top speed loses control",
    ],
)
def test_house_rules_high_speed_movement_an_all_out_attack_slam_is_allowed_at_any_speed(slam: bool, lost: bool) -> None:
    """House rules: High Speed Movement: no All-Out maneuver above half the maximum speed, except an All-Out
    Attack that is a slam. Top speed 14, at 14 yd/s."""
    world = gurps_world(Rules.house())
    runner = mover(
        world,
        velocity=14,
        basic_move=5,
        top_speed=14,
        enhanced=True,
        state=MoveState.HIGH_SPEED,
        intent=Intent(maneuver=Maneuver.ALL_OUT_ATTACK, slam=slam),
    )
    world.dice.script(*[1] * 10)
    events = world.step()
    assert [(event.entity, event.cause) for event in of_type(events, LostControl)] == (
        [(runner, "maneuver")] if lost else []
    )
    assert world.get(runner, Intent).slam is False  # cleared with the rest of the intent


def test_a_slam_still_loses_control_under_the_basic_set() -> None:
    """Basic Set: High-Speed Movement > Maneuvers During High-Speed Movement knows no All-Out exception."""
    world = gurps_world()
    runner = mover(
        world,
        velocity=14,
        top_speed=14,
        enhanced=True,
        state=MoveState.HIGH_SPEED,
        intent=Intent(maneuver=Maneuver.ALL_OUT_ATTACK, slam=True),
    )
    world.dice.script(*[1] * 10)
    assert [event.entity for event in of_type(world.step(), LostControl)] == [runner]


def test_house_rules_a_top_speed_below_the_velocity_loses_control() -> None:
    world = gurps_world(Rules(turning_radius="house", control="house"))
    runner = mover(world, velocity=8, state=MoveState.HIGH_SPEED)  # house top speed of Move 5: 6
    world.dice.script(*[1] * 10)
    events = world.step()
    assert of_type(events, LostControl) == [LostControl(runner, "top speed below velocity", "trip", 0)]


# --- the installed order -------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_seeded_crowd_runs_the_same_twice(seed: int) -> None:
    def run() -> list[str]:
        world = World(seed=seed)
        install(world)
        for index in range(6):
            mover(world, at=(0, 2 * index), velocity=10 + index, state=MoveState.HIGH_SPEED, basic_speed=5.0 + index)
            mover(world, at=(30, 2 * index), facing=3, velocity=9, state=MoveState.HIGH_SPEED)
        log = []
        for _ in range(3):
            log.extend(event.describe() for event in world.step())
        return log

    assert run() == run()


@settings(max_examples=200, deadline=None)
@given(
    velocity=st.integers(1, 40),
    basic_move=st.integers(1, 10),
    headroom=st.integers(0, 20),
    throttle=st.integers(-25, 15),
    seed=st.integers(0, 2**32 - 1),
)
def test_velocity_never_leaves_what_the_rules_allow(
    velocity: int, basic_move: int, headroom: int, throttle: int, seed: int
) -> None:
    """Accelerating, Decelerating, Pushing the Envelope: a turn adds at most Basic Move, never past top speed,
    and takes off at most twice Basic Move; anything else is refused, never clamped."""
    assume(velocity > basic_move)
    world = World(seed=seed)
    install(world)
    top = velocity + headroom
    runner = mover(
        world,
        velocity=velocity,
        basic_move=basic_move,
        top_speed=top,
        enhanced=True,
        state=MoveState.HIGH_SPEED,
        intent=Intent(throttle=throttle, push=True),
    )
    allowed = -min(2 * basic_move, velocity) <= throttle <= min(basic_move, top - velocity)
    try:
        world.step()
    except IntentError:
        assert not allowed
        return
    assert allowed
    after = world.get(runner, Velocity).yps
    assert after in (velocity, velocity + throttle)  # made, or control lost and the cut not made
    assert 0 <= after <= top

"""Flying Movement and Combat under the house rules (``Rules.flight == "house"``, seed 001).

Scenario tests build a world with no window, step it with scripted dice, and assert on events and state.
"""

from __future__ import annotations

import pytest

from esper_motion.components.flight import Flight, FlightIntent, FlightMode
from esper_motion.components.gurps import Condition, Control, Intent, LossCause, Maneuver, Mover, MoveState, Obstacle
from esper_motion.components.motion import Facing, Position, Velocity
from esper_motion.ecs import Event, IntentError, RollMade, RuleValueError, World, WorldError, success_probability
from esper_motion.systems.gurps import Rules, install, preview
from esper_motion.systems.gurps.events import (
    AltitudeChanged,
    ClimbDiveTurn,
    EnteredHighSpeed,
    FallDamage,
    Falling,
    Landed,
    LeftHighSpeed,
    LiftRegained,
    LostControl,
    RegainedControl,
    Stalled,
    Turned,
    VelocityChanged,
    WingspanObstructed,
    WipedOut,
)
from esper_motion.systems.gurps.flight.aerial import (
    aerial_retreat,
    height_effect,
    house_ranged_distance,
    move_and_attack,
)
from esper_motion.systems.gurps.highspeed.queries import movement_limits
from esper_motion.systems.gurps.shared.climbing import climb_cost
from esper_motion.systems.gurps.shared.movers import body_of, installed_rules, limits


def house_world() -> World:
    world = World(seed=3)
    install(world, Rules.house())
    return world


def flier(
    world: World,
    altitude_yd: float = 30.0,
    velocity: int = 12,
    state: MoveState = MoveState.HIGH_SPEED,
    straight_yd: int = 5,
    **flight: object,
) -> int:
    """A flier with air Move 10 and top airspeed 20 (DX 12, HP 10), flying east at high speed by default."""
    flight.setdefault("air_move", 10)
    flight.setdefault("top_airspeed", 20)
    flight.setdefault("mode", FlightMode.CANNOT_HOVER)
    return world.spawn(
        Position(0, 0, altitude_yd),
        Facing(0),
        Velocity(velocity),
        Mover(basic_move=5, dx=12, hp=10),
        Condition(),
        Control(state, straight_yd=straight_yd),
        Intent(),
        Flight(**flight),  # type: ignore[arg-type]
        FlightIntent(),
    )


def of(events: list[Event], kind: type) -> list[Event]:
    return [event for event in events if isinstance(event, kind)]


def climb(world: World, entity: int, yards: int) -> None:
    world.get(entity, FlightIntent).climb_yd = yards


# --- Climbing and diving at speed -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("level", "climb_yd", "cost"),
    [(8, 4, 12), (8, -10, 8), (8, -12, 10), (0, 3, 3)],
    ids=[
        "8 level + 4 up -> 12 (a yard of movement per yard climbed)",
        "8 level + 10 down -> 8 (the first 10 yards of a dive are free)",
        "8 level + 12 down -> 10 (each yard past 10 costs one)",
        "straight up 3 -> 3",
    ],
)
def test_house_climb_cost(level: int, climb_yd: int, cost: int) -> None:
    assert climb_cost(level, climb_yd, house=True) == cost


def test_a_climb_takes_its_own_yards_and_cuts_speed_yard_for_yard() -> None:
    world = house_world()
    hawk = flier(world)
    climb(world, hawk, 4)
    events = world.step()
    assert of(events, AltitudeChanged) == [AltitudeChanged(hawk, 4, 34.0, 8, 12)]
    assert of(events, ClimbDiveTurn) == [ClimbDiveTurn(hawk, 4, 60, False)]  # 5 yards run straight: radius 2
    assert world.get(hawk, Velocity).yps == 8  # 12 less the 4 yards climbed


def test_only_the_first_10_yards_of_a_climb_cut_speed() -> None:
    world = house_world()
    hawk = flier(world, velocity=16, air_move=12, top_airspeed=30)
    world.dice.script(1, 1, 1)  # 12 yards is a 120-degree turn: the roll is made
    climb(world, hawk, 12)
    world.step()
    assert world.get(hawk, Velocity).yps == 6


def test_a_short_climb_is_no_turn_and_the_same_climb_again_is_none() -> None:
    world = house_world()
    hawk = flier(world, straight_yd=0)
    climb(world, hawk, 2)
    assert of(world.step(), ClimbDiveTurn) == []  # 1-2 yards: 0 degrees
    hawk2 = flier(world, velocity=18, top_airspeed=30)
    climb(world, hawk2, 4)
    climb(world, hawk, 0)
    assert of(world.step(), ClimbDiveTurn) == [ClimbDiveTurn(hawk2, 4, 60, False)]
    climb(world, hawk2, 4)
    assert of(world.step(), ClimbDiveTurn) == []  # the same climb as last turn: no new turn


def test_a_climb_started_before_the_turning_radius_needs_the_early_turn_roll() -> None:
    world = house_world()
    hawk = flier(world, straight_yd=0)
    climb(world, hawk, 4)
    world.dice.script(5, 5, 4)  # 14 against DX+3-2 = 13
    events = world.step()
    [roll] = of(events, RollMade)
    assert roll.result.target == 13  # type: ignore[attr-defined]
    assert of(events, ClimbDiveTurn) == [ClimbDiveTurn(hawk, 4, 60, True)]
    assert of(events, LostControl) == [LostControl(hawk, "failed roll", "drift", 8)]


def test_a_120_degree_climb_always_needs_the_roll() -> None:
    world = house_world()
    hawk = flier(world, velocity=16, top_airspeed=30, straight_yd=20)
    climb(world, hawk, 6)
    world.dice.script(2, 2, 2)
    events = world.step()
    assert [event.result.target for event in of(events, RollMade)] == [15 - 2]  # type: ignore[attr-defined]
    assert of(events, ClimbDiveTurn) == [ClimbDiveTurn(hawk, 6, 120, True)]
    assert world.get(hawk, Control).state is not MoveState.OUT_OF_CONTROL


def test_a_dive_adds_its_yards_to_speed_and_top_speed_and_the_bonus_lingers() -> None:
    world = house_world()
    hawk = flier(world)
    climb(world, hawk, -5)
    world.step()
    flight = world.get(hawk, Flight)
    assert world.get(hawk, Velocity).yps == 17
    assert (flight.dive_bonus_yps, flight.dive_bonus_turns) == (5, 1)
    assert limits(world, body_of(world, hawk), installed_rules(world)).top_speed == 25
    climb(world, hawk, -5)
    world.dice.script(3, 3, 3)  # 22 is past the normal top speed of 20: DX+2
    events = world.step()
    [roll] = of(events, RollMade)
    assert (roll.purpose, roll.result.target, roll.result.success) == ("dive past top speed", 14, True)  # type: ignore[attr-defined]
    assert world.get(hawk, Velocity).yps == 22
    assert (flight.dive_bonus_yps, flight.dive_bonus_turns) == (10, 2)
    world.get(hawk, Intent).throttle = -2
    world.step()  # level again: the bonus lasts two more turns
    assert (flight.dive_bonus_yps, flight.dive_bonus_turns) == (10, 1)
    world.get(hawk, Intent).throttle = -2
    world.step()
    assert (flight.dive_bonus_yps, flight.dive_bonus_turns) == (0, 0)
    assert world.get(hawk, Velocity).yps == 18


def test_every_speed_a_climb_a_dive_or_a_drop_changes_is_said_so_the_events_follow_the_velocity() -> None:
    world = house_world()
    hawk = flier(world)
    climb(world, hawk, -5)  # 5 yards dived: +5
    assert of(world.step(), VelocityChanged) == [VelocityChanged(hawk, 12, 17, 0, -5)]
    climb(world, hawk, 3)  # 3 yards climbed: -3
    assert of(world.step(), VelocityChanged) == [VelocityChanged(hawk, 17, 14, 0, 3)]
    world.add(hawk, Control(MoveState.OUT_OF_CONTROL, loss_cause=LossCause.FAILED_ROLL))
    world.dice.script(6, 6, 6)  # the DX roll to regain control fails
    changes = of(world.step(), VelocityChanged)
    assert changes == [VelocityChanged(hawk, 14, 19, 0, -5), VelocityChanged(hawk, 19, 9, 0, 10)]  # drop, then slow
    assert world.get(hawk, Velocity).yps == 9


def test_a_failed_fast_dive_roll_loses_control() -> None:
    world = house_world()
    hawk = flier(world, velocity=19)
    climb(world, hawk, -2)
    world.dice.script(6, 6, 4)  # 16 against 14
    events = world.step()
    assert world.get(hawk, Velocity).yps == 21
    assert of(events, LostControl) == [LostControl(hawk, "failed roll", "drift", 19)]  # all 19 yards flown level


def test_the_dive_bonus_stops_at_the_absolute_dive_maximum() -> None:
    world = house_world()
    hawk = flier(world, velocity=96, air_move=30, top_airspeed=90, altitude_yd=500)
    world.get(hawk, Flight).dive_bonus_yps = 8
    world.get(hawk, Flight).dive_bonus_turns = 3
    climb(world, hawk, -2)
    world.dice.script(1, 1, 1)
    world.step()
    assert world.get(hawk, Velocity).yps == 98
    assert world.get(hawk, Flight).dive_bonus_yps == 10  # 90 + 10 = 100, the absolute maximum
    climb(world, hawk, -5)
    world.dice.script(1, 1, 1)
    world.step()
    assert world.get(hawk, Velocity).yps == 100
    assert world.get(hawk, Flight).dive_bonus_yps == 10


# --- Climbing and diving in one turn -----------------------------------------------------------------------------


def legs(world: World, entity: int, *pairs: tuple[int, int]) -> None:
    world.get(entity, FlightIntent).legs = pairs


def test_house_rules_flying_a_climb_and_a_dive_in_one_turn_with_level_flight_between_need_no_roll() -> None:
    """House rules: Flying Movement and Combat: climb 4 from the start of the turn, dive 4 from yard 6. At
    12 yd/s under air Move 10 the radius is 2 yards: 5 run straight before the climb, 6 between the two
    starts, so neither needs a roll. The climb costs 4 yards of movement (8 level yards are left of 12), the dive
    is free; speed goes down 4 and back up 4, and the top speed gains 4 for the dive."""
    world = house_world()
    hawk = flier(world)
    legs(world, hawk, (0, 4), (6, -4))
    events = world.step()
    assert of(events, RollMade) == []
    assert of(events, ClimbDiveTurn) == [ClimbDiveTurn(hawk, 4, 60, False), ClimbDiveTurn(hawk, -4, 60, False)]
    assert of(events, AltitudeChanged) == [
        AltitudeChanged(hawk, 4, 34.0, 8, 12),
        AltitudeChanged(hawk, -4, 30.0, 8, 12),
    ]
    flight = world.get(hawk, Flight)
    assert (flight.climbed_yd, flight.flown_legs, flight.up_yd, flight.down_yd) == (0, ((0, 4), (6, -4)), 4, 4)
    assert world.get(hawk, Velocity).yps == 12
    assert (flight.dive_bonus_yps, flight.dive_bonus_turns) == (4, 1)
    assert world.get(hawk, FlightIntent).legs == ()  # cleared for the next turn


@pytest.mark.parametrize(
    ("faces", "lost"),
    [((4, 4, 5), False), ((5, 5, 4), True)],
    ids=["13 against 13: made", "14 against 13: control lost"],
)
def test_house_rules_flying_a_dive_started_too_soon_after_a_climb_needs_the_early_turn_roll(
    faces: tuple[int, int, int], lost: bool
) -> None:
    """House rules: Flying Movement and Combat: the dive starts 1 yard after the climb, short of the 2-yard
    radius: DX+3 minus the radius (12 + 3 - 2 = 13), or control is lost at the end of the movement."""
    world = house_world()
    hawk = flier(world)
    legs(world, hawk, (0, 4), (1, -4))
    world.dice.script(*faces)
    events = world.step()
    assert [(roll.purpose, roll.result.target) for roll in of(events, RollMade)] == [  # type: ignore[attr-defined]
        ("climb or dive before the turning radius", 13)
    ]
    assert of(events, ClimbDiveTurn) == [ClimbDiveTurn(hawk, 4, 60, False), ClimbDiveTurn(hawk, -4, 60, True)]
    assert of(events, LostControl) == ([LostControl(hawk, "failed roll", "drift", 8)] if lost else [])


def test_house_rules_flying_the_first_start_of_the_turn_is_compared_with_the_last_of_the_turn_before() -> None:
    """House rules: Flying Movement and Combat: climbing or diving as much as before is no new turn; the turn
    before ended on a 4-yard dive, so this turn's 4-yard dive from the start is none, its 4-yard climb at yard 6
    is."""
    world = house_world()
    hawk = flier(world)
    legs(world, hawk, (0, 4), (6, -4))
    world.step()
    legs(world, hawk, (0, -4), (6, 4))
    assert of(world.step(), ClimbDiveTurn) == [ClimbDiveTurn(hawk, 4, 60, False)]


def test_two_yards_of_climbing_and_diving_in_one_turn_count_toward_the_least_speed() -> None:
    """House rules: Flying Movement and Combat: every two full yards up or down count a yard toward the least
    speed of Cannot Hover: at 5 yd/s, 3 level yards (the 2 climbed come out of the 5), 2 up and 2 down, make
    3 + 1 + 1 = 5, the quarter of top airspeed 20."""
    world = house_world()
    hawk = flier(world, velocity=5)
    legs(world, hawk, (0, 2), (2, -2))
    assert of(world.step(), Stalled) == []


@pytest.mark.parametrize(
    ("pairs", "message"),
    [
        (((0, 4), (9, -4)), r"starting within the 8 level yards flown this turn \(leg 1 starts at yard 9\)"),
        (((0, -20), (10, -20)), r"stay above the ground \(leg 1 would end 10 yd below it\)"),
    ],
    ids=["a start past the level yards", "below the ground"],
)
def test_climbs_and_dives_the_turn_cannot_fly_are_refused(pairs: tuple[tuple[int, int], ...], message: str) -> None:
    world = house_world()
    hawk = flier(world)
    legs(world, hawk, *pairs)
    with pytest.raises(IntentError, match=rf"FlightIntent\.legs = .*{message}"):
        world.step()
    assert world.turn == 0


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (
            lambda: FlightIntent(legs=((0, 4), (0, -4))),
            r"FlightIntent\.legs\[1\]\[0\] = 0: expected a whole number from 1 to 10000",
        ),
        (lambda: FlightIntent(legs=((0, 0),)), r"FlightIntent\.legs\[0\]\[1\] = 0: expected a climb or a dive"),
        (lambda: FlightIntent(legs=((0, 4, 1),)), r"FlightIntent\.legs\[0\] = \(0, 4, 1\): expected an \(at_yd"),
        (lambda: FlightIntent(climb_yd=2, legs=((0, 4),)), r"FlightIntent\.climb_yd = 2: expected 0 when legs"),
        (lambda: Flight(air_move=10, climbed_yd=1, flown_legs=((0, 4),)), r"Flight\.climbed_yd = 1: expected the sum"),
    ],
    ids=[
        "two starts at one yard",
        "a leg of 0 yards",
        "not a pair",
        "climb_yd and legs both",
        "climbed_yd not the sum",
    ],
)
def test_legs_are_checked(build: object, message: str) -> None:
    with pytest.raises(RuleValueError, match=message):
        build()  # type: ignore[operator]


# --- Taking off -------------------------------------------------------------------------------------------------


def test_a_flier_that_cannot_hover_takes_off_at_a_quarter_of_top_airspeed() -> None:
    world = house_world()
    slow = flier(world, altitude_yd=0, velocity=4, state=MoveState.NORMAL)
    climb(world, slow, 3)
    with pytest.raises(IntentError, match=r"0 until it has run 5 yards on the ground this turn.*\(it ran 4\)"):
        world.step()
    world.get(slow, Velocity).yps = 5
    events = world.step()
    assert of(events, AltitudeChanged) == [AltitudeChanged(slow, 3, 3.0, 5, 8)]
    assert of(events, Stalled) == []  # 5 level yards and 3 up: 6 toward the least speed of 5


@pytest.mark.parametrize(
    ("chosen", "state", "entered", "velocities"),
    [(Rules.house(), MoveState.HIGH_SPEED, True, (4, 3)), (Rules.basic(), MoveState.NORMAL, False, (5, 4))],
    ids=[
        "house: in the air it is at high speed, the climb costing a yard/s",
        "Basic Set: 5 yd/s is ordinary movement under air Move 6",
    ],
)
def test_house_rules_flying_a_flier_that_cannot_hover_takes_off_into_high_speed(
    chosen: Rules, state: MoveState, entered: bool, velocities: tuple[int, int]
) -> None:
    """House rules: Flying Movement and Combat: a flier that cannot hover must use High Speed Movement, so it
    leaves the ground at high speed (here at 5 yd/s, a quarter of top airspeed 8 being 2) and stays there while
    it flies, however slow, under air Move 6. At high speed its 1-yard climb takes a yard/s off its speed."""
    world = World(seed=3)
    install(world, chosen)
    slow = flier(world, altitude_yd=0, velocity=5, state=MoveState.NORMAL, air_move=6, top_airspeed=8)
    climb(world, slow, 1)
    events = world.step()
    assert world.get(slow, Position).altitude_yd == 1.0
    assert world.get(slow, Control).state is state
    assert of(events, EnteredHighSpeed) == ([EnteredHighSpeed(slow, 5)] if entered else [])
    assert world.get(slow, Velocity).yps == velocities[0]
    world.get(slow, Intent).throttle = -1
    events = world.step()
    assert world.get(slow, Velocity).yps == velocities[1]
    assert world.get(slow, Control).state is state
    assert of(events, LeftHighSpeed) == []
    assert of(events, Stalled) == []


@pytest.mark.parametrize(
    ("chosen", "refused"),
    [(Rules.house(), True), (Rules.basic(), False)],
    ids=["house: at high speed whenever it flies", "Basic Set: ordinary movement, it turns where it likes"],
)
def test_house_rules_flying_a_flier_that_cannot_hover_is_not_in_ordinary_movement_in_the_air(
    chosen: Rules, refused: bool
) -> None:
    """House rules: Flying Movement and Combat: a Cannot Hover flier at 6 yd/s in the air cannot be in ordinary
    movement (where it could turn anywhere); the Basic Set leaves it there, turning at once."""
    world = World(seed=3)
    install(world, chosen)
    hawk = flier(world, velocity=6, state=MoveState.NORMAL, straight_yd=0)
    world.get(hawk, Intent).turn = 1
    world.get(hawk, Intent).turn_at_yd = 0
    if refused:
        with pytest.raises(RuleValueError, match=r"Velocity\.yps = 6: .*a flier that cannot hover is at high speed"):
            world.step()
    else:
        world.step()
        assert world.get(hawk, Facing).direction == 1


@pytest.mark.parametrize(
    ("mode", "high_speed_above"),
    [(FlightMode.HOVER, 8), (FlightMode.CANNOT_HOVER, 0)],
    ids=["hovering: high speed above Encumbered Move 8", "cannot hover: always at high speed"],
)
def test_house_rules_high_speed_movement_encumbered_move_in_the_air_includes_flights_doubling(
    mode: FlightMode, high_speed_above: int
) -> None:
    """House rules: High Speed Movement: in the air, Encumbered Move is the air Move with Flight's x2 in it,
    ``Flight.air_move``, cut for encumbrance: air Move 10 at Light encumbrance is 8."""
    world = house_world()
    hawk = flier(world, mode=mode)
    world.get(hawk, Mover).encumbrance = 1
    found = movement_limits(world, hawk)
    assert (found.environment, found.basic_move, found.move, found.high_speed_above) == ("air", 10, 8, high_speed_above)


def test_house_rules_flying_without_hover_an_early_turn_needs_the_push() -> None:
    """House rules: Flying Movement and Combat with High Speed Movement: at 6 yd/s under air Move 10 the turning
    radius is 1 yard, so a turn before it is an early turn that needs ``push`` (and its roll)."""
    world = house_world()
    hawk = flier(world, velocity=6, straight_yd=0)
    world.get(hawk, Intent).turn = 1
    world.get(hawk, Intent).turn_at_yd = 0
    with pytest.raises(IntentError, match=r"Intent\.turn_at_yd = 0: push=True for an early turn"):
        world.step()


def test_a_hovering_flier_takes_off_standing_and_climbs_a_step_on_an_attack() -> None:
    world = house_world()
    lark = flier(world, altitude_yd=0, velocity=0, state=MoveState.NORMAL, mode=FlightMode.HOVER, air_move=20)
    climb(world, lark, 3)
    assert of(world.step(), AltitudeChanged) == [AltitudeChanged(lark, 3, 3.0, 0, 3)]
    world.get(lark, Intent).maneuver = Maneuver.ATTACK
    climb(
        world, lark, -2
    )  # ordinary flight: the Basic Set's costs, a yard a yard down (the house's free dive is at speed)
    assert of(world.step(), AltitudeChanged) == [AltitudeChanged(lark, -2, 1.0, 0, 2)]


def test_two_yards_of_climb_count_as_one_toward_the_least_speed() -> None:
    world = house_world()
    hawk = flier(world, velocity=6)
    climb(world, hawk, 3)  # 6 yd/s: 3 level yards and 3 up, 3 + 1 = 4 of the 5 it needs
    assert of(world.step(), Stalled) == [Stalled(hawk, "covered less than a quarter of top airspeed", 4, 5)]


# --- Out of control and wiped out ---------------------------------------------------------------------------------


def test_a_flier_out_of_control_drops_5_yards_a_turn_as_a_dive() -> None:
    world = house_world()
    hawk = flier(world, velocity=16, altitude_yd=30)
    world.add(hawk, Control(MoveState.OUT_OF_CONTROL, loss_cause=LossCause.FAILED_ROLL))
    world.dice.script(6, 6, 6)  # the DX roll to regain control fails
    events = world.step()
    assert of(events, Falling) == [Falling(hawk, 5, 5.0, 25.0)]
    assert world.get(hawk, Position).hex == (16, 0)
    assert world.get(hawk, Velocity).yps == 11  # 16 + 5 for the drop, less air Move 10
    world.dice.script(1, 1, 1)
    events = world.step()
    assert of(events, Falling) == [Falling(hawk, 5, 10.0, 20.0)]
    assert of(events, RegainedControl) == [RegainedControl(hawk, 16)]


def test_a_crippled_wing_wipes_a_winged_flier_out_and_it_falls_faster_each_second() -> None:
    world = house_world()
    bat = flier(world, velocity=12, altitude_yd=40, wings=True, crippled_wing=True)
    events = world.step()
    assert of(events, WipedOut) == [WipedOut(bat, "a crippled wing")]
    assert of(events, LostControl) == [LostControl(bat, "wipe out", "drift", 12)]
    assert of(events, Falling) == [Falling(bat, 10, 10.0, 30.0)]
    events = world.step()  # no roll: a crippled wing cannot win lift back
    assert of(events, RollMade) == []
    assert of(events, Falling) == [Falling(bat, 20, 30.0, 10.0)]
    world.dice.script(2, 2, 2, 2, 2, 2)  # the damage dice
    events = world.step()  # 30 more would pass the ground: it hits after 40 yards in all
    assert of(events, Landed) == [Landed(bat, 40.0, 29)]
    # a fall of 40 yards ends at 29 yd/s; the ground is hard: 2 x 10 HP x 29 / 100 = 5.8, so 6 dice
    assert of(events, FallDamage) == [FallDamage(bat, 29, "6d", 12, 12)]
    assert world.get(bat, Condition).injury == 12
    flight = world.get(bat, Flight)
    assert (flight.wiped_out, world.get(bat, Position).altitude_yd) == (False, 0)


def test_a_wiped_out_flier_wins_lift_back_on_dx_minus_4_and_adds_its_dive_speed() -> None:
    world = house_world()
    bat = flier(world, velocity=12, altitude_yd=100, wings=True)
    world.add(bat, Control(MoveState.OUT_OF_CONTROL, loss_cause=LossCause.WIPE_OUT))
    flight = world.get(bat, Flight)
    flight.wiped_out, flight.fall_seconds, flight.fall_yd = True, 1, 10.0
    world.dice.script(2, 2, 3)  # 7 against DX-4 = 8
    events = world.step()
    assert of(events, Falling) == [Falling(bat, 20, 30.0, 80.0)]
    [roll] = of(events, RollMade)
    assert roll.result.target == 8  # type: ignore[attr-defined]
    assert of(events, LiftRegained) == [LiftRegained(bat, 20, 32)]
    assert world.get(bat, Control).state is MoveState.HIGH_SPEED
    assert not world.get(bat, Flight).wiped_out


def test_a_wiped_out_flier_that_fails_slows_by_basic_move_and_keeps_dropping() -> None:
    world = house_world()
    bat = flier(world, velocity=12, altitude_yd=100, wings=True)
    world.add(bat, Control(MoveState.OUT_OF_CONTROL, loss_cause=LossCause.WIPE_OUT))
    flight = world.get(bat, Flight)
    flight.wiped_out, flight.fall_seconds = True, 1
    world.dice.script(6, 6, 6)
    events = world.step()
    assert of(events, LiftRegained) == []
    assert world.get(bat, Velocity).yps == 2  # slowed by air Move 10
    assert world.get(bat, Control).state is MoveState.OUT_OF_CONTROL  # no lift: only the roll brings it back


# --- Wingspan ---------------------------------------------------------------------------------------------------


def pole(world: World, q: int, r: int) -> int:
    return world.spawn(Position(q, r), Obstacle(hp=50, height_yd=20))


def test_an_obstacle_in_the_wingspan_on_the_way_needs_a_dx_roll() -> None:
    world = house_world()
    eagle = flier(world, velocity=12, altitude_yd=10, wings=True, wingspan_yd=4)
    tree = pole(world, 3, 2)  # 2 hexes from a few of the hexes it flies through: within half its wingspan
    world.dice.script(6, 5, 4)  # 15: fails DX 12
    events = world.step()
    assert of(events, WingspanObstructed) == [WingspanObstructed(eagle, (tree,), False)]
    # at once, where the tree first comes within 2 hexes: yard 3, at (3, 0)
    assert of(events, LostControl) == [LostControl(eagle, "failed roll", "drift", 3)]


def test_an_obstacle_beside_the_whole_movement_wipes_the_flier_out() -> None:
    world = house_world()
    eagle = flier(world, velocity=6, altitude_yd=10, wings=True, wingspan_yd=2)
    wall = [pole(world, q, 1) for q in range(0, 8)]
    world.dice.script(3, 3, 3)  # the DX roll at the first hex, made: the wipe-out comes all the same
    events = world.step()
    first, whole = of(events, WingspanObstructed)
    assert (first.whole_movement, whole.whole_movement) == (False, True)  # type: ignore[attr-defined]
    assert set(whole.obstacles) <= set(wall)  # type: ignore[attr-defined]
    assert of(events, WipedOut) == [WipedOut(eagle, "an obstacle in its wingspan all through its movement")]


def test_a_narrow_wingspan_or_a_wingless_flier_ignores_what_is_beside_it() -> None:
    world = house_world()
    flier(world, velocity=6, altitude_yd=10)
    pole(world, 3, 1)
    assert of(world.step(), WingspanObstructed) == []


# --- Height in combat -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("height_yd", "mine", "theirs"),
    [(1.0, 2, -2), (0.9, 0, 0), (-1.0, -2, 2)],
    ids=["a yard above -> +2 / -2", "less than a yard -> nothing", "a yard below -> -2 / +2"],
)
def test_a_yard_of_height_gives_plus_2_and_minus_2_in_melee(height_yd: float, mine: int, theirs: int) -> None:
    world = house_world()
    low = flier(world, altitude_yd=10)
    high = flier(world, altitude_yd=10 + height_yd)
    effect = height_effect(world, high, low)
    assert (effect.attacker_defense, effect.defender_defense) == (mine, theirs)


def test_ranged_attacks_count_height_in_the_range() -> None:
    world = house_world()
    high = flier(world, altitude_yd=5)
    footman = world.spawn(Position(20, 0), Mover(basic_move=5))
    assert house_ranged_distance(world, high, footman, 20) == 18
    assert house_ranged_distance(world, footman, high, 20) == 25
    assert house_ranged_distance(world, footman, high, 20, spell=True) == 22


def test_only_a_hovering_flier_retreats_by_changing_altitude_with_plus_1() -> None:
    world = house_world()
    lark = flier(world, mode=FlightMode.HOVER, air_move=20)
    hawk = flier(world)
    assert (aerial_retreat(world, lark).vertical, aerial_retreat(world, lark).bonus) == (True, 1)
    assert (aerial_retreat(world, hawk).vertical, aerial_retreat(world, hawk).bonus) == (False, 0)
    assert aerial_retreat(world, lark, room_vertical=False).bonus == 0


# --- The "Dragon" rule ----------------------------------------------------------------------------------------


def _attacker(world: World, kind: str) -> int:
    """A flier at 30 yards (air Move 10) or a runner on the ground, each at 10 yd/s east, DX 12."""
    if kind == "flier":
        return flier(world, velocity=10)
    return world.spawn(
        Position(0, 0),
        Facing(0),
        Velocity(10),
        Mover(basic_move=8, dx=12, hp=10, top_speed=12, enhanced=True),
        Condition(),
        Control(MoveState.HIGH_SPEED),
        Intent(maneuver=Maneuver.MOVE_AND_ATTACK),
    )


@pytest.mark.parametrize(
    ("chosen", "kind", "skill", "dragon", "dx"),
    [
        (Rules.house(), "flier", 16, True, -2),
        (Rules.house(), "runner", 9, False, -2),
        (Rules.basic(), "flier", 9, False, 0),
    ],
    ids=[
        "house flier: skill 16 stays 16",
        "house runner: 16 - 4, capped at 9",
        "Basic Set flier: 16 - 4, capped at 9",
    ],
)
def test_house_rules_dragon_rule_a_flier_melees_on_a_move_and_attack_at_full_skill(
    chosen: Rules, kind: str, skill: int, dragon: bool, dx: int
) -> None:
    """House rules: "Dragon" Rule: flying, a Move and Attack melee is neither at -4 nor capped at 9; the -2 to DX
    rolls stays (for every mover under the house rules)."""
    world = World(seed=3)
    install(world, chosen)
    attacker = _attacker(world, kind)
    attack = move_and_attack(world, attacker, 16)
    assert (attack.effective_skill, attack.dragon, attack.dx_modifier) == (skill, dragon, dx)


@pytest.mark.parametrize(
    ("chosen", "kind", "modifier"),
    [(Rules.house(), "flier", 0), (Rules.house(), "runner", -4), (Rules.basic(), "flier", -4)],
    ids=["house flier: no Bulk", "house runner: Bulk -4", "Basic Set flier: Bulk -4"],
)
def test_house_rules_dragon_rule_a_flier_shoots_on_a_move_and_attack_without_bulk(
    chosen: Rules, kind: str, modifier: int
) -> None:
    """House rules: "Dragon" Rule: flying, a Move and Attack shot takes neither the weapon's Bulk nor the -2."""
    world = World(seed=3)
    install(world, chosen)
    attack = move_and_attack(world, _attacker(world, kind), 14, ranged=True, bulk=-4)
    assert attack.effective_skill == 14 + modifier


@pytest.mark.parametrize(
    ("moved", "target_yps", "target_heading", "expected"),
    [(10, 0, 0, (-2, 2)), (10, 10, 0, (0, 0)), (7, 0, 0, (0, 0)), (8, 5, 3, (-3, 3))],
    ids=[
        "moved 10 at a target standing still -> relative 10 -> -2/+2",
        "moved 10 after a target fleeing at 10 -> relative 0 -> none",
        "moved 7 -> no more than 7 yards -> none",
        "moved 8, head-on against 5 -> relative 15 -> -3/+3",
    ],
)
def test_house_rules_dragon_rule_a_fast_flier_melees_at_its_speed_relative_to_the_target(
    moved: int, target_yps: int, target_heading: int, expected: tuple[int, int]
) -> None:
    """House rules: "Dragon" Rule: more than 7 yards into a Move and Attack, the speed relative to the target
    gives the Size value minus 2 as a penalty to hit and a bonus to damage."""
    world = house_world()
    hawk = flier(world, velocity=10)
    world.get(hawk, Control).moved_yd = moved
    target = world.spawn(Position(3, 0), Velocity(target_yps, heading=target_heading))
    attack = move_and_attack(world, hawk, 15, target=target)
    assert (attack.effective_skill - 15, attack.damage_bonus) == expected


@pytest.mark.parametrize(
    ("chosen", "target"),
    [(Rules.house(), 12 - 4 - 2), (Rules.basic(), 12 - 4)],
    ids=["house: DX-4, and -2 on a Move and Attack", "Basic Set: DX-4"],
)
def test_house_rules_dragon_rule_a_stalled_flier_on_a_move_and_attack_recovers_at_minus_2_more(
    chosen: Rules, target: int
) -> None:
    """House rules: "Dragon" Rule: the -2 to DX rolls of a Move and Attack counts against the DX-4 to pull out of
    a stall too (Basic Set: Flying Combat > Cannot Hover)."""
    world = World(seed=3)
    install(world, chosen)
    hawk = flier(world, velocity=0, state=MoveState.NORMAL, stalled=True, fall_seconds=1, fall_yd=5.35)
    world.get(hawk, Intent).maneuver = Maneuver.MOVE_AND_ATTACK
    world.dice.script(6, 6, 6)
    events = world.step()
    assert [(roll.purpose, roll.result.target) for roll in of(events, RollMade)] == [  # type: ignore[attr-defined]
        ("stall recovery", target)
    ]


def test_move_and_attack_refuses_bad_input() -> None:
    world = house_world()
    hawk = flier(world)
    with pytest.raises(RuleValueError, match=r"^move_and_attack\.bulk = 2"):
        move_and_attack(world, hawk, 12, ranged=True, bulk=2)
    with pytest.raises(WorldError, match="move_and_attack: entity 99 does not exist"):
        move_and_attack(world, hawk, 12, target=99)


@pytest.mark.parametrize(
    ("pairs", "straight_yd", "targets"),
    [
        (((0, 4), (6, -4)), 5, []),  # level flight past the radius before each start: no roll
        (((0, 4), (1, -4)), 5, [13]),  # the dive starts 1 yd after the climb, short of the 2-yd radius
        (((0, 4),), 0, [13]),  # a climb from the start with nothing run straight before it
        (((0, 4), (1, 4)), 0, [13]),  # climbing as much again is no new start
    ],
    ids=["level between", "dive too soon", "climb too soon", "same climb again"],
)
def test_preview_lists_the_climb_and_dive_rolls_the_step_then_makes(
    pairs: tuple[tuple[int, int], ...], straight_yd: int, targets: list[int]
) -> None:
    world = house_world()
    hawk = flier(world, straight_yd=straight_yd)
    legs(world, hawk, *pairs)
    forecast = preview(world, hawk)
    assert [(roll.purpose, roll.target) for roll in forecast.rolls] == [
        ("climb or dive before the turning radius", target) for target in targets
    ]
    assert all(roll.chance == success_probability(roll.target) for roll in forecast.rolls)
    world.dice.script(*[3, 3, 3] * len(targets))  # every roll made
    made = [roll.result.target for roll in of(world.step(), RollMade)]  # type: ignore[attr-defined]
    assert made == targets


# --- Rules as written: climbing at speed, and in ordinary flight --------------------------------------------------


@pytest.mark.parametrize(
    ("throttle", "velocity"),
    [(8, 24), (-2, 14)],
    ids=["climb 4 from 20 leaves 16, +8 makes 24", "climb 4 from 20 leaves 16, -2 makes 14"],
)
def test_house_rules_flying_movement_and_combat_a_climb_then_accelerating_normally(
    throttle: int, velocity: int
) -> None:
    """House rules: Flying Movement and Combat: the yards climbed take speed off at once, and the flier may then
    accelerate or decelerate normally at the end of the turn. Air Move 8, top airspeed 24, at 20 yd/s: a 4-yard
    climb leaves 16 (20 - 4); adding its Encumbered Move 8 then reaches 24, the top speed, where the throttle
    checked against 20 would pass it (20 + 8 = 28)."""
    world = house_world()
    hawk = flier(world, velocity=20, air_move=8, top_airspeed=24, straight_yd=20)
    climb(world, hawk, 4)
    world.get(hawk, Intent).throttle = throttle
    events = world.step()
    assert of(events, AltitudeChanged) == [AltitudeChanged(hawk, 4, 34.0, 16, 20)]  # 20 yd: 16 level, 4 up
    assert world.get(hawk, Velocity).yps == velocity


def test_house_rules_flying_movement_and_combat_past_top_speed_after_a_climb_is_still_refused() -> None:
    """House rules: Flying Movement and Combat: from the 16 yd/s a 4-yard climb leaves (20 - 4), +9 would pass the
    top airspeed of 24; the refusal names the speed the climb leaves, and the step changes nothing."""
    world = house_world()
    hawk = flier(world, velocity=20, air_move=10, top_airspeed=24, straight_yd=20)
    climb(world, hawk, 4)
    world.get(hawk, Intent).throttle = 9
    with pytest.raises(
        IntentError,
        match=r"Intent\.throttle = 9: at most \+8: .*\(from 16 yd/s, what this turn.s climbs and dives leave\)",
    ):
        world.step()
    assert (world.turn, world.get(hawk, Velocity).yps) == (0, 20)


def test_house_rules_flying_movement_and_combat_a_dive_then_accelerating_stops_at_the_absolute_dive_maximum() -> None:
    """House rules: Flying Movement and Combat: the speed a dive gathers comes before the end-of-turn change of speed
    too, and no dive goes past the normal top speed or 100 yd/s. Top airspeed 90 with a lasting dive bonus of 10: top
    speed 100, the absolute maximum. At 95 a 10-yard dive reaches 100 (95 + 10, cut to 100), so +5 more is refused
    (checked against the 95 before the dive it would pass, to 105)."""
    world = house_world()
    hawk = flier(world, velocity=95, air_move=30, top_airspeed=90, altitude_yd=500, straight_yd=200)
    flight = world.get(hawk, Flight)
    flight.dive_bonus_yps, flight.dive_bonus_turns = 10, 3
    climb(world, hawk, -10)
    world.get(hawk, Intent).throttle = 5
    with pytest.raises(IntentError, match=r"throttle = 5: at most \+0: accelerating past the top speed of 100 yd/s"):
        world.step()
    assert (world.turn, world.get(hawk, Velocity).yps) == (0, 95)
    world.get(hawk, Intent).throttle = 0
    world.dice.script(1, 1, 1)  # past the normal top speed of 90: DX+2, made
    world.step()
    assert world.get(hawk, Velocity).yps == 100


def test_house_rules_flying_movement_and_combat_climbing_comes_out_of_the_speed_a_flier_must_move() -> None:
    """House rules: Flying Movement and Combat with High Speed Movement: at high speed a flier moves its current
    speed, and each yard climbed takes a yard of that movement which cannot also go sideways. A Cannot Hover flier
    at 12 yd/s with air Move 20 climbing 4 flies 12 - 4 = 8 level yards and 4 up (its air Move gives it no more
    yards at speed)."""
    world = house_world()
    hawk = flier(world, velocity=12, air_move=20, top_airspeed=30, straight_yd=20)
    climb(world, hawk, 4)
    events = world.step()
    assert of(events, AltitudeChanged) == [AltitudeChanged(hawk, 4, 34.0, 8, 12)]
    assert world.get(hawk, Position).hex == (8, 0)
    assert world.get(hawk, Velocity).yps == 8  # 12 less the 4 yards climbed


@pytest.mark.parametrize("chosen", [Rules.house(), Rules.basic()], ids=["house", "Basic Set"])
@pytest.mark.parametrize(("climb_yd", "altitude"), [(4, 34.0), (-4, 26.0)], ids=["climb 4", "descend 4"])
def test_house_rules_flying_movement_and_combat_the_house_climb_costs_apply_only_at_high_speed(
    chosen: Rules, climb_yd: int, altitude: float
) -> None:
    """House rules: Flying Movement and Combat gives its climb and dive costs for a flier using High Speed
    Movement; in ordinary flight the Basic Set's Changing Height applies, under both rule sets. A hovering flier
    at 10 yd/s in ordinary flight (air Move 10) with 10 movement points climbs or descends 4: four 45-degree
    diagonal yards at 1.5 (6 points) and 4 level ones (4 points) make 8 level yards for 10 points (the house costs
    would give 10 - 4 = 6 level yards climbing and 10 descending)."""
    world = World(seed=3)
    install(world, chosen)
    lark = flier(world, velocity=10, state=MoveState.NORMAL, mode=FlightMode.HOVER)
    climb(world, lark, climb_yd)
    events = world.step()
    assert of(events, AltitudeChanged) == [AltitudeChanged(lark, climb_yd, altitude, 8, 10.0)]
    assert world.get(lark, Position).hex == (8, 0)


# --- Rules as written: a hexside turn after a climb start ---------------------------------------------------------


def climb_then_turn(world: World, turn_at_yd: int, push: bool = True) -> int:
    """A flier at 12 yd/s under air Move 10 (turning radius 12 / 10 rounded up = 2), 5 yards run straight, asked to
    climb 4 from the start of the turn (a 60-degree turn, after the radius: no roll) and to turn a hexside left at
    ``turn_at_yd``."""
    hawk = flier(world)
    climb(world, hawk, 4)
    intent = world.get(hawk, Intent)
    intent.turn, intent.turn_at_yd, intent.push = 1, turn_at_yd, push
    return hawk


@pytest.mark.parametrize(
    ("faces", "made"),
    [((4, 4, 5), True), ((5, 5, 4), False)],
    ids=["13 against 13: made", "14 against 13: control lost"],
)
def test_house_rules_flying_movement_and_combat_a_hexside_turn_right_after_a_climb_start_is_an_early_turn(
    faces: tuple[int, int, int], made: bool
) -> None:
    """House rules: Flying Movement and Combat (starting a climb is a turn for the radius) with High Speed Movement:
    the hexside turn 1 yard after the climb starts comes within the 2-yard radius, so it is the early turn, DX+3
    minus the radius (12 + 3 - 2 = 13); the climb itself, 5 yards after the last turn, takes no roll. Made: the flier
    turns, climbs, and flies 12 - 4 = 8 level yards. Failed: its facing turns but its direction of movement does not,
    control is lost at yard 1, and an out-of-control flier flies straight on, its whole 12 yards, without the
    climb."""
    world = house_world()
    hawk = climb_then_turn(world, turn_at_yd=1)
    assert [(roll.purpose, roll.target) for roll in preview(world, hawk).rolls] == [("early turn", 13)]
    world.dice.script(*faces)
    events = world.step()
    assert [(roll.purpose, roll.result.target) for roll in of(events, RollMade)] == [("early turn", 13)]  # type: ignore[attr-defined]
    assert world.get(hawk, Facing).direction == 1
    if made:
        assert of(events, ClimbDiveTurn) == [ClimbDiveTurn(hawk, 4, 60, False)]
        assert of(events, LostControl) == []
        assert world.get(hawk, Velocity).heading == 1
        assert world.get(hawk, Position).altitude_yd == 34.0
        assert len(world.get(hawk, Control).path) == 8
    else:
        assert of(events, LostControl) == [LostControl(hawk, "failed roll", "drift", 1)]
        assert of(events, ClimbDiveTurn) == []
        assert world.get(hawk, Velocity).heading == 0
        assert world.get(hawk, Position).hex == (12, 0)
        assert world.get(hawk, Position).altitude_yd == 30.0 - 5  # no climb; the drop out of control


def test_house_rules_flying_movement_and_combat_a_hexside_turn_a_radius_after_a_climb_start_needs_no_roll() -> None:
    """House rules: Flying Movement and Combat: 2 yards after the climb starts, the 2-yard radius is run: no roll,
    and without ``push`` the same turn a yard sooner is refused as an early turn."""
    world = house_world()
    hawk = climb_then_turn(world, turn_at_yd=2, push=False)
    events = world.step()
    assert of(events, RollMade) == []
    assert world.get(hawk, Velocity).heading == 1
    sooner = climb_then_turn(world, turn_at_yd=1, push=False)
    with pytest.raises(IntentError, match=rf"entity {sooner}: Intent\.turn_at_yd = 1: push=True for an early turn"):
        world.step()


def test_house_rules_flying_movement_and_combat_a_climb_start_between_changes_of_facing_makes_the_second_early() -> (
    None
):
    """House rules: Flying Movement and Combat (a climb start is a turn for the radius) with several changes of facing
    (Basic Set: High-Speed Movement > Direction and Turning Radius): the hawk (radius 2, 5 yards run straight) turns
    left at yard 0 and right at yard 4, a full radius apart, but climbs 4 from yard 3, a turn of its own: the change
    at yard 4 comes 1 yard after it, so it is early. Refused without ``push``; with it, the early-turn roll (13),
    forecast and made, and the climb, 3 yards after the first change, takes none."""
    world = house_world()
    hawk = flier(world)
    legs(world, hawk, (3, 4))
    world.get(hawk, Intent).turns = ((0, 1), (4, -1))
    with pytest.raises(IntentError, match=r"turns\[1\] = \(4, -1\): at_yd 5 or later, .* after a climb or dive start"):
        world.step()
    world.get(hawk, Intent).push = True
    assert [(roll.purpose, roll.target) for roll in preview(world, hawk).rolls] == [("early turn", 13)]
    world.dice.script(4, 4, 5)
    events = world.step()
    assert [(roll.purpose, roll.result.target) for roll in of(events, RollMade)] == [("early turn", 13)]  # type: ignore[attr-defined]
    assert [(turned.after_yd, turned.pushed) for turned in of(events, Turned)] == [(0, False), (4, True)]  # type: ignore[attr-defined]
    assert of(events, ClimbDiveTurn) == [ClimbDiveTurn(hawk, 4, 60, False)]


def test_house_rules_flying_movement_and_combat_a_climb_counts_its_straight_yards_from_the_last_facing_change() -> None:
    """House rules: Flying Movement and Combat with several changes of facing: the hawk (radius 2) turns left at yard 0
    and right at yard 2, and climbs 4 from yard 3: 1 yard after the last change of facing, short of the radius, so
    the climb start takes the early-turn roll (13), forecast and made (it used to count from the first change, 3
    yards, and take none)."""
    world = house_world()
    hawk = flier(world)
    legs(world, hawk, (3, 4))
    world.get(hawk, Intent).turns = ((0, 1), (2, -1))
    assert [(roll.purpose, roll.target) for roll in preview(world, hawk).rolls] == [
        ("climb or dive before the turning radius", 13)
    ]
    world.dice.script(4, 4, 5)
    events = world.step()
    assert [(roll.purpose, roll.result.target) for roll in of(events, RollMade)] == [  # type: ignore[attr-defined]
        ("climb or dive before the turning radius", 13)
    ]
    assert of(events, ClimbDiveTurn) == [ClimbDiveTurn(hawk, 4, 60, True)]
    assert of(events, LostControl) == []


# --- Rules as written: the wingspan --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("faces", "made"),
    [((3, 3, 3), True), ((6, 5, 4), False)],
    ids=["DX 12 made: the turn at yard 6 is made", "15 fails DX 12: control lost at yard 3, no turn"],
)
def test_house_rules_flying_movement_and_combat_the_wingspan_roll_is_made_at_once(
    faces: tuple[int, int, int], made: bool
) -> None:
    """House rules: Flying Movement and Combat: an obstacle in the wingspan at some point of the movement calls for a
    DX roll at that point. The eagle (wingspan 4: 2 hexes each side) flies east at 12 yd/s and means to turn left at
    yard 6; the tree on (3, 2) first comes within 2 hexes at yard 3, on (3, 0). Made, the eagle turns at yard 6 and
    flies on along its new facing; failed, control is lost at yard 3 and the eagle flies straight on, all 12 yards
    east, without the turn."""
    world = house_world()
    eagle = flier(world, velocity=12, altitude_yd=10, wings=True, wingspan_yd=4)
    tree = pole(world, 3, 2)
    intent = world.get(eagle, Intent)
    intent.turn, intent.turn_at_yd = 1, 6
    world.dice.script(*faces)
    events = world.step()
    assert of(events, WingspanObstructed) == [WingspanObstructed(eagle, (tree,), False)]
    assert [(roll.purpose, roll.result.success) for roll in of(events, RollMade)] == [  # type: ignore[attr-defined]
        ("obstacle in the wingspan", made)
    ]
    if made:
        assert of(events, LostControl) == []
        assert (world.get(eagle, Facing).direction, world.get(eagle, Velocity).heading) == (1, 1)
    else:
        assert of(events, LostControl) == [LostControl(eagle, "failed roll", "drift", 3)]
        assert of(events, Turned) == []
        assert (world.get(eagle, Facing).direction, world.get(eagle, Velocity).heading) == (0, 0)
        assert world.get(eagle, Position).hex == (12, 0)


@pytest.mark.parametrize(
    ("faces", "made"),
    [((3, 3, 3), True), ((6, 5, 4), False)],
    ids=["DX 12 made: both changes of facing", "15 fails DX 12 at yard 3: the change at yard 6 is not made"],
)
def test_house_rules_flying_movement_and_combat_the_wingspan_roll_between_two_changes_of_facing(
    faces: tuple[int, int, int], made: bool
) -> None:
    """House rules: Flying Movement and Combat (the wingspan roll at once) with several changes of facing (Basic Set:
    High-Speed Movement > Direction and Turning Radius): the eagle turns left at yard 2, on (2, 0), and means to turn
    back right at yard 6; the tree on (3, 2) comes within its wingspan at yard 3, on (2, 1). Made, it turns back at
    (2, 4) and flies on east to (8, 4); failed, control is lost at yard 3 and it flies straight on north-east,
    the change at yard 6 not made, to (2, 10)."""
    world = house_world()
    eagle = flier(world, velocity=12, altitude_yd=10, wings=True, wingspan_yd=4)
    tree = pole(world, 3, 2)
    world.get(eagle, Intent).turns = ((2, 1), (6, -1))
    world.dice.script(*faces)
    events = world.step()
    assert of(events, WingspanObstructed) == [WingspanObstructed(eagle, (tree,), False)]
    turned = [(event.at, event.after_yd) for event in of(events, Turned)]  # type: ignore[attr-defined]
    if made:
        assert of(events, LostControl) == []
        assert turned == [((2, 0), 2), ((2, 4), 6)]
        assert world.get(eagle, Position).hex == (8, 4)
        assert (world.get(eagle, Facing).direction, world.get(eagle, Velocity).heading) == (0, 0)
    else:
        assert of(events, LostControl) == [LostControl(eagle, "failed roll", "drift", 3)]
        assert turned == [((2, 0), 2)]
        assert world.get(eagle, Position).hex == (2, 10)
        assert (world.get(eagle, Facing).direction, world.get(eagle, Velocity).heading) == (1, 1)


def wingtip(world: World, at: tuple[int, int], heading: int) -> int:
    """A winged flier with a 2-yard wingspan (1 hex each side), 30 yards up, flying at 6 yd/s along ``heading``."""
    bird = flier(world, velocity=6, altitude_yd=30, wings=True, wingspan_yd=2)
    world.get(bird, Position).q, world.get(bird, Position).r = at
    world.get(bird, Facing).direction = heading
    world.get(bird, Velocity).heading = heading
    return bird


def test_house_rules_flying_movement_and_combat_two_fliers_wingtip_to_wingtip_all_the_way_both_wipe_out() -> None:
    """House rules: Flying Movement and Combat ("including another flyer"): two fliers side by side, 1 hex apart,
    flying east at the same speed have each other in their wingspan at every moment of the movement: the k-th hex
    of one, (k, 0), is beside the k-th of the other, (k, 1). Each rolls DX where the other first comes within its
    wingspan (both made here), and both wipe out at the end of the movement."""
    world = house_world()
    left = wingtip(world, (0, 0), 0)
    right = wingtip(world, (0, 1), 0)
    world.dice.script(3, 3, 3, 3, 3, 3)
    events = world.step()
    assert [(roll.entity, roll.purpose) for roll in of(events, RollMade)] == [
        (left, "obstacle in the wingspan"),
        (right, "obstacle in the wingspan"),
    ]
    assert of(events, WipedOut) == [
        WipedOut(left, "an obstacle in its wingspan all through its movement"),
        WipedOut(right, "an obstacle in its wingspan all through its movement"),
    ]


def test_house_rules_flying_movement_and_combat_two_fliers_passing_each_other_only_roll() -> None:
    """House rules: Flying Movement and Combat: two fliers passing head-on a hex apart have each other in their
    wingspan only around the middle of the movement: each rolls DX (both made), neither wipes out."""
    world = house_world()
    east = wingtip(world, (0, 0), 0)
    west = wingtip(world, (6, 1), 3)
    world.dice.script(3, 3, 3, 3, 3, 3)
    events = world.step()
    assert {roll.entity for roll in of(events, RollMade)} == {east, west}
    assert of(events, WipedOut) == []
    assert {event.whole_movement for event in of(events, WingspanObstructed)} == {False}  # type: ignore[attr-defined]


def test_house_rules_flying_movement_and_combat_the_first_of_two_fliers_passing_head_on_rolls_too() -> None:
    """House rules: Flying Movement and Combat: two fliers with a 2-yard wingspan (reach 1 hex) pass head-on at
    6 yd/s, the first to move from (0, 0) east to (6, 0), the second from (9, 1) west to (3, 1). At yard k (moment
    k/6) they are at (k, 0) and (9 - k, 1): 4 hexes apart at k = 2, 2 at k = 4, 1 at k = 5, where each has the
    other in its wingspan. Both roll DX there; the first fails (6 + 5 + 4 = 15 against DX 12) and loses control at
    its yard 5. Where the second stood before moving, (9, 1), is 4 hexes from the first's last hex: counted there,
    the first never rolled."""
    world = house_world()
    first = wingtip(world, (0, 0), 0)
    second = wingtip(world, (9, 1), 3)
    world.dice.script(6, 5, 4, 3, 3, 3)
    events = world.step()
    assert [(roll.entity, roll.purpose) for roll in of(events, RollMade)] == [
        (first, "obstacle in the wingspan"),
        (second, "obstacle in the wingspan"),
    ]
    assert of(events, WingspanObstructed) == [
        WingspanObstructed(first, (second,), False),
        WingspanObstructed(second, (first,), False),
    ]
    assert of(events, LostControl) == [LostControl(first, "failed roll", "drift", 5)]


def test_preview_lists_the_wingspan_roll_where_the_obstacle_first_comes_within_the_wingspan() -> None:
    """House rules: Flying Movement and Combat: the preview lists the DX roll the walk will make, assumed made."""
    world = house_world()
    eagle = flier(world, velocity=12, altitude_yd=10, wings=True, wingspan_yd=4)
    pole(world, 3, 2)
    assert [(roll.purpose, roll.label, roll.target) for roll in preview(world, eagle).rolls] == [
        ("obstacle in the wingspan", "DX", 12)
    ]

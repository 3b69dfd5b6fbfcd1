"""Flying Combat under the Basic Set: climbing, stalls, falls, the flight ceiling and the flight queries.

Scenario tests build a world with no window, step it, and assert on events and state.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from esper_motion.components.flight import AirSupply, Atmosphere, Flight, FlightIntent, FlightMode
from esper_motion.components.gurps import (
    Condition,
    Control,
    Intent,
    LossCause,
    Maneuver,
    Mover,
    MoveState,
    Obstacle,
    Skills,
)
from esper_motion.components.motion import Facing, Position, Velocity
from esper_motion.ecs import IntentError, RollMade, RuleValueError, World, WorldError
from esper_motion.systems.gurps import Rules, install, preview, rules
from esper_motion.systems.gurps.events import (
    AltitudeChanged,
    BreathingChanged,
    Collided,
    DodgedAside,
    FallDamage,
    Falling,
    Landed,
    LeftHighSpeed,
    LostControl,
    Moved,
    RegainedControl,
    Stalled,
    StallRecovered,
    VelocityChanged,
)
from esper_motion.systems.gurps.flight.aerial import (
    acrobatic_dodge_skill,
    aerial_retreat,
    airborne,
    breathing,
    height_effect,
    house_ranged_distance,
    scene_atmosphere,
    step_yards,
    vertically_clear,
)
from esper_motion.systems.gurps.flight.fall import free_fall_yd
from esper_motion.systems.gurps.shared.climbing import level_yards
from esper_motion.systems.gurps.shared.dive import normal_top_speed
from esper_motion.systems.gurps.shared.figure import occupied_hexes
from esper_motion.systems.gurps.shared.movers import body_of, installed_rules, limits
from esper_motion.systems.gurps.shared.spatial import entity_height_yd


def gurps_world(flight: str = "basic", seed: int = 1) -> World:
    world = World(seed=seed)
    install(world, Rules(flight=flight))
    return world


def flier(
    world: World,
    altitude_yd: float = 10.0,
    velocity: int = 0,
    mode: FlightMode = FlightMode.HOVER,
    **flight: object,
) -> int:
    """A human flier (Move 5, DX 12, HP 10) with air Move 12 unless told otherwise."""
    flight.setdefault("air_move", 12)
    return world.spawn(
        Position(0, 0, altitude_yd),
        Facing(0),
        Velocity(velocity),
        Mover(basic_move=5, dx=12, hp=10),
        Condition(),
        Control(),
        Intent(),
        Flight(mode=mode, **flight),  # type: ignore[arg-type]
        FlightIntent(),
    )


def of(events: list[object], kind: type) -> list[object]:
    return [event for event in events if isinstance(event, kind)]


# --- Changing height ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("points", "vertical", "level"),
    [(10, 4, 8), (5, 4, 2), (10, 0, 10), (6, 6, 0), (9, 3, 7), (0, 0, 0)],
    ids=[
        "10 points, climb 4 -> 8 level (4 diagonals at 1.5, 4 level)",
        "5 points, climb 4 -> 2 level (2 diagonals, 2 straight up)",
        "no climb -> every point level",
        "all points up -> no level yard",
        "odd half point left over is lost: 9 points, climb 3 -> 7 level",
        "no points, no climb",
    ],
)
def test_level_yards_left_beside_a_climb(points: int, vertical: int, level: int) -> None:
    assert level_yards(points, vertical) == level
    assert rules.vertical_move_cost(level, vertical) <= points
    assert rules.vertical_move_cost(level + 1, vertical) > points


def test_level_yards_refuses_a_climb_longer_than_the_points() -> None:
    with pytest.raises(RuleValueError, match=r"level_yards.vertical_yd = 5: expected a whole number from 0 to 4"):
        level_yards(4, 5)


def test_a_climb_is_paid_at_the_diagonal_rate() -> None:
    world = gurps_world()
    hawk = flier(world, altitude_yd=3, velocity=10, air_move=8, top_airspeed=16)
    world.get(hawk, Control).state = MoveState.HIGH_SPEED
    world.get(hawk, FlightIntent).climb_yd = 4
    events = world.step()
    # At high speed the whole velocity of 10 is spent: 4 diagonal yards at 1.5 and 4 level ones.
    assert of(events, AltitudeChanged) == [AltitudeChanged(hawk, 4, 7.0, 8, 10.0)]
    [moved] = of(events, Moved)
    assert len(moved.path) == 8  # type: ignore[attr-defined]
    assert world.get(hawk, Position) == Position(8, 0, 7.0)
    assert world.get(hawk, Flight).climbed_yd == 4


def test_at_ordinary_speed_a_climb_is_paid_from_air_move() -> None:
    world = gurps_world()
    hawk = flier(world, altitude_yd=3, velocity=10, air_move=12)
    world.get(hawk, FlightIntent).climb_yd = 4
    # 10 level yards and 4 up: 4 diagonals (6) and 6 level yards (6), within air Move 12.
    assert of(world.step(), AltitudeChanged) == [AltitudeChanged(hawk, 4, 7.0, 10, 12.0)]


def test_a_climb_that_costs_more_than_the_turn_has_is_refused() -> None:
    world = gurps_world()
    hawk = flier(world, altitude_yd=3, velocity=10)
    world.get(hawk, FlightIntent).climb_yd = 13
    with pytest.raises(IntentError, match=r"costing at most 12 movement points \(this costs 18\)"):
        world.step()
    assert world.get(hawk, Position) == Position(0, 0, 3)
    assert world.turn == 0


def test_a_hovering_flier_climbs_straight_up_on_its_air_move() -> None:
    world = gurps_world()
    lark = flier(world, altitude_yd=0)
    world.get(lark, FlightIntent).climb_yd = 12
    assert of(world.step(), AltitudeChanged) == [AltitudeChanged(lark, 12, 12.0, 0, 12)]
    assert airborne(world, lark)


@pytest.mark.parametrize(
    ("maneuver", "climb", "message"),
    [
        (Maneuver.ATTACK, 2, "at most a step of 1 yards up or down on Attack"),
        (Maneuver.DO_NOTHING, 1, "none on Do Nothing or Change Posture"),
        (Maneuver.CHANGE_POSTURE, -1, "none on Do Nothing or Change Posture"),
    ],
    ids=["Attack allows a step", "Do Nothing allows none", "Change Posture allows none"],
)
def test_maneuvers_without_movement_climb_a_step_at_most(maneuver: Maneuver, climb: int, message: str) -> None:
    world = gurps_world()
    lark = flier(world)
    world.get(lark, Intent).maneuver = maneuver
    world.get(lark, FlightIntent).climb_yd = climb
    with pytest.raises(IntentError, match=message):
        world.step()


def test_a_step_up_on_an_attack() -> None:
    world = gurps_world()
    lark = flier(world, air_move=20)
    world.get(lark, Intent).maneuver = Maneuver.ATTACK
    world.get(lark, FlightIntent).climb_yd = 2
    assert of(world.step(), AltitudeChanged) == [AltitudeChanged(lark, 2, 12.0, 0, 2)]


def test_no_descent_below_the_ground() -> None:
    world = gurps_world()
    lark = flier(world, altitude_yd=3)
    world.get(lark, FlightIntent).climb_yd = -4
    with pytest.raises(IntentError, match=r"FlightIntent.climb_yd = -4: at least -3: the ground is that far below"):
        world.step()


def test_a_dive_must_be_a_move_maneuver() -> None:
    world = gurps_world()
    lark = flier(world)
    world.get(lark, Intent).maneuver = Maneuver.MOVE_AND_ATTACK
    world.get(lark, FlightIntent).climb_yd = -2
    world.get(lark, FlightIntent).dive = True
    with pytest.raises(IntentError, match="a dive is a Move maneuver going down and nothing else"):
        world.step()


def test_a_flier_out_of_control_flies_no_climb() -> None:
    world = gurps_world()
    lark = flier(world, velocity=20)
    world.add(lark, Control(MoveState.OUT_OF_CONTROL, loss_cause=LossCause.FAILED_ROLL))
    world.get(lark, FlightIntent).climb_yd = 3
    assert of(world.step(), AltitudeChanged) == []
    assert world.get(lark, Position).altitude_yd == 10


# --- Flight ceiling -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("category", ["vacuum", "trace"])
def test_a_winged_flier_is_refused_in_vacuum_or_trace_air(category: str) -> None:
    world = gurps_world()
    world.spawn(Atmosphere(category, 0.0 if category == "vacuum" else 0.005))
    bat = flier(world, wings=True)
    with pytest.raises(WorldError, match=f"entity {bat} flies with wings, which cannot fly in a {category} atmosphere"):
        world.step()
    assert world.turn == 0


def test_a_winged_flier_on_the_ground_in_vacuum_cannot_take_off() -> None:
    world = gurps_world()
    world.spawn(Atmosphere("vacuum", 0.0))
    bat = flier(world, altitude_yd=0, wings=True)
    world.step()  # standing on the ground is fine
    world.get(bat, FlightIntent).climb_yd = 1
    with pytest.raises(WorldError, match="cannot fly in a vacuum atmosphere"):
        world.step()
    assert world.get(bat, Position).altitude_yd == 0


def test_flight_without_wings_works_in_vacuum_and_wings_work_in_thin_air() -> None:
    world = gurps_world()
    world.spawn(Atmosphere("vacuum", 0.0))
    rocket = flier(world)
    world.step()
    assert airborne(world, rocket)
    thin = gurps_world()
    thin.spawn(Atmosphere("thin", 0.6))
    bat = flier(thin, wings=True)
    thin.step()
    assert airborne(thin, bat)


@pytest.mark.parametrize(
    ("altitude_yd", "band"),
    [(2000, "normal"), (2001, "trouble"), (6666, "trouble"), (6667, "needs_mask")],
    ids=["6,000 ft -> normal", "6,003 ft -> trouble", "19,998 ft -> trouble", "20,001 ft -> needs a mask"],
)
def test_breathing_bands_of_the_flight_ceiling(altitude_yd: int, band: str) -> None:
    world = gurps_world()
    eagle = flier(world, altitude_yd=altitude_yd)
    events = of(world.step(), BreathingChanged)
    assert world.get(eagle, Flight).breathing == band
    assert events == ([] if band == "normal" else [BreathingChanged(eagle, band, altitude_yd * 3.0)])


def test_a_mask_or_doesnt_breathe_keeps_breathing_normal() -> None:
    world = gurps_world()
    masked = flier(world, altitude_yd=8000)
    world.add(masked, AirSupply(oxygen_mask=True))
    spirit = flier(world, altitude_yd=8000)
    world.add(spirit, AirSupply(doesnt_breathe=True))
    assert of(world.step(), BreathingChanged) == []
    assert breathing(world, masked) is breathing(world, spirit) is rules.Breathing.NORMAL


def test_breathing_is_reported_once_per_change_and_counts_from_sea_level() -> None:
    world = gurps_world()
    world.spawn(Atmosphere(ground_ft=5_000))
    eagle = flier(world, altitude_yd=300)  # 5,900 ft above sea level
    assert of(world.step(), BreathingChanged) == []
    world.get(eagle, Position).altitude_yd = 340  # 6,020 ft
    assert of(world.step(), BreathingChanged) == [BreathingChanged(eagle, "trouble", 6_020.0)]
    assert of(world.step(), BreathingChanged) == []
    world.get(eagle, Position).altitude_yd = 10
    assert of(world.step(), BreathingChanged) == [BreathingChanged(eagle, "normal", 5_030.0)]


def test_denser_air_lifts_the_breathing_limits() -> None:
    world = gurps_world()
    world.spawn(Atmosphere("very dense", 2.0))
    eagle = flier(world, altitude_yd=3000)  # 9,000 ft: trouble on Earth
    world.step()
    assert world.get(eagle, Flight).breathing == "normal"


def test_a_scene_has_one_atmosphere() -> None:
    world = gurps_world()
    assert scene_atmosphere(world) == Atmosphere()
    first = world.spawn(Atmosphere("thin", 0.7))
    assert scene_atmosphere(world) == Atmosphere("thin", 0.7)
    second = world.spawn(Atmosphere())
    with pytest.raises(WorldError, match=f"entities {first}, {second} each carry an Atmosphere"):
        scene_atmosphere(world)


# --- Cannot Hover: stalls, falls, recovery ---------------------------------------------------------------------


@pytest.mark.parametrize("mode", [FlightMode.CANNOT_HOVER, FlightMode.CONTROLLED_GLIDING, FlightMode.GLIDING])
def test_a_flier_that_cannot_hover_stalls_when_it_covers_too_little(mode: FlightMode) -> None:
    world = gurps_world()
    glider = flier(world, altitude_yd=50, velocity=4, mode=mode, top_airspeed=20)
    events = world.step()
    assert of(events, Stalled) == [Stalled(glider, "covered less than a quarter of top airspeed", 4, 5)]
    assert world.get(glider, Flight).stalled
    assert world.get(glider, Velocity).yps == 0
    assert of(events, Falling) == [Falling(glider, 5.35, 5.35, 44.65)]


def test_covering_a_quarter_of_top_airspeed_keeps_it_up() -> None:
    world = gurps_world()
    glider = flier(world, altitude_yd=50, velocity=5, mode=FlightMode.CANNOT_HOVER, top_airspeed=20)
    assert of(world.step(), Stalled) == []
    assert world.get(glider, Position) == Position(5, 0, 50)


@pytest.mark.parametrize(
    ("velocity", "climb", "covered", "stalls"),
    [(2, 2, 3, True), (2, 3, 4, True), (4, 2, 5, False), (4, 0, 4, True)],
    ids=[
        "2 level + 2 up: 2 diagonals cost 3 of 5 -> stalls",
        "2 level + 3 up: 2 diagonals and a yard up cost 4 -> stalls",
        "4 level + 2 up: 2 diagonals and 2 level cost 5 -> flies",
        "4 level alone -> stalls",
    ],
)
def test_climbing_counts_toward_the_least_speed(velocity: int, climb: int, covered: float, stalls: bool) -> None:
    world = gurps_world()
    glider = flier(world, altitude_yd=50, velocity=velocity, mode=FlightMode.CANNOT_HOVER, top_airspeed=20)
    world.get(glider, FlightIntent).climb_yd = climb
    expected = [Stalled(glider, "covered less than a quarter of top airspeed", covered, 5)] if stalls else []
    assert of(world.step(), Stalled) == expected


def test_a_maneuver_other_than_move_stalls_a_flier_that_cannot_hover() -> None:
    """In ordinary flight an Attack allows a step (1 yard, a tenth of air Move 10), so the glider at 10 yd/s covers 1
    yard (before, it flew its whole velocity, 10) and stalls for the maneuver."""
    world = gurps_world()
    glider = flier(world, altitude_yd=50, velocity=10, mode=FlightMode.CANNOT_HOVER, top_airspeed=20)
    world.get(glider, Intent).maneuver = Maneuver.ATTACK
    assert of(world.step(), Stalled) == [Stalled(glider, "took Attack, not Move or Move and Attack", 1, 5)]


def test_hoverers_and_grounded_fliers_never_stall() -> None:
    world = gurps_world()
    hoverer = flier(world, altitude_yd=50)
    grounded = flier(world, altitude_yd=0, mode=FlightMode.CANNOT_HOVER)
    world.get(hoverer, Intent).maneuver = Maneuver.DO_NOTHING
    assert of(world.step(), Stalled) == []
    assert not world.get(grounded, Flight).stalled


def test_a_stalled_flier_falls_and_recovers_on_a_lucky_dx_minus_4_roll() -> None:
    world = gurps_world()
    glider = flier(world, altitude_yd=60, velocity=3, mode=FlightMode.CANNOT_HOVER, top_airspeed=20)
    first = world.step()
    assert of(first, Stalled) and of(first, RollMade) == []  # no recovery roll on the turn it stalls
    world.dice.script(5, 6, 6)  # 17: fails DX-4 (8)
    second = world.step()
    [roll] = of(second, RollMade)
    assert roll.result.target == 8 and not roll.result.success  # type: ignore[attr-defined]
    assert of(second, Falling) == [Falling(glider, pytest.approx(16.05), 21.4, pytest.approx(38.6))]
    world.dice.script(1, 2, 3)  # 6: makes DX-4 (8)
    third = world.step()
    assert of(third, StallRecovered) == [StallRecovered(glider, 21, pytest.approx(38.6))]
    assert of(third, Falling) == []
    flight = world.get(glider, Flight)
    assert (flight.stalled, flight.fall_seconds, flight.fall_yd) == (False, 0, 0)
    assert world.get(glider, Velocity) == Velocity(21)  # fall_velocity(21.4) = 21, diving where it faces
    assert world.get(glider, Control).state is MoveState.HIGH_SPEED  # over air Move 12


def test_a_cannot_hover_flier_slows_stalls_falls_and_recovers_on_a_lucky_dx_minus_4_roll() -> None:
    world = gurps_world()
    # Air Move 10, top airspeed 20: it must cover 5 yards a turn. DX 12: recovery rolls against 8.
    hawk = flier(world, altitude_yd=100, velocity=12, mode=FlightMode.CANNOT_HOVER, air_move=10, top_airspeed=20)
    world.get(hawk, Control).state = MoveState.HIGH_SPEED
    world.get(hawk, Intent).throttle = -4
    slowed = world.step()  # flies 12 yards, slows to 8: at or under air Move 10, ordinary movement again
    assert [(event.entity, event.velocity_yps) for event in of(slowed, LeftHighSpeed)] == [(hawk, 8)]  # type: ignore[attr-defined]
    world.get(hawk, Intent).throttle = -4
    # ordinary flight takes the throttle at once: 8 - 4 = 4 yards this turn (before, it flew 8 and stalled a turn
    # later), under a quarter of 20
    stalling = world.step()
    assert of(stalling, Stalled) == [Stalled(hawk, "covered less than a quarter of top airspeed", 4, 5)]
    assert of(stalling, Falling) == [Falling(hawk, 5.35, 5.35, 94.65)]
    assert world.get(hawk, Position).hex == (16, 0)
    world.dice.script(6, 6, 1)  # 13 against DX-4 = 8: fails
    falling = world.step()
    assert [event.result.success for event in of(falling, RollMade)] == [False]  # type: ignore[attr-defined]
    assert of(falling, Falling) == [Falling(hawk, pytest.approx(16.05), 21.4, pytest.approx(78.6))]
    world.dice.script(2, 2, 3)  # 7 against 8: the lucky roll
    recovering = world.step()
    [roll] = of(recovering, RollMade)
    assert roll.result.story == "DX-4 to recover from a stall (8): 3d6 (2, 2, 3) = 7, made by 1"  # type: ignore[attr-defined]
    assert of(recovering, StallRecovered) == [StallRecovered(hawk, 21, pytest.approx(78.6))]
    assert world.get(hawk, Velocity).yps == 21
    assert world.get(hawk, Control).state is MoveState.HIGH_SPEED
    assert world.get(hawk, Position).hex == (16, 0)  # the fall went straight down
    flying = world.step()  # diving on at 21 yards a second, well over the least speed
    assert of(flying, Stalled) == []
    assert world.get(hawk, Position).hex == (37, 0)


def test_a_stalled_flier_cannot_be_steered() -> None:
    world = gurps_world()
    glider = flier(world, altitude_yd=60, velocity=3, mode=FlightMode.CANNOT_HOVER, top_airspeed=20)
    world.step()
    world.get(glider, Intent).throttle = 5
    with pytest.raises(IntentError, match="a stalled flier falls, and cannot speed up, slow down or turn"):
        world.step()
    assert world.turn == 1


def test_a_loss_of_control_that_slows_a_flier_under_its_least_speed_stalls_it() -> None:
    world = gurps_world()
    hawk = flier(world, altitude_yd=30, velocity=12, mode=FlightMode.CANNOT_HOVER, air_move=10, top_airspeed=40)
    world.get(hawk, Control).state = MoveState.HIGH_SPEED
    intent = world.get(hawk, Intent)
    intent.turn, intent.turn_at_yd, intent.push = 1, 0, True
    world.dice.script(6, 6, 6)  # the early turn fails: control is lost in the air
    events = world.step()
    assert of(events, LostControl) == [LostControl(hawk, "critical failure", "drift", 0)]
    assert world.get(hawk, Position).hex == (12, 0)  # drifted its whole velocity straight ahead
    # then slowed by air Move 10 to 2, under a quarter of top airspeed 40
    assert of(events, Stalled) == [Stalled(hawk, "lost control and slowed under a quarter of top airspeed", 2, 10)]
    assert world.get(hawk, Flight).stalled
    assert world.get(hawk, Velocity).yps == 0
    assert of(events, RegainedControl) == []  # the stall ends the loss of control: the flier simply falls
    assert of(events, LeftHighSpeed) == [LeftHighSpeed(hawk, 0, "stalled")]
    assert world.get(hawk, Control).state is MoveState.NORMAL


def test_a_loss_of_control_that_leaves_enough_speed_does_not_stall() -> None:
    world = gurps_world()
    hawk = flier(world, altitude_yd=30, velocity=16, mode=FlightMode.CANNOT_HOVER, air_move=10, top_airspeed=20)
    world.get(hawk, Control).state = MoveState.HIGH_SPEED
    intent = world.get(hawk, Intent)
    intent.turn, intent.turn_at_yd, intent.push = 1, 0, True
    world.dice.script(6, 6, 6)
    events = world.step()
    assert of(events, Stalled) == []
    assert world.get(hawk, Velocity).yps == 6


def test_preview_of_a_stalled_flier_gives_its_recovery_roll_and_leaves_the_world_alone() -> None:
    world = gurps_world()
    glider = flier(world, altitude_yd=60, velocity=3, mode=FlightMode.CANNOT_HOVER, top_airspeed=20)
    assert preview(world, glider).rolls == ()  # not stalled yet: no roll this turn
    world.step()
    before = world.get(glider, Flight).fall_yd, world.get(glider, Position).altitude_yd, world.dice.getstate()
    [roll] = preview(world, glider).rolls
    assert (roll.purpose, roll.label, roll.target, roll.chance) == (
        "stall recovery",
        "DX-4 to recover from a stall",
        8,
        Fraction(56, 216),
    )
    assert (world.get(glider, Flight).fall_yd, world.get(glider, Position).altitude_yd, world.dice.getstate()) == before


def test_shock_hampers_the_recovery_roll() -> None:
    world = gurps_world()
    glider = flier(world, altitude_yd=60, mode=FlightMode.GLIDING, top_airspeed=20)
    world.get(glider, Flight).stalled = True
    world.get(glider, Flight).fall_seconds = 1
    world.get(glider, Flight).fall_yd = 5.35
    world.get(glider, Condition).shock = -2
    [roll] = of(world.step(), RollMade)
    assert roll.result.target == 6  # type: ignore[attr-defined]


def test_the_recovered_dive_is_no_faster_than_twice_top_airspeed() -> None:
    world = gurps_world()
    glider = flier(world, altitude_yd=500, mode=FlightMode.GLIDING, top_airspeed=8, air_move=6)
    flight = world.get(glider, Flight)
    flight.stalled, flight.fall_seconds, flight.fall_yd = True, 4, free_fall_yd(4)
    world.dice.script(1, 1, 1)
    assert of(world.step(), StallRecovered) == [StallRecovered(glider, 16, 500.0)]


def test_a_stalled_flier_that_reaches_the_ground_takes_falling_damage() -> None:
    world = gurps_world()
    glider = flier(world, altitude_yd=10, velocity=2, mode=FlightMode.CANNOT_HOVER, top_airspeed=20)
    world.step()  # stalls and falls 5.35 yd
    world.dice.script(6, 6, 6, 1, 2, 3)  # the DX-4 roll fails; then 3d of damage
    events = world.step()
    # 10 yd of fall: velocity round(sqrt(214)) = 15; the ground is hard: 2 x 10 HP x 15 / 100 = 3 dice.
    assert of(events, Landed) == [Landed(glider, 10.0, 15)]
    assert of(events, FallDamage) == [FallDamage(glider, 15, "3d", 6, 6)]
    assert world.get(glider, Condition).injury == 6
    assert world.get(glider, Position).altitude_yd == 0
    flight = world.get(glider, Flight)
    assert (flight.stalled, flight.fall_seconds, flight.fall_yd) == (False, 0, 0)


@pytest.mark.parametrize(
    ("seconds", "yards"),
    [(0, 0), (1, 5.35), (2, 21.4), (3, 48.15)],
    ids=["0 s -> 0 yd", "1 s -> 5.35 yd", "2 s -> 21.4 yd", "3 s -> 48.15 yd"],
)
def test_free_fall_distance(seconds: int, yards: float) -> None:
    assert free_fall_yd(seconds) == yards


def test_a_free_fall_ends_at_the_falling_velocity() -> None:
    for seconds in range(1, 8):
        assert rules.fall_velocity(free_fall_yd(seconds)) == round(10.7 * seconds)


def test_free_fall_refuses_bad_input() -> None:
    with pytest.raises(RuleValueError, match=r"free_fall_yd.seconds = -1"):
        free_fall_yd(-1)
    with pytest.raises(RuleValueError, match=r"free_fall_yd.gravity = -0.5"):
        free_fall_yd(1, gravity=-0.5)


def test_a_stalled_flier_cannot_climb() -> None:
    world = gurps_world()
    glider = flier(world, mode=FlightMode.GLIDING)
    world.get(glider, Flight).stalled = True
    world.get(glider, FlightIntent).climb_yd = 2
    with pytest.raises(IntentError, match="a flier without lift falls and cannot climb or descend"):
        world.step()


# --- Flying fast ------------------------------------------------------------------------------------------------


def accel_and_top(world: World, entity: int) -> tuple[int, int]:
    lim = limits(world, body_of(world, entity), installed_rules(world))
    return lim.accel_step, lim.top_speed


def test_in_the_air_the_high_speed_rules_use_air_move_and_top_airspeed() -> None:
    world = gurps_world()
    hawk = flier(world, air_move=12)
    assert accel_and_top(world, hawk) == (12, 14)
    assert normal_top_speed(world.get(hawk, Flight), world.get(hawk, Mover), Rules()) == 14
    fast = flier(world, air_move=12, top_airspeed=24)
    assert accel_and_top(world, fast) == (12, 24)
    walker = flier(world, altitude_yd=0)
    assert accel_and_top(world, walker) == (5, 6)  # on the ground: Basic Move 5


def test_a_dive_adds_10_to_air_move_and_doubles_top_airspeed() -> None:
    world = gurps_world()
    hawk = flier(world, air_move=12, top_airspeed=24)
    world.get(hawk, FlightIntent).climb_yd = -3
    world.get(hawk, FlightIntent).dive = True
    assert accel_and_top(world, hawk) == (22, 48)
    world.get(hawk, Intent).maneuver = Maneuver.MOVE_AND_ATTACK
    assert accel_and_top(world, hawk) == (12, 24)


def test_a_dive_exceeds_the_normal_top_airspeed() -> None:
    world = gurps_world()
    hawk = flier(world, altitude_yd=40, velocity=20, air_move=10, top_airspeed=20)
    world.get(hawk, Control).state = MoveState.HIGH_SPEED
    wish, intent = world.get(hawk, FlightIntent), world.get(hawk, Intent)
    wish.climb_yd, wish.dive, intent.throttle = -5, True, 20
    events = world.step()
    assert of(events, VelocityChanged) == [VelocityChanged(hawk, 20, 40, 20, 0)]
    assert world.get(hawk, Velocity).yps == 40  # twice the normal top airspeed of 20
    assert world.get(hawk, Position).altitude_yd == 35
    intent.throttle = 1  # no longer diving: back to the normal limits, and 40 is past top airspeed
    with pytest.raises(IntentError, match=r"accelerating past the top speed of 20 yd/s"):
        world.step()
    intent.throttle = 0
    world.step()
    assert world.get(hawk, Velocity).yps == 40


def test_a_dive_cannot_accelerate_past_twice_top_airspeed() -> None:
    world = gurps_world()
    hawk = flier(world, altitude_yd=40, velocity=20, air_move=10, top_airspeed=20)
    world.get(hawk, Control).state = MoveState.HIGH_SPEED
    wish, intent = world.get(hawk, FlightIntent), world.get(hawk, Intent)
    wish.climb_yd, wish.dive, intent.throttle = -5, True, 21
    with pytest.raises(IntentError, match=r"throttle = 21: at most \+20"):
        world.step()


# --- Queries --------------------------------------------------------------------------------------------------


def test_a_human_flying_lying_flat_fills_two_hexes() -> None:
    world = gurps_world()
    superhero = flier(world, lying_flat=True)
    world.get(superhero, Facing).direction = 1
    assert occupied_hexes(world, superhero) == ((0, 0), (0, -1))
    world.get(superhero, Position).altitude_yd = 0
    assert occupied_hexes(world, superhero) == ((0, 0),)
    dragon = flier(world)
    assert occupied_hexes(world, dragon) == ((0, 0),)


def test_a_runner_meets_the_back_of_a_human_flying_lying_flat() -> None:
    world = gurps_world()
    superhero = flier(world, altitude_yd=1, lying_flat=True)  # head on (0, 0), back on (-1, 0)
    runner = world.spawn(
        Position(-5, 0),
        Facing(0),
        Velocity(8),
        Mover(basic_move=5, basic_speed=4.0),
        Control(MoveState.HIGH_SPEED),
        Intent(),
    )
    world.dice.script(6, 6, 6)  # the flier fails to dodge
    events = world.step()
    [hit] = of(events, Collided)
    assert (hit.entity, hit.struck, hit.at) == (runner, superhero, (-2, 0))  # type: ignore[attr-defined]


def test_the_back_of_a_lying_flat_flier_follows_it_within_the_turn() -> None:
    world = gurps_world()
    superhero = flier(world, altitude_yd=1, velocity=4, lying_flat=True)
    world.get(superhero, Mover).basic_speed = 7.0  # moves first: (0, 0) to (4, 0), its back on (3, 0)
    runner = world.spawn(
        Position(3, -3),
        Facing(1),
        Velocity(6, heading=1),
        Mover(basic_move=5, basic_speed=4.0),
        Control(MoveState.HIGH_SPEED),
        Intent(),
    )
    world.dice.script(6, 6, 6)
    events = world.step()
    [hit] = of(events, Collided)
    assert (hit.entity, hit.struck, hit.at) == (runner, superhero, (3, -1))  # type: ignore[attr-defined]
    assert occupied_hexes(world, superhero) == ((4, 0), (3, 0))


@pytest.mark.parametrize(
    ("altitude_yd", "clear"),
    [(2.0, True), (1.5, False), (3.0, True)],
    ids=["2 yd over a human -> passes over", "1.5 yd -> meets", "3 yd -> passes over"],
)
def test_a_flier_passes_over_a_fighter_when_high_enough(altitude_yd: float, clear: bool) -> None:
    world = gurps_world()
    hawk = flier(world, altitude_yd=altitude_yd)
    footman = world.spawn(Position(0, 0), Mover(basic_move=5))
    assert vertically_clear(world, hawk, footman) is clear
    assert vertically_clear(world, footman, hawk) is clear


@pytest.mark.parametrize(
    ("size_modifier", "height"),
    [(0, 2), (1, 3), (-2, 1), (6, 20)],
    ids=["SM 0 -> 2 yd", "SM +1 -> 3 yd", "SM -2 -> 1 yd", "SM +6 -> 20 yd"],
)
def test_figure_height_follows_the_size_table(size_modifier: int, height: float) -> None:
    world = gurps_world()
    figure = world.spawn(Position(0, 0), Mover(basic_move=5, size_modifier=size_modifier))
    assert entity_height_yd(world, figure) == height


def test_an_obstacle_is_as_tall_as_it_says() -> None:
    world = gurps_world()
    wall = world.spawn(Position(0, 0), Obstacle(height_yd=4))
    hawk = flier(world, altitude_yd=3.5)
    assert entity_height_yd(world, wall) == 4
    assert not vertically_clear(world, hawk, wall)
    marker = world.spawn(Position(0, 0))
    assert entity_height_yd(world, marker) == 2  # neither Obstacle nor Mover: as tall as a human


@pytest.mark.parametrize(
    ("move", "step"),
    [(0, 1), (9, 1), (10, 1), (20, 2), (29, 2), (30, 3)],
    ids=["Move 0 -> 1", "Move 9 -> 1", "Move 10 -> 1", "Move 20 -> 2", "Move 29 -> 2", "Move 30 -> 3"],
)
def test_a_step_is_a_tenth_of_move_at_least_a_yard(move: int, step: int) -> None:
    assert step_yards(move) == step


def test_a_flier_retreats_a_step_of_air_move_and_may_go_vertically() -> None:
    world = gurps_world()
    swift = flier(world, air_move=24)
    retreat = aerial_retreat(world, swift)
    assert (retreat.step_yd, retreat.vertical, retreat.bonus) == (2, True, 1)  # hovers, room up or down: +1
    cramped = aerial_retreat(world, swift, room_vertical=False)
    assert (cramped.vertical, cramped.bonus) == (False, 0)
    world.get(swift, Position).altitude_yd = 0
    with pytest.raises(WorldError, match="is not flying"):
        aerial_retreat(world, swift)


def test_a_flier_that_cannot_hover_gets_no_extra_retreat_bonus() -> None:
    world = gurps_world()
    glider = flier(world, velocity=10, mode=FlightMode.CANNOT_HOVER, top_airspeed=24)
    assert aerial_retreat(world, glider).bonus == 0


def test_acrobatic_dodge_in_the_air_uses_aerobatics() -> None:
    world = gurps_world()
    acrobat = flier(world)
    world.add(acrobat, Skills({"Aerobatics": 13, "Acrobatics": 11}))
    assert acrobatic_dodge_skill(world, acrobat) == ("Aerobatics", 13)
    world.get(acrobat, Position).altitude_yd = 0
    assert acrobatic_dodge_skill(world, acrobat) == ("Acrobatics", 11)
    plain = flier(world)
    assert acrobatic_dodge_skill(world, plain) == ("Aerobatics", None)


@pytest.mark.parametrize(
    ("altitude_yd", "reach", "expected"),
    [
        (0.5, 1, (0, 0, False, False)),
        (1, 1, (1, -1, False, False)),
        (4 / 3, 1, (2, -2, True, False)),
        (2, 1, (3, -3, True, False)),
        (2, 2, (1, -1, False, False)),
        (-2, 1, (-3, 3, False, True)),
    ],
    ids=[
        "1.5 ft above -> nothing",
        "3 ft above -> +1 / -1",
        "4 ft above -> +2 / -2, legs out of reach",
        "6 ft above -> +3 / -3",
        "6 ft above with reach 2 -> as 3 ft",
        "6 ft below -> -3 / +3, head out of reach",
    ],
)
def test_height_against_a_foe_on_the_ground_uses_combat_at_different_levels(
    altitude_yd: float, reach: int, expected: tuple[int, int, bool, bool]
) -> None:
    """(attacker's defense, defender's defense, defender's legs out of reach, defender's head out of reach)."""
    world = gurps_world()
    if altitude_yd >= 0:
        hawk = flier(world, altitude_yd=altitude_yd)
        footman = world.spawn(Position(1, 0), Mover(basic_move=5))
    else:
        hawk = world.spawn(Position(1, 0), Mover(basic_move=5))
        footman = flier(world, altitude_yd=-altitude_yd)
    effect = height_effect(world, hawk, footman, reach_yd=reach)
    got = (effect.attacker_defense, effect.defender_defense, effect.legs_out_of_reach, effect.head_out_of_reach)
    assert got == expected


def test_height_does_not_matter_between_two_fliers() -> None:
    world = gurps_world()
    high = flier(world, altitude_yd=20)
    low = flier(world, altitude_yd=5)
    effect = height_effect(world, high, low)
    assert (effect.height_ft, effect.attacker_defense, effect.defender_defense) == (45.0, 0, 0)
    assert not effect.legs_out_of_reach


def test_house_range_needs_the_house_rules() -> None:
    world = gurps_world()
    hawk = flier(world, altitude_yd=4)
    footman = world.spawn(Position(20, 0), Mover(basic_move=5))
    with pytest.raises(WorldError, match="house_ranged_distance applies the house flight rules"):
        house_ranged_distance(world, hawk, footman, 20)


# --- Components -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: Flight(air_move=5, mode="hovering"), "Flight.mode = 'hovering': expected one of"),  # type: ignore[arg-type]
        (lambda: Flight(air_move=5, top_airspeed=-1), "Flight.top_airspeed = -1"),
        (lambda: Flight(air_move=5, wingspan_yd=3), "Flight.wings = False: expected True for a flier with a wingspan"),
        (lambda: Flight(air_move=5, breathing="gasping"), "Flight.breathing = 'gasping'"),
        (lambda: FlightIntent(climb_yd=0, dive=True), "FlightIntent.dive = True: expected False unless climb_yd"),
        (lambda: FlightIntent(climb_yd=1.5), "FlightIntent.climb_yd = 1.5"),  # type: ignore[arg-type]
        (lambda: Atmosphere("soup"), "Atmosphere.category = 'soup'"),
        (lambda: Atmosphere("standard", 0.0), "Atmosphere.pressure_atm = 0.0: expected 0 for a vacuum"),
        (lambda: Atmosphere("standard", -1.0), "Atmosphere.pressure_atm = -1.0"),
        (lambda: AirSupply(oxygen_mask=1), "AirSupply.oxygen_mask = 1: expected True or False"),  # type: ignore[arg-type]
    ],
    ids=[
        "unknown flight mode",
        "negative top airspeed",
        "wingspan without wings",
        "unknown breathing band",
        "a dive that does not go down",
        "fractional climb",
        "unknown atmosphere",
        "pressure 0 outside a vacuum",
        "negative pressure",
        "mask not a bool",
    ],
)
def test_flight_components_refuse_bad_values(build: object, message: str) -> None:
    with pytest.raises(RuleValueError, match=message):
        build()  # type: ignore[operator]


def test_a_save_mid_stall_loads_and_falls_the_same(tmp_path: Path) -> None:
    world = gurps_world(seed=5)
    world.spawn(Atmosphere("thin", 0.7, ground_ft=1_000))
    glider = flier(world, altitude_yd=60, velocity=3, mode=FlightMode.CANNOT_HOVER, top_airspeed=20, wings=True)
    world.add(glider, AirSupply(oxygen_mask=True))
    world.step()
    assert world.get(glider, Flight).stalled
    world.save(tmp_path / "stall.json")
    loaded = World.load(tmp_path / "stall.json")
    assert loaded.get(glider, Flight) == world.get(glider, Flight)
    assert [event.describe() for event in loaded.step(4)] == [event.describe() for event in world.step(4)]
    assert of(world.events, Landed)


# --- Aerial Movement: indoors -----------------------------------------------------------------------------------


def test_aerial_movement_a_flier_passes_over_a_fighter_only_under_a_ceiling_high_enough() -> None:
    def hall(ceiling_yd: float) -> tuple[World, int, int]:
        """A 2-yd flier on the ground flying east at 4 yd/s; a 2-yd guard 6 hexes ahead of it."""
        world = gurps_world()
        world.spawn(Atmosphere(ceiling_yd=ceiling_yd))
        sprite = flier(world, altitude_yd=0.0, velocity=4)
        world.get(sprite, Intent).maneuver = Maneuver.MOVE
        guard = world.spawn(Position(6, 0), Mover(basic_move=5, dx=10, hp=10), Condition())
        return world, sprite, guard

    # under a 5-yd ceiling it climbs 3 yd (its top at 5 yd), then flies over the guard's head
    world, sprite, guard = hall(5.0)
    world.get(sprite, FlightIntent).climb_yd = 3
    world.step()
    world.get(sprite, FlightIntent).climb_yd = 0
    events = world.step()
    assert world.get(sprite, Position).hex == (8, 0) and world.get(sprite, Position).altitude_yd == 3
    assert of(events, Collided) == [] and of(events, DodgedAside) == [] and of(events, RollMade) == []
    # under a 3.5-yd ceiling a 2-yd climb is refused, the world unchanged
    world, sprite, guard = hall(3.5)
    world.get(sprite, FlightIntent).climb_yd = 2
    with pytest.raises(IntentError, match=r"takes the flier's top \(2 yd tall\) past the ceiling 3.5 yd up"):
        world.step()
    assert world.get(sprite, Position) == Position(0, 0, 0.0) and world.turn == 0
    # the most it may climb there (1 yd) leaves it at head height: the guard has to dodge out of its way
    world.get(sprite, FlightIntent).climb_yd = 1
    world.step()
    world.get(sprite, FlightIntent).climb_yd = 0
    events = world.step()
    assert world.get(sprite, Position).altitude_yd == 1
    assert [(d.entity, d.mover, d.at) for d in of(events, DodgedAside)] == [(guard, sprite, (6, 0))]  # type: ignore[attr-defined]


def test_a_flier_above_the_indoor_ceiling_is_refused_and_a_ceiling_must_be_above_the_ground() -> None:
    world = gurps_world()
    world.spawn(Atmosphere(ceiling_yd=6.0))
    bird = flier(world, altitude_yd=5.0)
    with pytest.raises(WorldError, match=rf"entity {bird} reaches 7 yd up, above the ceiling 6 yd up"):
        world.step()
    assert world.turn == 0
    with pytest.raises(
        RuleValueError, match=r"Atmosphere.ceiling_yd = 0.0: expected None outdoors, or a height above 0"
    ):
        Atmosphere(ceiling_yd=0.0)

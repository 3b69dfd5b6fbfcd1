"""Fliers under the planner: a flier in the air is planned in level flight on its air Move, keeps its altitude
whatever climb the game asked unless its goal wants another, one that cannot hover never plans a turn below its stall
speed, and a stalled flier is not planned (said once); the flier goals climb, land and swoop within the flight rules'
limits."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from support import gurps_world, of_type
from support.highspeed import mover

from esper_motion.components import (
    Attack,
    Climb,
    Control,
    Defenses,
    Flee,
    GoTo,
    Intent,
    Land,
    MoveState,
    Obstacle,
    Position,
    Pursue,
    Swoop,
    Velocity,
)
from esper_motion.components.flight import Flight, FlightIntent, FlightMode
from esper_motion.demos import load_scene
from esper_motion.ecs import World
from esper_motion.ecs.hexgrid import distance
from esper_motion.systems.gurps import Rules, plan
from esper_motion.systems.gurps.events import AttackRolled, Collided, GoalUnreachable, LostControl, Stalled
from esper_motion.systems.gurps.planner.search import advance, state_of, stop_short
from esper_motion.systems.gurps.shared.movers import body_of
from esper_motion.systems.gurps.shared.spatial import SpatialIndex
from esper_motion.systems.gurps.shared.transitions import stall_speed


def flier(
    world: World,
    mode: FlightMode,
    goal: object,
    *,
    at: tuple[int, int] = (0, 0),
    velocity: int = 0,
    state: MoveState = MoveState.NORMAL,
) -> int:
    """A flier 10 yd up, air Move 12."""
    return mover(
        world,
        at=at,
        altitude_yd=10.0,
        velocity=velocity,
        state=state,
        basic_move=6,
        dx=12,
        ht=12,
        extra=(Flight(air_move=12, mode=mode), FlightIntent(), goal),
    )


def test_a_hovering_flier_flies_to_a_hex_and_stops_there_at_its_height() -> None:
    world = gurps_world()
    drake = flier(world, FlightMode.HOVER, GoTo((20, 4)))
    for _ in range(6):
        world.get(drake, FlightIntent).climb_yd = 3  # the game's wish: the plan keeps the height
        assert not of_type(world.step(), GoalUnreachable)
    assert world.get(drake, Position) == Position(20, 4, altitude_yd=10.0)
    assert world.get(drake, Velocity).yps == 0


def test_a_flier_that_cannot_hover_never_plans_below_its_stall_speed() -> None:
    world = gurps_world()
    quarry = mover(world, at=(6, 6))
    wyvern = flier(world, FlightMode.CANNOT_HOVER, Pursue(quarry, range_yd=2), velocity=8)
    least = stall_speed(world, wyvern)
    assert least > 0
    shown = plan(world, wyvern)
    assert shown.turns and all(len(turn.path) >= least for turn in shown.turns)
    for _ in range(10):
        world.step()
        assert not world.get(wyvern, Flight).stalled
        assert world.get(wyvern, Control).moved_yd >= least
        assert world.get(wyvern, Position).altitude_yd == 10.0


def test_a_stalled_flier_is_not_planned_and_says_so_once() -> None:
    world = gurps_world()
    wyvern = flier(world, FlightMode.CANNOT_HOVER, GoTo((20, 0)), velocity=8)
    world.get(wyvern, Flight).stalled = True
    said = of_type(world.step(), GoalUnreachable)
    assert [event.why for event in said] == ["stalled: it falls until it recovers"]
    if world.get(wyvern, Flight).stalled:
        assert not of_type(world.step(), GoalUnreachable)


def test_a_hovering_flier_climbs_to_the_height_asked_in_place_within_its_air_move_a_turn() -> None:
    world = gurps_world()
    drake = flier(world, FlightMode.HOVER, Climb(30))
    heights = []
    for _ in range(3):
        assert not of_type(world.step(), GoalUnreachable)
        heights.append(world.get(drake, Position).altitude_yd)
    assert heights == [22.0, 30.0, 30.0]  # 12 yd a turn on air Move 12 (Changing Height: a yard up costs a yard)
    assert world.get(drake, Position).hex == (0, 0)


def test_a_hovering_flier_on_the_ground_takes_off_to_the_height_asked() -> None:
    world = gurps_world()
    drake = mover(world, basic_move=6, extra=(Flight(air_move=12), FlightIntent(), Climb(10)))
    world.step()
    assert world.get(drake, Position) == Position(0, 0, altitude_yd=10.0)


@pytest.mark.parametrize("rules", [Rules.basic(), Rules.house()], ids=["basic", "house"])
def test_a_flier_that_cannot_hover_climbs_circling_the_hex_it_was_over_and_never_stalls(rules: Rules) -> None:
    world = gurps_world(rules)
    state = MoveState.HIGH_SPEED if rules.house_flight else MoveState.NORMAL
    wyvern = flier(world, FlightMode.CANNOT_HOVER, Climb(30), velocity=8, state=state)
    least = stall_speed(world, wyvern)
    for _ in range(12):
        events = world.step()
        assert not of_type(events, Stalled) and not of_type(events, LostControl)
        assert world.get(wyvern, Control).moved_yd >= least
        assert distance(world.get(wyvern, Position).hex, (0, 0)) <= 60  # it circles the hex it was over, wide
    assert world.get(wyvern, Position).altitude_yd == 30.0
    assert world.get(wyvern, Climb).hex == (0, 0)


@pytest.mark.parametrize("mode", [FlightMode.HOVER, FlightMode.CANNOT_HOVER], ids=["hover", "cannot hover"])
@pytest.mark.parametrize("rules", [Rules.basic(), Rules.house()], ids=["basic", "house"])
def test_a_flier_lands_on_the_ground_without_a_stall_or_a_loss_of_control(mode: FlightMode, rules: Rules) -> None:
    world = gurps_world(rules)
    at_speed = rules.house_flight and not mode.can_hover
    wyvern = flier(world, mode, Land((20, 0)), velocity=8, state=MoveState.HIGH_SPEED if at_speed else MoveState.NORMAL)
    for _ in range(12):
        events = world.step()
        assert not of_type(events, Stalled) and not of_type(events, LostControl)
    assert world.get(wyvern, Position).altitude_yd == 0.0


def test_a_hovering_flier_lands_on_the_hex_asked_and_stops() -> None:
    world = gurps_world()
    drake = flier(world, FlightMode.HOVER, Land((20, 0)), velocity=8)
    for _ in range(8):
        world.step()
    assert world.get(drake, Position) == Position(20, 0, altitude_yd=0.0)
    assert world.get(drake, Velocity).yps == 0


@pytest.mark.parametrize("rules", [Rules.basic(), Rules.house()], ids=["basic", "house"])
def test_a_swoop_comes_down_on_the_foe_strikes_on_the_pass_on_a_move_and_attack_and_climbs_away(rules: Rules) -> None:
    world = gurps_world(rules, seed=3)
    foe = mover(world, at=(15, 0), extra=(Defenses(dodge=8),))
    drake = flier(world, FlightMode.HOVER, Swoop(foe, height_yd=10), velocity=8)
    world.add(drake, Attack(skill=14))
    struck_at = None
    for turn in range(8):
        events = world.step()
        if of_type(events, AttackRolled):
            [attack] = of_type(events, AttackRolled)
            assert attack.attacker == drake and attack.target == foe
            # on a Move and Attack: Basic Set, melee at -4 and at most 9; house "Dragon" rule, neither for a flier
            assert attack.skill == (14 if rules.house_flight else 9)
            assert world.get(drake, Position).altitude_yd == 1.0  # a yard above the foe, within its reach
            struck_at = turn
            break
    assert struck_at is not None and world.get(drake, Swoop).wheeling
    world.step()
    assert world.get(drake, Position).altitude_yd > 1.0  # climbing away toward its height


def test_a_flier_goal_without_flight_is_not_planned_and_says_why() -> None:
    world = gurps_world()
    runner = mover(world, extra=(Climb(10),))
    said = of_type(world.step(), GoalUnreachable)
    assert [(event.entity, event.why) for event in said] == [(runner, "a Climb goal without Flight: it cannot fly")]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_in_the_dogfight_both_fliers_strike_each_other_on_the_pass(seed: int) -> None:
    # each aims at where the other will be (its kept plan, or the turn decided for it this turn) and strikes when its
    # path comes within reach of where the other ends the turn, as the COMBAT phase measures it
    world = load_scene("dogfight", seed=seed)
    rolled: list[AttackRolled] = []
    for _ in range(8):
        rolled.extend(of_type(world.step(), AttackRolled))
    [wyvern] = [entity for entity, _ in world.scan(Swoop)]
    [griffin] = [entity for entity, _ in world.scan(Pursue)]
    assert {(attack.attacker, attack.target) for attack in rolled} == {(griffin, wyvern), (wyvern, griffin)}


PREVIEWED = [
    (FlightMode.HOVER, lambda: Land((20, 4)), 0),
    (FlightMode.HOVER, lambda: Climb(30, (12, 0)), 0),
    (FlightMode.CANNOT_HOVER, lambda: Climb(30), 8),
    (FlightMode.CANNOT_HOVER, lambda: Land((30, 0)), 8),
]


@pytest.mark.parametrize("rules", [Rules.basic(), Rules.house()], ids=["basic", "house"])
@pytest.mark.parametrize(("mode", "goal", "velocity"), PREVIEWED, ids=["hover-land", "hover-climb", "climb", "land"])
def test_a_fliers_plan_shows_the_climbs_and_heights_of_the_turns_it_then_plays(
    rules: Rules, mode: FlightMode, goal: Callable[[], object], velocity: int
) -> None:
    world = gurps_world(rules)
    at_speed = rules.house_flight and not mode.can_hover  # under the house rules such a flier is at speed in the air
    drake = mover(
        world,
        altitude_yd=20.0,
        velocity=velocity,
        state=MoveState.HIGH_SPEED if at_speed else MoveState.NORMAL,
        basic_move=6,
        dx=12,
        ht=12,
        extra=(Flight(air_move=12, mode=mode), FlightIntent(), goal()),
    )
    shown = plan(world, drake)
    assert world.get(drake, Position).altitude_yd == 20.0 and world.get(drake, FlightIntent) == FlightIntent()
    assert len(shown.turns) >= 3 and any(turn.flight is not None and turn.flight.climb_yd for turn in shown.turns)
    for turn in shown.turns:
        world.step()
        assert turn.flight is not None
        assert (tuple(world.get(drake, Control).path), world.get(drake, Position).altitude_yd) == (
            turn.path,
            turn.altitude_yd,
        )
        assert world.get(drake, Flight).climbed_yd == turn.flight.climb_yd


def test_a_flier_lying_flat_may_stop_short_of_a_wall_and_the_step_plays_it() -> None:
    # a body two hexes long in the air: the search tries the throttle that ends on the last hex before what a
    # candidate ran into, as for a horse (stop_short), and the flight checks take it
    world = gurps_world()
    for r in range(-6, 7):
        world.spawn(Position(5, r), Obstacle(height_yd=30.0))
    drake = mover(world, velocity=6, altitude_yd=10.0, extra=(Flight(air_move=12, lying_flat=True), FlightIntent()))
    index = SpatialIndex()
    index.rebuild(world)
    body = body_of(world, drake)
    assert index.length(drake) == 2
    full = Intent(throttle=6)
    outcome = advance(world, Rules.basic(), index, body._replace(intent=full), state_of(body))
    assert outcome is not None and outcome.struck is not None
    stop = stop_short(body, full, outcome)
    assert stop is not None and stop.throttle == -2
    shortened = advance(world, Rules.basic(), index, body._replace(intent=stop), state_of(body))
    assert shortened is not None and shortened.struck is None and shortened.path == ((1, 0), (2, 0), (3, 0), (4, 0))
    world.get(drake, Intent).throttle = stop.throttle
    assert not of_type(world.step(), Collided)
    assert world.get(drake, Position) == Position(4, 0, altitude_yd=10.0)


def test_a_flier_fleeing_keeps_its_height_and_gets_away_across_the_map() -> None:
    # the reading: a range is counted across the map, and climbing only takes yards from the level path
    world = gurps_world()
    hound = mover(world, at=(3, 0))
    drake = flier(world, FlightMode.HOVER, Flee(hound, range_yd=20))
    for _ in range(4):
        world.step()
        assert world.get(drake, Position).altitude_yd == 10.0
    assert distance(world.get(drake, Position).hex, world.get(hound, Position).hex) >= 20

"""The Spelljammer planner: it never writes an intent the rules refuse, it chases, flees and goes where a goal says
within its caution, and a world with goals plays the same after a save and load."""

from __future__ import annotations

import dataclasses
import random
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from esper_motion.components import (
    Caution,
    Charge,
    Climb,
    Flee,
    GoTo,
    Hold,
    Hunt,
    KeepStation,
    Land,
    Patrol,
    Position,
    Pursue,
    Swoop,
)
from esper_motion.components.spelljammer import (
    Mobility,
    RoundIntent,
    RoundState,
    SpeedMode,
    Vegetation,
    VegetationZone,
)
from esper_motion.ecs import LinkError, RollMade, World, WorldError, hexgrid
from esper_motion.ecs.hexgrid import distance
from esper_motion.systems.spelljammer import GoalLost, GoalUnreachable, Options, install, plan, quarry
from esper_motion.systems.spelljammer._shared import VegetationMap
from esper_motion.systems.spelljammer.rules import allowed_modes

FAST_SPRINT_ROLL = "keeping its feet chasing at a fast sprint"


def new_world(seed: int = 1, hex_ft: int = 5) -> World:
    world = World(seed=seed)
    install(world, Options(hex_ft=hex_ft))
    return world


def character(world: World, at: tuple[int, int], *goal: object, tmr: int = 12, dex: int = 14, **intent: object) -> int:
    return world.spawn(Mobility(tmr=tmr, dex=dex), RoundIntent(**intent), RoundState(), Position(*at), *goal)


# --- never an intent the rules refuse -----------------------------------------------------------------------------

RUNS = settings(max_examples=8, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])


def random_world(seed: int) -> tuple[World, list[int]]:
    """Two to four characters on a small map with a few thickets, some with goals (and cautions), the others
    fleeing or chasing as their intents say; return the world and the characters with goals."""
    rng = random.Random(seed)
    world = new_world(seed, hex_ft=rng.choice([3, 5, 10]))
    for _ in range(rng.randrange(4)):
        at = (rng.randrange(-8, 9), rng.randrange(-8, 9))
        world.spawn(Position(*at), VegetationZone(rng.choice(list(Vegetation)), radius_hex=rng.randrange(4)))
    cast = [
        world.spawn(
            Mobility(tmr=rng.randrange(4, 16), dex=rng.randrange(6, 19), skills={"Acrobatics": rng.randrange(8, 22)}),
            RoundIntent(),
            RoundState(),
            Position(rng.randrange(-6, 7), rng.randrange(-6, 7)),
        )
        for _ in range(rng.randrange(2, 5))
    ]
    planned = []
    for number, entity in enumerate(cast):
        other = rng.choice([e for e in cast if e != entity])
        if number == 0 or rng.random() < 0.6:
            hex = (rng.randrange(-10, 11), rng.randrange(-10, 11))
            goal = rng.choice(
                [
                    Pursue(other, range_yd=rng.randrange(4)),
                    Flee(other, range_yd=rng.randrange(1, 20)),
                    GoTo(hex, stop=rng.random() < 0.5),
                    KeepStation(other, range_yd=rng.randrange(1, 4)),
                    Patrol((hex, (0, 0))),
                    Hold(),
                    Hunt(range_yd=rng.randrange(3)),
                ]
            )
            world.add(entity, goal)
            world.add(entity, Caution(rng.choice([0.0, 0.1, 0.3, 0.8, 1.0])))
            planned.append(entity)
        elif rng.random() < 0.5:
            world.get(entity, RoundIntent).chase = other
        else:
            world.get(entity, RoundIntent).heading = rng.randrange(6)
            world.get(entity, RoundIntent).flee_from = (other,)
    return world, planned


@RUNS
@given(st.integers(min_value=0, max_value=10_000))
def test_the_planner_never_writes_an_intent_the_rules_refuse(seed: int) -> None:
    world, planned = random_world(seed)
    rng = random.Random(seed)
    try:
        for _ in range(12):
            for entity in planned:  # a game may ask a goal mover for a pursuit action; the planner weighs it
                if rng.random() < 0.3:
                    intent = world.get(entity, RoundIntent)
                    intent.pursuit_dice, intent.pursuit_skill = "1d3", rng.choice([None, "Acrobatics"])
            before = {entity: world.get(entity, Position).hex for entity in planned}
            events = world.step()  # the step's own checks refuse nothing the planner wrote
            for entity in planned:
                intent = world.get(entity, RoundIntent)
                dataclasses.replace(intent)  # every field passes the component's own checks
                caution = world.get(entity, Caution).failure_chance
                for roll in (e for e in events if isinstance(e, RollMade) and e.entity == entity):
                    if roll.purpose.startswith(FAST_SPRINT_ROLL):
                        dex = world.get(entity, Mobility).dex
                        assert Fraction(100 - min(100, 2 * dex), 100) <= caution
                mode = world.get(entity, RoundState).mode
                zones = [(p, z) for _, (p, z) in world.scan(Position, VegetationZone)]
                assert mode in allowed_modes(VegetationMap(zones).at(before[entity]))
    finally:
        world.close()


# --- quality --------------------------------------------------------------------------------------------------


def test_a_pursuer_chases_at_the_slowest_mode_that_reaches_its_runner_and_takes_no_roll_without_caution() -> None:
    world = new_world()
    thief = character(world, (10, 0))
    guard = character(world, (0, 0), tmr=12, dex=14)
    world.add(guard, Pursue(thief))
    shown = plan(world, guard, rounds=1)
    [first] = shown.rounds
    assert (first.mode, first.chase, first.rolls) == (SpeedMode.WALK, thief, ())  # 12 squares: 12 hexes, 9 needed
    world.step()
    assert distance(world.get(guard, Position).hex, world.get(thief, Position).hex) == 1
    world.close()


def test_a_pursuer_fast_sprints_only_when_its_caution_accepts_the_2x_dex_roll() -> None:
    for caution, expected in ((0.05, SpeedMode.SPRINT), (0.1, SpeedMode.FAST_SPRINT)):
        world = new_world()
        thief = character(world, (60, 0), heading=0, mode="walk")
        guard = character(world, (0, 0), Pursue(thief), Caution(caution), tmr=12, dex=45)  # fails above 90
        [first] = plan(world, guard, rounds=1).rounds
        assert first.mode is expected
        if expected is SpeedMode.FAST_SPRINT:
            assert [(r.fails_above, r.failure_chance) for r in first.rolls] == [(90, Fraction(1, 10))]
        world.close()


def test_a_runner_flees_straight_away_and_slows_once_out_of_range() -> None:
    world = new_world()
    guard = character(world, (0, 0), tmr=6, mode="walk")
    thief = character(world, (2, 0), Flee(guard, range_yd=10))
    world.get(guard, RoundIntent).chase = thief
    shown = plan(world, thief, rounds=3)
    assert [r.heading for r in shown.rounds] == [0, 0, 0]
    assert shown.rounds[0].mode in (SpeedMode.RUN, SpeedMode.SPRINT)
    assert shown.reaches and shown.nearer
    world.step()
    assert world.get(thief, Position).hex == shown.rounds[0].end
    world.close()


def test_a_runner_out_of_range_of_a_source_that_does_not_chase_it_stays_off_at_the_least_cost() -> None:
    # Before, a runner already out of range ran on at a Run along its way every round, for nothing.
    world = new_world()
    guard = character(world, (0, 0))
    thief = character(world, (20, 0), Flee(guard, range_yd=10))
    for _ in range(3):
        world.step()
        assert world.get(thief, Position).hex == (20, 0)  # the guard stays off: so does she, at full DEF
    # The guard walks at her (12 hexes a round): she keeps away, never nearer it, at the slowest mode that does.
    world.get(guard, RoundIntent).heading, world.get(guard, RoundIntent).mode = 0, SpeedMode.WALK
    modes = []
    for _ in range(4):
        before = distance(world.get(thief, Position).hex, world.get(guard, Position).hex)
        world.step()
        after = distance(world.get(thief, Position).hex, world.get(guard, Position).hex)
        assert after >= 10 and (before < 10 or after >= min(before, 12)), (before, after)
        modes.append(world.get(thief, RoundState).mode)
    assert modes == [SpeedMode.DODGE, SpeedMode.WALK, SpeedMode.WALK, SpeedMode.WALK]
    world.close()


@pytest.mark.parametrize("start", [(20, 0), (-20, 0), (0, 20), (12, -12), (5, 0)])
def test_a_runner_never_closes_on_a_source_that_does_not_chase_it(start: tuple[int, int]) -> None:
    world = new_world()
    guard = character(world, (0, 0), heading=0, mode="walk")
    thief = character(world, start, Flee(guard, range_yd=10))
    for _ in range(4):
        at, source = world.get(thief, Position).hex, world.get(guard, Position).hex
        world.step()
        moved = world.get(thief, Position).hex
        assert all(distance(hex, source) > distance(at, source) for hex in hexgrid.line(at, moved)[1:])
        assert world.get(thief, RoundState).mode in (None, SpeedMode.DODGE, SpeedMode.WALK, SpeedMode.RUN)
    world.close()


def forked_flight(thickets: dict[int, Vegetation], *, guard_tmr: int = 15) -> tuple[World, int]:
    """A thief at the fork of three ways away from a guard 10 hexes west who fast sprints after her: along heading 0
    open ground, along headings 1 and 5 the thickets given (discs of radius 4 whose near edge is beside her). 30 ft
    hexes: she makes 8 hexes a round at a fast sprint, the guard 10 at TMR 15."""
    world = new_world(hex_ft=30)
    for heading, vegetation in thickets.items():
        dq, dr = hexgrid.DIRECTIONS[heading]
        world.spawn(Position(5 * dq, 5 * dr), VegetationZone(vegetation, radius_hex=4))
    guard = character(world, (-10, 0), tmr=guard_tmr, mode="fast_sprint")
    thief = character(world, (0, 0), Flee(guard, range_yd=30))
    world.get(guard, RoundIntent).chase = thief
    return world, thief


@pytest.mark.parametrize(
    ("thickets", "heading"),
    [
        ({1: Vegetation.VERY_DENSE}, 1),
        ({1: Vegetation.VERY_DENSE, 5: Vegetation.HEAVY}, 1),
        ({1: Vegetation.HEAVY, 5: Vegetation.VERY_DENSE}, 5),
        ({1: Vegetation.DENSE, 5: Vegetation.HEAVY}, 1),
    ],
)
def test_a_runner_flees_into_the_thicket_that_slows_a_faster_pursuer_most(
    thickets: dict[int, Vegetation], heading: int
) -> None:
    # Beside the guard in the thicket the thief loses 1/8 hex a round in very dense vegetation (both walk), 3/4 in
    # heavy, 2 hexes on open ground: she takes the thicket that slows him most, over the open way and over a
    # lighter one. (The planner used to run for the open way: two rounds ahead it gains most there.)
    world, thief = forked_flight(thickets)
    first = plan(world, thief, rounds=1).rounds[0]
    assert (first.heading, first.mode) == (heading, SpeedMode.FAST_SPRINT)
    world.step()
    assert world.get(thief, Position).hex == first.end
    assert VegetationMap(zone for _, zone in world.scan(Position, VegetationZone)).at(first.end) is thickets[heading]
    world.close()


def test_a_runner_keeps_to_open_ground_from_a_slower_pursuer_and_from_a_thicket_that_slows_too_little() -> None:
    for thickets, guard_tmr in (({1: Vegetation.VERY_DENSE, 5: Vegetation.HEAVY}, 9), ({1: Vegetation.HEAVY}, 15)):
        world, thief = forked_flight(thickets, guard_tmr=guard_tmr)
        assert plan(world, thief, rounds=1).rounds[0].heading == 0
        world.close()


def test_a_pursuit_action_beyond_the_caution_is_not_attempted() -> None:
    for caution, kept in ((0.3, False), (0.5, True)):
        world = new_world()
        guard = character(world, (0, 0), tmr=9)
        thief = character(world, (3, 0), Flee(guard), Caution(caution), dex=15)  # fails above 60: 40%
        world.get(thief, RoundIntent).pursuit_dice = "1d2"
        events = world.step()
        assert any(type(e).__name__ == "PursuitActionResolved" for e in events) is kept
        world.close()


def test_a_goal_whose_entity_is_gone_holds_and_says_why() -> None:
    world = new_world()
    thief = character(world, (5, 0))
    guard = character(world, (0, 0), Pursue(thief))
    world.step()
    world.despawn(thief)
    events = world.step()
    assert [e.describe() for e in events if isinstance(e, GoalLost)] == [
        f"entity {guard} holds: the Pursue goal's entity {thief} is gone"
    ]
    assert world.get(guard, Pursue).target is None
    intent = world.get(guard, RoundIntent)
    assert (intent.chase, intent.heading) == (None, None)
    world.close()


def test_a_goal_that_cannot_be_neared_says_so_and_the_plan_of_an_entity_without_one_is_refused() -> None:
    world = new_world()
    runner = character(world, (3, 0), tmr=15, mode="fast_sprint", heading=0)
    slow = character(world, (0, 0), Pursue(runner), tmr=3)
    events = world.step()
    assert [e.entity for e in events if isinstance(e, GoalUnreachable)] == [slow]
    with pytest.raises(WorldError, match=f"entity {runner} has no goal"):
        plan(world, runner)
    world.close()


def test_a_hunter_chases_the_nearest_character_fleeing_from_it_choosing_the_speed_mode_each_round() -> None:
    world = new_world()
    hunter = character(world, (0, 0), Hunt(), tmr=12)
    far = character(world, (14, 0), heading=0, mode="walk")
    near = character(world, (0, 9), heading=1, mode="walk")
    world.add(far, Flee(hunter, range_yd=20))
    world.get(near, RoundIntent).flee_from = (hunter,)
    stranger = character(world, (2, 0), heading=0, mode="walk")  # flees from nobody: no quarry
    assert quarry(world, hunter) == near
    [first] = plan(world, hunter, rounds=1).rounds
    # 9 hexes off, walking away at 12 a round: a Run (24) is the slowest chase mode that comes beside her.
    assert (first.chase, first.mode, first.rolls) == (near, SpeedMode.RUN, ())
    world.step()
    assert distance(world.get(hunter, Position).hex, world.get(near, Position).hex) == 1
    world.get(near, RoundIntent).flee_from = ()  # she gives up: the other is its quarry now
    assert quarry(world, hunter) == far
    assert plan(world, hunter, rounds=1).rounds[0].chase == far
    world.step()
    assert world.get(hunter, RoundIntent).chase == far
    assert stranger not in (quarry(world, hunter), world.get(hunter, RoundIntent).chase)
    world.close()


def test_a_hunter_with_no_quarry_holds_and_says_why_and_holds_one_goal_at_a_time() -> None:
    world = new_world()
    hunter = character(world, (0, 0), Hunt(range_yd=2), heading=0, mode="run")
    character(world, (4, 0), heading=0, mode="walk")
    events = world.step()
    assert [(e.entity, e.goal) for e in events if isinstance(e, GoalUnreachable)] == [(hunter, "Hunt")]
    assert world.get(hunter, Position).hex == (0, 0)
    with pytest.raises(WorldError, match="cannot follow its Hunt goal now: no character flees from it"):
        plan(world, hunter)
    with pytest.raises(WorldError, match="one goal at a time"):
        world.add(hunter, Hold())
    world.close()


@pytest.mark.parametrize("goal", [Charge(None), Swoop(None), Climb(5), Land()], ids=lambda goal: type(goal).__name__)
def test_a_gurps_only_goal_on_a_character_is_refused_when_set_naming_entity_goal_and_what_the_planner_plays(
    goal: object,
) -> None:
    world = new_world()
    guard = character(world, (0, 0))
    before = world.entities()
    name = type(goal).__name__
    refusal = (
        rf"entity {{}}: {name}.goal = '{name}': a goal the Spelljammer planner plays, entity {{}} being a Spelljammer "
        r"character \(it holds Mobility and RoundIntent and RoundState\): one of GoTo, Pursue, Flee, KeepStation, "
        r"Patrol, Hold, Hunt$"
    )
    with pytest.raises(LinkError, match=refusal.format(guard + 1, guard + 1)):
        character(world, (3, 0), goal)
    assert world.entities() == before
    with pytest.raises(LinkError, match=refusal.format(guard, guard)):
        world.add(guard, goal)
    assert not world.has(guard, type(goal))
    world.close()


def test_a_patrol_moves_on_to_its_next_waypoint_once_it_passes_one() -> None:
    world = new_world()
    walker = character(world, (0, 0), Patrol(((6, 0), (0, 0))))
    world.step()
    assert world.get(walker, Patrol).next_index == 1
    world.close()


# --- the same after a save and load -------------------------------------------------------------------------


def test_a_world_with_goals_plays_the_same_after_a_save_and_load(tmp_path: Path) -> None:
    def played(save_after: int | None) -> list[str]:
        world, _ = random_world(7)
        lines: list[str] = []
        for turn in range(8):
            if turn == save_after:
                world.save(tmp_path / "chase.json")
                world.close()
                world = World.load(tmp_path / "chase.json")
            lines += [e.describe() for e in world.step()]
        world.close()
        return lines

    assert played(None) == played(3)

"""The GURPS planner: it writes the intents of movers with a goal and no other, follows the goal, shows its plan
before it happens without changing the world, holds when its goal's entity is gone, and plays the same from the same
seed, before and after a save and load."""

from __future__ import annotations

from pathlib import Path

from support import gurps_world, of_type
from support.highspeed import mover
from support.worlds import fingerprint

from esper_motion.components import (
    Caution,
    Control,
    Flee,
    GoTo,
    Hold,
    Intent,
    KeepStation,
    KeptPlan,
    MoveState,
    Obstacle,
    Patrol,
    Position,
    Pursue,
    Velocity,
)
from esper_motion.ecs import World
from esper_motion.ecs.hexgrid import distance
from esper_motion.systems.gurps import plan, preview
from esper_motion.systems.gurps.events import GoalLost, GoalUnreachable


def at(world: World, entity: int) -> tuple[int, int]:
    return world.get(entity, Position).hex


def test_a_mover_goes_to_a_hex_and_stops_there() -> None:
    world = gurps_world()
    runner = mover(world, extra=(GoTo((12, 0)),))
    for _ in range(6):
        world.step()
    assert at(world, runner) == (12, 0)
    assert world.get(runner, Velocity).yps == 0
    assert world.get(runner, Control).state is MoveState.NORMAL


def test_the_intent_of_a_mover_without_a_goal_stays_as_the_game_wrote_it() -> None:
    world = gurps_world()
    mover(world, extra=(GoTo((12, 0)),))
    steered = mover(world, at=(0, 4), intent=Intent(throttle=3))
    world.step()
    assert world.get(steered, Velocity).yps == 3


def test_the_plan_is_shown_before_it_happens_and_changes_nothing() -> None:
    world = gurps_world()
    runner = mover(world, extra=(GoTo((12, 0)),))
    before = fingerprint(world)
    shown = plan(world, runner, turns=4)
    assert fingerprint(world) == before
    # 5 yd at Move 5 from a standing start, 6 yd once at high speed (its entry limit), then the last 1 yd
    assert shown.reaches and [len(turn.path) for turn in shown.turns] == [5, 6, 1]
    assert all(turn.rolls == () and turn.failure_chance == 0 for turn in shown.turns)
    world.step()
    assert at(world, runner) == (shown.turns[0].path[-1] if shown.turns[0].path else (0, 0))


def test_the_first_planned_intent_is_the_one_the_step_acts_on() -> None:
    world = gurps_world()
    runner = mover(world, velocity=5, extra=(GoTo((20, 3)),))
    first = plan(world, runner).turns[0]
    world.get(runner, Intent).throttle = first.intent.throttle
    world.get(runner, Intent).turn = first.intent.turn
    assert preview(world, runner).path == first.path
    world.step()
    assert world.get(runner, Control).path == list(first.path)


def test_a_pursuer_closes_on_a_runner() -> None:
    world = gurps_world()
    quarry = mover(world, at=(10, 0), velocity=2, intent=Intent())
    chaser = mover(world, at=(0, 2), extra=(Pursue(quarry, range_yd=1),))
    for _ in range(8):
        world.step()
    assert distance(at(world, chaser), at(world, quarry)) <= 2


def test_a_fleer_gets_away_and_a_station_keeper_stays_beside() -> None:
    world = gurps_world()
    threat = mover(world, at=(0, 0))
    fleer = mover(world, at=(2, 0), extra=(Flee(threat, range_yd=12),))
    keeper = mover(world, at=(-6, 0), extra=(KeepStation(threat, range_yd=1),))
    for _ in range(6):
        world.step()
    assert distance(at(world, fleer), at(world, threat)) >= 12
    assert distance(at(world, keeper), at(world, threat)) <= 1


def test_a_patrol_passes_each_waypoint_in_turn() -> None:
    world = gurps_world()
    guard = mover(world, extra=(Patrol(((6, 0), (6, 4))),))
    seen = []
    for _ in range(12):
        world.step()
        seen.append(world.get(guard, Patrol).next_index)
    assert 1 in seen and 0 in seen[seen.index(1) :]


def test_a_goal_whose_entity_is_gone_makes_the_mover_hold(tmp_path: Path) -> None:
    world = gurps_world()
    quarry = mover(world, at=(20, 0))
    chaser = mover(world, extra=(Pursue(quarry),))
    for _ in range(3):
        world.step()
    world.despawn(quarry)
    events = world.step()
    assert of_type(events, GoalLost) == [GoalLost(chaser, "Pursue", quarry)]
    assert world.get(chaser, Pursue).target is None
    for _ in range(4):
        world.step()
    assert world.get(chaser, Velocity).yps == 0
    world.save(tmp_path / "held.json")  # no dangling link left


def test_a_goal_it_cannot_get_nearer_says_so() -> None:
    world = gurps_world()
    walled = mover(world, extra=(GoTo((1, 0)),))
    world.spawn(Position(1, 0), Obstacle())
    events = world.step()
    assert [event.entity for event in of_type(events, GoalUnreachable)] == [walled]


def test_a_mover_with_no_caution_makes_no_roll_and_a_bold_one_may() -> None:
    for caution, rolls in ((0.0, False), (0.6, True)):
        world = gurps_world()
        runner = mover(world, velocity=12, state=MoveState.HIGH_SPEED, straight_yd=0, extra=(Caution(caution),))
        world.add(runner, GoTo((0, -8), stop=False))  # on its path this turn only after a tight turn at once
        shown = plan(world, runner, turns=2)
        assert any(turn.rolls for turn in shown.turns) == rolls
        assert all(turn.failure_chance <= caution for turn in shown.turns)


def cast(world: World) -> list[int]:
    quarry = mover(world, at=(12, 3), velocity=3, intent=Intent())
    return [
        quarry,
        mover(world, extra=(Pursue(quarry),)),
        mover(world, at=(0, 6), extra=(GoTo((9, 9)), Caution(0.3))),
        mover(world, at=(3, 3), extra=(Flee(quarry, range_yd=15),)),
        mover(world, at=(-4, 0), extra=(Patrol(((0, -4), (-4, -4))),)),
        mover(world, at=(5, -5), velocity=4, extra=(Hold(),)),
    ]


def run(world: World, turns: int) -> list[str]:
    return [repr(event) for _ in range(turns) for event in world.step()]


def test_the_same_seed_plays_the_same() -> None:
    first, second = gurps_world(seed=3), gurps_world(seed=3)
    cast(first)
    cast(second)
    assert run(first, 8) == run(second, 8)


def test_a_saved_world_plans_the_same_after_a_load(tmp_path: Path) -> None:
    world = gurps_world(seed=5)
    movers = cast(world)
    run(world, 3)
    assert any(world.get(entity, KeptPlan).throttles for entity in movers[1:])  # saved mid-plan
    world.save(tmp_path / "mid.json")
    loaded = World.load(tmp_path / "mid.json")
    assert run(loaded, 6) == run(world, 6)


def test_a_mover_follows_the_plan_it_found_while_the_world_stays_as_it_assumed() -> None:
    world = gurps_world()
    runner = mover(world, extra=(GoTo((40, 0)),))
    shown = plan(world, runner)
    world.step()
    kept = plan(world, runner)
    assert kept.evaluated == len(kept.turns) < shown.evaluated  # the kept turns, simulated again: no search
    assert [turn.intent for turn in kept.turns] == [turn.intent for turn in shown.turns[1 : 1 + len(kept.turns)]]
    world.step()
    assert world.get(runner, Control).path == list(shown.turns[1].path)


def test_a_mover_put_off_its_plan_searches_again() -> None:
    world = gurps_world()
    runner = mover(world, extra=(GoTo((40, 0)),))
    world.step()
    assert world.get(runner, KeptPlan).throttles
    world.get(runner, Position).r = 3  # the game moved it: not where the plan put it
    again = plan(world, runner)
    assert again.evaluated > len(again.turns)
    world.step()
    assert world.get(runner, KeptPlan).hexes[0] == at(world, runner)


def test_the_plan_ends_no_turn_where_another_mover_will_be() -> None:
    world = gurps_world()
    runner = mover(world, extra=(GoTo((12, 0)),))
    assert plan(world, runner).turns[0].path[-1] == (5, 0)  # the full Move straight on, on open ground
    crosser = mover(world, at=(5, -3), facing=1, velocity=3, intent=Intent())  # in (5, 0) after this turn
    shown = plan(world, runner)
    first = shown.turns[0].after.hex
    assert shown.reaches and first != (5, 0)
    world.step()
    assert at(world, crosser) == (5, 0) and at(world, runner) == first

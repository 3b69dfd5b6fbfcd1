"""What the planner saves without changing its plans (the walks of one state's candidates, the ordinary turns found
without a forecast, the yards fields round walls), and where it searches less: a pursuer far behind keeps its plan
when the quarry changes speed, and no more searches a turn than the planning budget, the movers that waited the
longest first, the others taking a turn chosen without one."""

from __future__ import annotations

import random
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support import gurps_world
from support.highspeed import mover
from support.worlds import every_candidate, mixed_world, plan_turn, step_refusing

from esper_motion.components import (
    Footing,
    GoTo,
    Intent,
    KeptPlan,
    MoveState,
    Obstacle,
    Position,
    Pursue,
    Velocity,
)
from esper_motion.ecs import World
from esper_motion.ecs.hexgrid import DIRECTIONS, Hex, distance, neighbour
from esper_motion.systems.gurps import Rules, plan
from esper_motion.systems.gurps.planner import search as planner_search
from esper_motion.systems.gurps.planner import system as planner_system
from esper_motion.systems.gurps.planner.search import (
    FIELD_HEXES,
    WALKED_FIELDS,
    Aim,
    Fields,
    Outcome,
    State,
    Walks,
    YardsField,
    advance,
    candidates,
    first_candidate,
    state_of,
    yards_field,
)
from esper_motion.systems.gurps.shared.movers import Body, Limits, bodies, body_of, installed_rules, limits
from esper_motion.systems.gurps.shared.spatial import SpatialIndex


def test_the_walked_fields_are_every_field_of_an_intent_but_its_throttle() -> None:
    assert set(WALKED_FIELDS) == {field.name for field in fields(Intent)} - {"throttle"}


def planned(world: World, runner: int) -> tuple[Rules, SpatialIndex, Body, Limits, State]:
    """What the planner works from for ``runner``: the world's rules, an index of it, the runner's body, its limits
    and its state."""
    chosen = installed_rules(world)
    index = SpatialIndex()
    index.rebuild(world)
    root = body_of(world, runner)
    return chosen, index, root, limits(world, root, chosen), state_of(root)


@pytest.mark.parametrize(
    "start",
    [
        dict(velocity=0),
        dict(velocity=4),
        dict(velocity=9, state=MoveState.HIGH_SPEED, straight_yd=9),
    ],
    ids=["at rest", "ordinary movement", "high speed"],
)
def test_the_candidates_of_a_state_sharing_their_walks_have_the_outcomes_they_have_alone(
    start: dict[str, object],
) -> None:
    world = gurps_world()
    runner = mover(world, **start)  # type: ignore[arg-type]
    world.spawn(Position(4, 0), Obstacle())  # in the way straight on
    mover(world, at=(2, -2))  # a body beside the way
    chosen, index, root, lim, state = planned(world, runner)
    walks: Walks = {}
    tried = candidates(root, lim, True, 20, (20, 0))
    shared = [advance(world, chosen, index, root._replace(intent=i), state, lim=lim, walks=walks) for i in tried]
    alone = [advance(world, chosen, index, root._replace(intent=i), state, lim=lim) for i in tried]
    assert shared == alone
    assert len(walks) < len([outcome for outcome in alone if outcome is not None])  # some walks were shared


@pytest.mark.parametrize("rules", [Rules.basic(), Rules.house()], ids=["basic", "house"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_an_ordinary_turn_found_without_a_forecast_is_the_forecasts(
    rules: Rules, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # advance takes ordinary_straight for a one-hex walker in ordinary movement whose way on is empty, or empty up
    # to a hex holding only bodies: every candidate of every body of mixed worlds over ten turns (walkers, riders,
    # horses, fliers, walls, mud) has the same outcome with the full forecast.
    straight = planner_search.ordinary_straight
    taken: Counter[str] = Counter()

    def counted(world: World, index: SpatialIndex, body: Body, state: State, lim: Limits) -> Outcome | None:
        found = straight(world, index, body, state, lim)
        taken["forecast" if found is None else "clear way" if found.struck is None else "runs into a body"] += 1
        return found

    for turn, world, index, chosen, body, lim, intent in every_candidate(seed, rules, (0, 0)):
        state = state_of(body)
        tried = body._replace(intent=intent)
        monkeypatch.setattr(planner_search, "ordinary_straight", counted)
        short = advance(world, chosen, index, tried, state, lim=lim)
        monkeypatch.setattr(planner_search, "ordinary_straight", lambda *_: None)
        full = advance(world, chosen, index, tried, state, lim=lim)
        assert short == full, (turn, body.entity, intent)
    assert taken["clear way"] > 0
    assert taken["runs into a body"] > 0
    assert taken["forecast"] > 0  # bodies and ways the short cut leaves to the forecast


@pytest.mark.parametrize(
    "ahead",
    [
        lambda: (Obstacle(crossable=True, height_yd=0.5),),
        lambda: (Obstacle(),),
        lambda: (Footing(extra_cost=1),),
        tuple,
    ],
    ids=["a log", "a wall", "mud", "nothing"],
)
@pytest.mark.parametrize("yards", [3, 5], ids=["within its Move", "at its Move"])
def test_a_body_on_a_hex_that_holds_something_else_is_met_as_the_forecast_meets_it(
    ahead: Callable[[], tuple[Any, ...]], yards: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The mixed worlds seldom put a body on a hex with anything else: here a runner (Move 5) walks at another
    # standing on a log, a wall, mud or bare ground, 3 or 5 yards ahead (mud on the fifth costs more than the
    # yards left), and every candidate has the outcome of the full forecast.
    world = gurps_world()
    runner = mover(world)
    mover(world, at=(yards, 0))
    there = ahead()
    if there:
        world.spawn(Position(yards, 0), *there)
    chosen, index, root, lim, state = planned(world, runner)
    found = []
    for intent in candidates(root, lim, True, lim.move, (9, 0)):
        tried = root._replace(intent=intent)
        short = advance(world, chosen, index, tried, state, lim=lim)
        with monkeypatch.context() as patched:
            patched.setattr(planner_search, "ordinary_straight", lambda *_: None)
            full = advance(world, chosen, index, tried, state, lim=lim)
        assert short == full, intent
        found.append(full)
    assert any(outcome is not None and outcome.state.hex == (yards - 1, 0) for outcome in found)  # stopped by it


def walked_out(walls: set[Hex], place: Hex, reach: int) -> dict[Hex, int]:
    """The yards to ``place`` round ``walls`` as a plain breadth-first walk finds them, one hex at a time, at most
    ``FIELD_HEXES`` hexes, none further than ``reach`` from ``place``: what a yards field must give."""
    found = {place: 0}
    queue = deque([place])
    while queue and len(found) < FIELD_HEXES:
        hex = queue.popleft()
        for way in range(6):
            ahead = neighbour(hex, way)
            if ahead not in found and ahead not in walls and distance(ahead, place) <= reach:
                found[ahead] = found[hex] + 1
                queue.append(ahead)
    return found


def wall_world(walls: list[Hex]) -> tuple[SpatialIndex, int, World]:
    world = gurps_world()
    for q, r in walls:
        world.spawn(Position(q, r), Obstacle())
    runner = mover(world, at=(-200, 0))
    index = SpatialIndex()
    index.rebuild(world)
    return index, runner, world


def test_a_yards_field_kept_serves_a_mover_nearing_its_place_as_a_new_one_would() -> None:
    walls = [(10, r) for r in range(-3, 4)]  # a wall before the place
    index, runner, world = wall_world(walls)
    body = body_of(world, runner)
    kept = Fields()
    hexes = [(q, r) for q in range(-45, 20) for r in range(-12, 13)]
    for start in ((-40, 0), (-30, 0), (-20, 0), (-10, 0), (9, 0)):
        field = yards_field(index, (12, 0), start, body, kept)
        new = yards_field(index, (12, 0), start, body)
        expected = walked_out(set(walls), (12, 0), new.reach)
        assert [field.yards(hex) for hex in hexes] == [expected.get(hex, distance(hex, (12, 0))) for hex in hexes]
    # reaches 64, 64, 48, 48 and 16: the first walk, no reach cut short, serves 48 too
    assert sum(len(found) for found in kept.by_place.values()) == 2


@settings(max_examples=60, deadline=None)
@given(
    walls=st.lists(st.tuples(st.integers(-14, 14), st.integers(-14, 14)), max_size=40),
    rows=st.lists(
        st.tuples(st.integers(-10, 10), st.integers(-10, 10), st.integers(0, 5), st.integers(1, 14)), max_size=3
    ),
    start=st.tuples(st.integers(-60, 60), st.integers(-20, 20)),
    asked=st.lists(st.tuples(st.integers(-70, 70), st.integers(-70, 70)), min_size=1, max_size=60),
)
def test_a_yards_field_asked_hex_by_hex_gives_the_yards_of_the_whole_walk(
    walls: list[Hex], rows: list[tuple[int, int, int, int]], start: Hex, asked: list[Hex]
) -> None:
    """Asked in any order, a hex with a shortest way to the place that crosses no wall gets its plain distance with
    no walk made, and the others the walk's yards: always what the whole walk finds (its plain distance where it did
    not go). Walls scattered, and in rows (fences) that hide hexes behind them."""
    place = (0, 0)
    for q, r, way, length in rows:
        dq, dr = DIRECTIONS[way]
        walls = [*walls, *((q + dq * step, r + dr * step) for step in range(length))]
    index, runner, world = wall_world(walls)
    field = yards_field(index, place, start, body_of(world, runner))
    expected = walked_out(set(walls) - {place}, place, field.reach)
    asked = [*asked, *((q, 0) for q in range(-20, 21))]  # hexes behind walls, when there are some
    assert [field.yards(hex) for hex in asked] == [expected.get(hex, distance(hex, place)) for hex in asked]


def test_a_yards_field_with_no_wall_on_the_way_walks_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    index, runner, world = wall_world([(5, 5), (-8, 3)])  # walls off the line
    field = yards_field(index, (12, 0), (0, 0), body_of(world, runner))
    monkeypatch.setattr(YardsField, "walk", lambda self: pytest.fail("walked"))
    assert [field.yards((q, 0)) for q in range(-5, 13)] == list(range(17, -1, -1))


@pytest.mark.parametrize(
    ("quarry_at", "searches"), [((80, 0), False), ((12, 0), True)], ids=["far behind: kept", "near: searched"]
)
def test_a_pursuer_far_behind_keeps_its_plan_when_the_quarry_changes_speed_and_a_near_one_searches_again(
    quarry_at: tuple[int, int], searches: bool
) -> None:
    world = gurps_world()
    quarry = mover(world, at=quarry_at, velocity=3)
    pursuer = mover(world, extra=(Pursue(quarry),))
    world.step()
    assert world.get(pursuer, KeptPlan).throttles
    world.get(quarry, Velocity).yps = 5  # the game speeds it up: not where the plan put it next turn
    shown = plan(world, pursuer)
    assert (shown.evaluated > len(shown.turns)) is searches  # the kept turns only, simulated again: no search


def runners(world: World) -> list[int]:
    """Five runners far apart, each going to a hex 30 yards away, in initiative order."""
    for number in range(5):
        mover(world, at=(0, 20 * number), extra=(GoTo((30, 20 * number)),))
    return [body.entity for body in bodies(world)]


def counted_searches(monkeypatch: pytest.MonkeyPatch, budget: int) -> list[int]:
    """Set the planning budget; the searches made so far, one entry each (the mover's entity)."""
    monkeypatch.setattr(planner_system, "SEARCHES_PER_TURN", budget)
    real = planner_system.search
    made: list[int] = []

    def counted(world: World, chosen: Any, index: Any, root: Any, *args: Any, **kwargs: Any) -> Any:
        made.append(root.entity)
        return real(world, chosen, index, root, *args, **kwargs)

    monkeypatch.setattr(planner_system, "search", counted)
    return made


def test_no_more_searches_a_turn_than_the_budget_the_movers_that_waited_longest_first(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    world = gurps_world()
    movers = runners(world)
    made = counted_searches(monkeypatch, 2)
    gaps = [distance(world.get(entity, Position).hex, (30, 20 * n)) for n, entity in enumerate(movers)]
    world.step()
    assert made == movers[:2]  # in initiative order: none waited yet
    assert [world.get(entity, KeptPlan).waited for entity in movers] == [0, 0, 1, 1, 1]
    assert all(  # those left without a search took a turn toward their goal all the same
        distance(world.get(entity, Position).hex, (30, 20 * n)) < gaps[n] for n, entity in enumerate(movers)
    )
    world.step()  # the first two follow their plans: the budget goes to those that waited
    assert made == [*movers[:2], *movers[2:4]]
    assert [world.get(entity, KeptPlan).waited for entity in movers] == [0, 0, 0, 0, 2]
    world.step()
    assert made[4] == movers[4]  # the longest wait first


def test_a_world_saved_while_movers_wait_for_a_search_plays_the_same_after_a_load(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    world = gurps_world()
    movers = runners(world)
    counted_searches(monkeypatch, 1)
    world.step()
    assert [world.get(entity, KeptPlan).waited for entity in movers] == [0, 1, 1, 1, 1]
    world.save(tmp_path / "waiting.json")
    loaded = World.load(tmp_path / "waiting.json")
    for _ in range(6):
        assert [repr(event) for event in loaded.step()] == [repr(event) for event in world.step()]
        assert [loaded.get(entity, Position).hex for entity in movers] == [
            world.get(entity, Position).hex for entity in movers
        ]


def test_a_mover_left_without_a_search_takes_its_kept_plans_next_turn_while_the_rules_accept_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    world = gurps_world()
    runner = mover(world, extra=(GoTo((40, 0)),))
    world.step()
    kept = world.get(runner, KeptPlan)
    left, throttle = len(kept.throttles), kept.throttles[0]
    made = counted_searches(monkeypatch, 0)
    world.get(runner, GoTo).stop = False  # another goal: the plan no longer holds, and no search is left
    world.step()
    assert made == []
    assert world.get(runner, Intent).throttle == throttle
    assert (len(kept.throttles), kept.waited) == (left - 1, 1)


def test_a_yards_field_looks_far_down_a_wall_s_shadow_without_running_out_of_stack() -> None:
    """A hex 1,400 yards straight behind a wall hex: its one shortest way is followed hex by hex to the wall, and the
    walk, which does not go that far, leaves it its plain distance."""
    index, runner, world = wall_world([(-5, 0)])
    field = yards_field(index, (0, 0), (-1500, 0), body_of(world, runner))
    assert field.yards((-1400, 0)) == 1400
    assert field.walked and field.yards((-6, 0)) == 7  # round the wall: one yard more


@pytest.mark.parametrize("rules", [Rules.basic(), Rules.house()], ids=["basic", "house"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_first_candidate_found_surely_nearest_is_the_first_of_the_sorted_candidates(rules: Rules, seed: int) -> None:
    # one_turn tries the first candidate before making and sorting the others when _surely_nearest says it comes
    # first among them: every body of mixed worlds over ten turns, toward places near and far on every side, to be
    # met, to come within range of, and to flee.
    world, cast = mixed_world(seed, 6, rules)
    said = Counter[bool]()
    for turn in range(10):
        chosen = installed_rules(world)
        for body in bodies(world):
            lim = limits(world, body, chosen)
            q, r = body.position.hex
            for way, far in ((way, far) for way in range(6) for far in (2, 9, 40)):
                dq, dr = DIRECTIONS[way]
                place = (q + dq * far + dr, r + dr * far)
                for reach, away in ((0, False), (3, False), (12, True)):
                    aim = Aim(GoTo(place), (place,), reach, False, away, None)
                    for risky in (False, True):
                        first = first_candidate(body, lim, risky, far)
                        tried = candidates(body, lim, risky, far, place)
                        assert tried[0] is first
                        surely = planner_search._surely_nearest(aim, body, lim, first)
                        if surely:
                            assert planner_search._nearest_first(aim, body, lim, tried)[0] is first, (turn, body)
                        said[surely] += 1
        plan_turn(world, cast, random.Random(seed * 100 + turn))
        step_refusing(world)
    assert said[True] > 0
    assert said[False] > 0

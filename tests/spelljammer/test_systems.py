"""Spelljammer: Running, Shooting, Chasing and Fleeing as systems: one scenario per rule, dice scripted."""

from __future__ import annotations

import math
from typing import Any, TypeVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from esper_motion.components.motion import Position
from esper_motion.components.spelljammer import (
    Mobility,
    RangedWeapon,
    RoundIntent,
    RoundState,
    SpeedMode,
    Vegetation,
    VegetationZone,
)
from esper_motion.ecs import Event, IntentError, Roll, RollMade, RuleValueError, World, WorldError
from esper_motion.ecs.hexgrid import distance
from esper_motion.systems.spelljammer import Options, defense, install
from esper_motion.systems.spelljammer._shared import VegetationMap
from esper_motion.systems.spelljammer.events import (
    ChaseRound,
    FellDown,
    Fled,
    NonLethalDamage,
    PursuitActionResolved,
    ShotsOnTheMove,
    SpeedModeChosen,
    SquaresMoved,
)
from esper_motion.systems.spelljammer.rules import (
    CHASE_MODES,
    VEGETATION,
    DropResult,
    PursuitLevel,
    chase,
    movement_rate,
)

M = SpeedMode
V = Vegetation
E = TypeVar("E", bound=Event)

#: One hex per 5-foot square, so squares and hexes read the same in most scenarios here.
SQUARE_HEXES = Options(hex_ft=5)


def new_world(options: Options | None = SQUARE_HEXES, seed: int = 1) -> World:
    world = World(seed=seed)
    install(world, options)
    return world


def character(
    world: World,
    at: tuple[int, int] = (0, 0),
    *,
    tmr: int = 12,
    dex: int = 15,
    attacks: int = 1,
    encumbrance: int = 0,
    skills: dict[str, int] | None = None,
    master_reduction: int = 0,
    large: bool = False,
    centaur: bool = False,
    **intent: Any,
) -> int:
    mobility = Mobility(tmr, dex, attacks, encumbrance, skills or {}, master_reduction, large, centaur)
    return world.spawn(mobility, RoundIntent(**intent), RoundState(), Position(*at))


def zone(world: World, at: tuple[int, int], vegetation: Vegetation, radius_hex: int | None = 0, **kw: Any) -> int:
    return world.spawn(Position(*at), VegetationZone(vegetation, radius_hex, **kw))


def rolls(events: list[Event], purpose: str) -> list[Roll]:
    """The plain rolls among ``events`` whose purpose starts with ``purpose``."""
    found: list[Roll] = []
    for event in of(events, RollMade):
        if event.purpose.startswith(purpose):
            assert isinstance(event.result, Roll)
            found.append(event.result)
    return found


def of(events: list[Event], kind: type[E]) -> list[E]:
    return [event for event in events if isinstance(event, kind)]


def only(events: list[Event], kind: type[E]) -> E:
    found = of(events, kind)
    assert len(found) == 1, found
    return found[0]


# --- Installing --------------------------------------------------------------------------------------


def test_install_resolves_this_processor_order() -> None:
    world = World()
    install(world)
    assert [type(p).__name__ for p in world.systems] == [
        "GoalPlanner",
        "IntentCheck",
        "ChaseLinks",
        "ChooseSpeed",
        "Flee",
        "PursuitActions",
        "Move",
        "SprintFatigue",
        "ChaseTable",
        "MovingFire",
        "ClearRoundIntents",
    ]
    assert world.rules["spelljammer"] == Options()


def test_installing_twice_is_an_error_not_a_double_run() -> None:
    world = World()
    install(world)
    with pytest.raises(WorldError, match="rule set 'spelljammer' is already installed"):
        install(world, Options(hex_ft=5))
    assert len(world.systems) == 11
    assert world.rules["spelljammer"] == Options()


def test_install_refuses_options_of_another_kind() -> None:
    with pytest.raises(WorldError, match="options must be an Options"):
        install(World(), {"hex_ft": 5})  # type: ignore[arg-type]


def test_a_world_without_the_rule_set_says_so() -> None:
    world = World()
    install(world)
    world.rules.clear()
    character(world, heading=0)
    with pytest.raises(WorldError, match=r"not installed: call esper_motion\.systems\.spelljammer\.install\(world\)"):
        world.step()


# --- Movement and Defense ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("mode", "squares"),
    [(M.DODGE, 6), (M.WALK, 12), (M.RUN, 24), (M.SPRINT, 36), (M.FAST_SPRINT, 48), (M.STEALTHY, 6)],
    ids=["dodge 1/2 TMR", "walk TMR", "run 2x TMR", "sprint 3x TMR", "fast sprint 4x TMR", "stealthy 1/2 TMR"],
)
def test_movement_and_defense_moves_at_the_rate_of_the_mode(mode: SpeedMode, squares: int) -> None:
    world = new_world()
    entity = character(world, tmr=12, mode=mode, heading=0)
    moved = only(world.step(), SquaresMoved)
    assert (moved.squares, moved.hexes, moved.start, moved.end) == (squares, squares, (0, 0), (squares, 0))
    assert world.get(entity, Position).hex == (squares, 0)
    state = world.get(entity, RoundState)
    assert (state.mode, state.squares, state.moved_hex) == (mode, squares, squares)


@pytest.mark.parametrize(
    ("hex_ft", "hexes"),
    [(5, 9), (3, 15)],
    ids=["TMR 9 -> 45 feet: 9 hexes of 5 ft", "TMR 9 -> 45 feet: 15 hexes of a yard"],
)
def test_movement_example_tmr_9_covers_45_feet_a_round(hex_ft: int, hexes: int) -> None:
    world = new_world(Options(hex_ft=hex_ft))
    character(world, tmr=9, heading=0)
    moved = only(world.step(), SquaresMoved)
    assert moved.squares * 5 == 45
    assert moved.hexes == hexes


@pytest.mark.parametrize(
    ("encumbrance", "squares"),
    [(0, 12), (1, 9), (2, 6)],
    ids=["unencumbered full TMR", "encumbered -25%", "double encumbered -50%"],
)
def test_movement_and_defense_encumbrance(encumbrance: int, squares: int) -> None:
    world = new_world()
    character(world, tmr=12, encumbrance=encumbrance, heading=0)
    assert only(world.step(), SquaresMoved).squares == squares


def test_fractions_of_a_hex_carry_into_the_next_round() -> None:
    """TMR 9 at Dodge is 4.5 squares: 4 hexes, then 5 with the half carried."""
    world = new_world()
    entity = character(world, tmr=9, mode=M.DODGE, heading=0)
    assert only(world.step(), SquaresMoved).hexes == 4
    assert world.get(entity, RoundState).carry_hex == 0.5
    assert only(world.step(), SquaresMoved).hexes == 5
    assert world.get(entity, RoundState).carry_hex == 0.0
    assert world.get(entity, Position).hex == (9, 0)


def test_one_yard_hexes_carry_thirds_of_a_hex() -> None:
    """Default map: a square is 5/3 hexes, so TMR 1 at Walk goes 1, 2, 2 hexes (5 in 3 rounds)."""
    world = new_world(None)
    entity = character(world, tmr=1, heading=3)
    assert [only(world.step(), SquaresMoved).hexes for _ in range(3)] == [1, 2, 2]
    assert world.get(entity, Position).hex == (-5, 0)


def test_a_character_with_no_heading_stays_put_and_covers_no_squares() -> None:
    world = new_world()
    entity = character(world, mode=M.RUN)
    events = world.step()
    assert of(events, SquaresMoved) == []
    assert world.get(entity, Position).hex == (0, 0)
    assert world.get(entity, RoundState).squares == 0
    assert only(events, SpeedModeChosen).mode is M.RUN


def test_heading_picks_the_hexside_to_move_along() -> None:
    world = new_world()
    entity = character(world, tmr=3, heading=1)
    world.step()
    assert world.get(entity, Position).hex == (0, 3)


@pytest.mark.parametrize(
    ("mode", "full", "ranged_bonus", "shield"),
    [(M.DODGE, True, 20, True), (M.WALK, True, 0, True), (M.RUN, False, 0, False), (M.FAST_SPRINT, False, 0, False)],
    ids=["dodge: full +20 vs ranged", "walk: full", "run: no shield", "fast sprint: magic only"],
)
def test_movement_and_defense_is_a_query_on_the_last_round(
    mode: SpeedMode, full: bool, ranged_bonus: int, shield: bool
) -> None:
    world = new_world()
    entity = character(world, mode=mode)
    world.step()
    allowed = defense(world, entity)
    assert (allowed.mode, allowed.full, allowed.ranged_bonus, allowed.shield) == (mode, full, ranged_bonus, shield)


def test_defense_before_any_round_is_a_clear_error() -> None:
    world = new_world()
    entity = character(world)
    with pytest.raises(WorldError, match=f"entity {entity} has run no round yet"):
        defense(world, entity)


# --- Restricted Movement -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("vegetation", "squares"),
    [(V.HEAVY, 15), (V.DENSE, 10), (V.VERY_DENSE, 5), (V.EXTREMELY_DENSE, 2)],
    ids=["heavy 3/4", "dense 1/2", "very dense 1/4", "extremely dense 1/10"],
)
def test_restricted_movement_zone_slows_whoever_stands_in_it(vegetation: Vegetation, squares: int) -> None:
    world = new_world()
    zone(world, (0, 0), vegetation)
    entity = character(world, tmr=20, heading=0)
    events = world.step()
    assert only(events, SpeedModeChosen).vegetation is vegetation
    assert only(events, SquaresMoved).squares == squares
    assert world.get(entity, RoundState).vegetation is vegetation


@pytest.mark.parametrize(
    ("vegetation", "mode", "allowed"),
    [
        (V.HEAVY, M.SPRINT, "heavy vegetation allows only dodge, walk, run, stealthy"),
        (V.DENSE, M.FAST_SPRINT, "dense vegetation allows only dodge, walk, run, stealthy"),
        (V.VERY_DENSE, M.RUN, "very dense vegetation allows only dodge, walk, stealthy"),
        (V.EXTREMELY_DENSE, M.SPRINT, "extremely dense vegetation allows only dodge, walk, stealthy"),
    ],
    ids=["heavy: no sprint", "dense: no fast sprint", "very dense: no run", "extremely dense: no sprint"],
)
def test_restricted_movement_refuses_a_forbidden_mode_and_changes_nothing(
    vegetation: Vegetation, mode: SpeedMode, allowed: str
) -> None:
    world = new_world()
    zone(world, (0, 0), vegetation, radius_hex=3)
    entity = character(world, (2, 0), mode=mode, heading=0)
    dice_before = world.dice.getstate()
    with pytest.raises(IntentError) as caught:
        world.step()
    assert str(caught.value) == f"entity {entity}: RoundIntent.mode = {mode!r}: {allowed}"
    assert world.get(entity, Position).hex == (2, 0)
    assert world.get(entity, RoundState) == RoundState()
    assert (world.turn, world.events, world.dice.getstate()) == (0, [], dice_before)


def test_restricted_movement_the_usual_chase_run_becomes_walk_where_run_is_forbidden() -> None:
    world = new_world()
    zone(world, (0, 0), V.VERY_DENSE)
    foe = character(world, (-1, 0))
    runner = character(world, tmr=12, flee_from=(foe,), heading=0)
    chosen = {event.entity: event.mode for event in of(world.step(), SpeedModeChosen)}
    assert chosen == {foe: M.WALK, runner: M.WALK}
    assert world.get(runner, Position).hex == (3, 0)  # a quarter of TMR 12 at Walk


@pytest.mark.parametrize(
    ("at", "covered"),
    [((13, 0), True), ((10, 3), True), ((14, 0), False), ((10, -4), False)],
    ids=["3 hexes east", "3 hexes north-east", "4 hexes east", "4 hexes south-west"],
)
def test_a_zone_radius_covers_hexes_within_that_many_steps(at: tuple[int, int], covered: bool) -> None:
    world = new_world()
    zone(world, (10, 0), V.DENSE, radius_hex=3)
    character(world, at, heading=0)
    assert only(world.step(), SpeedModeChosen).vegetation is (V.DENSE if covered else None)


def test_a_zone_listing_hexes_counts_them_from_its_position_and_moves_with_it() -> None:
    world = new_world()
    thicket = zone(world, (5, 5), V.HEAVY, radius_hex=None, hexes=((1, 0), (2, 0)))
    inside = character(world, (7, 5))
    anchor = character(world, (5, 5))
    chosen = {event.entity: event.vegetation for event in of(world.step(), SpeedModeChosen)}
    assert chosen == {inside: V.HEAVY, anchor: None}
    world.get(thicket, Position).q = 6  # the zone moves: now (7, 5) and (8, 5)
    chosen = {event.entity: event.vegetation for event in of(world.step(), SpeedModeChosen)}
    assert chosen == {inside: V.HEAVY, anchor: None}
    world.get(thicket, Position).q = 3
    chosen = {event.entity: event.vegetation for event in of(world.step(), SpeedModeChosen)}
    assert chosen == {inside: None, anchor: V.HEAVY}


def test_where_zones_overlap_the_thickest_vegetation_applies() -> None:
    world = new_world()
    zone(world, (0, 0), V.HEAVY, radius_hex=5)
    zone(world, (2, 0), V.VERY_DENSE, radius_hex=None, hexes=((0, 0),))
    zone(world, (2, 0), V.DENSE, radius_hex=1)
    character(world, (2, 0), tmr=20, heading=0)
    events = world.step()
    assert only(events, SpeedModeChosen).vegetation is V.VERY_DENSE
    assert only(events, SquaresMoved).squares == 5


def test_restricted_movement_the_vegetation_under_a_character_as_the_round_begins_sets_its_rate() -> None:
    """Reading: a runner starting in a dense hex goes at half rate all round, though it runs out of it."""
    world = new_world()
    zone(world, (0, 0), V.DENSE)
    entity = character(world, tmr=10, mode=M.RUN, heading=0)
    assert only(world.step(), SquaresMoved).squares == 10
    assert only(world.step(), SquaresMoved).squares == 20
    assert world.get(entity, Position).hex == (30, 0)


# --- Speed modes in a chase --------------------------------------------------------------------------


def test_a_chase_is_at_a_run_unless_someone_says_otherwise() -> None:
    world = new_world()
    stroller = character(world, (0, 5), heading=0)
    runner = character(world, (1, 0), flee_from=(3,), heading=0)
    pursuer = character(world, (0, 0), chase=runner)
    chosen = {event.entity: event.mode for event in of(world.step(), SpeedModeChosen)}
    assert chosen == {stroller: M.WALK, runner: M.RUN, pursuer: M.RUN}


@pytest.mark.parametrize(
    ("runner_kw", "pursuer_kw", "runner_mode", "pursuer_mode"),
    [
        ({"mode": M.SPRINT}, {"match_speed": True}, M.SPRINT, M.SPRINT),
        ({"mode": M.SPRINT}, {"match_speed": False}, M.SPRINT, M.RUN),
        ({"match_speed": True}, {"mode": M.FAST_SPRINT}, M.FAST_SPRINT, M.FAST_SPRINT),
        (
            {"mode": M.SPRINT, "match_speed": True},
            {"mode": M.FAST_SPRINT, "match_speed": True},
            M.FAST_SPRINT,
            M.FAST_SPRINT,
        ),
        ({"mode": M.WALK}, {"match_speed": True}, M.WALK, M.RUN),
    ],
    ids=[
        "runner sprints, pursuer matches",
        "runner sprints, pursuer does not match",
        "pursuer fast-sprints, runner matches",
        "both match: the faster choice",
        "matching never slows down",
    ],
)
def test_chasing_when_either_side_speeds_up_the_other_may_too(
    runner_kw: dict[str, Any], pursuer_kw: dict[str, Any], runner_mode: SpeedMode, pursuer_mode: SpeedMode
) -> None:
    world = new_world()
    runner = character(world, (1, 0), flee_from=(2,), heading=0, **runner_kw)
    pursuer = character(world, (0, 0), chase=runner, **pursuer_kw)
    chosen = {event.entity: (event.mode, event.matched) for event in of(world.step(), SpeedModeChosen)}
    assert chosen[runner][0] is runner_mode
    assert chosen[pursuer][0] is pursuer_mode
    assert chosen[runner][1] == (runner_mode is not runner_kw.get("mode", M.RUN))
    assert chosen[pursuer][1] == (pursuer_mode is not pursuer_kw.get("mode", M.RUN))


def test_matching_speed_goes_only_as_fast_as_the_vegetation_allows() -> None:
    world = new_world()
    zone(world, (0, 0), V.HEAVY)
    runner = character(world, (1, 0), mode=M.FAST_SPRINT, flee_from=(3,), heading=0)
    pursuer = character(world, (0, 0), mode=M.WALK, chase=runner, match_speed=True)
    chosen = {event.entity: event for event in of(world.step(), SpeedModeChosen)}
    assert (chosen[pursuer].mode, chosen[pursuer].matched, chosen[pursuer].vegetation) == (M.RUN, True, V.HEAVY)


# --- Fleeing -----------------------------------------------------------------------------------------


def test_fleeing_offers_the_foe_one_free_attack_once_a_flight() -> None:
    world = new_world()
    foe = character(world, (0, 0))
    runner = character(world, (1, 0), flee_from=(foe,), heading=0)
    assert of(world.step(), Fled) == [Fled(runner, foe, free_attack=True)]
    assert of(world.step(), Fled) == []
    assert world.get(runner, RoundState).fled_from == (foe,)
    world.get(runner, RoundIntent).flee_from = ()
    world.step()
    assert world.get(runner, RoundState).fled_from == ()
    world.get(runner, RoundIntent).flee_from = (foe,)
    assert of(world.step(), Fled) == [Fled(runner, foe, free_attack=True)]


@pytest.mark.parametrize(
    ("foes", "allies", "free"),
    [(1, 0, True), (2, 1, True), (3, 1, True), (1, 1, False), (2, 2, False)],
    ids=["1 to 1", "2 to 2", "3 to 2", "1 to 2: outnumbered", "2 to 3: outnumbered"],
)
def test_fleeing_free_attack_needs_odds_of_1_to_1_or_better(foes: int, allies: int, free: bool) -> None:
    world = new_world()
    enemies = tuple(character(world, (0, row)) for row in range(foes))
    runner = character(world, (1, 0), flee_from=enemies, allies=allies, heading=0)
    fled = of(world.step(), Fled)
    assert fled == [Fled(runner, foe, free) for foe in enemies]


def test_a_foe_with_other_opponents_may_chase_but_they_get_free_attacks_and_may_follow() -> None:
    world = new_world()
    runner = character(world, (1, 0), flee_from=(2,), heading=0)
    pursuer = character(world, (0, 0))
    other = character(world, (-1, 0))
    world.get(pursuer, RoundIntent).chase = runner
    world.get(pursuer, RoundIntent).flee_from = (other,)
    world.get(other, RoundIntent).chase = pursuer
    events = world.step()
    assert of(events, Fled) == [Fled(runner, pursuer, True), Fled(pursuer, other, True)]
    assert [(c.pursuer, c.runner) for c in of(events, ChaseRound)] == [(pursuer, runner), (other, pursuer)]


# --- Chasing: the chase table and its footnotes ------------------------------------------------------


@pytest.mark.parametrize(
    ("pursuer_tmr", "runner_tmr", "attacks", "expected"),
    [
        (12, 13, 3, (0, 0)),
        (12, 12, 3, (1, -50)),
        (13, 12, 3, (1, -25)),
        (25, 12, 3, (2, -10)),
        (25, 12, 1, (1, -10)),
        (55, 12, 3, (3, 0)),
    ],
    ids=[
        "runner faster -> no attack",
        "equal -> 1 at -50",
        "2 squares faster -> 1 at -25",
        "26 squares faster -> 2 at -10",
        "26 faster, one normal attack -> 1",
        "86 squares faster -> 3 at 0",
    ],
)
def test_chasing_the_chase_table_compares_the_squares_each_side_runs(
    pursuer_tmr: int, runner_tmr: int, attacks: int, expected: tuple[int, int]
) -> None:
    world = new_world()
    runner = character(world, (1, 0), tmr=runner_tmr, flee_from=(2,), heading=0)
    pursuer = character(world, (0, 0), tmr=pursuer_tmr, attacks=attacks, chase=runner)
    round_ = only(world.step(), ChaseRound)
    assert (round_.pursuer, round_.runner) == (pursuer, runner)
    assert (round_.pursuer_squares, round_.runner_squares) == (2 * pursuer_tmr, 2 * runner_tmr)
    assert (round_.attacks, round_.modifier) == expected
    assert round_.in_reach == (pursuer_tmr >= runner_tmr)


def test_chasing_footnote_a_sprinting_pursuer_gets_at_most_one_attack() -> None:
    world = new_world()
    runner = character(world, (1, 0), tmr=2, flee_from=(2,), heading=0)
    character(world, (0, 0), tmr=30, attacks=3, mode=M.SPRINT, chase=runner)
    world.dice.script(1)  # the sprint's 1d6 non-lethal damage
    round_ = only(world.step(), ChaseRound)
    assert (round_.pursuer_mode, round_.attacks, round_.modifier) == (M.SPRINT, 1, 0)


@pytest.mark.parametrize(
    ("roll", "attacks", "fell"),
    [(30, 1, False), (31, 0, False), (60, 0, False), (61, 0, True)],
    ids=[
        "DEX 15, roll 30: 2x -> one attack",
        "roll 31: 3x -> no attack",
        "roll 60: 4x -> no attack, no fall",
        "roll 61: worse than 4x -> a fall, half a round",
    ],
)
def test_chasing_footnote_a_fast_sprinting_pursuer_rolls_dex(roll: int, attacks: int, fell: bool) -> None:
    world = new_world()
    runner = character(world, (1, 0), tmr=5, flee_from=(2,), heading=0)
    pursuer = character(world, (0, 0), tmr=20, dex=15, attacks=3, mode=M.FAST_SPRINT, chase=runner)
    world.dice.script(3, 4, roll)  # 2d6 non-lethal damage, then the DEX roll
    events = world.step()
    assert [r.total for r in rolls(events, "keeping its feet chasing")] == [roll]
    round_ = only(events, ChaseRound)
    assert (round_.attacks, round_.modifier) == (attacks, -5)  # 80 - 10 = 70 squares: 66-70 row
    assert of(events, FellDown) == ([FellDown(pursuer, "chasing at a fast sprint", 5)] if fell else [])
    state = world.get(pursuer, RoundState)
    assert (state.fallen, state.seconds_owed) == (fell, 5 if fell else 0)
    world.get(pursuer, RoundIntent).mode = M.RUN
    moved = {m.entity: m for m in of(world.step(), SquaresMoved)}
    assert (moved[pursuer].seconds_lost, moved[pursuer].squares) == ((5, 20) if fell else (0, 40))
    assert world.get(pursuer, RoundState).fallen is False


def test_chasing_on_the_map_a_pursuer_must_catch_up_before_it_attacks() -> None:
    world = new_world()
    runner = character(world, (20, 0), tmr=12, flee_from=(2,), heading=0)
    character(world, (0, 0), tmr=13, chase=runner)
    round_ = only(world.step(), ChaseRound)
    assert (round_.attacks, round_.modifier, round_.in_reach) == (0, -25, False)


def test_chasing_off_the_map_the_table_alone_decides() -> None:
    world = new_world(Options(hex_ft=5, chase_on_map=False))
    runner = character(world, (20, 0), tmr=12, flee_from=(2,), heading=0)
    character(world, (0, 0), tmr=13, chase=runner)
    round_ = only(world.step(), ChaseRound)
    assert (round_.attacks, round_.modifier, round_.in_reach) == (1, -25, True)


def test_a_pursuer_moves_toward_its_runner_and_stops_beside_it() -> None:
    world = new_world()
    runner = character(world, (1, 0), tmr=5, mode=M.WALK, flee_from=(2,), heading=1)
    pursuer = character(world, (0, 0), tmr=20, chase=runner)
    world.step()
    assert world.get(runner, Position).hex == (1, 5)
    assert world.get(pursuer, Position).hex == (1, 4)
    assert world.get(pursuer, RoundState).moved_hex == 5
    assert world.get(pursuer, RoundState).squares == 40


# --- Pursuit actions ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("faces", "grade", "level", "seconds", "time_dice"),
    [
        ((10,), 0.5, PursuitLevel.SPECTACULAR, 0, None),
        ((20,), 1.0, PursuitLevel.QUICK, 1, None),
        ((40, 2), 2.0, PursuitLevel.SUCCESS, 2, "1d2"),
        ((60, 3), 3.0, PursuitLevel.NEAR, 3, "1d3"),
        ((80, 4), 4.0, PursuitLevel.PARTIAL, 4, "1d4"),
        ((81, 6, 61), 5.0, PursuitLevel.FAILURE, 6, "1d6"),
    ],
    ids=[
        "1/2x DEX: spectacular, no time",
        "1x DEX: succeeds in 1 second",
        "2x DEX: succeeds in base time 1d2",
        "3x DEX: nearly, base +33% = 1d3",
        "4x DEX: partly, base +66% = 1d4",
        "5x DEX: fails, base +100% = 1d6, second roll 4x: no fall",
    ],
)
def test_pursuit_actions_the_chair_example_graded_by_dex(
    faces: tuple[int, ...], grade: float, level: PursuitLevel, seconds: int, time_dice: str | None
) -> None:
    world = new_world()
    entity = character(world, tmr=10, dex=20, heading=0, pursuit_dice="1d2", pursuit_label="knock over a chair")
    world.dice.script(*faces)
    events = world.step()
    assert world.dice.scripted == 0
    resolved = only(events, PursuitActionResolved)
    assert resolved == PursuitActionResolved(entity, "knock over a chair", "DEX", 20, grade, level, seconds)
    assert [r.expression for r in rolls(events, "time for")] == ([time_dice] if time_dice else [])
    assert of(events, FellDown) == []
    moved = only(events, SquaresMoved)
    assert (moved.seconds_lost, moved.squares) == (seconds, (10 - seconds))


def test_pursuit_actions_a_second_5x_roll_is_a_fall_and_5_more_seconds() -> None:
    world = new_world()
    entity = character(world, tmr=10, dex=20, heading=0, pursuit_dice="1d2", pursuit_label="leap the table")
    world.dice.script(95, 3, 81)
    events = world.step()
    assert only(events, PursuitActionResolved).seconds == 3
    assert of(events, FellDown) == [FellDown(entity, "leap the table failed", 5)]
    purposes = [r.purpose for r in of(events, RollMade)]
    assert purposes == [
        "leap the table against DEX 20: 5x or worse",
        "time for leap the table, in seconds",
        "keeping its feet after leap the table failed: 5x or worse",
    ]
    moved = only(events, SquaresMoved)
    assert (moved.seconds_lost, moved.squares) == (8, 2)
    assert world.get(entity, RoundState).fallen is False  # up again within the round


def test_pursuit_actions_seconds_beyond_the_round_are_served_from_the_next() -> None:
    world = new_world()
    entity = character(world, tmr=10, dex=20, heading=0, pursuit_dice="2d6")
    world.dice.script(100, 12, 12, 100)  # 5x: 2d12 = 24 seconds, then a fall: 5 more
    events = world.step()
    assert only(events, PursuitActionResolved).seconds == 24
    state = world.get(entity, RoundState)
    assert (state.seconds_lost, state.seconds_owed, state.fallen, state.squares) == (10, 19, True, 0)
    world.step()
    assert (state.seconds_lost, state.seconds_owed, state.fallen, state.squares) == (10, 9, True, 0)
    world.step()
    assert (state.seconds_lost, state.seconds_owed, state.fallen, state.squares) == (9, 0, False, 1)


def test_pursuit_actions_adds_instead_of_larger_dice_is_an_option() -> None:
    world = new_world(Options(hex_ft=5, larger_dice=False))
    character(world, dex=20, heading=0, pursuit_dice="1d2")
    world.dice.script(90, 2, 1)
    events = world.step()
    assert [(t.expression, t.total) for t in rolls(events, "time for")] == [("1d2+3", 5)]


def test_pursuit_actions_mixed_dice_and_adds_is_an_option() -> None:
    """Chasing and Fleeing (Pursuit Actions), the chair example's mixed forms: at most two die steps, so a
    failed 1d2 action takes 1d4+1 seconds."""
    world = new_world(Options(hex_ft=5, max_die_steps=2))
    character(world, dex=20, heading=0, pursuit_dice="1d2")
    world.dice.script(90, 3, 1)
    events = world.step()
    assert [(t.expression, t.total) for t in rolls(events, "time for")] == [("1d4+1", 4)]


@pytest.mark.parametrize(
    ("acrobatics", "against", "grade"),
    [(20, "Acrobatics", 2.0), (8, "DEX", 4.0)],
    ids=["Acrobatics 20 stands in for DEX 10", "a lower Acrobatics is not used"],
)
def test_pursuit_actions_acrobatics_may_stand_in_for_dex(acrobatics: int, against: str, grade: float) -> None:
    world = new_world()
    character(
        world, dex=10, skills={"Acrobatics": acrobatics}, heading=0, pursuit_dice="1d2", pursuit_skill="Acrobatics"
    )
    world.dice.script(40, 1)
    resolved = only(world.step(), PursuitActionResolved)
    assert (resolved.against, resolved.grade) == (against, grade)


def test_pursuit_actions_and_shots_last_one_round() -> None:
    world = new_world()
    entity = character(world, mode=M.WALK, heading=0, pursuit_dice="1d2", pursuit_skill=None, shots=2)
    world.step()
    intent = world.get(entity, RoundIntent)
    assert (intent.pursuit_dice, intent.pursuit_label, intent.pursuit_skill, intent.shots) == (None, "", None, 0)
    assert (intent.mode, intent.heading) == (M.WALK, 0)
    events = world.step()
    assert of(events, PursuitActionResolved) == [] and of(events, ShotsOnTheMove) == []


# --- Non-lethal damage from sprinting ----------------------------------------------------------------


def test_movement_and_defense_sprinting_costs_1d6_non_lethal_a_round() -> None:
    world = new_world()
    entity = character(world, mode=M.SPRINT, heading=0)
    world.dice.script(4, 2)
    assert of(world.step(), NonLethalDamage) == [NonLethalDamage(entity, M.SPRINT, 4, 4)]
    assert of(world.step(), NonLethalDamage) == [NonLethalDamage(entity, M.SPRINT, 2, 6)]
    state = world.get(entity, RoundState)
    assert (state.nonlethal_taken, state.nonlethal_total) == (2, 6)
    world.get(entity, RoundIntent).mode = M.RUN
    assert of(world.step(), NonLethalDamage) == []
    assert (state.nonlethal_taken, state.nonlethal_total) == (0, 6)


def test_movement_and_defense_fast_sprinting_costs_2d6_non_lethal_a_round() -> None:
    world = new_world()
    entity = character(world, mode=M.FAST_SPRINT, heading=0)
    world.dice.script(6, 5)
    events = world.step()
    assert [r.result.story for r in of(events, RollMade)] == ["2d6 (6, 5) = 11"]
    assert of(events, NonLethalDamage) == [NonLethalDamage(entity, M.FAST_SPRINT, 11, 11)]


def test_sprinting_in_place_costs_nothing() -> None:
    world = new_world()
    entity = character(world, mode=M.SPRINT)
    assert of(world.step(), NonLethalDamage) == []
    assert world.get(entity, RoundState).nonlethal_total == 0


# --- Moving and Shooting -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("mode", "shots", "threat_rolls", "expected"),
    [
        (M.WALK, 3, (60,), (2, -15, (DropResult.NOTHING_DROPPED,), 2)),
        (M.WALK, 3, (61,), (2, -15, (DropResult.ARROW_DROPPED,), 1)),
        (M.WALK, 3, (96,), (2, -15, (DropResult.WEAPON_DROPPED,), 1)),
        (M.RUN, 4, (45,), (2, -30, (DropResult.NOTHING_DROPPED,), 2)),
        (M.RUN, 4, (46,), (2, -30, (DropResult.ARROW_DROPPED,), 1)),
        (M.RUN, 1, (), (0, -30, (), 0)),
        (M.SPRINT, 4, (), (1, -50, (), 1)),
        (M.FAST_SPRINT, 2, (), (1, -70, (), 1)),
    ],
    ids=[
        "walk, DEX 15, threat 60 = 4x: kept",
        "walk, threat 61: arrow dropped",
        "walk, threat 96: weapon dropped",
        "run, threat 45 = 3x: kept",
        "run, threat 46: arrow dropped",
        "run, one attack: half rounded down is none",
        "sprint: one shot, no draw",
        "fast sprint: one shot at -70",
    ],
)
def test_moving_and_shooting_attacks_modifier_and_drop_threat(
    mode: SpeedMode, shots: int, threat_rolls: tuple[int, ...], expected: tuple[object, ...]
) -> None:
    world = new_world()
    entity = character(world, dex=15, mode=mode, heading=0, shots=shots, weapon=RangedWeapon.SHORT_BOW)
    world.dice.script(*([1, 1] if mode in (M.SPRINT, M.FAST_SPRINT) else []), *threat_rolls)
    events = world.step()
    shot = only(events, ShotsOnTheMove)
    assert shot.entity == entity
    assert (shot.allowed, shot.modifier, shot.drops, shot.fired) == expected
    assert [r.total for r in rolls(events, "drop threat")] == list(threat_rolls)


def test_moving_and_shooting_a_dropped_weapon_ends_the_rounds_shots() -> None:
    world = new_world()
    character(world, dex=15, heading=0, shots=5)
    world.dice.script(97)
    events = world.step()
    shot = only(events, ShotsOnTheMove)
    assert (shot.allowed, shot.drops, shot.fired) == (3, (DropResult.WEAPON_DROPPED,), 1)
    assert len(rolls(events, "drop threat")) == 1


@pytest.mark.parametrize(
    ("mobility", "weapon", "reloads", "expected"),
    [
        ({}, RangedWeapon.OTHER, True, (2, -15, (), 2)),
        ({}, RangedWeapon.CROSSBOW, False, (1, -15, (), 1)),
        ({"large": True}, RangedWeapon.LONG_BOW, True, (2, -35, (), 2)),
        ({"centaur": True}, RangedWeapon.SHORT_BOW, True, (2, -7, (), 2)),
        ({"master_reduction": 10}, RangedWeapon.OTHER, True, (2, -5, (), 2)),
    ],
    ids=[
        "a weapon that reloads itself risks no drop",
        "crossbow: fires on the move, no reloading by hand",
        "large creature with a long bow: a further -20",
        "centaur with a short bow: half the penalty",
        "Master skill takes 10 off the penalty",
    ],
)
def test_moving_and_shooting_weapon_modifiers(
    mobility: dict[str, Any], weapon: RangedWeapon, reloads: bool, expected: tuple[object, ...]
) -> None:
    world = new_world()
    character(world, mode=M.WALK, heading=0, shots=3, weapon=weapon, reloads_itself=reloads, **mobility)
    shot = only(world.step(), ShotsOnTheMove)
    assert (shot.allowed, shot.modifier, shot.drops, shot.fired) == expected


def test_moving_and_shooting_a_long_bow_is_refused_on_the_move_for_all_but_large_creatures() -> None:
    world = new_world()
    entity = character(world, heading=0, shots=2, weapon=RangedWeapon.LONG_BOW)
    with pytest.raises(IntentError, match=f"entity {entity}: RoundIntent.weapon = .*only a large creature fires one"):
        world.step()


@pytest.mark.parametrize(
    ("mode", "options", "expected", "threat_rolls"),
    [
        (M.DODGE, SQUARE_HEXES, (2, 0, (), 2), ()),
        (M.STEALTHY, SQUARE_HEXES, (2, 0, (), 2), ()),
        (M.DODGE, Options(hex_ft=5, half_move_fire="walk"), (2, -15, (DropResult.ARROW_DROPPED,), 1), (61,)),
    ],
    ids=[
        "dodge, 4 attacks -> 2 at 0, no drop check",
        "stealthy, 4 attacks -> 2 at 0, no drop check",
        "walk reading: dodge, 4 attacks -> 2 at -15, threat 61 drops the arrow",
    ],
)
def test_moving_and_shooting_at_half_tmr_keeps_half_the_attacks(
    mode: SpeedMode, options: Options, expected: tuple[object, ...], threat_rolls: tuple[int, ...]
) -> None:
    """Spelljammer: Running, Shooting, Chasing and Fleeing > Moving and Shooting: moving half its TMR, a
    character shoots half its attacks under the normal rule, or by the Walk row under the other reading."""
    world = new_world(options)
    entity = character(world, mode=mode, heading=0, shots=4, weapon=RangedWeapon.SHORT_BOW)
    world.dice.script(*threat_rolls)
    events = world.step()
    shot = only(events, ShotsOnTheMove)
    assert shot.entity == entity
    assert (shot.allowed, shot.modifier, shot.drops, shot.fired) == expected
    assert [r.total for r in rolls(events, "drop threat")] == list(threat_rolls)


# --- Intents the rules refuse ------------------------------------------------------------------------


def test_intent_check_refuses_chasing_itself() -> None:
    world = new_world()
    entity = character(world)
    world.get(entity, RoundIntent).chase = entity
    with pytest.raises(IntentError, match=f"entity {entity}: RoundIntent.chase = {entity}: another character"):
        world.step()


def test_intent_check_refuses_chasing_something_that_is_not_a_character() -> None:
    world = new_world()
    door = world.spawn(Position(3, 0))
    entity = character(world, chase=door)
    with pytest.raises(IntentError, match=f"entity {entity}: RoundIntent.chase = {door}: a character"):
        world.step()


def test_intent_check_refuses_fleeing_itself() -> None:
    world = new_world()
    entity = character(world, heading=0)
    world.get(entity, RoundIntent).flee_from = (entity,)
    with pytest.raises(IntentError, match=r"Intent.flee_from = \(1,\): foes other than the character itself"):
        world.step()


def test_intent_check_refuses_a_chase_at_dodge_or_stealthy() -> None:
    world = new_world()
    runner = character(world, (1, 0))
    pursuer = character(world, mode=M.STEALTHY, chase=runner)
    expected = f"entity {pursuer}: RoundIntent.mode = .*walk, run, sprint, fast_sprint while"
    with pytest.raises(IntentError, match=expected):
        world.step()


def test_intent_check_refuses_a_skill_the_character_lacks() -> None:
    world = new_world()
    entity = character(world, skills={"Climbing": 12}, pursuit_dice="1d2", pursuit_skill="Acrobatics")
    with pytest.raises(IntentError, match=r"Intent.pursuit_skill = 'Acrobatics': a skill in .*\(it has Climbing\)"):
        world.step()
    assert world.get(entity, RoundIntent).pursuit_dice == "1d2"


def test_intent_check_catches_a_bad_value_written_after_construction() -> None:
    world = new_world()
    entity = character(world)
    world.get(entity, RoundIntent).heading = 9
    expected = f"entity {entity}: RoundIntent.heading = 9: expected a whole number from 0 to 5"
    with pytest.raises(RuleValueError, match=expected):
        world.step()


def test_intent_check_accepts_text_written_after_construction() -> None:
    world = new_world()
    entity = character(world)
    world.get(entity, RoundIntent).mode = "sprint"  # type: ignore[assignment]
    world.dice.script(1)
    world.get(entity, RoundIntent).heading = 0
    assert only(world.step(), SpeedModeChosen).mode is M.SPRINT


# --- Determinism -------------------------------------------------------------------------------------


def test_the_same_seed_and_intents_give_the_same_rounds() -> None:
    def play(seed: int) -> list[str]:
        world = new_world(None, seed=seed)
        zone(world, (10, 0), V.HEAVY, radius_hex=4)
        runner = character(world, (1, 0), tmr=11, mode=M.SPRINT, flee_from=(3,), heading=0)
        character(world, (0, 0), tmr=10, dex=12, attacks=2, chase=runner, match_speed=True, shots=2)
        log = []
        for _ in range(3):
            log += [event.describe() for event in world.step()]
            world.get(runner, RoundIntent).mode = M.RUN
        return log

    assert play(5) == play(5)
    assert play(5) != play(6)


# --- Invariants --------------------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(
    runner_tmr=st.integers(0, 30),
    pursuer_tmr=st.integers(0, 30),
    runner_mode=st.sampled_from([M.DODGE, M.WALK, M.RUN, M.SPRINT, M.FAST_SPRINT, M.STEALTHY]),
    pursuer_mode=st.sampled_from(list(CHASE_MODES)),
    encumbrance=st.integers(0, 2),
    attacks=st.integers(0, 4),
    hex_ft=st.integers(1, 6),
    gap=st.integers(1, 30),
    seed=st.integers(0, 2**16),
)
def test_no_one_outruns_its_rate_and_no_pursuer_outstrikes_the_chase_table(
    *,
    runner_tmr: int,
    pursuer_tmr: int,
    runner_mode: SpeedMode,
    pursuer_mode: SpeedMode,
    encumbrance: int,
    attacks: int,
    hex_ft: int,
    gap: int,
    seed: int,
) -> None:
    world = new_world(Options(hex_ft=hex_ft), seed=seed)
    runner = character(world, (gap, 0), tmr=runner_tmr, mode=runner_mode, flee_from=(2,), heading=0)
    pursuer = character(world, (0, 0), tmr=pursuer_tmr, attacks=attacks, encumbrance=encumbrance)
    world.get(pursuer, RoundIntent).mode = pursuer_mode
    world.get(pursuer, RoundIntent).chase = runner
    for _ in range(3):
        before = {entity: world.get(entity, Position).hex for entity in (runner, pursuer)}
        events = world.step()
        for entity, tmr, mode, load in (
            (runner, runner_tmr, runner_mode, 0),
            (pursuer, pursuer_tmr, pursuer_mode, encumbrance),
        ):
            most = math.ceil(movement_rate(tmr, mode, load) * 5 / hex_ft)
            assert distance(before[entity], world.get(entity, Position).hex) <= most
        round_ = only(events, ChaseRound)
        table_attacks, _ = chase(round_.pursuer_squares, round_.runner_squares)
        assert round_.attacks <= min(table_attacks, attacks)
        if pursuer_mode in (M.SPRINT, M.FAST_SPRINT):
            assert round_.attacks <= 1
        if round_.attacks:
            assert (
                distance(world.get(pursuer, Position).hex, world.get(runner, Position).hex)
                <= Options(hex_ft=hex_ft).contact_hex
            )


@settings(max_examples=40, deadline=None, derandomize=True)
@given(
    discs=st.lists(
        st.tuples(
            st.integers(-80, 80),
            st.integers(-80, 80),
            st.sampled_from([0, 1, 3, 7, 16, 40, 120]),  # 120 spreads over more than WIDE_CELLS cells
            st.sampled_from(list(Vegetation)),
        ),
        max_size=25,
    ),
    spots=st.lists(st.tuples(st.integers(-150, 150), st.integers(-150, 150)), min_size=1, max_size=60),
)
def test_the_vegetation_map_finds_the_thickest_zone_over_a_hex_as_a_look_at_every_zone_would(
    discs: list[tuple[int, int, int, Vegetation]], spots: list[tuple[int, int]]
) -> None:
    """Restricted Movement: the map files discs by cell; what it finds is what checking every zone finds."""
    zones = [(Position(q, r), VegetationZone(vegetation, radius)) for q, r, radius, vegetation in discs]
    zones.append((Position(5, 5), VegetationZone(Vegetation.HEAVY, None, hexes=((0, 0), (-9, 3)))))
    found = VegetationMap(zones)
    thickness = {row.vegetation: row.tmr_fraction for row in VEGETATION}
    for spot in [*spots, (5, 5), (-4, 8)]:
        covering = [
            zone.vegetation
            for position, zone in zones
            if zone.radius_hex is not None and distance(position.hex, spot) <= zone.radius_hex
        ]
        covering += [
            zone.vegetation for position, zone in zones if (spot[0] - position.q, spot[1] - position.r) in zone.hexes
        ]
        expected = min(covering, key=thickness.__getitem__) if covering else None
        assert found.at(spot) == expected

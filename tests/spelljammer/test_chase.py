"""A Spelljammer chase stepped round by round, and chases whose other side disappears.

Spelljammer: Running, Shooting, Chasing and Fleeing > Chasing and Fleeing (with Restricted Movement, Movement and
Defense and the Pursuit Actions). The map uses 5-foot hexes here, so a square is a hex.
"""

from __future__ import annotations

from pathlib import Path
from typing import TypeVar

import pytest

from esper_motion.components.motion import Position
from esper_motion.components.spelljammer import Mobility, RoundIntent, RoundState, SpeedMode, Vegetation, VegetationZone
from esper_motion.ecs import Event, IntentError, RollMade, World
from esper_motion.systems.spelljammer import Options, install
from esper_motion.systems.spelljammer.events import (
    ChaseEnded,
    ChaseRound,
    FellDown,
    Fled,
    NonLethalDamage,
    PursuitActionResolved,
    SpeedModeChosen,
    SquaresMoved,
)
from esper_motion.systems.spelljammer.rules import PursuitLevel

M = SpeedMode
E = TypeVar("E", bound=Event)


def of(events: list[Event], kind: type[E]) -> list[E]:
    return [event for event in events if isinstance(event, kind)]


def test_a_runner_flees_through_dense_vegetation_from_a_sprinting_pursuer() -> None:
    world = World(seed=11)
    install(world, Options(hex_ft=5))
    world.spawn(Position(30, 0), VegetationZone(Vegetation.DENSE, radius_hex=20))  # q from 10 to 50 on r = 0
    runner = world.spawn(
        Mobility(tmr=12, dex=15), RoundIntent(flee_from=(3,), heading=0), RoundState(), Position(10, 0)
    )
    pursuer = world.spawn(
        Mobility(tmr=12, dex=12, attacks=2, skills={"Acrobatics": 20}),
        RoundIntent(chase=runner, mode=M.SPRINT),
        RoundState(),
        Position(9, 0),
    )

    def components() -> tuple[RoundIntent, RoundIntent, Position, Position, RoundState, RoundState]:
        """Both characters' components (a refused round restores copies, so fetch them again after one)."""
        return (
            world.get(runner, RoundIntent),
            world.get(pursuer, RoundIntent),
            world.get(runner, Position),
            world.get(pursuer, Position),
            world.get(runner, RoundState),
            world.get(pursuer, RoundState),
        )

    r_intent, p_intent, r_pos, p_pos, r_state, p_state = components()

    # Round 1: the runner breaks off (a free attack), runs at half rate in the thicket; the pursuer, still
    # on open ground, sprints 36 squares but stops beside it. 36 - 12 = 24: one attack at -10 (Sprint: one).
    world.dice.script(4)  # the sprint's 1d6
    events = world.step()
    assert of(events, Fled) == [Fled(runner, pursuer, True)]
    assert [(e.entity, e.mode, e.vegetation) for e in of(events, SpeedModeChosen)] == [
        (runner, M.RUN, Vegetation.DENSE),
        (pursuer, M.SPRINT, None),
    ]
    assert (r_pos.hex, p_pos.hex) == ((22, 0), (21, 0))
    assert of(events, NonLethalDamage) == [NonLethalDamage(pursuer, M.SPRINT, 4, 4)]
    assert of(events, ChaseRound) == [ChaseRound(pursuer, runner, M.SPRINT, M.RUN, 36, 12, 1, -10, True)]

    # Round 2: now in the thicket, the pursuer may not sprint: the round is refused and nothing changes.
    with pytest.raises(IntentError, match=f"entity {pursuer}: RoundIntent.mode = .*dense vegetation allows only"):
        world.step()
    r_intent, p_intent, r_pos, p_pos, r_state, p_state = components()
    assert (world.turn, r_pos.hex, p_pos.hex) == (1, (22, 0), (21, 0))
    # It drops to the chase's usual Run; the runner knocks a chair over behind it (DEX 15, roll 25: 2x, base
    # time 1d2 = 2 s) and covers 12 x 8/10 = 9.6 squares. 12 - 9.6: one attack at -25.
    p_intent.mode = None
    r_intent.pursuit_dice, r_intent.pursuit_label = "1d2", "knock over a chair"
    world.dice.script(25, 2)
    events = world.step()
    assert of(events, PursuitActionResolved) == [
        PursuitActionResolved(runner, "knock over a chair", "DEX", 15, 2.0, PursuitLevel.SUCCESS, 2)
    ]
    assert (r_pos.hex, p_pos.hex) == ((31, 0), (30, 0))
    assert (r_state.squares, r_state.seconds_lost, r_state.carry_hex) == (9.6, 2, 0.6)
    assert of(events, ChaseRound) == [ChaseRound(pursuer, runner, M.RUN, M.RUN, 12, 9.6, 1, -25, True)]
    assert of(events, NonLethalDamage) == []

    # Round 3: the pursuer leaps the chair with Acrobatics 20 for DEX 12: roll 95 fails (1d6 = 4 s), and a
    # second roll of 99 is a fall (5 s more). It moves only 1.2 squares; the runner pulls away.
    p_intent.pursuit_dice, p_intent.pursuit_label, p_intent.pursuit_skill = "1d2", "leap the chair", "Acrobatics"
    world.dice.script(95, 4, 99)
    events = world.step()
    assert of(events, PursuitActionResolved) == [
        PursuitActionResolved(pursuer, "leap the chair", "Acrobatics", 20, 5.0, PursuitLevel.FAILURE, 4)
    ]
    assert of(events, FellDown) == [FellDown(pursuer, "leap the chair failed", 5)]
    assert (r_pos.hex, p_pos.hex) == ((43, 0), (31, 0))
    assert (p_state.seconds_lost, p_state.squares, p_state.fallen) == (9, 1.2, False)
    assert of(events, ChaseRound) == [ChaseRound(pursuer, runner, M.RUN, M.RUN, 1.2, 12, 0, 0, False)]

    # Round 4: equal speeds keep the gap: the table's one attack at -50 is out of reach.
    events = world.step()
    assert (r_pos.hex, p_pos.hex) == ((55, 0), (43, 0))
    assert of(events, ChaseRound) == [ChaseRound(pursuer, runner, M.RUN, M.RUN, 12, 12, 0, -50, False)]

    # Round 5: out of the thicket, the runner sprints (1d6 = 3); the pursuer would match, but its thicket
    # allows no Sprint, so it runs on.
    r_intent.mode = M.SPRINT
    p_intent.match_speed = True
    world.dice.script(3)
    events = world.step()
    assert [(e.entity, e.mode, e.matched) for e in of(events, SpeedModeChosen)] == [
        (runner, M.SPRINT, False),
        (pursuer, M.RUN, False),
    ]
    assert (r_pos.hex, p_pos.hex) == ((91, 0), (55, 0))
    assert of(events, ChaseRound) == [ChaseRound(pursuer, runner, M.RUN, M.SPRINT, 12, 36, 0, 0, False)]

    # Round 6: on open ground at last, the pursuer matches the sprint; both take 1d6 (2 and 5).
    world.dice.script(2, 5)
    events = world.step()
    assert [(e.entity, e.mode, e.matched) for e in of(events, SpeedModeChosen)] == [
        (runner, M.SPRINT, False),
        (pursuer, M.SPRINT, True),
    ]
    assert (r_pos.hex, p_pos.hex) == ((127, 0), (91, 0))
    assert of(events, NonLethalDamage) == [
        NonLethalDamage(runner, M.SPRINT, 2, 5),
        NonLethalDamage(pursuer, M.SPRINT, 5, 9),
    ]
    assert of(events, ChaseRound) == [ChaseRound(pursuer, runner, M.SPRINT, M.SPRINT, 36, 36, 0, -50, False)]
    assert world.dice.scripted == 0
    assert [r.entity for r in of(events, RollMade)] == [runner, pursuer]


def chase_world() -> tuple[World, int, int]:
    world = World(seed=2)
    install(world, Options(hex_ft=5))
    runner = world.spawn(Mobility(tmr=10, dex=14), RoundIntent(flee_from=(2,), heading=0), RoundState(), Position(1, 0))
    pursuer = world.spawn(Mobility(tmr=10, dex=14), RoundIntent(chase=runner), RoundState(), Position(0, 0))
    world.step()
    return world, runner, pursuer


def test_a_runner_despawned_mid_chase_ends_the_chase_cleanly() -> None:
    world, runner, pursuer = chase_world()
    world.despawn(runner)
    events = world.step()
    assert of(events, ChaseEnded) == [ChaseEnded(pursuer, runner, "the runner is gone")]
    assert of(events, ChaseRound) == []
    assert of(events, SquaresMoved) == []
    assert world.get(pursuer, RoundIntent).chase is None
    assert world.get(pursuer, Position).hex == (20, 0)  # it stays where the chase left it
    assert of(world.step(), ChaseEnded) == []


def test_a_pursuer_despawned_mid_chase_ends_the_flight_cleanly() -> None:
    world, runner, pursuer = chase_world()
    world.despawn(pursuer)
    events = world.step()
    assert of(events, ChaseEnded) == [ChaseEnded(pursuer, runner, "the foe it fled is gone")]
    assert (world.get(runner, RoundIntent).flee_from, world.get(runner, RoundState).fled_from) == ((), ())
    assert [(e.entity, e.mode) for e in of(events, SpeedModeChosen)] == [(runner, M.WALK)]  # no longer in a chase
    assert world.get(runner, Position).hex == (31, 0)


def test_a_runner_despawned_during_a_step_is_gone_by_the_next_round() -> None:
    world, runner, pursuer = chase_world()
    world.on(ChaseRound, lambda event: world.despawn(event.runner))
    world.step()
    assert not world.exists(runner)
    assert of(world.step(), ChaseEnded) == [ChaseEnded(pursuer, runner, "the runner is gone")]


def test_a_chase_saved_and_loaded_goes_on_exactly_as_it_would_have(tmp_path: Path) -> None:
    def start() -> World:
        world = World(seed=9)
        install(world, Options(hex_ft=3, larger_dice=False))
        world.spawn(Position(4, 0), VegetationZone(Vegetation.HEAVY, radius_hex=None, hexes=((0, 0), (1, 0))))
        runner = world.spawn(
            Mobility(tmr=11, dex=13, skills={"Acrobatics": 15}),
            RoundIntent(mode=M.SPRINT, flee_from=(3,), heading=0, match_speed=True),
            RoundState(),
            Position(1, 0),
        )
        world.spawn(Mobility(tmr=12, dex=12, attacks=2), RoundIntent(chase=runner), RoundState(), Position(0, 0))
        return world

    def play(world: World) -> list[str]:
        world.get(2, RoundIntent).pursuit_dice = "1d3"
        world.get(2, RoundIntent).pursuit_skill = "Acrobatics"
        world.get(2, RoundIntent).mode = M.RUN
        return [event.describe() for event in world.step(3)]

    straight = start()
    straight.step(2)
    saved = start()
    saved.step(2)
    saved.save(tmp_path / "chase.json")
    loaded = World.load(tmp_path / "chase.json")
    assert loaded.rules["spelljammer"] == Options(hex_ft=3, larger_dice=False)
    assert [type(p).__name__ for p in loaded.systems] == [type(p).__name__ for p in straight.systems]
    assert play(loaded) == play(straight)

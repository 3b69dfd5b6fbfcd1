"""Bad input and faults, part 2: wishes the rules forbid are refused with a clear error, or become the rule's
consequence; never silently clamped. Each refused step leaves the save file byte for byte as it was.

Sources: Basic Set: High-Speed Movement (Direction and Turning Radius, Accelerating, Maneuvers During High-Speed
Movement); Basic Set: Mounted Combat > Mounting Up; Basic Set: Flying Combat > Cannot Hover; Spelljammer: Running,
Shooting, Chasing and Fleeing > Restricted Movement.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from support import gurps_world
from support.mounted import spawn_horse, spawn_rider
from support.worlds import fingerprint, saved_bytes

from esper_motion.components import (
    Condition,
    Control,
    Facing,
    Flight,
    FlightIntent,
    FlightMode,
    Intent,
    Maneuver,
    Mobility,
    Mount,
    Mover,
    MoveState,
    Position,
    Posture,
    Rider,
    RoundIntent,
    RoundState,
    SpeedMode,
    Vegetation,
    VegetationZone,
    Velocity,
)
from esper_motion.ecs import IntentError, RuleValueError, World, WorldError
from esper_motion.systems import spelljammer
from esper_motion.systems.gurps import Rules, install, preview
from esper_motion.systems.gurps.events import (
    EnteredHighSpeed,
    HighSpeedRefused,
    LostControl,
    StallRecovered,
    VelocityChanged,
)
from esper_motion.systems.gurps.mounted.mounting import leap_astride, mount_up
from esper_motion.systems.spelljammer.rules import VEGETATION, allowed_modes


def gurps(seed: int = 5) -> World:
    world = World(seed=seed)
    install(world)
    return world


def runner(world: World, *, velocity: int, state: MoveState, at: tuple[int, int] = (0, 0), **stats: Any) -> int:
    """A runner (Basic Move 5, DX 12 unless told otherwise) facing east."""
    stats.setdefault("basic_move", 5)
    stats.setdefault("dx", 12)
    return world.spawn(
        Position(*at),
        Facing(0),
        Velocity(velocity),
        Mover(**stats),
        Control(state=state),
        Intent(),
        Condition(),
        Posture(),
    )


def refused(world: World) -> IntentError:
    """Step, expecting a refusal that leaves the world exactly as it was (:func:`support.worlds.fingerprint`: a save
    would refuse a world holding a value its constructor refuses); the refusal."""
    before = fingerprint(world)
    with pytest.raises(IntentError) as caught:
        world.step()
    assert fingerprint(world) == before
    return caught.value


# --- High-Speed Movement -----------------------------------------------------------------------------------


def test_a_180_degree_turn_is_refused_when_the_intent_is_built() -> None:
    with pytest.raises(RuleValueError, match=r"Intent\.turn = 3: expected a whole number from -2 to 2"):
        Intent(turn=3)


@pytest.mark.parametrize("turn", [3, -3], ids=["turn 3 (180 degrees left)", "turn -3 (180 degrees right)"])
def test_a_180_degree_turn_written_at_speed_is_refused_and_changes_nothing(tmp_path: Path, turn: int) -> None:
    """Direction and Turning Radius: a turn is at most 60 degrees, or 120 pushing the envelope."""
    world = gurps()
    others = [runner(world, velocity=12, state=MoveState.HIGH_SPEED, at=(0, 2 * i)) for i in range(5)]
    world.get(others[2], Intent).turn = turn
    before = fingerprint(world)  # what a save holds (a save itself refuses the bad Intent)
    with pytest.raises(RuleValueError) as caught:  # the world checks what the game wrote before the turn starts
        world.step()
    assert fingerprint(world) == before
    assert (caught.value.entity, caught.value.field, caught.value.value) == (others[2], "turn", turn)
    assert str(caught.value) == f"entity {others[2]}: Intent.turn = {turn}: expected a whole number from -2 to 2"


def test_accelerating_past_top_speed_is_refused_not_clamped(tmp_path: Path) -> None:
    """Accelerating: up to Basic Move a turn, to at most the top speed."""
    world = gurps()
    car = runner(world, velocity=14, state=MoveState.HIGH_SPEED, top_speed=16, enhanced=True)
    world.get(car, Intent).throttle = 4
    error = refused(world)
    assert (error.entity, error.field, error.value) == (car, "throttle", 4)
    assert str(error) == (
        f"entity {car}: Intent.throttle = 4: at most +2: accelerating past the top speed of 16 yd/s is not possible"
    )
    world.get(car, Intent).throttle = 2
    events = world.step()
    assert world.get(car, Velocity).yps == 16
    assert [e for e in events if isinstance(e, VelocityChanged)] == [VelocityChanged(car, 14, 16, 2, 0)]


def test_an_attack_at_speed_is_not_refused_but_costs_control() -> None:
    """Maneuvers During High-Speed Movement: at speed only Move or Move and Attack keep control; any other maneuver
    is allowed and control is lost (the rule's consequence, not an error)."""
    world = gurps()
    fast = runner(world, velocity=12, state=MoveState.HIGH_SPEED)
    world.get(fast, Intent).maneuver = Maneuver.ATTACK
    events = world.step()
    assert [e for e in events if isinstance(e, LostControl)] == [LostControl(fast, "maneuver", "trip", 0)]


def test_a_flier_landing_above_its_ground_move_after_a_tight_turn_can_still_step() -> None:
    """Regression: a flier at 8 yd/s (ordinary movement for air Move 12) turned 120 degrees and came down to the
    ground, where Basic Move is 5. The turn did not qualify for high speed, so it stayed in ordinary movement at
    8 yd/s, which every later intent check refused (a world that could never step again). It is at high speed
    already, needing no qualifying turn, slowed to its ground top speed of 6 (landing at speed:
    ``acceleration.VelocityChange``), and steps on."""
    world = gurps()
    flier = world.spawn(
        Position(0, 0, altitude_yd=1.0),
        Facing(0),
        Velocity(8),
        Mover(basic_move=5, dx=12, hp=10),
        Condition(),
        Control(),
        Intent(turn=2),
        Flight(air_move=12),
        FlightIntent(climb_yd=-1),
    )
    events = world.step()
    assert world.get(flier, Position).altitude_yd == 0.0
    assert [e for e in events if isinstance(e, (EnteredHighSpeed, HighSpeedRefused))] == [EnteredHighSpeed(flier, 6)]
    assert world.get(flier, Control).state is MoveState.HIGH_SPEED
    world.get(flier, Intent).throttle = -1  # slowing by up to Basic Move is safe at high speed
    world.step()
    assert world.get(flier, Velocity).yps == 5
    assert world.get(flier, Control).state is MoveState.NORMAL


# --- Flying Combat -------------------------------------------------------------------------------------------


def test_the_preview_refuses_a_stalled_fliers_steering_as_the_step_does(tmp_path: Path) -> None:
    """Cannot Hover: a flier falling since an earlier turn cannot speed up, slow down or turn. Regression: the
    preview used to give its recovery roll and accept the throttle the step then refused."""
    world = gurps()
    flier = world.spawn(
        Position(0, 0, altitude_yd=30.0),
        Facing(0),
        Velocity(0),
        Mover(basic_move=5, dx=12, hp=10),
        Condition(),
        Control(),
        Intent(),
        Flight(air_move=12, mode=FlightMode.CANNOT_HOVER, stalled=True, fall_seconds=1, fall_yd=5.35),
        FlightIntent(),
    )
    world.get(flier, Intent).throttle = 3
    with pytest.raises(IntentError) as by_preview:
        preview(world, flier)
    by_step = refused(world)
    assert (
        str(by_preview.value)
        == str(by_step)
        == (
            f"entity {flier}: Intent.throttle = 3: nothing: a stalled flier falls, and cannot speed up, slow down or "
            "turn until it recovers"
        )
    )


def test_a_flier_that_cannot_hover_pulls_out_of_a_stall_at_high_speed_under_the_house_rules() -> None:
    """House rules: Flying Movement and Combat: a flier that cannot hover is at high speed whenever it flies.
    Regression: pulling out of a stall at 11 yd/s, below its air Move of 13, put it in ordinary movement, which
    every later intent check refused (a world that could never step again)."""
    world = World(seed=5)
    install(world, Rules.house())
    flier = world.spawn(
        Position(0, 0, altitude_yd=30.0),
        Facing(0),
        Velocity(0),
        Mover(basic_move=5, dx=12, hp=10),
        Condition(),
        Control(),
        Intent(),
        Flight(air_move=13, mode=FlightMode.CANNOT_HOVER, stalled=True, fall_seconds=1, fall_yd=5.35),
        FlightIntent(),
    )
    world.dice.script(1, 1, 3)  # 5 against DX-4 = 8: it pulls out
    events = world.step()
    assert [e for e in events if isinstance(e, StallRecovered)] == [StallRecovered(flier, 11, 30.0)]
    assert world.get(flier, Control).state is MoveState.HIGH_SPEED
    world.step()  # and it flies on
    assert world.get(flier, Velocity).yps == 11


# --- Mounted Combat ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("request_", [mount_up, leap_astride], ids=["mount_up", "leap_astride"])
def test_mounting_an_entity_that_is_not_a_mount_is_refused(tmp_path: Path, request_: Callable[..., None]) -> None:
    world = gurps_world()
    rider = spawn_rider(world, at=(0, 1))
    walker = spawn_rider(world, at=(1, 1))
    before = saved_bytes(world, tmp_path)
    with pytest.raises(WorldError, match=rf"^entity {walker} has no Mount: it cannot be ridden$"):
        request_(world, rider, walker)
    assert saved_bytes(world, tmp_path) == before


@pytest.mark.parametrize("action", ["mount", "leap astride"])
def test_a_mount_request_written_by_hand_on_a_non_mount_is_refused_at_the_step(tmp_path: Path, action: str) -> None:
    """Regression: a ``Rider.action`` written past ``mount_up`` was taken as climbing onto anything at all."""
    world = gurps_world()
    spawn_horse(world, at=(5, 5))
    rider = spawn_rider(world, at=(0, 1))
    walker = spawn_rider(world, at=(1, 1))
    link = world.get(rider, Rider)
    link.action, link.action_target, link.action_skill = action, walker, "Riding" if action == "leap astride" else None
    error = refused(world)
    assert str(error) == f"entity {rider}: Rider.action_target = {walker}: a mount (an entity with a Mount) to {action}"


# --- Spelljammer -------------------------------------------------------------------------------------------


FORBIDDEN = [(row.vegetation, mode) for row in VEGETATION for mode in row.forbidden]


@pytest.mark.parametrize(
    ("vegetation", "mode"), FORBIDDEN, ids=[f"{mode.value} in {veg.value} vegetation" for veg, mode in FORBIDDEN]
)
def test_a_speed_mode_the_vegetation_forbids_is_refused(
    tmp_path: Path, vegetation: Vegetation, mode: SpeedMode
) -> None:
    """Restricted Movement: thick vegetation rules out sprinting, and the thickest running too."""
    world = World(seed=2)
    spelljammer.install(world)
    world.spawn(Position(0, 0), VegetationZone(vegetation, radius_hex=2))
    others = [
        world.spawn(Mobility(tmr=9, dex=14), RoundIntent(heading=0), RoundState(), Position(q, 0)) for q in (-1, 0, 1)
    ]
    world.get(others[1], RoundIntent).mode = mode
    error = refused(world)
    assert (error.entity, error.field, error.value) == (others[1], "RoundIntent.mode", mode)
    left = ", ".join(m.value for m in allowed_modes(vegetation))
    assert str(error).endswith(f"{vegetation.value.replace('_', ' ')} vegetation allows only {left}")
    assert mode.value not in left.split(", ")


@pytest.mark.parametrize(
    ("vegetation", "fastest"),
    [(Vegetation.HEAVY, SpeedMode.RUN), (Vegetation.DENSE, SpeedMode.RUN), (Vegetation.VERY_DENSE, SpeedMode.WALK)],
    ids=["run in heavy vegetation", "run in dense vegetation", "walk in very dense vegetation"],
)
def test_the_fastest_mode_the_vegetation_allows_is_taken(vegetation: Vegetation, fastest: SpeedMode) -> None:
    """The boundary row of the same table: the fastest mode left is allowed."""
    world = World(seed=2)
    spelljammer.install(world)
    world.spawn(Position(0, 0), VegetationZone(vegetation, radius_hex=2))
    character = world.spawn(Mobility(tmr=9, dex=14), RoundIntent(mode=fastest, heading=0), RoundState(), Position(0, 0))
    world.step()
    assert world.get(character, RoundState).mode is fastest


def test_a_leap_astride_written_by_hand_without_its_skill_is_named_before_the_turn() -> None:
    """Mounted Combat > Mounting Up: leaping astride takes a skill roll, so the request names the skill."""
    world = gurps()
    horse = runner(world, velocity=0, state=MoveState.NORMAL)
    rider = runner(world, velocity=0, state=MoveState.NORMAL, at=(0, 1))
    world.add(horse, Mount())
    world.add(rider, Rider())
    request = world.get(rider, Rider)
    request.action, request.action_target = "leap astride", horse
    with pytest.raises(RuleValueError, match=rf"entity {rider}: Rider.action_skill = None: expected the skill"):
        world.step()
    assert world.turn == 0

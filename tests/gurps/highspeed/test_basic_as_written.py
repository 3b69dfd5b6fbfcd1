"""High-Speed Movement as the Basic Set writes it: scenarios played through ``World.step`` with scripted dice,
one per rule section whose reading was put right (Basic Set: High-Speed Movement)."""

from __future__ import annotations

import pytest
from support import gurps_world, of_type
from support.highspeed import mover
from support.mounted import mounted_pair, script, spawn_rider, targets

from esper_motion.components import (
    Condition,
    Control,
    Facing,
    Intent,
    Maneuver,
    MoveState,
    Position,
    Posture,
    PostureState,
    Skills,
    Velocity,
)
from esper_motion.components.mount import Mount
from esper_motion.ecs import IntentError, RollMade, World
from esper_motion.ecs.hexgrid import DIRECTIONS
from esper_motion.systems.gurps import Rules, defenses, preview, rules, speed_modifier
from esper_motion.systems.gurps.events import EnteredHighSpeed, LostControl, Turned
from esper_motion.systems.gurps.mounted.common import seat
from esper_motion.systems.gurps.mounted.mounting import leap_astride

HOUSE = Rules.house()
BASIC = Rules.basic()


@pytest.mark.parametrize("chosen", [BASIC, HOUSE], ids=["Basic Set", "house"])
def test_attacking_and_defending_a_rider_is_as_hard_to_hit_as_its_mount(chosen: Rules) -> None:
    """Basic Set: High-Speed Movement > Attacking and Defending. A rider on a horse at 16 yd/s, 10 yards from a
    standing archer: range 10 plus speed 16 is 26, read as the 30-yard row, -7, as against the horse itself
    (the rider's own Velocity of 0 would give the 10-yard row, -4). Under the house rules the target's
    velocity is added to the range the same way (10 + 16 = 26, -7). At high speed the rider may dodge but
    not retreat, like the horse under it."""
    world = gurps_world(chosen)
    horse, rider = mounted_pair(world, velocity=16, state=MoveState.HIGH_SPEED)
    archer = mover(world, at=(0, 12))
    world.step()
    assert speed_modifier(world, archer, horse, 10) == -7
    assert speed_modifier(world, archer, rider, 10) == -7
    assert defenses(world, horse).retreat is False
    assert defenses(world, rider).retreat is False
    assert defenses(world, rider).dodge is True


def _motorcycle(world: World) -> tuple[int, int]:
    """A motorcycle (Basic Move 10, top speed 40, two wheels, Handling +1, DX 10) at 20 yd/s, and its rider, who
    has Driving 14 and no Riding, in the saddle."""
    bike = mover(
        world, velocity=20, basic_move=10, top_speed=40, wheels=2, legs=False, handling=1, dx=10, hp=20,
        state=MoveState.HIGH_SPEED, extra=(Mount(open_vehicle=True),),
    )  # fmt: skip
    rider = spawn_rider(world, at=(0, 1))
    world.get(rider, Skills).levels = {"Driving": 14}
    seat(world, rider, bike)
    return bike, rider


def test_pushing_the_envelope_a_ridden_motorcycle_rolls_its_drivers_driving_plus_handling() -> None:
    """Basic Set: High-Speed Movement > Pushing the Envelope, with Mounted Combat > Cavalry Weapons (the same rules
    from a motorcycle, Driving for Riding). Braking from 20 by 14 is 4 over Basic Move 10: -2. The rider drives:
    Driving 14 + Handling 1 - 2 = 13 (not the bike's DX 10 + 3 - 2 = 11). 13 makes it; the rider then rolls to stay on
    with Driving 14, never Riding (10 makes it)."""
    world = gurps_world(BASIC)
    bike, rider = _motorcycle(world)
    intent = world.get(bike, Intent)
    intent.throttle, intent.push = -14, True
    assert [(roll.purpose, roll.target) for roll in preview(world, bike).rolls] == [("hasty deceleration", 13)]
    script(world, 13, 10)
    events = world.step()
    assert targets(events, "hasty deceleration") == [13]
    assert targets(events, "stay on") == [14]
    assert world.get(rider, Condition).injury == 0


@pytest.mark.parametrize("state", ["unconscious", "stunned"])
def test_maneuvers_during_high_speed_movement_a_motorcycle_whose_rider_is_out_has_nobody_at_the_controls(
    state: str,
) -> None:
    """Basic Set: High-Speed Movement > Maneuvers During High-Speed Movement: a vehicle at speed with nobody at
    the controls loses control. The only rider of a motorcycle at 20 yd/s is unconscious (or stunned): nobody
    drives it, and it loses control as the turn opens, as a driverless car does."""
    world = gurps_world(BASIC)
    bike, rider = _motorcycle(world)
    condition = world.get(rider, Condition)
    if state == "unconscious":
        condition.conscious = False
    else:
        condition.stunned = True
    # what follows the loss, all on 3s: the trip's fall, 8d6; the mount's DX+1, the rider's Driving-2 and its
    # Driving to leap clear, 9 each (Mount Loss of Control Table, row 12); the rider's 2-yard fall, 2d6
    world.dice.script(*([3] * (8 + 3 * 3 + 2)))
    events = world.step()
    assert [(e.entity, e.cause) for e in of_type(events, LostControl)] == [(bike, "nobody at the controls")]


def _runner(world: World, **intent: object) -> int:
    """A runner with Enhanced Move (Basic Move 5, top speed 20) at 13 yd/s: turning radius 13 // 5 = 2."""
    return mover(
        world, velocity=13, top_speed=20, enhanced=True, dx=10, state=MoveState.HIGH_SPEED, intent=Intent(**intent)
    )  # type: ignore[arg-type]


def test_direction_and_turning_radius_a_change_of_facing_after_each_full_radius() -> None:
    """Basic Set: High-Speed Movement > Direction and Turning Radius (the example: velocity 13, Basic Move 5, a
    radius of 2 yards between each change of facing) and Tactical Movement (a 60-degree turn is one hexside). The
    runner changes facing one hexside at yard 2 and again at yard 4, each after a full radius: no roll. 2 yards
    east, 2 along facing 1, then 9 along facing 2."""
    world = gurps_world(BASIC)
    runner = _runner(world, turns=((2, 1), (4, 1)))
    events = world.step()
    assert of_type(events, RollMade) == []
    dq, dr = DIRECTIONS[1]
    assert [(e.from_facing, e.to_facing, e.at, e.after_yd, e.pushed) for e in of_type(events, Turned)] == [
        (0, 1, (2, 0), 2, False),
        (1, 2, (2 + 2 * dq, 2 * dr), 4, False),
    ]
    assert world.get(runner, Facing).direction == 2
    assert world.get(runner, Velocity).heading == 2
    assert world.get(runner, Control).turned_hexsides == 2
    assert world.get(runner, Control).straight_yd == 13 - 4


def test_direction_and_turning_radius_a_second_change_within_the_radius_is_an_early_turn() -> None:
    """Basic Set: High-Speed Movement > Direction and Turning Radius; Pushing the Envelope. A second change one
    yard after the first (yard 3, the radius is 2) is early: without push it is refused; with push it rolls
    DX 10 + 3 - 1 (velocity 13 is one full Basic Move over Basic Move 5) = 12. A 13 fails: control is lost at yard
    3, and the change is not made (Basic Set)."""
    world = gurps_world(BASIC)
    runner = _runner(world, turns=((2, 1), (3, 1)))
    with pytest.raises(IntentError, match=r"turns\[1\]"):
        world.step()
    world.get(runner, Intent).push = True
    script(world, 13)
    events = world.step()
    assert targets(events, "early turn") == [12]
    assert [(e.from_facing, e.to_facing, e.after_yd) for e in of_type(events, Turned)] == [(0, 1, 2)]
    assert [(e.cause, e.after_yd) for e in of_type(events, LostControl)] == [("failed roll", 3)]


def test_cavalry_weapons_a_driver_leaps_astride_a_motorcycle_with_driving() -> None:
    """Basic Set: Mounted Combat > Cavalry Weapons (the same rules from a motorcycle, Driving for Riding) and
    Mounting Up: leaping astride with "Riding" on a motorcycle (stirrups: no penalty) rolls Driving 14; 14 makes
    it, and the rider sits on the bike."""
    world = gurps_world(BASIC)
    bike = mover(
        world, basic_move=10, top_speed=40, wheels=2, legs=False, handling=1, extra=(Mount(open_vehicle=True),)
    )
    rider = spawn_rider(world, at=(0, 1))
    world.get(rider, Skills).levels = {"Driving": 14}
    leap_astride(world, rider, bike)
    script(world, 14)
    events = world.step()
    assert targets(events, "leap astride") == [14]
    assert world.get(bike, Mount).riders == [rider]


def test_house_high_speed_movement_a_failed_early_change_in_a_sequence_turns_the_facing_only() -> None:
    """House rules: High Speed Movement (a turn before the radius rolls DX+3 minus the radius; on a failure the
    facing changes, not the direction of movement, and control is lost), with several changes in one second. At
    13 yd/s and Encumbered Move 5 the house radius is 13 / 5 rounded up, 3. The change at yard 3 comes after the
    full radius (no roll); the one at yard 4 is early: DX 10 + 3 - 3 = 10, and 11 fails. The facing turns there
    to 2, but the heading stays 1, and control is lost there (on foot: a trip)."""
    world = gurps_world(HOUSE)
    runner = _runner(world, turns=((3, 1), (4, 1)), push=True)
    script(world, 11)
    events = world.step()
    assert targets(events, "early turn") == [10]
    assert [(e.from_facing, e.to_facing, e.after_yd) for e in of_type(events, Turned)] == [(0, 1, 3), (1, 2, 4)]
    assert [(e.cause, e.mode, e.after_yd) for e in of_type(events, LostControl)] == [("failed roll", "trip", 4)]
    assert (world.get(runner, Facing).direction, world.get(runner, Velocity).heading) == (2, 1)


def test_ordinary_movement_a_standing_start_moves_its_move_at_once() -> None:
    """Basic Set: High-Speed Movement (at Basic Move or less the ordinary movement rules apply) and the Move
    maneuver: a runner at rest with Move 5 and a throttle of 5 goes 0 + 5 = 5 yards this very turn, not 0 this turn
    and 5 the next; its velocity is those 5 yards, below high speed. The next turn, with no throttle, it keeps that
    pace: 5 more yards, 10 from the start."""
    world = gurps_world(BASIC)
    runner = mover(world, intent=Intent(throttle=5))
    world.step()
    assert world.get(runner, Position).hex == (5, 0)
    assert world.get(runner, Velocity).yps == 5
    assert world.get(runner, Control).state is MoveState.NORMAL
    world.step()
    assert world.get(runner, Position).hex == (10, 0)


def test_ordinary_movement_the_throttle_sets_this_turns_yards_and_may_stop() -> None:
    """Ordinary movement: a mover goes any number of yards up to its Move whatever it did last turn, and may stop.
    Running at 5, a throttle of -3 goes 5 - 3 = 2 yards this turn; then -2 stops it where it is (2 - 2 = 0)."""
    world = gurps_world(BASIC)
    runner = mover(world, velocity=5, intent=Intent(throttle=-3))
    world.step()
    assert world.get(runner, Position).hex == (2, 0)
    world.get(runner, Intent).throttle = -2
    world.step()
    assert world.get(runner, Position).hex == (2, 0)
    assert world.get(runner, Velocity).yps == 0


def test_high_speed_movement_a_standing_start_enters_high_speed_at_the_end_of_its_first_full_move() -> None:
    """Basic Set: High-Speed Movement: one may switch to high speed at the end of a turn in which one moved one's
    full Move on a Move maneuver, standing, and start the next turn up to 20% faster (at least +1). From rest, Move
    5, a throttle of 6 asks for 0 + 6 = 6: the first turn goes the full Move of 5 at once and ends at high speed with
    6 (the most the first turn at speed may start with, 5 x 1.2 = 6); the second turn goes 6 yards, 11 in all."""
    world = gurps_world(BASIC)
    runner = mover(world, intent=Intent(throttle=6))
    events = world.step()
    assert world.get(runner, Position).hex == (5, 0)
    assert [event.velocity_yps for event in of_type(events, EnteredHighSpeed)] == [6]
    assert world.get(runner, Control).state is MoveState.HIGH_SPEED
    assert world.get(runner, Velocity).yps == 6
    world.step()
    assert world.get(runner, Position).hex == (11, 0)


def test_high_speed_movement_a_step_does_not_switch_to_high_speed() -> None:
    """Basic Set: High-Speed Movement: the switch needs a turn on Move or Move and Attack that went the full Move.
    Running at 5, an Attack maneuver allows only a step (1 yard), so a throttle asking for 6 is refused by name."""
    world = gurps_world(BASIC)
    mover(world, velocity=5, intent=Intent(maneuver=Maneuver.ATTACK, throttle=1))
    with pytest.raises(IntentError, match=r"a Move or Move and Attack maneuver, moving the full Move of 5 yd"):
        world.step()


@pytest.mark.parametrize(
    ("maneuver", "yards"),
    [(maneuver, rules.ordinary_move_yd(maneuver, 5, 5)) for maneuver in rules.ORDINARY_MOVEMENT],
    ids=[maneuver.value for maneuver in rules.ORDINARY_MOVEMENT],
)
def test_ordinary_movement_each_maneuver_moves_what_it_allows(maneuver: Maneuver, yards: int) -> None:
    """Ordinary movement by maneuver (the maneuvers the Basic Set lists): a runner at 5 yd/s, Move 5, with no
    throttle goes 5 yards on Move or Move and Attack, 5 // 2 = 2 on All-Out Attack, none on Change Posture or Do
    Nothing, and a step of 1 yard on any other; its velocity is then what it went."""
    world = gurps_world(BASIC)
    runner = mover(world, velocity=5, intent=Intent(maneuver=maneuver))
    if maneuver is Maneuver.CHANGE_POSTURE:
        world.get(runner, Posture).target = PostureState.KNEELING
    world.step()
    assert world.get(runner, Position).hex == (yards, 0)
    assert world.get(runner, Velocity).yps == yards


def test_ordinary_movement_the_preview_follows_this_turns_yards() -> None:
    """The forecast walks the yards the step will: from rest with a throttle of 4, 0 + 4 = 4 hexes this turn."""
    world = gurps_world(BASIC)
    runner = mover(world, intent=Intent(throttle=4))
    assert preview(world, runner).path == ((1, 0), (2, 0), (3, 0), (4, 0))
    world.step()
    assert world.get(runner, Control).path == [(1, 0), (2, 0), (3, 0), (4, 0)]

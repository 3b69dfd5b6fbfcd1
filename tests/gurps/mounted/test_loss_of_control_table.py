"""The Mount Loss of Control Table in play, row by row, with scripted dice (Basic Set: Mounted Combat > Mount
Loss of Control Table). A noisy shot that critically fails its Riding roll is the total loss of control that
sends the mount to the table; the table's 2d follow."""

from __future__ import annotations

import pytest
from support import gurps_world, of_type
from support.mounted import faces, lose_control, mounted_pair, rolls, script, set_maneuver, spawn_rider, targets

from esper_motion.components import Condition, Control, Facing, Intent, Maneuver, MoveState, Position, Posture, Skills
from esper_motion.components.gurps import PostureState
from esper_motion.components.motion import Velocity
from esper_motion.components.mount import Mount, Rider
from esper_motion.ecs import IntentError
from esper_motion.systems.gurps.events import (
    CrushedByMount,
    FallDamage,
    FellOff,
    ItemDropped,
    MountCalledBack,
    MountCharges,
    MountFell,
    MountLossOfControl,
    VelocityChanged,
)
from esper_motion.systems.gurps.mounted.cavalry import mounted_attack
from esper_motion.systems.gurps.mounted.mount_control import apply_loss_row, end_engagement, rest
from esper_motion.systems.gurps.mounted.mounted_results import fire_noisy_shot, mount_attack
from esper_motion.systems.gurps.mounted.mounting import leap_astride, mount_up


@pytest.mark.parametrize(
    ("table", "kind"),
    [
        (2, "thrown"),
        (3, "lost_grip"),
        (4, "dropped_item"),
        (5, "charges_toward"),
        (6, "exhausted"),
        (7, "exhausted"),
        (8, "fractious"),
        (9, "fractious"),
        (10, "charges_away"),
        (11, "saddle_loose"),
        (12, "mount_falls"),
    ],
    ids=[f"2d {n} -> {k}" for n, k in [(2, "thrown"), (3, "lost grip"), (4, "dropped item"), (5, "charges toward"),
         (6, "exhausted"), (7, "exhausted"), (8, "fractious"), (9, "fractious"), (10, "charges away"),
         (11, "saddle loose"), (12, "mount falls")]],
)  # fmt: skip
def test_every_row_of_the_table_is_reported_with_its_roll(table: int, kind: str) -> None:
    world = gurps_world(seed=3)
    horse, rider = mounted_pair(world)
    events = lose_control(world, rider, table)
    assert of_type(events, MountLossOfControl)[0] == MountLossOfControl(horse, rider, table, kind)


def test_row_2_thrown_three_yards_then_calls_the_mount_back() -> None:
    world = gurps_world()
    horse, rider = mounted_pair(world)
    events = lose_control(world, rider, 2, 2, 2, *faces(9))  # 2d fall damage, Animal Handling-3 (9) made
    [fell] = of_type(events, FellOff)
    assert (fell.cause, fell.fall_yd) == ("thrown", 3)
    assert of_type(events, FallDamage)[0].rolled == 4
    assert targets(events, "call the mount back") == [9]
    assert of_type(events, MountCalledBack) == [MountCalledBack(horse, rider, True)]
    assert not world.get(horse, Mount).loose
    assert world.get(rider, Posture).state is PostureState.PRONE
    assert world.dice.scripted == 0


def test_row_2_a_failed_call_is_tried_again_every_five_minutes() -> None:
    world = gurps_world()
    horse, rider = mounted_pair(world)
    lose_control(world, rider, 2, 2, 2, *faces(10))
    mount = world.get(horse, Mount)
    assert (mount.loose, mount.call_back_by, mount.call_back_in) == (True, rider, 300)
    with pytest.raises(IntentError, match="run loose"):
        mount_up(world, rider, horse)
    events = world.step(299)
    assert not of_type(events, MountCalledBack)
    script(world, 9)
    assert of_type(world.step(), MountCalledBack) == [MountCalledBack(horse, rider, True)]
    assert not mount.loose


def test_row_2_without_animal_handling_the_mount_stays_loose() -> None:
    world = gurps_world()
    horse, rider = mounted_pair(world)
    world.get(rider, Skills).levels.pop("Animal Handling")
    events = lose_control(world, rider, 2, 2, 2)
    assert not of_type(events, MountCalledBack)
    assert world.get(horse, Mount).loose
    assert world.get(horse, Mount).call_back_by is None


def test_row_2_an_unconscious_rider_calls_only_later() -> None:
    """Row 2: a thrown rider who does not stay conscious calls the mount back only later. The 3-yard fall is 8 yd/s,
    the rider's 10 HP doubled: 20 x 8 / 100 = 1.6, 2d, scripted 6 + 6 = 12 injury, more than half of 10 HP: a major
    wound; HT 10 rolls 18, a critical failure: unconscious (Basic Set: Injury, as in docs/architecture.md)."""
    world = gurps_world()
    horse, rider = mounted_pair(world)
    events = lose_control(world, rider, 2, 6, 6, *faces(18))
    assert not world.get(rider, Condition).conscious
    assert not of_type(events, MountCalledBack)
    assert world.get(horse, Mount).call_back_in == 300


@pytest.mark.parametrize(("jump", "hurt"), [(11, False), (12, True)], ids=["Jumping 11 made", "Jumping failed"])
def test_row_3_lost_grip_two_yards_negated_by_jumping(jump: int, hurt: bool) -> None:
    world = gurps_world()
    _, rider = mounted_pair(world)
    then = [*faces(jump), 1, 1] if hurt else [*faces(jump)]
    events = lose_control(world, rider, 3, *then, *faces(9))
    [fell] = of_type(events, FellOff)
    assert (fell.cause, fell.fall_yd) == ("lost grip", 2)
    assert targets(events, "land safely") == [11]
    assert [damage.damage for damage in of_type(events, FallDamage)] == (["2d"] if hurt else [])
    assert of_type(events, MountCalledBack)


def test_row_4_drop_what_is_held_and_roll_again() -> None:
    world = gurps_world()
    horse, rider = mounted_pair(world)
    events = lose_control(world, rider, 4, 4, 4)
    assert of_type(events, ItemDropped) == [ItemDropped(rider, "the mount is out of control")]
    assert of_type(events, MountLossOfControl) == [
        MountLossOfControl(horse, rider, 4, "dropped_item"),
        MountLossOfControl(horse, rider, 8, "fractious"),
    ]


@pytest.mark.parametrize(
    ("table", "facing"), [(5, 1), (10, 4)], ids=["5: charges toward the foe", "10: charges away from it"]
)
def test_rows_5_and_10_the_mount_charges(table: int, facing: int) -> None:
    """The charging mount speeds up to its full Move of 8 and, in ordinary movement, goes those 8 yards the turn it
    charges (before, the standing start cost it that turn); the next turn it keeps the pace, 16 yards in all."""
    world = gurps_world()
    horse, rider = mounted_pair(world)
    foe = world.spawn(Position(0, 6))
    world.get(horse, Mount).threat = foe
    events = lose_control(world, rider, table)
    direction = "toward" if table == 5 else "away"
    assert of_type(events, MountCharges) == [MountCharges(horse, direction, foe, facing)]
    assert world.get(horse, Facing).direction == facing
    set_maneuver(world, horse, Maneuver.ALL_OUT_DEFENSE)
    events = world.step()
    assert of_type(events, VelocityChanged) == [VelocityChanged(horse, 0, 8, 8, 0)]
    assert world.get(horse, Mount).charging is None
    assert world.get(horse, Position).hex == ((0, 8) if table == 5 else (0, -8))
    assert of_type(world.step(), VelocityChanged) == []
    assert world.get(horse, Position).hex == ((0, 16) if table == 5 else (0, -16))


@pytest.mark.parametrize("table", [6, 7], ids=["6: exhausted", "7: exhausted"])
def test_rows_6_and_7_the_mount_is_exhausted(table: int) -> None:
    world = gurps_world()
    horse, rider = mounted_pair(world)
    lose_control(world, rider, table)
    assert world.get(horse, Mount).exhausted
    set_maneuver(world, horse, Maneuver.ATTACK)
    with pytest.raises(IntentError, match="will not fight until it has rested"):
        mount_attack(world, horse, "kick")
    set_maneuver(world, horse, Maneuver.ATTACK)
    with pytest.raises(IntentError, match="an exhausted mount will not fight"):
        world.step()
    set_maneuver(world, horse, Maneuver.MOVE)
    world.get(horse, Intent).throttle = 3
    with pytest.raises(IntentError, match="no faster than 2 yd/s"):
        world.step()
    world.get(horse, Intent).throttle = 2
    world.step()
    assert world.get(horse, Velocity).yps == 2
    rest(world, horse)
    assert not world.get(horse, Mount).exhausted


def test_an_exhausted_mount_at_high_speed_slows_itself_to_a_walk() -> None:
    world = gurps_world()
    horse, _ = mounted_pair(world, velocity=14, state=MoveState.HIGH_SPEED, exhausted=True)
    world.get(horse, Intent).throttle = 2
    world.step()
    assert world.get(horse, Velocity).yps == 6
    world.step()
    assert world.get(horse, Velocity).yps == 2
    assert world.get(horse, Mount).exhausted


@pytest.mark.parametrize("table", [8, 9], ids=["8: fractious", "9: fractious"])
def test_rows_8_and_9_fractious_is_cumulative(table: int) -> None:
    world = gurps_world()
    horse, rider = mounted_pair(world)
    lose_control(world, rider, table)
    lose_control(world, rider, table)
    assert world.get(horse, Mount).fractious == -2
    fire_noisy_shot(world, rider)
    script(world, 3)
    assert targets(world.step(), "noisy shot") == [10]
    end_engagement(world, horse)
    assert world.get(horse, Mount).fractious == 0


def test_row_11_the_saddle_comes_loose() -> None:
    world = gurps_world()
    horse, rider = mounted_pair(world)
    lose_control(world, rider, 11)
    assert world.get(horse, Mount).saddle_loose
    assert dict(mounted_attack(world, rider, 14).modifiers)["loose saddle"] == -3
    fire_noisy_shot(world, rider)
    script(world, 3)
    assert targets(world.step(), "noisy shot") == [9]


def test_row_11_without_a_saddle_reads_as_row_3() -> None:
    world = gurps_world()
    horse, rider = mounted_pair(world, saddle=False)
    events = lose_control(world, rider, 11, *faces(11), *faces(9))
    assert of_type(events, MountLossOfControl) == [MountLossOfControl(horse, rider, 11, "lost_grip")]
    assert of_type(events, FellOff)[0].fall_yd == 2
    assert not world.get(horse, Mount).saddle_loose


def test_row_12_unseated_riders_fall_three_yards() -> None:
    world = gurps_world()
    horse, rider = mounted_pair(world)
    events = lose_control(world, rider, 12, *faces(11), *faces(11), 3, 3)
    assert targets(events, "keeps its legs") == [11]
    assert targets(events, "stay seated") == [10]
    assert of_type(events, MountFell) == [MountFell(horse, False)]
    [fell] = of_type(events, FellOff)
    assert (fell.cause, fell.fall_yd) == ("unseated by the falling mount", 3)
    assert world.get(horse, Posture).state is PostureState.PRONE


def test_row_12_the_mount_falls_on_a_rider_who_cannot_leap_clear() -> None:
    """Riding-2 made, then Riding at minus encumbrance failed: thrust crushing for ST 25 (2d+2) and a 2-yard
    fall."""
    world = gurps_world()
    horse, rider = mounted_pair(world)
    events = lose_control(world, rider, 12, *faces(12), *faces(10), *faces(13), 1, 1, 3, 4)
    assert of_type(events, MountFell) == [MountFell(horse, True)]
    assert targets(events, "leap clear") == [12]
    assert of_type(events, FellOff)[0].cause == "crushed under the falling mount"
    assert of_type(events, FallDamage)[0].rolled == 2
    assert of_type(events, CrushedByMount) == [CrushedByMount(rider, horse, "2d+2", 9, 9)]
    assert world.get(rider, Condition).injury == 11
    assert world.dice.scripted == 0


def test_row_12_every_rider_rolls_and_leaping_clear_is_at_minus_encumbrance() -> None:
    world = gurps_world()
    horse, controller = mounted_pair(world, riding=13)
    passenger = spawn_rider(world, at=(0, -1), st=9, encumbrance=2)
    leap_astride(world, passenger, horse)
    script(world, 3)
    world.step()
    # In seat order, all still seated: the controller stays on at 13 - 1 (passenger) - 2 = 10 and leaps clear
    # at 13 - 1 = 12; the passenger stays on at min(13, ST 9) - 3 - 2 = 4 and leaps clear at its own Riding 12
    # minus encumbrance 2 = 10. Both land with Jumping 11.
    events = lose_control(
        world, controller, 12, *faces(11), *faces(10), *faces(12), *faces(4), *faces(10), *faces(3), *faces(3)
    )
    assert targets(events, "stay seated") == [10, 4]
    assert targets(events, "leap clear") == [12, 10]
    assert world.get(horse, Mount).riders == []
    assert [event.rider for event in of_type(events, FellOff)] == [controller, passenger]
    assert not of_type(events, FallDamage)
    assert world.dice.scripted == 0


def test_a_rider_at_minus_2_on_the_turn_after_its_mount_attacked() -> None:
    """Basic Set: Mounted Combat > Attacks by Mounts."""
    world = gurps_world()
    horse, rider = mounted_pair(world)
    set_maneuver(world, horse, Maneuver.MOVE_AND_ATTACK)
    mount_attack(world, horse, "trample")
    world.step()
    assert dict(mounted_attack(world, rider, 14).modifiers)["the mount attacked last turn"] == -2
    world.step()
    assert "the mount attacked last turn" not in dict(mounted_attack(world, rider, 14).modifiers)


def test_no_unseating_row_harms_a_riderless_mount() -> None:
    world = gurps_world()
    horse, rider = mounted_pair(world)
    world.get(horse, Mount).riders.clear()
    world.get(rider, Rider).mount = None
    world.get(rider, Control).carried_by = None  # all three sides of the link, or the step names the one left
    apply_loss_row(world, horse, 2)
    assert not world.get(horse, Mount).loose
    assert not rolls(world.step(), "")

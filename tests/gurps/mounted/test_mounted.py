"""Mounted Combat under the Basic Set: scenario tests that build a world with no window, script the dice, step
it, and check events and state. Rule by rule (Basic Set: Mounted Combat). The builders are those of
``support.mounted``, shared with the other Mounted Combat test modules."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from support import gurps_world, of_type
from support.mounted import mounted_pair, rolls, script, set_maneuver, spawn_horse, spawn_rider, targets

from esper_motion.components import (
    Condition,
    Control,
    Facing,
    Intent,
    Maneuver,
    Mover,
    MoveState,
    Position,
    Posture,
    Skills,
)
from esper_motion.components.gurps import PostureState
from esper_motion.components.mount import Mount, Nerve, Rider
from esper_motion.ecs import Event, IntentError, RuleValueError, SaveError, World, WorldError
from esper_motion.systems.gurps import Rules, movement_limits
from esper_motion.systems.gurps.events import (
    ClimbedOn,
    Dismounted,
    EnteredHighSpeed,
    FallDamage,
    FeatRefused,
    FellOff,
    ItemDropped,
    MountAttacked,
    MountCalmed,
    Mounted,
    MountingAbandoned,
    MountingFailed,
    MountLossOfControl,
    MountSpooked,
    PanicChecked,
    SaddleTightening,
    WeaponSheathed,
)
from esper_motion.systems.gurps.mounted.common import body_hexes, seat, seat_hex
from esper_motion.systems.gurps.mounted.mount_orders import attempt_feat
from esper_motion.systems.gurps.mounted.mounted_results import (
    charge,
    fire_noisy_shot,
    mount_attack,
    mount_crippled,
    mount_hit,
    note_mount_dx_roll,
    rider_knocked_back,
    rider_stunned,
)
from esper_motion.systems.gurps.mounted.mounting import (
    dismount,
    jump_off,
    leap_astride,
    mount_up,
    sheathe,
    tighten_saddle,
)
from esper_motion.systems.gurps.mounted.spooking import spook

# --- Builders ---------------------------------------------------------------------------------------------


# --- Links ------------------------------------------------------------------------------------------------


def test_a_mount_despawned_under_its_rider_unseats_it_with_a_fall() -> None:
    """Links are checked every turn: a vanished mount is a fall (3 yards), never a crash."""
    world = gurps_world()
    horse, rider = mounted_pair(world)
    where = world.get(rider, Position).hex
    world.despawn(horse)
    world.dice.script(3, 4)  # 2d for a 3-yard fall at HP 11
    events = world.step()
    [fell] = of_type(events, FellOff)
    assert (fell.rider, fell.mount, fell.cause, fell.fall_yd, fell.at) == (rider, horse, "the mount is gone", 3, where)
    [damage] = of_type(events, FallDamage)
    assert (damage.damage, damage.rolled) == ("2d", 7)
    assert world.get(rider, Condition).injury == 7
    assert world.get(rider, Rider).mount is None
    assert world.get(rider, Control).carried_by is None
    assert world.get(rider, Posture).state is PostureState.PRONE
    assert world.dice.scripted == 0


def test_a_rider_cannot_ride_itself() -> None:
    world = gurps_world()
    centaur = spawn_horse(world)
    world.add(centaur, Rider())
    world.add(centaur, Skills({"Riding": 12}))
    with pytest.raises(WorldError, match=r"cannot ride entity \d+: the riding chain (\d+) -> \1 loops back"):
        mount_up(world, centaur, centaur)


def test_a_chain_of_riders_back_to_itself_is_refused() -> None:
    world = gurps_world()
    below = spawn_horse(world)
    above = spawn_horse(world, at=(0, 2))
    world.add(above, Rider())
    world.add(above, Skills({"Riding": 12}))
    world.add(below, Rider())
    world.add(below, Skills({"Riding": 12}))
    seat(world, above, below)
    with pytest.raises(WorldError, match=rf"the riding chain {below} -> {above} -> {below} loops back"):
        mount_up(world, below, above)


def test_a_loop_written_by_hand_fails_the_step_and_leaves_the_world_as_it_was() -> None:
    world = gurps_world()
    first, second = spawn_horse(world), spawn_horse(world, at=(4, 0))
    for one in (first, second):
        world.add(one, Rider())
        world.add(one, Skills({"Riding": 12}))
    for one, other in ((first, second), (second, first)):  # fields written between steps: checked by the step
        world.get(one, Rider).mount = world.get(one, Control).carried_by = other
        world.get(other, Mount).riders.append(one)
    with pytest.raises(WorldError, match="loops back"):
        world.step()
    assert world.turn == 0
    assert world.get(first, Rider).mount == second


def test_a_link_one_side_does_not_share_is_a_clear_error() -> None:
    world = gurps_world()
    horse = spawn_horse(world)
    rider = spawn_rider(world)
    world.get(rider, Rider).mount = world.get(rider, Control).carried_by = horse  # written by hand between steps
    with pytest.raises(
        WorldError, match=rf"entity {rider}: Rider.mount = {horse}: Mount.riders of entity {horse} is \[\]"
    ):
        world.step()  # named before the turn starts


def test_a_mount_forgets_a_rider_that_was_despawned() -> None:
    """Even a mount asked for a risky feat, whose rider would have had to roll, goes on without a crash."""
    world = gurps_world()
    horse, rider = mounted_pair(world, training="well-broken")
    attempt_feat(world, horse, "jump")
    world.despawn(rider)
    assert not rolls(world.step(), "")
    assert world.get(horse, Mount).riders == []


def test_a_mount_despawned_under_its_rider_under_the_house_rules_too() -> None:
    world = gurps_world(Rules.house())
    horse, rider = mounted_pair(world)
    world.despawn(horse)
    world.dice.script(1, 1)
    assert of_type(world.step(), FellOff)[0].rider == rider


# --- Mounting up and getting off -------------------------------------------------------------------------


def test_mounting_up_takes_a_move_then_a_change_posture() -> None:
    """Basic Set: Mounted Combat > Mounting Up: climb up with a Move, sit with a Change Posture."""
    world = gurps_world()
    horse, rider = spawn_horse(world), spawn_rider(world)
    mount_up(world, rider, horse)
    assert world.get(rider, Intent).maneuver is Maneuver.MOVE
    events = world.step()
    assert of_type(events, ClimbedOn) == [ClimbedOn(rider, horse)]
    assert world.get(rider, Rider).mount is None
    mount_up(world, rider, horse)
    assert world.get(rider, Intent).maneuver is Maneuver.CHANGE_POSTURE
    events = world.step()
    assert of_type(events, Mounted) == [Mounted(rider, horse, "climbed on")]
    assert world.get(rider, Rider).mount == horse
    assert world.get(horse, Mount).riders == [rider]
    assert world.get(rider, Control).carried_by == horse
    assert world.get(rider, Posture).state is PostureState.SITTING
    assert not rolls(events, "")


def test_mounting_up_abandoned_when_the_change_posture_does_not_follow() -> None:
    world = gurps_world()
    horse, rider = spawn_horse(world), spawn_rider(world)
    mount_up(world, rider, horse)
    world.step()
    events = world.step()
    assert of_type(events, MountingAbandoned) == [MountingAbandoned(rider, horse)]
    assert world.get(rider, Rider).climbing_onto is None
    assert world.get(rider, Rider).mount is None


def test_mounting_up_in_armor_takes_as_many_changes_of_posture_as_the_armor_asks() -> None:
    """Optional rule Changing Posture in Armor: at Medium encumbrance the seating takes two seconds."""
    world = gurps_world(Rules(posture_in_armor=True))
    horse, rider = spawn_horse(world), spawn_rider(world, encumbrance=2)
    mount_up(world, rider, horse)
    world.step()
    mount_up(world, rider, horse)
    assert not of_type(world.step(), Mounted)
    mount_up(world, rider, horse)
    assert of_type(world.step(), Mounted) == [Mounted(rider, horse, "climbed on")]


@pytest.mark.parametrize(
    ("stirrups", "skill", "level", "roll", "seated"),
    [
        (False, "Riding", 12, 9, True),
        (False, "Riding", 12, 10, False),
        (True, "Riding", 12, 12, True),
        (True, "Acrobatics", 10, 11, False),
        (False, "Jumping", 11, 8, True),
    ],
    ids=[
        "no stirrups, Riding 12 at -3, rolls 9 -> astride",
        "no stirrups, Riding 12 at -3, rolls 10 -> falls",
        "stirrups, no penalty, rolls 12 -> astride",
        "stirrups, Acrobatics 10, rolls 11 -> falls",
        "no stirrups, Jumping 11 at -3, rolls 8 -> astride",
    ],
)
def test_leaping_astride_in_one_turn(stirrups: bool, skill: str, level: int, roll: int, seated: bool) -> None:
    """Basic Set: Mounted Combat > Mounting Up: Riding, Acrobatics or Jumping at -3, no penalty with stirrups;
    any failure is a fall."""
    world = gurps_world()
    horse, rider = spawn_horse(world, stirrups=stirrups), spawn_rider(world)
    leap_astride(world, rider, horse, skill)
    script(world, roll)
    events = world.step()
    [made] = rolls(events, "leap astride")
    assert made.result.target == level + (0 if stirrups else -3)
    assert (world.get(rider, Rider).mount == horse) is seated
    if seated:
        assert of_type(events, Mounted) == [Mounted(rider, horse, "leapt astride")]
    else:
        assert of_type(events, MountingFailed) == [MountingFailed(rider, horse, (0, 1))]
        assert world.get(rider, Posture).state is PostureState.PRONE
        assert not of_type(events, FallDamage)


def test_mounting_needs_to_stand_next_to_the_mount() -> None:
    world = gurps_world()
    horse, rider = spawn_horse(world), spawn_rider(world, at=(5, 5))
    with pytest.raises(IntentError, match="must stand next to the mount"):
        mount_up(world, rider, horse)


def test_a_rider_without_riding_skill_is_refused_clearly() -> None:
    world = gurps_world()
    horse = spawn_horse(world)
    rider = world.spawn(Position(0, 1), Rider())
    with pytest.raises(WorldError, match=r"no Riding skill: set Skills.levels\['Riding'\]"):
        mount_up(world, rider, horse)


def test_dismounting_from_a_stationary_mount_with_change_posture() -> None:
    """Basic Set: Mounted Combat > Movement and Maneuvers: Change Posture gets off a mount that has not moved."""
    world = gurps_world()
    horse, rider = mounted_pair(world)
    dismount(world, rider)
    events = world.step()
    assert of_type(events, Dismounted) == [Dismounted(rider, horse, "stepped down", (-2, 1))]
    assert world.get(rider, Rider).mount is None
    assert world.get(horse, Mount).riders == []
    assert world.get(rider, Position).hex == (-2, 1)
    assert world.get(rider, Posture).state is PostureState.STANDING
    assert world.get(rider, Control).carried_by is None


def test_dismounting_with_change_posture_is_refused_from_a_moving_mount() -> None:
    world = gurps_world()
    _, rider = mounted_pair(world, velocity=5)
    with pytest.raises(IntentError, match="the mount moves 5 yd/s; jump off instead"):
        dismount(world, rider)


def test_jumping_off_a_moving_mount() -> None:
    """Basic Set: Mounted Combat > Movement and Maneuvers: a Move and a Jumping roll; the rider lands standing."""
    world = gurps_world()
    horse, rider = mounted_pair(world, velocity=5)
    jump_off(world, rider, "Jumping")
    assert world.get(rider, Intent).maneuver is Maneuver.MOVE
    script(world, 11)
    events = world.step()
    assert world.get(horse, Position).hex == (5, 0)
    assert of_type(events, Dismounted) == [Dismounted(rider, horse, "jumped off", (3, 1))]
    assert world.get(rider, Posture).state is PostureState.STANDING
    assert not of_type(events, FallDamage)


def test_a_failed_jump_off_is_a_fall() -> None:
    world = gurps_world()
    horse, rider = mounted_pair(world, velocity=5)
    jump_off(world, rider, "Acrobatics", attack=True)
    assert world.get(rider, Intent).maneuver is Maneuver.MOVE_AND_ATTACK
    script(world, 11)
    world.dice.script(2, 2)
    events = world.step()
    [fell] = of_type(events, FellOff)
    assert (fell.cause, fell.fall_yd) == ("failed to jump off", 3)
    assert of_type(events, FallDamage)[0].rolled == 4
    assert world.get(rider, Condition).injury == 4
    assert world.get(horse, Mount).riders == []


# --- Placement and movement ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hexes", "facing", "seat_at"),
    [(3, 0, (-1, 0)), (3, 1, (0, -1)), (2, 0, (0, 0)), (2, 3, (0, 0))],
    ids=["3-hex mount facing east -> centre", "3-hex facing north-east -> centre", "2-hex -> front", "2-hex west"],
)
def test_the_rider_sits_in_the_centre_of_a_3_hex_mount_and_the_front_of_a_2_hex_mount(
    hexes: int, facing: int, seat_at: tuple[int, int]
) -> None:
    """Basic Set: Mounted Combat > Mounting Up."""
    assert seat_hex((0, 0), facing, hexes) == seat_at
    assert len(body_hexes((0, 0), facing, hexes)) == hexes


def test_the_rider_moves_with_its_mount() -> None:
    world = gurps_world()
    horse, rider = mounted_pair(world, velocity=5)
    world.step()
    assert world.get(horse, Position).hex == (5, 0)
    assert world.get(rider, Position).hex == (4, 0)
    assert world.get(rider, Control).moved_yd == 0


def test_a_mount_walks_on_its_basic_move_and_gallops_on_its_enhanced_move() -> None:
    """Basic Set: Mounted Combat > Movement and Maneuvers: Basic Move for a walk or trot, Enhanced Move for a
    gallop under the high-speed rules (entering at up to twice Basic Move), the rider carried along."""
    world = gurps_world()
    horse, rider = mounted_pair(world, velocity=8)
    world.get(horse, Intent).throttle = 8
    events = world.step()
    assert of_type(events, EnteredHighSpeed) == [EnteredHighSpeed(horse, 16)]
    world.step()
    assert world.get(horse, Position).hex == (24, 0)
    assert world.get(rider, Position).hex == (23, 0)


@pytest.mark.parametrize(
    ("encumbered", "top"), [(False, 16), (True, 9)], ids=["house: the gallop as rated", "the gallop reduced"]
)
def test_house_high_speed_movement_top_speed_from_the_gallop_as_rated(encumbered: bool, top: int) -> None:
    """House rules: High Speed Movement: the top speed is the better of Encumbered Move + 20% and the Enhanced Move.
    A horse of Basic Move 8 with a gallop of 16 at Medium encumbrance: Encumbered Move 8 x 0.6 = 4 (+20%: 5), and
    the gallop counts as rated, 16. With ``Rules.house_top_speed_encumbered`` on, the gallop is reduced as the
    Basic Set reduces it, 16 x 0.6 = 9, and the top speed is 9."""
    world = gurps_world(dataclasses.replace(Rules.house(), house_top_speed_encumbered=encumbered))
    horse = spawn_horse(world, velocity=4)
    world.get(horse, Mover).encumbrance = 2
    assert (movement_limits(world, horse).move, movement_limits(world, horse).top_speed) == (4, top)


def test_an_encumbered_mount_moves_slower() -> None:
    """Encumbrance applies to a mount as to anyone: Medium encumbrance, Basic Move 8 -> Move 4, and its gallop of 16
    is reduced alike, to 9. From rest a throttle of 10 is refused: past Move it asks for high speed, whose first turn
    starts at no more than that top speed of 9. A throttle of 4 goes the 4 yards at once (ordinary movement; before,
    the standing start cost a turn and a throttle of 5 was refused for not having moved the Move)."""
    world = gurps_world()
    horse, _ = mounted_pair(world)
    world.get(horse, Mover).encumbrance = 2
    world.get(horse, Intent).throttle = 10
    with pytest.raises(IntentError, match=r"no more than 9 yd/s"):
        world.step()
    world.get(horse, Intent).throttle = 4
    world.step()
    assert world.get(horse, Position).hex == (4, 0)


def test_a_rider_at_high_speed_may_take_any_maneuver() -> None:
    """Basic Set: High-Speed Movement > Maneuvers During High-Speed Movement binds the mount, not the rider."""
    world = gurps_world()
    horse, rider = mounted_pair(world, velocity=12, state=MoveState.HIGH_SPEED)
    set_maneuver(world, rider, Maneuver.ALL_OUT_DEFENSE)
    world.step()
    assert world.get(horse, Control).state is MoveState.HIGH_SPEED
    assert world.get(rider, Control).state is MoveState.NORMAL


def test_a_mount_that_trips_at_high_speed_has_fallen_under_its_rider() -> None:
    """A mount at high speed loses control on any maneuver but Move or Move and Attack and trips (Basic Set:
    High-Speed Movement); a mount that falls is table row 12 for its rider (Mount Loss of Control Table)."""
    world = gurps_world()
    horse, rider = mounted_pair(world, velocity=12, state=MoveState.HIGH_SPEED)
    set_maneuver(world, horse, Maneuver.ALL_OUT_DEFENSE)
    events = world.step()
    assert world.get(horse, Posture).state is PostureState.PRONE
    assert of_type(events, MountLossOfControl) == [MountLossOfControl(horse, rider, None, "mount_falls")]
    assert world.get(rider, Rider).mount is None


# --- Control and training --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hands", "training", "target"),
    [
        (2, "war-trained", 12),
        (1, "war-trained", 11),
        (0, "war-trained", 9),
        (2, "well-broken", 9),
        (2, "not fully broken", 6),
        (0, "not fully broken", 3),
    ],
    ids=[
        "both hands, war-trained -> Riding 12",
        "one hand -> -1",
        "no hands -> -3",
        "well broken -> -3",
        "not fully broken -> -6",
        "no hands, not fully broken -> -9",
    ],
)
def test_hands_on_the_reins_and_training_modify_riding_rolls(hands: int, training: str, target: int) -> None:
    """Basic Set: Mounted Combat: -3 with no hands on the reins, -1 with one; combat Riding rolls at -3 for a
    well-broken mount and -6 for one not fully broken."""
    world = gurps_world()
    _, rider = mounted_pair(world, training=training)
    world.get(rider, Rider).hands_on_reins = hands
    fire_noisy_shot(world, rider)
    script(world, 3)
    assert targets(world.step(), "noisy shot") == [target]


def test_shock_counts_against_the_riders_own_rolls_but_not_a_passengers_hold() -> None:
    """Shock (docs/architecture.md > Facts the rules lean on) lowers DX-based rolls: Riding, Jumping, DX."""
    world = gurps_world()
    horse, rider = mounted_pair(world)
    world.get(rider, Condition).shock = -2
    fire_noisy_shot(world, rider)
    script(world, 3)
    assert targets(world.step(), "noisy shot") == [10]
    spook(world, horse)
    sheathe(world, rider)
    world.get(rider, Condition).shock = -2  # shock counts for one turn: set again for this one
    script(world, 3)
    assert targets(world.step(), "sheathe") == [12 - 3 - 2]


def test_a_mount_without_war_training_refuses_a_jump_when_riding_plus_2_fails() -> None:
    """Basic Set: Mounted Combat: Riding+2 (here at -3 for a well-broken mount), or it disobeys and spooks."""
    world = gurps_world()
    horse, _ = mounted_pair(world, training="well-broken")
    attempt_feat(world, horse, "jump")
    script(world, 12)
    events = world.step()
    assert targets(events, "jump") == [11]
    assert of_type(events, FeatRefused) == [FeatRefused(horse, "jump")]
    assert of_type(events, MountSpooked) == [MountSpooked(horse, "refused a jump")]
    assert world.get(horse, Mount).spooked


def test_a_mount_without_war_training_obeys_when_riding_plus_2_succeeds() -> None:
    world = gurps_world()
    horse, _ = mounted_pair(world, training="not fully broken")
    attempt_feat(world, horse, "bad footing")
    script(world, 8)
    events = world.step()
    assert targets(events, "bad footing") == [8]
    assert not of_type(events, FeatRefused)
    assert not world.get(horse, Mount).spooked


def test_a_war_trained_mount_needs_no_roll_for_a_risky_feat() -> None:
    world = gurps_world()
    horse, _ = mounted_pair(world)
    attempt_feat(world, horse, "obstacle")
    assert not rolls(world.step(), "")


def test_a_mount_refusing_an_early_turn_goes_straight_on() -> None:
    """Intent.push asks for a risky maneuver by itself: refused, the mount neither turns nor rolls DX."""
    world = gurps_world()
    horse, _ = mounted_pair(world, training="well-broken", velocity=12, state=MoveState.HIGH_SPEED)
    intent = world.get(horse, Intent)
    intent.turn, intent.turn_at_yd, intent.push = 1, 0, True
    script(world, 15)
    events = world.step()
    assert of_type(events, FeatRefused) == [FeatRefused(horse, "tight turn")]
    assert not rolls(events, "early turn")
    assert world.get(horse, Facing).direction == 0
    assert world.get(horse, Position).hex == (12, 0)


def test_an_unknown_feat_is_refused_clearly() -> None:
    world = gurps_world()
    horse = spawn_horse(world)
    with pytest.raises(RuleValueError, match=r"attempt_feat\.feat = 'swim'"):
        attempt_feat(world, horse, "swim")


# --- Falling off -----------------------------------------------------------------------------------------


def test_a_mount_that_makes_its_dx_roll_for_a_tight_turn_makes_its_rider_roll_riding() -> None:
    """Basic Set: Mounted Combat > Movement and Maneuvers > Falling Off: on the mount's success the rider rolls
    Riding or is unseated."""
    world = gurps_world()
    horse, rider = mounted_pair(world, velocity=12, state=MoveState.HIGH_SPEED)
    intent = world.get(horse, Intent)
    intent.turn, intent.turn_at_yd, intent.push = 1, 0, True
    script(world, 12, 13)  # the horse's DX+3 (13) for the early turn, the rider's Riding 12
    world.dice.script(3, 3)
    events = world.step()
    assert rolls(events, "early turn")[0].result.target == 13
    assert targets(events, "stay on through the mount's maneuver") == [12]
    [fell] = of_type(events, FellOff)
    assert (fell.rider, fell.cause) == (rider, "unseated by the mount's maneuver")
    assert world.dice.scripted == 0


def test_a_mount_that_fails_its_early_turn_roll_trips_and_falls_as_row_12() -> None:
    world = gurps_world()
    horse, rider = mounted_pair(world, velocity=12, state=MoveState.HIGH_SPEED)
    intent = world.get(horse, Intent)
    intent.turn, intent.turn_at_yd, intent.push = 1, 0, True
    script(world, 14)  # DX+3 (13) failed: the horse loses control and trips
    world.dice.script(*[1] * 6)  # its 6d for a fall at 12 yd/s
    script(world, 11, 10, 10, 3)  # row 12: DX+1 made, Riding-2 made, leap clear made, Jumping lands it
    events = world.step()
    assert of_type(events, MountLossOfControl) == [MountLossOfControl(horse, rider, None, "mount_falls")]
    assert of_type(events, FallDamage)[0].entity == horse
    assert world.get(rider, Rider).mount is None
    assert world.dice.scripted == 0


def test_a_mount_that_fails_a_dx_roll_for_a_risky_action_falls_as_row_12() -> None:
    world = gurps_world()
    horse, rider = mounted_pair(world)
    note_mount_dx_roll(world, horse, False)
    script(world, 11, 10, 10, 3)  # DX+1 made, Riding-2 made, leap clear made, Jumping negates the fall
    events = world.step()
    assert of_type(events, MountLossOfControl) == [MountLossOfControl(horse, rider, None, "mount_falls")]
    assert targets(events, "keeps its legs") == [11]
    assert targets(events, "stay seated") == [10]
    assert targets(events, "leap clear") == [12]
    assert world.get(horse, Posture).state is PostureState.PRONE
    assert not of_type(events, FallDamage)
    assert world.dice.scripted == 0


# --- Spooked mounts --------------------------------------------------------------------------------------


def _fight(world: World, rider: int, *totals: int) -> list[Event]:
    """Spend turns on a Ready against a spooked mount, one scripted Riding roll each."""
    events: list[Event] = []
    for total in totals:
        set_maneuver(world, rider, Maneuver.READY)
        script(world, total)
        events += world.step()
    return events


def test_three_successes_in_a_row_calm_a_spooked_mount() -> None:
    """Basic Set: Mounted Combat > Spooked Mounts."""
    world = gurps_world()
    horse, rider = mounted_pair(world)
    spook(world, horse)
    events = _fight(world, rider, 10, 10)
    assert world.get(horse, Mount).spooked
    assert world.get(horse, Mount).spook_successes == 2
    events = _fight(world, rider, 10)
    assert of_type(events, MountCalmed) == [MountCalmed(horse, rider)]
    assert not world.get(horse, Mount).spooked


def test_a_failure_breaks_the_run_of_successes() -> None:
    world = gurps_world()
    horse, rider = mounted_pair(world)
    spook(world, horse)
    _fight(world, rider, 10, 10, 13, 10, 10)
    mount = world.get(horse, Mount)
    assert mount.spooked
    assert (mount.spook_successes, mount.spook_failures) == (2, 0)


def test_a_critical_success_calms_a_spooked_mount_at_once() -> None:
    world = gurps_world()
    horse, rider = mounted_pair(world)
    spook(world, horse)
    assert of_type(_fight(world, rider, 4), MountCalmed) == [MountCalmed(horse, rider)]


def test_three_failures_in_a_row_lose_control() -> None:
    world = gurps_world()
    horse, rider = mounted_pair(world)
    spook(world, horse)
    _fight(world, rider, 13, 13)
    set_maneuver(world, rider, Maneuver.READY)
    script(world, 13)
    world.dice.script(4, 4)  # 8: fractious
    events = world.step()
    assert of_type(events, MountLossOfControl) == [MountLossOfControl(horse, rider, 8, "fractious")]
    assert world.get(horse, Mount).fractious == -1
    assert not world.get(horse, Mount).spooked


def test_a_critical_failure_loses_control_at_once() -> None:
    world = gurps_world()
    horse, rider = mounted_pair(world)
    spook(world, horse)
    set_maneuver(world, rider, Maneuver.READY)
    script(world, 18)
    world.dice.script(5, 5)  # 10: charges away
    events = world.step()
    assert of_type(events, MountLossOfControl) == [MountLossOfControl(horse, rider, 10, "charges_away")]


def test_no_ready_no_roll_against_a_spooked_mount() -> None:
    world = gurps_world()
    horse, _ = mounted_pair(world)
    spook(world, horse)
    assert not rolls(world.step(), "")
    assert world.get(horse, Mount).spooked


def test_sheathing_on_a_bucking_mount_is_a_ready_and_dx_minus_3() -> None:
    """Basic Set: Mounted Combat: a critical failure drops the weapon."""
    world = gurps_world()
    horse, rider = mounted_pair(world)
    spook(world, horse)
    sheathe(world, rider)
    assert world.get(rider, Intent).maneuver is Maneuver.READY
    script(world, 18)  # the sheathing DX-3 (9); that Ready is not spent fighting the mount
    events = world.step()
    assert targets(events, "sheathe") == [9]
    assert not rolls(events, "regain control")
    assert of_type(events, WeaponSheathed) == [WeaponSheathed(rider, "dropped")]
    assert of_type(events, ItemDropped) == [ItemDropped(rider, "fumbled sheathing on a bucking mount")]


def test_sheathing_on_a_calm_mount_needs_no_roll() -> None:
    world = gurps_world()
    _, rider = mounted_pair(world)
    sheathe(world, rider)
    events = world.step()
    assert of_type(events, WeaponSheathed) == [WeaponSheathed(rider, "sheathed")]
    assert not rolls(events, "")


# --- Attacks by mounts and panic --------------------------------------------------------------------------


def test_a_war_trained_mount_kicks_with_iron_horseshoes() -> None:
    """Basic Set: Mounted Combat > Attacks by Mounts: +1 to kicks and tramples with iron horseshoes."""
    world = gurps_world()
    horse, _ = mounted_pair(world, iron_horseshoes=True)
    set_maneuver(world, horse, Maneuver.ATTACK)
    mount_attack(world, horse, "kick")
    events = world.step()
    assert of_type(events, MountAttacked) == [MountAttacked(horse, "kick", 1)]
    assert world.get(horse, Mount).attacked_turn == 0
    set_maneuver(world, horse, Maneuver.MOVE_AND_ATTACK)
    mount_attack(world, horse, "bite")
    assert of_type(world.step(), MountAttacked) == [MountAttacked(horse, "bite", 0)]


def test_only_a_war_trained_mount_attacks() -> None:
    world = gurps_world()
    horse, _ = mounted_pair(world, training="well-broken")
    set_maneuver(world, horse, Maneuver.ALL_OUT_ATTACK)
    with pytest.raises(IntentError, match="only a war-trained mount attacks"):
        mount_attack(world, horse, "bite")


def test_a_mount_attacks_only_on_a_maneuver_that_allows_it() -> None:
    world = gurps_world()
    horse, _ = mounted_pair(world)
    with pytest.raises(IntentError, match=r"Intent\.maneuver = 'Move': Attack, All-Out Attack or Move and Attack"):
        mount_attack(world, horse, "trample")


@pytest.mark.parametrize(
    ("reflexes", "foe_sm", "roll", "outcome"),
    [
        (False, 0, 11, (True, True)),
        (False, 0, 10, (True, False)),
        (True, 0, 16, (True, False)),
        (False, 1, 18, (False, False)),
        (False, 2, 18, (False, False)),
    ],
    ids=[
        "Will 10, rolls 11 -> panics",
        "Will 10, rolls 10 -> stands",
        "Combat Reflexes +6, rolls 16 -> stands",
        "SM equal to the mount's -> no roll",
        "SM above the mount's -> no roll",
    ],
)
def test_a_cavalry_charge_may_panic_a_foe(reflexes: bool, foe_sm: int, roll: int, outcome: tuple[bool, bool]) -> None:
    """Basic Set: Mounted Combat > Attacks by Mounts > Panic."""
    rolled, panicked = outcome
    world = gurps_world()
    horse, _ = mounted_pair(world)
    foe = world.spawn(Position(6, 0), Mover(basic_move=5, size_modifier=foe_sm), Nerve(10, combat_reflexes=reflexes))
    charge(world, horse, foe)
    script(world, roll)
    events = world.step()
    assert of_type(events, PanicChecked) == [PanicChecked(foe, horse, rolled, panicked)]
    assert world.get(foe, Nerve).panicked is panicked
    assert world.dice.scripted == (0 if rolled else 3)


# --- Noisy shots, results ---------------------------------------------------------------------------------


def test_a_noisy_shot_that_fails_the_riding_roll_spooks_the_mount() -> None:
    """Basic Set: Mounted Combat > Using Ranged Weapons While Mounted."""
    world = gurps_world()
    horse, rider = mounted_pair(world)
    fire_noisy_shot(world, rider)
    fire_noisy_shot(world, rider)
    script(world, 12, 13)
    events = world.step()
    assert targets(events, "noisy shot") == [12, 12]
    assert of_type(events, MountSpooked) == [MountSpooked(horse, "a noisy shot")]


def test_a_noisy_shot_critically_failed_is_a_loss_of_control() -> None:
    world = gurps_world()
    horse, rider = mounted_pair(world)
    fire_noisy_shot(world, rider)
    script(world, 18)
    world.dice.script(3, 3)
    events = world.step()
    assert of_type(events, MountLossOfControl) == [MountLossOfControl(horse, rider, 6, "exhausted")]
    assert world.get(horse, Mount).exhausted


def test_a_turn_in_the_saddle_costs_1_on_riding_rolls_that_turn() -> None:
    from esper_motion.systems.gurps.mounted.mounted_results import take_trick

    world = gurps_world()
    _, rider = mounted_pair(world)
    take_trick(world, rider, "far_side")
    fire_noisy_shot(world, rider)
    script(world, 3)
    assert targets(world.step(), "noisy shot") == [9]
    fire_noisy_shot(world, rider)
    script(world, 3)
    assert targets(world.step(), "noisy shot") == [12]


@pytest.mark.parametrize(
    ("roll", "falls"),
    [(8, False), (9, True)],
    ids=["Riding 12-4 rolls 8 -> stays on", "rolls 9 -> falls off"],
)
def test_a_stunned_rider_rolls_riding_minus_4_or_falls(roll: int, falls: bool) -> None:
    """Basic Set: Mounted Combat > Mounted Combat Results."""
    world = gurps_world()
    _, rider = mounted_pair(world)
    rider_stunned(world, rider)
    script(world, roll)
    world.dice.script(1, 1)
    events = world.step()
    assert targets(events, "stunned") == [8]
    assert bool(of_type(events, FellOff)) is falls
    assert (world.get(rider, Rider).mount is None) is falls


def test_knockback_without_saddle_and_stirrups_knocks_the_rider_off() -> None:
    world = gurps_world()
    _, rider = mounted_pair(world, stirrups=False)
    rider_knocked_back(world, rider, 1)
    world.dice.script(1, 1)
    events = world.step()
    assert not rolls(events, "knockback")
    assert of_type(events, FellOff)[0].cause == "knocked off (no saddle and stirrups)"


@pytest.mark.parametrize(("yards", "target"), [(1, 8), (2, 4)], ids=["1 yard -> Riding-4", "2 yards -> Riding-8"])
def test_knockback_with_saddle_and_stirrups_is_riding_minus_4_a_yard(yards: int, target: int) -> None:
    world = gurps_world()
    _, rider = mounted_pair(world)
    rider_knocked_back(world, rider, yards)
    script(world, 3)
    events = world.step()
    assert targets(events, "knockback") == [target]
    assert world.get(rider, Rider).mount is not None


@pytest.mark.parametrize(
    ("injury", "target"), [(0, 12), (2, 10), (6, 8)], ids=["no injury -> 12", "2 HP -> -2", "6 HP -> -4 at most"]
)
def test_a_hit_mount_spooks_unless_the_rider_rolls_riding_minus_its_shock(injury: int, target: int) -> None:
    world = gurps_world()
    horse, _ = mounted_pair(world)
    mount_hit(world, horse, injury)
    script(world, target + 1)
    events = world.step()
    assert targets(events, "hit mount") == [target]
    assert of_type(events, MountSpooked) == [MountSpooked(horse, "hit")]


def test_a_crippled_mount_falls_as_row_12() -> None:
    world = gurps_world()
    horse, rider = mounted_pair(world)
    mount_crippled(world, horse)
    script(world, 12, 11)  # DX+1 fails: a broken leg; Riding-2 fails: unseated
    world.dice.script(2, 2)
    events = world.step()
    assert of_type(events, MountLossOfControl) == [MountLossOfControl(horse, rider, None, "mount_falls")]
    assert world.get(horse, Mount).broken_leg
    assert of_type(events, FellOff)[0].cause == "unseated by the falling mount"


# --- Multiple riders --------------------------------------------------------------------------------------


def test_a_passenger_behind_the_controller() -> None:
    """Basic Set: Mounted Combat > Multiple Riders: the controller at -1 more; the passenger holds on with the
    lower of the controller's Riding and its own ST, at -3."""
    world = gurps_world()
    horse, controller = mounted_pair(world, riding=13)
    passenger = spawn_rider(world, at=(0, -1), st=9, riding=10)
    leap_astride(world, passenger, horse)
    script(world, 10)
    assert of_type(world.step(), Mounted) == [Mounted(passenger, horse, "leapt astride")]
    assert world.get(horse, Mount).riders == [controller, passenger]
    fire_noisy_shot(world, controller)
    rider_stunned(world, passenger)
    script(world, 3, 3)
    events = world.step()
    assert targets(events, "noisy shot") == [12]
    assert targets(events, "stunned") == [9 - 3 - 4]


def test_a_passenger_must_be_human_sized_on_a_horse_sized_mount() -> None:
    world = gurps_world()
    horse, _ = mounted_pair(world)
    ogre = spawn_rider(world, at=(0, -1), size_modifier=1)
    with pytest.raises(IntentError, match="a passenger"):
        leap_astride(world, ogre, horse)
    pony, _ = mounted_pair(world, size_modifier=0)
    child = spawn_rider(world, at=(0, -1))
    with pytest.raises(IntentError, match="needs a horse-sized mount"):
        mount_up(world, child, pony)


def test_a_mount_has_only_so_many_seats() -> None:
    world = gurps_world()
    horse, _ = mounted_pair(world, seats=1)
    other = spawn_rider(world, at=(0, -1))
    with pytest.raises(IntentError, match="no free seat"):
        mount_up(world, other, horse)


def test_two_riders_leaping_for_the_last_seat_the_faster_gets_it() -> None:
    world = gurps_world()
    horse = spawn_horse(world, seats=1)
    slow, fast = spawn_rider(world, at=(0, 1), speed=5.5), spawn_rider(world, at=(0, -1), speed=6.5)
    leap_astride(world, slow, horse)
    leap_astride(world, fast, horse)
    script(world, 3)
    events = world.step()
    assert of_type(events, Mounted) == [Mounted(fast, horse, "leapt astride")]
    assert of_type(events, MountingAbandoned) == [MountingAbandoned(slow, horse)]
    with pytest.raises(WorldError, match="already rides"):
        seat(world, fast, horse)


# --- Tightening the saddle --------------------------------------------------------------------------------


def test_tightening_a_loose_saddle_takes_4d_seconds() -> None:
    """Basic Set: Mounted Combat > Mount Loss of Control Table, row 11."""
    world = gurps_world()
    horse, rider = spawn_horse(world, saddle_loose=True), spawn_rider(world)
    world.dice.script(1, 1, 1, 2)
    left = []
    for _ in range(5):
        tighten_saddle(world, rider, horse)
        left += [event.seconds_left for event in of_type(world.step(), SaddleTightening)]
        if not world.get(horse, Mount).saddle_loose:
            break
    assert left == [4, 3, 2, 1, 0]
    assert not world.get(horse, Mount).saddle_loose
    with pytest.raises(IntentError, match="is not loose"):
        tighten_saddle(world, rider, horse)


@pytest.mark.parametrize(
    ("action", "seated", "allowed"),
    [
        ("tighten saddle", False, r"the saddle of entity \d+ is not loose"),
        ("tighten saddle", True, "the rider must dismount first"),
        ("dismount", False, r"the rider is on foot: it has nothing to dismount"),
        ("jump off", False, r"the rider is on foot: it has nothing to jump off"),
        ("sheathe", False, r"the rider is on foot: it has nothing to sheathe"),
    ],
)
def test_a_rider_request_written_by_hand_that_cannot_stand_is_refused_not_cleared(
    action: str, seated: bool, allowed: str
) -> None:
    """What the request functions refuse is refused at the step when the game writes ``Rider.action`` itself."""
    world = gurps_world()
    if seated:
        horse, rider = mounted_pair(world)
    else:
        horse, rider = spawn_horse(world), spawn_rider(world)
    link = world.get(rider, Rider)
    link.action, link.action_target = action, horse
    if action == "jump off":
        link.action_skill = "Jumping"
    with pytest.raises(IntentError, match=rf"entity {rider}: Rider.action = '{action}': {allowed}") as caught:
        world.step()
    assert caught.value.entity == rider
    assert (world.turn, link.action, link.action_target) == (0, action, horse)


# --- Saving -------------------------------------------------------------------------------------------------


def test_a_save_keeps_riders_on_their_mounts_and_changes_nothing_that_follows(tmp_path: Path) -> None:
    """docs/architecture.md > Saving and loading: loading and stepping gives the same events as never having saved."""
    world = gurps_world()
    horse, rider = mounted_pair(world, training="well-broken", velocity=3)
    spook(world, horse)
    world.get(horse, Mount).fractious = -1
    world.save(tmp_path / "mounted.json")
    loaded = World.load(tmp_path / "mounted.json")
    assert loaded.get(rider, Rider) == world.get(rider, Rider)
    assert loaded.get(horse, Mount) == world.get(horse, Mount)
    for each in (world, loaded):
        set_maneuver(each, rider, Maneuver.READY)
        fire_noisy_shot(each, rider)
    assert [event.describe() for event in world.step(3)] == [event.describe() for event in loaded.step(3)]


def test_a_save_refuses_a_rider_whose_mount_was_despawned_between_steps(tmp_path: Path) -> None:
    world = gurps_world()
    horse, _ = mounted_pair(world)
    world.despawn(horse)
    with pytest.raises(SaveError, match="links to entity"):
        world.save(tmp_path / "dangling.json")

"""Mounted Combat under the house rules (``Rules.mounts == "house"``): each house reading against the Basic Set
one it replaces, with scripted dice (House rules: Mounts)."""

from __future__ import annotations

import pytest
from support import gurps_world, of_type
from support.mounted import faces, lose_control, mounted_pair, script, set_maneuver, spawn_horse, spawn_rider, targets

from esper_motion.components import Condition, Control, Intent, Maneuver, Mover, MoveState
from esper_motion.components.gurps import LossCause
from esper_motion.components.mount import Mount, Rider
from esper_motion.ecs import IntentError, RuleValueError
from esper_motion.systems.gurps import Rules
from esper_motion.systems.gurps.events import (
    CrushedByMount,
    Dismounted,
    FallDamage,
    FellOff,
    MountControlRegained,
    MountLossOfControl,
    MountOutOfControl,
    ReadyForced,
    StrappedTrauma,
)
from esper_motion.systems.gurps.mounted.cavalry import (
    counts_as_standing,
    mounted_attack,
    mounted_defense,
    rider_dx_modifier,
)
from esper_motion.systems.gurps.mounted.common import seat
from esper_motion.systems.gurps.mounted.mounted_results import (
    mount_hit,
    note_mount_dx_roll,
    rider_knocked_back,
    rider_stunned,
)
from esper_motion.systems.gurps.mounted.mounting import jump_off, sheathe
from esper_motion.systems.gurps.mounted.spooking import spook
from esper_motion.systems.gurps.shared.movers import bodies, initiative_order

HOUSE = Rules.house()
BASIC = Rules.basic()


@pytest.mark.parametrize(
    ("chosen", "expected"),
    [(BASIC, ["rider", "foe", "horse"]), (HOUSE, ["horse", "rider", "foe"])],
    ids=["Basic Set: each on its own Basic Speed", "house: the mount on its rider's"],
)
def test_a_mount_acts_on_its_riders_initiative(chosen: Rules, expected: list[str]) -> None:
    world = gurps_world(chosen)
    horse, rider = mounted_pair(world)
    foe = spawn_horse(world, at=(9, 9))
    world.get(foe, Mover).basic_speed = 5.5
    world.remove(foe, Mount)
    names = {horse: "horse", rider: "rider", foe: "foe"}
    assert [names[entity] for entity in initiative_order(world, [foe, rider, horse])] == expected
    movers = [names[body.entity] for body in bodies(world)]
    assert movers == expected


def test_a_rider_is_at_minus_10_on_dx_rolls_while_the_mount_is_out_of_control() -> None:
    world = gurps_world(HOUSE)
    horse, rider = mounted_pair(world)
    assert rider_dx_modifier(world, rider) == 0
    world.get(horse, Mount).out_of_control = True
    assert rider_dx_modifier(world, rider) == -10
    spook(world, horse)
    sheathe(world, rider)
    script(world, 3)
    assert targets(world.step(), "sheathe") == [12 - 3 - 10]


def test_out_of_control_at_high_speed_counts_too_but_not_under_the_basic_set() -> None:
    for chosen, expected in ((HOUSE, -10), (BASIC, 0)):
        world = gurps_world(chosen)
        horse, rider = mounted_pair(world)
        control = world.get(horse, Control)
        control.state, control.loss_cause = MoveState.OUT_OF_CONTROL, LossCause.FAILED_ROLL
        assert rider_dx_modifier(world, rider) == expected


@pytest.mark.parametrize(
    ("chosen", "perk", "skill"),
    [(BASIC, False, 12), (BASIC, True, 12), (HOUSE, False, 12), (HOUSE, True, 15)],
    ids=["Basic Set: Riding caps", "Basic Set: no perk to lift it", "house: Riding caps", "house: Cavalry Training"],
)
def test_the_cavalry_training_perk_lifts_the_riding_limit(chosen: Rules, perk: bool, skill: int) -> None:
    world = gurps_world(chosen)
    _, rider = mounted_pair(world)
    world.get(rider, Rider).cavalry_training = perk
    assert mounted_attack(world, rider, 15).skill == skill


@pytest.mark.parametrize(
    ("chosen", "saddle", "standing"),
    [(HOUSE, True, True), (HOUSE, False, False), (BASIC, True, False)],
    ids=["house, saddle -> standing", "house, bareback -> not", "Basic Set -> sitting"],
)
def test_a_saddle_counts_as_standing(chosen: Rules, saddle: bool, standing: bool) -> None:
    world = gurps_world(chosen)
    _, rider = mounted_pair(world, saddle=saddle)
    assert counts_as_standing(world, rider) is standing


@pytest.mark.parametrize(
    ("chosen", "speed", "expected"),
    [(BASIC, 10, (-1, 1)), (HOUSE, 7, (-1, 1)), (HOUSE, 10, (-2, 2)), (HOUSE, 50, (-6, 6)), (HOUSE, 5, (0, 0))],
    ids=["Basic Set 10 -> -1/+1", "house 7 -> -1/+1", "house 10 -> -2/+2", "house 50 -> -6/+6", "house 5 -> none"],
)
def test_relative_speed_through_the_size_and_speed_range_table(
    chosen: Rules, speed: int, expected: tuple[int, int]
) -> None:
    world = gurps_world(chosen)
    _, rider = mounted_pair(world, velocity=speed)
    foe = spawn_rider(world, at=(9, 0))
    attack = mounted_attack(world, rider, 12, foe)
    assert (dict(attack.modifiers).get("relative velocity", 0), attack.damage_bonus) == expected


@pytest.mark.parametrize(
    ("chosen", "expected"),
    [(BASIC, [8, 8]), (HOUSE, [12 - 4 - 4 + 3 + 1])],
    ids=["Basic Set: two rolls, -4 each", "house: one roll, -4 -4 +3 war saddle +1 stirrups"],
)
def test_stun_and_knockback_together(chosen: Rules, expected: list[int]) -> None:
    world = gurps_world(chosen)
    _, rider = mounted_pair(world, war_saddle=True)
    rider_stunned(world, rider)
    rider_knocked_back(world, rider, 1)
    script(world, 3, 3)
    assert targets(world.step(), "stay on") == expected


@pytest.mark.parametrize(
    ("chosen", "war_saddle", "stirrups", "target"),
    [(BASIC, True, True, 12), (HOUSE, False, False, 12), (HOUSE, False, True, 13), (HOUSE, True, True, 16)],
    ids=["Basic Set: no bonus", "house bareback", "house: stirrups +1", "house: war saddle +3 and stirrups +1"],
)
def test_war_saddles_and_stirrups_help_against_falling_off(
    chosen: Rules, war_saddle: bool, stirrups: bool, target: int
) -> None:
    world = gurps_world(chosen)
    horse, _ = mounted_pair(world, war_saddle=war_saddle, stirrups=stirrups)
    note_mount_dx_roll(world, horse, True)
    script(world, 3)
    assert targets(world.step(), "mount's maneuver") == [target]


def test_house_a_failed_mount_dx_roll_makes_the_rider_roll_instead_of_row_12() -> None:
    world = gurps_world(HOUSE)
    horse, rider = mounted_pair(world)
    note_mount_dx_roll(world, horse, False)
    script(world, 14)
    world.dice.script(3, 3)
    events = world.step()
    assert targets(events, "mount's maneuver") == [13]
    assert not of_type(events, MountLossOfControl)
    assert of_type(events, FellOff)[0].rider == rider


def test_house_knockback_without_stirrups_still_gets_a_roll() -> None:
    world = gurps_world(HOUSE)
    _, rider = mounted_pair(world, saddle=False, stirrups=False)
    rider_knocked_back(world, rider, 1)
    script(world, 8)
    events = world.step()
    assert targets(events, "stay on") == [8]
    assert not of_type(events, FellOff)


def test_strapped_in_a_failed_roll_forces_a_ready_instead_of_a_fall() -> None:
    world = gurps_world(HOUSE)
    horse, rider = mounted_pair(world)
    world.get(rider, Rider).strapped_in = True
    rider_stunned(world, rider)
    script(world, 18)
    events = world.step()
    assert not of_type(events, FellOff)
    assert of_type(events, ReadyForced) == [ReadyForced(rider, "stunned")]
    assert world.get(rider, Rider).mount == horse
    assert world.get(rider, Rider).ready_turn == 1
    world.step()
    assert world.get(rider, Rider).ready_turn is None


def test_the_forced_ready_replaces_the_maneuver_the_game_chose() -> None:
    """The Ready is forced: a spooked mount's rider who asked for an Attack still spends the turn readying, and
    so gets its roll to calm the mount."""
    world = gurps_world(HOUSE)
    horse, rider = mounted_pair(world)
    world.get(rider, Rider).strapped_in = True
    rider_stunned(world, rider)
    script(world, 18)
    world.step()
    spook(world, horse)
    set_maneuver(world, rider, Maneuver.ATTACK)
    script(world, 10)
    assert targets(world.step(), "regain control") == [12]
    set_maneuver(world, rider, Maneuver.ATTACK)
    assert targets(world.step(), "regain control") == []


def test_strapped_in_failed_knockback_costs_a_point_a_yard() -> None:
    world = gurps_world(HOUSE)
    _, rider = mounted_pair(world)
    world.get(rider, Rider).strapped_in = True
    rider_knocked_back(world, rider, 2)
    script(world, 18)
    events = world.step()
    assert of_type(events, StrappedTrauma) == [StrappedTrauma(rider, 2, 2)]
    assert world.get(rider, Condition).injury == 2
    assert world.get(rider, Rider).mount is not None


def test_strapping_in_is_no_help_under_the_basic_set() -> None:
    world = gurps_world(BASIC)
    _, rider = mounted_pair(world)
    world.get(rider, Rider).strapped_in = True
    rider_stunned(world, rider)
    script(world, 18)
    world.dice.script(1, 1)
    assert of_type(world.step(), FellOff)


@pytest.mark.parametrize(
    ("table", "cause"),
    [(2, "thrown, but strapped in"), (3, "lost grip, but strapped in")],
    ids=["row 2 thrown -> stays seated, Ready", "row 3 lost grip -> stays seated, Ready"],
)
def test_house_rules_mounts_strapped_in_a_rider_is_not_thrown_by_the_table(table: int, cause: str) -> None:
    """House rules: Mounts, strapped into the saddle: rows 2 and 3 of the Mount Loss of Control Table cannot
    throw the rider; it stays on and takes a Ready next turn, and its mount does not run loose."""
    world = gurps_world(HOUSE)
    horse, rider = mounted_pair(world)
    world.get(rider, Rider).strapped_in = True
    events = lose_control(world, rider, table)
    assert of_type(events, MountLossOfControl)[0].roll == table
    assert not of_type(events, FellOff)
    assert not of_type(events, FallDamage)
    assert of_type(events, ReadyForced) == [ReadyForced(rider, cause)]
    assert world.get(rider, Rider).mount == horse
    assert world.get(horse, Mount).riders == [rider]
    assert world.get(rider, Rider).ready_turn == 1
    assert not world.get(horse, Mount).loose
    assert world.dice.scripted == 0


@pytest.mark.parametrize(
    ("stay_seated", "forced"),
    [(11, []), (12, ["strapped to the falling mount"])],
    ids=["row 12, Riding-2+1 stirrups made -> crushed, seated", "row 12, Riding-2 failed -> crushed, seated, Ready"],
)
def test_house_rules_mounts_strapped_in_a_rider_goes_down_with_the_falling_mount(
    stay_seated: int, forced: list[str]
) -> None:
    """House rules: Mounts, strapped into the saddle, against table row 12: the rider still rolls Riding-2
    (+1 for stirrups) to stay on, a failure costing a Ready; it cannot leap clear, so the mount falls on it:
    a 2-yard fall (2d at HP 11) and thrust crushing for ST 25 (2d+2), and it stays seated."""
    world = gurps_world(HOUSE)
    horse, rider = mounted_pair(world)
    world.get(rider, Rider).strapped_in = True
    events = lose_control(world, rider, 12, *faces(11), *faces(stay_seated), 1, 2, 3, 4)
    assert targets(events, "stay seated") == [11]
    assert targets(events, "leap clear") == []
    assert not of_type(events, FellOff)
    assert [(damage.damage, damage.rolled) for damage in of_type(events, FallDamage)] == [("2d", 3)]
    assert of_type(events, CrushedByMount) == [CrushedByMount(rider, horse, "2d+2", 9, 9)]
    assert world.get(rider, Condition).injury == 12
    assert [event.cause for event in of_type(events, ReadyForced)] == forced
    assert world.get(rider, Rider).mount == horse
    assert world.dice.scripted == 0


@pytest.mark.parametrize("table", [2, 3, 12], ids=["row 2", "row 3", "row 12"])
def test_strapping_in_does_not_keep_a_rider_on_under_the_basic_set(table: int) -> None:
    """Basic Set: Mounted Combat > Mount Loss of Control Table knows no straps: rows 2 and 3 throw the rider,
    and row 12 unseats one that fails Riding-2."""
    world = gurps_world(BASIC)
    horse, rider = mounted_pair(world)
    world.get(rider, Rider).strapped_in = True
    then = (*faces(11), *faces(11)) if table == 12 else ()
    events = lose_control(world, rider, table, *then)
    assert [event.rider for event in of_type(events, FellOff)] == [rider]
    assert world.get(rider, Rider).mount is None
    assert not of_type(events, ReadyForced)
    assert world.get(horse, Mount).riders == []


def test_house_a_hit_mount_out_of_control_until_the_riders_next_ready() -> None:
    world = gurps_world(HOUSE)
    horse, rider = mounted_pair(world)
    mount_hit(world, horse, 3)
    script(world, 10)
    events = world.step()
    assert targets(events, "keep control of the hit mount") == [9]
    assert of_type(events, MountOutOfControl) == [MountOutOfControl(horse, "hit")]
    assert of_type(events, ReadyForced) == [ReadyForced(rider, "to take back the hit mount")]
    assert world.get(horse, Mount).out_of_control
    assert rider_dx_modifier(world, rider) == -10
    set_maneuver(world, rider, Maneuver.ATTACK)
    events = world.step()
    assert of_type(events, MountControlRegained) == [MountControlRegained(horse, rider)]
    assert not world.get(horse, Mount).out_of_control


def test_house_a_hit_mount_critically_failed_rolls_on_the_table() -> None:
    world = gurps_world(HOUSE)
    horse, rider = mounted_pair(world)
    mount_hit(world, horse, 1)
    script(world, 18)
    world.dice.script(4, 5)
    events = world.step()
    assert of_type(events, MountLossOfControl) == [MountLossOfControl(horse, rider, 9, "fractious")]
    assert not of_type(events, MountOutOfControl)


def test_house_a_ridden_mount_only_moves_or_attacks() -> None:
    world = gurps_world(HOUSE)
    horse, _ = mounted_pair(world)
    set_maneuver(world, horse, Maneuver.ATTACK)
    world.step()
    set_maneuver(world, horse, Maneuver.ALL_OUT_DEFENSE)
    with pytest.raises(IntentError, match="a ridden mount takes Move, Move and Attack or Attack"):
        world.step()


@pytest.mark.parametrize(("chosen", "modifier"), [(BASIC, -3), (HOUSE, 0)], ids=["Basic Set: -3", "house: normal"])
def test_a_rider_with_riding_9_defends(chosen: Rules, modifier: int) -> None:
    world = gurps_world(chosen)
    _, rider = mounted_pair(world, riding=9)
    assert mounted_defense(world, rider).modifier == modifier


@pytest.mark.parametrize(
    ("chosen", "chosen_maneuver", "refused"),
    [
        (HOUSE, Maneuver.MOVE, True),
        (HOUSE, Maneuver.MOVE_AND_ATTACK, True),
        (HOUSE, Maneuver.ATTACK, False),
        (HOUSE, Maneuver.DO_NOTHING, False),
        (BASIC, Maneuver.MOVE, False),
        (BASIC, Maneuver.MOVE_AND_ATTACK, False),
    ],
    ids=[
        "house: Move refused",
        "house: Move and Attack refused",
        "house: Attack stands",
        "house: Do Nothing stands",
        "Basic Set: any maneuver, Move",
        "Basic Set: any maneuver, Move and Attack",
    ],
)
def test_house_rules_mounts_a_seated_rider_takes_no_maneuver_that_moves_it(
    chosen: Rules, chosen_maneuver: Maneuver, refused: bool
) -> None:
    """House rules: Mounts: the rider is stationary on its mount, so it takes only maneuvers that do not move it
    (the mount moves on the rider's initiative); the Basic Set lets the rider take any maneuver."""
    world = gurps_world(chosen)
    _, rider = mounted_pair(world, velocity=5)
    set_maneuver(world, rider, chosen_maneuver)
    if refused:
        with pytest.raises(IntentError, match=r"does not move the rider.*only to jump off \(House rules: Mounts\)"):
            world.step()
        assert world.turn == 0
    else:
        world.step()
        assert world.turn == 1


@pytest.mark.parametrize("attack", [False, True], ids=["on a Move", "on a Move and Attack"])
def test_house_rules_mounts_a_seated_rider_may_still_jump_off(attack: bool) -> None:
    """House rules: Mounts leave jumping off as the Basic Set has it: a Move or Move and Attack and a Jumping roll
    (Basic Set: Mounted Combat > Movement and Maneuvers)."""
    world = gurps_world(HOUSE)
    horse, rider = mounted_pair(world, velocity=5)
    jump_off(world, rider, "Jumping", attack=attack)
    script(world, 11)
    events = world.step()
    assert [(event.rider, event.mount, event.how) for event in of_type(events, Dismounted)] == [
        (rider, horse, "jumped off")
    ]


def test_a_seated_rider_does_nothing_unless_the_game_chooses_a_maneuver() -> None:
    """A rider carried by its mount defaults to Do Nothing, in the saddle and turn after turn, so the house
    limit on its maneuvers binds only what the game asks (House rules: Mounts)."""
    world = gurps_world(HOUSE)
    horse, rider = spawn_horse(world, velocity=5), spawn_rider(world)
    assert world.get(rider, Intent).maneuver is Maneuver.MOVE
    seat(world, rider, horse)
    assert world.get(rider, Intent).maneuver is Maneuver.DO_NOTHING
    set_maneuver(world, rider, Maneuver.ATTACK)
    world.step()
    assert world.get(rider, Intent).maneuver is Maneuver.DO_NOTHING
    world.step()
    assert world.turn == 2


@pytest.mark.parametrize(
    ("chosen", "spooked", "expected"),
    [
        (HOUSE, False, ("dodge", "parry")),
        (HOUSE, True, ("dodge",)),
        (BASIC, False, ("dodge",)),
    ],
    ids=[
        "house: by its own abilities, dodge and parry",
        "house: bucking, dodge only",
        "Basic Set: a mount only dodges",
    ],
)
def test_house_rules_mounts_a_mount_defends_by_its_own_abilities(
    chosen: Rules, spooked: bool, expected: tuple[str, ...]
) -> None:
    """House rules: Mounts: a mount defends as its abilities allow, most only by dodging; Basic Set: Mounted
    Combat > Mounted Defense gives every mount Dodge alone, and a bucking mount only dodges (Spooked Mounts)."""
    world = gurps_world(chosen)
    horse, _ = mounted_pair(world, defenses=("dodge", "parry"))
    if spooked:
        spook(world, horse)
    assert mounted_defense(world, horse).options == expected


@pytest.mark.parametrize(
    ("defenses", "message"),
    [
        ((), r"Mount\.defenses = \(\): expected a non-empty tuple of dodge, block, parry"),
        (["dodge"], r"Mount\.defenses = \['dodge'\]: expected a non-empty tuple"),
        (("dodge", "bite"), r"Mount\.defenses\[1\] = 'bite'"),
    ],
    ids=["none at all", "a list", "not a defense"],
)
def test_a_mounts_defenses_are_checked(defenses: object, message: str) -> None:
    with pytest.raises(RuleValueError, match=message):
        Mount(defenses=defenses)  # type: ignore[arg-type]

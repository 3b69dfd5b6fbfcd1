"""Fighting from the saddle as queries (``esper_motion.systems.gurps.mounted.cavalry``): weapon skill, speed, lances,
mount attacks, ranged tricks and Aim, defenses, height, and attacks that miss into the other party (Basic Set: Mounted
Combat)."""

from __future__ import annotations

import pytest
from support import gurps_world
from support.mounted import mounted_pair, spawn_horse, spawn_rider

from esper_motion.components import Mover, Posture, Skills
from esper_motion.components.gurps import PostureState
from esper_motion.components.motion import Velocity
from esper_motion.components.mount import Rider
from esper_motion.ecs import IntentError, World, WorldError
from esper_motion.ecs.damage import Damage
from esper_motion.systems.gurps import Rules
from esper_motion.systems.gurps.mounted.cavalry import (
    FAR_SIDE_TARGETS,
    LanceAttack,
    MountedDefense,
    Redirect,
    couched_lance,
    height_difference,
    missed_attack,
    mount_attack_damage,
    mounted_attack,
    mounted_defense,
    target_locations,
)
from esper_motion.systems.gurps.mounted.common import seat
from esper_motion.systems.gurps.mounted.mounted_results import take_trick
from esper_motion.systems.gurps.mounted.spooking import spook
from esper_motion.systems.gurps.shared.movers import relative_velocity


@pytest.mark.parametrize(
    ("weapon", "riding", "skill"),
    [(14, 12, 12), (11, 12, 11), (12, 12, 12)],
    ids=["Broadsword 14, Riding 12 -> 12", "Broadsword 11, Riding 12 -> 11", "equal -> 12"],
)
def test_a_rider_fights_at_the_lower_of_weapon_skill_and_riding(weapon: int, riding: int, skill: int) -> None:
    """Basic Set: Mounted Combat > Cavalry Weapons."""
    world = gurps_world()
    _, rider = mounted_pair(world, riding=riding)
    attack = mounted_attack(world, rider, weapon)
    assert (attack.skill, attack.effective_skill, attack.modifiers) == (skill, skill, ())


def test_from_a_motorcycle_driving_takes_the_place_of_riding() -> None:
    world = gurps_world()
    _, rider = mounted_pair(world, open_vehicle=True)
    world.get(rider, Skills).levels["Driving"] = 10
    assert mounted_attack(world, rider, 14).skill == 10
    del world.get(rider, Skills).levels["Driving"]
    with pytest.raises(WorldError, match="no Driving skill"):
        mounted_attack(world, rider, 14)


def _foe(world: World, velocity: int = 0, heading: int = 0) -> int:
    foe = spawn_rider(world, at=(3, 0))
    world.get(foe, Velocity).yps = velocity
    world.get(foe, Velocity).heading = heading
    return foe


@pytest.mark.parametrize(
    ("mount_speed", "foe_speed", "foe_heading", "relative", "expected"),
    [
        (7, 0, 0, 7.0, (-1, 1)),
        (6, 0, 0, 6.0, (0, 0)),
        (10, 3, 0, 7.0, (-1, 1)),
        (10, 4, 0, 6.0, (0, 0)),
        (4, 3, 3, 7.0, (-1, 1)),
    ],
    ids=[
        "7 yd/s at a standing foe -> -1 to hit, +1 damage",
        "6 yd/s -> nothing",
        "overtaking at 10 against 3 -> 7",
        "overtaking at 10 against 4 -> 6",
        "head-on 4 and 3 -> 7",
    ],
)
def test_relative_velocity_of_7_or_more_gives_minus_1_to_hit_and_plus_1_damage(
    mount_speed: int, foe_speed: int, foe_heading: int, relative: float, expected: tuple[int, int]
) -> None:
    """Basic Set: Mounted Combat > Cavalry Weapons."""
    world = gurps_world()
    _, rider = mounted_pair(world, velocity=mount_speed)
    foe = _foe(world, foe_speed, foe_heading)
    assert relative_velocity(world, rider, foe) == relative
    attack = mounted_attack(world, rider, 12, foe)
    assert (dict(attack.modifiers).get("relative velocity", 0), attack.damage_bonus) == expected
    assert mounted_attack(world, rider, 12, foe, ranged=True).damage_bonus == 0


def test_relative_velocity_between_two_riders_uses_both_mounts() -> None:
    world = gurps_world()
    _, rider = mounted_pair(world, velocity=5)
    other_horse = spawn_horse(world, at=(8, 0), facing=3, velocity=5)
    other = spawn_rider(world, at=(8, 1))
    seat(world, other, other_horse)
    assert relative_velocity(world, rider, other) == 10.0


def test_a_st_25_warhorse_charging_at_move_8_couches_a_lance_for_2d_plus_3() -> None:
    """Basic Set: Mounted Combat > Cavalry Weapons > Lances, the worked example."""
    world = gurps_world()
    _, rider = mounted_pair(world, velocity=8, st=25)
    world.step()
    assert couched_lance(world, rider) == LanceAttack(Damage(2, 3), "impaling", None)
    assert couched_lance(world, rider, jousting=True) == LanceAttack(Damage(2, 3), "crushing", 15)


def test_a_couched_lance_from_a_standing_mount_is_the_lance_bonus_alone() -> None:
    world = gurps_world()
    _, rider = mounted_pair(world, st=25)
    world.step()
    assert couched_lance(world, rider).damage == Damage(0, 3)


@pytest.mark.parametrize(("saddle", "stirrups"), [(False, True), (True, False)], ids=["no saddle", "no stirrups"])
def test_couching_a_lance_needs_saddle_and_stirrups(saddle: bool, stirrups: bool) -> None:
    world = gurps_world()
    _, rider = mounted_pair(world, saddle=saddle, stirrups=stirrups)
    missing = "saddle" if not saddle else "stirrups"
    with pytest.raises(IntentError, match=rf"Mount\.{missing} = False: couching a lance needs a saddle and stirrups"):
        couched_lance(world, rider)


@pytest.mark.parametrize(
    ("attack", "horseshoes", "damage"),
    [
        ("kick", True, Damage(1, 1)),
        ("trample", True, Damage(1, 1)),
        ("bite", True, Damage(1)),
        ("kick", False, Damage(1)),
    ],
    ids=["kick, iron shoes -> +1", "trample, iron shoes -> +1", "bite -> no bonus", "kick, unshod -> no bonus"],
)
def test_iron_horseshoes_add_1_to_kicks_and_tramples(attack: str, horseshoes: bool, damage: Damage) -> None:
    """Basic Set: Mounted Combat > Attacks by Mounts."""
    world = gurps_world()
    horse = spawn_horse(world, iron_horseshoes=horseshoes)
    assert mount_attack_damage(world, horse, attack, Damage(1)) == damage


@pytest.mark.parametrize(
    ("moved", "aim"), [(0, None), (1, None), (2, 1), (8, 1)], ids=["still", "a step", "2 yd -> one Aim", "8 yd"]
)
def test_aiming_from_a_mount_that_moved_more_than_a_step(moved: int, aim: int | None) -> None:
    """Basic Set: Mounted Combat > Using Ranged Weapons While Mounted > Aim."""
    world = gurps_world()
    _, rider = mounted_pair(world, velocity=moved)
    world.step()
    assert mounted_attack(world, rider, 13, ranged=True).max_aim_turns == aim
    assert mounted_attack(world, rider, 13).max_aim_turns is None


@pytest.mark.parametrize(
    ("chosen", "moved", "aim"),
    [(Rules.basic(), 2, 1), (Rules.house(), 2, None), (Rules.house(), 3, 1)],
    ids=[
        "Basic Set: 2 yd beyond the horse's step of 1 -> one Aim",
        "house: 2 yd within the rider's step of 2 (Basic Move 20) -> any Aim",
        "house: 3 yd beyond the rider's step -> one Aim",
    ],
)
def test_house_rules_mounts_the_aim_limit_counts_the_riders_step(chosen: Rules, moved: int, aim: int | None) -> None:
    """House rules: Mounts: more than one Aim helps only while the mount moves no faster than the rider's own
    Step; the Basic Set counts the mount's step (Mounted Combat > Using Ranged Weapons While Mounted > Aim)."""
    world = gurps_world(chosen)
    _, rider = mounted_pair(world, velocity=moved)
    world.get(rider, Mover).basic_move = 20
    world.step()
    assert mounted_attack(world, rider, 13, ranged=True).max_aim_turns == aim


@pytest.mark.parametrize(
    ("trick", "modifier"), [("turn_in_saddle", -4), ("far_side", -6)], ids=["turn in the saddle", "far side"]
)
def test_shooting_tricks_cost_weapon_skill(trick: str, modifier: int) -> None:
    """Basic Set: Mounted Combat > Using Ranged Weapons While Mounted > Tricks."""
    world = gurps_world()
    _, rider = mounted_pair(world)
    take_trick(world, rider, trick)
    attack = mounted_attack(world, rider, 14, ranged=True)
    assert attack.effective_skill == 12 + modifier


def test_hanging_on_the_far_side_leaves_few_targets_and_near_misses_hit_the_mount() -> None:
    world = gurps_world()
    horse, rider = mounted_pair(world)
    assert target_locations(world, rider) is None
    take_trick(world, rider, "far_side")
    assert target_locations(world, rider) == FAR_SIDE_TARGETS
    assert missed_attack(world, rider, -4) == Redirect(horse, False)
    assert missed_attack(world, rider, -1) == Redirect(horse, False)
    assert missed_attack(world, rider, -5) is None


@pytest.mark.parametrize(
    ("margin", "target_is_mount", "expected"),
    [(-1, False, "mount"), (-2, False, None), (0, False, None), (-1, True, "rider"), (-3, True, None)],
    ids=[
        "miss the rider by 1 -> the mount",
        "by 2 -> nothing",
        "a hit stays a hit",
        "miss the mount by 1 -> the rider",
        "by 3 -> nothing",
    ],
)
def test_an_attack_that_misses_by_1_hits_the_other_unless_it_defends(
    margin: int, target_is_mount: bool, expected: str | None
) -> None:
    """Basic Set: Mounted Combat > Mounted Combat Results."""
    world = gurps_world()
    horse, rider = mounted_pair(world)
    found = missed_attack(world, horse if target_is_mount else rider, margin)
    names = {horse: "mount", rider: "rider"}
    assert (names[found.entity] if found else None) == expected
    assert found is None or found.may_defend


@pytest.mark.parametrize(
    ("riding", "modifier"), [(9, -3), (11, -1), (12, 0), (15, 0)], ids=["Riding 9 -> -3", "11 -> -1", "12", "15"]
)
def test_a_rider_defends_at_full_with_riding_12_or_more(riding: int, modifier: int) -> None:
    """Basic Set: Mounted Combat > Mounted Defense: e.g. Riding 9 gives -3 to all active defenses."""
    world = gurps_world()
    horse, rider = mounted_pair(world, riding=riding)
    assert mounted_defense(world, rider) == MountedDefense(("dodge", "block", "parry"), modifier)
    assert mounted_defense(world, horse) == MountedDefense(("dodge",), 0)


def test_on_a_bucking_mount_rider_and_mount_may_only_dodge() -> None:
    """Basic Set: Mounted Combat > Spooked Mounts."""
    world = gurps_world()
    horse, rider = mounted_pair(world)
    spook(world, horse)
    assert mounted_defense(world, rider) == MountedDefense(("dodge",), 0)
    assert mounted_defense(world, horse) == MountedDefense(("dodge",), 0)


def test_a_rider_on_foot_has_no_mounted_defense() -> None:
    world = gurps_world()
    walker = spawn_rider(world)
    with pytest.raises(IntentError, match="the rider is on foot"):
        mounted_defense(world, walker)


def test_a_rider_is_three_feet_above_a_standing_foe() -> None:
    """Basic Set: Mounted Combat > Height Difference, with the project's Combat at Different Levels table."""
    world = gurps_world()
    _, rider = mounted_pair(world)
    foe = spawn_rider(world, at=(2, 0))
    for a, b in ((rider, foe), (foe, rider)):
        found = height_difference(world, a, b)
        assert (found.higher, found.height_ft, found.row.lower_defense, found.row.higher_defense) == (rider, 3, -1, 1)
    assert height_difference(world, rider, foe, reach_yd=2).row.lower_defense == 0
    world.get(foe, Posture).state = PostureState.KNEELING
    assert height_difference(world, rider, foe).higher is None


def test_two_riders_fight_level() -> None:
    world = gurps_world()
    _, rider = mounted_pair(world)
    other_horse = spawn_horse(world, at=(4, 0))
    other = spawn_rider(world, at=(4, 1))
    seat(world, other, other_horse)
    assert height_difference(world, rider, other).height_ft == 0
    assert world.get(other, Rider).mount == other_horse

"""Attacks and defenses in play (the COMBAT phase): each rule of the texts on attacking and defending, driven through
``World.step`` with scripted dice and the arithmetic worked in a comment. Horses stand at (0, 0) facing east, so a
rider sits at (-1, 0) (the centre of a three-hex horse); after a move of N yards the rider sits at (N - 1, 0)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from support import gurps_world, of_type
from support.combat import arm, flier, footman, knight
from support.mounted import rolls, script, spawn_horse, spawn_rider

from esper_motion.components import (
    Attack,
    Condition,
    Control,
    Defenses,
    Facing,
    Intent,
    Maneuver,
    Mount,
    Mover,
    MoveState,
    Obstacle,
    Position,
    Posture,
    PostureState,
    Rider,
    Velocity,
)
from esper_motion.ecs import Event, IntentError, RollMade, World, WorldError
from esper_motion.systems.gurps import (
    AttackNotMade,
    AttackRedirected,
    AttackRolled,
    DamageDealt,
    DefenseRolled,
    FellOff,
    KnockedBack,
    MountSpooked,
    Retreated,
    Rules,
    mount_attack,
    seat,
    spook,
    use_injury,
)
from esper_motion.systems.gurps.rules import Variant


def attack_of(events: list[Event]) -> AttackRolled:
    (found,) = of_type(events, AttackRolled)
    return found


def defense_of(events: list[Event]) -> DefenseRolled:
    (found,) = of_type(events, DefenseRolled)
    return found


def swordsman(world: World, at: tuple[int, int], *, skill: int = 12, **attack: object) -> int:
    """A footman taking an Attack with a broadsword (1d+1 cutting unless told) at ``skill``."""
    man = footman(world, at)
    world.get(man, Intent).maneuver = Maneuver.ATTACK
    weapon: dict[str, object] = {"damage_dice": 1, "damage_adds": 1, "damage_type": "cutting", **attack}
    arm(world, man, skill=skill, skill_name="Broadsword", **weapon)
    return man


def archer(world: World, at: tuple[int, int], *, skill: int = 13, **attack: object) -> int:
    """A footman taking an Attack with a bow (1d+2 impaling) at ``skill``."""
    man = footman(world, at)
    world.get(man, Intent).maneuver = Maneuver.ATTACK
    arm(world, man, weapon="ranged", skill=skill, skill_name="Bow", damage_dice=1, damage_adds=2,
        damage_type="impaling", **attack)  # fmt: skip
    return man


def fast_runner(world: World, at: tuple[int, int], velocity: int, **defenses: object) -> int:
    """A footman running east at ``velocity`` on a Move, with Enhanced Move to a top speed of 10."""
    runner = footman(world, at, **defenses)
    world.get(runner, Intent).maneuver = Maneuver.MOVE
    world.get(runner, Facing).direction = 0
    world.get(runner, Velocity).yps, world.get(runner, Velocity).heading = velocity, 0
    mover = world.get(runner, Mover)
    mover.top_speed, mover.enhanced = 10, True
    return runner


def sword_for(world: World, rider: int, target: int, skill: int = 15, **attack: object) -> None:
    arm(world, rider, target=target, skill=skill, skill_name="Broadsword", damage_dice=1, damage_adds=2,
        damage_type="cutting", **attack)  # fmt: skip


# --- Cavalry Weapons ----------------------------------------------------------------------------------------------


def test_cavalry_weapons_a_rider_strikes_at_the_lower_of_weapon_skill_and_riding() -> None:
    """Basic Set: Mounted Combat > Cavalry Weapons: Broadsword 15 from the saddle with Riding 13 is 13."""
    world = gurps_world()
    _, rider = knight(world, velocity=0, skills={"Broadsword": 15})
    foe = footman(world, (-1, 1))
    sword_for(world, rider, foe)
    # attack 13 rolls 13 (made by 0); dodge 8 rolls 9 (fails); 1d+2 rolls 4 + 2 = 6 cutting, x1.5 = 9 injury;
    # 9 > 11 / 2 is a major wound: HT 10 rolls 10 and holds
    script(world, 13, 9)
    world.dice.script(4)
    script(world, 10)
    events = world.step()
    attack = attack_of(events)
    assert (attack.skill, attack.modifiers, attack.roll.target, attack.roll.success) == (13, (), 13, True)
    (damage,) = of_type(events, DamageDealt)
    assert (damage.rolled, damage.injury) == (6, 9)
    assert world.get(foe, Condition).injury == 9


def test_house_mounts_cavalry_training_lifts_the_riding_limit() -> None:
    """House rules: Mounts: with the Cavalry Training perk, Broadsword 15 stays 15 whatever the rider's Riding 13."""
    world = gurps_world(Rules.house())
    _, rider = knight(world, velocity=0)
    world.get(rider, Rider).cavalry_training = True
    foe = footman(world, (-1, 1))
    sword_for(world, rider, foe)
    script(world, 18)  # 15 rolls 18: a critical failure, a miss
    assert attack_of(world.step()).roll.target == 15


@pytest.mark.parametrize(
    ("rules", "velocity", "to_hit", "damage"),
    [(Rules.basic(), 6, 0, "1d+2"), (Rules.basic(), 7, -1, "1d+3"), (Rules.house(), 10, -2, "1d+4")],
    ids=["basic: 6 yd/s, nothing", "basic: 7 yd/s, -1 and +1", "house: 10 yd/s, Size value 4 - 2: -2 and +2"],
)
def test_cavalry_weapons_a_relative_velocity_of_7_gives_minus_1_to_hit_and_plus_1_damage(
    rules: Rules, velocity: int, to_hit: int, damage: str
) -> None:
    """Basic Set: Mounted Combat > Cavalry Weapons: at a relative velocity of 7 or more, -1 to hit and +1 damage.
    House rules: Mounts: the Size value of the relative speed (10 yd/s: +4) minus 2, to hit and to damage."""
    world = gurps_world(rules)
    _, rider = knight(world, velocity=velocity, state=MoveState.HIGH_SPEED if velocity > 8 else MoveState.NORMAL)
    foe = footman(world, (4, -1))  # beside the horse's path; the rider passes it at (3, 0) or (4, 0)
    sword_for(world, rider, foe, skill=13)
    script(world, 3, 18)  # 3: a critical success, no defense
    world.dice.script(1)
    events = world.step()
    attack = attack_of(events)
    assert attack.modifiers == ((("relative velocity", to_hit),) if to_hit else ())
    assert attack.roll.target == 13 + to_hit
    assert of_type(events, DamageDealt)[0].damage == damage


# --- Lances --------------------------------------------------------------------------------------------------------


def test_couched_lance_st_25_warhorse_charging_at_move_8() -> None:
    """Basic Set: Mounted Combat > Cavalry Weapons > Lances: a ST 25 warhorse that ran 8 yards gives its couched
    lance (25 x 8) / 100 = 2 dice, rounded down, +3 impaling, as the text's own example has it: the lance's damage
    comes from the mount's speed, so the melee +1 damage for a relative velocity of 8 (7 or more) does not add,
    while its -1 to hit stands (Cavalry Weapons): 2d+3."""
    world = gurps_world()
    _, rider = knight(world)
    foe = footman(world, (10, 0))
    arm(world, rider, target=foe, skill=14, skill_name="Lance", reach_yd=4, lance="couched")
    # attack: Lance 14 capped at Riding 13, -1 relative velocity = 12, rolls 10; dodge 8 rolls 12 (fails);
    # damage 2d+3 rolls 4 + 5 + 3 = 12 impaling, x2 = 24 injury; a major wound (24 > 11 / 2): HT 10 rolls 10, holds
    script(world, 10, 12)
    world.dice.script(4, 5)
    script(world, 10)
    events = world.step()
    attack = attack_of(events)
    assert (attack.skill, attack.modifiers, attack.roll.target) == (13, (("relative velocity", -1),), 12)
    defense = defense_of(events)
    assert (defense.defense, defense.roll.target, defense.roll.success) == ("dodge", 8, False)
    (damage,) = of_type(events, DamageDealt)
    assert (damage.damage, damage.rolled, damage.damage_type, damage.injury) == ("2d+3", 12, "impaling", 24)
    assert world.get(foe, Condition).injury == 24


def test_couched_lance_with_the_speed_bonus_stacked_as_an_option() -> None:
    """Basic Set: Mounted Combat > Cavalry Weapons > Lances, the stacked reading (``Rules.lance_speed_bonus``): the
    same charge adds the melee +1 damage for a relative velocity of 8 to the lance's 2d+3: 2d+4."""
    world = gurps_world(Rules(lance_speed_bonus=True))
    _, rider = knight(world)
    foe = footman(world, (10, 0))
    arm(world, rider, target=foe, skill=14, skill_name="Lance", reach_yd=4, lance="couched")
    # attack 12 rolls 10; dodge 8 rolls 12; 2d+4 rolls 4 + 5 + 4 = 13 impaling, x2 = 26; HT 10 rolls 10
    script(world, 10, 12)
    world.dice.script(4, 5)
    script(world, 10)
    (damage,) = of_type(world.step(), DamageDealt)
    assert (damage.damage, damage.injury) == ("2d+4", 26)


def test_jousting_lance_deals_crushing_damage_and_snaps_above_15() -> None:
    """Basic Set: Mounted Combat > Cavalry Weapons > Lances: a jousting lance does the same damage as a couched one,
    crushing, and snaps when it rolls more than 15, dealing 15: a ST 40 horse charging at Move 8 gives (40 x 8) / 100 =
    3 dice, rounded down, +3."""
    world = gurps_world()
    _, rider = knight(world, st=40)
    foe = footman(world, (10, 0))
    arm(world, rider, target=foe, skill=14, skill_name="Lance", reach_yd=4, lance="jousting")
    # attack 12 rolls 10; dodge 8 rolls 12; 3d+3 rolls 6 + 6 + 1 + 3 = 16: snaps, 15 crushing, 15 injury;
    # knockback 15 // (ST 11 - 2) = 1 yd; a major wound: HT 10 rolls 10; knocked back, DX 11 rolls 10
    script(world, 10, 12)
    world.dice.script(6, 6, 1)
    script(world, 10, 10)
    (damage,) = of_type(world.step(), DamageDealt)
    assert (damage.damage, damage.damage_type, damage.rolled) == ("3d+3", "crushing", 15)
    assert (damage.lance_snapped, damage.injury) == (True, 15)
    assert damage.knockback_yd == 1


def test_a_lance_is_couched_from_the_saddle_only() -> None:
    """Basic Set: Mounted Combat > Cavalry Weapons > Lances: couching needs a saddle and stirrups; the step that asks
    for it without them is refused and leaves the world as it was."""
    world = gurps_world()
    _, rider = knight(world, stirrups=False)
    foe = footman(world, (10, 0))
    arm(world, rider, target=foe, skill=14, skill_name="Lance", reach_yd=4, lance="couched")
    with pytest.raises(IntentError, match="stirrups"):
        world.step()
    assert world.turn == 0


# --- Using Ranged Weapons While Mounted ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "velocity", "aim"),
    [(Rules.basic(), 0, 2 + 2), (Rules.basic(), 8, 2), (Rules.house(), 2, 2)],
    ids=["standing: Acc 2 + 2 for three turns", "basic: the mount ran 8 > a step", "house: 2 yd > the rider's step"],
)
def test_aim_from_a_mount_that_moves_more_than_a_step_counts_one_turn(rules: Rules, velocity: int, aim: int) -> None:
    """Basic Set: Mounted Combat > Using Ranged Weapons While Mounted > Aim: once the mount moves more than a step,
    extra turns of Aim do not help; House rules: Mounts: no more than one Aim past the rider's Step. Three turns of
    Aim with Acc 2 give +2 +2 standing (docs/architecture.md > Facts the rules lean on), +2 on the move."""
    world = gurps_world(rules)
    _, rider = knight(world, velocity=velocity)
    foe = footman(world, (velocity, 4))
    arm(world, rider, target=foe, weapon="ranged", skill=13, skill_name="Bow", accuracy=2, aim_turns=3,
        damage_type="impaling")  # fmt: skip
    script(world, 18)
    assert ("Aim", aim) in attack_of(world.step()).modifiers


def test_tricks_turning_in_the_saddle_to_shoot_gives_minus_4_and_minus_1_to_the_noisy_shot_riding_roll() -> None:
    """Basic Set: Mounted Combat > Using Ranged Weapons While Mounted (Attack; Tricks): turning in the saddle to shoot
    is -4 to the weapon and -1 to Riding rolls that turn; a noisy weapon makes the rider roll Riding after the shot."""
    world = gurps_world()
    _, rider = knight(world, velocity=0)
    foe = footman(world, (-1, 2))  # 2 yd from the seat: no speed/range modifier
    arm(world, rider, target=foe, weapon="ranged", skill=13, skill_name="Pistol", noisy=True, trick="turn_in_saddle",
        damage_type="piercing")  # fmt: skip
    script(world, 17, 10)  # Pistol 13 - 4 = 9 rolls 17 (a miss); Riding 13 - 1 = 12 rolls 10
    events = world.step()
    assert attack_of(events).modifiers == (("turn in saddle", -4),)
    (shot,) = rolls(events, "noisy shot")
    assert shot.result.target == 12  # type: ignore[union-attr]


def test_tricks_a_rider_on_the_far_side_exposes_only_foot_face_eyes_skull_and_a_hand() -> None:
    """Basic Set: Mounted Combat > Using Ranged Weapons While Mounted > Tricks: an unaimed blow at a rider hanging on
    the far side cannot land; one aimed at the face can."""
    world = gurps_world()
    _, rider = knight(world, velocity=0)
    foe = swordsman(world, (-1, 1))
    arm(world, rider, target=foe, weapon="ranged", skill=13, skill_name="Bow", trick="far_side")
    arm(world, foe, target=rider, skill=12, skill_name="Broadsword")
    script(world, 18)  # the rider's shot at Bow 13 - 6 rolls 18
    events = world.step()
    (refused,) = of_type(events, AttackNotMade)
    assert (refused.attacker, refused.target) == (foe, rider)
    assert "foot, face, eyes, skull, hand" in refused.reason


def test_tricks_a_miss_by_4_or_less_on_a_rider_on_the_far_side_hits_the_mount() -> None:
    """Basic Set: Mounted Combat > Using Ranged Weapons While Mounted > Tricks: a miss by 4 or less on a rider
    hanging on the far side hits the mount, which does not defend; the hit mount then makes its rider roll Riding
    minus its shock (Mounted Combat Results)."""
    world = gurps_world()
    horse, rider = knight(world, velocity=0)
    foe = swordsman(world, (-1, 1))
    arm(world, rider, target=foe, weapon="ranged", skill=13, skill_name="Bow", trick="far_side")
    arm(world, foe, target=rider, skill=14, skill_name="Broadsword", damage_dice=1, damage_adds=1,
        damage_type="cutting", location="face")  # fmt: skip
    # the rider's shot rolls 18; the footman's Broadsword 14 - 5 for the face = 9 rolls 12: a miss by 3, onto the
    # horse; 1d+1 rolls 3 + 1 = 4 cutting, x1.5 = 6 injury; then Riding 13 - 3 (far side) - 4 (shock of 6) = 6 rolls 6
    script(world, 18, 12)
    world.dice.script(3)
    script(world, 6)
    events = world.step()
    (redirect,) = of_type(events, AttackRedirected)
    assert (redirect.hit, redirect.margin, redirect.may_defend) == (horse, -3, False)
    assert of_type(events, DefenseRolled) == []
    (damage,) = of_type(events, DamageDealt)
    assert (damage.target, damage.injury) == (horse, 6)
    (held,) = rolls(events, "hit mount")
    assert held.result.target == 6  # type: ignore[union-attr]


# --- Mounted Combat Results ----------------------------------------------------------------------------------------


def test_mounted_combat_results_a_miss_by_1_on_the_rider_hits_the_mount_unless_it_dodges() -> None:
    """Basic Set: Mounted Combat > Mounted Combat Results: an attack on a rider that misses by 1 hits the mount
    unless the mount makes its active defense."""
    world = gurps_world()
    horse, rider = knight(world, velocity=0)
    world.add(horse, Defenses(dodge=9, retreat=False))
    foe = swordsman(world, (-1, 1), target=rider)
    # Broadsword 12 rolls 13: a miss by 1, onto the horse; its Dodge 9 rolls 10 (fails); 1d+1 rolls 2 + 1 = 3, x1.5 =
    # 4 injury; Riding 13 - 4 (shock) = 9 rolls 9
    script(world, 13, 10)
    world.dice.script(2)
    script(world, 9)
    events = world.step()
    (redirect,) = of_type(events, AttackRedirected)
    assert (redirect.attacker, redirect.hit, redirect.may_defend) == (foe, horse, True)
    assert defense_of(events).defender == horse
    assert of_type(events, DamageDealt)[0].target == horse


def test_mounted_combat_results_a_miss_by_1_on_the_mount_hits_the_rider_unless_the_rider_defends() -> None:
    """Basic Set: Mounted Combat > Mounted Combat Results: the reverse holds for attacks aimed at the mount."""
    world = gurps_world()
    horse, rider = knight(world, velocity=0)
    world.add(rider, Defenses(dodge=9, retreat=False))
    world.get(rider, Intent).maneuver = Maneuver.DO_NOTHING
    swordsman(world, (0, 1), target=horse)
    # Broadsword 12 rolls 13: a miss by 1, onto the rider; its Dodge 9 +1 (3 ft above the footman) = 10 rolls 10
    script(world, 13, 10)
    events = world.step()
    assert of_type(events, AttackRedirected)[0].hit == rider
    defense = defense_of(events)
    assert (defense.defender, defense.modifiers, defense.roll.success) == (rider, (("3 ft above on a mount", 1),), True)
    assert of_type(events, DamageDealt) == []


@pytest.mark.parametrize(
    ("rules", "parry"),
    [(Rules.house(), -2), (Rules(flight=Variant.HOUSE, house_height_riders=False), -1)],
    ids=["house: a yard of height, -2", "the house rule between fliers only: Height Difference, -1"],
)
def test_house_flying_height_a_rider_a_yard_above_a_footman_gives_his_parry_minus_2(rules: Rules, parry: int) -> None:
    """House rules: Flying Movement and Combat: a yard of height gives the higher fighter +2 to defend and the foe -2,
    fliers or not: a rider sits 3 ft = 1 yd above a standing footman (Basic Set: Mounted Combat > Height
    Difference), so the footman's Parry 9 is 9 - 2 = 7. With ``Rules.house_height_riders`` off, the rider keeps the
    Basic Set's Combat at Different Levels for 3 ft: 9 - 1 = 8."""
    world = gurps_world(rules)
    _, rider = knight(world, velocity=0, skills={"Broadsword": 13})
    foe = footman(world, (-1, 1), dodge=6, parry=9)
    sword_for(world, rider, foe, skill=13)
    script(world, 10, 3)  # the sword at 13 rolls 10; the parry rolls 3, a critical success
    defense = defense_of(world.step())
    assert (defense.defense, defense.modifiers, defense.roll.target) == (
        "parry",
        (("a rider 3 ft above", parry),),
        9 + parry,
    )


def test_mounted_combat_results_a_hit_mount_makes_its_rider_roll_riding_minus_its_shock() -> None:
    """Basic Set: Mounted Combat > Mounted Combat Results: a hit on the mount is a Riding roll minus the mount's
    shock penalty, or the mount spooks."""
    world = gurps_world()
    horse, _ = knight(world, velocity=0)
    swordsman(world, (0, 1), target=horse)
    # Broadsword 12 rolls 10; the horse has no Defenses; 1d+1 rolls 3 + 1 = 4, x1.5 = 6 injury;
    # Riding 13 - 4 = 9 rolls 12: the horse spooks
    script(world, 10)
    world.dice.script(3)
    script(world, 12)
    events = world.step()
    assert world.get(horse, Condition).injury == 6
    assert rolls(events, "hit mount")[0].result.target == 9  # type: ignore[union-attr]
    assert of_type(events, MountSpooked)


def test_mounted_combat_results_a_stunned_rider_rolls_riding_minus_4_or_falls() -> None:
    """Basic Set: Mounted Combat > Mounted Combat Results: a stunned rider rolls Riding-4 or falls off. A major wound
    (more than half HP) that fails its HT roll stuns (docs/architecture.md > Facts the rules lean on)."""
    world = gurps_world()
    _, rider = knight(world, velocity=0)
    swordsman(world, (-1, 1), target=rider)
    # Broadsword 12 rolls 10; the rider has no Defenses; 1d+1 rolls 5 + 1 = 6, x1.5 = 9 injury > 11 / 2: HT 10 rolls
    # 12, stunned; Riding 13 - 4 = 9 rolls 14: falls (then 3 yd of falling damage, 1d rolled)
    script(world, 10)
    world.dice.script(5)
    script(world, 12, 14)
    events = world.step()
    assert of_type(events, DamageDealt)[0].stunned
    assert rolls(events, "stunned")[0].result.target == 9  # type: ignore[union-attr]
    assert of_type(events, FellOff)


def test_mounted_combat_results_knockback_makes_a_rider_with_saddle_and_stirrups_roll_riding_minus_4_a_yard() -> None:
    """Basic Set: Mounted Combat > Mounted Combat Results: knockback is a Riding roll at -4 a yard with saddle and
    stirrups. Crushing damage knocks back a yard per full ST - 2 (docs/architecture.md > Facts the rules lean on)."""
    world = gurps_world()
    _, rider = knight(world, velocity=0)
    swordsman(world, (-1, 1), target=rider, damage_dice=2, damage_adds=0, damage_type="crushing")
    # Broadsword 12 rolls 10; 2d rolls 5 + 5 = 10 crushing, knockback 10 // (11 - 2) = 1 yd; 10 > 5.5: HT 10 rolls 10;
    # Riding 13 - 4 = 9 rolls 9
    script(world, 10)
    world.dice.script(5, 5)
    script(world, 10, 9)
    events = world.step()
    assert of_type(events, DamageDealt)[0].knockback_yd == 1
    assert rolls(events, "knockback")[0].result.target == 9  # type: ignore[union-attr]


# --- Mounted Defense, Spooked Mounts, Height Difference ------------------------------------------------------------


def test_mounted_defense_a_rider_under_riding_12_defends_at_the_difference() -> None:
    """Basic Set: Mounted Combat > Mounted Defense: Riding 9 gives -3 to every active defense; the rider still gets
    +1 for sitting 3 ft above a standing foe (Height Difference): Parry 10 - 3 + 1 = 8 beats Dodge 9 - 3 + 1 = 7."""
    world = gurps_world()
    _, rider = knight(world, velocity=0, riding=9)
    world.add(rider, Defenses(dodge=9, parry=10, retreat=False))
    swordsman(world, (-1, 1), target=rider)
    script(world, 10, 8)  # Broadsword 12 rolls 10; the parry at 8 rolls 8
    defense = defense_of(world.step())
    assert (defense.defense, defense.modifiers, defense.roll.target) == (
        "parry",
        (("Riding below 12", -3), ("3 ft above on a mount", 1)),
        8,
    )


@pytest.mark.parametrize(("rules", "defense"), [(Rules.basic(), "dodge"), (Rules.house(), "parry")])
def test_mounted_defense_a_mounts_only_defense_is_dodge(rules: Rules, defense: str) -> None:
    """Basic Set: Mounted Combat > Mounted Defense: a mount only dodges, whatever else a game gives it; House rules:
    Mounts: a mount defends by its own abilities (``Mount.defenses``)."""
    world = gurps_world(rules)
    horse, _ = knight(world, velocity=0, defenses=("dodge", "parry"))
    world.add(horse, Defenses(dodge=8, parry=11, retreat=False))
    swordsman(world, (0, 1), target=horse)
    script(world, 10, 10)
    assert defense_of(world.step()).defense == defense


def test_spooked_mounts_on_a_bucking_mount_the_rider_only_dodges() -> None:
    """Basic Set: Mounted Combat > Spooked Mounts: while the mount bucks, rider and mount may only dodge."""
    world = gurps_world()
    horse, rider = knight(world, velocity=0)
    world.add(rider, Defenses(dodge=8, parry=12, retreat=False))
    spook(world, horse)
    swordsman(world, (-1, 1), target=rider)
    script(world, 10, 8)
    assert defense_of(world.step()).defense == "dodge"


def test_spooked_mounts_no_attack_from_a_bucking_mount() -> None:
    """Basic Set: Mounted Combat > Spooked Mounts: while the mount bucks, its rider may do nothing but dodge; the
    step that asks for an attack is refused and leaves the world as it was."""
    world = gurps_world()
    horse, rider = knight(world, velocity=0, skills={"Broadsword": 13})
    spook(world, horse)
    sword_for(world, rider, footman(world, (-1, 1)), skill=13)
    with pytest.raises(IntentError, match="bucks"):
        world.step()
    assert world.turn == 0


def test_tricks_are_for_one_shot_the_request_is_cleared_with_the_target() -> None:
    """Basic Set: Mounted Combat > Using Ranged Weapons While Mounted > Tricks: a trick is taken for the turn."""
    world = gurps_world()
    _, rider = knight(world, velocity=0)
    arm(world, rider, target=footman(world, (-1, 3)), weapon="ranged", skill=13, trick="turn_in_saddle")
    script(world, 18)
    world.step()
    assert (world.get(rider, Attack).target, world.get(rider, Attack).trick, world.get(rider, Rider).trick) == (
        None,
        None,
        None,
    )


@pytest.mark.parametrize(("reach", "modifier"), [(1, -1), (2, 0)], ids=["reach 1: -1", "reach 2 cancels 3 ft"])
def test_height_difference_a_rider_is_3_feet_above_a_standing_foe(reach: int, modifier: int) -> None:
    """Basic Set: Mounted Combat > Height Difference: a rider is 3 feet above a standing foe, who defends at -1 by
    Combat at Different Levels; each yard of reach past the first cancels 3 feet (docs/architecture.md)."""
    world = gurps_world()
    _, rider = knight(world, velocity=0, skills={"Broadsword": 13})
    foe = footman(world, (-1, 1))
    sword_for(world, rider, foe, skill=13, reach_yd=reach)
    script(world, 10, 18)
    world.dice.script(1)
    defense = defense_of(world.step())
    assert defense.roll.target == 8 + modifier


# --- High-Speed Movement > Attacking and Defending -----------------------------------------------------------------


@pytest.mark.parametrize(("velocity", "state", "retreat"), [(0, MoveState.NORMAL, 3), (8, MoveState.HIGH_SPEED, 0)])
def test_attacking_and_defending_at_high_speed_a_fighter_dodges_but_cannot_retreat(
    velocity: int, state: MoveState, retreat: int
) -> None:
    """Basic Set: High-Speed Movement > Attacking and Defending: at high speed one may dodge but not retreat; standing,
    a retreat adds +3 to Dodge (docs/architecture.md > Facts the rules lean on)."""
    world = gurps_world()
    runner = fast_runner(world, (0, 3), velocity, retreat=True)
    world.get(runner, Control).state = state
    archer(world, (0, 0), target=runner)
    script(world, 5, 18)
    defense = defense_of(world.step())
    assert defense.roll.target == 8 + retreat
    assert defense.modifiers == ((("retreat", 3),) if retreat else ())


@pytest.mark.parametrize(("rules", "modifier"), [(Rules.basic(), -5), (Rules.house(), -4)])
def test_attacking_and_defending_speed_modifiers_count_the_targets_speed(rules: Rules, modifier: int) -> None:
    """Basic Set: High-Speed Movement > Attacking and Defending, Size and Speed/Range Table: a runner at 5 yd/s ending
    10 yd away is range 10 + speed 5 = 15: -5. House rules: High Speed Movement: only a target at high speed adds its
    speed to the range, so 10 yd: -4."""
    world = gurps_world(rules)
    runner = fast_runner(world, (5, 0), 5)
    archer(world, (0, 0), target=runner)
    script(world, 18)
    assert ("speed and range", modifier) in attack_of(world.step()).modifiers


def test_house_high_speed_movement_a_fast_target_adds_its_speed_to_the_range() -> None:
    """House rules: High Speed Movement: a target at high speed (7 yd/s, above its Encumbered Move 5) adds its speed
    to the range: it ends 10 yd away, 10 + 7 = 17, the next row up is 20: -6."""
    world = gurps_world(Rules.house())
    runner = fast_runner(world, (3, 0), 7)
    world.get(runner, Control).state = MoveState.HIGH_SPEED
    archer(world, (0, 0), target=runner)
    script(world, 18)
    assert ("speed and range", -6) in attack_of(world.step()).modifiers


# --- Flying Combat and the house Flying Movement and Combat --------------------------------------------------------


def test_aerial_attack_a_flier_3_feet_above_a_foe_on_the_ground_uses_combat_at_different_levels() -> None:
    """Basic Set: Flying Combat > Aerial Attack and Defense: against a foe on the ground, Combat at Different Levels:
    1 yd (3 ft) up, the foe defends at -1 (docs/architecture.md > Facts the rules lean on)."""
    world = gurps_world()
    hawk = flier(world, (1, 0), 1.0)
    foe = footman(world, (0, 0))
    sword_for(world, hawk, foe, skill=12)
    script(world, 10, 18)
    world.dice.script(1)
    assert defense_of(world.step()).modifiers == (("height", -1),)


def test_aerial_attack_legs_are_out_of_reach_from_4_feet_above() -> None:
    """Basic Set: Flying Combat > Aerial Attack and Defense; Combat at Different Levels: from 4 ft above, the legs and
    feet are out of reach."""
    world = gurps_world()
    hawk = flier(world, (1, 0), 4 / 3)
    foe = footman(world, (0, 0))
    sword_for(world, hawk, foe, skill=12, location="leg")
    (refused,) = of_type(world.step(), AttackNotMade)
    assert "out of reach" in refused.reason


def test_aerial_attack_the_head_of_a_flier_5_feet_up_is_out_of_reach_from_below() -> None:
    """Basic Set: Flying Combat > Aerial Attack and Defense; Combat at Different Levels: from 5 ft below, the head is
    out of reach; the torso is not."""
    world = gurps_world()
    hawk = flier(world, (1, 0), 5 / 3)
    man = swordsman(world, (0, 0), target=hawk, location="skull")
    (refused,) = of_type(world.step(), AttackNotMade)
    assert (refused.attacker, "out of reach" in refused.reason) == (man, True)


def test_house_flying_a_yard_of_height_advantage_gives_plus_2_and_minus_2_in_melee() -> None:
    """House rules: Flying Movement and Combat: a yard or more above, the foe defends at -2 against the higher one."""
    world = gurps_world(Rules.house())
    hawk = flier(world, (1, 0), 1.0)
    foe = footman(world, (0, 0))
    sword_for(world, hawk, foe, skill=12)
    script(world, 10, 18)
    world.dice.script(1)
    assert defense_of(world.step()).modifiers == (("height", -2),)


@pytest.mark.parametrize(
    ("rules", "modifiers"),
    [(Rules.house(), (("height", -2),)), (dataclasses.replace(Rules.house(), house_height_fliers=False), ())],
    ids=["house: between fliers too", "between fliers, height does not matter"],
)
def test_house_flying_height_between_two_fliers(rules: Rules, modifiers: tuple[tuple[str, int], ...]) -> None:
    """House rules: Flying Movement and Combat: a flier 2 yards up strikes one hovering 1 yard up, a yard below
    it: the house rule gives the lower one -2 to defend, fliers or not. With ``Rules.house_height_fliers`` off, the
    Basic Set holds between two fliers (Flying Combat > Aerial Attack and Defense): no modifier for height."""
    world = gurps_world(rules)
    hawk = flier(world, (1, 0), 2.0)
    prey = flier(world, (0, 0), 1.0, retreat=False)
    sword_for(world, hawk, prey, skill=12)
    script(world, 10, 18)
    world.dice.script(1)
    assert defense_of(world.step()).modifiers == modifiers


def test_house_flying_height_range_counts_the_height_once_from_below() -> None:
    """House rules: Flying Movement and Combat: an archer on the ground shoots a drake 20 yards up and 10 hexes away:
    the range is the 10 yards across plus a yard per yard of height disadvantage, 10 + 20 = 30 yd: -7 on the Size
    and Speed/Range Table (not 20 + 20 = 40, -8, as if the height were also the distance across)."""
    world = gurps_world(Rules.house())
    drake = flier(world, (10, 0), 20.0)
    bowman = archer(world, (0, 0), target=drake)
    script(world, 18)
    assert ("speed and range", -7) in attack_of(world.step()).modifiers
    assert world.get(bowman, Attack).target is None


@pytest.mark.parametrize(
    ("shooter_up", "spell", "modifier"),
    [(True, False, -2), (False, False, -5), (False, True, -4)],
    ids=["4 yd above: 7 - 2 = 5 yd, -2", "4 yd below: 7 + 4 = 11 yd, -5", "a spell from below: 7 + 2 = 9 yd, -4"],
)
def test_house_flying_height_changes_the_range_of_a_ranged_attack(shooter_up: bool, spell: bool, modifier: int) -> None:
    """House rules: Flying Movement and Combat: a yard off the range per 2 yards of height advantage (to no less than
    half the distance or the height), a yard more per yard of disadvantage, half that for spells; 7 yd horizontally."""
    world = gurps_world(Rules.house())
    high = flier(world, (7, 0), 4.0)
    low = footman(world, (0, 0))
    shooter, target = (high, low) if shooter_up else (low, high)
    world.get(shooter, Intent).maneuver = Maneuver.ATTACK
    arm(world, shooter, target=target, weapon="ranged", skill=13, skill_name="Bow", spell=spell)
    script(world, 18)
    assert ("speed and range", modifier) in attack_of(world.step()).modifiers


def test_aerial_defense_a_flier_that_hovers_gets_plus_1_on_a_retreat() -> None:
    """Basic Set: Flying Combat > Aerial Attack and Defense > Defense; Aerial Movement > Steps and Retreats: a flier
    that can hover retreats up or down with +1 over the usual +3: Dodge 9 + 4 = 13."""
    world = gurps_world()
    hawk = flier(world, (3, 0), 2.0, retreat=True)
    world.get(hawk, Intent).maneuver = Maneuver.DO_NOTHING
    archer(world, (0, 0), target=hawk)
    script(world, 10, 13)
    defense = defense_of(world.step())
    assert (defense.modifiers, defense.roll.target) == ((("retreat", 4),), 13)


@pytest.mark.parametrize(
    ("walls", "where"),
    [((), ((4, 0), 2.0)), (((4, 0), (3, 1), (4, -1)), ((3, 0), 3.0))],
    ids=["a yard east, away from the archer", "the three hexes away walled: a yard up"],
)
def test_flying_combat_steps_and_retreats_a_retreating_flier_takes_its_step(
    walls: tuple[tuple[int, int], ...], where: tuple[tuple[int, int], float]
) -> None:
    """Basic Set: Flying Combat > Aerial Movement > Steps and Retreats: a retreat is a step of basic air Move (air
    Move 10: 10 // 10 = 1 yard), which a flier may make vertically. The hawk 2 yards up on (3, 0) retreats from an
    archer on (0, 0) (Dodge 9 + 3 + 1 for a hoverer = 13): it moves to the neighbour farthest from the archer, 4
    hexes away, the first of them from east, (4, 0); with tall walls on all three, it steps up a yard instead."""
    world = gurps_world()
    for q, r in walls:
        world.spawn(Position(q, r), Obstacle(hp=50, height_yd=20))
    hawk = flier(world, (3, 0), 2.0, retreat=True)
    world.get(hawk, Intent).maneuver = Maneuver.DO_NOTHING
    archer(world, (0, 0), target=hawk)
    script(world, 10, 13)
    assert defense_of(world.step()).modifiers == (("retreat", 4),)
    position = world.get(hawk, Position)
    assert (position.hex, position.altitude_yd) == where


@pytest.mark.parametrize(
    ("dx_roll", "posture"), [(10, PostureState.STANDING), (11, PostureState.PRONE)], ids=["DX made", "DX failed: down"]
)
def test_knockback_a_fighter_on_foot_is_knocked_back_and_rolls_dx_or_falls(dx_roll: int, posture: PostureState) -> None:
    """Knockback (docs/architecture.md > Facts the rules lean on): a footman of ST 6 on (1, 0) takes 2d crushing,
    rolled 5 + 5 = 10, from a maceman on (0, 0): 10 // (6 - 2) = 2 yards straight away, east to (3, 0); then DX 11
    at -1 for the yard after the first: 10 keeps his feet, 11 falls down."""
    world = gurps_world()
    foe = footman(world, (1, 0))
    world.get(foe, Mover).st = 6
    swordsman(world, (0, 0), target=foe, damage_dice=2, damage_adds=0, damage_type="crushing")
    script(world, 10, 12)  # the mace at 12 rolls 10; Dodge 8 rolls 12
    world.dice.script(5, 5)  # 2d = 10 crushing, 10 injury: a major wound (10 > 11 / 2)
    script(world, 10, dx_roll)  # HT 10 rolls 10 and holds; then DX 11 - 1
    events = world.step()
    assert of_type(events, DamageDealt)[0].knockback_yd == 2
    assert world.get(foe, Position).hex == (3, 0)
    assert [(roll.purpose, roll.result.target) for roll in of_type(events, RollMade)][-1] == (
        "keep its feet after knockback",
        10,
    )
    assert world.get(foe, Posture).state is posture


@pytest.mark.parametrize(
    ("walls", "path", "climbed"),
    [((), [(4, 0)], 0.0), (((4, 0), (3, 1), (4, -1)), [], 1.0)],
    ids=["a yard east: the hex on its path", "walled: a yard up, no hex"],
)
def test_flying_combat_steps_and_retreats_the_step_is_told_and_on_the_path(
    walls: tuple[tuple[int, int], ...], path: list[tuple[int, int]], climbed: float
) -> None:
    """Basic Set: Flying Combat > Aerial Movement > Steps and Retreats: the hawk hovering on (3, 0) retreats a yard
    from the archer on (0, 0) (the step of the test above): ``Retreated`` says where to, and its ``Control.path``,
    empty after a turn standing still, holds the hex it stepped to, so the path ends where it is; with the three
    hexes away walled it steps a yard up and enters no hex."""
    world = gurps_world()
    for q, r in walls:
        world.spawn(Position(q, r), Obstacle(hp=50, height_yd=20))
    hawk = flier(world, (3, 0), 2.0, retreat=True)
    world.get(hawk, Intent).maneuver = Maneuver.DO_NOTHING
    shooter = archer(world, (0, 0), target=hawk)
    script(world, 10, 13)
    assert of_type(world.step(), Retreated) == [Retreated(hawk, shooter, tuple(path), climbed)]
    assert world.get(hawk, Control).path == path


def test_knockback_is_told_and_on_the_path() -> None:
    """Knockback (docs/architecture.md > Facts the rules lean on): the footman of the test above, knocked 2 yards
    east from (1, 0), enters (2, 0) and (3, 0): ``KnockedBack`` lists them, after the damage, and his
    ``Control.path``, empty after a turn standing still, holds them."""
    world = gurps_world()
    foe = footman(world, (1, 0))
    world.get(foe, Mover).st = 6
    man = swordsman(world, (0, 0), target=foe, damage_dice=2, damage_adds=0, damage_type="crushing")
    script(world, 10, 12)
    world.dice.script(5, 5)
    script(world, 10, 10)
    events = world.step()
    assert of_type(events, KnockedBack) == [KnockedBack(foe, man, ((2, 0), (3, 0)))]
    assert events.index(of_type(events, DamageDealt)[0]) < events.index(of_type(events, KnockedBack)[0])
    assert world.get(foe, Control).path == [(2, 0), (3, 0)]


def test_acrobatic_dodge_in_the_air_rolls_aerobatics() -> None:
    """Basic Set: Flying Combat (Acrobatic Dodge for fliers): in the air an Acrobatic Dodge rolls Aerobatics; made, +2
    to Dodge (docs/architecture.md > Facts the rules lean on)."""
    world = gurps_world()
    hawk = flier(world, (3, 0), 2.0, retreat=False, acrobatic=True)
    world.get(hawk, Intent).maneuver = Maneuver.DO_NOTHING
    archer(world, (0, 0), target=hawk)
    script(world, 10, 12, 11)  # Bow 13 - 1 (3 yd) rolls 10; Aerobatics 13 rolls 12; Dodge 9 + 2 = 11 rolls 11
    events = world.step()
    assert rolls(events, "acrobatic dodge")[0].result.label == "Aerobatics"  # type: ignore[union-attr]
    defense = defense_of(events)
    assert (defense.modifiers, defense.roll.target, defense.roll.success) == ((("Aerobatics dodge made", 2),), 11, True)


# --- Move and Attack and the "Dragon" rule -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("weapon", "bulk", "skill", "modifiers"),
    [
        ("melee", 0, 9, ()),
        ("ranged", -4, 14, (("Move and Attack", -4),)),
        ("ranged", -1, 14, (("Move and Attack", -2),)),
    ],
    ids=["melee: 14 - 4 = 10, capped at 9", "ranged: Bulk -4", "ranged: -2 beats Bulk -1"],
)
def test_move_and_attack_melee_at_minus_4_capped_at_9_ranged_at_minus_2_or_bulk(
    weapon: str, bulk: int, skill: int, modifiers: tuple[tuple[str, int], ...]
) -> None:
    """Basic Set maneuvers: Move and Attack (docs/architecture.md > Facts the rules lean on)."""
    world = gurps_world()
    man = footman(world, (0, 0))
    world.get(man, Intent).maneuver = Maneuver.MOVE_AND_ATTACK
    foe = footman(world, (1, 0))
    arm(world, man, target=foe, weapon=weapon, bulk=bulk, skill=14)
    script(world, 18)
    attack = attack_of(world.step())
    assert (attack.skill, attack.modifiers) == (skill, modifiers)


def test_dragon_rule_a_flier_on_a_move_and_attack_keeps_its_skill_and_counts_its_speed() -> None:
    """House rules: "Dragon" Rule: a flier on a Move and Attack takes neither the -4 nor the cap of 9; past 7 yards of
    movement its speed relative to the foe counts as the house mounted rule reads it: 10 yd/s, Size value 4 - 2 =
    -2 to hit and +2 damage."""
    world = gurps_world(Rules.house())
    dragon = flier(world, (0, 0), 1.0)
    world.get(dragon, Intent).maneuver = Maneuver.MOVE_AND_ATTACK
    world.get(dragon, Velocity).yps = 10
    foe = footman(world, (10, -1))
    sword_for(world, dragon, foe, skill=14, strike_at_yd=10)
    script(world, 3)  # a critical success
    world.dice.script(1)
    events = world.step()
    attack = attack_of(events)
    assert (attack.skill, attack.modifiers) == (14, (("relative speed", -2),))
    assert of_type(events, DamageDealt)[0].damage == "1d+4"


# --- Mount Loss of Control Table, Attacks by Mounts, house Mounts -------------------------------------------------


def test_mount_loss_of_control_row_11_a_loose_saddle_is_minus_3_to_attacks() -> None:
    """Basic Set: Mounted Combat > Mount Loss of Control Table, 11: attacks while riding are at -3."""
    world = gurps_world()
    horse, rider = knight(world, velocity=0, skills={"Broadsword": 13})
    world.get(horse, Mount).saddle_loose = True
    sword_for(world, rider, footman(world, (-1, 1)), skill=13)
    script(world, 18)
    assert attack_of(world.step()).modifiers == (("loose saddle", -3),)


def test_attacks_by_mounts_the_rider_is_at_minus_2_the_turn_after_the_mount_attacked() -> None:
    """Basic Set: Mounted Combat > Attacks by Mounts: the rider's attack is at -2 if the mount attacked on its last
    turn."""
    world = gurps_world()
    horse, rider = knight(world, velocity=0, skills={"Broadsword": 13})
    foe = footman(world, (-1, 1))
    world.get(horse, Intent).maneuver = Maneuver.ATTACK
    world.get(rider, Intent).maneuver = Maneuver.DO_NOTHING
    mount_attack(world, horse, "kick")
    world.step()
    world.get(rider, Intent).maneuver = Maneuver.ATTACK
    sword_for(world, rider, foe, skill=13)
    script(world, 18)
    assert attack_of(world.step()).modifiers == (("the mount attacked last turn", -2),)


def test_attacks_by_mounts_a_kick_in_play_with_iron_horseshoes_and_the_riders_minus_2_next_turn() -> None:
    """Basic Set: Mounted Combat > Attacks by Mounts: a war-trained horse kicks (its own 1d crushing, +1 with iron
    horseshoes); its rider attacks at -2 on the turn after."""
    world = gurps_world()
    horse, rider = knight(world, velocity=0, skills={"Broadsword": 13}, iron_horseshoes=True)
    foe = footman(world, (1, 0))
    world.get(horse, Intent).maneuver = Maneuver.ATTACK
    world.get(rider, Intent).maneuver = Maneuver.DO_NOTHING
    arm(world, horse, target=foe, skill=12, skill_name="Kick", damage_dice=1, natural="kick")
    script(world, 10, 18)  # the kick at 12 rolls 10; Dodge 8 rolls 18
    world.dice.script(3)  # 1d+1 = 4 crushing
    first = world.step()
    assert of_type(first, DamageDealt)[0].damage == "1d+1"
    world.get(rider, Intent).maneuver = Maneuver.ATTACK
    sword_for(world, rider, footman(world, (-1, 1)), skill=13)
    script(world, 18)
    assert attack_of(world.step()).modifiers == (("the mount attacked last turn", -2),)


def test_attacks_by_mounts_a_mount_acting_before_its_rider_puts_the_minus_2_on_the_same_second() -> None:
    """Basic Set: Mounted Combat > Attacks by Mounts: the rider attacks at -2 if the mount attacked on its last turn.
    The horse (Basic Speed 5) acts before its rider (Basic Speed 4.75), so its kick in second 0 is its last turn when
    the rider strikes later that second: Broadsword 13 - 2 = 11. In second 1 the horse's last turn (just before the
    rider's) had no attack: 13."""
    world = gurps_world()
    horse = spawn_horse(world)
    rider = spawn_rider(world, riding=13, speed=4.75, skills={"Broadsword": 13})
    seat(world, rider, horse)
    world.get(horse, Intent).maneuver = Maneuver.ATTACK
    world.get(rider, Intent).maneuver = Maneuver.ATTACK
    arm(world, horse, target=footman(world, (1, 0)), skill=12, skill_name="Kick", damage_dice=1, natural="kick")
    foe = footman(world, (-1, 1))
    sword_for(world, rider, foe, skill=13)
    script(world, 10, 18)  # the kick at 12 rolls 10; Dodge 8 rolls 18
    world.dice.script(3)  # 1d = 3 crushing
    script(world, 18)  # the rider's 11 rolls 18: a miss
    first = world.step()
    assert [attack.attacker for attack in of_type(first, AttackRolled)] == [horse, rider]
    assert of_type(first, AttackRolled)[1].modifiers == (("the mount attacked last turn", -2),)
    world.get(rider, Intent).maneuver = Maneuver.ATTACK
    sword_for(world, rider, foe, skill=13)
    script(world, 18)
    assert attack_of(world.step()).modifiers == ()


def test_attacks_by_mounts_only_a_war_trained_mount_kicks() -> None:
    """Basic Set: Mounted Combat > Attacks by Mounts."""
    world = gurps_world()
    horse, _ = knight(world, velocity=0, training="well-broken")
    world.get(horse, Intent).maneuver = Maneuver.ATTACK
    arm(world, horse, target=footman(world, (1, 0)), skill=12, natural="kick")
    with pytest.raises(IntentError, match="war-trained"):
        world.step()


@pytest.mark.parametrize(
    ("rules", "counted"),
    [(Rules.house(), True), (dataclasses.replace(Rules.house(), house_out_of_control_skills=False), False)],
    ids=["house: a weapon roll is a DX-based roll", "DX rolls as such only"],
)
def test_house_mounts_minus_10_while_the_mount_is_out_of_control(rules: Rules, counted: bool) -> None:
    """House rules: Mounts: while the mount is out of control, -10 to the rider's DX rolls; reading chosen: an attack
    with a DX-based weapon skill is one, so Broadsword 13 rolls against 13 - 10 = 3. With
    ``Rules.house_out_of_control_skills`` off, only DX rolls as such take it: the attack stays at 13."""
    world = gurps_world(rules)
    horse, rider = knight(world, velocity=0, skills={"Broadsword": 13})
    world.get(horse, Mount).out_of_control = True
    sword_for(world, rider, footman(world, (-1, 1)), skill=13)
    script(world, 18)
    assert (("the mount is out of control", -10) in attack_of(world.step()).modifiers) is counted


@pytest.mark.parametrize(
    ("rules", "saddle", "modifiers"),
    [
        (Rules.house(), True, ()),
        (Rules.house(), False, (("sitting without a saddle", -2),)),
        (Rules.basic(), False, ()),
    ],
    ids=["house, in a saddle: standing", "house, bareback: sitting", "basic: no posture modifier in the saddle"],
)
def test_house_mounts_a_rider_in_a_saddle_counts_as_standing(
    rules: Rules, saddle: bool, modifiers: tuple[tuple[str, int], ...]
) -> None:
    """House rules: Mounts: a rider in a saddle is treated as standing; without one, the rider sits (-2 to attack,
    docs/architecture.md > Facts the rules lean on)."""
    world = gurps_world(rules)
    _, rider = knight(world, velocity=0, saddle=saddle, stirrups=saddle, skills={"Broadsword": 13})
    sword_for(world, rider, footman(world, (-1, 1)), skill=13)
    script(world, 18)
    assert attack_of(world.step()).modifiers == modifiers


def test_house_mounts_a_rider_without_a_saddle_sits_unless_the_option_is_off() -> None:
    """House rules: Mounts: a rider in a saddle counts as standing, so one without a saddle is read as sitting, -2
    to attack (the test above). With ``Rules.house_bareback_sitting`` off, the bareback rider takes no posture
    modifier, as under the Basic Set: Broadsword 13 stays 13."""
    world = gurps_world(dataclasses.replace(Rules.house(), house_bareback_sitting=False))
    _, rider = knight(world, velocity=0, saddle=False, stirrups=False, skills={"Broadsword": 13})
    sword_for(world, rider, footman(world, (-1, 1)), skill=13)
    script(world, 18)
    assert attack_of(world.step()).modifiers == ()


# --- The attack itself ---------------------------------------------------------------------------------------------


def test_an_attack_out_of_reach_is_not_made_and_the_request_is_cleared() -> None:
    world = gurps_world()
    man = swordsman(world, (0, 0))
    foe = footman(world, (3, 0))
    arm(world, man, target=foe, skill=12)
    events = world.step()
    (refused,) = of_type(events, AttackNotMade)
    assert refused.reason == "out of reach: 3 yd away, reach 1"
    assert of_type(events, AttackRolled) == []
    assert world.get(man, Attack).target is None


def test_a_critical_success_leaves_no_defense() -> None:
    world = gurps_world()
    foe = footman(world, (1, 0))
    swordsman(world, (0, 0), target=foe)
    script(world, 4)
    world.dice.script(1)
    events = world.step()
    assert attack_of(events).roll.critical_success
    assert of_type(events, DefenseRolled) == []
    assert of_type(events, DamageDealt)


def test_a_game_plugs_in_its_own_injury_function() -> None:
    world = gurps_world()
    foe = footman(world, (1, 0))
    swordsman(world, (0, 0), target=foe)
    use_injury(world, lambda _world, _victim, damage, _kind: damage // 2)
    script(world, 10, 18)
    world.dice.script(6)  # 1d+1 = 7 cutting; this game's injury is half the damage: 3
    (damage,) = of_type(world.step(), DamageDealt)
    assert damage.injury == 3
    assert world.get(foe, Condition).injury == 3


def test_dr_comes_off_the_damage_before_the_wounding_multiplier() -> None:
    world = gurps_world()
    foe = footman(world, (1, 0), dr=2)
    swordsman(world, (0, 0), target=foe)
    script(world, 10, 18)
    world.dice.script(6)  # 1d+1 = 7 cutting, - DR 2 = 5, x1.5 = 7 injury (7.5 rounded down); 7 > 5.5: HT rolls 10
    script(world, 10)
    (damage,) = of_type(world.step(), DamageDealt)
    assert (damage.rolled, damage.dr, damage.injury) == (7, 2, 7)


def test_an_injury_function_that_gives_no_whole_number_fails_the_step_and_leaves_the_world_as_it_was() -> None:
    world = gurps_world()
    foe = footman(world, (1, 0))
    swordsman(world, (0, 0), target=foe)
    use_injury(world, lambda _world, _victim, _damage, _kind: -1)
    script(world, 10, 18)
    world.dice.script(6)
    with pytest.raises(WorldError, match="injury function gave -1 for entity 1"):
        world.step()
    assert (world.turn, world.get(foe, Condition).injury) == (0, 0)


def test_a_saved_attack_loads_and_steps_to_the_same_events(tmp_path: Path) -> None:
    world = gurps_world()
    _, rider = knight(world)
    foe = footman(world, (10, 0))
    arm(world, rider, target=foe, skill=14, skill_name="Lance", reach_yd=4, lance="couched")
    path = tmp_path / "charge.json"
    world.save(path)
    again = World.load(path)
    assert [event.describe() for event in world.step()] == [event.describe() for event in again.step()]

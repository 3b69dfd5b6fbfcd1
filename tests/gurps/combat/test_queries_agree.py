"""The query functions a game asks between steps and what the COMBAT phase applies agree, both ways: every modifier
a query gives is in the roll the step makes, and every modifier of that roll comes from a query. The checks run in
handlers of the roll events, while the world is as the attack found it. ``preview`` lists the same rolls with their
exact odds."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import pytest
from support import gurps_world, of_type
from support.combat import arm, flier, footman, knight
from support.mounted import script

from esper_motion.components import Attack, Defenses, Intent, Maneuver, Mount, Position, Rider
from esper_motion.ecs import Phase, System, World, success_probability
from esper_motion.systems.gurps import (
    AttackRolled,
    DefenseRolled,
    Rules,
    height_difference,
    height_effect,
    house_ranged_distance,
    mounted_attack,
    mounted_defense,
    move_and_attack,
    preview,
    rider_dx_modifier,
    rules,
    speed_modifier,
)
from esper_motion.systems.gurps.combat.attack import across_yd, strike_distance_yd
from esper_motion.systems.gurps.mounted.common import mount_seat


def expected_attack(world: World, attacker: int, target: int) -> tuple[int, set[tuple[str, int]]]:
    """The skill and the modifiers the queries give for ``attacker``'s attack on ``target`` now."""
    attack = world.get(attacker, Attack)
    ranged = attack.weapon == "ranged"
    skill = attack.skill
    found: set[tuple[str, int]] = set()
    link = world.try_get(attacker, Rider)
    if link is not None and link.mount is not None:
        saddle = mounted_attack(world, attacker, attack.skill, target, ranged)
        skill = saddle.skill
        found |= set(saddle.modifiers)
        if rider_dx_modifier(world, attacker):
            found.add(("the mount is out of control", rider_dx_modifier(world, attacker)))
        aim = rules.aim_bonus(attack.accuracy, attack.aim_turns, saddle.max_aim_turns)
    else:
        aim = rules.aim_bonus(attack.accuracy, attack.aim_turns)
        if world.get(attacker, Intent).maneuver is Maneuver.MOVE_AND_ATTACK:
            moving = move_and_attack(world, attacker, attack.skill, ranged=ranged, bulk=attack.bulk, target=target)
            skill = moving.skill
            found |= set(moving.modifiers)
    if ranged:
        at = mount_seat(world, link.mount) if link is not None and link.mount is not None else None
        shot_from = at or world.get(attacker, Position).hex
        distance: float = strike_distance_yd(world, attacker, target, shot_from)
        if world.rules["gurps"].flight == "house":
            distance = house_ranged_distance(world, attacker, target, across_yd(world, target, shot_from), attack.spell)
        if speed_modifier(world, attacker, target, distance):
            found.add(("speed and range", speed_modifier(world, attacker, target, distance)))
        if aim:
            found.add(("Aim", aim))
    return skill, found


def expected_defense(world: World, defender: int, attacker: int) -> set[tuple[str, int]]:
    """The modifiers the queries give ``defender``'s defense against ``attacker`` now (retreat aside)."""
    found: set[tuple[str, int]] = set()
    link = world.try_get(defender, Rider)
    mounted = world.has(defender, Mount) or (link is not None and link.mount is not None)
    if mounted and mounted_defense(world, defender).modifier:
        found.add(("Riding below 12", mounted_defense(world, defender).modifier))
    attack = world.get(attacker, Attack)
    if attack.weapon == "melee":
        effect = height_effect(world, attacker, defender, attack.reach_yd)
        if effect.defender_defense:
            found.add(("height", effect.defender_defense))
        elif effect.height_ft == 0:
            levels = height_difference(world, attacker, defender, attack.reach_yd)
            lower, higher = levels.row.lower_defense, levels.row.higher_defense
            if levels.higher is not None and world.rules["gurps"].flight == "house":
                lower, higher = -2, 2  # House rules: Flying Movement and Combat, a yard of height
            if levels.higher == attacker and lower:
                found.add(("a rider 3 ft above", lower))
            if levels.higher == defender and higher:
                found.add(("3 ft above on a mount", higher))
    return found


def mounted_sword(world: World) -> int:
    """A rider at Riding 10 with a loose saddle swinging Broadsword 14 at a footman, who swings back."""
    horse, rider = knight(world, velocity=0, riding=10, skills={"Broadsword": 14})
    world.get(horse, Mount).saddle_loose = True
    world.add(rider, Defenses(dodge=9, parry=10, retreat=False))
    foe = footman(world, (-1, 1))
    arm(world, rider, target=foe, skill=14, skill_name="Broadsword")
    world.get(foe, Intent).maneuver = Maneuver.ATTACK
    arm(world, foe, target=rider, skill=12, skill_name="Broadsword")
    return rider


def charging_lance(world: World) -> int:
    _, rider = knight(world)
    foe = footman(world, (10, 0))
    arm(world, rider, target=foe, skill=14, skill_name="Lance", reach_yd=4, lance="couched")
    return rider


def mounted_archer(world: World) -> int:
    _, rider = knight(world, velocity=8)
    foe = footman(world, (8, 6))
    arm(world, rider, target=foe, weapon="ranged", skill=14, skill_name="Bow", accuracy=2, aim_turns=2,
        trick="turn_in_saddle")  # fmt: skip
    return rider


def out_of_control_mount(world: World) -> int:
    horse, rider = knight(world, velocity=0, skills={"Broadsword": 14})
    world.get(horse, Mount).out_of_control = True
    arm(world, rider, target=footman(world, (-1, 1)), skill=14, skill_name="Broadsword")
    return rider


def dragon(world: World) -> int:
    wyrm = flier(world, (0, 0), 1.0)
    world.get(wyrm, Intent).maneuver = Maneuver.MOVE_AND_ATTACK
    foe = footman(world, (0, 1))
    arm(world, wyrm, target=foe, skill=14, skill_name="Claws")
    return wyrm


def high_archer(world: World) -> int:
    hawk = flier(world, (7, 0), 4.0)
    arm(world, hawk, target=footman(world, (0, 0)), weapon="ranged", skill=13, skill_name="Bow")
    return hawk


def footman_on_the_move(world: World) -> int:
    man = footman(world, (0, 0))
    world.get(man, Intent).maneuver = Maneuver.MOVE_AND_ATTACK
    arm(world, man, target=footman(world, (1, 0)), weapon="ranged", skill=13, bulk=-4, skill_name="Bow")
    return man


SCENES: dict[str, tuple[Callable[[World], int], Rules]] = {
    "mounted sword, basic": (mounted_sword, Rules.basic()),
    "mounted sword, house": (mounted_sword, Rules.house()),
    "couched lance": (charging_lance, Rules.basic()),
    "couched lance, house": (charging_lance, Rules.house()),
    "mounted archer": (mounted_archer, Rules.basic()),
    "mount out of control, house": (out_of_control_mount, Rules.house()),
    "dragon, basic": (dragon, Rules.basic()),
    "dragon, house": (dragon, Rules.house()),
    "flier shooting down, house": (high_archer, Rules.house()),
    "Move and Attack with Bulk": (footman_on_the_move, Rules.basic()),
}


class AfterCombat(System):
    """A game's own system in the COMBAT phase, after the library's: the world as the attacks found it (the
    requests aside, which the test keeps), so the queries can be asked what they say."""

    phase = Phase.COMBAT

    def __init__(self, targets: dict[int, int]) -> None:
        super().__init__()
        self.targets = targets
        self.attacks: dict[int, tuple[int, set[tuple[str, int]]]] = {}
        self.defenses: dict[int, set[tuple[str, int]]] = {}

    def run(self) -> None:
        for attacker, target in self.targets.items():
            self.attacks[attacker] = expected_attack(self.world, attacker, target)
            self.defenses[target] = expected_defense(self.world, target, attacker)


@pytest.mark.parametrize("scene", SCENES)
def test_the_queries_and_the_combat_phase_give_the_same_modifiers(scene: str) -> None:
    build, chosen = SCENES[scene]
    world = gurps_world(chosen)
    build(world)
    targets = {entity: attack.target for entity, (attack,) in world.query(Attack) if attack.target is not None}
    probe = AfterCombat(targets)
    world.add_system(probe)
    script(world, 10, 10, 10, 10, 10, 10)
    world.dice.script(*[1] * 12)
    events = world.step()
    attacks = of_type(events, AttackRolled)
    assert attacks
    for event in attacks:
        skill, found = probe.attacks[event.attacker]
        assert event.skill == skill
        aimed = {entry for entry in event.modifiers if entry[0].startswith(("aimed at", "sitting without"))}
        assert set(event.modifiers) - aimed == found  # each query's modifier applied, and no other
    for defense in of_type(events, DefenseRolled):
        assert {entry for entry in defense.modifiers if entry[0] != "retreat"} == probe.defenses[defense.defender]


def test_preview_lists_the_attack_and_the_defense_with_their_exact_odds() -> None:
    """A rider at Riding 10 with a loose saddle swings Broadsword 14: 10 (Riding) - 3 (loose saddle) = 7; the footman
    dodges 8 - 1 (a rider 3 ft above) = 7. Preview and step give the same numbers."""
    world = gurps_world()
    rider = mounted_sword(world)
    forecast = preview(world, rider)
    assert [(roll.purpose, roll.label, roll.target, roll.chance) for roll in forecast.rolls] == [
        ("attack on entity 3", "Broadsword 10-3", 7, Fraction(35, 216)),
        ("entity 3's dodge", "Dodge-1", 7, success_probability(7)),
    ]
    script(world, 7, 7)
    world.dice.script(1)
    events = world.step()
    rolled = [event for event in events if isinstance(event, AttackRolled) and event.attacker == rider]
    assert rolled[0].roll.target == 7


def test_preview_counts_a_trick_asked_for_before_the_turn_takes_it() -> None:
    """Basic Set: Mounted Combat > Using Ranged Weapons While Mounted > Tricks: Bow 13 hanging on the far side is
    13 - 6 = 7 in the forecast and in the step (the target 2 yd off: no speed/range modifier)."""
    world = gurps_world()
    _, rider = knight(world, velocity=0)
    foe = footman(world, (-1, 2))
    arm(world, rider, target=foe, weapon="ranged", skill=13, skill_name="Bow", trick="far_side")
    (attack,) = preview(world, rider).rolls[:1]
    assert (attack.label, attack.target) == ("Bow 13-6", 7)
    script(world, 18)
    (rolled,) = of_type(world.step(), AttackRolled)
    assert rolled.roll.target == attack.target

"""General injury in play, scenario by scenario with scripted dice (Basic Set: Injury, as in docs/architecture.md >
Facts the rules lean on): shock, the major wound, stun, reeling, 0 HP or less, death checks and death, and what they
do to runners, riders, mounts and fliers. The arithmetic is in each docstring."""

from __future__ import annotations

from pathlib import Path

import pytest
from support import gurps_world, of_type
from support.combat import arm, flier, footman, knight
from support.highspeed import mover
from support.mounted import rolls, script

from esper_motion.components import (
    Attack,
    Condition,
    Flight,
    Intent,
    Maneuver,
    Mover,
    MoveState,
    Posture,
    PostureState,
    Rider,
)
from esper_motion.ecs import Event, Phase, RollMade, SuccessRoll, System, World, WorldError
from esper_motion.systems.gurps import (
    AttackNotMade,
    AttackRolled,
    DeathCheck,
    DefenseRolled,
    Died,
    FellOff,
    KnockedDownByWound,
    KnockedOut,
    LostControl,
    MajorWound,
    MountFell,
    StunEnded,
    Stunned,
    default_injury,
    defense_numbers,
    mount_crippled,
    register_injury,
    use_injury,
)
from esper_motion.systems.gurps.shared.injury import wound
from esper_motion.systems.gurps.shared.injury_model import injury_choice
from esper_motion.systems.gurps.shared.movers import body_of, installed_rules, limits


class Wounds(System):
    """A game's COMBAT-phase system that deals the injuries it is told to, through the general injury rules."""

    phase = Phase.COMBAT

    def __init__(self) -> None:
        super().__init__()
        self.due: list[tuple[int, int]] = []

    def run(self) -> None:
        for entity, injury in self.due:
            wound(self.world, entity, injury)
        self.due.clear()


def wounding_world() -> tuple[World, Wounds]:
    world = gurps_world()
    wounds = Wounds()
    world.add_system(wounds)
    return world, wounds


def success_rolls(events: list[Event], label: str) -> list[tuple[str, int]]:
    """``(purpose, total)`` of every success roll whose label starts with ``label`` (``"HT"``, ``"Riding"``)."""
    return [
        (event.purpose, event.result.roll.total)
        for event in events
        if isinstance(event, RollMade)
        and isinstance(event.result, SuccessRoll)
        and event.result.label.startswith(label)
    ]


def ht_rolls(events: list[Event]) -> list[tuple[str, int]]:
    """``(purpose, total)`` of every HT roll."""
    return success_rolls(events, "HT")


def test_injury_shock_counts_on_the_next_turn_only_at_most_4() -> None:
    """Shock: 2 then 3 injury in one turn is -1 a point, at most -4: -4 on the next turn, 0 the turn after."""
    world, wounds = wounding_world()
    man = footman(world)
    wounds.due = [(man, 2), (man, 3)]
    world.step()
    assert world.get(man, Condition).shock == -4
    world.step()
    assert world.get(man, Condition).shock == 0


@pytest.mark.parametrize(
    ("ht", "roll", "outcome"),
    [(10, 10, "holds on"), (10, 11, "stunned"), (10, 14, "stunned"), (10, 15, "unconscious"), (13, 17, "unconscious")],
    ids=["made", "failed by 1", "failed by 4", "failed by 5", "critical failure"],
)
def test_injury_major_wound_ht_roll(ht: int, roll: int, outcome: str) -> None:
    """Major wound: 6 injury is more than half of 11 HP: HT at once. Made (10 against 10): nothing; failed by 1 to 4:
    stunned and knocked down; failed by 5 (15 against 10), or a critical failure (17 against HT 13, failed by only 4):
    unconscious."""
    world, wounds = wounding_world()
    man = footman(world)
    world.get(man, Mover).ht = ht
    wounds.due = [(man, 6)]
    script(world, roll)
    events = world.step()
    assert of_type(events, MajorWound) == [MajorWound(man, 6, 11, outcome)]
    condition = world.get(man, Condition)
    assert (condition.stunned, condition.conscious) == (outcome == "stunned", outcome != "unconscious")
    prone = world.get(man, Posture).state is PostureState.PRONE
    assert prone == (outcome != "holds on")
    assert bool(of_type(events, Stunned)) == (outcome == "stunned")
    assert bool(of_type(events, KnockedDownByWound)) == (outcome == "stunned")
    assert bool(of_type(events, KnockedOut)) == (outcome == "unconscious")


def test_injury_stun_is_do_nothing_defends_at_minus_4_and_ends_on_an_ht_roll_at_the_end_of_its_turn() -> None:
    """Stun. Turn 1: a broadsword (skill 12) rolls 10 and hits; Dodge 8 rolls 14; 1d+1 rolls 3 + 1 = 4 cutting, x1.5
    = 6 injury, a major wound on 11 HP: HT 10 rolls 12, stunned and knocked down. No recovery roll the turn it was
    stunned. Turn 2: it asked to attack and cannot; it dodges prone and stunned at 8 - 3 - 4 = 1 (rolls 14, fails;
    1d+1 rolls 1 + 1 = 2, x1.5 = 3); at the end of its turn HT 10 rolls 10: the stun ends."""
    world = gurps_world()
    victim = footman(world, (1, 0))
    swordsman = footman(world, (0, 0))
    world.get(swordsman, Intent).maneuver = Maneuver.ATTACK
    arm(world, swordsman, skill=12, skill_name="Broadsword", damage_dice=1, damage_adds=1, damage_type="cutting")
    arm(world, victim, skill=12, skill_name="Broadsword", damage_dice=1, damage_adds=1, damage_type="cutting")
    world.get(swordsman, Attack).target = victim
    script(world, 10, 14)
    world.dice.script(3)
    script(world, 12)
    first = world.step()
    assert of_type(first, Stunned) == [Stunned(victim, "a major wound")]
    assert ht_rolls(first) == [("a major wound", 12)]
    world.get(swordsman, Attack).target = victim
    world.get(swordsman, Intent).maneuver = Maneuver.ATTACK
    world.get(victim, Attack).target = swordsman
    world.get(victim, Intent).maneuver = Maneuver.ATTACK
    script(world, 10, 14)
    world.dice.script(1)
    script(world, 10)
    second = world.step()
    assert of_type(second, AttackNotMade) == [AttackNotMade(victim, swordsman, "stunned")]
    [defense] = of_type(second, DefenseRolled)
    assert ("stunned", -4) in defense.modifiers
    assert defense.roll.target == 1
    assert ht_rolls(second) == [("recover from a stun", 10)]
    assert of_type(second, StunEnded) == [StunEnded(victim)]
    assert not world.get(victim, Condition).stunned


def test_injury_reeling_halves_move_and_dodge() -> None:
    """Reeling: 8 injury on 11 HP leaves 3, under 11 / 3: Move 5 is halved to 3 (round up), its sprinting top speed 6
    to 3, and Dodge 8 to 4."""
    world = gurps_world()
    runner = mover(world, hp=11)
    before = limits(world, body_of(world, runner), installed_rules(world))
    world.get(runner, Condition).injury = 8
    after = limits(world, body_of(world, runner), installed_rules(world))
    assert (before.move, after.move, before.top_speed, after.top_speed) == (5, 3, 6, 3)
    assert after.basic_move == 5
    man = footman(world, (3, 0))
    swordsman = footman(world, (2, 0))
    arm(world, swordsman, skill=12, skill_name="Broadsword", damage_dice=1, damage_adds=1, damage_type="cutting")
    world.get(man, Condition).injury = 8
    numbers = defense_numbers(world, man, swordsman)
    assert numbers is not None
    assert ("reeling", -4) in numbers.modifiers
    assert numbers.target == 4


@pytest.mark.parametrize(("maneuver", "rolls_ht"), [(Maneuver.MOVE, True), (Maneuver.DO_NOTHING, False)])
def test_injury_at_0_hp_or_less_an_ht_roll_each_turn_unless_do_nothing(maneuver: Maneuver, rolls_ht: bool) -> None:
    """0 HP or less: 23 injury on 11 HP leaves -12, one full multiple of HP below zero: HT 10 - 1 = 9 as the turn
    opens, rolling 10: unconscious. On Do Nothing, no roll."""
    world = gurps_world()
    man = footman(world)
    world.get(man, Condition).injury = 23
    world.get(man, Intent).maneuver = maneuver
    script(world, 10)
    events = world.step()
    made = [event for event in events if isinstance(event, RollMade) and "0 HP" in event.purpose]
    assert [roll.result.target for roll in made] == ([9] if rolls_ht else [])  # type: ignore[union-attr]
    assert world.get(man, Condition).conscious is not rolls_ht


def test_injury_death_checks_at_each_multiple_of_hp() -> None:
    """Death checks: 45 injury on 11 HP leaves -34, past -1, -2 and -3 x HP (-11, -22, -33). The major wound's HT 10
    rolls 10, made; the checks roll 10 (survives), 11 (failed by 1: mortally wounded) and 13 (failed by 3: dies)."""
    world, wounds = wounding_world()
    man = footman(world)
    wounds.due = [(man, 45)]
    script(world, 10, 10, 11, 13)
    events = world.step()
    assert of_type(events, DeathCheck) == [
        DeathCheck(man, 1, "survives"),
        DeathCheck(man, 2, "mortally wounded"),
        DeathCheck(man, 3, "dies"),
    ]
    assert of_type(events, Died) == [Died(man, "failed the death check at -3 x HP")]
    condition = world.get(man, Condition)
    assert (condition.dead, condition.mortally_wounded, condition.conscious) == (True, True, False)


def test_injury_dead_at_minus_5_x_hp_without_a_roll() -> None:
    """Death: 66 injury on 11 HP leaves -55, -5 x HP: dead, no roll at all."""
    world, wounds = wounding_world()
    man = footman(world)
    wounds.due = [(man, 66)]
    events = world.step()
    assert ht_rolls(events) == []
    assert of_type(events, Died) == [Died(man, "injury of -5 x HP")]


def test_losing_control_a_runner_at_speed_stunned_by_a_wound_trips() -> None:
    """High-Speed Movement > Losing Control: a stunned runner must Do Nothing and trips. 6 injury on 10 HP is a major
    wound; HT 10 rolls 12: stunned. Next turn, at 10 yd/s, it loses control as it opens and trips."""
    world, wounds = wounding_world()
    runner = mover(world, velocity=10, state=MoveState.HIGH_SPEED, basic_move=6)
    wounds.due = [(runner, 6)]
    script(world, 12)
    world.step()
    assert world.get(runner, Condition).stunned
    events = world.step()
    assert of_type(events, LostControl)[0] == LostControl(runner, "stunned", "trip", 0)


def test_mounted_combat_an_unconscious_rider_falls_without_a_riding_roll() -> None:
    """An unconscious rider falls: 7 injury on the rider's 11 HP is a major wound; HT 10 rolls 18, a critical
    failure: unconscious. It falls off the standing horse, 3 yards (8 yd/s, 22 x 8 / 100 = 1.76: 2d), with no
    Riding roll."""
    world, wounds = wounding_world()
    horse, rider = knight(world, velocity=0)
    wounds.due = [(rider, 7)]
    script(world, 18)
    world.dice.script(1, 1)
    events = world.step()
    [fell] = of_type(events, FellOff)
    assert (fell.rider, fell.mount, fell.cause) == (rider, horse, "unconscious")
    assert success_rolls(events, "Riding") == []
    assert world.get(rider, Rider).mount is None


@pytest.mark.parametrize("state", ["stunned", "unconscious"])
def test_mount_loss_of_control_table_row_12_asks_no_riding_roll_of_a_rider_who_cannot_act(state: str) -> None:
    """Mount Loss of Control Table, row 12: a crippled mount falls; it rolls DX+1 (11), scripted 10. A stunned rider
    cannot keep its seat: unseated, a 3-yard fall (2d), with no Riding roll; an unconscious one has already fallen."""
    world = gurps_world()
    horse, rider = knight(world, velocity=0)
    condition = world.get(rider, Condition)
    if state == "stunned":
        condition.stunned = True
    else:
        condition.conscious = False
    mount_crippled(world, horse)
    script(world, 10)
    world.dice.script(1, 1)
    events = world.step()
    assert success_rolls(events, "Riding") == []
    assert world.get(rider, Rider).mount is None
    assert len(of_type(events, FellOff)) == 1


def test_injury_an_unconscious_mount_collapses_and_its_rider_falls() -> None:
    """A mount knocked out collapses: 13 injury on the horse's 25 HP is a major wound; HT 10 rolls 18: unconscious,
    prone. Row 12: the horse's DX+1 (11) rolls 10; the rider's Riding 13 - 2 = 11 rolls 14: unseated, a 3-yard fall
    (2d)."""
    world, wounds = wounding_world()
    horse, _ = knight(world, velocity=0)
    wounds.due = [(horse, 13)]
    script(world, 18, 10, 14)
    world.dice.script(1, 1)
    events = world.step()
    assert of_type(events, KnockedOut) == [KnockedOut(horse, "a major wound")]
    assert of_type(events, MountFell)
    assert rolls(events, "stay seated on the falling mount")[0].result.target == 11  # type: ignore[union-attr]
    assert of_type(events, FellOff)[0].cause == "unseated by the falling mount"


def test_injury_an_unconscious_flier_falls_and_makes_no_recovery_roll() -> None:
    """An unconscious flier falls: 7 injury on 12 HP is a major wound; HT 11 rolls 18: unconscious. 20 yards up it
    stalls and falls 5.35 yards the next second, then 16.05 more, with no DX-4 roll to pull out."""
    world, wounds = wounding_world()
    bird = flier(world, (0, 0), 40.0)
    wounds.due = [(bird, 7)]
    script(world, 18)
    world.step()
    assert world.get(bird, Flight).stalled
    events = world.step() + world.step()
    assert not rolls(events, "stall recovery")
    assert world.get(bird, Flight).fall_yd == pytest.approx(21.4)


def test_use_injury_is_saved_with_the_world_by_its_registered_name(tmp_path: Path) -> None:
    """The injury function a game chose survives a save and a load when it has a registered name."""

    @register_injury("test.half_injury")
    def half(world: World, victim: int, damage: int, damage_type: str) -> int:
        return default_injury(world, victim, damage, damage_type) // 2

    world = gurps_world()
    use_injury(world, half, general_rules=False)
    world.save(tmp_path / "save.json")
    loaded = World.load(tmp_path / "save.json")
    chosen = injury_choice(loaded)
    assert chosen is not None
    assert (chosen.function, chosen.general_rules) == (half, False)


def test_use_injury_of_an_unregistered_function_is_refused_at_save_naming_it(tmp_path: Path) -> None:
    world = gurps_world()
    use_injury(world, lambda _world, _victim, damage, _kind: damage)
    with pytest.raises(WorldError, match=r"injury function .*<lambda> has no registered name"):
        world.save(tmp_path / "save.json")


def test_use_injury_without_the_general_rules_only_adds_up() -> None:
    """With ``general_rules=False`` a major wound is no roll and no stun: 6 injury on 11 HP just adds up."""
    world, wounds = wounding_world()
    use_injury(world, default_injury, general_rules=False)
    man = footman(world)
    wounds.due = [(man, 6)]
    events = world.step()
    assert ht_rolls(events) == []
    assert world.get(man, Condition).injury == 6
    assert not world.get(man, Condition).stunned


def test_injury_an_unconscious_fighter_has_no_defense_and_does_nothing() -> None:
    """Unconscious: no active defense at all, and no attack, whatever its intent asked."""
    world = gurps_world()
    man = footman(world, (1, 0))
    swordsman = footman(world, (0, 0))
    arm(world, swordsman, skill=12, skill_name="Broadsword", damage_dice=1, damage_adds=1, damage_type="cutting")
    arm(world, man, skill=12, skill_name="Broadsword", damage_dice=1, damage_adds=1, damage_type="cutting")
    world.get(man, Condition).conscious = False
    assert defense_numbers(world, man, swordsman) is None
    world.get(man, Intent).maneuver = Maneuver.ATTACK
    world.get(man, Attack).target = swordsman
    events = world.step()
    assert of_type(events, AttackNotMade) == [AttackNotMade(man, swordsman, "unconscious")]
    assert not [event for event in events if isinstance(event, RollMade)]


def test_injury_shock_counts_against_the_next_turns_attack_but_not_its_defense() -> None:
    """Shock: 3 injury in turn 1 is -3 in turn 2 to the victim's Broadsword 12 (9), never to its Dodge 8. Both attack
    in turn 2, the victim first (lower id at equal Basic Speed): it rolls 10 against 9 and misses; the other rolls 10
    against 12 and hits; the victim's Dodge rolls 14 against 8, no shock in it."""
    world, wounds = wounding_world()
    victim = footman(world, (1, 0))
    other = footman(world, (0, 0))
    for fighter in (victim, other):
        arm(world, fighter, skill=12, skill_name="Broadsword", damage_dice=1, damage_adds=1, damage_type="cutting")
    wounds.due = [(victim, 3)]
    world.step()
    for fighter, foe in ((victim, other), (other, victim)):
        world.get(fighter, Intent).maneuver = Maneuver.ATTACK
        world.get(fighter, Attack).target = foe
    script(world, 10, 10, 14)
    world.dice.script(1)
    events = world.step()
    attacks = {event.attacker: event for event in of_type(events, AttackRolled)}
    assert ("shock", -3) in attacks[victim].modifiers
    assert attacks[victim].roll.target == 9
    [defense] = of_type(events, DefenseRolled)
    assert defense.defender == victim
    assert defense.roll.target == 8

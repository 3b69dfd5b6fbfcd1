"""Attacks and defenses in play (the COMBAT phase): each rule of the texts on attacking and defending, driven through
``World.step`` with scripted dice."""

from __future__ import annotations

from support import gurps_world, of_type
from support.combat import arm, footman, knight
from support.mounted import script

from esper_motion.components import Condition
from esper_motion.systems.gurps import AttackRolled, DamageDealt, DefenseRolled


def test_couched_lance_st_25_warhorse_charging_at_move_8() -> None:
    """Basic Set: Mounted Combat > Cavalry Weapons > Lances: a ST 25 warhorse that ran 8 yards gives its couched
    lance (25 x 8) / 100 = 2 dice, rounded down, +3 impaling; at a relative velocity of 8 (7 or more) the rider is at
    -1 to hit and +1 damage (Cavalry Weapons): 2d+4."""
    world = gurps_world()
    _, rider = knight(world)
    foe = footman(world, (10, 0))
    arm(world, rider, target=foe, skill=14, skill_name="Lance", reach_yd=4, lance="couched")
    # attack: Lance 14 capped at Riding 13, -1 relative velocity = 12, rolls 10; dodge 8 rolls 12 (fails);
    # damage 2d+4 rolls 4 + 5 + 4 = 13 impaling, x2 = 26 injury; a major wound (26 > 11 / 2): HT 10 rolls 10, holds
    script(world, 10, 12)
    world.dice.script(4, 5)
    script(world, 10)
    events = world.step()
    (attack,) = of_type(events, AttackRolled)
    assert (attack.skill, attack.modifiers, attack.roll.target) == (13, (("relative velocity", -1),), 12)
    (defense,) = of_type(events, DefenseRolled)
    assert (defense.defense, defense.roll.target, defense.roll.success) == ("dodge", 8, False)
    (damage,) = of_type(events, DamageDealt)
    assert (damage.damage, damage.rolled, damage.damage_type, damage.injury) == ("2d+4", 13, "impaling", 26)
    assert world.get(foe, Condition).injury == 26

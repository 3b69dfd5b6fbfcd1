"""Maneuvers and shock: the limits of a Move and Attack (Basic Set maneuvers, as in docs/architecture.md > Facts the
rules lean on), with what the house "Dragon" rule changes, and the shock penalty after injury."""

from __future__ import annotations

from typing import Final

from esper_motion.ecs.validate import check_bool, check_int


def shock_penalty(injury: int) -> int:
    """DX and skill modifier on the next turn after ``injury`` HP of injury: -1 per HP, at most -4.

    The same number is the mount's shock penalty a rider subtracts from Riding when the mount is hit
    (Basic Set: Mounted Combat > Mounted Combat Results).
    """
    injury = check_int("shock_penalty", "injury", injury, low=0)
    return -min(injury, 4)


def move_and_attack_melee_skill(skill: int, dragon: bool = False) -> int:
    """Effective melee skill on a Move and Attack: skill -4, and never above 9.

    ``dragon=True`` applies the house "Dragon" rule for a flier: neither the -4 nor the cap
    (House rules: "Dragon" Rule).
    """
    skill = check_int("move_and_attack_melee_skill", "skill", skill)
    if check_bool("move_and_attack_melee_skill", "dragon", dragon):
        return skill
    return min(skill - 4, 9)


MOVE_AND_ATTACK_DX_MODIFIER: Final = -2
"""Modifier to every DX roll made during a Move and Attack, which the house "Dragon" rule leaves in place for
fliers (House rules: "Dragon" Rule). Neither the Basic Set sections implemented here nor the facts they lean on
give it, so the systems apply it under the house rules only
(``esper_motion.systems.gurps.shared.movers.dx_modifier``)."""


def move_and_attack_ranged_modifier(bulk: int = 0, dragon: bool = False) -> int:
    """Ranged modifier on a Move and Attack: -2 or the weapon's Bulk (a negative number), whichever is
    worse. ``dragon=True``: a flier takes neither (House rules: "Dragon" Rule)."""
    bulk = check_int("move_and_attack_ranged_modifier", "bulk", bulk, high=0)
    if check_bool("move_and_attack_ranged_modifier", "dragon", dragon):
        return 0
    return min(-2, bulk)

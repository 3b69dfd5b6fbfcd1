"""Attacks and defenses: the facts the combat rules of the texts lean on (docs/architecture.md > Facts the rules
lean on): posture, hit locations, Aim, retreating, the Acrobatic Dodge, damage, wounding, injury, major wounds and
knockback. Each table is data a game can read or replace."""

from __future__ import annotations

import math
from typing import Final

from esper_motion.ecs.validate import check_bool, check_choice, check_int

POSTURE_MODIFIERS: Final[dict[str, tuple[int, int]]] = {
    "standing": (0, 0),
    "kneeling": (-2, -2),
    "sitting": (-2, -2),
    "crawling": (-4, -3),
    "prone": (-4, -3),
}
"""(attack modifier, active defense modifier) by posture (docs/architecture.md > Facts the rules lean on)."""

HIT_LOCATION_MODIFIERS: Final[dict[str, int]] = {
    "torso": 0,
    "skull": -7,
    "face": -5,
    "eyes": -9,
    "neck": -5,
    "vitals": -3,
    "groin": -3,
    "arm": -2,
    "hand": -4,
    "leg": -2,
    "foot": -4,
}
"""Modifier to hit an aimed location (docs/architecture.md > Facts the rules lean on)."""

LEG_LOCATIONS: Final = ("leg", "foot")
"""The locations a fighter above cannot reach from high enough (Combat at Different Levels)."""

HEAD_LOCATIONS: Final = ("skull", "face", "eyes", "neck")
"""The locations a fighter below cannot reach from low enough (Combat at Different Levels)."""

WOUNDING_MULTIPLIERS: Final[dict[str, float]] = {
    "crushing": 1.0,
    "cutting": 1.5,
    "impaling": 2.0,
    "small piercing": 0.5,
    "piercing": 1.0,
    "large piercing": 1.5,
    "huge piercing": 2.0,
    "burning": 1.0,
    "corrosive": 1.0,
    "toxic": 1.0,
}
"""Injury per point of penetrating damage, by damage type (docs/architecture.md > Facts the rules lean on)."""

RETREAT_BONUS: Final[dict[str, int]] = {"dodge": 3, "parry": 1, "block": 1}
"""Bonus to each active defense for retreating (docs/architecture.md > Facts the rules lean on)."""

ACROBATIC_DODGE_MODIFIER: Final = 2
"""An Acrobatic Dodge: +2 to Dodge after a successful Acrobatics (in the air, Aerobatics) roll, -2 after a failed
one (docs/architecture.md > Facts the rules lean on; Basic Set: Flying Combat names Aerobatics for fliers)."""


def posture_modifiers(posture: str) -> tuple[int, int]:
    """(attack, defense) modifiers for a fighter in ``posture``: standing 0/0, kneeling or sitting -2/-2, crawling
    or prone -4/-3 (docs/architecture.md > Facts the rules lean on).

    >>> posture_modifiers("sitting")
    (-2, -2)
    """
    return POSTURE_MODIFIERS[check_choice("posture_modifiers", "posture", posture, tuple(POSTURE_MODIFIERS))]


def aim_bonus(accuracy: int, aim_turns: int, max_aim_turns: int | None = None) -> int:
    """Bonus of ``aim_turns`` of Aim with a weapon of ``accuracy``: its Accuracy after one turn, +1 more after two,
    +2 after three or more (docs/architecture.md > Facts the rules lean on); only ``max_aim_turns`` of them count
    when a rule limits them (a mount moving more than a step: Basic Set: Mounted Combat > Using Ranged Weapons While
    Mounted > Aim).

    >>> aim_bonus(3, 3), aim_bonus(3, 3, max_aim_turns=1), aim_bonus(3, 0)
    (5, 3, 0)
    """
    accuracy = check_int("aim_bonus", "accuracy", accuracy, low=0)
    turns = check_int("aim_bonus", "aim_turns", aim_turns, low=0)
    if max_aim_turns is not None:
        turns = min(turns, check_int("aim_bonus", "max_aim_turns", max_aim_turns, low=0))
    if turns == 0:
        return 0
    return accuracy + min(turns - 1, 2)


def retreat_bonus(defense: str, aerial_bonus: int = 0) -> int:
    """Bonus for retreating with ``defense``: +3 to Dodge, +1 to Parry or Block (docs/architecture.md > Facts the
    rules lean on), plus ``aerial_bonus`` for a flier that can hover and retreats up or down (Basic Set: Flying
    Combat > Aerial Attack and Defense, :func:`aerial_retreat_bonus`)."""
    check_choice("retreat_bonus", "defense", defense, tuple(RETREAT_BONUS))
    return RETREAT_BONUS[defense] + check_int("retreat_bonus", "aerial_bonus", aerial_bonus, low=0)


def rolled_damage(total: int, damage_type: str) -> int:
    """A damage roll's result: never below 1, or below 0 for crushing damage (docs/architecture.md > Facts the rules
    lean on).

    >>> rolled_damage(-2, "cutting"), rolled_damage(-2, "crushing")
    (1, 0)
    """
    total = check_int("rolled_damage", "total", total)
    check_choice("rolled_damage", "damage_type", damage_type, tuple(WOUNDING_MULTIPLIERS))
    return max(0 if damage_type == "crushing" else 1, total)


def injury(damage: int, dr: int, damage_type: str) -> int:
    """The default injury of a hit: ``damage`` minus ``dr``, times the wounding multiplier of ``damage_type``
    (:data:`WOUNDING_MULTIPLIERS`), rounded down; at least 1 when any damage gets through, 0 when none does
    (docs/architecture.md > Facts the rules lean on).

    >>> injury(9, 2, "impaling"), injury(3, 2, "small piercing"), injury(2, 5, "cutting")
    (14, 1, 0)
    """
    damage = check_int("injury", "damage", damage, low=0)
    dr = check_int("injury", "dr", dr, low=0)
    check_choice("injury", "damage_type", damage_type, tuple(WOUNDING_MULTIPLIERS))
    through = damage - dr
    if through <= 0:
        return 0
    return max(1, math.floor(through * WOUNDING_MULTIPLIERS[damage_type]))


def major_wound(injury: int, hp: int) -> bool:
    """Whether one hit's ``injury`` is a major wound: more than half of ``hp``; the victim rolls HT or is stunned
    (docs/architecture.md > Facts the rules lean on).

    >>> major_wound(6, 11), major_wound(5, 11)
    (True, False)
    """
    injury = check_int("major_wound", "injury", injury, low=0)
    hp = check_int("major_wound", "hp", hp, low=1)
    return 2 * injury > hp


def knockback_yd(damage: int, st: int, damage_type: str) -> int:
    """Yards of knockback from a crushing hit of ``damage`` on a target of ``st``: a yard per full (ST - 2) points,
    ST - 2 never below 1; other damage types do none (docs/architecture.md > Facts the rules lean on).

    >>> knockback_yd(10, 12, "crushing"), knockback_yd(25, 12, "impaling")
    (1, 0)
    """
    damage = check_int("knockback_yd", "damage", damage, low=0)
    st = check_int("knockback_yd", "st", st, low=1)
    check_choice("knockback_yd", "damage_type", damage_type, tuple(WOUNDING_MULTIPLIERS))
    if damage_type != "crushing":
        return 0
    return damage // max(1, st - 2)


def can_parry(ranged: bool) -> bool:
    """Whether an attack can be parried: melee attacks, not missiles (docs/architecture.md > Facts the rules lean
    on)."""
    return not check_bool("can_parry", "ranged", ranged)

"""Components of attacks and defenses in play: what an entity attacks with this turn, and how it defends.

An entity attacks only when its ``Attack.target`` names a foe: the COMBAT phase resolves that request and clears
it, so a game with its own combat, which never sets a target, loses nothing. The weapon's numbers stay on the
component from turn to turn. ``Defenses`` holds the defender's active defense scores and its DR.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Final

from esper_motion.components.mount import MOUNT_ATTACKS, RANGED_TRICKS
from esper_motion.ecs.errors import RuleValueError
from esper_motion.ecs.registry import register
from esper_motion.ecs.validate import check_bool, check_choice, check_int

WEAPON_KINDS: Final = ("melee", "ranged")
"""Whether an attack strikes in reach or shoots."""

LANCES: Final = ("couched", "jousting")
"""A couched war lance or a blunted jousting lance (Basic Set: Mounted Combat > Cavalry Weapons > Lances)."""

DAMAGE_TYPES: Final = (
    "crushing",
    "cutting",
    "impaling",
    "small piercing",
    "piercing",
    "large piercing",
    "huge piercing",
    "burning",
    "corrosive",
    "toxic",
)
"""The damage types whose wounding multipliers the default injury function knows
(``esper_motion.systems.gurps.rules.WOUNDING_MULTIPLIERS``)."""

HIT_LOCATIONS: Final = ("torso", "skull", "face", "eyes", "neck", "vitals", "groin", "arm", "hand", "leg", "foot")
"""Where an attack may aim (``esper_motion.systems.gurps.rules.HIT_LOCATION_MODIFIERS``)."""

DEFENSE_KINDS: Final = ("dodge", "parry", "block")
"""The active defenses."""


def _entity(owner: str, name: str, value: object) -> int:
    return check_int(owner, name, value, low=1)


@register("gurps.Attack")
@dataclass(slots=True)
class Attack:
    """The entity's weapon and, when ``target`` is set, its attack this turn.

    Each field, what it holds and the rule it reads: docs/gurps-basic.md > Components, field by field > Attack.

    >>> Attack(weapon="thrown")
    Traceback (most recent call last):
    ...
    esper_motion.ecs.errors.RuleValueError: Attack.weapon = 'thrown': expected one of 'melee', 'ranged'
    """

    target: int | None = None
    weapon: str = "melee"
    skill: int = 10
    skill_name: str = "weapon"
    damage_dice: int = 1
    damage_adds: int = 0
    damage_type: str = "crushing"
    reach_yd: int = 1
    bulk: int = 0
    accuracy: int = 0
    noisy: bool = False
    lance: str | None = None
    aim_turns: int = 0
    trick: str | None = None
    location: str | None = None
    strike_at_yd: int | None = None
    spell: bool = False
    natural: str | None = None

    def __post_init__(self) -> None:
        owner = "Attack"
        if self.target is not None:
            _entity(owner, "target", self.target)
        check_choice(owner, "weapon", self.weapon, WEAPON_KINDS)
        check_int(owner, "skill", self.skill, low=0)
        if not isinstance(self.skill_name, str) or not self.skill_name:
            raise RuleValueError(owner, "skill_name", self.skill_name, "the skill's name as text")
        check_int(owner, "damage_dice", self.damage_dice, low=0)
        check_int(owner, "damage_adds", self.damage_adds)
        check_choice(owner, "damage_type", self.damage_type, DAMAGE_TYPES)
        check_int(owner, "reach_yd", self.reach_yd, low=1)
        check_int(owner, "bulk", self.bulk, high=0)
        check_int(owner, "accuracy", self.accuracy, low=0)
        check_bool(owner, "noisy", self.noisy)
        if self.lance is not None:
            check_choice(owner, "lance", self.lance, LANCES)
            if self.weapon != "melee":
                raise RuleValueError(
                    owner, "lance", self.lance, "None unless weapon is 'melee': a lance strikes in reach"
                )
        check_int(owner, "aim_turns", self.aim_turns, low=0)
        if self.trick is not None:
            check_choice(owner, "trick", self.trick, RANGED_TRICKS)
            if self.weapon != "ranged":
                raise RuleValueError(
                    owner, "trick", self.trick, "None unless weapon is 'ranged': the tricks are for shooting"
                )
        if self.noisy and self.weapon != "ranged":
            raise RuleValueError(owner, "noisy", self.noisy, "False unless weapon is 'ranged'")
        if self.aim_turns and self.weapon != "ranged":
            raise RuleValueError(owner, "aim_turns", self.aim_turns, "0 unless weapon is 'ranged'")
        if self.location is not None:
            check_choice(owner, "location", self.location, HIT_LOCATIONS)
        if self.strike_at_yd is not None:
            check_int(owner, "strike_at_yd", self.strike_at_yd, low=1)
        check_bool(owner, "spell", self.spell)
        if self.natural is not None:
            check_choice(owner, "natural", self.natural, MOUNT_ATTACKS)
            if self.weapon != "melee" or self.lance is not None:
                allowed = "None unless weapon is 'melee' with no lance: a bite, kick or trample strikes in reach"
                raise RuleValueError(owner, "natural", self.natural, allowed)

    def links(self) -> Iterator[int]:
        """The entity this attack refers to (its target)."""
        if self.target is not None:
            yield self.target


@register("gurps.Defenses")
@dataclass(slots=True)
class Defenses:
    """The entity's active defense scores and its DR.

    ``dodge`` always; ``parry`` and ``block`` when it has a weapon or shield to use (None: not). ``retreat``:
    whether it retreats when it defends, where the rules allow (+3 to Dodge, +1 to Parry or Block; docs/
    architecture.md > Facts the rules lean on). ``acrobatic``: it tries an Acrobatic Dodge (Acrobatics on the
    ground, Aerobatics in the air). ``dr``: Damage Resistance, taken off each hit's damage by the default injury
    function. The COMBAT phase picks the best defense the rules leave open.

    >>> Defenses(dodge=8, parry=-1)
    Traceback (most recent call last):
    ...
    esper_motion.ecs.errors.RuleValueError: Defenses.parry = -1: expected a whole number, 0 or more
    """

    dodge: int = 8
    parry: int | None = None
    block: int | None = None
    retreat: bool = True
    acrobatic: bool = False
    dr: int = 0

    def __post_init__(self) -> None:
        owner = "Defenses"
        check_int(owner, "dodge", self.dodge, low=0)
        for name in ("parry", "block"):
            value = getattr(self, name)
            if value is not None:
                check_int(owner, name, value, low=0)
        check_bool(owner, "retreat", self.retreat)
        check_bool(owner, "acrobatic", self.acrobatic)
        check_int(owner, "dr", self.dr, low=0)

    def score(self, kind: str) -> int | None:
        """The score of defense ``kind`` (one of :data:`DEFENSE_KINDS`), or None when the entity has none."""
        check_choice("Defenses.score", "kind", kind, DEFENSE_KINDS)
        return {"dodge": self.dodge, "parry": self.parry, "block": self.block}[kind]

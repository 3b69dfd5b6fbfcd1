"""General injury: shock, the major wound's HT roll, stun, reeling, the HT roll at 0 HP or less, death checks and
death (Basic Set: Injury, as in docs/architecture.md > Facts the rules lean on). Numbers in, numbers out.

HP left is ``hp - injury``: 0 or less once the injury reaches the HP, ``-hp`` at an injury of twice the HP.
"""

from __future__ import annotations

import math
from enum import Enum
from typing import Final

from esper_motion.ecs.validate import check_int

STUNNED_DEFENSE_MODIFIER: Final = -4
"""A stunned fighter's active defenses (Basic Set: Injury > Stun)."""

DEATH_CHECK_MULTIPLES: Final = (1, 2, 3, 4)
"""The multiples of HP below zero at which a victim rolls HT or dies; at :data:`DEAD_AT_MULTIPLE` it is dead."""

DEAD_AT_MULTIPLE: Final = 5
"""At -5 x HP the victim is dead, no roll."""


class WoundOutcome(str, Enum):
    """What an HT roll against a major wound does: nothing, a stun (the victim is knocked down too), or
    unconsciousness."""

    NONE = "holds on"
    STUNNED = "stunned"
    UNCONSCIOUS = "unconscious"


class DeathCheckOutcome(str, Enum):
    """What a death check does: nothing, mortally wounded (unconscious and dying), or death."""

    SURVIVES = "survives"
    MORTALLY_WOUNDED = "mortally wounded"
    DIES = "dies"


def _hp_injury(owner: str, hp: int, injury: int) -> tuple[int, int]:
    return check_int(owner, "hp", hp, low=1), check_int(owner, "injury", injury, low=0)


def major_wound_outcome(margin: int, critical_failure: bool) -> WoundOutcome:
    """What the HT roll for a major wound does, made by ``margin`` (negative: failed by that much): a success holds
    on; a failure stuns and knocks down; a failure by 5 or more, or a critical failure, knocks out.

    >>> [major_wound_outcome(m, False).name for m in (0, -1, -4, -5)]
    ['NONE', 'STUNNED', 'STUNNED', 'UNCONSCIOUS']
    >>> major_wound_outcome(0, True).name
    'UNCONSCIOUS'
    """
    margin = check_int("major_wound_outcome", "margin", margin)
    if critical_failure or margin <= -5:
        return WoundOutcome.UNCONSCIOUS
    return WoundOutcome.STUNNED if margin < 0 else WoundOutcome.NONE


def death_checks_crossed(hp: int, before: int, after: int) -> tuple[int, ...]:
    """The multiples of HP (1 to 4) whose line -multiple x HP the injury first reaches in going from ``before`` to
    ``after``: one death check each, in order.

    >>> death_checks_crossed(10, 15, 21)   # 10 HP: -1 x HP is an injury of 20
    (1,)
    >>> death_checks_crossed(10, 0, 45)    # -1, -2 and -3 x HP at 20, 30 and 40
    (1, 2, 3)
    >>> death_checks_crossed(10, 20, 25)   # the line at 20 was reached already
    ()
    """
    hp, before = _hp_injury("death_checks_crossed", hp, before)
    after = check_int("death_checks_crossed", "after", after, low=before)
    return tuple(k for k in DEATH_CHECK_MULTIPLES if before < (k + 1) * hp <= after)


def death_check_outcome(margin: int) -> DeathCheckOutcome:
    """What a death check made by ``margin`` does: a success survives; a failure by 1 or 2 is a mortal wound; by 3 or
    more, death.

    >>> [death_check_outcome(m).name for m in (0, -1, -2, -3)]
    ['SURVIVES', 'MORTALLY_WOUNDED', 'MORTALLY_WOUNDED', 'DIES']
    """
    margin = check_int("death_check_outcome", "margin", margin)
    if margin >= 0:
        return DeathCheckOutcome.SURVIVES
    return DeathCheckOutcome.MORTALLY_WOUNDED if margin >= -2 else DeathCheckOutcome.DIES


def dead_by_injury(hp: int, injury: int) -> bool:
    """Whether ``injury`` has reached -5 x HP (HP left): death, no roll.

    >>> dead_by_injury(10, 59), dead_by_injury(10, 60)
    (False, True)
    """
    hp, injury = _hp_injury("dead_by_injury", hp, injury)
    return injury >= (DEAD_AT_MULTIPLE + 1) * hp


def at_or_below_zero_hp(hp: int, injury: int) -> bool:
    """Whether HP left is 0 or less: each turn the victim then rolls HT to stay conscious, unless it does nothing.

    >>> at_or_below_zero_hp(10, 9), at_or_below_zero_hp(10, 10)
    (False, True)
    """
    hp, injury = _hp_injury("at_or_below_zero_hp", hp, injury)
    return injury >= hp


def zero_hp_ht_modifier(hp: int, injury: int) -> int:
    """The HT modifier to stay conscious at 0 HP or less: -1 per full multiple of HP below zero.

    >>> zero_hp_ht_modifier(10, 10), zero_hp_ht_modifier(10, 19), zero_hp_ht_modifier(10, 20)
    (0, 0, -1)
    """
    hp, injury = _hp_injury("zero_hp_ht_modifier", hp, injury)
    return -max(0, (injury - hp) // hp)


def reeling(hp: int, injury: int) -> bool:
    """Whether fewer than 1/3 of the HP are left (reeling: Move and Dodge halved).

    >>> reeling(11, 7), reeling(11, 8)   # 4 left is not under 11/3; 3 is
    (False, True)
    """
    hp, injury = _hp_injury("reeling", hp, injury)
    return 3 * (hp - injury) < hp


def halved(value: int) -> int:
    """Half of ``value``, rounded up: a reeling Move or Dodge.

    >>> halved(7), halved(8), halved(0)
    (4, 4, 0)
    """
    value = check_int("halved", "value", value, low=0)
    return math.ceil(value / 2)


def shock_after(shock: int, injury: int) -> int:
    """The shock penalty for the next turn once ``injury`` more is taken on top of ``shock`` (0 to -4) this turn:
    -1 per point, at most -4 in all.

    >>> shock_after(0, 2), shock_after(-2, 3), shock_after(0, 0)
    (-2, -4, 0)
    """
    shock = check_int("shock_after", "shock", shock, low=-4, high=0)
    injury = check_int("shock_after", "injury", injury, low=0)
    return max(-4, shock - injury)

"""Maneuvers and shock: how far each maneuver moves below high speed, the limits of a Move and Attack (Basic Set
maneuvers, as in docs/architecture.md > Facts the rules lean on), with what the house "Dragon" rule changes, and the
shock penalty after injury."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final, Literal

from esper_motion.components.gurps import Maneuver
from esper_motion.ecs.validate import check_bool, check_int
from esper_motion.systems.gurps.rules._common import _enum

OrdinaryMove = Literal["move", "half move", "step", "none"]
"""How far a maneuver lets a mover go in ordinary movement (:data:`ORDINARY_MOVEMENT`)."""

ORDINARY_MOVEMENT: Final[Mapping[Maneuver, OrdinaryMove]] = MappingProxyType(
    {
        Maneuver.MOVE: "move",
        Maneuver.MOVE_AND_ATTACK: "move",
        Maneuver.ALL_OUT_ATTACK: "half move",
        Maneuver.CHANGE_POSTURE: "none",
        Maneuver.DO_NOTHING: "none",
        **{
            maneuver: "step"
            for maneuver in (
                Maneuver.AIM,
                Maneuver.ALL_OUT_DEFENSE,
                Maneuver.ALL_OUT_READY,
                Maneuver.ALL_OUT_CONCENTRATE,
                Maneuver.ATTACK,
                Maneuver.CONCENTRATE,
                Maneuver.EVALUATE,
                Maneuver.FEINT,
                Maneuver.READY,
                Maneuver.WAIT,
            )
        },
    }
)
"""The most each maneuver moves a mover below high speed, whatever it did last turn (Basic Set maneuvers, as in
docs/architecture.md > Facts the rules lean on; High-Speed Movement: the ordinary movement rules apply at Basic Move
or less): Move and Move and Attack up to the full Move, All-Out Attack up to half of it (forward), Change Posture
and Do Nothing not at all, every other maneuver a step (:func:`step_yards`)."""


def step_yards(move: int) -> int:
    """A step: a tenth of Move, rounded down, and never less than a yard (Basic Set: Step, as Flying Combat >
    Aerial Movement > Steps and Retreats refers to it, with basic air Move for a flier).

    >>> step_yards(5), step_yards(20), step_yards(29)
    (1, 2, 2)
    """
    return max(1, check_int("step_yards", "move", move, low=0) // 10)


def ordinary_move_yd(maneuver: Maneuver | str, move: int, basic_move: int) -> int:
    """The most yards ``maneuver`` lets a mover go this turn below high speed (:data:`ORDINARY_MOVEMENT`): its
    ``move`` (Move, reduced for encumbrance) on a Move or Move and Attack, half of it (rounded down) on an All-Out
    Attack, nothing on Change Posture or Do Nothing, otherwise a step of its ``basic_move`` (:func:`step_yards`).

    >>> ordinary_move_yd("Move", 5, 5), ordinary_move_yd("All-Out Attack", 5, 5), ordinary_move_yd("Attack", 5, 5)
    (5, 2, 1)
    """
    owner = "ordinary_move_yd"
    kind = ORDINARY_MOVEMENT[_enum(owner, "maneuver", maneuver, Maneuver)]
    move = check_int(owner, "move", move, low=0)
    basic_move = check_int(owner, "basic_move", basic_move, low=0)
    if kind == "move":
        return move
    if kind == "half move":
        return move // 2
    if kind == "step":
        return step_yards(basic_move)
    return 0


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

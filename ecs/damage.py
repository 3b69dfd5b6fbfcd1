"""Damage as the rulebook writes it: a number of six-sided dice and an add."""

from __future__ import annotations

from dataclasses import dataclass

from esper_motion.ecs.errors import RuleValueError


@dataclass(frozen=True, slots=True)
class Damage:
    """``dice`` six-sided dice plus ``adds``; prints as ``4d``, ``2d+3`` or ``1d-2``.

    >>> str(Damage(2, 3)), str(Damage(4)), str(Damage(1, -2))
    ('2d+3', '4d', '1d-2')
    >>> Damage(2, 3).expression
    '2d6+3'
    """

    dice: int
    adds: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.dice, int) or isinstance(self.dice, bool) or self.dice < 0:
            raise RuleValueError("Damage", "dice", self.dice, "a whole number of dice, 0 or more")
        if not isinstance(self.adds, int) or isinstance(self.adds, bool):
            raise RuleValueError("Damage", "adds", self.adds, "a whole number")

    def __str__(self) -> str:
        if self.adds == 0:
            return f"{self.dice}d"
        return f"{self.dice}d{self.adds:+d}"

    @property
    def expression(self) -> str:
        """The same damage as a dice expression for :meth:`esper_motion.ecs.dice.Dice.roll`."""
        if self.adds == 0:
            return f"{self.dice}d6"
        return f"{self.dice}d6{self.adds:+d}"

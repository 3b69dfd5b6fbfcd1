"""What the rule modules share that is not a rule: reading enum arguments, decimal floats as exact fractions,
positive numbers, and rounding halves up."""

from __future__ import annotations

import math
from enum import Enum
from fractions import Fraction
from typing import TypeVar

from esper_motion.ecs.errors import RuleValueError
from esper_motion.ecs.validate import check_number

_E = TypeVar("_E", bound=Enum)


def _enum(owner: str, field: str, value: object, kind: type[_E]) -> _E:
    """Return the member of ``kind`` that ``value`` is or equals by value; raise a clear error otherwise.

    The enums here have string values, so the plain string and a member of another string enum with the
    same value (such as the ``Maneuver`` of ``esper_motion.components.gurps``) are accepted too.
    """
    try:
        return kind(value)  # the member itself, or the member whose value ``value`` equals
    except ValueError:
        shown = ", ".join(repr(member.value) for member in kind)
        raise RuleValueError(owner, field, value, f"a {kind.__name__}: one of {shown}") from None


def _exact(value: float) -> Fraction:
    """``value`` as an exact fraction; a float is read as the decimal it prints as (0.7 is 7/10)."""
    if isinstance(value, int):
        return Fraction(value)
    return Fraction(repr(value))


def _positive(owner: str, field: str, value: object) -> float:
    """Return ``value`` if it is a finite number above 0."""
    number = check_number(owner, field, value, low=0)
    if number == 0:
        raise RuleValueError(owner, field, value, "a finite number above 0")
    return number


def _half_up(value: Fraction) -> int:
    """Round to the nearest whole number, halves up."""
    return math.floor(value + Fraction(1, 2))

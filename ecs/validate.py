"""Checks components and rules run on their own fields; each failure names owner, field, value, what is allowed."""

from __future__ import annotations

import dataclasses
import difflib
import math
from collections.abc import Collection
from enum import Enum
from typing import Any, Final

from esper_motion.ecs import watch
from esper_motion.ecs.errors import RuleValueError

LARGEST_WHOLE: Final = 2**53 - 1
"""The largest size of whole number a component holds (9,007,199,254,740,991): every JSON reader reads it exactly,
so a save can always hold it. :func:`check_int` refuses anything larger, whatever range it is given."""


def _range_text(kind: str, low: float | None, high: float | None) -> str:
    if low is not None and high is not None:
        return f"{kind} from {low} to {high}"
    if low is not None:
        return f"{kind}, {low} or more"
    if high is not None:
        return f"{kind}, {high} or less"
    return kind


def _outside(value: float, low: float | None, high: float | None) -> bool:
    return (low is not None and value < low) or (high is not None and value > high)


def _too_large(owner: str, field: str, value: int, kind: str) -> RuleValueError:
    return RuleValueError(owner, field, value, f"{kind} at most {LARGEST_WHOLE:,} in size")


def check_int(owner: str, field: str, value: Any, low: int | None = None, high: int | None = None) -> int:
    """Return ``value`` if it is an ``int`` (not a bool) within ``[low, high]`` and no larger in size than
    :data:`LARGEST_WHOLE`; raise otherwise."""
    if (  # the common case, without a call
        value.__class__ is int
        and -LARGEST_WHOLE <= value <= LARGEST_WHOLE
        and (low is None or value >= low)
        and (high is None or value <= high)
    ):
        return value
    if not isinstance(value, int) or isinstance(value, bool) or _outside(value, low, high):
        raise RuleValueError(owner, field, value, _range_text("a whole number", low, high))
    if abs(value) > LARGEST_WHOLE:
        raise _too_large(owner, field, value, "a whole number")
    return value


def check_number(owner: str, field: str, value: Any, low: float | None = None, high: float | None = None) -> float:
    """Return ``value`` if it is a finite real number within ``[low, high]``; NaN and infinities are refused, and so
    is a whole number larger in size than :data:`LARGEST_WHOLE`."""
    if (
        not isinstance(value, (int, float))
        or isinstance(value, bool)
        or (isinstance(value, float) and not math.isfinite(value))
        or _outside(value, low, high)
    ):
        raise RuleValueError(owner, field, value, _range_text("a finite number", low, high))
    if isinstance(value, int) and abs(value) > LARGEST_WHOLE:
        raise _too_large(owner, field, value, "a number")
    return value


def check_bool(owner: str, field: str, value: Any) -> bool:
    """Return ``value`` if it is exactly ``True`` or ``False``."""
    if not isinstance(value, bool):
        raise RuleValueError(owner, field, value, "True or False")
    return value


def _folded(text: str) -> str:
    return " ".join(text.casefold().replace("_", " ").replace("-", " ").split())


def check_choice(owner: str, field: str, value: Any, choices: Collection[Any]) -> Any:
    """Return ``value`` if it is one of ``choices``. A text that names an enum choice by its name or its value,
    in any case (``"move"``, ``"ALL_OUT_ATTACK"``), is that choice; anything else is refused with the values
    allowed and the closest of them, where one is close.

    >>> from esper_motion.components import Maneuver
    >>> check_choice("Intent", "maneuver", "all-out attack", tuple(Maneuver))
    <Maneuver.ALL_OUT_ATTACK: 'All-Out Attack'>
    """
    if value in choices:
        return value
    if isinstance(value, str):
        for choice in choices:
            if isinstance(choice, Enum) and _folded(value) in (_folded(choice.name), _folded(str(choice.value))):
                return choice
    allowed = [choice.value if isinstance(choice, Enum) else choice for choice in choices]
    text = f"one of {', '.join(repr(c) for c in allowed)}"
    if isinstance(value, str):
        texts = {_folded(c): c for c in allowed if isinstance(c, str)}
        closest = difflib.get_close_matches(_folded(value), list(texts), n=1)
        text += f" (the closest is {texts[closest[0]]!r})" if closest else ""
    raise RuleValueError(owner, field, value, text)


def recheck(component: Any) -> Any:
    """Run a dataclass component's own constructor checks again on its present field values; raise what the
    constructor would raise, or return the component the constructor built from them (with any value it
    normalises, such as an enum given as its text). The component itself is left untouched. Any other object
    passes as it is: it has no checks of ours to run."""
    if dataclasses.is_dataclass(component) and not isinstance(component, type):
        return dataclasses.replace(component)
    return component


def check_in_place(component: Any) -> None:
    """Run a dataclass component's own constructor checks again on its present field values, as :func:`recheck`
    does, raising what they raise, and leave in the component what they normalise (an enum given as its text).
    Where the generated constructor takes every field and nothing else, its own ``__post_init__`` runs on the
    component itself (the field watch's record left alone); otherwise on the twin :func:`recheck` builds, and the
    values it normalised are copied back. A component refused may keep the normalised form of the fields checked
    before the one refused (the same values). Any other object passes as it is."""
    kind = type(component)
    in_place = _IN_PLACE.get(kind)
    if in_place is None:
        in_place = _IN_PLACE[kind] = _checks_in_place(kind)
    if in_place:
        watch.own_checks(kind)(component)
        return
    checked = recheck(component)
    if checked is not component:
        for item in dataclasses.fields(kind):
            value = getattr(checked, item.name)
            if value is not getattr(component, item.name):
                object.__setattr__(component, item.name, value)


_IN_PLACE: dict[type[Any], bool] = {}


def _checks_in_place(kind: type[Any]) -> bool:
    """Whether dataclass ``kind``'s checks can run on a component itself: it has a ``__post_init__`` and a generated
    constructor taking each field, and only the fields (no ``InitVar``, no field the constructor leaves out)."""
    if not dataclasses.is_dataclass(kind) or not hasattr(kind, "__post_init__"):
        return False
    fields = dataclasses.fields(kind)
    code = getattr(kind.__init__, "__code__", None)
    return (
        kind.__dataclass_params__.init  # type: ignore[attr-defined]
        and code is not None
        and code.co_argcount + code.co_kwonlyargcount == len(fields) + 1
        and all(item.init for item in fields)
    )

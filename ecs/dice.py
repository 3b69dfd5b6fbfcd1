"""Dice that keep their story: expressions, GURPS success rolls and their exact odds.

A :class:`Dice` owns one seeded :class:`random.Random`; nothing here touches the ``random`` module's
global state. Tests can queue the faces the next dice will show with :meth:`Dice.script`.

>>> dice = Dice(seed=7)
>>> dice.script(2, 4, 5)
>>> print(dice.success(13, "DX+3"))
DX+3 (13): 3d6 (2, 4, 5) = 11, made by 2
>>> success_probability(10)
Fraction(1, 2)
"""

from __future__ import annotations

import functools
import itertools
import random
import re
from collections import Counter, deque
from dataclasses import dataclass
from fractions import Fraction
from typing import Final

from esper_motion.ecs.errors import RuleValueError
from esper_motion.ecs.validate import check_int

EXPRESSION_ALLOWED: Final = "like 3d6, 2d+3, 1d2+1, 4d or d100"
"""What :meth:`Dice.roll` accepts, as its errors say it."""

MAX_DICE: Final = 1000
"""The most dice one expression may roll."""

MAX_SIDES: Final = 1000
"""The most sides a die may have (the fewest is 2)."""

# [N]d[S][(+|-)M]; the digit limits keep absurd inputs out before any int() conversion.
_EXPRESSION: Final = re.compile(r"(\d{1,4})?d(\d{1,4})?([+-]\d{1,9})?")
_WHITESPACE: Final = re.compile(r"\s+")

# How many of the 216 outcomes of 3d6 give each total from 3 to 18, counted over every outcome.
_WAYS_3D6: Final[tuple[tuple[int, int], ...]] = tuple(
    sorted(Counter(sum(faces) for faces in itertools.product(range(1, 7), repeat=3)).items())
)


def modified(label: str, modifier: int) -> str:
    """The label of a roll against ``label`` with ``modifier``: ``DX+3`` and -2 give ``DX+3-2``; 0 adds nothing.

    >>> modified("DX+3", -2), modified("Riding", 0)
    ('DX+3-2', 'Riding')
    """
    return f"{label}{modifier:+d}" if modifier else label


def is_success(total: int, skill: int) -> bool:
    """Whether a 3d6 ``total`` succeeds against effective ``skill``.

    Basic Set: Success Rolls: the roll succeeds when it is at most the effective skill, except that
    3 and 4 always succeed and 17 and 18 always fail.
    """
    check_int("is_success", "total", total, 3, 18)
    check_int("is_success", "skill", skill)
    if total <= 4:
        return True
    if total >= 17:
        return False
    return total <= skill


def is_critical_success(total: int, skill: int) -> bool:
    """Whether a 3d6 ``total`` is a critical success against effective ``skill``.

    Basic Set: Critical Success and Failure: 3 or 4 always; 5 at skill 15 or more; 6 at skill 16 or more.
    """
    check_int("is_critical_success", "total", total, 3, 18)
    check_int("is_critical_success", "skill", skill)
    return total <= 4 or (total == 5 and skill >= 15) or (total == 6 and skill >= 16)


def is_critical_failure(total: int, skill: int) -> bool:
    """Whether a 3d6 ``total`` is a critical failure against effective ``skill``.

    Basic Set: Critical Success and Failure: 18 always; 17 when skill is 15 or less; any roll 10 or
    more over the skill. Reading chosen where the rules overlap: a 3 or 4 is always a critical
    success, so it is never a critical failure, even against a skill of -6 or less.
    """
    check_int("is_critical_failure", "total", total, 3, 18)
    check_int("is_critical_failure", "skill", skill)
    if total <= 4:
        return False
    return total == 18 or (total == 17 and skill <= 15) or total - skill >= 10


def success_probability(skill: int) -> Fraction:
    """The exact chance that a 3d6 success roll against effective ``skill`` succeeds.

    >>> success_probability(3), success_probability(18)
    (Fraction(1, 54), Fraction(53, 54))
    """
    return _odds(check_int("success_probability", "skill", skill))[0]


def critical_success_probability(skill: int) -> Fraction:
    """The exact chance that a 3d6 success roll against effective ``skill`` is a critical success."""
    return _odds(check_int("critical_success_probability", "skill", skill))[1]


def critical_failure_probability(skill: int) -> Fraction:
    """The exact chance that a 3d6 success roll against effective ``skill`` is a critical failure."""
    return _odds(check_int("critical_failure_probability", "skill", skill))[2]


@functools.lru_cache
def _odds(skill: int) -> tuple[Fraction, Fraction, Fraction]:
    """Chances of success, critical success and critical failure, summed over the 216 outcomes."""
    success = critical_success = critical_failure = 0
    for total, ways in _WAYS_3D6:
        success += ways * is_success(total, skill)
        critical_success += ways * is_critical_success(total, skill)
        critical_failure += ways * is_critical_failure(total, skill)
    return Fraction(success, 216), Fraction(critical_success, 216), Fraction(critical_failure, 216)


@dataclass(frozen=True, slots=True)
class Roll:
    """One rolled dice expression: what was asked, each die's face, and the total.

    ``total`` is the sum of the faces plus ``modifier``, never clamped (a rule that has a minimum,
    such as damage, applies it itself).

    >>> print(Roll("2d6+3", (4, 1), 6, 3, 8))
    2d6+3 (4, 1) = 8
    """

    expression: str
    dice: tuple[int, ...]
    sides: int
    modifier: int
    total: int

    @property
    def story(self) -> str:
        """The roll as a log line: expression, each face, total."""
        return f"{self.expression} ({', '.join(map(str, self.dice))}) = {self.total}"

    def __str__(self) -> str:
        return self.story


@dataclass(frozen=True, slots=True)
class SuccessRoll:
    """A 3d6 roll against an effective skill, with its margin and critical flags.

    ``margin`` is ``target - roll.total``: positive or zero is the margin of success, negative the
    margin of failure. A critical success is also a success and a critical failure also a failure.
    Build one from a roll with :meth:`judge`.
    """

    roll: Roll
    target: int
    label: str
    margin: int
    success: bool
    critical_success: bool
    critical_failure: bool

    @classmethod
    def judge(cls, roll: Roll, target: int, label: str = "") -> SuccessRoll:
        """Judge a 3d6 ``roll`` against effective skill ``target`` by the rules of this module."""
        if len(roll.dice) != 3 or roll.sides != 6 or roll.modifier != 0:
            raise RuleValueError("SuccessRoll", "roll", roll.expression, "a plain 3d6 roll")
        check_int("SuccessRoll", "target", target)
        total = roll.total
        return cls(
            roll=roll,
            target=target,
            label=label,
            margin=target - total,
            success=is_success(total, target),
            critical_success=is_critical_success(total, target),
            critical_failure=is_critical_failure(total, target),
        )

    @property
    def story(self) -> str:
        """The roll as a log line, e.g. ``DX+3 (13): 3d6 (2, 4, 5) = 11, made by 2``.

        A 3 or 4 that beats the skill only by the always-succeeds rule reads "automatic success";
        a 17 or 18 at or under the skill reads "automatic failure".
        """
        head = f"{self.label} ({self.target})" if self.label else f"vs {self.target}"
        if self.success:
            outcome = f"made by {self.margin}" if self.margin >= 0 else "automatic success"
        else:
            outcome = f"failed by {-self.margin}" if self.margin < 0 else "automatic failure"
        if self.critical_success:
            outcome += ", critical success"
        elif self.critical_failure:
            outcome += ", critical failure"
        return f"{head}: {self.roll.story}, {outcome}"

    def __str__(self) -> str:
        return self.story


@functools.lru_cache(maxsize=256)
def _parse(expression: str) -> tuple[str, int, int, int]:
    """Return ``(cleaned expression, dice, sides, modifier)`` or raise :class:`RuleValueError`."""
    cleaned = _WHITESPACE.sub("", expression).lower()
    match = _EXPRESSION.fullmatch(cleaned)
    if match is None:
        raise RuleValueError("dice expression", "expression", expression, EXPRESSION_ALLOWED)
    count_text, sides_text, modifier_text = match.groups()
    count = int(count_text) if count_text else 1
    sides = int(sides_text) if sides_text else 6
    if not (1 <= count <= MAX_DICE and 2 <= sides <= MAX_SIDES):
        raise RuleValueError(
            "dice expression",
            "expression",
            expression,
            f"1 to {MAX_DICE} dice of 2 to {MAX_SIDES} sides, {EXPRESSION_ALLOWED}",
        )
    return cleaned, count, sides, int(modifier_text) if modifier_text else 0


class Dice:
    """A seeded dice roller; one per world.

    Two rollers made with the same seed roll the same sequence. Faces queued with :meth:`script`
    are used first, one per die, without drawing from the generator, so once the script runs out
    a seeded roller continues exactly as if nothing had been scripted.
    """

    __slots__ = ("_random", "_script")

    def __init__(self, seed: int | None = None) -> None:
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):  # a seed of any size
            raise RuleValueError("Dice", "seed", seed, "a whole number")
        self._random = random.Random(seed)
        self._script: deque[int] = deque()

    def roll(self, expression: str) -> Roll:
        """Roll a dice expression ``[N]d[S][(+|-)M]``: ``3d6``, ``2d+3``, ``1d2+1``, ``4d``, ``d100``.

        N (1 to 1000) defaults to 1 and S (2 to 1000) to 6; whitespace and case are ignored. The
        roll's ``expression`` is the cleaned text, e.g. ``"2d+3"``.
        """
        if not isinstance(expression, str):
            raise RuleValueError("dice expression", "expression", expression, EXPRESSION_ALLOWED)
        cleaned, count, sides, modifier = _parse(expression)
        faces = self._draw(count, sides)
        return Roll(cleaned, faces, sides, modifier, sum(faces) + modifier)

    def success(self, skill: int, label: str = "") -> SuccessRoll:
        """Roll 3d6 against effective ``skill`` (GURPS Basic Set: Success Rolls); ``label`` names it."""
        check_int("Dice.success", "skill", skill)
        return SuccessRoll.judge(self.roll("3d6"), skill, label)

    def script(self, *faces: int) -> None:
        """Queue ``faces`` for the next dice rolled, in order, one per die.

        Each face must be a whole number, 1 or more. Whether it fits the die is checked when it is
        used: a roll that would use a face larger than its die raises :class:`RuleValueError`
        before using any face, so the whole script stays queued.
        """
        for face in faces:
            check_int("Dice.script", "face", face, 1)
        self._script.extend(faces)

    @property
    def scripted(self) -> int:
        """How many scripted faces are still queued."""
        return len(self._script)

    def _draw(self, count: int, sides: int) -> tuple[int, ...]:
        script = self._script
        used = min(count, len(script))
        for face in itertools.islice(script, used):
            if face > sides:
                raise RuleValueError("Dice.script", "face", face, f"a face of a d{sides}, from 1 to {sides}")
        faces = [script.popleft() for _ in range(used)]
        randint = self._random.randint
        faces.extend(randint(1, sides) for _ in range(count - used))
        return tuple(faces)

    def getstate(self) -> dict[str, object]:
        """The roller's whole state as JSON-friendly data: generator state and queued script.

        The Mersenne Twister state is stored as a list of ints (``random``), its version
        (``version``) and the cached Gaussian value (``gauss``, normally ``None``).
        """
        version, internal, gauss = self._random.getstate()
        return {"version": version, "random": list(internal), "gauss": gauss, "script": list(self._script)}

    def setstate(self, state: dict[str, object]) -> None:
        """Restore a state from :meth:`getstate`, checking it all before changing anything."""
        owner = "Dice.setstate"
        if not isinstance(state, dict):
            raise RuleValueError(owner, "state", state, "a dict from Dice.getstate()")
        keys = {"version", "random", "gauss", "script"}
        if set(state) != keys:
            raise RuleValueError(owner, "state", sorted(state), f"exactly the keys {sorted(keys)}")
        version = check_int(owner, "version", state["version"], 3, 3)
        internal = state["random"]
        if not isinstance(internal, list) or len(internal) != 625:
            shown = f"a list of {len(internal)} items" if isinstance(internal, list) else internal
            raise RuleValueError(owner, "random", shown, "a list of 625 whole numbers")
        for index, word in enumerate(internal[:624]):
            check_int(owner, f"random[{index}]", word, 0, 2**32 - 1)
        check_int(owner, "random[624]", internal[624], 0, 624)
        gauss = state["gauss"]
        if gauss is not None and not isinstance(gauss, float):
            raise RuleValueError(owner, "gauss", gauss, "None or a float")
        script = state["script"]
        if not isinstance(script, list):
            raise RuleValueError(owner, "script", script, "a list of whole numbers, 1 or more")
        for face in script:
            check_int(owner, "script", face, 1)
        self._random.setstate((version, tuple(internal), gauss))
        self._script = deque(script)

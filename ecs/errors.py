"""Errors that say what was wrong, where, and what is allowed.

Every error the library raises for bad input is a ``ValueError`` subclass whose message names the
component (or rule, or file), the field, the value given and what would have been accepted.
"""

from __future__ import annotations

from typing import Any, Final

SHOWN_LENGTH: Final = 120
"""How many characters of a bad value an error message shows at most; a longer value is cut with its length."""


def shown(value: Any) -> str:
    """``repr(value)``, cut to :data:`SHOWN_LENGTH` characters with a note of how long it was.

    >>> shown("x" * 500)[-30:]
    'xxx... (502 characters in all)'
    """
    try:
        text = repr(value)
    except ValueError:  # a whole number too long for Python to write out
        return f"a whole number of about {int(abs(value).bit_length() * 0.30103)} digits"
    return cut(text)


def cut(text: str) -> str:
    """``text`` as it is up to :data:`SHOWN_LENGTH` characters; a longer one cut, with a note of how long it was
    (a name read from a file, say).

    >>> cut("Position"), cut("x" * 500)[-30:]
    ('Position', 'xxx... (500 characters in all)')
    """
    if len(text) <= SHOWN_LENGTH:
        return text
    return f"{text[: SHOWN_LENGTH - 3]}... ({len(text)} characters in all)"


def needs_extra(what: str, extra: str) -> str:
    """The message for ``what`` needing the optional extra ``extra``, which is not installed: how to add it from a
    checkout or a built wheel (esper-motion is not on a package index).

    >>> needs_extra("plots need matplotlib", "studies").split(": ")[:2]
    ['plots need matplotlib', "install esper-motion with its 'studies' extra"]
    """
    return (
        f"{what}: install esper-motion with its {extra!r} extra: pip install -e '.[{extra}]' in a checkout, or the"
        f" wheel with [{extra}] (README: Installing)"
    )


class MotionError(ValueError):
    """Base class of every input error raised by esper-motion."""


class RuleValueError(MotionError):
    """A value outside what a component or rule accepts (a long value is cut in the message, see :func:`shown`).

    ``entity`` is the entity whose component holds the value, where that is known (a field a game set between
    steps, found at the next step).

    >>> str(RuleValueError("Velocity", "yps", -3, "a whole number, 0 or more"))
    'Velocity.yps = -3: expected a whole number, 0 or more'
    >>> str(RuleValueError("Facing", "direction", 7, "a whole number from 0 to 5", entity=4))
    'entity 4: Facing.direction = 7: expected a whole number from 0 to 5'
    """

    def __init__(self, owner: str, field: str, value: Any, allowed: str, *, entity: int | None = None) -> None:
        self.owner = owner
        self.field = field
        self.value = value
        self.allowed = allowed
        self.entity = entity
        where = "" if entity is None else f"entity {entity}: "
        super().__init__(f"{where}{owner}.{field} = {shown(value)}: expected {allowed}")


class IntentError(MotionError):
    """An intent the rules forbid in the entity's present state (for example a 180-degree turn at speed).

    ``field`` names a field of ``Intent`` (``"turn"``) or, with a dot, of another component that carries
    the wish (``"FlightIntent.climb_yd"``, ``"Rider.action"``).

    >>> str(IntentError(3, "turn", 3, "at most 2 hexsides"))
    'entity 3: Intent.turn = 3: at most 2 hexsides'
    >>> str(IntentError(3, "FlightIntent.climb_yd", -9, "at least -4"))
    'entity 3: FlightIntent.climb_yd = -9: at least -4'
    """

    def __init__(self, entity: int, field: str, value: Any, allowed: str) -> None:
        self.entity = entity
        self.field = field
        self.value = value
        self.allowed = allowed
        where = field if "." in field else f"Intent.{field}"
        super().__init__(f"entity {entity}: {where} = {shown(value)}: {allowed}")


class WorldError(MotionError):
    """A misuse of the world itself: a missing entity, a second install, an unknown component name."""


class HandlerError(Exception):
    """Event handlers that raised while a step handed out the events of a turn it had already completed.

    The turn stands (do not step again to retry it): every handler heard every event, and ``failures`` holds,
    in order, each ``(handler, event, exception)``. ``turn`` is the world's turn count after that turn.
    """

    def __init__(self, turn: int, failures: list[tuple[Any, Any, BaseException]]) -> None:
        self.turn = turn
        self.failures = failures
        lines = [f"{len(failures)} event handler call(s) raised after turn {turn} was completed:"]
        lines += [
            f"  {getattr(handler, '__qualname__', repr(handler))} on {type(event).__name__}: "
            f"{type(error).__name__}: {error}"
            for handler, event, error in failures
        ]
        super().__init__("\n".join(lines))

"""Helpers that several test modules share: worlds to build, dice to script, invariants to check."""

from __future__ import annotations

from typing import TypeVar

from esper_motion.ecs import Event

E = TypeVar("E", bound=Event)


def of_type(events: list[Event], kind: type[E]) -> list[E]:
    """The events of ``kind``, in order."""
    return [event for event in events if isinstance(event, kind)]

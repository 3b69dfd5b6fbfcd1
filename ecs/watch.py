"""The components a game writes between steps, kept so that the next step checks them before any rule reads them.

Every registered dataclass component type that has constructor checks (a ``__post_init__``) is watched: between
steps, assigning one of its fields records the component. While any world steps, the watch is off and a write
costs what it costs on a plain object: the rules' own writes are not checked (they are the rules). A component
built between steps is recorded by its constructor's own assignments and dropped again once its checks pass.

Turning the watch on and off sets or removes one attribute per watched type, twice a step.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

looked_after: set[type[Any]] = set()
"""Every registered component type: the types whose fields the undo of a failed step puts back."""

_watched: list[type[Any]] = []
_written: dict[int, Any] = {}
_stepping = [0]  # how many worlds are stepping now (in a list: changed in place, never rebound)


def watch(kind: type[Any]) -> None:
    """Watch writes to the fields of dataclass component type ``kind`` (once). Frozen types, types without
    constructor checks and types with a ``__setattr__`` of their own are left alone. Every type given is
    counted in :data:`looked_after`."""
    looked_after.add(kind)
    if (
        kind in _watched
        or not dataclasses.is_dataclass(kind)
        or kind.__dataclass_params__.frozen  # type: ignore[attr-defined]
        or "__setattr__" in kind.__dict__  # a type that guards its own writes keeps its way
    ):
        return
    checks: Callable[..., None] | None = kind.__dict__.get("__post_init__")
    if checks is None:
        return

    def post_init(self: Any, *args: Any) -> None:
        checks(self, *args)
        _written.pop(id(self), None)

    post_init.__doc__ = checks.__doc__
    kind.__post_init__ = post_init  # type: ignore[attr-defined]
    _watched.append(kind)
    if not _stepping[0]:
        _hook(kind)


def _hook(kind: Any) -> None:
    kind.__setattr__ = _record


def _record(component: Any, name: str, value: Any) -> None:
    object.__setattr__(component, name, value)
    _written[id(component)] = component


def written() -> list[Any]:
    """The components written between steps and not yet checked, oldest first."""
    return list(_written.values())


def checked(components: list[Any]) -> None:
    """Forget ``components``: a world has checked them."""
    for component in components:
        _written.pop(id(component), None)


def pause() -> None:
    """A world starts a step: stop recording writes (until every stepping world has resumed)."""
    _stepping[0] += 1
    if _stepping[0] == 1:
        for kind in _watched:
            del kind.__setattr__


def resume() -> None:
    """A world ends a step: record writes again once no world is stepping."""
    _stepping[0] -= 1
    if _stepping[0] == 0:
        for kind in _watched:
            _hook(kind)

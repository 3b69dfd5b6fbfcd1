"""Stable names for component and event classes, so saved data survives a refactor that moves a class."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from ecs.errors import WorldError

T = TypeVar("T", bound=type[Any])

_BY_NAME: dict[str, type[Any]] = {}
_BY_TYPE: dict[type[Any], str] = {}


def register(name: str) -> Callable[[T], T]:
    """Class decorator giving a component (or event) class its stable name.

    A name can belong to one class only; registering the same class again under the same name is allowed
    (a module reloaded in tests).
    """

    def decorate(cls: T) -> T:
        owner = _BY_NAME.get(name)
        if owner is not None and owner.__qualname__ != cls.__qualname__:
            raise WorldError(f"registered name {name!r} already names {owner.__module__}.{owner.__qualname__}")
        _BY_NAME[name] = cls
        _BY_TYPE[cls] = name
        return cls

    return decorate


def name_of(cls: type[Any]) -> str:
    """The stable name of a registered class; a clear error for one that was never registered."""
    try:
        return _BY_TYPE[cls]
    except KeyError:
        raise WorldError(
            f"{cls.__module__}.{cls.__qualname__} has no registered name: decorate it with ecs.register(name)"
        ) from None


def type_named(name: str) -> type[Any]:
    """The class registered under ``name``; a clear error naming the unknown name otherwise."""
    try:
        return _BY_NAME[name]
    except KeyError:
        known = ", ".join(sorted(_BY_NAME))
        raise WorldError(f"unknown component name {name!r}; known names: {known}") from None

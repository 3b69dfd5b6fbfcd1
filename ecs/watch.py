"""The components a game writes between steps, kept so that the next step checks them before any rule reads them.

Every registered dataclass component type that has constructor checks (a ``__post_init__``) is watched: assigning
one of its fields records the component, unless the thread writing is running the library's own systems (it called
:func:`pause`): the rules' own writes are not checked (they are the rules). What one thread does never stops
another's writes being recorded. Before each step a world takes out of the record the components it holds, and
checks them; a world closed or collected takes its own out unchecked. A component built between steps is recorded
by its constructor's own assignments and dropped again once its checks have run, whether they passed or refused it.

What a write costs. The watch is a ``__setattr__`` on each watched type, and a Python ``__setattr__`` makes every
write to the type dearer: about 16 ns for a plain slot write, about 180 ns through the hook (CPU time), on a GURPS
turn of 10,000 entities that writes about 260,000 fields. So while the process's only thread is paused (a game
stepping its worlds from its one thread, a study's run), the hooks are off the types and the library's writes cost
what a plain write costs, as before threads were taken into account (the turn measured the same, within the noise).
While other threads run, the hooks stay on and the paused thread's writes skip the record after one look-up of the
thread's id (a dict of ids: a ``threading.local`` read costs more); a turn of 10,000 entities then costs about a
quarter more (1.27 times, CPU time, stepped in rotation with a twin world with no other thread). A thread paused
alone starts no other before it resumes: the library's systems start none.

Why one record for the process, from which each world takes its own, rather than one record per world: a component
does not know its world. Finding the owner at each write would take a search of every world, or a table of owners
kept up by every way a component comes into a world or leaves it (esper's own functions included), and a component
written before it joins a world would have no record to go to. A world finds its own as it always did (one pass
over the components of the types written); the record holds only what was written since the worlds' last steps.
A component written and then taken out of its world (removed, or its entity despawned) before a step stays in it.
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Callable
from typing import Any

looked_after: set[type[Any]] = set()
"""Every registered component type: the types whose fields the undo of a failed step puts back."""

_watched: list[type[Any]] = []
_written: dict[int, Any] = {}
_paused: dict[int, int] = {}  # thread id -> how many pauses that thread is in
_unhooked: list[type[Any]] = []  # the watched types whose hook is off while the process's one thread is paused
_thread = threading.get_ident
_checks: dict[type[Any], Callable[..., None]] = {}  # each watched type's own constructor checks


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
        try:
            checks(self, *args)
        finally:  # passed or refused, the constructor's own assignments are not a game's writes
            _written.pop(id(self), None)

    post_init.__doc__ = checks.__doc__
    kind.__post_init__ = post_init  # type: ignore[attr-defined]
    _checks[kind] = checks
    _watched.append(kind)
    if _unhooked:
        _unhooked.append(kind)
    else:
        _hook(kind)


def own_checks(kind: type[Any]) -> Callable[..., None]:
    """The constructor checks (``__post_init__``) of dataclass ``kind`` as the type declared them, without what the
    watch adds: running them on a component leaves its record alone."""
    return _checks.get(kind) or kind.__post_init__


def _hook(kind: Any) -> None:
    kind.__setattr__ = _record


def _record(component: Any, name: str, value: Any) -> None:
    object.__setattr__(component, name, value)
    if _thread() not in _paused:
        _written[id(component)] = component


def note(component: Any) -> None:
    """Record ``component`` as written (its lists or dicts may be changed in place, which no hook sees)."""
    _written[id(component)] = component


def written() -> list[Any]:
    """The components written and not yet checked, oldest first, whichever world holds them."""
    return list(_written.values())


def checked(components: list[Any]) -> None:
    """Forget ``components``: a world has checked them, or closed."""
    for component in components:
        _written.pop(id(component), None)


def pause(*, unhook: bool = True) -> None:
    """The calling thread starts running the library's own systems: stop recording its writes (until it has
    resumed as often as it paused). Other threads' writes are still recorded. With ``unhook`` False the hooks stay
    on even where the process has one thread (each write then costs a look-up of the thread): for work of few
    writes, such as a step of a handful of entities, where taking the hooks off and putting them back (about
    0.6 us a type each way) costs more than the hooks would."""
    thread = _thread()
    depth = _paused[thread] = _paused.get(thread, 0) + 1
    if depth == 1 and unhook and threading.active_count() == 1:  # no other thread can write: take the hooks off
        _unhooked.extend(_watched)
        for kind in _watched:
            del kind.__setattr__


def resume() -> None:
    """The calling thread is done with the library's systems: record its writes again once it has resumed as
    often as it paused."""
    thread = _thread()
    depth = _paused[thread] - 1
    if depth:
        _paused[thread] = depth
        return
    del _paused[thread]
    while _unhooked:
        _hook(_unhooked.pop())

"""Helpers that several test modules share: worlds to build, dice to script, invariants to check."""

from __future__ import annotations

from typing import TypeVar

from esper_motion.ecs import Event, Phase, System, World
from esper_motion.systems.gurps import Rules, install

E = TypeVar("E", bound=Event)


def of_type(events: list[Event], kind: type[E]) -> list[E]:
    """The events of ``kind``, in order."""
    return [event for event in events if isinstance(event, kind)]


def gurps_world(rules: Rules | None = None, seed: int = 7) -> World:
    """A world with the GURPS systems installed."""
    world = World(seed=seed)
    install(world, rules)
    return world


def in_phase(world: World, system: System, phase: Phase) -> System:
    """Add a game's own ``system`` to ``world`` in ``phase``, after the library's systems of that phase. Each call
    gives the system a class of its own, so one class may serve several times in a world."""
    system.__class__ = type(type(system).__name__, (type(system),), {"phase": phase})
    world.add_system(system)
    return system

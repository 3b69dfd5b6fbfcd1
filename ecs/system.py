"""System: an esper Processor that belongs to a phase and knows its World."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

import esper

from esper_motion.ecs.errors import WorldError
from esper_motion.ecs.phase import Phase

if TYPE_CHECKING:
    from esper_motion.ecs.world import World


class System(esper.Processor):
    """Base class of every rule system.

    A subclass sets the class attribute ``phase`` and implements :meth:`run`. ``World.add_system`` gives it
    its world and the esper priority of its phase; plain ``esper.process()`` runs it too.
    """

    phase: ClassVar[Phase]

    def __init__(self) -> None:
        self._world: World | None = None

    @property
    def world(self) -> World:
        """The world this system was added to."""
        if self._world is None:
            raise WorldError(f"{type(self).__name__} is not installed in a world")
        return self._world

    @world.setter
    def world(self, world: World) -> None:
        self._world = world

    def process(self, *args: Any, **kwargs: Any) -> None:
        """esper's entry point: run this system's part of the turn (through its world, which keeps what
        :meth:`esper_motion.ecs.World.per_run` holds for the length of the run)."""
        self.world._run_system(self)

    def run(self) -> None:
        """This system's part of the turn. Subclasses implement it."""
        raise NotImplementedError(f"{type(self).__name__} must implement run()")

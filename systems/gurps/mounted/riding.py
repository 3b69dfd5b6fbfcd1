"""Riders go where their mounts go."""

from __future__ import annotations

import esper

from esper_motion.components.mount import Rider
from esper_motion.ecs import Phase, System, World
from esper_motion.systems.gurps.mounted.common import place_rider


def _depth(world: World, link: Rider) -> int:
    """How many mounts stand under the rider whose link is ``link`` (a rider on a mount that is itself ridden...
    counts them all)."""
    depth = 0
    current: Rider | None = link
    while current is not None and current.mount is not None:
        depth += 1
        current = world.try_get(current.mount, Rider)
    return depth


class RidingSystem(System):
    """MOUNTED phase, last: every seated rider moves with its mount. Reads ``Rider``, ``Mount`` and the mount's
    ``Position`` and ``Facing``; writes the rider's ``Position`` and ``Facing``. A rider sits in the centre hex of a
    3-hex mount and the front hex of a 2-hex mount, at the mount's altitude, facing the way it faces (Basic Set: Mounted
    Combat > Mounting Up). Riders of riders are placed after the riders they sit on, so a chain of any depth ends up
    together. The links were checked earlier in the phase
    (:class:`~esper_motion.systems.gurps.mounted.mount_links.MountLinkSystem`). Implements Basic Set: Mounted Combat
    (and the house rules: Mounts).

    Its page: docs/gurps-basic.md.
    """

    phase = Phase.MOUNTED
    acts_on = (Rider,)

    def run(self) -> None:
        """Place every seated rider, lowest in a chain first."""
        world = self.world
        seated = [(entity, rider) for entity, rider in esper.get_component(Rider) if rider.mount is not None]
        seated.sort(key=lambda row: (_depth(world, row[1]), row[0]))
        for entity, rider in seated:
            assert rider.mount is not None
            place_rider(world, entity, rider.mount)

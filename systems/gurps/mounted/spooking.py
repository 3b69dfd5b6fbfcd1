"""Spooked mounts: a shying, bucking mount fought back under control one Ready at a time."""

from __future__ import annotations

import esper

from esper_motion.components.mount import Mount, Rider
from esper_motion.ecs import Phase, System, World
from esper_motion.systems.gurps import rules
from esper_motion.systems.gurps.events import MountCalmed, MountSpooked
from esper_motion.systems.gurps.mounted.common import readies, require_mount, riding_roll
from esper_motion.systems.gurps.mounted.mount_control import lose_control
from esper_motion.systems.gurps.shared.movers import initiative_order


def spook(world: World, mount: int, threat: int | None = None) -> None:
    """A game reports between steps that the mount spooked (a failed Fright Check, say): it shies and bucks,
    and its rider starts fighting it on the coming turn (Basic Set: Mounted Combat > Spooked Mounts).
    ``threat`` is the foe or hazard it shies from, if known. A mount already spooked stays as it is."""
    found = require_mount(world, mount)
    if threat is not None:
        found.threat = threat
    if not found.spooked:
        found.spooked_from = world.turn
        found.spook_successes = found.spook_failures = 0


def start_spooking(world: World, mount: int, cause: str) -> None:
    """A rule spooks the mount during the step: its rider starts fighting it on the next turn. A mount already
    spooked stays as it is (its run of rolls goes on). Emits :class:`MountSpooked`."""
    found = world.get(mount, Mount)
    if found.spooked:
        return
    found.spooked_from = world.turn + 1
    found.spook_successes = found.spook_failures = 0
    world.emit(MountSpooked(mount, cause))


class SpookingSystem(System):
    """MOUNTED phase: the controlling rider of each spooked mount fights it. Reads ``Mount``, ``Rider``, ``Intent`` and
    ``Skills``; writes ``Mount.spooked_from`` and the running counts; emits :class:`~esper_motion.ecs.events.RollMade`,
    :class:`MountCalmed`, and through :func:`lose_control` the Mount Loss of Control Table's events. Implements Basic
    Set: Mounted Combat (and the house rules: Mounts).

    Its reading of the rules: docs/gurps-basic.md > How each system reads the rules > SpookingSystem.
    """

    phase = Phase.MOUNTED
    acts_on = (Mount,)

    def run(self) -> None:
        """Roll for every spooked mount whose rider takes a Ready, in initiative order."""
        world = self.world
        spooked = [
            entity
            for entity, mount in esper.get_component(Mount)
            if mount.spooked_from is not None and mount.spooked_from <= world.turn and mount.controller is not None
        ]
        for entity in initiative_order(world, spooked):
            mount = world.get(entity, Mount)
            rider = mount.controller
            if rider is None or not readies(world, rider) or world.get(rider, Rider).action is not None:
                continue
            result = riding_roll(world, rider, entity, 0, f"regain control of spooked entity {entity}")
            state, outcome = rules.spooked_mount_roll(
                rules.SpookState(mount.spook_successes, mount.spook_failures),
                result.success,
                result.critical_success if result.success else result.critical_failure,
            )
            mount.spook_successes, mount.spook_failures = state.successes, state.failures
            if outcome is rules.SpookResult.CALMED:
                mount.spooked_from = None
                world.emit(MountCalmed(entity, rider))
            elif outcome is rules.SpookResult.LOST_CONTROL:
                mount.spooked_from = None
                lose_control(world, entity)

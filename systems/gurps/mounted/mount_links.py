"""The links between riders and mounts, checked every turn before any other Mounted Combat rule."""

from __future__ import annotations

import esper

from esper_motion.components.gurps import Control
from esper_motion.components.mount import Mount, Rider
from esper_motion.ecs import Phase, System, WorldError
from esper_motion.systems.gurps.events import CarrierGone, MountingAbandoned
from esper_motion.systems.gurps.mounted.common import check_can_ride, fall_off
from esper_motion.systems.gurps.shared.movers import initiative_order
from esper_motion.systems.gurps.shared.spatial import tell_index


class MountLinkSystem(System):
    """MOUNTED phase, first: checks every rider-mount link, and every carried entity's link to its carrier. Reads and
    writes ``Rider``, ``Mount`` and ``Control.carried_by``; emits :class:`FellOff` and :class:`FallDamage` for the
    riders of a mount that is gone, :class:`MountingAbandoned` when the mount a rider was climbing onto is gone, and
    :class:`CarrierGone` for a carried entity whose carrier is gone. Implements Basic Set: Mounted Combat (and the house
    rules: Mounts).

    Its reading of the rules: docs/gurps-basic.md > How each system reads the rules > MountLinkSystem.
    """

    phase = Phase.MOUNTED

    def run(self) -> None:
        """Check every link, in initiative order."""
        world = self.world
        riders = [entity for entity, rider in esper.get_component(Rider) if rider.mount is not None]
        for entity in initiative_order(world, riders):
            ridden = world.get(entity, Rider).mount
            assert ridden is not None
            found = world.try_get(ridden, Mount)
            if found is None:
                fall_off(world, entity, ridden, "the mount is gone", 3)
            elif entity not in found.riders:
                raise WorldError(
                    f"entity {entity}'s Rider.mount is {ridden}, but Mount.riders of {ridden} is {found.riders}"
                )
            else:
                check_can_ride(world, entity, ridden)
        for entity, rider in esper.get_component(Rider):
            if rider.climbing_onto is not None and not world.has(rider.climbing_onto, Mount):
                world.emit(MountingAbandoned(entity, rider.climbing_onto))
                rider.climbing_onto = None
            if rider.action_target is not None and not world.exists(rider.action_target):
                rider.action = rider.action_target = rider.action_skill = None
        for entity, mount in esper.get_component(Mount):
            mount.riders[:] = [rider for rider in mount.riders if world.exists(rider)]
            for seated in mount.riders:
                link = world.try_get(seated, Rider)
                if link is None or link.mount != entity:
                    named = "no Rider" if link is None else f"Rider.mount {link.mount}"
                    raise WorldError(f"entity {entity}'s Mount.riders lists entity {seated}, which has {named}")
            if mount.threat is not None and not world.exists(mount.threat):
                mount.threat = None
            if mount.charge_foe is not None and not world.exists(mount.charge_foe):
                mount.charge_foe = None
            if mount.call_back_by is not None and not world.exists(mount.call_back_by):
                mount.call_back_by = None
        for entity, control in esper.get_component(Control):
            carrier = control.carried_by
            if carrier is not None and not world.exists(carrier):
                control.carried_by = None
                tell_index(world, entity)
                world.emit(CarrierGone(entity, carrier))

"""House rules: a winged flier with something in its wingspan all through its movement, and crippled wings."""

from __future__ import annotations

import esper

from esper_motion.components.flight import Flight
from esper_motion.components.gurps import Control
from esper_motion.ecs import Phase
from esper_motion.ecs.hexgrid import direction_to
from esper_motion.systems.gurps.events import WingspanObstructed
from esper_motion.systems.gurps.flight.house_wipe_out import wipe_out
from esper_motion.systems.gurps.shared.figure import body_hexes
from esper_motion.systems.gurps.shared.movers import bodies, carried, environment, installed_rules
from esper_motion.systems.gurps.shared.spatial import IndexedSystem
from esper_motion.systems.gurps.shared.wingspan import could_meet, watched, wingspan_obstacles


class HouseWingspan(IndexedSystem):
    """STALL phase, first (house rules only): obstacles in the wingspan all through the movement, and crippled wings.
    Reads ``Flight`` (``wings``, ``wingspan_yd``, ``crippled_wing``, ``climbed_yd``), ``Control`` (``path``), the paths
    every body moved this turn, and the :class:`~esper_motion.systems.gurps.shared.spatial.SpatialIndex` the MOVEMENT
    phase keeps; writes ``Flight`` and ``Control``; emits :class:`WingspanObstructed`, ``LostControl`` and
    :class:`WipedOut`. Implements house rules: Flying Movement and Combat.

    Its reading of the rules: docs/gurps-house.md > How each system reads the rules > HouseWingspan.
    """

    phase = Phase.STALL
    acts_on = (Flight,)

    def run(self) -> None:
        """Check every winged flier in the air, in initiative order."""
        world = self.world
        chosen = installed_rules(world)
        moved: list[int] | None = None  # the bodies that moved this turn, found once, when first needed
        for body in bodies(world):
            flight = world.try_get(body.entity, Flight)
            if flight is None or not flight.wings or flight.wiped_out or carried(body):
                continue
            if environment(world, body) != "air":
                continue
            if flight.crippled_wing:
                wipe_out(world, body, "a crippled wing", chosen)
                continue
            if not watched(world, body):
                continue
            if moved is None:
                moved = [entity for entity, control in esper.get_component(Control) if control.path]
            spots = body.control.path or [body.position.hex]
            length = self.index.length(body.entity)
            near = could_meet(world, body.entity, moved, spots[-1], len(spots) + length - 1)
            found: set[int] = set()
            for number, spot in enumerate(spots, start=1):
                way = direction_to(spots[number - 2], spot) if number > 1 else None
                moment = number / len(spots)
                there: set[int] = set()
                for at in body_hexes(spot, body.facing.direction if way is None else way, length):
                    there |= wingspan_obstacles(
                        world, self.index, body.entity, at, moment=moment, moved=near, after_climbs=True
                    )
                if not there:
                    break
                found |= there
            else:
                world.emit(WingspanObstructed(body.entity, tuple(sorted(found)), True))
                wipe_out(world, body, "an obstacle in its wingspan all through its movement", chosen)

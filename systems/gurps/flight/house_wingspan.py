"""House rules: whatever comes within a winged flier's wingspan, and crippled wings."""

from __future__ import annotations

from esper_motion.components.flight import Flight
from esper_motion.components.gurps import LossCause, MoveState
from esper_motion.ecs import Phase, RollMade
from esper_motion.systems.gurps.events import WingspanObstructed
from esper_motion.systems.gurps.flight.house_wipe_out import wingspan_obstacles, wipe_out
from esper_motion.systems.gurps.shared.movers import (
    bodies,
    carried,
    dx_modifier,
    environment,
    installed_rules,
    mount_rolled_dx,
)
from esper_motion.systems.gurps.shared.spatial import IndexedSystem
from esper_motion.systems.gurps.shared.transitions import lose_control


class HouseWingspan(IndexedSystem):
    """STALL phase, first (house rules only): obstacles in the wingspan and crippled wings.

    Reads ``Flight`` (``wings``, ``wingspan_yd``, ``crippled_wing``), ``Control`` (``path``, ``state``), DX with
    :func:`esper_motion.systems.gurps.shared.movers.dx_modifier`, and the
    :class:`~esper_motion.systems.gurps.shared.spatial.SpatialIndex` the MOVEMENT phase keeps; writes ``Flight`` and
    ``Control``; emits :class:`WingspanObstructed`, ``RollMade``, ``LostControl`` and :class:`WipedOut`.

    A winged flier with an obstacle (another flier included) in its wingspan at any point of its movement
    rolls DX at once or loses control; with one there all through its movement it wipes out at the end of
    the movement. A crippled wing wipes it out too (House rules: Flying Movement and Combat). Readings chosen:

    - "Its movement" is the hexes it entered this turn (its own hex if it did not move); what lies within
      the wingspan is :func:`esper_motion.systems.gurps.flight.house_wipe_out.wingspan_obstacles`, where everything
      stands after the movement.
    - A flier already out of control has no roll to make; the whole-movement wipe-out still applies.
    """

    phase = Phase.STALL

    def run(self) -> None:
        """Check every winged flier in the air, in initiative order."""
        world = self.world
        chosen = installed_rules(world)
        for body in bodies(world):
            flight = world.try_get(body.entity, Flight)
            if flight is None or not flight.wings or flight.wiped_out or carried(body):
                continue
            if environment(world, body) != "air":
                continue
            if flight.crippled_wing:
                wipe_out(world, body, "a crippled wing", chosen)
                continue
            if flight.wingspan_yd < 2:
                continue
            spots = body.control.path or [body.position.hex]
            found = [wingspan_obstacles(world, self.index, body.entity, spot) for spot in spots]
            if not any(found):
                continue
            whole = all(found)
            world.emit(WingspanObstructed(body.entity, tuple(sorted(set().union(*found))), whole))
            if whole:
                wipe_out(world, body, "an obstacle in its wingspan all through its movement", chosen)
                continue
            if body.control.state is MoveState.OUT_OF_CONTROL:
                continue
            result = world.dice.success(body.mover.dx + dx_modifier(world, body.entity), "DX")
            world.emit(RollMade(body.entity, "obstacle in the wingspan", result))
            mount_rolled_dx(world, body.entity, result.success)
            if not result.success:
                cause = LossCause.CRITICAL_FAILURE if result.critical_failure else LossCause.FAILED_ROLL
                lose_control(world, body, cause, body.control.moved_yd, chosen)

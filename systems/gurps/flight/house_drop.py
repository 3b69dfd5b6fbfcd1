"""House rules: a flier out of control at speed drops, and a wiped-out one drops faster every second."""

from __future__ import annotations

from esper_motion.components.flight import Flight
from esper_motion.components.gurps import MoveState
from esper_motion.ecs import Phase
from esper_motion.systems.gurps import rules
from esper_motion.systems.gurps.events import VelocityChanged
from esper_motion.systems.gurps.flight.fall import fall_through
from esper_motion.systems.gurps.flight.house_dive import gather_dive_speed
from esper_motion.systems.gurps.shared.movers import bodies, carried, environment
from esper_motion.systems.gurps.shared.spatial import IndexedSystem


class HouseUncontrolledDrop(IndexedSystem):
    """STALL phase, after the wingspan (house rules only): the drop of a flier out of control. Reads ``Flight``,
    ``Control`` (``state``, ``lost_at_yd``), ``Position``; writes ``Position.altitude_yd``, ``Flight``
    (``fall_seconds``, ``fall_yd``, the dive bonus), ``Velocity``; emits :class:`Falling`, ``VelocityChanged`` for the
    speed the drop gains, and :class:`Landed` and ``FallDamage`` when the drop reaches the ground (``Collided`` and
    ``FellClear`` when it comes down onto something). Implements house rules: Flying Movement and Combat.

    Its reading of the rules: docs/gurps-house.md > How each system reads the rules > HouseUncontrolledDrop.
    """

    phase = Phase.STALL
    acts_on = (Flight,)

    def run(self) -> None:
        """Drop every flier out of control, in initiative order."""
        world = self.world
        for body in bodies(world):
            flight = world.try_get(body.entity, Flight)
            control = body.control
            if flight is None or flight.stalled or carried(body) or control.state is not MoveState.OUT_OF_CONTROL:
                continue
            if environment(world, body) != "air":
                continue
            if flight.wiped_out:
                flight.fall_seconds += 1
                drop = rules.house_uncontrolled_drop_yd(flight.fall_seconds, wipe_out=True)
            else:
                if control.lost_at_yd is not None:
                    flight.fall_yd = 0.0  # control lost this turn: a new drop begins
                drop = rules.house_uncontrolled_drop_yd(1)
                before = body.velocity.yps
                gather_dive_speed(world, body.entity, drop)
                if body.velocity.yps != before:
                    world.emit(VelocityChanged.forced(body.entity, before, body.velocity.yps))
            fall_through(world, self.index, body.entity, drop)

"""House rules: a flier out of control at speed drops, and a wiped-out one drops faster every second."""

from __future__ import annotations

from esper_motion.components.flight import Flight
from esper_motion.components.gurps import MoveState
from esper_motion.ecs import Phase
from esper_motion.systems.gurps import rules
from esper_motion.systems.gurps.flight.fall import fall_through
from esper_motion.systems.gurps.flight.house_dive import gather_dive_speed
from esper_motion.systems.gurps.shared.movers import bodies, carried, environment
from esper_motion.systems.gurps.shared.spatial import IndexedSystem


class HouseUncontrolledDrop(IndexedSystem):
    """STALL phase, after the wingspan (house rules only): the drop of a flier out of control.

    Reads ``Flight``, ``Control`` (``state``, ``lost_at_yd``), ``Position``; writes ``Position.altitude_yd``,
    ``Flight`` (``fall_seconds``, ``fall_yd``, the dive bonus), ``Velocity``; emits :class:`Falling`, and
    :class:`Landed` and ``FallDamage`` when the drop reaches the ground (``Collided`` and ``FellClear`` when it comes
    down onto something).

    Out of control in the air, a flier drops 5 yards each turn, with what a dive of 5 yards does to its speed
    (:func:`esper_motion.systems.gurps.flight.house_dive.gather_dive_speed`); wiped out, it has no lift and drops 10
    yards the first second, 20 the next, and so on (:func:`esper_motion.systems.gurps.rules.house_uncontrolled_drop_yd`)
    (House rules: Flying Movement and Combat). Readings chosen:

    - The drop comes after the turn's involuntary movement, the turn control is lost included.
    - A drop that reaches the ground is a fall from the yards dropped since control was lost
      (:func:`esper_motion.systems.gurps.flight.fall.land`); one that comes down onto a body or an obstacle on the way
      collides with it instead (:func:`esper_motion.systems.gurps.flight.fall.fall_onto`).
    """

    phase = Phase.STALL

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
                gather_dive_speed(world, body.entity, drop)
            fall_through(world, self.index, body.entity, drop)

"""House rules: a dive past the normal top speed takes a DX+2 roll to stay in control."""

from __future__ import annotations

from esper_motion.components.flight import Flight
from esper_motion.components.gurps import MoveState
from esper_motion.ecs import Phase, System
from esper_motion.systems.gurps import rules
from esper_motion.systems.gurps.shared.dive import normal_top_speed
from esper_motion.systems.gurps.shared.movers import (
    bodies,
    carried,
    dx_modifier,
    environment,
    failed_control_roll,
    installed_rules,
)
from esper_motion.systems.gurps.shared.transitions import lose_control


class HouseDiveControl(System):
    """ACCELERATION phase, after the velocity change (house rules only): fast dives. Reads ``Flight`` (the yards dived
    this turn, ``down_yd``), ``Control.state``, ``Velocity``, DX with
    :func:`esper_motion.systems.gurps.shared.movers.dx_modifier`; writes ``Control`` on a failure; emits ``RollMade``
    and ``LostControl``. Implements house rules: Flying Movement and Combat.

    Its reading of the rules: docs/gurps-house.md > How each system reads the rules > HouseDiveControl.
    """

    phase = Phase.ACCELERATION
    acts_on = (Flight,)

    def run(self) -> None:
        """Roll for every fast diver in control, in initiative order."""
        world = self.world
        chosen = installed_rules(world)
        for body in bodies(world):
            flight = world.try_get(body.entity, Flight)
            if flight is None or flight.down_yd == 0 or carried(body):
                continue
            if body.control.state is not MoveState.HIGH_SPEED or environment(world, body) != "air":
                continue
            top = normal_top_speed(flight, body.mover, chosen)
            modifier = rules.house_dive_control_modifier(body.velocity.yps, top)
            if modifier is None:
                continue
            dx = body.mover.dx + dx_modifier(world, body.entity)
            cause = failed_control_roll(world, body.entity, dx, "DX", "dive past top speed", modifier=modifier)
            if cause is not None:
                lose_control(world, body, cause, body.control.moved_yd, chosen)

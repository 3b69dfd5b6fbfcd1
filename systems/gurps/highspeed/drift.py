"""CONTROL: a mover out of control that does not trip (in the air, in water, on three or more wheels) slows."""

from __future__ import annotations

from esper_motion.ecs import Phase, System
from esper_motion.systems.gurps.events import VelocityChanged
from esper_motion.systems.gurps.shared.movers import installed_rules, limits, loss_mode, out_of_control
from esper_motion.systems.gurps.shared.transitions import regain_control, stall_after_deceleration


class Drifting(System):
    """CONTROL phase: fliers, swimmers and wheeled vehicles out of control decelerate, in initiative order. Reads
    ``Control`` (``state``, ``loss_cause``), ``Velocity``, the Move in use (``Limits.safe_decel``); writes
    ``Velocity.yps``, ``Control`` (``state``, ``loss_cause``, ``halted``); emits ``VelocityChanged``,
    ``RegainedControl`` and ``LeftHighSpeed``. The MOVEMENT phase has already moved them their whole velocity straight
    ahead from where control was lost. Implements Basic Set: High-Speed Movement.

    Its reading of the rules: docs/gurps-basic.md > How each system reads the rules > Drifting.
    """

    phase = Phase.CONTROL

    def run(self) -> None:
        """Slow every drifting mover and hand back control where the rules allow."""
        world = self.world
        chosen = installed_rules(world)
        for body, cause in out_of_control(world):
            control = body.control
            mode = loss_mode(world, body, cause, chosen)
            if mode == "trip":
                continue
            lim = limits(world, body, chosen)
            before = body.velocity.yps
            body.velocity.yps = max(0, before - lim.safe_decel)
            world.emit(VelocityChanged.forced(body.entity, before, body.velocity.yps))
            if lim.environment == "air" and stall_after_deceleration(world, body.entity):
                continue  # stalled: at rest, falling, its turn over
            control.halted = True
            if mode == "drift" or body.velocity.yps <= lim.basic_move:
                regain_control(world, body, lim.high_speed_above)

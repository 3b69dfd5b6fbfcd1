"""CONTROL, house rules: the cycle of losing and regaining control (House rules: High Speed Movement)."""

from __future__ import annotations

from esper_motion.components.gurps import LossCause
from esper_motion.ecs import Phase, System
from esper_motion.systems.gurps import rules
from esper_motion.systems.gurps.events import VelocityChanged
from esper_motion.systems.gurps.shared.movers import (
    dx_modifier,
    installed_rules,
    limits,
    loss_mode,
    mount_rolled_dx,
    out_of_control,
)
from esper_motion.systems.gurps.shared.rolls import success_roll
from esper_motion.systems.gurps.shared.transitions import regain_control, stall_after_deceleration


class HouseRecovery(System):
    """CONTROL phase under ``Rules.control == "house"`` (in place of ``Drifting``): movers out of control that do not
    trip slow down and win their control back, in initiative order. Reads ``Control`` (``state``, ``loss_cause``,
    ``lost_at_yd``), ``Velocity``, ``Mover.dx`` with :func:`esper_motion.systems.gurps.shared.movers.dx_modifier`, Basic
    and Encumbered Move; writes ``Velocity.yps``, ``Control`` (``state``, ``loss_cause``, ``halted``); emits
    ``RollMade``, ``VelocityChanged``, ``RegainedControl`` and ``LeftHighSpeed``. Implements house rules: High Speed
    Movement.

    Its reading of the rules: docs/gurps-house.md > How each system reads the rules > HouseRecovery.
    """

    phase = Phase.CONTROL

    def run(self) -> None:
        """Slow every mover out of control and give control back where the house rules allow."""
        world = self.world
        chosen = installed_rules(world)
        for body, cause in out_of_control(world):
            control = body.control
            if loss_mode(world, body, cause, chosen) == "trip":
                continue
            lim = limits(world, body, chosen)
            if control.lost_at_yd is None and control.loss_cause is not LossCause.UNCONTROLLED:
                dx = body.mover.dx + dx_modifier(world, body.entity)
                result = success_roll(world, body.entity, dx, "DX", "regain control")
                mount_rolled_dx(world, body.entity, result.success)
                if result.success:
                    regain_control(world, body, lim.high_speed_above)
                    continue
            before = body.velocity.yps
            body.velocity.yps = rules.house_out_of_control_velocity(before, lim.basic_move)
            world.emit(VelocityChanged.forced(body.entity, before, body.velocity.yps))
            if lim.environment == "air" and stall_after_deceleration(world, body.entity):
                continue  # stalled: at rest, falling, its turn over
            control.halted = True
            if rules.house_regains_control_automatically(body.velocity.yps, lim.move):
                regain_control(world, body, lim.high_speed_above)

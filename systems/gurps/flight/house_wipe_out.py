"""House rules: wipe-outs, a loss of control with no lift at all, and winning lift back."""

from __future__ import annotations

from esper_motion.components.flight import Flight
from esper_motion.components.gurps import LossCause, MoveState
from esper_motion.ecs import Phase, World
from esper_motion.systems.gurps import rules
from esper_motion.systems.gurps.events import LiftRegained, VelocityChanged, WipedOut
from esper_motion.systems.gurps.options import Rules
from esper_motion.systems.gurps.shared.movers import (
    Body,
    bodies,
    carried,
    dx_modifier,
    installed_rules,
    limits,
    mount_rolled_dx,
)
from esper_motion.systems.gurps.shared.rolls import success_roll
from esper_motion.systems.gurps.shared.spatial import IndexedSystem
from esper_motion.systems.gurps.shared.transitions import lose_control, regain_control
from esper_motion.systems.gurps.shared.wingspan import wingspan_obstacles


def wipe_out(world: World, body: Body, reason: str, chosen: Rules) -> None:
    """Wipe ``body`` out: it loses all lift and control (a loss of control with cause ``WIPE_OUT``) and starts
    its wipe-out drop from the next second (House rules: Flying Movement and Combat); emits :class:`WipedOut`."""
    flight = world.get(body.entity, Flight)
    flight.wiped_out = True
    flight.fall_seconds = 0
    flight.fall_yd = 0.0
    world.emit(WipedOut(body.entity, reason))
    if body.control.state is MoveState.OUT_OF_CONTROL:
        body.control.loss_cause = LossCause.WIPE_OUT
    else:
        lose_control(world, body, LossCause.WIPE_OUT, body.control.moved_yd, chosen)


class HouseWipeOutRecovery(IndexedSystem):
    """CONTROL phase, before the house recovery (house rules only): wiped-out fliers try to win back control. Reads
    ``Flight`` (``wiped_out``, ``fall_seconds``, ``crippled_wing``), ``Control``, ``Velocity``, DX with
    :func:`esper_motion.systems.gurps.shared.movers.dx_modifier` and what lies in the wingspan; writes ``Velocity.yps``,
    ``Flight``, ``Control`` (``state``, ``loss_cause``, ``halted``); emits ``RollMade``, :class:`LiftRegained`,
    ``RegainedControl`` and ``LeftHighSpeed``. Implements house rules: Flying Movement and Combat.

    Its reading of the rules: docs/gurps-house.md > How each system reads the rules > HouseWipeOutRecovery.
    """

    phase = Phase.CONTROL
    acts_on = (Flight,)

    def run(self) -> None:
        """Resolve every wiped-out flier's turn, in initiative order."""
        world = self.world
        chosen = installed_rules(world)
        for body in bodies(world):
            flight = world.try_get(body.entity, Flight)
            control = body.control
            if flight is None or not flight.wiped_out or carried(body) or control.halted:
                continue
            lim = limits(world, body, chosen)
            control.halted = True
            here = body.position.hex
            if (
                control.lost_at_yd is None
                and not flight.crippled_wing
                and not wingspan_obstacles(world, self.index, body.entity, here)
            ):
                skill = body.mover.dx + rules.HOUSE_WIPE_OUT_REGAIN_DX_MODIFIER + dx_modifier(world, body.entity)
                result = success_roll(world, body.entity, skill, "DX-4", "regain control after a wipe-out")
                mount_rolled_dx(world, body.entity, result.success)
                if result.success:
                    dive = rules.house_uncontrolled_drop_yd(flight.fall_seconds, wipe_out=True)
                    body.velocity.yps += dive
                    flight.wiped_out = False
                    flight.fall_seconds = 0
                    flight.fall_yd = 0.0
                    world.emit(LiftRegained(body.entity, dive, body.velocity.yps))
                    regain_control(world, body, lim.high_speed_above)
                    continue
            before = body.velocity.yps
            body.velocity.yps = rules.house_out_of_control_velocity(before, lim.basic_move)
            world.emit(VelocityChanged.forced(body.entity, before, body.velocity.yps))

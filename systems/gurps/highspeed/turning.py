"""TURNING: where this turn's change of facing happens, and the roll for turning early or tight."""

from __future__ import annotations

from esper_motion.components.gurps import LossCause, MoveState
from esper_motion.ecs import Phase, RollMade, System
from esper_motion.ecs.dice import modified
from esper_motion.systems.gurps.highspeed.intent import early_turn_modifier
from esper_motion.systems.gurps.shared.climbing import hexside_free_yd
from esper_motion.systems.gurps.shared.movers import (
    bodies,
    carried,
    control_roll,
    installed_rules,
    limits,
    mount_rolled_dx,
)
from esper_motion.systems.gurps.shared.transitions import lose_control


class TurnPlanner(System):
    """TURNING phase: plans each mover's turn, in initiative order.

    Reads ``Intent`` (``turn``, ``turn_at_yd``, ``push``), ``Velocity``, ``Control`` (``state``,
    ``straight_yd``), the Move in use and DX (or vehicle skill and Handling); writes ``Control.turn_yd``, and
    ``Control.state``, ``loss_cause`` and ``lost_at_yd`` on a failed roll; emits ``RollMade`` and
    ``LostControl``.

    Ordinary movement turns where asked (at the start by default). At high speed a turn comes once the
    mover has gone straight for its turning radius (Basic Set: High-Speed Movement > Direction and Turning
    Radius; the radius formula is ``Rules.turning_radius``), or earlier, or tighter (120 degrees), on a
    Pushing the Envelope roll: DX+3, or vehicle skill + Handling, at the early-turn modifier. Failure loses
    control at the yard where the turn was tried: the turn does not happen under the Basic Set; under the
    house rules the facing changes but not the direction of travel (House rules: High Speed Movement). Under the
    house rules starting a climb or dive is a turn for the radius, so a hexside turn within the radius after one is
    early (:func:`esper_motion.systems.gurps.shared.climbing.hexside_free_yd`; House rules: Flying Movement and
    Combat); failing it loses control there and the climb is not flown (an out-of-control flier moves straight
    ahead). Reading chosen: one turn a second (``Intent.turn`` of 1 or 2 hexsides at one point of the path).
    """

    phase = Phase.TURNING

    def run(self) -> None:
        """Plan every turn asked for."""
        world = self.world
        chosen = installed_rules(world)
        for body in bodies(world):
            control = body.control
            intent = body.intent
            if not intent.turn or carried(body) or control.halted or control.state is MoveState.OUT_OF_CONTROL:
                continue
            if control.state is MoveState.NORMAL:
                control.turn_yd = intent.turn_at_yd if intent.turn_at_yd is not None else 0
                continue
            lim = limits(world, body, chosen)
            at = intent.turn_at_yd if intent.turn_at_yd is not None else int(hexside_free_yd(world, body, lim, None))
            free = hexside_free_yd(world, body, lim, at)
            if at < free or abs(intent.turn) == 2:
                modifier = early_turn_modifier(body, lim, chosen)
                skill, label = control_roll(world, body)
                what = "early turn" if at < free else "tight turn"
                result = world.dice.success(skill + modifier, modified(label, modifier))
                world.emit(RollMade(body.entity, what, result))
                mount_rolled_dx(world, body.entity, result.success)
                if not result.success:
                    cause = LossCause.CRITICAL_FAILURE if result.critical_failure else LossCause.FAILED_ROLL
                    lose_control(world, body, cause, at, chosen)
                    if chosen.control == "house":
                        control.turn_yd = at
                    continue
            control.turn_yd = at

"""Changes of movement state that several systems make, each made one way and told with its event.

Losing control, coming to rest, and settling the state that goes with a new velocity at the end of a turn
(Basic Set: High-Speed Movement: high speed is any velocity above Basic Move).
"""

from __future__ import annotations

from esper_motion.components.gurps import Control, LossCause, MoveState
from esper_motion.components.motion import Velocity
from esper_motion.ecs import World
from esper_motion.systems.gurps.events import LeftHighSpeed, LostControl, RegainedControl
from esper_motion.systems.gurps.options import Rules
from esper_motion.systems.gurps.shared.movers import Body, loss_mode


def lose_control(world: World, body: Body, cause: LossCause, after_yd: int, chosen: Rules) -> None:
    """Put ``body`` out of control from ``after_yd`` yards into this turn's path and say so
    (Basic Set: High-Speed Movement > Losing Control)."""
    control = body.control
    control.state = MoveState.OUT_OF_CONTROL
    control.loss_cause = cause
    control.lost_at_yd = after_yd
    world.emit(LostControl(body.entity, cause.value, loss_mode(world, body, cause, chosen), after_yd))


def come_to_rest(world: World, entity: int, reason: str) -> None:
    """Stop ``entity`` for the rest of the turn: velocity 0, ordinary movement, control back (a stopped body
    has nothing left to control). Leaving high speed (or a loss of control) is told with ``reason``."""
    velocity = world.try_get(entity, Velocity)
    if velocity is not None:
        velocity.yps = 0
    control = world.try_get(entity, Control)
    if control is None:
        return
    control.halted = True
    if control.state is not MoveState.NORMAL:
        control.state = MoveState.NORMAL
        control.loss_cause = None
        world.emit(LeftHighSpeed(entity, 0, reason))


def regain_control(world: World, body: Body, high_speed_above: int) -> None:
    """Give ``body`` its control back at its present velocity: high speed above ``high_speed_above`` (Basic
    Move; Encumbered Move in the house rules), ordinary movement at or below it."""
    control = body.control
    velocity = body.velocity.yps
    control.loss_cause = None
    control.state = MoveState.HIGH_SPEED if velocity > high_speed_above else MoveState.NORMAL
    world.emit(RegainedControl(body.entity, velocity))
    if control.state is MoveState.NORMAL:
        world.emit(LeftHighSpeed(body.entity, velocity, "control regained out of high speed"))

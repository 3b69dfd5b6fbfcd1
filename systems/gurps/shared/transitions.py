"""Changes of movement state that several systems make, each made one way and told with its event.

Losing control, coming to rest, and settling the state that goes with a new velocity at the end of a turn
(Basic Set: High-Speed Movement: high speed is any velocity above Basic Move).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final

from esper_motion.components.flight import Flight
from esper_motion.components.gurps import Control, LossCause, Mover, MoveState
from esper_motion.components.motion import Velocity
from esper_motion.ecs import World
from esper_motion.systems.gurps import rules
from esper_motion.systems.gurps.events import LeftHighSpeed, LostControl, RegainedControl, Stalled
from esper_motion.systems.gurps.options import Rules
from esper_motion.systems.gurps.shared.dive import normal_top_speed
from esper_motion.systems.gurps.shared.movers import Body, installed_rules, loss_mode


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


_quarter_of: Final = lru_cache(maxsize=64, typed=True)(rules.stall_speed)


def stall(world: World, entity: int, reason: str, covered_yd: float, needed_yd: int) -> None:
    """Make ``entity`` stall: it loses its airspeed and starts to fall; emits :class:`Stalled`, and it comes to
    rest as far as its movement goes (:func:`come_to_rest`: velocity 0, ordinary movement, no more velocity change
    this turn). ``Flight.stalled_turn`` records this turn, after which it rolls to recover each turn."""
    flight = world.get(entity, Flight)
    flight.stalled = True
    flight.stalled_turn = world.turn
    flight.fall_seconds = 0
    flight.fall_yd = 0.0
    world.emit(Stalled(entity, reason, covered_yd, needed_yd))
    come_to_rest(world, entity, "stalled")


def stall_speed(world: World, entity: int) -> int:
    """The least yards ``entity`` must cover each turn to stay up: a quarter of its top airspeed
    (:func:`esper_motion.systems.gurps.rules.stall_speed` of
    :func:`esper_motion.systems.gurps.shared.dive.normal_top_speed`)."""
    return least_speed(world.get(entity, Flight), world.get(entity, Mover), installed_rules(world))


def least_speed(flight: Flight, mover: Mover, chosen: Rules) -> int:
    """:func:`stall_speed` of the flier with ``flight`` and ``mover`` under ``chosen`` rules."""
    return _quarter_of(normal_top_speed(flight, mover, chosen))


def stall_after_deceleration(world: World, entity: int) -> bool:
    """A flier that cannot hover, slowed by the deceleration that follows a loss of control in the air to
    under a quarter of its top airspeed, stalls (Basic Set: Flying Combat > Cannot Hover). The CONTROL phase
    calls this once the safe deceleration is made; it returns whether the flier stalled."""
    flight = world.get(entity, Flight)
    if flight.mode.can_hover or flight.stalled or flight.wiped_out:
        return False
    needed = stall_speed(world, entity)
    speed = world.get(entity, Velocity).yps
    if speed >= needed:
        return False
    stall(world, entity, "lost control and slowed under a quarter of top airspeed", speed, needed)
    return True

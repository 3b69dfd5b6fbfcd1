"""ACCELERATION: the end-of-turn change of velocity, and entering and leaving high speed."""

from __future__ import annotations

from esper_motion.components.flight import Flight
from esper_motion.components.gurps import LossCause, MoveState
from esper_motion.ecs import Phase, System, World
from esper_motion.systems.gurps import rules
from esper_motion.systems.gurps.events import EnteredHighSpeed, HighSpeedRefused, LeftHighSpeed, VelocityChanged
from esper_motion.systems.gurps.highspeed.maneuvers import throttle_left
from esper_motion.systems.gurps.options import Rules
from esper_motion.systems.gurps.shared.movers import (
    Body,
    Limits,
    bodies,
    control_roll,
    failed_control_roll,
    high_speed_above,
    installed_rules,
    limits,
    standing,
)
from esper_motion.systems.gurps.shared.transitions import lose_control


def _entry_refusal(world: World, body: Body, lim: Limits) -> str | None:
    """Why this turn does not qualify for switching to high speed, or None when it does."""
    control = body.control
    if rules.can_enter_high_speed(
        control.moved_yd, lim.move, control.turned_hexsides, body.intent.maneuver, standing(world, body.entity)
    ):
        return None
    if control.moved_yd < lim.move:
        return f"moved {control.moved_yd} of its Move of {lim.move} yd"
    if control.turned_hexsides > 1:
        return f"turned {control.turned_hexsides} hexsides"
    return "not standing"


def _flights(world: World) -> dict[int, Flight]:
    """Each flier's ``Flight`` by entity, made once and kept while the world keeps its shape
    (:meth:`esper_motion.ecs.World.per_shape`)."""
    return world.per_shape(_flights, (Flight,), lambda rows: {entity: flight for entity, (flight,) in rows})


def _flier_landing(body: Body, flights: dict[int, Flight]) -> bool | None:
    """For a flier on the ground, which may have come down faster than it can run, whether it came down this turn
    (a descent of its own: ``Flight.climbed_yd``); None for anyone else. ``flights``: :func:`_flights`."""
    if body.position.altitude_yd:
        return None
    flight = flights.get(body.entity)
    return None if flight is None else flight.climbed_yd < 0


class VelocityChange(System):
    """ACCELERATION phase: sets next turn's velocity for every mover in control, in initiative order. Reads ``Intent``
    (``throttle``, ``maneuver``), ``Velocity``, ``Control`` (``state``, ``moved_yd``, ``turned_hexsides``,
    ``extra_cost``), ``Posture`` and the Move in use; writes ``Velocity.yps`` and ``Control`` (``state``; ``loss_cause``
    and ``lost_at_yd`` when control is lost); emits :class:`VelocityChanged`, :class:`EnteredHighSpeed`,
    :class:`LeftHighSpeed`, :class:`HighSpeedRefused`, ``RollMade`` and ``LostControl``. Movers whose turn is over
    (``Control.halted``: a trip, a collision, a drift) and riders are left alone; a mover that opened the turn in
    ordinary movement took its throttle then, so only what it asked past Move is applied here
    (:func:`~esper_motion.systems.gurps.highspeed.maneuvers.throttle_left`). Implements Basic Set: High-Speed
    Movement.

    Its reading of the rules: docs/gurps-basic.md > How each system reads the rules > VelocityChange.
    """

    phase = Phase.ACCELERATION

    def run(self) -> None:
        """Settle every velocity."""
        world = self.world
        chosen = installed_rules(world)
        flights = _flights(world)
        left = throttle_left(world)
        for body in bodies(world):
            control = body.control
            if control.carried_by is not None or control.halted or control.state is MoveState.OUT_OF_CONTROL:
                continue  # a rider (carried), a turn that is over, or no control to change speed with
            landing = _flier_landing(body, flights)
            throttle = left.get(body.entity, body.intent.throttle)
            if control.state is MoveState.NORMAL:
                if body.velocity.yps or throttle:  # standing still and asked for nothing: nothing to do
                    self._ordinary(world, body, limits(world, body, chosen), chosen, landing, throttle=throttle)
            elif throttle or control.extra_cost or landing is not None:
                self._high_speed(world, body, limits(world, body, chosen), chosen, landing, throttle=throttle)
            else:
                self._cruise(world, body, chosen)

    def _ordinary(
        self, world: World, body: Body, lim: Limits, chosen: Rules, landing: bool | None, *, throttle: int
    ) -> None:
        """``throttle``: what is left to apply at the end of the turn (:func:`throttle_left`)."""
        before = body.velocity.yps
        if landing or (landing is not None and before > lim.top_speed):  # landed, or came down too fast to run
            self._high_speed(world, body, lim, chosen, landing, throttle=throttle)
            return
        target = before + throttle
        if target > lim.move and before <= lim.high_speed_above:
            refusal = _entry_refusal(world, body, lim)
            if refusal is not None:
                world.emit(HighSpeedRefused(body.entity, before, refusal))
                return
        body.velocity.yps = target
        if throttle:
            world.emit(VelocityChanged(body.entity, before, target, throttle, 0))
        if target > lim.high_speed_above:
            body.control.state = MoveState.HIGH_SPEED
            world.emit(EnteredHighSpeed(body.entity, target))

    def _cruise(self, world: World, body: Body, chosen: Rules) -> None:
        """At high speed with no change of speed asked and no footing paid for: the velocity stays, and it leaves
        high speed only when that velocity is no longer above the threshold (its environment changed)."""
        velocity = body.velocity.yps
        if velocity <= high_speed_above(world, body, chosen):
            body.control.state = MoveState.NORMAL
            world.emit(LeftHighSpeed(body.entity, velocity, "slowed out of high speed"))

    def _high_speed(
        self, world: World, body: Body, lim: Limits, chosen: Rules, landing: bool | None, *, throttle: int
    ) -> None:
        """``landing``: :func:`_flier_landing` of ``body``; ``throttle``: what is left to apply at the end of the turn
        (:func:`throttle_left`)."""
        entity = body.entity
        before = body.velocity.yps
        footing = body.control.extra_cost
        if landing is not None:  # on the ground: down to its ground top speed, the footing included
            footing = max(footing, before - lim.top_speed)
        if throttle > 0 and footing == 0 and not landing:
            body.velocity.yps = before + throttle
            world.emit(VelocityChanged(entity, before, body.velocity.yps, throttle, 0))
            return
        voluntary = min(max(0, -throttle), before - footing)
        outcome = rules.footing_deceleration(before, footing, lim.basic_move, voluntary)
        cause = LossCause.FOOTING if outcome.lost_control else None
        if outcome.roll_modifier is not None:
            skill, label = control_roll(world, body)
            failed = failed_control_roll(
                world, entity, skill, label, "hasty deceleration", modifier=outcome.roll_modifier
            )
            if failed is not None:
                cause = failed
        after = before - footing if cause is not None else outcome.new_velocity
        body.velocity.yps = after
        if after != before or throttle:
            world.emit(VelocityChanged(entity, before, after, throttle, footing))
        if cause is not None:
            lose_control(world, body, cause, body.control.moved_yd, chosen)
        elif after > lim.high_speed_above:
            if body.control.state is MoveState.NORMAL:  # a flier that came down fast: at high speed on the ground
                body.control.state = MoveState.HIGH_SPEED
                world.emit(EnteredHighSpeed(entity, after))
        elif body.control.state is MoveState.HIGH_SPEED:
            body.control.state = MoveState.NORMAL
            world.emit(LeftHighSpeed(entity, after, "slowed out of high speed"))

"""ACCELERATION: the end-of-turn change of velocity, and entering and leaving high speed."""

from __future__ import annotations

from typing import NamedTuple

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


class VelocityStep(NamedTuple):
    """The end of a turn's change of velocity for one mover in control (:func:`velocity_step`), before any roll.

    - ``velocity``: the velocity next turn, the hasty deceleration roll made (when one is needed);
    - ``high_speed``: whether it is then at high speed;
    - ``footing``: the yards of velocity the footing takes off whatever happens (the forced deceleration);
    - ``roll_modifier``: the modifier of the control roll a hasty deceleration needs, or None;
    - ``lost_control``: the footing alone puts it out of control (its velocity then falls by ``footing`` only);
    - ``refusal``: in ordinary movement, why the turn did not qualify for high speed (the velocity then stays),
      or None.
    """

    velocity: int
    high_speed: bool
    footing: int
    roll_modifier: int | None
    lost_control: bool
    refusal: str | None


def velocity_step(
    world: World,
    body: Body,
    lim: Limits,
    *,
    velocity: int,
    throttle: int,
    moved_yd: int,
    turned_hexsides: int,
    footing: int,
    landing: bool | None,
) -> VelocityStep:
    """The end-of-turn velocity of ``body`` (in control, at ``velocity`` this turn: in ordinary movement, this turn's
    yards), which moved ``moved_yd`` and turned ``turned_hexsides`` this turn paying ``footing`` yards for
    bad footing, asking ``throttle`` now (in ordinary movement what is left past Move:
    :func:`~esper_motion.systems.gurps.highspeed.maneuvers.throttle_left`); ``landing``: :func:`_flier_landing`.
    Writes and rolls nothing: ``VelocityChange`` applies it, and the planner's search predicts with it.

    Ordinary movement within Move; entering high speed on a turn that qualifies; at speed, the acceleration asked,
    or the deceleration asked with footing's forced deceleration, a hasty one with a control roll (Basic Set:
    High-Speed Movement). A flier on the ground slows to its ground top speed as for footing."""
    before = velocity
    high = body.control.state is MoveState.HIGH_SPEED
    if not high and not (landing or (landing is not None and before > lim.top_speed)):
        target = before + throttle
        if target > lim.move and before <= lim.high_speed_above:
            refusal = _entry_refusal(world, body, lim, moved_yd, turned_hexsides)
            if refusal is not None:
                return VelocityStep(before, False, 0, None, False, refusal)
        return VelocityStep(target, target > lim.high_speed_above, 0, None, False, None)
    if landing is not None:  # on the ground: down to its ground top speed, the footing included
        footing = max(footing, before - lim.top_speed)
    if throttle > 0 and footing == 0 and not landing:
        return VelocityStep(before + throttle, high, 0, None, False, None)
    voluntary = min(max(0, -throttle), before - footing)
    outcome = rules.footing_deceleration(before, footing, lim.basic_move, voluntary)
    after = outcome.new_velocity
    return VelocityStep(after, after > lim.high_speed_above, footing, outcome.roll_modifier, outcome.lost_control, None)


def _entry_refusal(world: World, body: Body, lim: Limits, moved_yd: int, turned_hexsides: int) -> str | None:
    """Why a turn of ``moved_yd`` yards turning ``turned_hexsides`` does not qualify for switching to high speed, or
    None when it does."""
    if rules.can_enter_high_speed(
        moved_yd, lim.move, turned_hexsides, body.intent.maneuver, standing(world, body.entity)
    ):
        return None
    if moved_yd < lim.move:
        return f"moved {moved_yd} of its Move of {lim.move} yd"
    if turned_hexsides > 1:
        return f"turned {turned_hexsides} hexsides"
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
    (:func:`~esper_motion.systems.gurps.highspeed.maneuvers.throttle_left`). The change itself is
    :func:`velocity_step`, which the planner's search predicts with. Implements Basic Set: High-Speed Movement.

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
                    self._settle(world, body, limits(world, body, chosen), chosen, landing, throttle=throttle)
            elif throttle or control.extra_cost or landing is not None:
                self._settle(world, body, limits(world, body, chosen), chosen, landing, throttle=throttle)
            else:
                self._cruise(world, body, chosen)

    def _cruise(self, world: World, body: Body, chosen: Rules) -> None:
        """At high speed with no change of speed asked and no footing paid for: the velocity stays, and it leaves
        high speed only when that velocity is no longer above the threshold (its environment changed)."""
        velocity = body.velocity.yps
        if velocity <= high_speed_above(world, body, chosen):
            body.control.state = MoveState.NORMAL
            world.emit(LeftHighSpeed(body.entity, velocity, "slowed out of high speed"))

    def _settle(
        self, world: World, body: Body, lim: Limits, chosen: Rules, landing: bool | None, *, throttle: int
    ) -> None:
        """Apply :func:`velocity_step` to ``body``, rolling for a hasty deceleration. ``landing``:
        :func:`_flier_landing` of ``body``; ``throttle``: what is left to apply at the end of the turn
        (:func:`throttle_left`)."""
        entity = body.entity
        control = body.control
        before = body.velocity.yps
        step = velocity_step(
            world,
            body,
            lim,
            velocity=before,
            throttle=throttle,
            moved_yd=control.moved_yd,
            turned_hexsides=control.turned_hexsides,
            footing=control.extra_cost,
            landing=landing,
        )
        if step.refusal is not None:
            world.emit(HighSpeedRefused(entity, before, step.refusal))
            return
        cause = LossCause.FOOTING if step.lost_control else None
        if step.roll_modifier is not None:
            skill, label = control_roll(world, body)
            failed = failed_control_roll(world, entity, skill, label, "hasty deceleration", modifier=step.roll_modifier)
            if failed is not None:
                cause = failed
        after = before - step.footing if cause is not None else step.velocity
        body.velocity.yps = after
        if after != before or throttle:
            world.emit(VelocityChanged(entity, before, after, throttle, step.footing))
        if cause is not None:
            lose_control(world, body, cause, control.moved_yd, chosen)
        elif step.high_speed:
            if control.state is MoveState.NORMAL:  # entering high speed, or a flier that came down fast
                control.state = MoveState.HIGH_SPEED
                world.emit(EnteredHighSpeed(entity, after))
        elif control.state is MoveState.HIGH_SPEED:
            control.state = MoveState.NORMAL
            world.emit(LeftHighSpeed(entity, after, "slowed out of high speed"))

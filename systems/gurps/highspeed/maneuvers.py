"""INTENT: opening the turn's record, this turn's yards in ordinary movement, and the maneuvers a mover at high speed
may take without losing control."""

from __future__ import annotations

from functools import lru_cache
from typing import Final

from esper_motion.components.gurps import Condition, LossCause, Maneuver, MoveState
from esper_motion.ecs import Phase, System, World
from esper_motion.systems.gurps import rules
from esper_motion.systems.gurps.events import VelocityChanged
from esper_motion.systems.gurps.options import Rules
from esper_motion.systems.gurps.shared.movers import (
    Body,
    Limits,
    basic_move,
    bodies,
    carried,
    installed_rules,
    limits,
    ordinary_yards,
    unmanned,
)
from esper_motion.systems.gurps.shared.transitions import lose_control

_keeps_control: Final = lru_cache(maxsize=32, typed=True)(rules.high_speed_maneuver_allowed)
""":func:`esper_motion.systems.gurps.rules.high_speed_maneuver_allowed`, answered once for each maneuver."""


def maneuver_loss(world: World, body: Body, chosen: Rules) -> LossCause | None:
    """Why ``body`` loses control as this turn opens, or None.

    At high speed under its own power a mover keeps control only on Move or Move and Attack, and loses it
    when knocked out or stunned (Basic Set: High-Speed Movement > Maneuvers During High-Speed Movement;
    Losing Control). A rider (carried) is exempt; so is a mover of Basic Move 0, which is not moving under
    its own power but drifting. House rules: the All-Out maneuvers are allowed too, while the velocity is at
    most half the top speed, and an All-Out Attack that is a slam (``Intent.slam``) at any speed; a top speed
    fallen below the velocity loses control as well (House rules: High Speed Movement).

    A vehicle at high speed with nobody at its controls (:func:`esper_motion.systems.gurps.shared.movers.unmanned`)
    loses control whatever its own ``Intent`` says (Basic Set: High-Speed Movement > Maneuvers During High-Speed
    Movement): ``LossCause.UNCONTROLLED``, which is no injury, so three wheels still only decelerate.
    """
    if body.control.state is not MoveState.HIGH_SPEED or carried(body):
        return None
    cause = _cause(world, body, chosen)
    if cause is None or basic_move(world, body) == 0:  # Basic Move 0 drifts: exempt (asked last, being rare)
        return None
    return cause


def _cause(world: World, body: Body, chosen: Rules) -> LossCause | None:
    """What puts ``body``, at high speed under its own power, out of control as the turn opens, or None
    (:func:`maneuver_loss`)."""
    condition = world.try_get(body.entity, Condition)
    if condition is not None and not condition.conscious:
        return LossCause.UNCONSCIOUS
    if condition is not None and condition.stunned:
        return LossCause.STUNNED
    if unmanned(world, body):
        return LossCause.UNCONTROLLED
    maneuver: Maneuver = body.intent.maneuver
    if chosen.house_control:
        top = limits(world, body, chosen).top_speed
        if top < body.velocity.yps:
            return LossCause.TOP_SPEED
        allowed = rules.house_high_speed_maneuver_allowed(maneuver, body.velocity.yps, top, body.intent.slam)
    else:
        allowed = _keeps_control(maneuver)
    return None if allowed else LossCause.MANEUVER


def throttle_left(world: World) -> dict[int, int]:
    """The throttle left for the end of this turn, by entity, of each mover in ordinary movement that took its
    throttle as the turn opened (:class:`ManeuverLimits`): what it asks past its Move beyond this turn's yards, else
    0. ``VelocityChange`` applies that much at the end of the turn instead of ``Intent.throttle`` (so a mover that
    reaches high speed during the turn, a flier taking off, does not take its throttle twice), switching to high
    speed if the turn qualifies. Kept for the turn only (:meth:`esper_motion.ecs.World.per_turn`)."""
    return world.per_turn(throttle_left, dict)


def ordinary_split(body: Body, lim: Limits) -> tuple[int, int]:
    """For ``body`` in ordinary movement: this turn's yards, which its throttle sets as the turn opens
    (:func:`ordinary_yards`), and the throttle left for the end of the turn (what it asks past its Move beyond
    them, else 0: :func:`throttle_left`)."""
    yards = ordinary_yards(body, lim)
    wanted = body.velocity.yps + body.intent.throttle
    return yards, wanted - yards if wanted > lim.move else 0


def _ordinary_turn(world: World, body: Body, chosen: Rules, left: dict[int, int]) -> None:
    """Set ``body``'s velocity, in ordinary movement, to this turn's yards (:func:`ordinary_yards`), and keep in
    ``left`` the throttle left for the end of the turn."""
    velocity = body.velocity
    throttle = body.intent.throttle
    yards, left[body.entity] = ordinary_split(body, limits(world, body, chosen))
    if yards != velocity.yps:
        before = velocity.yps
        velocity.yps = yards
        world.emit(VelocityChanged(body.entity, before, yards, throttle, 0))


class ManeuverLimits(System):
    """INTENT phase (after ``IntentCheck``): opens every mover's turn, sets this turn's yards in ordinary movement,
    then applies the maneuver limits at speed. Reads ``Intent`` (``maneuver``, ``throttle``), ``Velocity``,
    ``Condition`` (``conscious``, ``stunned``), ``Control.state`` and the Move in use; writes ``Control``: clears this
    turn's record (``path``, ``moved_yd``, ``extra_cost``, ``turned_hexsides``, ``turn_yd``, ``turn_plan``, ``struck``,
    ``halted``, ``lost_at_yd``; ``straight_before_yd`` set to ``straight_yd``), and puts a mover out of control for a
    forbidden maneuver, stun or unconsciousness; writes ``Velocity.yps`` of a mover in ordinary movement (this turn's
    yards, :func:`~esper_motion.systems.gurps.shared.movers.ordinary_yards`) and keeps what its throttle asks past Move
    for the end of the turn (:func:`throttle_left`); emits :class:`VelocityChanged` and ``LostControl``. The rule at
    speed is :func:`maneuver_loss`. Implements Basic Set: High-Speed Movement.

    Its page: docs/gurps-basic.md.
    """

    phase = Phase.INTENT

    def run(self) -> None:
        """Open the turn of every mover, then check its maneuver, in initiative order."""
        world = self.world
        chosen = installed_rules(world)
        left = throttle_left(world)
        for body in bodies(world):
            control = body.control
            if control.path:  # a new list: whoever kept last turn's path keeps it as it was
                control.path = []
            control.moved_yd = 0
            control.extra_cost = 0
            control.turned_hexsides = 0
            control.turn_yd = None
            control.turn_plan = ()
            control.struck = None
            control.halted = False
            control.lost_at_yd = None
            control.straight_before_yd = control.straight_yd
            if control.state is MoveState.NORMAL:
                if (body.velocity.yps or body.intent.throttle) and not carried(body):
                    _ordinary_turn(world, body, chosen, left)
                continue
            if control.state is not MoveState.HIGH_SPEED:  # only a mover at high speed can lose control here
                continue
            cause = maneuver_loss(world, body, chosen)
            if cause is not None:
                lose_control(world, body, cause, 0, chosen)

"""INTENT: opening the turn's record, and the maneuvers a mover at high speed may take without losing control."""

from __future__ import annotations

from functools import lru_cache
from typing import Final

from esper_motion.components.gurps import Condition, LossCause, Maneuver, MoveState
from esper_motion.ecs import Phase, System, World
from esper_motion.systems.gurps import rules
from esper_motion.systems.gurps.options import Rules
from esper_motion.systems.gurps.shared.movers import (
    Body,
    basic_move,
    bodies,
    carried,
    installed_rules,
    limits,
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


class ManeuverLimits(System):
    """INTENT phase (after ``IntentCheck``): opens every mover's turn, then applies the maneuver limits at speed. Reads
    ``Intent.maneuver``, ``Condition`` (``conscious``, ``stunned``), ``Control.state``; writes ``Control``: clears this
    turn's record (``path``, ``moved_yd``, ``extra_cost``, ``turned_hexsides``, ``turn_yd``, ``turn_plan``, ``struck``,
    ``halted``, ``lost_at_yd``; ``straight_before_yd`` set to ``straight_yd``), and puts a mover out of control for a
    forbidden maneuver, stun or unconsciousness; emits ``LostControl``. The rule is :func:`maneuver_loss`. Implements
    Basic Set: High-Speed Movement.

    Its page: docs/gurps-basic.md.
    """

    phase = Phase.INTENT

    def run(self) -> None:
        """Open the turn of every mover, then check its maneuver, in initiative order."""
        world = self.world
        chosen = installed_rules(world)
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
            if control.state is not MoveState.HIGH_SPEED:  # only a mover at high speed can lose control here
                continue
            cause = maneuver_loss(world, body, chosen)
            if cause is not None:
                lose_control(world, body, cause, 0, chosen)

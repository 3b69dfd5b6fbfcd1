"""INTENT: every intent is checked against the rules before anything in the world changes."""

from __future__ import annotations

from esper_motion.components.gurps import Intent, Maneuver, MoveState
from esper_motion.ecs import IntentError, Phase, RuleValueError, System, World
from esper_motion.systems.gurps import rules
from esper_motion.systems.gurps.options import Rules
from esper_motion.systems.gurps.shared.climbing import hexside_free_yd, speeds_after_climbs
from esper_motion.systems.gurps.shared.movers import (
    Body,
    Limits,
    bodies,
    installed_rules,
    limits,
    ordinary_yards,
    standing,
)


def _turning(intent: Intent) -> bool:
    """Whether ``intent`` asks for a change of facing (one turn or a sequence)."""
    return bool(intent.turn or intent.turns)


def _moves_under_own_power(body: Body, lim: Limits) -> None:
    intent = body.intent
    if lim.basic_move == 0 and (_turning(intent) or intent.throttle or any(intent.veer)):
        field = "turn" if _turning(intent) or any(intent.veer) else "throttle"
        value = (intent.turn or intent.turns) if field == "turn" else intent.throttle
        raise IntentError(
            body.entity,
            field,
            value,
            "0: with Basic Move 0 it cannot turn, veer, speed up or slow down under its own power, only drift",
        )


def _check_normal(body: Body, lim: Limits, world: World, yards: int) -> None:
    """Ordinary movement: any turn within this turn's ``yards`` (:func:`ordinary_yards`); a throttle that stays within
    Move, or switches to high speed at the end of the turn."""
    intent = body.intent
    velocity = body.velocity.yps
    if velocity > lim.high_speed_above:
        why = "above it is high speed"
        if lim.environment == "air" and lim.high_speed_above == 0 < lim.move:  # see movers.limits
            why = "under the house rules a flier that cannot hover is at high speed whenever it flies"
        raise RuleValueError(
            "Velocity", "yps", velocity, f"at most {lim.high_speed_above} while Control.state is normal ({why})"
        )
    if intent.turn_at_yd is not None and intent.turn_at_yd > yards:
        raise IntentError(body.entity, "turn_at_yd", intent.turn_at_yd, f"at most {yards}, the yards of this turn")
    _check_sequence_fits(body, yards)
    target = velocity + intent.throttle
    if target < 0:
        raise IntentError(body.entity, "throttle", intent.throttle, f"at least {-velocity}: velocity cannot go below 0")
    if target <= lim.move:
        return
    if target > lim.entry_limit:
        raise IntentError(
            body.entity,
            "throttle",
            intent.throttle,
            f"at most {lim.entry_limit - velocity}: on switching to high speed the next turn starts at no more "
            f"than {lim.entry_limit} yd/s",
        )
    missing = []
    if not rules.high_speed_maneuver_allowed(intent.maneuver):
        missing.append("a Move or Move and Attack maneuver")
    if not standing(world, body.entity):
        missing.append("standing")
    if yards < lim.move:
        missing.append(f"moving the full Move of {lim.move} yd (this turn moves {yards})")
    if abs(intent.turn) + len(intent.turns) > 1:
        missing.append("at most one 60-degree turn")
    if missing:
        raise IntentError(
            body.entity,
            "throttle",
            intent.throttle,
            f"at most {lim.move - velocity} (Move {lim.move}); going faster switches to high speed, "
            f"which needs {', '.join(missing)}",
        )


def _check_sequence_fits(body: Body, yards: int) -> None:
    """Every change of facing of ``Intent.turns`` at a yard of this turn's path of ``yards``."""
    intent = body.intent
    for index, (at, _) in enumerate(intent.turns):
        if at > yards:
            raise IntentError(body.entity, f"turns[{index}]", intent.turns[index], f"at_yd at most {yards}")


def _check_sequence_at_speed(world: World, body: Body, lim: Limits, chosen: Rules) -> None:
    """Several changes of facing at high speed: each on this turn's path, and each that comes before the
    turning radius is run (since the last change of direction, then since the one before it, a house climb start
    included either way) with ``push``."""
    _check_sequence_fits(body, body.velocity.yps)
    previous: int | None = None
    intent = body.intent
    for index, (at, _) in enumerate(intent.turns):
        free = hexside_free_yd(world, body, lim, at, previous)
        short = free - at
        if short > 0 and not intent.push:
            since = "the last change of facing" if previous is None else f"the change at yard {previous}"
            if free > (lim.free_turn_yd if previous is None else previous + lim.radius):
                since = "a climb or dive start"
            raise IntentError(
                body.entity,
                f"turns[{index}]",
                intent.turns[index],
                f"at_yd {at + short} or later, a turning radius of {lim.radius} yd after {since}; or push=True "
                f"for an early turn, a roll at {early_turn_modifier(body, lim, chosen):+d}",
            )
        previous = at


def _check_high_speed(world: World, body: Body, lim: Limits, chosen: Rules, climbs: bool = False) -> None:
    """High speed: turns within the turning radius, acceleration and deceleration within their limits.

    With ``climbs``, the throttle is checked against the velocity and top speed this turn's climbs and dives leave
    (house rules: :func:`esper_motion.systems.gurps.shared.climbing.speeds_after_climbs`), since it applies to them at
    the end of the turn (House rules: Flying Movement and Combat)."""
    intent = body.intent
    velocity = body.velocity.yps
    entity = body.entity
    if intent.turns:
        _check_sequence_at_speed(world, body, lim, chosen)
    if intent.turn:
        at = intent.turn_at_yd if intent.turn_at_yd is not None else hexside_free_yd(world, body, lim, None)
        free = hexside_free_yd(world, body, lim, at)
        if at > velocity:
            if intent.turn_at_yd is not None:
                raise IntentError(entity, "turn_at_yd", at, f"at most {velocity}, the yards of this turn")
            raise IntentError(
                entity,
                "turn",
                intent.turn,
                f"0 this turn: the turning radius of {lim.radius} yd ({free} yd still to run straight) "
                f"is not met within this turn's {velocity} yd; set push=True and turn_at_yd to try an early turn",
            )
        early = at < free
        if (early or abs(intent.turn) == 2) and not intent.push:
            what = "an early turn" if early else "a 120-degree turn"
            raise IntentError(
                entity,
                "turn_at_yd" if early else "turn",
                intent.turn_at_yd if early else intent.turn,
                f"push=True for {what}: pushing the envelope needs a roll at "
                f"{early_turn_modifier(body, lim, chosen):+d}",
            )
    # the turn's path is checked above; the throttle acts on the speeds the climbs and dives leave
    before = velocity
    velocity, top_speed = speeds_after_climbs(world, body, lim.top_speed) if climbs else (velocity, lim.top_speed)
    changed = f" (from {velocity} yd/s, what this turn's climbs and dives leave)" if velocity != before else ""
    if intent.throttle > 0:
        if intent.throttle > lim.accel_step:
            raise IntentError(
                entity,
                "throttle",
                intent.throttle,
                f"at most +{lim.accel_step}: one turn adds at most {lim.accel_step}",
            )
        if velocity + intent.throttle > top_speed:
            raise IntentError(
                entity,
                "throttle",
                intent.throttle,
                f"at most +{max(0, top_speed - velocity)}: accelerating past the top speed of "
                f"{top_speed} yd/s is not possible{changed}",
            )
    elif intent.throttle < 0:
        decel = -intent.throttle
        if decel > velocity:
            raise IntentError(
                entity, "throttle", intent.throttle, f"at least {-velocity}: velocity cannot go below 0{changed}"
            )
        if decel > lim.max_decel:
            raise IntentError(
                entity,
                "throttle",
                intent.throttle,
                f"at least -{lim.max_decel}: no more can be cut from the velocity in one turn",
            )
        if decel > lim.safe_decel and not intent.push:
            modifier = rules.hasty_deceleration_modifier(decel, lim.basic_move)
            raise IntentError(
                entity,
                "throttle",
                intent.throttle,
                f"at least -{lim.safe_decel}, or push=True to risk a hasty deceleration (a roll at {modifier:+d})",
            )


def _check_out_of_control(world: World, body: Body, lim: Limits | None, chosen: Rules) -> None:
    """Out of control: no turn, no veer. Under the Basic Set no throttle either. Under the house rules the mover
    takes Move maneuvers, and its throttle (within the usual limits) applies if it wins control back this turn
    (House rules: High Speed Movement). ``lim`` is None when the intent turns, veers and throttles nothing."""
    intent = body.intent
    if not chosen.house_control:
        if _turning(intent) or intent.throttle or any(intent.veer):
            raise IntentError(
                body.entity,
                "throttle" if intent.throttle else "turn",
                intent.throttle or intent.turn or intent.turns or intent.veer,
                "nothing: out of control, it cannot turn, veer, speed up or slow down until control returns",
            )
        return
    if _turning(intent) or any(intent.veer):
        raise IntentError(
            body.entity,
            "turn",
            intent.turn or intent.turns or intent.veer,
            "0: out of control, it moves straight ahead",
        )
    if intent.maneuver != Maneuver.MOVE:
        raise IntentError(
            body.entity, "maneuver", Maneuver(intent.maneuver).value, "Move: out of control, it takes Move maneuvers"
        )
    if lim is not None:
        _check_high_speed(world, body, lim, chosen)


def early_turn_modifier(body: Body, lim: Limits, chosen: Rules) -> int:
    """The modifier of an early or tight turn: -1 per full Basic Move by which the velocity exceeds Basic Move;
    with the house turning radius, minus the radius (Basic Set: High-Speed Movement > Pushing the Envelope;
    House rules: High Speed Movement)."""
    reading = rules.RADIUS_READINGS[chosen.turning_radius]
    move = lim.move if reading.encumbered else lim.basic_move
    return rules.early_turn_modifier(body.velocity.yps, move, reading.early_turn)


def check_intent(world: World, body: Body, chosen: Rules, *, lim: Limits | None = None) -> None:
    """Raise :class:`~esper_motion.ecs.errors.IntentError` if ``body``'s intent breaks the rules in its present state
    (``lim``: its :func:`~esper_motion.systems.gurps.shared.movers.limits`, when the caller has them already).

    Its fields are the world's to check (a game's writes are checked before the step starts). Refused here:
    anything but a plain Intent for a rider; turning, veering or changing speed with a Basic Move of 0 (Basic
    Set: High-Speed Movement > Direction and Turning Radius), or while out of control; at ordinary speed, asking
    past Move without qualifying for high speed (this turn's yards, which the throttle sets at once within what the
    maneuver allows, must be the full Move: :func:`~esper_motion.systems.gurps.shared.movers.ordinary_yards`), or
    past the entry limit (Basic Set: High-Speed Movement), or a turn beyond this turn's yards; at high speed, a turn
    the radius does not allow this turn, an early or 120-degree turn without ``push``, accelerating by more
    than the step or past top speed (Accelerating), decelerating past Basic Move without ``push`` or past
    twice Basic Move (Decelerating; Pushing the Envelope); more ``veer`` entries than yards to move.
    """
    intent = body.intent
    moving = _turning(intent) or intent.throttle or any(intent.veer)
    control = body.control
    if control.carried_by is not None:  # carried (:func:`esper_motion.systems.gurps.shared.movers.carried`): a rider
        if moving:
            raise IntentError(
                body.entity,
                "throttle" if intent.throttle else "turn",
                intent.throttle or intent.turn or intent.turns or intent.veer,
                "0: a rider does not move under its own power",
            )
        return
    state = control.state
    # Asked for no turn, veer or change of speed, nothing left to check needs the limits, unless the mover is
    # moving in ordinary movement (its velocity must stay within what ordinary movement allows).
    if moving or (state is MoveState.NORMAL and body.velocity.yps):
        lim = limits(world, body, chosen) if lim is None else lim
    else:
        lim = None
    if lim is not None:
        _moves_under_own_power(body, lim)
    if state is MoveState.OUT_OF_CONTROL:
        _check_out_of_control(world, body, lim, chosen)
        return
    yards = ordinary_yards(body, lim) if lim is not None and state is MoveState.NORMAL else body.velocity.yps
    if len(intent.veer) > yards:
        raise IntentError(body.entity, "veer", intent.veer, f"at most {yards} entries, one per yard of this turn")
    if intent.turn_at_yd is not None and intent.turn == 0:
        raise IntentError(body.entity, "turn_at_yd", intent.turn_at_yd, "None when turn is 0")
    if lim is None:
        return
    if state is MoveState.NORMAL:
        _check_normal(body, lim, world, yards)
    else:
        _check_high_speed(world, body, lim, chosen, climbs=bool(intent.throttle))


class IntentCheck(System):
    """INTENT phase, first: checks every mover's ``Intent`` before anything changes (:func:`check_intent`). Reads
    ``Intent``, ``Velocity``, ``Control.state``, ``Mover`` and the Move in use; writes nothing; emits nothing; raises
    :class:`~esper_motion.ecs.errors.IntentError` (or ``RuleValueError`` for a velocity above Basic Move in ordinary
    movement) for the first bad intent in initiative order, and the step leaves the world as it was. Implements Basic
    Set: High-Speed Movement.

    Its page: docs/gurps-basic.md.
    """

    phase = Phase.INTENT

    def run(self) -> None:
        """Check every intent."""
        world = self.world
        chosen = installed_rules(world)
        for body in bodies(world):
            check_intent(world, body, chosen)

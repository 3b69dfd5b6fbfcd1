"""What this turn's intent would take, for a game UI: the rolls it needs and their exact odds.

Nothing here changes the world: no die is rolled, no component written.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction

from esper_motion.components.combat import Attack
from esper_motion.components.flight import Flight, FlightIntent
from esper_motion.components.gurps import FacingChange, MoveState, Posture
from esper_motion.components.motion import Position, Velocity
from esper_motion.ecs import IntentError, World, critical_failure_probability, success_probability
from esper_motion.ecs.dice import modified
from esper_motion.ecs.hexgrid import Hex
from esper_motion.systems.gurps import rules
from esper_motion.systems.gurps.combat.attack import across_yd, strike_distance_yd
from esper_motion.systems.gurps.combat.numbers import attack_numbers, defense_numbers
from esper_motion.systems.gurps.flight.fall import RECOVERY_LABEL, recovery_target, refuse_steering
from esper_motion.systems.gurps.flight.house_climb_turns import CLIMB_DIVE_ROLL, climb_dive_turns
from esper_motion.systems.gurps.highspeed.intent import check_intent, early_turn_modifier
from esper_motion.systems.gurps.highspeed.maneuvers import maneuver_loss
from esper_motion.systems.gurps.highspeed.movement import WalkResult, jump_skill, plan_walk, straight_walk, walk
from esper_motion.systems.gurps.highspeed.turning import asked_turns, turn_checks
from esper_motion.systems.gurps.mounted.mount_orders import feat_roll, ordered_intent
from esper_motion.systems.gurps.options import Rules
from esper_motion.systems.gurps.posture.posture import check_posture_change
from esper_motion.systems.gurps.shared.movers import (
    Body,
    Limits,
    body_of,
    carried,
    control_roll,
    dx_modifier,
    installed_rules,
    limits,
    ordinary_yards,
)
from esper_motion.systems.gurps.shared.rolls import shock
from esper_motion.systems.gurps.shared.spatial import SpatialIndex
from esper_motion.systems.gurps.shared.wingspan import watched, wingspan_obstacles


@dataclass(frozen=True, slots=True)
class RollForecast:
    """One roll the intent would need: what for, the roll's name, its effective skill, and the exact chances
    of success and of critical failure on 3d6."""

    purpose: str
    label: str
    target: int
    chance: Fraction
    critical_failure_chance: Fraction

    @classmethod
    def of(cls, purpose: str, label: str, target: int) -> RollForecast:
        """The forecast of a roll against ``target``."""
        return cls(purpose, label, target, success_probability(target), critical_failure_probability(target))


@dataclass(frozen=True, slots=True)
class Forecast:
    """What ``entity``'s intent would take this turn, if every roll succeeds and nobody else moves.

    ``rolls`` are the rolls it would make, in order (its movement's, then an attack's and the target's defense);
    ``loses_control`` is the cause when control is lost with no roll at all (a forbidden maneuver, stun, footing
    past twice Basic Move; or already out of control); ``path`` the hexes it would enter and ``runs_into`` what
    would stop it (a body there could still dodge).
    """

    entity: int
    rolls: tuple[RollForecast, ...] = ()
    loses_control: str | None = None
    path: tuple[Hex, ...] = ()
    runs_into: int | None = None


def preview(world: World, entity: int) -> Forecast:
    """The :class:`Forecast` of ``entity``'s intent this turn, without changing the world.

    The rolls of its movement come first, then those of the attack its ``Attack`` asks for (:func:`attack_rolls`).

    The same rules as the systems: a bad intent raises the :class:`~esper_motion.ecs.errors.IntentError` the step would,
    the orders a mount takes included (an exhausted mount's, under the house rules a ridden mount's and a seated
    rider's: :func:`esper_motion.systems.gurps.mounted.mount_orders.ordered_intent`), and the forecast is of the intent
    the entity will act on (a charging or exhausted mount's throttle, a forced Ready). The path follows the positions of
    this moment (other movers have not moved yet); a roll to jump an obstacle is listed and assumed made, and so is a
    mount's rider's Riding+2 for a risky feat its path asks (a jump, an obstacle, bad footing); a pushed turn is
    assumed made. Under the house flight rules the roll for a climb or dive started before the turning radius is
    listed and assumed made, and so is the DX roll where something first comes within a winged flier's wingspan
    (with the others where they stand); the end-of-turn roll for a dive past the normal top speed is not forecast (it
    depends on the velocity the turn ends with).
    """
    forecast = _movement(world, entity)
    combat = attack_rolls(world, entity)
    return replace(forecast, rolls=forecast.rolls + combat) if combat else forecast


def attack_rolls(world: World, entity: int) -> tuple[RollForecast, ...]:
    """The rolls of the attack ``entity``'s ``Attack`` asks for this turn, if any: its attack roll, then the target's
    best defense (an Acrobatic Dodge's roll first, assumed made), by the numbers the COMBAT phase uses
    (:func:`esper_motion.systems.gurps.combat.numbers.attack_numbers` and ``defense_numbers``). Reading chosen: at
    the positions and speeds of this moment, and the target in reach; an attack the step would refuse raises the same
    :class:`~esper_motion.ecs.errors.IntentError`."""
    attack = world.try_get(entity, Attack)
    if attack is None or attack.target is None:
        return ()
    target = attack.target
    if not world.exists(target) or target == entity:
        raise IntentError(entity, "Attack.target", target, "another entity of this world")
    at = world.get(entity, Position).hex
    ranged = attack.weapon == "ranged"
    range_yd = strike_distance_yd(world, entity, target, at) if ranged else 0
    numbers = attack_numbers(world, entity, target, range_yd, across_yd=across_yd(world, target, at) if ranged else 0)
    rolls = [RollForecast.of(f"attack on entity {target}", numbers.label, numbers.effective_skill)]
    defense = defense_numbers(world, target, entity)
    if defense is not None:
        bonus = 0
        if defense.acrobatic is not None:
            name, level = defense.acrobatic
            against = defense.acrobatic_modifier + shock(world, target)
            rolls.append(
                RollForecast.of(f"entity {target}'s acrobatic dodge", modified(name, against), level + against)
            )
            bonus = rules.ACROBATIC_DODGE_MODIFIER
        total = sum(value for _, value in defense.modifiers) + bonus
        label = modified(defense.kind.capitalize(), total)
        rolls.append(RollForecast.of(f"entity {target}'s {defense.kind}", label, defense.score + total))
    return tuple(rolls)


def _movement(world: World, entity: int) -> Forecast:
    """The forecast of ``entity``'s movement this turn (:func:`preview`)."""
    chosen = installed_rules(world)
    body = body_of(world, entity)
    intent = ordered_intent(world, entity)
    if intent is not body.intent:
        body = body._replace(intent=intent)
    check_intent(world, body, chosen)
    posture = world.try_get(entity, Posture)
    if posture is not None:
        check_posture_change(entity, intent, posture)
    if carried(body):
        return Forecast(entity)
    recovery = recovery_target(world, entity)
    if recovery is not None:  # a stalled flier falls; its one roll is to pull out (Flying Combat > Cannot Hover)
        refuse_steering(world, entity)
        return Forecast(entity, (RollForecast.of("stall recovery", RECOVERY_LABEL, recovery),))
    index = SpatialIndex()
    index.rebuild(world)
    return walk_forecast(world, body, chosen, index)[0]


def walk_forecast(
    world: World, body: Body, chosen: Rules, index: SpatialIndex, *, lim: Limits | None = None
) -> tuple[Forecast, WalkResult]:
    """The forecast of ``body``'s movement this turn through ``index``, and the walk it follows, for a body whose
    intent the rules accept (:func:`check_intent`), moving under its own power and not stalled: what :func:`preview`
    gives for the entity, here for any body (copies of an entity's components in a state it is not in yet, as the
    planner makes them). Nothing is written, not even to ``body``. ``lim``: ``body``'s limits, when the caller has them
    already. It is :func:`throttled` of :func:`forecast_walk`."""
    lim = limits(world, body, chosen) if lim is None else lim
    return throttled(world, body, lim, *forecast_walk(world, body, chosen, index, lim=lim))


def forecast_walk(
    world: World, body: Body, chosen: Rules, index: SpatialIndex, *, lim: Limits | None = None
) -> tuple[Forecast, WalkResult]:
    """:func:`walk_forecast` but for what ``body``'s throttle adds at high speed (:func:`throttled`): below high
    speed the forecast depends on the yards the throttle sets for this turn, at high speed not on the throttle."""
    entity = body.entity
    control = body.control
    lim = limits(world, body, chosen) if lim is None else lim
    if control.state is MoveState.NORMAL:  # the throttle sets this turn's yards at once (ordinary movement)
        body = body._replace(velocity=Velocity(ordinary_yards(body, lim), heading=body.velocity.heading))
    cause = maneuver_loss(world, body, chosen) or control.loss_cause
    if cause is not None:
        plan = plan_walk(world, body, chosen, (), (0, cause))
        result = walk(plan, index, lambda _obstacle, _at: False, lambda _other, _at, _aside: False)
        return Forecast(entity, (), cause.value, tuple(result.path), result.struck), result
    rolls: list[RollForecast] = []
    asked = asked_turns(body)
    turns: tuple[FacingChange, ...] = ()
    if control.state is MoveState.NORMAL:
        turns = tuple((0 if at is None else at, by) for at, by in asked)
    elif asked:
        checks = turn_checks(world, body, lim, asked)
        turns = tuple((at, by) for at, by, _ in checks)
        for _, _, what in checks:
            if what is not None:
                modifier = early_turn_modifier(body, lim, chosen)
                skill, label = control_roll(world, body)
                rolls.append(RollForecast.of(what, modified(label, modifier), skill + modifier))
    winged = watched(world, body)
    straight = None if winged else straight_walk(world, body, turns, index)
    if straight is not None:  # nothing met on the way: no roll, no refusal, no wingspan to watch
        return _with_climb_dive_rolls(world, body, chosen, lim, rolls=rolls, result=straight)
    plan = plan_walk(world, body, chosen, turns, None)

    def jump(obstacle: int, _at: Hex) -> bool:
        rolls.append(RollForecast.of(f"jump obstacle {obstacle}", "DX or Jumping", jump_skill(world, body)))
        return True

    met: list[Hex] = []

    def wings(_yard: int, at: Hex) -> bool:
        if not met and wingspan_obstacles(world, index, entity, at):
            met.append(at)
            skill = body.mover.dx + dx_modifier(world, entity)
            rolls.append(RollForecast.of("obstacle in the wingspan", "DX", skill))
        return True

    asked_feats: set[str] = set()

    def refuses(feat: str, _at: Hex) -> bool:
        found = feat_roll(world, entity, feat)
        if found is not None and feat not in asked_feats:
            asked_feats.add(feat)
            rolls.append(RollForecast.of(*found))
        return False

    result = walk(
        plan,
        index,
        jump,
        lambda _other, _at, _aside: False,
        refuses=refuses,
        wings=wings if winged else None,
    )
    return _with_climb_dive_rolls(world, body, chosen, lim, rolls=rolls, result=result)


def _with_climb_dive_rolls(
    world: World, body: Body, chosen: Rules, lim: Limits, *, rolls: list[RollForecast], result: WalkResult
) -> tuple[Forecast, WalkResult]:
    """The forecast of the walk ``result`` with ``rolls`` and, under the house rules, its climbs' and dives' early-turn
    rolls (:func:`forecast_walk`)."""
    if chosen.house_flight:
        rolls.extend(_climb_dive_rolls(world, body, lim, tuple(yd for yd, _, _ in result.turned)))
    return Forecast(body.entity, tuple(rolls), None, tuple(result.path), result.struck), result


def throttled(
    world: World, body: Body, lim: Limits, forecast: Forecast, result: WalkResult
) -> tuple[Forecast, WalkResult]:
    """``forecast`` of ``body``'s walk ``result`` (:func:`forecast_walk`) with what its throttle adds at high speed,
    when it keeps control and runs into nothing: the hasty deceleration roll, or control lost to the footing
    (:func:`esper_motion.systems.gurps.rules.footing_deceleration`)."""
    throttle, velocity = body.intent.throttle, body.velocity.yps
    accelerating = throttle > 0 and result.extra == 0
    if body.control.state is not MoveState.HIGH_SPEED or forecast.loses_control is not None:
        return forecast, result
    if result.struck is not None or accelerating:
        return forecast, result
    voluntary = min(max(0, -throttle), velocity - result.extra)
    outcome = rules.footing_deceleration(velocity, result.extra, lim.basic_move, voluntary)
    if outcome.lost_control:
        return replace(forecast, loses_control="footing"), result
    if outcome.roll_modifier is None:
        return forecast, result
    skill, label = control_roll(world, body)
    target = skill + outcome.roll_modifier
    roll = RollForecast.of("hasty deceleration", modified(label, outcome.roll_modifier), target)
    return replace(forecast, rolls=(*forecast.rolls, roll)), result


def _climb_dive_rolls(world: World, body: Body, lim: Limits, hexside_turn_yds: tuple[int, ...]) -> list[RollForecast]:
    """House rules: the early-turn rolls ``body``'s climbs and dives of this turn would take, each assumed made
    (:class:`esper_motion.systems.gurps.flight.house_climb_turns.HouseClimbTurns`)."""
    flight = world.try_get(body.entity, Flight)
    wish = world.try_get(body.entity, FlightIntent)
    if flight is None or wish is None or body.control.state is not MoveState.HIGH_SPEED or body.mover.swimming:
        return []
    legs = wish.vertical_legs()
    if body.position.altitude_yd + sum(leg for _, leg in legs) <= 0:
        return []  # not in the air once it has climbed and dived
    rolls = []
    for _, _, degrees, straight in climb_dive_turns(
        legs, flight.last_climb_yd, body.control.straight_yd, hexside_turn_yds
    ):
        if degrees == 120 or straight < lim.radius:
            modifier = rules.early_turn_modifier(body.velocity.yps, lim.move, rules.Variant.HOUSE)
            skill, label = control_roll(world, body)
            rolls.append(RollForecast.of(CLIMB_DIVE_ROLL, modified(label, modifier), skill + modifier))
    return rolls

"""Questions a game asks about a mover at speed: its limits this turn, its defenses, and speed modifiers.

Nothing here changes the world (Basic Set: High-Speed Movement > Attacking and Defending).
"""

from __future__ import annotations

import math

from esper_motion.components.flight import Flight
from esper_motion.components.gurps import Control, MoveState
from esper_motion.components.motion import Velocity
from esper_motion.ecs import World
from esper_motion.ecs.hexgrid import DIRECTIONS, to_pixel
from esper_motion.ecs.validate import check_number
from esper_motion.systems.gurps import rules
from esper_motion.systems.gurps.shared.movers import Limits, body_of, carrier_of, installed_rules, limits


def movement_limits(world: World, entity: int) -> Limits:
    """What the rules allow ``entity`` this turn: Move in use, top speed, turning radius, steps of speed."""
    return limits(world, body_of(world, entity), installed_rules(world))


def at_high_speed(world: World, entity: int) -> bool:
    """Whether ``entity`` moves at high speed (in control or not)."""
    return body_of(world, entity).control.state is not MoveState.NORMAL


def defenses(world: World, entity: int) -> rules.HighSpeedDefense:
    """Which active defenses ``entity`` has: at high speed it may dodge but neither retreat nor dive for cover
    (Basic Set: High-Speed Movement > Attacking and Defending). High speed is a velocity above Basic Move in the
    Basic Set, above Encumbered Move under the house rules (House rules: High Speed Movement), as
    ``Limits.high_speed_above`` says. A rider is carried at its mount's speed, so it defends as the mount
    moves: on a horse at high speed it may not retreat either."""
    body = body_of(world, carrier_of(world, entity))
    return rules.high_speed_defense(body.velocity.yps, limits(world, body, installed_rules(world)).high_speed_above)


def may_dodge(world: World, entity: int) -> bool:
    """Whether ``entity`` may dodge (always, at any speed)."""
    return defenses(world, entity).dodge


def may_retreat(world: World, entity: int) -> bool:
    """Whether ``entity`` may retreat as part of a defense (not at high speed)."""
    return defenses(world, entity).retreat


def may_dive_for_cover(world: World, entity: int) -> bool:
    """Whether ``entity`` may dive for cover (not at high speed)."""
    return defenses(world, entity).dive_for_cover


def _vector(velocity: Velocity | None) -> tuple[float, float]:
    if velocity is None or velocity.yps == 0:
        return (0.0, 0.0)
    x, y = to_pixel(DIRECTIONS[velocity.heading], 1 / math.sqrt(3))
    return (x * velocity.yps, y * velocity.yps)


def relative_speed_yps(world: World, a: int, b: int) -> float:
    """How fast ``b`` moves as seen from ``a``, in yards per second: the length of the difference of their
    velocities, each rider moving as its mount does (an entity without ``Velocity`` stands still)."""
    ax, ay = _vector(world.try_get(carrier_of(world, a), Velocity))
    bx, by = _vector(world.try_get(carrier_of(world, b), Velocity))
    return math.hypot(bx - ax, by - ay)


def _climbed_yd(world: World, entity: int) -> int:
    flight = world.try_get(entity, Flight)
    return flight.climbed_yd if flight is not None else 0


def _house_target_range(world: World, attacker: int, target: int, range_yd: float) -> float:
    """House rules: a target at high speed adds its velocity to the range, unless shooter and target move
    exactly together or exactly opposite, altitude changes included (House rules: High Speed Movement).

    Reading chosen: each one's direction is its heading with the slope of its path, the yards it climbed this
    turn (``Flight.climbed_yd``, 0 without a ``Flight``; negative for a dive) per yard of its velocity. The two
    move in line when the headings are the same and the slopes equal, or the headings opposite and the slopes
    opposite: a shooter at 10 yd/s climbing 2 and a target at 20 yd/s climbing 4 fly the same way. A shooter
    standing still is never in line. A rider moves, climbs and keeps control as its mount does.
    """
    attacker, target = carrier_of(world, attacker), carrier_of(world, target)
    control = world.try_get(target, Control)
    velocity = world.try_get(target, Velocity)
    if control is None or velocity is None or control.state is MoveState.NORMAL:
        return range_yd
    own = world.try_get(attacker, Velocity)
    in_line = False
    if own is not None and own.yps > 0 and (velocity.heading - own.heading) % 3 == 0:
        sign = 1 if velocity.heading == own.heading else -1
        # equal slopes (climb per yard of velocity), compared without division
        in_line = _climbed_yd(world, target) * own.yps == sign * _climbed_yd(world, attacker) * velocity.yps
    return rules.house_high_speed_target_range(range_yd, velocity.yps, in_line)


def speed_modifier(world: World, attacker: int, target: int, range_yd: float = 0.0) -> int:
    """The speed/range modifier to ``attacker``'s roll against ``target``: the Size and Speed/Range Table for
    the range plus their relative speed (Basic Set: High-Speed Movement > Attacking and Defending; Size and
    Speed/Range Table). A rider counts its mount's velocity: it is as hard to hit as the mount. Under the
    house rules the range grows by the velocity of a target at high speed instead, unless the two move
    exactly in line (House rules: High Speed Movement). Reading chosen: speed and range never give a bonus,
    so anything up to 2 yards is 0.
    """
    range_yd = check_number("speed_modifier", "range_yd", range_yd, low=0)
    if installed_rules(world).house_control:
        total = _house_target_range(world, attacker, target, range_yd)
    else:
        total = range_yd + relative_speed_yps(world, attacker, target)
    if total <= 2:
        return 0
    return min(0, rules.speed_range_modifier(round(total, 6)))

"""What climbing and descending cost out of a turn's movement, which the walk on the map and the altitude system share
(Basic Set: Flying Combat > Aerial Movement > Changing Height; House rules: Flying Movement and Combat)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from esper_motion.components.flight import Flight, FlightIntent, Leg
from esper_motion.components.gurps import Control, Intent, MoveState
from esper_motion.components.motion import Position, Velocity
from esper_motion.ecs import World
from esper_motion.ecs.validate import check_int
from esper_motion.systems.gurps import rules
from esper_motion.systems.gurps.shared.dive import normal_top_speed
from esper_motion.systems.gurps.shared.movers import Body, Limits, installed_rules

HOUSE_FREE_DIVE_YD: Final = 10
"""House rules: a flier at speed dives up to this many yards a turn without spending movement on it; deeper
yards cost a yard of movement each (House rules: Flying Movement and Combat)."""


def climb_cost(level_yd: int, climb_yd: int, house: bool = False) -> float:
    """Movement points for ``level_yd`` level yards flown with a climb of ``climb_yd`` (negative: a descent).

    Basic Set: as :func:`esper_motion.systems.gurps.rules.vertical_move_cost`, a 45-degree diagonal yard 1.5 (Flying
    Combat > Aerial Movement > Changing Height). House rules: each yard climbed takes a yard of movement of
    its own, and a dive's first 10 yards are free, each deeper yard a yard of movement (House rules: Flying
    Movement and Combat).

    >>> climb_cost(8, 4), climb_cost(8, 4, house=True), climb_cost(8, -12, house=True)
    (10.0, 12, 10)
    """
    level_yd = check_int("climb_cost", "level_yd", level_yd, low=0)
    climb_yd = check_int("climb_cost", "climb_yd", climb_yd)
    if not house:
        return rules.vertical_move_cost(level_yd, abs(climb_yd))
    if climb_yd > 0:
        return level_yd + climb_yd
    return level_yd + max(0, -climb_yd - HOUSE_FREE_DIVE_YD)


def legs_cost(level_yd: int, legs: tuple[Leg, ...], house: bool = False) -> float:
    """Movement points for ``level_yd`` level yards flown with the climbs and dives of ``legs`` (``(at_yd,
    climb_yd)`` pairs, ``FlightIntent.legs``): as :func:`climb_cost` for their yards together. Basic Set: every
    vertical yard, up or down, pairs with a level one into a 1.5-point diagonal. House rules: each yard climbed
    takes a yard of movement, and the first 10 yards dived in the turn, all dives together, are free.

    >>> legs_cost(8, ((0, 4), (6, -4)), house=True), legs_cost(8, ((0, 4), (6, -4)))
    (12, 12.0)
    """
    up = sum(climb for _, climb in legs if climb > 0)
    down = -sum(climb for _, climb in legs if climb < 0)
    if not house:
        return rules.vertical_move_cost(level_yd, up + down)
    return level_yd + up + max(0, down - HOUSE_FREE_DIVE_YD)


def house_climbing(world: World, entity: int) -> bool:
    """Whether the house rules' climb and dive costs apply to flier ``entity`` this turn: ``Rules.flight`` is
    ``"house"`` and it flies at high speed, or it takes off without hover (which puts it at high speed as it leaves
    the ground). The house text gives its costs for a flier using High Speed Movement; in ordinary flight the Basic
    Set's Changing Height applies (House rules: Flying Movement and Combat; Basic Set: Flying Combat > Aerial
    Movement > Changing Height)."""
    if not installed_rules(world).house_flight:
        return False
    if world.get(entity, Control).state is MoveState.HIGH_SPEED:
        return True
    flight = world.try_get(entity, Flight)
    position = world.try_get(entity, Position)
    return flight is not None and not flight.mode.can_hover and position is not None and position.altitude_yd == 0


def speeds_after_climbs(world: World, body: Body, top_speed: int) -> tuple[int, int]:
    """House rules: the velocity and the top speed ``body`` will have once the climbs and dives asked of it this
    turn (``FlightIntent``) are flown, from its velocity and ``top_speed``: each of the first 10 yards climbed takes
    1 off the velocity at once, each of the first 10 dived adds 1 to both, never past the absolute dive maximum, the
    climb first if it comes first (as ``esper_motion.systems.gurps.flight.house_dive.HouseDiveSpeed`` flies them).
    At the end of the turn the flier accelerates or decelerates normally from these (House rules: Flying Movement
    and Combat). Unchanged for anyone else: under the Basic Set, in ordinary flight, on the ground, or with no climb
    or dive asked."""
    velocity = body.velocity.yps
    wish = world.try_get(body.entity, FlightIntent)
    flight = world.try_get(body.entity, Flight)
    if wish is None or flight is None or body.control.state is not MoveState.HIGH_SPEED:
        return velocity, top_speed
    legs = wish.vertical_legs()
    chosen = installed_rules(world)
    if not legs or body.position.altitude_yd <= 0 or not chosen.house_flight:
        return velocity, top_speed
    loss = rules.house_climb_speed_loss(sum(climb for _, climb in legs if climb > 0))
    gain = rules.house_dive_speed_gain(-sum(climb for _, climb in legs if climb < 0))
    cap = rules.house_dive_speed_cap(normal_top_speed(flight, body.mover, chosen))
    climbed_first = legs[0][1] > 0
    if climbed_first or not gain:
        velocity = max(0, velocity - loss)
    if gain:
        velocity = max(velocity, min(velocity + gain, cap))
        top_speed = min(top_speed + gain, cap)
        if not climbed_first:
            velocity = max(0, velocity - loss)
    return velocity, top_speed


def movement_points(world: World, entity: int) -> int | None:
    """The movement points a flier has this turn for level yards and climbing together: on Move or Move and
    Attack (:data:`esper_motion.systems.gurps.rules.MOVING_MANEUVERS`) the greater of its velocity and its basic
    air Move; None on any other maneuver (which climbs at most a step, paid for by the step).

    House rules, at high speed: its velocity alone, the speed it must move, so the yards it climbs come out of the
    level yards that speed would fly (House rules: High Speed Movement; Flying Movement and Combat)."""
    if world.get(entity, Intent).maneuver not in rules.MOVING_MANEUVERS:
        return None
    velocity = world.get(entity, Velocity).yps
    control = world.get(entity, Control)
    if control.state is MoveState.HIGH_SPEED and installed_rules(world).house_flight:
        return velocity
    return max(velocity, world.get(entity, Flight).air_move)


def level_points(world: World, entity: int, velocity: int) -> int:
    """The level yards the walk of ``entity`` may use this turn, out of its ``velocity``: a flier asked to climb
    or descend keeps back what the vertical yards cost (:func:`climb_cost`: the house costs where
    :func:`house_climbing` says, else :func:`level_yards`); anyone else, and a flier out of control, without
    lift, or climbing only a step, walks its whole velocity."""
    wish = world.try_get(entity, FlightIntent)
    legs = wish.vertical_legs() if wish is not None else ()
    if not legs:
        return velocity
    flight = world.try_get(entity, Flight)
    if flight is None or flight.stalled or flight.wiped_out:
        return velocity
    if world.get(entity, Control).state is MoveState.OUT_OF_CONTROL:
        return velocity
    points = movement_points(world, entity)
    if points is None:
        return velocity  # a step, paid for by the step
    if house_climbing(world, entity):
        kept = int(legs_cost(0, legs, house=True))
        return velocity if kept > points else min(velocity, points - kept)
    vertical = sum(abs(climb) for _, climb in legs)
    if vertical > points:
        return velocity  # a climb the altitude system refuses
    return min(velocity, level_yards(points, vertical))


def level_yards(points: int, vertical_yd: int) -> int:
    """The most level yards a flier can fly with ``points`` movement points while also climbing or descending
    ``vertical_yd`` yards, paying as :func:`esper_motion.systems.gurps.rules.vertical_move_cost` does: vertical and
    level yards cost 1 each and a 45-degree diagonal yard 1.5 (Basic Set: Flying Combat > Aerial Movement > Changing
    Height). A climb of more yards than there are points is refused.

    >>> level_yards(10, 4), level_yards(5, 4), level_yards(10, 0), level_yards(6, 6)
    (8, 2, 10, 0)
    """
    points = check_int("level_yards", "points", points, low=0)
    vertical_yd = check_int("level_yards", "vertical_yd", vertical_yd, low=0, high=points)
    paired = (2 * points - vertical_yd) // 2  # level yards when every vertical yard pairs into a diagonal
    if paired >= vertical_yd:
        return paired
    return 2 * (points - vertical_yd)  # fewer level yards than vertical: each level yard adds half a point


def counting_starts(legs: tuple[Leg, ...], previous_yd: int) -> Iterator[tuple[int, int, int]]:
    """The climbs and dives of ``legs`` that count as turns under the house rules, in order, as (yard it starts at,
    yards climbed, degrees): a change of the yards climbed or dived of 3 or more
    (:func:`esper_motion.systems.gurps.rules.house_climb_dive_turn_degrees`), the first compared with
    ``previous_yd``, the last climb of the turn before; climbing or diving as much again is no new turn (House
    rules: Flying Movement and Combat).

    >>> list(counting_starts(((0, 4), (3, 4), (6, -1), (8, -6)), 0))
    [(0, 4, 60), (8, -6, 120)]
    """
    previous = previous_yd
    for at, climbed in legs:
        same, previous = climbed == previous, climbed
        degrees = rules.house_climb_dive_turn_degrees(abs(climbed))
        if not same and degrees:
            yield at, climbed, degrees


def climb_turn_yards(world: World, body: Body) -> tuple[int, ...]:
    """House rules: the yards of this turn's level path at which the climbs and dives asked of ``body``
    (``FlightIntent``) start turns of their own (:func:`counting_starts`), for a flier at high speed in the air;
    none for anyone else (House rules: Flying Movement and Combat: starting a climb or dive is treated as a turn
    for the turning radius)."""
    if body.control.state is not MoveState.HIGH_SPEED or body.position.altitude_yd <= 0:
        return ()
    wish = world.try_get(body.entity, FlightIntent)
    flight = world.try_get(body.entity, Flight)
    if wish is None or flight is None or not installed_rules(world).house_flight:
        return ()
    return tuple(at for at, _, _ in counting_starts(wish.vertical_legs(), flight.last_climb_yd))


def hexside_free_yd(
    world: World, body: Body, lim: Limits, at_yd: float | None, since_yd: int | None = None
) -> int | float:
    """The yard from which a hexside turn of ``body`` at yard ``at_yd`` of this turn's path is no early turn: the
    turning radius run straight since the last change of direction before it (``lim.free_turn_yd`` counts the yards
    run before this turn; ``since_yd`` is the yard of an earlier change of facing on this turn's path, None for the
    first). Under the house rules a climb or dive started before the turn is such a change
    (:func:`climb_turn_yards`), so a hexside turn within the radius after it is an early turn (House rules: Flying
    Movement and Combat; High Speed Movement). ``at_yd`` None asks for the earliest yard a turn may come without a
    roll, each start before it counted."""
    free = lim.free_turn_yd if since_yd is None else since_yd + lim.radius
    for start in climb_turn_yards(world, body):
        if start < (free if at_yd is None else at_yd):
            free = max(free, start + lim.radius)
    return free

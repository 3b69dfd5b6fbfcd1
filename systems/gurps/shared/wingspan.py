"""House rules: what lies within a winged flier's wingspan at a moment of the turn's movement, which the walk on the
map (the roll at once) and the end of the movement (the wipe-out) share (House rules: Flying Movement and Combat)."""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Mapping, Sequence

import esper

from esper_motion.components.flight import Flight
from esper_motion.components.gurps import Control, Mover
from esper_motion.components.motion import Position
from esper_motion.ecs import World
from esper_motion.ecs.hexgrid import Hex, distance
from esper_motion.systems.gurps.shared.movers import Body, carried, environment, installed_rules
from esper_motion.systems.gurps.shared.spatial import SpatialIndex, figure_height_yd


def watched(world: World, body: Body) -> bool:
    """Whether the wingspan rule watches ``body`` this turn: ``Rules.flight`` is ``"house"`` and it is a winged
    flier with lift, a wingspan of 2 yards or more and a whole wing, in the air under its own power."""
    flight = world.try_get(body.entity, Flight)
    if flight is None or not flight.wings or flight.wiped_out or flight.crippled_wing or flight.wingspan_yd < 2:
        return False
    return not carried(body) and environment(world, body) == "air" and installed_rules(world).house_flight


def winged_fliers(world: World) -> frozenset[int]:
    """The entities with wings and a wingspan of 2 yards or more (``Flight``), the only ones :func:`watched` may
    watch: a quick first sift, one pass over the fliers."""
    return frozenset(
        entity for entity, flight in esper.get_component(Flight) if flight.wings and flight.wingspan_yd > 1
    )


def could_meet(world: World, entity: int, moved: Iterable[int], around: Hex, yards: int) -> frozenset[int]:
    """The bodies of ``moved`` (each with this turn's ``Control.path``) that may come within the wingspan of
    ``entity`` at some moment of a movement of at most ``yards`` from or to ``around``: those whose path ends within
    ``yards``, plus half the wingspan, plus their own path, of it. The others can come within reach neither on the
    way nor where they end, so they are all :func:`wingspan_obstacles` needs as ``moved``."""
    reach = world.get(entity, Flight).wingspan_yd // 2
    near = set()
    for other in moved:
        path = world.get(other, Control).path
        if other != entity and distance(path[-1], around) <= yards + reach + len(path):
            near.add(other)
    return frozenset(near)


def level_altitude(world: World, entity: int) -> float:
    """The altitude at which ``entity`` flew its level movement this turn: where it is, less the climbs and dives
    flown after the level movement (``Flight.climbed_yd``); where it is for anyone who did not fly one."""
    altitude = world.get(entity, Position).altitude_yd
    flight = world.try_get(entity, Flight)
    return altitude - flight.climbed_yd if flight is not None else altitude


def hex_at(world: World, entity: int, moment: float) -> Hex:
    """Where body ``entity`` was at ``moment`` (0 to 1) of this turn's movement: along the path it moved this turn
    (``Control.path``, its yards spread evenly over the second), or where it stands if it has not moved (yet)."""
    control = world.try_get(entity, Control)
    return along(control.path if control is not None else (), moment, world.get(entity, Position).hex)


def along(path: Sequence[Hex], moment: float, start: Hex) -> Hex:
    """Where a body moving along ``path`` from ``start`` is at ``moment`` (0 to 1) of the turn's movement, its
    yards spread evenly over the second: ``start`` for an empty path."""
    if not path:
        return start
    return path[max(1, min(len(path), math.ceil(moment * len(path)))) - 1]


def wingspan_obstacles(
    world: World,
    index: SpatialIndex,
    entity: int,
    spot: Hex,
    *,
    moment: float = 1.0,
    moved: Collection[int] = (),
    coming: Mapping[int, Sequence[Hex]] | None = None,
    after_climbs: bool = False,
) -> set[int]:
    """What lies within the wingspan of winged flier ``entity`` were it on ``spot`` at ``moment`` (0 to 1) of the
    turn's movement: obstacles and other bodies (fliers too) on the hexes 1 to half its ``Flight.wingspan_yd``
    (rounded down) away that it would meet at its altitude (House rules: Flying Movement and Combat). Readings
    chosen: the wings reach that far on every side, and its own hex is a collision, not a wingspan matter. The
    bodies of ``moved`` (those that moved this turn, or the ones of them that :func:`could_meet` it) count where
    their front was at that moment (:func:`hex_at`); the bodies of ``coming``, yet to move this turn, where they
    would be at that moment along the path given for each (:func:`along`); every other body where the index has
    it. With ``after_climbs`` (asked once the turn's climbs are flown) each flier counts at the altitude of its
    level movement (:func:`level_altitude`), else where it is."""
    reach = world.get(entity, Flight).wingspan_yd // 2
    coming = coming or {}
    altitude = _altitude(world, entity, after_climbs)
    height = _height(world, entity)
    found: set[int] = set()
    q, r = spot
    for dq in range(-reach, reach + 1):
        for dr in range(max(-reach, -dq - reach), min(reach, -dq + reach) + 1):
            near = (q + dq, r + dr)
            if (dq, dr) == (0, 0):
                continue
            found.update(other for other, _ in index.obstacles_in_way(near, altitude, height))
            found.update(
                other
                for other in index.bodies_in_way(near, entity, altitude, height)
                if other not in moved and other not in coming
            )
    where = [(other, hex_at(world, other, moment)) for other in moved]
    where += [(other, along(path, moment, world.get(other, Position).hex)) for other, path in coming.items()]
    for other, at in where:
        if other == entity or not 1 <= distance(spot, at) <= reach:
            continue
        low, high = sorted(((altitude, height), (_altitude(world, other, after_climbs), _height(world, other))))
        if high[0] < low[0] + low[1]:  # the higher one is below the top of the lower one: they meet
            found.add(other)
    return found


def _altitude(world: World, entity: int, after_climbs: bool) -> float:
    return level_altitude(world, entity) if after_climbs else world.get(entity, Position).altitude_yd


def _height(world: World, entity: int) -> float:
    mover = world.try_get(entity, Mover)
    return figure_height_yd(mover) if mover is not None else 0.0

"""Cover for the planner: a ``Flee`` with ``cover`` runs to the nearest hex its source cannot see, and stays there.

Reading chosen (the rules define no line of sight on the hex grid): a hex is out of sight of a source when an
obstacle (``Obstacle``, as the spatial index files it) on one of the hexes of the straight line between the two
(:func:`~esper_motion.ecs.hexgrid.line`, neither end counted) rises at least as high as the runner stands
(:func:`~esper_motion.systems.gurps.shared.spatial.figure_height_yd`): a wall hides a man, a hedge waist-high does
not. Bodies hide nothing (they move). The nearest such hex is the nearest in yards walked round the obstacles the
runner cannot jump (a breadth-first walk out from it, at most :data:`COVER_HEXES` hexes), free of other bodies; the
runner goes there and stops (a ``GoTo``), chosen again each turn from where the source is then. With none within
the walk, it flees as without ``cover``.
"""

from __future__ import annotations

from collections import deque
from typing import Final

from esper_motion.components.goals import Flee, Goal, GoTo
from esper_motion.components.motion import Position
from esper_motion.ecs import World
from esper_motion.ecs.hexgrid import DIRECTIONS, Hex, line
from esper_motion.systems.gurps.shared.movers import Body
from esper_motion.systems.gurps.shared.spatial import SpatialIndex, figure_height_yd

COVER_HEXES: Final = 2_000
"""The most hexes :func:`cover_hex` walks out to from the runner."""


def hidden(index: SpatialIndex, source: Hex, hex: Hex, altitude_yd: float, height_yd: float) -> bool:
    """Whether ``hex`` is out of sight from ``source`` for a figure ``height_yd`` tall at ``altitude_yd``: an
    obstacle between them (on the straight line, neither end) rises at least as high as the figure's top."""
    occupied = index.occupied
    top = altitude_yd + height_yd
    return any(
        between in occupied
        and any(obstacle.height_yd >= top for _, obstacle in index.obstacles_in_way(between, altitude_yd, height_yd))
        for between in line(source, hex)[1:-1]
    )


def cover_hex(index: SpatialIndex, body: Body, source: Hex) -> Hex | None:
    """The nearest hex to ``body`` (in yards walked round the obstacles it cannot jump, ties in facing order) that
    is out of sight from ``source`` (:func:`hidden`) and holds no other body; None when the walk (at most
    :data:`COVER_HEXES` hexes) finds none."""
    altitude, height = body.position.altitude_yd, figure_height_yd(body.mover)
    occupied = index.occupied
    start = body.position.hex
    seen = {start}
    queue = deque([start])
    while queue:
        hex = queue.popleft()
        if hidden(index, source, hex, altitude, height) and not index.bodies_in_way(hex, body.entity, altitude, height):
            return hex
        for dq, dr in DIRECTIONS:
            ahead = (hex[0] + dq, hex[1] + dr)
            if ahead in seen or len(seen) >= COVER_HEXES:
                continue
            if ahead in occupied and any(
                not obstacle.crossable for _, obstacle in index.obstacles_in_way(ahead, altitude, height)
            ):
                continue
            seen.add(ahead)
            queue.append(ahead)
    return None


def cover_goal(world: World, index: SpatialIndex, body: Body, goal: Flee) -> Goal:
    """The goal a ``Flee`` with ``cover`` comes to this turn for ``body``: a stop in the :func:`cover_hex` from
    where the source is now, or the flight itself when there is none (or the source is gone)."""
    source = goal.source
    if source is None or not world.exists(source) or not world.has(source, Position):
        return goal
    found = cover_hex(index, body, world.get(source, Position).hex)
    return goal if found is None else GoTo(found)

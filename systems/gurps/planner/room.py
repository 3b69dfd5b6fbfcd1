"""Room to turn for the planner: a body several hexes long turns about its front hex, its other hexes in a line
behind it (:func:`~esper_motion.systems.gurps.shared.figure.body_hexes`), and it cannot back up, so near the corner
of a fence there are places from which every way it can turn or step leads only to others like them: once there it
is stuck for good. The search ends no turn of such a body in such a place (:func:`way_on`)."""

from __future__ import annotations

from collections import deque
from typing import Final

from esper_motion.ecs.hexgrid import Hex, distance, neighbour, turn
from esper_motion.systems.gurps.shared.figure import body_hexes
from esper_motion.systems.gurps.shared.spatial import SpatialIndex

ROOM_STATES: Final = 48
"""The most places and facings :func:`way_on` looks through before it takes the body to have room."""


def way_on(index: SpatialIndex, front: Hex, facing: int, length: int, *, altitude_yd: float, height_yd: float) -> bool:
    """Whether a body ``length`` hexes long with its front on ``front``, facing ``facing``, can get clear: come,
    by turning where it stands (one or two hexsides, its hexes behind the front then clear) and stepping ahead onto
    clear hexes, to a front ``length`` or more hexes from this one. Clear: holding no obstacle the body cannot
    jump (``Obstacle.crossable``); bodies move, so they are not counted. True for a body of one hex (it turns
    where it stands), with no obstacle within ``length`` of its front, or when :data:`ROOM_STATES` are looked
    through without an answer."""
    if length < 2:
        return True
    occupied = index.occupied
    near = [
        (front[0] + dq, front[1] + dr)
        for dq in range(-length, length + 1)
        for dr in range(max(-length, -dq - length), min(length, -dq + length) + 1)
    ]
    if not any(hex in occupied for hex in near):
        return True

    def clear(hex: Hex) -> bool:
        return hex not in occupied or all(
            obstacle.crossable for _, obstacle in index.obstacles_in_way(hex, altitude_yd, height_yd)
        )

    seen = {(front, facing)}
    queue = deque(seen)
    while queue and len(seen) < ROOM_STATES:
        at, now = queue.popleft()
        if distance(at, front) >= length:
            return True
        ahead = neighbour(at, now)
        steps = [(ahead, now)] if clear(ahead) else []
        steps.extend(
            (at, turn(now, by))
            for by in (1, -1, 2, -2)
            if all(clear(hex) for hex in body_hexes(at, turn(now, by), length)[1:])
        )
        for step in steps:
            if step not in seen:
                seen.add(step)
                queue.append(step)
    return bool(queue)

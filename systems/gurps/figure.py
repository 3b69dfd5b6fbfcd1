"""The hexes a figure fills on the tactical map: one, or two for a human flying lying flat.

Shared by the spatial index (collisions), the flight queries and a renderer; it imports no system.
"""

from __future__ import annotations

from components.flight import Flight
from components.motion import Facing, Position, Velocity
from ecs import World, WorldError
from ecs.hexgrid import Hex, line, neighbour, turn


def _facing(world: World, entity: int) -> int:
    facing = world.try_get(entity, Facing)
    if facing is not None:
        return facing.direction
    velocity = world.try_get(entity, Velocity)
    if velocity is None:
        raise WorldError(f"entity {entity} has neither Facing nor Velocity, so it has no front or back")
    return velocity.heading


def two_hex(world: World, entity: int) -> bool:
    """Whether ``entity`` is a two-hex figure now: a flier lying flat (as humans fly) and in the air
    (Basic Set: Flying Combat > Aerial Movement)."""
    flight = world.try_get(entity, Flight)
    return flight is not None and flight.lying_flat and world.get(entity, Position).altitude_yd > 0


def occupied_hexes(world: World, entity: int) -> tuple[Hex, ...]:
    """The hexes ``entity`` fills: its own, and for a two-hex figure (:func:`two_hex`) the hex behind it too,
    behind meaning opposite its facing (Basic Set: Flying Combat > Aerial Movement).

    >>> from components.flight import Flight
    >>> world = World()
    >>> flier = world.spawn(Position(0, 0, altitude_yd=3.0), Facing(0), Flight(air_move=10, lying_flat=True))
    >>> occupied_hexes(world, flier)
    ((0, 0), (-1, 0))
    """
    here = world.get(entity, Position).hex
    if not two_hex(world, entity):
        return (here,)
    return here, neighbour(here, turn(_facing(world, entity), 3))


def trailing_hex(start: Hex, end: Hex) -> Hex:
    """Where the back of a two-hex figure lies after it moved from ``start`` to ``end``: the hex next to
    ``end`` on the straight line back toward ``start``. Reading chosen: the body trails along its path, which
    is the hex behind its facing whenever it flew straight.

    >>> trailing_hex((0, 0), (5, 0)), trailing_hex((0, 0), (1, 0))
    ((4, 0), (0, 0))
    """
    return line(end, start)[1]

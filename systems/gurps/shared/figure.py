"""The hexes a figure fills on the tactical map: one; two for a human flying lying flat; two or three for a mount.

Shared by the spatial index (collisions), the flight and mount queries and a renderer; it imports no system.
"""

from __future__ import annotations

from esper_motion.components.flight import Flight
from esper_motion.components.motion import Facing, Position, Velocity
from esper_motion.components.mount import Mount
from esper_motion.ecs import World, WorldError
from esper_motion.ecs.hexgrid import DIRECTIONS, Hex, check_facing


def _facing(world: World, entity: int) -> int:
    facing = world.try_get(entity, Facing)
    if facing is not None:
        return facing.direction
    velocity = world.try_get(entity, Velocity)
    if velocity is None:
        raise WorldError(f"entity {entity} has neither Facing nor Velocity, so it has no front or back")
    return velocity.heading


def body_hexes(front: Hex, facing: int, hexes: int) -> tuple[Hex, ...]:
    """The ``hexes`` hexes a figure facing ``facing`` fills in a line: its front hex (its ``Position``), then the
    rest behind it, opposite its facing.

    >>> body_hexes((0, 0), 0, 3)
    ((0, 0), (-1, 0), (-2, 0))
    """
    dq, dr = DIRECTIONS[(check_facing("body_hexes", "facing", facing) + 3) % 6]  # behind: opposite its facing
    q, r = front
    return tuple([(q + dq * back, r + dr * back) for back in range(hexes)])


def two_hex(world: World, entity: int, altitude_yd: float | None = None) -> bool:
    """Whether ``entity`` is a two-hex figure now (or were it at ``altitude_yd``): a flier lying flat (as humans
    fly) and in the air (Basic Set: Flying Combat > Aerial Movement)."""
    flight = world.try_get(entity, Flight)
    if flight is None or not flight.lying_flat:
        return False
    return (world.get(entity, Position).altitude_yd if altitude_yd is None else altitude_yd) > 0


def occupied_hexes(world: World, entity: int, altitude_yd: float | None = None) -> tuple[Hex, ...]:
    """The hexes ``entity`` fills now (or would fill at ``altitude_yd``) (:func:`body_hexes`): a mount its
    ``Mount.hexes`` hexes behind its front, facing its ``Facing`` (east without one) (Basic Set: Mounted Combat >
    Mounting Up); a two-hex figure (:func:`two_hex`) its own hex and the one behind it, behind meaning opposite
    its facing (Basic Set: Flying Combat > Aerial Movement); anyone else its own hex.

    >>> from esper_motion.components import Flight
    >>> world = World()
    >>> flier = world.spawn(Position(0, 0, altitude_yd=3.0), Facing(0), Flight(air_move=10, lying_flat=True))
    >>> occupied_hexes(world, flier)
    ((0, 0), (-1, 0))
    """
    here = world.get(entity, Position).hex
    mount = world.try_get(entity, Mount)
    if mount is not None:
        facing = world.try_get(entity, Facing)
        return body_hexes(here, facing.direction if facing is not None else 0, mount.hexes)
    if not two_hex(world, entity, altitude_yd):
        return (here,)
    return body_hexes(here, _facing(world, entity), 2)

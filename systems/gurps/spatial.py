"""The spatial index: which bodies, obstacles and footing are on each hex, so a path asks a hex, never all pairs.

Built once a turn from the world (DESIGN.md section 10) and kept up to date as bodies move during the turn.
Bodies are entities with ``Position`` and ``Mover`` that ride nothing; obstacles have ``Position`` and
``Obstacle``; footing tiles have ``Position`` and ``Footing``, one tile a hex.

Levels: a body and something on the same hex meet unless the higher one is at or above the top of the lower
one. An obstacle rises ``Obstacle.height_yd`` above its altitude; a body stands as tall as the linear size of
its Size Modifier on the Size and Speed/Range Table (SM 0 is 2 yards, SM +1 3 yards, SM -2 1 yard), so a flier
passes over what it clears (Basic Set: Flying Combat > Aerial Movement).
"""

from __future__ import annotations

from collections.abc import Container

from components.flight import Flight
from components.gurps import Control, Footing, Mover, Obstacle
from components.motion import Position
from ecs import World, WorldError
from ecs.hexgrid import Hex
from systems.gurps import rules
from systems.gurps.figure import occupied_hexes, trailing_hex


def figure_height_yd(mover: Mover) -> float:
    """How tall a body stands: the Size and Speed/Range Table's linear size for its Size Modifier."""
    decade, step = divmod(mover.size_modifier, len(rules.SPEED_RANGE_DECADE))
    return float(rules.SPEED_RANGE_DECADE[step].yards * 10.0**decade)


def _meet(low_altitude: float, low_height: float, high_altitude: float) -> bool:
    return high_altitude < low_altitude + low_height


class SpatialIndex:
    """Hex to bodies, obstacles and footing, for one turn.

    >>> from components import Footing, Position
    >>> world = World()
    >>> mud = world.spawn(Position(1, 0), Footing(extra_cost=1))
    >>> index = SpatialIndex()
    >>> index.rebuild(world)
    >>> index.footing_extra((1, 0)), index.footing_extra((2, 0))
    (1, 0)
    """

    __slots__ = ("_bodies", "_footing", "_obstacles", "_occupied", "_tails")

    def __init__(self) -> None:
        self._bodies: dict[Hex, list[tuple[int, Position, Mover]]] = {}
        self._obstacles: dict[Hex, list[tuple[int, Position, Obstacle]]] = {}
        self._footing: dict[Hex, tuple[int, Footing]] = {}
        self._occupied: dict[Hex, int] = {}  # how many bodies, obstacles and footing tiles each hex holds
        self._tails: dict[int, Hex] = {}

    def rebuild(self, world: World) -> None:
        """Index every body, obstacle and footing tile of ``world`` where it stands now.

        Two footing tiles on one hex are a :class:`~ecs.errors.WorldError`: a hex has one kind of ground.
        """
        self._bodies = {}
        self._obstacles = {}
        self._footing = {}
        self._occupied = {}
        self._tails = {}
        riders = {entity for entity, (control,) in world.scan(Control) if control.carried_by is not None}
        lying_flat = {entity for entity, (flight,) in world.scan(Flight) if flight.lying_flat}
        for entity, (position, mover) in world.scan(Position, Mover):
            if entity in riders:
                continue
            if entity not in lying_flat:  # only a flier lying flat can fill two hexes (figure.two_hex)
                self._put(position.hex, (entity, position, mover))
                continue
            for spot in occupied_hexes(world, entity):
                self._put(spot, (entity, position, mover))
                if spot != position.hex:
                    self._tails[entity] = spot
        for entity, (position, obstacle) in world.scan(Position, Obstacle):
            if not world.has(entity, Mover):
                self._obstacles.setdefault(position.hex, []).append((entity, position, obstacle))
                self._occupied[position.hex] = self._occupied.get(position.hex, 0) + 1
        for entity, (position, footing) in world.query(Position, Footing):
            other = self._footing.get(position.hex)
            if other is not None:
                raise WorldError(
                    f"hex {position.hex} has two Footing tiles (entities {other[0]} and {entity}); a hex has one"
                )
            self._footing[position.hex] = (entity, footing)
            self._occupied[position.hex] = self._occupied.get(position.hex, 0) + 1

    @property
    def occupied(self) -> Container[Hex]:
        """The hexes holding anything indexed (a body, an obstacle, a footing tile); nothing is on any other hex,
        so a path asks about a hex in detail only when it is in here. Read it, never change it."""
        return self._occupied

    def footing_extra(self, hex: Hex) -> int:
        """Extra movement points to enter ``hex`` on the ground (0 where there is no footing tile)."""
        tile = self._footing.get(hex)
        return tile[1].extra_cost if tile is not None else 0

    def obstacles_in_way(self, hex: Hex, altitude_yd: float, height_yd: float) -> list[tuple[int, Obstacle]]:
        """Obstacles on ``hex`` that a figure ``height_yd`` tall at ``altitude_yd`` meets, lowest id first."""
        rows = self._obstacles.get(hex)
        if not rows:
            return []
        found = []
        for entity, position, obstacle in rows:
            if position.altitude_yd <= altitude_yd:
                meets = _meet(position.altitude_yd, obstacle.height_yd, altitude_yd)
            else:
                meets = _meet(altitude_yd, height_yd, position.altitude_yd)
            if meets:
                found.append((entity, obstacle))
        return sorted(found, key=lambda pair: pair[0])

    def bodies_in_way(self, hex: Hex, entity: int, altitude_yd: float, height_yd: float) -> list[int]:
        """Bodies other than ``entity`` on ``hex`` that a figure ``height_yd`` tall at ``altitude_yd`` meets,
        lowest id first."""
        rows = self._bodies.get(hex)
        if not rows:
            return []
        found = []
        for other, position, mover in rows:
            if other == entity:
                continue
            if position.altitude_yd <= altitude_yd:
                meets = _meet(position.altitude_yd, figure_height_yd(mover), altitude_yd)
            else:
                meets = _meet(altitude_yd, height_yd, position.altitude_yd)
            if meets:
                found.append(other)
        return sorted(found)

    def move(self, entity: int, start: Hex, end: Hex) -> None:
        """Record that body ``entity`` went from ``start`` to ``end``."""
        if start == end:
            return
        here = self._bodies.get(start, [])
        for index, row in enumerate(here):
            if row[0] == entity:
                self._take(start, index)
                self._put(end, row)
                if entity in self._tails:  # the back of a two-hex flier trails along its path
                    tail = self._tails[entity]
                    self._take(tail, self._bodies[tail].index(row))
                    self._tails[entity] = trailing_hex(start, end)
                    self._put(self._tails[entity], row)
                return
        raise WorldError(f"entity {entity} is not indexed on hex {start}")

    def _put(self, hex: Hex, row: tuple[int, Position, Mover]) -> None:
        self._bodies.setdefault(hex, []).append(row)
        self._occupied[hex] = self._occupied.get(hex, 0) + 1

    def _take(self, hex: Hex, index: int) -> None:
        del self._bodies[hex][index]
        left = self._occupied[hex] - 1
        if left:
            self._occupied[hex] = left
        else:
            del self._occupied[hex]

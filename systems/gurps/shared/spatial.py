"""The spatial index: which bodies, obstacles and footing are on each hex, so a path asks a hex, never all pairs.

Brought up to date once a turn from the world (docs/architecture.md > Performance), re-filing only what moved, and kept
up to date as bodies move during the turn. Bodies are entities with ``Position`` and ``Mover`` that ride nothing, filed
under every hex they fill (:func:`esper_motion.systems.gurps.shared.figure.occupied_hexes`: a horse's three hexes, a
flier lying flat its two); obstacles have ``Position`` and ``Obstacle``; footing tiles have ``Position`` and
``Footing``, one tile a hex.

Levels: a body and something on the same hex meet unless the higher one is at or above the top of the lower
one. An obstacle rises ``Obstacle.height_yd`` above its altitude; a body stands as tall as the linear size of
its Size Modifier on the Size and Speed/Range Table (SM 0 is 2 yards, SM +1 3 yards, SM -2 1 yard), so a flier
passes over what it clears (Basic Set: Flying Combat > Aerial Movement).
"""

from __future__ import annotations

from collections.abc import Collection, Container, Iterable, Iterator
from itertools import chain
from typing import Final

from esper_motion.components.flight import Flight
from esper_motion.components.gurps import Control, Footing, Mover, Obstacle
from esper_motion.components.motion import Position
from esper_motion.components.mount import Mount
from esper_motion.ecs import System, World, WorldError
from esper_motion.ecs.hexgrid import DIRECTIONS, Hex
from esper_motion.systems.gurps import rules
from esper_motion.systems.gurps.shared.figure import body_hexes, occupied_hexes


def figure_height_yd(mover: Mover) -> float:
    """How tall a body stands: the Size and Speed/Range Table's linear size for its Size Modifier."""
    decade, step = divmod(mover.size_modifier, len(rules.SPEED_RANGE_DECADE))
    return float(rules.SPEED_RANGE_DECADE[step].yards * 10.0**decade)


def _meet(low_altitude: float, low_height: float, high_altitude: float) -> bool:
    return high_altitude < low_altitude + low_height


Row = tuple[int, Position, Mover]
"""A body as the index files it: its id, its ``Position`` and its ``Mover``."""


ASIDE: Final = (2, -2, 1, -1, 0)
"""Where a body steps to get out of the way of something travelling in a direction, in order of preference, in
hexsides from that direction: beside the path behind its front (left, then right), then beside the path ahead
of it, then straight on along the path; never back into it (:meth:`SpatialIndex.room_to_step_aside`)."""


class SpatialIndex:
    """Hex to bodies, obstacles and footing, kept from turn to turn.

    :meth:`refresh` brings it up to date once a turn, re-filing only the bodies that moved since it last saw
    them; :meth:`move` and :meth:`shift` follow the bodies as they move during the turn.

    >>> from esper_motion.components import Footing, Position
    >>> world = World()
    >>> mud = world.spawn(Position(1, 0), Footing(extra_cost=1))
    >>> index = SpatialIndex()
    >>> index.rebuild(world)
    >>> index.footing_extra((1, 0)), index.footing_extra((2, 0))
    (1, 0)
    """

    __slots__ = (
        "_at",
        "_bodies",
        "_crowds",
        "_footing",
        "_multi",
        "_obstacles",
        "_occupied",
        "_riders",
        "_shape",
        "_tails",
        "kept",
    )

    def __init__(self) -> None:
        # The first body filed on each hex, and the others on hexes holding more than one: most hold one, and a
        # row alone needs no list made, scanned and dropped as the body comes and goes.
        self._bodies: dict[Hex, Row] = {}
        self._crowds: dict[Hex, list[Row]] = {}
        self._obstacles: dict[Hex, list[tuple[int, Position, Obstacle]]] = {}
        self._footing: dict[Hex, tuple[int, Position, Footing]] = {}
        self._occupied: dict[Hex, int] = {}  # how many bodies, obstacles and footing tiles each hex holds
        self._at: dict[int, Hex] = {}  # the hex each body is filed under first: its front
        self._tails: dict[int, tuple[Hex, ...]] = {}  # the other hexes of each body filling several, front to back
        # What the last rebuild read: esper's cached rows of the bodies', obstacles' and footing tiles' queries (each
        # the same list for as long as no component of its types is added or removed), the riders, and the bodies
        # that may fill several hexes.
        self._shape: tuple[object, ...] = ()
        self._riders: set[int] = set()
        self._multi: set[int] = set()
        self.kept: object = None
        """The mark of the step whose walk last refreshed the index (:func:`walked_index`): through the rest of that
        step the systems keep it up to date themselves."""

    def rebuild(self, world: World) -> None:
        """Index every body, obstacle and footing tile of ``world`` where it stands now.

        Two footing tiles on one hex are a :class:`~esper_motion.ecs.errors.WorldError`: a hex has one kind of ground.
        """
        self._bodies = {}
        self._crowds = {}
        self._obstacles = {}
        self._footing = {}
        self._occupied = {}
        self._at = {}
        self._tails = {}
        self._shape = ()  # stays empty if this rebuild fails, so the next refresh rebuilds again
        riders, multi = _riders_and_multi(world)
        bodies = world.scan(Position, Mover)
        for entity, (position, mover) in bodies:
            if entity not in riders:
                self._file(world, (entity, position, mover), entity in multi)
        obstacles = world.scan(Position, Obstacle)
        for entity, (position, obstacle) in obstacles:
            if not world.has(entity, Mover):
                self._obstacles.setdefault(position.hex, []).append((entity, position, obstacle))
                self._occupied[position.hex] = self._occupied.get(position.hex, 0) + 1
        tiles = world.scan(Position, Footing)
        for entity, (position, footing) in sorted(tiles, key=lambda row: row[0]):
            other = self._footing.get(position.hex)
            if other is not None:
                raise WorldError(
                    f"hex {position.hex} has two Footing tiles (entities {other[0]} and {entity}); a hex has one"
                )
            self._footing[position.hex] = (entity, position, footing)
            self._occupied[position.hex] = self._occupied.get(position.hex, 0) + 1
        self._shape = (bodies, obstacles, tiles)
        self._riders, self._multi = riders, multi

    def refresh(self, world: World) -> None:
        """Bring the index up to date with ``world``: re-file each body that moved since the index last saw it.

        A body that got on a mount is taken off the index and one that got off is filed again; a body that may
        fill several hexes (a mount, a flier lying flat) is re-filed when they changed (it turned, took off,
        landed). The whole index is rebuilt instead when a body, obstacle or footing tile came or went (a
        ``Position``, ``Mover``, ``Obstacle`` or ``Footing`` added, removed or replaced: a game's own tag is none of
        them), a flier started or stopped lying flat, or an obstacle or footing tile moved. Either way the index
        ends as :meth:`rebuild` would leave it, at a fraction of the cost when most things stay where they are.
        """
        riders, multi = _riders_and_multi(world)
        bodies = world.scan(Position, Mover)
        shape = (bodies, world.scan(Position, Obstacle), world.scan(Position, Footing))
        if (
            len(shape) != len(self._shape)  # esper makes a query's list anew when a component of its types came or went
            or any(now is not then for now, then in zip(shape, self._shape, strict=True))
            or multi != self._multi
            or any(position.hex != hex for hex, rows in self._obstacles.items() for _, position, _ in rows)
            or any(position.hex != hex for hex, (_, position, _) in self._footing.items())
        ):
            self.rebuild(world)
            return
        at = self._at
        for entity in riders - self._riders:  # got on a mount: it goes where the mount goes, unfiled
            if entity in at:
                self._unfile(entity)
        for entity in self._riders - riders:  # back on its own feet
            position, mover = world.try_get(entity, Position), world.try_get(entity, Mover)
            if position is not None and mover is not None:
                self._file(world, (entity, position, mover), entity in multi)
        self._riders = riders
        for entity, (position, _) in bodies:
            if entity in riders:
                continue
            if entity in multi:
                if occupied_hexes(world, entity) != self.hexes_of(entity):
                    self._file(world, self._unfile(entity), True)
            elif position.hex != at[entity]:
                self._file(world, self._unfile(entity), False)

    @property
    def occupied(self) -> Container[Hex]:
        """The hexes holding anything indexed (a body, an obstacle, a footing tile); nothing is on any other hex,
        so a path asks about a hex in detail only when it is in here. Read it, never change it."""
        return self._occupied

    def obstacle_hexes(self) -> Collection[Hex]:
        """The hexes holding an obstacle (read them, never change them)."""
        return self._obstacles.keys()

    def footing_extra(self, hex: Hex) -> int:
        """Extra movement points to enter ``hex`` on the ground (0 where there is no footing tile)."""
        tile = self._footing.get(hex)
        return tile[2].extra_cost if tile is not None else 0

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
        rows = self._on(hex)
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

    def length(self, entity: int) -> int:
        """How many hexes body ``entity`` fills, in a line behind its front (1 for one not filed)."""
        tails = self._tails.get(entity)
        return 1 if tails is None else 1 + len(tails)

    def hexes_of(self, entity: int) -> tuple[Hex, ...]:
        """The hexes body ``entity`` is filed under, its front first; none when it is not filed (a rider)."""
        front = self._at.get(entity)
        if front is None:
            return ()
        return (front, *self._tails.get(entity, ()))

    def clear(self, hex: Hex, altitude_yd: float, height_yd: float, ignoring: Container[int] = ()) -> bool:
        """Whether a figure ``height_yd`` tall at ``altitude_yd`` on ``hex`` would meet no body and no obstacle
        there (those in ``ignoring`` aside)."""
        if hex not in self._occupied:
            return True
        top = altitude_yd + height_yd
        return not any(
            other not in ignoring and bottom < top and altitude_yd < summit
            for other, bottom, summit in self._things(hex)
        )

    def room_to_step_aside(
        self, entity: int, toward: int, avoid: Container[Hex], ignoring: Container[int]
    ) -> int | None:
        """The direction body ``entity`` can step one hex in to get out of the way of something travelling in
        direction ``toward``, trying :data:`ASIDE` in order: every hex it would then fill is clear at its level
        (:meth:`clear`, those in ``ignoring`` aside) and none is in ``avoid``. None when it has nowhere to go."""
        hexes = self.hexes_of(entity)
        _, position, mover = self._row(entity)
        altitude, height = position.altitude_yd, figure_height_yd(mover)
        for side in ASIDE:
            direction = (toward + side) % 6
            dq, dr = DIRECTIONS[direction]
            moved = [(q + dq, r + dr) for q, r in hexes]
            if any(spot in avoid for spot in moved):
                continue
            if all(spot in hexes or self.clear(spot, altitude, height, ignoring) for spot in moved):
                return direction
        return None

    def met_on_the_way(
        self,
        entity: int,
        *,
        before: tuple[Hex, ...],
        after: tuple[Hex, ...],
        start_yd: float,
        end_yd: float,
        height_yd: float,
    ) -> list[tuple[float, float, int]]:
        """What body ``entity``, ``height_yd`` tall, would run into going straight up or down from ``start_yd``
        (filling the hexes ``before``) to ``end_yd`` (filling ``after``): every body and obstacle on those hexes
        it would meet at some height on the way, but did not meet already where it started. Each as (bottom,
        top, id), lowest first."""
        low, high = min(start_yd, end_yd), max(start_yd, end_yd) + height_yd
        found = set()
        for hex in set(before) | set(after):
            for other, bottom, top in self._things(hex):
                if other == entity or not (bottom < high and low < top):
                    continue
                if hex in before and bottom < start_yd + height_yd and start_yd < top:
                    continue  # they met before it moved
                found.add((bottom, top, other))
        return sorted(found)

    def landing_spot(self, entity: int, height_yd: float, preferred: Iterable[Hex], around: Hex) -> Hex:
        """Where body ``entity``, ``height_yd`` tall, can come down to the ground: the first hex of ``preferred``
        that is :meth:`clear` at ground level, else the nearest clear hex around ``around``, ring by ring."""
        return next(hex for hex in chain(preferred, _rings(around)) if self.clear(hex, 0.0, height_yd, (entity,)))

    def move(self, entity: int, start: Hex, end: Hex, facing: int | None = None) -> None:
        """Record that body ``entity`` went from ``start`` to ``end``. One that fills several hexes fills them
        behind ``end`` opposite ``facing`` (which it needs), whether it moved or only turned."""
        tails = self._tails.get(entity)
        if tails is None and start == end:
            return
        if self._at.get(entity) != start:
            raise WorldError(f"entity {entity} is not indexed on hex {start}")
        if tails is None:
            row = self._take(entity, start)
            self._put(end, row)
            self._at[entity] = end
            return
        if facing is None:
            raise WorldError(f"entity {entity} fills {1 + len(tails)} hexes: moving it needs the way it faces")
        self._place(self._unfile(entity), body_hexes(end, facing, 1 + len(tails)))

    def shift(self, entity: int, direction: int) -> None:
        """Record that body ``entity`` moved one hex in ``direction``, every hex it fills with it."""
        dq, dr = DIRECTIONS[direction]
        hexes = self.hexes_of(entity)
        self._place(self._unfile(entity), tuple((q + dq, r + dr) for q, r in hexes))

    def update(self, world: World, entity: int) -> None:
        """File ``entity`` again as :meth:`rebuild` would find it now: off the index while a mount carries it, on
        every hex it fills otherwise (it got on or off a mount, or turned in place). An entity that is not a body
        (no ``Position`` or no ``Mover``) is only taken off."""
        if entity in self._at:
            self._unfile(entity)
        control = world.try_get(entity, Control)
        if control is not None and control.carried_by is not None:
            self._riders.add(entity)
            return
        self._riders.discard(entity)
        position, mover = world.try_get(entity, Position), world.try_get(entity, Mover)
        if position is not None and mover is not None:
            self._file(world, (entity, position, mover), entity in self._multi)

    def refile(self, world: World, entity: int) -> None:
        """File body ``entity`` again where ``world`` has it now (it took off or landed: the hexes it fills
        changed)."""
        if entity in self._at:
            self._file(world, self._unfile(entity), entity in self._multi)

    def _things(self, hex: Hex) -> Iterator[tuple[int, float, float]]:
        """Every body and obstacle on ``hex`` as (id, bottom, top)."""
        for other, position, mover in self._on(hex):
            yield other, position.altitude_yd, position.altitude_yd + figure_height_yd(mover)
        for other, position, obstacle in self._obstacles.get(hex, ()):
            yield other, position.altitude_yd, position.altitude_yd + obstacle.height_yd

    def _row(self, entity: int) -> Row:
        return next(row for row in self._on(self._at[entity]) if row[0] == entity)

    def _on(self, hex: Hex) -> tuple[Row, ...]:
        """The bodies filed on ``hex``, in no promised order."""
        first = self._bodies.get(hex)
        if first is None:
            return ()
        others = self._crowds.get(hex)
        return (first,) if others is None else (first, *others)

    def _file(self, world: World, row: Row, multi: bool) -> None:
        """File a body where it stands: its own hex, and for one that may fill several (``multi``: a mount, a
        flier lying flat) every hex :func:`esper_motion.systems.gurps.shared.figure.occupied_hexes` gives it."""
        self._place(row, occupied_hexes(world, row[0]) if multi else (row[1].hex,))

    def _place(self, row: Row, hexes: tuple[Hex, ...]) -> None:
        entity = row[0]
        self._at[entity] = hexes[0]
        for hex in hexes:
            self._put(hex, row)
        if len(hexes) > 1:
            self._tails[entity] = hexes[1:]

    def _unfile(self, entity: int) -> Row:
        """Take a body off every hex it is filed under; return its row."""
        row = self._take(entity, self._at.pop(entity))
        for tail in self._tails.pop(entity, ()):
            self._take(entity, tail)
        return row

    def _put(self, hex: Hex, row: Row) -> None:
        if self._bodies.setdefault(hex, row) is not row:
            others = self._crowds.get(hex)
            if others is None:
                self._crowds[hex] = [row]
            else:
                others.append(row)
        self._occupied[hex] = self._occupied.get(hex, 0) + 1

    def _take(self, entity: int, hex: Hex) -> Row:
        row = self._bodies.get(hex)
        others = self._crowds.get(hex)
        if row is not None and row[0] == entity:
            if others is None:
                del self._bodies[hex]
            else:
                self._bodies[hex] = others.pop()
        else:
            found = next((index for index, other in enumerate(others or ()) if other[0] == entity), None)
            if others is None or found is None:
                raise WorldError(f"entity {entity} is not indexed on hex {hex}")
            row = others.pop(found)
        if others is not None and not others:
            del self._crowds[hex]
        left = self._occupied[hex] - 1
        if left:
            self._occupied[hex] = left
        else:
            del self._occupied[hex]
        return row


class IndexedSystem(System):
    """A system that reads and keeps up to date the spatial index the GURPS systems share: ``install`` makes one
    :class:`SpatialIndex` and gives it to every such system."""

    def __init__(self, index: SpatialIndex) -> None:
        super().__init__()
        self.index = index


def shared_index(world: World) -> SpatialIndex:
    """The spatial index the installed GURPS systems share (every :class:`IndexedSystem` holds it), brought up to
    date with ``world`` (:meth:`SpatialIndex.refresh`): for rules outside the MOVEMENT and CONTROL phases, and for
    checks a game asks for between steps, that need to know who stands where (a rider getting off, a mount
    turning).

    While a system runs the index is brought up to date once, at the first call of the run
    (:meth:`esper_motion.ecs.World.per_run`): what the systems change after that they tell it themselves
    (:meth:`SpatialIndex.move`, :meth:`~SpatialIndex.refile`, :func:`tell_index`), so a run that unseats many riders
    does not read the whole world again for each. Once the turn's walk has refreshed it, the runs after it in the
    same step refresh it only where a game's own system is installed (:func:`walked_index`).
    """
    index = _installed_index(world)
    world.per_run(shared_index, lambda: _bring_up_to_date(world, index))
    return index


def walked_index(world: World, index: SpatialIndex) -> None:
    """Bring ``index`` up to date with ``world`` at the start of the turn's walk (:meth:`SpatialIndex.refresh`),
    and mark it kept up to date by the systems for the rest of this step (:func:`shared_index`)."""
    index.refresh(world)
    index.kept = world.per_turn(walked_index, object)


def _bring_up_to_date(world: World, index: SpatialIndex) -> None:
    """Refresh ``index``, unless this step's walk refreshed it and only the library's own systems have run since:
    each of them tells the index what it moves, so re-reading every body would find nothing to re-file. A world
    running a game's own system refreshes at every run, as between steps (where ``per_turn`` is never the same)."""
    if index.kept is world.per_turn(walked_index, object) and all(system.trusted for system in world.systems):
        return
    index.refresh(world)


def tell_index(world: World, entity: int) -> None:
    """Tell the shared index, if the GURPS systems are installed, that ``entity`` got on or off a mount or turned
    in place (:meth:`SpatialIndex.update`). Between steps this changes nothing the next refresh would not."""
    index = _find_index(world)
    if index is not None:
        index.update(world, entity)


def _installed_index(world: World) -> SpatialIndex:
    index = _find_index(world)
    if index is None:
        raise WorldError(
            "the GURPS systems are not installed in this world: call esper_motion.systems.gurps.install(world)"
        )
    return index


def _find_index(world: World) -> SpatialIndex | None:
    return next((system.index for system in world.systems if isinstance(system, IndexedSystem)), None)


def _rings(center: Hex) -> Iterator[Hex]:
    """The hexes around ``center``, ring by ring outward (distance 1, 2, ...), each ring in a fixed order."""
    radius = 1
    while True:
        q, r = center[0] + DIRECTIONS[4][0] * radius, center[1] + DIRECTIONS[4][1] * radius
        for dq, dr in DIRECTIONS:
            for _ in range(radius):
                yield q, r
                q, r = q + dq, r + dr
        radius += 1


def _riders_and_multi(world: World) -> tuple[set[int], set[int]]:
    """The entities carried by a mount or vehicle (not filed: they go where their mount goes) and the bodies that
    may fill several hexes (fliers lying flat, mounts)."""
    riders = {entity for entity, (control,) in world.scan(Control) if control.carried_by is not None}
    multi = {entity for entity, (flight,) in world.scan(Flight) if flight.lying_flat}
    multi.update(entity for entity, _ in world.scan(Mount))
    return riders, multi


def entity_height_yd(world: World, entity: int) -> float:
    """How far ``entity`` rises above its own altitude: an ``Obstacle``'s ``height_yd``, a body's linear size
    for its Size Modifier (:func:`figure_height_yd`: SM 0 is 2 yards), or 2
    yards for a figure with neither, as a human stands."""
    obstacle = world.try_get(entity, Obstacle)
    if obstacle is not None:
        return obstacle.height_yd
    mover = world.try_get(entity, Mover)
    if mover is None:
        return 2.0  # the 2-yard row of the Size and Speed/Range Table: a human, SM 0
    return figure_height_yd(mover)

"""What several Spelljammer systems share: the options, the characters in order, the vegetation under a hex."""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from typing import Final

import esper

from esper_motion.components.motion import Position
from esper_motion.components.spelljammer import Mobility, RoundIntent, RoundState, Vegetation, VegetationZone
from esper_motion.ecs import World, WorldError
from esper_motion.ecs.hexgrid import Hex, distance
from esper_motion.systems.spelljammer.options import Options
from esper_motion.systems.spelljammer.rules import VEGETATION

Character = tuple[int, tuple[Mobility, RoundIntent, RoundState, Position]]
"""An entity the Spelljammer rules move, with its four components."""

Disc = tuple[Hex, int, Vegetation]
"""A zone given as a disc: its centre, its radius in hexes and its vegetation."""

CELL: Final = 16
"""Side, in hexes, of the square cells :class:`VegetationMap` files discs under."""

WIDE_CELLS: Final = 64
"""A disc spreading over more cells than this is kept in one list looked at for every hex."""

_THICKNESS: dict[Vegetation, Fraction] = {row.vegetation: row.tmr_fraction for row in VEGETATION}


def options_of(world: World) -> Options:
    """The Spelljammer options installed in ``world``; a clear error when the rule set is not installed."""
    options = world.rules.get("spelljammer")
    if not isinstance(options, Options):
        raise WorldError(
            "the Spelljammer rule set is not installed: call esper_motion.systems.spelljammer.install(world)"
        )
    return options


def characters() -> list[Character]:
    """Every character of the active esper context in initiative order: higher TMR first, then lower id."""
    found: list[Character] = list(esper.get_components(Mobility, RoundIntent, RoundState, Position))
    found.sort(key=lambda row: (-row[1][0].tmr, row[0]))
    return found


def is_character(entity: int) -> bool:
    """Whether ``entity`` exists in the active context with all four components of a character."""
    return esper.entity_exists(entity) and esper.has_components(entity, Mobility, RoundIntent, RoundState, Position)


class VegetationMap:
    """The vegetation on any hex, from every :class:`VegetationZone`; where zones overlap, the thickest wins.

    Thicker means a smaller fraction of TMR left (Spelljammer: Running, Shooting, Chasing and Fleeing >
    Restricted Movement). Discs are filed under the square cells of :data:`CELL` hexes their bounding box
    touches, so a lookup looks only at the discs near the hex, however many zones the scene has; a disc
    spreading over more than :data:`WIDE_CELLS` cells is looked at for every hex instead.
    """

    def __init__(self, zones: Iterable[tuple[Position, VegetationZone]]) -> None:
        self._listed: dict[Hex, Vegetation] = {}
        self._cells: dict[tuple[int, int], list[Disc]] = {}
        self._wide: list[Disc] = []
        for position, zone in zones:
            if zone.radius_hex is not None:
                self._file((position.hex, zone.radius_hex, zone.vegetation))
            for dq, dr in zone.hexes:
                covered = (position.q + dq, position.r + dr)
                self._listed[covered] = _thicker(self._listed.get(covered), zone.vegetation)

    def _file(self, disc: Disc) -> None:
        (q, r), radius, _ = disc  # every hex within the radius lies within it on both axial coordinates
        columns = range((q - radius) // CELL, (q + radius) // CELL + 1)
        rows = range((r - radius) // CELL, (r + radius) // CELL + 1)
        if len(columns) * len(rows) > WIDE_CELLS:
            self._wide.append(disc)
            return
        for column in columns:
            for row in rows:
                self._cells.setdefault((column, row), []).append(disc)

    @classmethod
    def of_active_context(cls) -> VegetationMap:
        """The map of every zone in the active esper context."""
        return cls(zone for _, zone in esper.get_components(Position, VegetationZone))

    def at(self, hex: Hex) -> Vegetation | None:
        """The vegetation on ``hex``, or None for open ground."""
        found = self._listed.get(hex)
        for discs in (self._cells.get((hex[0] // CELL, hex[1] // CELL), ()), self._wide):
            for centre, radius, vegetation in discs:
                if distance(centre, hex) <= radius:
                    found = _thicker(found, vegetation)
        return found


def _thicker(a: Vegetation | None, b: Vegetation) -> Vegetation:
    return b if a is None or _THICKNESS[b] < _THICKNESS[a] else a

"""The game's per-frame esper processors: ``esper.process(dt)`` runs them every
frame; esper-motion's systems run only when the game steps its world."""

from __future__ import annotations

import esper

from esper_motion.components import Position
from esper_motion.ecs import hexgrid

from components import Sprite

HEX_SIZE = 10.0
"""Pixels from a hex's centre to a corner."""

FINISH_Q = 10
"""The finish line: a runner past it leaves the game."""


class Glide(esper.Processor):
    """Each sprite closes most of the way to its entity's hex in a quarter second."""

    def process(self, dt: float) -> None:
        for _, (sprite, position) in esper.get_components(Sprite, Position):
            x, y = hexgrid.to_pixel(position.hex, HEX_SIZE)
            share = min(1.0, dt * 4)
            sprite.x += (x - sprite.x) * share
            sprite.y += (y - sprite.y) * share


class Finish(esper.Processor):
    """A runner past the finish line is deleted the esper way; the world despawns it."""

    def process(self, dt: float) -> None:
        for entity, position in esper.get_component(Position):
            if position.q >= FINISH_Q and esper.has_component(entity, Sprite):
                esper.delete_entity(entity)

"""The game's own components, beside esper-motion's: ``Health`` is registered, so a
save holds it; ``Sprite`` is what the frames redraw, marked unsaved, so a save leaves
it out."""

from __future__ import annotations

from dataclasses import dataclass

from esper_motion.ecs import register, unsaved


@register("first_game.Health")
@dataclass(slots=True)
class Health:
    """Hit points, lowered by the rules' collision events."""

    hp: int


@unsaved
@dataclass(slots=True)
class Sprite:
    """Where the entity is drawn, in pixels; it glides to its hex frame by frame."""

    x: float = 0.0
    y: float = 0.0

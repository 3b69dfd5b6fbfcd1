"""The game's per-frame esper processors: ``esper.process(dt)`` runs them every frame, with the frame's ``dt``.

esper-motion's systems are not among them: the world plays a turn only when the game calls ``world.step()``
(``main.py`` does, once a second), and ``world.step()`` never runs these.
"""

from __future__ import annotations

import esper

from components import Glide, Health, Look

HURT = (255, 70, 60)


class GlideSprites(esper.Processor):
    """Moves each sprite along its turn's path (:class:`Glide`), a little further every frame."""

    priority = 30

    def process(self, dt: float) -> None:
        for _, (look, glide) in esper.get_components(Look, Glide):
            glide.elapsed += dt
            look.sprite.center_x, look.sprite.center_y = glide.at()


class FlashHurt(esper.Processor):
    """Tints a sprite red for a moment after it took injury, fading back to its own colour."""

    priority = 20

    def process(self, dt: float) -> None:
        for _, (look, health) in esper.get_components(Look, Health):
            health.flash = max(0.0, health.flash - dt)
            k = health.flash / 0.6
            red, green, blue = (round(c + (h - c) * k) for c, h in zip(look.colour, HURT, strict=True))
            look.sprite.color = (red, green, blue)


class Labels(esper.Processor):
    """Keeps each name label above its sprite, with the HP the game's :class:`Health` shows."""

    priority = 10

    def process(self, dt: float) -> None:
        for entity, look in esper.get_component(Look):
            health = esper.try_component(entity, Health)
            text = f"{look.name} {health.hp}/{health.max_hp} HP" if health else look.name
            if look.label.text != text:
                look.label.text = text
            gap = look.sprite.height / 2 + 4
            below = -gap - look.label.content_height if look.label_below else gap
            look.label.position = (round(look.sprite.center_x), round(look.sprite.center_y + below))  # crisp text

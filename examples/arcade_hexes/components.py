"""The game's own components. None is registered with esper-motion, so a step never copies, checks or rolls
them back: they hold what the game likes (an arcade sprite, a text label) and stay the very objects it made."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import arcade

Point = tuple[float, float]


@dataclass
class Health:
    """Hit points as the game shows them, lowered by esper-motion's damage events (``Collided``, ``FallDamage``,
    ``CrushedByMount``); ``flash`` is how long the sprite still shows the last hurt, in seconds."""

    hp: int
    max_hp: int
    flash: float = 0.0

    def hurt(self, injury: int) -> None:
        """Take ``injury`` points of injury (never below 0 HP shown) and flash."""
        if injury > 0:
            self.hp = max(0, self.hp - injury)
            self.flash = 0.6


@dataclass
class Look:
    """How an entity is drawn: its arcade sprite, its colour and its name label (above the sprite, or below)."""

    name: str
    sprite: arcade.Sprite
    colour: tuple[int, int, int]
    label: arcade.Text
    label_below: bool = False


@dataclass
class Glide:
    """The pixel path the sprite follows this turn, from where it stood (``points[0]``) to the entity's hex
    (``points[-1]``), over ``seconds``; ``elapsed`` counts up each frame."""

    points: list[Point]
    seconds: float = 0.75
    elapsed: float = 0.0

    @property
    def done(self) -> bool:
        """Whether the sprite has arrived."""
        return self.elapsed >= self.seconds

    def at(self) -> Point:
        """Where the sprite is now: ``elapsed / seconds`` of the way along the path, by distance."""
        return along(self.points, min(1.0, self.elapsed / self.seconds))


@dataclass
class Plan:
    """What the keys ask of an entity next turn: a throttle and a turn in hexsides (left positive)."""

    throttle: int = 0
    turn: int = 0


def along(points: list[Point], t: float) -> Point:
    """The point a fraction ``t`` (0 to 1) of the way along the polyline ``points``, by length."""
    if t >= 1.0 or len(points) == 1:
        return points[-1]
    lengths = [((bx - ax) ** 2 + (by - ay) ** 2) ** 0.5 for (ax, ay), (bx, by) in pairwise(points)]
    left = t * sum(lengths)
    for ((ax, ay), (bx, by)), length in zip(pairwise(points), lengths, strict=True):
        if left <= length and length > 0:
            k = left / length
            return (ax + (bx - ax) * k, ay + (by - ay) * k)
        left -= length
    return points[-1]

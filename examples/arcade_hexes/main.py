"""An arcade game that embeds esper-motion: a runner, and a rider on a horse, on a hex field with a wall.

The game is an ordinary esper game: its own esper context, its own components (``components.py``: Health, the
sprite and its glide) and its own per-frame processors (``processors.py``), run by ``esper.process(dt)`` every
frame. esper-motion's GURPS movers live in the same context (``World.attach``), and the game plays their turn
itself, on a fixed timestep: ``on_update`` adds up each frame's ``dt`` and calls ``world.step()`` once a second.
After each turn the sprites glide along the hexes the turn's ``Moved`` events name (``hexgrid.to_pixel``), and
the game's ``Health`` goes down with esper-motion's damage events (``Collided``, ``FallDamage``,
``CrushedByMount``).

Keys plan the next turn: Up/Down change the runner's throttle, Left/Right turn it a hexside; W/S and A/D do the
same for the horse (its rider holds the reins). Esc quits.

``python examples/arcade_hexes/main.py --headless --frames N`` plays N frames of 1/60 s with no display (each
updated, the last drawn), pressing the keys of :data:`DEMO_KEYS`, and prints JSON: each sprite's pixel position,
its entity's hex and Health, and the turn log (``--png PATH`` also saves the last frame).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import sys
from typing import Any

if "--headless" in sys.argv[1:]:
    os.environ["ARCADE_HEADLESS"] = "1"  # must be set before arcade is imported

import arcade
import esper

from esper_motion.components import (
    Condition,
    Control,
    Facing,
    Intent,
    Mount,
    Mover,
    Obstacle,
    Position,
    Posture,
    Rider,
    Skills,
    Velocity,
)
from esper_motion.ecs import IntentError, RuleValueError, World, hexgrid
from esper_motion.ecs.hexgrid import Hex
from esper_motion.systems.gurps import Collided, CrushedByMount, FallDamage, Moved, Rules, install, seat

from components import Glide, Health, Look, Plan, Point
from processors import FlashHurt, GlideSprites, Labels

WIDTH, HEIGHT = 1040, 640
HEX_SIZE = 15.0
"""Pixels from a hex's centre to a corner."""
ORIGIN: Point = (30.0, 36.0)
"""Where the centre of hex (0, 0) is drawn: a sprite's pixel is ``ORIGIN + hexgrid.to_pixel(hex, HEX_SIZE)``."""
COLUMNS, ROWS = 38, 22
TURN_SECONDS = 1.0
"""One GURPS turn is a second of combat: the game steps the world once per second of accumulated frame time."""
FRAME = 1 / 60
"""The frame time of headless mode."""
FONT = "Liberation Sans"
SEED = 5

KEYS: dict[int, tuple[str, str, int]] = {
    arcade.key.UP: ("Runner", "throttle", 1),
    arcade.key.DOWN: ("Runner", "throttle", -1),
    arcade.key.LEFT: ("Runner", "turn", 1),
    arcade.key.RIGHT: ("Runner", "turn", -1),
    arcade.key.W: ("Horse", "throttle", 1),
    arcade.key.S: ("Horse", "throttle", -1),
    arcade.key.A: ("Horse", "turn", 1),
    arcade.key.D: ("Horse", "turn", -1),
}
"""Each key: whose plan it changes, which field, by how much."""

DEMO_KEYS: dict[int, tuple[int, ...]] = {
    **{60 * t + 10: (arcade.key.UP, arcade.key.W) for t in range(4)},
    **{60 * t + 10: (arcade.key.UP,) for t in range(4, 7)},
    60 * 5 + 10: (arcade.key.UP, arcade.key.A),
    60 * 6 + 10: (arcade.key.UP, arcade.key.D),
    60 * 8 + 10: (arcade.key.S,) * 5,
}
"""Headless mode's key presses, by frame: the runner sprints into the wall; the horse speeds up, swerves left
and straightens, and is then asked to slow down by more than it goes (refused: the turn is played with no
orders)."""


def pixel(hex: Hex) -> Point:
    """The centre of ``hex`` on screen."""
    x, y = hexgrid.to_pixel(hex, HEX_SIZE)
    return (ORIGIN[0] + x, ORIGIN[1] + y)


def field_hexes() -> list[Hex]:
    """The hexes of the field: a rectangle on screen, ``COLUMNS`` wide and ``ROWS`` high."""
    return [(column - row // 2, row) for row in range(ROWS) for column in range(COLUMNS)]


def corners(hex: Hex, scale: float = 1.0) -> list[Point]:
    """The six corners of a pointy-top hex."""
    x, y = pixel(hex)
    r = HEX_SIZE * scale
    return [(x + r * math.cos(a), y + r * math.sin(a)) for a in (math.radians(30 + 60 * i) for i in range(6))]


class HexGame(arcade.Window):
    """The game: a window over one esper context that esper-motion's world shares."""

    def __init__(self, *, visible: bool = True) -> None:
        super().__init__(WIDTH, HEIGHT, "esper-motion in an arcade game", visible=visible)
        self.background_color = (24, 28, 36, 255)
        # --8<-- [start:attach]
        esper.switch_world("arcade-hexes")  # the game's own context; the world joins it
        self.world = World.attach(seed=SEED)
        install(self.world, Rules.basic())
        # --8<-- [end:attach]
        self.sprites: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        self.log: list[str] = []
        self.clock = 0.0
        self.wall = [(24 - row // 2, row) for row in range(12, 17)]
        for hex in self.wall:
            self.world.spawn(Position(*hex), Obstacle(hp=200, hard=True, height_yd=2.0))
        self.runner = self.body("Runner", (2 - 14 // 2, 14), (110, 170, 230), 7, hp=11)
        self.world.add(self.runner, Mover(basic_move=6, dx=12, hp=11, basic_speed=6.0))
        self.horse = self.body("Horse", (4 - 4 // 2, 4), (176, 122, 79), 8, hp=25)
        self.world.add(
            self.horse, Mover(basic_move=8, dx=10, st=25, hp=25, size_modifier=1, enhanced=True, top_speed=16)
        )
        self.world.add(self.horse, Mount(training="war-trained"))
        self.rider = self.body("Rider", (3 - 4 // 2, 4), (220, 224, 232), 6, hp=12, steered=False, label_below=True)
        self.world.add(self.rider, Mover(basic_move=5, dx=12, hp=12, basic_speed=6.0))
        self.world.add(self.rider, Skills({"Riding": 13}))
        self.world.add(self.rider, Rider())
        seat(self.world, self.rider, self.horse)
        self.world.get(self.rider, Glide).points = [pixel(self.world.get(self.rider, Position).hex)]
        esper.add_processor(GlideSprites())
        esper.add_processor(FlashHurt())
        esper.add_processor(Labels())
        esper.process(0.0)  # place every sprite and label before the first frame
        # --8<-- [start:handlers]
        self.world.on(Moved, self.on_moved)
        self.world.on(Collided, self.on_collided)
        self.world.on(FallDamage, lambda event: self.hurt(event.entity, event.injury))
        self.world.on(CrushedByMount, lambda event: self.hurt(event.rider, event.injury))
        # --8<-- [end:handlers]
        self.grid = self.build_grid()
        self.status = arcade.Text("", 14, HEIGHT - 24, (226, 230, 236), 12, font_name=FONT, bold=True)
        self.help = arcade.Text(
            "Runner: Up/Down throttle, Left/Right turn.  Horse: W/S throttle, A/D turn.  A turn a second.  Esc quits.",
            14,
            HEIGHT - 44,
            (150, 158, 172),
            10,
            font_name=FONT,
        )
        self.lines = [arcade.Text("", 14, HEIGHT - 64 - 14 * i, (200, 205, 214), 9, font_name=FONT) for i in range(3)]

    def body(
        self,
        name: str,
        hex: Hex,
        colour: tuple[int, int, int],
        radius: int,
        *,
        hp: int,
        steered: bool = True,
        label_below: bool = False,
    ) -> int:
        """A GURPS mover standing at ``hex`` facing east, with the game's sprite, label, glide and Health."""
        sprite = arcade.SpriteCircle(radius, (255, 255, 255, 255))
        sprite.color = colour
        self.sprites.append(sprite)
        label = arcade.Text(name, 0, 0, (226, 230, 236), 9, font_name=FONT, anchor_x="center")
        game = [Health(hp, hp), Look(name, sprite, colour, label, label_below), Glide([pixel(hex)])]
        if steered:
            game.append(Plan())
        return self.world.spawn(
            Position(*hex), Facing(0), Velocity(0), Control(), Intent(), Posture(), Condition(), *game
        )

    def build_grid(self) -> arcade.shape_list.ShapeElementList[Any]:
        """The field's hexes and the wall, drawn once."""
        shapes: arcade.shape_list.ShapeElementList[Any] = arcade.shape_list.ShapeElementList()
        for hex in field_hexes():
            shapes.append(arcade.shape_list.create_polygon(corners(hex, 0.96), (44, 51, 62, 255)))
        for hex in self.wall:
            shapes.append(arcade.shape_list.create_polygon(corners(hex, 0.96), (120, 120, 130, 255)))
        return shapes

    # -- the fixed timestep --------------------------------------------------------------------------------

    # --8<-- [start:timestep]
    def on_update(self, delta_time: float) -> None:
        """Play a turn for each second of frame time gone by, then run the game's per-frame processors."""
        self.clock += delta_time
        while self.clock >= TURN_SECONDS - 1e-9:
            self.clock -= TURN_SECONDS
            self.play_turn()
        esper.process(delta_time)

    def play_turn(self) -> None:
        """Write the planned intents, step the world, and start each sprite gliding along its turn."""
        for _, glide in esper.get_component(Glide):
            glide.points, glide.elapsed = [glide.points[-1]], 0.0
        plans = esper.get_components(Plan, Intent)
        for _, (plan, intent) in plans:
            intent.throttle, intent.turn = plan.throttle, plan.turn
        try:
            events = self.world.step()
        except (IntentError, RuleValueError) as error:  # the world is as it was: play the turn with no orders
            self.say(f"refused: {error}")
            for _, (_, intent) in plans:
                intent.throttle, intent.turn = 0, 0
            events = self.world.step()
        for _, (plan, _) in plans:
            plan.throttle, plan.turn = 0, 0
        self.settle()
        for event in events:
            if not isinstance(event, Moved) or event.path:
                self.say(event.describe())

    # --8<-- [end:timestep]

    def say(self, line: str) -> None:
        """Log a line, with the entities' names for their ids (the bodies without a Look are the wall's)."""
        names = {entity: look.name for entity, look in esper.get_component(Look)}
        self.log.append(re.sub(r"entity (\d+)", lambda found: names.get(int(found[1]), "the wall"), line))
        del self.log[:-500]

    # -- what the world's events do to the game ------------------------------------------------------------

    # --8<-- [start:reacting]
    def on_moved(self, event: Moved) -> None:
        """The sprite follows the hexes its entity entered this turn."""
        glide = self.world.try_get(event.entity, Glide)
        if glide is not None:
            glide.points.extend(pixel(hex) for hex in event.path)

    def on_collided(self, event: Collided) -> None:
        """Both sides of a collision take their injury."""
        self.hurt(event.entity, event.injury_taken)
        self.hurt(event.struck, event.injury_dealt)

    def hurt(self, entity: int, injury: int) -> None:
        """The game's own Health takes esper-motion's injury (walls have none)."""
        health = self.world.try_get(entity, Health)
        if health is not None:
            health.hurt(injury)

    # --8<-- [end:reacting]

    def settle(self) -> None:
        """Make every glide end on its entity's hex: a body moved without a ``Moved`` path (knocked back, thrown)
        goes straight there; a seated rider rides its mount's glide, from its old seat to its new one."""
        for _, (glide, position, control) in esper.get_components(Glide, Position, Control):
            if control.carried_by is None and glide.points[-1] != pixel(position.hex):
                glide.points.append(pixel(position.hex))
        for _, (glide, position, control) in esper.get_components(Glide, Position, Control):
            if control.carried_by is None:
                continue
            mount = self.world.get(control.carried_by, Glide).points
            (sx, sy), (mx, my) = glide.points[0], mount[0]
            (ex, ey), (nx, ny) = pixel(position.hex), mount[-1]
            start, end = (sx - mx, sy - my), (ex - nx, ey - ny)
            steps = max(1, len(mount) - 1)
            glide.points = [
                (x + start[0] + (end[0] - start[0]) * i / steps, y + start[1] + (end[1] - start[1]) * i / steps)
                for i, (x, y) in enumerate(mount if len(mount) > 1 else [mount[0], mount[0]])
            ]
            glide.points[-1] = (ex, ey)

    # -- drawing and keys ----------------------------------------------------------------------------------

    def on_draw(self) -> None:
        """The field, the horse's long body, the sprites, their labels and the status lines."""
        self.clear()
        self.grid.draw()
        for _, (look, glide) in esper.get_components(Look, Glide):
            if len(glide.points) > 1:  # this turn's path, faintly
                arcade.draw_line_strip(glide.points, (*look.colour, 90), 2)
        dx, dy = hexgrid.to_pixel(hexgrid.DIRECTIONS[self.world.get(self.horse, Facing).direction], HEX_SIZE)
        head = self.world.get(self.horse, Look).sprite
        tail = (head.center_x - 2 * dx, head.center_y - 2 * dy)
        arcade.draw_line(head.center_x, head.center_y, *tail, (140, 96, 62), HEX_SIZE * 1.1)
        arcade.draw_circle_filled(*tail, HEX_SIZE * 0.55, (140, 96, 62))
        self.sprites.draw()
        for _, look in esper.get_component(Look):
            look.label.draw()
        plans = ", ".join(
            f"{self.world.get(e, Look).name} throttle {p.throttle:+d} turn {p.turn:+d}"
            for e, p in esper.get_component(Plan)
        )
        self.status.text = f"Turn {self.world.turn}    next: {plans}"
        self.status.draw()
        self.help.draw()
        for text, line in zip(self.lines, (self.log[::-1] + [""] * 3)[:3], strict=True):
            text.text = line
            text.draw()

    def on_key_press(self, symbol: int, modifiers: int) -> None:
        """Plan the next turn (see the module docstring); Esc quits."""
        if symbol == arcade.key.ESCAPE:
            self.close()
        elif symbol in KEYS:
            name, field, by = KEYS[symbol]
            for _, (look, plan) in esper.get_components(Look, Plan):
                if look.name == name:
                    setattr(plan, field, getattr(plan, field) + by)

    def report(self) -> dict[str, Any]:
        """Where each sprite is and what the world says of its entity, for headless mode."""
        sprites = []
        for entity, (look, glide, health) in sorted(esper.get_components(Look, Glide, Health)):
            sprites.append(
                {
                    "name": look.name,
                    "entity": entity,
                    "x": look.sprite.center_x,
                    "y": look.sprite.center_y,
                    "arrived": glide.done,
                    "hex": list(self.world.get(entity, Position).hex),
                    "hp": health.hp,
                    "max_hp": health.max_hp,
                    "injury": self.world.get(entity, Condition).injury,
                }
            )
        return {
            "turn": self.world.turn,
            "hex_size": HEX_SIZE,
            "origin": list(ORIGIN),
            "sprites": sprites,
            "log": self.log,
        }


def main(argv: list[str] | None = None) -> int:
    """Open the window, or with ``--headless`` play ``--frames`` frames without one and print JSON."""
    made = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    made.add_argument("--headless", action="store_true", help="no window: play --frames frames and print JSON")
    made.add_argument("--frames", type=int, default=650, help="frames of 1/60 s to play headless")
    made.add_argument("--png", help="headless: save the last frame to this PNG file")
    args = made.parse_args(argv)
    displays = os.environ.keys() & {"DISPLAY", "WAYLAND_DISPLAY"}
    if not args.headless and sys.platform.startswith("linux") and not displays:
        print("no display to open a window on: run with --headless --frames N", file=sys.stderr)
        return 2
    if not args.headless:
        HexGame()
        arcade.run()
        return 0
    game = HexGame(visible=False)
    for frame in range(args.frames):
        for key in DEMO_KEYS.get(frame, ()):
            game.on_key_press(key, 0)
        game.on_update(FRAME)
    game.on_draw()  # drawing every frame would cost ten times more without a GPU: the last one is drawn
    if args.png:
        arcade.get_image(0, 0, WIDTH, HEIGHT).convert("RGB").save(args.png)
    print(json.dumps(game.report(), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""esper-motion inside a plain esper game, without arcade: the game's own context, component (``Dot``, a sprite
gliding along each turn's path) and per-frame processor taking ``dt``; our GURPS movers; a fixed timestep (a turn
per second of frame time); an esper handler lowering the game's ``Health``. Prints JSON: where each dot is."""

import json
from dataclasses import dataclass

import esper

from esper_motion.components import Condition, Control, Facing, Intent, Mover, Obstacle, Position, Posture, Velocity
from esper_motion.ecs import World, hexgrid
from esper_motion.systems.gurps import Collided, install

SIZE, FRAME = 10.0, 1 / 60  # pixels from a hex's centre to a corner; the frame time


@dataclass
class Dot:  # the game's sprite; not registered with esper-motion, so never copied or rolled back
    path: list[tuple[float, float]]
    t: float = 1.0
    x: float = 0.0
    y: float = 0.0


@dataclass
class Health:
    hp: int


class Glide(esper.Processor):  # the game's per-frame processor: each dot glides its path in half a second
    def process(self, dt: float) -> None:
        for _, dot in esper.get_component(Dot):
            dot.t = min(1.0, dot.t + dt / 0.5)
            k = dot.t * (len(dot.path) - 1)
            i = min(int(k), len(dot.path) - 2)
            (ax, ay), (bx, by) = dot.path[i], dot.path[i + 1]
            dot.x, dot.y = ax + (bx - ax) * (k - i), ay + (by - ay) * (k - i)


def on_collided(event: Collided) -> None:  # an esper handler, under our namespaced event name
    if esper.has_component(event.entity, Health):
        esper.component_for_entity(event.entity, Health).hp -= event.injury_taken


esper.switch_world("game")
world = World.attach(seed=5)  # our movers join the game's context
install(world)
esper.add_processor(Glide())
esper.set_handler(Collided.esper_name, on_collided)
sprint = {}  # entity: for how many turns the game speeds it up
for hex, move, turns in (((0, 0), 6, 6), ((0, 3), 4, 3)):
    body = (Position(*hex), Facing(0), Velocity(0), Mover(basic_move=move), Control(), Intent(), Posture(), Condition())
    sprint[world.spawn(*body, Dot([hexgrid.to_pixel(hex, SIZE)] * 2), Health(10))] = turns
world.spawn(Position(12, 0), Obstacle())
clock = 0.0
for _ in range(60 * 8 + 40):  # eight turns and two thirds of a second
    clock += FRAME
    if clock >= 1 - 1e-9:  # a turn per second of frame time
        clock -= 1
        for entity, (intent,) in world.query(Intent):
            intent.throttle = int(world.turn < sprint[entity])  # the game's orders for the turn
        world.step()
        for _, (dot, control, position) in world.query(Dot, Control, Position):  # the turn's path, to its hex
            hexes = control.path + ([position.hex] if control.path[-1:] != [position.hex] else [])
            dot.path, dot.t = [dot.path[-1], *(hexgrid.to_pixel(h, SIZE) for h in hexes)], 0.0
    esper.process(FRAME)
dots = world.query(Dot, Position, Health, Condition)
rows = [dict(entity=e, x=d.x, y=d.y, hex=p.hex, hp=h.hp, injury=c.injury, arrived=d.t >= 1) for e, (d, p, h, c) in dots]
print(json.dumps({"turn": world.turn, "hex_size": SIZE, "origin": [0.0, 0.0], "sprites": rows}))

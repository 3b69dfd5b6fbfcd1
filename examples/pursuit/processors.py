"""The game's per-frame esper processors: ``Steer`` turns the player's keys into its ``Intent``, ``Referee`` ends
the chase when a hound comes alongside. The hounds need none: their ``Pursue`` goals have their intents written
by the rules' planner at the start of each turn (``world.step()``)."""

from __future__ import annotations

from dataclasses import replace
from typing import Final

import esper

from esper_motion.components import Intent, Position, Pursue
from esper_motion.ecs import MotionError, World, hexgrid
from esper_motion.systems.gurps import preview

from components import Caught, Keys

KEY_FIELDS: Final = {"up": ("throttle", 1), "down": ("throttle", -1), "left": ("turn", 1), "right": ("turn", -1)}
"""What each key changes in the player's intent for the next turn, and by how much."""


class Steer(esper.Processor):
    """Each key changes the player's intent for the next turn; a change the intent's fields or the rules refuse
    (``preview`` raises what the step would) is undone and logged."""

    def __init__(self, world: World, log: list[str]) -> None:
        self.world = world
        self.log = log

    def process(self, dt: float) -> None:
        for entity, (keys, intent) in esper.get_components(Keys, Intent):
            for key in keys.pressed:
                name, by = KEY_FIELDS[key]
                before = getattr(intent, name)
                try:
                    replace(intent, **{name: before + by})  # the field's own checks, on a copy
                    setattr(intent, name, before + by)
                    preview(self.world, entity)  # the rules' checks, as the step makes them
                except MotionError as error:
                    setattr(intent, name, before)
                    self.log.append(f"turn {self.world.turn + 1}: {key} refused: {error}")
            keys.pressed.clear()


class Referee(esper.Processor):
    """The chase ends when a hound stands next to the player: the player is marked ``Caught``."""

    def __init__(self, world: World) -> None:
        self.world = world

    def process(self, dt: float) -> None:
        for player, (_, position) in esper.get_components(Keys, Position):
            if esper.has_component(player, Caught):
                continue
            for hound, (goal, where) in esper.get_components(Pursue, Position):
                if goal.target == player and hexgrid.distance(where.hex, position.hex) <= 1:
                    esper.add_component(player, Caught(hound, self.world.turn))
                    break

"""The interactive demo window: an arcade View over a :class:`esper_motion.demos.render.Stage`.

Keys: Space steps a turn, P plays and pauses, Tab selects the next entity, T takes over the selected entity (its
goal set aside, the keys steer it, the others follow their goals) and hands it back, Left and Right steer the
selected entity for the next turn (a hexside left or right, as the rule set's intent allows; a Spelljammer pursuer
ends its chase, turning a hexside off the way to its runner), + and - change its throttle, Escape quits. Each
turn's movement animates along the paths the entities actually took; the selected entity's plan toward its goal is
drawn ahead of it, with each turn's odds.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Final

import arcade

from esper_motion.components import Position
from esper_motion.demos.render import Renderer, Stage, open_window
from esper_motion.ecs import MotionError, hexgrid

ANIMATION_SECONDS: Final = 0.9
"""How long one turn's movement takes on screen."""

PAUSE_SECONDS: Final = 0.5
"""How long play rests between turns."""

_STEER_KEYS: Final = {arcade.key.LEFT: 1, arcade.key.RIGHT: -1}
_THROTTLE_KEYS: Final = {
    arcade.key.PLUS: 1,
    arcade.key.EQUAL: 1,
    arcade.key.NUM_ADD: 1,
    arcade.key.MINUS: -1,
    arcade.key.NUM_SUBTRACT: -1,
    arcade.key.UP: 1,
    arcade.key.DOWN: -1,
}


class DemoView(arcade.View):
    """Shows a stage, animates each turn, and turns keys into the selected entity's next intent."""

    def __init__(self, stage: Stage) -> None:
        super().__init__()
        self.stage = stage
        self.renderer = Renderer(stage)
        self.progress = 1.0
        self.playing = False
        self.rest = 0.0
        self.renderer.hint = self.renderer.keys_help()

    def on_draw(self) -> None:
        """Draw the scene part-way through the running animation."""
        self.renderer.draw(self.progress)

    def on_update(self, delta_time: float) -> None:
        """Advance the animation; while playing, step the next turn once it has finished."""
        if self.progress < 1.0:
            self.progress = min(1.0, self.progress + delta_time / ANIMATION_SECONDS)
            return
        if self.playing:
            self.rest += delta_time
            if self.rest >= PAUSE_SECONDS:
                self.rest = 0.0
                self.advance()

    def advance(self) -> None:
        """Resolve one turn and start animating it; a turn the rules refuse is shown, not fatal."""
        try:
            self.stage.step()
        except MotionError as error:
            self.playing = False
            self.renderer.message = f"turn refused: {error}"
            return
        self.progress = 0.0
        self.renderer.message = ""

    def on_key_press(self, symbol: int, modifiers: int) -> None:
        """Space, P, Tab, T, arrows, +/- and Escape (see the module docstring)."""
        if symbol == arcade.key.SPACE:
            self.playing = False
            self.progress = 1.0
            self.advance()
        elif symbol == arcade.key.P:
            self.playing = not self.playing
            self.renderer.message = "playing" if self.playing else "paused"
        elif symbol == arcade.key.TAB:
            self.stage.select_next()
        elif symbol == arcade.key.T:
            self.renderer.message = self.stage.take_over()
        elif symbol in _STEER_KEYS:
            rule_set = self.stage.scene.spec.rule_set
            self.nudge(rule_set.steer, _STEER_KEYS[symbol], wrap=rule_set.steer_wraps, ends=rule_set.steer_ends)
        elif symbol in _THROTTLE_KEYS:
            self.nudge(self.stage.scene.spec.rule_set.throttle, _THROTTLE_KEYS[symbol])
        elif symbol == arcade.key.ESCAPE:
            self.window.close()

    def nudge(self, field: str | None, by: int, *, wrap: int | None = None, ends: str | None = None) -> None:
        """Change one field of the selected entity's intent for the next turn by ``by``, if the intent allows it (a
        rider that steers its mount: the mount's intent, :meth:`~esper_motion.demos.render.Stage.steers`).

        A field that counts from 0 each turn (a turn, a throttle) starts from 0; one that wraps round (an
        absolute heading, ``wrap`` = 6) starts from its present value. Field ``ends`` of the intent, when it names
        an entity (a Spelljammer chase), is ended: set to None, the heading starting from the way to that entity.
        """
        selected = self.stage.selected
        if selected is None or field is None:
            self.renderer.message = "this rule set has no such intent"
            return
        driver = self.stage.scene.driver
        names = self.stage.scene.names
        for member in self.stage.pair(selected):
            goal = self.stage.goal(member)
            if goal is not None:
                self.renderer.message = f"{names[member]} follows its {type(goal).__name__} goal: T takes it over"
                return
        entity = self.stage.steers(selected)
        name = names[entity]
        current = self.stage.world.try_get(entity, driver.intent_type)
        if current is None:
            self.renderer.message = f"{name} has no {driver.intent_type.__name__} to steer"
            return
        wanted: dict[str, Any] = dict(driver.manual.get(entity, {}))
        start = wanted.get(field, (getattr(current, field) or 0) if wrap else 0)
        named = None if ends is None else wanted.get(ends, getattr(current, ends))
        if ends is not None and named is not None:
            wanted[ends] = None
            start = _way_to(self.stage.world, entity, named, start)
        wanted[field] = (start + by) % wrap if wrap else start + by
        try:
            dataclasses.replace(current, **wanted)
        except MotionError as error:
            self.renderer.message = f"{name}: {error}"
            return
        driver.manual[entity] = wanted
        plan = ", ".join(f"{key} {value:+d}" if value is not None else f"{key} ends" for key, value in wanted.items())
        self.renderer.message = f"{name} next turn: {plan}"


def _way_to(world: Any, entity: int, other: int, otherwise: int) -> int:
    """The hexside of ``entity``'s hex toward ``other``'s (the first step of the line between them), or
    ``otherwise`` when one has no place or they share a hex."""
    here, there = (world.try_get(who, Position) for who in (entity, other))
    if here is None or there is None or here.hex == there.hex:
        return otherwise
    way = hexgrid.direction_to(here.hex, hexgrid.line(here.hex, there.hex)[1])
    return otherwise if way is None else way


def play(stage: Stage) -> None:
    """Open a window on ``stage`` and run until it is closed (:class:`~esper_motion.demos.render.NoWindowError`
    when none can open)."""
    window = open_window(f"esper-motion: {stage.scene.spec.title}")
    window.show_view(DemoView(stage))
    arcade.run()

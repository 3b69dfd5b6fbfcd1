"""Drawing a scene with arcade: the map, terrain, entities and panels, and headless PNG and GIF output.

Everything is drawn from components, by duck typing, so a new scene (or a new component) renders without edits:

- ``Position`` places an entity; its ``altitude_yd`` casts a shadow below and right of it, further the higher
  it is, and adds a label;
- ``Facing`` puts a nose on the body; ``Velocity`` draws an arrow along its heading, longer when faster;
- any component with a ``path`` (a list of hexes) is the route the last turn took, and movement animates along it;
- any component with a ``mount`` (an entity id) makes the entity a rider, drawn on that mount;
- any enum field named ``state`` or ``mode`` away from its resting value (normal, standing, hover, walk), and any
  true flag named in :data:`FLAG_BADGES`, shows as a badge (high speed, out of control, stalled, prone, ...);
- terrain entities are styled by their components' names (footing, obstacle, vegetation).

Importing this module imports arcade. Set ``ARCADE_HEADLESS=1`` first to render without a display.
"""

from __future__ import annotations

import dataclasses
import enum
import itertools
import math
import os
import re
import textwrap
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import arcade
from PIL import Image

from esper_motion.components import Facing, Obstacle, Position, Velocity
from esper_motion.demos.scene import Scene, named, turn_log
from esper_motion.demos.scene_file import column, rectangle
from esper_motion.ecs import MotionError, hexgrid, name_of
from esper_motion.ecs.hexgrid import Hex

WIDTH: Final = 1280
HEIGHT: Final = 800
FONT: Final = "Liberation Sans"

RGB = tuple[int, int, int]
RGBA = tuple[int, int, int, int]

BACKGROUND: Final[RGBA] = (22, 26, 33, 255)
PANEL: Final[RGBA] = (30, 35, 44, 255)
GROUND: Final[RGBA] = (47, 54, 66, 255)
GRID: Final[RGBA] = (78, 88, 104, 255)
TEXT: Final[RGBA] = (226, 230, 236, 255)
DIM: Final[RGBA] = (150, 158, 172, 255)
SHADOW: Final[RGBA] = (8, 10, 14, 210)
EVENT_MARK: Final[RGBA] = (255, 120, 90, 255)
PLAN: Final[RGBA] = (120, 214, 255, 255)
READOUT: Final[RGBA] = (255, 214, 90, 255)

HEADER_H: Final = 34
BOTTOM_H: Final = 262
LOG_W: Final = 740
LOG_LINE: Final = 14
CARD_W: Final = 270
MARGIN: Final = 10

TERRAIN_STYLES: Final[tuple[tuple[str, RGBA, RGBA], ...]] = (
    # (word in a component's registered name, fill, outline)
    ("Obstacle", (112, 112, 120, 255), (190, 190, 198, 255)),
    ("Vegetation", (46, 112, 62, 255), (86, 160, 96, 255)),
    ("Footing", (112, 80, 48, 255), (150, 110, 70, 255)),
)
"""How terrain looks, by the first word found in the registered names of a terrain entity's components."""

OTHER_TERRAIN: Final[tuple[RGBA, RGBA]] = ((84, 70, 110, 255), (130, 110, 160, 255))

LOW_OBSTACLE: Final[tuple[RGBA, RGBA]] = ((168, 136, 72, 255), (222, 190, 120, 255))
"""A crossable obstacle (``Obstacle.crossable``: a log, a low fence a mover jumps at a run) looks like wood, apart
from the walls and boulders it cannot jump."""

FLAG_BADGES: Final[tuple[str, ...]] = (
    "out_of_control",
    "stalled",
    "spooked",
    "panicked",
    "stunned",
    "wiped_out",
    "loose",
    "exhausted",
    "fallen",
)
"""Boolean component fields (or properties) that show as a badge of the same name, underscores as spaces, when
true."""

RESTING_STATES: Final[frozenset[str]] = frozenset({"normal", "standing", "hover", "walk"})
"""Values of ``state`` and ``mode`` enums that need no badge (the ordinary way to stand, move or fly)."""

TEXT_BADGES: Final[tuple[str, ...]] = ("charging",)
"""Text fields that show as a badge, field name and value (``charging away``), when set."""

BADGE_COLOURS: Final[dict[str, RGB]] = {
    "high speed": (230, 140, 30),
    "out of control": (214, 48, 49),
    "stalled": (200, 60, 170),
    "spooked": (140, 90, 220),
    "panicked": (140, 90, 220),
    "prone": (90, 120, 160),
    "stunned": (214, 48, 49),
    "unconscious": (120, 30, 30),
    "charging away": (214, 48, 49),
    "sprint": (230, 140, 30),
    "fast sprint": (214, 48, 49),
    "charging toward": (214, 48, 49),
}


def _rgba(colour: Sequence[int], alpha: int = 255) -> RGBA:
    return (colour[0], colour[1], colour[2], alpha)


# --- what an entity shows ------------------------------------------------------------------------------


def badges(world: Any, entity: int) -> list[str]:
    """The state badges of ``entity``, read generically from its components (intents are wishes, not state)."""
    found: list[str] = []
    for component in world.components(entity):
        if not dataclasses.is_dataclass(component) or type(component).__name__.endswith("Intent"):
            continue
        for f in dataclasses.fields(component):
            value = getattr(component, f.name)
            if f.name in ("state", "mode") and isinstance(value, enum.Enum):
                text = str(value.value).replace("_", " ").lower()
                if text not in RESTING_STATES:
                    found.append(text)
            elif f.name == "conscious" and value is False:
                found.append("unconscious")
        found.extend(flag.replace("_", " ") for flag in FLAG_BADGES if getattr(component, flag, None) is True)
        found.extend(f"{key} {value}" for key in TEXT_BADGES if isinstance(value := getattr(component, key, None), str))
    return list(dict.fromkeys(found))


def attribute(world: Any, entity: int, name: str) -> Any:
    """The first value of a field called ``name`` among the entity's components, or None."""
    for component in world.components(entity):
        if hasattr(component, name):
            return getattr(component, name)
    return None


@dataclass(frozen=True, slots=True)
class Pose:
    """Where an entity stands at one moment: its hex, height above the ground and facing."""

    hex: Hex
    altitude_yd: float
    facing: int | None


def pose(world: Any, entity: int) -> Pose | None:
    """The entity's pose now, or None if it has no Position (or no longer exists)."""
    if not world.exists(entity):
        return None
    position = world.try_get(entity, Position)
    if position is None:
        return None
    facing = world.try_get(entity, Facing)
    return Pose(position.hex, float(position.altitude_yd), None if facing is None else facing.direction)


# --- geometry ------------------------------------------------------------------------------------------


class Layout:
    """Where the map sits in the window and how big its hexes are (fitted to the map area)."""

    def __init__(self, hexes: Iterable[Hex], left: float, bottom: float, width: float, height: float) -> None:
        unit = [hexgrid.to_pixel(h, 1.0) for h in hexes]
        xs = [p[0] for p in unit]
        ys = [p[1] for p in unit]
        half = math.sqrt(3) / 2
        span_x = max(xs) - min(xs) + 2 * half
        span_y = max(ys) - min(ys) + 2
        self.size = min(width / span_x, height / span_y, 40.0)
        self.x0 = left + (width - span_x * self.size) / 2 - (min(xs) - half) * self.size
        self.y0 = bottom + (height - span_y * self.size) / 2 - (min(ys) - 1) * self.size
        self.bottom = bottom

    def centre(self, hex: Hex) -> tuple[float, float]:
        """The pixel centre of ``hex``."""
        x, y = hexgrid.to_pixel(hex, self.size)
        return (self.x0 + x, self.y0 + y)

    def corners(self, hex: Hex, scale: float = 1.0) -> list[tuple[float, float]]:
        """The six corners of ``hex`` (pointy-top), optionally shrunk towards its centre."""
        cx, cy = self.centre(hex)
        r = self.size * scale
        return [
            (cx + r * math.cos(math.radians(30 + 60 * i)), cy + r * math.sin(math.radians(30 + 60 * i)))
            for i in range(6)
        ]

    def shadow(self, y: float, altitude_yd: float) -> tuple[float, float]:
        """Where the shadow of a body at height ``y`` falls at ``altitude_yd``, as an offset from the body.

        Below and right of it, further the higher it flies (square root, at most 2.5 hexes); above and right
        where the map ends below.
        """
        drop = min(self.size * 0.55 * math.sqrt(max(altitude_yd, 0.0)), self.size * 2.5)
        down = y - drop >= self.bottom
        return (drop * 0.45, -drop if down else drop)


def along(points: Sequence[tuple[float, float]], t: float) -> tuple[float, float, float]:
    """The point a fraction ``t`` along a polyline, and the heading (degrees) of the segment it lies on."""
    if len(points) == 1:
        return (points[0][0], points[0][1], math.nan)
    lengths = [math.dist(a, b) for a, b in itertools.pairwise(points)]
    total = sum(lengths)
    goal = min(max(t, 0.0), 1.0) * total
    for (a, b), length in zip(itertools.pairwise(points), lengths, strict=True):
        if goal <= length or (a, b) == (points[-2], points[-1]):
            k = 0.0 if length == 0 else min(goal / length, 1.0)
            angle = math.degrees(math.atan2(b[1] - a[1], b[0] - a[0])) if length else math.nan
            return (a[0] + (b[0] - a[0]) * k, a[1] + (b[1] - a[1]) * k, angle)
        goal -= length
    return (points[-1][0], points[-1][1], math.nan)  # pragma: no cover - the loop always returns


def so_far(points: Sequence[tuple[float, float]], t: float) -> list[tuple[float, float]]:
    """The part of a polyline from its start to the point a fraction ``t`` along it."""
    if t >= 1.0 or len(points) < 2:
        return list(points)
    x, y, _ = along(points, t)
    goal = min(max(t, 0.0), 1.0) * sum(math.dist(a, b) for a, b in itertools.pairwise(points))
    kept = [points[0]]
    for a, b in itertools.pairwise(points):
        step = math.dist(a, b)
        if goal <= step:
            break
        goal -= step
        kept.append(b)
    kept.append((x, y))
    return kept


# --- the stage: a scene, its log and the last turn's movement ---------------------------------------------


@dataclass(slots=True)
class Motion:
    """One entity's movement over the last turn: the hexes it went through and its heights at both ends."""

    hexes: list[Hex]
    start_alt: float
    end_alt: float


@dataclass(frozen=True, slots=True)
class Shown:
    """What the window shows of an entity's plan: the plan (``turns``, each with its ``path`` and
    ``failure_chance``, and ``reaches``; :attr:`esper_motion.ecs.SceneSupport.plan`) and its goal's name, or
    ``why`` there is none to show."""

    plan: Any
    goal: str
    why: str = ""


class Stage:
    """A scene being played: steps it, keeps the turn log, remembers each turn's paths for animation, and lets the
    player take over an entity with a goal (:meth:`take_over`)."""

    def __init__(self, scene: Scene) -> None:
        self.scene = scene
        self.log: list[str] = [f"{scene.spec.title}: {scene.spec.description}", f"cast: {scene.cast()}"]
        self.motions: dict[int, Motion] = {}
        self.events: list[Any] = []
        self.readouts: dict[int, list[str]] = {e: scene.readouts(e) for e in scene.actors}
        actors = scene.actors
        self.selected: int | None = actors[0] if actors else None
        self.steered: dict[
            int, Any
        ] = {}  # the goals set aside (None: it had none), by entity, while the player steers it
        self._taken: dict[int, tuple[int, ...]] = {}  # the entities taken over together, by each of them
        self._plans: dict[tuple[int, int], Shown] = {}  # this turn's plans, by turn and entity

    @property
    def world(self) -> Any:
        """The scene's world."""
        return self.scene.world

    def step(self) -> list[str]:
        """Resolve one turn; return its log lines (also kept in :attr:`log`)."""
        before = {e: pose(self.world, e) for e in self.scene.actors}
        events = self.scene.step()
        lines = turn_log(self.world.turn, events, self.scene.names)
        for entity in self.scene.actors:
            readouts = self.scene.readouts(entity)
            if readouts != self.readouts.get(entity, []):
                lines.extend(f"  {self.scene.names[entity]}: {line}" for line in readouts)
            self.readouts[entity] = readouts
        self.log.extend(lines)
        self.events = events
        self._plans = {}
        self.motions = {}
        for entity, old in before.items():
            new = pose(self.world, entity)
            if old is None or new is None:
                continue
            route = attribute(self.world, entity, "path")
            hexes = [h for h in route if isinstance(h, tuple)] if isinstance(route, list) else []
            if not hexes:
                hexes = hexgrid.line(old.hex, new.hex)
            if hexes[0] != old.hex:
                hexes.insert(0, old.hex)
            if hexes[-1] != new.hex:
                hexes.extend(hexgrid.line(hexes[-1], new.hex)[1:])
            self.motions[entity] = Motion(hexes, old.altitude_yd, new.altitude_yd)
        return lines

    def select_next(self) -> None:
        """Select the next actor (Tab)."""
        actors = self.scene.actors
        if not actors:
            return
        index = actors.index(self.selected) + 1 if self.selected in actors else 0
        self.selected = actors[index % len(actors)]

    def goal(self, entity: int) -> Any:
        """The goal component of ``entity`` (one of the rule set's ``goals``), or None."""
        for kind in self.scene.spec.rule_set.goals:
            found = self.world.try_get(entity, kind)
            if found is not None:
                return found
        return None

    def pair(self, entity: int) -> tuple[int, ...]:
        """The entities taken over with ``entity``: a rider that steers its mount and the mount, rider first
        (:attr:`esper_motion.ecs.SceneSupport.steering_pair`), or ``entity`` alone."""
        steering = self.scene.spec.rule_set.steering_pair
        found = None if steering is None else steering(self.world, entity)
        return (entity,) if found is None else found

    def steers(self, entity: int) -> int:
        """The entity whose intent the keys change while ``entity`` is selected: the mount of a rider that steers
        it, else ``entity``."""
        return self.pair(entity)[-1]

    def decider(self, entity: int) -> int:
        """The entity whose goal moves ``entity``: of a rider that steers its mount and the mount, the rider when it
        holds a goal, else the mount when it does (as the planner has it); else ``entity``."""
        return next((member for member in self.pair(entity) if self.goal(member) is not None), entity)

    def take_over(self) -> str:
        """Take over the selected entity, or hand it back (T); say what happened, in words.

        Taken over, its goal is set aside (kept here, taken off the entity) and the keys steer it, while the others
        follow their goals; handed back, its goal is restored as it was left. A rider that steers its mount is taken
        over with it (either selected): both goals are set aside, the keys steer the mount, and both are handed back
        together. A goal whose entity is gone meanwhile is refused by the world: the entity is handed back without
        it.
        """
        entity = self.selected
        if entity is None:
            return "nothing to take over"
        pair = self._taken.get(entity, self.pair(entity))
        names = " and ".join(self.scene.names[e] for e in pair)
        if entity in self._taken:
            said = []
            for member in pair:
                del self._taken[member]
                goal = self.steered.pop(member)
                if goal is None:
                    continue
                name = self.scene.names[member]
                try:
                    self.world.add(member, goal)
                except MotionError as error:
                    said.append(f"{name} is handed back without its {type(goal).__name__} goal: {error}")
                else:
                    said.append(f"{name} follows its {type(goal).__name__} goal again")
            return "; ".join(said) or f"{names} handed back"
        goals = {member: self.goal(member) for member in pair}
        if all(goal is None for goal in goals.values()):
            return f"{names} {'has' if len(pair) == 1 else 'have'} no goal to set aside: the keys steer it"
        for member, goal in goals.items():
            self.steered[member] = goal
            self._taken[member] = pair
            if goal is not None:
                self.world.remove(member, type(goal))
        if len(pair) == 1:
            return f"you steer {names}; its {type(goals[entity]).__name__} goal is set aside (T hands it back)"
        aside = ", ".join(f"{self.scene.names[m]}'s {type(g).__name__}" for m, g in goals.items() if g is not None)
        mount = self.scene.names[pair[-1]]
        return f"you steer {names}: the keys steer {mount}; set aside: {aside} (T hands them back)"

    def shown_plan(self, entity: int) -> Shown | None:
        """The plan of ``entity`` toward its goal over the next turns, found once a turn and kept until the next step
        (a take-over changes nothing a plan reads: the others are predicted at their present velocity); a mount its
        rider steers shows the rider's plan for it. None for an entity without a goal (or with its goal set aside),
        or in a rule set that plans none."""
        planner = self.scene.spec.rule_set.plan
        decider = self.decider(entity)
        goal = self.goal(decider)
        if planner is None or goal is None:
            return None
        key = (self.world.turn, entity)
        if key not in self._plans:
            what = type(goal).__name__
            if decider != entity:
                what = f"{self.scene.names[decider]}'s {what}"
            try:
                self._plans[key] = Shown(planner(self.world, decider), what)
            except MotionError as error:
                self._plans[key] = Shown(None, what, str(error))
        return self._plans[key]

    def plan_lines(self, entity: int) -> list[str]:
        """What the side panel says of ``entity``'s goal: who steers it, and for the selected entity its plan, turn
        by turn with the chance that every roll is made (:func:`odds`)."""
        if entity in self.steered:
            goal = self.steered[entity]
            return [f"steered by you ({type(goal).__name__} set aside)" if goal is not None else "steered by you"]
        shown = self.shown_plan(entity) if entity == self.selected else None
        if shown is None:
            return []
        if shown.plan is None:
            return [f"{shown.goal}: no plan: {named(shown.why, self.scene.names)}"]
        turns = shown.plan.turns
        if not turns:
            return [f"{shown.goal}: no move its caution allows"]
        end = "goal reached" if shown.plan.reaches else "goal not reached yet"
        steps = ", ".join(f"{index} {odds(turn.failure_chance)}" for index, turn in enumerate(turns, 1))
        planned = f"{len(turns)} turn{'s' if len(turns) > 1 else ''} planned"
        body = shown.plan.entity
        steers = body != entity and self.decider(entity) == entity and body in self.scene.names
        steering = f", steering {self.scene.names[body]}" if steers else ""
        return [f"{shown.goal}{steering}, {planned}, {end}: {steps}"]


def odds(failure_chance: Any) -> str:
    """A planned turn's odds in words: ``sure`` (no roll, or none that can fail), or the chance that every roll is
    made, ``98.1%``."""
    if failure_chance == 0:
        return "sure"
    return f"{float(1 - failure_chance):.1%}"


# --- drawing -------------------------------------------------------------------------------------------


GROW_LIMIT: Final = 2
"""How many map widths (and heights) beyond each edge of the map :meth:`Renderer.grow` takes in at most."""


class Renderer:
    """Draws a :class:`Stage` into the current arcade window, ``progress`` of the way through the last turn."""

    def __init__(self, stage: Stage) -> None:
        arcade.resources.load_liberation_fonts()
        self.stage = stage
        spec = stage.scene.spec
        self.area = (spec.rows(), range(spec.width))
        self.ground = spec.map_hexes()
        self.layout = self._fit()
        self._static: arcade.shape_list.ShapeElementList[Any] | None = None
        self._terrain_key: tuple[int, ...] = ()
        self.message = ""
        self.hint = ""  # shown where a message goes while there is none: the window's key summary
        self.seen_altitude = False

    def _fit(self) -> Layout:
        return Layout(
            self.ground,
            MARGIN + 40,
            BOTTOM_H + MARGIN + 16,
            WIDTH - 2 * MARGIN - 80,
            HEIGHT - HEADER_H - BOTTOM_H - 2 * MARGIN - 40,
        )

    def grow(self) -> bool:
        """Grow the ground drawn (:attr:`ground`, the scene's map at first) to take in every actor and the paths
        of the last turn that went off it, with a hex to spare, and fit the layout to it again; say whether it
        grew. The world has no edge: a body steered off the map stays in view, the map drawn smaller, as far as
        :data:`GROW_LIMIT` maps beyond each edge (so drawing costs at most that many maps' hexes); a body farther
        off is out of view."""
        world = self.stage.world
        spots = [hex for motion in self.stage.motions.values() for hex in motion.hexes]
        spots += [where.hex for entity in self.stage.scene.actors if (where := pose(world, entity)) is not None]
        rows, columns = self.area
        off = [(hex[1], column(hex)) for hex in spots if hex[1] not in rows or column(hex) not in columns]
        if not off:
            return False
        spec = self.stage.scene.spec
        most_rows, most_columns = spec.rows(), range(spec.width)
        reach_r, reach_c = GROW_LIMIT * spec.height, GROW_LIMIT * spec.width
        area = (
            range(
                max(most_rows.start - reach_r, min([rows.start, *(r - 1 for r, _ in off)])),
                min(most_rows.stop + reach_r, max([rows.stop, *(r + 2 for r, _ in off)])),
            ),
            range(
                max(most_columns.start - reach_c, min([columns.start, *(c - 1 for _, c in off)])),
                min(most_columns.stop + reach_c, max([columns.stop, *(c + 2 for _, c in off)])),
            ),
        )
        if area == self.area:
            return False
        self.area = area
        self.ground = rectangle(*self.area)
        self.layout = self._fit()
        return True

    # -- static layer: the grid and the terrain -------------------------------------------------------

    def terrain_style(self, entity: int) -> tuple[RGBA, RGBA]:
        """Fill and outline of a terrain entity, from its components' registered names."""
        names = []
        for component in self.stage.world.components(entity):
            if isinstance(component, Obstacle) and component.crossable:
                return LOW_OBSTACLE
            try:
                names.append(name_of(type(component)))
            except ValueError:
                names.append(type(component).__name__)
        for word, fill, outline in TERRAIN_STYLES:
            if any(word in n for n in names):
                return fill, outline
        return OTHER_TERRAIN

    def _build_static(self) -> arcade.shape_list.ShapeElementList[Any]:
        shapes: arcade.shape_list.ShapeElementList[Any] = arcade.shape_list.ShapeElementList()
        layout = self.layout
        for hex in self.ground:
            shapes.append(arcade.shape_list.create_polygon(layout.corners(hex), GROUND))
        zones = self.stage.scene.zones
        for entity in zones:
            where = pose(self.stage.world, entity)
            if where is None:
                continue
            fill, outline = self.terrain_style(entity)
            shapes.append(arcade.shape_list.create_polygon(layout.corners(where.hex, 0.94), fill))
            shapes.append(arcade.shape_list.create_line_loop(layout.corners(where.hex, 0.8), outline, 1.5))
        for hex in self.ground:
            shapes.append(arcade.shape_list.create_line_loop(layout.corners(hex), GRID, 1))
        return shapes

    def draw(self, progress: float = 1.0) -> None:
        """Clear the window and draw the whole picture."""
        arcade.get_window().clear(color=BACKGROUND)
        key = tuple(e for e in self.stage.scene.zones if self.stage.world.exists(e))
        if self.grow() or self._static is None or key != self._terrain_key:
            self._static, self._terrain_key = self._build_static(), key
        self._static.draw()
        self.draw_map_labels()
        if progress >= 1.0:
            self.draw_event_marks()
        placed = self.draw_entities(progress)
        self.draw_header()
        self.draw_side(placed)
        self.draw_log()

    def draw_map_labels(self) -> None:
        """Label each terrain zone once, centred under its lowest hexes."""
        seen: dict[str, list[tuple[float, float]]] = {}
        for entity, label in self.stage.scene.zones.items():
            where = pose(self.stage.world, entity)
            if where is not None:
                seen.setdefault(label, []).append(self.layout.centre(where.hex))
        for label, points in seen.items():
            low = min(y for _, y in points)
            xs = [x for x, y in points if y == low]
            text(label, sum(xs) / len(xs), low - self.layout.size * 1.55, DIM, 9, anchor_x="center")

    def draw_event_marks(self) -> None:
        """Mark where the last turn's events happened, named in words: every event with an ``at`` hex, or with
        an ``entity`` and ``after_yd`` (that many yards along the entity's path)."""
        marks: dict[Hex, list[str]] = {}
        for event in self.stage.events:
            at = getattr(event, "at", None)
            motion = self.stage.motions.get(getattr(event, "entity", -1))
            after = getattr(event, "after_yd", None)
            if at is None and motion is not None and isinstance(after, int) and 0 <= after < len(motion.hexes):
                at = motion.hexes[after]  # so many yards along the path the entity took
            if isinstance(at, tuple) and len(at) == 2:
                words = _words(type(event).__name__)
                if words not in marks.setdefault(at, []):
                    marks[at].append(words)
        size = self.layout.size
        for hex, labels in marks.items():
            x, y = self.layout.centre(hex)
            arcade.draw_polygon_outline(self.layout.corners(hex, 0.92), EVENT_MARK, 2.5)
            for i, label in enumerate(labels):
                text(label, x - size * 0.9, y + size * 0.55 + 12 * i, EVENT_MARK, 9, anchor_x="right", bold=True)

    # -- entities -------------------------------------------------------------------------------------

    def placement(self, entity: int, progress: float) -> tuple[float, float, float, float] | None:
        """Ground point (x, y), altitude and heading of ``entity`` at ``progress`` through the last turn."""
        now = pose(self.stage.world, entity)
        if now is None:
            return None
        facing_angle = math.nan if now.facing is None else 60.0 * now.facing
        motion = self.stage.motions.get(entity)
        if motion is None or progress >= 1.0:
            x, y = self.layout.centre(now.hex)
            return (x, y, now.altitude_yd, facing_angle)
        points = [self.layout.centre(h) for h in motion.hexes]
        x, y, heading = along(points, progress)
        altitude = motion.start_alt + (motion.end_alt - motion.start_alt) * min(max(progress, 0.0), 1.0)
        return (x, y, altitude, facing_angle if math.isnan(heading) else heading)

    def draw_entities(self, progress: float) -> dict[int, tuple[float, float]]:
        """Draw every actor; return where each body was drawn (for tests and labels)."""
        world = self.stage.world
        size = self.layout.size
        placed: dict[int, tuple[float, float, float, float]] = {}
        mounts: dict[int, int] = {}
        for entity in self.stage.scene.actors:
            spot = self.placement(entity, progress)
            if spot is not None:
                placed[entity] = spot
            mount = attribute(world, entity, "mount")
            if isinstance(mount, int) and not isinstance(mount, bool) and world.exists(mount) and mount != entity:
                mounts[entity] = mount
        for entity, mount in mounts.items():
            seat, front = pose(world, entity), pose(world, mount)
            if mount in placed and seat is not None and front is not None:
                # a rider keeps its place on the mount (its seat, as the rules put it) wherever the mount is drawn
                mx, my, malt, mheading = placed[mount]
                (sx, sy), (fx, fy) = self.layout.centre(seat.hex), self.layout.centre(front.hex)
                placed[entity] = (mx + sx - fx, my + sy - fy, malt, placed.get(entity, (0, 0, 0, mheading))[3])
        bodies: dict[int, tuple[float, float]] = {}
        shadows: list[tuple[float, float, float, float]] = []
        # trails of the last turn, under everything, as far as the animation has gone
        for entity, motion in self.stage.motions.items():
            if entity in mounts or len(motion.hexes) < 2 or entity not in placed:
                continue
            colour = self.stage.scene.colours.get(entity, (200, 200, 200))
            points = so_far([self.layout.centre(h) for h in motion.hexes], progress)
            if len(points) > 1:
                arcade.draw_line_strip(points, _rgba(colour, 90), max(2.0, size * 0.22))
        planned = self.draw_plan() if progress >= 1.0 else {}  # a plan starts where the turn ends
        order = sorted(placed, key=lambda e: (e in mounts, placed[e][2]))
        for entity in order:
            x, y, altitude, heading = placed[entity]
            colour = self.stage.scene.colours.get(entity, (200, 200, 200))
            radius = max(size * (0.42 if entity in mounts else 0.62), 5.0 if entity in mounts else 8.0)
            if altitude > 0:
                dx, dy = self.layout.shadow(y, altitude)
                arcade.draw_line(x, y, x + dx, y + dy, (200, 200, 210, 110), 1)
                arcade.draw_ellipse_filled(x + dx, y + dy, radius * 2.0, radius * 1.0, SHADOW)
                arcade.draw_ellipse_outline(x + dx, y + dy, radius * 2.0, radius * 1.0, (150, 156, 170, 200), 1)
                shadows.append((x + dx - radius, y + dy - radius / 2, x + dx + radius, y + dy + radius / 2))
            by = y
            if progress >= 1.0:  # velocity and turning radius are end-of-turn figures: shown once it is over
                self.draw_velocity(entity, x, by, radius)
                self.draw_ticks(entity, x, y)
            if entity == self.stage.selected:
                arcade.draw_circle_filled(x, by, radius + 4, (255, 255, 255, 70))
                arcade.draw_circle_outline(x, by, radius + 4, (255, 255, 255, 255), 2)
            if not math.isnan(heading):
                nose = [
                    _polar(x, by, radius * 1.8, heading),
                    _polar(x, by, radius * 0.9, heading + 42),
                    _polar(x, by, radius * 0.9, heading - 42),
                ]
                arcade.draw_polygon_filled(nose, _rgba(colour))
                arcade.draw_polygon_outline(nose, (15, 15, 20, 255), 1.5)
            wheels = attribute(world, entity, "wheels")
            length = attribute(world, entity, "hexes")
            if isinstance(length, int) and length >= 2 and entity not in mounts:
                # a body of several hexes: its Position is the front hex, the rest trails behind it
                back = _polar(
                    x,
                    by,
                    self.layout.size * math.sqrt(3) * (length - 1),
                    (0.0 if math.isnan(heading) else heading) + 180,
                )
                arcade.draw_line(x, by, *back, (15, 15, 20, 255), radius * 1.7 + 3)
                arcade.draw_circle_filled(*back, radius * 0.85 + 1.5, (15, 15, 20, 255))
                arcade.draw_line(x, by, *back, _rgba(colour), radius * 1.7)
                arcade.draw_circle_filled(*back, radius * 0.85, _rgba(colour))
            if isinstance(wheels, int) and wheels >= 3:
                self.draw_vehicle(x, by, radius, 0.0 if math.isnan(heading) else heading, colour)
            else:
                arcade.draw_circle_filled(x, by, radius, _rgba(colour))
                arcade.draw_circle_outline(x, by, radius, (15, 15, 20, 255), 1.5)
            bodies[entity] = (x, by)
        taken = [(x - size * 0.7, y - size * 0.7, x + size * 0.7, y + size * 0.7) for x, y in bodies.values()]
        taken.extend(shadows)
        self.draw_plan_labels(planned, taken)
        for entity in order:
            x, by = bodies[entity]
            self.draw_labels(entity, x, by, placed[entity][2], rider=entity in mounts, taken=taken)
        return bodies

    def draw_plan(self) -> dict[Hex, str]:
        """The selected entity's plan, from where the body it moves stands: the hexes it means to enter, a dot on
        each, and a ring at the end of each planned turn. Return the label of each ring, by hex: the turns that end
        there and their odds (:func:`odds`), for :meth:`draw_plan_labels`."""
        entity = self.stage.selected
        shown = None if entity is None else self.stage.shown_plan(entity)
        if shown is None or shown.plan is None:
            return {}
        now = pose(self.stage.world, shown.plan.entity)  # a rider's plan moves its mount
        if now is None:
            return {}
        size = self.layout.size
        points = [self.layout.centre(now.hex)]
        ends: dict[Hex, list[str]] = {}
        here = now.hex
        for index, turn in enumerate(shown.plan.turns, 1):
            points.extend(self.layout.centre(hex) for hex in turn.path)
            here = turn.path[-1] if turn.path else here
            ends.setdefault(here, []).append(f"{index} {odds(turn.failure_chance)}")
        if len(points) > 1:
            arcade.draw_line_strip(points, _rgba(PLAN, 150), 2)
        for x, y in points[1:]:
            arcade.draw_circle_filled(x, y, max(size * 0.12, 2.0), _rgba(PLAN, 220))
        for hex in ends:
            arcade.draw_circle_outline(*self.layout.centre(hex), max(size * 0.4, 5.0), _rgba(PLAN), 2)
        return {hex: ", ".join(labels) for hex, labels in ends.items()}

    def draw_plan_labels(self, labels: dict[Hex, str], taken: list[tuple[float, float, float, float]]) -> None:
        """Each ring's label beside its hex, above or below it on the right or the left, where it overlaps nothing
        in ``taken`` (the boxes of the bodies and the labels placed so far), to which it is added, and stays inside
        the window."""
        size = self.layout.size
        for hex, words in labels.items():
            x, y = self.layout.centre(hex)
            width = text_width(words, 8.5, bold=True)
            right, left, up, down = size * 0.5, -size * 0.5 - width, size * 0.35, -size * 0.35 - 11
            boxes = [(x + dx, y + dy, x + dx + width, y + dy + 11) for dy in (up, down) for dx in (right, left)]
            free = [b for b in boxes if b[0] >= 0 and b[2] <= WIDTH and not any(_overlap(b, o) for o in taken)]
            box = free[0] if free else boxes[0]
            taken.append(box)
            text(words, box[0], box[1], _rgba(PLAN), 8.5, bold=True)

    def draw_vehicle(self, x: float, y: float, radius: float, heading: float, colour: RGB) -> None:
        """A wheeled body: a box along its heading with four wheels."""

        def box(length: float, width: float, dx: float = 0.0, dy: float = 0.0) -> list[tuple[float, float]]:
            cos, sin = math.cos(math.radians(heading)), math.sin(math.radians(heading))
            cx, cy = x + dx * cos - dy * sin, y + dx * sin + dy * cos
            corners = ((length, width), (-length, width), (-length, -width), (length, -width))
            return [(cx + a * cos - b * sin, cy + a * sin + b * cos) for a, b in corners]

        for dx in (-0.75, 0.75):
            for dy in (-0.72, 0.72):
                arcade.draw_polygon_filled(
                    box(radius * 0.3, radius * 0.16, dx * radius, dy * radius), (15, 15, 20, 255)
                )
        body = box(radius * 1.25, radius * 0.68)
        arcade.draw_polygon_filled(body, _rgba(colour))
        arcade.draw_polygon_outline(body, (15, 15, 20, 255), 1.5)
        arcade.draw_polygon_filled(box(radius * 0.28, radius * 0.5, radius * 0.55), (30, 40, 55, 220))

    def draw_velocity(self, entity: int, x: float, y: float, radius: float) -> None:
        """An arrow along the velocity's heading: one hex of length per 2 yd/s."""
        velocity = self.stage.world.try_get(entity, Velocity)
        if velocity is None or velocity.yps == 0:
            return
        angle = 60.0 * velocity.heading
        length = radius + self.layout.size * math.sqrt(3) * velocity.yps / 2
        end = _polar(x, y, length, angle)
        arcade.draw_line(*_polar(x, y, radius, angle), *end, (250, 250, 250, 230), 2.5)
        head = self.layout.size * 0.55
        arcade.draw_triangle_filled(
            *_polar(*end, head * 0.6, angle),
            *_polar(*end, head * 0.6, angle + 140),
            *_polar(*end, head * 0.6, angle - 140),
            (250, 250, 250, 230),
        )

    def draw_ticks(self, entity: int, x: float, y: float) -> None:
        """One tick on each hex ahead that must still be run straight before the next turn."""
        left = self.stage.scene.yards_before_turn(entity)
        facing = self.stage.world.try_get(entity, Facing)
        if not left or facing is None:
            return
        now = pose(self.stage.world, entity)
        if now is None:
            return
        hex = now.hex
        angle = 60.0 * facing.direction
        for _ in range(min(left, 30)):
            hex = hexgrid.neighbour(hex, facing.direction)
            cx, cy = self.layout.centre(hex)
            a = _polar(cx, cy, self.layout.size * 0.45, angle + 90)
            b = _polar(cx, cy, self.layout.size * 0.45, angle - 90)
            arcade.draw_line(*a, *b, (255, 214, 90, 230), 2)

    def draw_labels(
        self,
        entity: int,
        x: float,
        y: float,
        altitude: float,
        *,
        rider: bool,
        taken: list[tuple[float, float, float, float]],
    ) -> None:
        """Name, speed, altitude and badges in one block beside the body, where it overlaps nothing drawn so far.

        ``taken`` holds the boxes (left, bottom, right, top) of the bodies and of the labels already placed; the
        block tries below, above, right, left and the corners in turn, and is added to ``taken``.
        """
        world = self.stage.world
        name = self.stage.scene.names.get(entity, str(entity))
        velocity = world.try_get(entity, Velocity)
        parts = [name]
        if velocity is not None and not rider:
            parts.append(f"{velocity.yps} yd/s")
        if altitude > 0 and not rider:
            parts.append(f"{altitude:g} yd up")
        caption = "  ".join(parts)
        shown = [b for b in badges(world, entity) if not (rider and b == "sitting")]
        widths = [text_width(b.upper(), 8, bold=True) + 10 for b in shown]
        badge_row = sum(widths) + 4 * max(len(widths) - 1, 0)
        width = max(text_width(caption, 10, bold=True), badge_row)
        height = 14 + (18 if shown else 0)
        gap = max(self.layout.size * 0.62, 8.0) + 5
        spots = (
            (-width / 2, -gap - height),
            (-width / 2, gap),
            (gap, -height / 2),
            (-gap - width, -height / 2),
            (gap * 0.7, -gap - height),
            (gap * 0.7, gap),
            (-gap * 0.7 - width, -gap - height),
            (-gap * 0.7 - width, gap),
        )
        boxes = [(x + dx, y + dy, x + dx + width, y + dy + height) for dx, dy in spots]
        box = next((b for b in boxes if not any(_overlap(b, other) for other in taken)), boxes[0])
        taken.append(box)
        left, bottom, right, _ = box
        centre = (left + right) / 2
        text(caption, centre, bottom + 2, TEXT, 10, anchor_x="center", bold=True)
        bx = centre - badge_row / 2
        for badge, w in zip(shown, widths, strict=True):
            colour = BADGE_COLOURS.get(badge, (110, 118, 130))
            arcade.draw_lrbt_rectangle_filled(bx, bx + w, bottom + 16, bottom + 31, _rgba(colour))
            text(badge.upper(), bx + w / 2, bottom + 19, (255, 255, 255, 255), 8, anchor_x="center", bold=True)
            bx += w + 4

    # -- panels ---------------------------------------------------------------------------------------

    def draw_header(self) -> None:
        """Title, turn, rules and seed across the top."""
        spec = self.stage.scene.spec
        top = HEIGHT - HEADER_H
        arcade.draw_lrbt_rectangle_filled(0, WIDTH, top, HEIGHT, PANEL)
        text(spec.title, MARGIN, top + 10, TEXT, 14, bold=True)
        world = self.stage.world
        info = f"turn {world.turn}   rules {spec.rules}   seed {self.stage.scene.seed}"
        text(info, WIDTH - MARGIN, top + 11, DIM, 11, anchor_x="right")
        if self.message:
            text(self.message, WIDTH / 2, top + 11, (255, 214, 90, 255), 11, anchor_x="center")
        elif self.hint:
            text(self.hint, WIDTH / 2, top + 11, DIM, 11, anchor_x="center")

    def draw_side(self, bodies: dict[int, tuple[float, float]]) -> None:
        """Entity cards and the legend, bottom right."""
        left = MARGIN * 2 + LOG_W
        top = BOTTOM_H
        arcade.draw_lrbt_rectangle_filled(left, WIDTH - MARGIN, MARGIN, top, PANEL)
        y = top - 22
        world = self.stage.world
        for entity in self.stage.scene.actors:
            colour = self.stage.scene.colours.get(entity, (200, 200, 200))
            arcade.draw_circle_filled(left + 16, y + 6, 7, _rgba(colour))
            if entity == self.stage.selected:
                arcade.draw_circle_outline(left + 16, y + 6, 10, (255, 255, 255, 255), 2)
            text(self.stage.scene.names[entity], left + 32, y, TEXT, 11, bold=True)
            velocity = world.try_get(entity, Velocity)
            facts = []
            if velocity is not None:
                facts.append(f"{velocity.yps} yd/s")
            where = pose(world, entity)
            if where is not None and where.altitude_yd > 0:
                facts.append(f"alt {where.altitude_yd:g} yd")
            injury = attribute(world, entity, "injury")
            if isinstance(injury, int) and injury > 0:
                facts.append(f"injury {injury}")
            ahead = self.stage.scene.yards_before_turn(entity)
            if ahead:
                facts.append(f"turn in {ahead} yd")
            facts.extend(badges(world, entity))
            rows = [(row, DIM) for row in textwrap.wrap(", ".join(facts) or "at rest", 40)]
            rows += [(row, READOUT) for line in self.stage.scene.readouts(entity) for row in textwrap.wrap(line, 40)]
            rows += [(row, PLAN) for line in self.stage.plan_lines(entity) for row in textwrap.wrap(line, 40)]
            for index, (row, colour_of_row) in enumerate(rows):
                text(row, left + 32, y - 14 - 13 * index, colour_of_row, 9)
            y -= 24 + 13 * len(rows)
        x = left + CARD_W
        y = top - 22
        text("LEGEND", x, y, DIM, 9, bold=True)
        y -= 19
        seen: dict[str, int] = {}
        for entity, label in self.stage.scene.zones.items():
            if label not in seen and world.exists(entity):
                seen[label] = entity
        for label, entity in seen.items():
            fill, outline = self.terrain_style(entity)
            hexagon = [
                (x + 7 + 8 * math.cos(math.radians(30 + 60 * i)), y + 5 + 8 * math.sin(math.radians(30 + 60 * i)))
                for i in range(6)
            ]
            arcade.draw_polygon_filled(hexagon, fill)
            arcade.draw_polygon_outline(hexagon, outline, 1)
            text(label, x + 22, y, TEXT, 9.5)
            y -= 17
        actors = self.stage.scene.actors
        self.seen_altitude = self.seen_altitude or any(
            (where := pose(world, e)) is not None and where.altitude_yd > 0 for e in actors
        )
        legend = (
            ("arrow", "velocity: 1 hex per 2 yd/s", any(world.has(e, Velocity) for e in actors)),
            ("ticks", "yards to run before a turn", self.stage.scene.spec.rule_set.yards_before_turn is not None),
            ("trail", "the path of the last turn", True),
            ("mark", "where an event happened", True),
            ("plan", "the plan: each turn's end, its odds", any(self.stage.goal(e) is not None for e in actors)),
            ("shadow", "altitude: the higher, the further", self.seen_altitude),
        )
        for kind, words, shown in legend:
            if not shown:
                continue
            self.legend_icon(kind, x + 7, y + 5)
            text(words, x + 22, y, TEXT, 9.5)
            y -= 17

    def legend_icon(self, kind: str, x: float, y: float) -> None:
        """A small sample of one map mark for the legend."""
        if kind == "arrow":
            arcade.draw_line(x - 9, y, x + 5, y, (250, 250, 250, 230), 2.5)
            arcade.draw_triangle_filled(x + 9, y, x + 3, y + 4, x + 3, y - 4, (250, 250, 250, 230))
        elif kind == "ticks":
            for dx in (-6, 0, 6):
                arcade.draw_line(x + dx, y - 6, x + dx, y + 6, (255, 214, 90, 230), 2)
        elif kind == "trail":
            arcade.draw_line(x - 9, y - 3, x + 9, y + 3, (200, 200, 200, 110), 4)
        elif kind == "plan":
            arcade.draw_line(x - 9, y, x + 9, y, _rgba(PLAN, 150), 2)
            for dx in (-6, 0):
                arcade.draw_circle_filled(x + dx, y, 2, _rgba(PLAN, 220))
            arcade.draw_circle_outline(x + 7, y, 4, _rgba(PLAN), 1.5)
        elif kind == "mark":
            ring = [
                (x + 8 * math.cos(math.radians(30 + 60 * i)), y + 8 * math.sin(math.radians(30 + 60 * i)))
                for i in range(6)
            ]
            arcade.draw_polygon_outline(ring, EVENT_MARK, 2)
        else:
            arcade.draw_line(x - 3, y + 4, x + 3, y - 5, (200, 200, 210, 110), 1)
            arcade.draw_ellipse_filled(x + 3, y - 5, 12, 6, (90, 96, 108, 255))
            arcade.draw_circle_filled(x - 3, y + 4, 4, (220, 220, 220, 255))

    def draw_log(self) -> None:
        """The latest lines of the turn log, bottom left."""
        arcade.draw_lrbt_rectangle_filled(MARGIN, MARGIN + LOG_W, MARGIN, BOTTOM_H, PANEL)
        shown = int((BOTTOM_H - MARGIN - 18) // LOG_LINE)
        for index, line in enumerate(wrap(self.stage.log, 122)[-shown:]):
            colour = TEXT if line.startswith(" ") else (255, 214, 90, 255) if line.startswith("turn") else DIM
            text(line, MARGIN + 10, BOTTOM_H - 20 - LOG_LINE * index, colour, 9.5)

    def keys_help(self) -> str:
        """The key summary shown in the window."""
        return "Space step   P play/pause   Tab select   T take over   arrows steer   +/- throttle   Esc quit"


def wrap(lines: Iterable[str], width: int) -> list[str]:
    """Lines wrapped to ``width`` characters, continuation lines indented under their first line."""
    out: list[str] = []
    for line in lines:
        indent = " " * (len(line) - len(line.lstrip()))
        out.extend(textwrap.wrap(line, width, initial_indent="", subsequent_indent=indent + "    ") or [""])
    return out


_LABELS: dict[tuple[str, float, bool, str, RGBA], arcade.Text] = {}
_LABELS_KEPT: Final = 2048


def text(
    value: str, x: float, y: float, colour: Sequence[int], size: float, *, anchor_x: str = "left", bold: bool = False
) -> None:
    """Draw text in the bundled font, on whole pixels so glyphs stay crisp (labels are cached and reused)."""
    rgba = _rgba(colour, colour[3] if len(colour) > 3 else 255)
    key = (value, size, bold, anchor_x, rgba)
    label = _LABELS.get(key)
    if label is None:
        if len(_LABELS) >= _LABELS_KEPT:
            _LABELS.clear()
        label = arcade.Text(value, 0, 0, rgba, size, font_name=FONT, anchor_x=anchor_x, bold=bold)
        _LABELS[key] = label
    label.position = (round(x), round(y))
    label.draw()


def text_width(value: str, size: float, *, bold: bool = False) -> float:
    """How wide ``value`` is drawn in the bundled font, in pixels."""
    key = (value, size, bold, "left", TEXT)
    label = _LABELS.get(key)
    if label is None:
        label = arcade.Text(value, 0, 0, TEXT, size, font_name=FONT, bold=bold)
        _LABELS[key] = label
    return float(label.content_width)


def _overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    """Whether two boxes (left, bottom, right, top) overlap."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _words(name: str) -> str:
    """A class name as lower-case words: ``LostControl`` -> ``lost control``."""
    return re.sub(r"(?<!^)(?=[A-Z])", " ", name).lower()


def _polar(x: float, y: float, length: float, degrees: float) -> tuple[float, float]:
    return (x + length * math.cos(math.radians(degrees)), y + length * math.sin(math.radians(degrees)))


# --- headless output -----------------------------------------------------------------------------------


def snapshot() -> Image.Image:
    """The window's current picture as an RGB image."""
    return arcade.get_image(0, 0, WIDTH, HEIGHT).convert("RGB")


class NoWindowError(RuntimeError):
    """No window could be opened: no display could be reached, or there is no OpenGL to draw with."""


def open_window(title: str, *, visible: bool = True) -> arcade.Window:
    """A new window of the renderer's size; :class:`NoWindowError` naming the problem when none can open."""
    try:
        return arcade.Window(WIDTH, HEIGHT, title, visible=visible)
    except Exception as error:  # pyglet's, which differ by platform: no display, no OpenGL, no GL config
        shown = f"{type(error).__name__}: {error}"
        display = os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
        if visible and display:
            raise NoWindowError(f"no window could open on display {display!r} ({shown})") from None
        raise NoWindowError(f"no OpenGL to draw with ({shown})") from None


def current_window() -> arcade.Window:
    """The open window, or a new hidden one of the renderer's size to draw into.

    Without a display, set ``ARCADE_HEADLESS=1`` before arcade is imported.
    """
    try:
        return arcade.get_window()
    except RuntimeError:
        return open_window("esper-motion demos", visible=False)


def run_headless(stage: Stage, turns: int, out: Path, print_line: Any = print, tween_frames: int = 5) -> list[Path]:
    """Play ``turns`` turns into the current window; print the log; write one PNG per turn and a GIF.

    ``turn_00.png`` is the scene before the first step; ``NAME.gif`` animates every turn along its paths.
    Return the files written.
    """
    out.mkdir(parents=True, exist_ok=True)
    renderer = Renderer(stage)
    written: list[Path] = []
    frames: list[Image.Image] = []
    durations: list[int] = []
    for line in stage.log:
        print_line(line)

    def capture(progress: float) -> Image.Image:
        renderer.draw(progress)
        return snapshot()

    first = capture(1.0)
    written.append(_save(first, out / "turn_00.png"))
    frames.append(first)
    durations.append(1200)
    for turn in range(1, turns + 1):
        for line in stage.step():
            print_line(line)
        for k in range(1, tween_frames):
            frames.append(capture(k / tween_frames))
            durations.append(110)
        last = capture(1.0)
        written.append(_save(last, out / f"turn_{turn:02d}.png"))
        frames.append(last)
        durations.append(1300)
    gif = out / f"{stage.scene.spec.name}.gif"
    palette = [
        frame.quantize(colors=128, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE) for frame in frames
    ]
    palette[0].save(gif, save_all=True, append_images=palette[1:], duration=durations, loop=0, disposal=1)
    written.append(gif)
    return written


def _save(image: Image.Image, path: Path) -> Path:
    image.save(path)
    return path

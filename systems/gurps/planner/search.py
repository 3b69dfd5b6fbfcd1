"""The planner's search: a mover's own future states a few turns ahead, each turn's successors made only of intents
the rules accept, with the exact odds of the rolls they need.

A state is what the rules carry from one turn to the next for a mover in control on the ground: its hex, facing,
velocity and heading, the yards run straight since its last change of facing, and whether it is at high speed
(:class:`State`). From a state, every candidate intent (:func:`candidates`, in a fixed order) is tried on a
:class:`~esper_motion.systems.gurps.shared.movers.Body` made of copies of the mover's components in that state:

- the intent must pass :func:`~esper_motion.systems.gurps.highspeed.intent.check_intent` (the INTENT phase's own
  check) and, for a body with a ``Posture``, the posture check;
- its path and rolls are :func:`~esper_motion.systems.gurps.preview.walk_forecast`'s, the preview's own: the same
  walk the MOVEMENT phase makes, with every roll assumed made, and the exact odds of each;
- the chance that any of those rolls fails must be at most the mover's caution
  (:class:`~esper_motion.components.goals.Caution`), and a path that runs into something is not taken (but a ram
  into the entity pursued);
- the next turn's velocity and state are the ACCELERATION phase's own
  (:func:`~esper_motion.systems.gurps.highspeed.acceleration.velocity_step`, every roll made).

Other movers are predicted at their present velocity along their heading (:func:`moving_others`): no turn is planned
to end in a hex another mover in motion is predicted in after that turn (but the entity rammed); for the walk itself
they stand where they are now (as in the preview). The search is a best-first search on turns taken plus a price on
risk (:data:`RISK_PRICE`), guided by a lower bound of the turns still needed; it looks at most :data:`HORIZON` turns
ahead and simulates at most :data:`NODE_BUDGET` turns in all (:data:`FAR_BUDGET` for a goal beyond reach). It rolls no
die and breaks every tie by the order in which states were found, so the same world always gets the same plan.

A plan found is kept (``KeptPlan``, written by :func:`~esper_motion.systems.gurps.planner.system.decide`) and
followed while the world stays as it assumed (:func:`kept_turns`), or, for a pursuer far behind, while the quarry
it pursues stays beyond its reach (:func:`far_leg`). A mover the turn's budget of searches leaves out takes a turn
chosen without one (:func:`one_turn`). The seams a planner for other movers builds on:
:class:`State` (a node), :func:`candidates` (the intents tried from one), :func:`advance` (one simulated turn).
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Collection, Iterator
from dataclasses import dataclass, replace
from dataclasses import field as dataclass_field
from fractions import Fraction
from functools import lru_cache
from itertools import chain
from operator import attrgetter, itemgetter
from typing import Final, NamedTuple, TypeGuard

from esper_motion.components.flight import Flight, FlightIntent
from esper_motion.components.goals import Climb, Flee, Goal, GoTo, Hold, KeepStation, KeptPlan, Land, Patrol, Pursue
from esper_motion.components.gurps import Control, Intent, Mover, MoveState, Posture
from esper_motion.components.motion import Facing, Position, Velocity
from esper_motion.ecs import IntentError, RuleValueError, World
from esper_motion.ecs.hexgrid import DIRECTIONS, Hex, distance, neighbour
from esper_motion.systems.gurps.highspeed.acceleration import velocity_step
from esper_motion.systems.gurps.highspeed.intent import check_intent
from esper_motion.systems.gurps.highspeed.maneuvers import ordinary_split
from esper_motion.systems.gurps.highspeed.movement import WalkResult, clear_run, straight_yd_after
from esper_motion.systems.gurps.options import Rules
from esper_motion.systems.gurps.planner.room import way_on
from esper_motion.systems.gurps.posture.posture import check_posture_change
from esper_motion.systems.gurps.preview import Forecast, RollForecast, forecast_walk, throttled, walk_forecast
from esper_motion.systems.gurps.rules.maneuvers import ordinary_move_yd
from esper_motion.systems.gurps.shared.movers import Body, Limits, bodies, carried, limits, ordinary_yards
from esper_motion.systems.gurps.shared.spatial import SpatialIndex, figure_height_yd

HORIZON: Final = 4
"""The most turns a search looks ahead."""

NODE_BUDGET: Final = 400
"""The most turns one search simulates (a candidate intent tried from a state is one), which bounds its cost: each
costs about 40 us of CPU time on the machine of the README's Performance section (tests/benchmarks/bench_planner.py),
so a search at most about 16 ms there."""

FAR_BUDGET: Final = 100
"""The most turns one search simulates when the goal, where it will be after ``horizon`` turns, lies beyond what all
but the last of them can cover at top speed: the search then finds a first leg only, and a quicker search finds one
about as good (docs/goals.md)."""

GREED: Final = 2.0
"""How much more the search weighs the turns it still expects (the yards still to go over top speed, a bound that is
never more than the truth) than the turns taken: past 1 it looks deeper sooner, at the price of plans up to that
many times longer than the best in the worst case (the quality tests hold it to one turn on small cases)."""

RISK_PRICE: Final = 2.0
"""What a turn's chance of failing a roll costs, in turns: a 10% chance costs a fifth of a turn, so of two plans
equally quick the safer is taken, and a risk is taken only where it saves time."""


class State(NamedTuple):
    """What the rules carry from one turn to the next for a mover in control (the planner's node)."""

    hex: Hex
    facing: int
    heading: int
    velocity: int
    straight_yd: int
    high_speed: bool


@dataclass(frozen=True, slots=True)
class PlannedTurn:
    """One turn of a plan: the intent, the rolls it needs with their exact odds, the hexes it enters, the chance
    that any of its rolls fails, whether it meets the goal, and the state it leaves the mover in (every roll
    made); for a flier, its ``FlightIntent`` that turn (the climb or descent) and the height it ends at (None for a
    mover that does not fly: :func:`~esper_motion.systems.gurps.planner.flight.with_climbs`)."""

    intent: Intent
    rolls: tuple[RollForecast, ...]
    path: tuple[Hex, ...]
    failure_chance: Fraction
    meets_goal: bool
    after: State
    flight: FlightIntent | None = None
    altitude_yd: float | None = None


@dataclass(frozen=True, slots=True)
class Plan:
    """A mover's plan for the next turns (:func:`search`): ``turns`` in order (none when the rules allow it no
    turn within its caution); ``reaches`` whether the goal is met at their end; ``nearer`` whether they end nearer
    the goal than it is now (or meet it); ``evaluated`` the turns the search simulated (at most
    :data:`NODE_BUDGET`)."""

    entity: int
    turns: tuple[PlannedTurn, ...]
    reaches: bool
    nearer: bool
    evaluated: int


@dataclass(frozen=True, slots=True)
class Aim:
    """A goal made concrete for one search: the hex aimed at after each turn (a moving entity's predicted place),
    how near is near enough, and how the goal is met."""

    goal: Goal
    places: tuple[Hex, ...]  # the hex aimed at after turn 1, 2, ... (the last one holds beyond)
    range_yd: int
    stop: bool
    away: bool
    ram: int | None
    match_yps: int | None = None  # the velocity to keep (beside an entity: its own)
    yards_to: YardsField | None = None  # for a place that stays put: the yards to it round walls (yards_field)


FIELD_SLACK_YD: Final = 12
"""How much further than the straight line :func:`yards_field` looks for a way round walls, at least."""

FIELD_STEP_YD: Final = 16
""":func:`yards_field` looks as far as the straight line and its slack, rounded up to a multiple of this, so that a
field the planner keeps (``fields``) serves a mover for many turns as it nears its goal."""

FIELD_HEXES: Final = 4_000
"""The most hexes :func:`yards_field` visits."""


_SHIFT: Final = 14
"""The walk of a :class:`YardsField` codes each hex as one whole number, its offset from the place ``(x, y)`` as
``(x << _SHIFT) + y`` (a walk of :data:`FIELD_HEXES` hexes goes no further than that from the place): a number is
quicker to hash and to step from than a tuple."""

_HALF: Final = 1 << (_SHIFT - 1)

_STEPS: Final = tuple((dq << _SHIFT) + dr for dq, dr in DIRECTIONS)
"""The codes of the six steps to a neighbour (:data:`_SHIFT`), in the order of ``DIRECTIONS``."""


def _gap(code: int) -> int:
    """The distance from the place of the hex coded ``code`` (:data:`_SHIFT`)."""
    x = (code + _HALF) >> _SHIFT
    y = code - (x << _SHIFT)
    return (abs(x) + abs(y) + abs(x + y)) // 2


class YardsField:
    """The yards from each hex within ``reach`` of ``place`` to it round the ``walls`` (:func:`yards_field`), worked
    out as they are asked for (:meth:`yards`)."""

    __slots__ = ("_clear", "_cut", "_found", "_walls", "_walls_at", "place", "reach")

    def __init__(self, place: Hex, reach: int, walls: Collection[Hex]) -> None:
        self.place = place
        self.reach = reach
        self._walls = frozenset(walls)  # the hexes a walk out from the place does not enter
        # each wall (q, r) as (its distance from the place, q, r), nearest first
        self._walls_at = sorted(((distance(place, wall), *wall) for wall in walls), key=itemgetter(0))
        self._clear: dict[Hex, bool] = {}  # whether a shortest way from each hex asked about crosses no wall
        self._found: dict[int, int] | None = None  # the walk, once made, by the code of each hex (_SHIFT)
        self._cut = False

    def yards(self, hex: Hex) -> int:
        """The yards from ``hex`` to the place round the walls: the walk's (its plain distance where the walk did not
        go). A hex with a shortest way to the place that crosses no wall (:meth:`_straight`) is that distance, as the
        walk would find, with no walk made: the walk is made the first time another hex is asked about."""
        found = self._found
        gap = distance(hex, self.place)
        if found is None:
            if gap > self.reach or hex in self._walls or self._straight(hex, gap):  # the walk goes to neither
                return gap
            found = self.walk()
        if gap > FIELD_HEXES:  # further than any walk goes
            return gap
        return found.get(((hex[0] - self.place[0]) << _SHIFT) + hex[1] - self.place[1], gap)

    def _straight(self, hex: Hex, gap: int) -> bool:
        """Whether one of the shortest ways from ``hex`` (not a wall, ``gap`` from the place) to the place crosses no
        wall: it does from a hex with no wall on any of its shortest ways (a wall ``w`` is on one when the distances
        place-``w`` and ``w``-hex add up to place-hex), and from a hex one beside which, one nearer the place and not
        a wall, has one (looked for hex by hex toward the place)."""
        known = self._clear.get(hex)
        if known is not None:
            return known
        place, walls, clear = self.place, self._walls, self._clear
        seen = {hex}
        stack = [(hex, gap)]
        while stack:
            at, far = stack.pop()
            known = clear.get(at)
            if known is None:
                known = self._no_wall_on_the_way(at, far)
            if known:
                clear[hex] = True
                return True
            if at in clear:  # no such way from it, found before
                continue
            q, r = at
            for dq, dr in DIRECTIONS:
                on = (q + dq, r + dr)
                if on not in seen and on not in walls and distance(on, place) == far - 1:
                    seen.add(on)
                    stack.append((on, far - 1))
        for at in seen:  # none of them has such a way
            clear[at] = False
        return False

    def _no_wall_on_the_way(self, hex: Hex, gap: int) -> bool:
        """Whether no wall is on any shortest way from ``hex``, ``gap`` from the place, to the place (the distance
        worked out inline: every hex asked about that has not been walked comes here once)."""
        q, r = hex
        for to_wall, wq, wr in self._walls_at:
            if to_wall > gap:
                return True
            x, y = wq - q, wr - r
            if to_wall + (abs(x) + abs(y) + abs(x + y)) // 2 == gap:
                return False
        return True

    def walk(self) -> dict[int, int]:
        """The breadth-first walk out from the place, at most :data:`FIELD_HEXES` hexes, none further from it than
        ``reach`` (made once): the yards to the place from each hex it enters, by the hex's code (:data:`_SHIFT`).
        It goes out a ring of yards at a time, each hex found from the first hex of the ring before it that has it
        beside it, as one hex at a time would; the ring that would pass the most hexes goes one hex at a time, so as
        to stop where that would."""
        if self._found is not None:
            return self._found
        reach, place = self.reach, self.place
        pq, pr = place
        walls = {((q - pq) << _SHIFT) + r - pr for q, r in self._walls if distance((q, r), place) <= FIELD_HEXES}
        found = {0: 0}
        ring = [0]
        yards = 0
        cut = False  # whether the reach left out a hex
        while ring and len(found) < FIELD_HEXES:
            yards += 1
            beside = dict.fromkeys([at + step for at in ring for step in _STEPS])  # in order, each once
            fresh = [code for code in beside if code not in found and code not in walls]
            if yards > reach:  # a ring within reach has every hex within it (a hex's distance is at most its yards)
                within = [code for code in fresh if _gap(code) <= reach]
                cut = cut or len(within) < len(fresh)
                fresh = within
            if len(found) + len(fresh) >= FIELD_HEXES:
                cut = self._last_ring(found, ring, walls, yards) or cut
                break
            found.update(dict.fromkeys(fresh, yards))
            ring = fresh
        self._found, self._cut = found, cut
        return found

    def _last_ring(self, found: dict[int, int], ring: list[int], walls: set[int], yards: int) -> bool:
        """Add to ``found`` the hexes ``yards`` from the place beside those of ``ring``, hex by hex in its order,
        until :data:`FIELD_HEXES` are found; whether the reach left out a hex."""
        reach, cut = self.reach, False
        for at in ring:
            if len(found) >= FIELD_HEXES:
                break
            for step in _STEPS:
                code = at + step
                if code in found or code in walls:
                    continue
                if yards > reach and _gap(code) > reach:
                    cut = True
                    continue
                found[code] = yards
        return cut

    @property
    def walked(self) -> bool:
        """Whether the walk was made (a hex with a wall between it and the place was asked about)."""
        return self._found is not None

    def serves(self, reach: int) -> bool:
        """Whether this field is the one :func:`yards_field` makes for ``reach``: its own, or, once walked, any reach
        past the furthest yards the walk found when no reach cut it short (the hexes beside those it went out from are
        then all within such a reach)."""
        if reach == self.reach:
            return True
        found = self._found
        return found is not None and not self._cut and reach > max(found.values())


@dataclass(slots=True)
class Fields:
    """Yards fields kept while the obstacles stay as they are (:func:`yards_field`): by place, figure height and
    altitude, and the walls for each figure height and altitude."""

    by_place: dict[tuple[Hex, float, float], list[YardsField]] = dataclass_field(default_factory=dict)
    walls: dict[tuple[float, float], frozenset[Hex]] = dataclass_field(default_factory=dict)

    def clear(self) -> None:
        """Forget them all (the obstacles changed)."""
        self.by_place.clear()
        self.walls.clear()


def walls_of(index: SpatialIndex, altitude_yd: float, height_yd: float) -> frozenset[Hex]:
    """The hexes holding an obstacle a figure ``height_yd`` tall at ``altitude_yd`` cannot jump."""
    return frozenset(
        hex
        for hex in index.obstacle_hexes()
        if any(not obstacle.crossable for _, obstacle in index.obstacles_in_way(hex, altitude_yd, height_yd))
    )


def yards_field(index: SpatialIndex, place: Hex, start: Hex, body: Body, fields: Fields | None = None) -> YardsField:
    """The yards from each hex near the line from ``start`` to ``place`` to ``place``, round the obstacles ``body``
    cannot jump (a breadth-first walk out from ``place``, at most :data:`FIELD_HEXES` hexes, none further from it
    than the straight way plus :data:`FIELD_SLACK_YD`, rounded up: :data:`FIELD_STEP_YD`), worked out as asked for
    (:class:`YardsField`: a hex with a shortest way to the place that crosses no wall, its plain distance, and no
    walk). Other bodies move, so they stand in no way here. ``fields``: the fields worked out already for the
    obstacles of ``index``, read and added to (the same inputs give the same field, so keeping them changes no
    plan)."""
    height = figure_height_yd(body.mover)
    altitude = body.position.altitude_yd
    reach = -(-(distance(start, place) + FIELD_SLACK_YD) // FIELD_STEP_YD) * FIELD_STEP_YD
    walls = None if fields is None else fields.walls.get((altitude, height))
    if walls is None:
        walls = walls_of(index, altitude, height)
    kept = None
    if fields is not None:
        fields.walls[altitude, height] = walls
        kept = fields.by_place.setdefault((place, height, altitude), [])
        for field in kept:
            if field.serves(reach):
                return field
    made = YardsField(place, reach, [wall for wall in walls if wall != place and distance(place, wall) <= reach])
    if kept is not None:
        kept.append(made)
    return made


def aim_of(
    world: World,
    goal: Goal,
    horizon: int,
    *,
    index: SpatialIndex | None = None,
    body: Body | None = None,
    fields: Fields | None = None,
) -> Aim | None:
    """The :class:`Aim` of ``goal`` over ``horizon`` turns (with ``index`` and ``body``, the yards round walls to a
    place that stays put: :func:`yards_field`); None when the entity it names is gone."""
    if isinstance(goal, (GoTo, Patrol)):
        place = goal.hex if isinstance(goal, GoTo) else goal.waypoints[goal.next_index]
        field = None if index is None or body is None else yards_field(index, place, body.position.hex, body, fields)
        stop = goal.stop if isinstance(goal, GoTo) else False
        return Aim(goal, (place,), 0, stop, False, None, yards_to=field)
    if isinstance(goal, (Hold, Climb, Land)):  # a flier goal comes as the goal of its level path (planner.flight)
        return Aim(goal, (), 0, True, False, None)
    other = goal.source if isinstance(goal, Flee) else goal.target
    if other is None:  # the entity is gone: hold
        return Aim(goal, (), 0, True, False, None)
    if not world.exists(other) or not world.has(other, Position):
        return None
    if index is None:
        places = tuple(predicted(world, other, turn) for turn in range(1, horizon + 1))
    else:
        places = predicted_short(world, index, other, horizon)
    if isinstance(goal, Flee):
        return Aim(goal, places, goal.range_yd, False, True, None)
    if isinstance(goal, Pursue):
        return Aim(goal, places, goal.range_yd, False, False, goal.target if goal.ram else None)
    assert isinstance(goal, KeepStation)
    velocity = world.try_get(other, Velocity)
    return Aim(goal, places, goal.range_yd, False, False, None, 0 if velocity is None else velocity.yps)


def predicted(world: World, entity: int, turns: int) -> Hex:
    """Where ``entity`` will be ``turns`` turns from now if it keeps its present velocity along its heading."""
    return along(*motion(world, entity), turns)


def predicted_short(world: World, index: SpatialIndex, entity: int, turns: int) -> tuple[Hex, ...]:
    """Where ``entity`` will be after each of the next ``turns`` turns at its present velocity along its heading
    (:func:`predicted`), but stopped on the last hex before an obstacle it cannot jump: a quarry running at a
    fence is looked for at the fence, not beyond it."""
    hex, yps, heading = motion(world, entity)
    mover = world.try_get(entity, Mover)
    height = figure_height_yd(mover) if mover is not None else 0.0
    altitude = world.get(entity, Position).altitude_yd
    occupied = index.occupied
    found: list[Hex] = []
    for _ in range(turns):
        for _ in range(yps):
            ahead = neighbour(hex, heading)
            if ahead in occupied and any(
                not obstacle.crossable for _, obstacle in index.obstacles_in_way(ahead, altitude, height)
            ):
                yps = 0
                break
            hex = ahead
        found.append(hex)
    return tuple(found)


def motion(world: World, entity: int) -> tuple[Hex, int, int]:
    """``entity``'s hex, velocity (0 without a ``Velocity``) and heading."""
    velocity = world.try_get(entity, Velocity)
    yps, heading = (0, 0) if velocity is None else (velocity.yps, velocity.heading)
    return world.get(entity, Position).hex, yps, heading


def along(hex: Hex, yps: int, heading: int, turns: int) -> Hex:
    """Where a mover in ``hex`` at ``yps`` along ``heading`` is ``turns`` turns later."""
    dq, dr = DIRECTIONS[heading]
    return (hex[0] + dq * yps * turns, hex[1] + dr * yps * turns)


Moving = tuple[dict[Hex, int], ...]
"""Where the movers in motion will be after each turn ahead, at their present velocity (:func:`moving_others`): the
hexes after turn 1, 2, ..., each naming the entity predicted there."""


def moving_others(world: World, turns: int) -> Moving:
    """Where every mover in motion (its ``Velocity.yps`` above 0; a rider goes with its mount) will be after each of
    the next ``turns`` turns if it keeps its present velocity along its heading (:func:`predicted`)."""
    found: list[dict[Hex, int]] = [{} for _ in range(turns)]
    for body in bodies(world):
        yps = body.velocity.yps
        if not yps or carried(body):
            continue
        q, r = body.position.hex
        dq, dr = DIRECTIONS[body.velocity.heading]
        dq, dr, entity = dq * yps, dr * yps, body.entity
        for turn, hexes in enumerate(found, start=1):  # along(), inline: one for each mover in motion and turn
            hexes.setdefault((q + dq * turn, r + dr * turn), entity)
    return tuple(found)


def _into_another(moving: Moving, entity: int, ram: int | None, turn: int, hex: Hex) -> bool:
    """Whether ``hex`` is where :func:`moving_others` puts a mover other than ``entity`` (and the one it rams) after
    turn ``turn``."""
    if turn > len(moving):
        return False
    other = moving[turn - 1].get(hex)
    return other is not None and other not in {entity, ram}


def taken(
    outcome: Outcome | None,
    entity: int,
    turn: int,
    *,
    caution: float,
    ram: int | None,
    moving: Moving,
    floor_yd: int = 0,
) -> TypeGuard[Outcome]:
    """Whether the planner may take ``outcome``, ``entity``'s turn ``turn`` (1-based) simulated by :func:`advance`:
    the rules allow it, its chance of failing a roll is at most ``caution``, it runs into nothing but ``ram``, it
    covers and ends at ``floor_yd`` yards or more, and it ends where ``moving`` puts no other mover."""
    if outcome is None or (outcome.failure_chance and outcome.failure_chance > caution):
        return False
    if outcome.struck is not None and outcome.struck != ram:
        return False
    if floor_yd and (len(outcome.path) < floor_yd or outcome.state.velocity < floor_yd):
        return False
    return not _into_another(moving, entity, ram, turn, outcome.state.hex)


def _place(aim: Aim, turn: int) -> Hex | None:
    """The hex aimed at after turn ``turn`` (1-based), or None for a goal of no place (``Hold``)."""
    places = aim.places
    if not places:
        return None
    last = len(places)
    return places[turn - 1 if 0 < turn <= last else 0 if turn < 1 else last - 1]


def yards_short(aim: Aim, state: State, turn: int) -> int:
    """How many yards ``state`` (after turn ``turn``) is from meeting ``aim``'s place; for a stop, its velocity."""
    place = _place(aim, turn)
    if place is None:
        return state.velocity
    return _short_of(aim, distance(state.hex, place) if aim.yards_to is None else aim.yards_to.yards(state.hex))


def _short_of(aim: Aim, gap: int) -> int:
    """How many yards a mover ``gap`` yards from ``aim``'s place is from meeting its range."""
    return max(0, aim.range_yd - gap) if aim.away else max(0, gap - aim.range_yd)


def meets(
    aim: Aim, state: State, path: tuple[Hex, ...], struck: int | None, turn: int, *, short: int | None = None
) -> bool:
    """Whether the turn that ended in ``state`` along ``path`` meets ``aim`` (``short``: its :func:`yards_short`,
    when the caller has it already)."""
    if aim.ram is not None:
        return struck == aim.ram
    place = _place(aim, turn)
    if aim.stop:  # below high speed the throttle sets this turn's yards at once: there, it can stop
        return not state.high_speed and (state.velocity == 0 if place is None else state.hex == place)
    if aim.match_yps is not None and state.velocity != aim.match_yps:
        return False
    if place is not None and not aim.away and aim.range_yd == 0 and place in path:
        return True  # passed through it
    return (yards_short(aim, state, turn) if short is None else short) == 0


def _facing_off(aim: Aim, state: State, turn: int) -> int:
    """0 when a step ahead from ``state`` brings it nearer the place aimed at (further, fleeing), 1 when it keeps the
    distance, 2 when it takes it away; 0 for a goal of no place."""
    place = _place(aim, turn)
    if place is None:
        return 0
    gain = distance(state.hex, place) - distance(neighbour(state.hex, state.facing), place)
    return 1 - (-gain if aim.away else gain)


def first_candidate(body: Body, lim: Limits, risky: bool, short_yd: int) -> Intent:
    """The first of :func:`candidates` (the same object), made without the others."""
    velocity = body.velocity.yps
    if body.control.state is MoveState.HIGH_SPEED:
        return _intents(velocity, risky, _throttles(velocity, lim, True, risky, short_yd), lim.safe_decel)[0]
    return _ordinary_intents(_throttles(velocity, lim, False, risky, short_yd))[0]


def candidates(body: Body, lim: Limits, risky: bool, short_yd: int, place: Hex | None = None) -> tuple[Intent, ...]:
    """The intents tried from ``body``'s state, in the fixed order that breaks ties: every throttle of interest
    (:func:`_throttles`; ``short_yd`` is how far the goal still is) with no turn, then with a turn of one hexside
    either way and, below high speed, of two; at high speed also a veer to either side for the whole path; and with
    ``risky`` the pushed ones (an early or tight turn, the hardest deceleration). Below high speed, also each pace
    that, after the turn, ends on a straight line to ``place`` (:func:`_legs`). Those the rules refuse are dropped by
    :func:`advance`, not here. The same state gets the same intents, made once (never change them)."""
    high = body.control.state is MoveState.HIGH_SPEED
    velocity = body.velocity.yps
    throttles = _throttles(velocity, lim, high, risky, short_yd)
    if high:
        return _intents(velocity, risky, throttles, lim.safe_decel)
    legs = _legs(body.position.hex, body.facing.direction, place, lim.move)
    found = _ordinary_intents(throttles)
    if not legs:
        return found
    return found + tuple(
        _ordinary_intent(yards - velocity, turn)
        for yards, turn in legs
        if yards - velocity not in throttles  # the others are there already
    )


_ORDINARY_TURNS: Final = (0, 1, -1, 2, -2)
"""The turns tried below high speed, made as the turn opens."""


@lru_cache(maxsize=256)
def _ordinary_intent(throttle: int, turn: int) -> Intent:
    return Intent(throttle=throttle, turn=turn)


@lru_cache(maxsize=1024)
def _ordinary_intents(throttles: tuple[int, ...]) -> tuple[Intent, ...]:
    """Each of ``throttles`` with each of :data:`_ORDINARY_TURNS` (:func:`candidates`)."""
    return tuple(_ordinary_intent(throttle, turn) for throttle in throttles for turn in _ORDINARY_TURNS)


@lru_cache(maxsize=4096)
def _legs(hex: Hex, facing: int, place: Hex | None, move: int) -> tuple[tuple[int, int], ...]:
    """Each (yards, turn), yards from 1 to ``move`` - 1, after which a mover at ``hex`` facing ``facing`` that turned
    ``turn`` hexsides as the turn opened (:data:`_ORDINARY_TURNS`) ends on a straight line of hexes to ``place`` (the
    first leg of a way there in two straight legs); none for no place."""
    if place is None:
        return ()
    x, y = place[0] - hex[0], place[1] - hex[1]
    found: dict[tuple[int, int], None] = {}
    for turn, aq, ar, bq, br, det in _LEG_WAYS[facing]:
        yards, rest = divmod(x * br - y * bq, det)
        if not rest and 0 < yards < move and (aq * y - ar * x) * det >= 0:  # the second leg's yards: 0 or more
            found[yards, turn] = None
    return tuple(found)


_LEG_WAYS: Final = tuple(
    tuple(
        (turn, aq, ar, bq, br, aq * br - ar * bq)
        for turn in _ORDINARY_TURNS
        for aq, ar in (DIRECTIONS[(facing + turn) % 6],)
        for bq, br in DIRECTIONS
        if aq * br - ar * bq  # a second leg along the first, or back, makes no corner
    )
    for facing in range(6)
)
"""For each facing, the two legs :func:`_legs` tries: the turn, the first leg's direction, the second's and the
determinant of the two, in the order it tries them."""


@lru_cache(maxsize=1024)
def _intents(velocity: int, risky: bool, throttles: tuple[int, ...], safe_decel: int) -> tuple[Intent, ...]:
    """The intents tried at high speed (:func:`candidates`)."""
    found: list[Intent] = []
    for throttle in throttles:
        push = -throttle > safe_decel
        found.append(Intent(throttle=throttle, push=push))
        found.extend(Intent(throttle=throttle, turn=turn, push=push) for turn in (1, -1))
        if velocity:
            found.append(Intent(throttle=throttle, veer=(1,) * velocity, push=push))
            found.append(Intent(throttle=throttle, veer=(-1,) * velocity, push=push))
        if risky:
            found.extend(Intent(throttle=throttle, turn=turn, turn_at_yd=0, push=True) for turn in (1, -1, 2, -2))
    return tuple(found)


def _throttles(velocity: int, lim: Limits, high: bool, risky: bool, short_yd: int) -> tuple[int, ...]:
    """The throttles tried from ``velocity``: below high speed the full Move, the fastest entry to high speed, the
    yards still to go when fewer than Move, and a stop; at high speed the most acceleration, half of it, none,
    half and all of the safe deceleration and, with ``risky``, the hardest deceleration."""
    if not high:
        found = [lim.move, lim.entry_limit, *((short_yd,) if short_yd < lim.move else ()), 0]
        return tuple(dict.fromkeys(target - velocity for target in found))  # in order, each once
    up = max(0, min(lim.accel_step, lim.top_speed - velocity))
    safe = min(lim.safe_decel, velocity)
    found = [up, up // 2, 0, -(safe // 2), -safe]
    if risky:
        found.append(-min(lim.max_decel, velocity))
    return tuple(dict.fromkeys(found))


_NO_CHANCE: Final = Fraction(0)


class Outcome(NamedTuple):
    """A turn simulated from a state: the state it leaves, its path, what it ran into, its rolls and the chance that
    any of them fails."""

    state: State
    path: tuple[Hex, ...]
    struck: int | None
    rolls: tuple[RollForecast, ...]
    failure_chance: Fraction


def stop_short(body: Body, intent: Intent, outcome: Outcome) -> Intent | None:
    """Below high speed, ``intent`` with the throttle that ends ``body``'s turn on the last hex its walk entered
    before what it ran into (``outcome``): in a cramped place (the corner of a fence) every throttle
    :func:`candidates` tries may run into something, and for a body several hexes long, which turns only where its
    hindquarters fit (:mod:`.room`), a short step is the move left. The search tries it for such bodies, a flier
    lying flat in the air among them (the flight checks take it: a flier that cannot hover stopped short below its
    stall speed is refused by :func:`taken`, as any turn below it). None at high speed (the yards are the
    velocity's) or when that is the intent itself."""
    if body.control.state is not MoveState.NORMAL:
        return None
    throttle = len(outcome.path) - body.velocity.yps
    return None if throttle == intent.throttle else replace(intent, throttle=throttle)


def state_of(body: Body) -> State:
    """The :class:`State` ``body`` is in."""
    return State(
        body.position.hex,
        body.facing.direction,
        body.velocity.heading,
        body.velocity.yps,
        body.control.straight_yd,
        body.control.state is MoveState.HIGH_SPEED,
    )


def body_in(template: Body, state: State) -> Body:
    """A body like ``template`` in ``state``: new components for what a state holds, the rest ``template``'s."""
    control = Control(
        state=MoveState.HIGH_SPEED if state.high_speed else MoveState.NORMAL,
        straight_yd=state.straight_yd,
    )
    position = Position(state.hex[0], state.hex[1], template.position.altitude_yd)
    return Body(
        template.entity,
        position,
        Facing(state.facing),
        Velocity(state.velocity, heading=state.heading),
        template.mover,
        control,
        template.intent,
    )


def _with_intent(body: Body, intent: Intent) -> Body:
    """``body`` holding ``intent`` (quicker to make than by ``_replace``: one for every candidate tried)."""
    return Body(*body[:6], intent)


Walks = dict[tuple[object, ...], tuple[Forecast, WalkResult]]
"""The forecast walks of one state's candidates, by what they depend on (:func:`advance`)."""


class Walker(NamedTuple):
    """What :func:`advance` reads of a mover's entity that none of its candidate turns changes, read once for all
    of them (:func:`walker_of`)."""

    posture: Posture | None
    plain: bool  # it fills one hex and has no Flight or FlightIntent: ordinary_straight may serve it


def walker_of(world: World, index: SpatialIndex, entity: int) -> Walker:
    """The :class:`Walker` of ``entity`` as ``world`` and ``index`` hold it now."""
    plain = (
        index.length(entity) == 1
        and world.try_get(entity, Flight) is None
        and world.try_get(entity, FlightIntent) is None
    )
    return Walker(world.try_get(entity, Posture), plain)


def advance(
    world: World,
    chosen: Rules,
    index: SpatialIndex,
    body: Body,
    state: State,
    *,
    lim: Limits | None = None,
    walks: Walks | None = None,
    walker: Walker | None = None,
) -> Outcome | None:
    """The turn ``body`` (in ``state``) would make with its intent, or None when the rules refuse the intent.
    ``lim``: ``body``'s limits in ``state`` (which its intent does not change), when the caller has them already.
    ``walks``: the walks of the other candidates from ``state`` tried already, read and added to. A walk does not
    depend on the throttle but through the yards it sets for this turn below high speed
    (:func:`~esper_motion.systems.gurps.preview.forecast_walk`), so the candidates that differ in their throttle only
    walk once; at high speed what the throttle adds is worked out for each
    (:func:`~esper_motion.systems.gurps.preview.throttled`). ``walker``: ``body``'s :func:`walker_of`, when the
    caller has it already (a search tries many turns of one mover)."""
    if lim is None:
        lim = limits(world, body, chosen)
    if walker is None:
        walker = walker_of(world, index, body.entity)
    try:
        check_intent(world, body, chosen, lim=lim)
        if walker.posture is not None:
            check_posture_change(body.entity, body.intent, walker.posture)
    except (IntentError, RuleValueError):
        return None
    if body.control.state is MoveState.NORMAL and walker.plain:
        plain = ordinary_straight(world, index, body, state, lim)
        if plain is not None:
            return plain
    if walks is None:
        forecast, result = walk_forecast(world, body, chosen, index, lim=lim)
    else:
        intent = body.intent
        yards = ordinary_yards(body, lim) if body.control.state is MoveState.NORMAL else None
        key = (yards, _walked_fields(intent))
        walked = walks.get(key)
        if walked is None:
            walked = walks[key] = forecast_walk(world, body, chosen, index, lim=lim)
        forecast, result = throttled(world, body, lim, *walked)
    chance = _NO_CHANCE
    if forecast.loses_control is not None:
        chance = Fraction(1)
    elif forecast.rolls:
        held = Fraction(1)
        for roll in forecast.rolls:
            held *= roll.chance
        chance = 1 - held
    velocity, high = _end_of_turn(world, body, lim, result)
    end = result.path[-1] if result.path else state.hex
    after = State(end, result.facing, result.heading, velocity, straight_yd_after(state.straight_yd, result), high)
    return Outcome(after, forecast.path, forecast.runs_into, forecast.rolls, chance)


def ordinary_straight(world: World, index: SpatialIndex, body: Body, state: State, lim: Limits) -> Outcome | None:
    """What :func:`advance` gives ``body`` (in ``state``, in ordinary movement, its intent accepted) in the common
    cases, found without a forecast: a walker filling one hex, with no ``Flight`` or ``FlightIntent`` (advance
    calls it for those alone: :attr:`Walker.plain`), in control, asked for no veer and at most one turn made as the
    turn opens, whose way along its new facing is empty
    (:func:`~esper_motion.systems.gurps.highspeed.movement.clear_run`), or empty up to a hex holding nothing but
    bodies in its way (no obstacle, no footing tile). The first needs no roll and runs into nothing; the second runs
    into the first of those bodies (in the forecast, as in the preview, nobody dodges), also with no roll. Its yards
    are the throttle's (:func:`ordinary_split`) and the velocity it ends with is the ACCELERATION phase's
    (:func:`velocity_step`). None for any other body, or when the way meets anything else: the caller takes the
    full forecast (tests/gurps/planner/test_cost.py holds the two to one another)."""
    intent, control = body.intent, body.control
    if intent.veer or intent.turns or intent.turn_at_yd or control.loss_cause is not None:
        return None
    if control.carried_by is not None:
        return None
    yards, left = ordinary_split(body, lim)
    facing = (state.facing + intent.turn) % 6
    path: list[Hex] = []
    struck = None
    if clear_run(state.hex, DIRECTIONS[facing], yards, index.occupied, path) < yards:
        ahead = neighbour(path[-1] if path else state.hex, facing)
        struck = _only_bodies(index, ahead, body)
        if struck is None:
            return None
    turned = abs(intent.turn)
    moved = len(path)
    step = velocity_step(
        world, body, lim, velocity=yards, throttle=left, moved_yd=moved, turned_hexsides=turned, footing=0, landing=None
    )
    straight = moved if turned else state.straight_yd + moved
    after = State(path[-1] if path else state.hex, facing, facing, step.velocity, straight, step.high_speed)
    return Outcome(after, tuple(path), struck, (), _NO_CHANCE)


def _only_bodies(index: SpatialIndex, hex: Hex, body: Body) -> int | None:
    """The first of the bodies in ``body``'s way on ``hex`` (lowest id, as the walk meets them) when ``hex`` holds
    nothing else in its way: no obstacle ``body`` meets and no footing tile; else None."""
    altitude, height = body.position.altitude_yd, figure_height_yd(body.mover)
    if index.footing_extra(hex) or index.obstacles_in_way(hex, altitude, height):
        return None
    found = index.bodies_in_way(hex, body.entity, altitude, height)
    return found[0] if found else None


WALKED_FIELDS: Final = ("maneuver", "turn", "turn_at_yd", "push", "veer", "slam", "life_or_death", "turns")
"""Every field of an ``Intent`` but its throttle: what a walk may depend on besides the yards (:func:`advance`)."""

_walked_fields: Final = attrgetter(*WALKED_FIELDS)


def _end_of_turn(world: World, body: Body, lim: Limits, result: WalkResult) -> tuple[int, bool]:
    """The velocity and high speed or not that the ACCELERATION phase leaves ``body`` with after ``result``, every
    roll made: :func:`~esper_motion.systems.gurps.highspeed.acceleration.velocity_step`, which ``VelocityChange``
    applies. Below high speed the throttle took effect as the turn opened, within what the maneuver allows, and only
    what it asks past Move is left for the end of the turn
    (:func:`~esper_motion.systems.gurps.highspeed.maneuvers.ordinary_split`)."""
    velocity, throttle = body.velocity.yps, body.intent.throttle
    if body.control.state is MoveState.NORMAL:  # this turn's yards at once, what is asked past Move at the end
        velocity, throttle = ordinary_split(body, lim)
    step = velocity_step(
        world,
        body,
        lim,
        velocity=velocity,
        throttle=throttle,
        moved_yd=len(result.path),
        turned_hexsides=sum(abs(by) for _, _, by in result.turned),
        footing=result.extra,
        landing=None,
    )
    return step.velocity, step.high_speed


def straight_enough(world: World, chosen: Rules, root: Body) -> int | None:
    """The yards run straight past which nothing the rules ask changes (the turning radius at top speed; None for
    no radius): states that differ only beyond it are one state (:func:`capped`)."""
    top = max(1, limits(world, root, chosen).top_speed)
    radius = limits(world, body_in(root, state_of(root)._replace(velocity=top, high_speed=True)), chosen).radius
    return int(radius) if radius != math.inf else None


def capped(state: State, enough: int | None) -> State:
    """``state`` with its yards run straight no more than ``enough`` (:func:`straight_enough`)."""
    if enough is not None and state.straight_yd > enough:
        hex, facing, heading, velocity, _, high_speed = state
        return State(hex, facing, heading, velocity, enough, high_speed)  # quicker to make than by _replace
    return state


@dataclass(slots=True)
class _Node:
    state: State
    turn: int
    cost: float
    parent: _Node | None
    step: tuple[Intent, Outcome] | None  # the turn that led here (a PlannedTurn is made for the plan's turns only)
    met: bool


def search(
    world: World,
    chosen: Rules,
    index: SpatialIndex,
    root: Body,
    goal: Goal,
    *,
    caution: float,
    horizon: int = HORIZON,
    budget: int = NODE_BUDGET,
    fields: Fields | None = None,
    moving: Moving = (),
    floor_yd: int = 0,
) -> Plan | None:
    """The best plan the budget finds for ``root`` (a mover in control, the intent it holds ignored) toward ``goal``,
    taking no turn whose chance of failing a roll is above ``caution`` nor one ending where ``moving`` puts another
    mover after that turn (:func:`moving_others`), nor one covering fewer than ``floor_yd`` yards or ending slower (a
    flier that cannot hover: its stall speed); None when the entity the goal names is gone.

    The plan that meets the goal soonest (turns, plus :data:`RISK_PRICE` on each turn's chance of failure) within
    ``horizon`` turns; when none is found within the budget, the plan that ends nearest the goal (fewest yards short,
    then cheapest): best effort, ``Plan.reaches`` False."""
    aim = aim_of(world, goal, horizon, index=index, body=root, fields=fields)
    if aim is None:
        return None
    top = max(1, limits(world, root, chosen).top_speed)
    start = state_of(root)
    enough = straight_enough(world, chosen, root)
    first = _Node(start, 0, 0.0, None, None, False)
    best = first
    best_key: tuple[int, float, int, int] | None = None
    short_now = yards_short(aim, start, 1)
    if yards_short(aim, start, horizon) > top * (horizon - 1):  # where the goal will be then
        budget = min(budget, FAR_BUDGET)
    frontier: list[tuple[float, float, int, int, int, _Node]] = [(0.0, 0.0, 0, 0, 0, first)]
    found = 0
    evaluated = 0
    seen: dict[tuple[State, int], float] = {}
    risky = caution > 0
    length = index.length(root.entity)
    walker = walker_of(world, index, root.entity)
    figure = {"altitude_yd": root.position.altitude_yd, "height_yd": figure_height_yd(root.mover)}
    while frontier and evaluated < budget:
        *_, node = heapq.heappop(frontier)
        if node.met:
            return _plan(root.entity, node, True, True, evaluated)
        if node.turn >= horizon:
            continue
        template = root if node.parent is None else body_in(root, node.state)
        lim = limits(world, template, chosen)
        walks: Walks = {}
        ahead = node.turn + 1
        tried = candidates(template, lim, risky, yards_short(aim, node.state, ahead), _place(aim, ahead))
        short_of: list[Intent] = []  # the intents that stop short of what the tried ones ran into
        for intent in chain(tried, short_of):
            if evaluated >= budget:
                break
            evaluated += 1
            outcome = advance(
                world, chosen, index, _with_intent(template, intent), node.state, lim=lim, walks=walks, walker=walker
            )
            if not taken(outcome, root.entity, ahead, caution=caution, ram=aim.ram, moving=moving, floor_yd=floor_yd):
                if length > 1 and outcome is not None and outcome.failure_chance <= caution:
                    stop = stop_short(template, intent, outcome) if outcome.struck not in (None, aim.ram) else None
                    if stop is not None and stop not in tried and stop not in short_of:
                        short_of.append(stop)
                continue
            if length > 1 and not way_on(index, outcome.state.hex, outcome.state.facing, length, **figure):
                continue
            after = capped(outcome.state, enough)
            if after is not outcome.state:
                outcome = Outcome(after, *outcome[1:])  # quicker to make than by _replace
            turn = node.turn + 1
            cost = node.cost + 1 + (RISK_PRICE * float(outcome.failure_chance) if outcome.failure_chance else 0)
            key = (outcome.state, turn)
            if seen.get(key, cost + 1) <= cost:
                continue
            seen[key] = cost
            short = yards_short(aim, outcome.state, turn)
            met = meets(aim, outcome.state, outcome.path, outcome.struck, turn, short=short)
            child = _Node(outcome.state, turn, cost, node, (intent, outcome), met)
            coasted = _coasted(aim, outcome.state, turn) if aim.stop and not met else 0
            child_key = (0 if met else max(1, short), cost, coasted, turn)
            if best_key is None or child_key < best_key:
                best, best_key = child, child_key
            bound = 0.0 if met else short / top if short else 1.0
            found += 1
            # of equal cost, the nearest first, then the one facing the goal, then the one whose pace fits the yards
            off = _facing_off(aim, outcome.state, turn)
            pace = abs(short - outcome.state.velocity)
            heapq.heappush(frontier, (cost + GREED * bound, bound, off, pace, found, child))
    nearer = best_key is not None and (best.met or best_key[0] < short_now)
    return _plan(root.entity, best, best.met, nearer, evaluated)


def _coasted(aim: Aim, state: State, turn: int) -> int:
    """How far (the square of the straight-line length, in hexes) ``state`` (after turn ``turn``) would be from
    ``aim``'s place a turn later at its velocity along its heading: of two best-effort plans toward a stop as near
    and as cheap, the one whose momentum carries it nearer (a mover past the hex it stops on, at high speed, where
    every throttle covers the same yards this turn, slows, and of two as slow the one turning toward the hex, to come
    back)."""
    place = _place(aim, turn + 1)
    if place is None:
        return 0
    q, r = along(state.hex, state.velocity, state.heading, 1)
    dq, dr = place[0] - q, place[1] - r
    return dq * dq + dq * dr + dr * dr


def _plan(entity: int, node: _Node, reaches: bool, nearer: bool, evaluated: int) -> Plan:
    steps: list[PlannedTurn] = []
    while node.step is not None and node.parent is not None:
        intent, outcome = node.step
        steps.append(
            PlannedTurn(
                replace(intent),  # the plan's own intent
                outcome.rolls,
                outcome.path,
                outcome.failure_chance,
                node.met,
                outcome.state,
            )
        )
        node = node.parent
    return Plan(entity, tuple(reversed(steps)), reaches, nearer, evaluated)


def named_entity(goal: Goal) -> int | None:
    """The entity ``goal`` names (pursued, fled, kept beside), or None."""
    if isinstance(goal, Flee):
        return goal.source
    if isinstance(goal, (Pursue, KeepStation)):
        return goal.target
    return None


def kept_state(kept: KeptPlan, turn: int) -> State:
    """The state ``kept`` predicts after its turn ``turn`` (0: now)."""
    return State(
        kept.hexes[turn],
        kept.facings[turn],
        kept.headings[turn],
        kept.velocities[turn],
        kept.straight_yd[turn],
        kept.high_speed[turn],
    )


def kept_intent(kept: KeptPlan, turn: int) -> Intent:
    """The intent of ``kept``'s turn ``turn`` (0: the next), as :func:`candidates` made it."""
    side = kept.veers[turn]
    return Intent(
        throttle=kept.throttles[turn],
        turn=kept.turns[turn],
        turn_at_yd=0 if kept.at_once[turn] else None,
        push=kept.pushes[turn],
        veer=(side,) * kept.velocities[turn] if side else (),
    )


def holds(
    world: World, chosen: Rules, root: Body, goal: Goal, *, caution: float, kept: KeptPlan, enough: int | None
) -> bool:
    """Whether the world stays as ``kept`` assumed: ``root`` in the state it predicted for now, the goal and
    caution the same, the entity the goal names where its prediction put it and at the same velocity, or anywhere
    while the plan is a first leg toward a quarry beyond its reach (:func:`far_leg`)."""
    if not kept.throttles or kept.goal != repr(goal) or kept.caution != caution:
        return False
    if capped(state_of(root), enough) != kept_state(kept, 0):
        return False
    other = named_entity(goal)
    if other is None or not world.exists(other) or not world.has(other, Position):
        return kept.target_hex is None
    hex, yps, heading = motion(world, other)
    if kept.target_hex is None:
        return False
    if (yps, heading) == (kept.target_yps, kept.target_heading) and hex == along(
        kept.target_hex, yps, heading, kept.followed
    ):
        return True
    return far_leg(world, chosen, root, goal, kept)


def far_leg(world: World, chosen: Rules, root: Body, goal: Goal, kept: KeptPlan) -> bool:
    """Whether ``kept``, a plan for ``root`` that does not meet ``goal``, a ``Pursue``, is a first leg toward a quarry
    beyond its reach: where the quarry is now predicted at the plan's end is further from ``root`` than the plan's
    turns left can cover at top speed, and the plan ends nearer it. Such a plan holds when the quarry changes speed
    (:func:`holds`)."""
    left = len(kept.throttles)
    if kept.reaches or not left or not isinstance(goal, Pursue):
        return False
    aim = aim_of(world, goal, left)
    place = None if aim is None else _place(aim, left)
    if aim is None or place is None:
        return False
    now = root.position.hex
    top = max(1, limits(world, root, chosen).top_speed)
    return distance(now, place) > aim.range_yd + top * left and distance(kept.hexes[-1], place) < distance(now, place)


def kept_turns(
    world: World,
    chosen: Rules,
    index: SpatialIndex,
    root: Body,
    goal: Goal,
    *,
    caution: float,
    kept: KeptPlan,
    most: int,
    moving: Moving = (),
) -> tuple[PlannedTurn, ...]:
    """The first ``most`` turns of ``kept`` for ``root`` while the world stays as it assumed (:func:`holds`) and each
    turn, simulated again now (:func:`advance`), is allowed within ``caution``, runs into nothing (but the entity
    rammed), ends where ``moving`` puts no other mover and leaves the state the plan predicted; none when the plan no
    longer holds from the first."""
    enough = straight_enough(world, chosen, root)
    if not holds(world, chosen, root, goal, caution=caution, kept=kept, enough=enough):
        return ()
    ram = goal.target if isinstance(goal, Pursue) and goal.ram else None
    walker = walker_of(world, index, root.entity)
    found: list[PlannedTurn] = []
    for turn in range(min(most, len(kept.throttles))):
        state = state_of(root) if turn == 0 else kept_state(kept, turn)
        intent = kept_intent(kept, turn)
        body = root if turn == 0 else body_in(root, state)
        outcome = advance(world, chosen, index, _with_intent(body, intent), state, walker=walker)
        if not taken(outcome, root.entity, turn + 1, caution=caution, ram=ram, moving=moving):
            break
        after = capped(outcome.state, enough)
        if after != kept_state(kept, turn + 1):
            break
        found.append(PlannedTurn(intent, outcome.rolls, outcome.path, outcome.failure_chance, kept.meets[turn], after))
    return tuple(found)


def one_turn(
    world: World,
    chosen: Rules,
    index: SpatialIndex,
    root: Body,
    goal: Goal,
    *,
    caution: float,
    kept: KeptPlan | None,
    moving: Moving = (),
    floor_yd: int = 0,
) -> PlannedTurn | None:
    """A turn for ``root`` chosen without a search (docs/goals.md > The planning budget): the next turn of ``kept``
    when, simulated from where ``root`` is now, the planner may take it (:func:`taken`); else the first of its
    :func:`candidates` it may take, tried in the order of how near the goal each would end on a straight way (the
    turn made as it opens, then straight on for the yards the throttle sets, at high speed its present velocity;
    the straight line to the goal, walls left out; of as near, the candidates' order); None when it may take none
    (or the entity the goal names is gone). A body several hexes long takes no turn that leaves it no way on, as in
    the search."""
    aim = aim_of(world, goal, 1)
    if aim is None:
        return None
    state = state_of(root)
    lim = limits(world, root, chosen)
    place = _place(aim, 1)

    def order() -> Iterator[Intent]:  # the candidates made and sorted only when the turns before are not taken
        if kept is not None and kept.throttles:
            yield kept_intent(kept, 0)
        risky, short = caution > 0, yards_short(aim, state, 1)
        first = first_candidate(root, lim, risky, short)
        surely = _surely_nearest(aim, root, lim, first)
        if surely:
            yield first
        ordered = _nearest_first(aim, root, lim, candidates(root, lim, risky, short, place))
        yield from ordered[1:] if surely else ordered  # first is first there (tests/gurps/planner/test_cost.py)

    walks: Walks = {}
    length = index.length(root.entity)
    walker = walker_of(world, index, root.entity)
    figure = {"altitude_yd": root.position.altitude_yd, "height_yd": figure_height_yd(root.mover)} if length > 1 else {}
    for intent in order():
        outcome = advance(world, chosen, index, _with_intent(root, intent), state, lim=lim, walks=walks, walker=walker)
        if not taken(outcome, root.entity, 1, caution=caution, ram=aim.ram, moving=moving, floor_yd=floor_yd):
            continue
        if length == 1 or way_on(index, outcome.state.hex, outcome.state.facing, length, **figure):
            met = meets(aim, outcome.state, outcome.path, outcome.struck, 1)
            return PlannedTurn(intent, outcome.rolls, outcome.path, outcome.failure_chance, met, outcome.state)
    return None


def _surely_nearest(aim: Aim, root: Body, lim: Limits, first: Intent) -> bool:
    """Whether ``first``, the first of ``root``'s :func:`candidates` (:func:`first_candidate`), comes first in
    :func:`_nearest_first`'s order, found without making or sorting the others: it does when it ends as near
    ``aim``'s place as any candidate could, each of which ends at most the furthest yards any of them goes this turn
    from where ``root`` is (below high speed the most its maneuver allows, at high speed its velocity), and the sort
    keeps the candidates' order among those as near. False for a goal of no place."""
    place = _place(aim, 1)
    if place is None:
        return False
    hex = root.position.hex
    if root.control.state is MoveState.HIGH_SPEED:
        way, yards = root.velocity.heading, root.velocity.yps
        most = yards  # every candidate goes its velocity
    else:
        way, yards = root.facing.direction, ordinary_yards(_with_intent(root, first), lim)
        most = ordinary_move_yd(first.maneuver, lim.move, lim.basic_move)  # every candidate has first's maneuver
    dq, dr = DIRECTIONS[(way + first.turn) % 6]
    gap = distance(hex, place)
    nearest = gap + most if aim.away else max(0, gap - most)
    return _short_of(aim, distance((hex[0] + dq * yards, hex[1] + dr * yards), place)) == _short_of(aim, nearest)


def _nearest_first(aim: Aim, root: Body, lim: Limits, tried: tuple[Intent, ...]) -> list[Intent]:
    """``tried``, intents for ``root``, in the order of how near ``aim``'s place after one turn each would end on a
    straight way (:func:`one_turn`): the turn made as the turn opens, then straight on for the yards the throttle
    sets, at high speed its present velocity; the yards short of the place (:func:`_short_of`) along the straight
    line, walls left out; for a goal of no place, the velocity it would end with; of as near, in ``tried``'s order.
    The keys are worked out in one loop, each throttle's yards once and the hex distance inline
    (:func:`~esper_motion.ecs.hexgrid.distance`): one turn chosen without a search sorts some 16 of them."""
    place = _place(aim, 1)
    yps = root.velocity.yps
    high = root.control.state is MoveState.HIGH_SPEED
    paces: dict[int, int] = {}  # the yards each throttle sets
    for intent in tried:
        throttle = intent.throttle
        if throttle not in paces:
            paces[throttle] = yps if high else ordinary_yards(_with_intent(root, intent), lim)
    if place is None:  # the velocity each would end with
        ends = {throttle: max(0, yps + throttle) if high else yards for throttle, yards in paces.items()}
        keys = [ends[intent.throttle] for intent in tried]
    else:
        way = root.velocity.heading if high else root.facing.direction
        x, y = root.position.hex[0] - place[0], root.position.hex[1] - place[1]
        reach, away = aim.range_yd, aim.away
        keys = []
        for intent in tried:
            yards = paces[intent.throttle]
            dq, dr = DIRECTIONS[(way + intent.turn) % 6]
            q, r = x + dq * yards, y + dr * yards
            gap = (abs(q) + abs(r) + abs(q + r)) // 2
            keys.append(max(0, reach - gap) if away else max(0, gap - reach))
    return [tried[number] for number in sorted(range(len(tried)), key=keys.__getitem__)]

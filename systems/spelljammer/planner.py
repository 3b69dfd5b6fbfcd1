"""DECIDE: the round's intent of every Spelljammer character with a goal (:class:`GoalPlanner`), and :func:`plan`, the
rounds it would play, shown before they happen.

The goals are the components of ``esper_motion.components.goals``, read here as the rule set moves: a character
moves in a straight line along one of six headings, or chases a runner straight to its side, at one of the speed
modes its vegetation allows (Spelljammer: Running, Shooting, Chasing and Fleeing > Movement and Defense, Restricted
Movement). Ranges (``range_yd``) count hexes of the map.

- ``Pursue``: a target that is a character is chased (``RoundIntent.chase``) at the chase mode that closes to
  ``range_yd`` soonest, the slower of two equally good; any other target is approached along a heading.
- ``Hunt``: a ``Pursue`` of its :func:`quarry`, the nearest character that flees from it, chosen afresh each round.
- ``Flee``: a heading and a mode that keep ``source`` at least ``range_yd`` away. Past the search's last round it
  looks :data:`BEYOND_ROUNDS` rounds on, both sides at the top speed the vegetation where it ends allows them (the
  rules' TMR fraction and forbidden modes for it): a runner chased by a faster pursuer takes the way into the
  vegetation that slows the pursuer most, over open ground and over a lighter thicket, and one chased by a slower
  pursuer keeps to open ground. A runner takes only a way whose every hex is farther from the source than it starts
  (it does not flee past it, nor along it). Once out of range of a source that does not chase it, and not losing
  that range within the search, it is no better off farther: it takes the round that costs least by the rules
  (:data:`DEFENSE_PRICE` for the defense a mode gives up, :data:`FATIGUE_PRICE` for sprinting), standing while the
  source stays off and moving off at the slowest mode that keeps its range as the source comes on; a runner that
  is chased runs on, as far as it can (a chase is at a Run unless a side speeds up).
- ``GoTo``, ``KeepStation`` and ``Patrol``: a heading and a mode toward the hex (stopping on it, or passing through),
  toward the entity, or toward the next waypoint; ``Hold``: stay put.

A search looks :data:`HORIZON` rounds ahead over every intent the rules' own check accepts from the character's
state (its hex, the fraction of a hex it carries, the seconds it owes). The entity its goal names is predicted to
go on as its intent says, at the fastest mode no faster than it asks that its vegetation allows, chasing where it
chases. The cost of a plan is its shortfall each round (how far from meeting the goal, in rounds of the character's
top speed), plus :data:`RISK_PRICE` rounds for a certain failure, plus :data:`FATIGUE_PRICE` rounds for each point
of non-lethal damage sprinting is expected to deal. Caution (``Caution``) is the largest chance of failing a roll the
character accepts in a round: the Fast Sprint roll of a chase (a 2x DEX roll) and a pursuit action's roll (failing
is 5x or worse). It rolls no die and breaks every tie by a fixed order (the slower mode, then the lower heading), so
a world plays the same from the same seed, before and after a save and load.

Its page: docs/goals.md > Spelljammer.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Final, NamedTuple

from esper_motion.components.goals import (
    CHARACTER_GOAL_TYPES,
    Caution,
    Flee,
    GoTo,
    Hold,
    Hunt,
    KeepStation,
    Patrol,
    Pursue,
)
from esper_motion.components.motion import Position
from esper_motion.components.spelljammer import (
    Mobility,
    RoundIntent,
    RoundState,
    SpeedMode,
    Vegetation,
    VegetationZone,
    parse_time_dice,
)
from esper_motion.ecs import Phase, System, World, WorldError
from esper_motion.ecs.hexgrid import Hex, distance, line
from esper_motion.systems.spelljammer._shared import VegetationMap, options_of
from esper_motion.systems.spelljammer.events import GoalLost, GoalUnreachable
from esper_motion.systems.spelljammer.move import destination, stride
from esper_motion.systems.spelljammer.rules import (
    CHASE_MODES,
    SPEEDS,
    SQUARE_FT,
    allowed_modes,
    defense_allowed,
    movement_rate,
    nonlethal_damage,
)
from esper_motion.systems.spelljammer.speed import usual_mode

HORIZON: Final = 2
"""The rounds a search looks ahead before it chooses a round's intent."""

RISK_PRICE: Final = 2.0
"""What a round's chance of failing a roll costs, in rounds: of two plans equally quick the safer is taken."""

FATIGUE_PRICE: Final = 0.01
"""What a point of expected non-lethal damage from sprinting costs, in rounds: a character sprints only where it
gains ground by it."""

DEFENSE_PRICE: Final = 0.001
"""What each part of its defense a character fleeing a source that does not chase it gives up for a round's speed
mode costs, in rounds (Run gives up two: the whole DEF and the shield; Sprint three; Fast Sprint four: ... >
Movement and Defense): of two ways that keep it as far off, it takes the one at the slower mode."""

STRAIGHT_PRICE: Final = 0.001
"""What each round of the character's top speed of straight-line distance from (or, fleeing while still short of
its range, toward) its aim costs, in rounds: it only breaks ties between headings the hex count finds equal, so the
character goes straight at it or straight away."""

BEYOND_ROUNDS: Final = 3
"""The rounds past its plan's last that a fleeing character looks on from where that round ends, both sides moving
at the top speed the vegetation there allows them: the way into the vegetation that slows the pursuer most keeps the
faster pursuer off longest."""

MODES: Final = (SpeedMode.DODGE, SpeedMode.WALK, SpeedMode.RUN, SpeedMode.SPRINT, SpeedMode.FAST_SPRINT)
"""The modes a character moving along a heading is planned at, slowest first (Stealthy moves as Dodge does)."""

FAST_SPRINT_MULTIPLE: Final = 2
"""A pursuer at Fast Sprint attacks only on a 2x DEX roll (... > Chasing and Fleeing, the chase table's footnote)."""

PURSUIT_FAIL_MULTIPLE: Final = 4
"""A pursuit action fails on a roll above 4x the score (5x or worse: ... > Chasing and Fleeing (Pursuit Actions))."""

_PACE: Final = {row.mode: row.tmr_multiple for row in SPEEDS}

Goal = GoTo | Pursue | Flee | KeepStation | Patrol | Hold
"""A goal as the search plays it (a ``Hunt`` searches as a ``Pursue`` of its quarry)."""


@dataclass(frozen=True, slots=True)
class RoundRoll:
    """A d100 roll a planned round needs: what for, the score it is graded against, and the chance it fails (a
    roll above ``fails_above``)."""

    purpose: str
    score: int
    fails_above: int
    failure_chance: Fraction


@dataclass(frozen=True, slots=True)
class PlannedRound:
    """One round of a plan: the intent's ``mode``, ``heading`` and ``chase`` (None: stay put with both None), the
    rolls it needs, where it starts and ends, the chance any roll fails, and whether it meets the goal."""

    mode: SpeedMode | None
    heading: int | None
    chase: int | None
    rolls: tuple[RoundRoll, ...]
    start: Hex
    end: Hex
    failure_chance: Fraction
    meets_goal: bool

    @property
    def path(self) -> list[Hex]:
        """The hexes the round enters, in order: a straight line from ``start`` to ``end`` (none standing still)."""
        return line(self.start, self.end)[1:]


@dataclass(frozen=True, slots=True)
class RoundPlan:
    """A character's plan for the next rounds (:func:`plan`): ``rounds`` in order; ``reaches`` whether the goal is
    met at their end; ``nearer`` whether the first ends nearer the goal than the character is now (or meets it)."""

    entity: int
    rounds: tuple[PlannedRound, ...]
    reaches: bool
    nearer: bool

    @property
    def turns(self) -> tuple[PlannedRound, ...]:
        """The ``rounds``, by the name the demo window reads a plan's turns under
        (:attr:`esper_motion.ecs.SceneSupport.plan`)."""
        return self.rounds


class _Side(NamedTuple):
    """A character's state from round to round as the search sees it."""

    hex: Hex
    carry: float
    owed: int


@dataclass(frozen=True, slots=True)
class _Other:
    """The entity a goal names, as the search predicts it: a character goes on as its intent says."""

    mobility: Mobility | None  # None: not a character, it stays where it is
    mode: SpeedMode
    heading: int | None
    chases_mover: bool
    chases_at: Hex | None  # where the runner it chases (not the mover) stands


class _Choice(NamedTuple):
    mode: SpeedMode | None
    heading: int | None
    chase: bool


_STAY: Final = _Choice(None, None, chase=False)


@dataclass(frozen=True, slots=True)
class _Aim:
    """A goal made concrete: the hex aimed at (None: the entity's predicted place), how near is near enough, and
    how the goal is met."""

    goal: Goal
    hex: Hex | None
    range_hex: int
    away: bool
    passing: bool  # met by passing through the hex (GoTo without stop, a patrol's waypoint)
    chase: int | None  # the character chased


@dataclass(frozen=True, slots=True)
class _Search:
    """What one character's search reads, fixed for the round."""

    entity: int
    mobility: Mobility
    vegetation: _Under
    hex_ft: int
    caution: float
    aim: _Aim
    other: _Other | None
    scale: float  # the character's top speed in hexes a round (at least 1)


class _Under:
    """The vegetation on each hex, looked up once per search (a thicket drawn hex by hex is many zones)."""

    def __init__(self, vegetation: VegetationMap) -> None:
        self._map = vegetation
        self._seen: dict[Hex, Vegetation | None] = {}

    def at(self, hex: Hex) -> Vegetation | None:
        """The vegetation on ``hex``, or None for open ground."""
        if hex not in self._seen:
            self._seen[hex] = self._map.at(hex)
        return self._seen[hex]


def goals(world: World) -> dict[int, Goal | Hunt]:
    """Every goal the planner plays in ``world`` by entity (the first of
    :data:`~esper_motion.components.goals.CHARACTER_GOAL_TYPES` an entity holds; a character holds no other:
    :data:`~esper_motion.components.goals.PLAYED`)."""
    found: dict[int, Goal | Hunt] = {}
    for kind in reversed(CHARACTER_GOAL_TYPES):
        for entity, (goal,) in world.scan(kind):
            assert isinstance(goal, CHARACTER_GOAL_TYPES)
            found[entity] = goal
    return found


def quarry(world: World, hunter: int) -> int | None:
    """The character ``hunter``'s ``Hunt`` chases now: the nearest of those that flee from it (a ``Flee`` goal or a
    ``RoundIntent.flee_from`` naming it), the lowest id of equally near ones; None when none does."""
    at = world.get(hunter, Position).hex
    found = []
    for entity, (intent, _, _, position) in world.scan(RoundIntent, RoundState, Mobility, Position):
        flight = world.try_get(entity, Flee)
        if hunter in intent.flee_from or (flight is not None and flight.source == hunter):
            found.append((distance(at, position.hex), entity))
    return min(found)[1] if found else None


def _chance_above(threshold: int) -> Fraction:
    """The chance a d100 rolls above ``threshold``."""
    return Fraction(100 - min(100, max(0, threshold)), 100)


def _pursuit_roll(mobility: Mobility, intent: RoundIntent) -> RoundRoll | None:
    """The roll of the pursuit action ``intent`` asks for, graded as ``PursuitActions`` grades it, or None."""
    if intent.pursuit_dice is None:
        return None
    score = mobility.dex
    skill = intent.pursuit_skill
    if skill is not None and mobility.skills.get(skill, 0) > score:
        score = mobility.skills[skill]
    fails_above = PURSUIT_FAIL_MULTIPLE * score
    what = intent.pursuit_label or "a pursuit action"
    return RoundRoll(what, score, fails_above, _chance_above(fails_above))


def _fatigue(mode: SpeedMode | None) -> float:
    """The non-lethal damage a round at ``mode`` is expected to deal."""
    dice = None if mode is None else nonlethal_damage(mode)
    if dice is None:
        return 0.0
    count, sides, adds = parse_time_dice("nonlethal_damage", "dice", dice)
    return count * (sides + 1) / 2 + adds


def _unchased(search: _Search) -> bool:
    """Whether the character flees a source that does not chase it: out of range it keeps off at the least cost
    (a chased runner runs on: a chase is at a Run unless a side speeds up, ... > Chasing and Fleeing)."""
    return search.other is None or not search.other.chases_mover


def _defense_lost(mode: SpeedMode | None) -> int:
    """The parts of its defense a character gives up moving at ``mode`` (none standing still): the whole DEF, DEX,
    the Defense skill, magic and the shield, as ... > Movement and Defense leaves them."""
    if mode is None:
        return 0
    kept = defense_allowed(mode)
    return sum(not part for part in (kept.full, kept.dex, kept.defense_skill, kept.magic, kept.shield))


def _clamped(mode: SpeedMode, allowed: Sequence[SpeedMode]) -> SpeedMode:
    """``mode``, or the fastest of ``allowed`` no faster than it (Walk at least)."""
    if mode in allowed:
        return mode
    slower = [m for m in CHASE_MODES if m in allowed and _PACE[m] <= _PACE[mode]]
    return slower[-1] if slower else SpeedMode.WALK


def _other(world: World, mover: int, entity: int, vegetation: _Under) -> _Other:
    """How the search predicts ``entity``, the one ``mover``'s goal names."""
    parts = [world.try_get(entity, kind) for kind in (Mobility, RoundIntent, RoundState)]
    mobility, intent, state = parts[0], parts[1], parts[2]
    if not isinstance(mobility, Mobility) or not isinstance(intent, RoundIntent) or not isinstance(state, RoundState):
        return _Other(None, SpeedMode.WALK, None, chases_mover=False, chases_at=None)
    under = vegetation.at(world.get(entity, Position).hex)
    mode = intent.mode or state.mode or usual_mode(intent, under)
    chased = intent.chase
    chases_at = None
    if chased is not None and chased != mover and world.exists(chased) and world.has(chased, Position):
        chases_at = world.get(chased, Position).hex
    return _Other(mobility, mode, intent.heading, chases_mover=chased == mover, chases_at=chases_at)


def _aim(world: World, entity: int, goal: Goal) -> _Aim | str:
    """``goal`` made concrete for ``entity``, or why it cannot be followed now."""
    if isinstance(goal, Hold):
        return _Aim(goal, None, 0, away=False, passing=False, chase=None)
    if isinstance(goal, GoTo):
        return _Aim(goal, goal.hex, 0, away=False, passing=not goal.stop, chase=None)
    if isinstance(goal, Patrol):
        return _Aim(goal, goal.waypoints[goal.next_index], 0, away=False, passing=True, chase=None)
    other = goal.source if isinstance(goal, Flee) else goal.target
    assert other is not None  # a lost entity was set to None, and the goal held, before this
    if not world.has(other, Position):
        return f"entity {other} has no Position"
    if isinstance(goal, Flee):
        return _Aim(goal, None, goal.range_yd, away=True, passing=False, chase=None)
    chase = None
    if isinstance(goal, Pursue) and all(world.has(other, kind) for kind in (Mobility, RoundIntent, RoundState)):
        chase = other
    near = max(1, goal.range_yd) if chase is not None else goal.range_yd
    return _Aim(goal, None, near, away=False, passing=False, chase=chase)


def _choices(search: _Search, at: Hex) -> list[_Choice]:
    """Every intent the rules' check accepts from ``at``, in the fixed order ties are broken by."""
    allowed = allowed_modes(search.vegetation.at(at))
    if search.aim.chase is not None:
        return [_Choice(mode, None, chase=True) for mode in CHASE_MODES if mode in allowed]
    if isinstance(search.aim.goal, Hold):
        return [_STAY]
    return [_STAY, *(_Choice(mode, heading, chase=False) for heading in range(6) for mode in MODES if mode in allowed)]


def _rolls(search: _Search, choice: _Choice, pursuit: RoundRoll | None) -> tuple[RoundRoll, ...]:
    """The rolls a round of ``choice`` needs (``pursuit``: the pursuit action asked for this round)."""
    found = [] if pursuit is None else [pursuit]
    if choice.chase and choice.mode is SpeedMode.FAST_SPRINT:
        dex = search.mobility.dex
        fails_above = FAST_SPRINT_MULTIPLE * dex
        found.append(
            RoundRoll("keeping its feet chasing at a fast sprint", dex, fails_above, _chance_above(fails_above))
        )
    return tuple(found)


def _failure(rolls: Sequence[RoundRoll]) -> Fraction:
    """The chance that any of ``rolls`` fails."""
    kept = Fraction(1)
    for roll in rolls:
        kept *= 1 - roll.failure_chance
    return 1 - kept


def _advance(
    search: _Search, mobility: Mobility, side: _Side, mode: SpeedMode, *, heading: int | None, at: Hex | None
) -> _Side:
    """``side`` after a round at ``mode``, along ``heading`` or chasing toward ``at``; staying put with neither."""
    went = stride(
        mobility,
        mode,
        search.vegetation.at(side.hex),
        seconds_owed=side.owed,
        carry_hex=side.carry,
        hex_ft=search.hex_ft,
    )
    if heading is None and at is None:
        return _Side(side.hex, 0.0, went.owed)
    taken, end = destination(side.hex, went.steps, heading, at)
    return _Side(end, went.carry if taken == went.steps else 0.0, went.owed)


def _round(search: _Search, me: _Side, other: _Side | None, choice: _Choice) -> tuple[_Side, _Side | None]:
    """Both sides after a round in which the character plays ``choice``: a runner moves before its pursuer."""
    mode = SpeedMode.WALK if choice.mode is None else choice.mode
    predicted = search.other
    if other is None or predicted is None or predicted.mobility is None:
        return _advance(search, search.mobility, me, mode, heading=choice.heading, at=None), other
    other_mode = _clamped(predicted.mode, allowed_modes(search.vegetation.at(other.hex)))

    def move_other(toward: Hex | None) -> _Side:
        assert predicted is not None and predicted.mobility is not None and other is not None
        heading = None if toward is not None else predicted.heading
        return _advance(search, predicted.mobility, other, other_mode, heading=heading, at=toward)

    if choice.chase:
        moved = move_other(me.hex if predicted.chases_mover else predicted.chases_at)
        return _advance(search, search.mobility, me, mode, heading=None, at=moved.hex), moved
    mine = _advance(search, search.mobility, me, mode, heading=choice.heading, at=None)
    return mine, move_other(mine.hex if predicted.chases_mover else predicted.chases_at)


def _target(search: _Search, other: _Side | None) -> Hex:
    aimed = search.aim.hex if search.aim.hex is not None else None if other is None else other.hex
    assert aimed is not None  # a goal naming an entity always has one predicted
    return aimed


def _shortfall(
    search: _Search, start: Hex, me: _Side, other: _Side | None, *, gained: float = 0.0
) -> tuple[float, bool]:
    """How far from its goal the character ends a round (0 when met, else in rounds of its top speed), and whether
    the round met it; a fleeing character's shortfall counts ``gained`` hexes more between it and the source (what
    it is predicted to gain after the round, :func:`_beyond`)."""
    aim = search.aim
    if isinstance(aim.goal, Hold):
        return 0.0, True
    aimed = _target(search, other)
    gap = distance(me.hex, aimed)
    straight = STRAIGHT_PRICE * _euclid(me.hex, aimed) / search.scale
    if aim.away:
        short = max(0.0, aim.range_hex - gap - gained) / search.scale
        settled = short == 0 and _unchased(search)  # out of range, not losing it: no farther is any better
        return 0.0 if settled else short - straight, gap >= aim.range_hex
    if aim.passing and aimed in line(start, me.hex):
        return 0.0, True
    met = gap <= aim.range_hex
    return (0.0 if met else gap / search.scale) + straight, met


def _passes_near(start: Hex, end: Hex, source: Hex) -> bool:
    """Whether a hex of the way from ``start`` to ``end`` is no farther from ``source`` than ``start`` is: a runner
    does not flee past its pursuer, nor along it."""
    way = line(start, end)[1:]
    return bool(way) and min(distance(hex, source) for hex in way) <= distance(start, source)


def _euclid(a: Hex, b: Hex) -> float:
    """The straight-line distance between the centres of hexes ``a`` and ``b``, in hexes."""
    dq, dr = a[0] - b[0], a[1] - b[1]
    return math.hypot(dq + dr / 2, dr * math.sqrt(3) / 2)


def _top_rate(search: _Search, mobility: Mobility, mode: SpeedMode, vegetation: Vegetation | None) -> float:
    """The hexes a round at ``mode`` (or the fastest no faster that ``vegetation`` allows) covers in
    ``vegetation``, by the rules' speed limits for it (... > Restricted Movement)."""
    allowed = _clamped(mode, allowed_modes(vegetation))
    squares = movement_rate(mobility.tmr, allowed, mobility.encumbrance, vegetation)
    return squares * SQUARE_FT / search.hex_ft


def _beyond(search: _Search, me: _Side) -> float:
    """The hexes a fleeing character gains on its pursuer (negative: loses) in :data:`BEYOND_ROUNDS` rounds past its
    plan, both at the top speed the vegetation where it ends allows them (the pursuer no faster than it is
    predicted to go): the pursuer must come through there. 0 for a source that is no character."""
    predicted = search.other
    if predicted is None or predicted.mobility is None:
        return 0.0
    under = search.vegetation.at(me.hex)
    mine = _top_rate(search, search.mobility, SpeedMode.FAST_SPRINT, under)
    return BEYOND_ROUNDS * (mine - _top_rate(search, predicted.mobility, predicted.mode, under))


def _cost(
    search: _Search, me: _Side, other: _Side | None, depth: int, pursuit: RoundRoll | None
) -> tuple[float, _Choice, _Side, _Side | None, tuple[RoundRoll, ...], bool]:
    """The cheapest plan ``depth`` rounds deep from ``me`` and ``other``: its cost, and its first round's choice,
    the two sides after it, its rolls and whether it meets the goal. Only a pursuit action asked for this round
    (``pursuit``) is rolled in the first round."""
    best: tuple[float, _Choice, _Side, _Side | None, tuple[RoundRoll, ...], bool] | None = None
    for choice in _choices(search, me.hex):
        rolls = _rolls(search, choice, pursuit)
        failure = _failure(rolls)
        if failure > search.caution:
            continue
        mine, theirs = _round(search, me, other, choice)
        if search.aim.away and other is not None and _passes_near(me.hex, mine.hex, other.hex):
            continue
        gained = _beyond(search, mine) if search.aim.away and depth == 1 else 0.0
        short, met = _shortfall(search, me.hex, mine, theirs, gained=gained)
        moved = choice.mode if mine.hex != me.hex else None
        cost = short + RISK_PRICE * float(failure) + FATIGUE_PRICE * _fatigue(moved)
        if search.aim.away and _unchased(search):
            cost += DEFENSE_PRICE * _defense_lost(moved)
        if met and search.aim.passing:
            depth_cost = 0.0  # passed through: the goal is done with
        elif depth > 1:
            depth_cost = _cost(search, mine, theirs, depth - 1, None)[0]
        else:
            depth_cost = 0.0
        total = cost + depth_cost
        if best is None or total < best[0]:
            best = (total, choice, mine, theirs, rolls, met)
    assert best is not None  # staying put, or chasing at Walk, needs no roll
    return best


def _search(world: World, entity: int, goal: Goal | Hunt) -> tuple[_Search, _Side, _Side | None] | str:
    """The search of ``entity``'s round toward ``goal``, with both sides as they stand, or why there is none (a hunt
    searches as a ``Pursue`` of its :func:`quarry`)."""
    if isinstance(goal, Hunt):
        chased = quarry(world, entity)
        if chased is None:
            return "no character flees from it"
        goal = Pursue(chased, goal.range_yd)
    aim = _aim(world, entity, goal)
    if isinstance(aim, str):
        return aim
    mobility = world.get(entity, Mobility)
    state = world.get(entity, RoundState)
    vegetation = _Under(VegetationMap(zone for _, zone in world.scan(Position, VegetationZone)))
    hex_ft = options_of(world).hex_ft
    named = goal.source if isinstance(goal, Flee) else getattr(goal, "target", None)
    other = None if named is None else _other(world, entity, named, vegetation)
    found = world.try_get(entity, Caution)
    top = mobility.tmr * float(_PACE[SpeedMode.FAST_SPRINT]) * SQUARE_FT / hex_ft
    search = _Search(
        entity, mobility, vegetation, hex_ft, 0.0 if found is None else found.failure_chance, aim, other, max(1.0, top)
    )
    me = _Side(world.get(entity, Position).hex, state.carry_hex, state.seconds_owed)
    theirs = None
    if named is not None:
        their_state = world.try_get(named, RoundState)
        carry, owed = (0.0, 0) if their_state is None else (their_state.carry_hex, their_state.seconds_owed)
        theirs = _Side(world.get(named, Position).hex, carry, owed)
    return search, me, theirs


def _planned(search: _Search, me: _Side, other: _Side | None, rounds: int, pursuit: RoundRoll | None) -> RoundPlan:
    """The plan of ``rounds`` rounds from ``me`` and ``other``, each round chosen by a search from where the one
    before is predicted to end."""
    start_gap = None
    planned = []
    for number in range(rounds):
        _, choice, mine, theirs, rolls, met = _cost(search, me, other, HORIZON, pursuit if number == 0 else None)
        if start_gap is None:
            before = distance(me.hex, _target(search, other)) if not isinstance(search.aim.goal, Hold) else 0
            after = distance(mine.hex, _target(search, theirs)) if not isinstance(search.aim.goal, Hold) else 0
            start_gap = met or (after > before if search.aim.away else after < before)
        chase = search.aim.chase if choice.chase else None
        planned.append(PlannedRound(choice.mode, choice.heading, chase, rolls, me.hex, mine.hex, _failure(rolls), met))
        me, other = mine, theirs
    return RoundPlan(search.entity, tuple(planned), planned[-1].meets_goal if planned else False, bool(start_gap))


def _lose_target(world: World, entity: int, goal: Goal | Hunt) -> bool:
    """Set the entity field of ``goal`` to None, and say so, when the entity it names is gone; whether it did."""
    if not isinstance(goal, (Pursue, Flee, KeepStation)):
        return False
    name = "source" if isinstance(goal, Flee) else "target"
    other = getattr(goal, name)
    if other is None or world.exists(other):
        return other is None
    setattr(goal, name, None)
    world.emit(GoalLost(entity, type(goal).__name__, other))
    return True


def _write(intent: RoundIntent, first: PlannedRound, pursuit: RoundRoll | None) -> None:
    """Write ``first`` into ``intent``: the mode, heading and chase; a chase ends a flight from the runner, and
    standing still ends every flight (a fleeing character needs a heading); a pursuit action beyond the caution is
    not attempted."""
    intent.mode, intent.heading, intent.chase, intent.match_speed = first.mode, first.heading, first.chase, False
    if first.chase is not None:
        intent.flee_from = tuple(foe for foe in intent.flee_from if foe != first.chase)
    elif first.heading is None:
        intent.flee_from = ()
    if intent.pursuit_dice is not None and pursuit not in first.rolls:
        intent.pursuit_dice, intent.pursuit_label, intent.pursuit_skill = None, "", None


def _kept_pursuit(search: _Search, intent: RoundIntent) -> RoundRoll | None:
    """The pursuit action asked for this round, if its chance of failing is within the caution."""
    roll = _pursuit_roll(search.mobility, intent)
    return roll if roll is not None and roll.failure_chance <= search.caution else None


class GoalPlanner(System):
    """DECIDE phase: writes the ``RoundIntent`` (``mode``, ``heading``, ``chase``, ``match_speed``) of every character
    with a goal, in initiative order (higher TMR first, then lower id), from the first round of the plan its search
    finds; every other character's intent stays as the game wrote it. Reads the goal components, ``Caution``,
    ``Mobility``, ``RoundIntent``, ``RoundState``, ``Position``, every ``VegetationZone`` and the ``hex_ft`` option;
    writes ``RoundIntent`` (a chase drops the runner from ``flee_from``, standing still empties it, and a pursuit
    action the game asked for is cleared when its chance of failing is beyond the caution), ``Patrol.next_index`` as
    each waypoint is passed, and the entity field of a goal whose entity is gone (None: the character holds); emits
    :class:`GoalLost` for that, and :class:`GoalUnreachable` when no round the rules allow within its caution brings
    it nearer (it does its best). Rolls no die. Implements no rule section: it chooses among the intents Spelljammer:
    Running, Shooting, Chasing and Fleeing allows.

    Its page: docs/goals.md.
    """

    phase = Phase.DECIDE
    acts_on = CHARACTER_GOAL_TYPES

    def run(self) -> None:
        """Decide for every character with a goal."""
        world = self.world
        found = goals(world)
        if not found:
            return
        rows = sorted(world.scan(Mobility, RoundIntent, RoundState, Position), key=lambda row: (-row[1][0].tmr, row[0]))
        for entity, (_, intent, _, _) in rows:
            goal = found.get(entity)
            if goal is None:
                continue
            if _lose_target(world, entity, goal):
                goal = Hold()
            prepared = _search(world, entity, goal)
            if isinstance(prepared, str):
                world.emit(GoalUnreachable(entity, type(goal).__name__, prepared))
                prepared = _search(world, entity, Hold())
                assert not isinstance(prepared, str)
            search, me, other = prepared
            pursuit = _kept_pursuit(search, intent)
            chosen = _planned(search, me, other, 1, pursuit)
            first = chosen.rounds[0]
            if not chosen.nearer:
                world.emit(
                    GoalUnreachable(
                        entity, type(goal).__name__, "no round the rules allow within its caution brings it nearer"
                    )
                )
            _write(intent, first, pursuit)
            if isinstance(goal, Patrol) and first.meets_goal:
                goal.next_index = (goal.next_index + 1) % len(goal.waypoints)


def plan(world: World, entity: int, rounds: int = HORIZON) -> RoundPlan:
    """The plan Spelljammer character ``entity`` would follow toward its goal over the next ``rounds`` rounds, as the
    planner finds it now: each round's mode, heading or chase, the rolls it needs with their exact odds, and where
    it ends (shown before it happens). Each round after the first is chosen from where the one before is predicted
    to end. Nothing in the world changes. A :class:`~esper_motion.ecs.WorldError` for an entity with no goal, one
    that is not a character, or one whose goal's entity is gone or has no place."""
    if not isinstance(rounds, int) or isinstance(rounds, bool) or rounds < 1:
        raise WorldError(f"plan: rounds = {rounds!r}: expected a whole number of rounds, 1 or more")
    goal = goals(world).get(entity)
    if goal is None:
        kinds = ", ".join(kind.__name__ for kind in CHARACTER_GOAL_TYPES)
        raise WorldError(f"entity {entity} has no goal: give it one of {kinds}")
    if not all(world.has(entity, kind) for kind in (Mobility, RoundIntent, RoundState, Position)):
        raise WorldError(
            f"entity {entity} is not a Spelljammer character (Mobility, RoundIntent, RoundState, Position)"
        )
    named = goal.source if isinstance(goal, Flee) else getattr(goal, "target", "none")
    if named is None or (isinstance(named, int) and not world.exists(named)):
        raise WorldError(f"entity {entity}: the entity its {type(goal).__name__} goal names is gone")
    prepared = _search(world, entity, goal)
    if isinstance(prepared, str):
        raise WorldError(f"entity {entity} cannot follow its {type(goal).__name__} goal now: {prepared}")
    search, me, other = prepared
    return _planned(search, me, other, rounds, _kept_pursuit(search, world.get(entity, RoundIntent)))

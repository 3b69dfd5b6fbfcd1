"""DECIDE: the intents of movers with a goal, chosen by the planner's search; and the plan shown before it happens."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from operator import attrgetter
from typing import Any, Final, Literal

from esper_motion.components.flight import FlightIntent
from esper_motion.components.goals import (
    GOAL_TYPES,
    MAX_WAITED,
    Caution,
    Charge,
    Flee,
    Goal,
    KeepStation,
    KeptPlan,
    Patrol,
    Pursue,
    Swoop,
)
from esper_motion.components.gurps import Intent, Maneuver, MoveState, Obstacle, Posture, PostureState
from esper_motion.components.motion import Position
from esper_motion.ecs import Phase, System, World, WorldError, watch
from esper_motion.ecs.hexgrid import Hex
from esper_motion.systems.gurps.events import GoalLost, GoalUnreachable
from esper_motion.systems.gurps.options import Rules
from esper_motion.systems.gurps.planner.cover import cover_goal
from esper_motion.systems.gurps.planner.flight import (
    FLIER_GOALS,
    airborne_why,
    flier_goal,
    floor_yd,
    fly,
    fly_level,
    kept_paths,
    with_climbs,
)
from esper_motion.systems.gurps.planner.mounted import (
    Steer,
    bucking,
    charge_goal,
    mount_out_of_control,
    out_of_fight,
    steering,
    strike,
)
from esper_motion.systems.gurps.planner.search import (
    HORIZON,
    Fields,
    Moving,
    Plan,
    PlannedTurn,
    kept_intent,
    kept_turns,
    motion,
    moving_others,
    named_entity,
    one_turn,
    search,
    state_of,
)
from esper_motion.systems.gurps.shared.movers import Body, bodies, body_of, installed_rules
from esper_motion.systems.gurps.shared.spatial import SpatialIndex

_INTENT_FIELDS = ("maneuver", "throttle", "turn", "turn_at_yd", "push", "veer", "slam", "life_or_death", "turns")

REPLAN_LEFT: Final = 2
"""A kept plan that does not reach the goal is searched again once fewer of its turns than this are left (one that
reaches it is followed to its end)."""

SEARCHES_PER_TURN: Final = 4
"""The most searches the planner makes in one turn (docs/goals.md > The planning budget): the movers that need one
get it in the order of the turns they have waited for one (``KeptPlan.waited``), then of initiative; the rest take a
turn chosen without a search (:func:`~esper_motion.systems.gurps.planner.search.one_turn`)."""


@dataclass(slots=True)
class Budget:
    """The searches the planner may still make this turn (:data:`SEARCHES_PER_TURN` as it opens)."""

    left: int


_PER_TURN = ("throttles", "turns", "at_once", "pushes", "veers", "meets")
_PER_STATE = ("hexes", "facings", "headings", "velocities", "straight_yd", "high_speed")
_KEPT_FIELDS = tuple(field.name for field in dataclasses.fields(KeptPlan) if field.name != "waited")
_kept_values: Final = attrgetter(*_KEPT_FIELDS)


def goals(world: World) -> dict[int, Goal]:
    """Every goal in ``world`` by entity (the first of :data:`~esper_motion.components.goals.GOAL_TYPES` an entity
    holds), kept while the world keeps its shape (:meth:`esper_motion.ecs.World.per_shape`)."""
    found: dict[int, Goal] = {}
    for kind in reversed(GOAL_TYPES):
        found.update(world.per_shape((goals, kind), (kind,), _by_entity))
    return found


def _by_entity(rows: Sequence[tuple[int, tuple[Any, ...]]]) -> dict[int, Any]:
    return {entity: component for entity, (component,) in rows}


def caution_of(world: World, entity: int) -> float:
    """``entity``'s :class:`~esper_motion.components.goals.Caution`, 0 without one."""
    found = world.try_get(entity, Caution)
    return 0.0 if found is None else found.failure_chance


def _unplanned(world: World, body: Body, steer: Steer) -> str | None:
    """Why the planner cannot plan ``body``'s movement for ``steer`` now (it then writes it no intent), or None."""
    why = airborne_why(world, body, steer.goal)
    if why is not None:
        return why
    if body.control.state is MoveState.OUT_OF_CONTROL:
        return "out of control"
    return mount_out_of_control(world, steer)


def _searched(world: World, index: SpatialIndex, body: Body, steer: Steer, *, record: bool) -> Goal:
    """The goal the search plans for this turn: a ``Charge`` as this turn's run or ride away, a ``Flee`` to cover as
    a stop in the cover it heads for, a flier goal as this turn's level path
    (:func:`~esper_motion.systems.gurps.planner.flight.flier_goal`), any other as it is."""
    goal = steer.goal
    if isinstance(goal, Charge):
        return charge_goal(world, steer.mover, goal, record=record)
    if isinstance(goal, Flee) and goal.cover:
        return cover_goal(world, index, body, goal)
    if isinstance(goal, (*FLIER_GOALS, Pursue)):
        return flier_goal(world, steer.mover, goal, record=record)
    return goal


def _down(world: World, body: Body) -> Posture | None:
    """The ``Posture`` of a mover at rest that is down (a trip, a fall), which gets up before it plans a move; None
    for any other."""
    posture = world.try_get(body.entity, Posture)
    if posture is None or posture.state is PostureState.STANDING or body.velocity.yps > 0:
        return None
    return posture


def _get_up(world: World, body: Body) -> bool:
    """Order a Change Posture to standing for a mover at rest that is down (:func:`_down`); whether it did."""
    posture = _down(world, body)
    if posture is None:
        return False
    posture.target = PostureState.STANDING
    for name in _INTENT_FIELDS:
        setattr(body.intent, name, getattr(_GET_UP, name))
    return True


_GET_UP: Final = Intent(maneuver=Maneuver.CHANGE_POSTURE)


def _lose_target(world: World, entity: int, goal: Goal) -> bool:
    """Set the entity field of ``goal`` to None, and say so, when the entity it names is gone, or a ``Charge``'s foe
    is out of the fight (the mover then holds); whether it did."""
    name = "source" if isinstance(goal, Flee) else "target"
    if not isinstance(goal, (Pursue, Flee, KeepStation, Charge, Swoop)):
        return False
    other = getattr(goal, name)
    if other is None:
        return False
    why = "gone" if not world.exists(other) else out_of_fight(world, other) if isinstance(goal, Charge) else None
    if why is None:
        return False
    setattr(goal, name, None)
    world.emit(GoalLost(entity, type(goal).__name__, other, why if why == "gone" else f"out of the fight: {why}"))
    return True


class GoalPlanner(System):
    """DECIDE phase: writes the ``Intent`` of every mover with a goal, in initiative order, from the first turn of the
    plan its search finds (:mod:`esper_motion.systems.gurps.planner.search`), at most :data:`SEARCHES_PER_TURN` a
    turn (past that, the movers that waited longest for a search first, and the others a turn chosen without one:
    docs/goals.md > The planning budget); every other entity's intent stays as the
    game wrote it; a mover at rest that is down (prone, kneeling...) first gets up, with a Change Posture to standing.
    Reads the goal components, ``Caution`` and what the intent check, the preview and the velocity change read;
    writes ``Intent`` (every field), ``Posture.target`` of a mover getting up, a flier's ``FlightIntent`` (level, or
    the climb or descent its goal wants: :mod:`esper_motion.systems.gurps.planner.flight`), ``Patrol.next_index`` as
    each waypoint is passed, ``Charge.wheeling`` and ``Swoop.wheeling``, and the entity field of a goal whose entity
    is gone (None: the mover holds); emits ``GoalLost`` for that, and ``GoalUnreachable`` when no plan the rules allow
    within its caution brings the mover nearer, nor its climb nearer the height wanted (it does its best),
    and once when it cannot be planned (a stalled flier, a passenger, a mover out of control: its intent is left
    alone). A rider that controls its mount steers it by its own goal
    (:mod:`esper_motion.systems.gurps.planner.mounted`): it writes the mount's ``Intent`` and, on a ``Charge``'s
    pass, the rider's ``Attack.target`` and maneuver; a flier on a ``Swoop`` its own, on the pass. Rolls no die.
    Implements no rule section: it chooses among the intents Basic Set: High-Speed Movement allows.

    Its page: docs/goals.md.
    """

    phase = Phase.DECIDE
    acts_on = GOAL_TYPES

    def __init__(self) -> None:
        super().__init__()
        self._fields = Fields()  # the searches' yards fields, kept while the obstacles stay as they are
        self._layout: object = None
        self._unplannable: dict[int, str] = {}  # why each mover it could not plan was not planned, as last said
        self._ran_on = -1  # the turn it last ran

    def run(self) -> None:
        """Decide for every mover with a goal."""
        world = self.world
        if self._ran_on < world.turn - 1:  # skipped since (no entity held a goal): nothing is said any more
            self._unplannable = {}
        self._ran_on = world.turn
        found = goals(world)
        said: dict[int, str] = {}
        if not found:
            self._unplannable = said
            return
        steers, idle = steering(world, found)
        for entity, reason in idle.items():
            self._cannot(entity, found[entity], reason, said)
        chosen = installed_rules(world)
        index = SpatialIndex()
        index.rebuild(world)
        obstacles = world.scan(Position, Obstacle)
        layout = sorted(
            (entity, position.hex, position.altitude_yd, repr(obstacle)) for entity, (position, obstacle) in obstacles
        )
        if layout != self._layout:
            self._fields.clear()
            self._layout = layout
        moving = moving_others(world, HORIZON)
        if any(world.has(steer.mover, FlightIntent) for steer in steers.values()):
            kept_paths(world)  # what fliers foresee of the others: read before any kept plan moves on this turn
        budget = Budget(SEARCHES_PER_TURN)
        for body in sorted(bodies(world), key=lambda body: -_waited(world, body)):  # stable: then initiative order
            steer = steers.get(body.entity)
            if steer is None:
                continue
            _lose_target(world, steer.decider, steer.goal)
            why = _unplanned(world, body, steer)
            if why is not None:
                if not bucking(world, steer):
                    self._cannot(steer.decider, steer.goal, why, said)
                continue
            if _get_up(world, body):
                continue
            caution = caution_of(world, steer.decider)
            goal = _searched(world, index, body, steer, record=True)
            fly_level(world, body)
            chosen_plan = decide(
                world, chosen, index, body, goal, caution=caution, fields=self._fields, moving=moving, budget=budget
            )
            self._follow(world, body, steer, chosen_plan, chosen=chosen, index=index, caution=caution)
        self._unplannable = said

    def _cannot(self, entity: int, goal: Goal, why: str, said: dict[int, str]) -> None:
        """Say once why ``entity``'s goal cannot be planned: when it starts, or the reason changes."""
        if self._unplannable.get(entity) != why:
            self.world.emit(GoalUnreachable(entity, type(goal).__name__, why))
        said[entity] = why

    def _follow(
        self,
        world: World,
        body: Body,
        steer: Steer,
        chosen_plan: Plan,
        *,
        chosen: Rules,
        index: SpatialIndex,
        caution: float,
    ) -> None:
        goal = steer.goal
        first = chosen_plan.turns[0] if chosen_plan.turns else None
        intent = first.intent if first is not None else Intent()
        live = body.intent
        for name in _INTENT_FIELDS:
            setattr(live, name, getattr(intent, name))
        climbs = fly(world, chosen, index, body, goal, first=first, caution=caution)
        if not chosen_plan.nearer and not climbs:
            why = "no move the rules allow within its caution" if not chosen_plan.turns else "no way nearer found"
            world.emit(GoalUnreachable(steer.decider, type(goal).__name__, why))
        if isinstance(goal, Patrol) and first is not None and first.meets_goal:
            goal.next_index = (goal.next_index + 1) % len(goal.waypoints)
        strike(world, steer, first)


def decide(
    world: World,
    chosen: Rules,
    index: SpatialIndex,
    body: Body,
    goal: Goal,
    *,
    caution: float,
    fields: Fields,
    moving: Moving,
    budget: Budget | None = None,
) -> Plan:
    """The plan ``body`` follows this turn toward ``goal`` (:func:`_chosen`), spending one of ``budget``'s searches
    when it searches. Writes the ``KeptPlan`` (adding one the first time: after that only its fields change): the
    plan searched, the kept plan one turn on (also when a turn chosen without a search is its next turn), or, for any
    other turn chosen without a search, no plan; one more turn waited for each turn chosen without a search.
    ``caution``: the ``Caution`` of whoever holds the goal (a rider steering its mount: the rider's)."""
    kept = world.try_get(body.entity, KeptPlan)
    found, how = _chosen(world, chosen, index, body, goal, caution=caution, moving=moving, fields=fields, budget=budget)
    assert found is not None  # a lost target was set to None before
    if how == "kept":
        assert kept is not None
        _move_on(kept)
        return found
    waited = 0 if how == "searched" else min(MAX_WAITED, 1 + (0 if kept is None else kept.waited))
    if how == "budgeted" and kept is not None and kept.throttles and found.turns[0].intent == kept_intent(kept, 0):
        _move_on(kept)  # its next turn taken: the rest are tried next time
        kept.waited = waited
        return found
    made = _kept_of(world, goal, caution, found) if how == "searched" else _NO_PLAN
    if kept is None:
        world.add(body.entity, dataclasses.replace(made, waited=waited))
        return found
    if _kept_values(kept) != _kept_values(made):  # most turns chosen without a search find no plan kept already
        for name in _KEPT_FIELDS:
            value = getattr(made, name)
            if getattr(kept, name) != value:
                setattr(kept, name, value)
    kept.waited = waited
    return found


_NO_PLAN: Final = KeptPlan()


How = Literal["kept", "searched", "budgeted"]
"""How :func:`_chosen` came by its plan: the kept plan's turns, a search, or a turn chosen without a search."""


def _chosen(
    world: World,
    chosen: Rules,
    index: SpatialIndex,
    body: Body,
    goal: Goal,
    *,
    caution: float,
    moving: Moving,
    most: int = 1,
    horizon: int = HORIZON,
    fields: Fields | None = None,
    budget: Budget | None = None,
) -> tuple[Plan | None, How]:
    """The plan ``body`` follows toward ``goal``, and how it came by it: the first ``most`` turns of its kept plan
    (``KeptPlan``) while the world stays as that assumed
    (:func:`~esper_motion.systems.gurps.planner.search.kept_turns`) and it has turns enough left
    (:data:`REPLAN_LEFT`); else, once ``budget`` is spent, a turn chosen without a search
    (:func:`~esper_motion.systems.gurps.planner.search.one_turn`), when it finds one; else a new search over
    ``horizon`` turns (None when the entity the goal names is gone)."""
    kept = world.try_get(body.entity, KeptPlan)
    if kept is not None and (kept.reaches or len(kept.throttles) >= REPLAN_LEFT):
        turns = kept_turns(world, chosen, index, body, goal, caution=caution, kept=kept, most=most, moving=moving)
        if turns:
            reaches = kept.reaches and len(turns) == len(kept.throttles)
            return Plan(body.entity, turns, reaches, True, len(turns)), "kept"
    floor = floor_yd(world, body)
    if budget is not None and budget.left <= 0:
        turn = one_turn(world, chosen, index, body, goal, caution=caution, kept=kept, moving=moving, floor_yd=floor)
        if turn is not None:  # it does its best this turn: whether the goal is beyond reach waits for a search
            return Plan(body.entity, (turn,), turn.meets_goal, True, 1), "budgeted"
    if budget is not None:
        budget.left -= 1
    found = search(
        world,
        chosen,
        index,
        body,
        goal,
        caution=caution,
        horizon=horizon,
        fields=fields,
        moving=moving,
        floor_yd=floor,
    )
    return found, "searched"


def _waited(world: World, body: Body) -> int:
    """The turns ``body`` waited for a search (``KeptPlan.waited``; 0 without a kept plan)."""
    kept = world.try_get(body.entity, KeptPlan)
    return 0 if kept is None else kept.waited


def _kept_of(world: World, goal: Goal, caution: float, found: Plan) -> KeptPlan:
    """The ``KeptPlan`` of ``found`` once its first turn is taken (none kept for a plan that brings it no nearer)."""
    if not found.nearer or len(found.turns) < 2:  # the turn taken now, and one to follow
        return KeptPlan()
    rest = found.turns[1:]
    states = [turn.after for turn in found.turns]
    other = named_entity(goal)
    target_hex: Hex | None = None
    yps = heading = 0
    if other is not None and world.exists(other) and world.has(other, Position):
        target_hex, yps, heading = motion(world, other)
    return KeptPlan(
        throttles=tuple(turn.intent.throttle for turn in rest),
        turns=tuple(turn.intent.turn for turn in rest),
        at_once=tuple(turn.intent.turn_at_yd == 0 for turn in rest),
        pushes=tuple(turn.intent.push for turn in rest),
        veers=tuple(turn.intent.veer[0] if turn.intent.veer else 0 for turn in rest),
        meets=tuple(turn.meets_goal for turn in rest),
        hexes=tuple(state.hex for state in states),
        facings=tuple(state.facing for state in states),
        headings=tuple(state.heading for state in states),
        velocities=tuple(state.velocity for state in states),
        straight_yd=tuple(state.straight_yd for state in states),
        high_speed=tuple(state.high_speed for state in states),
        reaches=found.reaches,
        goal=repr(goal),
        caution=caution,
        target_hex=target_hex,
        target_yps=yps,
        target_heading=heading,
        followed=1,
    )


def _move_on(kept: KeptPlan) -> None:
    """Drop the turn of ``kept`` taken now (all of it after the last)."""
    last = len(kept.throttles) == 1
    for name in _PER_TURN:
        setattr(kept, name, getattr(kept, name)[1:])
    for name in _PER_STATE:
        setattr(kept, name, () if last else getattr(kept, name)[1:])
    kept.followed += 1


def plan(world: World, entity: int, turns: int = HORIZON) -> Plan:
    """The plan ``entity`` would follow toward its goal over the next ``turns`` turns, as the planner finds it now
    (the turns left of the plan it keeps, while that holds; else a new search): each turn's intent, the rolls it needs
    with their exact odds, and its path (shown before it happens); for a flier, each turn's climb or descent and the
    height it ends at (:func:`~esper_motion.systems.gurps.planner.flight.with_climbs`). For a rider that controls
    its mount, the mount's plan (``Plan.entity`` is the mount). Nothing in the world changes. A
    :class:`~esper_motion.ecs.WorldError` for an entity with no goal, no full GURPS body, or one the planner does
    not plan now (a stalled flier, a passenger, a mount its rider steers, a mover out of control), or whose goal's
    entity is gone."""
    if not isinstance(turns, int) or isinstance(turns, bool) or turns < 1:
        raise WorldError(f"plan: turns = {turns!r}: expected a whole number of turns, 1 or more")
    found = goals(world)
    goal = found.get(entity)
    if goal is None:
        raise WorldError(f"entity {entity} has no goal: give it one of {', '.join(k.__name__ for k in GOAL_TYPES)}")
    body_of(world, entity)
    steers, idle = steering(world, found)
    steer = next((steer for steer in steers.values() if steer.decider == entity), None)
    why = idle.get(entity)
    if steer is None and why is None:
        why = f"its rider entity {steers[entity].decider} steers it by its own goal"
    if steer is None:
        raise WorldError(f"entity {entity} cannot be planned now: {why}")
    body = body_of(world, steer.mover)
    why = _unplanned(world, body, steer)
    if why is not None:
        raise WorldError(f"entity {entity} cannot be planned now: {why}")
    if _down(world, body) is not None:  # this turn it gets up, as the planner will order: a plan from there on
        return Plan(
            body.entity,
            (PlannedTurn(dataclasses.replace(_GET_UP), (), (), Fraction(0), False, state_of(body)),),
            False,
            False,
            0,
        )
    index = SpatialIndex()
    index.rebuild(world)
    chosen, caution = installed_rules(world), caution_of(world, entity)
    watch.pause()  # the search builds components of its own, which no world holds: no record of their writes
    try:
        moving = moving_others(world, turns)
        searched = _searched(world, index, body, steer, record=False)
        found_plan, _ = _chosen(
            world, chosen, index, body, searched, caution=caution, moving=moving, most=turns, horizon=turns
        )
        if found_plan is not None:
            found_plan = with_climbs(
                world,
                chosen,
                index,
                body,
                steer.goal,
                found=found_plan,
                searched=searched,
                caution=caution,
                most=turns,
                replan_left=REPLAN_LEFT,
                moving=moving,
            )
    finally:
        watch.resume()
    if found_plan is None:
        raise WorldError(f"entity {entity}: the entity its {type(goal).__name__} goal names is gone")
    return found_plan

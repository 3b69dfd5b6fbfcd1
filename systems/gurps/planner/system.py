"""DECIDE: the intents of movers with a goal, chosen by the planner's search; and the plan shown before it happens."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from esper_motion.components.goals import GOAL_TYPES, Caution, Flee, Goal, KeepStation, Patrol, Pursue
from esper_motion.components.gurps import Intent, Maneuver, MoveState, Obstacle, Posture, PostureState
from esper_motion.components.motion import Position
from esper_motion.ecs import Phase, System, World, WorldError, watch
from esper_motion.systems.gurps.events import GoalLost, GoalUnreachable
from esper_motion.systems.gurps.planner.search import HORIZON, Fields, Plan, search
from esper_motion.systems.gurps.shared.movers import Body, bodies, body_of, carried, installed_rules
from esper_motion.systems.gurps.shared.spatial import SpatialIndex

_INTENT_FIELDS = ("maneuver", "throttle", "turn", "turn_at_yd", "push", "veer", "slam", "life_or_death", "turns")


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


def _unplanned(world: World, body: Body) -> str | None:
    """Why the planner cannot plan ``body``'s movement (it then writes it no intent), or None."""
    if body.position.altitude_yd > 0:
        return "the planner does not plan fliers in the air yet"
    if body.control.state is MoveState.OUT_OF_CONTROL:
        return "out of control"
    if carried(body):
        return "a rider moves with its mount"
    return None


def _get_up(world: World, body: Body) -> bool:
    """Order a Change Posture to standing for a mover at rest that is down (a trip, a fall): it gets up before it
    plans a move; whether it did."""
    posture = world.try_get(body.entity, Posture)
    if posture is None or posture.state is PostureState.STANDING or body.velocity.yps > 0:
        return False
    posture.target = PostureState.STANDING
    for name in _INTENT_FIELDS:
        setattr(body.intent, name, getattr(_GET_UP, name))
    return True


_GET_UP: Final = Intent(maneuver=Maneuver.CHANGE_POSTURE)


def _lose_target(world: World, entity: int, goal: Goal) -> bool:
    """Set the entity field of ``goal`` to None, and say so, when the entity it names is gone (the mover then
    holds); whether it did."""
    name = "source" if isinstance(goal, Flee) else "target"
    if not isinstance(goal, (Pursue, Flee, KeepStation)):
        return False
    other = getattr(goal, name)
    if other is None or world.exists(other):
        return False
    setattr(goal, name, None)
    world.emit(GoalLost(entity, type(goal).__name__, other))
    return True


class GoalPlanner(System):
    """DECIDE phase: writes the ``Intent`` of every mover with a goal, in initiative order, from the first turn of the
    plan its search finds (:mod:`esper_motion.systems.gurps.planner.search`); every other entity's intent stays as the
    game wrote it; a mover at rest that is down (prone, kneeling...) first gets up, with a Change Posture to standing.
    Reads the goal components, ``Caution`` and what the intent check, the preview and the velocity change read;
    writes ``Intent`` (every field), ``Posture.target`` of a mover getting up, ``Patrol.next_index`` as each waypoint
    is passed, and the entity
    field of a goal whose entity is gone (None: the mover holds); emits ``GoalLost`` for that, and ``GoalUnreachable``
    when no plan the rules allow within its caution brings the mover nearer (it does its best) or when it cannot be
    planned (a flier in the air, a rider, a mover out of control: its intent is left alone). Rolls no die. Implements
    no rule section: it chooses among the intents Basic Set: High-Speed Movement allows.

    Its page: docs/goals.md.
    """

    phase = Phase.DECIDE

    def __init__(self) -> None:
        super().__init__()
        self._fields: Fields = {}  # the searches' yards fields, kept while the obstacles stay as they are
        self._layout: object = None

    def run(self) -> None:
        """Decide for every mover with a goal."""
        world = self.world
        found = goals(world)
        if not found:
            return
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
        for body in bodies(world):
            goal = found.get(body.entity)
            if goal is None:
                continue
            _lose_target(world, body.entity, goal)
            why = _unplanned(world, body)
            if why is not None:
                world.emit(GoalUnreachable(body.entity, type(goal).__name__, why))
                continue
            if _get_up(world, body):
                continue
            chosen_plan = search(
                world, chosen, index, body, goal, caution=caution_of(world, body.entity), fields=self._fields
            )
            assert chosen_plan is not None  # a lost target was set to None above
            self._follow(world, body, goal, chosen_plan)

    def _follow(self, world: World, body: Body, goal: Goal, chosen_plan: Plan) -> None:
        entity = body.entity
        if not chosen_plan.nearer:
            why = "no move the rules allow within its caution" if not chosen_plan.turns else "no way nearer found"
            world.emit(GoalUnreachable(entity, type(goal).__name__, why))
        intent = chosen_plan.turns[0].intent if chosen_plan.turns else Intent()
        live = body.intent
        for name in _INTENT_FIELDS:
            setattr(live, name, getattr(intent, name))
        if isinstance(goal, Patrol) and chosen_plan.turns and chosen_plan.turns[0].meets_goal:
            goal.next_index = (goal.next_index + 1) % len(goal.waypoints)


def plan(world: World, entity: int, turns: int = HORIZON) -> Plan:
    """The plan ``entity`` would follow toward its goal over the next ``turns`` turns, as the planner finds it now:
    each turn's intent, the rolls it needs with their exact odds, and its path (shown before it happens). Nothing
    in the world changes. A :class:`~esper_motion.ecs.WorldError` for an entity with no goal, no full GURPS body,
    or one the planner does not plan (a flier in the air, a rider, a mover out of control), or whose goal's entity
    is gone."""
    if not isinstance(turns, int) or isinstance(turns, bool) or turns < 1:
        raise WorldError(f"plan: turns = {turns!r}: expected a whole number of turns, 1 or more")
    goal = goals(world).get(entity)
    if goal is None:
        raise WorldError(f"entity {entity} has no goal: give it one of {', '.join(k.__name__ for k in GOAL_TYPES)}")
    body = body_of(world, entity)
    why = _unplanned(world, body)
    if why is not None:
        raise WorldError(f"entity {entity} cannot be planned now: {why}")
    index = SpatialIndex()
    index.rebuild(world)
    watch.pause()  # the search builds components of its own, which no world holds: no record of their writes
    try:
        found = search(
            world, installed_rules(world), index, body, goal, caution=caution_of(world, entity), horizon=turns
        )
    finally:
        watch.resume()
    if found is None:
        raise WorldError(f"entity {entity}: the entity its {type(goal).__name__} goal names is gone")
    return found

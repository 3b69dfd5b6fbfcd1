"""Fliers for the planner: the level path of a flier's turn is searched as any mover's, on its air Move once it is
above the ground, and its climb or descent for the turn is chosen beside it; the flier goals ``Climb``, ``Land`` and
``Swoop`` made concrete turn by turn.

The search plans a flier's turns level (Basic Set: High-Speed Movement > High-Speed Flying and Swimming). Then
:func:`fly` writes its ``FlightIntent``: toward the height its goal wants (:func:`wanted_altitude`; level for the
goals that want none), the largest climb or descent of this turn, as a single leg from its start, with which the
planned turn is simulated again and still passes (:func:`_accepted`): the rules' checks, no roll past the caution, the
yards the climb keeps back from the level path (Basic Set: Flying Combat > Aerial Movement > Changing Height; house
rules: Flying Movement and Combat), a take-off only where the house rules let a flier that cannot hover leave the
ground, no dive that takes it past its normal top speed under the house rules (which asks a roll the preview does
not show), and no turn below the stall speed. A flier that cannot hover (``Flight.mode``) stalls when a turn covers
less than a quarter of its top airspeed (Basic Set: Flying Combat > Cannot Hover): the search takes no turn that
covers fewer yards, or ends slower (:func:`floor_yd`). A flier stalled or wiped out falls, and is not planned.

``Swoop`` is a lance charge's round for a flier (:func:`~esper_motion.systems.gurps.planner.mounted.charge_goal`, the
same run past the foe and ride away): down to striking height on the run, and on the turn its path comes within reach
of the foe, across the map and in height, it strikes on a Move and Attack (under the house rules the "Dragon" rule's:
no -4 and no cap for a flier's melee; under the Basic Set the ordinary Move and Attack's limits), then climbs back to
``Swoop.height_yd`` as it flies away.
"""

from __future__ import annotations

import math
from dataclasses import fields, replace
from typing import Final, NamedTuple

from esper_motion.components.combat import Attack
from esper_motion.components.flight import Flight, FlightIntent
from esper_motion.components.goals import Charge, Climb, Flee, Goal, GoTo, KeepStation, KeptPlan, Land, Pursue, Swoop
from esper_motion.components.gurps import Intent, Maneuver, MoveState
from esper_motion.components.motion import Position, Velocity
from esper_motion.ecs import World
from esper_motion.ecs.hexgrid import Hex, distance
from esper_motion.systems.gurps import rules
from esper_motion.systems.gurps.flight.aerial import airborne, scene_atmosphere
from esper_motion.systems.gurps.options import Rules
from esper_motion.systems.gurps.planner.mounted import PASS_YD, carrier, charge_goal, run_past
from esper_motion.systems.gurps.planner.search import (
    HORIZON,
    Moving,
    Plan,
    PlannedTurn,
    State,
    advance,
    along,
    capped,
    predicted,
    search,
    state_of,
    straight_enough,
)
from esper_motion.systems.gurps.shared.climbing import house_climbing, legs_cost, speeds_after_climbs
from esper_motion.systems.gurps.shared.dive import normal_top_speed
from esper_motion.systems.gurps.shared.figure import body_hexes, two_hex
from esper_motion.systems.gurps.shared.movers import BODY_TYPES, Body, Limits, body_of, installed_rules, limits
from esper_motion.systems.gurps.shared.spatial import SpatialIndex, figure_height_yd
from esper_motion.systems.gurps.shared.transitions import stall_speed

FLIER_GOALS = (Climb, Land, Swoop)
"""The goals only a flier holds."""


def airborne_why(world: World, body: Body, goal: Goal) -> str | None:
    """Why the planner cannot plan ``body`` for ``goal`` now, or None: a flier goal without ``Flight``, or a flier in
    the air without lift."""
    flight = world.try_get(body.entity, Flight)
    if flight is None and isinstance(goal, FLIER_GOALS):
        return f"a {type(goal).__name__} goal without Flight: it cannot fly"
    if body.position.altitude_yd <= 0:
        return None
    if flight is None:
        return "in the air without Flight: it falls"
    if flight.stalled or flight.wiped_out:
        return "stalled: it falls until it recovers" if flight.stalled else "wiped out: it falls"
    return None


def floor_yd(world: World, body: Body) -> int:
    """The fewest yards ``body`` may cover in a turn, and end it at: a flier in the air that cannot hover, its stall
    speed; 0 for any other mover."""
    flight = world.try_get(body.entity, Flight)
    if body.position.altitude_yd <= 0 or flight is None or flight.mode.can_hover:
        return 0
    return stall_speed(world, body.entity)


def flier_goal(world: World, mover: int, goal: Climb | Land | Swoop | Pursue, *, record: bool) -> Goal:
    """The goal the search plans the level path of this turn by, for a flier goal of the body ``mover``: for a
    ``Climb`` or ``Land`` a stop on its hex (a flier that cannot hover passes over it, and so circles it until it is
    down), its hex None taken as the one it is over (``record``: written into the goal, as the planner does and a
    preview does not, so that it circles that one); for a ``Swoop`` its run past the foe or its flight away, as a
    lance charge's (``record``: write ``Swoop.wheeling``); for a ``Pursue`` by a flier in the air with a melee
    ``Attack`` of a foe in the air, a pass through where the foe will be when it gets there (:func:`meeting`), where
    its strike reaches the foe as the COMBAT phase measures it (the foe where it ends the turn); any other
    ``Pursue`` as it is."""
    if isinstance(goal, Pursue):
        return _pursuit(world, mover, goal)
    if isinstance(goal, Swoop):
        return _swoop_goal(world, mover, goal, record=record)
    place = goal.hex if goal.hex is not None else world.get(mover, Position).hex
    if record:
        goal.hex = place
    return GoTo(place, stop=_hovers(world, mover) or isinstance(goal, Land))


def _pursuit(world: World, mover: int, goal: Pursue) -> Goal:
    attack = world.try_get(mover, Attack)
    target = goal.target
    if goal.ram or attack is None or attack.weapon != "melee" or not airborne(world, mover):
        return goal
    if target is None or not world.exists(target) or not world.has(target, Position):
        return goal
    foe = carrier(world, target)
    if not airborne(world, foe):
        return goal
    return GoTo(
        run_past(
            world.get(mover, Position).hex, meeting(world, mover, foe), PASS_YD, world.get(mover, Velocity).heading
        ),
        stop=False,
    )


def _swoop_goal(world: World, mover: int, goal: Swoop, *, record: bool) -> Goal:
    """A ``Swoop``'s turn, as a lance charge's round (:func:`~esper_motion.systems.gurps.planner.mounted.charge_goal`)
    but led: on the run, a pass beside where the foe will be when the flier can get there (:func:`meeting`), so that a
    flier closes on a foe that flies too."""
    if goal.target is None or not world.exists(goal.target) or not world.has(goal.target, Position):
        return charge_goal(world, mover, Charge(goal.target, run_yd=goal.run_yd), record=False)
    foe = carrier(world, goal.target)
    here = world.get(mover, Position).hex
    velocity = world.get(mover, Velocity)
    wheeling = goal.wheeling and distance(here, world.get(foe, Position).hex) < goal.run_yd
    if record:
        goal.wheeling = wheeling
    if wheeling:
        return Flee(foe, range_yd=goal.run_yd)
    return GoTo(run_past(here, meeting(world, mover, foe), goal.run_yd, velocity.heading), stop=False)


def meeting(world: World, mover: int, foe: int) -> Hex:
    """Where flier ``mover`` can meet ``foe``: where the foe will be (:func:`foreseen`) after the fewest turns, at most
    :data:`~esper_motion.systems.gurps.planner.search.HORIZON`, in which the flier at its top speed covers the yards
    to there (the last of them when none is so near)."""
    here = world.get(mover, Position).hex
    top = max(1, limits(world, body_of(world, mover), installed_rules(world)).top_speed)
    ahead = foreseen(world, foe)
    return next((hex for turn, hex in enumerate(ahead, start=1) if distance(here, hex) <= top * turn), ahead[-1])


class Foresight(NamedTuple):
    """What the planner foresees of a mover this turn (:func:`foreseen`): its hexes after each of the next
    :data:`~esper_motion.systems.gurps.planner.search.HORIZON` turns, and its height at the end of this one (None:
    not known yet)."""

    hexes: tuple[Hex, ...]
    altitude_yd: float | None


def foreseen(world: World, entity: int) -> tuple[Hex, ...]:
    """Where ``entity`` will be after each of the next :data:`~esper_motion.systems.gurps.planner.search.HORIZON`
    turns: once the planner has decided a flier's turn, the turn decided (every roll made), then its kept plan; before
    that, and for any other mover, its own kept plan (``KeptPlan``) while it is where the plan put it for now; past
    the plan's end at its last velocity and heading; and with no such plan at its present velocity along its heading
    (:func:`~esper_motion.systems.gurps.planner.search.predicted`)."""
    found = kept_paths(world).get(entity)
    return found.hexes if found is not None else tuple(predicted(world, entity, turn) for turn in range(1, HORIZON + 1))


def kept_paths(world: World) -> dict[int, Foresight]:
    """The :class:`Foresight` of every mover the planner foresees by its kept plan or its turn decided, worked out
    from the kept plans the first time it is asked in a turn (the planner asks before it plans anyone, so that no
    kept plan has moved on yet) and brought up to date as each flier's turn is decided (:func:`fly`)."""
    return world.per_turn(kept_paths, lambda: _kept_paths(world))


def _kept_paths(world: World) -> dict[int, Foresight]:
    found: dict[int, Foresight] = {}
    for entity, (kept, position) in world.scan(KeptPlan, Position):
        if len(kept.hexes) >= 2 and kept.hexes[0] == position.hex:
            found[entity] = Foresight(_on(kept, 1), None)
    return found


def _on(kept: KeptPlan, start: int) -> tuple[Hex, ...]:
    """The hexes of ``kept`` from its state ``start`` on, :data:`~esper_motion.systems.gurps.planner.search.HORIZON`
    of them, past its last at its last velocity and heading."""
    planned = kept.hexes[start : start + HORIZON]
    last = start + len(planned) - 1
    rest = range(1, HORIZON + 1 - len(planned))
    return (*planned, *(along(planned[-1], kept.velocities[last], kept.headings[last], turn) for turn in rest))


def _decided(world: World, chosen: Rules, index: SpatialIndex, body: Body) -> None:
    """Foresee ``body`` by the turn just decided for it (:func:`kept_paths`)."""
    outcome = advance(world, chosen, index, body, state_of(body))
    if outcome is None:
        return
    end = outcome.state
    intent = world.try_get(body.entity, FlightIntent)
    altitude = body.position.altitude_yd + (intent.climb_yd if intent is not None else 0)
    kept = world.try_get(body.entity, KeptPlan)
    if kept is not None and kept.hexes and kept.hexes[0] == end.hex:
        hexes = _on(kept, 0)
    else:
        hexes = tuple(along(end.hex, end.velocity, end.heading, turn) for turn in range(HORIZON))
    kept_paths(world)[body.entity] = Foresight(hexes, altitude)


def _hovers(world: World, entity: int) -> bool:
    flight = world.try_get(entity, Flight)
    return flight is not None and flight.mode.can_hover


GLIDE_YD: Final = 2
"""How many yards a swooping flier comes down for each turn it is still away from its foe: a descent of a yard or two
a turn is no turn under the house rules (Flying Movement and Combat), so it takes no roll."""


def wanted_altitude(world: World, body: Body, goal: Goal) -> int | None:
    """The height in yards ``goal`` wants flier ``body`` at by the end of this turn, or None (keep its altitude): a
    ``Climb``'s, the ground for a ``Land``, for a ``Pursue`` or ``KeepStation`` of a flier in the air its height (two
    fliers pursuing each other meet there, where a yard above each other would take both up for ever), and for a
    ``Swoop`` its height while it flies away, else on the run a glide
    down to striking height on the foe (:func:`strike_altitude`), :data:`GLIDE_YD` higher for each turn more it needs
    to come within reach at its speed, never above ``Swoop.height_yd``."""
    if isinstance(goal, Climb):
        return goal.altitude_yd
    if isinstance(goal, Land):
        return 0
    if isinstance(goal, (Pursue, KeepStation)):
        other = goal.target
        if other is None or not world.has(other, Position) or not airborne(world, carrier(world, other)):
            return None
        return max(1, math.floor(foreseen_altitude(world, carrier(world, other))))
    if not isinstance(goal, Swoop) or goal.target is None or not world.has(goal.target, Position):
        return None
    if goal.wheeling:
        return goal.height_yd
    foe = carrier(world, goal.target)
    gap = distance(body.position.hex, world.get(foe, Position).hex)
    attack = world.try_get(body.entity, Attack)
    reach = 1 if attack is None else attack.reach_yd
    turns_away = max(0, -(-(gap - reach) // max(1, body.velocity.yps)) - 1)
    return min(max(goal.height_yd, 1), strike_altitude(world, goal.target) + GLIDE_YD * turns_away)


def foreseen_altitude(world: World, entity: int) -> float:
    """The height ``entity`` will be at by the end of this turn, as far as the planner foresees it: for a flier whose
    own goal wants a height of its own (``Climb``, ``Land``, ``Swoop``), that height (:func:`wanted_altitude`), else
    the height it is at. Two fliers after each other so meet at the one's height, where each chasing the other's
    present height would swap them."""
    known = kept_paths(world).get(entity)
    if known is not None and known.altitude_yd is not None:
        return known.altitude_yd
    goal: Goal | None = world.try_get(entity, Climb) or world.try_get(entity, Land) or world.try_get(entity, Swoop)
    altitude = world.get(entity, Position).altitude_yd
    if goal is None or not airborne(world, entity) or not all(world.has(entity, kind) for kind in BODY_TYPES):
        return altitude
    want = wanted_altitude(world, body_of(world, entity), goal)
    return altitude if want is None else float(want)


def strike_altitude(world: World, target: int) -> int:
    """The height a swooping flier strikes ``target`` from: a yard above it (the height advantage the house rules
    reward, and within a reach of a yard), and never on the ground."""
    return max(1, math.floor(world.get(carrier(world, target), Position).altitude_yd) + 1)


def fly_level(world: World, body: Body) -> None:
    """Write ``body``'s ``FlightIntent`` level (no climb, no dive), as the search plans its turns: before the search,
    so that no wish of the game's (a dive's faster acceleration, say) shapes a plan the level turn could not fly."""
    intent = world.try_get(body.entity, FlightIntent)
    if intent is not None:
        intent.climb_yd, intent.dive, intent.legs = 0, False, ()


def fly(
    world: World,
    chosen: Rules,
    index: SpatialIndex,
    body: Body,
    goal: Goal,
    *,
    first: PlannedTurn | None,
    caution: float,
    foresee: bool = True,
) -> bool:
    """Write the ``FlightIntent`` of flier ``body`` for the first planned turn ``first`` (its ``Intent`` written
    already): the largest climb or descent toward :func:`wanted_altitude` with which the turn still passes
    (:func:`_accepted`), else level; and on a ``Swoop``'s run, the strike on the pass (:func:`_strike`). Whether the
    altitude comes nearer the one wanted. With ``foresee`` (the planner's own turn, not a preview's), what the planner
    then foresees of the flier (:func:`foreseen`) is the turn decided, every roll made, and its kept plan after it."""
    intent = world.try_get(body.entity, FlightIntent)
    climbs = _fly(world, chosen, index, body, goal, intent=intent, first=first, caution=caution)
    if foresee and intent is not None:
        _decided(world, chosen, index, body)
    return climbs


def with_climbs(
    world: World,
    chosen: Rules,
    index: SpatialIndex,
    body: Body,
    goal: Goal,
    *,
    found: Plan,
    searched: Goal,
    caution: float,
    most: int,
    replan_left: int,
    moving: Moving = (),
) -> Plan:
    """``found``, the level plan of flier ``body`` toward ``goal`` (searched as ``searched``), with each turn's
    ``FlightIntent`` as the planner will write it when the turn comes (:func:`fly`) and the height it ends at, for at
    most ``most`` turns: each turn flown again, the flier put where the turn before leaves it (its place, height,
    facing, velocity, state, intent and the climb it flew last), with what the flight checks change (a slower
    throttle, a Move and Attack, the yards a climb keeps back from the level path) and its path and odds then.
    Where the planner will search again, so does this, from there (the other movers where ``moving`` puts them
    then): where a turn leaves the flier in another state than the plan's, where the plan is one it keeps no longer
    (one that does not meet the goal with fewer than ``replan_left`` turns left, one that comes no nearer, or of one
    turn), and where the plan ends with the height its goal wants not reached. Every roll made; a dive's bonus to the
    top speed after it is not carried on. Changes nothing in the world: what it sets as it goes (the flier's
    components, ``Attack.target``, ``Swoop.wheeling``) is put back as it was."""
    live = world.try_get(body.entity, FlightIntent)
    if live is None or not found.turns:
        return found
    flight = world.get(body.entity, Flight)
    attack = world.try_get(body.entity, Attack)
    parts: tuple[object, ...] = (body.position, body.facing, body.velocity, body.control, body.intent, live, flight)
    saved = [replace(part) for part in parts]  # type: ignore[type-var]
    target = None if attack is None else attack.target
    wheeling = goal.wheeling if isinstance(goal, Swoop) else False
    turns: list[PlannedTurn] = []
    ahead, current = list(found.turns), found
    enough = straight_enough(world, chosen, body)
    try:
        while ahead and len(turns) < most:
            planned = ahead.pop(0)
            for name in _INTENT_FIELDS:
                setattr(body.intent, name, getattr(planned.intent, name))
            fly(world, chosen, index, body, goal, first=planned, caution=caution, foresee=False)
            outcome = advance(world, chosen, index, body, state_of(body))
            if outcome is None:
                break
            altitude = body.position.altitude_yd + live.climb_yd
            speed, _ = speeds_after_climbs(world, body, 0)  # house rules: what the climbs and dives do at once
            after = capped(outcome.state, enough)
            after = after._replace(velocity=max(0, after.velocity + speed - body.velocity.yps))
            flown = replace(live)
            turns.append(
                replace(
                    planned,
                    intent=replace(body.intent),
                    rolls=outcome.rolls,
                    path=outcome.path,
                    failure_chance=outcome.failure_chance,
                    after=after,
                    flight=flown,
                    altitude_yd=altitude,
                )
            )
            _put(body, after, altitude)
            flight.climbed_yd, flight.flown_legs = flown.climb_yd, ()
            kept = current.nearer and len(current.turns) > 1 and (current.reaches or len(ahead) >= replan_left)
            want = wanted_altitude(world, body, goal)
            if not kept or after != planned.after or (not ahead and want not in (None, altitude)):
                fly_level(world, body)
                again = search(
                    world,
                    chosen,
                    index,
                    body,
                    searched,
                    caution=caution,
                    moving=moving[len(turns) :],
                    floor_yd=floor_yd(world, body),
                )
                current = again if again is not None else replace(current, turns=())
                ahead = list(current.turns)
    finally:
        for part, was in zip(parts, saved, strict=True):
            for name in part.__slots__:  # type: ignore[attr-defined]
                setattr(part, name, getattr(was, name))
        if attack is not None:
            attack.target = target
        if isinstance(goal, Swoop):
            goal.wheeling = wheeling
    return replace(found, turns=tuple(turns), reaches=found.reaches and len(turns) >= len(found.turns))


_INTENT_FIELDS: Final = tuple(field.name for field in fields(Intent))


def _put(body: Body, state: State, altitude_yd: float) -> None:
    """Set ``body``'s own components to ``state``, at ``altitude_yd``."""
    body.position.q, body.position.r = state.hex
    body.position.altitude_yd = altitude_yd
    body.facing.direction = state.facing
    body.velocity.yps, body.velocity.heading = state.velocity, state.heading
    body.control.state = MoveState.HIGH_SPEED if state.high_speed else MoveState.NORMAL
    body.control.straight_yd = state.straight_yd


def _fly(
    world: World,
    chosen: Rules,
    index: SpatialIndex,
    body: Body,
    goal: Goal,
    *,
    intent: FlightIntent | None,
    first: PlannedTurn | None,
    caution: float,
) -> bool:
    if intent is None:  # no flier: nothing to write
        return False
    fly_level(world, body)
    if first is None:
        return False
    _hold_speed(world, chosen, index, body, goal, caution=caution)
    want = wanted_altitude(world, body, goal)
    if want is None and not isinstance(goal, (Swoop, Pursue)):
        return False
    altitude = body.position.altitude_yd
    gap = 0 if want is None else int(want - altitude)
    step = 1 if gap > 0 else -1
    for climb in range(gap, 0, -step) if gap else ():
        intent.climb_yd = climb
        if altitude + climb <= 0 and not _touches_down(world, chosen, index, body, goal):
            continue
        if _accepted(world, chosen, index, body, climb, caution=caution):
            _strike(world, chosen, index, body, goal, caution=caution)
            return True
    intent.climb_yd = 0
    _strike(world, chosen, index, body, goal, caution=caution)
    return False


LAND_DESCENT_YD: Final = 5
"""How many yards a flier that cannot hover on a ``Land`` is reckoned to come down a turn when it times its approach
(:func:`_held_speed`): under the house rules a descent of 3 to 5 yards a turn is a turn of 60 degrees, which the
turning radius of a slow flier allows without a roll, and a steady rate is no new turn (Flying Movement and
Combat)."""


def _touches_down(world: World, chosen: Rules, index: SpatialIndex, body: Body, goal: Goal) -> bool:
    """Whether flier ``body`` may come down to the ground at the end of its turn as written: any but one that cannot
    hover on a ``Land``, which touches down only where its turn ends within its ground Move of the hex and slow
    enough to be below high speed on the ground (its dive's gain of speed counted, house rules), so that its next
    turn, on the ground, walks to the hex and stops there; else it stays a yard up and comes round again."""
    flight = world.get(body.entity, Flight)
    if not isinstance(goal, Land) or goal.hex is None or flight.mode.can_hover:
        return True
    outcome = advance(world, chosen, index, body, state_of(body))
    if outcome is None:
        return False
    ground = _ground(world, chosen, body)
    end = outcome.path[-1] if outcome.path else body.position.hex
    after = outcome.state.velocity
    if chosen.house_flight and body.control.state is MoveState.HIGH_SPEED:
        after += rules.house_dive_speed_gain(math.ceil(body.position.altitude_yd))
    return distance(end, goal.hex) <= ground.move and after <= ground.move


def _held_speed(world: World, chosen: Rules, body: Body, goal: Goal, end: Hex | None) -> int | None:
    """The most velocity flier ``body`` should end this turn with, beyond what its plan says, or None:

    - house rules, at speed in the air: its normal top speed. A dive's bonus to the top speed lasts only a turn or so
      after the dive, and a velocity above the top speed once it ends loses control (House rules: Flying Movement and
      Combat; High Speed Movement); the search, which carries no dive bonus from turn to turn, would plan up to it;
    - on a ``Land`` within a turn's descent of the ground: the top speed it has on the ground, so that it comes down
      no faster than it can run;
    - on a ``Land`` by a flier that cannot hover, its turn ending in ``end``: the yards to the hex over the turns it
      needs to come down (:data:`LAND_DESCENT_YD` a turn), and no more than the yards from ``end`` to the hex, so
      that its next turn ends on it, where it touches down (:func:`_touches_down`); less what a house dive adds to
      its speed, and never below its stall speed."""
    altitude = body.position.altitude_yd
    if altitude <= 0:
        return None
    flight = world.get(body.entity, Flight)
    most = None
    if chosen.house_flight and body.control.state is MoveState.HIGH_SPEED:
        most = normal_top_speed(flight, body.mover, chosen)
    if isinstance(goal, Land) and altitude <= flight.air_move:
        most = _ground(world, chosen, body).top_speed
    if isinstance(goal, Land) and goal.hex is not None and not flight.mode.can_hover:
        gap = distance(body.position.hex, goal.hex)
        pace = -(-gap // math.ceil(altitude / LAND_DESCENT_YD))  # over the hex as it comes down
        if end is not None:
            pace = min(pace, distance(end, goal.hex))  # next turn's yards end on the hex
        if chosen.house_flight and body.control.state is MoveState.HIGH_SPEED:  # what the dive will add
            pace -= rules.house_dive_speed_gain(min(LAND_DESCENT_YD, math.ceil(altitude)))
        left = max(floor_yd(world, body), pace)
        most = left if most is None else min(most, left)
    return most


def _ground(world: World, chosen: Rules, body: Body) -> Limits:
    """``body``'s limits once it is on the ground."""
    return limits(world, body._replace(position=replace(body.position, altitude_yd=0.0)), chosen)


def _hold_speed(world: World, chosen: Rules, index: SpatialIndex, body: Body, goal: Goal, *, caution: float) -> None:
    """Slow the planned turn of ``body`` toward :func:`_held_speed`: the throttle nearest it with which the turn still
    passes (:func:`_accepted`), or the plan's own."""
    outcome = advance(world, chosen, index, body, state_of(body)) if isinstance(goal, Land) else None
    end = outcome.path[-1] if outcome is not None and outcome.path else None
    most = _held_speed(world, chosen, body, goal, end)
    planned = body.intent.throttle
    if most is None or body.velocity.yps + planned <= most:
        return
    for throttle in range(most - body.velocity.yps, planned):
        body.intent.throttle = throttle
        if _accepted(world, chosen, index, body, 0, caution=caution):
            return
    body.intent.throttle = planned


def _strike(world: World, chosen: Rules, index: SpatialIndex, body: Body, goal: Goal, *, caution: float) -> None:
    """On a ``Swoop``'s run, or a ``Pursue``, whose turn (with the climb asked) comes within the flier's melee reach of
    the foe as the COMBAT phase measures a strike (across the map at any yard of its path, in height at its end,
    against the foe where it ends the turn), the foe where the planner foresees it (:func:`foreseen`,
    :func:`foreseen_altitude`), ask the attack: ``Attack.target`` the foe on a Move and Attack, when the turn still
    passes on that maneuver; a swoop's pass is then made (``Swoop.wheeling``)."""
    if isinstance(goal, Swoop) and goal.wheeling:
        return
    if not isinstance(goal, (Swoop, Pursue)) or goal.target is None:
        return
    attack = world.try_get(body.entity, Attack)
    if attack is None or attack.weapon != "melee":
        return
    moving = carrier(world, goal.target)
    foe = foreseen(world, moving)[0]
    intent = world.get(body.entity, FlightIntent)
    end = body.position.altitude_yd + intent.climb_yd
    if math.floor(abs(end - foreseen_altitude(world, moving))) > attack.reach_yd:
        return
    outcome = advance(world, chosen, index, body, state_of(body))
    if outcome is None or not any(distance(hex, foe) <= attack.reach_yd for hex in outcome.path):
        return
    planned = body.intent.maneuver
    body.intent.maneuver = Maneuver.MOVE_AND_ATTACK
    if not _accepted(world, chosen, index, body, intent.climb_yd, caution=caution):
        body.intent.maneuver = planned
        return
    attack.target = goal.target
    if isinstance(goal, Swoop):
        goal.wheeling = True  # one strike a pass: then fly on and climb away


def _accepted(world: World, chosen: Rules, index: SpatialIndex, body: Body, climb: int, *, caution: float) -> bool:
    """Whether ``body``'s turn, its ``Intent`` and a ``FlightIntent`` of ``climb`` yards as written, passes: simulated
    again (:func:`~esper_motion.systems.gurps.planner.search.advance`), it is allowed, within ``caution``, runs into
    nothing and keeps at least the stall speed (:func:`floor_yd`, a climb's loss of speed under the house rules
    counted), comes down no faster than it can move on the ground, runs into nothing on the way up or down
    (:func:`_meets_on_the_way`), and the climb passes the altitude phase's checks (:func:`_climb_allowed`)."""
    outcome = advance(world, chosen, index, body, state_of(body))
    if outcome is None or outcome.failure_chance > caution or outcome.struck is not None:
        return False
    least = floor_yd(world, body)
    house_at_speed = chosen.house_flight and body.control.state is MoveState.HIGH_SPEED
    after = outcome.state.velocity
    if house_at_speed and climb > 0:
        after -= rules.house_climb_speed_loss(climb)
    if least and (len(outcome.path) < least or after < least):
        return False
    if house_at_speed and climb < 0 and body.position.altitude_yd > 0:
        flight = world.get(body.entity, Flight)
        top = normal_top_speed(flight, body.mover, chosen)
        if after + rules.house_dive_speed_gain(-climb) > top:
            return False  # the dive past the normal top speed asks a roll the forecast does not show
    if body.position.altitude_yd + climb <= 0 < body.position.altitude_yd:
        ground = _ground(world, chosen, body)
        if max(body.velocity.yps, outcome.state.velocity) > ground.top_speed:
            return False  # it would come down faster than it can run: a loss of control on the ground
    end = outcome.path[-1] if outcome.path else body.position.hex
    if climb and _meets_on_the_way(world, index, body, climb, end=end, facing=outcome.state.facing):
        return False
    return _climb_allowed(world, chosen, body, climb, len(outcome.path))


def _meets_on_the_way(world: World, index: SpatialIndex, body: Body, climb: int, *, end: Hex, facing: int) -> bool:
    """Whether ``body``'s climb of ``climb`` yards at the end of its path (in hex ``end``, facing ``facing``) runs into
    a body or an obstacle standing on its hexes there now (the altitude phase refuses it:
    :meth:`~esper_motion.systems.gurps.shared.spatial.SpatialIndex.met_on_the_way`); a flier lying flat fills two
    hexes in the air (:func:`~esper_motion.systems.gurps.shared.figure.two_hex`)."""
    altitude = body.position.altitude_yd

    def at(height: float) -> tuple[Hex, ...]:
        return body_hexes(end, facing, 2) if two_hex(world, body.entity, height) else (end,)

    met = index.met_on_the_way(
        body.entity,
        before=at(altitude),
        after=at(altitude + climb),
        start_yd=altitude,
        end_yd=altitude + climb,
        height_yd=figure_height_yd(body.mover),
    )
    return bool(met)


def _climb_allowed(world: World, chosen: Rules, body: Body, climb: int, level_yd: int) -> bool:
    """Whether the altitude phase takes a climb of ``climb`` yards after ``level_yd`` level yards
    (``AltitudeSystem``): above the ground, within the movement points (on the fewest it may have: its air Move, or
    at speed its velocity, and only that under the house rules), a take-off by a flier that cannot hover only on the
    run the house rules ask, wings only in air that carries them, and under any indoor ceiling."""
    flight = world.get(body.entity, Flight)
    altitude = body.position.altitude_yd
    if altitude + climb < 0:
        return False
    at_speed = body.control.state is MoveState.HIGH_SPEED
    points = body.velocity.yps if at_speed and chosen.house_flight else flight.air_move
    if at_speed and not chosen.house_flight:
        points = max(points, body.velocity.yps)
    if legs_cost(level_yd, ((0, climb),), house_climbing(world, body.entity)) > points:
        return False
    if climb <= 0:
        return True
    top = normal_top_speed(flight, body.mover, chosen)
    if (
        chosen.house_flight
        and altitude == 0
        and not flight.mode.can_hover
        and not rules.house_can_take_off(level_yd, top)
    ):
        return False
    air = scene_atmosphere(world)
    if flight.wings and not rules.winged_flight_possible(air.category):
        return False
    return air.ceiling_yd is None or altitude + climb + figure_height_yd(body.mover) <= air.ceiling_yd

"""MOVEMENT: walking each mover's path hex by hex, paying for footing, jumping or running into what is there.

:func:`walk` is the path itself, free of dice and of writes, so :func:`esper_motion.systems.gurps.preview` follows the
same path the system will; :class:`PathWalker` rolls the dice it asks for and writes the result.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from esper_motion.components.flight import Flight, FlightIntent
from esper_motion.components.gurps import Control, FacingChange, LossCause, Mover, MoveState, Skills
from esper_motion.components.motion import Position
from esper_motion.components.mount import Mount
from esper_motion.ecs import Phase, World
from esper_motion.ecs.hexgrid import DIRECTIONS, Hex, distance, turn
from esper_motion.systems.gurps import rules
from esper_motion.systems.gurps.events import DodgedAside, Moved, ObstacleCrossed, Turned, WingspanObstructed
from esper_motion.systems.gurps.options import Rules
from esper_motion.systems.gurps.shared.climbing import hexside_free_yd, level_points
from esper_motion.systems.gurps.shared.figure import body_hexes
from esper_motion.systems.gurps.shared.injury import defense_modifiers
from esper_motion.systems.gurps.shared.movers import (
    Body,
    bodies,
    carried,
    dx_modifier,
    environment,
    failed_control_roll,
    installed_rules,
    limits,
    loss_mode,
    mount_rolled_dx,
)
from esper_motion.systems.gurps.shared.rolls import success_roll
from esper_motion.systems.gurps.shared.spatial import IndexedSystem, SpatialIndex, figure_height_yd, walked_index
from esper_motion.systems.gurps.shared.transitions import lose_control
from esper_motion.systems.gurps.shared.wingspan import could_meet, watched, winged_fliers, wingspan_obstacles


class WalkPlan(NamedTuple):
    """Everything one walk needs to know before it starts (a named tuple: one is made for every mover every turn,
    and a tuple is quick to make).

    The walker faces ``facing`` and travels along ``heading``. It has ``points`` movement points, each yard
    costing 1 plus the footing's extra points when ``footing`` is paid. Up to ``drift_from_yd`` it enters
    the front hex ``veer`` picks for that yard; from ``drift_from_yd`` on it goes straight along its heading.
    At each ``(at_yd, hexsides)`` of ``turns`` (yards counted before entering the next hex) its facing turns by
    that many hexsides, and its heading with it unless the turn comes at or after ``steady_from_yd`` (control was
    lost there: the house rules' failed early turn changes the facing only). The walk ends at yard
    ``stop_at_yd`` (a trip), when the points run out, or at whatever it cannot pass. With ``can_jump`` it may
    try to jump crossable obstacles.
    """

    entity: int
    start: Hex
    altitude_yd: float
    height_yd: float
    facing: int
    heading: int
    points: int
    veer: tuple[int, ...] = ()
    turns: tuple[FacingChange, ...] = ()
    steady_from_yd: int | None = None
    stop_at_yd: int | None = None
    drift_from_yd: int | None = None
    footing: bool = True
    can_jump: bool = False


@dataclass(slots=True)
class WalkResult:
    """Where a walk went: the hexes entered, the final facing and heading, the points spent (of which
    ``extra`` for footing), the changes of facing made (yards before each, its hex and its hexsides), and what
    stopped it, if anything."""

    facing: int
    heading: int
    path: list[Hex] = field(default_factory=list)
    spent: int = 0
    extra: int = 0
    turned: list[tuple[int, Hex, int]] = field(default_factory=list)
    struck: int | None = None


JumpRoll = Callable[[int, Hex], bool]
"""Asked whether the walker clears obstacle ``entity`` on ``hex``."""

WingRoll = Callable[[int, Hex], bool]
"""Asked, once the walker has entered ``hex`` at yard ``yard`` of its path, whether it keeps control there (the
house rules' wingspan roll); on a no it has lost control at that yard and flies on straight ahead."""

FeatRefusal = Callable[[str, Hex], bool]
"""Asked whether the walker, a mount, refuses the risky feat (``"bad footing"``, ``"obstacle"``, ``"jump"``) that
entering ``hex`` asks of it; on a yes it stops short of the hex."""

FeatCheck = Callable[[World, int, str], bool]
"""Asked whether mover ``entity`` refuses the risky feat its path asks of it now (True: it stops short). The
GURPS ``install`` gives :class:`PathWalker` the Mounted Combat rule
(``esper_motion.systems.gurps.mounted.mount_orders.refuses_feat``)."""

DodgeRoll = Callable[[int, Hex, int], bool]
"""Asked whether body ``entity`` on ``hex`` dodges out of the walker's way by stepping one hex in the direction
given (where :meth:`~esper_motion.systems.gurps.shared.spatial.SpatialIndex.room_to_step_aside` found it room); on
a yes it has stepped there, in the world and in the index."""


def walk(
    plan: WalkPlan,
    index: SpatialIndex,
    jump: JumpRoll,
    dodge: DodgeRoll,
    *,
    refuses: FeatRefusal | None = None,
    wings: WingRoll | None = None,
) -> WalkResult:
    """Follow ``plan`` through ``index``; ``jump`` and ``dodge`` decide the rolls met on the way, ``refuses``
    whether the walker balks at a risky feat (:func:`feats_at`) before it enters a hex (None: it never does), and
    ``wings`` (None: nothing to ask) whether the walker keeps control in each hex it enters while in control: from
    a no on, it goes straight along its heading, and no change of facing planned for later is made (House rules:
    Flying Movement and Combat: the wingspan roll is made at once).

    Basic Set: High-Speed Movement > Tactical Movement: movement points are the velocity, bad footing
    costs extra points; Direction and Turning Radius: until the radius is met the walker may enter any of
    its three front hexes without changing facing; a walker with legs may roll to jump obstacles, and
    otherwise collides with what it cannot pass or what does not dodge out of the way.

    A walker that fills several hexes (a horse, a flier lying flat: ``SpatialIndex.length``) fills them in a line
    behind its front, opposite its facing (:func:`esper_motion.systems.gurps.shared.figure.body_hexes`): every hex its
    body comes to fill, stepping or swinging round in a turn, is entered as its front hex is, and whatever stops it
    there stops the whole walker (a turn whose swing is stopped is not made).

    Reading chosen: a jump carries the jumper straight on over the obstacle until its whole body is past it, as
    :func:`_no_landing` looks for room to land: no veer and no turn in mid-air (a turn due there is made on landing),
    so a walker never ends its move standing on what it jumped.
    """
    here = plan.start
    facing, heading = plan.facing, plan.heading
    path: list[Hex] = []
    spent = extra = 0
    turned: list[tuple[int, Hex, int]] = []
    struck: int | None = None
    turns, steady_from = plan.turns, plan.steady_from_yd
    turn_yd = turns[0][0] if turns else None  # the yard of the next change of facing, None when none is left
    stop_at_yd, drift_from_yd = plan.stop_at_yd, plan.drift_from_yd
    points, footing, veer = plan.points, plan.footing, plan.veer
    occupied = index.occupied
    rolls = (jump, dodge)
    length = index.length(plan.entity)
    body = body_hexes(here, facing, length) if length > 1 else (here,)
    yard = 0
    carried_until = 0  # after a jump: the yard from which the walker is past the obstacle
    jumped_toward = 0
    while True:
        while yard == turn_yd:  # several changes put off by a jump to its landing are all made there
            by = turns[len(turned)][1]
            turned_to = turn(facing, by)
            if length > 1:
                swung = body_hexes(here, turned_to, length)
                struck = _body_in_way(plan, index, body, swung, toward=turned_to, rolls=rolls)
                if struck is not None:
                    break
                body = swung
            facing = turned_to
            if steady_from is None or yard < steady_from:
                heading = facing
            turned.append((yard, here, by))
            turn_yd = max(yard, turns[len(turned)][0]) if len(turned) < len(turns) else None
        if struck is not None:
            break
        if stop_at_yd is not None and yard >= stop_at_yd:
            break
        drifting = drift_from_yd is not None and yard >= drift_from_yd
        if yard < carried_until:
            toward = jumped_toward
        elif drifting:
            toward = heading
        else:
            side = veer[yard] if yard < len(veer) else 0
            toward = (facing + side) % 6  # one of the three front hexes
        step = DIRECTIONS[toward]
        if length == 1 and (drifting or yard >= len(veer)) and wings is None:
            # Up to the next yard where the plan changes something, every empty hex costs one point and holds
            # nothing to meet: walk those in one go, then look again at the yard after them.
            most = points - spent
            for mark in (turn_yd, stop_at_yd, None if drifting else drift_from_yd):
                if mark is not None and mark > yard:
                    most = min(most, mark - yard)
            ran = clear_run(here, step, most, occupied, path)
            if ran:
                here = path[-1]
                body = (here,)
                spent += ran
                yard += ran
                if spent == points and yard != turn_yd:
                    break  # no point left for another yard, and no turn due here
                continue
        ahead = (here[0] + step[0], here[1] + step[1])
        empty = ahead not in occupied  # nothing there: no footing to pay, nothing to jump or run into
        cost = 1 if empty or not footing else 1 + index.footing_extra(ahead)
        if spent + cost > points:
            break
        moved = body_hexes(ahead, facing, length) if length > 1 else (ahead,)
        if not empty:
            left = points - spent - cost
            if not drifting and _no_landing(
                plan, index, ahead, step=step, facing=facing, length=length, filled=(*body, *moved), left=left
            ):
                break
            if (
                refuses is not None
                and not drifting
                and any(refuses(feat, ahead) for feat in feats_at(plan, index, ahead))
            ):
                break
            avoid = (*body, *moved)
            struck = _in_the_way(plan, index, ahead, toward=toward, avoid=avoid, rolls=rolls, may_jump=not drifting)
            if struck is not None:
                break
        if length > 1:
            struck = _body_in_way(plan, index, body, moved, toward=toward, rolls=rolls)
            if struck is not None:
                break
        body = moved
        path.append(ahead)
        here = ahead
        spent += cost
        extra += cost - 1
        yard += 1
        if (
            not empty
            and plan.can_jump
            and not drifting
            and index.obstacles_in_way(ahead, plan.altitude_yd, plan.height_yd)
        ):
            carried_until, jumped_toward = yard + length, toward
            if turn_yd is not None and yard <= turn_yd < carried_until:
                turn_yd = carried_until
        if wings is not None and drift_from_yd is None and not wings(yard, here):
            drift_from_yd = yard
            turn_yd = None
    if wings is not None and not path:
        wings(0, here)
    return WalkResult(facing, heading, path, spent, extra, turned, struck)


def feats_at(plan: WalkPlan, index: SpatialIndex, ahead: Hex) -> tuple[str, ...]:
    """The risky feats entering ``ahead`` asks of a mount (Basic Set: Mounted Combat): a jump over an obstacle
    it may jump, charging into one it may not, and going onto bad footing (paid only on the ground)."""
    found: list[str] = []
    obstacles = index.obstacles_in_way(ahead, plan.altitude_yd, plan.height_yd)
    if obstacles:
        found.append("jump" if plan.can_jump and all(what.crossable for _, what in obstacles) else "obstacle")
    if plan.footing and index.footing_extra(ahead) > 0:
        found.append("bad footing")
    return tuple(found)


def _no_landing(
    plan: WalkPlan,
    index: SpatialIndex,
    ahead: Hex,
    *,
    step: Hex,
    facing: int,
    length: int,
    filled: tuple[Hex, ...],
    left: int,
) -> bool:
    """Whether what stands on ``ahead`` is only obstacles the walker could jump, with nowhere to land beyond them:
    the ``left`` movement points (once ``ahead`` is paid for) cannot carry its whole body (``length`` hexes) past them
    straight on, or something it would meet stands on a hex its body would come to fill on the way. Then it stops
    short of them.

    The body is laid behind its front opposite ``facing`` (:func:`esper_motion.systems.gurps.shared.figure.body_hexes`)
    and ``filled`` holds the hexes it fills now and on ``ahead``; a walker that veered onto the obstacle is carried on
    in that direction with its body still along its facing, so the hexes behind its front are new ones at every
    yard, and each is looked at as its front's are."""
    if not plan.can_jump:
        return False
    found = index.obstacles_in_way(ahead, plan.altitude_yd, plan.height_yd)
    if not found or not all(what.crossable for _, what in found):
        return False
    seen = set(filled)
    q, r = ahead
    for _ in range(length):
        q, r = q + step[0], r + step[1]
        left -= 1 + (index.footing_extra((q, r)) if plan.footing else 0)
        if left < 0:
            return True
        for spot in body_hexes((q, r), facing, length) if length > 1 else ((q, r),):
            if spot in seen:
                continue
            seen.add(spot)
            if index.obstacles_in_way(spot, plan.altitude_yd, plan.height_yd):
                return True
            if index.bodies_in_way(spot, plan.entity, plan.altitude_yd, plan.height_yd):
                return True
    return False


def straight_path(start: Hex, direction: int, points: int, index: SpatialIndex) -> list[Hex] | None:
    """The path of a walker on ``start`` that goes straight ahead along ``direction`` (its facing) for all its
    ``points`` when every hex on the way is empty (the common case, found without a :class:`WalkPlan`); None when it
    meets anything on the way, and must take the full :func:`walk`. The walker has no change of facing on the way,
    no veer and no loss of control to follow this turn. A walker filling several hexes in a line behind its front (a
    horse) fills only hexes its body or its front has filled already, so its front's hexes are the only ones to look
    at."""
    occupied = index.occupied
    q, r = start
    dq, dr = DIRECTIONS[direction]
    path: list[Hex] = []
    for _ in range(points):  # clear_run's loop, written out: this runs for most movers every turn
        q, r = q + dq, r + dr
        if (q, r) in occupied:
            return None
        path.append((q, r))
    return path


def straight_walk(world: World, body: Body, turns: tuple[FacingChange, ...], index: SpatialIndex) -> WalkResult | None:
    """What :func:`walk` gives a walker filling one hex, in control, asked for no veer and for no change of facing
    but, at most, one made as the turn opens (``turns``, as for :func:`plan_walk`), whose way on along its new
    facing is empty (:func:`straight_path`), found without a :class:`WalkPlan`: the forecasts of the planner's
    candidates take it (:func:`esper_motion.systems.gurps.preview.forecast_walk`). None for any other walker, or
    when the way meets anything. The caller knows the walker keeps control and has no wingspan to watch."""
    if body.intent.veer or len(turns) > 1 or (turns and turns[0][0] != 0) or index.length(body.entity) != 1:
        return None
    start = body.position.hex
    facing = turn(body.facing.direction, turns[0][1]) if turns else body.facing.direction
    path = straight_path(start, facing, level_points(world, body.entity, body.velocity.yps), index)
    if path is None:
        return None
    return WalkResult(facing, facing, path, len(path), 0, [(0, start, turns[0][1])] if turns else [], None)


def clear_run(here: Hex, step: Hex, most: int, occupied: Container[Hex], path: list[Hex]) -> int:
    """Walk from ``here`` by ``step`` through at most ``most`` hexes that are not ``occupied``, adding each to
    ``path``; return how many."""
    q, r = here
    dq, dr = step
    ran = 0
    while ran < most:
        ahead = (q + dq, r + dr)
        if ahead in occupied:
            break
        path.append(ahead)
        q, r = ahead
        ran += 1
    return ran


def _body_in_way(
    plan: WalkPlan,
    index: SpatialIndex,
    body: tuple[Hex, ...],
    moved: tuple[Hex, ...],
    *,
    toward: int,
    rolls: tuple[JumpRoll, DodgeRoll],
) -> int | None:
    """What stops a walker filling several hexes from filling the hexes behind its front in ``moved`` that its
    ``body`` did not fill yet (its front hex is :func:`_in_the_way`'s business). Only the front jumps: an
    obstacle that the body behind it would swing or slide onto stops the walker."""
    avoid = (*body, *moved)
    for spot in moved[1:]:
        if spot not in body and spot in index.occupied:
            struck = _in_the_way(plan, index, spot, toward=toward, avoid=avoid, rolls=rolls, may_jump=False)
            if struck is not None:
                return struck
    return None


def _in_the_way(
    plan: WalkPlan,
    index: SpatialIndex,
    ahead: Hex,
    *,
    toward: int,
    avoid: tuple[Hex, ...],
    rolls: tuple[JumpRoll, DodgeRoll],
    may_jump: bool,
) -> int | None:
    """What stops the walker, travelling in direction ``toward``, entering ``ahead``: an obstacle it does not jump
    (it tries only when ``may_jump``), then a body that does not dodge out of the way. A body dodges by stepping
    aside onto a clear hex not in ``avoid`` (the hexes the walker fills now and will fill); one with no such hex
    cannot get out of the way. ``rolls`` are the walk's jump and dodge rolls."""
    jump, dodge = rolls
    for obstacle, what in index.obstacles_in_way(ahead, plan.altitude_yd, plan.height_yd):
        if what.crossable and plan.can_jump and may_jump and jump(obstacle, ahead):
            continue
        return obstacle
    for other in index.bodies_in_way(ahead, plan.entity, plan.altitude_yd, plan.height_yd):
        aside = index.room_to_step_aside(other, toward, avoid, (other, plan.entity))
        if aside is None or not dodge(other, ahead, aside):
            return other
    return None


def straight_yd_after(straight_yd: int, result: WalkResult) -> int:
    """``Control.straight_yd`` once the walk ``result`` is made from ``straight_yd``: the yards run since its last
    change of facing, or all of them added on when it made none."""
    if result.turned:
        return len(result.path) - result.turned[-1][0]
    return straight_yd + len(result.path)


def jump_skill(world: World, body: Body) -> int:
    """DX or Jumping, whichever is better, less shock: the roll to jump an obstacle at a run. Under the house
    rules a Move and Attack takes 2 more off (:func:`esper_motion.systems.gurps.shared.movers.dx_modifier`; House rules:
    "Dragon" Rule)."""
    skills = world.try_get(body.entity, Skills)
    jumping = skills.level("Jumping") if skills is not None else None
    return max(body.mover.dx, jumping or 0) + dx_modifier(world, body.entity)


def dodge_skill(world: World, entity: int) -> int | None:
    """Dodge of a body in the way: Basic Speed + 3 (rounded down) less encumbrance, halved when reeling and -4 when
    stunned (:func:`esper_motion.systems.gurps.shared.injury.defense_modifiers`); None for one that cannot dodge
    (unconscious, or no ``Mover``)."""
    mover = world.try_get(entity, Mover)
    if mover is None:
        return None
    dodge = int(mover.basic_speed) + 3 + rules.dodge_encumbrance_penalty(mover.encumbrance)
    injured = defense_modifiers(world, entity, "dodge", dodge)
    return None if injured is None else dodge + sum(value for _, value in injured)


def dodge_aside(world: World, index: SpatialIndex, mover: int, other: int, *, at: Hex, aside: int) -> bool:
    """Roll ``other``'s Dodge to get out of ``mover``'s way on ``at``; on a success it steps one hex in direction
    ``aside`` (every hex it fills with it, in the world and in ``index``) and says so."""
    skill = dodge_skill(world, other)
    if skill is None:
        return False
    result = success_roll(world, other, skill, "Dodge", f"dodge out of the way of entity {mover}")
    if result.success:
        index.shift(other, aside)
        position = world.get(other, Position)
        step = DIRECTIONS[aside]
        position.q, position.r = position.q + step[0], position.r + step[1]
        world.emit(DodgedAside(other, mover, at, position.hex))
    return result.success


def plan_walk(
    world: World, body: Body, chosen: Rules, turns: tuple[FacingChange, ...], loss: tuple[int, LossCause] | None
) -> WalkPlan:
    """The :class:`WalkPlan` of ``body`` this turn, changing facing as ``turns`` says (``(at_yd, hexsides)`` in
    order; none: no turn); ``loss`` is the yard from which it is out of control (0: from the start) and why, or
    None when it keeps control all the way.

    In control it follows its facing and its ``Intent.veer``. From the loss of control on it either stops (a
    trip: the skid comes in the CONTROL phase) or goes straight along its heading (in the air, in water, on
    three or more wheels). A turn planned while out of control (the house rules' failed early turn) changes
    the facing, not the heading.
    """
    stop_at = drift_from = None
    if loss is not None:
        if loss_mode(world, body, loss[1], chosen) == "trip":
            stop_at = loss[0]
        else:
            drift_from = loss[0]
    heading = body.velocity.heading if loss is not None and loss[0] == 0 else body.facing.direction
    on_ground = environment(world, body) == "ground"
    return WalkPlan(
        entity=body.entity,
        start=body.position.hex,
        altitude_yd=body.position.altitude_yd,
        height_yd=figure_height_yd(body.mover),
        facing=body.facing.direction,
        heading=heading,
        points=level_points(world, body.entity, body.velocity.yps),
        veer=body.intent.veer,
        turns=turns,
        steady_from_yd=loss[0] if loss is not None else None,
        stop_at_yd=stop_at,
        drift_from_yd=drift_from,
        footing=on_ground,
        can_jump=body.mover.legs and on_ground,
    )


class PathWalker(IndexedSystem):
    """MOVEMENT phase: moves every mover along its path, in initiative order. Reads ``Velocity`` (movement points),
    ``Facing``, ``Intent.veer``, ``Control`` (``turn_plan`` from the TURNING phase, ``state``, ``lost_at_yd``), footing,
    obstacles and other bodies through the :class:`~esper_motion.systems.gurps.shared.spatial.SpatialIndex` (brought up
    to date here once a turn); writes ``Position``, ``Facing.direction``, ``Velocity.heading``, ``Control`` (``path``,
    ``moved_yd``, ``extra_cost``, ``straight_yd``, ``turned_hexsides``, ``struck``; ``halted`` on a body it runs into;
    ``state`` and ``loss_cause`` on a failed wingspan roll); emits :class:`Turned`, :class:`Moved`,
    :class:`ObstacleCrossed`, :class:`DodgedAside`, :class:`WingspanObstructed`, ``RollMade`` and ``LostControl``; moves
    a body that dodges aside (its ``Position``). Implements Basic Set: High-Speed Movement.

    Its reading of the rules: docs/gurps-basic.md > How each system reads the rules > PathWalker.
    """

    phase = Phase.MOVEMENT

    def __init__(self, index: SpatialIndex, refuses: FeatCheck | None = None) -> None:
        super().__init__(index)
        self.refuses = refuses

    def run(self) -> None:
        """Walk every mover in initiative order: one going straight ahead along its facing, asked for no change of
        facing, veer or roll, through the empty hexes of :func:`straight_path` without a :class:`WalkPlan`; any
        other, or one whose straight path meets something, through :meth:`_walk`."""
        world = self.world
        chosen = installed_rules(world)
        index = self.index
        walked_index(world, index)
        walked: list[int] = []  # the bodies that have moved so far this turn
        expected: dict[int, list[Hex]] = {}  # the paths forecast for bodies yet to move, each once a turn
        winged = winged_fliers(world) if chosen.house_flight else frozenset()
        order = bodies(world)
        climbers = {entity for entity, _ in world.scan(FlightIntent)}  # level_points is the velocity for the others
        for number, body in enumerate(order):
            control = body.control
            if control.carried_by is not None or control.halted:  # carried, or stopped by what it ran into
                continue
            entity = body.entity
            if entity in winged:
                self._walk(world, body, chosen, walked, order[number + 1 :], expected)
            elif control.loss_cause is None and not control.turn_plan and not body.intent.veer:
                yps = body.velocity.yps
                points = level_points(world, entity, yps) if entity in climbers else yps
                path = straight_path(body.position.hex, body.facing.direction, points, index)
                if path is None:
                    self._walk(world, body, chosen, walked, None, expected)
                else:
                    facing = body.facing.direction
                    self._write(world, body, facing, facing, path, 0, None, control.straight_yd + len(path))
            else:
                self._walk(world, body, chosen, walked, None, expected)
            if control.path:
                walked.append(entity)

    def _walk(  # noqa: PLR0917 (the walker's own state, passed down)
        self,
        world: World,
        body: Body,
        chosen: Rules,
        walked: list[int],
        later: Sequence[Body] | None,
        expected: dict[int, list[Hex]],
    ) -> None:
        """Walk ``body``; ``later`` (a winged flier's only) are the bodies after it in initiative order, whose
        forecast paths ``expected`` keeps."""
        control = body.control
        entity = body.entity
        index = self.index
        plan = plan_walk(world, body, chosen, control.turn_plan, _loss(control))

        def jump(obstacle: int, at: Hex) -> bool:
            result = success_roll(world, entity, jump_skill(world, body), "DX or Jumping", f"jump obstacle {obstacle}")
            mount_rolled_dx(world, entity, result.success)
            if result.success:
                world.emit(ObstacleCrossed(entity, obstacle, at))
            return result.success

        def dodge(other: int, at: Hex, aside: int) -> bool:
            return dodge_aside(world, index, entity, other, at=at, aside=aside)

        met = False  # the wingspan roll is made once, where something first comes within the wingspan
        near: frozenset[int] | None = None  # the bodies moved so far that may come within the wingspan
        coming: dict[int, list[Hex]] = {}  # the bodies yet to move that may, with the path each is to walk

        def wings(yard: int, at: Hex) -> bool:
            nonlocal met, near
            if met:
                return True
            if near is None:
                near = could_meet(world, entity, walked, plan.start, plan.points)
                coming.update(self._coming(world, chosen, entity, plan, later or (), expected))
            moment = yard / max(1, plan.points)
            found = wingspan_obstacles(world, index, entity, at, moment=moment, moved=near, coming=coming)
            if not found:
                return True
            met = True
            world.emit(WingspanObstructed(entity, tuple(sorted(found)), False))
            dx = body.mover.dx + dx_modifier(world, entity)
            cause = failed_control_roll(world, entity, dx, "DX", "obstacle in the wingspan")
            if cause is not None:
                lose_control(world, body, cause, yard, chosen)
            return cause is None

        check = self.refuses
        refusal: FeatRefusal | None = None
        if check is not None and world.has(entity, Mount):

            def refusal(feat: str, _at: Hex) -> bool:
                return check(world, entity, feat)

        watching = later is not None and control.loss_cause is None and watched(world, body)
        result = walk(plan, index, jump, dodge, refuses=refusal, wings=wings if watching else None)
        if result.turned:
            at_speed = control.state is MoveState.HIGH_SPEED or control.loss_cause is not None
            lim = limits(world, body, chosen) if at_speed else None
            facing, previous = plan.facing, None
            # a change needed a roll by the yard it was planned at (a jump may put it off to its landing)
            for (after_yd, at, by), (planned_yd, _) in zip(result.turned, plan.turns, strict=False):
                pushed = False
                if lim is not None:
                    early = planned_yd < hexside_free_yd(world, body, lim, planned_yd, previous)
                    pushed = early or abs(by) == 2
                world.emit(Turned(entity, facing, turn(facing, by), at, after_yd, pushed))
                facing, previous = turn(facing, by), planned_yd
                control.turned_hexsides += abs(by)
        straight_yd = straight_yd_after(control.straight_yd, result)
        self._write(world, body, result.facing, result.heading, result.path, result.extra, result.struck, straight_yd)

    def _coming(  # noqa: PLR0917 (the walker's own state, passed down)
        self,
        world: World,
        chosen: Rules,
        entity: int,
        plan: WalkPlan,
        later: Sequence[Body],
        expected: dict[int, list[Hex]],
    ) -> dict[int, list[Hex]]:
        """The bodies of ``later``, yet to move, that may come within the wingspan of winged flier ``entity``
        walking ``plan`` (their start near enough), each with the path it is to walk: its own plan walked through
        the index as it stood when first asked this turn (kept in ``expected``), every jump assumed made and
        nobody dodging (House rules: Flying Movement and Combat: two fliers passing each other both roll,
        whichever moves first)."""
        reach = world.get(entity, Flight).wingspan_yd // 2
        found: dict[int, list[Hex]] = {}
        for other in later:
            if carried(other) or other.control.halted:
                continue
            path = expected.get(other.entity)
            if path is None:
                points = level_points(world, other.entity, other.velocity.yps)
                if distance(other.position.hex, plan.start) > plan.points + reach + points:
                    continue
                ahead = plan_walk(world, other, chosen, other.control.turn_plan, _loss(other.control))
                path = expected[other.entity] = walk(ahead, self.index, _made, _stays).path
            elif distance(other.position.hex, plan.start) > plan.points + reach + len(path):
                continue
            found[other.entity] = path
        return found

    def _write(  # noqa: PLR0917 (a walk's outcome, field by field: no object made for it)
        self,
        world: World,
        body: Body,
        facing: int,
        heading: int,
        path: list[Hex],
        extra: int,
        struck: int | None,
        straight_yd: int,
    ) -> None:
        """Put ``body`` at the end of ``path`` facing ``facing`` and heading ``heading``, with what its walk did
        in its ``Control`` (``extra`` points paid for footing, ``struck`` what stopped it, ``straight_yd`` the
        yards run since its last change of facing), and say so."""
        entity, control, position = body.entity, body.control, body.position
        control.straight_yd = straight_yd
        start = (position.q, position.r)
        end = path[-1] if path else start
        position.q, position.r = end
        body.facing.direction = facing
        self.index.move(entity, start, end, facing)
        body.velocity.heading = heading
        control.path = path  # this walk's own list
        control.moved_yd = len(path)
        control.extra_cost = extra
        control.struck = struck
        if struck is not None:
            struck_control = world.try_get(struck, Control)
            if struck_control is not None:
                struck_control.halted = True
        world.emit(Moved(entity, tuple(path), extra))


def _loss(control: Control) -> tuple[int, LossCause] | None:
    """Where and why the walker lost control before its walk (None: it has not)."""
    if control.loss_cause is None:
        return None
    return (control.lost_at_yd or 0, control.loss_cause)


def _made(_obstacle: int, _at: Hex) -> bool:
    return True


def _stays(_other: int, _at: Hex, _aside: int) -> bool:
    return False

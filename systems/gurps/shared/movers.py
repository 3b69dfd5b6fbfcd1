"""Reading a GURPS mover: who moves, in which order, with which Move, how fast at most, and what keeps control.

Every high-speed system starts from :func:`bodies` (the entities that move, in initiative order) and
:func:`limits` (the numbers the rules allow them this turn), so the systems, :func:`esper_motion.systems.gurps.preview`
and the queries of :mod:`esper_motion.systems.gurps.highspeed.queries` agree by construction.

Where the Move comes from (Basic Set: High-Speed Movement > High-Speed Flying and Swimming): on the ground
``Mover.basic_move``; in the air (a ``Flight`` component and an altitude above 0) ``Flight.air_move``; in water
(``Mover.swimming``) ``Mover.water_move``. Encumbrance reduces each of them alike.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache
from typing import Any, Final, Literal, NamedTuple

from esper_motion.components.flight import Flight
from esper_motion.components.gurps import (
    Condition,
    Control,
    Intent,
    LossCause,
    Maneuver,
    Mover,
    MoveState,
    Posture,
    PostureState,
    Skills,
)
from esper_motion.components.motion import Facing, Position, Velocity
from esper_motion.components.mount import Mount, Rider
from esper_motion.ecs import World, WorldError
from esper_motion.ecs.hexgrid import Hex
from esper_motion.systems.gurps import rules
from esper_motion.systems.gurps.options import Rules
from esper_motion.systems.gurps.shared.dive import speed_limits
from esper_motion.systems.gurps.shared.injury_model import general_rules
from esper_motion.systems.gurps.shared.rolls import shock, success_roll

Environment = Literal["ground", "air", "water"]
"""Where an entity moves: the Move it uses and what losing control does depend on it."""

LossMode = Literal["trip", "drift", "wheels"]
"""What losing control does: trip and skid (on the ground), drift straight ahead (in the air or water), or
decelerate steadily (three or more wheels)."""

BODY_TYPES: Final = (Position, Facing, Velocity, Mover, Control, Intent)
"""The components every entity the high-speed systems move must have."""


class Body(NamedTuple):
    """One entity the high-speed systems move, with the components they read and write."""

    entity: int
    position: Position
    facing: Facing
    velocity: Velocity
    mover: Mover
    control: Control
    intent: Intent


def initiative_key(entity: int, mover: Mover | None) -> tuple[float, int]:
    """Sort key of initiative: highest ``Mover.basic_speed`` first, then the lowest entity id (docs/architecture.md >
    The turn); an entity without a ``Mover`` counts Basic Speed 0."""
    return (-(mover.basic_speed if mover is not None else 0.0), entity)


def initiative_mover(world: World, entity: int, mover: Mover | None) -> Mover | None:
    """The ``Mover`` whose Basic Speed ``entity`` acts on: its own (``mover``); under the house rules a ridden
    mount acts on its controlling rider's initiative (House rules: Mounts). The high-speed systems order their
    movers by it too."""
    if not installed_rules(world).house_mounts:
        return mover
    found = world.try_get(entity, Mount)
    if found is None or found.controller is None:
        return mover
    controller = world.try_get(found.controller, Mover)
    return controller if controller is not None else mover


def initiative_order(world: World, entities: Iterable[int]) -> list[int]:
    """``entities`` in the order they act: highest Basic Speed first, then lowest id (docs/architecture.md > The turn),
    a ridden mount on its rider's Basic Speed under the house rules (:func:`initiative_mover`)."""
    found = list(entities)
    if len(found) > 1:
        found.sort(
            key=lambda entity: initiative_key(entity, initiative_mover(world, entity, world.try_get(entity, Mover)))
        )
    return found


def bodies(world: World) -> tuple[Body, ...]:
    """Every entity with all of :data:`BODY_TYPES`, in initiative order.

    During a step the order is settled once, when the first system of the turn asks, and every system of the
    turn walks the same tuple (:meth:`esper_motion.ecs.World.per_turn`). Nothing the systems before the MOUNTED phase do
    changes a Basic Speed or who controls a mount, and structural changes wait for the end of the turn, so
    this is the order each system would have found for itself.
    """
    return world.per_turn(bodies, lambda: _in_order(world))


def _in_order(world: World) -> tuple[Body, ...]:
    found = world.per_shape(bodies, BODY_TYPES, _Bodies)
    if installed_rules(world).house_mounts:  # a ridden mount acts on its rider's Basic Speed
        return tuple(
            sorted(
                found.bodies,
                key=lambda body: initiative_key(body.entity, initiative_mover(world, body.entity, body.mover)),
            )
        )
    return found.by_initiative()


class _Bodies:
    """A :class:`Body` for each row of a query of :data:`BODY_TYPES` (made once, then kept while the world's
    entities keep the same components: :meth:`esper_motion.ecs.World.per_shape`), and their order of initiative as last
    worked out, with the Basic Speeds it was worked out from."""

    __slots__ = ("bodies", "order", "speeds")

    def __init__(self, rows: Sequence[tuple[int, tuple[Any, ...]]]) -> None:
        self.bodies = [Body(entity, *components) for entity, components in rows]
        self.speeds: list[float] | None = None
        self.order: tuple[Body, ...] = ()

    def by_initiative(self) -> tuple[Body, ...]:
        """The bodies in initiative order (:func:`initiative_key`); sorted again only when a Basic Speed changed."""
        speeds = [body.mover.basic_speed for body in self.bodies]
        if speeds != self.speeds:
            self.order = tuple(sorted(self.bodies, key=lambda body: initiative_key(body.entity, body.mover)))
            self.speeds = speeds
        return self.order


def body_of(world: World, entity: int) -> Body:
    """The :class:`Body` of one entity; a :class:`~esper_motion.ecs.errors.WorldError` naming what it lacks
    otherwise."""
    missing = [kind.__name__ for kind in BODY_TYPES if not world.has(entity, kind)]
    if missing:
        raise WorldError(f"entity {entity} is not a GURPS mover: it has no {', '.join(missing)}")
    return Body(
        entity,
        world.get(entity, Position),
        world.get(entity, Facing),
        world.get(entity, Velocity),
        world.get(entity, Mover),
        world.get(entity, Control),
        world.get(entity, Intent),
    )


def carried(body: Body) -> bool:
    """Whether the entity rides a mount or vehicle and so does not move under its own power
    (Basic Set: High-Speed Movement > Maneuvers During High-Speed Movement)."""
    return body.control.carried_by is not None


def out_of_control(world: World) -> Iterator[tuple[Body, LossCause]]:
    """Every body out of control and moving under its own power whose turn is not over yet, with the cause,
    in initiative order (the CONTROL phase's systems each take the ones their rules cover)."""
    for body in bodies(world):
        control = body.control
        if carried(body) or control.halted or control.state is not MoveState.OUT_OF_CONTROL:
            continue
        assert control.loss_cause is not None  # Control keeps the two together
        yield body, control.loss_cause


def unmanned(world: World, body: Body) -> bool:
    """Whether ``body`` is a vehicle with nobody at its controls: a ``Mover`` with ``handling`` but no
    ``operator_skill``, and no rider controlling it as a mount (a motorcycle's rider drives it). Reading chosen:
    ``handling`` is what marks a vehicle (Basic Set: High-Speed Movement > Maneuvers During High-Speed
    Movement)."""
    mover = body.mover
    if mover.handling is None or mover.operator_skill is not None:
        return False
    return driver(world, body.entity) is None


def driver(world: World, vehicle: int) -> int | None:
    """The rider at the controls of ``vehicle`` ridden as a mount (a motorcycle): its controlling rider, unless
    that rider is unconscious or stunned, when nobody is at the controls (Basic Set: High-Speed Movement >
    Maneuvers During High-Speed Movement; Mounted Combat > Cavalry Weapons, the same rules from a motorcycle).
    None for a vehicle nobody rides."""
    ridden = world.try_get(vehicle, Mount)
    controller = ridden.controller if ridden is not None else None
    if controller is None:
        return None
    condition = world.try_get(controller, Condition)
    if condition is not None and (not condition.conscious or condition.stunned):
        return None
    return controller


def environment(world: World, body: Body) -> Environment:
    """``water`` while swimming, ``air`` with a ``Flight`` above the ground, otherwise ``ground``."""
    return _move_in_use(world, body)[0]


def standing(world: World, entity: int) -> bool:
    """Whether the entity stands; one without a ``Posture`` counts as standing."""
    posture = world.try_get(entity, Posture)
    return posture is None or posture.state is PostureState.STANDING


def dx_modifier(world: World, entity: int) -> int:
    """What counts against a DX roll ``entity`` makes this turn: its shock (:func:`shock`), and under the house
    rules -2 while it takes a Move and Attack (:data:`esper_motion.systems.gurps.rules.MOVE_AND_ATTACK_DX_MODIFIER`;
    House rules: "Dragon" Rule). Reading chosen: the house text states the -2 of Move and Attack in general (the Dragon
    rule leaves it on fliers too), so it binds every mover, flier or not, when ``Rules.flight`` is ``"house"``, the
    option that carries the Dragon rule. The Basic Set sections implemented here do not give it, so under
    ``Rules.basic()`` only shock counts. An entity without an ``Intent`` takes no Move and Attack."""
    modifier = shock(world, entity)
    intent = world.try_get(entity, Intent)
    if intent is not None and intent.maneuver is Maneuver.MOVE_AND_ATTACK and installed_rules(world).house_flight:
        modifier += rules.MOVE_AND_ATTACK_DX_MODIFIER
    return modifier


def reeling_now(world: World, entity: int) -> bool:
    """Whether ``entity`` is reeling under the general injury rules: fewer than 1/3 of its HP left, so its Move and
    Dodge are halved, rounded up (:func:`esper_motion.systems.gurps.rules.reeling`)."""
    condition = world.try_get(entity, Condition)
    if condition is None or condition.injury == 0:
        return False
    mover = world.try_get(entity, Mover)
    return mover is not None and rules.reeling(mover.hp, condition.injury) and general_rules(world)


class Limits(NamedTuple):
    """What the rules allow one mover this turn (Basic Set: High-Speed Movement, or the house rules). A named
    tuple, quick to make: the systems work one out for most movers every turn.

    - ``basic_move``: Basic Move in its environment (air or water Move in place of it); the safe
      deceleration, and the acceleration step of the Basic Set.
    - ``move``: that Move reduced for encumbrance (Encumbered Move).
    - ``top_speed``: the fastest it may go; ``entry_limit`` the most it may start the first turn at high
      speed with (never above ``top_speed``).
    - ``accel_step``: how much it may add at the end of a turn (Basic Move; Encumbered Move in the house
      rules). ``safe_decel`` and ``max_decel`` bound deceleration without and with a roll.
    - ``radius``: the turning radius at the present velocity (``math.inf`` for a Move of 0) and
      ``free_turn_yd`` how many yards into this turn the radius is met, counting the yards already run
      straight (``Control.straight_yd``).
    - ``high_speed_above``: a velocity above this is high speed: Basic Move, or Encumbered Move in the
      house rules. House rules only: 0 for a flier in the air that cannot hover, which always moves at high
      speed while it flies (House rules: Flying Movement and Combat).
    """

    environment: Environment
    basic_move: int
    move: int
    top_speed: int
    entry_limit: int
    accel_step: int
    safe_decel: int
    max_decel: int
    radius: int | float
    free_turn_yd: int | float
    high_speed_above: int


def _move_in_use(world: World, body: Body) -> tuple[Environment, int, int | None]:
    """The entity's environment (:func:`environment`), its Basic Move there and its rated top speed there (None if
    it has none)."""
    mover = body.mover
    if mover.swimming:
        assert mover.water_move is not None  # Mover refuses swimming without water_move
        return "water", mover.water_move, mover.top_speed
    if body.position.altitude_yd > 0 and (flight := world.try_get(body.entity, Flight)) is not None:
        return "air", flight.air_move, flight.top_airspeed
    return "ground", mover.basic_move, mover.top_speed


def basic_move(world: World, body: Body) -> int:
    """Basic Move in the entity's environment: ground Basic Move, basic air Move, or basic water Move."""
    return _move_in_use(world, body)[1]


def rated_top_speed(world: World, body: Body) -> int | None:
    """The rated top speed in the entity's environment (Enhanced Move, a vehicle's figure), or None."""
    return _move_in_use(world, body)[2]


def limits(world: World, body: Body, chosen: Rules) -> Limits:
    """The :class:`Limits` of ``body`` this turn under ``chosen`` rules.

    In the air the Move is ``Flight.air_move``, which is the flier's air Move with the doubling of Flight
    already in it; Encumbered Move reduces that figure, so the house rules' Encumbered Move includes Flight's
    x2 by construction (House rules: High Speed Movement).

    Reeling (:func:`reeling_now`), its Move, its top speed and the most its first turn at high speed may start with
    are halved, rounded up. Reading chosen: Basic Move stays as it is, so what is high speed, how fast it may speed up
    or slow down and its turning radius do not change.

    House rules, reading chosen (``Rules.flight == "house"``): a flier in the air that cannot hover must use
    High Speed Movement (House rules: Flying Movement and Combat), so any velocity is high speed for it
    (``high_speed_above`` 0): it never slows back into ordinary movement while it flies, and a velocity above
    0 at ordinary movement in the air is refused as for any mover. It takes off into high speed
    (``AltitudeSystem``) and lands back into ordinary movement. Under the Basic Set it follows the ordinary
    thresholds, with only the stall of Cannot Hover to keep it moving.
    """
    where, base, rated = _move_in_use(world, body)
    mover, house = body.mover, chosen.house_control
    rated_as_rated = house and not chosen.house_top_speed_encumbered
    move, top, first_turn, accel_step, max_decel, radius, high = _fixed_limits(
        base, rated, mover.encumbrance, mover.enhanced, house, rated_as_rated, chosen.turning_radius, body.velocity.yps
    )
    if where == "air":  # a dive changes the acceleration and top speed, and Cannot Hover may change the threshold
        accel_step, top = speed_limits(world, body.entity, chosen, accel_step, top)
        high = _high_speed_above(world, body, chosen, where, high)
    if reeling_now(world, body.entity):
        move, top, first_turn = rules.halved(move), rules.halved(top), rules.halved(first_turn)
    entry = min(first_turn, top)
    free = max(0, radius - body.control.straight_yd)
    # Positional, in the order of the fields: quicker to make than by keyword.
    return Limits(where, base, move, top, entry, accel_step, base, max_decel, radius, free, high)


@lru_cache(maxsize=256, typed=True)
def _fixed_limits(  # noqa: PLR0917 (positional arguments make the quickest cache key)
    base: int,
    rated: int | None,
    encumbrance: int,
    enhanced: bool,
    house: bool,
    rated_as_rated: bool,
    variant: rules.RadiusVariant,
    velocity: int,
) -> tuple[int, int, int, int, int, int | float, int]:
    """Move, top speed, the most the first turn at high speed may start with, acceleration step, most deceleration,
    turning radius and high-speed threshold of :func:`limits` before anything a flier's dive or hover changes: they
    follow from these numbers alone, which most movers share, so they are worked out once for each combination."""
    move, top, accel_step, first_turn = _speeds(base, rated, encumbrance, enhanced, house, rated_as_rated)
    radius = rules.turning_radius(velocity, move if rules.RADIUS_READINGS[variant].encumbered else base, variant)
    max_decel = base if house else 2 * base
    return move, top, first_turn, accel_step, max_decel, radius, move if house else base


@lru_cache(maxsize=64, typed=True)
def _speeds(  # noqa: PLR0917 (positional arguments, as the cached caller gives them)
    base: int, rated: int | None, encumbrance: int, enhanced: bool, house: bool, rated_as_rated: bool
) -> tuple[int, int, int, int]:
    """Encumbered Move, top speed, acceleration step and the most the first turn at high speed may start with,
    for a Basic Move of ``base`` and a rated top speed of ``rated`` in the environment (:func:`limits`, before a
    dive changes them). Pure arithmetic of the rules on a handful of numbers that most movers share, so it is
    worked out once for each combination.

    Basic Set: a rated top speed (a mount's gallop by Enhanced Move) is reduced by encumbrance as Move is, since
    encumbrance penalties apply normally (Mounted Combat > Movement and Maneuvers; Encumbrance and Move): a
    Medium-encumbrance horse with a gallop of 16 tops out at 9 (``rules.encumbered_top_speed``). The house top
    speed takes the rated figure as rated when ``rated_as_rated`` (``Rules.house_top_speed_encumbered`` off), else
    reduced alike."""
    move = rules.encumbered_move(base, encumbrance)
    if house:
        gallop = (rated or 0) if rated_as_rated else rules.encumbered_move(rated or 0, encumbrance)
        top = rules.house_top_speed(move, gallop)
    else:
        top = rules.encumbered_top_speed(move, rated, encumbrance)
    enhanced = enhanced or (rated is not None and rated > move)
    accel_step = move if house else base
    # House rules: the first turn at speed adds up to Encumbered Move, as any other (House rules: High Speed Movement)
    first_turn = 2 * move if house else rules.entry_velocity_limit(move, base, enhanced)
    return move, top, accel_step, first_turn


def ordinary_yards(body: Body, lim: Limits) -> int:
    """The yards ``body``, in ordinary movement (``Control.state`` normal), goes this turn: its velocity of last turn
    changed by ``Intent.throttle`` at once, from 0 up to the most its maneuver allows below high speed
    (:func:`esper_motion.systems.gurps.rules.ordinary_move_yd`, with the Move and Basic Move of ``lim``). A throttle
    of 0 keeps last turn's pace within what the maneuver allows. The ordinary movement rules bind it, not the
    velocity it had (Basic Set: High-Speed Movement: at Basic Move or less the ordinary movement rules apply; the
    maneuvers, as in docs/architecture.md > Facts the rules lean on)."""
    most = _ordinary_most(body.intent.maneuver, lim.move, lim.basic_move)
    return min(max(body.velocity.yps + body.intent.throttle, 0), most)


@lru_cache(maxsize=256, typed=True)
def _ordinary_most(maneuver: Maneuver, move: int, basic_move: int) -> int:
    """:func:`esper_motion.systems.gurps.rules.ordinary_move_yd` for :func:`ordinary_yards`: a few maneuvers and
    Moves that every candidate turn the planner tries asks about again, so worked out once for each."""
    return rules.ordinary_move_yd(maneuver, move, basic_move)


def high_speed_above(world: World, body: Body, chosen: Rules) -> int:
    """:attr:`Limits.high_speed_above` on its own, for a system that needs nothing else of the limits (a mover
    cruising at high speed checks only that it is still above it): cheaper than :func:`limits`."""
    where, base, _ = _move_in_use(world, body)
    ordinary = rules.encumbered_move(base, body.mover.encumbrance) if chosen.house_control else base
    return _high_speed_above(world, body, chosen, where, ordinary)


def _high_speed_above(world: World, body: Body, chosen: Rules, where: Environment, ordinary: int) -> int:
    """Basic Move (``ordinary``; Encumbered Move under the house rules), or 0 for a house-rules flier aloft."""
    if where == "air" and chosen.house_flight and not world.get(body.entity, Flight).mode.can_hover:
        return 0  # House rules: Flying Movement and Combat: without hover, always at high speed
    return ordinary


def control_roll(world: World, body: Body) -> tuple[int, str]:
    """The roll that keeps control when pushing the envelope, before its modifier: DX+3, or for a driven
    vehicle (``Mover.operator_skill`` set) vehicle skill plus Handling; shock counts against either
    (Basic Set: High-Speed Movement > Pushing the Envelope), and the house rules' -2 of a Move and Attack
    against the DX roll alone (:func:`dx_modifier`).

    A vehicle ridden as a mount (a motorcycle: ``Mover.handling`` set, no ``operator_skill``) is driven by its
    rider at the controls (:func:`driver`): that rider's Driving plus Handling, with the rider's shock (Pushing the
    Envelope; Mounted Combat > Cavalry Weapons: Driving for Riding). A driver without Driving is a
    :class:`~esper_motion.ecs.errors.WorldError` naming the skill, as for any skill the rules need."""
    mover = body.mover
    if mover.operator_skill is not None:
        skill = mover.operator_skill + (mover.handling or 0) + shock(world, body.entity)
        return skill, "vehicle skill+Handling"
    at_controls = driver(world, body.entity) if mover.handling is not None else None
    if at_controls is not None:
        skills = world.try_get(at_controls, Skills)
        driving = skills.level("Driving") if skills is not None else None
        if driving is None:
            raise WorldError(
                f"entity {at_controls} drives entity {body.entity} but has no Driving skill: "
                "set Skills.levels['Driving']"
            )
        return driving + (mover.handling or 0) + shock(world, at_controls), "Driving+Handling"
    return mover.dx + rules.PUSHING_THE_ENVELOPE_DX_BONUS + dx_modifier(world, body.entity), "DX+3"


def loss_mode(world: World, body: Body, cause: LossCause, chosen: Rules) -> LossMode:
    """What losing control does to ``body``: ``drift`` in the air or water; ``wheels`` on three or more wheels
    (when ``Rules.wheeled_stability`` is on and the loss came from neither a critical failure nor an injury);
    otherwise ``trip`` (Basic Set: High-Speed Movement > Losing Control; High-Speed Flying and Swimming)."""
    if environment(world, body) != "ground":
        return "drift"
    if body.mover.wheels >= 3 and chosen.wheeled_stability and not cause.from_injury_or_critical:
        return "wheels"
    return "trip"


def installed_rules(world: World) -> Rules:
    """The GURPS :class:`Rules` installed in ``world``; a clear error when ``esper_motion.systems.gurps.install`` was
    not called."""
    chosen = world.rules.get("gurps")
    if not isinstance(chosen, Rules):
        raise WorldError(
            "the GURPS rules are not installed in this world: call esper_motion.systems.gurps.install(world)"
        )
    return chosen


def mount_rolled_dx(world: World, entity: int, made: bool) -> None:
    """Record that ``entity``, if it is a mount, rolled DX this turn for a difficult action (a jump, an early or
    tight turn, a hasty deceleration): the MOUNTED phase then has its riders roll Riding, or applies table row
    12 for a failure (Basic Set: Mounted Combat > Movement and Maneuvers > Falling Off). The high-speed systems
    call this after each such roll; for any other mover it does nothing."""
    found = world.try_get(entity, Mount)
    if found is not None:
        found.dx_rolls.append(made)


def failed_control_roll(
    world: World, entity: int, skill: int, label: str, purpose: str, *, modifier: int = 0
) -> LossCause | None:
    """Roll ``entity``'s ``skill`` plus ``modifier`` to keep control for ``purpose`` (a reported
    :func:`~esper_motion.systems.gurps.shared.rolls.success_roll`), recorded for a mount's riders
    (:func:`mount_rolled_dx`): None when made, else why control is lost (a critical failure or a failed roll;
    Basic Set: High-Speed Movement > Losing Control)."""
    result = success_roll(world, entity, skill, label, purpose, modifier=modifier)
    mount_rolled_dx(world, entity, result.success)
    if result.success:
        return None
    return LossCause.CRITICAL_FAILURE if result.critical_failure else LossCause.FAILED_ROLL


def mount_crashed(world: World, entity: int, height_yd: float) -> None:
    """Record that ``entity``, if it is a ridden mount, fell without lift and hit the ground from ``height_yd``
    yards this turn: the MOUNTED phase then applies table row 12 to its riders, with that height added to their
    falls (Basic Set: Mounted Combat > Mount Loss of Control Table: the row applies whenever a mount falls).
    For any other mover it does nothing."""
    found = world.try_get(entity, Mount)
    if found is not None and found.riders:
        found.crashed_from_yd = height_yd


def carrier_of(world: World, entity: int) -> int:
    """The entity whose motion carries ``entity``: its mount when it rides, else itself."""
    link = world.try_get(entity, Rider)
    return link.mount if link is not None and link.mount is not None else entity


def moved_outside_walk(world: World, entity: int, hexes: list[Hex]) -> None:
    """Add ``hexes``, which ``entity`` entered outside its walk this turn (knocked back, a retreat step), to its
    ``Control.path``, so that the path still ends where it stands; ``Control.moved_yd`` counts its walk only. An
    entity without a ``Control`` has no path to add to."""
    control = world.try_get(entity, Control)
    if control is not None and hexes:
        control.path = [*control.path, *hexes]


def relative_velocity(world: World, a: int, b: int) -> float:
    """Yards per second at which ``a`` and ``b`` close or part: the difference of their velocities, each rider
    moving as its mount does; an entity without ``Velocity`` stands still. Headings are hexsides 60 degrees
    apart; the result is rounded to 6 decimals so that exact cases stay exact."""
    x = y = 0.0
    for entity, sign in ((a, 1), (b, -1)):
        velocity = world.try_get(carrier_of(world, entity), Velocity)
        if velocity is not None:
            angle = math.radians(60 * velocity.heading)
            x += sign * velocity.yps * math.cos(angle)
            y += sign * velocity.yps * math.sin(angle)
    return round(math.hypot(x, y), 6)

"""Bad input and faults: the busy worlds the fault, property and soak tests run, and the invariants they check.

A *mixed world* (GURPS) is built in groups of ten entities: two runners, a four-wheeled vehicle, a war horse with
its rider in the saddle, a free horse with a rider on foot beside it, a flier (hovering or not, at some height or
on the ground), an obstacle (hard or soft, some low enough to jump) and a tile of bad footing. A *chase world*
(Spelljammer) holds characters that walk, flee and chase through patches of vegetation.

The planners write what a game writes between steps, drawn from a ``random.Random`` of their own (never the
``random`` module's global state), so a seed fixes a whole run:

- ``plan_turn`` gives each GURPS mover a random intent that :func:`esper_motion.systems.gurps.preview` accepts
  (falling back to simpler ones, then the default), a random climb or dive to fliers (taken back if the intent is
  then refused), random mounting and dismounting to riders, and now and then a hit on a horse, a spooked horse or
  a stunned rider.
- ``plan_round`` gives each Spelljammer character a random speed mode its vegetation allows, a heading, and now
  and then a flight, a chase, a pursuit action or shots, valid by the rules
  (``esper_motion.systems.spelljammer.rules``).

The GURPS preview does not know every rule a step applies: it leaves climbs (``FlightIntent``, refused for
instance when a descent would come down onto a body that walked under the flier this turn) and riders' requests
(``Rider``, refused for instance when nobody may step down into a crowd) to the step. :func:`step_refusing`
therefore lets a step refuse exactly those with an ``IntentError``, checks that the refused step left the world
exactly as it was (:func:`fingerprint`), clears that one entity's wishes and steps again. Any other error fails the
test: the orders a mount takes (an exhausted mount's, under the house rules a ridden one's) the preview refuses as
the step does.

The invariant checks (each returns the problems it found, so a failing test prints them all):

- :func:`speed_problems`: a velocity never above the fastest the rules allow the entity where it is (its ground top
  speed; for a flier in the air also its dive limit: one that lands faster is slowed to its ground top speed), and
  a velocity that rose this turn never above the top speed the rules gave it for this turn. Excepted, and held to
  the dive limit instead: a flier pulling out of a stall or a wipe-out into a dive (its speed comes from the fall),
  and under the house rules a flier that dived this turn or dropped out of control (a dive, and such a drop,
  gathers speed past top speed, up to the absolute dive maximum: House rules: Flying Movement and Combat).
- :func:`link_problems`: every rider is either on foot (no mount, not carried) or seated on a live mount that
  lists it, carried by it and sitting at its seat; every mount lists only live riders that name it, no more than
  its seats.
- :func:`crowding_problems`: two bodies that meet (on any hex either fills: a horse's three, a flier lying flat its
  two in the air; overlapping heights; neither carried) at the end of a turn, or a body that meets an obstacle, are
  allowed only where they met already when the turn began. Everything that could put two on one hex the rules as
  the library reads them keep apart: a body that dodges steps out of the way, a walker jumps an obstacle only
  with the points to land beyond it, riders come down on a clear hex,
  fliers neither descend onto bodies nor stay on them when they fall, and a horse's hindquarters are a body to the
  collision rules like its front.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final, TypeVar

import esper

from esper_motion.components import (
    Condition,
    Control,
    Facing,
    Flight,
    FlightIntent,
    FlightMode,
    Footing,
    Intent,
    Maneuver,
    Mobility,
    Mount,
    Mover,
    MoveState,
    Obstacle,
    Position,
    Posture,
    RangedWeapon,
    Rider,
    RoundIntent,
    RoundState,
    Skills,
    Vegetation,
    VegetationZone,
    Velocity,
)
from esper_motion.ecs import Event, IntentError, World, WorldError
from esper_motion.ecs.hexgrid import DIRECTIONS, Hex, distance
from esper_motion.systems import spelljammer
from esper_motion.systems.gurps import Rules, install, preview, rules
from esper_motion.systems.gurps.events import AltitudeChanged, Falling, LiftRegained, StallRecovered
from esper_motion.systems.gurps.highspeed.intent import check_intent
from esper_motion.systems.gurps.mounted.common import mount_body, mount_seat, seat
from esper_motion.systems.gurps.mounted.mounted_results import mount_hit, rider_stunned
from esper_motion.systems.gurps.mounted.mounting import dismount, jump_off, leap_astride, mount_up
from esper_motion.systems.gurps.mounted.spooking import spook
from esper_motion.systems.gurps.planner.search import candidates
from esper_motion.systems.gurps.shared.dive import normal_top_speed
from esper_motion.systems.gurps.shared.figure import occupied_hexes
from esper_motion.systems.gurps.shared.movers import Body, Limits, bodies, body_of, installed_rules, limits
from esper_motion.systems.gurps.shared.spatial import SpatialIndex, figure_height_yd
from esper_motion.systems.spelljammer.rules import CHASE_MODES, MOVING_FIRE, VEGETATION, allowed_modes

T = TypeVar("T")

GROUP_SIZE: Final = 10
"""Entities in one group of a mixed world."""

MANEUVERS: Final = (Maneuver.MOVE,) * 6 + (
    Maneuver.MOVE_AND_ATTACK,
    Maneuver.ATTACK,
    Maneuver.DO_NOTHING,
    Maneuver.ALL_OUT_ATTACK,
)
"""The maneuvers the planner draws from, mostly Move; the others make a mover at speed lose control."""

SHOOTING_MODES: Final = tuple(row.mode for row in MOVING_FIRE)
THICKNESS: Final = {row.vegetation: row.tmr_fraction for row in VEGETATION}


# --- Building a mixed GURPS world ------------------------------------------------------------------------


@dataclass(slots=True)
class Cast:
    """The entities of a mixed world, by kind (ids stay listed after a despawn: check ``world.exists``)."""

    runners: list[int] = field(default_factory=list)
    vehicles: list[int] = field(default_factory=list)
    horses: list[int] = field(default_factory=list)
    riders: list[int] = field(default_factory=list)
    fliers: list[int] = field(default_factory=list)
    obstacles: list[int] = field(default_factory=list)
    footing: list[int] = field(default_factory=list)

    def kinds(self) -> dict[str, list[int]]:
        """Each kind's list, by name."""
        return {
            "runner": self.runners,
            "vehicle": self.vehicles,
            "horse": self.horses,
            "rider": self.riders,
            "flier": self.fliers,
            "obstacle": self.obstacles,
            "footing": self.footing,
        }


def spawn_runner(world: World, rng: random.Random, at: Hex) -> int:
    """A person on foot, at rest or moving within its (encumbered) Move."""
    basic_move = rng.randint(4, 7)
    encumbrance = rng.randint(0, 2)
    facing = rng.randrange(6)
    velocity = rng.randint(0, rules.encumbered_move(basic_move, encumbrance))
    return world.spawn(
        Position(*at),
        Facing(facing),
        Velocity(velocity, heading=facing),
        Mover(
            basic_move=basic_move,
            dx=rng.randint(9, 13),
            hp=rng.randint(8, 14),
            basic_speed=rng.randint(16, 28) / 4,
            encumbrance=encumbrance,
            **({"enhanced": True, "top_speed": 2 * basic_move} if rng.random() < 0.2 else {}),  # Enhanced Move x2
        ),
        Control(),
        Intent(),
        Condition(),
        Posture(),
        Skills({"Jumping": rng.randint(9, 13)}),
    )


def spawn_vehicle(world: World, rng: random.Random, at: Hex) -> int:
    """A four-wheeled vehicle with a driver's skill and Handling, and a rated top speed."""
    basic_move = rng.randint(8, 14)
    facing = rng.randrange(6)
    return world.spawn(
        Position(*at),
        Facing(facing),
        Velocity(rng.randint(0, basic_move), heading=facing),
        Mover(
            basic_move=basic_move,
            hp=rng.randint(30, 60),
            basic_speed=rng.randint(16, 28) / 4,
            wheels=4,
            legs=False,
            handling=rng.randint(-2, 2),
            operator_skill=rng.randint(10, 14),
            top_speed=rng.randint(20, 40),
            enhanced=True,
            size_modifier=2,
        ),
        Control(),
        Intent(),
        Condition(),
    )


def spawn_horse(world: World, rng: random.Random, at: Hex) -> int:
    """A horse at rest (3 hexes, saddle and stirrups), of random training."""
    facing = rng.randrange(6)
    return world.spawn(
        Position(*at),
        Facing(facing),
        Velocity(0, heading=facing),
        Mover(basic_move=8, dx=10, st=25, hp=25, basic_speed=5.0, size_modifier=1, enhanced=True, top_speed=16),
        Control(),
        Intent(),
        Posture(),
        Condition(),
        Mount(training=rng.choice(("war-trained", "well-broken", "not fully broken"))),
    )


def spawn_rider(world: World, rng: random.Random, at: Hex) -> int:
    """Someone on foot who can ride (Riding 9-14, Jumping, Acrobatics)."""
    return world.spawn(
        Position(*at),
        Facing(0),
        Velocity(0),
        Mover(basic_move=5, dx=12, st=11, hp=11, basic_speed=rng.randint(20, 28) / 4),
        Control(),
        Intent(),
        Posture(),
        Condition(),
        Skills({"Riding": rng.randint(9, 14), "Jumping": 11, "Acrobatics": 10, "Animal Handling": 12}),
        Rider(),
    )


def spawn_flier(world: World, rng: random.Random, at: Hex) -> int:
    """A human flier (hovering or not, winged or not, some lying flat), in the air or on the ground."""
    air_move = rng.randint(10, 16)
    facing = rng.randrange(6)
    altitude = float(rng.choice((0, 2, 5, 10, 20)))
    velocity = rng.randint(0, air_move) if altitude else 0
    return world.spawn(
        Position(*at, altitude_yd=altitude),
        Facing(facing),
        Velocity(velocity, heading=facing),
        Mover(basic_move=5, dx=12, hp=10, basic_speed=rng.randint(20, 28) / 4),
        Control(),
        Intent(),
        Condition(),
        Posture(),
        Flight(
            air_move=air_move,
            mode=rng.choice((FlightMode.HOVER, FlightMode.CANNOT_HOVER)),
            wings=rng.random() < 0.5,
            lying_flat=rng.random() < 0.3,
        ),
        FlightIntent(),
    )


def spawn_obstacle(world: World, rng: random.Random, at: Hex) -> int:
    """A wall or a soft obstacle, 1 to 5 yards high, some low enough to jump."""
    return world.spawn(
        Position(*at),
        Obstacle(
            hp=rng.randint(20, 200),
            hard=rng.random() < 0.5,
            height_yd=float(rng.choice((1, 2, 5))),
            crossable=rng.random() < 0.4,
        ),
    )


def spawn_footing(world: World, rng: random.Random, at: Hex) -> int:
    """A hex of bad footing, 1 or 2 extra movement points."""
    return world.spawn(Position(*at), Footing(extra_cost=rng.randint(1, 2)))


SPAWNERS: Final[dict[str, Callable[[World, random.Random, Hex], int]]] = {
    "runner": spawn_runner,
    "vehicle": spawn_vehicle,
    "horse": spawn_horse,
    "rider": spawn_rider,
    "flier": spawn_flier,
    "obstacle": spawn_obstacle,
    "footing": spawn_footing,
}
"""How to spawn one more entity of each kind."""


def mixed_world(
    seed: int, groups: int, rules_used: Rules | None = None, *, transactional: bool = True
) -> tuple[World, Cast]:
    """A GURPS world of ``groups`` groups of :data:`GROUP_SIZE` entities, each on hexes of its own (all a horse's
    three, all a flier's two: :func:`spread_out`), about five hexes of map for each entity, dice and layout from
    ``seed``."""
    rng = random.Random(seed)
    world = World(seed=seed, transactional=transactional)
    install(world, rules_used)
    side = max(8, round((groups * GROUP_SIZE * 5) ** 0.5))
    free = [(q, r) for q in range(side) for r in range(side)]
    rng.shuffle(free)
    taken: set[Hex] = set()
    cast = Cast()

    def spawn(kind: str) -> int:
        entity = SPAWNERS[kind](world, rng, next_free(free, taken))
        spread_out(world, entity, free, taken)
        cast.kinds()[kind].append(entity)
        return entity

    for _ in range(groups):
        for kind in ("runner", "runner", "vehicle", "flier", "obstacle", "footing"):
            spawn(kind)
        for seated in (True, False):
            horse, rider = spawn("horse"), spawn("rider")
            if seated:
                seat(world, rider, horse)
    for body in bodies(world):
        settle_state(world, body.entity)
    return world, cast


def next_free(free: list[Hex], taken: set[Hex]) -> Hex:
    """The next hex of the shuffled ``free`` list that nothing has ``taken``."""
    while True:
        spot = free.pop()
        if spot not in taken:
            return spot


def spread_out(world: World, entity: int, free: list[Hex], taken: set[Hex]) -> None:
    """Turn ``entity``, just spawned, until none of the hexes it fills (``figure.occupied_hexes``: a horse's three,
    a flier lying flat its two in the air) is ``taken``; failing every facing, move it on to the next free hex.
    Then its hexes are taken."""
    position, facing = world.get(entity, Position), world.try_get(entity, Facing)
    while True:
        for _ in range(6):
            hexes = occupied_hexes(world, entity) if world.has(entity, Mover) else (position.hex,)
            if taken.isdisjoint(hexes):
                taken.update(hexes)
                return
            if facing is None:
                break
            facing.direction = (facing.direction + 1) % 6
            world.get(entity, Velocity).heading = facing.direction
        position.q, position.r = next_free(free, taken)


def settle_state(world: World, entity: int) -> None:
    """Start a mover at high speed when its velocity is above what ordinary movement allows it where it is (a
    flier in the air: under the house rules one that cannot hover is at high speed whenever it flies)."""
    body = body_of(world, entity)
    if body.velocity.yps > limits(world, body, installed_rules(world)).high_speed_above:
        body.control.state = MoveState.HIGH_SPEED


# --- What a game writes between GURPS turns ---------------------------------------------------------------


def reset_intent(intent: Intent) -> None:
    """Back to the default: a Move maneuver with no throttle, turn, veer or push."""
    intent.maneuver = Maneuver.MOVE
    intent.throttle = 0
    intent.turn = 0
    intent.turn_at_yd = None
    intent.push = False
    intent.veer = ()


def random_intent(world: World, body: Body, rng: random.Random, accept: Callable[[World, Body], object]) -> None:
    """Write a random intent for ``body`` that ``accept`` (the preview, or the intent check alone) takes; after
    four refused tries, the default intent."""
    intent = body.intent
    velocity = body.velocity.yps
    basic_move = body.mover.basic_move
    for _ in range(4):
        intent.maneuver = rng.choice(MANEUVERS)
        intent.throttle = rng.randint(-2 * basic_move, basic_move + 2)
        intent.turn = rng.choice((0, 0, 0, 1, -1, 2, -2))
        intent.turn_at_yd = rng.choice((None, None, rng.randint(0, velocity)))
        intent.push = rng.random() < 0.3
        intent.veer = tuple(rng.choice((-1, 0, 0, 1)) for _ in range(rng.randint(0, velocity)))
        try:
            accept(world, body)
        except IntentError:
            continue
        return
    reset_intent(intent)
    accept(world, body)


def by_preview(world: World, body: Body) -> None:
    """Accept what :func:`esper_motion.systems.gurps.preview` accepts: every rule the intent check knows, and a falling
    flier's."""
    preview(world, body.entity)


def by_intent_check(world: World, body: Body) -> None:
    """Accept what the step's own intent check accepts, without the preview's path (cheap enough for big worlds)."""
    check_intent(world, body, installed_rules(world))


def random_climb(world: World, entity: int, rng: random.Random, wild: bool) -> None:
    """A random climb or descent (sometimes a dive) for a flier with lift. Tame climbs (``wild`` False) stay on
    a Move maneuver, within a couple of yards, and off the ground only for a flier that can hover, so the step
    hardly ever refuses them."""
    wish = world.get(entity, FlightIntent)
    flight = world.get(entity, Flight)
    wish.climb_yd, wish.dive = 0, False
    if flight.stalled or flight.wiped_out:
        return
    altitude = world.get(entity, Position).altitude_yd
    moving = world.get(entity, Intent).maneuver is Maneuver.MOVE
    if not wild and (not moving or (altitude == 0 and not flight.mode.can_hover)):
        return
    reach = 4 if wild else 2
    roll = rng.random()
    if roll < 0.25:
        wish.climb_yd = rng.randint(1, reach)
    elif roll < 0.5 and altitude >= 1:
        wish.climb_yd = -rng.randint(1, int(min(altitude, reach)))
        wish.dive = moving and rng.random() < 0.3


def take_back_a_refused_climb(world: World, body: Body, accept: Callable[[World, Body], object]) -> None:
    """Take the climb of ``body`` back when, with it, ``accept`` refuses the intent: under the house rules a climb or
    a dive at speed changes the speed before the throttle acts, so a throttle accepted before it may no longer be."""
    try:
        accept(world, body)
    except IntentError:
        wish = world.get(body.entity, FlightIntent)
        wish.climb_yd, wish.dive = 0, False


def neighbours(hex: Hex) -> list[Hex]:
    """The six hexes around ``hex``."""
    return [(hex[0] + dq, hex[1] + dr) for dq, dr in DIRECTIONS]


def horse_hexes(world: World, horses: Iterable[int]) -> dict[Hex, list[int]]:
    """Every hex a live horse's body fills, with the horses on it."""
    found: dict[Hex, list[int]] = {}
    for horse in horses:
        if world.has(horse, Mount):
            for spot in mount_body(world, horse):
                found.setdefault(spot, []).append(horse)
    return found


def rider_request(world: World, rider: int, horses: dict[Hex, list[int]], rng: random.Random) -> None:
    """A random request through the functions a game uses (``horses``: :func:`horse_hexes`); one they refuse is
    simply not made."""
    link = world.get(rider, Rider)
    roll = rng.random()
    try:
        if link.mount is None:
            if link.climbing_onto is not None and world.has(link.climbing_onto, Mount):
                mount_up(world, rider, link.climbing_onto)
                return
            here = world.get(rider, Position).hex
            near = sorted({horse for spot in (here, *neighbours(here)) for horse in horses.get(spot, ())})
            if near and roll < 0.5:
                (mount_up if rng.random() < 0.5 else leap_astride)(world, rider, rng.choice(near))
        elif roll < 0.1:
            dismount(world, rider)
        elif roll < 0.2:
            jump_off(world, rider, rng.choice(("Jumping", "Acrobatics")))
        elif roll < 0.25:
            rider_stunned(world, rider)
    except (IntentError, WorldError):
        pass


def plan_turn(world: World, cast: Cast, rng: random.Random, *, wild: bool = True, share: float = 1.0) -> None:
    """Write this turn's wishes: riders' requests first (they set the rider's maneuver), then an intent for each
    mover under its own power (a ``share`` of them; the rest keep the default), climbs for fliers, and now and
    then a hit on a horse or a spooked horse. ``wild`` False keeps climbs tame and checks intents with the intent
    check alone instead of the whole preview (for big worlds). It plans in the world's esper context, as a game's
    own code runs, so the world's lookups need no switch of context."""
    accept = by_preview if wild else by_intent_check
    previous = esper.current_world
    esper.switch_world(world.context)
    try:
        horses = horse_hexes(world, cast.horses)
        for rider in cast.riders:
            if world.has(rider, Rider):
                rider_request(world, rider, horses, rng)
        for body in bodies(world):
            link = world.try_get(body.entity, Rider)
            flight = world.try_get(body.entity, Flight)
            free = body.control.carried_by is None and (link is None or link.action is None)
            falling = flight is not None and flight.stalled
            if free and not falling and rng.random() < share:
                random_intent(world, body, rng, accept)
            if world.has(body.entity, FlightIntent):
                random_climb(world, body.entity, rng, wild)
                take_back_a_refused_climb(world, body, accept)
        for horse in cast.horses:
            if world.has(horse, Mount):
                if rng.random() < 0.05:
                    mount_hit(world, horse, rng.randint(0, 8))
                if rng.random() < 0.03:
                    spook(world, horse)
    finally:
        esper.switch_world(previous)


def clear_requests(world: World, entity: int) -> None:
    """Take back everything asked of ``entity`` this turn: its intent back to the default, which for a rider in the
    saddle is Do Nothing (``esper_motion.systems.gurps.shared.cleanup.IntentReset``)."""
    intent = world.try_get(entity, Intent)
    if intent is not None:
        reset_intent(intent)
        link = world.try_get(entity, Rider)
        if link is not None and link.mount is not None:
            intent.maneuver = Maneuver.DO_NOTHING
    wish = world.try_get(entity, FlightIntent)
    if wish is not None:
        wish.climb_yd, wish.dive = 0, False
    link = world.try_get(entity, Rider)
    if link is not None:
        link.action = link.action_target = link.action_skill = None


def saved_bytes(world: World, folder: Path) -> bytes:
    """The world as its save file, byte for byte."""
    path = folder / "world.json"
    world.save(path)
    return path.read_bytes()


def refusal_the_preview_cannot_see(error: IntentError) -> bool:
    """Whether a step may refuse this although the planner's intents passed the preview: a climb or a rider's
    request (see the module docstring)."""
    return error.field.startswith(("FlightIntent.", "Rider."))


def fingerprint(world: World) -> tuple[object, ...]:
    """Everything a step may change, as values: the turn, the dice, the last step's events and every entity's
    components (``repr`` shows each field exactly). Unlike a save, it also takes a world whose links dangle
    (a mount despawned under its rider between steps: see :mod:`esper_motion.ecs.persist`)."""
    components = tuple((entity, repr(world.components(entity))) for entity in world.entities())
    return world.turn, world.dice.getstate(), tuple(world.events), components


def step_refusing(
    world: World, observe: Callable[[], T] = lambda: None, *, verify: bool = True
) -> tuple[list[Event], list[IntentError], T]:
    """Step once; when the step refuses a wish the preview cannot see, check that the world is exactly as before
    (:func:`fingerprint`, unless ``verify`` is False), take that entity's wishes back and step again. ``observe`` is
    called just before each try. Returns the events, the refusals, and what ``observe`` returned before the step
    that went through."""
    refusals: list[IntentError] = []
    while True:
        before = fingerprint(world) if verify else ()
        observed = observe()
        try:
            return world.step(), refusals, observed
        except IntentError as error:
            if not refusal_the_preview_cannot_see(error):
                raise
            assert not verify or fingerprint(world) == before, f"{error} changed the world"
            assert len(refusals) < 200, "the step keeps refusing"
            refusals.append(error)
            clear_requests(world, error.entity)


def every_candidate(
    seed: int, rules_used: Rules, place: Hex | None = None, *, turns: int = 10
) -> Iterator[tuple[int, World, SpatialIndex, Rules, Body, Limits, Intent]]:
    """Every intent the planner tries (:func:`~esper_motion.systems.gurps.planner.search.candidates`, the risky ones
    too, toward ``place``) from the state of every body of a :func:`mixed_world` of ``seed`` (6 groups), turn by turn
    for ``turns`` turns, with the turn, the world, an index of it, its rules, the body and its limits; between turns
    the world steps with :func:`plan_turn`'s wishes."""
    world, cast = mixed_world(seed, 6, rules_used)
    for turn in range(turns):
        index = SpatialIndex()
        index.rebuild(world)
        chosen = installed_rules(world)
        for body in bodies(world):
            lim = limits(world, body, chosen)
            for intent in candidates(body, lim, True, lim.move, place):
                yield turn, world, index, chosen, body, lim, intent
        plan_turn(world, cast, random.Random(seed * 100 + turn))
        step_refusing(world)


# --- Invariants of a GURPS world --------------------------------------------------------------------------


def ground_top_speed(mover: Mover, chosen: Rules) -> int:
    """Top speed on the ground (Basic Set: High-Speed Movement > Accelerating; House rules: High Speed Movement)."""
    move = rules.encumbered_move(mover.basic_move, mover.encumbrance)
    if chosen.control == "house":
        return rules.house_top_speed(move, mover.top_speed or 0)
    return mover.top_speed if mover.top_speed is not None else rules.sprint_top_speed(move)


def dive_limit(flight: Flight, mover: Mover, chosen: Rules) -> int:
    """The fastest a flier may go: twice top airspeed in a dive (Basic Set: Flying Combat > Flying Fast), or the
    house rules' absolute dive maximum (House rules: Flying Movement and Combat)."""
    top = normal_top_speed(flight, mover, chosen)
    return rules.house_dive_speed_cap(top) if chosen.flight == "house" else 2 * top


def speed_cap(world: World, entity: int, chosen: Rules) -> int:
    """The fastest the rules let ``entity`` go where it is: its ground top speed, or for a flier in the air its
    dive limit if that is more. A flier that comes down to the ground faster than it can run is slowed to its
    ground top speed that turn (``acceleration.VelocityChange``), so on the ground it is held to that."""
    mover = world.get(entity, Mover)
    cap = ground_top_speed(mover, chosen)
    flight = world.try_get(entity, Flight)
    if flight is not None and world.get(entity, Position).altitude_yd > 0:
        cap = max(cap, dive_limit(flight, mover, chosen))
    return cap


def turn_limits(world: World) -> dict[int, tuple[int, int]]:
    """(velocity, top speed this turn) of every mover under its own power, read before the step."""
    chosen = installed_rules(world)
    return {
        body.entity: (body.velocity.yps, limits(world, body, chosen).top_speed)
        for body in bodies(world)
        if body.control.carried_by is None
    }


def speed_problems(world: World, before: dict[int, tuple[int, int]], events: list[Event]) -> list[str]:
    """Velocities the rules do not allow (see the module docstring)."""
    chosen = installed_rules(world)
    from_a_fall = {event.entity for event in events if isinstance(event, (StallRecovered, LiftRegained))}
    if chosen.flight == "house":
        dived = {e.entity for e in events if isinstance(e, AltitudeChanged) and e.climb_yd < 0}
        from_a_fall |= dived | {e.entity for e in events if isinstance(e, Falling)}
    problems = []
    for body in bodies(world):
        entity, velocity = body.entity, body.velocity.yps
        cap = speed_cap(world, entity, chosen)
        if velocity > cap:
            problems.append(f"entity {entity} goes {velocity} yd/s, above the {cap} the rules allow it anywhere")
        if entity in before and entity not in from_a_fall:
            was, top = before[entity]
            if velocity > was and velocity > top:
                problems.append(f"entity {entity} sped up from {was} to {velocity} yd/s past its top speed {top}")
    return problems


def link_problems(world: World, just_gone: Collection[int] = ()) -> list[str]:
    """Riders not on a live mount nor properly on foot, and mounts listing what does not ride them.

    ``just_gone`` are entities despawned after this turn's MOUNTED phase (queued during the step, or by a handler
    of its events): links to them stay until the next step's MOUNTED phase lets go of them, as
    ``MountLinkSystem`` says, so they are not counted here."""
    problems = []
    for entity, (rider,) in world.query(Rider):
        if rider.mount in just_gone:
            continue
        control = world.try_get(entity, Control)
        carried_by = control.carried_by if control is not None else None
        if rider.mount is None:
            if carried_by is not None:
                problems.append(f"rider {entity} is on foot but carried by {carried_by}")
            continue
        mount = world.try_get(rider.mount, Mount)
        if mount is None:
            problems.append(f"rider {entity} rides {rider.mount}, which is no live mount")
            continue
        if entity not in mount.riders:
            problems.append(f"rider {entity} rides {rider.mount}, whose riders are {mount.riders}")
        if carried_by != rider.mount:
            problems.append(f"rider {entity} rides {rider.mount} but is carried by {carried_by}")
        if world.get(entity, Position).hex != mount_seat(world, rider.mount):
            problems.append(f"rider {entity} is not in the seat of {rider.mount}")
    for entity, (mount,) in world.query(Mount):
        if len(mount.riders) > mount.seats:
            problems.append(f"mount {entity} carries {mount.riders}, more than {mount.seats} seats")
        for seated in mount.riders:
            if seated in just_gone:
                continue
            link = world.try_get(seated, Rider)
            if link is None or link.mount != entity:
                problems.append(f"mount {entity} lists rider {seated}, which does not ride it")
    return problems


def _meet(world: World, a: int, b: int, height_a: float, height_b: float) -> bool:
    """Whether two things on one hex overlap in height (as the spatial index decides it)."""
    low_at, high_at = world.get(a, Position).altitude_yd, world.get(b, Position).altitude_yd
    if low_at <= high_at:
        return high_at < low_at + height_a
    return low_at < high_at + height_b


Meeting = tuple[int, int, Hex]
"""Two entities (body and body, lower id first; or body and obstacle) that meet on a hex."""


def meetings(world: World) -> set[Meeting]:
    """Every pair of bodies, and every body and obstacle, that meet on one hex now (riders excluded), a body on
    every hex it fills (``figure.occupied_hexes``)."""
    on_hex: dict[Hex, list[tuple[int, float]]] = {}
    for entity, (_, mover, control) in world.query(Position, Mover, Control):
        if control.carried_by is None:
            for spot in occupied_hexes(world, entity):
                on_hex.setdefault(spot, []).append((entity, figure_height_yd(mover)))
    found: set[Meeting] = set()
    for hex, here in on_hex.items():
        for index, (a, height_a) in enumerate(here):
            for b, height_b in here[index + 1 :]:
                if _meet(world, a, b, height_a, height_b):
                    found.add((min(a, b), max(a, b), hex))
    for entity, (position, obstacle) in world.query(Position, Obstacle):
        for body, height in on_hex.get(position.hex, []):
            if _meet(world, body, entity, height, obstacle.height_yd):
                found.add((body, entity, position.hex))
    return found


def crowding_problems(world: World, before: set[Meeting], events: list[Event]) -> list[str]:
    """Bodies and obstacles meeting on a hex without the rules putting them there (see the module docstring)."""
    return [
        f"entities {a} and {b} meet on {hex} with nothing in the rules to put them there"
        for a, b, hex in sorted(meetings(world) - before)
    ]


# --- A Spelljammer chase world ---------------------------------------------------------------------------


def chase_world(seed: int, characters: int, zones: int, *, transactional: bool = True) -> tuple[World, list[int]]:
    """A Spelljammer world of ``characters`` characters (TMR 6-15, DEX 8-18, some encumbered, some with
    Acrobatics) and ``zones`` discs of vegetation, on a map of about ten hexes a character."""
    rng = random.Random(seed)
    world = World(seed=seed, transactional=transactional)
    spelljammer.install(world, spelljammer.Options(hex_ft=rng.choice((3, 5))))
    side = max(6, round((characters * 10) ** 0.5))
    for _ in range(zones):
        world.spawn(
            Position(rng.randrange(side), rng.randrange(side)),
            VegetationZone(rng.choice(tuple(Vegetation)), radius_hex=rng.randint(0, 3)),
        )
    spots = [(q, r) for q in range(side) for r in range(side)]
    rng.shuffle(spots)
    cast = []
    for _ in range(characters):
        skills = {"Acrobatics": rng.randint(8, 18)} if rng.random() < 0.5 else {}
        mobility = Mobility(
            tmr=rng.randint(6, 15),
            dex=rng.randint(8, 18),
            attacks=rng.randint(1, 2),
            encumbrance=rng.choice((0, 0, 1, 2)),
            skills=skills,
            large=rng.random() < 0.1,
        )
        cast.append(world.spawn(mobility, RoundIntent(), RoundState(), Position(*spots.pop())))
    return world, cast


def vegetation_at(world: World, hex: Hex) -> Vegetation | None:
    """The thickest vegetation on ``hex`` (Spelljammer: ... > Restricted Movement), or None for open ground."""
    found: Vegetation | None = None
    for _, (position, zone) in world.query(Position, VegetationZone):
        covered = zone.radius_hex is not None and distance(position.hex, hex) <= zone.radius_hex
        covered = covered or (hex[0] - position.q, hex[1] - position.r) in zone.hexes
        if covered and (found is None or THICKNESS[zone.vegetation] < THICKNESS[found]):
            found = zone.vegetation
    return found


def plan_round(world: World, cast: list[int], rng: random.Random) -> None:
    """Write a valid random intent for every character still in the world (see the module docstring)."""
    alive = [entity for entity in cast if world.exists(entity)]
    for entity in alive:
        intent = world.get(entity, RoundIntent)
        mobility = world.get(entity, Mobility)
        allowed = allowed_modes(vegetation_at(world, world.get(entity, Position).hex))
        others = [other for other in alive if other != entity]
        roll = rng.random()
        chase = rng.choice(others) if others and roll < 0.3 else None
        flee = tuple(rng.sample(others, k=min(len(others), rng.randint(1, 2)))) if others and 0.3 <= roll < 0.5 else ()
        flee = tuple(foe for foe in flee if foe != chase)
        modes = [mode for mode in allowed if chase is None or mode in CHASE_MODES]
        mode = rng.choice([None, *modes])
        shots = rng.randint(1, 2) if rng.random() < 0.2 and (mode is None or mode in SHOOTING_MODES) else 0
        intent.mode = mode
        intent.chase = chase
        intent.flee_from = flee
        intent.heading = None if chase is not None else rng.choice((None, *range(6)))
        if flee and intent.heading is None and chase is None:
            intent.heading = rng.randrange(6)
        intent.allies = rng.randint(0, 2)
        intent.match_speed = rng.random() < 0.3
        pursuing = rng.random() < 0.15
        intent.pursuit_dice = rng.choice(("1d2", "1d3", "1d4+1")) if pursuing else None
        intent.pursuit_label = "vault a cart" if pursuing else ""
        intent.pursuit_skill = rng.choice((None, *mobility.skills)) if pursuing else None
        intent.shots = shots
        intent.weapon = rng.choice((RangedWeapon.SHORT_BOW, RangedWeapon.CROSSBOW, RangedWeapon.OTHER))
        intent.reloads_itself = rng.random() < 0.2


# --- The builders themselves ------------------------------------------------------------------------------

"""How much a full GURPS turn costs against bare esper, per entity, measured in one process and one run.

Run by hand (never a timed test)::

    python tests/benchmarks/bench_turn.py                  # 1,000, 10,000 and 100,000 entities
    python tests/benchmarks/bench_turn.py --entities 2000 --json
    python tests/benchmarks/bench_turn.py --entities 10000 --lockstep plain default   # variants, turn by turn

The mixed world: runners at high speed and at walking pace, four-wheeled vehicles, riders on war horses,
fliers that cannot hover, walls and mud, spread over a map whose area grows with the entity count (so the
density, and with it the work per entity, stays the same). Every GURPS system is installed.

The workload is kept steady by the benchmark's own driver (:class:`Driver`), between turns and outside the
timing, as a game would: a mover that came to rest (it ran into something, fell, was knocked out) is set going
again in a new direction, fresh, and one that left the map comes back in on the other side. Without it the world
runs down (at 10,000 entities the share at high speed fell from 64% to 16% in 60 turns, the mean path from 10 to
2.6 yards) and the figures would depend on which turns are timed. The share of movers at high speed and their
mean path over the timed turns are printed with the figures.

Every figure is taken in CPU time (``time.process_time``, what the targets are set in: the machines are
shared) beside wall time. Workloads compared are stepped in rotation (:func:`rotate`, the order turned round each
turn), so that whatever else the machine is doing weighs on each alike: the turn and the floor; a quiet turn and
turns after a game's changes. ``--lockstep`` compares variants (:data:`VARIANTS`) on worlds of the same seed the
same way.

Printed per size: the full turn in microseconds per entity-turn, the same entities (the world's own component
objects, in its own esper context) under bare esper with one processor that adds velocity to position, their
ratio, the floor ratio (:class:`Floor`, the least any movement turn in Python costs, kept steady as the turn's
workload is, against the same baseline) and the full turn over the floor, timed in rotation with the turn; then
three turns against a quiet turn, all four in rotation: the churn ratio (1% of movers change state through their
fields), the game-writes ratio (a game wrote every mover's ``Intent``, and the driver its own writes, by plain
assignment, which the next step checks) and the structural churn ratio (1% of entities gain or lose a game's own
registered component); the hexes walked per mover at the first and last timed turn, the turn's and the floor's
(both steady); the scaling (per-entity cost at the largest size over the smallest, and that over the floor's own),
the memory of one full GURPS runner at spawn and after five turns, with the peak of a turn of the default world
(its undo copy) above that, the cost of ``World.get`` from a game's code against ``esper.component_for_entity``
(CPU time), and the turns where the fixed cost of each system weighs most (:func:`small_turns`: the mixed world of
200 entities, one runner alone). Medians over several repetitions.

The baseline runs over the world's own entities because where objects lie in memory weighs on a loop this
small: the same loop over fresh copies made in a clean heap runs up to ten times faster at 10,000 entities and
more, which would measure the heap, not the rules.
"""

from __future__ import annotations

import argparse
import dataclasses
import gc
import json
import random
import statistics
import time
import tracemalloc
from collections.abc import Callable
from functools import partial

import esper

from esper_motion.components import (
    Condition,
    Control,
    Facing,
    Footing,
    Intent,
    Maneuver,
    Mover,
    MoveState,
    Obstacle,
    Position,
    Posture,
    Skills,
    Velocity,
)
from esper_motion.components.flight import Flight, FlightIntent, FlightMode
from esper_motion.components.mount import Mount, Rider
from esper_motion.ecs import World, check_int, register, watch
from esper_motion.ecs.hexgrid import DIRECTIONS
from esper_motion.systems.gurps import install
from esper_motion.systems.gurps.mounted.common import seat

SIZES = (1_000, 10_000, 100_000)
YARDS_PER_ENTITY = 60  # map area per entity, in hexes


def runner(position: Position, facing: int, velocity: int, state: MoveState) -> tuple[object, ...]:
    """The components of one full GURPS runner (the unit the memory figure is quoted for)."""
    return (
        position,
        Facing(facing),
        Velocity(velocity, heading=facing),
        Mover(basic_move=6, dx=12, hp=12, basic_speed=6.0),
        Control(state=state),
        Intent(),
        Posture(),
        Condition(),
    )


def build(count: int, *, transactional: bool, seed: int = 1) -> World:
    """A mixed world of ``count`` entities with every GURPS system installed."""
    world = World(seed=seed, transactional=transactional)
    install(world)
    layout = random.Random(seed)
    side = int((count * YARDS_PER_ENTITY) ** 0.5)

    terrain: set[tuple[int, int]] = set()

    def somewhere(altitude: float = 0.0) -> Position:
        return Position(layout.randrange(side), layout.randrange(side), altitude_yd=altitude)

    def free_tile() -> Position:
        """A hex no other wall or mud tile holds (a hex has one of each at most)."""
        while (tile := somewhere()).hex in terrain:
            pass
        terrain.add(tile.hex)
        return tile

    made = 0
    while made < count:
        kind = made % 20
        facing = layout.randrange(6)
        if kind < 10:  # runners: most at high speed, some walking
            fast = kind < 7
            world.spawn(
                *runner(somewhere(), facing, 9 if fast else 4, MoveState.HIGH_SPEED if fast else MoveState.NORMAL)
            )
            made += 1
        elif kind < 12:  # four-wheeled vehicles cruising
            world.spawn(
                somewhere(),
                Facing(facing),
                Velocity(20, heading=facing),
                Mover(
                    basic_move=10,
                    dx=10,
                    hp=30,
                    basic_speed=5.0,
                    top_speed=40,
                    enhanced=True,
                    wheels=4,
                    handling=1,
                    operator_skill=12,
                ),
                Control(state=MoveState.HIGH_SPEED),
                Intent(),
                Posture(),
                Condition(),
            )
            made += 1
        elif kind < 14:  # a rider on a galloping war horse: two entities
            horse = world.spawn(
                somewhere(),
                Facing(facing),
                Velocity(12, heading=facing),
                Mover(basic_move=8, dx=9, st=25, hp=25, basic_speed=5.0, enhanced=True, top_speed=16),
                Control(state=MoveState.HIGH_SPEED),
                Intent(),
                Posture(),
                Condition(),
                Mount(),
            )
            rider = world.spawn(
                Position(0, 0),
                Facing(facing),
                Velocity(0, heading=facing),
                Mover(basic_move=5, dx=12, basic_speed=6.0),
                Control(),
                Intent(),
                Posture(),
                Condition(),
                Skills({"Riding": 13}),
                Rider(),
            )
            seat(world, rider, horse)
            made += 2
        elif kind < 16:  # fliers that cannot hover, cruising above the ground
            world.spawn(
                somewhere(20.0),
                Facing(facing),
                Velocity(16, heading=facing),
                Mover(basic_move=5, dx=12, hp=10),
                Control(state=MoveState.HIGH_SPEED),
                Intent(),
                Posture(),
                Condition(),
                Flight(air_move=12, top_airspeed=24, mode=FlightMode.CANNOT_HOVER),
                FlightIntent(),
            )
            made += 1
        elif kind < 18:  # walls
            world.spawn(free_tile(), Obstacle(hp=200, hard=True))
            made += 1
        else:  # mud
            world.spawn(free_tile(), Footing(extra_cost=1))
            made += 1
    return world


def bare(world: World) -> Callable[[], None]:
    """The baseline: one esper processor adding velocity to position, over ``world``'s own entities (the same
    component objects, where the turn left them in memory), in ``world``'s esper context. It moves them: measure
    it after the world is done with."""

    class AddVelocity(esper.Processor):
        def process(self) -> None:
            for _, (position, velocity) in esper.get_components(Position, Velocity):
                position.q += velocity.yps

    processor = AddVelocity()

    def turn() -> None:
        esper.switch_world(world.context)
        processor.process()
        esper.switch_world("default")

    return turn


class Floor:
    """The least a turn under movement rules can cost in Python, over a world of its own built like the turn's
    (and stepped a few turns, so that its objects lie as a turn leaves them): one pass over the movers, each walking
    its velocity hex by hex along its facing and stopping before the first hex a count of occupied hexes holds,
    then writing its position. No rules, no events, no other system; but kept steady as the turn's workload is: a
    mover that was blocked turns a hexside for its next turn, the map wraps, and the occupied hexes are kept up to
    date as each mover leaves one hex and enters another. Its writes are the library's own (the field watch paused,
    as the systems pause it). :attr:`walked` holds the hexes walked per mover, turn by turn."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.side = _side(world)
        self.occupied: dict[tuple[int, int], int] = {}
        for _, (position,) in world.query(Position):
            self.occupied[position.hex] = self.occupied.get(position.hex, 0) + 1
        self.movers = sum(1 for _, (velocity,) in world.query(Velocity) if velocity.yps > 0)
        self.walked: list[float] = []

    def turn(self) -> None:
        """One turn of the floor."""
        occupied, side, walked = self.occupied, self.side, 0
        esper.switch_world(self.world.context)
        watch.pause()
        for _, (position, velocity, facing) in esper.get_components(Position, Velocity, Facing):
            yps = velocity.yps
            if not yps:
                continue
            direction = facing.direction
            dq, dr = DIRECTIONS[direction]
            q, r = start = position.q, position.r
            steps = 0
            while steps < yps:
                if (q + dq, r + dr) in occupied:
                    facing.direction = (direction + 1) % 6
                    break
                q, r, steps = q + dq, r + dr, steps + 1
            if steps:
                q, r = end = q % side, r % side
                held = occupied[start]
                if held == 1:
                    del occupied[start]
                else:
                    occupied[start] = held - 1
                occupied[end] = occupied.get(end, 0) + 1
                position.q, position.r = q, r
                walked += steps
        watch.resume()
        esper.switch_world("default")
        self.walked.append(walked / self.movers)

    def record(self, timing: Timing) -> None:
        """Keep the hexes walked per mover this turn in ``timing``."""
        timing.path.append(self.walked[-1])


def _side(world: World) -> int:
    """The side of the map of ``world`` built by :func:`build`, in hexes."""
    return int((len(world.entities()) * YARDS_PER_ENTITY) ** 0.5)


class Driver:
    """What keeps the benchmark's workload steady: between turns (outside the timing) every mover that came to
    rest is set going again, and every one that left the map comes back in on the other side.

    A mover at rest (velocity 0, on its own feet: a seated rider is carried, not at rest) gets a new facing, the
    speed, state and altitude it was built with, an intact body standing up, and the Move maneuver; a flier its
    flight as built.
    """

    def __init__(self, world: World, seed: int = 3) -> None:
        self.world = world
        self.side = _side(world)
        self.layout = random.Random(seed)
        self.built: dict[int, tuple[int, MoveState, float]] = {}
        for entity, (position, velocity, control) in world.query(Position, Velocity, Control):  # revive's rows
            if velocity.yps > 0:
                self.built[entity] = (velocity.yps, control.state, position.altitude_yd)

    def revive(self, *, as_a_game: bool = False) -> int:
        """Set going again every mover at rest and bring back every one off the map; how many were set going.
        The fields are set the way the systems set them, unchecked (:func:`_write`), or ``as_a_game`` writes them:
        plain assignment, which the next step checks."""
        world, side, revived = self.world, self.side, 0
        write = partial(_write, checked=as_a_game)
        for entity, (position, velocity, control) in world.scan(Position, Velocity, Control):
            if control.carried_by is not None:
                continue
            if not (0 <= position.q < side and 0 <= position.r < side):
                write(position, q=position.q % side, r=position.r % side)
            built = self.built.get(entity)
            if built is None or velocity.yps > 0:
                continue
            revived += 1
            yps, state, altitude = built
            direction = self.layout.randrange(6)
            write(world.get(entity, Facing), direction=direction)
            write(velocity, yps=yps, heading=direction)
            _refill(write, control, Control(state=state, straight_yd=control.straight_yd))
            _refill(write, world.get(entity, Condition), Condition())
            _refill(write, world.get(entity, Posture), Posture())
            write(world.get(entity, Intent), maneuver=Maneuver.MOVE)
            write(position, altitude_yd=altitude)
            flight = world.try_get(entity, Flight)
            if flight is not None:
                fresh = Flight(air_move=flight.air_move, top_airspeed=flight.top_airspeed, mode=flight.mode)
                _refill(write, flight, fresh)
        return revived

    def movers(self) -> tuple[float, float]:
        """The share of movers at high speed and their mean path this turn (yards, one a hex), movers being the
        entities built moving that are on their own feet."""
        fast = moving = yards = 0
        for entity, (control,) in self.world.scan(Control):
            if entity in self.built and control.carried_by is None:
                moving += 1
                fast += control.state is MoveState.HIGH_SPEED
                yards += control.moved_yd
        return fast / max(moving, 1), yards / max(moving, 1)

    def record(self, timing: Timing) -> None:
        """Keep :meth:`movers` in ``timing``."""
        fast, path = self.movers()
        timing.fast.append(fast)
        timing.path.append(path)


def _refill(write: Callable[..., None], component: object, fresh: object) -> None:
    """Give ``component`` the field values of ``fresh``, a component of its type just built (and so checked)."""
    write(component, **{item.name: getattr(fresh, item.name) for item in dataclasses.fields(fresh)})  # type: ignore[arg-type]


def _write(component: object, *, checked: bool = False, **values: object) -> None:
    """Set fields the way the systems do, unchecked (every value the driver writes is one a component's own checks
    passed), or if ``checked`` as a game does, by plain assignment, which the field watch records and the next
    step checks."""
    put = setattr if checked else object.__setattr__
    for name, value in values.items():
        put(component, name, value)


def write_intents(world: World) -> None:
    """What a game that sets every mover's intent each turn writes: each ``Intent`` field a game sets, by plain
    assignment (the values it holds, so that the turn's work is the same)."""
    for _, (intent,) in world.scan(Intent):
        intent.maneuver = intent.maneuver
        intent.throttle = intent.throttle


@register("benchmark.Marked")
@dataclasses.dataclass(slots=True)
class Marked:
    """A game's own component (a tag with a count), registered as a game registers its own."""

    turns: int = 0

    def __post_init__(self) -> None:
        check_int("Marked", "turns", self.turns, low=0)


def restructure(world: World, fraction: float, layout: random.Random) -> None:
    """Give ``fraction`` of the entities a game's own component, or take it off those that have it."""
    entities = world.entities()
    for entity in layout.sample(entities, max(1, int(len(entities) * fraction))):
        if world.has(entity, Marked):
            world.remove(entity, Marked)
        else:
            world.add(entity, Marked())


class Collections:
    """The CPU and wall time Python's garbage collector takes, wherever it runs: a collection the turns set off
    that lands in the driver's work between turns is counted with the turns (:func:`timed`, :func:`lockstep`),
    so a world that holds its collections back until its step is over is not credited with them."""

    def __init__(self) -> None:
        self.cpu = self.wall = 0.0
        self._started = (0.0, 0.0)

    def __enter__(self) -> Collections:
        gc.callbacks.append(self._heard)
        return self

    def __exit__(self, *exc: object) -> None:
        gc.callbacks.remove(self._heard)

    def _heard(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started = (time.process_time(), time.perf_counter())
        else:
            self.cpu += time.process_time() - self._started[0]
            self.wall += time.perf_counter() - self._started[1]

    def during(self, work: Callable[[], object]) -> tuple[float, float]:
        """Run ``work``; the collector's CPU and wall time in it."""
        cpu, wall = self.cpu, self.wall
        work()
        return self.cpu - cpu, self.wall - wall


class Timing:
    """Per entity-turn costs of a run of turns, in microseconds, wall and CPU time; and what the movers did."""

    def __init__(self) -> None:
        self.wall: list[float] = []
        self.cpu: list[float] = []
        self.fast: list[float] = []
        self.path: list[float] = []

    def add(self, wall_s: float, cpu_s: float, count: int) -> None:
        self.wall.append(wall_s / count * 1e6)
        self.cpu.append(cpu_s / count * 1e6)


@dataclasses.dataclass(slots=True)
class Lane:
    """One workload of a rotation: its turn (timed), what comes before it (a driver's work, a game's writes) and
    what is kept after it (the movers' figures), both outside the timing; its costs."""

    turn: Callable[[], object]
    before: Callable[[], object] | None = None
    after: Callable[[Timing], None] | None = None
    timing: Timing = dataclasses.field(default_factory=Timing)


def rotate(lanes: list[Lane], count: int, repeats: int, turns: int) -> None:
    """``repeats`` runs of ``turns`` turns of every lane, the lanes taken in turn (the order turned round each
    turn), so that whatever else the machine is doing weighs on each alike; each lane's mean per entity-turn of
    each run kept in its timing. A collection that lands in a lane's work before or after its turn is counted
    with the turn (:class:`Collections`)."""
    with Collections() as collections:
        for repeat in range(repeats):
            gc.collect()
            spent = [[0.0, 0.0] for _ in lanes]  # cpu, wall
            for round_ in range(repeat * turns, (repeat + 1) * turns):
                start = round_ % len(lanes)
                for index in [*range(start, len(lanes)), *range(start)]:
                    lane, used = lanes[index], spent[index]
                    if lane.before is not None:
                        cpu, wall = collections.during(lane.before)
                        used[0], used[1] = used[0] + cpu, used[1] + wall
                    wall_start, cpu_start = time.perf_counter(), time.process_time()
                    lane.turn()
                    used[0] += time.process_time() - cpu_start
                    used[1] += time.perf_counter() - wall_start
                    if lane.after is not None:
                        cpu, wall = collections.during(partial(lane.after, lane.timing))
                        used[0], used[1] = used[0] + cpu, used[1] + wall
            for lane, (cpu, wall) in zip(lanes, spent, strict=True):
                lane.timing.add(wall / turns, cpu / turns, count)


def churn(world: World, fraction: float, layout: random.Random) -> None:
    """Change the state of ``fraction`` of the movers through their fields: a maneuver that loses control."""
    movers = world.query(Intent)
    for _, (intent,) in layout.sample(movers, max(1, int(len(movers) * fraction))):
        intent.maneuver = Maneuver.DO_NOTHING


VARIANTS: dict[str, Callable[[int, int], World]] = {
    "plain": lambda count, seed: build(count, transactional=False, seed=seed),
    "default": lambda count, seed: build(count, transactional=True, seed=seed),
}
"""The worlds ``--lockstep`` can compare, by name: a function of the entity count and the seed. A scratch script
measuring a change adds its own (the code before it, patched in) and calls :func:`lockstep`."""


def lockstep(names: list[str], count: int, turns: int, *, seed: int = 1, warm: int = 3) -> dict[str, Timing]:
    """Step one world of each variant, all of the same seed, turn by turn in rotation, each kept steady by its own
    driver: the per entity-turn cost of each turn, by variant."""
    lanes = {}
    for name in names:
        world = VARIANTS[name](count, seed)
        driver = Driver(world)
        lanes[name] = Lane(world.step, driver.revive, driver.record)
    rotate(list(lanes.values()), count, warm, 1)
    for lane in lanes.values():
        lane.timing = Timing()
    rotate(list(lanes.values()), count, turns, 1)
    return {name: lane.timing for name, lane in lanes.items()}


def runner_bytes(count: int = 2_000, turns: int = 5) -> tuple[float, float, float]:
    """Memory per full GURPS runner, from traced allocations of a default world of ``count`` runners spread over a
    map of the benchmark's density and kept going by its driver: at spawn, after ``turns`` turns (what the world
    holds for them then: the spatial index, esper's cached rows, paths, the last turn's events) and the peak of the
    last turn over that (the undo copy and what the turn makes and drops)."""
    layout = random.Random(1)
    side = int((count * YARDS_PER_ENTITY) ** 0.5)
    world = World(seed=1)
    install(world)
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    for _ in range(count):
        facing = layout.randrange(6)
        world.spawn(*runner(Position(layout.randrange(side), layout.randrange(side)), facing, 9, MoveState.HIGH_SPEED))
    spawned = tracemalloc.get_traced_memory()[0]
    driver = Driver(world)
    not_the_world = tracemalloc.get_traced_memory()[0] - spawned  # the driver's own tables
    peak = 0
    for _ in range(turns):
        driver.revive()
        gc.collect()
        at_start = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        world.step()
        peak = tracemalloc.get_traced_memory()[1] - at_start
    gc.collect()
    after = tracemalloc.get_traced_memory()[0] - not_the_world
    tracemalloc.stop()
    world.close()
    return (spawned - before) / count, (after - before) / count, peak / count


def measure(count: int, *, transactional: bool, repeats: int, turns: int) -> dict[str, float]:
    """Every figure for one world size (``_cpu`` ones in CPU time, the others in wall time)."""
    world = build(count, transactional=transactional)
    driver = Driver(world)
    floor_world = build(count, transactional=False)
    floor_driver = Driver(floor_world)
    for _ in range(3):  # warm the query caches and let the workloads settle
        for each, its_driver in ((world, driver), (floor_world, floor_driver)):
            its_driver.revive()
            each.step()
    floor_driver.revive()  # the floor's movers: every one, as the turn's are
    least = Floor(floor_world)
    least.turn()
    full, floor_lane = Lane(world.step, driver.revive, driver.record), Lane(least.turn, after=least.record)
    rotate([full, floor_lane], count, repeats, turns)

    layout = random.Random(2)
    quiet = Lane(world.step, driver.revive)
    churned = Lane(world.step, lambda: (driver.revive(), churn(world, 0.01, layout)))
    game = Lane(world.step, lambda: (driver.revive(as_a_game=True), write_intents(world)))
    reshaped = Lane(world.step, lambda: (driver.revive(), restructure(world, 0.01, layout)))
    rotate([quiet, churned, game, reshaped], count, repeats, turns)

    bare_turn = bare(world)
    bare_turn()  # warm its query cache too
    baseline = Lane(bare_turn)
    rotate([baseline], count, repeats, turns)
    floor_world.close()
    m = statistics.median
    turn, base, floor_, still = full.timing, baseline.timing, floor_lane.timing, quiet.timing
    return {
        "entities": count,
        "turn_us_per_entity": m(turn.wall),
        "baseline_us_per_entity": m(base.wall),
        "ratio": m(turn.wall) / m(base.wall),
        "churn_ratio": m(churned.timing.wall) / m(still.wall),
        "floor_us_per_entity": m(floor_.wall),
        "floor_ratio": m(floor_.wall) / m(base.wall),
        "turn_cpu_us_per_entity": m(turn.cpu),
        "baseline_cpu_us_per_entity": m(base.cpu),
        "floor_cpu_us_per_entity": m(floor_.cpu),
        "ratio_cpu": m(turn.cpu) / m(base.cpu),
        "churn_ratio_cpu": m(churned.timing.cpu) / m(still.cpu),
        "game_writes_ratio": m(game.timing.cpu) / m(still.cpu),
        "structural_churn_ratio": m(reshaped.timing.cpu) / m(still.cpu),
        "floor_ratio_cpu": m(floor_.cpu) / m(base.cpu),
        "turn_over_floor": m(turn.cpu) / m(floor_.cpu),
        "high_speed_share": statistics.fmean(turn.fast),
        "mean_path_yd": statistics.fmean(turn.path),
        "turn_hexes_first": turn.path[0],
        "turn_hexes_last": turn.path[-1],
        "floor_hexes_first": floor_.path[0],
        "floor_hexes_last": floor_.path[-1],
    }


def small_turns(*, transactional: bool, turns: int = 100) -> tuple[float, float]:
    """What a turn costs where the per-system fixed cost weighs most, CPU time, each world kept going by its
    driver: the mixed world of 200 entities (milliseconds a turn) and one full GURPS runner alone at walking pace
    (microseconds a turn). Each is timed on its own (stepped in turn with another world, a turn this small runs from
    a cold cache and costs several times more), after a few turns to warm up: the median of five means of ``turns``
    turns each (a collection before every turn would time each turn cold too)."""
    alone = World(seed=1, transactional=transactional)
    install(alone)
    alone.spawn(*runner(Position(0, 0), 0, 4, MoveState.NORMAL))
    found = []
    for world in (build(200, transactional=transactional), alone):
        lane = Lane(world.step, Driver(world).revive)
        rotate([lane], 1, 1, 5)
        lane.timing = Timing()
        rotate([lane], 1, 5, turns)
        world.close()
        found.append(statistics.median(lane.timing.cpu))
    return found[0] / 1000, found[1]


def get_ratio(count: int = 1_000, calls: int = 200_000) -> tuple[float, float]:
    """``World.get`` called from a game's own code (another esper context current), against
    ``esper.component_for_entity`` in the context that holds the component: (ns per call, their ratio), CPU time."""
    world = build(count, transactional=False)
    entity = world.entities()[count // 2]
    game = esper.current_world
    get = world.get

    def ours() -> None:
        for _ in range(calls):
            get(entity, Position)

    def theirs() -> None:
        lookup = esper.component_for_entity
        for _ in range(calls):
            lookup(entity, Position)

    ours_s = min(_cpu(ours) for _ in range(5))
    esper.switch_world(world.context)
    try:
        theirs_s = min(_cpu(theirs) for _ in range(5))
    finally:
        esper.switch_world(game)
    return ours_s / calls * 1e9, ours_s / theirs_s


def _cpu(work: Callable[[], None]) -> float:
    start = time.process_time()
    work()
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entities", type=int, nargs="+", default=list(SIZES))
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--turns", type=int, default=3)
    parser.add_argument("--transactional", action="store_true", help="keep the default undo copy of each step")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--lockstep", nargs="+", metavar="VARIANT", choices=sorted(VARIANTS), help="compare variants turn by turn"
    )
    args = parser.parse_args()
    if args.lockstep:
        print_lockstep(args.lockstep, args.entities, args.repeats * args.turns)
        return

    rows = [measure(n, transactional=args.transactional, repeats=args.repeats, turns=args.turns) for n in args.entities]
    smallest, largest = rows[0], rows[-1]
    get_ns, get_vs_esper = get_ratio()
    spawn_bytes, after_bytes, peak_bytes = runner_bytes()
    small_ms, alone_us = small_turns(transactional=args.transactional)
    scaling_cpu = largest["turn_cpu_us_per_entity"] / smallest["turn_cpu_us_per_entity"]
    floor_scaling = largest["floor_cpu_us_per_entity"] / smallest["floor_cpu_us_per_entity"]

    def each(key: str, digits: int) -> list[float]:
        return [round(row[key], digits) for row in rows]

    result = {
        "entities": [row["entities"] for row in rows],
        "turn_us_per_entity": each("turn_us_per_entity", 3),
        "baseline_us_per_entity": each("baseline_us_per_entity", 3),
        "ratio": each("ratio", 2),
        "scaling": round(largest["turn_us_per_entity"] / smallest["turn_us_per_entity"], 3),
        "churn_ratio": each("churn_ratio", 3),
        "floor_us_per_entity": each("floor_us_per_entity", 3),
        "floor_ratio": each("floor_ratio", 2),
        "bytes_per_entity": round(spawn_bytes),
        "bytes_after_turns": round(after_bytes),
        "undo_peak_bytes": round(peak_bytes),
        "get_ns": round(get_ns, 1),
        "get_ratio": round(get_vs_esper, 2),
        "transactional": args.transactional,
        "turn_cpu_us_per_entity": each("turn_cpu_us_per_entity", 3),
        "baseline_cpu_us_per_entity": each("baseline_cpu_us_per_entity", 3),
        "floor_cpu_us_per_entity": each("floor_cpu_us_per_entity", 3),
        "ratio_cpu": each("ratio_cpu", 2),
        "churn_ratio_cpu": each("churn_ratio_cpu", 3),
        "floor_ratio_cpu": each("floor_ratio_cpu", 2),
        "turn_over_floor": each("turn_over_floor", 2),
        "scaling_cpu": round(scaling_cpu, 3),
        "scaling_vs_floor": round(scaling_cpu / floor_scaling, 3),
        "high_speed_share": each("high_speed_share", 3),
        "mean_path_yd": each("mean_path_yd", 2),
        "turn_hexes_first_last": [[round(row[f"turn_hexes_{at}"], 2) for at in ("first", "last")] for row in rows],
        "floor_hexes_first_last": [[round(row[f"floor_hexes_{at}"], 2) for at in ("first", "last")] for row in rows],
        "game_writes_ratio": each("game_writes_ratio", 3),
        "structural_churn_ratio": each("structural_churn_ratio", 3),
        "turn_200_ms": round(small_ms, 3),
        "one_runner_us": round(alone_us, 1),
    }
    if args.json:
        print(json.dumps(result))
        return
    print("CPU time (wall time in brackets), microseconds per entity-turn; the turn and the floor in rotation")
    print(
        f"{'entities':>9} {'turn':>14} {'bare esper':>14} {'floor':>14} {'ratio':>7} {'floor ratio':>12} "
        f"{'turn/floor':>11} {'churn':>6} {'writes':>7} {'reshape':>8} {'high speed':>11} {'path yd':>8}"
    )
    for row in rows:
        print(
            f"{row['entities']:>9} {row['turn_cpu_us_per_entity']:>6.2f} ({row['turn_us_per_entity']:>5.2f}) "
            f"{row['baseline_cpu_us_per_entity']:>6.3f} ({row['baseline_us_per_entity']:>5.3f}) "
            f"{row['floor_cpu_us_per_entity']:>6.3f} ({row['floor_us_per_entity']:>5.3f}) "
            f"{row['ratio_cpu']:>7.1f} {row['floor_ratio_cpu']:>12.1f} {row['turn_over_floor']:>11.1f} "
            f"{row['churn_ratio_cpu']:>6.2f} {row['game_writes_ratio']:>7.2f} {row['structural_churn_ratio']:>8.2f} "
            f"{row['high_speed_share']:>11.0%} {row['mean_path_yd']:>8.1f}"
        )
    for row in rows:
        print(
            f"{row['entities']:>9}: hexes walked per mover, first and last timed turn: the turn "
            f"{row['turn_hexes_first']:.1f} and {row['turn_hexes_last']:.1f}, the floor "
            f"{row['floor_hexes_first']:.1f} and {row['floor_hexes_last']:.1f}"
        )
    print(
        f"scaling {result['scaling_cpu']} ({result['scaling']} wall), {result['scaling_vs_floor']} over the floor's; "
        f"bytes per full GURPS runner {result['bytes_per_entity']} at spawn, {result['bytes_after_turns']} after 5 "
        f"turns, the undo copy's turn peaking {result['undo_peak_bytes']} above that"
    )
    print(f"world.get {get_ns:.0f} ns a call from game code: {get_vs_esper:.2f} x esper.component_for_entity")
    print(f"a turn of 200 entities {small_ms:.3f} ms, of one runner alone {alone_us:.1f} us (CPU)")


def print_lockstep(names: list[str], sizes: list[int], turns: int) -> None:
    """Print :func:`lockstep`'s medians, each variant against the first."""
    for count in sizes:
        timings = lockstep(names, count, turns)
        first = statistics.median(timings[names[0]].cpu)
        print(f"{count} entities, {turns} turns in lockstep: CPU (wall) us per entity-turn, median [quartiles]")
        for name in names:
            timing = timings[name]
            cpu = statistics.median(timing.cpu)
            quartiles = statistics.quantiles(timing.cpu, n=4)
            print(
                f"  {name:>12} {cpu:6.2f} ({statistics.median(timing.wall):6.2f}) "
                f"[{quartiles[0]:.2f}-{quartiles[2]:.2f}]  x{cpu / first:.3f}  "
                f"high speed {statistics.fmean(timing.fast):.0%}  path {statistics.fmean(timing.path):.1f} yd"
            )


if __name__ == "__main__":
    main()

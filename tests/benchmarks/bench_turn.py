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
shared) beside wall time. ``--lockstep`` compares variants (:data:`VARIANTS`) on worlds of the same seed
stepped turn by turn in rotation, so that whatever else the machine is doing weighs on each alike.

Printed per size: the full turn in microseconds per entity-turn, the same entities (the world's own component
objects, in its own esper context) under bare esper with one processor that adds velocity to position, their
ratio, the churn ratio (a turn in which 1% of entities change state, against a quiet turn), the floor ratio
(:func:`floor`, the least any movement turn in Python costs, against the same baseline) and the full turn over
the floor; then the scaling (per-entity cost at the largest size over the smallest, and that over the floor's
own), the memory of one full GURPS runner, and the cost of ``World.get`` from a game's code against
``esper.component_for_entity`` (CPU time). Medians over several repetitions.

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
from esper_motion.ecs import World
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
        Velocity(velocity, facing),
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
                Velocity(20, facing),
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
                Velocity(12, facing),
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
                Velocity(0, facing),
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
                Velocity(16, facing),
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


def floor(world: World) -> Callable[[], None]:
    """The least a turn under movement rules can cost in Python: one pass over ``world``'s movers, each walking
    its velocity hex by hex along its facing and stopping before the first hex a set of occupied hexes holds,
    then writing its position. No rules, no events, no other system. It moves them: measure it last."""
    occupied = {position.hex for _, (position,) in world.query(Position)}

    def turn() -> None:
        esper.switch_world(world.context)
        for _, (position, velocity, facing) in esper.get_components(Position, Velocity, Facing):
            dq, dr = DIRECTIONS[facing.direction]
            q, r = position.q, position.r
            for _ in range(velocity.yps):
                if (q + dq, r + dr) in occupied:
                    break
                q, r = q + dq, r + dr
            position.q, position.r = q, r
        esper.switch_world("default")

    return turn


class Driver:
    """What keeps the benchmark's workload steady: between turns (outside the timing) every mover that came to
    rest is set going again, and every one that left the map comes back in on the other side.

    A mover at rest (velocity 0, on its own feet: a seated rider is carried, not at rest) gets a new facing, the
    speed, state and altitude it was built with, an intact body standing up, and the Move maneuver; a flier its
    flight as built.
    """

    def __init__(self, world: World, seed: int = 3) -> None:
        self.world = world
        self.side = int((len(world.entities()) * YARDS_PER_ENTITY) ** 0.5)
        self.layout = random.Random(seed)
        self.built: dict[int, tuple[int, MoveState, float]] = {}
        for entity, (velocity, control, position) in world.query(Velocity, Control, Position):
            if velocity.yps > 0:
                self.built[entity] = (velocity.yps, control.state, position.altitude_yd)

    def revive(self) -> int:
        """Set going again every mover at rest and bring back every one off the map; how many were set going."""
        world, side, revived = self.world, self.side, 0
        for entity, (position, velocity, control) in world.scan(Position, Velocity, Control):
            if control.carried_by is not None:
                continue
            if not (0 <= position.q < side and 0 <= position.r < side):
                _write(position, q=position.q % side, r=position.r % side)
            built = self.built.get(entity)
            if built is None or velocity.yps > 0:
                continue
            revived += 1
            yps, state, altitude = built
            direction = self.layout.randrange(6)
            _write(world.get(entity, Facing), direction=direction)
            _write(velocity, yps=yps, heading=direction)
            _refill(control, Control(state=state, straight_yd=control.straight_yd))
            _refill(world.get(entity, Condition), Condition())
            _refill(world.get(entity, Posture), Posture())
            _write(world.get(entity, Intent), maneuver=Maneuver.MOVE)
            _write(position, altitude_yd=altitude)
            flight = world.try_get(entity, Flight)
            if flight is not None:
                _refill(flight, Flight(air_move=flight.air_move, top_airspeed=flight.top_airspeed, mode=flight.mode))
        return revived

    def movers(self) -> tuple[float, float]:
        """The share of movers at high speed and their mean path this turn (yards), movers being the entities
        built moving that are on their own feet."""
        fast = moving = yards = 0
        for entity, (control,) in self.world.scan(Control):
            if entity in self.built and control.carried_by is None:
                moving += 1
                fast += control.state is MoveState.HIGH_SPEED
                yards += control.moved_yd
        return fast / max(moving, 1), yards / max(moving, 1)


def _refill(component: object, fresh: object) -> None:
    """Give ``component`` the field values of ``fresh``, a component of its type just built (and so checked)."""
    _write(component, **{item.name: getattr(fresh, item.name) for item in dataclasses.fields(fresh)})  # type: ignore[arg-type]


def _write(component: object, **values: object) -> None:
    """Set fields the way the systems do, unchecked: every value the driver writes is one a component's own checks
    passed, and a check of its writes at the next step would be timed with the turn (a tenth of the movers are set
    going again each turn at 10,000 entities, and checking them came to a sixth of the turn)."""
    for name, value in values.items():
        object.__setattr__(component, name, value)


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


def timed(turn: Callable[[], object], count: int, repeats: int, turns: int, driver: Driver | None = None) -> Timing:
    """``repeats`` runs of ``turns`` turns, each run's mean per entity-turn kept; with a driver, the workload is
    kept steady between turns (outside the timing) and the movers' figures are kept after each turn."""
    timing = Timing()
    with Collections() as collections:
        for _ in range(repeats):
            gc.collect()
            wall = cpu = 0.0
            for _ in range(turns):
                if driver is not None:
                    late_cpu, late_wall = collections.during(driver.revive)
                    cpu, wall = cpu + late_cpu, wall + late_wall
                wall_start, cpu_start = time.perf_counter(), time.process_time()
                turn()
                cpu += time.process_time() - cpu_start
                wall += time.perf_counter() - wall_start
                if driver is not None:
                    late_cpu, late_wall = collections.during(partial(_movers_into, driver, timing))
                    cpu, wall = cpu + late_cpu, wall + late_wall
            timing.add(wall / turns, cpu / turns, count)
    return timing


def _movers_into(driver: Driver, timing: Timing) -> None:
    fast, path = driver.movers()
    timing.fast.append(fast)
    timing.path.append(path)


def median_us_per_entity(turn: Callable[[], None], count: int, repeats: int, turns: int) -> float:
    """Median over ``repeats`` runs of ``turns`` turns: microseconds per entity-turn (wall time)."""
    return statistics.median(timed(turn, count, repeats, turns).wall)


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
    """Step one world of each variant, all of the same seed, turn by turn in rotation (the order turned round
    each turn), each kept steady by its own driver: the per entity-turn cost of each turn, by variant."""
    worlds = {name: VARIANTS[name](count, seed) for name in names}
    drivers = {name: Driver(world) for name, world in worlds.items()}
    timings = {name: Timing() for name in names}
    with Collections() as collections:
        for round_ in range(warm + turns):
            order = names[round_ % len(names) :] + names[: round_ % len(names)]
            for name in order:
                cpu, wall = collections.during(drivers[name].revive)
                wall_start, cpu_start = time.perf_counter(), time.process_time()
                worlds[name].step()
                cpu += time.process_time() - cpu_start
                wall += time.perf_counter() - wall_start
                kept = timings[name] if round_ >= warm else Timing()
                late_cpu, late_wall = collections.during(partial(_movers_into, drivers[name], kept))
                kept.add(wall + late_wall, cpu + late_cpu, count)
    return timings


def bytes_per_runner(count: int = 2_000) -> float:
    """Memory of one full GURPS runner: traced allocations of ``count`` runners, divided by ``count``."""
    world = World(seed=1, transactional=False)
    install(world)
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    for i in range(count):
        world.spawn(*runner(Position(i, 0), 0, 9, MoveState.HIGH_SPEED))
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    return (after - before) / count


def measure(count: int, *, transactional: bool, repeats: int, turns: int) -> dict[str, float]:
    """Every figure for one world size (``_cpu`` ones in CPU time, the others in wall time)."""
    world = build(count, transactional=transactional)
    driver = Driver(world)
    for _ in range(3):  # warm the query caches and let the workload settle
        driver.revive()
        world.step()
    full = timed(world.step, count, repeats, turns, driver)
    layout = random.Random(2)
    churned = Timing()
    for _ in range(repeats):
        churn(world, 0.01, layout)
        one = timed(world.step, count, 1, 1, driver)
        churned.wall += one.wall
        churned.cpu += one.cpu
    quiet = timed(world.step, count, repeats, 1, driver)
    bare_turn = bare(world)
    bare_turn()  # warm its query cache too
    baseline = timed(bare_turn, count, repeats, turns)
    floor_turn = floor(world)
    floor_turn()
    least = timed(floor_turn, count, repeats, turns)
    m = statistics.median
    return {
        "entities": count,
        "turn_us_per_entity": m(full.wall),
        "baseline_us_per_entity": m(baseline.wall),
        "ratio": m(full.wall) / m(baseline.wall),
        "churn_ratio": m(churned.wall) / m(quiet.wall),
        "floor_us_per_entity": m(least.wall),
        "floor_ratio": m(least.wall) / m(baseline.wall),
        "turn_cpu_us_per_entity": m(full.cpu),
        "baseline_cpu_us_per_entity": m(baseline.cpu),
        "floor_cpu_us_per_entity": m(least.cpu),
        "ratio_cpu": m(full.cpu) / m(baseline.cpu),
        "churn_ratio_cpu": m(churned.cpu) / m(quiet.cpu),
        "floor_ratio_cpu": m(least.cpu) / m(baseline.cpu),
        "turn_over_floor": m(full.cpu) / m(least.cpu),
        "high_speed_share": statistics.fmean(full.fast),
        "mean_path_yd": statistics.fmean(full.path),
    }


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
        "bytes_per_entity": round(bytes_per_runner()),
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
    }
    if args.json:
        print(json.dumps(result))
        return
    print("CPU time (wall time in brackets), microseconds per entity-turn")
    print(
        f"{'entities':>9} {'turn':>14} {'bare esper':>14} {'floor':>14} {'ratio':>7} {'floor ratio':>12} "
        f"{'turn/floor':>11} {'churn':>6} {'high speed':>11} {'path yd':>8}"
    )
    for row in rows:
        print(
            f"{row['entities']:>9} {row['turn_cpu_us_per_entity']:>6.2f} ({row['turn_us_per_entity']:>5.2f}) "
            f"{row['baseline_cpu_us_per_entity']:>6.3f} ({row['baseline_us_per_entity']:>5.3f}) "
            f"{row['floor_cpu_us_per_entity']:>6.3f} ({row['floor_us_per_entity']:>5.3f}) "
            f"{row['ratio_cpu']:>7.1f} {row['floor_ratio_cpu']:>12.1f} {row['turn_over_floor']:>11.1f} "
            f"{row['churn_ratio_cpu']:>6.2f} {row['high_speed_share']:>11.0%} {row['mean_path_yd']:>8.1f}"
        )
    print(
        f"scaling {result['scaling_cpu']} ({result['scaling']} wall), {result['scaling_vs_floor']} over the floor's; "
        f"bytes per full GURPS runner {result['bytes_per_entity']}"
    )
    print(f"world.get {get_ns:.0f} ns a call from game code: {get_vs_esper:.2f} x esper.component_for_entity")


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

"""How much a full GURPS turn costs against bare esper, per entity, measured in one process and one run.

Run by hand (never a timed test)::

    python tests/benchmarks/bench_turn.py                  # 1,000, 10,000 and 100,000 entities
    python tests/benchmarks/bench_turn.py --entities 2000 --json

The mixed world: runners at high speed and at walking pace, four-wheeled vehicles, riders on war horses,
fliers that cannot hover, walls and mud, spread over a map whose area grows with the entity count (so the
density, and with it the work per entity, stays the same). Every GURPS system is installed.

Printed per size: the full turn in microseconds per entity-turn, the same entities (the world's own component
objects, in its own esper context) under bare esper with one processor that adds velocity to position, their
ratio, the churn ratio (a turn in which 1% of entities change state, against a quiet turn) and the floor ratio
(:func:`floor`, the least any movement turn in Python costs, against the same baseline); then the scaling
(per-entity cost at the largest size over the smallest), the memory of one full GURPS runner, and the cost of
``World.get`` from a game's code against ``esper.component_for_entity`` (CPU time). Medians over several
repetitions.

The baseline runs over the world's own entities because where objects lie in memory weighs on a loop this
small: the same loop over fresh copies made in a clean heap runs up to ten times faster at 10,000 entities and
more, which would measure the heap, not the rules.
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import statistics
import time
import tracemalloc
from collections.abc import Callable

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


def median_us_per_entity(turn: Callable[[], None], count: int, repeats: int, turns: int) -> float:
    """Median over ``repeats`` runs of ``turns`` turns: microseconds per entity-turn."""
    samples = []
    for _ in range(repeats):
        gc.collect()
        start = time.perf_counter()
        for _ in range(turns):
            turn()
        samples.append((time.perf_counter() - start) / turns / count * 1e6)
    return statistics.median(samples)


def churn(world: World, fraction: float, layout: random.Random) -> None:
    """Change the state of ``fraction`` of the movers through their fields: a maneuver that loses control."""
    movers = world.query(Intent)
    for _, (intent,) in layout.sample(movers, max(1, int(len(movers) * fraction))):
        intent.maneuver = Maneuver.DO_NOTHING


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
    """Every figure for one world size."""
    world = build(count, transactional=transactional)
    world.step()  # warm the query caches
    full = median_us_per_entity(world.step, count, repeats, turns)
    layout = random.Random(2)
    churned = []
    for _ in range(repeats):
        churn(world, 0.01, layout)
        churned.append(median_us_per_entity(world.step, count, 1, 1))
    quiet = median_us_per_entity(world.step, count, repeats, 1)
    bare_turn = bare(world)
    bare_turn()  # warm its query cache too
    baseline = median_us_per_entity(bare_turn, count, repeats, turns)
    floor_turn = floor(world)
    floor_turn()
    least = median_us_per_entity(floor_turn, count, repeats, turns)
    return {
        "entities": count,
        "turn_us_per_entity": full,
        "baseline_us_per_entity": baseline,
        "ratio": full / baseline,
        "churn_ratio": statistics.median(churned) / quiet,
        "floor_us_per_entity": least,
        "floor_ratio": least / baseline,
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
    args = parser.parse_args()

    rows = [measure(n, transactional=args.transactional, repeats=args.repeats, turns=args.turns) for n in args.entities]
    smallest, largest = rows[0], rows[-1]
    get_ns, get_vs_esper = get_ratio()
    result = {
        "entities": [row["entities"] for row in rows],
        "turn_us_per_entity": [round(row["turn_us_per_entity"], 3) for row in rows],
        "baseline_us_per_entity": [round(row["baseline_us_per_entity"], 3) for row in rows],
        "ratio": [round(row["ratio"], 2) for row in rows],
        "scaling": round(largest["turn_us_per_entity"] / smallest["turn_us_per_entity"], 3),
        "churn_ratio": [round(row["churn_ratio"], 3) for row in rows],
        "floor_us_per_entity": [round(row["floor_us_per_entity"], 3) for row in rows],
        "floor_ratio": [round(row["floor_ratio"], 2) for row in rows],
        "bytes_per_entity": round(bytes_per_runner()),
        "get_ns": round(get_ns, 1),
        "get_ratio": round(get_vs_esper, 2),
        "transactional": args.transactional,
    }
    if args.json:
        print(json.dumps(result))
        return
    print(f"{'entities':>9} {'turn us/ent':>12} {'bare us/ent':>12} {'ratio':>7} {'churn':>7} {'floor ratio':>12}")
    for row in rows:
        print(
            f"{row['entities']:>9} {row['turn_us_per_entity']:>12.2f} {row['baseline_us_per_entity']:>12.3f} "
            f"{row['ratio']:>7.1f} {row['churn_ratio']:>7.2f} {row['floor_ratio']:>12.1f}"
        )
    print(f"scaling {result['scaling']}  bytes per full GURPS runner {result['bytes_per_entity']}")
    print(f"world.get {get_ns:.0f} ns a call from game code: {get_vs_esper:.2f} x esper.component_for_entity")


if __name__ == "__main__":
    main()

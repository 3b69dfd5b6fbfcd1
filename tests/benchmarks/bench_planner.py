"""What the planner costs: its time per mover per turn, and a world of movers with goals against the same world
without.

Run by hand (never a timed test)::

    python tests/benchmarks/bench_planner.py                  # 200 movers, 10 turns
    python tests/benchmarks/bench_planner.py --movers 50 --turns 5 --json

Printed, all CPU time (``time.process_time``) in this process:

- per mover per turn: the median and the 99th percentile of the planner's decision (``decide`` in
  ``esper_motion.systems.gurps.planner.system``, what ``GoalPlanner`` runs for each mover: the turn of a kept plan
  checked again, or a new search), over every mover of every turn, the mean number of turns each simulated (a
  search at most ``NODE_BUDGET``, a kept plan's turn one), the mean number of searches a turn (at most the planning
  budget, ``SEARCHES_PER_TURN``, which ``--searches`` sets, unless a turn chosen without one finds none) and of
  turns chosen without one, the budget spent (``one_turn``); the rest of the decisions follow a kept plan;
- the yards fields round walls the searches made over the run (kept while the walls stay as they are), and how many
  of them walked out from their place (the others gave only hexes with no wall between them and the place, whose
  yards are their plain distance: ``YardsField``);
- how far the runners got by the last turn: of those going to a hex, how many are there and the mean yards left;
  of the pursuers, the mean yards to the quarry (the budget changes plans in a crowd: docs/goals.md);
- per turn: the median step of the world with goals (the planner included) against two worlds with no goal: the
  replay, where the game writes each turn, by plain assignment before the step, the very intents the planner chose
  in the world with goals (recorded from it: both worlds make the same moves, which the script checks), and the
  still world, whose movers keep still; and the ratio to each, and that of the whole run's CPU time to the replay's.
  The three worlds are stepped turn by turn in rotation (the order turned round each turn), after the run that
  records the planner's intents, so that the machine's other load falls on each alike.

The world: ``--movers`` runners (Basic Move 5 or 6) on a square map of about 25 hexes each, one wall hex per ten
movers; a third go to a far hex and stop, a third pursue another runner, a third patrol two hexes. Every figure is
from one run of this script; the machine's other load moves them (compare ratios, and repeat).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from esper_motion.components import Control, Facing, GoTo, Intent, Mover, Obstacle, Patrol, Position, Pursue, Velocity
from esper_motion.ecs import Phase, System, World
from esper_motion.ecs.hexgrid import distance
from esper_motion.systems.gurps import install
from esper_motion.systems.gurps.planner import system as planner_system
from esper_motion.systems.gurps.planner.search import Plan
from esper_motion.systems.gurps.planner.system import GoalPlanner


def build(movers: int, seed: int, *, with_goals: bool) -> World:
    """The benchmark world (see the module docstring)."""
    rng = random.Random(seed)
    world = World(seed=seed, transactional=False)
    install(world)
    side = max(10, round((movers * 25) ** 0.5))
    free = [(q, r) for q in range(side) for r in range(side)]
    rng.shuffle(free)
    runners = [
        world.spawn(
            Position(*free.pop()),
            Facing(rng.randrange(6)),
            Velocity(0),
            Mover(rng.choice((5, 6))),
            Control(),
            Intent(),
        )
        for _ in range(movers)
    ]
    for _ in range(movers // 10):
        world.spawn(Position(*free.pop()), Obstacle())
    if with_goals:
        for number, runner in enumerate(runners):
            kind = number % 3
            if kind == 0:
                world.add(runner, GoTo(free.pop()))
            elif kind == 1:
                world.add(runner, Pursue(runners[(number + 1) % movers], range_yd=1))
            else:
                world.add(runner, Patrol((free.pop(), free.pop())))
    return world


_INTENT_FIELDS = ("maneuver", "throttle", "turn", "turn_at_yd", "push", "veer", "slam", "life_or_death", "turns")

Intents = dict[int, tuple[Any, ...]]
"""Every runner's intent of one turn, by entity (the fields of :data:`_INTENT_FIELDS`)."""


class IntentRecorder(System):
    """DECIDE phase, after ``GoalPlanner``: keeps the intents it wrote this turn (``turns``, one entry a turn)."""

    phase = Phase.DECIDE

    def __init__(self) -> None:
        super().__init__()
        self.turns: list[Intents] = []

    def run(self) -> None:
        """Keep this turn's intents."""
        self.turns.append(
            {
                entity: tuple(getattr(intent, name) for name in _INTENT_FIELDS)
                for entity, (intent,) in self.world.query(Intent)
            }
        )


def replay_step(world: World, intents: Intents) -> None:
    """One step of ``world`` (no goals) whose game writes, before the step, the ``intents`` of one turn."""
    for entity, values in intents.items():
        intent = world.get(entity, Intent)
        for name, value in zip(_INTENT_FIELDS, values, strict=True):
            setattr(intent, name, value)
    world.step()


def in_rotation(steps: list[Callable[[int], object]], turns: int) -> list[list[float]]:
    """The CPU time of each of ``turns`` calls of each of ``steps`` (given the turn), stepped turn by turn in
    rotation, the order turned round each turn, so that the machine's other load falls on each alike."""
    found: list[list[float]] = [[] for _ in steps]
    for turn in range(turns):
        order = list(range(len(steps)))
        if turn % 2:
            order.reverse()
        for number in order:
            start = time.process_time()
            steps[number](turn)
            found[number].append(time.process_time() - start)
    return found


def progress(world: World) -> dict[str, float]:
    """How far the runners got: of those going to a hex, how many are there and the mean yards left; of the
    pursuers, the mean yards to the quarry."""
    here = {entity: position.hex for entity, (position,) in world.query(Position)}
    left = [distance(here[entity], goal.hex) for entity, (goal,) in world.query(GoTo)]
    behind = [distance(here[entity], here[goal.target]) for entity, (goal,) in world.query(Pursue) if goal.target]
    return {
        "goto_arrived": sum(yards == 0 for yards in left),
        "goto_yards_left_mean": statistics.mean(left),
        "pursuit_yards_mean": statistics.mean(behind),
    }


def places(world: World) -> list[tuple[int, tuple[int, int], int]]:
    """Every runner's hex and velocity."""
    return [(entity, position.hex, velocity.yps) for entity, (position, velocity) in world.query(Position, Velocity)]


def timing(times: list[float], evaluated: list[int]) -> Callable[..., Plan]:
    """``decide`` (what ``GoalPlanner`` runs for each mover), keeping the CPU time of each call in ``times`` and the
    turns it simulated in ``evaluated``."""
    real = planner_system.decide

    def timed(*args: Any, **kwargs: Any) -> Plan:
        start = time.process_time()
        found = real(*args, **kwargs)
        times.append(time.process_time() - start)
        evaluated.append(found.evaluated)
        return found

    return timed


def counting(real: Callable[..., Any], calls: list[int]) -> Callable[..., Any]:
    """``real`` (``search`` or ``one_turn`` as ``decide`` calls them), adding one to ``calls[0]`` for each call that
    finds something."""

    def counted(*args: Any, **kwargs: Any) -> Any:
        found = real(*args, **kwargs)
        calls[0] += found is not None
        return found

    return counted


def measure(movers: int, turns: int, seed: int, searches_per_turn: int | None = None) -> dict[str, Any]:
    """Every figure of the module docstring (``searches_per_turn``: the planning budget, by default the planner's
    own :data:`~esper_motion.systems.gurps.planner.system.SEARCHES_PER_TURN`)."""
    budget = planner_system.SEARCHES_PER_TURN
    if searches_per_turn is not None:
        planner_system.SEARCHES_PER_TURN = searches_per_turn  # type: ignore[misc]
    try:
        return _measured(movers, turns, seed)
    finally:
        planner_system.SEARCHES_PER_TURN = budget  # type: ignore[misc]


def _measured(movers: int, turns: int, seed: int) -> dict[str, Any]:
    planned = build(movers, seed, with_goals=True)
    recorder = IntentRecorder()
    planned.add_system(recorder, after=GoalPlanner)
    per_mover: list[float] = []
    simulated: list[int] = []
    searches, budgeted = [0], [0]
    real, real_search, real_one = planner_system.decide, planner_system.search, planner_system.one_turn
    planner_system.decide = timing(per_mover, simulated)  # type: ignore[assignment]
    planner_system.search = counting(real_search, searches)
    planner_system.one_turn = counting(real_one, budgeted)
    try:
        for _ in range(turns):
            planned.step()
    finally:
        planner_system.decide, planner_system.search, planner_system.one_turn = real, real_search, real_one
    planner = next(system for system in planned.systems if isinstance(system, GoalPlanner))
    kept_fields = planner._fields.by_place.values()  # what it kept over the run
    made = [field for kept in kept_fields for field in kept]
    planning = build(movers, seed, with_goals=True)
    replay = build(movers, seed, with_goals=False)
    resting = build(movers, seed, with_goals=False)
    with_goals, replay_steps, still = in_rotation(
        [
            lambda _turn: planning.step(),
            lambda turn: replay_step(replay, recorder.turns[turn]),
            lambda _turn: resting.step(),
        ],
        turns,
    )
    ordered = sorted(per_mover)
    return {
        "movers": movers,
        "turns": turns,
        "decide_median_ms": 1000 * statistics.median(ordered),
        "decide_p99_ms": 1000 * ordered[min(len(ordered) - 1, round(0.99 * len(ordered)))],
        "turns_simulated_mean": statistics.mean(simulated),
        "searches_per_turn": searches[0] / turns,
        "budgeted_per_turn": budgeted[0] / turns,
        "planning_budget": planner_system.SEARCHES_PER_TURN,
        "yards_fields": len(made),
        "yards_fields_walked": sum(field.walked for field in made),
        "step_with_goals_ms": 1000 * statistics.median(with_goals),
        "step_replay_ms": 1000 * statistics.median(replay_steps),
        "step_still_ms": 1000 * statistics.median(still),
        "ratio_to_replay": statistics.median(with_goals) / statistics.median(replay_steps),
        "ratio_to_still": statistics.median(with_goals) / statistics.median(still),
        "total_ratio_to_replay": sum(with_goals) / sum(replay_steps),
        "replay_same_moves": places(replay) == places(planned),
        **progress(planned),
    }


def main() -> None:
    """Measure and print."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--movers", type=int, default=200)
    parser.add_argument("--turns", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--searches", type=int, default=None, help="the planning budget: searches a turn")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    figures = measure(args.movers, args.turns, args.seed, args.searches)
    if args.json:
        print(json.dumps(figures, indent=2))
        return
    print(f"{figures['movers']} movers with goals, {figures['turns']} turns (CPU time)")
    print(
        f"  the planner per mover per turn: median {figures['decide_median_ms']:.2f} ms, "
        f"99th percentile {figures['decide_p99_ms']:.2f} ms, {figures['turns_simulated_mean']:.0f} turns simulated; "
        f"{figures['searches_per_turn']:.0f} searches a turn (budget {figures['planning_budget']}), "
        f"{figures['budgeted_per_turn']:.0f} turns chosen without one; {figures['yards_fields']} yards fields, "
        f"{figures['yards_fields_walked']} of them walked"
    )
    print(
        f"  a step: {figures['step_with_goals_ms']:.1f} ms with goals; without: {figures['step_replay_ms']:.1f} ms "
        f"replaying the planner's intents ({figures['ratio_to_replay']:.1f} times, the whole run "
        f"{figures['total_ratio_to_replay']:.1f}; the same moves: "
        f"{figures['replay_same_moves']}), {figures['step_still_ms']:.1f} ms keeping still "
        f"({figures['ratio_to_still']:.1f} times)"
    )
    print(
        f"  after the last turn: {figures['goto_arrived']} at the hex they go to "
        f"({figures['goto_yards_left_mean']:.1f} yards left on average), pursuers "
        f"{figures['pursuit_yards_mean']:.1f} yards from their quarry"
    )


if __name__ == "__main__":
    main()

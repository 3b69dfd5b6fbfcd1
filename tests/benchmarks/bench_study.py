"""What an outcome study costs: runs per second on one core, and what two local workers and Ray add.

Run by hand (never a timed test)::

    python tests/benchmarks/bench_study.py                    # the scripted cavalry charge, 8 turns, 20,000 runs
    python tests/benchmarks/bench_study.py --runs 5000 --json
    python tests/benchmarks/bench_study.py --skip-ray

Printed:

- one core: complete runs (build the scene, play 8 turns, measure) per second of CPU time (``time.process_time``)
  in this process, and the share of a run spent building the scene; the same runs in lockstep (run by run, the
  same seeds) built and played as a demo plays a scene: every check at every build (``build_scene``) and the undo
  copy of every turn, which a study's runs go without (``esper_motion.studies.runs.run_one``);
- local workers: the wall time of ``--runs`` runs with one worker (in this process) and with two (a process pool,
  its start-up included), taken in turn ``--rounds`` times (the order turned round each round), and the two-worker
  speed-up measured on the wall (one worker's wall time over two's, each round; the median); beside each, the CPU
  time it took (this process and its workers) and the load average before it, since on a shared machine the wall
  time follows the other load;
- Ray: the wall time of the same runs on a local Ray with two CPUs (its start-up included) against two local
  workers, and the CPU time it took: this process's and that of every process Ray started below it (its workers
  and its own daemons, read from ``/proc`` while the study runs, since they outlive it).

Every figure is a ratio or a rate from one run of this script; the machine's other load moves them (wall times
most: compare ratios, and repeat).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import threading
import time
from pathlib import Path
from typing import Any

from esper_motion.demos.scene import build_scene
from esper_motion.ecs import IntentError, watch
from esper_motion.studies import study
from esper_motion.studies.runs import final_fields, run_one
from esper_motion.studies.scene import StudyScene, prepare, scene_text

SCENE = str(Path(__file__).parents[1] / "studies" / "cavalry_scripted.toml")
"""The cavalry charge of a script alone, no goal: what the study machinery costs, without the planner's search."""
TURNS = 8


def one_core(runs: int, repeats: int) -> dict[str, Any]:
    """Runs per CPU second in this process, and (lockstep, run by run on the same seeds) the same runs built and
    played as a demo plays a scene."""
    path, text = scene_text(SCENE)
    prepared = prepare(str(path), text, None, ())
    recorded = prepared.recorded()
    study_runs: list[float] = []
    demo_runs: list[float] = []
    building: list[float] = []
    for repeat in range(repeats):
        study_s = demo_s = build_s = 0.0
        for seed in range(repeat * runs, (repeat + 1) * runs):
            start = time.process_time()
            run_one(prepared, seed, TURNS, recorded)
            study_s += time.process_time() - start
            start = time.process_time()
            as_a_demo(prepared, seed, recorded)
            demo_s += time.process_time() - start
            watch.pause()  # as in a run (run_one)
            start = time.process_time()
            prepared.blueprint.build(seed, transactional=False).world.close()
            build_s += time.process_time() - start
            watch.resume()
        study_runs.append(study_s)
        demo_runs.append(demo_s)
        building.append(build_s)
    per_run = statistics.median(study_runs) / runs
    return {
        "runs_per_cpu_second": 1 / per_run,
        "ms_per_run": 1000 * per_run,
        "build_share": statistics.median(building) / statistics.median(study_runs),
        "runs_per_cpu_second_as_a_demo": runs / statistics.median(demo_runs),
        "study_speedup": statistics.median(demo_runs) / statistics.median(study_runs),
    }


def as_a_demo(prepared: StudyScene, seed: int, recorded: list[tuple[str, str, str]]) -> dict[str, Any]:
    """One run the way a demo builds and plays a scene: every check at the build (``build_scene``) and a world with
    the undo copy of every turn; the recorded fields read at the end."""
    scene = build_scene(prepared.spec, seed)
    for _ in range(TURNS):
        try:
            scene.step()
        except IntentError:
            break
    found = final_fields(scene, recorded)
    scene.world.close()
    return found


def timed(runs: int, **options: Any) -> dict[str, float]:
    """The wall time of one study of ``runs`` runs, start-up included; the CPU time it took here and in the
    processes it started (the pool's workers, which this process waits for; and every process running below this
    one while it runs, which Ray's are: read from ``/proc``, since Ray's outlive the study); and the load average
    of the minute before, which the other users of the machine make."""
    load = os.getloadavg()[0]
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    below = Below() if options.get("backend") == "ray" else None
    cpu = time.process_time()
    start = time.perf_counter()
    if below is not None:
        below.start()
    report = study(SCENE, runs, seed=1, turns=TURNS, **options)
    seconds = time.perf_counter() - start
    used = time.process_time() - cpu
    found = {"wall_s": seconds, "cpu_s": used, "load_before": load}
    if below is not None:
        below.stop()
        found["cpu_s"] += below.cpu_s()
        found["worker_cpu_s"] = below.cpu_s(workers_only=True)
    else:
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        found["cpu_s"] += (after.ru_utime + after.ru_stime) - (children.ru_utime + children.ru_stime)
    assert report.runs == runs
    return found


class Below(threading.Thread):
    """Reads the CPU time of every process below this one from ``/proc`` every ``every`` seconds until stopped,
    keeping each one's last reading: what a process used after the last reading is missed."""

    def __init__(self, every: float = 0.2) -> None:
        super().__init__(daemon=True)
        self.every = every
        self.seen: dict[tuple[int, int], tuple[str, float]] = {}  # (pid, start tick) -> (name, CPU seconds)
        self._done = threading.Event()

    def run(self) -> None:
        while not self._done.wait(self.every):
            self.seen.update(_below(os.getpid()))
        self.seen.update(_below(os.getpid()))

    def stop(self) -> None:
        self._done.set()
        self.join()

    def cpu_s(self, *, workers_only: bool = False) -> float:
        """The CPU seconds read, of every process or of Ray's workers only (named ``ray::...``)."""
        return sum(cpu for name, cpu in self.seen.values() if not workers_only or name.startswith("ray::"))


def _below(root: int) -> dict[tuple[int, int], tuple[str, float]]:
    """Every process below ``root`` now: (pid, start tick) -> (its name, its CPU seconds so far)."""
    ticks = os.sysconf("SC_CLK_TCK")
    parent: dict[int, int] = {}
    read: dict[int, tuple[int, str, float]] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat") as stat, open(f"/proc/{entry.name}/cmdline", "rb") as line:
                text, command = stat.read(), line.read().split(b"\0")[0].decode(errors="replace")
        except OSError:  # gone meanwhile
            continue
        fields = text[text.rindex(")") + 2 :].split()  # the name in brackets may hold spaces
        pid = int(entry.name)
        parent[pid] = int(fields[1])
        read[pid] = (int(fields[19]), command, (int(fields[11]) + int(fields[12])) / ticks)
    found = {}
    for pid, (started, command, cpu) in read.items():
        above = parent.get(pid, 0)
        while above not in (0, 1, root):
            above = parent.get(above, 0)
        if above == root:
            found[pid, started] = (command, cpu)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20_000, help="runs for the worker and Ray comparisons")
    parser.add_argument("--core-runs", type=int, default=500, help="runs per repetition on one core")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=2, help="rounds of one worker and two, taken in turn")
    parser.add_argument("--skip-ray", action="store_true")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    found: dict[str, Any] = {"scene": SCENE, "turns": TURNS, "runs": args.runs, "cpus": os.cpu_count()}
    found["one_core"] = one_core(args.core_runs, args.repeats)
    rounds: dict[int, list[dict[str, float]]] = {1: [], 2: []}
    for round_ in range(args.rounds):
        for workers in (1, 2) if round_ % 2 == 0 else (2, 1):
            rounds[workers].append(timed(args.runs, workers=workers))
    found["local"] = {
        "one_worker": rounds[1],
        "two_workers": rounds[2],
        "two_over_one_throughput": statistics.median(
            one["wall_s"] / two["wall_s"] for one, two in zip(rounds[1], rounds[2], strict=True)
        ),
    }
    two = min(rounds[2], key=lambda each: each["wall_s"])
    if not args.skip_ray:
        on_ray = timed(args.runs, backend="ray", workers=2)
        found["ray"] = {**on_ray, "ray_over_local": on_ray["wall_s"] / two["wall_s"]}
    if args.json:
        print(json.dumps(found, indent=2))
        return
    core = found["one_core"]
    print(f"{SCENE}, {TURNS} turns, {os.cpu_count()} CPUs")
    print(
        f"one core: {core['runs_per_cpu_second']:.0f} runs per CPU second ({core['ms_per_run']:.2f} ms a run, "
        f"{100 * core['build_share']:.0f}% of it building the scene); built and played as a demo plays a scene "
        f"{core['runs_per_cpu_second_as_a_demo']:.0f} ({core['study_speedup']:.2f} times slower)"
    )
    local = found["local"]
    for label, key in (("one worker", "one_worker"), ("two workers", "two_workers")):
        for each in local[key]:
            print(
                f"{args.runs} runs, {label}: {each['wall_s']:.1f} s wall, {each['cpu_s']:.1f} s CPU "
                f"(load average before: {each['load_before']:.1f})"
            )
    print(
        f"two workers: {local['two_over_one_throughput']:.2f} times the throughput of one (wall time, the median "
        f"of {args.rounds} rounds)"
    )
    if "ray" in found:
        ray = found["ray"]
        print(
            f"ray, two CPUs: {ray['wall_s']:.1f} s wall (load average before: {ray['load_before']:.1f}), "
            f"{ray['ray_over_local']:.2f} times two local workers' quickest; {ray['cpu_s']:.1f} s CPU, "
            f"{ray['worker_cpu_s']:.1f} of it in Ray's workers"
        )


if __name__ == "__main__":
    main()

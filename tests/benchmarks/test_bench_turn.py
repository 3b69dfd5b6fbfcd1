"""The turn benchmark's own machinery, at a size that takes a second: its driver keeps the workload steady, and its
lockstep comparison and figures run. (The benchmark itself is run by hand, never as a timed test.)"""

from __future__ import annotations

import statistics

from benchmarks import bench_turn


def test_the_driver_keeps_the_world_from_running_down() -> None:
    world = bench_turn.build(400, transactional=False)
    driver = bench_turn.Driver(world)
    shares, paths = [], []
    for _ in range(30):
        driver.revive()
        world.step()
        share, path = driver.movers()
        shares.append(share)
        paths.append(path)
    assert statistics.fmean(shares[-10:]) > 0.9 * statistics.fmean(shares[:10]) > 0.5
    assert statistics.fmean(paths[-10:]) > 0.9 * statistics.fmean(paths[:10]) > 5


def test_the_floor_keeps_walking_and_its_occupied_hexes_up_to_date() -> None:
    world = bench_turn.build(400, transactional=False)
    floor = bench_turn.Floor(world)
    for _ in range(30):
        floor.turn()
    assert statistics.fmean(floor.walked[-10:]) > 0.9 * statistics.fmean(floor.walked[:10]) > 5
    held: dict[tuple[int, int], int] = {}
    for _, (position,) in world.query(bench_turn.Position):
        assert 0 <= position.q < floor.side and 0 <= position.r < floor.side
        held[position.hex] = held.get(position.hex, 0) + 1
    assert floor.occupied == held


def test_lockstep_steps_each_variant_alike() -> None:
    timings = bench_turn.lockstep(["plain", "default"], 200, 3, warm=1)
    assert set(timings) == {"plain", "default"}
    for timing in timings.values():
        assert len(timing.cpu) == len(timing.wall) == len(timing.fast) == 3
    assert timings["plain"].fast == timings["default"].fast  # the same seed, the same turns
    assert timings["plain"].path == timings["default"].path


def test_measure_gives_every_figure() -> None:
    row = bench_turn.measure(300, transactional=False, repeats=1, turns=1)
    assert row["turn_over_floor"] == row["turn_cpu_us_per_entity"] / row["floor_cpu_us_per_entity"]
    assert 0 < row["high_speed_share"] <= 1 and row["mean_path_yd"] > 0
    assert row["floor_hexes_first"] > 5 and row["turn_hexes_last"] > 5
    assert row["game_writes_ratio"] > 0 and row["structural_churn_ratio"] > 0


def test_runner_bytes_are_counted_after_turns() -> None:
    spawned, after, peak = bench_turn.runner_bytes(200, 2)
    assert after > spawned > 0 and peak > 0

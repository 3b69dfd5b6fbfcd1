"""The spatial index through a step: refreshed by the walk, then kept up to date by the systems that move bodies
(:func:`esper_motion.systems.gurps.shared.spatial.walked_index`), never read from the whole world again in that
step unless a game's own system runs in it."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from support.worlds import fingerprint, mixed_world, plan_turn, step_refusing

from esper_motion.components import Position
from esper_motion.ecs import Phase, System, World
from esper_motion.systems.gurps import Rules
from esper_motion.systems.gurps.shared import spatial
from esper_motion.systems.gurps.shared.spatial import SpatialIndex, shared_index


def layout(index: SpatialIndex) -> tuple[object, ...]:
    """What ``index`` files where: the bodies on each hex (in no order), each body's hexes, the counts of what each
    hex holds, the obstacles and footing tiles on each hex, and the riders it leaves unfiled."""
    bodies = {hex: sorted(entity for entity, _, _ in index._on(hex)) for hex in index._bodies}
    filed = {entity: index.hexes_of(entity) for entity in index._at}
    obstacles = {hex: sorted(entity for entity, _, _ in rows) for hex, rows in index._obstacles.items()}
    footing = {hex: tile[0] for hex, tile in index._footing.items()}
    return bodies, filed, dict(index._occupied), obstacles, footing, set(index._riders)


def rebuilt(world: World) -> tuple[object, ...]:
    fresh = SpatialIndex()
    fresh.rebuild(world)
    return layout(fresh)


def refreshing_every_run(world: World, index: SpatialIndex) -> None:
    """The index read from the whole world at every system run that asks for it, as before."""
    index.refresh(world)


@pytest.mark.parametrize("rules", [Rules.basic(), Rules.house()], ids=["basic", "house"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_step_with_the_index_kept_ends_as_one_refreshing_it_at_every_run(
    rules: Rules, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    kept, cast = mixed_world(seed, 6, rules)
    every, _ = mixed_world(seed, 6, rules)  # the same entities: the cast is the same
    original = World._run_system
    behind: list[str] = []

    def checked(world: World, system: System) -> None:
        original(world, system)
        index = spatial._find_index(world)
        walked = index is not None and index.kept is world.per_turn(spatial.walked_index, object)
        if world is kept and index is not None and walked and layout(index) != rebuilt(world):
            behind.append(f"turn {world.turn}: {type(system).__name__} left the index behind the world")

    bring = spatial._bring_up_to_date
    for turn in range(10):
        plan_turn(kept, cast, random.Random(seed * 100 + turn))
        plan_turn(every, cast, random.Random(seed * 100 + turn))
        monkeypatch.setattr(World, "_run_system", checked)
        monkeypatch.setattr(spatial, "_bring_up_to_date", bring)
        step_refusing(kept)
        monkeypatch.setattr(World, "_run_system", original)
        monkeypatch.setattr(spatial, "_bring_up_to_date", refreshing_every_run)
        step_refusing(every)
        assert fingerprint(kept) == fingerprint(every), f"turn {turn}"
    assert behind == []


def counting_refreshes(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the index's reads of the whole world (:meth:`SpatialIndex.refresh`) from now on."""
    counted: list[int] = []
    refresh: Callable[[SpatialIndex, World], None] = SpatialIndex.refresh

    def counting(index: SpatialIndex, world: World) -> None:
        counted.append(world.turn)
        refresh(index, world)

    monkeypatch.setattr(SpatialIndex, "refresh", counting)
    return counted


class AskAfterTheWalk(System):
    """A system of the library's phases asking for the shared index after the walk, as the rules do (a game's own
    system here: ``trusted`` set by the test)."""

    phase = Phase.MOUNTED

    def run(self) -> None:
        shared_index(self.world)


def test_after_the_walk_the_library_asks_for_the_index_without_reading_the_world_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    world, _ = mixed_world(1, 2, Rules.basic())
    asking = AskAfterTheWalk()
    monkeypatch.setattr(asking, "trusted", True)
    world.add_system(asking)
    counted = counting_refreshes(monkeypatch)
    world.step()
    assert counted == [0]  # the walk's refresh only


def test_a_game_system_in_the_step_has_the_index_read_again(monkeypatch: pytest.MonkeyPatch) -> None:
    world, cast = mixed_world(1, 2, Rules.basic())
    runner = cast.runners[0]
    asked: list[tuple[tuple[int, int], ...]] = []

    class MovesARunner(System):
        phase = Phase.COMBAT

        def run(self) -> None:
            position = self.world.get(runner, Position)
            position.q += 40  # far from everything: the rules' index is not told

    class Asks(System):
        phase = Phase.MOUNTED

        def run(self) -> None:
            asked.append(shared_index(self.world).hexes_of(runner))

    world.add_system(MovesARunner())
    world.add_system(Asks())
    counted = counting_refreshes(monkeypatch)
    world.step()
    assert len(counted) >= 2  # the walk's, and again once the game's system has run
    assert asked == [(world.get(runner, Position).hex,)]

"""Bad input and faults, part 4: despawning any entity at any time never crashes a later step.

What is supported, and tested here:

- ``World.despawn`` between steps: the entity is gone at once; the next step's rules deal with whatever named it
  (a rider whose mount is gone falls off, a chase whose runner is gone ends, a collision with an obstacle that is
  gone is forgotten when the next turn opens).
- ``World.despawn`` from an event handler (``World.on`` or ``esper.set_handler``): handlers run once the turn is
  over, so the entity is gone at once, as between steps.
- ``World.despawn`` from a game's own esper processor inside the turn band (at a phase's priority): the removal is
  queued and made after the turn's last phase (docs/architecture.md > Performance), so the entity still takes its part
  in the rest of that turn (a collision already under way is still resolved) and is gone when the step returns.

Not supported: calling ``esper.delete_entity`` yourself inside the turn band. The systems of the phases left keep
references to the entity (the spatial index, a ``Control.struck``, a rider's mount) and fail on the missing
components; use ``World.despawn``, which queues the removal. Between steps the two are the same.

A world whose links dangle (a rider whose mount was just despawned) cannot be saved until a step has let the
rules unseat the rider (:mod:`esper_motion.ecs.persist`); that is tested here too.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import esper
import pytest
from support import gurps_world, in_phase
from support.mounted import mounted_pair, spawn_horse, spawn_rider
from support.worlds import chase_world, link_problems, mixed_world, plan_round, plan_turn, step_refusing

from esper_motion.components import (
    Atmosphere,
    Condition,
    Control,
    Facing,
    Flight,
    FlightIntent,
    FlightMode,
    Intent,
    Mobility,
    Mount,
    Mover,
    MoveState,
    Obstacle,
    Position,
    Posture,
    Rider,
    RoundIntent,
    RoundState,
    Velocity,
)
from esper_motion.ecs import Phase, SaveError, System, World
from esper_motion.systems.gurps import install, preview
from esper_motion.systems.gurps.events import Collided, FellOff, MountingAbandoned, Moved, Stalled
from esper_motion.systems.gurps.mounted.mounting import mount_up
from esper_motion.systems.spelljammer import install as install_spelljammer
from esper_motion.systems.spelljammer.events import ChaseEnded


def gurps(seed: int = 3) -> World:
    world = World(seed=seed)
    install(world)
    return world


def runner(world: World, *, at: tuple[int, int] = (0, 0), velocity: int = 0, facing: int = 0, **stats: Any) -> int:
    """A runner (Basic Move 5 unless told otherwise), at high speed above it."""
    stats.setdefault("basic_move", 5)
    state = MoveState.HIGH_SPEED if velocity > stats["basic_move"] else MoveState.NORMAL
    return world.spawn(
        Position(*at),
        Facing(facing),
        Velocity(velocity, heading=facing),
        Mover(**stats),
        Control(state=state),
        Intent(),
        Condition(),
        Posture(),
    )


class DespawnOnce(System):
    """A game's own part of the turn that despawns ``entity`` through the World the first time it runs."""

    def __init__(self, entity: int) -> None:
        super().__init__()
        self.entity, self.exists_after = entity, True

    def run(self) -> None:
        """Despawn the entity once, and note whether it still exists for the rest of the turn."""
        if self.world.exists(self.entity):
            self.world.despawn(self.entity)
            self.exists_after = self.world.exists(self.entity)


# --- A mount under its rider ---------------------------------------------------------------------------------


def test_a_mount_despawned_under_its_rider_at_a_gallop_throws_it_and_the_world_steps_on(tmp_path: Path) -> None:
    world = gurps_world()
    horse, rider = mounted_pair(world, velocity=14, state=MoveState.HIGH_SPEED)
    world.step()
    world.despawn(horse)
    with pytest.raises(SaveError, match=f"links to entity {horse}, which does not exist"):
        world.save(tmp_path / "dangling.json")
    events = world.step()
    assert [(e.rider, e.mount, e.cause) for e in events if isinstance(e, FellOff)] == [
        (rider, horse, "the mount is gone")
    ]
    assert world.get(rider, Rider).mount is None
    assert world.get(rider, Control).carried_by is None
    world.step(3)
    world.save(tmp_path / "after.json")  # the rules have unseated the rider: the world saves again


def test_a_mount_despawned_mid_turn_by_a_game_processor_carries_its_rider_to_the_end_of_the_turn() -> None:
    world = gurps_world()
    horse, rider = mounted_pair(world, velocity=8)
    despawner = DespawnOnce(horse)
    in_phase(world, despawner, Phase.MOVEMENT)
    events = world.step()
    assert despawner.exists_after  # queued: the horse finishes its turn, and the rider is carried with it
    assert [e.path[-1] for e in events if isinstance(e, Moved) and e.entity == horse] == [(8, 0)]
    assert not world.exists(horse)
    events = world.step()
    assert [e.rider for e in events if isinstance(e, FellOff)] == [rider]
    assert link_problems(world) == []


def test_a_mount_despawned_while_its_rider_climbs_on_abandons_the_mounting() -> None:
    world = gurps_world()
    horse = spawn_horse(world)
    rider = spawn_rider(world, at=(0, 1))
    mount_up(world, rider, horse)
    world.step()
    assert world.get(rider, Rider).climbing_onto == horse
    world.despawn(horse)
    events = world.step()
    assert [(e.rider, e.mount) for e in events if isinstance(e, MountingAbandoned)] == [(rider, horse)]
    assert world.get(rider, Rider).climbing_onto is None


def test_a_rider_despawned_from_its_mount_frees_the_seat_for_another() -> None:
    world = gurps_world()
    horse, rider = mounted_pair(world)
    world.despawn(rider)
    world.step()
    assert world.get(horse, Mount).riders == []
    other = spawn_rider(world, at=(0, 1))
    mount_up(world, other, horse)
    world.step()
    mount_up(world, other, horse)
    world.step()
    assert world.get(horse, Mount).riders == [other]


# --- Obstacles and bodies in the way -------------------------------------------------------------------------


def test_an_obstacle_the_path_would_hit_despawned_before_the_step_is_simply_not_there() -> None:
    world = gurps()
    wall = world.spawn(Position(4, 0), Obstacle())
    fast = runner(world, velocity=8)
    assert preview(world, fast).runs_into == wall
    world.despawn(wall)
    assert preview(world, fast).runs_into is None
    events = world.step()
    assert not [e for e in events if isinstance(e, Collided)]
    assert world.get(fast, Position).hex == (8, 0)


def test_an_obstacle_despawned_right_after_a_collision_is_forgotten_when_the_next_turn_opens() -> None:
    world = gurps()
    wall = world.spawn(Position(4, 0), Obstacle())
    fast = runner(world, velocity=8)
    world.dice.script(1, 1, 1, 1, 1, 1, 1, 1)
    events = world.step()
    assert [(e.entity, e.struck) for e in events if isinstance(e, Collided)] == [(fast, wall)]
    assert world.get(fast, Control).struck == wall
    world.despawn(wall)
    preview(world, fast)
    world.get(fast, Intent).throttle = 5  # from rest: 5 yards at once (ordinary movement), through where it stood
    world.step()
    assert world.get(fast, Control).struck is None
    assert world.get(fast, Position).hex == (8, 0)


def test_an_obstacle_despawned_mid_turn_by_a_game_processor_is_still_run_into_that_turn() -> None:
    world = gurps()
    wall = world.spawn(Position(4, 0), Obstacle())
    fast = runner(world, velocity=8)
    in_phase(world, DespawnOnce(wall), Phase.MOVEMENT)  # after the walk, before the COLLISION phase
    world.dice.script(1, 1, 1, 1, 1, 1, 1, 1)
    events = world.step()
    assert [(e.entity, e.struck) for e in events if isinstance(e, Collided)] == [(fast, wall)]
    assert not world.exists(wall)
    world.get(fast, Intent).throttle = 5  # from rest beside where the wall stood: 5 yards at once, on through
    world.step()
    assert world.get(fast, Position).hex == (8, 0)


@pytest.mark.parametrize("hook", ["World.on", "esper.set_handler"])
def test_both_sides_of_a_collision_despawned_by_its_handler(hook: str) -> None:
    world = gurps()
    fast = runner(world, velocity=10)
    lying = runner(world, at=(5, 0))
    world.get(lying, Condition).conscious = False  # it cannot dodge out of the way
    bystander = runner(world, at=(0, 4), velocity=4)

    def despawn_both(event: Collided) -> None:
        for entity in (event.entity, event.struck):
            if world.exists(entity):
                world.despawn(entity)

    try:
        if hook == "World.on":
            world.on(Collided, despawn_both)
        else:
            esper.set_handler(Collided.esper_name, despawn_both)
        events = world.step()
        assert [(e.entity, e.struck) for e in events if isinstance(e, Collided)] == [(fast, lying)]
        assert (world.exists(fast), world.exists(lying)) == (False, False)
        world.step(3)
        assert world.get(bystander, Position).hex == (16, 4)
    finally:
        if hook == "esper.set_handler":
            esper.remove_handler(Collided.esper_name, despawn_both)


# --- A flier mid-stall -------------------------------------------------------------------------------------


def falling_flier(world: World, altitude_yd: float = 40.0) -> int:
    return world.spawn(
        Position(0, 0, altitude_yd=altitude_yd),
        Facing(0),
        Velocity(1),
        Mover(basic_move=5, dx=12, hp=10),
        Condition(),
        Control(),
        Intent(),
        Flight(air_move=12, mode=FlightMode.CANNOT_HOVER),
        FlightIntent(),
    )


def test_a_flier_despawned_by_the_handler_of_its_own_stall() -> None:
    world = gurps()
    flier = falling_flier(world)
    other = falling_flier(world, altitude_yd=60.0)
    world.on(Stalled, lambda event: world.despawn(event.entity) if event.entity == flier else None)
    events = world.step()
    assert {e.entity for e in events if isinstance(e, Stalled)} == {flier, other}
    assert not world.exists(flier)
    world.step(3)
    assert world.get(other, Position).altitude_yd < 60.0


def test_the_scene_air_despawned_mid_flight_leaves_standard_air() -> None:
    world = gurps()
    air = world.spawn(Atmosphere("thin", 0.5))
    flier = falling_flier(world)
    world.get(flier, Flight).mode = FlightMode.HOVER
    world.step()
    world.despawn(air)
    world.get(flier, FlightIntent).climb_yd = 2
    world.step()
    assert world.get(flier, Position).altitude_yd == 42.0


# --- A chase ---------------------------------------------------------------------------------------------


def test_a_runner_despawned_mid_round_by_a_game_processor_is_still_chased_that_round() -> None:
    world = World(seed=2)
    install_spelljammer(world)
    runner_id = world.spawn(Mobility(tmr=9, dex=14), RoundIntent(heading=0), RoundState(), Position(0, 0))
    middle = world.spawn(Mobility(tmr=12, dex=14), RoundIntent(chase=runner_id), RoundState(), Position(-6, 0))
    last = world.spawn(Mobility(tmr=12, dex=14), RoundIntent(chase=middle), RoundState(), Position(-12, 0))
    in_phase(world, DespawnOnce(runner_id), Phase.INTENT)
    world.step()
    assert not world.exists(runner_id)
    events = world.step()
    assert [e for e in events if isinstance(e, ChaseEnded)] == [ChaseEnded(middle, runner_id, "the runner is gone")]
    assert world.get(middle, RoundIntent).chase is None
    assert world.get(last, RoundIntent).chase == middle


def test_busy_worlds_lose_a_random_entity_every_turn_and_step_on() -> None:
    """One entity of every kind despawned between steps in a busy world, and character after character in a chase
    world, turn after turn (``faults/test_properties`` does it at random, mid-turn and from handlers too)."""
    world, cast = mixed_world(seed=8, groups=3)
    rng = random.Random(8)
    for kind in cast.kinds().values():
        plan_turn(world, cast, rng)
        world.despawn(kind[0])
        step_refusing(world)
        assert link_problems(world) == []
    chase, characters = chase_world(seed=8, characters=8, zones=2)
    for character in characters[:6]:
        plan_round(chase, characters, rng)
        chase.despawn(character)
        chase.step()
    assert len(chase.entities()) == 2 + 2

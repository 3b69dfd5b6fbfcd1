"""GURPS regressions: one test per rule a fault found the library breaking, named after the rule.

Each reproduces the fault's own scene (a small world with no window, dice scripted) and checks what the rule, as
the library reads it, gives instead. The readings are in the docstrings of the systems named.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from support import gurps_world, of_type
from support.highspeed import mover

from esper_motion.components import (
    Condition,
    Control,
    Facing,
    Flight,
    FlightIntent,
    FlightMode,
    Intent,
    Maneuver,
    Mover,
    MoveState,
    Obstacle,
    Position,
    Rider,
    Skills,
    Velocity,
)
from esper_motion.components.mount import Mount
from esper_motion.ecs import Event, IntentError, Phase, RollMade, SuccessRoll, System, World
from esper_motion.systems.gurps import Rules, preview
from esper_motion.systems.gurps.events import (
    Collided,
    Dismounted,
    DodgedAside,
    FallDamage,
    FellClear,
    FellOff,
    Landed,
    ObstacleCrossed,
    Stalled,
    VelocityChanged,
)
from esper_motion.systems.gurps.mounted.common import seat
from esper_motion.systems.gurps.mounted.mount_control import apply_loss_row
from esper_motion.systems.gurps.mounted.mounted_results import rider_stunned
from esper_motion.systems.gurps.mounted.mounting import dismount
from esper_motion.systems.gurps.shared.figure import occupied_hexes
from esper_motion.systems.gurps.shared.spatial import SpatialIndex, shared_index


def horse(world: World, *, at: tuple[int, int] = (0, 0), facing: int = 0, velocity: int = 0, **control: Any) -> int:
    """A horse: 3 hexes, its front on ``at``, the rest behind it."""
    return mover(
        world,
        at=at,
        facing=facing,
        velocity=velocity,
        basic_move=8,
        hp=25,
        size_modifier=1,
        enhanced=True,
        top_speed=16,
        extra=(Mount(),),
        **control,
    )


def rolls(events: list[Event]) -> list[tuple[int, str, int]]:
    """(entity, purpose, target or total) of every roll, in order."""
    return [
        (
            event.entity,
            event.purpose,
            event.result.target if isinstance(event.result, SuccessRoll) else event.result.total,
        )
        for event in of_type(events, RollMade)
    ]


def knocked_out(world: World, entity: int) -> int:
    world.get(entity, Condition).conscious = False  # cannot dodge: whatever runs into it collides
    return entity


# --- Basic Set: Mounted Combat > Mounting Up: a horse fills three hexes ---------------------------------------


def test_mounting_up_a_horse_fills_three_hexes_so_a_runner_meets_its_hindquarters() -> None:
    """The fault: a runner at (-5, 0) doing 4 yd/s east ended on (-1, 0), inside a horse whose front hex is (0, 0),
    because only the front hex was a body to the collision rules."""
    world = gurps_world(seed=11)
    steed = knocked_out(world, horse(world))
    runner = mover(world, at=(-5, 0), velocity=4)
    assert occupied_hexes(world, steed) == ((0, 0), (-1, 0), (-2, 0))
    world.dice.script(1, 1, 1, 1)  # collision damage: 1d-2 each way at 4 yd/s (HP 10 and 25)
    events = world.step()
    [hit] = of_type(events, Collided)
    assert (hit.entity, hit.struck, hit.at) == (runner, steed, (-3, 0))
    assert world.get(runner, Position).hex == (-3, 0)


def test_mounting_up_a_veering_horse_sweeps_its_whole_body_sideways() -> None:
    """Direction and Turning Radius: a walker entering a front hex without changing facing moves its whole body
    over; the hindquarters' new hex holds a body, so the horse runs into it and stays where it was."""
    world = gurps_world(seed=11)
    steed = horse(world, velocity=4, intent=Intent(veer=(1,)))
    bystander = knocked_out(world, mover(world, at=(-2, 1)))  # beside the horse's last hex, where it would go
    world.dice.script(1, 1, 1, 1)
    events = world.step()
    [hit] = of_type(events, Collided)
    assert (hit.entity, hit.struck, hit.at) == (steed, bystander, (0, 0))
    assert occupied_hexes(world, steed) == ((0, 0), (-1, 0), (-2, 0))


def test_mounting_up_a_turning_horse_swings_its_body_round_its_front() -> None:
    """A 60-degree turn swings the hexes behind the front; a body where they would swing stops the horse, which
    does not turn."""
    world = gurps_world(seed=11)
    steed = horse(world, velocity=3, intent=Intent(turn=1))
    bystander = knocked_out(world, mover(world, at=(0, -2)))  # behind the front once the horse faces direction 1
    world.dice.script(1, 1, 1, 1)
    events = world.step()
    [hit] = of_type(events, Collided)
    assert (hit.entity, hit.struck) == (steed, bystander)
    assert world.get(steed, Facing).direction == 0
    assert world.get(steed, Position).hex == (0, 0)


# --- Basic Set: High-Speed Movement > Direction and Turning Radius: what dodges gets out of the way -----------


def test_direction_and_turning_radius_a_body_that_dodges_steps_out_of_the_way() -> None:
    """The fault: a mover at (0, 0) going 5 yd/s east and a body at (5, 0) that dodged (roll 3) both ended on
    (5, 0). The body that dodges out of the way steps aside, beside the path behind the mover's front."""
    world = gurps_world(seed=11)
    runner = mover(world, velocity=5, basic_speed=6.0)
    bystander = mover(world, at=(5, 0), basic_speed=5.0)
    world.dice.script(1, 1, 1)  # Dodge 8: 3 succeeds
    events = world.step()
    assert rolls(events) == [(bystander, "dodge out of the way of entity 1", 8)]
    assert of_type(events, DodgedAside) == [DodgedAside(bystander, runner, (5, 0), (4, 1))]
    assert world.get(runner, Position).hex == (5, 0)
    assert world.get(bystander, Position).hex == (4, 1)


def test_direction_and_turning_radius_a_body_with_nowhere_to_go_cannot_dodge_out_of_the_way() -> None:
    """Hemmed in by walls on every hex it could step to, the body cannot get out of the way: no roll, a
    collision."""
    world = gurps_world(seed=11)
    runner = mover(world, velocity=5, basic_speed=6.0)
    bystander = mover(world, at=(5, 0), basic_speed=5.0)
    for wall in ((4, 1), (5, -1), (5, 1), (6, -1), (6, 0)):
        world.spawn(Position(*wall), Obstacle(height_yd=3.0))
    world.dice.script(1, 1, 1, 1)  # collision damage only
    events = world.step()
    assert [purpose for _, purpose, _ in rolls(events)] == [
        "collision damage from entity 2",
        "collision damage from entity 1",
    ]
    [hit] = of_type(events, Collided)
    assert (hit.entity, hit.struck, hit.at) == (runner, bystander, (4, 0))
    assert world.get(bystander, Position).hex == (5, 0)


# --- Basic Set: Mounted Combat > Movement and Maneuvers: getting off, falling off -----------------------------


def seated_rider(world: World, steed: int, **stats: Any) -> int:
    """A rider (Riding 12) seated on ``steed``."""
    rider = mover(world, at=(5, 5), extra=(Rider(), Skills({"Riding": 12})), **stats)
    seat(world, rider, steed)
    return rider


def test_movement_and_maneuvers_a_rider_steps_down_beside_the_seat_where_nobody_stands() -> None:
    """The fault: getting off landed the rider on whoever stood beside the seat. The mount's left is taken, so the
    rider steps down on its right."""
    world = gurps_world(seed=11)
    steed = horse(world)
    rider = seated_rider(world, steed)
    mover(world, at=(-2, 1))  # on the horse's left, beside the seat (-1, 0)
    dismount(world, rider)
    events = world.step()
    assert of_type(events, Dismounted) == [Dismounted(rider, steed, "stepped down", (-1, -1))]
    assert world.get(rider, Position).hex == (-1, -1)


def test_movement_and_maneuvers_no_stepping_down_into_a_crowd() -> None:
    """Every hex beside the seat is taken: there is nowhere to step down to, and the request says so."""
    world = gurps_world(seed=11)
    steed = horse(world)
    rider = seated_rider(world, steed)
    for spot in ((-2, 1), (-1, -1), (-1, 1), (0, -1)):
        mover(world, at=spot)
    with pytest.raises(IntentError, match=r"Rider\.action = 'dismount': a clear hex beside the seat"):
        dismount(world, rider)


def test_mounted_combat_results_a_rider_falling_off_lands_clear_of_those_round_the_horse() -> None:
    """A stunned rider fails its Riding-4 and falls off; every hex beside the seat is taken, so it is thrown clear,
    to the nearest clear hex round the seat (the first of the ring two hexes out), and takes its fall there."""
    world = gurps_world(seed=11)
    steed = horse(world)
    rider = seated_rider(world, steed)
    for spot in ((-2, 1), (-1, -1), (-1, 1), (0, -1)):
        mover(world, at=spot)
    rider_stunned(world, rider)
    world.dice.script(6, 6, 6)  # Riding-4 fails
    events = world.step()
    [fell] = of_type(events, FellOff)
    assert (fell.rider, fell.at) == (rider, (-1, -2))
    assert world.get(rider, Position).hex == (-1, -2)
    assert of_type(events, FallDamage)[0].entity == rider


# --- Basic Set: Flying Combat > Aerial Movement > Changing Height; Cannot Hover: fliers coming down ------------


def flier(world: World, *, altitude_yd: float, mode: FlightMode = FlightMode.HOVER) -> int:
    """A human flier (Move 5, DX 12, HP 10, air Move 12) over (0, 0)."""
    return world.spawn(
        Position(0, 0, altitude_yd),
        Facing(0),
        Velocity(0),
        Mover(basic_move=5, dx=12, hp=10),
        Condition(),
        Control(),
        Intent(),
        Flight(air_move=12, mode=mode, top_airspeed=20),
        FlightIntent(),
    )


def test_changing_height_a_flier_does_not_descend_onto_a_body() -> None:
    """The fault: a hovering flier 3 yd above a runner descended 3 yd, and both stood on (0, 0). A descent that
    would run into a body is refused, and the world stays as it was."""
    world = gurps_world(seed=11)
    hawk = flier(world, altitude_yd=3.0)
    runner = mover(world)
    world.get(hawk, FlightIntent).climb_yd = -3
    with pytest.raises(IntentError, match=rf"FlightIntent\.climb_yd = -3: .*runs into entity {runner}, from 0 to 2 yd"):
        world.step()
    assert world.get(hawk, Position).altitude_yd == 3.0
    world.get(hawk, FlightIntent).climb_yd = -1  # to 2 yd: just clear of the runner's head
    world.step()
    assert world.get(hawk, Position).altitude_yd == 2.0


def test_cannot_hover_a_stalled_flier_falling_onto_a_body_collides_with_it() -> None:
    """Falling is a collision with the ground; a stalled flier 3 yd up that comes down onto a runner collides with
    the runner instead, at the velocity of the 1 yd it fell to the runner's head (5 yd/s: 1d-2 each way), and
    ends on the ground beside it."""
    world = gurps_world(seed=11)
    glider = flier(world, altitude_yd=3.0, mode=FlightMode.CANNOT_HOVER)  # at rest: it stalls at once
    runner = knocked_out(world, mover(world))
    world.dice.script(4, 5)  # 1d-2 for each
    events = world.step()
    assert of_type(events, Stalled)
    [hit] = of_type(events, Collided)
    assert (hit.entity, hit.struck, hit.at, hit.kind, hit.velocity_yps) == (glider, runner, (0, 0), "from above", 5)
    assert (hit.damage_taken, hit.injury_taken, hit.damage_dealt, hit.injury_dealt) == ("1d-2", 2, "1d-2", 3)
    assert of_type(events, FellClear) == [FellClear(glider, runner, (0, -1))]
    assert not of_type(events, Landed)
    assert world.get(glider, Position) == Position(0, -1, 0.0)
    assert not world.get(glider, Flight).stalled
    assert world.get(runner, Position).hex == (0, 0)


# --- Landing at speed (the texts are silent; the reading is in acceleration.VelocityChange) --------------------


@pytest.mark.parametrize(
    ("velocity", "dice", "forced", "rolled", "state"),
    [
        (6, (), 0, [], MoveState.HIGH_SPEED),
        (10, (), 4, [], MoveState.HIGH_SPEED),
        (14, (4, 4, 4), 8, [14], MoveState.HIGH_SPEED),
        (14, (6, 6, 6), 8, [14], MoveState.OUT_OF_CONTROL),
        (17, (), 11, [], MoveState.OUT_OF_CONTROL),
    ],
    ids=[
        "lands at its ground top speed 6 -> keeps it",
        "lands at 10, Basic Move 5 -> slowed 4 to 6, safe",
        "lands at 14 -> slowed 8: DX+3-1 = 14, made",
        "lands at 14 -> slowed 8: DX+3-1 failed, out of control at 6",
        "lands at 17 -> slowed 11, past twice Basic Move: out of control at 6",
    ],
)
def test_pushing_the_envelope_a_flier_landing_faster_than_it_runs_slows_to_its_ground_top_speed(
    velocity: int, dice: tuple[int, ...], forced: int, rolled: list[int], state: MoveState
) -> None:
    """The fault: a flier that landed at 10 yd/s with a ground top speed of 6 went on at 10 for ever, refused any
    acceleration. Landing, it is slowed to its ground top speed (Basic Move 5: sprinting, 6) as bad footing slows
    a runner (Tactical Movement), with a hasty deceleration's roll past Basic Move (Pushing the Envelope); the
    throttle up it asked for is not applied."""
    world = gurps_world(seed=11)
    hawk = flier(world, altitude_yd=1.0)
    world.get(hawk, Velocity).yps = velocity
    world.get(hawk, Control).state = MoveState.HIGH_SPEED if velocity > 12 else MoveState.NORMAL
    world.get(hawk, FlightIntent).climb_yd = -1
    world.get(hawk, Intent).throttle = 2 if velocity > 12 else 0
    world.dice.script(*dice)
    events = world.step()
    assert world.get(hawk, Position).altitude_yd == 0
    assert [target for _, purpose, target in rolls(events) if purpose == "hasty deceleration"] == rolled
    assert world.get(hawk, Velocity).yps == 6
    changes = of_type(events, VelocityChanged)
    assert [(change.to_yps, change.forced_yps) for change in changes] == ([(6, forced)] if forced else [])
    assert world.get(hawk, Control).state is state


# --- The preview knows a mount's orders (Mount Loss of Control Table, rows 6-7; House rules: Mounts) -----------


def test_mount_loss_of_control_table_the_preview_refuses_an_exhausted_mount_on_attack_as_the_step_does() -> None:
    """The fault: an exhausted mount on Attack passed the preview and was refused by the step."""
    world = gurps_world(seed=11)
    steed = horse(world)
    world.get(steed, Mount).exhausted = True
    world.get(steed, Intent).maneuver = Maneuver.ATTACK
    with pytest.raises(IntentError, match="an exhausted mount will not fight") as previewed:
        preview(world, steed)
    with pytest.raises(IntentError) as stepped:
        world.step()
    assert str(previewed.value) == str(stepped.value)


def test_mount_loss_of_control_table_the_preview_forecasts_the_throttle_an_exhausted_mount_takes() -> None:
    """An exhausted mount at 12 yd/s slows itself by its Basic Move 8 whatever it was told: the preview takes that
    throttle, not the +10 the game wrote (which alone would be refused), and so does the step."""
    world = gurps_world(seed=11)
    steed = horse(world, velocity=12, state=MoveState.HIGH_SPEED)
    world.get(steed, Mount).exhausted = True
    world.get(steed, Intent).throttle = 10
    assert preview(world, steed).rolls == ()  # slowing by 8, its Basic Move: safe, no roll
    world.step()
    assert world.get(steed, Velocity).yps == 4


@pytest.mark.parametrize(
    ("who", "maneuver", "message"),
    [
        ("mount", Maneuver.AIM, "a ridden mount takes Move, Move and Attack or Attack"),
        ("rider", Maneuver.MOVE, "a maneuver that does not move the rider"),
    ],
    ids=["a ridden mount on Aim", "a seated rider on Move"],
)
def test_house_mounts_the_preview_refuses_orders_a_ridden_mount_and_its_rider_may_not_take(
    who: str, maneuver: Maneuver, message: str
) -> None:
    """The fault: under the house rules a ridden mount's orders passed the preview and were refused by the step."""
    world = gurps_world(Rules.house(), seed=11)
    steed = horse(world)
    rider = seated_rider(world, steed)
    entity = steed if who == "mount" else rider
    world.get(entity, Intent).maneuver = maneuver
    with pytest.raises(IntentError, match=message) as previewed:
        preview(world, entity)
    with pytest.raises(IntentError) as stepped:
        world.step()
    assert str(previewed.value) == str(stepped.value)


def test_pushing_the_envelope_a_flier_does_not_speed_up_the_turn_it_lands() -> None:
    """Landing is a deceleration, and no throttle is added on top of it. A flier in ordinary flight at 4 yd/s with a
    throttle of +6 flies 4 + 6 = 10 yards this turn at once (within its air Move 12) and comes down; on the ground it
    goes no faster than its ground top speed of 6 (Move 5 + 20%, at least +1), so it is slowed by 10 - 6 = 4, within
    Basic Move 5 and safe, and ends at 6, at high speed on the ground (above Basic Move 5); nothing of the throttle is
    left to add at the end (wanted +0). (Before, the throttle waited for the end of the turn, where the landing kept
    it from applying, and the flier stayed at 4.)"""
    world = gurps_world(seed=11)
    hawk = flier(world, altitude_yd=1.0)
    world.get(hawk, Velocity).yps = 4
    world.get(hawk, FlightIntent).climb_yd = -1
    world.get(hawk, Intent).throttle = 6
    events = world.step()
    assert world.get(hawk, Position).altitude_yd == 0
    assert of_type(events, VelocityChanged) == [VelocityChanged(hawk, 4, 10, 6, 0), VelocityChanged(hawk, 10, 6, 0, 4)]
    assert world.get(hawk, Velocity).yps == 6
    assert world.get(hawk, Control).state is MoveState.HIGH_SPEED


@pytest.mark.parametrize(
    ("blocked", "facing"), [(False, 1), (True, 0)], ids=["room to turn -> faces the foe", "no room -> as it faced"]
)
def test_mount_loss_of_control_table_a_charging_horse_turns_only_with_room_to_swing(blocked: bool, facing: int) -> None:
    """Row 5, the mount charges toward the foe: it turns to face the foe first, unless its body would swing into a
    body, when it charges the way it faces."""
    world = gurps_world(seed=11)
    steed = horse(world)
    world.get(steed, Mount).threat = mover(world, at=(0, 5))
    if blocked:
        mover(world, at=(0, -1))  # behind the front once the horse faces direction 1
    apply_loss_row(world, steed, 5)
    assert world.get(steed, Mount).charging == "toward"
    assert world.get(steed, Facing).direction == facing


def test_mounting_up_the_index_refiles_a_horse_that_turned_or_moved_between_turns() -> None:
    """The index keeps every hex of a horse: after a game turns or moves it between turns, a refresh answers as a
    fresh rebuild does."""
    world = gurps_world(seed=11)
    steed = horse(world, at=(3, 3))
    index = SpatialIndex()
    index.refresh(world)
    assert index.hexes_of(steed) == ((3, 3), (2, 3), (1, 3))
    for facing, at in ((2, (3, 3)), (2, (5, 1)), (4, (0, 0))):
        before = index.hexes_of(steed)
        world.get(steed, Facing).direction = facing
        world.get(steed, Position).q, world.get(steed, Position).r = at
        index.refresh(world)
        rebuilt = SpatialIndex()
        rebuilt.rebuild(world)
        now = occupied_hexes(world, steed)
        assert index.hexes_of(steed) == rebuilt.hexes_of(steed) == now
        assert all(index.bodies_in_way(spot, 0, 0.0, 2.0) == [steed] for spot in now)
        assert all(index.bodies_in_way(spot, 0, 0.0, 2.0) == [] for spot in set(before) - set(now))


# --- Basic Set: High-Speed Movement > Direction and Turning Radius: a jump lands beyond the obstacle ------------


def fence(world: World, at: tuple[int, int]) -> int:
    return world.spawn(Position(*at), Obstacle(hp=20, hard=False, height_yd=1.0, crossable=True))


@pytest.mark.parametrize(
    ("velocity", "standing_beyond", "end", "jumped"),
    [(3, False, (3, 0), True), (2, False, (1, 0), False), (3, True, (1, 0), False)],
    ids=["the points to land: jumps", "no points to land: stops short", "someone on the landing hex: stops short"],
)
def test_direction_and_turning_radius_a_runner_jumps_only_with_somewhere_to_land(
    velocity: int, standing_beyond: bool, end: tuple[int, int], jumped: bool
) -> None:
    """The fault: a runner jumped a fence and, with no points left or a body on the hex beyond, ended its walk on
    top of the fence. A jump is tried only with the points to land past the obstacle on a hex where nothing
    stands; otherwise the runner stops short of it, with no roll."""
    world = gurps_world(seed=11)
    runner = mover(world, velocity=velocity, state=MoveState.HIGH_SPEED, basic_move=6)
    post = fence(world, (2, 0))
    if standing_beyond:
        knocked_out(world, mover(world, at=(3, 0)))
    world.dice.script(1, 1, 1)
    events = world.step()
    assert world.get(runner, Position).hex == end
    assert of_type(events, ObstacleCrossed) == ([ObstacleCrossed(runner, post, (2, 0))] if jumped else [])
    assert len(of_type(events, RollMade)) == (1 if jumped else 0)
    assert of_type(events, Collided) == []


def test_direction_and_turning_radius_a_horse_turning_in_place_does_not_jump_with_its_hindquarters() -> None:
    """The fault: a horse standing still turned two hexsides, its hindquarters swung onto a fence, "jumped" it
    and stayed on it. Only the front jumps: the swing is stopped by the fence and the horse does not turn."""
    world = gurps_world(seed=11)
    steed = horse(world, at=(6, 1), intent=Intent(turn=-2))
    post = fence(world, (6, 2))  # behind the front once the horse faces direction 4
    world.dice.script(1, 1, 1, 1, 1, 1)
    events = world.step()
    assert [roll.purpose for roll in of_type(events, RollMade) if "jump" in roll.purpose] == []
    assert [(hit.entity, hit.struck) for hit in of_type(events, Collided)] == [(steed, post)]
    assert world.get(steed, Facing).direction == 0
    assert (6, 2) not in occupied_hexes(world, steed)


# --- The shared spatial index inside a system's run ----------------------------------------------------------


class During(System):
    """A game's MOUNTED-phase system that does ``act(world)`` in its run and keeps what it returns."""

    phase = Phase.MOUNTED

    def __init__(self, act: Callable[[World], object]) -> None:
        super().__init__()
        self.act = act
        self.seen: object = None

    def run(self) -> None:
        self.seen = self.act(self.world)


def index_matches_a_rebuild(world: World, *entities: int) -> bool:
    """Whether the shared index, as a system in its run sees it, files ``entities`` as a fresh rebuild would."""
    rebuilt = SpatialIndex()
    rebuilt.rebuild(world)
    index = shared_index(world)
    return all(index.hexes_of(entity) == rebuilt.hexes_of(entity) for entity in entities)


def test_mount_loss_of_control_table_a_horse_turned_in_a_run_is_refiled_in_the_shared_index() -> None:
    """The index is brought up to date once per system run; a charging horse that turns in place (row 5) swings
    its body onto new hexes in the middle of a run, and the index follows it at once."""
    world = gurps_world(seed=11)
    steed = horse(world)
    world.get(steed, Mount).threat = mover(world, at=(0, 5))

    def charge(world: World) -> tuple[bool, bool]:
        before = index_matches_a_rebuild(world, steed)
        apply_loss_row(world, steed, 5)
        return before, index_matches_a_rebuild(world, steed)

    during = During(charge)
    world.add_system(during)
    world.step()
    assert world.get(steed, Facing).direction == 1  # it turned toward the foe
    assert during.seen == (True, True)


def test_mounting_up_a_rider_seated_in_a_run_leaves_the_shared_index() -> None:
    """A rider seated in the middle of a run is carried, not filed: the index drops it from its hex at once."""
    world = gurps_world(seed=11)
    steed = horse(world)
    rider = mover(world, at=(1, 0), extra=(Rider(), Skills({"Riding": 12})))

    def mount_up(world: World) -> tuple[list[int], list[int]]:
        before = shared_index(world).bodies_in_way((1, 0), 0, 0.0, 2.0)
        seat(world, rider, steed)
        return before, shared_index(world).bodies_in_way((1, 0), 0, 0.0, 2.0)

    during = During(mount_up)
    world.add_system(during)
    world.step()
    assert during.seen == ([rider], [])

"""Mounted Combat as the Basic Set writes it: scenarios played through ``World.step`` with scripted dice, one per
rule section whose reading was put right (Basic Set: Mounted Combat; House rules: Mounts)."""

from __future__ import annotations

import pytest
from support import gurps_world, of_type
from support.mounted import faces, mounted_pair, rolls, script, spawn_horse, spawn_rider, targets

from esper_motion.components import (
    Flight,
    FlightIntent,
    FlightMode,
    Footing,
    Intent,
    Mover,
    Obstacle,
    Position,
    Velocity,
)
from esper_motion.components.mount import Mount, Rider
from esper_motion.ecs import IntentError, World
from esper_motion.systems.gurps import Rules, movement_limits, preview
from esper_motion.systems.gurps.events import FallDamage, FeatRefused, FellOff, Landed, MountFell, ObstacleCrossed
from esper_motion.systems.gurps.mounted.cavalry import mounted_attack
from esper_motion.systems.gurps.mounted.common import seat
from esper_motion.systems.gurps.mounted.mount_orders import attempt_feat

HOUSE = Rules.house()
BASIC = Rules.basic()


def test_size_and_speed_range_table_relative_speed_between_rows_reads_the_next_higher_row() -> None:
    """Basic Set: Size and Speed/Range Table, read by House rules: Mounts (relative speed). A horse cruising at
    8 yd/s past a standing foe: 8 lies between the 7 and 10 rows, so the 10 row counts, Size +4, minus 2:
    -2 to hit and +2 damage (the 7 row would give only -1/+1)."""
    world = gurps_world(HOUSE)
    _, rider = mounted_pair(world, velocity=8)
    foe = spawn_rider(world, at=(20, 3))
    world.step()
    attack = mounted_attack(world, rider, 14, foe)
    assert dict(attack.modifiers)["relative velocity"] == -2
    assert attack.damage_bonus == 2


def test_movement_and_maneuvers_encumbrance_reduces_the_gallop_as_it_reduces_move() -> None:
    """Basic Set: Mounted Combat > Movement and Maneuvers (encumbrance penalties apply normally). A horse with
    Basic Move 8 and a gallop (Enhanced Move) of 16 at Medium encumbrance: Move 8 x 0.6 = 4.8, so 4; top speed
    16 x 0.6 = 9.6, so 9. From 4 yd/s it speeds up to 9 and enters high speed; asking 7 more is refused (at most
    0), where the unreduced gallop let it reach 16."""
    world = gurps_world(BASIC)
    horse = spawn_horse(world, velocity=4)
    world.get(horse, Mover).encumbrance = 2
    assert (movement_limits(world, horse).move, movement_limits(world, horse).top_speed) == (4, 9)
    world.get(horse, Intent).throttle = 5
    world.step()
    assert world.get(horse, Velocity).yps == 9
    world.get(horse, Intent).throttle = 7
    with pytest.raises(IntentError, match="throttle"):
        world.step()
    assert world.get(horse, Velocity).yps == 9


def _winged_horse_and_rider(world: World) -> tuple[int, int]:
    """A winged horse that cannot hover (air Move 16, top airspeed 32) flying east at 2 yd/s, 5 yards up, its rider
    seated."""
    horse = spawn_horse(world, velocity=2)
    world.get(horse, Position).altitude_yd = 5.0
    world.add(horse, Flight(air_move=16, top_airspeed=32, mode=FlightMode.CANNOT_HOVER, wings=True))
    world.add(horse, FlightIntent())
    rider = spawn_rider(world)
    seat(world, rider, horse)
    return horse, rider


def test_mount_loss_of_control_table_a_ridden_flier_that_crashes_is_a_mount_that_falls() -> None:
    """Basic Set: Mounted Combat > Mount Loss of Control Table (the row applies whenever a mount falls), row 12,
    with Flying Combat > Cannot Hover. A winged horse (HP 25, DX 10, least speed a quarter of 32 = 8) flying 2
    yards at 5 yards up stalls and falls the 5 yards in its first second (5.35 yd). It hits the ground at 10
    yd/s: 50 x 10 / 100 = 5d (scripted 1s: 5 injury). Row 12: it rolls DX+1 = 11 (10: keeps its legs); its
    rider rolls Riding-2 = 10 (11: fails) and is unseated, falling the row's 3 yards plus the 5 the mount fell:
    8 yards, sqrt(21.4 x 8) = 13 yd/s, 22 x 13 / 100 = 2.86, so 3d (scripted 1s: 3 injury)."""
    world = gurps_world(BASIC)
    horse, rider = _winged_horse_and_rider(world)
    world.dice.script(1, 1, 1, 1, 1, *faces(10), *faces(11), 1, 1, 1)
    events = world.step()
    assert [(e.entity, e.fall_yd) for e in of_type(events, Landed)] == [(horse, 5.0)]
    assert [(e.mount, e.broken_leg) for e in of_type(events, MountFell)] == [(horse, False)]
    assert [(e.rider, e.fall_yd) for e in of_type(events, FellOff)] == [(rider, 8.0)]
    assert [(e.entity, e.velocity_yps, e.injury) for e in of_type(events, FallDamage)] == [
        (horse, 10, 5),
        (rider, 13, 3),
    ]
    assert world.get(rider, Rider).mount is None


def _fence(world: World, at: tuple[int, int]) -> int:
    """A fence low enough to jump at a run."""
    return world.spawn(Position(*at), Obstacle(hp=20, hard=True, height_yd=1.0, crossable=True))


def test_mounted_combat_riding_plus_2_a_refused_jump_stops_the_mount_short_of_the_fence() -> None:
    """Basic Set: Mounted Combat (the Riding+2 paragraph: on a failure the mount disobeys). A well-broken horse
    (3 hexes long) at 8 yd/s toward a fence on (4, 0), with the points to land beyond it, asked for the jump: its
    rider rolls Riding 12 + 2 - 3 (training) = 11 and fails with 12. The horse refuses: it stops on (3, 0), short
    of the fence, rolls no DX and clears nothing."""
    world = gurps_world(BASIC)
    horse, _ = mounted_pair(world, training="well-broken", velocity=8)
    fence = _fence(world, (4, 0))
    attempt_feat(world, horse, "jump")
    script(world, 12)
    events = world.step()
    assert targets(events, "attempt a jump") == [11]
    assert of_type(events, FeatRefused) == [FeatRefused(horse, "jump")]
    assert rolls(events, f"jump obstacle {fence}") == []
    assert of_type(events, ObstacleCrossed) == []
    assert world.get(horse, Position).hex == (3, 0)


@pytest.mark.parametrize(
    ("riding_roll", "stops_at"),
    [(11, (5, 0)), (12, (2, 0))],
    ids=["Riding+2 made: onto the mud", "Riding+2 failed: stops short of it"],
)
def test_mounted_combat_riding_plus_2_asked_for_bad_footing_on_the_path(
    riding_roll: int, stops_at: tuple[int, int]
) -> None:
    """Basic Set: Mounted Combat (the Riding+2 paragraph), asked by the path itself. A well-broken horse walking
    6 yd/s meets mud (1 extra point) on (3, 0): before stepping on it the rider rolls Riding 12 + 2 - 3 = 11. Made
    (11), the horse crosses: 1 + 1 + 2 (the mud) + 1 + 1 = 6 points take it to (5, 0). Failed (12), it stops on
    (2, 0), short of the mud, and spooks."""
    world = gurps_world(BASIC)
    horse, _ = mounted_pair(world, training="well-broken", velocity=6)
    world.spawn(Position(3, 0), Footing(extra_cost=1))
    script(world, riding_roll)
    events = world.step()
    assert targets(events, "attempt a bad footing") == [11]
    assert world.get(horse, Position).hex == stops_at
    assert world.get(horse, Mount).spooked is (riding_roll > 11)


@pytest.mark.parametrize("life_or_death", [False, True], ids=["asked on the path", "life or death: no roll"])
def test_mounted_combat_riding_plus_2_asked_for_a_jump_on_the_path_unless_life_or_death(
    life_or_death: bool,
) -> None:
    """Basic Set: Mounted Combat (the Riding+2 paragraph), asked by the path itself, and its exception for a matter
    of life and death for the mount (the game's call: ``Intent.life_or_death``). A well-broken horse at 8 yd/s
    meets a fence on (4, 0) that nobody asked it to jump: its rider rolls Riding 12 + 2 - 3 = 11 (made with 11),
    then the horse rolls DX 10 to jump (10: made) and lands beyond it, 8 yards on at (8, 0). Fleeing for its life
    it rolls only its DX."""
    world = gurps_world(BASIC)
    horse, _ = mounted_pair(world, training="well-broken", velocity=8)
    fence = _fence(world, (4, 0))
    world.get(horse, Intent).life_or_death = life_or_death
    script(world, *([] if life_or_death else [11]), 10, 10)  # the last: the rider's Riding to stay on
    events = world.step()
    assert targets(events, "attempt a jump") == ([] if life_or_death else [11])
    assert targets(events, f"jump obstacle {fence}") == [10]
    assert [(e.entity, e.obstacle) for e in of_type(events, ObstacleCrossed)] == [(horse, fence)]
    assert world.get(horse, Position).hex == (8, 0)


def test_mounted_combat_riding_plus_2_the_preview_lists_the_roll_the_path_asks() -> None:
    """Basic Set: Mounted Combat (the Riding+2 paragraph), forecast: ``preview`` lists the rider's Riding+2 for
    the fence on the path (12 + 2 - 3 = 11), then the horse's DX 10 to jump it, and changes nothing."""
    world = gurps_world(BASIC)
    horse, _ = mounted_pair(world, training="well-broken", velocity=8)
    fence = _fence(world, (4, 0))
    before = world.dice.getstate()
    forecast = preview(world, horse)
    assert [(roll.purpose, roll.target) for roll in forecast.rolls] == [
        ("make the mount attempt a jump", 11),
        (f"jump obstacle {fence}", 10),
    ]
    assert world.dice.getstate() == before
    assert world.get(horse, Mount).feats == {}


def test_mount_loss_of_control_table_a_ridden_flier_that_falls_onto_a_body_is_a_mount_that_falls() -> None:
    """Basic Set: Mounted Combat > Mount Loss of Control Table, row 12, whenever a mount falls: onto a body as onto
    the ground. The winged horse of the test above stalls at 5 yards up over a footman (HP 11, 2 yards tall): it
    falls the 3 yards to his head, 8 yd/s; it takes 11 x 8 / 100 = 0.88, 1d-1 (scripted 1: 0), he takes
    25 x 8 / 100 = 2d (1s: 2). Row 12: the horse's DX+1 = 11 rolls 10; the rider's Riding-2 = 10 rolls 11, fails:
    unseated, the row's 3 yards and the 3 the mount fell, 6 yards: round(sqrt(21.4 x 6)) = 11 yd/s,
    22 x 11 / 100 = 2.42, 2d (1s)."""
    world = gurps_world(BASIC)
    horse, rider = _winged_horse_and_rider(world)
    below = spawn_rider(world, at=(1, 0))
    world.dice.script(1, 1, 1, *faces(10), *faces(11), 1, 1)
    events = world.step()
    assert [(e.mount, e.broken_leg) for e in of_type(events, MountFell)] == [(horse, False)]
    assert [(e.rider, e.fall_yd) for e in of_type(events, FellOff)] == [(rider, 6.0)]
    assert world.get(rider, Rider).mount is None
    assert world.get(below, Position).hex == (1, 0)

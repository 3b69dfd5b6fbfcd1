"""Moving and Shooting as the Spelljammer text writes it, round after round: scenarios played through
``World.step`` with scripted dice (Spelljammer: Running, Shooting, Chasing and Fleeing > Moving and Shooting)."""

from __future__ import annotations

from typing import Any, TypeVar

import pytest

from esper_motion.components.motion import Position
from esper_motion.components.spelljammer import Mobility, RangedWeapon, RoundIntent, RoundState, SpeedMode
from esper_motion.ecs import Event, Roll, RollMade, World
from esper_motion.systems.spelljammer import Options, install
from esper_motion.systems.spelljammer.events import ShotsOnTheMove
from esper_motion.systems.spelljammer.rules import DropResult

E = TypeVar("E", bound=Event)


def _world() -> World:
    world = World(seed=1)
    install(world, Options(hex_ft=5))
    return world


def _shooter(world: World, **intent: Any) -> int:
    return world.spawn(Mobility(tmr=12, dex=15), RoundIntent(**intent), RoundState(), Position(0, 0))


def _shots(events: list[Event]) -> ShotsOnTheMove:
    found = [event for event in events if isinstance(event, ShotsOnTheMove)]
    assert len(found) == 1, found
    return found[0]


def _threats(events: list[Event]) -> list[str]:
    return [e.purpose for e in events if isinstance(e, RollMade) and isinstance(e.result, Roll) and "drop" in e.purpose]


@pytest.mark.parametrize(
    ("mode", "fatigue", "kept", "dropped"),
    [(SpeedMode.SPRINT, (1,), 30, 31), (SpeedMode.FAST_SPRINT, (1, 1), 15, 16)],
    ids=["Sprint: 2x DEX 15 = 30", "Fast Sprint: 1x DEX 15 = 15"],
)
def test_drop_threat_shots_drawn_in_later_rounds_risk_a_drop(
    mode: SpeedMode, fatigue: tuple[int, ...], kept: int, dropped: int
) -> None:
    """Spelljammer: ... > Moving and Shooting > Drop Threat: only the first shot of a run can be nocked in
    advance. A bowman with DEX 15 sprinting three rounds, one shot a round: the first round's shot needs no
    draw (no threat roll); in the second and third rounds the arrow is drawn, so the threat roll is graded
    against the row's multiple of DEX: Sprint 2x (30 kept, 31 dropped), Fast Sprint 1x (15 kept, 16 dropped).
    Each round first rolls its non-lethal damage: 1d6 at a Sprint, 2d6 at a Fast Sprint (scripted 1s)."""
    world = _world()
    bowman = _shooter(world, mode=mode, heading=0, shots=1, weapon=RangedWeapon.SHORT_BOW)
    world.dice.script(*fatigue)
    first = world.step()
    assert (_shots(first).drops, _shots(first).fired, _threats(first)) == ((), 1, [])
    world.get(bowman, RoundIntent).shots = 1
    world.dice.script(*fatigue, kept)
    second = _shots(world.step())
    assert (second.drops, second.fired) == ((DropResult.NOTHING_DROPPED,), 1)
    world.get(bowman, RoundIntent).shots = 1
    world.dice.script(*fatigue, dropped)
    third = _shots(world.step())
    assert (third.drops, third.fired) == ((DropResult.ARROW_DROPPED,), 0)


def test_drop_threat_every_shot_of_a_later_round_is_drawn() -> None:
    """Spelljammer: ... > Moving and Shooting > Drop Threat: walking with 4 attacks a round gives 2 shots
    (half, rounded up). The first round draws only the second shot (one threat roll, shot 2); the next round
    draws both (two threat rolls, shots 1 and 2), graded against 4x DEX 15 = 60: 60 keeps, 61 drops."""
    world = _world()
    bowman = _shooter(world, mode=SpeedMode.WALK, heading=0, shots=4, weapon=RangedWeapon.SHORT_BOW)
    world.dice.script(60)
    first = world.step()
    assert (_shots(first).fired, len(_threats(first))) == (2, 1)
    world.get(bowman, RoundIntent).shots = 4
    world.dice.script(60, 61)
    events = world.step()
    assert [purpose.split(",")[0] for purpose in _threats(events)] == ["drop threat of shot 1", "drop threat of shot 2"]
    assert (_shots(events).drops, _shots(events).fired) == ((DropResult.NOTHING_DROPPED, DropResult.ARROW_DROPPED), 1)


def test_drop_threat_a_dropped_weapon_fires_nothing_until_readied() -> None:
    """Spelljammer: ... > Moving and Shooting > Drop Threat: a failed threat roll of 96 or more drops the weapon
    itself. Walking with 5 attacks a round gives 3 shots (half, rounded up): round 1 fires the nocked first shot,
    the second draws and rolls 97 against 4x DEX 15 = 60, dropping the weapon: 1 of 3 fired. Round 2, walking and
    asking for 5 again, fires none and rolls no threat. Round 3 the shooter stands and shoots nothing, which
    readies the weapon (the reading of Weapon Modifiers the library takes); round 4 it fires its first shot
    again without a draw."""
    world = _world()
    bowman = _shooter(world, mode=SpeedMode.WALK, heading=0, shots=5, weapon=RangedWeapon.SHORT_BOW)
    intent = world.get(bowman, RoundIntent)
    world.dice.script(97)
    assert (_shots(world.step()).drops, world.get(bowman, RoundState).weapon_dropped) == (
        (DropResult.WEAPON_DROPPED,),
        True,
    )
    intent.shots = 5
    world.dice.script(10, 10)
    second = world.step()
    assert (_shots(second).allowed, _shots(second).fired, _threats(second)) == (0, 0, [])
    assert world.dice.scripted == 2
    intent.heading, intent.shots = None, 0
    world.step()
    assert world.get(bowman, RoundState).weapon_dropped is False
    intent.heading, intent.shots = 0, 1
    assert (_shots(world.step()).fired, world.dice.scripted) == (1, 2)


def test_weapon_modifiers_a_crossbow_fired_on_the_move_is_not_reloaded_until_the_run_ends() -> None:
    """Spelljammer: ... > Moving and Shooting > Weapon Modifiers (Crossbows): a crossbow fires once on the move
    and cannot be reloaded by hand while moving. Walking with 2 attacks: round 1 fires 1 shot; round 2 fires
    none; round 3 the shooter stands (no heading) and shoots nothing, which ends the run and reloads it;
    round 4, walking again, it fires its one shot."""
    world = _world()
    crossbowman = _shooter(world, mode=SpeedMode.WALK, heading=0, shots=2, weapon=RangedWeapon.CROSSBOW)
    intent = world.get(crossbowman, RoundIntent)
    assert (_shots(world.step()).allowed, world.get(crossbowman, RoundState).weapon_ready) == (1, False)
    intent.shots = 2
    assert _shots(world.step()).allowed == 0
    intent.heading = None
    world.step()
    assert world.get(crossbowman, RoundState).weapon_ready is True
    intent.heading, intent.shots = 0, 2
    assert _shots(world.step()).fired == 1

"""Every dice draw of a turn is in the turn's events exactly once: every bundled scene, and mixed worlds under
both presets, with each draw counted as the dice make it."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import fields

import pytest
from support import gurps_world, of_type
from support.mounted import lose_control, mounted_pair
from support.worlds import mixed_world, plan_turn, step_refusing

import esper_motion.demos
from esper_motion.demos.scene import build_scene, read_scene
from esper_motion.ecs import Event, Roll, RollMade, SuccessRoll
from esper_motion.ecs.dice import Dice
from esper_motion.systems.gurps import Rules
from esper_motion.systems.gurps.events import DamageDealt, FallDamage


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Roll]]:
    """Every roll any world's dice make while the test runs, in order."""
    made: list[Roll] = []
    roll = Dice.roll

    def recording(self: Dice, expression: str) -> Roll:
        result = roll(self, expression)
        made.append(result)
        return result

    monkeypatch.setattr(Dice, "roll", recording)
    yield made


def carried(events: list[Event]) -> Counter[int]:
    """How many times each roll is carried by an event of ``events`` (a ``RollMade``, or the combat events that
    carry their success roll), by identity."""
    found: Counter[int] = Counter()
    for event in events:
        for value in (getattr(event, field.name) for field in fields(event)):
            if isinstance(value, SuccessRoll):
                found[id(value.roll)] += 1
            elif isinstance(value, Roll):
                found[id(value)] += 1
    return found


def problems(turn: int, rolls: list[Roll], events: list[Event]) -> list[str]:
    """The draws of one turn not reported exactly once, and the reports of rolls not drawn that turn. A weapon's
    damage roll is the one draw reported otherwise: by its ``DamageDealt`` (the expression and total, no faces)."""
    reports = carried(events)
    damage = [event.damage.replace("d", "d6", 1) for event in events if isinstance(event, DamageDealt)]  # 2d+1: 2d6+1
    found = []
    for roll in rolls:
        times = reports.pop(id(roll), 0)
        if times == 0 and roll.expression in damage:
            damage.remove(roll.expression)
            continue
        if times != 1:
            found.append(f"turn {turn}: {roll} drawn and reported {times} times")
    if reports:
        found.append(f"turn {turn}: {sum(reports.values())} rolls reported but not drawn this turn")
    return found


@pytest.mark.parametrize("name", esper_motion.demos.scene_names())
def test_every_draw_of_every_bundled_scene_is_reported_once(name: str, drawn: list[Roll]) -> None:
    scene = build_scene(read_scene(name))
    found: list[str] = []
    for _ in range(scene.spec.turns):
        drawn.clear()
        events = scene.step()
        found.extend(problems(scene.world.turn, drawn, events))
    assert found == []


@pytest.mark.parametrize("preset", [Rules.basic(), Rules.house()], ids=["basic", "house"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_draw_of_a_mixed_world_is_reported_once(seed: int, preset: Rules, drawn: list[Roll]) -> None:
    world, cast = mixed_world(seed, 3, preset)
    rng = random.Random(seed)
    found: list[str] = []
    reported = 0
    for _ in range(15):
        plan_turn(world, cast, rng)
        events, _, _ = step_refusing(world, drawn.clear, verify=False)
        found.extend(problems(world.turn, drawn, events))
        reported += sum(isinstance(event, RollMade) for event in events)
    assert found == []
    assert reported > 20  # the worlds do roll


def test_a_thrown_riders_fall_damage_is_reported_with_its_roll(drawn: list[Roll]) -> None:
    world = gurps_world()
    _, rider = mounted_pair(world)
    drawn.clear()
    events = lose_control(world, rider, 2, 2, 2)  # row 2: thrown 3 yards, 2d fall damage of 4
    assert problems(world.turn, drawn, events) == []
    [damage] = [roll for roll in of_type(events, RollMade) if roll.purpose == "fall damage"]
    assert (damage.entity, damage.result.total) == (rider, 4)
    assert of_type(events, FallDamage)[0].rolled == 4

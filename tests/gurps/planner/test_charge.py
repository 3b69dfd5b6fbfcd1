"""The Charge goal: a mounted lancer runs past its foe at speed, strikes from the saddle on the pass, rides on and
wheels round for the next; the round is saved with the world; a preview changes none of it; a foe gone means hold."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

from support import gurps_world, of_type
from support.highspeed import mover
from support.mounted import mounted_pair

from esper_motion.components import Attack, Charge, Condition, Control, Nerve, Position, Posture, PostureState
from esper_motion.ecs import World
from esper_motion.ecs.hexgrid import distance
from esper_motion.systems.gurps import plan
from esper_motion.systems.gurps.events import AttackRolled, GoalLost, GoalUnreachable, PanicChecked
from esper_motion.systems.gurps.planner.mounted import run_past

LANCE = Attack(skill=14, skill_name="Lance", reach_yd=4, lance="couched", damage_type="impaling")


def joust(seed: int = 3, run_yd: int = 20) -> tuple[World, int, int, int]:
    """A knight on a horse at (0, 0) charging a sturdy footman at (16, 2): ``(world, horse, knight, foe)``."""
    world = gurps_world(seed=seed)
    horse, knight = mounted_pair(world)
    world.add(knight, Attack(**{name: getattr(LANCE, name) for name in ("skill", "skill_name", "reach_yd", "lance")}))
    foe = mover(world, at=(16, 2), hp=1000)
    world.add(knight, Charge(foe, run_yd=run_yd))
    return world, horse, knight, foe


def test_a_lancer_strikes_on_each_pass_at_speed_and_wheels_round_between() -> None:
    world, horse, knight, foe = joust()
    strikes, far = [], []
    for turn in range(16):
        events = world.step()
        assert not of_type(events, GoalUnreachable)
        if any(event.attacker == knight and event.target == foe for event in of_type(events, AttackRolled)):
            strikes.append(turn)
            assert world.get(horse, Control).moved_yd >= 12  # at high speed: the lance's damage counts it
        if distance(world.get(horse, Position).hex, world.get(foe, Position).hex) >= 20:
            far.append(turn)
    assert len(strikes) >= 3
    for first, then in pairwise(strikes):
        assert any(first < turn < then for turn in far)  # it rode off and wheeled round between two passes


def test_the_round_is_saved_with_the_world(tmp_path: Path) -> None:
    world, horse, knight, _ = joust()
    for _ in range(2):
        world.step()
    assert world.get(knight, Charge).wheeling  # struck on the first pass, riding off
    world.save(tmp_path / "joust.json")
    loaded = World.load(tmp_path / "joust.json")
    for _ in range(6):
        world.step()
        loaded.step()
        assert loaded.get(horse, Position).hex == world.get(horse, Position).hex
        assert loaded.get(knight, Charge) == world.get(knight, Charge)


def test_the_preview_of_a_charge_changes_nothing() -> None:
    world, _, knight, _ = joust()
    for _ in range(2):
        world.step()
    before = world.get(knight, Charge).wheeling
    plan(world, knight)
    assert world.get(knight, Charge).wheeling == before
    world.get(knight, Charge).run_yd = 2  # near enough already: the preview shows the next run, and records nothing
    assert plan(world, knight).turns
    assert world.get(knight, Charge).wheeling == before


def test_a_run_keeps_its_aim_from_anywhere_in_a_sixth_of_the_round() -> None:
    aims = {run_past(here, (16, 2), 20, 0) for here in ((0, 0), (0, 2), (2, 1), (-4, 3))}
    assert aims == {(36, 3)}  # 20 yd on from (16, 3), beside the foe


def test_a_charge_whose_foe_is_gone_holds() -> None:
    world, horse, knight, foe = joust()
    world.step()
    world.despawn(foe)
    events = world.step()
    assert [(event.entity, event.target) for event in of_type(events, GoalLost)] == [(knight, foe)]
    assert world.get(knight, Charge).target is None
    for _ in range(4):
        world.step()
    assert world.get(horse, Control).moved_yd == 0


def test_each_pass_reports_the_charge_to_the_foe_once_before_the_strike() -> None:
    """Basic Set: Mounted Combat > Attacks by Mounts > Panic: a foe unused to cavalry rolls Will against each pass,
    from the turn before the lances meet (the MOUNTED phase rolls it when ``Mount.charge_foe`` is set)."""
    world, horse, knight, foe = joust()
    world.add(foe, Nerve(will=30, unused_to_cavalry=True))  # he stands every time: the passes stay alike
    order = []
    for _ in range(16):
        events = world.step()
        order.extend("panic" for event in of_type(events, PanicChecked) if (event.foe, event.mount) == (foe, horse))
        order.extend("strike" for event in of_type(events, AttackRolled) if event.attacker == knight)
    assert order.count("strike") >= 3
    assert " ".join(order).startswith("panic strike panic strike panic strike")


def test_a_foe_who_is_down_is_not_struck_the_lancer_rides_on_and_comes_again_when_he_stands() -> None:
    world, horse, knight, foe = joust()
    world.get(foe, Posture).state = PostureState.PRONE
    for _ in range(6):
        events = world.step()
        assert not of_type(events, AttackRolled)
        assert not of_type(events, PanicChecked)
        assert not of_type(events, GoalUnreachable)
    assert distance(world.get(horse, Position).hex, world.get(foe, Position).hex) >= 20  # rode on, away
    world.get(foe, Posture).state = PostureState.STANDING
    struck = False
    for _ in range(8):
        events = world.step()
        struck = struck or any(event.attacker == knight for event in of_type(events, AttackRolled))
    assert struck


def test_a_charge_whose_foe_is_out_of_the_fight_holds_and_says_so() -> None:
    world, horse, knight, foe = joust()
    world.step()
    world.get(foe, Condition).conscious = False
    events = world.step()
    assert of_type(events, GoalLost) == [GoalLost(knight, "Charge", foe, "out of the fight: unconscious")]
    assert not of_type(events, AttackRolled)
    assert world.get(knight, Charge).target is None
    for _ in range(5):
        assert not of_type(world.step(), AttackRolled)
    assert world.get(horse, Control).moved_yd == 0

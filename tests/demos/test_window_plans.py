"""The window shows the plans of movers with goals and lets the player take one over: the plan drawn ahead of the
selected entity with each turn's odds, found once a turn; T sets a goal aside while the keys steer the entity, and
restores it. All tests draw into the one session window of ``conftest.py``.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

arcade = pytest.importorskip("arcade")

from esper_motion import cli  # noqa: E402
from esper_motion.components import (  # noqa: E402
    Charge,
    Control,
    Flee,
    GoTo,
    MoveState,
    Position,
    Pursue,
    RoundIntent,
    Velocity,
)
from esper_motion.demos import render, scene_file  # noqa: E402
from esper_motion.demos.scene import build_scene  # noqa: E402
from esper_motion.demos.scene_file import read_scene  # noqa: E402
from esper_motion.demos.window import DemoView  # noqa: E402
from esper_motion.ecs import hexgrid  # noqa: E402
from esper_motion.systems import spelljammer  # noqa: E402
from esper_motion.systems.gurps import plan  # noqa: E402

HUNT = """\
title = "Hunt"
description = "Two hounds pursue a runner across an open field."
rules = "gurps"
seed = 4
turns = 3

[map]
width = 20
height = 7

[[entity]]
name = "Hound"
colour = "#e76f51"
[entity.components]
Position = { q = 1, r = 0 }
Facing = { direction = 0 }
Velocity = { yps = 0, heading = 0 }
"gurps.Mover" = { basic_move = 6 }
"gurps.Control" = {}
"gurps.Intent" = {}
"gurps.Pursue" = { target = 3 }

[[entity]]
name = "Bloodhound"
colour = "#4ea1f2"
[entity.components]
Position = { q = 2, r = 2 }
Facing = { direction = 0 }
Velocity = { yps = 0, heading = 0 }
"gurps.Mover" = { basic_move = 6 }
"gurps.Control" = {}
"gurps.Intent" = {}
"gurps.Pursue" = { target = 3 }

[[entity]]
name = "Runner"
colour = "#f2c14e"
[entity.components]
Position = { q = 14, r = 0 }
Facing = { direction = 0 }
Velocity = { yps = 0, heading = 0 }
"gurps.Mover" = { basic_move = 5 }
"gurps.Control" = {}
"gurps.Intent" = {}
"""

HOUND, BLOODHOUND, RUNNER = 1, 2, 3


def hunt(tmp_path: Path) -> render.Stage:
    path = tmp_path / "hunt.toml"
    path.write_text(HUNT, encoding="utf-8")
    return render.Stage(build_scene(read_scene(str(path))))


def pixel(image: Any, x: float, y: float) -> tuple[int, int, int]:
    """The colour at window point (x, y), y up."""
    value = image.getpixel((round(x), render.HEIGHT - round(y)))
    return (value[0], value[1], value[2])


def test_the_selected_movers_plan_is_drawn_ahead_of_it_with_each_turns_odds(window: Any, tmp_path: Path) -> None:
    played = hunt(tmp_path)
    assert played.selected == HOUND
    shown = played.shown_plan(HOUND)
    assert shown is not None and shown.goal == "Pursue"
    assert shown.plan == plan(played.world, HOUND)  # the rule set's own plan, as a game would ask for it
    assert shown.plan.turns and shown.plan.turns[0].path
    renderer = render.Renderer(played)
    renderer.draw(1.0)
    image = render.snapshot()
    for turn in shown.plan.turns:
        for hex in turn.path:
            red, _, blue = pixel(image, *renderer.layout.centre(hex))
            assert blue > 180 and red < 160, hex  # a plan dot on every hex it means to enter
    steps = ", ".join(f"{index} sure" for index in range(1, len(shown.plan.turns) + 1))
    assert played.plan_lines(HOUND) == [f"Pursue, {len(shown.plan.turns)} turns planned, goal reached: {steps}"]
    assert played.plan_lines(BLOODHOUND) == []  # not selected: not planned
    assert played.plan_lines(RUNNER) == []  # no goal


def test_a_planned_turns_odds_are_the_chance_that_every_roll_is_made() -> None:
    assert render.odds(Fraction(0)) == "sure"
    assert render.odds(Fraction(1, 216)) == "99.5%"
    assert render.odds(Fraction(1, 2)) == "50.0%"


def test_the_plan_is_found_once_a_turn_for_the_selected_entity_only(
    window: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    played = hunt(tmp_path)
    asked: list[int] = []
    gurps = scene_file.rule_set_named("gurps")
    assert gurps.scene is not None and gurps.scene.plan is not None
    rule_set_plan = gurps.scene.plan

    def counted(world: Any, entity: int) -> Any:
        asked.append(entity)
        return rule_set_plan(world, entity)

    counting = dataclasses.replace(gurps, scene=dataclasses.replace(gurps.scene, plan=counted))
    monkeypatch.setattr(scene_file, "rule_set_named", lambda name: counting if name == "gurps" else gurps)
    renderer = render.Renderer(played)
    for progress in (0.0, 0.5, 1.0, 1.0, 1.0):
        renderer.draw(progress)
    assert asked == [HOUND]
    played.select_next()
    renderer.draw(1.0)
    played.select_next()
    played.select_next()  # back to the hound: its plan of this turn is kept
    renderer.draw(1.0)
    assert asked == [HOUND, BLOODHOUND]
    played.step()
    renderer.draw(1.0)
    renderer.draw(1.0)
    assert asked == [HOUND, BLOODHOUND, HOUND]


def test_showing_plans_changes_nothing_the_world_plays(window: Any, tmp_path: Path) -> None:
    shown, unshown = hunt(tmp_path), hunt(tmp_path)
    renderer = render.Renderer(shown)
    for _ in range(3):
        renderer.draw(1.0)
        shown.select_next()
        renderer.draw(1.0)
        assert shown.step() == unshown.step()
    for entity in (HOUND, BLOODHOUND, RUNNER):
        assert shown.world.get(entity, Position) == unshown.world.get(entity, Position)
        assert shown.world.get(entity, Velocity) == unshown.world.get(entity, Velocity)


def test_t_sets_the_goal_aside_while_the_keys_steer_and_hands_it_back(window: Any, tmp_path: Path) -> None:
    played = hunt(tmp_path)
    view = DemoView(played)
    window.show_view(view)
    goal = played.world.get(HOUND, Pursue)
    view.on_key_press(arcade.key.PLUS, 0)  # the planner writes a mover's intent while it has a goal
    assert view.renderer.message == "Hound follows its Pursue goal: T takes it over"
    assert played.scene.driver.manual == {}
    view.on_key_press(arcade.key.T, 0)
    assert view.renderer.message == "you steer Hound; its Pursue goal is set aside (T hands it back)"
    assert not played.world.has(HOUND, Pursue)
    assert played.shown_plan(HOUND) is None
    assert played.plan_lines(HOUND) == ["steered by you (Pursue set aside)"]
    view.on_key_press(arcade.key.PLUS, 0)
    assert played.scene.driver.manual == {HOUND: {"throttle": 1}}
    view.on_key_press(arcade.key.SPACE, 0)
    assert played.world.get(HOUND, Velocity).yps == 1  # steered: one yard a second more
    assert played.world.get(BLOODHOUND, Velocity).yps > 1  # still after the runner, at its planner's pace
    view.on_key_press(arcade.key.T, 0)
    assert view.renderer.message == "Hound follows its Pursue goal again"
    assert played.world.get(HOUND, Pursue) is goal
    assert played.steered == {}
    assert played.plan_lines(HOUND)[0].startswith("Pursue, ")


def test_a_goal_whose_entity_is_gone_is_not_restored(window: Any, tmp_path: Path) -> None:
    played = hunt(tmp_path)
    assert played.take_over().startswith("you steer Hound")
    played.world.despawn(RUNNER)
    message = played.take_over()
    assert message.startswith("Hound is handed back without its Pursue goal: ")
    assert "target" in message and str(RUNNER) in message
    assert not played.world.has(HOUND, Pursue) and played.steered == {}


def test_an_entity_without_a_goal_has_nothing_to_set_aside(window: Any, tmp_path: Path) -> None:
    played = hunt(tmp_path)
    played.selected = RUNNER
    assert played.take_over() == "Runner has no goal to set aside: the keys steer it"


def test_the_window_shows_the_spelljammer_plans_and_t_steers_a_character_by_heading(window: Any) -> None:
    # Before, the Spelljammer rule set offered the window no goals and no planner: no plan, nothing to take over.
    played = render.Stage(build_scene(read_scene("chase")))
    thief, guard = played.scene.actors
    shown = played.shown_plan(thief)
    assert shown is not None and shown.plan == spelljammer.plan(played.world, thief)
    [first, second] = shown.plan.turns
    assert first.path == hexgrid.line(first.start, first.end)[1:] and first.path[-1] == second.start
    assert played.plan_lines(thief) == ["Flee, 2 turns planned, goal not reached yet: 1 sure, 2 sure"]
    render.Renderer(played).draw(1.0)
    played.selected = guard
    assert played.plan_lines(guard)[0].startswith("Pursue, 2 turns planned")
    played.selected = thief
    view = DemoView(played)
    window.show_view(view)
    view.on_key_press(arcade.key.T, 0)
    assert view.renderer.message == "you steer Thief; its Flee goal is set aside (T hands it back)"
    view.on_key_press(arcade.key.LEFT, 0)  # her heading, east, a hexside to the left
    assert played.scene.driver.manual == {thief: {"heading": 1}}
    view.on_key_press(arcade.key.SPACE, 0)
    assert played.world.get(thief, Position).hex[1] > 0
    view.on_key_press(arcade.key.T, 0)
    assert played.world.has(thief, Flee) and played.steered == {}


def test_a_taken_over_spelljammer_pursuer_ends_its_chase_from_the_keys(window: Any) -> None:
    # Before, the keys could not steer a pursuer taken over mid-chase: a heading is refused while it chases.
    played = render.Stage(build_scene(read_scene("chase")))
    thief, guard = played.scene.actors
    view = DemoView(played)
    window.show_view(view)
    view.on_key_press(arcade.key.SPACE, 0)
    intent = played.world.get(guard, RoundIntent)
    assert intent.chase == thief and intent.heading is None  # the planner's chase, as the take-over finds it
    played.selected = guard
    view.on_key_press(arcade.key.T, 0)
    assert view.renderer.message == "you steer Guard; its Pursue goal is set aside (T hands it back)"
    guard_at, thief_at = (played.world.get(who, Position).hex for who in (guard, thief))
    toward = hexgrid.direction_to(guard_at, hexgrid.line(guard_at, thief_at)[1])
    assert toward is not None
    view.on_key_press(arcade.key.RIGHT, 0)  # a hexside right of the way to the thief
    assert played.scene.driver.manual == {guard: {"chase": None, "heading": (toward - 1) % 6}}
    assert view.renderer.message == f"Guard next turn: chase ends, heading {(toward - 1) % 6:+d}"
    view.on_key_press(arcade.key.RIGHT, 0)
    assert played.scene.driver.manual == {guard: {"chase": None, "heading": (toward - 2) % 6}}
    view.on_key_press(arcade.key.SPACE, 0)
    intent = played.world.get(guard, RoundIntent)
    assert (intent.chase, intent.heading) == (None, (toward - 2) % 6)
    moved = played.world.get(guard, Position).hex
    assert moved != guard_at and hexgrid.line(guard_at, moved)[1] == hexgrid.neighbour(guard_at, (toward - 2) % 6)
    view.on_key_press(arcade.key.T, 0)  # handed back, it chases again
    assert played.world.has(guard, Pursue)
    view.on_key_press(arcade.key.SPACE, 0)
    assert played.world.get(guard, RoundIntent).chase == thief


def test_a_rider_steering_its_mount_shows_the_mounts_plan_and_t_takes_the_pair_over(window: Any) -> None:
    # In the joust each knight's Charge steers his horse, which has a GoTo of its own for when he is thrown.
    played = render.Stage(build_scene(read_scene("joust")))
    ids = {name: entity for entity, name in played.scene.names.items()}
    bay, knight = ids["Bay"], ids["Sir Aldric"]
    played.selected = knight
    ridden = plan(played.world, knight)
    assert ridden.entity == bay
    steps = ", ".join(f"{index} {render.odds(turn.failure_chance)}" for index, turn in enumerate(ridden.turns, 1))
    planned = f"{len(ridden.turns)} turns planned, goal {'reached' if ridden.reaches else 'not reached yet'}: {steps}"
    assert played.plan_lines(knight) == [f"Charge, steering Bay, {planned}"]
    played.selected = bay  # the horse shows the plan it follows, its rider's (it used to say it had none)
    assert played.plan_lines(bay) == [f"Sir Aldric's Charge, {planned}"]
    render.Renderer(played).draw(1.0)
    view = DemoView(played)
    window.show_view(view)
    view.on_key_press(arcade.key.PLUS, 0)
    assert view.renderer.message == "Sir Aldric follows its Charge goal: T takes it over"
    view.on_key_press(arcade.key.T, 0)
    assert view.renderer.message == (
        "you steer Sir Aldric and Bay: the keys steer Bay; set aside: Sir Aldric's Charge, Bay's GoTo "
        "(T hands them back)"
    )
    assert not played.world.has(knight, Charge) and not played.world.has(bay, GoTo)
    assert played.plan_lines(bay) == ["steered by you (GoTo set aside)"]
    played.selected = knight  # either of the pair: the keys steer the horse
    view.on_key_press(arcade.key.PLUS, 0)
    assert played.scene.driver.manual == {bay: {"throttle": 1}}
    view.on_key_press(arcade.key.SPACE, 0)
    assert played.world.get(bay, Velocity).yps == 1
    view.on_key_press(arcade.key.T, 0)
    assert view.renderer.message == "Sir Aldric follows its Charge goal again; Bay follows its GoTo goal again"
    assert played.world.has(knight, Charge) and played.world.has(bay, GoTo) and played.steered == {}


def test_the_key_bar_and_the_help_name_the_take_over_key(window: Any, tmp_path: Path) -> None:
    assert "T take over" in render.Renderer(hunt(tmp_path)).keys_help()
    assert "T take over the selected entity" in " ".join(cli.demo_parser().format_help().split())


def test_the_hunt_scene_of_the_goals_page_shows_the_hounds_plan_and_plays_to_the_end(window: Any) -> None:
    scene = build_scene(
        read_scene(str(Path(__file__).resolve().parents[2] / "docs" / "scenes" / "goals" / "hunt.toml"))
    )
    played = render.Stage(scene)
    shown = played.shown_plan(HOUND)
    assert shown is not None and shown.plan.reaches  # as the page's figure shows it
    assert played.plan_lines(HOUND) == ["Pursue, 2 turns planned, goal reached: 1 sure, 2 sure"]
    for _ in range(scene.spec.turns):
        played.step()
    assert played.world.turn == scene.spec.turns


def test_a_mover_the_planner_does_not_plan_now_says_why(window: Any, tmp_path: Path) -> None:
    played = hunt(tmp_path)
    played.world.get(HOUND, Control).state = MoveState.OUT_OF_CONTROL
    shown = played.shown_plan(HOUND)
    assert shown is not None and shown.plan is None
    assert played.plan_lines(HOUND) == ["Pursue: no plan: Hound cannot be planned now: out of control"]
    render.Renderer(played).draw(1.0)  # nothing ahead of it to draw


def test_a_plan_label_keeps_off_the_bodies_and_inside_the_window(window: Any, tmp_path: Path) -> None:
    renderer = render.Renderer(hunt(tmp_path))
    east = max(renderer.ground, key=lambda hex: renderer.layout.centre(hex)[0])
    x, y = renderer.layout.centre(east)
    words = "1 sure, 2 sure, 3 sure, 4 sure"
    assert x + renderer.layout.size * 0.5 + render.text_width(words, 8.5, bold=True) > render.WIDTH  # no room right
    taken: list[tuple[float, float, float, float]] = [(x - 200, y, x + 1, y + 200)]  # a body above it, say
    renderer.draw_plan_labels({east: words}, taken)
    _, _, right, top = taken[-1]
    assert right < x and top < y  # left of the ring, below it


def test_a_rider_without_a_goal_shows_the_plan_its_mount_follows_and_t_takes_the_pair_over(window: Any) -> None:
    # In the pursuit the horse holds the Pursue goal and its rider none: the planner steers the horse by its own.
    played = render.Stage(build_scene(read_scene("pursuit")))
    ids = {name: entity for entity, name in played.scene.names.items()}
    horse, rider = ids["Horse"], ids["Rider"]
    played.selected = rider
    shown = played.shown_plan(rider)
    assert shown is not None and shown.plan == plan(played.world, horse)
    assert played.plan_lines(rider)[0].startswith("Horse's Pursue, ")
    render.Renderer(played).draw(1.0)
    assert (
        played.take_over()
        == "you steer Rider and Horse: the keys steer Horse; set aside: Horse's Pursue (T hands them back)"
    )
    assert played.plan_lines(rider) == ["steered by you"]
    assert played.take_over() == "Horse follows its Pursue goal again"

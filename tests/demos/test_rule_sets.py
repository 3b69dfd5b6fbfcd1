"""A scene plays any rule set registered with scene support: the reader and the world build name none of them."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from esper_motion.components import Position
from esper_motion.demos.scene import build_scene
from esper_motion.demos.scene_file import SceneError, read_scene, scene_rule_sets
from esper_motion.ecs import Phase, SceneSupport, System, World, check_int, register, register_rule_set


@register("test.Gust")
@dataclass(slots=True)
class Gust:
    """How many hexes east the wind blows an entity this turn, beside a roll of 1d4."""

    hexes: int = 0

    def __post_init__(self) -> None:
        check_int("Gust", "hexes", self.hexes, low=0)


@dataclass(frozen=True, slots=True)
class GustOptions:
    strength: int = 1


class Blow(System):
    phase = Phase.MOVEMENT

    def run(self) -> None:
        strength = self.world.rules["test.gusts"].strength
        for _, (position, gust) in self.world.query(Position, Gust):
            position.q += strength * gust.hexes + self.world.dice.roll("1d4").total


def install_gusts(world: World, options: GustOptions) -> None:
    world.install_rules("test.gusts", options)
    world.add_system(Blow())


def gust_readout(world: World, entity: int) -> str:
    return f"{world.get(entity, Gust).hexes} hexes"


register_rule_set(
    "test.gusts",
    install_gusts,
    GustOptions,
    scene=SceneSupport("test.Gust", readouts={"gust": gust_readout}, die_faces=4),
)
register_rule_set("test.bare", install_gusts, GustOptions)

SCENE = """\
description = "A leaf in the wind."
rules = "test.gusts"
seed = 3

[options]
strength = 2

[map]
width = 30
height = 3

[[entity]]
name = "Leaf"
colour = "#88cc44"
readouts = ["gust"]
[entity.components]
Position = { q = 0, r = 0 }

[script.1]
dice = [3]
Leaf = { hexes = 2 }
"""


def write(tmp_path: Path, text: str) -> str:
    path = tmp_path / "leaf.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_a_rule_set_registered_with_scene_support_plays_a_scene(tmp_path: Path) -> None:
    scene = build_scene(read_scene(write(tmp_path, SCENE)))
    leaf = scene.actors[0]
    assert scene.world.get(leaf, Gust) == Gust(0)  # given the rule set's intent component, as it is scripted
    scene.step()
    assert scene.world.get(leaf, Position).q == 2 * 2 + 3  # strength 2 times the scripted 2 hexes, and the 3 rolled
    assert scene.readouts(leaf) == ["gust: 2 hexes"]
    assert scene.yards_before_turn(leaf) is None
    assert "test.gusts" in scene_rule_sets()
    scene.world.close()


def test_a_registered_rule_sets_script_dice_go_up_to_its_largest_die(tmp_path: Path) -> None:
    with pytest.raises(SceneError, match=r"script turn 1: dice: \[5\] is not a list of die faces from 1 to 4"):
        read_scene(write(tmp_path, SCENE.replace("dice = [3]", "dice = [5]")))


def test_a_rule_set_registered_without_scene_support_is_refused_by_name(tmp_path: Path) -> None:
    with pytest.raises(SceneError, match=r"rules: rule set 'test.bare' registered no scene support") as raised:
        read_scene(write(tmp_path, SCENE.replace('rules = "test.gusts"', 'rules = "test.bare"')))
    assert "test.bare" not in scene_rule_sets()
    assert raised.value.field == "rules"


def test_an_unknown_rule_set_is_refused_naming_every_rule_set_a_scene_may_name(tmp_path: Path) -> None:
    with pytest.raises(SceneError) as raised:
        read_scene(write(tmp_path, SCENE.replace('rules = "test.gusts"', 'rules = "d20"')))
    assert raised.value.problem == "'d20' is not a rule set; expected one of gurps, spelljammer, test.gusts"

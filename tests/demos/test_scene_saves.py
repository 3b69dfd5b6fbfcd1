"""Saving a demo scene's world (issue 15, finding 4): the scene's script is a registered system whose data a save
holds, so a loaded scene plays on exactly as the saved one would; a system a save cannot hold refuses the save."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from esper_motion.demos.scene import ScriptSystem, build_scene
from esper_motion.demos.scene_file import read_scene, scene_names
from esper_motion.ecs import Event, Phase, SaveError, System, World, added_fields


def play(world: World, turns: int) -> list[list[Event]]:
    return [world.step() for _ in range(turns)]


@pytest.mark.parametrize("name", scene_names())
def test_a_scene_saved_and_loaded_mid_script_plays_on_as_if_never_saved(name: str, tmp_path: Path) -> None:
    """Save after turn 2, load, and play the rest of the scene's turns: every event of every turn is the same as
    the unsaved world's, the script's later orders and dice included."""
    spec = read_scene(name)
    kept = build_scene(spec).world
    played = build_scene(spec).world
    play(kept, 2)
    play(played, 2)
    kept.save(tmp_path / "scene.json")
    loaded = World.load(tmp_path / "scene.json")
    assert [type(system) for system in loaded.systems] == [type(system) for system in kept.systems]
    assert any(isinstance(system, ScriptSystem) for system in loaded.systems)
    rest = max(spec.turns - 2, 1) + 2
    assert play(loaded, rest) == play(played, rest)


def test_steering_pending_from_the_window_is_saved_with_the_script(tmp_path: Path) -> None:
    scene = build_scene(read_scene("sprint"))
    scene.driver.manual[1] = {"throttle": 1}
    scene.world.save(tmp_path / "sprint.json")
    loaded = World.load(tmp_path / "sprint.json")
    (driver,) = (system for system in loaded.systems if isinstance(system, ScriptSystem))
    assert driver.manual == {1: {"throttle": 1}}
    assert play(loaded, 1) == play(scene.world, 1)


class Unsaved(System):
    """A game's system with no registered data."""

    phase = Phase.CLEANUP

    def run(self) -> None:
        return None


def test_a_world_holding_a_system_a_save_cannot_hold_refuses_to_save_naming_it(tmp_path: Path) -> None:
    """It used to be left out of the save without a word, and the loaded world played differently."""
    world = build_scene(read_scene("sprint")).world
    world.add_system(Unsaved())
    target = tmp_path / "game.json"
    target.write_text("the previous save", encoding="utf-8")
    refusal = (
        rf"systems: the system {__name__}.Unsaved is installed by no registered rule set and holds no data a save "
        r"can keep: register it with esper_motion.ecs.register_system"
    )
    with pytest.raises(SaveError, match=refusal):
        world.save(target)
    assert target.read_text(encoding="utf-8") == "the previous save"


# --- saves from before a field existed -----------------------------------------------------------------------------


def _strip_new_fields(data: dict[str, Any]) -> list[str]:
    """Remove from a save every field new in version 3 (``added_fields``, as a save from before them lacks them);
    the ones removed, as ``component.field``."""
    removed = []
    for record in data["entities"]:
        for component, values in record["components"].items():
            for name in added_fields(component):
                if name in values:
                    del values[name]
                    removed.append(f"{component}.{name}")
    for rule_set, record in data["rules"].items():
        for name in added_fields(f"rules.{rule_set}"):
            if name in record["options"]:
                del record["options"][name]
                removed.append(f"rules.{rule_set}.{name}")
    return removed


@pytest.mark.parametrize("name", ["cavalry_charge", "dive_and_stall", "chase"])
def test_a_version_2_save_from_before_a_field_existed_loads_it_with_its_default(name: str, tmp_path: Path) -> None:
    """A save of format version 2 written before ``Intent.turns``, ``Control.turn_plan``, ``Mount.feats``,
    ``Flight.stalled_turn``, ``RoundState.weapon_ready`` (and this version's own new fields) lacks them: each loads
    with its default, and the world plays on as one made fresh with those defaults would."""
    world = build_scene(read_scene(name)).world
    world.save(tmp_path / "new.json")
    data = json.loads((tmp_path / "new.json").read_text(encoding="utf-8"))
    removed = _strip_new_fields(data)
    assert removed
    data["version"] = 2
    (tmp_path / "old.json").write_text(json.dumps(data), encoding="utf-8")
    loaded = World.load(tmp_path / "old.json")
    assert play(loaded, 3) == play(world, 3)


def test_a_save_lacking_a_field_its_version_has_is_refused_naming_it(tmp_path: Path) -> None:
    """A field new in version 3 is missing from a version 3 save, or a field of every version from a version 2 save:
    both refused, by name."""
    world = build_scene(read_scene("cavalry_charge")).world
    world.save(tmp_path / "new.json")
    data = json.loads((tmp_path / "new.json").read_text(encoding="utf-8"))
    _strip_new_fields(data)
    (tmp_path / "lacking.json").write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(SaveError, match=r"rules\.gurps\.options\.lance_speed_bonus: missing"):
        World.load(tmp_path / "lacking.json")
    data["version"] = 2
    del data["entities"][0]["components"]["gurps.Control"]["state"]
    (tmp_path / "old.json").write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(SaveError, match=r"gurps\.Control\.state: missing"):
        World.load(tmp_path / "old.json")

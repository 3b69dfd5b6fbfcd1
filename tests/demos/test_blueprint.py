"""A scene built from its blueprint (once checked, built again per study run) against the same scene built with
every check: the same entities, components, systems and script, the same turns; each build's own components."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from esper_motion.components import Hold, Mount
from esper_motion.demos import scene as scenes
from esper_motion.demos.scene import Blueprint, Scene, build_scene
from esper_motion.demos.scene_file import SceneError, read_scene, scene_names, scene_path
from esper_motion.ecs import IntentError
from esper_motion.ecs.fields import plan


def _state(scene: Scene) -> list[tuple[int, list[tuple[type[Any], Any]]]]:
    """Every entity of the scene's world with its components, by type, in the order the entity holds them."""
    world = scene.world
    return [(entity, [(type(c), c) for c in world.components(entity)]) for entity in world.entities()]


@pytest.mark.parametrize("name", scene_names())
def test_a_blueprint_builds_and_plays_what_build_scene_builds_and_plays(name: str) -> None:
    spec = read_scene(name)
    checked = build_scene(spec, 5)
    built = Blueprint.of(spec).build(5)
    assert _state(built) == _state(checked)
    assert [type(s) for s in built.world.systems] == [type(s) for s in checked.world.systems]
    assert built.driver.orders == checked.driver.orders
    assert built.driver.dice == checked.driver.dice
    assert (built.names, built.colours, built.zones, built.readout_names) == (
        checked.names,
        checked.colours,
        checked.zones,
        checked.readout_names,
    )
    assert built.world.dice.getstate() == checked.world.dice.getstate()
    for _ in range(spec.turns):
        try:
            events = checked.step()
        except IntentError as refused:
            with pytest.raises(IntentError, match=str(refused)):
                built.step()
            break
        assert built.step() == events
        assert _state(built) == _state(checked)


def test_a_blueprint_gives_each_build_components_of_its_own() -> None:
    blueprint = Blueprint.of(read_scene("cavalry_charge"))
    first, second = blueprint.build(1), blueprint.build(2)
    destrier = first.world.get(1, Mount)
    destrier.riders.clear()
    assert second.world.get(1, Mount).riders == [2]
    assert blueprint.build(3).world.get(1, Mount).riders == [2]


def test_a_blueprint_builds_a_component_with_no_fields_again() -> None:
    blueprint = Blueprint.of(read_scene("car"))  # the car holds a Hold goal, a component with no fields
    first, second = (blueprint.build(seed).world.get(1, Hold) for seed in (1, 2))
    assert first == second == Hold()
    assert first is not second


def test_a_blueprint_world_without_the_undo_copy() -> None:
    blueprint = Blueprint.of(read_scene("cavalry_charge"))
    assert blueprint.build(1).world.transactional
    assert not blueprint.build(1, transactional=False).world.transactional


def test_a_scene_the_checks_refuse_is_refused_when_its_blueprint_is_made(tmp_path: Path) -> None:
    # The Knight rides a Horse whose Mount lists no rider: refused both ways, naming the same entity and field.
    path = tmp_path / "bad.toml"
    text = scene_path("cavalry_charge").read_text(encoding="utf-8")
    path.write_text(text.replace('riders = [{ entity = "Knight" }]', "riders = []"), encoding="utf-8")
    spec = read_scene(str(path))
    with pytest.raises(SceneError) as checked:
        build_scene(spec)
    with pytest.raises(SceneError) as made:
        Blueprint.of(spec)
    assert str(made.value) == str(checked.value)
    assert (made.value.where, made.value.field) == ("entity 'Knight'", "gurps.Rider.mount")


@pytest.mark.parametrize("name", scene_names())
def test_the_fields_the_builder_takes_as_written_are_what_the_full_conversion_gives(name: str) -> None:
    # The builder passes over the conversion for a field whose type is neither an enum nor a generic, unless its
    # value is a table (an entity reference): every field of every component of every bundled scene, both ways.
    spec = read_scene(name)
    ids = Blueprint.of(spec).ids
    tables = [(f"entity {a.name!r}", parts) for a in spec.actors for parts in a.components]
    tables += [(f"terrain {z.label!r}", parts) for z in spec.zones for parts in z.components]
    for where, (cls, fields) in tables:
        kinds = {field.name: field.kind for field in plan(cls).fields}
        taken = scenes._values(spec.path, where, cls, fields, ids)
        converted = {key: scenes._convert(value, kinds[key], ids) for key, value in fields.items()}
        assert [(key, type(value), value) for key, value in taken.items()] == [
            (key, type(value), value) for key, value in converted.items()
        ]

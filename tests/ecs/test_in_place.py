"""Lists and dicts in components changed in place between steps are checked at the step, as assigned fields are."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from support import gurps_world
from support.highspeed import mover
from support.mounted import mounted_pair
from support.worlds import fingerprint

from esper_motion.components import Skills
from esper_motion.components.mount import Mount
from esper_motion.ecs import MotionError, Phase, System, World

CHANGES: dict[str, tuple[Callable[[World, int, int], None], str]] = {
    "a skill level below 0": (
        lambda world, horse, rider: world.get(rider, Skills).levels.__setitem__("Riding", -5),
        r"entity {rider}: Skills.levels\['Riding'\] = -5",
    ),
    "a rider the rider does not know of": (
        lambda world, horse, rider: world.get(horse, Mount).riders.append(max(world.entities())),
        r"entity {horse}: Mount.riders",
    ),
}


@pytest.mark.parametrize("change", sorted(CHANGES))
@pytest.mark.parametrize("stepped", [False, True])
def test_a_container_changed_in_place_between_steps_is_refused_at_the_step(change: str, stepped: bool) -> None:
    world = gurps_world()
    horse, rider = mounted_pair(world)
    mover(world, at=(4, 4))  # on foot, no rider
    if stepped:
        world.step()
    make, refusal = CHANGES[change]
    make(world, horse, rider)
    before = fingerprint(world)
    with pytest.raises(MotionError, match=refusal.format(horse=horse, rider=rider)):
        world.step()
    assert fingerprint(world) == before
    with pytest.raises(MotionError, match=refusal.format(horse=horse, rider=rider)):
        world.step()  # refused again until the game puts it right


def test_a_valid_change_in_place_plays_on_and_saves(tmp_path: Path) -> None:
    world = gurps_world()
    _, rider = mounted_pair(world)
    world.step()
    world.get(rider, Skills).levels["Riding"] = 15
    world.step()
    world.save(tmp_path / "game.json")
    assert World.load(tmp_path / "game.json").get(rider, Skills).levels["Riding"] == 15


def test_a_list_or_dict_field_given_a_value_of_another_type_is_refused_by_name() -> None:
    world = gurps_world()
    _, rider = mounted_pair(world)
    world.step()
    world.get(rider, Skills).levels = 0  # type: ignore[assignment]
    with pytest.raises(MotionError, match=rf"entity {rider}: Skills.levels = 0"):
        world.step()


class Trainer(System):
    """A game's own system that changes a skill level in place during the turn."""

    phase = Phase.INTENT

    def __init__(self, rider: int) -> None:
        super().__init__()
        self.rider = rider

    def run(self) -> None:
        self.world.get(self.rider, Skills).levels["Riding"] = -5


def test_a_container_a_games_system_changes_in_place_is_refused_before_the_rules_read_it() -> None:
    world = gurps_world()
    _, rider = mounted_pair(world)
    world.add_system(Trainer(rider))
    before = fingerprint(world)
    with pytest.raises(MotionError, match=rf"entity {rider}: Skills.levels\['Riding'\] = -5"):
        world.step()
    assert fingerprint(world) == before

"""Links between riders, mounts and carriers (Basic Set: Mounted Combat > Multiple Riders; issue 15, finding 3):
checked for consistency when a save is loaded or written, when a spawn or an add brings them, and by
``esper_motion.ecs.check_links`` for the whole world; a carrier's despawn frees what it carried through the rules."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from support import gurps_world, of_type
from support.mounted import mounted_pair, spawn_horse, spawn_rider

from esper_motion.components import Control, Facing, Intent, Mount, Mover, Position, Rider, Velocity
from esper_motion.ecs import LinkError, SaveError, World, check_links
from esper_motion.systems.gurps import CarrierGone, Moved, Rules

Edit = Callable[[dict[int, dict[str, Any]]], None]


def components(data: dict[str, Any]) -> dict[int, dict[str, Any]]:
    """A save's components by entity id, to edit in place."""
    return {record["id"]: record["components"] for record in data["entities"]}


def saved_pair(tmp_path: Path) -> tuple[dict[str, Any], int, int, int]:
    """A save of a horse with its rider seated, and a second horse: its data, horse, rider, other horse."""
    world = gurps_world()
    horse, rider = mounted_pair(world)
    other = spawn_horse(world, at=(0, 6))
    world.save(tmp_path / "good.json")
    data: dict[str, Any] = json.loads((tmp_path / "good.json").read_text(encoding="utf-8"))
    return data, horse, rider, other


def load_edited(tmp_path: Path, edit: Callable[[dict[int, dict[str, Any]], int, int, int], None]) -> World:
    data, horse, rider, other = saved_pair(tmp_path)
    edit(components(data), horse, rider, other)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    return World.load(bad)


def no_mount(table: dict[int, dict[str, Any]], horse: int, rider: int, other: int) -> None:
    """The rider sits on the horse, which is stripped of its Mount."""
    del table[horse]["gurps.Mount"]


def two_mounts(table: dict[int, dict[str, Any]], horse: int, rider: int, other: int) -> None:
    """The other horse lists the rider too."""
    table[other]["gurps.Mount"]["riders"] = [rider]


def loop(table: dict[int, dict[str, Any]], horse: int, rider: int, other: int) -> None:
    """The horse rides its own rider: rider -> horse -> rider."""
    table[horse]["gurps.Rider"] = dict(table[rider]["gurps.Rider"], mount=rider)
    table[horse]["gurps.Control"]["carried_by"] = rider
    table[rider]["gurps.Mount"] = dict(table[other]["gurps.Mount"], riders=[horse])


def carried_by_missing(table: dict[int, dict[str, Any]], horse: int, rider: int, other: int) -> None:
    """The other horse is carried by an entity the save does not hold."""
    table[other]["gurps.Control"]["carried_by"] = 99


def carried_by_other(table: dict[int, dict[str, Any]], horse: int, rider: int, other: int) -> None:
    """The seated rider is carried by the other horse, not its mount."""
    table[rider]["gurps.Control"]["carried_by"] = other


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (no_mount, r"entity 2: gurps.Rider.mount: 1: entity 1 has no Mount to ride"),
        (two_mounts, r"entity 3: gurps.Mount.riders\[0\]: 2: entity 2 rides entity 1"),
        (loop, r"entity 1: gurps.Rider.mount: 2: the riding chain 1 -> 2 -> 1 loops back to it"),
        (carried_by_missing, r"entity 3: gurps.Control: links to entity 99, which is not in the save"),
        (carried_by_other, r"entity 2: gurps.Control.carried_by: 3: a rider is carried by its mount, and Rider.mount"),
    ],
    ids=["a rider on an entity with no Mount", "two mounts claim one rider", "A rides B rides A",
         "carried by a missing entity", "carried by another than its mount"],
)  # fmt: skip
def test_a_save_whose_links_cannot_stand_is_refused_when_loaded(
    tmp_path: Path, edit: Callable[[dict[int, dict[str, Any]], int, int, int], None], message: str
) -> None:
    """Each of these used to load, and then every step raised (or, carried by a missing entity, froze in place)."""
    with pytest.raises(SaveError, match=message):
        load_edited(tmp_path, edit)


def test_a_world_whose_links_cannot_stand_is_refused_when_saved_and_the_old_save_kept(tmp_path: Path) -> None:
    world = gurps_world()
    horse, rider = mounted_pair(world)
    other = spawn_horse(world, at=(0, 6))
    target = tmp_path / "game.json"
    world.save(target)
    before = target.read_bytes()
    world.get(other, Mount).riders.append(rider)  # written by hand between steps: two mounts claim the rider
    with pytest.raises(SaveError, match=rf"entity {other}: gurps.Mount.riders\[0\]: {rider}: entity {rider} rides"):
        world.save(target)
    assert target.read_bytes() == before
    assert World.load(target).get(horse, Mount).riders == [rider]


# --- at spawn and add: what the new components claim of entities that exist -----------------------------------


def test_a_spawn_or_add_that_closes_a_riding_loop_is_refused_and_changes_nothing() -> None:
    world = gurps_world()
    first, second = spawn_horse(world), spawn_horse(world, at=(4, 0))
    world.get(first, Control).carried_by = second  # a rider is carried by its mount
    world.add(first, Rider(mount=second))  # the other side (Mount.riders) may follow: one way only
    world.get(second, Mount).riders.append(first)
    world.get(second, Control).carried_by = first
    with pytest.raises(LinkError, match=rf"entity {second}: Rider.mount = {first}: the riding chain {second} -> "
                       rf"{first} -> {second} loops back to it"):  # fmt: skip
        world.add(second, Rider(mount=first))
    assert not world.has(second, Rider)
    with pytest.raises(LinkError, match=r"Rider.mount = 3: the riding chain 3 -> 3 loops back"):
        world.spawn(Rider(mount=3))
    assert world.entities() == [first, second]
    assert world.spawn() == 3  # the refused spawn used no id


def test_a_spawned_mount_claiming_a_rider_of_another_mount_is_refused() -> None:
    world = gurps_world()
    horse, rider = mounted_pair(world)
    with pytest.raises(LinkError, match=rf"Mount.riders\[0\] = {rider}: entity {rider} rides entity {horse}"):
        world.spawn(Position(0, 6), Mount(riders=[rider]))
    assert world.entities() == [horse, rider]


def test_a_rider_spawned_with_a_control_that_does_not_follow_its_mount_is_refused() -> None:
    world = gurps_world()
    horse = spawn_horse(world)
    with pytest.raises(LinkError, match=rf"Control.carried_by = None: a rider is carried by its mount, and "
                       rf"Rider.mount is {horse}"):  # fmt: skip
        world.spawn(Position(0, 1), Rider(mount=horse), Control())
    seated = world.spawn(Position(0, 1), Rider(mount=horse), Control(carried_by=horse))  # one way: the horse may
    world.get(horse, Mount).riders.append(seated)  # list it afterwards
    check_links(world)


def test_an_add_is_checked_beside_the_components_the_entity_has() -> None:
    """A seated rider given a fresh Rider (on foot) while its Control still says it is carried by the horse."""
    world = gurps_world()
    horse, rider = mounted_pair(world)
    with pytest.raises(LinkError, match=rf"entity {rider}: Control.carried_by = {horse}: a rider is carried by its "
                       r"mount, and Rider.mount is None"):  # fmt: skip
        world.add(rider, Rider())
    assert world.get(rider, Rider).mount == horse


def test_links_to_entities_not_yet_spawned_are_left_for_later() -> None:
    """A link to an id that does not exist yet is no error at spawn: the game may spawn that entity next."""
    world = gurps_world()
    horse = world.spawn(Position(0, 0), Mount(riders=[2]))
    rider = world.spawn(Position(0, 1), Rider(mount=horse), Control(carried_by=horse))
    assert rider == 2
    check_links(world)


# --- the whole world, as a step would check it -------------------------------------------------------------------


def test_check_links_finds_a_link_one_side_does_not_share() -> None:
    world = gurps_world()
    horse = spawn_horse(world)
    rider = spawn_rider(world)
    world.get(rider, Rider).mount = world.get(rider, Control).carried_by = horse
    with pytest.raises(LinkError, match=rf"entity {rider}: Rider.mount = {horse}: Mount.riders of entity {horse} is "
                       r"\[\], without it"):  # fmt: skip
        check_links(world)
    world.get(horse, Mount).riders.append(rider)
    check_links(world)


def test_check_links_leaves_a_gone_mount_to_the_rules() -> None:
    """Despawned, or stripped of its Mount: the MOUNTED phase unseats the rider through the rules (a fall)."""
    world = gurps_world()
    horse, _ = mounted_pair(world)
    world.remove(horse, Mount)
    check_links(world)
    with pytest.raises(LinkError, match=rf"entity {horse} has no Mount to ride"):
        check_links(world, strict=True)
    world.despawn(horse)
    check_links(world)


# --- a carrier's despawn frees what it carried, through the rules -------------------------------------------------


@pytest.mark.parametrize("chosen", [Rules.basic(), Rules.house()], ids=["basic", "house"])
def test_a_passenger_whose_carrier_is_despawned_is_put_down_and_moves_again(chosen: Rules) -> None:
    """A passenger that is no rider (``Control.carried_by`` only) used to stay frozen once its carrier was gone. The
    MOUNTED phase of the next turn puts it down where it is (CarrierGone); the turn after, it walks: from velocity 0
    a throttle of +3 moves it 0 + 3 = 3 yd east at once (ordinary movement: no turn lost to the standing start), from
    (0, 0) to (3, 0), at 3 yd/s."""
    world = gurps_world(chosen)
    wagon = world.spawn(Position(0, 0), Facing(0), Velocity(0), Mover(basic_move=5), Control(), Intent())
    passenger = world.spawn(
        Position(0, 0), Facing(0), Velocity(0), Mover(basic_move=5, dx=12), Control(carried_by=wagon), Intent()
    )
    check_links(world)
    world.despawn(wagon)
    events = world.step()
    assert of_type(events, CarrierGone) == [CarrierGone(passenger, wagon)]
    assert world.get(passenger, Control).carried_by is None
    world.get(passenger, Intent).throttle = 3
    moved = of_type(world.step(), Moved)
    assert world.get(passenger, Velocity).yps == 3
    assert [(event.entity, event.path) for event in moved] == [(passenger, ((1, 0), (2, 0), (3, 0)))]

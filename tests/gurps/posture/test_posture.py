"""Change Posture, and the optional rule Changing Posture in Armor (Basic Set: Changing Posture in Armor)."""

from __future__ import annotations

import pytest

from esper_motion.components import Condition, Control, Facing, Position, Velocity
from esper_motion.components.gurps import Intent, Maneuver, Mover, Posture, PostureState
from esper_motion.ecs import Event, IntentError, World
from esper_motion.systems.gurps import Rules, install, preview
from esper_motion.systems.gurps.events import PostureChangeAbandoned, PostureChanged, PostureChanging


def armored_world(posture_in_armor: bool = True) -> World:
    world = World(seed=1)
    install(world, Rules(posture_in_armor=posture_in_armor))
    return world


def fighter(world: World, encumbrance: int, state: PostureState = PostureState.KNEELING) -> int:
    return world.spawn(
        Mover(basic_move=5, encumbrance=encumbrance),
        Posture(state, target=PostureState.STANDING),
        Intent(Maneuver.CHANGE_POSTURE),
    )


def step_changing(world: World, entity: int) -> list[Event]:
    """One turn on which the entity takes Change Posture (an intent lasts one turn)."""
    world.get(entity, Intent).maneuver = Maneuver.CHANGE_POSTURE
    return [event for event in world.step() if getattr(event, "entity", None) == entity]


def test_an_armored_fighter_at_heavy_encumbrance_takes_three_seconds_to_stand() -> None:
    world = armored_world()
    knight = fighter(world, encumbrance=3)
    assert step_changing(world, knight) == [PostureChanging(knight, "kneeling", "standing", 2)]
    assert world.get(knight, Posture).state is PostureState.KNEELING
    assert step_changing(world, knight) == [PostureChanging(knight, "kneeling", "standing", 1)]
    assert world.get(knight, Posture).state is PostureState.KNEELING
    assert step_changing(world, knight) == [PostureChanged(knight, "kneeling", "standing")]
    assert world.get(knight, Posture) == Posture(PostureState.STANDING)


@pytest.mark.parametrize(
    ("encumbrance", "seconds"),
    [(0, 1), (1, 1), (2, 2), (3, 3), (4, 4)],
    ids=["None -> 1 s", "Light -> 1 s", "Medium -> 2 s", "Heavy -> 3 s", "X-Heavy -> 4 s"],
)
def test_posture_change_takes_one_second_per_level_past_light(encumbrance: int, seconds: int) -> None:
    world = armored_world()
    knight = fighter(world, encumbrance)
    turns = 0
    while world.get(knight, Posture).state is PostureState.KNEELING:
        step_changing(world, knight)
        turns += 1
    assert turns == seconds


def test_without_the_optional_rule_every_change_takes_one_second() -> None:
    world = armored_world(posture_in_armor=False)
    knight = fighter(world, encumbrance=4)
    assert step_changing(world, knight) == [PostureChanged(knight, "kneeling", "standing")]


def test_an_entity_without_a_mover_carries_nothing() -> None:
    world = armored_world()
    squire = world.spawn(Posture(PostureState.SITTING, target=PostureState.STANDING), Intent(Maneuver.CHANGE_POSTURE))
    assert step_changing(world, squire) == [PostureChanged(squire, "sitting", "standing")]


def test_another_maneuver_abandons_the_change_and_the_next_try_starts_over() -> None:
    world = armored_world()
    knight = fighter(world, encumbrance=2)
    step_changing(world, knight)
    world.get(knight, Intent).maneuver = Maneuver.ATTACK
    assert [e for e in world.step() if isinstance(e, PostureChangeAbandoned)] == [
        PostureChangeAbandoned(knight, "kneeling", "standing", 1)
    ]
    assert world.get(knight, Posture) == Posture(PostureState.KNEELING)
    world.get(knight, Posture).target = PostureState.STANDING
    assert step_changing(world, knight) == [PostureChanging(knight, "kneeling", "standing", 1)]


def test_the_time_is_set_when_the_change_begins() -> None:
    world = armored_world()
    knight = fighter(world, encumbrance=4)
    step_changing(world, knight)
    world.get(knight, Mover).encumbrance = 0
    assert step_changing(world, knight) == [PostureChanging(knight, "kneeling", "standing", 2)]


@pytest.mark.parametrize(
    ("target", "message"),
    [(None, "Posture.target set to a posture other than kneeling"), (PostureState.KNEELING, "other than kneeling")],
    ids=["no target", "target is the posture it has"],
)
def test_change_posture_without_a_new_posture_is_refused(target: PostureState | None, message: str) -> None:
    world = armored_world()
    knight = world.spawn(Mover(basic_move=5), Posture(PostureState.KNEELING, target=target), Intent())
    with pytest.raises(IntentError, match=message):
        step_changing(world, knight)
    assert world.turn == 0
    assert world.get(knight, Posture) == Posture(PostureState.KNEELING, target=target)


@pytest.mark.parametrize("target", [None, PostureState.KNEELING], ids=["no target", "target is the posture it has"])
def test_preview_refuses_a_change_posture_the_step_would_refuse(target: PostureState | None) -> None:
    """Issue 15, finding 13: the preview used to forecast a Change Posture with no target posture that the step then
    refused; now both refuse it with the same error, and the world is left as it was."""
    world = armored_world()
    knight = world.spawn(
        Position(0, 0), Facing(0), Velocity(0), Mover(basic_move=5, dx=12), Control(), Condition(),
        Posture(PostureState.KNEELING, target=target), Intent(Maneuver.CHANGE_POSTURE),
    )  # fmt: skip
    with pytest.raises(IntentError, match=r"Change Posture needs Posture\.target") as forecast:
        preview(world, knight)
    with pytest.raises(IntentError) as stepped:
        world.step()
    assert str(forecast.value) == str(stepped.value)
    assert world.get(knight, Posture) == Posture(PostureState.KNEELING, target=target)
    world.get(knight, Posture).target = PostureState.STANDING
    assert preview(world, knight).rolls == ()

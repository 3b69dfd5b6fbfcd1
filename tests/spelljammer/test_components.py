"""Spelljammer components and options: values checked on construction, text turned into members, links."""

from __future__ import annotations

import pytest

from esper_motion.components.spelljammer import (
    Mobility,
    RangedWeapon,
    RoundIntent,
    RoundState,
    SpeedMode,
    Vegetation,
    VegetationZone,
    parse_time_dice,
)
from esper_motion.ecs import RuleValueError, name_of
from esper_motion.systems.spelljammer import Options


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"tmr": -1, "dex": 10}, "Mobility.tmr = -1: expected a whole number from 0 to 5000"),
        ({"tmr": 9.5, "dex": 10}, "Mobility.tmr = 9.5"),
        ({"tmr": 9, "dex": 0}, "Mobility.dex = 0: expected a whole number, 1 or more"),
        ({"tmr": 9, "dex": 10, "attacks": -1}, "Mobility.attacks = -1"),
        ({"tmr": 9, "dex": 10, "encumbrance": 3}, "Mobility.encumbrance = 3: expected a whole number from 0 to 2"),
        ({"tmr": 9, "dex": 10, "skills": {"Acrobatics": 0}}, "Mobility.skills['Acrobatics'] = 0"),
        ({"tmr": 9, "dex": 10, "skills": {"": 5}}, "Mobility.skills = ''"),
        ({"tmr": 9, "dex": 10, "skills": [("Acrobatics", 5)]}, "Mobility.skills = "),
        ({"tmr": 9, "dex": 10, "master_reduction": -5}, "Mobility.master_reduction = -5"),
        ({"tmr": 9, "dex": 10, "large": 1}, "Mobility.large = 1: expected True or False"),
        ({"tmr": 9, "dex": 10, "centaur": "yes"}, "Mobility.centaur = 'yes'"),
    ],
    ids=[
        "negative TMR",
        "fractional TMR",
        "DEX 0",
        "negative attacks",
        "encumbrance 3",
        "skill score 0",
        "unnamed skill",
        "skills not a dict",
        "negative Master reduction",
        "large not bool",
        "centaur not bool",
    ],
)
def test_mobility_refuses_bad_values(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(RuleValueError) as caught:
        Mobility(**kwargs)  # type: ignore[arg-type]
    assert str(caught.value).startswith(message)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"mode": "jog"}, "RoundIntent.mode = 'jog': expected one of 'dodge', 'walk', 'run', 'sprint'"),
        ({"heading": 6}, "RoundIntent.heading = 6: expected a whole number from 0 to 5"),
        ({"flee_from": (2, 2), "heading": 0}, "RoundIntent.flee_from = (2, 2): expected a tuple of distinct"),
        ({"flee_from": 2, "heading": 0}, "RoundIntent.flee_from = 2"),
        ({"flee_from": (0,), "heading": 0}, "RoundIntent.flee_from = 0: expected a whole number, 1 or more"),
        (
            {"flee_from": (2,)},
            "RoundIntent.heading = None: expected a hexside 0-5 to flee along (or a runner to chase)",
        ),
        ({"allies": -1}, "RoundIntent.allies = -1"),
        ({"chase": 0}, "RoundIntent.chase = 0"),
        ({"chase": 2, "heading": 1}, "RoundIntent.heading = 1: expected None while chasing"),
        ({"chase": 2, "flee_from": (2,), "heading": None}, "RoundIntent.chase = 2: expected an entity not in"),
        ({"match_speed": 1}, "RoundIntent.match_speed = 1"),
        ({"pursuit_dice": "2"}, "RoundIntent.pursuit_dice = '2': expected dice with explicit sides"),
        ({"pursuit_dice": "1d"}, "RoundIntent.pursuit_dice = '1d'"),
        ({"pursuit_dice": "1d1"}, "RoundIntent.pursuit_dice = '1d1'"),
        ({"pursuit_dice": "1d2-2"}, "RoundIntent.pursuit_dice = '1d2-2': expected dice that cannot roll below 0"),
        ({"pursuit_label": 3}, "RoundIntent.pursuit_label = 3"),
        ({"pursuit_skill": ""}, "RoundIntent.pursuit_skill = ''"),
        ({"shots": -1}, "RoundIntent.shots = -1"),
        ({"weapon": "sling"}, "RoundIntent.weapon = 'sling': expected one of 'short_bow', 'long_bow'"),
        ({"reloads_itself": None}, "RoundIntent.reloads_itself = None"),
    ],
    ids=[
        "unknown mode",
        "heading 6",
        "foe twice",
        "flee_from not a tuple",
        "entity id 0",
        "fleeing without heading",
        "negative allies",
        "chase id 0",
        "pursuer with heading",
        "chasing a foe it flees",
        "match_speed not bool",
        "dice without d",
        "dice without sides",
        "one-sided die",
        "dice rolling below 0",
        "label not text",
        "empty skill name",
        "negative shots",
        "unknown weapon",
        "reloads_itself not bool",
    ],
)
def test_round_intent_refuses_bad_values(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(RuleValueError) as caught:
        RoundIntent(**kwargs)  # type: ignore[arg-type]
    assert str(caught.value).startswith(message)


def test_round_intent_turns_text_into_members_as_read_from_a_file() -> None:
    intent = RoundIntent(mode="fast_sprint", weapon="long_bow", flee_from=[3, 4], heading=2)  # type: ignore[arg-type]
    assert intent.mode is SpeedMode.FAST_SPRINT
    assert intent.weapon is RangedWeapon.LONG_BOW
    assert intent.flee_from == (3, 4)


def test_round_intent_check_catches_a_field_changed_after_construction() -> None:
    intent = RoundIntent()
    intent.shots = -2
    with pytest.raises(RuleValueError, match=r"^RoundIntent\.shots = -2"):
        intent.check()


def test_a_pursuer_may_flee_its_other_foes_without_a_heading() -> None:
    assert RoundIntent(chase=3, flee_from=(4,)).heading is None


def test_links_name_every_entity_a_component_refers_to() -> None:
    assert RoundIntent(flee_from=(5, 6), heading=0).links() == (5, 6)
    assert RoundIntent(chase=7).links() == (7,)
    assert RoundIntent().links() == ()
    assert RoundState(fled_from=(5,)).links() == (5,)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"mode": "crawl"}, "RoundState.mode = 'crawl'"),
        ({"vegetation": "thin"}, "RoundState.vegetation = 'thin'"),
        ({"squares": -1.0}, "RoundState.squares = -1.0"),
        ({"moved_hex": -1}, "RoundState.moved_hex = -1"),
        ({"carry_hex": 1.0}, "RoundState.carry_hex = 1.0: expected a fraction from 0 up to (not including) 1"),
        ({"carry_hex": -0.5}, "RoundState.carry_hex = -0.5"),
        ({"seconds_lost": -1}, "RoundState.seconds_lost = -1"),
        ({"seconds_owed": 2.5}, "RoundState.seconds_owed = 2.5"),
        ({"fallen": 0}, "RoundState.fallen = 0"),
        ({"nonlethal_taken": -3}, "RoundState.nonlethal_taken = -3"),
        ({"nonlethal_total": -3}, "RoundState.nonlethal_total = -3"),
        ({"fled_from": (1, 1)}, "RoundState.fled_from = (1, 1)"),
    ],
    ids=[
        "unknown mode",
        "unknown vegetation",
        "negative squares",
        "negative hexes",
        "carry of a whole hex",
        "negative carry",
        "negative seconds lost",
        "fractional seconds owed",
        "fallen not bool",
        "negative damage this round",
        "negative total damage",
        "foe twice",
    ],
)
def test_round_state_refuses_bad_values(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(RuleValueError) as caught:
        RoundState(**kwargs)  # type: ignore[arg-type]
    assert str(caught.value).startswith(message)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"vegetation": "jungle"}, "VegetationZone.vegetation = 'jungle': expected one of 'heavy', 'dense'"),
        ({"vegetation": Vegetation.DENSE, "radius_hex": -1}, "VegetationZone.radius_hex = -1"),
        ({"vegetation": Vegetation.DENSE, "hexes": ((0, 0, 0),)}, "VegetationZone.hexes = (0, 0, 0): expected a hex"),
        ({"vegetation": Vegetation.DENSE, "hexes": "0,0"}, "VegetationZone.hexes = '0,0'"),
        ({"vegetation": Vegetation.DENSE, "radius_hex": None}, "VegetationZone.hexes = (): expected at least one"),
    ],
    ids=["unknown vegetation", "negative radius", "three coordinates", "hexes as text", "no hexes at all"],
)
def test_vegetation_zone_refuses_bad_values(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(RuleValueError) as caught:
        VegetationZone(**kwargs)  # type: ignore[arg-type]
    assert str(caught.value).startswith(message)


@pytest.mark.parametrize(
    ("text", "parts"),
    [("1d2", (1, 2, 0)), ("d3+1", (1, 3, 1)), ("2d6", (2, 6, 0)), ("1d4-1", (1, 4, -1))],
    ids=["1d2", "d3+1", "2d6", "1d4-1"],
)
def test_parse_time_dice(text: str, parts: tuple[int, int, int]) -> None:
    assert parse_time_dice("test", "dice", text) == parts


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"hex_ft": 0}, "Options.hex_ft = 0: expected a whole number, 1 or more"),
        ({"chase_on_map": "yes"}, "Options.chase_on_map = 'yes'"),
        ({"larger_dice": None}, "Options.larger_dice = None"),
        ({"max_die_steps": -1}, "Options.max_die_steps = -1: expected a whole number, 0 or more"),
        ({"half_move_fire": "run"}, "Options.half_move_fire = 'run': expected one of 'normal', 'walk'"),
    ],
    ids=[
        "hex of 0 feet",
        "chase_on_map not bool",
        "larger_dice not bool",
        "max_die_steps negative",
        "half_move_fire not a reading",
    ],
)
def test_options_refuse_bad_values(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(RuleValueError) as caught:
        Options(**kwargs)  # type: ignore[arg-type]
    assert str(caught.value).startswith(message)


@pytest.mark.parametrize(
    ("hex_ft", "contact"),
    [(1, 5), (2, 3), (3, 2), (4, 2), (5, 1), (10, 1)],
    ids=["1 ft hex", "2 ft hex", "one-yard hex", "4 ft hex", "5 ft hex: one square", "10 ft hex"],
)
def test_contact_is_one_square_in_hexes_rounded_up(hex_ft: int, contact: int) -> None:
    assert Options(hex_ft=hex_ft).contact_hex == contact


@pytest.mark.parametrize(
    ("cls", "name"),
    [
        (Mobility, "spelljammer.Mobility"),
        (RoundIntent, "spelljammer.RoundIntent"),
        (RoundState, "spelljammer.RoundState"),
        (VegetationZone, "spelljammer.VegetationZone"),
    ],
    ids=["Mobility", "RoundIntent", "RoundState", "VegetationZone"],
)
def test_components_carry_stable_names_for_saving(cls: type, name: str) -> None:
    assert name_of(cls) == name

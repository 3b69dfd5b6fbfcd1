"""``Rules``: each option's readings, given as members or as the text a scene or a save writes, and the table of
turning-radius readings."""

from __future__ import annotations

import dataclasses

import pytest

from esper_motion.ecs import RuleValueError
from esper_motion.systems.gurps import Rules
from esper_motion.systems.gurps.rules import RADIUS_READINGS, RadiusVariant, Variant


def test_every_turning_radius_reading_has_one_row() -> None:
    assert list(RADIUS_READINGS) == list(RadiusVariant)


@pytest.mark.parametrize(
    ("field", "allowed"),
    [
        ("turning_radius", "'basic', 'house', 'realistic'"),
        ("control", "'basic', 'house'"),
        ("flight", "'basic', 'house'"),
        ("mounts", "'basic', 'house'"),
    ],
)
def test_a_misspelt_reading_is_refused_naming_the_field_and_what_is_allowed(field: str, allowed: str) -> None:
    with pytest.raises(RuleValueError) as caught:
        Rules(**{field: "hosue"})
    assert str(caught.value) == f"Rules.{field} = 'hosue': expected one of {allowed} (the closest is 'house')"


def test_a_reading_given_as_text_is_kept_as_its_member() -> None:
    chosen = Rules(turning_radius="realistic", control="house", flight="house", mounts="house")  # type: ignore[arg-type]
    assert chosen.turning_radius is RadiusVariant.REALISTIC
    assert (chosen.control, chosen.flight, chosen.mounts) == (Variant.HOUSE,) * 3
    assert all(isinstance(value, Variant) for value in (chosen.control, chosen.flight, chosen.mounts))
    assert chosen == dataclasses.replace(Rules.house(), turning_radius=RadiusVariant.REALISTIC, lance_speed_bonus=False)
    assert repr(chosen.turning_radius) == "'realistic'"
    assert f"{chosen.mounts}" == "house"


@pytest.mark.parametrize(
    ("chosen", "house"),
    [
        (Rules.basic(), (False, False, False)),
        (Rules.house(), (True, True, True)),
        (Rules(flight=Variant.HOUSE), (False, True, False)),
    ],
)
def test_the_predicates_say_which_options_play_the_house_reading(chosen: Rules, house: tuple[bool, ...]) -> None:
    assert (chosen.house_control, chosen.house_flight, chosen.house_mounts) == house

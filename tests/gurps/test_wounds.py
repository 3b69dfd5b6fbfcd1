"""The pure general-injury rules, row by row (Basic Set: Injury, as in docs/architecture.md > Facts the rules lean
on)."""

from __future__ import annotations

import pytest

from esper_motion.ecs.errors import RuleValueError
from esper_motion.systems.gurps import rules


@pytest.mark.parametrize(
    ("margin", "critical", "outcome"),
    [(3, False, "NONE"), (0, False, "NONE"), (-1, False, "STUNNED"), (-4, False, "STUNNED"), (-5, False, "UNCONSCIOUS"),
     (-9, False, "UNCONSCIOUS"), (-4, True, "UNCONSCIOUS")],
)  # fmt: skip
def test_major_wound_outcome_by_margin(margin: int, critical: bool, outcome: str) -> None:
    assert rules.major_wound_outcome(margin, critical).name == outcome


@pytest.mark.parametrize(
    ("margin", "outcome"), [(0, "SURVIVES"), (-1, "MORTALLY_WOUNDED"), (-2, "MORTALLY_WOUNDED"), (-3, "DIES")]
)
def test_death_check_outcome_by_margin(margin: int, outcome: str) -> None:
    assert rules.death_check_outcome(margin).name == outcome


@pytest.mark.parametrize(
    ("before", "after", "crossed"),
    [(0, 21, ()), (0, 22, (1,)), (21, 33, (1, 2)), (22, 32, ()), (22, 43, (2,)), (0, 55, (1, 2, 3, 4)), (55, 80, ())],
)
def test_death_checks_each_multiple_of_hp_once(before: int, after: int, crossed: tuple[int, ...]) -> None:
    """11 HP: -1 x HP at 22 injury (11 - 22 = -11), -2 at 33, -3 at 44, -4 at 55."""
    assert rules.death_checks_crossed(11, before, after) == crossed


@pytest.mark.parametrize(("injury", "dead"), [(65, False), (66, True)])
def test_dead_at_minus_5_x_hp(injury: int, dead: bool) -> None:
    assert rules.dead_by_injury(11, injury) is dead


@pytest.mark.parametrize(("injury", "modifier"), [(11, 0), (21, 0), (22, -1), (33, -2)])
def test_zero_hp_ht_modifier_per_full_multiple_below_zero(injury: int, modifier: int) -> None:
    assert rules.zero_hp_ht_modifier(11, injury) == modifier


@pytest.mark.parametrize(("hp", "injury", "reeling"), [(11, 7, False), (11, 8, True), (12, 8, False), (12, 9, True)])
def test_reeling_below_a_third_of_hp(hp: int, injury: int, reeling: bool) -> None:
    """11 HP: 3 left is under 11/3; 12 HP: 4 left is not under 4."""
    assert rules.reeling(hp, injury) is reeling


def test_shock_after_refuses_a_bonus() -> None:
    with pytest.raises(RuleValueError, match="shock"):
        rules.shock_after(1, 2)

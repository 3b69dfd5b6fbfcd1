"""Dice expressions, GURPS success rolls (Basic Set: Success Rolls; Critical Success and Failure), exact odds,
scripting and saved state."""

from __future__ import annotations

import doctest
import itertools
import json
import random
import re
from collections.abc import Callable
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

import esper_motion.ecs.dice
from esper_motion.ecs.dice import (
    Dice,
    Roll,
    SuccessRoll,
    critical_failure_probability,
    critical_success_probability,
    is_critical_failure,
    is_critical_success,
    is_success,
    success_probability,
)
from esper_motion.ecs.errors import RuleValueError

# Ways to roll each 3d6 total, counted by hand (the number of ordered triples of faces summing to it):
# 3:1 4:3 5:6 6:10 7:15 8:21 9:25 10:27 11:27 12:25 13:21 14:15 15:10 16:6 17:3 18:1 (216 in all).


def test_module_doctests_pass() -> None:
    assert doctest.testmod(esper_motion.ecs.dice).failed == 0


# --- success and criticals, one rule boundary per row -------------------------------------------------


@pytest.mark.parametrize(
    ("total", "skill", "success", "critical_success", "critical_failure"),
    [
        (10, 10, True, False, False),
        (11, 10, False, False, False),
        (3, -10, True, True, False),
        (4, 3, True, True, False),
        (4, 2, True, True, False),
        (5, 14, True, False, False),
        (5, 15, True, True, False),
        (6, 15, True, False, False),
        (6, 16, True, True, False),
        (16, 16, True, False, False),
        (17, 16, False, False, False),
        (17, 20, False, False, False),
        (17, 15, False, False, True),
        (18, 25, False, False, True),
        (14, 5, False, False, False),
        (15, 5, False, False, True),
        (5, -5, False, False, True),
    ],
    ids=[
        "10 vs 10 -> success by 0",
        "11 vs 10 -> failure by 1",
        "3 always succeeds and is critical, even 13 over skill",
        "4 vs 3 -> critical success",
        "4 vs 2 -> success anyway, critical",
        "5 vs 14 -> plain success",
        "5 vs 15 -> critical success",
        "6 vs 15 -> plain success",
        "6 vs 16 -> critical success",
        "16 vs 16 -> plain success",
        "17 vs 16 -> always fails, not critical above skill 15",
        "17 vs 20 -> always fails, not critical",
        "17 vs 15 -> critical failure",
        "18 vs 25 -> critical failure",
        "14 vs 5 -> 9 over, plain failure",
        "15 vs 5 -> 10 over, critical failure",
        "5 vs -5 -> 10 over, critical failure",
    ],
)
def test_success_and_critical_rules(
    total: int, skill: int, success: bool, critical_success: bool, critical_failure: bool
) -> None:
    assert is_success(total, skill) is success
    assert is_critical_success(total, skill) is critical_success
    assert is_critical_failure(total, skill) is critical_failure


@given(st.integers(3, 18), st.integers(-30, 40))
def test_critical_success_is_a_success_and_critical_failure_a_failure(total: int, skill: int) -> None:
    if is_critical_success(total, skill):
        assert is_success(total, skill)
    if is_critical_failure(total, skill):
        assert not is_success(total, skill)


@pytest.mark.parametrize("function", [is_success, is_critical_success, is_critical_failure])
@pytest.mark.parametrize(("total", "skill"), [(2, 10), (19, 10), (True, 10), (10, 10.0), (10, "10")])
def test_rule_functions_refuse_impossible_input(
    function: Callable[[object, object], bool], total: object, skill: object
) -> None:
    with pytest.raises(RuleValueError, match=function.__name__):
        function(total, skill)


# --- exact odds --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("skill", "ways"),
    [
        (-5, 4),  # only the always-successes 3 (1 way) and 4 (3 ways)
        (3, 4),  # 3 and 4: 1 + 3
        (5, 10),  # 3-5: 1 + 3 + 6
        (10, 108),  # 3-10: 1 + 3 + 6 + 10 + 15 + 21 + 25 + 27
        (11, 135),  # 108 + 27
        (16, 212),  # 216 minus 17 (3 ways) and 18 (1 way), which always fail
        (18, 212),  # 17 and 18 fail even at skill 18
        (30, 212),
    ],
    ids=["skill -5", "skill 3", "skill 5", "skill 10", "skill 11", "skill 16", "skill 18", "skill 30"],
)
def test_success_probability_matches_hand_counts(skill: int, ways: int) -> None:
    assert success_probability(skill) == Fraction(ways, 216)


@pytest.mark.parametrize(
    ("skill", "ways"),
    [
        (0, 4),  # 3 and 4 only
        (14, 4),
        (15, 10),  # 3-5: 1 + 3 + 6
        (16, 20),  # 3-6: 1 + 3 + 6 + 10
        (25, 20),
    ],
    ids=["skill 0", "skill 14", "skill 15", "skill 16", "skill 25"],
)
def test_critical_success_probability_matches_hand_counts(skill: int, ways: int) -> None:
    assert critical_success_probability(skill) == Fraction(ways, 216)


@pytest.mark.parametrize(
    ("skill", "ways"),
    [
        (16, 1),  # 18 only
        (15, 4),  # 17 and 18: 3 + 1
        (7, 4),  # 10 over is 17: still 17 and 18
        (6, 10),  # 16-18: 6 + 3 + 1
        (5, 20),  # 15-18: 10 + 6 + 3 + 1
        (3, 56),  # 13-18: 21 + 15 + 10 + 6 + 3 + 1
        (-4, 206),  # 6-18: 216 - (1 + 3 + 6)
        (-5, 212),  # 5-18: 216 - (1 + 3); 3 and 4 stay critical successes
        (-20, 212),
    ],
    ids=[
        "skill 16",
        "skill 15",
        "skill 7",
        "skill 6",
        "skill 5",
        "skill 3",
        "skill -4",
        "skill -5",
        "skill -20",
    ],
)
def test_critical_failure_probability_matches_hand_counts(skill: int, ways: int) -> None:
    assert critical_failure_probability(skill) == Fraction(ways, 216)


@pytest.mark.parametrize("skill", range(-12, 26))
def test_odds_agree_with_counting_every_outcome(skill: int) -> None:
    """Secondary cross-check: count the 216 ordered outcomes one by one."""
    outcomes = [sum(faces) for faces in itertools.product(range(1, 7), repeat=3)]
    assert success_probability(skill) == Fraction(sum(is_success(t, skill) for t in outcomes), 216)
    assert critical_success_probability(skill) == Fraction(sum(is_critical_success(t, skill) for t in outcomes), 216)
    assert critical_failure_probability(skill) == Fraction(sum(is_critical_failure(t, skill) for t in outcomes), 216)


@pytest.mark.parametrize("function", [success_probability, critical_success_probability, critical_failure_probability])
@pytest.mark.parametrize("skill", [10.5, "10", None, [10]])
def test_odds_refuse_a_skill_that_is_not_a_whole_number(function: Callable[[object], Fraction], skill: object) -> None:
    with pytest.raises(RuleValueError, match=rf"{function.__name__}\.skill"):
        function(skill)


# --- dice expressions --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("expression", "faces", "sides", "modifier", "story"),
    [
        ("3d6", (3, 5, 2), 6, 0, "3d6 (3, 5, 2) = 10"),
        ("2d+3", (4, 1), 6, 3, "2d+3 (4, 1) = 8"),
        ("1d2+1", (2,), 2, 1, "1d2+1 (2) = 3"),
        ("4d", (1, 2, 3, 4), 6, 0, "4d (1, 2, 3, 4) = 10"),
        ("d100", (42,), 100, 0, "d100 (42) = 42"),
        ("1d-2", (1,), 6, -2, "1d-2 (1) = -1"),
        ("2d6-1", (6, 6), 6, -1, "2d6-1 (6, 6) = 11"),
        (" 2D6 + 3 ", (5, 5), 6, 3, "2d6+3 (5, 5) = 13"),
        ("d", (4,), 6, 0, "d (4) = 4"),
        ("1000d1000", (1000,) * 1000, 1000, 0, f"1000d1000 ({', '.join(['1000'] * 1000)}) = 1000000"),
        ("1d2", (1,), 2, 0, "1d2 (1) = 1"),
    ],
    ids=[
        "3d6",
        "2d+3: six sides by default",
        "1d2+1",
        "4d: no add",
        "d100: one die by default",
        "1d-2: a total below zero is kept",
        "2d6-1",
        "spaces and capitals ignored",
        "d: one six-sided die",
        "largest: 1000d1000",
        "smallest die: 1d2",
    ],
)
def test_roll_reads_the_expression_and_keeps_its_story(
    expression: str, faces: tuple[int, ...], sides: int, modifier: int, story: str
) -> None:
    dice = Dice(1)
    dice.script(*faces)
    roll = dice.roll(expression)
    assert roll.dice == faces
    assert roll.sides == sides
    assert roll.modifier == modifier
    assert roll.total == sum(faces) + modifier
    assert roll.story == story
    assert str(roll) == story


@pytest.mark.parametrize(
    "expression",
    ["", "3", "3d6+", "3x6", "2d6+1d4", "3d6*2", "+3", "-1d6", "d6d6", "1.5d6", "3d6 + + 1", "10000d6"],
)
def test_roll_refuses_a_malformed_expression(expression: str) -> None:
    with pytest.raises(RuleValueError) as raised:
        Dice(1).roll(expression)
    assert str(raised.value) == (
        f"dice expression.expression = {expression!r}: expected like 3d6, 2d+3, 1d2+1, 4d or d100"
    )


@pytest.mark.parametrize("expression", ["0d6", "1001d6", "1d1", "1d0", "1d1001"])
def test_roll_refuses_dice_counts_and_sides_out_of_range(expression: str) -> None:
    with pytest.raises(RuleValueError, match="1 to 1000 dice of 2 to 1000 sides") as raised:
        Dice(1).roll(expression)
    assert raised.value.value == expression


@pytest.mark.parametrize("expression", [36, None, b"3d6"])
def test_roll_refuses_what_is_not_text(expression: object) -> None:
    with pytest.raises(RuleValueError, match=r"dice expression\.expression"):
        Dice(1).roll(expression)  # type: ignore[arg-type]


@given(
    seed=st.integers(0, 2**64),
    count=st.integers(1, 30),
    sides=st.integers(2, 1000),
    modifier=st.integers(-50, 50),
)
def test_random_rolls_show_faces_the_dice_have(seed: int, count: int, sides: int, modifier: int) -> None:
    roll = Dice(seed).roll(f"{count}d{sides}{modifier:+d}")
    assert len(roll.dice) == count
    assert all(1 <= face <= sides for face in roll.dice)
    assert roll.total == sum(roll.dice) + modifier


def test_every_face_of_a_d6_turns_up() -> None:
    faces = set(Dice(2).roll("600d6").dice)
    assert faces == {1, 2, 3, 4, 5, 6}


# --- seeding ----------------------------------------------------------------------------------------


def _sequence(dice: Dice, rolls: int = 200) -> list[tuple[int, ...]]:
    return [dice.roll("3d6").dice for _ in range(rolls)]


def test_the_same_seed_rolls_the_same_sequence() -> None:
    assert _sequence(Dice(7)) == _sequence(Dice(7))


def test_different_seeds_roll_different_sequences() -> None:
    assert _sequence(Dice(7)) != _sequence(Dice(8))


def test_rolling_leaves_the_global_random_state_alone() -> None:
    before = random.getstate()
    _sequence(Dice(3))
    _sequence(Dice())
    assert random.getstate() == before


def test_an_unseeded_roller_still_rolls_valid_faces() -> None:
    assert all(1 <= face <= 6 for faces in _sequence(Dice()) for face in faces)


@pytest.mark.parametrize("seed", ["7", 7.0, True])
def test_seed_must_be_a_whole_number(seed: object) -> None:
    with pytest.raises(RuleValueError, match=r"Dice\.seed"):
        Dice(seed)  # type: ignore[arg-type]


# --- scripting --------------------------------------------------------------------------------------


def test_script_sets_the_next_faces_in_order() -> None:
    dice = Dice(1)
    dice.script(1, 2, 3, 4, 5)
    assert dice.scripted == 5
    assert dice.roll("3d6").dice == (1, 2, 3)
    assert dice.scripted == 2
    assert dice.roll("2d6").dice == (4, 5)
    assert dice.scripted == 0


def test_a_script_shorter_than_the_roll_leaves_the_rest_to_the_seed() -> None:
    dice = Dice(3)
    dice.script(6)
    roll = dice.roll("3d6")
    assert roll.dice[0] == 6
    assert roll.dice[1:] == Dice(3).roll("2d6").dice


def test_a_used_up_script_leaves_the_seeded_sequence_as_it_was() -> None:
    dice = Dice(5)
    dice.script(1, 2, 3)
    dice.roll("3d6")
    assert _sequence(dice) == _sequence(Dice(5))


def test_a_face_too_big_for_the_die_raises_and_consumes_nothing() -> None:
    dice = Dice(1)
    dice.script(1, 7)
    with pytest.raises(RuleValueError, match=r"Dice\.script\.face = 7: expected a face of a d6, from 1 to 6"):
        dice.roll("3d6")
    assert dice.scripted == 2
    assert dice.roll("2d8").dice == (1, 7)


@pytest.mark.parametrize("faces", [(0,), (1, -2), (2, 1.0), (True,), (3, "4")])
def test_script_refuses_faces_below_one_or_not_whole_and_queues_nothing(faces: tuple[object, ...]) -> None:
    dice = Dice(1)
    with pytest.raises(RuleValueError, match=r"Dice\.script\.face"):
        dice.script(*faces)  # type: ignore[arg-type]
    assert dice.scripted == 0


# --- success rolls ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("faces", "skill", "label", "outcome", "story"),
    [
        ((2, 4, 5), 13, "DX+3", "success", "DX+3 (13): 3d6 (2, 4, 5) = 11, made by 2"),
        ((6, 6, 4), 13, "DX+3", "failure", "DX+3 (13): 3d6 (6, 6, 4) = 16, failed by 3"),
        ((3, 3, 4), 10, "DX", "success", "DX (10): 3d6 (3, 3, 4) = 10, made by 0"),
        ((1, 1, 1), 10, "DX", "critical success", "DX (10): 3d6 (1, 1, 1) = 3, made by 7, critical success"),
        (
            (1, 2, 2),
            15,
            "Ride",
            "critical success",
            "Ride (15): 3d6 (1, 2, 2) = 5, made by 10, critical success",
        ),
        (
            (6, 6, 6),
            8,
            "DX",
            "critical failure",
            "DX (8): 3d6 (6, 6, 6) = 18, failed by 10, critical failure",
        ),
        (
            (6, 5, 4),
            5,
            "HT",
            "critical failure",
            "HT (5): 3d6 (6, 5, 4) = 15, failed by 10, critical failure",
        ),
        (
            (1, 1, 2),
            2,
            "DX",
            "critical success",
            "DX (2): 3d6 (1, 1, 2) = 4, automatic success, critical success",
        ),
        ((6, 6, 5), 17, "Flight", "failure", "Flight (17): 3d6 (6, 6, 5) = 17, automatic failure"),
        ((2, 2, 2), 12, "", "success", "vs 12: 3d6 (2, 2, 2) = 6, made by 6"),
    ],
    ids=[
        "made by 2",
        "failed by 3",
        "exactly the skill succeeds",
        "3 is a critical success",
        "5 at skill 15 is a critical success",
        "18 is a critical failure",
        "10 over skill is a critical failure",
        "4 succeeds below skill 4",
        "17 fails at skill 17, not critically",
        "no label",
    ],
)
def test_success_roll_keeps_its_story(
    faces: tuple[int, int, int], skill: int, label: str, outcome: str, story: str
) -> None:
    dice = Dice(1)
    dice.script(*faces)
    result = dice.success(skill, label)
    assert result.roll.dice == faces
    assert result.target == skill
    assert result.label == label
    assert result.margin == skill - sum(faces)
    assert result.success is outcome.endswith("success")
    assert result.critical_success is (outcome == "critical success")
    assert result.critical_failure is (outcome == "critical failure")
    assert result.story == story
    assert str(result) == story


def test_judge_refuses_a_roll_that_is_not_3d6() -> None:
    with pytest.raises(RuleValueError, match=re.escape("SuccessRoll.roll = '2d6+3'")):
        SuccessRoll.judge(Roll("2d6+3", (4, 1), 6, 3, 8), 12)


@pytest.mark.parametrize("skill", [12.0, "12", None])
def test_success_refuses_a_skill_that_is_not_a_whole_number(skill: object) -> None:
    with pytest.raises(RuleValueError, match=r"Dice\.success\.skill"):
        Dice(1).success(skill)  # type: ignore[arg-type]


# --- saved state ------------------------------------------------------------------------------------


@given(seed=st.integers(0, 2**32), before=st.integers(0, 20), script=st.lists(st.integers(1, 6), max_size=8))
def test_save_and_load_never_changes_what_happens_next(seed: int, before: int, script: list[int]) -> None:
    dice = Dice(seed)
    for _ in range(before):
        dice.roll("1d6")
    dice.script(*script)
    saved = json.dumps(dice.getstate())
    expected = _sequence(dice, 20)

    loaded = Dice()
    loaded.setstate(json.loads(saved))
    assert loaded.scripted == len(script)
    assert _sequence(loaded, 20) == expected


def test_state_is_json_data_already() -> None:
    dice = Dice(4)
    dice.script(3, 2)
    state = dice.getstate()
    assert json.loads(json.dumps(state)) == state
    assert state["script"] == [3, 2]


def _bad_states() -> list[tuple[object, str]]:
    good = Dice(9).getstate()
    internal = good["random"]
    assert isinstance(internal, list)
    return [
        ([1, 2], "Dice.setstate.state"),
        ({k: v for k, v in good.items() if k != "script"}, "Dice.setstate.state"),
        ({**good, "extra": 1}, "Dice.setstate.state"),
        ({**good, "version": 2}, "Dice.setstate.version"),
        ({**good, "random": internal[:-1]}, "Dice.setstate.random = 'a list of 624 items'"),
        ({**good, "random": "seed"}, "Dice.setstate.random"),
        ({**good, "random": [-1, *internal[1:]]}, "Dice.setstate.random[0]"),
        ({**good, "random": [*internal[:5], 2**32, *internal[6:]]}, "Dice.setstate.random[5]"),
        ({**good, "random": [*internal[:624], 625]}, "Dice.setstate.random[624]"),
        ({**good, "gauss": "x"}, "Dice.setstate.gauss"),
        ({**good, "script": [1, 0]}, "Dice.setstate.script"),
        ({**good, "script": "1,2"}, "Dice.setstate.script"),
    ]


@pytest.mark.parametrize(("state", "message"), _bad_states())
def test_a_bad_state_is_refused_and_changes_nothing(state: object, message: str) -> None:
    dice = Dice(6)
    dice.script(2)
    with pytest.raises(RuleValueError, match=re.escape(message)):
        dice.setstate(state)  # type: ignore[arg-type]
    twin = Dice(6)
    twin.script(2)
    assert dice.scripted == 1
    assert _sequence(dice) == _sequence(twin)

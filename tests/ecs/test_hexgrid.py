"""The axial hex grid: facings, turning, neighbours, distance, lines and pixels."""

from __future__ import annotations

import doctest
import itertools
import math
from enum import IntEnum
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import esper_motion.ecs.hexgrid
from esper_motion.ecs.errors import RuleValueError
from esper_motion.ecs.hexgrid import (
    DIRECTIONS,
    Hex,
    check_facing,
    check_hex,
    direction_to,
    distance,
    facing_change,
    from_pixel,
    front_hexes,
    line,
    neighbour,
    to_pixel,
    turn,
)
from esper_motion.ecs.validate import LARGEST_WHOLE, check_int

coordinates = st.integers(-1000, 1000)
hexes = st.tuples(coordinates, coordinates)
facings = st.integers(0, 5)
sizes = st.floats(0.5, 200.0)


def test_module_doctests_pass() -> None:
    assert doctest.testmod(esper_motion.ecs.hexgrid).failed == 0


# --- facings point where the module says --------------------------------------------------------------


@pytest.mark.parametrize(
    ("facing", "offset", "degrees"),
    [
        (0, (1, 0), 0),
        (1, (0, 1), 60),
        (2, (-1, 1), 120),
        (3, (-1, 0), 180),
        (4, (0, -1), 240),
        (5, (1, -1), 300),
    ],
    ids=["0 east", "1 north-east", "2 north-west", "3 west", "4 south-west", "5 south-east"],
)
def test_each_facing_points_its_compass_direction_on_screen(facing: int, offset: Hex, degrees: int) -> None:
    assert DIRECTIONS[facing] == offset
    x, y = to_pixel(neighbour((0, 0), facing), 10.0)
    assert math.isclose(math.hypot(x, y), 10.0 * math.sqrt(3))
    assert math.isclose(math.degrees(math.atan2(y, x)) % 360, degrees, abs_tol=1e-9)


def test_facing_0_is_east_and_facing_1_up_and_right() -> None:
    x0, y0 = to_pixel(neighbour((0, 0), 0), 1.0)
    assert x0 > 0
    assert y0 == 0
    x1, y1 = to_pixel(neighbour((0, 0), 1), 1.0)
    assert x1 > 0
    assert y1 > 0


@pytest.mark.parametrize("value", [0, 5])
def test_check_facing_accepts_0_to_5(value: int) -> None:
    assert check_facing("Facing", "facing", value) == value


@pytest.mark.parametrize("value", [-1, 6, 1.0, True, "1", None])
def test_check_facing_refuses_anything_else(value: object) -> None:
    with pytest.raises(RuleValueError, match=r"^Facing\.facing = .*: expected a whole number from 0 to 5$"):
        check_facing("Facing", "facing", value)


def test_check_hex_accepts_a_pair_of_whole_numbers() -> None:
    assert check_hex("Position", "hex", (3, -2)) == (3, -2)


@pytest.mark.parametrize("value", [[3, -2], (3,), (3, -2, -1), (3.0, -2), (True, 0), "3,-2", None])
def test_check_hex_refuses_anything_else(value: object) -> None:
    with pytest.raises(RuleValueError, match=r"^Position\.hex = .*: expected a hex"):
        check_hex("Position", "hex", value)


# --- turning ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("facing", "hexsides", "after"),
    [(0, 1, 1), (0, -1, 5), (5, 1, 0), (3, 3, 0), (2, -8, 0), (4, 0, 4)],
    ids=[
        "east, one left -> north-east",
        "east, one right -> south-east",
        "south-east, one left -> east",
        "west, about turn -> east",
        "north-west, eight right -> east",
        "no turn",
    ],
)
def test_turn(facing: int, hexsides: int, after: int) -> None:
    assert turn(facing, hexsides) == after


@given(facings, st.integers(-50, 50))
def test_turning_six_hexsides_changes_nothing_and_turns_undo(facing: int, hexsides: int) -> None:
    assert turn(facing, 6) == facing
    assert turn(turn(facing, hexsides), -hexsides) == facing


@pytest.mark.parametrize(
    ("a", "b", "change"),
    [(0, 0, 0), (0, 1, 1), (0, 2, 2), (0, 3, 3), (0, 4, -2), (0, 5, -1), (5, 0, 1), (1, 4, 3), (4, 1, 3)],
    ids=[
        "same facing",
        "one left",
        "two left",
        "about turn counts as 3",
        "two right",
        "one right",
        "across facing 0, one left",
        "about turn from 1",
        "about turn from 4",
    ],
)
def test_facing_change(a: int, b: int, change: int) -> None:
    assert facing_change(a, b) == change


@given(facings, facings)
def test_facing_change_is_the_turn_between_two_facings(a: int, b: int) -> None:
    change = facing_change(a, b)
    assert -2 <= change <= 3
    assert turn(a, change) == b


_HALF_HEXSIDE: Any = 1.5
_FLOAT_FACING: Any = 2.0


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: turn(6, 1), r"turn\.facing = 6"),
        (lambda: turn(0, _HALF_HEXSIDE), r"turn\.hexsides = 1\.5"),
        (lambda: facing_change(-1, 0), r"facing_change\.a = -1"),
        (lambda: facing_change(0, 7), r"facing_change\.b = 7"),
        (lambda: neighbour((0, 0), 6), r"neighbour\.facing = 6"),
        (lambda: neighbour((0, 0), -1), r"neighbour\.facing = -1"),
        (lambda: front_hexes((0, 0), _FLOAT_FACING), r"front_hexes\.facing = 2\.0"),
    ],
    ids=["turn facing", "turn hexsides", "change from", "change to", "neighbour", "negative", "front"],
)
def test_a_bad_facing_is_named(call: object, message: str) -> None:
    assert callable(call)
    with pytest.raises(RuleValueError, match=message):
        call()


# --- neighbours and distance ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b", "yards"),
    [
        ((0, 0), (0, 0), 0),
        ((0, 0), (3, -1), 3),
        ((0, 0), (2, 2), 4),
        ((0, 0), (-2, 1), 2),
        ((5, -3), (1, 4), 7),
    ],
    ids=["same hex", "(3, -1) is 3 away", "(2, 2) is 4 away", "(-2, 1) is 2 away", "(5, -3) to (1, 4)"],
)
def test_distance(a: Hex, b: Hex, yards: int) -> None:
    assert distance(a, b) == yards


@given(hexes, hexes, hexes)
def test_distance_is_a_metric(a: Hex, b: Hex, c: Hex) -> None:
    assert distance(a, b) == distance(b, a)
    assert distance(a, c) <= distance(a, b) + distance(b, c)
    assert (distance(a, b) == 0) == (a == b)


@given(hexes)
def test_the_six_neighbours_are_distinct_and_one_yard_away(hex: Hex) -> None:
    around = [neighbour(hex, facing) for facing in range(6)]
    assert len(set(around)) == 6
    assert all(distance(hex, other) == 1 for other in around)
    assert [direction_to(hex, other) for other in around] == [0, 1, 2, 3, 4, 5]


@given(hexes, hexes)
def test_direction_to_is_none_unless_adjacent(a: Hex, b: Hex) -> None:
    facing = direction_to(a, b)
    if distance(a, b) == 1:
        assert facing is not None
        assert neighbour(a, facing) == b
    else:
        assert facing is None


def test_direction_to_the_same_hex_is_none() -> None:
    assert direction_to((2, 3), (2, 3)) is None


@pytest.mark.parametrize(
    ("facing", "expected"),
    [(0, ((1, -1), (1, 0), (0, 1))), (3, ((-1, 1), (-1, 0), (0, -1)))],
    ids=["facing east: south-east, east, north-east", "facing west: north-west, west, south-west"],
)
def test_front_hexes_run_right_ahead_left(facing: int, expected: tuple[Hex, Hex, Hex]) -> None:
    assert front_hexes((0, 0), facing) == expected


def _screen_offset(a: Hex, b: Hex) -> tuple[float, float]:
    (ax, ay), (bx, by) = to_pixel(a, 1.0), to_pixel(b, 1.0)
    return bx - ax, by - ay


@given(hexes, facings)
def test_front_hexes_are_adjacent_with_straight_ahead_in_the_middle(hex: Hex, facing: int) -> None:
    right, ahead, left = front_hexes(hex, facing)
    assert len({right, ahead, left}) == 3
    assert all(distance(hex, other) == 1 for other in (right, ahead, left))
    assert ahead == neighbour(hex, facing)
    # On screen (y up), right is clockwise of ahead and left counterclockwise: the cross products say so.
    ax, ay = _screen_offset(hex, ahead)
    rx, ry = _screen_offset(hex, right)
    lx, ly = _screen_offset(hex, left)
    assert ax * ry - ay * rx < 0
    assert ax * ly - ay * lx > 0


# --- lines ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ((0, 0), (0, 0), [(0, 0)]),
        ((0, 0), (0, 3), [(0, 0), (0, 1), (0, 2), (0, 3)]),
        ((2, 0), (-1, 3), [(2, 0), (1, 1), (0, 2), (-1, 3)]),
        # Halfway to (1, 1) the line runs exactly between (1, 0) and (0, 1); the nudge picks (0, 1).
        ((0, 0), (1, 1), [(0, 0), (0, 1), (1, 1)]),
    ],
    ids=["one hex", "north-east straight", "north-west straight", "a tie between two hexes"],
)
def test_line_examples(a: Hex, b: Hex, expected: list[Hex]) -> None:
    assert line(a, b) == expected
    assert line(b, a) == expected[::-1]


@given(hexes, hexes)
def test_a_line_is_distance_plus_one_adjacent_hexes_from_end_to_end(a: Hex, b: Hex) -> None:
    hexes_on_line = line(a, b)
    assert len(hexes_on_line) == distance(a, b) + 1
    assert hexes_on_line[0] == a
    assert hexes_on_line[-1] == b
    assert all(distance(p, q) == 1 for p, q in itertools.pairwise(hexes_on_line))
    assert line(b, a) == hexes_on_line[::-1]


# --- pixels -----------------------------------------------------------------------------------------


@given(hexes, sizes)
def test_the_centre_of_a_hex_is_in_that_hex(hex: Hex, size: float) -> None:
    assert from_pixel(*to_pixel(hex, size), size) == hex


@given(hexes, sizes, st.floats(0.0, 0.8), st.floats(0.0, 2 * math.pi))
def test_points_inside_the_inner_circle_belong_to_the_hex(hex: Hex, size: float, fraction: float, angle: float) -> None:
    x, y = to_pixel(hex, size)
    inner_radius = size * math.sqrt(3) / 2
    reach = fraction * inner_radius
    assert from_pixel(x + reach * math.cos(angle), y + reach * math.sin(angle), size) == hex


def test_pixel_examples() -> None:
    assert to_pixel((0, 0), 10.0) == (0.0, 0.0)
    assert to_pixel((0, 2), 10.0) == pytest.approx((10.0 * math.sqrt(3), 30.0))
    assert from_pixel(0.0, 30.0, 10.0) == (-1, 2)


@pytest.mark.parametrize("size", [0, -1.0, math.nan, math.inf, True, "10"])
def test_a_bad_size_is_named(size: object) -> None:
    with pytest.raises(RuleValueError, match=r"to_pixel\.size"):
        to_pixel((0, 0), size)  # type: ignore[arg-type]
    with pytest.raises(RuleValueError, match=r"from_pixel\.size"):
        from_pixel(0.0, 0.0, size)  # type: ignore[arg-type]


def _full_check_int(value: object, low: int | None, high: int | None) -> bool:
    """Whether the full check accepts ``value``: the rule check_int's quick test must agree with."""
    if not isinstance(value, int) or isinstance(value, bool):
        return False
    return (low is None or value >= low) and (high is None or value <= high) and abs(value) <= LARGEST_WHOLE


class Level(IntEnum):
    LOW = 1


@given(
    st.one_of(
        st.integers(),
        st.integers(min_value=-(2**60), max_value=2**60),
        st.sampled_from([-11, -10, -1, 0, 5, 6, 10, 11, 2**53 - 1, 2**53, -(2**53 - 1), -(2**53)]),
        st.sampled_from([True, False, 0.0, 3.0, "3", None, Level.LOW]),
        st.floats(allow_nan=True),
    ),
    st.one_of(st.none(), st.integers(-10, 10)),
    st.one_of(st.none(), st.integers(-10, 10)),
)
def test_the_quick_whole_number_and_facing_checks_agree_with_the_full_ones(
    value: object, low: int | None, high: int | None
) -> None:
    for check, bounds in ((check_int, (low, high)), (check_facing, (0, 5))):
        accepted = _full_check_int(value, *bounds)
        try:
            args = ("owner", "field", value, *bounds) if check is check_int else ("owner", "field", value)
            assert check(*args) is value
        except RuleValueError:
            assert not accepted
        else:
            assert accepted

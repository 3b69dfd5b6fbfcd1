"""Bad input and faults, part 1: every registered component refuses bad values on construction.

The cases are derived from each dataclass field's declared type (``typing.get_type_hints``), so a component added
later is swept too: a whole number refuses a bool, a fraction, NaN, the infinities and text, and -1 unless a
negative value means something for that field; a float refuses NaN, the infinities, a bool and text, and -1.0
unless negative values mean something; a flag refuses 1, 0, text and None; an enumerated field refuses an unknown
name; containers refuse a bad element and the wrong kind of container. Each refusal is a ``RuleValueError`` naming
the component class and the field (an element's field is shown with its index, ``veer[0]``). Fields whose value is
legitimately free are listed below with the reason, and the lists are checked against the real fields so they
cannot go stale.
"""

from __future__ import annotations

import dataclasses
import enum
import importlib
import math
import pkgutil
import types
import typing
from typing import Any, Final

import pytest

import esper_motion.components
from esper_motion.components import (
    MAX_ALTITUDE_YD,
    MAX_SPEED_YPS,
    Charge,
    Climb,
    Control,
    Flee,
    Flight,
    FlightIntent,
    FlightMode,
    GoTo,
    Intent,
    KeepStation,
    KeptPlan,
    LossCause,
    Maneuver,
    Mobility,
    Mover,
    MoveState,
    Patrol,
    Position,
    Posture,
    PostureState,
    Pursue,
    Swoop,
    Vegetation,
    VegetationZone,
    Velocity,
)
from esper_motion.ecs import IntentError, RuleValueError, WorldError, name_of

NEGATIVE_ALLOWED: Final[dict[tuple[str, str], str]] = {
    ("Position", "q"): "axial hex coordinates run both ways",
    ("Position", "r"): "axial hex coordinates run both ways",
    ("Intent", "throttle"): "a negative throttle decelerates",
    ("Intent", "turn"): "a negative turn is clockwise",
    ("Intent", "veer"): "-1 veers to the front-right hex",
    ("Flight", "climbed_yd"): "a negative climb is a descent",
    ("Flight", "previous_climb_yd"): "a negative climb is a descent",
    ("FlightIntent", "climb_yd"): "a negative climb is a descent",
    ("Mover", "handling"): "vehicle Handling is a modifier, often negative",
    ("Mover", "size_modifier"): "anything smaller than a human has a negative Size Modifier",
    ("Condition", "shock"): "shock is a penalty, -4 to 0",
    ("Condition", "next_shock"): "shock is a penalty, -4 to 0",
    ("Mount", "fractious"): "the fractious penalty is 0 or less",
    ("Atmosphere", "ground_ft"): "ground may lie below sea level",
    ("Attack", "damage_adds"): "damage adds may be negative: 1d-2",
    ("Attack", "bulk"): "Bulk is a penalty, 0 or less",
    ("KeptPlan", "throttles"): "a negative throttle decelerates",
    ("KeptPlan", "turns"): "a negative turn is clockwise",
    ("KeptPlan", "veers"): "-1 veers to the front-right hex",
}
"""(component, field) where -1 is a legitimate value, and why."""

FREE_TEXT: Final[dict[tuple[str, str], str]] = {
    ("Footing", "name"): "a label for the log: 'mud', 'ice', 'scree'",
    ("RoundIntent", "pursuit_label"): "the GM's description of the pursuit action",
    ("RoundIntent", "pursuit_skill"): "any skill name; the step checks it against Mobility.skills",
    ("Attack", "skill_name"): "the weapon skill's name for the roll's label: 'Lance', 'Bow'",
    ("KeptPlan", "goal"): "the repr of the goal the plan was made for, compared, never parsed",
}
"""(component, field) of type ``str`` whose text is free (only its type is checked), and why."""

BASES: Final[dict[str, Any]] = {
    "Position": Position(0, 0),
    "Mover": Mover(basic_move=5),
    "Flight": Flight(air_move=12),
    "Mobility": Mobility(tmr=9, dex=14),
    "VegetationZone": VegetationZone(Vegetation.DENSE),
    "GoTo": GoTo((0, 0)),
    "Pursue": Pursue(2),
    "Flee": Flee(2),
    "KeepStation": KeepStation(2),
    "Charge": Charge(2),
    "Climb": Climb(10),
    "Swoop": Swoop(2),
    "Patrol": Patrol(((0, 0),)),
    "KeptPlan": KeptPlan(
        throttles=(1,),
        turns=(0,),
        at_once=(False,),
        pushes=(False,),
        veers=(0,),
        meets=(True,),
        hexes=((0, 0), (1, 0)),
        facings=(0, 0),
        headings=(0, 0),
        velocities=(1, 2),
        straight_yd=(0, 1),
        high_speed=(False, False),
    ),
}
"""A valid instance of each component whose constructor needs arguments; the others use their defaults."""

NAN: Final = math.nan
INF: Final = math.inf


def registered_components() -> list[type[Any]]:
    """Every class the modules of the ``components`` package register with ``esper_motion.ecs.register``."""
    found: dict[str, type[Any]] = {}
    for module_info in pkgutil.iter_modules(esper_motion.components.__path__, "esper_motion.components."):
        module = importlib.import_module(module_info.name)
        for value in vars(module).values():
            if isinstance(value, type) and value.__module__ == module.__name__:
                try:
                    found[name_of(value)] = value
                except WorldError:
                    continue
    return [found[name] for name in sorted(found)]


def _int_cases(owner: str, field: str) -> list[tuple[str, Any]]:
    cases: list[tuple[str, Any]] = [
        ("bool True", True),
        ("bool False", False),
        ("fraction 1.5", 1.5),
        ("NaN", NAN),
        ("infinity", INF),
        ("text '1'", "1"),
    ]
    if (owner, field) not in NEGATIVE_ALLOWED:
        cases.append(("negative -1", -1))
    return cases


def _float_cases(owner: str, field: str) -> list[tuple[str, Any]]:
    cases: list[tuple[str, Any]] = [
        ("NaN", NAN),
        ("infinity", INF),
        ("-infinity", -INF),
        ("bool True", True),
        ("text '1.0'", "1.0"),
    ]
    if (owner, field) not in NEGATIVE_ALLOWED:
        cases.append(("negative -1.0", -1.0))
    return cases


def _element_cases(owner: str, field: str, item: Any) -> list[tuple[str, Any]]:
    """Bad single elements for a container of ``item``."""
    if item is int:
        return _int_cases(owner, field)
    if item is bool:
        return [("int 1", 1), ("text 'yes'", "yes")]
    if item is str:
        return [("int 3", 3), ("unknown text", "no such thing")]
    if typing.get_origin(item) is tuple:  # a hex (q, r)
        return [("hex with NaN", (NAN, 0)), ("hex with a bool", (True, 0)), ("hex of one number", (1,))]
    raise AssertionError(f"{owner}.{field}: no element cases for {item!r}; add them")


def bad_values(owner: str, field: str, declared: Any) -> list[tuple[str, Any]]:
    """(case name, value) pairs a field of type ``declared`` must refuse."""
    origin, args = typing.get_origin(declared), typing.get_args(declared)
    if origin in (typing.Union, types.UnionType):
        (inner,) = [arg for arg in args if arg is not type(None)]
        return bad_values(owner, field, inner)
    if declared is bool:
        return [("int 1", 1), ("int 0", 0), ("text 'yes'", "yes"), ("None", None)]
    if declared is int:
        return _int_cases(owner, field)
    if declared is float:
        return _float_cases(owner, field)
    if declared is str:
        cases: list[tuple[str, Any]] = [("int 3", 3)]
        if (owner, field) not in FREE_TEXT:
            cases.append(("unknown text", "no such thing"))
        return cases
    if isinstance(declared, type) and issubclass(declared, enum.Enum):
        return [("unknown name", "no such thing"), ("int 3", 3), ("member of another enum", _foreign_member(declared))]
    if origin in (tuple, list) and (origin is list or args[-1] is Ellipsis):
        elements: list[tuple[str, Any]] = [
            (f"element {name}", origin((value,))) for name, value in _element_cases(owner, field, args[0])
        ]
        return [*elements, ("a set", {1})]
    if origin is tuple and args == (int, int):  # a hex (q, r)
        return [*_element_cases(owner, field, declared), ("a list", [0, 0])]
    if origin is dict:
        values = [(f"value {name}", {"x": value}) for name, value in _int_cases(owner, field)]
        return [*values, ("a key that is not text", {3: 1}), ("a list of pairs", [("x", 1)])]
    raise AssertionError(f"{owner}.{field}: no cases for the type {declared!r}; add them")


def _foreign_member(kind: type[enum.Enum]) -> enum.Enum:
    """A member of an unrelated enum whose value is not a value of ``kind``."""
    other = LossCause.WIPE_OUT if kind is not LossCause else Maneuver.AIM
    assert other.value not in {member.value for member in kind}
    return other


def _cases() -> list[Any]:
    params = []
    for cls in registered_components():
        hints = typing.get_type_hints(cls)
        for item in dataclasses.fields(cls):
            for case, value in bad_values(cls.__name__, item.name, hints[item.name]):
                params.append(pytest.param(cls, item.name, value, id=f"{cls.__name__}.{item.name}: {case}"))
    return params


def base(cls: type[Any]) -> Any:
    """A valid instance of ``cls``."""
    return BASES.get(cls.__name__) or cls()


@pytest.mark.parametrize(("cls", "field", "value"), _cases())
def test_a_bad_value_is_refused_naming_component_and_field(cls: type[Any], field: str, value: Any) -> None:
    with pytest.raises(RuleValueError) as caught:
        dataclasses.replace(base(cls), **{field: value})
    error = caught.value
    assert error.owner == cls.__name__
    assert error.field == field or error.field.startswith(f"{field}["), error.field
    assert str(error).startswith(f"{cls.__name__}.{error.field} = ")


def test_every_registered_component_has_a_valid_base_and_is_swept() -> None:
    swept = {cls.__name__ for cls in registered_components()}
    assert {"Position", "Mover", "Flight", "Mount", "Rider", "RoundIntent", "VegetationZone"} <= swept
    for cls in registered_components():
        assert type(base(cls)) is cls


@pytest.mark.parametrize(
    "listed",
    [*NEGATIVE_ALLOWED, *FREE_TEXT],
    ids=[f"{owner}.{field}" for owner, field in [*NEGATIVE_ALLOWED, *FREE_TEXT]],
)
def test_each_exemption_names_a_real_field_and_its_value_is_accepted(listed: tuple[str, str]) -> None:
    owner, field = listed
    by_name = {cls.__name__: cls for cls in registered_components()}
    cls = by_name[owner]
    declared = typing.get_type_hints(cls)[field]
    if listed in FREE_TEXT:
        value: Any = "anything at all"
    elif typing.get_origin(declared) is tuple:
        value = (-1,)
    else:
        value = -1.0 if declared is float else -1
    made = dataclasses.replace(base(cls), **{field: value})
    assert getattr(made, field) == value


@pytest.mark.parametrize(
    ("build", "field", "member"),
    [
        (lambda: Intent(maneuver="Move and Attack"), "maneuver", Maneuver.MOVE_AND_ATTACK),
        (lambda: Control(state="high speed"), "state", MoveState.HIGH_SPEED),
        (lambda: Control(state="out of control", loss_cause="footing"), "loss_cause", LossCause.FOOTING),
        (lambda: Posture(state="prone"), "state", PostureState.PRONE),
        (lambda: Posture(target="kneeling", seconds_left=1), "target", PostureState.KNEELING),
        (lambda: Flight(air_move=12, mode="cannot hover"), "mode", FlightMode.CANNOT_HOVER),
    ],
    ids=[
        "Intent.maneuver 'Move and Attack'",
        "Control.state 'high speed'",
        "Control.loss_cause 'footing'",
        "Posture.state 'prone'",
        "Posture.target 'kneeling'",
        "Flight.mode 'cannot hover'",
    ],
)
def test_an_enumerated_field_given_as_its_text_becomes_the_member(build: Any, field: str, member: enum.Enum) -> None:
    """The systems compare members by identity (``state is MoveState.HIGH_SPEED``), so text left as text would be
    misread as some other state; a component turns the text into its member, as the Spelljammer ones do."""
    assert getattr(build(), field) is member


# --- upper bounds (issue 15, finding 8) -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: Velocity(10_000_000), r"Velocity\.yps = 10000000: expected a whole number from 0 to 10000"),
        (lambda: Velocity(MAX_SPEED_YPS + 1), r"Velocity\.yps = 10001: expected a whole number from 0 to 10000"),
        (lambda: Mover(basic_move=5_001), r"Mover\.basic_move = 5001: expected a whole number from 0 to 5000"),
        (lambda: Intent(throttle=-10_001), r"Intent\.throttle = -10001: expected a whole number from -10000 to"),
        (lambda: Intent(veer=(0,) * 10_001), r"Intent\.veer = \(0, 0, .*: expected a tuple .* at most 10,000"),
        (
            lambda: Intent(turns=((10_001, 1),)),
            r"Intent\.turns\[0\]\[0\] = 10001: expected a whole number from 0 to 10000",
        ),
        (lambda: Control(path=[(0, 0)] * 10_002), r"Control\.path = .*: expected a list of hexes .* at most 10,001"),
        (lambda: Position(0, 0, 1e7), r"Position\.altitude_yd = 10000000\.0: expected a finite number from 0 to"),
        (lambda: Flight(6, fall_yd=MAX_ALTITUDE_YD + 1), r"Flight\.fall_yd = 1000001: expected a finite number from 0"),
        (lambda: FlightIntent(climb_yd=10**7), r"FlightIntent\.climb_yd = 10000000: expected a whole number from"),
    ],
    ids=[
        "10,000,000 yd/s",
        "one past the top",
        "Basic Move",
        "throttle",
        "veer",
        "a change of facing's yard",
        "path",
        "altitude",
        "fall",
        "climb",
    ],
)
def test_speeds_heights_and_path_lengths_past_their_documented_bounds_are_refused(
    build: typing.Callable[[], object], message: str
) -> None:
    """No rule needs more than MAX_SPEED_YPS (10,000 yd/s) or MAX_ALTITUDE_YD (1,000,000 yd); one turn's path is
    bounded by the speed, so a mistyped speed can no longer cost a turn gigabytes. Moves and top speeds stop at
    MAX_MOVE (5,000), half the speed bound, since a dive reaches twice the top airspeed."""
    with pytest.raises(RuleValueError, match=message):
        build()


def test_the_bounds_themselves_are_accepted() -> None:
    assert Velocity(MAX_SPEED_YPS).yps == 10_000
    assert Position(0, 0, MAX_ALTITUDE_YD).altitude_yd == 1_000_000
    assert len(Intent(veer=(1,) * MAX_SPEED_YPS).veer) == 10_000


def test_an_error_message_cuts_a_long_value() -> None:
    """A 3 MB value used to be repeated in full; now the message shows its first characters and its length."""
    with pytest.raises(RuleValueError) as refused:
        Intent(veer=(0,) * 1_000_000)
    message = str(refused.value)
    assert len(message) < 300
    assert message.startswith("Intent.veer = (0, 0, 0,")
    assert "... (3000000 characters in all): expected a tuple of -1, 0 and 1" in message
    with pytest.raises(IntentError) as forbidden:
        raise IntentError(3, "veer", (2,) * 1_000_000, "each -1, 0 or 1")
    assert len(str(forbidden.value)) < 300
    assert forbidden.value.value == (2,) * 1_000_000  # the error keeps the value itself for the game


def test_a_size_modifier_past_the_size_table_s_reach_is_refused() -> None:
    """Size and Speed/Range Table: SM -30 to +30 spans bodies from 0.00002 to 200,000 yards tall."""
    from esper_motion.components import Mover

    Mover(basic_move=5, size_modifier=30)
    with pytest.raises(RuleValueError, match=r"Mover.size_modifier = 31: expected a whole number from -30 to 30"):
        Mover(basic_move=5, size_modifier=31)


def test_a_velocity_names_its_heading_so_a_pair_is_never_read_as_a_vector() -> None:
    with pytest.raises(TypeError, match="positional"):
        Velocity(0, 5)  # type: ignore[misc]
    assert Velocity(0, heading=5).heading == 5

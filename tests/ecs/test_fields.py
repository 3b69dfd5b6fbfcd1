"""One reading of declared field types (``esper_motion.ecs.fields``): each kind read, the plan kept, refusals named."""

from __future__ import annotations

import enum
import typing
from dataclasses import dataclass, field
from typing import Any, Literal

import pytest

from esper_motion.ecs import Phase, System, World, WorldError, register
from esper_motion.ecs import fields as f
from esper_motion.ecs.persist import check_savable


class Tint(enum.Enum):
    RED = "red"
    BLUE = "blue"


@dataclass(frozen=True, slots=True)
class Point:
    q: int
    r: int


@dataclass(slots=True)
class Bin:
    held: list[int]


@dataclass(slots=True)
class Every:
    """A field of each kind a plan reads."""

    count: int
    ratio: float
    name: str
    on: bool
    tint: Tint
    mode: Literal["a", "b"]
    target: int | None
    either: int | str
    pair: tuple[int, str]
    row: tuple[Point, ...]
    marks: list[int]
    seen: set[int]
    frozen: frozenset[str]
    table: dict[str, float]
    where: Point
    bin: Bin
    later: int = field(default=0, init=False)


INT, FLOAT, STR, BOOL = f.Plain(int), f.Plain(float), f.Plain(str), f.Plain(bool)
POINT = f.DataclassOf(Point, f.plan(Point), mutable=False)


def test_each_kind_of_declared_type_is_read() -> None:
    kinds = {item.name: item.kind for item in f.plan(Every).fields}
    assert kinds == {
        "count": INT,
        "ratio": FLOAT,
        "name": STR,
        "on": BOOL,
        "tint": f.EnumOf(Tint),
        "mode": f.LiteralOf(Literal["a", "b"]),
        "target": f.OptionalOf(int | None, INT, mutable=False),
        "either": f.UnionOf(int | str, (INT, STR), mutable=False),
        "pair": f.TupleOf(tuple[int, str], (INT, STR), None, mutable=False),
        "row": f.TupleOf(tuple[Point, ...], (), POINT, mutable=False),
        "marks": f.ListOf(list[int], INT),
        "seen": f.SetOf(set[int], INT, frozen=False, mutable=True),
        "frozen": f.SetOf(frozenset[str], STR, frozen=True, mutable=False),
        "table": f.DictOf(dict[str, float], STR, FLOAT),
        "where": POINT,
        "bin": f.DataclassOf(Bin, f.plan(Bin), mutable=True),
        "later": INT,
    }
    assert f.plan(Every).names == tuple(kinds)
    assert [item.name for item in f.plan(Every).fields if not item.init] == ["later"]


def test_what_can_change_in_place_follows_the_declared_type() -> None:
    assert not f.kind_of(tuple[tuple[int, int], ...]).mutable
    assert f.kind_of(tuple[list[int], ...]).mutable
    assert f.kind_of(frozenset[tuple[int, ...]]).mutable is False
    assert f.kind_of(list[int] | None).mutable
    assert not f.plan(Point).mutable  # frozen, of numbers
    assert f.plan(Bin).mutable


def test_the_plan_is_read_once_and_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    @dataclass(slots=True)
    class Fresh:
        inner: Bin
        values: list[float]

    reads: list[type[Any]] = []
    real = typing.get_type_hints

    def counted(cls: Any, *args: Any, **kwargs: Any) -> dict[str, Any]:
        reads.append(cls)
        return real(cls, *args, **kwargs)

    f.plan(Bin)
    monkeypatch.setattr(typing, "get_type_hints", counted)
    first = f.plan(Fresh)
    assert f.plan(Fresh) is first
    assert reads == [Fresh]  # Bin's plan was made already: it is kept, not read again
    assert first.fields[0].kind == f.DataclassOf(Bin, f.plan(Bin), mutable=True)
    assert typing.cast("f.DataclassOf", first.fields[0].kind).plan is f.plan(Bin)


@dataclass(slots=True)
class Loose:
    fine: int
    anything: Any


@dataclass(slots=True)
class Holder:
    loose: list[Loose]


@register("test.Unreadable")
@dataclass(slots=True)
class Unreadable:
    ghost: Missing  # type: ignore[name-defined]  # noqa: F821


def test_a_field_type_no_plan_reads_is_refused_naming_class_and_field() -> None:
    with pytest.raises(f.FieldTypeError, match=r"^Loose\.anything: a field declared typing\.Any has no plan") as one:
        f.plan(Loose)
    assert (one.value.steps, one.value.declared) == ((("Loose", "anything"),), Any)
    with pytest.raises(f.FieldTypeError, match=r"^Holder\.loose: Loose\.anything: a field declared typing\.Any"):
        f.plan(Holder)
    with pytest.raises(f.FieldTypeError, match=r"^Unreadable: its field types cannot be read \(name 'Missing'"):
        f.plan(Unreadable)
    for declared in (object, list, dict[str, Any], Tint | Any):
        with pytest.raises(f.FieldTypeError, match="has no plan"):
            f.kind_of(declared)
    with pytest.raises(TypeError, match="is not a dataclass"):
        f.plan(Tint)


@register("test.Stash")
@dataclass(slots=True)
class Stash:
    holder: Holder


class Idle(System):
    phase = Phase.CLEANUP

    def run(self) -> None:
        pass


def test_the_save_and_the_undo_copy_name_the_field_no_plan_reads() -> None:
    with pytest.raises(
        TypeError, match=r"^Holder\.loose: Loose\.anything: a field of type typing\.Any cannot be saved"
    ):
        check_savable(Holder)
    with pytest.raises(TypeError, match=r"^Unreadable: its field types cannot be read"):
        check_savable(Unreadable)
    world = World()
    world.add_system(Idle())
    world.spawn(Stash(Holder([])))
    with pytest.raises(
        WorldError, match=r"^Stash\.holder\.loose\.anything: a field declared typing\.Any cannot be put"
    ):
        world.step()
    unreadable = World()
    unreadable.add_system(Idle())
    unreadable.spawn(Unreadable(1))
    with pytest.raises(WorldError, match=r"^Unreadable: its field types cannot be read \(name 'Missing'"):
        unreadable.step()

"""What a dataclass's declared field types mean: one reading per class, made once and kept.

:func:`plan` reads a dataclass's type hints into a :class:`Plan`: for each field, its name, whether the constructor
takes it, and its :data:`Kind`, a small tree saying what the declared type is:

- :class:`Plain`: ``int``, ``float``, ``complex``, ``str``, ``bytes``, ``bool`` or ``None``;
- :class:`EnumOf` an enum class; :class:`LiteralOf` a ``Literal``;
- :class:`OptionalOf` ``X | None``; :class:`UnionOf` any other union;
- :class:`TupleOf` ``tuple[X, Y]`` or ``tuple[X, ...]``; :class:`ListOf` ``list[X]``; :class:`SetOf` ``set[X]``
  or ``frozenset[X]``; :class:`DictOf` ``dict[K, V]``;
- :class:`DataclassOf` a dataclass, with its own plan.

Entity references are declared as whole numbers (``int``, ``int | None``, ``tuple[int, ...]``); the component's
``links()`` says which. A declared type of any other kind (``Any``, ``object``, a bare ``list``, a class that is
not a dataclass) has no plan: :func:`plan` raises :class:`FieldTypeError` naming the class and the field.

Each user of a plan decides what it does with each kind, and refuses, naming the field, a kind it cannot hold: the
undo copy (:mod:`esper_motion.ecs._context`) copies what can change in place, a save (:mod:`esper_motion.ecs.persist`)
writes and reads JSON. A new field type is one kind here and one case in each user.
"""

from __future__ import annotations

import dataclasses
import enum
import inspect
import sys
import types
import typing
from dataclasses import dataclass
from typing import Any, Final

PLAIN_TYPES: Final[frozenset[type[Any]]] = frozenset({int, float, complex, str, bytes, bool, type(None)})
"""The declared types whose values are held as they are: numbers, text, bytes, True or False, None."""


class FieldTypeError(TypeError):
    """A field whose declared type no plan reads, or a class whose type hints cannot be resolved.

    ``steps`` are the (class name, field name) pairs from the class asked about down to the field (a field of a
    dataclass inside a field makes two); ``declared`` is the type no plan reads, or None where the hints of the last
    step's class cannot be resolved (the step's field name is then empty); ``problem`` what is wrong.

    >>> str(FieldTypeError((("Bag", "items"),), object))
    "Bag.items: a field declared <class 'object'> has no plan; declare numbers, text, enums, literals, or unions, \
tuples, lists, sets, dicts and dataclasses of them"
    """

    def __init__(self, steps: tuple[tuple[str, str], ...], declared: Any, problem: str = "") -> None:
        self.steps = steps
        self.declared = declared
        self.problem = problem or (
            f"a field declared {declared!r} has no plan; declare numbers, text, enums, literals, or unions, tuples, "
            "lists, sets, dicts and dataclasses of them"
        )
        where = ": ".join(f"{owner}.{name}" if name else owner for owner, name in steps)
        super().__init__(f"{where}: {self.problem}" if where else self.problem)

    def within(self, owner: str, name: str) -> FieldTypeError:
        """The same refusal, met inside field ``name`` of class ``owner``."""
        return FieldTypeError(((owner, name), *self.steps), self.declared, self.problem)


# -- kinds: what one declared type is ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Plain:
    """A number, text, bytes, True or False, or None (:data:`PLAIN_TYPES`)."""

    declared: type[Any]
    mutable: bool = False


@dataclass(frozen=True, slots=True)
class EnumOf:
    """A member of enum class ``declared``."""

    declared: type[enum.Enum]
    mutable: bool = False


@dataclass(frozen=True, slots=True)
class LiteralOf:
    """One of the values of ``Literal`` type ``declared``."""

    declared: Any
    mutable: bool = False


@dataclass(frozen=True, slots=True)
class OptionalOf:
    """``X | None``: None, or a value of kind ``inner``."""

    declared: Any
    inner: Kind
    mutable: bool


@dataclass(frozen=True, slots=True)
class UnionOf:
    """A union of two or more kinds besides None (``arms``, None among them if declared)."""

    declared: Any
    arms: tuple[Kind, ...]
    mutable: bool


@dataclass(frozen=True, slots=True)
class TupleOf:
    """``tuple[X, Y]`` (``items``, ``rest`` None) or ``tuple[X, ...]`` (``rest``, ``items`` empty)."""

    declared: Any
    items: tuple[Kind, ...]
    rest: Kind | None
    mutable: bool


@dataclass(frozen=True, slots=True)
class ListOf:
    """``list[X]``."""

    declared: Any
    item: Kind
    mutable: bool = True


@dataclass(frozen=True, slots=True)
class SetOf:
    """``set[X]`` or, ``frozen``, ``frozenset[X]``."""

    declared: Any
    item: Kind
    frozen: bool
    mutable: bool


@dataclass(frozen=True, slots=True)
class DictOf:
    """``dict[K, V]``."""

    declared: Any
    key: Kind
    value: Kind
    mutable: bool = True


@dataclass(frozen=True, slots=True)
class DataclassOf:
    """A dataclass, read by its own :class:`Plan`."""

    declared: type[Any]
    plan: Plan
    mutable: bool


Kind = Plain | EnumOf | LiteralOf | OptionalOf | UnionOf | TupleOf | ListOf | SetOf | DictOf | DataclassOf
"""What a declared type is. ``mutable``: whether a value of it can change in place (a list can; a tuple of numbers,
an enum member or a frozen dataclass of such fields cannot)."""


@dataclass(frozen=True, slots=True)
class Field:
    """One field of a dataclass: its name, its kind, whether the constructor takes it, and whether it has a default
    (a value or a factory)."""

    name: str
    kind: Kind
    init: bool
    default: bool


@dataclass(frozen=True, slots=True)
class Plan:
    """What the fields of dataclass ``cls`` are, in declaration order (``names`` their names)."""

    cls: type[Any]
    fields: tuple[Field, ...]
    names: tuple[str, ...]
    frozen: bool

    @property
    def mutable(self) -> bool:
        """Whether a value of ``cls`` can change in place: not frozen, or a field that can."""
        return not self.frozen or any(field.kind.mutable for field in self.fields)


_PLANS: Final[dict[type[Any], Plan]] = {}


def plan(cls: type[Any]) -> Plan:
    """The plan of dataclass ``cls``, read the first time it is asked for and kept (classes do not change).

    Raises :class:`FieldTypeError` for a field whose declared type has no kind, or hints that cannot be resolved;
    :class:`TypeError` for a class that is not a dataclass.
    """
    known = _PLANS.get(cls)
    if known is not None:
        return known
    if not (isinstance(cls, type) and dataclasses.is_dataclass(cls)):
        raise TypeError(f"{cls!r} is not a dataclass: it has no plan")
    try:
        hints = _field_hints(cls)
    except NameError as error:
        raise FieldTypeError(((cls.__name__, ""),), None, f"its field types cannot be read ({error})") from None
    read = []
    for item in dataclasses.fields(cls):
        try:
            has_default = item.default is not dataclasses.MISSING or item.default_factory is not dataclasses.MISSING
            read.append(Field(item.name, kind_of(hints[item.name]), item.init, has_default))
        except FieldTypeError as error:
            raise error.within(cls.__name__, item.name) from None
    found = _PLANS[cls] = Plan(
        cls,
        tuple(read),
        tuple(field.name for field in read),
        cls.__dataclass_params__.frozen,  # type: ignore[attr-defined]
    )
    return found


def _field_hints(cls: type[Any]) -> dict[str, Any]:
    """The declared types of dataclass ``cls``'s fields. Python 3.10's ``typing.get_type_hints`` refuses a class whose
    annotations are strings and name an ``InitVar``; then only the fields' own annotations are evaluated, in the
    namespace of the class that declares each, as ``get_type_hints`` would."""
    try:
        return typing.get_type_hints(cls)
    except TypeError:
        if sys.version_info >= (3, 11):
            raise
    names = {item.name for item in dataclasses.fields(cls)}
    hints: dict[str, Any] = {}
    for base in reversed(cls.__mro__):
        module = sys.modules.get(base.__module__)
        namespace = dict(vars(module)) if module is not None else {}
        for name, declared in inspect.get_annotations(base).items():
            if name in names:
                hints[name] = eval(declared, namespace, dict(vars(base))) if isinstance(declared, str) else declared
    return hints


def kind_of(declared: Any) -> Kind:
    """The kind of declared type ``declared``; :class:`FieldTypeError` (no steps yet) for a type with none."""
    if declared in PLAIN_TYPES:
        return Plain(declared)
    origin, args = typing.get_origin(declared), typing.get_args(declared)
    if isinstance(declared, type) and origin is None:
        if issubclass(declared, enum.Enum):
            return EnumOf(declared)
        if dataclasses.is_dataclass(declared):
            inner = plan(declared)
            return DataclassOf(declared, inner, inner.mutable)
    elif origin is typing.Literal:
        return LiteralOf(declared)
    elif origin in (typing.Union, types.UnionType):
        arms = tuple(kind_of(arg) for arg in args)
        others = [arm for arm, arg in zip(arms, args, strict=True) if arg is not type(None)]
        if len(others) == 1 and len(arms) == 2:
            return OptionalOf(declared, others[0], others[0].mutable)
        return UnionOf(declared, arms, any(arm.mutable for arm in arms))
    elif origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        rest = kind_of(args[0])
        return TupleOf(declared, (), rest, rest.mutable)
    elif origin is tuple and Ellipsis not in args:
        items = tuple(kind_of(arg) for arg in args)
        return TupleOf(declared, items, None, any(item.mutable for item in items))
    elif origin is list and len(args) == 1:
        return ListOf(declared, kind_of(args[0]))
    elif origin in (set, frozenset) and len(args) == 1:
        item = kind_of(args[0])
        frozen = origin is frozenset
        return SetOf(declared, item, frozen, not frozen or item.mutable)
    elif origin is dict and len(args) == 2:
        return DictOf(declared, kind_of(args[0]), kind_of(args[1]))
    raise FieldTypeError((), declared)

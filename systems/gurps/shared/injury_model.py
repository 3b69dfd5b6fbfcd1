"""The injury model a world plays: the function that turns a hit into injury, and whether the general injury rules
apply (:func:`use_injury`); saved with the world as :class:`InjuryChoice`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from esper_motion.ecs import Phase, System, World, WorldError
from esper_motion.ecs.errors import RuleValueError
from esper_motion.ecs.registry import register_system
from esper_motion.ecs.validate import check_bool

InjuryFunction = Callable[[World, int, int, str], int]
"""How a hit becomes injury: ``(world, victim, damage, damage_type) -> injury``. The default is
:func:`esper_motion.systems.gurps.combat.numbers.default_injury`; a game plugs in its own with :func:`use_injury`."""

F = TypeVar("F", bound=InjuryFunction)

_BY_NAME: dict[str, InjuryFunction] = {}
_NAMES: dict[InjuryFunction, str] = {}


def register_injury(name: str) -> Callable[[F], F]:
    """Decorator giving an injury function the stable name a save holds, so a world that chose it
    (:func:`use_injury`) can be saved and loaded. A name belongs to one function."""

    def decorate(function: F) -> F:
        owner = _BY_NAME.get(name)
        if owner is not None and owner.__qualname__ != function.__qualname__:
            raise WorldError(f"registered injury function name {name!r} already names {owner.__qualname__}")
        _BY_NAME[name] = function
        _NAMES[function] = name
        return function

    return decorate


@dataclass(frozen=True, slots=True)
class InjuryChoiceData:
    """What a save holds of :class:`InjuryChoice`: the injury function's registered name, and whether the general
    injury rules apply."""

    function: str
    general_rules: bool = True

    def __post_init__(self) -> None:
        if self.function not in _BY_NAME:
            known = ", ".join(sorted(_BY_NAME))
            raise RuleValueError("InjuryChoiceData", "function", self.function, f"a registered name ({known})")
        check_bool("InjuryChoiceData", "general_rules", self.general_rules)


@register_system("gurps.InjuryChoice", InjuryChoiceData)
class InjuryChoice(System):
    """The injury model a game chose with :func:`use_injury`, kept among the world's systems so a save holds it. It
    does nothing when it runs: the systems that injure read it."""

    phase = Phase.COMBAT

    def __init__(self, function: InjuryFunction, general_rules: bool = True) -> None:
        super().__init__()
        self.function = function
        self.general_rules = general_rules

    def run(self) -> None:
        """Nothing to do: the choice is read where injury is done."""

    def saved_data(self) -> InjuryChoiceData:
        """The choice by name; an injury function never registered cannot be saved, and says so."""
        name = _NAMES.get(self.function)
        if name is None:
            function = self.function
            raise WorldError(
                f"the injury function {function.__module__}.{function.__qualname__} has no registered name, so a "
                "save cannot hold it: decorate it with esper_motion.systems.gurps.register_injury(name)"
            )
        return InjuryChoiceData(name, self.general_rules)

    @classmethod
    def restored(cls, data: InjuryChoiceData) -> InjuryChoice:
        """The choice a save holds."""
        return cls(_BY_NAME[data.function], data.general_rules)


def injury_choice(world: World) -> InjuryChoice | None:
    """The world's :class:`InjuryChoice`, or None while it plays the defaults (looked up once a turn: several systems
    ask every turn)."""
    return world.per_turn(injury_choice, lambda: _choice_in(world))


def _choice_in(world: World) -> InjuryChoice | None:
    return next((system for system in world.systems if isinstance(system, InjuryChoice)), None)


def use_injury(world: World, injury: InjuryFunction, *, general_rules: bool = True) -> None:
    """Make ``world``'s hits turn into injury with ``injury`` instead of
    :func:`~esper_motion.systems.gurps.combat.numbers.default_injury` (a game's own armour and wounding rules), and,
    with ``general_rules=False``, leave out the general injury rules (shock, major wounds, stun, unconsciousness,
    death): injury then only adds up, and its consequences are the game's. The choice is saved with the world when
    ``injury`` has a registered name (:func:`register_injury`); otherwise saving refuses, naming it."""
    check_bool("use_injury", "general_rules", general_rules)
    chosen = injury_choice(world)
    if chosen is None:
        world.add_system(InjuryChoice(injury, general_rules))
    else:
        chosen.function, chosen.general_rules = injury, general_rules


def general_rules(world: World) -> bool:
    """Whether the general injury rules apply in ``world`` (they do unless a game chose otherwise)."""
    chosen = injury_choice(world)
    return chosen is None or chosen.general_rules

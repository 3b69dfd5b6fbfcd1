"""What a game imports: every name a package root promises is there, and every system, event and component of a
rule set is among them (the GURPS systems in ``esper_motion.systems.gurps.sections``), so moving a module inside a
package never breaks a game."""

from __future__ import annotations

import importlib
import importlib.metadata
import inspect
import pkgutil
from types import ModuleType

import pytest

import esper_motion
from esper_motion.ecs import Event, System

ROOTS = (
    "esper_motion.ecs",
    "esper_motion.components",
    "esper_motion.systems.gurps",
    "esper_motion.systems.gurps.sections",
    "esper_motion.systems.spelljammer",
    "esper_motion.demos",
    "esper_motion.studies",
)


def _modules_under(root: ModuleType) -> list[ModuleType]:
    names = [info.name for info in pkgutil.walk_packages(root.__path__, root.__name__ + ".")]
    return [importlib.import_module(name) for name in names if not name.endswith("__main__")]


def _defined_in(root: ModuleType, base: type) -> set[type]:
    """Every public subclass of ``base`` that a module under ``root`` defines."""
    return {
        value
        for module in _modules_under(root)
        for name, value in vars(module).items()
        if inspect.isclass(value)
        and issubclass(value, base)
        and value is not base
        and value.__module__ == module.__name__
        and not name.startswith("_")
    }


@pytest.mark.parametrize("name", ROOTS)
def test_every_name_a_root_promises_is_there(name: str) -> None:
    root = importlib.import_module(name)
    assert root.__all__, f"{name} promises nothing"
    missing = [each for each in root.__all__ if not hasattr(root, each)]
    assert missing == []
    assert len(set(root.__all__)) == len(root.__all__)


SYSTEMS_FROM = {
    "esper_motion.systems.gurps": "esper_motion.systems.gurps.sections",
    "esper_motion.systems.spelljammer": "esper_motion.systems.spelljammer",
}
"""Where each rule set promises its systems: the GURPS root keeps what a game calls, its systems have a root of their
own."""


@pytest.mark.parametrize("name", sorted(SYSTEMS_FROM))
def test_every_system_and_event_of_a_rule_set_is_importable_from_its_root(name: str) -> None:
    root = importlib.import_module(name)
    for base, home in ((System, SYSTEMS_FROM[name]), (Event, name)):
        promiser = importlib.import_module(home)
        promised = {getattr(promiser, each) for each in promiser.__all__}
        left_out = sorted(cls.__name__ for cls in _defined_in(root, base) - promised)
        assert left_out == [], f"{home} does not export these {base.__name__} classes"


def test_the_gurps_root_exports_no_system() -> None:
    from esper_motion.systems import gurps

    assert [
        each
        for each in gurps.__all__
        if isinstance(getattr(gurps, each), type) and issubclass(getattr(gurps, each), System)
    ] == []


def test_every_component_class_is_importable_from_the_components_root() -> None:
    from esper_motion import components

    promised = {getattr(components, each) for each in components.__all__}
    defined = {
        value
        for module in _modules_under(components)
        for value in vars(module).values()
        if inspect.isclass(value) and value.__module__ == module.__name__ and hasattr(value, "__dataclass_fields__")
    }
    assert sorted(cls.__name__ for cls in defined - promised) == []


def test_the_version_is_the_installed_distributions() -> None:
    assert esper_motion.__version__ == importlib.metadata.version("esper-motion")

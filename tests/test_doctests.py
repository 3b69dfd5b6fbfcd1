"""Every docstring example in the installed package runs (but the command entry point and the drawing modules)."""

from __future__ import annotations

import doctest
import importlib
import importlib.util
import pkgutil
from pathlib import Path

import pytest

import esper_motion

REPO = Path(__file__).resolve().parents[1]

SKIPPED = frozenset({"esper_motion.demos.__main__", "esper_motion.demos.render", "esper_motion.demos.window"})
"""The command entry point exits when imported; the drawing modules need a window."""
MODULES = sorted(
    {"esper_motion"} | {info.name for info in pkgutil.walk_packages(esper_motion.__path__, "esper_motion.")} - SKIPPED
)


@pytest.mark.parametrize("name", MODULES)
def test_module_doctests_pass(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0


@pytest.mark.parametrize("folder", ["ecs", "components", "systems", "demos"])
def test_the_repository_folders_are_not_importable_as_top_level_packages(folder: str) -> None:
    spec = importlib.util.find_spec(folder)
    found = spec.origin if spec is not None else None
    assert found != str(Path(esper_motion.__file__).resolve().parent / folder / "__init__.py")
    assert found != str(REPO / folder / "__init__.py")

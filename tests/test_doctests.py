"""Every docstring example in the installed package runs (but the command entry point and the drawing modules)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import esper_motion

SKIPPED = frozenset({"esper_motion.demos.__main__", "esper_motion.demos.render", "esper_motion.demos.window"})
"""The command entry point exits when imported; the drawing modules need a window."""
MODULES = sorted(
    {"esper_motion"} | {info.name for info in pkgutil.walk_packages(esper_motion.__path__, "esper_motion.")} - SKIPPED
)


@pytest.mark.parametrize("name", MODULES)
def test_module_doctests_pass(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0

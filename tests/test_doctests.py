"""Every docstring example in the installed package runs (but the command entry point and the drawing modules)."""

from __future__ import annotations

import doctest
import importlib
import importlib.util
import pkgutil
import re
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


@pytest.mark.parametrize("folder", ["ecs", "components", "systems", "demos", "studies"])
def test_the_repository_folders_are_not_importable_as_top_level_packages(folder: str) -> None:
    spec = importlib.util.find_spec(folder)
    found = spec.origin if spec is not None else None
    assert found != str(Path(esper_motion.__file__).resolve().parent / folder / "__init__.py")
    assert found != str(REPO / folder / "__init__.py")


ROOTS = frozenset(
    {"esper_motion", "esper_motion.ecs", "esper_motion.components", "esper_motion.systems"}
    | {"esper_motion.systems.gurps", "esper_motion.systems.spelljammer", "esper_motion.demos"}
    | {"esper_motion.systems.gurps.rules", "esper_motion.systems.gurps.sections", "esper_motion.studies"}
)
"""The package roots a game imports from (the pure GURPS rules keep one root of their own, and so do the GURPS
systems, for a game that places its own system beside one of them)."""
EXAMPLE_IMPORT = re.compile(r"^\s*(?:>>>|\.\.\.)\s+(?:from\s+(\S+)\s+import|import\s+(\S+))", re.M)


def _example_sources() -> list[tuple[str, str]]:
    pages = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
    sources = [(str(page.relative_to(REPO)), page.read_text(encoding="utf-8")) for page in pages]
    for name in MODULES:
        module = importlib.import_module(name)
        sources.append((name, Path(str(module.__file__)).read_text(encoding="utf-8")))
    return sources


def test_the_readme_the_documentation_and_the_docstring_examples_import_only_from_the_package_roots() -> None:
    deep = [
        f"{where}: {found}"
        for where, text in _example_sources()
        for match in EXAMPLE_IMPORT.finditer(text)
        if (found := match.group(1) or match.group(2)).startswith("esper_motion") and found not in ROOTS
    ]
    assert deep == []

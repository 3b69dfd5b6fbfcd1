"""The core's layers: persistence and the registry know the world; the world needs neither of them.

The checks read the import statements of every module of the installed ``esper_motion.ecs`` package: those at module
level, under ``if TYPE_CHECKING:`` included, make an import graph that must have no cycle. An import inside a function
body runs only when called, so it is no edge.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

import pytest

import esper_motion.ecs

PACKAGE = "esper_motion.ecs"
FOLDER = Path(esper_motion.ecs.__file__).parent
MODULES = frozenset(path.stem for path in FOLDER.glob("*.py"))
"""The package's modules by file name; the package itself is ``__init__``."""


def _outside_functions(tree: ast.Module) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement of a module but those inside function bodies."""
    pending: list[ast.AST] = list(tree.body)
    while pending:
        node = pending.pop()
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        elif not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            pending.extend(ast.iter_child_nodes(node))


def _submodule(dotted: str) -> str | None:
    """The module of this package that importing ``dotted`` runs, or None for one outside it."""
    if dotted == PACKAGE:
        return "__init__"
    if dotted.startswith(PACKAGE + "."):
        return dotted.removeprefix(PACKAGE + ".").split(".")[0]
    return None


def _imported(statement: ast.Import | ast.ImportFrom) -> set[str]:
    """The modules of this package that ``statement``, in one of its modules, imports."""
    if isinstance(statement, ast.Import):
        found = {_submodule(alias.name) for alias in statement.names}
        return {name for name in found if name is not None}
    if statement.level:  # relative: from the package itself (a module's or __init__'s own folder)
        base = ".".join(PACKAGE.split(".")[: len(PACKAGE.split(".")) - statement.level + 1])
        base = f"{base}.{statement.module}" if statement.module else base
    else:
        base = statement.module or ""
    if base == PACKAGE:  # from esper_motion.ecs import x: the module x, or a name the package itself defines
        return {alias.name if alias.name in MODULES else "__init__" for alias in statement.names}
    found_module = _submodule(base)
    return set() if found_module is None else {found_module}


def _import_graph() -> dict[str, set[str]]:
    """Each module of the package, with the modules of the package it imports outside function bodies."""
    graph: dict[str, set[str]] = {}
    for module in sorted(MODULES):
        tree = ast.parse((FOLDER / f"{module}.py").read_text(encoding="utf-8"))
        graph[module] = set().union(*(_imported(statement) for statement in _outside_functions(tree)))
        graph[module].discard(module)
    return graph


GRAPH = _import_graph()


def test_the_graph_counts_type_checking_imports_and_sees_the_packages_own_imports() -> None:
    assert "world" in GRAPH["registry"]  # under TYPE_CHECKING
    assert "registry" in GRAPH["persist"]
    assert {"world", "persist", "registry"} <= GRAPH["__init__"]


def test_the_ecs_modules_import_each_other_in_no_cycle() -> None:
    try:
        order = list(TopologicalSorter(GRAPH).static_order())
    except CycleError as error:
        pytest.fail(f"import cycle between the modules of {PACKAGE}: {' -> '.join(error.args[1])}")
    assert set(order) == set(GRAPH)


def test_the_world_module_imports_neither_persistence_nor_the_registry_even_for_type_checking() -> None:
    assert GRAPH["world"] & {"persist", "registry", "__init__"} == set()

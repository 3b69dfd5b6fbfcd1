"""The core's layers: the links, persistence and the registry know the world, and World is the facade over the links
and persistence: the only imports inside function bodies are its methods' calls into them.

The checks read the import statements of every module of the installed ``esper_motion.ecs`` package. Those that run
when a module is imported (at module level, in a class body, under ``if TYPE_CHECKING:``) make an import graph that
must have no cycle. Those inside function bodies run only when called, so they make no cycle at import; they are
counted apart, and must be World's facade (:data:`FACADE`) and nothing else.
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


def _statements(tree: ast.Module) -> Iterator[tuple[ast.Import | ast.ImportFrom, str | None]]:
    """Every import statement of a module, with the function whose body holds it (``World.save``), or None for one
    that runs when the module is imported (at module level, in a class body, under ``if TYPE_CHECKING:``)."""
    pending: list[tuple[ast.AST, str, str | None]] = [(node, "", None) for node in tree.body]
    while pending:
        node, prefix, function = pending.pop()
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node, function
            continue
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            prefix = f"{prefix}{node.name}."
            if not isinstance(node, ast.ClassDef):
                function = prefix.removesuffix(".")
        pending.extend((child, prefix, function) for child in ast.iter_child_nodes(node))


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


def _import_graph() -> tuple[dict[str, set[str]], set[tuple[str, str, str]]]:
    """Each module of the package, with the modules of the package it imports when it is imported; and every import
    of a module of the package made inside a function body, as (module, function, imported module)."""
    graph: dict[str, set[str]] = {}
    late: set[tuple[str, str, str]] = set()
    for module in sorted(MODULES):
        graph[module] = set()
        tree = ast.parse((FOLDER / f"{module}.py").read_text(encoding="utf-8"))
        for statement, function in _statements(tree):
            imported = _imported(statement) - {module}
            if function is None:
                graph[module] |= imported
            else:
                late |= {(module, function, name) for name in imported}
    return graph, late


GRAPH, LATE = _import_graph()

FACADE = {
    ("world", "World.spawn", "links"),
    ("world", "World.add", "links"),
    ("world", "World._check_written", "links"),
    ("world", "World.save", "persist"),
    ("world", "World.load", "persist"),
    ("world", "World.restore", "persist"),
}
"""World's calls into the links and persistence, which know the world: the only imports inside function bodies."""


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


def test_the_only_imports_inside_functions_are_worlds_facade_over_the_links_and_persistence() -> None:
    assert LATE == FACADE, f"besides the facade: {sorted(LATE - FACADE)}; gone from it: {sorted(FACADE - LATE)}"


def test_the_links_and_persistence_know_the_world_which_imports_neither_even_for_type_checking() -> None:
    assert "world" in GRAPH["links"]  # under TYPE_CHECKING
    assert "world" in GRAPH["persist"]
    assert GRAPH["world"] & {"links", "persist", "registry", "__init__"} == set()

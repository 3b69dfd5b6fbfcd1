"""The package's layers import one way, ``cli -> studies -> demos -> systems -> components -> ecs``, and only the
demos import arcade, only the studies matplotlib and ray.

Every import statement counts, those inside function bodies too: an import made only when called still ties the
layers. A ``__main__`` module is an entry point nothing imports, so it may import the command above it.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import esper_motion

ROOT = Path(esper_motion.__file__).parent
LAYERS = ("ecs", "components", "systems", "demos", "studies", "cli")
"""The layers, lowest first: a module imports from its own layer and those before it."""
ONLY_IN = {"arcade": "demos", "PIL": "demos", "matplotlib": "studies", "ray": "studies"}
"""Third-party packages only one layer imports."""


def _layer(dotted: str) -> str | None:
    """The layer of an ``esper_motion`` module, or None for one outside the package (or the root package)."""
    parts = dotted.split(".")
    return parts[1] if parts[0] == "esper_motion" and len(parts) > 1 else None


def _imports(path: Path) -> set[str]:
    """Every module ``path`` imports, by its absolute dotted name."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"{path}: relative import"
            found.add(node.module or "")
    return found


MODULES = sorted(path for layer in LAYERS for path in [*ROOT.glob(f"{layer}/**/*.py"), ROOT / f"{layer}.py"])


def _name(path: Path) -> str:
    return str(path.relative_to(ROOT))


@pytest.mark.parametrize("path", [p for p in MODULES if p.exists()], ids=_name)
def test_a_module_imports_only_its_own_layer_and_those_below_it(path: Path) -> None:
    layer = _name(path).split("/")[0].removesuffix(".py")
    if path.stem == "__main__":
        return
    allowed = LAYERS[: LAYERS.index(layer) + 1]
    above = sorted(name for name in _imports(path) if (_layer(name) or layer) not in allowed)
    assert above == [], f"{_name(path)} ({layer}) imports from a layer above it"
    outside = sorted(name for name in _imports(path) if ONLY_IN.get(name.split(".")[0], layer) != layer)
    assert outside == [], f"{_name(path)} ({layer}) imports what only another layer may"


def test_the_layers_are_all_there() -> None:
    assert {_name(path).split("/")[0].removesuffix(".py") for path in MODULES if path.exists()} == set(LAYERS)

"""What every test shares: the installed package alone, and one hidden arcade window for every rendering test.

The tests import the installed ``esper_motion``, never the repository's folders by path: ``python -m pytest`` puts
the working directory on ``sys.path``, where ``ecs``, ``components``, ``systems`` and ``demos`` would import as
top-level packages and a module could load under two names, so the repository root is taken off the path here.

Each headless window leaks about 18 MiB (docs/architecture.md), so the session opens one and each test gets it
cleared, with no view shown. ``ARCADE_HEADLESS`` must be set before arcade is imported, so it is set here.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[1]
sys.path[:] = [entry for entry in sys.path if Path(entry or ".").resolve() != REPO]
os.environ["ARCADE_HEADLESS"] = "1"


@pytest.fixture(scope="session")
def _session_window() -> Iterator[Any]:
    pytest.importorskip("arcade")
    from esper_motion.demos import render

    window = render.current_window()
    yield window
    window.close()


@pytest.fixture
def window(_session_window: Any) -> Any:
    """The session's hidden window, reset: no view, default camera, cleared."""
    if _session_window.current_view is not None:
        _session_window.hide_view()
    _session_window.default_camera.use()
    _session_window.clear()
    return _session_window

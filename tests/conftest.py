"""Shared fixtures: one hidden arcade window for every rendering test.

Each headless window leaks about 18 MiB (DESIGN.md section 9), so the session opens one and each test gets it
cleared, with no view shown. ``ARCADE_HEADLESS`` must be set before arcade is imported, so it is set here.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

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

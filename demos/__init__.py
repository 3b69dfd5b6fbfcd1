"""Demo scenes for esper-motion, and the arcade renderer that shows them: ``esper-motion``.

Scenes are TOML files under ``demos/scenes/`` (format in :mod:`esper_motion.demos.scene_file`), built into worlds by
:mod:`esper_motion.demos.scene`. Listing and loading them needs no arcade; only drawing does
(:mod:`esper_motion.demos.render`, :mod:`esper_motion.demos.window`).

>>> "sprint" in scene_names()
True
"""

from __future__ import annotations

from esper_motion.demos.scene import build_scene, load_scene
from esper_motion.demos.scene_file import SceneError, read_scene, scene_names

__all__ = ["SceneError", "build_scene", "load_scene", "read_scene", "scene_names"]

"""esper-motion: tabletop movement rules as ordered systems for the esper entity component system.

A game adds the components of :mod:`esper_motion.components` to its own entities, installs a rule set
(:mod:`esper_motion.systems.gurps` for GURPS 4th Edition high-speed, flying and mounted movement, with a
campaign's house rules as options; :mod:`esper_motion.systems.spelljammer` for a percentile chase rule set)
into a :class:`esper_motion.ecs.World`, steps it one turn at a time and reacts to the events. The framework
core lives in :mod:`esper_motion.ecs`; demo scenes and their renderer in :mod:`esper_motion.demos`.
"""

from __future__ import annotations

from importlib.metadata import version

__version__: str = version("esper-motion")
"""The installed distribution's version."""

__all__ = ["__version__"]

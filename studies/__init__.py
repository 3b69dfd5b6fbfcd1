"""Outcome studies: thousands of seeded runs of a scene, on every core or on a Ray cluster.

``esper-motion study SCENE --runs N`` (or :func:`study`) plays a demo scene N times, run ``i`` with dice seed
``S + i``, and reports how often each event type happened (per entity, with a 95% interval, and the turn it first
happened) and the final state of the named fields (position, velocity, control state, posture, injury, the
mount a rider sits on). A scene's ``[study]`` table names the outcomes the report leads with. Plots need the
``studies`` extra (matplotlib); the ``ray`` backend the ``cluster`` extra.
"""

from __future__ import annotations

from esper_motion.studies.report import StudyReport, wilson
from esper_motion.studies.scene import DEFAULT_FIELDS, Override, StudyError, StudyRunError
from esper_motion.studies.study import study

__all__ = ["DEFAULT_FIELDS", "Override", "StudyError", "StudyReport", "StudyRunError", "study", "wilson"]

"""Movers that decide: the GURPS planner, which writes the ``Intent`` of every mover with a goal in the DECIDE phase
(:class:`GoalPlanner`), and :func:`plan`, the plan it would follow, shown before it happens.

The goals are components (``esper_motion.components.goals``); the search is :mod:`.search`.
"""

from __future__ import annotations

from esper_motion.systems.gurps.planner.search import FAR_BUDGET, HORIZON, NODE_BUDGET, RISK_PRICE, Plan, PlannedTurn
from esper_motion.systems.gurps.planner.system import REPLAN_LEFT, GoalPlanner, plan

__all__ = [
    "FAR_BUDGET",
    "HORIZON",
    "NODE_BUDGET",
    "REPLAN_LEFT",
    "RISK_PRICE",
    "GoalPlanner",
    "Plan",
    "PlannedTurn",
    "plan",
]

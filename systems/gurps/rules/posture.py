"""Changing Posture in Armor (Basic Set): how many seconds a Change Posture takes at each encumbrance level."""

from __future__ import annotations

from esper_motion.ecs.validate import check_int


def posture_change_seconds(encumbrance_level: int) -> int:
    """Seconds a Change Posture takes under the optional Changing Posture in Armor rule.

    One second at None or Light encumbrance, then one more second per level: Medium 2, Heavy 3,
    X-Heavy 4. Until the change completes the fighter counts as still in the old posture
    (Basic Set: Changing Posture in Armor).
    """
    level = check_int("posture_change_seconds", "encumbrance_level", encumbrance_level, low=0, high=4)
    return max(1, level)

"""Change Posture maneuvers, slowed by armor under the optional rule Changing Posture in Armor."""

from __future__ import annotations

import esper

from esper_motion.components.gurps import Intent, Maneuver, Mover, Posture, PostureState
from esper_motion.ecs import IntentError, Phase, System
from esper_motion.systems.gurps.events import PostureChangeAbandoned, PostureChanged, PostureChanging
from esper_motion.systems.gurps.rules import posture_change_seconds
from esper_motion.systems.gurps.shared.movers import installed_rules


def check_posture_change(entity: int, intent: Intent, posture: Posture) -> PostureState | None:
    """The posture a Change Posture maneuver goes to (None for any other maneuver); an
    :class:`~esper_motion.ecs.errors.IntentError` when ``Posture.target`` is unset or already the posture held
    (Basic Set: Changing Posture in Armor). The step and :func:`esper_motion.systems.gurps.preview` both ask it."""
    if intent.maneuver is not Maneuver.CHANGE_POSTURE:
        return None
    target = posture.target
    if target is None or target is posture.state:
        raise IntentError(
            entity,
            "maneuver",
            intent.maneuver.value,
            f"Change Posture needs Posture.target set to a posture other than {posture.state.value}",
        )
    return target


class PostureSystem(System):
    """INTENT phase: carries out Change Posture maneuvers. Reads ``Intent.maneuver``, ``Posture`` (``target`` is the
    posture wanted), ``Mover.encumbrance`` and ``Rules.posture_in_armor``; writes ``Posture``; emits
    :class:`PostureChanging`, :class:`PostureChanged` and :class:`PostureChangeAbandoned`. Implements Basic Set:
    Changing Posture in Armor.

    Its reading of the rules: docs/gurps-basic.md > How each system reads the rules > PostureSystem.
    """

    phase = Phase.INTENT

    def run(self) -> None:
        """Advance or abandon every posture change, in entity order (no dice are rolled)."""
        in_armor = installed_rules(self.world).posture_in_armor
        for entity, (intent, posture) in esper.get_components(Intent, Posture):
            if intent.maneuver is not Maneuver.CHANGE_POSTURE:
                if posture.seconds_left > 0 and posture.target is not None:
                    self.world.emit(
                        PostureChangeAbandoned(entity, posture.state.value, posture.target.value, posture.seconds_left)
                    )
                    posture.seconds_left = 0
                    posture.target = None
                continue
            target = check_posture_change(entity, intent, posture)
            assert target is not None  # a Change Posture: its target is checked
            if posture.seconds_left == 0:
                mover = esper.try_component(entity, Mover)
                encumbrance = mover.encumbrance if mover is not None else 0
                posture.seconds_left = posture_change_seconds(encumbrance) if in_armor else 1
            posture.seconds_left -= 1
            if posture.seconds_left > 0:
                self.world.emit(PostureChanging(entity, posture.state.value, target.value, posture.seconds_left))
                continue
            old = posture.state
            posture.state = target
            posture.target = None
            self.world.emit(PostureChanged(entity, old.value, target.value))

"""INTENT: at 0 HP or less, the HT roll to stay conscious as the turn opens; the stunned and the unconscious do
nothing."""

from __future__ import annotations

import esper

from esper_motion.components.flight import FlightIntent
from esper_motion.components.gurps import Condition, Intent, Maneuver, Mover
from esper_motion.ecs import Phase, System
from esper_motion.systems.gurps import rules
from esper_motion.systems.gurps.shared.injury import knock_out
from esper_motion.systems.gurps.shared.injury_model import general_rules
from esper_motion.systems.gurps.shared.movers import initiative_order
from esper_motion.systems.gurps.shared.rolls import success_roll


class ConsciousnessCheck(System):
    """INTENT phase, after ``IntentCheck`` and before ``ManeuverLimits``: the start of each turn under the general
    injury rules. Reads ``Condition``, ``Mover`` (HP, HT) and ``Intent``; writes ``Condition`` (knocked out),
    ``Posture``, the maneuver and slam of ``Intent`` and the climb or dive of ``FlightIntent``; emits
    :class:`~esper_motion.ecs.events.RollMade` and ``KnockedOut``. Implements Basic Set: Injury (as in
    docs/architecture.md > Facts the rules lean on).

    Its reading of the rules: docs/gurps-basic.md > How each system reads the rules > ConsciousnessCheck.
    """

    phase = Phase.INTENT

    def run(self) -> None:
        """Roll for the badly hurt, then hold the stunned and the unconscious to Do Nothing."""
        world = self.world
        if not general_rules(world):
            return
        # The rows of StunRecovery's query, and each entity's Intent only where it could matter: no query of
        # every body kept in esper's cache for this system alone.
        rolling = [
            entity
            for entity, (condition, mover) in esper.get_components(Condition, Mover)
            if condition.conscious
            and not condition.stunned
            and rules.at_or_below_zero_hp(mover.hp, condition.injury)
            and _acting(entity)
        ]
        for entity in initiative_order(world, rolling):
            mover, condition = world.get(entity, Mover), world.get(entity, Condition)
            modifier = rules.zero_hp_ht_modifier(mover.hp, condition.injury)
            if not success_roll(
                world, entity, mover.ht, "HT", "stay conscious at 0 HP or less", modifier=modifier
            ).success:
                knock_out(world, entity, "failed the HT roll at 0 HP or less")
        for entity, condition in esper.get_component(Condition):
            intent = esper.try_component(entity, Intent) if condition.stunned or not condition.conscious else None
            if intent is not None:
                intent.maneuver = Maneuver.DO_NOTHING
                intent.slam = False
                wish = world.try_get(entity, FlightIntent)
                if wish is not None:  # doing nothing, it neither climbs nor dives under its own power
                    wish.climb_yd, wish.dive, wish.legs = 0, False, ()


def _acting(entity: int) -> bool:
    """Whether ``entity`` of the active context has an ``Intent`` to do something this turn."""
    intent = esper.try_component(entity, Intent)
    return intent is not None and intent.maneuver is not Maneuver.DO_NOTHING

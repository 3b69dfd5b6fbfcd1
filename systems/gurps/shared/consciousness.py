"""INTENT: at 0 HP or less, the HT roll to stay conscious as the turn opens; the stunned and the unconscious do
nothing."""

from __future__ import annotations

import esper

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
    ``Posture``, and the maneuver and slam of ``Intent``; emits :class:`~esper_motion.ecs.events.RollMade` and
    ``KnockedOut``. Implements Basic Set: Injury (as in docs/architecture.md > Facts the rules lean on).

    Its reading of the rules: docs/gurps-basic.md > How each system reads the rules > ConsciousnessCheck.
    """

    phase = Phase.INTENT

    def run(self) -> None:
        """Roll for the badly hurt, then hold the stunned and the unconscious to Do Nothing."""
        world = self.world
        if not general_rules(world):
            return
        rolling = [
            entity
            for entity, (condition, mover, intent) in esper.get_components(Condition, Mover, Intent)
            if condition.conscious
            and not condition.stunned
            and intent.maneuver is not Maneuver.DO_NOTHING
            and rules.at_or_below_zero_hp(mover.hp, condition.injury)
        ]
        for entity in initiative_order(world, rolling):
            mover, condition = world.get(entity, Mover), world.get(entity, Condition)
            modifier = rules.zero_hp_ht_modifier(mover.hp, condition.injury)
            if not success_roll(
                world, entity, mover.ht, "HT", "stay conscious at 0 HP or less", modifier=modifier
            ).success:
                knock_out(world, entity, "failed the HT roll at 0 HP or less")
        for _, (condition, intent) in esper.get_components(Condition, Intent):
            if condition.stunned or not condition.conscious:
                intent.maneuver = Maneuver.DO_NOTHING
                intent.slam = False

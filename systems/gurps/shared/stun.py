"""CLEANUP: the HT roll that ends a stun, at the end of each of the stunned entity's turns."""

from __future__ import annotations

import esper

from esper_motion.components.gurps import Condition, Mover
from esper_motion.ecs import Phase, System
from esper_motion.systems.gurps.events import StunEnded
from esper_motion.systems.gurps.shared.injury_model import general_rules
from esper_motion.systems.gurps.shared.movers import initiative_order
from esper_motion.systems.gurps.shared.rolls import success_roll


class StunRecovery(System):
    """CLEANUP phase: each entity stunned before this turn rolls HT as the turn ends, in initiative order; a success
    ends the stun for its next turn. Reads ``Condition`` and ``Mover`` (HT); writes ``Condition.stunned`` and
    ``stunned_turn``; emits :class:`~esper_motion.ecs.events.RollMade` and :class:`StunEnded`. Implements Basic Set:
    Injury (as in docs/architecture.md > Facts the rules lean on).

    Its reading of the rules: docs/gurps-basic.md > How each system reads the rules > StunRecovery.
    """

    phase = Phase.CLEANUP

    def run(self) -> None:
        """Roll for every entity stunned since before this turn."""
        world = self.world
        if not general_rules(world):
            return
        stunned = [
            entity
            for entity, (condition, _) in esper.get_components(Condition, Mover)
            if condition.stunned and condition.conscious and condition.stunned_turn != world.turn
        ]
        for entity in initiative_order(world, stunned):
            if success_roll(world, entity, world.get(entity, Mover).ht, "HT", "recover from a stun").success:
                condition = world.get(entity, Condition)
                condition.stunned = False
                condition.stunned_turn = None
                world.emit(StunEnded(entity))

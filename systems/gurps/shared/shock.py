"""CLEANUP: this turn's injury becomes next turn's shock."""

from __future__ import annotations

import esper

from esper_motion.components.gurps import Condition
from esper_motion.ecs import Phase, System
from esper_motion.systems.gurps.shared.injury_model import general_rules


class ShockSystem(System):
    """CLEANUP phase: the shock the injury of this turn gave (``Condition.next_shock``) becomes the shock of the
    next turn (``Condition.shock``), and this turn's lapses. Reads and writes ``Condition.shock`` and ``next_shock``;
    emits nothing. Implements Basic Set: Injury (as in docs/architecture.md > Facts the rules lean on).

    Its reading of the rules: docs/gurps-basic.md > How each system reads the rules > ShockSystem.
    """

    phase = Phase.CLEANUP

    def run(self) -> None:
        """Move every entity's coming shock into place."""
        if not general_rules(self.world):
            return
        for _, condition in esper.get_component(Condition):
            condition.shock, condition.next_shock = condition.next_shock, 0

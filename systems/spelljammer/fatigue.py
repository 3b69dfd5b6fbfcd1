"""Non-lethal damage from sprinting."""

from __future__ import annotations

from esper_motion.ecs import Phase, RollMade, System
from esper_motion.systems.spelljammer._shared import characters
from esper_motion.systems.spelljammer.events import NonLethalDamage
from esper_motion.systems.spelljammer.rules import nonlethal_damage


class SprintFatigue(System):
    """MOVEMENT phase, after ``Move``: rolls the non-lethal damage of a round at Sprint or Fast Sprint. Reads
    ``RoundState`` (``mode``, ``squares``); writes ``RoundState.nonlethal_taken`` (this round's, 0 for any other round)
    and ``RoundState.nonlethal_total``; emits :class:`~esper_motion.ecs.RollMade` and :class:`NonLethalDamage`.
    Implements Spelljammer: Running, Shooting, Chasing and Fleeing > Movement and Defense.

    Its reading of the rules: docs/spelljammer.md > How each system reads the rules > SprintFatigue.
    """

    phase = Phase.MOVEMENT

    def run(self) -> None:
        """Roll the damage of every sprinter, in initiative order."""
        for entity, (_, _, state, _) in characters():
            mode = state.mode
            dice = None if mode is None or state.squares == 0 else nonlethal_damage(mode)
            if mode is None or dice is None:
                state.nonlethal_taken = 0
                continue
            roll = self.world.dice.roll(dice)
            self.world.emit(RollMade(entity, f"non-lethal damage of a {mode.value.replace('_', ' ')}", roll))
            state.nonlethal_taken = roll.total
            state.nonlethal_total += roll.total
            self.world.emit(NonLethalDamage(entity, mode, roll.total, state.nonlethal_total))

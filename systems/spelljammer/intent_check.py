"""Checking every character's intent before the round changes anything."""

from __future__ import annotations

import esper

from esper_motion.components.spelljammer import RangedWeapon, SpeedMode
from esper_motion.ecs import IntentError, Phase, System
from esper_motion.systems.spelljammer._shared import VegetationMap, characters, is_character
from esper_motion.systems.spelljammer.rules import CHASE_MODES, allowed_modes


def _names(modes: tuple[SpeedMode, ...]) -> str:
    return ", ".join(mode.value for mode in modes)


class IntentCheck(System):
    """INTENT phase, first: refuses an intent the rules forbid, before anything changes. Reads ``RoundIntent``,
    ``Mobility``, ``Position`` and every ``VegetationZone``; writes nothing; emits nothing; raises
    :class:`~esper_motion.ecs.errors.IntentError` naming the entity, the field, the value and what is allowed. The
    intent's own fields are the world's to check: what a game writes is checked (and text such as ``"run"`` made
    ``SpeedMode.RUN``) before the step starts. Implements Spelljammer: Running, Shooting, Chasing and Fleeing > Movement
    and Defense.

    Its reading of the rules: docs/spelljammer.md > How each system reads the rules > IntentCheck.
    """

    phase = Phase.INTENT

    def run(self) -> None:
        """Check every character's intent, in initiative order."""
        vegetation = VegetationMap.of_active_context()
        for entity, (mobility, intent, _, position) in characters():
            mode = intent.mode
            under = vegetation.at(position.hex)
            if mode is not None and mode not in allowed_modes(under):
                where = "open ground" if under is None else f"{under.value.replace('_', ' ')} vegetation"
                raise IntentError(
                    entity, "RoundIntent.mode", mode, f"{where} allows only {_names(allowed_modes(under))}"
                )
            if entity in intent.flee_from:
                raise IntentError(
                    entity, "RoundIntent.flee_from", intent.flee_from, "foes other than the character itself"
                )
            if intent.chase is not None:
                self._check_chase(entity, intent.chase, mode)
            if intent.pursuit_skill is not None and intent.pursuit_skill not in mobility.skills:
                known = ", ".join(mobility.skills) or "none"
                raise IntentError(
                    entity,
                    "RoundIntent.pursuit_skill",
                    intent.pursuit_skill,
                    f"a skill in Mobility.skills (it has {known})",
                )
            if intent.shots and intent.weapon is RangedWeapon.LONG_BOW and not (mobility.large or mobility.centaur):
                raise IntentError(
                    entity,
                    "RoundIntent.weapon",
                    intent.weapon,
                    "a weapon other than a long bow: only a large creature fires one",
                )

    @staticmethod
    def _check_chase(entity: int, runner: int, mode: SpeedMode | None) -> None:
        if runner == entity:
            raise IntentError(entity, "RoundIntent.chase", runner, "another character")
        if esper.entity_exists(runner) and not is_character(runner):
            raise IntentError(
                entity,
                "RoundIntent.chase",
                runner,
                "a character (an entity with Mobility, RoundIntent, RoundState, Position)",
            )
        if mode is not None and mode not in CHASE_MODES:
            raise IntentError(entity, "RoundIntent.mode", mode, f"one of {_names(CHASE_MODES)} while chasing")

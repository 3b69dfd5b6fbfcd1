"""Choosing each character's speed mode for the round."""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction

from esper_motion.components.spelljammer import RoundIntent, SpeedMode, Vegetation
from esper_motion.ecs import Phase, System
from esper_motion.systems.spelljammer._shared import VegetationMap, characters
from esper_motion.systems.spelljammer.events import SpeedModeChosen
from esper_motion.systems.spelljammer.rules import CHASE_MODES, SPEEDS, allowed_modes

_PACE: dict[SpeedMode, Fraction] = {row.mode: row.tmr_multiple for row in SPEEDS}


def usual_mode(intent: RoundIntent, vegetation: Vegetation | None) -> SpeedMode:
    """The mode a character goes at: the one it chose, else Run while fleeing or chasing, else Walk.

    Reading (Spelljammer: Running, Shooting, Chasing and Fleeing > Chasing and Fleeing): a chase is at a Run
    unless a side says otherwise; where the vegetation forbids Run, the usual mode is Walk.
    """
    if intent.mode is not None:
        return intent.mode
    in_chase = bool(intent.flee_from) or intent.chase is not None
    return SpeedMode.RUN if in_chase and SpeedMode.RUN in allowed_modes(vegetation) else SpeedMode.WALK


def matched_mode(own: SpeedMode, other: SpeedMode, vegetation: Vegetation | None) -> SpeedMode:
    """``own`` sped up toward ``other``: the fastest chase mode the vegetation allows that is faster than
    ``own`` and no faster than ``other``; ``own`` when there is none."""
    faster = [
        mode for mode in CHASE_MODES if _PACE[own] < _PACE[mode] <= _PACE[other] and mode in allowed_modes(vegetation)
    ]
    return faster[-1] if faster else own


class ChooseSpeed(System):
    """INTENT phase, last: settles the speed mode each character goes at this round. Reads ``RoundIntent`` (``mode``,
    ``flee_from``, ``chase``, ``match_speed``), ``Position`` and every ``VegetationZone``; writes ``RoundState.mode``
    and ``RoundState.vegetation`` (the vegetation under the character as the round begins, which sets its rate for the
    whole round); emits :class:`SpeedModeChosen`. Implements Spelljammer: Running, Shooting, Chasing and Fleeing >
    Movement and Defense.

    Its reading of the rules: docs/spelljammer.md > How each system reads the rules > ChooseSpeed.
    """

    phase = Phase.INTENT

    def run(self) -> None:
        """Choose every character's mode, in initiative order."""
        vegetation = VegetationMap.of_active_context()
        rows = characters()
        under = {entity: vegetation.at(position.hex) for entity, (_, _, _, position) in rows}
        usual = {entity: usual_mode(intent, under[entity]) for entity, (_, intent, _, _) in rows}
        others: defaultdict[int, list[int]] = defaultdict(list)
        for entity, (_, intent, _, _) in rows:
            if intent.chase is not None:
                others[entity].append(intent.chase)
                others[intent.chase].append(entity)
        for entity, (_, intent, state, _) in rows:
            mode = usual[entity]
            if intent.match_speed and others[entity]:
                fastest = max((usual[other] for other in others[entity]), key=_PACE.__getitem__)
                mode = matched_mode(mode, fastest, under[entity])
            state.mode = mode
            state.vegetation = under[entity]
            self.world.emit(SpeedModeChosen(entity, mode, mode is not usual[entity], under[entity]))

"""The chase table: how many melee attacks a pursuer gets on its runner this round."""

from __future__ import annotations

import esper

from esper_motion.components.motion import Position
from esper_motion.components.spelljammer import RoundState, SpeedMode
from esper_motion.ecs import Phase, RollMade, System
from esper_motion.ecs.hexgrid import distance
from esper_motion.systems.spelljammer._shared import characters, options_of
from esper_motion.systems.spelljammer.events import ChaseRound as ChaseRoundEvent
from esper_motion.systems.spelljammer.events import FellDown
from esper_motion.systems.spelljammer.rules import ROUND_SECONDS, chase_attacks, dex_grade, grade_name


class ChaseTable(System):
    """CONTROL phase: resolves each pursuer's round of its chase after everyone has moved. Reads ``RoundIntent.chase``,
    ``Mobility`` (``attacks``, ``dex``), both sides' ``RoundState`` (``mode``, ``squares``) and ``Position``, and the
    ``chase_on_map`` option; writes the pursuer's ``RoundState`` (``fallen``, ``seconds_owed``) after a fall; emits
    :class:`~esper_motion.ecs.RollMade`, :class:`~esper_motion.systems.spelljammer.events.ChaseRound` and
    :class:`FellDown`. Implements Spelljammer: Running, Shooting, Chasing and Fleeing > Chasing and Fleeing.

    Its reading of the rules: docs/spelljammer.md > How each system reads the rules > ChaseTable.
    """

    phase = Phase.CONTROL

    def run(self) -> None:
        """Resolve every chase, in initiative order."""
        options = options_of(self.world)
        for entity, (mobility, intent, state, position) in characters():
            runner = intent.chase
            if runner is None:
                continue
            runner_state = esper.component_for_entity(runner, RoundState)
            mode, runner_mode = state.mode, runner_state.mode
            assert mode is not None and runner_mode is not None  # ChooseSpeed sets both every round
            grade = None
            if mode is SpeedMode.FAST_SPRINT:
                roll = self.world.dice.roll("d100")
                grade = dex_grade(roll.total, mobility.dex)
                purpose = f"keeping its feet chasing at a fast sprint, DEX {mobility.dex}: {grade_name(grade)}"
                self.world.emit(RollMade(entity, purpose, roll))
            result = chase_attacks(state.squares, runner_state.squares, mobility.attacks, mode, grade)
            gap = distance(position.hex, esper.component_for_entity(runner, Position).hex)
            in_reach = not options.chase_on_map or gap <= options.contact_hex
            if result.fell:
                seconds = round(result.rounds_lost * ROUND_SECONDS)
                state.fallen = True
                state.seconds_owed += seconds
                self.world.emit(FellDown(entity, "chasing at a fast sprint", seconds))
            self.world.emit(
                ChaseRoundEvent(
                    entity,
                    runner,
                    mode,
                    runner_mode,
                    state.squares,
                    runner_state.squares,
                    result.attacks if in_reach else 0,
                    result.modifier,
                    in_reach,
                )
            )

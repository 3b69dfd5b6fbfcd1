"""Pursuit actions: closing doors, knocking things over, leaping obstacles, pushing through crowds."""

from __future__ import annotations

from esper_motion.ecs import Phase, RollMade, System
from esper_motion.systems.spelljammer._shared import characters, options_of
from esper_motion.systems.spelljammer.events import FellDown, PursuitActionResolved
from esper_motion.systems.spelljammer.rules import (
    dex_grade,
    grade_name,
    pursuit_action,
    pursuit_fall_seconds,
    scaled_time_dice,
)


class PursuitActions(System):
    """MOVEMENT phase, before ``Move``: resolves the pursuit action a character attempts this round. Reads
    ``RoundIntent`` (``pursuit_dice``, ``pursuit_label``, ``pursuit_skill``) and ``Mobility`` (``dex``, ``skills``) and
    the ``larger_dice`` and ``max_die_steps`` options; writes ``RoundState.seconds_owed`` (the time the action takes,
    served from this round's movement) and ``RoundState.fallen``; emits :class:`~esper_motion.ecs.RollMade` for each
    roll, :class:`PursuitActionResolved` and :class:`FellDown`. Implements Spelljammer: Running, Shooting, Chasing and
    Fleeing > Chasing and Fleeing.

    Its reading of the rules: docs/spelljammer.md > How each system reads the rules > PursuitActions.
    """

    phase = Phase.MOVEMENT

    def run(self) -> None:
        """Resolve every pursuit action, in initiative order."""
        options = options_of(self.world)
        dice = self.world.dice
        for entity, (mobility, intent, state, _) in characters():
            base = intent.pursuit_dice
            if base is None:
                continue
            against, score = "DEX", mobility.dex
            skill = intent.pursuit_skill
            if skill is not None and mobility.skills[skill] > score:
                against, score = skill, mobility.skills[skill]
            what = intent.pursuit_label or "a pursuit action"
            roll = dice.roll("d100")
            grade = dex_grade(roll.total, score)
            self.world.emit(RollMade(entity, f"{what} against {against} {score}: {grade_name(grade)}", roll))
            outcome = pursuit_action(grade)
            if outcome.seconds is not None:
                seconds = outcome.seconds
            else:
                assert outcome.extra_percent is not None  # exactly one of the two is set
                time = dice.roll(
                    scaled_time_dice(
                        base,
                        outcome.extra_percent,
                        larger_dice=options.larger_dice,
                        max_die_steps=options.max_die_steps,
                    )
                )
                self.world.emit(RollMade(entity, f"time for {what}, in seconds", time))
                seconds = time.total
            self.world.emit(
                PursuitActionResolved(entity, intent.pursuit_label, against, score, grade, outcome.level, seconds)
            )
            fall = 0
            if outcome.fall_check:
                second = dice.roll("d100")
                second_grade = dex_grade(second.total, score)
                self.world.emit(
                    RollMade(entity, f"keeping its feet after {what} failed: {grade_name(second_grade)}", second)
                )
                fall = pursuit_fall_seconds(second_grade)
                if fall:
                    state.fallen = True
                    self.world.emit(FellDown(entity, f"{what} failed", fall))
            state.seconds_owed += seconds + fall

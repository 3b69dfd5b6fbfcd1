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
    """MOVEMENT phase, before ``Move``: resolves the pursuit action a character attempts this round.

    Reads ``RoundIntent`` (``pursuit_dice``, ``pursuit_label``, ``pursuit_skill``) and ``Mobility`` (``dex``,
    ``skills``) and the ``larger_dice`` and ``max_die_steps`` options; writes ``RoundState.seconds_owed`` (the
    time the action takes, served from this round's movement) and ``RoundState.fallen``; emits
    :class:`~esper_motion.ecs.RollMade` for each roll, :class:`PursuitActionResolved` and :class:`FellDown`.

    Spelljammer: Running, Shooting, Chasing and Fleeing > Chasing and Fleeing (Pursuit Actions): a d100 roll
    graded by multiples of DEX (``rules.dex_grade``) sets the outcome and the time (``rules.pursuit_action``):
    no time at 1/2x, one second at 1x, the base time at 2x, and the base time +33%, +66% or +100% as larger
    dice (``rules.scaled_time_dice``) at 3x, 4x and 5x or worse. After a 5x-or-worse roll a second roll of 5x
    or worse is a fall costing 5 more seconds. Readings chosen: a skill named in ``pursuit_skill`` stands in
    for DEX when it is the higher score (the character is free to use it, and a higher score never grades
    worse); the second roll uses the same score.
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

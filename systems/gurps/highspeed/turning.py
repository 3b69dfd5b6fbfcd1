"""TURNING: where this turn's change of facing happens, and the roll for turning early or tight."""

from __future__ import annotations

import math

from esper_motion.components.gurps import FacingChange, MoveState
from esper_motion.ecs import Phase, System, World
from esper_motion.systems.gurps.highspeed.intent import early_turn_modifier
from esper_motion.systems.gurps.options import Rules
from esper_motion.systems.gurps.shared.climbing import hexside_free_yd
from esper_motion.systems.gurps.shared.movers import (
    Body,
    Limits,
    bodies,
    carried,
    control_roll,
    failed_control_roll,
    installed_rules,
    limits,
)
from esper_motion.systems.gurps.shared.transitions import lose_control


def asked_turns(body: Body) -> tuple[tuple[int | None, int], ...]:
    """The changes of facing ``body``'s intent asks for, ``(at_yd, hexsides)`` in order (``at_yd`` None: as soon as
    the rules allow): its ``Intent.turns``, or its one ``Intent.turn`` at ``Intent.turn_at_yd``."""
    intent = body.intent
    if intent.turns:
        return intent.turns
    return ((intent.turn_at_yd, intent.turn),) if intent.turn else ()


def turn_checks(
    world: World, body: Body, lim: Limits, asked: tuple[tuple[int | None, int], ...]
) -> tuple[tuple[int, int, str | None], ...]:
    """Each change of facing ``asked`` of ``body`` at high speed as ``(at_yd, hexsides, roll)``: ``roll`` is
    ``"early turn"`` for one before the turning radius is run (the first since the last change of facing, each
    later one since the one before it; under the house rules a climb or dive start counts as a change, before the
    first or between two: :func:`~esper_motion.systems.gurps.shared.climbing.hexside_free_yd`), ``"tight turn"`` for
    a 120-degree turn,
    else None (Basic Set: High-Speed Movement > Direction and Turning Radius; Pushing the Envelope)."""
    checks: list[tuple[int, int, str | None]] = []
    previous: int | None = None
    for wanted_at, by in asked:
        if previous is None:
            at = wanted_at if wanted_at is not None else int(hexside_free_yd(world, body, lim, None))
        else:
            at = wanted_at if wanted_at is not None else math.ceil(hexside_free_yd(world, body, lim, None, previous))
        early = at < hexside_free_yd(world, body, lim, at, previous)
        checks.append((at, by, "early turn" if early else "tight turn" if abs(by) == 2 else None))
        previous = at
    return tuple(checks)


class TurnPlanner(System):
    """TURNING phase: plans each mover's turn, in initiative order. Reads ``Intent`` (``turn``, ``turn_at_yd``,
    ``turns``, ``push``), ``Velocity``, ``Control`` (``state``, ``straight_yd``), the Move in use and DX (or vehicle
    skill and Handling); writes ``Control.turn_plan`` and ``Control.turn_yd``, and ``Control.state``, ``loss_cause`` and
    ``lost_at_yd`` on a failed roll; emits ``RollMade`` and ``LostControl``. Implements Basic Set: High-Speed Movement.

    Its reading of the rules: docs/gurps-basic.md > How each system reads the rules > TurnPlanner.
    """

    phase = Phase.TURNING

    def run(self) -> None:
        """Plan every turn asked for."""
        world = self.world
        chosen = installed_rules(world)
        for body in bodies(world):
            control = body.control
            asked = asked_turns(body)
            if not asked or carried(body) or control.halted or control.state is MoveState.OUT_OF_CONTROL:
                continue
            if control.state is MoveState.NORMAL:
                plan = tuple((0 if at is None else at, by) for at, by in asked)
            else:
                plan = self._at_speed(body, asked, chosen)
            control.turn_plan = plan
            control.turn_yd = plan[0][0] if plan else None

    def _at_speed(
        self, body: Body, asked: tuple[tuple[int | None, int], ...], chosen: Rules
    ) -> tuple[FacingChange, ...]:
        """The changes of facing ``body`` makes at high speed, rolling for each early or tight one
        (:func:`turn_checks`); a failed roll ends the plan (under the house rules the failed change is kept: its
        facing changes, not its heading)."""
        world = self.world
        lim = limits(world, body, chosen)
        planned: list[FacingChange] = []
        for at, by, what in turn_checks(world, body, lim, asked):
            if what is not None:
                modifier = early_turn_modifier(body, lim, chosen)
                skill, label = control_roll(world, body)
                cause = failed_control_roll(world, body.entity, skill, label, what, modifier=modifier)
                if cause is not None:
                    lose_control(world, body, cause, at, chosen)
                    if chosen.house_control:
                        planned.append((at, by))
                    break
            planned.append((at, by))
        return tuple(planned)

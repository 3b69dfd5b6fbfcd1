"""House rules: starting a climb or a dive at speed is a turn, with the turning radius and its roll."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from esper_motion.components.flight import Flight, Leg
from esper_motion.components.gurps import Control, MoveState
from esper_motion.ecs import Phase, System
from esper_motion.systems.gurps import rules
from esper_motion.systems.gurps.events import ClimbDiveTurn
from esper_motion.systems.gurps.shared.climbing import counting_starts
from esper_motion.systems.gurps.shared.movers import (
    bodies,
    control_roll,
    environment,
    failed_control_roll,
    installed_rules,
    limits,
)
from esper_motion.systems.gurps.shared.transitions import lose_control

CLIMB_DIVE_ROLL: Final = "climb or dive before the turning radius"
"""What the roll for an early climb or dive start is for."""


def climb_dive_turns(
    legs: tuple[Leg, ...], previous_yd: int, run_before_yd: int, hexside_turn_yds: tuple[int, ...]
) -> Iterator[tuple[int, int, int, int]]:
    """The climbs and dives of ``legs`` that count as turns, in order, as (yard it starts at, yards climbed,
    degrees, yards run straight before it), as :class:`HouseClimbTurns` reads them: ``previous_yd`` is the
    last climb of the turn before, ``run_before_yd`` the yards run straight before this turn's path, and
    ``hexside_turn_yds`` the yards of the hexside turns made this turn, in order (none without one)."""
    restart = None  # where the straight count last restarted in this path (None: before it)
    for at, climbed, degrees in counting_starts(legs, previous_yd):
        hexside = max((yd for yd in hexside_turn_yds if yd <= at), default=None)
        if hexside is not None and (restart is None or restart < hexside):
            restart = hexside
        yield at, climbed, degrees, at - restart if restart is not None else run_before_yd + at
        restart = at


def made_turns(control: Control) -> tuple[int, ...]:
    """The yards of the changes of facing the walk made this turn: those of ``Control.turn_plan`` that its
    ``turned_hexsides`` account for, in order (the walk makes them in order and stops at the first it cannot)."""
    yards: list[int] = []
    left = control.turned_hexsides
    for at, by in control.turn_plan:
        if left < abs(by):
            break
        yards.append(at)
        left -= abs(by)
    return tuple(yards)


class HouseClimbTurns(System):
    """MOVEMENT phase, after the climbs and descents (house rules only): climbs and dives as turns. Reads ``Flight``
    (``flown_legs``, ``previous_climb_yd``), ``Control`` (``state``, ``straight_before_yd``, ``straight_yd``,
    ``moved_yd``, ``turned_hexsides``, ``turn_plan``), ``Velocity``, DX and the house turning radius; writes
    ``Control.straight_yd``, and ``Control.state`` and ``loss_cause`` on a failed roll; emits :class:`ClimbDiveTurn`,
    ``RollMade`` and ``LostControl``. Implements house rules: Flying Movement and Combat.

    Its reading of the rules: docs/gurps-house.md > How each system reads the rules > HouseClimbTurns.
    """

    phase = Phase.MOVEMENT
    acts_on = (Flight,)

    def run(self) -> None:
        """Check every climb or dive started this turn, in initiative order."""
        world = self.world
        chosen = installed_rules(world)
        for body in bodies(world):
            flight = world.try_get(body.entity, Flight)
            control = body.control
            if flight is None or control.state is not MoveState.HIGH_SPEED or environment(world, body) != "air":
                continue
            run_before = control.straight_before_yd
            starts = climb_dive_turns(flight.flown_legs, flight.previous_climb_yd, run_before, made_turns(control))
            for at, climbed, degrees, straight in starts:
                lim = limits(world, body, chosen)
                pushed = degrees == 120 or straight < lim.radius
                if pushed:
                    modifier = rules.early_turn_modifier(body.velocity.yps, lim.move, rules.Variant.HOUSE)
                    skill, label = control_roll(world, body)
                    cause = failed_control_roll(world, body.entity, skill, label, CLIMB_DIVE_ROLL, modifier=modifier)
                    if cause is not None:
                        world.emit(ClimbDiveTurn(body.entity, climbed, degrees, pushed))
                        lose_control(world, body, cause, control.moved_yd, chosen)
                        break
                control.straight_yd = min(control.straight_yd, control.moved_yd - at)
                world.emit(ClimbDiveTurn(body.entity, climbed, degrees, pushed))

"""Moving each character across the map at the rate of its speed mode."""

from __future__ import annotations

import math
from dataclasses import dataclass

import esper

from esper_motion.components.motion import Position
from esper_motion.components.spelljammer import Mobility, RoundIntent, SpeedMode, Vegetation
from esper_motion.ecs import Phase, System
from esper_motion.ecs.hexgrid import DIRECTIONS, Hex, distance, line
from esper_motion.systems.spelljammer._shared import Character, characters, options_of
from esper_motion.systems.spelljammer.events import SquaresMoved
from esper_motion.systems.spelljammer.rules import ROUND_SECONDS, SQUARE_FT, movement_rate

_DECIMALS = 9  # rounding that keeps float noise (a TMR times 1/10) from losing a hex


def movement_order(rows: list[Character]) -> list[Character]:
    """``rows`` (in initiative order) with every pursuer after the runner it chases, so it chases where the
    runner went; otherwise initiative order stays (a chase in a circle keeps it too)."""
    intents: dict[int, RoundIntent] = {entity: intent for entity, (_, intent, _, _) in rows}

    def depth(entity: int) -> int:
        seen = {entity}
        chased = intents[entity].chase
        while chased is not None and chased in intents and chased not in seen:
            seen.add(chased)
            chased = intents[chased].chase
        return len(seen) - 1

    return sorted(rows, key=lambda row: depth(row[0]))  # sorted() is stable: initiative order within a depth


@dataclass(frozen=True, slots=True)
class Stride:
    """What a character's speed gives it in one round: the seconds ``served`` of those owed and the seconds still
    ``owed`` after it, the ``squares`` covered in the rest, the whole hexes ``steps`` it may move and the fraction
    ``carry`` of a hex left over."""

    served: int
    owed: int
    squares: float
    steps: int
    carry: float


def stride(
    mobility: Mobility,
    mode: SpeedMode,
    vegetation: Vegetation | None,
    *,
    seconds_owed: int,
    carry_hex: float,
    hex_ft: int,
) -> Stride:
    """The round's :class:`Stride` at ``mode`` from the vegetation the character starts in, the seconds it owes and
    the hex it carries (``Move``'s arithmetic, for the planner too: docs/spelljammer.md > How each system reads the
    rules > Move)."""
    served = min(ROUND_SECONDS, seconds_owed)
    rate = movement_rate(mobility.tmr, mode, mobility.encumbrance, vegetation)
    squares = round(rate * (ROUND_SECONDS - served) / ROUND_SECONDS, _DECIMALS)
    reach = round(squares * SQUARE_FT / hex_ft + carry_hex, _DECIMALS)
    steps = math.floor(reach)
    return Stride(served, seconds_owed - served, squares, steps, max(0.0, round(reach - steps, _DECIMALS)))


def destination(start: Hex, steps: int, heading: int | None, runner_at: Hex | None) -> tuple[int, Hex]:
    """The hexes taken and the hex reached in ``steps``: straight toward ``runner_at`` stopping beside it (a
    pursuer), else along ``heading``; (0, ``start``) with neither."""
    if runner_at is not None:
        taken = min(steps, max(0, distance(start, runner_at) - 1))
        return taken, line(start, runner_at)[taken]
    if heading is None:
        return 0, start
    dq, dr = DIRECTIONS[heading]
    return steps, (start[0] + dq * steps, start[1] + dr * steps)


class Move(System):
    """MOVEMENT phase, after ``PursuitActions``: moves every character at the rate of its speed mode. Reads ``Mobility``
    (``tmr``, ``encumbrance``), ``RoundState`` (``mode``, ``vegetation``, ``seconds_owed``, ``carry_hex``),
    ``RoundIntent`` (``heading``, ``chase``) and the ``hex_ft`` option; writes ``Position`` and ``RoundState``
    (``squares``, ``moved_hex``, ``carry_hex``, ``seconds_lost``, ``seconds_owed``, ``fallen``); emits
    :class:`SquaresMoved`. Implements Spelljammer: Running, Shooting, Chasing and Fleeing > Movement and Defense,
    Restricted Movement.

    Its reading of the rules: docs/spelljammer.md > How each system reads the rules > Move.
    """

    phase = Phase.MOVEMENT

    def run(self) -> None:
        """Move every character, runners before their pursuers."""
        hex_ft = options_of(self.world).hex_ft
        for entity, (mobility, intent, state, position) in movement_order(characters()):
            mode = state.mode
            assert mode is not None  # ChooseSpeed sets it every round
            went = stride(
                mobility,
                mode,
                state.vegetation,
                seconds_owed=state.seconds_owed,
                carry_hex=state.carry_hex,
                hex_ft=hex_ft,
            )
            state.seconds_owed, state.seconds_lost = went.owed, went.served
            if state.seconds_owed == 0:
                state.fallen = False
            if intent.chase is None and intent.heading is None:
                state.squares, state.moved_hex, state.carry_hex = 0.0, 0, 0.0
                continue
            start = position.hex
            runner_at = None if intent.chase is None else esper.component_for_entity(intent.chase, Position).hex
            taken, end = destination(start, went.steps, intent.heading, runner_at)
            position.q, position.r = end
            state.squares, state.moved_hex = went.squares, taken
            state.carry_hex = went.carry if taken == went.steps else 0.0
            self.world.emit(SquaresMoved(entity, mode, went.squares, taken, start, end, went.served))

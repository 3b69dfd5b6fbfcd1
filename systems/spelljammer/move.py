"""Moving each character across the map at the rate of its speed mode."""

from __future__ import annotations

import math

import esper

from esper_motion.components.motion import Position
from esper_motion.components.spelljammer import RoundIntent
from esper_motion.ecs import Phase, System
from esper_motion.ecs.hexgrid import DIRECTIONS, distance, line
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
            served = min(ROUND_SECONDS, state.seconds_owed)
            state.seconds_owed -= served
            state.seconds_lost = served
            if state.seconds_owed == 0:
                state.fallen = False
            mode = state.mode
            assert mode is not None  # ChooseSpeed sets it every round
            rate = movement_rate(mobility.tmr, mode, mobility.encumbrance, state.vegetation)
            squares = round(rate * (ROUND_SECONDS - served) / ROUND_SECONDS, _DECIMALS)
            reach = round(squares * SQUARE_FT / hex_ft + state.carry_hex, _DECIMALS)
            steps = math.floor(reach)
            carry = max(0.0, round(reach - steps, _DECIMALS))
            start = position.hex
            if intent.chase is not None:
                target = esper.component_for_entity(intent.chase, Position).hex
                taken = min(steps, max(0, distance(start, target) - 1))
                end = line(start, target)[taken]
                if taken < steps:
                    carry = 0.0
            elif intent.heading is not None:
                dq, dr = DIRECTIONS[intent.heading]
                taken, end = steps, (start[0] + dq * steps, start[1] + dr * steps)
            else:
                state.squares, state.moved_hex, state.carry_hex = 0.0, 0, 0.0
                continue
            position.q, position.r = end
            state.squares, state.moved_hex, state.carry_hex = squares, taken, carry
            self.world.emit(SquaresMoved(entity, mode, squares, taken, start, end, served))

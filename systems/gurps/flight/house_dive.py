"""House rules: what climbing and diving at high speed do to a flier's speed."""

from __future__ import annotations

import esper

from esper_motion.components.flight import Flight
from esper_motion.components.gurps import Control, Mover, MoveState
from esper_motion.components.motion import Velocity
from esper_motion.ecs import Phase, System, World
from esper_motion.systems.gurps import rules
from esper_motion.systems.gurps.events import VelocityChanged
from esper_motion.systems.gurps.shared.dive import normal_top_speed
from esper_motion.systems.gurps.shared.movers import installed_rules


def gather_dive_speed(world: World, entity: int, yards: int) -> None:
    """House rules: a dive of ``yards`` this turn adds 1 to the velocity and to the top speed for each of its
    first 10 yards (:func:`esper_motion.systems.gurps.rules.house_dive_speed_gain`), never taking the velocity past the
    absolute dive maximum (:func:`esper_motion.systems.gurps.rules.house_dive_speed_cap`); it counts a turn spent diving
    (House rules: Flying Movement and Combat)."""
    flight = world.get(entity, Flight)
    velocity = world.get(entity, Velocity)
    gain = rules.house_dive_speed_gain(yards)
    top = normal_top_speed(flight, world.get(entity, Mover), installed_rules(world))
    cap = rules.house_dive_speed_cap(top)
    velocity.yps = max(velocity.yps, min(velocity.yps + gain, cap))
    flight.dive_bonus_yps = min(flight.dive_bonus_yps + gain, cap - top)
    flight.dive_bonus_turns += 1


class HouseDiveSpeed(System):
    """MOVEMENT phase, after the climbs and descents (house rules only): what climbing and diving do to speed. Reads
    ``Flight`` (the yards climbed and dived this turn, ``up_yd`` and ``down_yd``), ``Control.state``, ``Velocity``;
    writes ``Velocity.yps``, ``Flight.dive_bonus_yps`` and ``Flight.dive_bonus_turns``; emits ``VelocityChanged`` for a
    speed the climb or dive changed. Implements house rules: Flying Movement and Combat.

    Its reading of the rules: docs/gurps-house.md > How each system reads the rules > HouseDiveSpeed.
    """

    phase = Phase.MOVEMENT
    acts_on = (Flight,)

    def run(self) -> None:
        """Apply the climbs and dives of this turn to every flier's speed (no dice, entity order)."""
        world = self.world
        for entity, (flight, control, velocity) in esper.get_components(Flight, Control, Velocity):
            before = velocity.yps
            up, down = flight.up_yd, flight.down_yd
            at_speed = control.state is MoveState.HIGH_SPEED
            climbed_first = bool(flight.flown_legs) and flight.flown_legs[0][1] > 0
            if up and at_speed and (climbed_first or not down):
                velocity.yps = max(0, velocity.yps - rules.house_climb_speed_loss(up))
            if down and at_speed:
                gather_dive_speed(world, entity, down)
                if up and not climbed_first:
                    velocity.yps = max(0, velocity.yps - rules.house_climb_speed_loss(up))
            elif flight.dive_bonus_turns > 0:
                flight.dive_bonus_turns -= 1
                if flight.dive_bonus_turns == 0:
                    flight.dive_bonus_yps = 0
            if velocity.yps != before:
                world.emit(VelocityChanged.forced(entity, before, velocity.yps))

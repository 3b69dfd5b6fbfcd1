"""House rules: what climbing and diving at high speed do to a flier's speed."""

from __future__ import annotations

import esper

from components.flight import Flight
from components.gurps import Control, Mover, MoveState
from components.motion import Velocity
from ecs import Phase, System, World
from systems.gurps import rules
from systems.gurps.dive import normal_top_speed
from systems.gurps.movers import installed_rules


def gather_dive_speed(world: World, entity: int, yards: int) -> None:
    """House rules: a dive of ``yards`` this turn adds 1 to the velocity and to the top speed for each of its
    first 10 yards (:func:`systems.gurps.rules.house_dive_speed_gain`), never taking the velocity past the
    absolute dive maximum (:func:`systems.gurps.rules.house_dive_speed_cap`); it counts a turn spent diving
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
    """MOVEMENT phase, after the climbs and descents (house rules only): what climbing and diving do to speed.

    Reads ``Flight.climbed_yd``, ``Control.state``, ``Velocity``; writes ``Velocity.yps``,
    ``Flight.dive_bonus_yps`` and ``Flight.dive_bonus_turns``.

    At high speed in the air (House rules: Flying Movement and Combat):

    - each of the first 10 yards climbed this turn takes 1 from the velocity at once
      (:func:`systems.gurps.rules.house_climb_speed_loss`), never below 0;
    - each of the first 10 yards dived adds 1 to the velocity and to the top speed
      (:func:`gather_dive_speed`), never past the absolute dive maximum;
    - the bonus to top speed lasts while the flier keeps diving, then one more turn for each turn it dived.
      Reading chosen: the bonuses of successive turns of diving add up (so a long dive can keep the speed it
      gathers), and ``dive_bonus_turns`` counts the turns dived, then counts them down.
    """

    phase = Phase.MOVEMENT

    def run(self) -> None:
        """Apply the climbs and dives of this turn to every flier's speed (no dice, entity order)."""
        for entity, (flight, control, velocity) in esper.get_components(Flight, Control, Velocity):
            climbed = flight.climbed_yd
            if climbed < 0 and control.state is MoveState.HIGH_SPEED:
                gather_dive_speed(self.world, entity, -climbed)
                continue
            if climbed > 0 and control.state is MoveState.HIGH_SPEED:
                velocity.yps = max(0, velocity.yps - rules.house_climb_speed_loss(climbed))
            if flight.dive_bonus_turns > 0:
                flight.dive_bonus_turns -= 1
                if flight.dive_bonus_turns == 0:
                    flight.dive_bonus_yps = 0

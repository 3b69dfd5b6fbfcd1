"""House rules: starting a climb or a dive at speed is a turn, with the turning radius and its roll."""

from __future__ import annotations

from components.flight import Flight
from components.gurps import LossCause, MoveState
from ecs import Phase, RollMade, System
from systems.gurps import rules
from systems.gurps.events import ClimbDiveTurn
from systems.gurps.movers import bodies, control_roll, environment, installed_rules, limits
from systems.gurps.transitions import lose_control


class HouseClimbTurns(System):
    """MOVEMENT phase, after the climbs and descents (house rules only): climbs and dives as turns.

    Reads ``Flight`` (``climbed_yd``, ``previous_climb_yd``), ``Control`` (``state``, ``straight_yd``,
    ``moved_yd``, ``turned_hexsides``), ``Velocity``, DX and the house turning radius; writes
    ``Control.straight_yd``, and ``Control.state`` and ``loss_cause`` on a failed roll; emits
    :class:`ClimbDiveTurn`, ``RollMade`` and ``LostControl``.

    At high speed, starting a climb or a dive counts as a turn: 1-2 yards 0 degrees, 3-5 yards 60, 6 or more
    120 (:func:`systems.gurps.rules.house_climb_dive_turn_degrees`); climbing or diving as much as last turn is
    no new turn. A 60-degree one before the turning radius has been run straight, or any 120-degree one, needs
    the early-turn roll, DX+3 minus the turning radius; failing it loses control (House rules: Flying
    Movement and Combat; High Speed Movement). Readings chosen:

    - A climb or dive starts where the turn's movement starts, so the straight yards that count are those run
      before this turn (none if the flier also turned a hexside this turn), and a climb or dive that counts
      as a turn restarts the straight count at the start of this turn's path.
    - Any change of the yards climbed or dived (a new amount, or from climbing to diving) is a new start;
      levelling out is not.
    - On a failed roll the climb or dive has been flown, and control is lost at the end of the movement.
    """

    phase = Phase.MOVEMENT

    def run(self) -> None:
        """Check every climb or dive started this turn, in initiative order."""
        world = self.world
        chosen = installed_rules(world)
        for body in bodies(world):
            flight = world.try_get(body.entity, Flight)
            control = body.control
            if flight is None or control.state is not MoveState.HIGH_SPEED or environment(world, body) != "air":
                continue
            climbed = flight.climbed_yd
            if climbed in (0, flight.previous_climb_yd):
                continue
            degrees = rules.house_climb_dive_turn_degrees(abs(climbed))
            if degrees == 0:
                continue
            lim = limits(world, body, chosen)
            before = control.straight_yd - control.moved_yd if control.turned_hexsides == 0 else 0
            pushed = degrees == 120 or before < lim.radius
            if pushed:
                modifier = rules.early_turn_modifier(body.velocity.yps, lim.move, "house")
                skill, label = control_roll(world, body)
                result = world.dice.success(skill + modifier, f"{label}{modifier:+d}")
                world.emit(RollMade(body.entity, "climb or dive before the turning radius", result))
                if not result.success:
                    cause = LossCause.CRITICAL_FAILURE if result.critical_failure else LossCause.FAILED_ROLL
                    world.emit(ClimbDiveTurn(body.entity, climbed, degrees, pushed))
                    lose_control(world, body, cause, control.moved_yd, chosen)
                    continue
            control.straight_yd = control.moved_yd
            world.emit(ClimbDiveTurn(body.entity, climbed, degrees, pushed))

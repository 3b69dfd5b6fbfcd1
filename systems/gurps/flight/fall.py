"""Falling without lift: a stalled flier drops, may pull out into a dive, or hits the ground."""

from __future__ import annotations

from typing import Final

import esper

from esper_motion.components.flight import Flight
from esper_motion.components.gurps import Condition, Control, Intent, Mover, MoveState
from esper_motion.components.motion import Facing, Position, Velocity
from esper_motion.ecs import IntentError, Phase, World
from esper_motion.ecs.hexgrid import Hex
from esper_motion.ecs.validate import check_int, check_number
from esper_motion.systems.gurps import rules
from esper_motion.systems.gurps.events import Falling, FellClear, Landed, StallRecovered
from esper_motion.systems.gurps.shared.dive import normal_top_speed
from esper_motion.systems.gurps.shared.figure import occupied_hexes
from esper_motion.systems.gurps.shared.impact import fall_damage, resolve_collision
from esper_motion.systems.gurps.shared.movers import (
    body_of,
    dx_modifier,
    initiative_order,
    installed_rules,
    limits,
    mount_crashed,
)
from esper_motion.systems.gurps.shared.rolls import success_roll
from esper_motion.systems.gurps.shared.spatial import IndexedSystem, SpatialIndex, figure_height_yd
from esper_motion.systems.gurps.shared.transitions import come_to_rest

FALL_ACCELERATION_YPS2: Final = 10.7
"""How fast a fall gains speed at Earth gravity, in yards per second each second: half of the 21.4 in the
fall velocity formula of Basic Set: Falling (velocity squared = 21.4 x gravity x yards), so that a fall of
any length ends at the velocity :func:`esper_motion.systems.gurps.rules.fall_velocity` gives it."""


def free_fall_yd(seconds: int, gravity: float = 1.0) -> float:
    """Yards fallen from rest in ``seconds`` seconds: 10.7 x gravity x seconds squared / 2.

    Reading chosen: the texts give a fall's end velocity but not how far one falls each second; this is the
    fall that agrees with that velocity (Basic Set: Falling, as in docs/architecture.md > Facts the rules lean on).

    >>> free_fall_yd(1), free_fall_yd(2), free_fall_yd(3)
    (5.35, 21.4, 48.15)
    """
    seconds = check_int("free_fall_yd", "seconds", seconds, low=0)
    gravity = check_number("free_fall_yd", "gravity", gravity, low=0)
    return round(FALL_ACCELERATION_YPS2 * gravity * seconds * seconds / 2, 6)


def land(world: World, index: SpatialIndex, entity: int) -> None:
    """A falling flier reaches the ground: a collision with the ground at the velocity of its fall.

    Damage is :func:`esper_motion.systems.gurps.shared.impact.fall_damage` at
    :func:`esper_motion.systems.gurps.rules.fall_velocity` of the yards fallen. The flier ends on the ground,
    stopped and with its fall counters cleared (:func:`_down`); emits :class:`Landed` and :class:`FallDamage`
    (Basic Set: Falling; Damage from Collisions). A ridden flying mount that crashes so is a mount that falls:
    its riders' lot is table row 12, from the height it fell
    (:func:`esper_motion.systems.gurps.shared.movers.mount_crashed`, resolved in the MOUNTED phase).
    """
    flight = world.get(entity, Flight)
    velocity = rules.fall_velocity(flight.fall_yd)
    damage = fall_damage(world, entity, velocity)
    come_to_rest(world, entity, "hit the ground")
    fallen = flight.fall_yd
    _down(world, index, entity, world.get(entity, Position).hex)
    world.emit(Landed(entity, fallen, velocity))
    world.emit(damage)
    mount_crashed(world, entity, fallen)


def fall_onto(world: World, index: SpatialIndex, entity: int, struck: int) -> None:
    """A falling flier comes down onto ``struck``, a body or an obstacle below it: a collision with it at the
    velocity of the fall so far (:func:`esper_motion.systems.gurps.shared.impact.resolve_collision` from above:
    against a body each side takes the other's HP x velocity / 100 dice, and both stop; an obstacle as in any
    collision).

    Readings chosen: falling is a collision with the ground (docs/architecture.md > Facts the rules lean on), so falling
    onto something is a collision with that instead, and it breaks the fall: no more damage for the rest of the way
    down. The flier ends on the ground (:func:`_down`) beside what it struck: on its own hex if that is clear at ground
    level, else the nearest clear hex (:meth:`esper_motion.systems.gurps.shared.spatial.SpatialIndex.landing_spot`).
    Emits the collision's events and :class:`FellClear`. A ridden flying mount that falls so is a mount that falls,
    as on the ground: table row 12 for its riders, from the height it fell to what it struck
    (:func:`esper_motion.systems.gurps.shared.movers.mount_crashed`).
    """
    flight = world.get(entity, Flight)
    here = world.get(entity, Position).hex
    fallen = flight.fall_yd
    resolve_collision(world, entity, struck, rules.fall_velocity(fallen), here, from_above=True)
    spot = index.landing_spot(entity, figure_height_yd(world.get(entity, Mover)), (here,), here)
    _down(world, index, entity, spot)
    world.emit(FellClear(entity, struck, spot))
    mount_crashed(world, entity, fallen)


def _down(world: World, index: SpatialIndex, entity: int, spot: Hex) -> None:
    """Put a fallen flier on the ground at ``spot``, its fall over: lift back, fall counters cleared; the index
    files it where it now lies."""
    position = world.get(entity, Position)
    position.q, position.r = spot
    position.altitude_yd = 0.0
    flight = world.get(entity, Flight)
    flight.stalled = flight.wiped_out = False
    flight.stalled_turn = None
    flight.fall_seconds = 0
    flight.fall_yd = 0.0
    index.refile(world, entity)


def fall_through(world: World, index: SpatialIndex, entity: int, yards: float) -> None:
    """``entity``, a flier without lift, drops ``yards`` more: onto the first body or obstacle below it that it
    meets on the way (the one whose top is highest; :func:`fall_onto`), else down to the ground (:func:`land`),
    else it is still falling (:class:`Falling`). What it met already before dropping does not stop it.
    """
    flight = world.get(entity, Flight)
    position = world.get(entity, Position)
    start = position.altitude_yd
    end = max(0.0, start - yards)
    met = index.met_on_the_way(
        entity,
        before=occupied_hexes(world, entity),
        after=occupied_hexes(world, entity, end),
        start_yd=start,
        end_yd=end,
        height_yd=figure_height_yd(world.get(entity, Mover)),
    )
    if met:
        _, top, struck = max(met, key=lambda found: (found[1], -found[2]))
        flight.fall_yd += start - top
        fall_onto(world, index, entity, struck)
        return
    if yards >= start:
        flight.fall_yd += start
        land(world, index, entity)
        return
    position.altitude_yd = end
    flight.fall_yd += yards
    world.emit(Falling(entity, yards, flight.fall_yd, end))


def drop(world: World, index: SpatialIndex, entity: int) -> None:
    """One more second of fall for a flier without lift (:func:`fall_through`)."""
    flight = world.get(entity, Flight)
    flight.fall_seconds += 1
    fall_through(world, index, entity, free_fall_yd(flight.fall_seconds) - flight.fall_yd)


def stalled_before(world: World, flight: Flight) -> bool:
    """Whether the flier with ``flight`` stalled in an earlier turn than this one and is still falling."""
    return flight.stalled and flight.stalled_turn != world.turn


RECOVERY_LABEL: Final = "DX-4 to recover from a stall"
"""How the stall-recovery roll is named in its story (Basic Set: Flying Combat > Cannot Hover)."""


def recovery_target(world: World, entity: int) -> int | None:
    """The DX-4 (with shock, and the house rules' -2 on a Move and Attack:
    :func:`esper_motion.systems.gurps.shared.movers.dx_modifier`) a flier stalled before this turn rolls this turn to
    pull out of its fall into a dive, or None when ``entity`` has no such roll to make (Basic Set: Flying Combat >
    Cannot Hover). Every stall counts, whether it came from covering too little or from the deceleration after
    a loss of control (made after this phase, so its fall starts the next turn): from the turn after it, the
    flier rolls every turn it is still falling."""
    flight = world.try_get(entity, Flight)
    if flight is None or not stalled_before(world, flight):
        return None
    return world.get(entity, Mover).dx + rules.STALL_RECOVERY_DX_MODIFIER + dx_modifier(world, entity)


def refuse_steering(world: World, entity: int) -> None:
    """Raise :class:`~esper_motion.ecs.errors.IntentError` if the intent of ``entity``, a flier falling since an earlier
    turn, asks it to speed up, slow down, turn or veer (Basic Set: Flying Combat > Cannot Hover)."""
    intent = world.get(entity, Intent)
    if intent.throttle or intent.turn or intent.turns or any(intent.veer):
        field = "throttle" if intent.throttle else "turn" if intent.turn else "turns" if intent.turns else "veer"
        raise IntentError(
            entity,
            field,
            getattr(intent, field),
            "nothing: a stalled flier falls, and cannot speed up, slow down or turn until it recovers",
        )


class FallSystem(IndexedSystem):
    """STALL phase, after the stall check: stalled fliers fall, try to recover, or land. Reads ``Flight``, ``Position``,
    ``Mover`` (DX, HP), ``Condition`` (shock, conscious) and ``Facing``; writes ``Flight``, ``Position.altitude_yd``,
    ``Velocity``, ``Control.state`` and ``Condition.injury``; emits :class:`~esper_motion.ecs.events.RollMade`,
    :class:`StallRecovered`, :class:`Falling`, :class:`Landed` and :class:`FallDamage`. Implements Basic Set: Flying
    Combat.

    Its reading of the rules: docs/gurps-basic.md > How each system reads the rules > FallSystem.
    """

    phase = Phase.STALL
    acts_on = (Flight,)

    def run(self) -> None:
        """Resolve every stalled flier's turn."""
        world = self.world
        chosen = installed_rules(world)
        stalled = [entity for entity, flight in esper.get_component(Flight) if flight.stalled]
        for entity in initiative_order(world, stalled):
            flight = world.get(entity, Flight)
            control = world.get(entity, Control)
            falling_since_before = stalled_before(world, flight)
            if falling_since_before:
                refuse_steering(world, entity)
            control.halted = True
            if falling_since_before and self._recovers(entity):
                top = normal_top_speed(flight, world.get(entity, Mover), chosen)
                cap = rules.house_dive_speed_cap(top) if chosen.house_flight else 2 * top
                speed = min(rules.fall_velocity(flight.fall_yd), cap)
                velocity = world.get(entity, Velocity)
                velocity.yps = speed
                facing = world.try_get(entity, Facing)
                if facing is not None:
                    velocity.heading = facing.direction
                ordinary_up_to = flight.air_move  # without a Facing the high-speed systems do not move it anyway
                if facing is not None:
                    ordinary_up_to = limits(world, body_of(world, entity), chosen).high_speed_above
                control.state = MoveState.HIGH_SPEED if speed > ordinary_up_to else MoveState.NORMAL
                control.loss_cause = None
                flight.stalled = False
                flight.stalled_turn = None
                flight.fall_seconds = 0
                flight.fall_yd = 0.0
                world.emit(StallRecovered(entity, speed, world.get(entity, Position).altitude_yd))
                continue
            drop(world, self.index, entity)

    def _recovers(self, entity: int) -> bool:
        world = self.world
        condition = world.try_get(entity, Condition)
        if condition is not None and not condition.conscious:
            return False  # an unconscious flier cannot pull out: it falls
        target = recovery_target(world, entity)
        assert target is not None  # only fliers stalled before this turn roll
        return success_roll(world, entity, target, RECOVERY_LABEL, "stall recovery").success

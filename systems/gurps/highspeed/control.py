"""CONTROL: a mover that lost control on the ground trips, skids and stops."""

from __future__ import annotations

from esper_motion.components.gurps import Posture, PostureState
from esper_motion.ecs import Phase, World
from esper_motion.systems.gurps import rules
from esper_motion.systems.gurps.events import Skidded, Tripped
from esper_motion.systems.gurps.highspeed.movement import WalkPlan, dodge_aside, walk
from esper_motion.systems.gurps.options import Rules
from esper_motion.systems.gurps.shared.impact import fall_damage, resolve_collision
from esper_motion.systems.gurps.shared.movers import Body, installed_rules, loss_mode, out_of_control
from esper_motion.systems.gurps.shared.spatial import IndexedSystem, figure_height_yd
from esper_motion.systems.gurps.shared.transitions import come_to_rest


class Tripping(IndexedSystem):
    """CONTROL phase: every mover out of control on the ground trips, in initiative order. Reads ``Control`` (``state``,
    ``loss_cause``, ``moved_yd`` and ``extra_cost``: the points spent), ``Velocity``, ``Mover.hp``, the
    :class:`~esper_motion.systems.gurps.shared.spatial.SpatialIndex` the MOVEMENT phase keeps; writes ``Position``,
    ``Posture.state`` (prone), ``Condition.injury``, ``Velocity.yps`` (0), ``Control`` (back to ordinary movement,
    ``halted``, the skid added to ``path``); emits :class:`Tripped`, :class:`Skidded`, then :class:`FallDamage` or
    (having hit something) ``Collided``, ``LeftHighSpeed`` and ``RollMade``. Implements Basic Set: High-Speed Movement.

    Its reading of the rules: docs/gurps-basic.md > How each system reads the rules > Tripping.
    """

    phase = Phase.CONTROL

    def run(self) -> None:
        """Trip every mover out of control on the ground."""
        world = self.world
        chosen = installed_rules(world)
        for body, cause in out_of_control(world):
            if loss_mode(world, body, cause, chosen) == "trip":
                self._trip(world, body, chosen)

    def _trip(self, world: World, body: Body, chosen: Rules) -> None:
        entity = body.entity
        control = body.control
        velocity = body.velocity.yps
        start = body.position.hex
        world.emit(Tripped(entity, start))
        posture = world.try_get(entity, Posture)
        if posture is not None:
            posture.state = PostureState.PRONE
            posture.target = None
            posture.seconds_left = 0
        remaining = velocity - control.moved_yd - control.extra_cost
        house = chosen.house_control
        skid = rules.house_trip_skid_yards(velocity, remaining) if house else rules.skid_yards(remaining)
        plan = WalkPlan(
            entity=entity,
            start=start,
            altitude_yd=body.position.altitude_yd,
            height_yd=figure_height_yd(body.mover),
            facing=body.facing.direction,
            heading=body.velocity.heading,
            points=skid,
            drift_from_yd=0,
            footing=False,
        )
        index = self.index
        result = walk(
            plan,
            index,
            lambda _obstacle, _at: False,
            lambda other, at, aside: dodge_aside(world, index, entity, other, at=at, aside=aside),
        )
        if result.path:
            end = result.path[-1]
            body.position.q, body.position.r = end
            index.move(entity, start, end, body.facing.direction)
        control.path.extend(result.path)
        control.moved_yd += len(result.path)
        control.straight_yd += len(result.path)
        world.emit(Skidded(entity, tuple(result.path)))
        here = body.position.hex
        if result.struck is not None:
            speed = rules.house_trip_collision_velocity(velocity) if house else velocity
            resolve_collision(world, entity, result.struck, speed, here)
        else:
            fall_yps: float = rules.fall_velocity(rules.house_trip_fall_yards(velocity)) if house else velocity
            world.emit(fall_damage(world, entity, fall_yps))
        come_to_rest(world, entity, "tripped")

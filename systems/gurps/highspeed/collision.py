"""COLLISION: what a path ran into, with damage both ways (Basic Set: Damage from Collisions).

The damage both ways is worked out by :func:`esper_motion.systems.gurps.shared.impact.resolve_collision`, which a skid
that hits something uses too (CONTROL phase).
"""

from __future__ import annotations

from esper_motion.components.motion import Position
from esper_motion.ecs import Phase, System
from esper_motion.systems.gurps.shared.impact import resolve_collision
from esper_motion.systems.gurps.shared.movers import bodies, carried


class CollisionResolver(System):
    """COLLISION phase: resolves every collision this turn's walks ran into, in initiative order. Reads
    ``Control.struck`` (set by the MOVEMENT phase), ``Mover.hp``, ``Velocity``, ``Obstacle``; writes
    ``Condition.injury``, ``Velocity.yps`` (0: both come to rest), ``Control.state`` and ``halted``, ``Posture`` of
    whoever is knocked down; emits :class:`Collided`, :class:`KnockedDown`, ``LeftHighSpeed`` and ``RollMade`` for each
    damage roll. The rules and readings are those of :func:`esper_motion.systems.gurps.shared.impact.resolve_collision`.
    Implements Basic Set: High-Speed Movement.

    Its page: docs/gurps-basic.md.
    """

    phase = Phase.COLLISION

    def run(self) -> None:
        """Resolve each mover's collision."""
        world = self.world
        for body in bodies(world):
            struck = body.control.struck
            if struck is None or carried(body):
                continue
            at = body.control.path[-1] if body.control.path else world.get(body.entity, Position).hex
            resolve_collision(world, body.entity, struck, body.velocity.yps, at)

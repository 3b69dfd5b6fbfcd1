"""What a scene file needs of the GURPS rule set (:class:`esper_motion.ecs.SceneSupport`), registered with it.

A script writes ``gurps.Intent``; the steering keys change its ``turn`` and the throttle keys its ``throttle``;
the map ticks off the yards a mover at speed must still run before turning (:func:`yards_before_turn`); a scene
may show the ``couched lance`` readout (:func:`couched_lance_readout`) for a rider; the window draws the plan of a
mover with a goal (``esper_motion.systems.gurps.plan``), and takes a rider that controls its mount over with the
mount (:func:`steering_pair`).
"""

from __future__ import annotations

import math
from typing import Final

from esper_motion.components import Control, Mount, Mover, MoveState, Rider
from esper_motion.components.goals import GOAL_TYPES
from esper_motion.ecs import MotionError, SceneSupport, World
from esper_motion.systems.gurps.highspeed.queries import movement_limits
from esper_motion.systems.gurps.mounted.cavalry import couched_lance
from esper_motion.systems.gurps.planner.system import plan


def yards_before_turn(world: World, entity: int) -> int | None:
    """Yards a GURPS mover at high speed must still run straight before it may turn without a roll.

    The rule set's own figure (``esper_motion.systems.gurps.movement_limits(...).free_turn_yd``); None
    when the entity is not at high speed, is no GURPS mover, or cannot turn under its own power (Basic Set: High-Speed
    Movement > Direction and Turning Radius).
    """
    control = world.try_get(entity, Control)
    if control is None or control.state is not MoveState.HIGH_SPEED:
        return None
    try:
        free = movement_limits(world, entity).free_turn_yd
    except MotionError:
        return None
    return None if math.isinf(free) else int(free)


def couched_lance_readout(world: World, rider: int) -> str:
    """The damage of a lance couched by a mounted rider, and where it comes from: the mount's ST times the
    yards it moved last turn, over 100, in dice, +3 (``esper_motion.systems.gurps.couched_lance``; Basic
    Set: Mounted Combat > Cavalry Weapons > Lances)."""
    attack = couched_lance(world, rider)
    mount = world.get(rider, Rider).mount
    assert mount is not None  # couched_lance refuses a rider on foot
    st = world.get(mount, Mover).st
    moved = world.get(mount, Control).moved_yd
    return f"{attack.damage} {attack.damage_type} (mount ST {st} x {moved} yd / 100)"


def steering_pair(world: World, entity: int) -> tuple[int, int] | None:
    """``(rider, mount)`` when ``entity`` is a rider that controls its mount (the first of ``Mount.riders``), or a
    mount with a controlling rider: the rider's goal steers the mount (docs/goals.md > Riders and mounts); None for
    any other entity."""
    rider = world.try_get(entity, Rider)
    if rider is not None and rider.mount is not None:
        mount = world.try_get(rider.mount, Mount)
        if mount is not None and mount.controller == entity:
            return entity, rider.mount
    mount = world.try_get(entity, Mount)
    if mount is not None and mount.controller is not None:
        return mount.controller, entity
    return None


SCENE_SUPPORT: Final = SceneSupport(
    "gurps.Intent",
    steer="turn",
    throttle="throttle",
    yards_before_turn=yards_before_turn,
    readouts={"couched lance": couched_lance_readout},
    goals=GOAL_TYPES,
    plan=plan,
    steering_pair=steering_pair,
)
"""What a scene file needs of the GURPS rule set."""

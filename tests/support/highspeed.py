"""Builders for the High-Speed Movement tests: a GURPS world and a mover on foot."""

from __future__ import annotations

from typing import Any

from esper_motion.components import (
    Condition,
    Control,
    Facing,
    Intent,
    Mover,
    MoveState,
    Position,
    Posture,
    Velocity,
)
from esper_motion.components.gurps import LossCause
from esper_motion.ecs import World


def mover(
    world: World,
    *,
    at: tuple[int, int] = (0, 0),
    facing: int = 0,
    velocity: int = 0,
    state: MoveState = MoveState.NORMAL,
    cause: LossCause | None = None,
    intent: Intent | None = None,
    straight_yd: int = 0,
    altitude_yd: float = 0.0,
    extra: tuple[Any, ...] = (),
    **stats: Any,
) -> int:
    """Spawn a GURPS mover (Basic Move 5, DX 10, HP 10 unless ``stats`` say otherwise)."""
    stats.setdefault("basic_move", 5)
    return world.spawn(
        Position(*at, altitude_yd=altitude_yd),
        Facing(facing),
        Velocity(velocity, heading=facing),
        Mover(**stats),
        Control(state=state, loss_cause=cause, straight_yd=straight_yd),
        intent or Intent(),
        Condition(),
        Posture(),
        *extra,
    )

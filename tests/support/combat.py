"""Builders for the attack tests: a footman to strike at, a knight in the saddle, weapons, and the combat events."""

from __future__ import annotations

from typing import Any

from esper_motion.components import (
    Attack,
    Condition,
    Control,
    Defenses,
    Facing,
    Flight,
    Intent,
    Maneuver,
    Mover,
    Position,
    Posture,
    Skills,
    Velocity,
)
from esper_motion.ecs import World
from esper_motion.systems.gurps.mounted.common import seat
from support.mounted import spawn_horse, spawn_rider


def footman(
    world: World, at: tuple[int, int] = (10, 0), *, dodge: int = 8, retreat: bool = False, **defenses: Any
) -> int:
    """A man on foot standing still: HP 11, HT 10, ST 11, Dodge 8 (no retreat unless told)."""
    return world.spawn(
        Position(*at),
        Facing(3),
        Velocity(0),
        Mover(basic_move=5, dx=11, hp=11, st=11, ht=10, basic_speed=5.5),
        Control(),
        Intent(maneuver=Maneuver.DO_NOTHING),
        Posture(),
        Condition(),
        Defenses(dodge=dodge, retreat=retreat, **defenses),
    )


def knight(
    world: World, *, velocity: int = 8, riding: int = 13, skills: dict[str, int] | None = None, **horse: Any
) -> tuple[int, int]:
    """A war-trained ST 25 horse at ``velocity`` facing east from (0, 0), its rider seated and taking an Attack:
    ``(horse, rider)``. The rider knows Lance 14 and Bow 13 unless told."""
    mount = spawn_horse(world, velocity=velocity, **horse)
    rider = spawn_rider(world, riding=riding, skills={"Lance": 14, "Bow": 13, **(skills or {})})
    seat(world, rider, mount)
    world.get(rider, Intent).maneuver = Maneuver.ATTACK
    return mount, rider


def arm(world: World, entity: int, **attack: Any) -> Attack:
    """Give ``entity`` an ``Attack`` (replacing any) and return it."""
    found = Attack(**attack)
    if world.has(entity, Attack):
        world.remove(entity, Attack)
    world.add(entity, found)
    return found


def flier(world: World, at: tuple[int, int], altitude_yd: float, *, dodge: int = 9, **defenses: Any) -> int:
    """A hovering flier (air Move 10) hanging still ``altitude_yd`` up, HP 12, taking an Attack."""
    return world.spawn(
        Position(*at, altitude_yd=altitude_yd),
        Facing(0),
        Velocity(0),
        Mover(basic_move=5, dx=12, hp=12, st=12, ht=11, basic_speed=6.0),
        Control(),
        Intent(maneuver=Maneuver.ATTACK),
        Posture(),
        Condition(),
        Flight(air_move=10),
        Skills({"Aerobatics": 13, "Acrobatics": 11}),
        Defenses(dodge=dodge, **defenses),
    )

"""Collision damage, both ways: what a mover takes from what it runs or falls into, and what it deals; and the
damage of a fall (Basic Set: Damage from Collisions; Falling; the facts in docs/architecture.md)."""

from __future__ import annotations

from functools import lru_cache
from typing import Final

from esper_motion.components.gurps import Mover, Obstacle, Posture, PostureState, Skills
from esper_motion.components.motion import Position, Velocity
from esper_motion.ecs import Damage, World, WorldError
from esper_motion.ecs.hexgrid import Hex, away_from, neighbour
from esper_motion.systems.gurps import rules
from esper_motion.systems.gurps.events import Collided, FallDamage, KnockedBack, KnockedDown
from esper_motion.systems.gurps.shared.injury import wound
from esper_motion.systems.gurps.shared.movers import moved_outside_walk
from esper_motion.systems.gurps.shared.rolls import dice_roll, skill_roll
from esper_motion.systems.gurps.shared.spatial import entity_height_yd, shared_index
from esper_motion.systems.gurps.shared.transitions import come_to_rest

_collision_dice: Final = lru_cache(maxsize=256, typed=True)(rules.collision_dice)
""":func:`esper_motion.systems.gurps.rules.collision_dice`, worked out once for each HP and velocity (its exact
arithmetic is slow, and the same few figures collide again and again)."""


def injure(world: World, entity: int, injury: int) -> None:
    """Add ``injury`` to the entity's ``Condition`` with its consequences
    (:func:`esper_motion.systems.gurps.shared.injury.wound`)."""
    wound(world, entity, injury)


def inflict(world: World, entity: int, damage: Damage, purpose: str) -> tuple[int, int]:
    """Roll ``damage`` against ``entity`` (:func:`roll_damage`) and :func:`injure` it; returns the rolled total and
    the injury done."""
    rolled, injury = roll_damage(world, entity, damage, purpose)
    injure(world, entity, injury)
    return rolled, injury


def roll_damage(world: World, entity: int, damage: Damage, purpose: str) -> tuple[int, int]:
    """Roll ``damage`` for ``entity`` (:func:`~esper_motion.systems.gurps.shared.rolls.dice_roll`) without injuring
    it yet: the rolled total and the injury it does. Crushing damage never does less than 0, so a roll below 0 does
    none. ``Damage(0)`` is not rolled (0, 0)."""
    if damage.dice == 0:
        return 0, 0
    total = dice_roll(world, entity, damage.expression, purpose).total
    return total, max(0, total)


def fall_damage(world: World, entity: int, velocity_yps: float) -> FallDamage:
    """Roll and apply the damage of a fall ending at ``velocity_yps``: a collision with the ground, the faller's HP
    (10 without a ``Mover``) counting double (Basic Set: Falling; Damage from Collisions). Returns the
    :class:`FallDamage` for the caller to emit."""
    mover = world.try_get(entity, Mover)
    damage = _collision_dice(mover.hp if mover is not None else 10, velocity_yps, hard_obstacle=True)
    rolled, injury = inflict(world, entity, damage, "fall damage")
    return FallDamage(entity, velocity_yps, str(damage), rolled, injury)


def _collision_kind(mover_heading: int, struck_heading: int, struck_yps: int) -> str:
    if struck_yps == 0:
        return "side"
    difference = (struck_heading - mover_heading) % 6
    if difference == 3:
        return "head-on"
    if difference == 0:
        return "rear-end"
    return "side"


def _knock_down(world: World, entity: int, by: int) -> None:
    posture = world.try_get(entity, Posture)
    if posture is not None:
        posture.state = PostureState.PRONE
        posture.target = None
        posture.seconds_left = 0
    world.emit(KnockedDown(entity, by))


def resolve_collision(
    world: World, entity: int, struck: int, velocity_yps: float, at: Hex, *, from_above: bool = False
) -> None:
    """``entity``, moving at ``velocity_yps``, runs into ``struck`` next to ``at`` (``from_above``: falls onto it
    on ``at``).

    Against a body (a ``Mover``): head-on the struck body's velocity adds, rear-end it subtracts, from any
    other side, and from above, the mover's velocity counts (``rules.collision_velocity``); each side takes
    (the other's HP x that velocity) / 100 dice. Against an immovable hard obstacle the mover counts its HP
    doubled and both take what it would inflict; a soft obstacle uses its own HP (Basic Set: Damage from
    Collisions). Readings chosen:

    - The collision ends the run of both: each comes to rest, velocity 0 (the struck party stops).
    - Whoever takes at least twice the damage it dealt (and some injury) is knocked down, as in a slam.
    - An obstacle takes its damage too; it has no ``Condition`` unless the game gives it one.
    - Both damages are rolled and told (:class:`Collided`) before either injury does anything
      (:func:`esper_motion.systems.gurps.shared.injury.wound`).
    """
    mover = world.get(entity, Mover)
    heading = world.get(entity, Velocity).heading
    struck_body = world.try_get(struck, Mover)
    if struck_body is not None:
        if from_above:  # a fall: the struck body's own movement is across it
            kind, velocity = "from above", velocity_yps
        else:
            other = world.try_get(struck, Velocity)
            other_yps, other_heading = (other.yps, other.heading) if other is not None else (0, heading)
            kind = _collision_kind(heading, other_heading, other_yps)
            velocity = rules.collision_velocity(velocity_yps, heading * 60, other_yps, other_heading * 60)
        taken = _collision_dice(struck_body.hp, velocity)
        dealt = _collision_dice(mover.hp, velocity)
    else:
        obstacle = world.try_get(struck, Obstacle)
        if obstacle is None:
            raise WorldError(f"entity {entity} ran into entity {struck}, which is neither a Mover nor an Obstacle")
        kind = "obstacle"
        velocity = velocity_yps
        if obstacle.hard:
            taken = dealt = _collision_dice(mover.hp, velocity, hard_obstacle=True)
        else:
            taken = _collision_dice(obstacle.hp, velocity)
            dealt = _collision_dice(mover.hp, velocity)
    rolled_taken, injury_taken = roll_damage(world, entity, taken, f"collision damage from entity {struck}")
    rolled_dealt, injury_dealt = roll_damage(world, struck, dealt, f"collision damage from entity {entity}")
    world.emit(
        Collided(
            entity,
            struck,
            at,
            kind,
            velocity,
            str(taken),
            rolled_taken,
            injury_taken,
            str(dealt),
            rolled_dealt,
            injury_dealt,
        )
    )
    injure(world, entity, injury_taken)
    injure(world, struck, injury_dealt)
    come_to_rest(world, entity, "collision")
    if struck_body is not None:
        come_to_rest(world, struck, "collision")
        if injury_dealt > 0 and injury_dealt >= 2 * injury_taken:
            _knock_down(world, struck, entity)
    if injury_taken > 0 and injury_taken >= 2 * injury_dealt:
        _knock_down(world, entity, struck)


KNOCKBACK_ROLL: Final = "keep its feet after knockback"
"""What the roll of a knocked-back fighter is for."""


def knock_back(world: World, entity: int, attacker: int, source: Hex, yards: int) -> None:
    """Knock body ``entity`` back ``yards`` away from ``source``, where ``attacker`` struck from (the facts in
    docs/architecture.md: knockback): straight away, yard by yard, into what it meets there, a collision at
    ``yards`` yd/s (:func:`resolve_collision`), the hexes entered added to its ``Control.path``
    (:class:`KnockedBack`); then, on the ground and still on its feet, it rolls the best of DX,
    Acrobatics or Judo at -1 a yard after the first, or falls down. Readings chosen: the way is the first facing
    from east of those straight away (:func:`~esper_motion.ecs.hexgrid.away_from`); a flier is knocked back but
    has nothing to fall down on."""
    index = shared_index(world)
    position = world.get(entity, Position)
    height = entity_height_yd(world, entity)
    way = away_from(position.hex, source)[0]
    path: list[Hex] = []
    struck: int | None = None
    for _ in range(yards):
        ahead = neighbour(position.hex, way)
        met = [other for other, _ in index.obstacles_in_way(ahead, position.altitude_yd, height)]
        met += index.bodies_in_way(ahead, entity, position.altitude_yd, height)
        if met:
            struck = met[0]
            break
        index.shift(entity, way)
        position.q, position.r = ahead
        path.append(ahead)
    moved_outside_walk(world, entity, path)
    world.emit(KnockedBack(entity, attacker, tuple(path)))
    if struck is not None:
        resolve_collision(world, entity, struck, yards, position.hex)
    posture = world.try_get(entity, Posture)
    if position.altitude_yd > 0 or (posture is not None and posture.state is not PostureState.STANDING):
        return
    skill = _best_footing_skill(world, entity)
    if not skill_roll(world, entity, skill, -(yards - 1), KNOCKBACK_ROLL).success:
        _knock_down(world, entity, attacker)


def _best_footing_skill(world: World, entity: int) -> str:
    """The best of ``entity``'s DX, Acrobatics and Judo (DX on a tie)."""
    mover = world.try_get(entity, Mover)
    best, level = "DX", mover.dx if mover is not None else 10
    skills = world.try_get(entity, Skills)
    for name in ("Acrobatics", "Judo"):
        found = skills.level(name) if skills is not None else None
        if found is not None and found > level:
            best, level = name, found
    return best

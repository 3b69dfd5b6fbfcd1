"""What the Mounted Combat systems share: links between riders and mounts, seats on the map, Riding rolls and
falls. No system lives here; the systems are in ``mount_links``, ``mount_orders``, ``mounting``, ``spooking``,
``mounted_results``, ``mount_control`` and ``riding``, the queries in ``cavalry``.

Sources: Basic Set: Mounted Combat, and the house rules' Mounts when ``Rules.mounts`` is ``"house"``.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final, TypeVar

from esper_motion.components.gurps import Condition, Control, Intent, Maneuver, Mover, MoveState, Posture, PostureState
from esper_motion.components.motion import Facing, Position, Velocity
from esper_motion.components.mount import Mount, Rider
from esper_motion.ecs import IntentError, SuccessRoll, World, WorldError
from esper_motion.ecs.dice import modified
from esper_motion.ecs.hexgrid import Hex, neighbour, turn
from esper_motion.systems.gurps import rules
from esper_motion.systems.gurps.events import FellOff, ReadyForced
from esper_motion.systems.gurps.shared.figure import body_hexes
from esper_motion.systems.gurps.shared.impact import fall_damage
from esper_motion.systems.gurps.shared.movers import installed_rules
from esper_motion.systems.gurps.shared.rolls import best_skill, shock, skill_level, skill_roll, success_roll
from esper_motion.systems.gurps.shared.spatial import entity_height_yd, shared_index, tell_index

C = TypeVar("C")


def strapped(world: World, rider: int) -> bool:
    """Whether ``rider`` is strapped into its saddle under the house rules (``Rider.strapped_in`` while
    ``Rules.mounts`` is ``"house"``): then it cannot fall or be thrown off its mount, and a failed roll to stay on
    costs it a Ready instead (House rules: Mounts). Under the Basic Set strapping in changes nothing."""
    found = world.try_get(rider, Rider)
    return found is not None and found.strapped_in and installed_rules(world).house_mounts


def force_ready(world: World, rider: int, cause: str) -> None:
    """House rules: ``rider`` must spend its next turn on a Ready (``Rider.ready_turn``), for instance to
    reorient itself after a failed roll to stay on while strapped in (House rules: Mounts). Called from the
    MOUNTED phase, so the next turn is ``world.turn + 1``. Emits :class:`ReadyForced`."""
    world.get(rider, Rider).ready_turn = world.turn + 1
    world.emit(ReadyForced(rider, cause))


def maneuver(world: World, entity: int) -> Maneuver | None:
    """The entity's maneuver this turn, or None when it has no ``Intent``."""
    intent = world.try_get(entity, Intent)
    return intent.maneuver if intent is not None else None


def readies(world: World, entity: int) -> bool:
    """Whether the entity spends this turn on a Ready. Reading chosen: an entity without an ``Intent`` (a game
    that does not model its maneuvers) counts as readying whenever the rules ask for a Ready."""
    chosen = maneuver(world, entity)
    return chosen is None or chosen is Maneuver.READY


# --- The map --------------------------------------------------------------------------------------


def seat_hex(front: Hex, facing: int, hexes: int) -> Hex:
    """Where the rider sits: the centre hex of a 3-hex mount, the front hex of a 2-hex mount
    (Basic Set: Mounted Combat > Mounting Up).

    >>> seat_hex((0, 0), 0, 3), seat_hex((0, 0), 0, 2)
    ((-1, 0), (0, 0))
    """
    dq, dr = _seat_offset(facing, hexes)
    return front[0] + dq, front[1] + dr


@lru_cache(maxsize=64, typed=True)
def _seat_offset(facing: int, hexes: int) -> Hex:
    """Where the seat is from the front hex: the same wherever the mount stands, so worked out once for each
    facing and length (every seated rider is placed every turn)."""
    return body_hexes((0, 0), facing, hexes)[1 if hexes == 3 else 0]


BESIDE: Final = (2, -2, 1, -1, 0, 3)
"""Where someone getting off or falling off a mount lands, in order of preference: the hexes round the seat, in
hexsides from the way the mount faces: its left (the traditional side), its right, front left, front right,
ahead, behind; a hex the mount itself fills is passed over. Reading chosen: the texts name no side."""


def beside_hexes(seat: Hex, facing: int, body: tuple[Hex, ...]) -> tuple[Hex, ...]:
    """The hexes round ``seat`` where a rider may come down from a mount facing ``facing`` and filling ``body``,
    in the order of :data:`BESIDE`.

    >>> beside_hexes((-1, 0), 0, body_hexes((0, 0), 0, 3))
    ((-2, 1), (-1, -1), (-1, 1), (0, -1))
    """
    return tuple(spot for side in BESIDE if (spot := neighbour(seat, turn(facing, side))) not in body)


def mount_body(world: World, mount: int) -> tuple[Hex, ...]:
    """The hexes ``mount`` fills now."""
    position = world.get(mount, Position)
    facing = world.try_get(mount, Facing)
    return body_hexes(position.hex, facing.direction if facing is not None else 0, world.get(mount, Mount).hexes)


def mount_seat(world: World, mount: int) -> Hex:
    """The hex where the riders of ``mount`` sit now (:func:`seat_hex`)."""
    position = world.get(mount, Position)
    facing = world.try_get(mount, Facing)
    return seat_hex(position.hex, facing.direction if facing is not None else 0, world.get(mount, Mount).hexes)


def mount_beside(world: World, mount: int) -> tuple[Hex, ...]:
    """The hexes beside the seat of ``mount`` where a rider may get off or fall, in order (:func:`beside_hexes`)."""
    facing = world.try_get(mount, Facing)
    direction = facing.direction if facing is not None else 0
    return beside_hexes(mount_seat(world, mount), direction, mount_body(world, mount))


def step_down_hex(world: World, rider: int, mount: int) -> Hex:
    """Where ``rider`` stands after climbing down from ``mount`` with a Change Posture: the first hex beside the
    seat (:func:`mount_beside`) clear of bodies and obstacles at ground level. Reading chosen: with none clear the
    rider has nowhere to step down to, and the request is an :class:`~esper_motion.ecs.errors.IntentError`."""
    index = shared_index(world)
    height = entity_height_yd(world, rider)
    beside = mount_beside(world, mount)
    for spot in beside:
        if index.clear(spot, 0.0, height, (rider,)):
            return spot
    raise IntentError(
        rider, "Rider.action", "dismount", f"a clear hex beside the seat to step down onto (all of {beside} are taken)"
    )


def landing_hex(world: World, rider: int, mount: int) -> Hex:
    """Where ``rider`` lands after jumping or falling off ``mount``: the first hex beside the seat
    (:func:`mount_beside`) clear of bodies and obstacles at ground level; with none clear, the nearest clear hex
    round the seat, ring by ring (:meth:`esper_motion.systems.gurps.shared.spatial.SpatialIndex.landing_spot`). A rider
    whose mount no longer exists comes down where it sat, or the nearest clear hex to it. Reading chosen: a rider coming
    off never lands on a body or an obstacle; one hemmed in is thrown clear of those round it."""
    index = shared_index(world)
    height = entity_height_yd(world, rider)
    if not world.has(mount, Mount):
        here = world.get(rider, Position).hex
        return index.landing_spot(rider, height, (here,), here)
    return index.landing_spot(rider, height, mount_beside(world, mount), mount_seat(world, mount))


# --- Links ----------------------------------------------------------------------------------------


def check_can_ride(world: World, rider: int, mount: int) -> None:
    """Refuse a rider riding itself, or a mount that is (or sits on, at any depth) the rider.

    Raises :class:`~esper_motion.ecs.errors.WorldError` naming the chain, for instance ``3 -> 5 -> 3``.
    """
    chain = [rider, mount]
    current = mount
    while True:
        if current == rider:
            shown = " -> ".join(str(entity) for entity in chain)
            raise WorldError(f"entity {rider} cannot ride entity {mount}: the riding chain {shown} loops back to it")
        below = world.try_get(current, Rider)
        if below is None or below.mount is None:
            return
        current = below.mount
        chain.append(current)


def has_seat(world: World, mount: int) -> bool:
    """Whether ``mount`` has room for one more rider (``Mount.seats``)."""
    found = world.get(mount, Mount)
    return len(found.riders) < found.seats


def seat(world: World, rider: int, mount: int) -> None:
    """Link ``rider`` to ``mount`` as its last seated rider and sit it down.

    The rider no longer moves under its own power: its ``Control.carried_by`` names the mount and its own
    velocity is 0; it sits (``Posture``) at the mount's seat, and its maneuver is Do Nothing until the game
    chooses another (a seated rider's default, see ``esper_motion.systems.gurps.shared.cleanup.IntentReset``). The
    systems call this once a mounting succeeds; a game may call it to set up a rider already in the saddle. A rider
    already mounted, a mount with no free seat, or a chain that loops back is a
    :class:`~esper_motion.ecs.errors.WorldError`.
    """
    rider_component = world.get(rider, Rider)
    if rider_component.mount is not None:
        raise WorldError(f"entity {rider} already rides entity {rider_component.mount}")
    check_can_ride(world, rider, mount)
    if not has_seat(world, mount):
        raise WorldError(f"entity {mount} has no free seat for entity {rider}")
    rider_component.mount = mount
    rider_component.climbing_onto = None
    world.get(mount, Mount).riders.append(rider)
    control = world.try_get(rider, Control)
    if control is not None:
        control.carried_by = mount
        control.state = MoveState.NORMAL
        control.loss_cause = None
    velocity = world.try_get(rider, Velocity)
    if velocity is not None:
        velocity.yps = 0
    posture = world.try_get(rider, Posture)
    if posture is not None:
        posture.state = PostureState.SITTING
        posture.target = None
        posture.seconds_left = 0
    set_maneuver(world, rider, Maneuver.DO_NOTHING)
    place_rider(world, rider, mount)
    tell_index(world, rider)


def unlink(world: World, rider: int, at: Hex, posture: PostureState) -> None:
    """Take ``rider`` off its mount (whether or not the mount still exists) and put it on the ground at ``at``
    in ``posture``; it moves under its own power again."""
    rider_component = world.get(rider, Rider)
    mount = rider_component.mount
    rider_component.mount = None
    if mount is not None:
        mount_component = world.try_get(mount, Mount)
        if mount_component is not None and rider in mount_component.riders:
            mount_component.riders.remove(rider)
    control = world.try_get(rider, Control)
    if control is not None:
        control.carried_by = None
    position = world.try_get(rider, Position)
    if position is not None:
        position.q, position.r = at
        position.altitude_yd = 0.0
    tell_index(world, rider)
    body = world.try_get(rider, Posture)
    if body is not None:
        body.state = posture
        body.target = None
        body.seconds_left = 0


def place_rider(world: World, rider: int, mount: int) -> None:
    """Put a seated rider where it sits on its mount: the seat hex, the mount's altitude and facing."""
    mount_position = world.try_get(mount, Position)
    position = world.try_get(rider, Position)
    if mount_position is None or position is None:
        return
    position.q, position.r = mount_seat(world, mount)
    position.altitude_yd = mount_position.altitude_yd
    facing = world.try_get(rider, Facing)
    mount_facing = world.try_get(mount, Facing)
    if facing is not None and mount_facing is not None:
        facing.direction = mount_facing.direction


# --- Riding rolls ---------------------------------------------------------------------------------


def control_skill(mount: Mount) -> str:
    """The skill a rider controls ``mount`` with: Driving on an open vehicle (a motorcycle), else Riding (Basic Set:
    Mounted Combat > Cavalry Weapons: the same rules from a motorcycle, with Driving for Riding)."""
    return "Driving" if mount.open_vehicle else "Riding"


def unconscious(world: World, entity: int) -> bool:
    """Whether ``entity`` is unconscious (or dead): it makes no roll, and a rider falls off (Basic Set: Injury, as in
    docs/architecture.md > Facts the rules lean on)."""
    condition = world.try_get(entity, Condition)
    return condition is not None and not condition.conscious


def cannot_act(world: World, entity: int) -> bool:
    """Whether ``entity`` is unconscious or stunned: it can do nothing to save itself, such as keep its seat on a
    falling mount or leap clear of it."""
    condition = world.try_get(entity, Condition)
    return condition is not None and (not condition.conscious or condition.stunned)


def riding_roll(
    world: World, rider: int, mount: int, modifier: int, purpose: str, *, stay_on: bool = False
) -> SuccessRoll:
    """Roll the rider's Riding on ``mount`` with every modifier that applies, plus ``modifier``; on an open
    vehicle its Driving in place of Riding (:func:`control_skill`).

    - The controlling rider (the first seated, or anyone riding alone): -3 with no hand on the reins, -1 with
      one (Basic Set: Mounted Combat); 0, -3 or -6 for the mount's training (combat Riding rolls, ibid.); -1
      more with a passenger behind (Multiple Riders).
    - Every rider: the mount's cumulative fractious penalty and -3 for a loose saddle (Mount Loss of Control
      Table, rows 8-9 and 11); the shooting trick taken this turn, -1 or -3 (Using Ranged Weapons While
      Mounted > Tricks).
    - A rider rolling its own Riding: its shock (:func:`shock`).
    - ``stay_on`` marks a roll to avoid falling off: a passenger then rolls the lower of the controlling
      rider's Riding and its own ST, at -3 (Multiple Riders), and under the house rules a war saddle gives
      +3 and stirrups +1 (House rules: Mounts).

    A rider on its own mount with nobody else seated is the controller. The label of the roll shows the base
    and the total modifier, e.g. ``Riding-4`` (:func:`riding_target`).
    """
    target, label = riding_target(world, rider, mount, modifier, stay_on=stay_on)
    return success_roll(world, rider, target, label, purpose)


def riding_target(world: World, rider: int, mount: int, modifier: int, *, stay_on: bool = False) -> tuple[int, str]:
    """The target and label of :func:`riding_roll`, worked out without rolling."""
    rider_component = world.get(rider, Rider)
    mount_component = world.get(mount, Mount)
    controller = mount_component.controller
    passenger = controller is not None and controller != rider
    riding = control_skill(mount_component)
    total = modifier
    if passenger and stay_on:
        assert controller is not None
        base = min(skill_level(world, controller, riding), world.get(rider, Mover).st)
        skill = f"{riding} or ST"
        total -= 3
    else:
        base = skill_level(world, rider, riding)
        skill = riding
        total += shock(world, rider)
    if not passenger:
        total += rules.riding_control_penalty(rider_component.hands_on_reins)
        total += rules.training_penalty(mount_component.training)
        if len(mount_component.riders) > 1:
            total -= 1
    total += mount_component.fractious
    if mount_component.saddle_loose:
        total -= 3
    if rider_component.trick is not None:
        total += rules.ranged_trick(rider_component.trick).riding_modifier
    if stay_on and installed_rules(world).house_mounts:
        total += 3 if mount_component.war_saddle else 0
        total += 1 if mount_component.stirrups else 0
    return base + total, modified(skill, total)


# --- Falls ----------------------------------------------------------------------------------------


def fall_off(
    world: World, rider: int, mount: int, cause: str, fall_yd: float, *, negated_by: tuple[str, ...] = ()
) -> None:
    """The rider comes off ``mount`` (``cause`` says why): it lands prone beside the seat (:func:`landing_hex`) and
    takes damage for a fall of ``fall_yd`` yards plus the mount's altitude, unless a roll of its best skill in
    ``negated_by`` succeeds (Mount Loss of Control Table, row 3). Emits :class:`FellOff`, then the roll and
    :class:`FallDamage`."""
    at = landing_hex(world, rider, mount)
    position = world.try_get(rider, Position)
    yards = fall_yd + (position.altitude_yd if position is not None else 0.0)
    unlink(world, rider, at, PostureState.PRONE)
    world.emit(FellOff(rider, mount, cause, yards, at))
    chosen = best_skill(world, rider, negated_by)
    if chosen is not None and skill_roll(world, rider, chosen[0], 0, f"land safely after falling off {mount}").success:
        return
    world.emit(fall_damage(world, rider, rules.fall_velocity(yards)))


def _require(world: World, entity: int, kind: type[C], what_for: str) -> C:
    """The ``kind`` component of ``entity``; a clear error when the entity is missing or has none."""
    if not world.exists(entity):
        raise WorldError(f"entity {entity} does not exist in this world")
    found = world.try_get(entity, kind)
    if found is None:
        raise WorldError(f"entity {entity} has no {kind.__name__}: it {what_for}")
    return found


def require_mount(world: World, mount: int) -> Mount:
    """The ``Mount`` of ``mount``; a clear error when the entity is missing or cannot be ridden."""
    return _require(world, mount, Mount, "cannot be ridden")


def require_rider(world: World, rider: int) -> Rider:
    """The ``Rider`` of ``rider``; a clear error when the entity is missing or cannot ride."""
    return _require(world, rider, Rider, "cannot ride")


def require_seated(world: World, rider: int) -> tuple[Rider, int]:
    """The ``Rider`` of a mounted ``rider`` and its mount; an :class:`~esper_motion.ecs.errors.IntentError` when on
    foot."""
    found = require_rider(world, rider)
    if found.mount is None:
        raise IntentError(rider, "Rider.mount", None, "the rider is on foot; mount up first")
    return found, found.mount


def set_maneuver(world: World, entity: int, chosen: Maneuver) -> None:
    """Write ``chosen`` as the entity's maneuver this turn, when it has an ``Intent`` (a slam goes with an All-Out
    Attack replaced)."""
    intent = world.try_get(entity, Intent)
    if intent is not None:
        intent.maneuver = chosen
        intent.slam = intent.slam and chosen is Maneuver.ALL_OUT_ATTACK

"""Getting on and off a mount, and the rider's own Readies in the saddle: sheathing, tightening the saddle.

A game calls the functions here between steps; each checks the request, writes the rider's maneuver and
the request on its ``Rider``, and :class:`MountingSystem` resolves it in the MOUNTED phase.
"""

from __future__ import annotations

from typing import Final

import esper

from esper_motion.components.gurps import Control, Maneuver, Mover, Posture, PostureState
from esper_motion.components.motion import Position, Velocity
from esper_motion.components.mount import Mount, Rider
from esper_motion.ecs import IntentError, Phase, System, World, WorldError
from esper_motion.ecs.hexgrid import distance
from esper_motion.systems.gurps import rules
from esper_motion.systems.gurps.events import (
    ClimbedOn,
    Dismounted,
    ItemDropped,
    Mounted,
    MountingAbandoned,
    MountingFailed,
    SaddleTightening,
    WeaponSheathed,
)
from esper_motion.systems.gurps.mounted.cavalry import rider_dx_modifier
from esper_motion.systems.gurps.mounted.common import (
    check_can_ride,
    control_skill,
    fall_off,
    has_seat,
    landing_hex,
    maneuver,
    mount_body,
    readies,
    require_mount,
    require_rider,
    require_seated,
    seat,
    set_maneuver,
    step_down_hex,
    unlink,
)
from esper_motion.systems.gurps.shared.movers import initiative_order
from esper_motion.systems.gurps.shared.rolls import dice_roll, skill_level, skill_roll

_JUMP_OFF_SKILLS = ("Acrobatics", "Jumping")


def _check_beside(world: World, rider: int, mount: int) -> None:
    """A rider gets on only from the mount's own hexes or one next to them."""
    here = world.get(rider, Position).hex
    if min(distance(here, hex) for hex in mount_body(world, mount)) > 1:
        raise IntentError(rider, "Rider.action_target", mount, f"the rider at {here} must stand next to the mount")


def _check_can_board(world: World, rider: int, mount: int) -> Mount:
    found = require_mount(world, mount)
    link = require_rider(world, rider)
    if link.mount is not None:
        raise IntentError(rider, "Rider.action_target", mount, f"the rider already rides entity {link.mount}")
    check_can_ride(world, rider, mount)
    skill_level(world, rider, control_skill(found))
    if not world.has(rider, Position) or not world.has(mount, Position):
        raise WorldError(f"entities {rider} and {mount} both need a Position to mount up")
    if world.has(rider, Mover) and not world.has(rider, Control):
        raise WorldError(
            f"entity {rider} has a Mover but no Control: its Control.carried_by keeps it still in the saddle"
        )
    if len(found.riders) >= found.seats:
        raise IntentError(
            rider, "Rider.action_target", mount, f"entity {mount} has no free seat ({found.seats} in all)"
        )
    if found.riders:
        _check_passenger(world, rider, mount)
    if found.loose:
        raise IntentError(rider, "Rider.action_target", mount, "the mount has run loose; call it back first")
    posture = world.try_get(rider, Posture)
    if posture is not None and posture.state is not PostureState.STANDING:
        raise IntentError(rider, "Posture.state", posture.state.value, "a rider mounts up from standing")
    _check_beside(world, rider, mount)
    return found


def _check_passenger(world: World, rider: int, mount: int) -> None:
    """A second rider needs a horse-sized or larger mount (SM +1 or more) and is human-sized or smaller (SM 0 or
    less), and a ``Mover`` for its ST (Basic Set: Mounted Combat > Multiple Riders)."""
    passenger = world.try_get(rider, Mover)
    if passenger is None:
        raise WorldError(f"entity {rider} needs a Mover (its ST) to ride as a passenger")
    carrier = world.try_get(mount, Mover)
    mount_sm = carrier.size_modifier if carrier is not None else 0
    if mount_sm < 1 or passenger.size_modifier > 0:
        raise IntentError(
            rider,
            "Rider.action_target",
            mount,
            f"a passenger (SM {passenger.size_modifier}, at most 0) needs a horse-sized mount "
            f"(SM {mount_sm}, at least +1)",
        )


def mount_up(world: World, rider: int, mount: int) -> None:
    """Mount up the safe way, over two turns (Basic Set: Mounted Combat > Mounting Up).

    Call it on the first turn: the rider takes a Move to climb up. Call it again on the next turn: the rider
    takes a Change Posture to seat itself (with Changing Posture in Armor a heavily laden rider takes more
    turns; call it each turn until :class:`Mounted`). The rider must stand next to the mount, have a Riding
    skill, and be no link of a chain that loops back; a second rider must be a passenger the mount can carry.
    """
    link = require_rider(world, rider)
    if link.climbing_onto == mount:
        set_maneuver(world, rider, Maneuver.CHANGE_POSTURE)
        posture = world.try_get(rider, Posture)
        if posture is not None:
            posture.target = PostureState.SITTING
    else:
        _check_can_board(world, rider, mount)
        set_maneuver(world, rider, Maneuver.MOVE)
    link.action, link.action_target, link.action_skill = "mount", mount, None


def leap_astride(world: World, rider: int, mount: int, skill: str = "Riding") -> None:
    """Mount up in one turn with a Riding, Acrobatics or Jumping roll at -3, or no penalty with stirrups; any
    failure is a fall (Basic Set: Mounted Combat > Mounting Up). The rider takes a Move. On an open vehicle
    ``"Riding"`` is rolled as Driving (:func:`esper_motion.systems.gurps.mounted.common.control_skill`)."""
    found = _check_can_board(world, rider, mount)
    if skill not in ("Riding", *_JUMP_OFF_SKILLS):
        raise IntentError(rider, "Rider.action_skill", skill, "one of 'Riding', 'Acrobatics', 'Jumping'")
    skill_level(world, rider, control_skill(found) if skill == "Riding" else skill)
    link = world.get(rider, Rider)
    set_maneuver(world, rider, Maneuver.MOVE)
    link.action, link.action_target, link.action_skill = "leap astride", mount, skill


def dismount(world: World, rider: int) -> None:
    """Get off safely with a Change Posture, from a mount that has not moved, or moved only a step, this turn
    (Basic Set: Mounted Combat > Movement and Maneuvers). Refused while the mount is moving faster than a
    step a second (then jump off: :func:`jump_off`), and while no hex beside the seat is clear to step down onto
    (:func:`esper_motion.systems.gurps.mounted.common.step_down_hex`)."""
    link, mount = require_seated(world, rider)
    velocity = world.try_get(mount, Velocity)
    if velocity is not None and velocity.yps > 1:
        raise IntentError(rider, "Rider.action", "dismount", f"the mount moves {velocity.yps} yd/s; jump off instead")
    step_down_hex(world, rider, mount)
    set_maneuver(world, rider, Maneuver.CHANGE_POSTURE)
    posture = world.try_get(rider, Posture)
    if posture is not None:
        posture.target = PostureState.STANDING
    link.action, link.action_target, link.action_skill = "dismount", mount, None


def jump_off(world: World, rider: int, skill: str = "Jumping", attack: bool = False) -> None:
    """Jump off a moving mount with a Move (or, with ``attack``, a Move and Attack) and an Acrobatics or
    Jumping roll; any failure is a fall (Basic Set: Mounted Combat > Movement and Maneuvers)."""
    link, mount = require_seated(world, rider)
    if skill not in _JUMP_OFF_SKILLS:
        raise IntentError(rider, "Rider.action_skill", skill, "one of 'Acrobatics', 'Jumping'")
    skill_level(world, rider, skill)
    set_maneuver(world, rider, Maneuver.MOVE_AND_ATTACK if attack else Maneuver.MOVE)
    link.action, link.action_target, link.action_skill = "jump off", mount, skill


def sheathe(world: World, rider: int) -> None:
    """Put a weapon away with a Ready; on a bucking mount that needs DX-3 and a critical failure drops it
    (Basic Set: Mounted Combat)."""
    link, mount = require_seated(world, rider)
    set_maneuver(world, rider, Maneuver.READY)
    link.action, link.action_target, link.action_skill = "sheathe", mount, None


def tighten_saddle(world: World, rider: int, mount: int) -> None:
    """Work on a loose saddle from the ground with a Ready: it takes 4d seconds, rolled when the work begins
    (Basic Set: Mounted Combat > Mount Loss of Control Table, row 11). Call it each turn until the
    :class:`SaddleTightening` event reports 0 seconds left."""
    link = require_rider(world, rider)
    _check_tightening(rider, link, mount, require_mount(world, mount))
    _check_beside(world, rider, mount)
    set_maneuver(world, rider, Maneuver.READY)
    link.action, link.action_target, link.action_skill = "tighten saddle", mount, None


def _check_tightening(rider: int, link: Rider, mount: int, found: Mount) -> None:
    if link.mount is not None:
        raise IntentError(rider, "Rider.action", "tighten saddle", "the rider must dismount first")
    if not found.saddle_loose:
        raise IntentError(rider, "Rider.action", "tighten saddle", f"the saddle of entity {mount} is not loose")


def check_request(world: World, rider: int, link: Rider) -> None:
    """Refuse, as :func:`dismount`, :func:`jump_off`, :func:`sheathe` and :func:`tighten_saddle` would, a request
    of ``link`` (``rider``'s) that a game wrote into ``Rider.action`` itself and that cannot stand as the turn
    begins: getting off or sheathing on a mount the rider is not on, tightening a saddle from the saddle or a saddle
    that is not loose. A request whose target is gone lapses (``MountLinkSystem``), as it always did."""
    action, target = link.action, link.action_target
    if action is None or target is None or not world.exists(target):
        return
    if action in _ON_THE_MOUNT and link.mount != target:
        where = "on foot" if link.mount is None else f"on entity {link.mount}, not {target}"
        raise IntentError(rider, "Rider.action", action, f"the rider is {where}: it has nothing to {action}")
    found = world.try_get(target, Mount)
    if action == "tighten saddle" and found is not None:
        _check_tightening(rider, link, target, found)


_ON_THE_MOUNT: Final = ("dismount", "jump off", "sheathe")
"""The requests a rider makes of the mount it sits on."""


def _moving(world: World, mount: int) -> int:
    """Yards the mount moved this turn (its ``Control.moved_yd``), 0 without a ``Control``."""
    control = world.try_get(mount, Control)
    return control.moved_yd if control is not None else 0


class MountingSystem(System):
    """MOUNTED phase, after the link check: resolves what riders asked this turn. Reads ``Rider``, ``Mount``,
    ``Intent``, ``Posture``, ``Skills``, ``Mover`` and ``Control.moved_yd``; writes ``Rider``, ``Mount``, ``Position``,
    ``Posture``, ``Control.carried_by`` and ``Condition.injury``; emits :class:`ClimbedOn`, :class:`Mounted`,
    :class:`MountingAbandoned`, :class:`MountingFailed`, :class:`Dismounted`, :class:`FellOff`, :class:`FallDamage`,
    :class:`WeaponSheathed`, :class:`ItemDropped`, :class:`SaddleTightening` and
    :class:`~esper_motion.ecs.events.RollMade`. Riders act in initiative order; a request from the saddle by a rider no
    longer in it (thrown earlier in the phase) lapses. Implements Basic Set: Mounted Combat (and the house rules:
    Mounts).

    Its reading of the rules: docs/gurps-basic.md > How each system reads the rules > MountingSystem.
    """

    phase = Phase.MOUNTED
    acts_on = (Rider,)

    def run(self) -> None:
        """Resolve every rider's request, in initiative order."""
        world = self.world
        entities = [entity for entity, rider in esper.get_component(Rider) if rider.action or rider.climbing_onto]
        for entity in initiative_order(world, entities):
            rider = world.get(entity, Rider)
            action, target, skill = rider.action, rider.action_target, rider.action_skill
            rider.action = rider.action_target = rider.action_skill = None
            if rider.climbing_onto is not None and action != "mount":
                world.emit(MountingAbandoned(entity, rider.climbing_onto))
                rider.climbing_onto = None
            if action is None or target is None:
                continue
            if action in _ON_THE_MOUNT and rider.mount != target:
                continue  # thrown or fallen off earlier in the phase: nothing left to get off or sheathe on
            if not world.has(target, Mount):  # a request written by hand, past the checks of mount_up and the rest
                raise IntentError(
                    entity, "Rider.action_target", target, f"a mount (an entity with a Mount) to {action}"
                )
            if action == "mount":
                self._climb(entity, rider, target)
            elif action == "leap astride":
                assert skill is not None
                self._leap(entity, target, skill)
            elif action == "dismount":
                self._dismount(entity, target)
            elif action == "jump off":
                assert skill is not None
                self._jump_off(entity, target, skill)
            elif action == "sheathe":
                self._sheathe(entity, target)
            else:
                self._tighten(entity, target)

    def _climb(self, entity: int, rider: Rider, mount: int) -> None:
        world = self.world
        if rider.climbing_onto != mount:
            rider.climbing_onto = mount
            world.emit(ClimbedOn(entity, mount))
            return
        posture = world.try_get(entity, Posture)
        if posture is not None and posture.state is not PostureState.SITTING:
            return  # Changing Posture in Armor: still settling in
        if maneuver(world, entity) not in (None, Maneuver.CHANGE_POSTURE) or not has_seat(world, mount):
            world.emit(MountingAbandoned(entity, mount))
            rider.climbing_onto = None
            return
        seat(world, entity, mount)
        world.emit(Mounted(entity, mount, "climbed on"))

    def _leap(self, entity: int, mount: int, skill: str) -> None:
        world = self.world
        if not has_seat(world, mount):
            world.emit(MountingAbandoned(entity, mount))
            return
        found = world.get(mount, Mount)
        modifier = rules.mounting_penalty(found.stirrups)
        rolled = control_skill(found) if skill == "Riding" else skill
        if skill_roll(world, entity, rolled, modifier, f"leap astride entity {mount}").success:
            seat(world, entity, mount)
            world.emit(Mounted(entity, mount, "leapt astride"))
            return
        posture = world.try_get(entity, Posture)
        if posture is not None:
            posture.state = PostureState.PRONE
        world.emit(MountingFailed(entity, mount, world.get(entity, Position).hex))

    def _dismount(self, entity: int, mount: int) -> None:
        world = self.world
        moved = _moving(world, mount)
        if moved > 1:
            raise IntentError(
                entity, "Rider.action", "dismount", f"the mount moved {moved} yd this turn; jump off instead"
            )
        posture = world.try_get(entity, Posture)
        if posture is not None and posture.state is not PostureState.STANDING:
            return  # Changing Posture in Armor: still climbing down; the game asks again next turn
        at = step_down_hex(world, entity, mount)
        unlink(world, entity, at, PostureState.STANDING)
        world.emit(Dismounted(entity, mount, "stepped down", at))

    def _jump_off(self, entity: int, mount: int, skill: str) -> None:
        world = self.world
        if skill_roll(world, entity, skill, 0, f"jump off entity {mount}").success:
            at = landing_hex(world, entity, mount)
            unlink(world, entity, at, PostureState.STANDING)
            world.emit(Dismounted(entity, mount, "jumped off", at))
            return
        fall_off(world, entity, mount, "failed to jump off", world.get(mount, Mount).fall_yd)

    def _sheathe(self, entity: int, mount: int) -> None:
        world = self.world
        if not world.get(mount, Mount).spooked:
            world.emit(WeaponSheathed(entity, "sheathed"))
            return
        modifier = rules.BUCKING_SHEATHE_DX_MODIFIER + rider_dx_modifier(world, entity)
        result = skill_roll(world, entity, "DX", modifier, "sheathe a weapon on a bucking mount")
        if result.success:
            world.emit(WeaponSheathed(entity, "sheathed"))
        elif result.critical_failure:
            world.emit(WeaponSheathed(entity, "dropped"))
            world.emit(ItemDropped(entity, "fumbled sheathing on a bucking mount"))
        else:
            world.emit(WeaponSheathed(entity, "fumbled"))

    def _tighten(self, entity: int, mount: int) -> None:
        world = self.world
        found = world.get(mount, Mount)
        if not readies(world, entity):
            return
        if found.tightening_left == 0:
            found.tightening_left = dice_roll(world, entity, "4d", "seconds to tighten the saddle").total
        found.tightening_left -= 1
        if found.tightening_left == 0:
            found.saddle_loose = False
        world.emit(SaddleTightening(mount, entity, found.tightening_left))

"""The Mount Loss of Control Table, row by row, and the slow recoveries that follow it.

:func:`lose_control` rolls 2d on the table; :func:`apply_loss_row` applies a row without rolling, as the rules
do whenever a rider is thrown or a mount falls (Basic Set: Mounted Combat > Mount Loss of Control Table).
:class:`MountRecoverySystem` counts down the slow parts: calling a loose mount back every five minutes, and,
under the house rules, the Ready that takes back a mount out of control.
"""

from __future__ import annotations

from typing import Final

import esper

from esper_motion.components.gurps import Condition, Control, Mover, MoveState, Posture, PostureState
from esper_motion.components.motion import Facing, Position, Velocity
from esper_motion.components.mount import Mount, Rider
from esper_motion.ecs import Phase, System, World
from esper_motion.ecs.hexgrid import direction_to, line, turn
from esper_motion.systems.gurps import rules
from esper_motion.systems.gurps.events import (
    CrushedByMount,
    ItemDropped,
    MountCalledBack,
    MountCharges,
    MountControlRegained,
    MountFell,
    MountLossOfControl,
)
from esper_motion.systems.gurps.mounted.common import (
    cannot_act,
    fall_off,
    force_ready,
    mount_body,
    place_rider,
    readies,
    require_mount,
    riding_roll,
    strapped,
)
from esper_motion.systems.gurps.shared.figure import body_hexes
from esper_motion.systems.gurps.shared.impact import fall_damage, inflict
from esper_motion.systems.gurps.shared.movers import initiative_order, installed_rules
from esper_motion.systems.gurps.shared.rolls import best_skill, dice_roll, skill_roll
from esper_motion.systems.gurps.shared.spatial import entity_height_yd, shared_index, tell_index

_HORSE_FALL_YD: Final = 3
"""The table's falls are for a horse; a mount's ``fall_yd`` shifts each of them by its difference from this."""


def lose_control(world: World, mount: int) -> None:
    """A total loss of control: roll 2d on the table and apply the row (Basic Set: Mounted Combat > Mount Loss
    of Control Table). Emits :class:`~esper_motion.ecs.events.RollMade` and the row's events."""
    roll = dice_roll(world, mount, "2d", "Mount Loss of Control Table")
    apply_loss_row(world, mount, roll.total, rolled=True)


def apply_loss_row(world: World, mount: int, number: int, rolled: bool = False) -> None:
    """Apply the table's row for ``number`` (2 to 12) to ``mount`` and its riders; ``rolled`` says whether the
    number came from the dice (else the rules referred to the row directly). Emits
    :class:`MountLossOfControl`, then the row's own events. Readings chosen:

    - Rows 2 to 4 (thrown, lost grip, dropped item) befall the controlling rider, who lost control;
      row 12 (the mount falls) befalls every rider. A row that needs a rider does nothing to a riderless mount.
    - Rows 2 and 3: the falls are 3 and 2 yards for a horse, shifted by the mount's ``fall_yd``; the mount
      runs loose, and the thrown rider, if conscious and trained in Animal Handling, rolls it at -3 at once to
      call it back, then again every 300 seconds (:class:`MountRecoverySystem`). Row 3's fall does no damage
      on a Jumping or Acrobatics roll (the better of the two the rider has).
    - Rows 5 and 10: the mount turns toward (or away from) ``Mount.threat`` when it is not at high speed, and
      spends the next turn charging (``Mount.charging``, carried out by :class:`MountOrderSystem`). With no
      threat known, or no room to turn (its body would swing into a body or an obstacle), it charges the way it
      faces.
    - Row 11 without a saddle is row 3 (:func:`esper_motion.systems.gurps.rules.mount_loss_of_control`).
    - House rules: a controller strapped into the saddle (:func:`esper_motion.systems.gurps.mounted.common.strapped`)
    cannot be
      thrown or lose its grip (rows 2 and 3). It stays seated and spends its next turn on a Ready to reorient
      itself, as after any failed roll to stay on while strapped in; the mount, still ridden, does not run
      loose (House rules: Mounts).
    """
    found = world.get(mount, Mount)
    row = rules.mount_loss_of_control(number, saddled=found.saddle)
    rider = found.controller
    world.emit(MountLossOfControl(mount, rider, number if rolled else None, row.kind.value))
    kind = row.kind
    shift = found.fall_yd - _HORSE_FALL_YD
    if kind in (rules.MountLossKind.THROWN, rules.MountLossKind.LOST_GRIP):
        cause = kind.value.replace("_", " ")
        if rider is not None and strapped(world, rider):
            force_ready(world, rider, f"{cause}, but strapped in")
        elif rider is not None:
            fall_off(world, rider, mount, cause, max(0, row.fall_yd + shift), negated_by=row.fall_negated_by)
            _run_loose(world, mount, rider, row)
    elif kind is rules.MountLossKind.DROPPED_ITEM:
        if rider is not None:
            world.emit(ItemDropped(rider, "the mount is out of control"))
        lose_control(world, mount)
    elif kind in (rules.MountLossKind.CHARGES_TOWARD, rules.MountLossKind.CHARGES_AWAY):
        _charge(world, mount, "toward" if kind is rules.MountLossKind.CHARGES_TOWARD else "away")
    elif kind is rules.MountLossKind.EXHAUSTED:
        found.exhausted = True
    elif kind is rules.MountLossKind.FRACTIOUS:
        found.fractious += row.riding_modifier
    elif kind is rules.MountLossKind.SADDLE_LOOSE:
        found.saddle_loose = True
    else:
        mount_falls(world, mount)


def _run_loose(world: World, mount: int, rider: int, row: rules.MountLossRow) -> None:
    found = world.get(mount, Mount)
    found.loose = True
    if best_skill(world, rider, ("Animal Handling",)) is None:
        found.call_back_by = None
        return
    found.call_back_by = rider
    condition = world.try_get(rider, Condition)
    if condition is not None and not condition.conscious:
        assert row.call_back_retry_seconds is not None
        found.call_back_in = row.call_back_retry_seconds
        return
    call_back(world, mount, rider)


def call_back(world: World, mount: int, rider: int) -> None:
    """The thrown rider rolls Animal Handling-3 to call its loose mount back; on a failure it may try again in
    300 seconds (Basic Set: Mounted Combat > Mount Loss of Control Table, row 2)."""
    found = world.get(mount, Mount)
    row = rules.mount_loss_of_control(2)
    assert row.call_back_modifier is not None and row.call_back_retry_seconds is not None
    skill = best_skill(world, rider, ("Animal Handling",))
    assert skill is not None
    modifier = row.call_back_modifier
    result = skill_roll(world, rider, "Animal Handling", modifier, "call the mount back")
    if result.success:
        found.loose = False
        found.call_back_by = None
        found.call_back_in = 0
    else:
        found.call_back_in = row.call_back_retry_seconds
    world.emit(MountCalledBack(mount, rider, result.success))


def _facing_toward(world: World, mount: int, threat: int) -> int | None:
    here = world.get(mount, Position).hex
    there = world.try_get(threat, Position)
    if there is None or there.hex == here:
        return None
    return direction_to(here, line(here, there.hex)[1])


def _room_to_turn(world: World, mount: int, facing: int) -> bool:
    """Whether ``mount`` can turn in place to face ``facing``: every hex its body would swing into is clear of
    bodies and obstacles at its level (:meth:`esper_motion.systems.gurps.shared.spatial.SpatialIndex.clear`)."""
    index = shared_index(world)
    body = mount_body(world, mount)
    height = entity_height_yd(world, mount)
    altitude = world.get(mount, Position).altitude_yd
    swung = body_hexes(body[0], facing, len(body))
    return all(spot in body or index.clear(spot, altitude, height, (mount,)) for spot in swung)


def _charge(world: World, mount: int, direction: str) -> None:
    found = world.get(mount, Mount)
    facing = world.try_get(mount, Facing)
    control = world.try_get(mount, Control)
    at_speed = control is not None and control.state is not MoveState.NORMAL
    if facing is not None and found.threat is not None and not at_speed:
        toward = _facing_toward(world, mount, found.threat)
        if toward is not None and _room_to_turn(world, mount, toward if direction == "toward" else turn(toward, 3)):
            facing.direction = toward if direction == "toward" else turn(toward, 3)
            tell_index(world, mount)
            velocity = world.try_get(mount, Velocity)
            if velocity is not None:
                velocity.heading = facing.direction
    found.charging = direction
    world.emit(MountCharges(mount, direction, found.threat, facing.direction if facing is not None else 0))


def mount_falls(world: World, mount: int) -> None:
    """Table row 12, the mount falls: it rolls DX+1 or breaks a leg, and ends prone (stopped, unless the
    high-speed rules' trip is still to play out). Each rider rolls Riding-2 to stay seated
    (:func:`esper_motion.systems.gurps.mounted.common.riding_roll` with ``stay_on``): on a failure it is unseated and
    falls 3 yards; on a success it rolls Riding again at minus its encumbrance level to leap clear, taking row 3's
    2-yard fall (Jumping or Acrobatics negates it), or else the mount lands on it: thrust crushing damage for the
    mount's ST and a 2-yard fall (Basic Set: Mounted Combat > Mount Loss of Control Table, row 12; falls shifted by the
    mount's ``fall_yd``). Reading chosen: the riders roll in seat order while all are still seated (the controller keeps
    its -1 for the passenger, the passenger holds on by the controller's Riding); the falls follow. A mount without a
    ``Mover`` counts as DX 10, ST 10. A rider unconscious or stunned (:func:`~esper_motion.systems.gurps.mounted.common.
    cannot_act`) rolls nothing: it goes down as one that failed to stay seated.

    A flying mount that crashed this turn (``Mount.crashed_from_yd``: it has taken its own fall damage on landing)
    adds the height it fell from to every one of its riders' falls: from 30 yards a rider unseated falls 33 yards, one
    that leaps clear 32, one crushed 32 (for a horse-sized mount). Reading chosen: the mount's DX+1 and its lying
    prone apply as for any fall.

    House rules, a rider strapped into the saddle (:func:`esper_motion.systems.gurps.mounted.common.strapped`), reading
    chosen: it still rolls Riding-2, and a failure costs it a Ready next turn instead of unseating it (House rules:
    Mounts). Strapped in, it can neither be unseated nor leap clear, so it goes down with the mount, which lands on it:
    the thrust damage and the 2-yard fall (shifted by ``fall_yd``), and it stays seated."""
    found = world.get(mount, Mount)
    row = rules.mount_loss_of_control(12)
    assert row.mount_dx_modifier is not None and row.stay_seated_modifier is not None
    mover = world.try_get(mount, Mover)
    st = mover.st if mover is not None else 10
    modifier = row.mount_dx_modifier
    if not skill_roll(world, mount, "DX", modifier, "the falling mount keeps its legs").success:
        found.broken_leg = True
    _knock_down(world, mount)
    world.emit(MountFell(mount, found.broken_leg))
    shift = found.fall_yd - _HORSE_FALL_YD
    height = found.crashed_from_yd
    if height > 0:
        for rider in found.riders:
            place_rider(world, rider, mount)  # down on the ground with the mount: the height is in the falls
            tell_index(world, rider)
    lost_grip = rules.mount_loss_of_control(3)
    outcomes: list[tuple[int, bool, bool, bool]] = []
    for rider in list(found.riders):
        held = strapped(world, rider)
        helpless = cannot_act(world, rider)
        stayed = (
            not helpless
            and riding_roll(
                world, rider, mount, row.stay_seated_modifier, "stay seated on the falling mount", stay_on=True
            ).success
        )
        cleared = False
        if stayed and not held:
            rider_mover = world.try_get(rider, Mover)
            encumbrance = rider_mover.encumbrance if rider_mover is not None else 0
            cleared = riding_roll(world, rider, mount, -encumbrance, "leap clear of the falling mount").success
        outcomes.append((rider, held, stayed, cleared))
    for rider, held, stayed, cleared in outcomes:
        crushed_yd = max(0, row.crushed_fall_yd + shift) + height
        if held:
            if not stayed:
                force_ready(world, rider, "strapped to the falling mount")
            _crushed(world, rider, mount, st, crushed_yd, strapped_in=True)
        elif not stayed:
            fall_off(world, rider, mount, "unseated by the falling mount", max(0, row.fall_yd + shift) + height)
        elif cleared:
            yards = max(0, lost_grip.fall_yd + shift) + height
            fall_off(
                world, rider, mount, "leapt clear of the falling mount", yards, negated_by=lost_grip.fall_negated_by
            )
        else:
            _crushed(world, rider, mount, st, crushed_yd, strapped_in=False)


def _crushed(world: World, rider: int, mount: int, st: int, fall_yd: float, *, strapped_in: bool) -> None:
    """The falling mount lands on ``rider``: a fall of ``fall_yd`` yards (off the mount, or with it while strapped
    in), then thrust crushing damage for the mount's ST (Mount Loss of Control Table, row 12)."""
    if strapped_in:
        position = world.try_get(rider, Position)
        yards = fall_yd + (position.altitude_yd if position is not None else 0.0)
        world.emit(fall_damage(world, rider, rules.fall_velocity(yards)))
    else:
        fall_off(world, rider, mount, "crushed under the falling mount", fall_yd)
    damage = rules.thrust_damage(st)
    rolled, injury = inflict(world, rider, damage, f"crushed under entity {mount}")
    world.emit(CrushedByMount(rider, mount, str(damage), rolled, injury))


def _knock_down(world: World, mount: int) -> None:
    """The mount lies on the ground. Reading chosen: it stops where it is, unless it is out of control at speed
    (a failed Pushing the Envelope roll), when the high-speed rules' trip and skid still play out."""
    posture = world.try_get(mount, Posture)
    if posture is not None:
        posture.state = PostureState.PRONE
        posture.target = None
        posture.seconds_left = 0
    control = world.try_get(mount, Control)
    if control is not None and control.state is MoveState.OUT_OF_CONTROL:
        return
    velocity = world.try_get(mount, Velocity)
    if velocity is not None:
        velocity.yps = 0
    if control is not None:
        control.state = MoveState.NORMAL


def rest(world: World, mount: int) -> None:
    """The game says ``mount`` has had several hours of rest: it is no longer exhausted (rows 6-7), and the
    engagement is long over, so no longer fractious either (rows 8-9). A broken leg stays broken
    (Basic Set: Mounted Combat > Mount Loss of Control Table)."""
    found = require_mount(world, mount)
    found.exhausted = False
    found.fractious = 0


def end_engagement(world: World, mount: int) -> None:
    """The game says the engagement is over: the fractious penalty of rows 8-9 lapses (Basic Set: Mounted
    Combat > Mount Loss of Control Table)."""
    require_mount(world, mount).fractious = 0


class MountRecoverySystem(System):
    """MOUNTED phase, right after the link check and before the rules that can make a mount lose control (so that a
    countdown begun this turn starts counting next turn): the slow recoveries. Reads ``Mount``, ``Rider``, ``Intent``,
    ``Condition`` and ``Skills``; writes ``Mount.loose``, ``Mount.call_back_in``, ``Mount.out_of_control`` and
    ``Rider.ready_turn``; emits :class:`MountCalledBack`, :class:`MountControlRegained` and
    :class:`~esper_motion.ecs.events.RollMade`. Implements Basic Set: Mounted Combat (and the house rules: Mounts).

    Its reading of the rules: docs/gurps-basic.md > How each system reads the rules > MountRecoverySystem.
    """

    phase = Phase.MOUNTED
    acts_on = (Mount, Rider)

    def run(self) -> None:
        """Count down every recovery, in initiative order."""
        world = self.world
        for entity in initiative_order(world, [entity for entity, mount in esper.get_component(Mount) if mount.loose]):
            mount = world.get(entity, Mount)
            caller = mount.call_back_by
            if caller is None or mount.call_back_in == 0:
                continue
            mount.call_back_in -= 1
            if mount.call_back_in > 0:
                continue
            condition = world.try_get(caller, Condition)
            rider = world.get(caller, Rider)
            if (condition is not None and not condition.conscious) or rider.mount is not None:
                mount.call_back_in = rules.mount_loss_of_control(2).call_back_retry_seconds or 0
                continue
            call_back(world, entity, caller)
        if not installed_rules(world).house_mounts:
            return
        due = [entity for entity, rider in esper.get_component(Rider) if rider.ready_turn == world.turn]
        for entity in initiative_order(world, due):
            rider = world.get(entity, Rider)
            rider.ready_turn = None
            if rider.mount is None or not readies(world, entity):
                continue
            mount = world.get(rider.mount, Mount)
            if mount.controller == entity and mount.out_of_control:
                mount.out_of_control = False
                world.emit(MountControlRegained(rider.mount, entity))

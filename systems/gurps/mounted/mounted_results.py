"""What happens to riders and mounts in a fight: staying on after the mount's difficult actions, stuns and
knockback, hits on the mount, noisy shots, crippled mounts, attacks by mounts and the panic of a charge.

A game reports each of these between steps with the functions here (a hook in the high-speed systems reports
the mount's own DX rolls); :class:`MountedResultsSystem` resolves them in the MOUNTED phase.
"""

from __future__ import annotations

import esper

from esper_motion.components.gurps import Maneuver, Mover, Posture, PostureState
from esper_motion.components.mount import MOUNT_ATTACKS, RANGED_TRICKS, Mount, Nerve, Rider
from esper_motion.ecs import IntentError, Phase, System, World
from esper_motion.ecs.validate import check_bool, check_choice, check_int
from esper_motion.systems.gurps import rules
from esper_motion.systems.gurps.events import MountAttacked, MountOutOfControl, PanicChecked, StrappedTrauma
from esper_motion.systems.gurps.mounted.common import (
    fall_off,
    force_ready,
    maneuver,
    require_mount,
    require_seated,
    riding_roll,
    strapped,
    unconscious,
)
from esper_motion.systems.gurps.mounted.mount_control import apply_loss_row, lose_control
from esper_motion.systems.gurps.mounted.spooking import start_spooking
from esper_motion.systems.gurps.shared.impact import injure
from esper_motion.systems.gurps.shared.movers import initiative_order, installed_rules
from esper_motion.systems.gurps.shared.rolls import success_roll

_ATTACKING = frozenset({Maneuver.ATTACK, Maneuver.ALL_OUT_ATTACK, Maneuver.MOVE_AND_ATTACK})


def note_mount_dx_roll(world: World, mount: int, made: bool) -> None:
    """Report that ``mount`` rolled DX for a difficult action the game resolved itself (a jump, say): on a
    success its riders roll Riding to stay on; on a failure it is table row 12, the mount falls (Basic Set:
    Mounted Combat > Movement and Maneuvers > Falling Off). The high-speed systems report the mount's own
    Pushing the Envelope and obstacle rolls (:func:`esper_motion.systems.gurps.shared.movers.mount_rolled_dx`)."""
    require_mount(world, mount).dx_rolls.append(check_bool("note_mount_dx_roll", "made", made))


def rider_stunned(world: World, rider: int) -> None:
    """Report that a mounted rider was stunned: Riding-4 or it falls off (Basic Set: Mounted Combat > Mounted
    Combat Results)."""
    link, _ = require_seated(world, rider)
    link.stunned_now = True


def rider_knocked_back(world: World, rider: int, yards: int) -> None:
    """Report ``yards`` of knockback on a mounted rider: without saddle and stirrups it is knocked off, with
    both it rolls Riding at -4 a yard (Basic Set: Mounted Combat > Mounted Combat Results)."""
    link, _ = require_seated(world, rider)
    link.knockback_yd += check_int("rider_knocked_back", "yards", yards, low=1)


def mount_hit(world: World, mount: int, injury: int) -> None:
    """Report a hit on ``mount`` that did ``injury``: its rider rolls Riding minus the mount's shock penalty or
    the mount spooks (Basic Set: Mounted Combat > Mounted Combat Results)."""
    require_mount(world, mount).hits.append(check_int("mount_hit", "injury", injury, low=0))


def mount_crippled(world: World, mount: int) -> None:
    """Report that ``mount`` was crippled and falls: table row 12 (Basic Set: Mounted Combat > Mounted Combat
    Results)."""
    require_mount(world, mount).crippled = True


def fire_noisy_shot(world: World, rider: int) -> None:
    """Report a noisy ranged attack (an unsilenced gun) from the saddle: a Riding roll after it; a failure
    spooks the mount, a critical failure is a loss of control (Basic Set: Mounted Combat > Using Ranged
    Weapons While Mounted)."""
    link, _ = require_seated(world, rider)
    link.noisy_shots += 1


def take_trick(world: World, rider: int, kind: str) -> None:
    """The rider shoots this turn turning in the saddle (``"turn_in_saddle"``: -4 to the weapon, -1 to Riding
    rolls this turn) or hanging on the far side of the mount (``"far_side"``: -6 and -3) (Basic Set: Mounted
    Combat > Using Ranged Weapons While Mounted > Tricks)."""
    link, _ = require_seated(world, rider)
    link.trick = check_choice("take_trick", "kind", kind, RANGED_TRICKS)


def mount_attack(world: World, mount: int, attack: str) -> None:
    """Report that ``mount`` attacks this turn with a bite, kick or trample. Only a war-trained mount fights,
    on a maneuver that allows an attack (its ``Intent.maneuver``: Attack, All-Out Attack, or Move and Attack,
    the one a mount at high speed may take), and an exhausted one will not; its riders attack at -2 after it
    (Basic Set: Mounted Combat > Attacks by Mounts)."""
    found = require_mount(world, mount)
    check_choice("mount_attack", "attack", attack, MOUNT_ATTACKS)
    chosen = maneuver(world, mount)
    if chosen is not None and chosen not in _ATTACKING:
        raise IntentError(
            mount, "maneuver", chosen.value, "Attack, All-Out Attack or Move and Attack for the mount to attack"
        )
    if found.training != "war-trained":
        raise IntentError(
            mount, "Mount.attack", attack, f"only a war-trained mount attacks; this one is {found.training}"
        )
    if found.exhausted:
        raise IntentError(mount, "Mount.attack", attack, "an exhausted mount will not fight until it has rested")
    found.attack = attack


def charge(world: World, mount: int, foe: int) -> None:
    """Report that ``mount`` charges straight at ``foe`` this turn: a foe unused to cavalry may panic (Basic Set:
    Mounted Combat > Attacks by Mounts > Panic)."""
    found = require_mount(world, mount)
    if not world.exists(foe):
        raise IntentError(mount, "Mount.charge_foe", foe, "an entity of this world")
    found.charge_foe = foe


class MountedResultsSystem(System):
    """MOUNTED phase, after spooking: resolves this turn's reports for each mount, in initiative order. Reads ``Mount``,
    ``Rider``, ``Skills``, ``Mover`` and ``Nerve``; writes ``Mount``, ``Rider``, ``Nerve.panicked``,
    ``Condition.injury``, ``Position`` and ``Posture``; emits :class:`~esper_motion.ecs.events.RollMade`,
    :class:`FellOff`, :class:`FallDamage`, :class:`MountSpooked`, :class:`MountAttacked`, :class:`PanicChecked`, the
    table's events, and under the house rules :class:`ReadyForced`, :class:`StrappedTrauma` and
    :class:`MountOutOfControl`. Implements Basic Set: Mounted Combat (and the house rules: Mounts).

    Its reading of the rules: docs/gurps-basic.md > How each system reads the rules > MountedResultsSystem.
    """

    phase = Phase.MOUNTED
    acts_on = (Mount, Rider)

    def run(self) -> None:
        """Resolve every mount's reports, then clear the reports of the turn."""
        world = self.world
        for entity in initiative_order(world, [entity for entity, _ in esper.get_component(Mount)]):
            self._resolve(entity)
        for _, mount in esper.get_component(Mount):
            mount.dx_rolls.clear()
            mount.hits.clear()
            mount.crippled = False
            mount.crashed_from_yd = 0.0
            mount.attack = None
            mount.charge_foe = None
        for _, rider in esper.get_component(Rider):
            rider.stunned_now = False
            rider.knockback_yd = 0
            rider.noisy_shots = 0
            rider.trick = None

    def _resolve(self, entity: int) -> None:
        world = self.world
        mount = world.get(entity, Mount)
        for rider in list(mount.riders):
            if unconscious(world, rider) and not strapped(world, rider):
                fall_off(world, rider, entity, "unconscious", mount.fall_yd)
        for made in mount.dx_rolls:
            if made or installed_rules(world).house_mounts:
                for rider in list(mount.riders):
                    if not riding_roll(
                        world, rider, entity, 0, "stay on through the mount's maneuver", stay_on=True
                    ).success:
                        self._unseat(rider, entity, "unseated by the mount's maneuver")
            else:
                apply_loss_row(world, entity, 12)
        posture = world.try_get(entity, Posture)
        prone = posture is not None and posture.state is PostureState.PRONE
        if mount.riders and (prone or mount.crashed_from_yd > 0):
            apply_loss_row(world, entity, 12)
        for rider in list(mount.riders):
            self._stun_and_knockback(rider, entity)
        for injury in mount.hits:
            self._hit(entity, injury)
        for rider in list(mount.riders):
            for _ in range(world.get(rider, Rider).noisy_shots):
                if mount.open_vehicle or rider not in mount.riders:
                    break
                result = riding_roll(world, rider, entity, 0, "hold the mount after a noisy shot")
                if result.critical_failure:
                    lose_control(world, entity)
                elif not result.success:
                    start_spooking(world, entity, "a noisy shot")
        if mount.crippled:
            apply_loss_row(world, entity, 12)
        if mount.attack is not None:
            mount.attacked_turn = world.turn
            horseshoes = mount.iron_horseshoes and mount.attack in ("kick", "trample")
            world.emit(MountAttacked(entity, mount.attack, 1 if horseshoes else 0))
        if mount.charge_foe is not None:
            self._panic(mount.charge_foe, entity)

    def _unseat(self, rider: int, mount: int, cause: str, knockback_yd: int = 0) -> None:
        world = self.world
        if strapped(world, rider):
            force_ready(world, rider, cause)
            if knockback_yd:
                injury = rules.house_strapped_trauma(knockback_yd)
                injure(world, rider, injury)
                world.emit(StrappedTrauma(rider, knockback_yd, injury))
            return
        fall_off(world, rider, mount, cause, world.get(mount, Mount).fall_yd)

    def _stun_and_knockback(self, rider: int, mount: int) -> None:
        world = self.world
        link = world.get(rider, Rider)
        stunned, yards = link.stunned_now, link.knockback_yd
        if (not stunned and not yards) or unconscious(world, rider):
            return
        if installed_rules(world).house_mounts:
            modifier = rules.house_unseat_modifier(stunned, yards)
            if not riding_roll(
                world, rider, mount, modifier, "stay on when stunned or knocked back", stay_on=True
            ).success:
                self._unseat(rider, mount, "knocked off" if yards else "stunned", yards)
            return
        if stunned:
            modifier = rules.STUNNED_RIDER_RIDING_MODIFIER
            if not riding_roll(world, rider, mount, modifier, "stay on when stunned", stay_on=True).success:
                self._unseat(rider, mount, "stunned")
                return
        if yards:
            found = world.get(mount, Mount)
            modifier_or_none = rules.knockback_unseat_modifier(yards, found.saddle, found.stirrups)
            if modifier_or_none is None:
                self._unseat(rider, mount, "knocked off (no saddle and stirrups)")
            elif not riding_roll(
                world, rider, mount, modifier_or_none, "stay on after knockback", stay_on=True
            ).success:
                self._unseat(rider, mount, "knocked off")

    def _hit(self, entity: int, injury: int) -> None:
        world = self.world
        mount = world.get(entity, Mount)
        rider = mount.controller
        if rider is None:
            return
        modifier = rules.shock_penalty(injury)
        if not installed_rules(world).house_mounts:
            if not riding_roll(world, rider, entity, modifier, "keep the hit mount from spooking").success:
                start_spooking(world, entity, "hit")
            return
        result = riding_roll(world, rider, entity, modifier, "keep control of the hit mount")
        if result.critical_failure:
            lose_control(world, entity)
        elif not result.success:
            mount.out_of_control = True
            world.emit(MountOutOfControl(entity, "hit"))
            force_ready(world, rider, "to take back the hit mount")

    def _panic(self, foe: int, mount: int) -> None:
        world = self.world
        nerve = world.try_get(foe, Nerve)
        if nerve is None:
            return
        foe_mover, mount_mover = world.try_get(foe, Mover), world.try_get(mount, Mover)
        foe_sm = foe_mover.size_modifier if foe_mover is not None else 0
        mount_sm = mount_mover.size_modifier if mount_mover is not None else 0
        if not nerve.unused_to_cavalry or not rules.panic_roll_needed(foe_sm, mount_sm):
            world.emit(PanicChecked(foe, mount, False, False))
            return
        modifier = rules.panic_roll_modifier(nerve.combat_reflexes)
        purpose = f"stand against the charge of entity {mount}"
        held = success_roll(world, foe, nerve.will, "Will", purpose, modifier=modifier)
        nerve.panicked = nerve.panicked or not held.success
        world.emit(PanicChecked(foe, mount, True, not held.success))

"""Whether a mount does what it is told this turn: risky feats for mounts without war training, charges out of
control, exhausted mounts, and the house rules' limits on maneuvers in the saddle."""

from __future__ import annotations

from typing import Final

import esper

from components.gurps import Intent, Maneuver, Mover, MoveState
from components.motion import Velocity
from components.mount import RISKY_FEATS, Mount, Rider
from ecs import IntentError, Phase, System, World
from ecs.validate import check_choice
from systems.gurps import rules
from systems.gurps.events import FeatRefused
from systems.gurps.mounted import house, initiative_order, maneuver, require_mount, riding_roll, set_maneuver
from systems.gurps.movers import BODY_TYPES, body_of, installed_rules, limits
from systems.gurps.spooking import start_spooking

EXHAUSTED_MOVE: Final = 2
"""An exhausted mount moves no faster than a slow walk (Basic Set: Mounted Combat > Mount Loss of Control
Table, rows 6-7)."""

_ATTACKS: Final = frozenset({Maneuver.ATTACK, Maneuver.ALL_OUT_ATTACK, Maneuver.MOVE_AND_ATTACK})
_HOUSE_MOUNT_MANEUVERS: Final = frozenset({Maneuver.MOVE, Maneuver.MOVE_AND_ATTACK, Maneuver.ATTACK})
_MOVING: Final = frozenset({Maneuver.MOVE, Maneuver.MOVE_AND_ATTACK})


def attempt_feat(world: World, mount: int, feat: str) -> None:
    """Ask ``mount`` for a risky feat this turn (charging an obstacle, going onto bad footing, a jump, a tight
    turn, a hasty deceleration). A mount without war training does it only if its rider makes Riding+2, else it
    refuses and spooks (Basic Set: Mounted Combat). A game does not call this when the feat is a matter of life
    and death for the mount. A ``push`` in the mount's ``Intent`` asks for a tight turn or hasty deceleration
    by itself."""
    require_mount(world, mount).feat = check_choice("attempt_feat", "feat", feat, RISKY_FEATS)


class MountOrderSystem(System):
    """INTENT phase, before the high-speed systems read the intents: what a mount agrees to do this turn.

    Reads ``Mount``, ``Rider``, ``Intent``, ``Mover``, ``Velocity`` and ``Skills``; writes the mount's ``Intent``
    and ``Mount.feat``, ``Mount.charging``, ``Mount.spooked_from``; emits :class:`~ecs.events.RollMade`,
    :class:`FeatRefused` and :class:`MountSpooked`. Mounts act in initiative order.

    - A mount charging out of control (table rows 5 and 10) spends the turn on a Move straight the way it
      faces, speeding up all it may (to its full Move, or at high speed by its acceleration step toward top
      speed); nothing its rider wanted of it happens.
    - An exhausted mount will not fight: an attacking maneuver is an :class:`~ecs.errors.IntentError`, and so
      is speeding up past Move 2; one that is faster than that slows itself by its Basic Move each turn
      (Mount Loss of Control Table, rows 6-7).
    - A mount without war training asked for a risky feat (:func:`attempt_feat`, or ``Intent.push``) with a
      rider on it: the controller rolls Riding+2; on a failure the mount refuses (:class:`FeatRefused`): it
      goes straight on at its speed (no turn, no change of velocity, no push) and spooks (Basic Set: Mounted
      Combat).
    - House rules: a ridden mount only takes Move, Move and Attack, or Attack (the step and attack); anything
      else is an :class:`~ecs.errors.IntentError`. A rider whose turn must be a Ready (``Rider.ready_turn``)
      is made to take one: the rule forces the maneuver (House rules: Mounts).
    - House rules: a seated rider, still on its mount, takes only maneuvers that do not move it, since it is
      stationary on its mount; a Move or a Move and Attack is an :class:`~ecs.errors.IntentError` unless it is
      jumping off (``Rider.action == "jump off"``, :func:`systems.gurps.mounting.jump_off`), which the Basic Set
      does on either (House rules: Mounts; Basic Set: Mounted Combat > Movement and Maneuvers). Reading chosen:
      the rider attacks with an Attack while its mount moves, so Move and Attack is refused like Move; the other
      maneuvers stand, without their step.
    """

    phase = Phase.INTENT

    def run(self) -> None:
        """Settle every mount's orders, then check the riders' maneuvers under the house rules."""
        world = self.world
        for entity in initiative_order(world, [entity for entity, _ in esper.get_component(Mount)]):
            mount = world.get(entity, Mount)
            intent = world.try_get(entity, Intent)
            if intent is not None:
                self._orders(entity, mount, intent)
            mount.feat = None
        if house(world):
            self._house_riders()

    def _orders(self, entity: int, mount: Mount, intent: Intent) -> None:
        world = self.world
        mover = world.try_get(entity, Mover)
        basic_move = mover.basic_move if mover is not None else 0
        if mount.charging is not None:
            intent.maneuver = Maneuver.MOVE
            intent.throttle = self._charge_throttle(entity)
            intent.turn, intent.turn_at_yd, intent.push, intent.veer, intent.slam = 0, None, False, (), False
            mount.charging = None
            return
        if mount.exhausted:
            self._exhausted(entity, intent, basic_move)
        feat = mount.feat
        if feat is None and intent.push:
            feat = "tight turn" if intent.turn else "hasty deceleration"
        coax = rules.risky_feat_riding_modifier(mount.training)
        controller = mount.controller
        if feat is None or coax is None or controller is None or not world.exists(controller):
            return  # no rider (one despawned since the last turn is forgotten in the MOUNTED phase)
        if riding_roll(world, controller, entity, coax, f"make the mount attempt a {feat}").success:
            return
        intent.turn, intent.turn_at_yd, intent.push, intent.throttle = 0, None, False, 0
        world.emit(FeatRefused(entity, feat))
        start_spooking(world, entity, f"refused a {feat}")

    def _charge_throttle(self, entity: int) -> int:
        """Speed up all it may: to its full Move at ordinary speed, by its acceleration step toward top speed at
        high speed; nothing while out of control (or for a mount the high-speed systems do not move)."""
        world = self.world
        if not all(world.has(entity, kind) for kind in BODY_TYPES):
            return 0
        body = body_of(world, entity)
        lim = limits(world, body, installed_rules(world))
        velocity = body.velocity.yps
        if body.control.state is MoveState.NORMAL:
            return max(0, lim.move - velocity)
        if body.control.state is MoveState.HIGH_SPEED:
            return max(0, min(lim.accel_step, lim.top_speed - velocity))
        return 0

    def _exhausted(self, entity: int, intent: Intent, basic_move: int) -> None:
        if intent.maneuver in _ATTACKS:
            raise IntentError(entity, "maneuver", intent.maneuver.value, "an exhausted mount will not fight")
        velocity = self.world.try_get(entity, Velocity)
        speed = velocity.yps if velocity is not None else 0
        if speed > EXHAUSTED_MOVE:
            intent.throttle = -min(basic_move, speed - EXHAUSTED_MOVE)
        elif speed + intent.throttle > EXHAUSTED_MOVE:
            raise IntentError(
                entity, "throttle", intent.throttle, f"an exhausted mount moves no faster than {EXHAUSTED_MOVE} yd/s"
            )

    def _house_riders(self) -> None:
        world = self.world
        for entity, rider in esper.get_component(Rider):
            if rider.ready_turn == world.turn:
                set_maneuver(world, entity, Maneuver.READY)
            ridden = world.try_get(rider.mount, Mount) if rider.mount is not None else None
            if rider.mount is None or ridden is None:
                continue  # on foot, or on a mount despawned since the last turn (it falls in the MOUNTED phase)
            own = maneuver(world, entity)
            if own in _MOVING and rider.action != "jump off":
                raise IntentError(
                    entity,
                    "maneuver",
                    own.value,
                    "a maneuver that does not move the rider, who is stationary on its mount; a Move or Move and "
                    "Attack only to jump off (House rules: Mounts)",
                )
            if ridden.controller != entity:
                continue
            mount_maneuver = maneuver(world, rider.mount)
            if mount_maneuver is not None and mount_maneuver not in _HOUSE_MOUNT_MANEUVERS:
                raise IntentError(
                    rider.mount,
                    "maneuver",
                    mount_maneuver.value,
                    "a ridden mount takes Move, Move and Attack or Attack (House rules: Mounts)",
                )

"""Whether a mount does what it is told this turn: risky feats for mounts without war training, charges out of
control, exhausted mounts, and the house rules' limits on maneuvers in the saddle."""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from typing import Final

import esper

from esper_motion.components.gurps import Intent, Maneuver, Mover, MoveState
from esper_motion.components.motion import Velocity
from esper_motion.components.mount import RISKY_FEATS, Mount, Rider
from esper_motion.ecs import IntentError, Phase, System, World
from esper_motion.ecs.validate import check_choice
from esper_motion.systems.gurps import rules
from esper_motion.systems.gurps.events import FeatRefused
from esper_motion.systems.gurps.mounted.common import (
    maneuver,
    require_mount,
    riding_roll,
    riding_target,
    set_maneuver,
)
from esper_motion.systems.gurps.mounted.mounting import check_request
from esper_motion.systems.gurps.mounted.spooking import start_spooking
from esper_motion.systems.gurps.shared.movers import BODY_TYPES, body_of, initiative_order, installed_rules, limits

EXHAUSTED_MOVE: Final = 2
"""An exhausted mount moves no faster than a slow walk (Basic Set: Mounted Combat > Mount Loss of Control
Table, rows 6-7)."""

_ATTACKS: Final = frozenset({Maneuver.ATTACK, Maneuver.ALL_OUT_ATTACK, Maneuver.MOVE_AND_ATTACK})
_HOUSE_MOUNT_MANEUVERS: Final = frozenset({Maneuver.MOVE, Maneuver.MOVE_AND_ATTACK, Maneuver.ATTACK})
_MOVING: Final = frozenset({Maneuver.MOVE, Maneuver.MOVE_AND_ATTACK})
_coaxing: Final = lru_cache(maxsize=32, typed=True)(rules.risky_feat_riding_modifier)
""":func:`esper_motion.systems.gurps.rules.risky_feat_riding_modifier`, looked up once for each training (every mount
asks every turn)."""


def attempt_feat(world: World, mount: int, feat: str) -> None:
    """Ask ``mount`` for a risky feat this turn (charging an obstacle, going onto bad footing, a jump, a tight
    turn, a hasty deceleration). A mount without war training does it only if its rider makes Riding+2, else it
    refuses and spooks (Basic Set: Mounted Combat). A game does not call this when the feat is a matter of life
    and death for the mount. A ``push`` in the mount's ``Intent`` asks for a tight turn or hasty deceleration
    by itself, and the path walker asks for the feats on the path when it meets them (:func:`refuses_feat`); asked
    here, a feat on the path is rolled for as the turn opens, and the walker keeps to the answer."""
    require_mount(world, mount).feat = check_choice("attempt_feat", "feat", feat, RISKY_FEATS)


PATH_FEATS: Final = ("obstacle", "bad footing", "jump")
"""The risky feats a mount's path asks of it; the others (a tight turn, a hasty deceleration) its maneuver does."""


def refuses_feat(world: World, mount: int, feat: str) -> bool:
    """Whether ``mount`` refuses risky ``feat`` now (Basic Set: Mounted Combat, the Riding+2 paragraph): a mount
    without war training with a rider on it does a risky feat only if the controller makes Riding+2; on a failure
    it refuses (:class:`FeatRefused`) and spooks. A war-trained or riderless mount never refuses, nor one whose
    ``Intent.life_or_death`` says the feat is a matter of life and death for it. Each feat is decided once a turn
    (``Mount.feats``): a second fence, or more bad footing, on the same turn goes as the first did. Anything that
    is not a mount never refuses."""
    found = world.try_get(mount, Mount)
    if found is None:
        return False
    decided = found.feats.get(feat)
    if decided is None:
        decided = _coax(world, mount, found, feat)
    return not decided


def feat_roll(world: World, mount: int, feat: str) -> tuple[str, str, int] | None:
    """The roll :func:`refuses_feat` makes for ``feat`` in a turn about to start, as ``(purpose, label, target)``,
    or None when it needs none; nothing changes (for :func:`esper_motion.systems.gurps.preview`)."""
    found = world.try_get(mount, Mount)
    if found is None or not _needs_coaxing(world, mount, found):
        return None
    coax, controller = _coaxing(found.training), found.controller
    assert coax is not None and controller is not None  # _needs_coaxing says so
    target, label = riding_target(world, controller, mount, coax)
    return f"make the mount attempt a {feat}", label, target


def _needs_coaxing(world: World, entity: int, mount: Mount) -> bool:
    """Whether a risky feat of ``mount`` hangs on its controller's Riding+2: no war training, a controller that
    exists, and no matter of life and death (``Intent.life_or_death``)."""
    controller = mount.controller
    if _coaxing(mount.training) is None or controller is None or not world.exists(controller):
        return False
    intent = world.try_get(entity, Intent)
    return intent is None or not intent.life_or_death


def _coax(world: World, entity: int, mount: Mount, feat: str) -> bool:
    """Settle ``feat`` for ``mount`` this turn: True when it needs no roll or its controller makes Riding+2; on a
    failure emit :class:`FeatRefused` and spook it. The outcome goes into ``Mount.feats``."""
    if not _needs_coaxing(world, entity, mount):
        return True  # no roll to make (a despawned rider is forgotten in the MOUNTED phase)
    coax, controller = _coaxing(mount.training), mount.controller
    assert coax is not None and controller is not None  # _needs_coaxing says so
    made = riding_roll(world, controller, entity, coax, f"make the mount attempt a {feat}").success
    mount.feats[feat] = made
    if not made:
        world.emit(FeatRefused(entity, feat))
        start_spooking(world, entity, f"refused a {feat}")
    return made


class MountOrderSystem(System):
    """INTENT phase, before the high-speed systems read the intents: what a mount agrees to do this turn. Reads
    ``Mount``, ``Rider``, ``Intent``, ``Mover``, ``Velocity`` and ``Skills``; writes the mount's ``Intent`` and
    ``Mount.feat``, ``Mount.charging``, ``Mount.spooked_from``; emits :class:`~esper_motion.ecs.events.RollMade`,
    :class:`FeatRefused` and :class:`MountSpooked`. Mounts act in initiative order. Implements Basic Set: Mounted Combat
    (and the house rules: Mounts).

    Its reading of the rules: docs/gurps-basic.md > How each system reads the rules > MountOrderSystem.
    """

    phase = Phase.INTENT
    acts_on = (Mount, Rider)

    def run(self) -> None:
        """Settle every mount's orders, then check the riders' maneuvers under the house rules."""
        world = self.world
        for entity in initiative_order(world, [entity for entity, _ in esper.get_component(Mount)]):
            mount = world.get(entity, Mount)
            mount.feats.clear()
            intent = world.try_get(entity, Intent)
            if intent is not None:
                self._orders(entity, mount, intent)
            mount.feat = None
        for entity, rider in sorted((found for found in esper.get_component(Rider) if found[1].action), key=_first):
            check_request(world, entity, rider)
        if installed_rules(world).house_mounts:
            self._house_riders()

    def _orders(self, entity: int, mount: Mount, intent: Intent) -> None:
        world = self.world
        if mount.charging is not None:
            intent.maneuver = Maneuver.MOVE
            intent.throttle = charge_throttle(world, entity)
            intent.turn, intent.turn_at_yd, intent.push, intent.veer, intent.slam = 0, None, False, (), False
            intent.turns = ()
            mount.charging = None
            return
        if mount.exhausted:
            intent.throttle = exhausted_throttle(world, entity, intent)
        feat = mount.feat
        if feat is None and intent.push:
            feat = "tight turn" if intent.turn or intent.turns else "hasty deceleration"
        if feat is None or _coax(world, entity, mount, feat) or feat in PATH_FEATS:
            return  # done, or a feat on the path, which the walker refuses when it gets there
        intent.turn, intent.turn_at_yd, intent.turns, intent.push, intent.throttle = 0, None, (), False, 0

    def _house_riders(self) -> None:
        world = self.world
        for entity, rider in esper.get_component(Rider):
            if rider.ready_turn == world.turn:
                set_maneuver(world, entity, Maneuver.READY)
            check_seated_rider(world, entity, rider, maneuver(world, entity))
            ridden = world.try_get(rider.mount, Mount) if rider.mount is not None else None
            if ridden is not None and ridden.controller == entity:
                assert rider.mount is not None
                check_ridden_mount(world, rider.mount)


def charge_throttle(world: World, entity: int) -> int:
    """The throttle of a mount charging out of control: it speeds up all it may, to its full Move at ordinary
    speed, by its acceleration step toward top speed at high speed; nothing while out of control (or for a mount
    the high-speed systems do not move)."""
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


def exhausted_throttle(world: World, entity: int, intent: Intent) -> int:
    """The throttle exhausted mount ``entity`` takes this turn instead of ``intent``'s: faster than Move 2 it slows
    itself by its Basic Move (no further than to 2), otherwise the throttle asked. An attacking maneuver, or a
    throttle past Move 2, is an :class:`~esper_motion.ecs.errors.IntentError` (Mount Loss of Control Table, rows
    6-7)."""
    if intent.maneuver in _ATTACKS:
        raise IntentError(entity, "maneuver", intent.maneuver.value, "an exhausted mount will not fight")
    mover = world.try_get(entity, Mover)
    basic_move = mover.basic_move if mover is not None else 0
    velocity = world.try_get(entity, Velocity)
    speed = velocity.yps if velocity is not None else 0
    if speed > EXHAUSTED_MOVE:
        return -min(basic_move, speed - EXHAUSTED_MOVE)
    if speed + intent.throttle > EXHAUSTED_MOVE:
        raise IntentError(
            entity, "throttle", intent.throttle, f"an exhausted mount moves no faster than {EXHAUSTED_MOVE} yd/s"
        )
    return intent.throttle


def check_seated_rider(world: World, entity: int, rider: Rider, chosen: Maneuver | None) -> None:
    """House rules: refuse a maneuver ``chosen`` that moves ``rider`` (entity ``entity``) while it sits on a live
    mount, unless it jumps off (House rules: Mounts). Nothing for a rider on foot."""
    if rider.mount is None or not world.has(rider.mount, Mount):
        return  # on foot, or on a mount despawned since the last turn (it falls in the MOUNTED phase)
    if chosen in _MOVING and rider.action != "jump off":
        assert chosen is not None
        raise IntentError(
            entity,
            "maneuver",
            chosen.value,
            "a maneuver that does not move the rider, who is stationary on its mount; a Move or Move and "
            "Attack only to jump off (House rules: Mounts)",
        )


def check_ridden_mount(world: World, mount: int) -> None:
    """House rules: refuse a maneuver of ``mount``, ridden by a controlling rider seated on it, other than Move,
    Move and Attack or Attack (House rules: Mounts)."""
    controller = world.get(mount, Mount).controller
    link = world.try_get(controller, Rider) if controller is not None else None
    if link is None or link.mount != mount:
        return
    mount_maneuver = maneuver(world, mount)
    if mount_maneuver is not None and mount_maneuver not in _HOUSE_MOUNT_MANEUVERS:
        raise IntentError(
            mount,
            "maneuver",
            mount_maneuver.value,
            "a ridden mount takes Move, Move and Attack or Attack (House rules: Mounts)",
        )


def ordered_intent(world: World, entity: int) -> Intent:
    """The intent ``entity`` will act on this turn once :class:`MountOrderSystem` has given its orders, worked out
    without changing the world: a charging mount's Move at :func:`charge_throttle`, an exhausted mount's
    :func:`exhausted_throttle`, under the house rules a rider's forced Ready; otherwise its own ``Intent``. It
    raises the :class:`~esper_motion.ecs.errors.IntentError` the step would for the orders: an exhausted mount told to
    fight or speed up, and under the house rules a ridden mount's maneuver (:func:`check_ridden_mount`) or a seated
    rider's (:func:`check_seated_rider`). A risky feat hangs on its rider's roll, so its refusal is not foreseen."""
    intent = world.get(entity, Intent)
    mount = world.try_get(entity, Mount)
    if mount is not None and mount.charging is not None:
        return replace(
            intent,
            maneuver=Maneuver.MOVE,
            throttle=charge_throttle(world, entity),
            turn=0,
            turn_at_yd=None,
            turns=(),
            push=False,
            veer=(),
            slam=False,
        )
    if mount is not None and mount.exhausted:
        intent = replace(intent, throttle=exhausted_throttle(world, entity, intent))
    if not installed_rules(world).house_mounts:
        return intent
    if mount is not None:
        check_ridden_mount(world, entity)
    link = world.try_get(entity, Rider)
    if link is None:
        return intent
    chosen = Maneuver.READY if link.ready_turn == world.turn else intent.maneuver
    check_seated_rider(world, entity, link, chosen)
    return intent if chosen is intent.maneuver else replace(intent, maneuver=chosen)


def _first(pair: tuple[int, Rider]) -> int:
    return pair[0]

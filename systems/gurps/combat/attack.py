"""COMBAT: every attack asked for this turn, from the attack roll to the injury and what it does to a rider."""

from __future__ import annotations

import math

import esper

from esper_motion.components.combat import Attack, Defenses
from esper_motion.components.gurps import Condition, Control, Mover
from esper_motion.components.motion import Position
from esper_motion.components.mount import Mount
from esper_motion.ecs import IntentError, Phase, System, World, WorldError
from esper_motion.ecs.dice import modified
from esper_motion.ecs.hexgrid import Hex, distance
from esper_motion.systems.gurps import rules
from esper_motion.systems.gurps.combat.numbers import (
    AttackNumbers,
    attack_numbers,
    default_injury,
    defense_numbers,
    seated_on,
    unreachable_location,
)
from esper_motion.systems.gurps.events import (
    AttackNotMade,
    AttackRedirected,
    AttackRolled,
    DamageDealt,
    DefenseRolled,
)
from esper_motion.systems.gurps.flight.aerial import airborne, take_aerial_retreat
from esper_motion.systems.gurps.mounted.cavalry import missed_attack
from esper_motion.systems.gurps.mounted.common import mount_seat
from esper_motion.systems.gurps.mounted.mounted_results import (
    fire_noisy_shot,
    mount_attack,
    mount_hit,
    rider_knocked_back,
    take_trick,
)
from esper_motion.systems.gurps.shared.figure import occupied_hexes
from esper_motion.systems.gurps.shared.impact import knock_back
from esper_motion.systems.gurps.shared.injury import wound
from esper_motion.systems.gurps.shared.injury_model import injury_choice
from esper_motion.systems.gurps.shared.movers import initiative_order
from esper_motion.systems.gurps.shared.rolls import skill_roll


def _hexes(world: World, entity: int) -> tuple[Hex, ...]:
    """The hexes ``entity`` fills now; a seated rider sits at its mount's seat (riders are placed with their mounts
    only in the MOUNTED phase)."""
    mount = seated_on(world, entity)
    if mount is not None and world.has(mount, Mount):
        return (mount_seat(world, mount),)
    return occupied_hexes(world, entity)


def _altitude(world: World, entity: int) -> float:
    mount = seated_on(world, entity)
    return world.get(mount if mount is not None else entity, Position).altitude_yd


def _path(world: World, entity: int) -> list[Hex]:
    """Where ``entity`` was yard by yard this turn: the hexes it entered (a rider: its mount's path, as seats), or
    where it stands when it did not move. Reading chosen: a rider's seat along the path keeps the offset from the
    mount's front it has at the end of the move."""
    mount = seated_on(world, entity)
    mover = mount if mount is not None else entity
    control = world.try_get(mover, Control)
    path = list(control.path) if control is not None else []
    if mount is not None and path:
        seat = mount_seat(world, mount)
        front = world.get(mount, Position).hex
        path = [(q + seat[0] - front[0], r + seat[1] - front[1]) for q, r in path]
    return path or [_hexes(world, entity)[0]]


def across_yd(world: World, target: int, at: Hex) -> int:
    """Yards across the map from hex ``at`` to the nearest hex ``target`` fills, height aside."""
    return min(distance(at, spot) for spot in _hexes(world, target))


def strike_distance_yd(world: World, attacker: int, target: int, at: Hex) -> int:
    """Yards from hex ``at`` to the nearest hex ``target`` fills (:func:`across_yd`), the height between them
    counted in whole yards when it is more. Reading chosen: a melee attack reaches when both the hex distance and
    the height are within the weapon's reach."""
    height = math.floor(abs(_altitude(world, attacker) - _altitude(world, target)))
    return max(across_yd(world, target, at), height)


class AttackSystem(System):
    """COMBAT phase: resolves each attack asked for this turn (``Attack.target`` set), in initiative order, then clears
    the requests. Reads ``Attack``, ``Defenses``, ``Rider``, ``Mount``, ``Mover``, ``Control``, ``Position``,
    ``Posture``, ``Intent``, ``Skills`` and ``Condition``; writes ``Condition.injury`` and ``Condition.stunned``, the
    rider's reports to the MOUNTED phase (``Rider.trick``, stuns, knockback, noisy shots) and the mount's hits,
    ``Position`` and ``Control.path`` of a body knocked back or a flier's retreat step, and ``Attack.target`` and
    ``Attack.trick`` (cleared); emits :class:`AttackRolled`, :class:`DefenseRolled`, :class:`AttackRedirected`,
    :class:`DamageDealt`, :class:`AttackNotMade`, :class:`KnockedBack` and :class:`Retreated` (a body moved outside
    its walk) and :class:`~esper_motion.ecs.events.RollMade` for the HT and Acrobatic Dodge rolls. Implements attacks
    and defenses in play, with the modifiers of Basic Set: High-Speed Movement, Mounted Combat and Flying Combat.

    Its reading of the rules: docs/gurps-basic.md > How each system reads the rules > AttackSystem.
    """

    phase = Phase.COMBAT
    acts_on = (Attack,)

    def run(self) -> None:
        """Resolve every attack asked for, then clear the requests."""
        world = self.world
        asked = [entity for entity, attack in esper.get_component(Attack) if attack.target is not None]
        for entity in asked:
            trick = world.get(entity, Attack).trick
            if trick is not None:
                take_trick(world, entity, trick)
        for entity in initiative_order(world, asked):
            self._attack(entity)
        for entity in asked:
            done = world.get(entity, Attack)
            done.target, done.trick = None, None

    def _attack(self, attacker: int) -> None:
        world = self.world
        attack = world.get(attacker, Attack)
        target = attack.target
        assert target is not None
        if not world.exists(target) or target == attacker:
            raise IntentError(attacker, "Attack.target", target, "another entity of this world")
        condition = world.try_get(attacker, Condition)
        if condition is not None and (not condition.conscious or condition.stunned):
            world.emit(AttackNotMade(attacker, target, "stunned" if condition.conscious else "unconscious"))
            return
        path = _path(world, attacker)
        if attack.weapon == "melee":
            strike = self._strike_point(attacker, target, path)
            if strike is None:
                return
            range_yd = across = 0
        else:
            range_yd, across = strike_distance_yd(world, attacker, target, path[-1]), across_yd(world, target, path[-1])
        why_not = unreachable_location(world, attacker, target)
        if why_not is not None:
            world.emit(AttackNotMade(attacker, target, why_not))
            return
        numbers = attack_numbers(world, attacker, target, range_yd, across_yd=across)
        if attack.natural is not None and world.has(attacker, Mount):
            mount_attack(world, attacker, attack.natural)
        roll = world.dice.success(numbers.effective_skill, numbers.label)
        world.emit(AttackRolled(attacker, target, numbers.skill, numbers.modifiers, roll))
        if roll.success:
            if roll.critical_success or not self._defends(target, attacker):
                self._damage(attacker, target, numbers)
        else:
            redirect = missed_attack(world, target, roll.margin) if self._rides(target) else None
            if redirect is not None:
                world.emit(AttackRedirected(attacker, target, redirect.entity, roll.margin, redirect.may_defend))
                if not (redirect.may_defend and self._defends(redirect.entity, attacker)):
                    self._damage(attacker, redirect.entity, numbers)
        if attack.noisy and seated_on(world, attacker) is not None:
            fire_noisy_shot(world, attacker)

    def _rides(self, entity: int) -> bool:
        """Whether ``entity`` is one party of a rider and mount: a seated rider, or a mount with a rider."""
        world = self.world
        mount = world.try_get(entity, Mount)
        return seated_on(world, entity) is not None or (mount is not None and mount.controller is not None)

    def _strike_point(self, attacker: int, target: int, path: list[Hex]) -> Hex | None:
        world = self.world
        attack = world.get(attacker, Attack)
        if attack.strike_at_yd is not None:
            if not 1 <= attack.strike_at_yd <= len(path):
                world.emit(AttackNotMade(attacker, target, f"no yard {attack.strike_at_yd} on a path of {len(path)}"))
                return None
            at = path[attack.strike_at_yd - 1]
            if strike_distance_yd(world, attacker, target, at) <= attack.reach_yd:
                return at
        else:
            for at in path:
                if strike_distance_yd(world, attacker, target, at) <= attack.reach_yd:
                    return at
            at = path[-1]
        away = strike_distance_yd(world, attacker, target, at)
        world.emit(AttackNotMade(attacker, target, f"out of reach: {away} yd away, reach {attack.reach_yd}"))
        return None

    def _defends(self, defender: int, attacker: int) -> bool:
        """Roll ``defender``'s best defense against ``attacker``; whether it made it."""
        world = self.world
        numbers = defense_numbers(world, defender, attacker)
        if numbers is None:
            return False
        modifiers = list(numbers.modifiers)
        if numbers.acrobatic is not None:
            name, _ = numbers.acrobatic
            made = skill_roll(world, defender, name, numbers.acrobatic_modifier, "acrobatic dodge")
            bonus = rules.ACROBATIC_DODGE_MODIFIER if made.success else -rules.ACROBATIC_DODGE_MODIFIER
            modifiers.append((f"{name} dodge {'made' if made.success else 'failed'}", bonus))
        total = sum(value for _, value in modifiers)
        label = modified(numbers.kind.capitalize(), total)
        roll = world.dice.success(numbers.score + total, label)
        world.emit(DefenseRolled(defender, attacker, numbers.kind, numbers.score, tuple(modifiers), roll))
        if numbers.retreats and airborne(world, defender) and seated_on(world, defender) is None:
            take_aerial_retreat(world, defender, attacker)
        return roll.success

    def _damage(self, attacker: int, victim: int, numbers: AttackNumbers) -> None:
        world = self.world
        damage = numbers.damage
        total = world.dice.roll(damage.expression).total if damage.dice else damage.adds
        rolled = rules.rolled_damage(total, numbers.damage_type)
        dealt, snapped = rolled, False
        if numbers.snaps_above is not None:
            dealt, snapped = rules.jousting_damage_cap(rolled)
        dr = world.get(victim, Defenses).dr if world.has(victim, Defenses) else 0
        chosen = injury_choice(world)
        injury = (chosen.function if chosen is not None else default_injury)(world, victim, dealt, numbers.damage_type)
        if not isinstance(injury, int) or isinstance(injury, bool) or injury < 0:
            raise WorldError(
                f"the injury function gave {injury!r} for entity {victim}: expected a whole number, 0 or more"
            )
        stunned = wound(world, victim, injury)
        mover = world.try_get(victim, Mover)
        knockback = rules.knockback_yd(dealt, mover.st if mover is not None else 10, numbers.damage_type)
        kind = numbers.damage_type
        world.emit(DamageDealt(attacker, victim, str(damage), dealt, kind, dr, injury, snapped, knockback, stunned))
        if world.has(victim, Mount):
            mount_hit(world, victim, injury)
        if knockback and seated_on(world, victim) is not None:
            rider_knocked_back(world, victim, knockback)
        elif knockback and mover is not None and world.has(victim, Position):
            knock_back(world, victim, attacker, _hexes(world, attacker)[0], knockback)

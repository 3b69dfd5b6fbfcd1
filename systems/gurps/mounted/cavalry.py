"""Fighting from the saddle, as queries a game asks between steps: attack skill and modifiers, couched lances,
mount attacks, defenses, height, attacks that miss into the other party, and the house rules' odd cases.

Nothing here changes the world. Sources: Basic Set: Mounted Combat (Attacks by Mounts, Cavalry Weapons, Using
Ranged Weapons While Mounted, Mounted Defense, Height Difference, Mounted Combat Results) and House rules:
Mounts where ``Rules.mounts`` is ``"house"``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from esper_motion.components.combat import Attack
from esper_motion.components.gurps import Control, Mover, MoveState, Posture, PostureState
from esper_motion.components.mount import MOUNT_ATTACKS, Mount, Rider
from esper_motion.ecs import IntentError, World
from esper_motion.ecs.damage import Damage
from esper_motion.ecs.validate import check_bool, check_choice, check_int
from esper_motion.systems.gurps import rules
from esper_motion.systems.gurps.mounted.common import (
    control_skill,
    require_mount,
    require_rider,
    require_seated,
)
from esper_motion.systems.gurps.shared.movers import initiative_order, installed_rules, relative_velocity
from esper_motion.systems.gurps.shared.rolls import skill_level

FAR_SIDE_TARGETS: Final = ("foot", "face", "eyes", "skull", "hand")
"""All a foe can hit of a rider hanging on the far side of its mount (Basic Set: Mounted Combat > Using Ranged
Weapons While Mounted > Tricks)."""

FAR_SIDE_MISS_MARGIN: Final = 4
"""An attack on a rider hanging on the far side that misses by this much or less hits the mount (ibid.)."""


@dataclass(frozen=True, slots=True)
class MountedAttack:
    """A rider's attack from the saddle: ``skill`` is the weapon skill after the Riding (or Driving) limit,
    ``modifiers`` each further modifier with its reason, ``damage_bonus`` what speed adds to damage, and
    ``max_aim_turns`` the most turns of Aim that help a ranged attack (None: no limit)."""

    skill: int
    modifiers: tuple[tuple[str, int], ...]
    damage_bonus: int
    max_aim_turns: int | None

    @property
    def effective_skill(self) -> int:
        """The skill to roll against: ``skill`` plus every modifier."""
        return self.skill + sum(value for _, value in self.modifiers)


def _step_yd(world: World, entity: int) -> int:
    """A step: 1 yard, or a tenth of Basic Move (rounded down) when that is more."""
    mover = world.try_get(entity, Mover)
    return max(1, mover.basic_move // 10) if mover is not None else 1


def mounted_attack(
    world: World, rider: int, weapon_skill: int, target: int | None = None, ranged: bool = False
) -> MountedAttack:
    """The numbers of an attack by mounted ``rider`` with a weapon it knows at ``weapon_skill``.

    - Skill: the lower of weapon skill and Riding, Driving on an open vehicle (Basic Set: Mounted Combat >
      Cavalry Weapons; Using Ranged Weapons While Mounted). House: the Cavalry Training perk lifts the limit
      (House rules: Mounts).
    - Melee against ``target``: at a relative velocity of 7 or more, -1 to hit and +1 damage; house, the Size
      value of the relative velocity minus 2 (:func:`esper_motion.systems.gurps.rules.mounted_melee_speed_modifier`).
    - -2 if the mount attacked on its last turn (:func:`mount_attacked_on_its_last_turn`; Attacks by Mounts); -3
      with a loose saddle (Mount Loss of Control Table, row 11); the weapon modifier of the shooting trick taken
      this turn (Tricks).
    - Ranged: once the mount moved more than a step on the last turn, only one turn of Aim helps, and no scope
      (Aim); under the house rules the step is the rider's own.
    """
    link, mount = require_seated(world, rider)
    check_int("mounted_attack", "weapon_skill", weapon_skill)
    check_bool("mounted_attack", "ranged", ranged)
    found = world.get(mount, Mount)
    control_skill_level = skill_level(world, rider, control_skill(found))
    chosen = installed_rules(world)
    playing_house = chosen.house_mounts
    skill = rules.cavalry_skill(weapon_skill, control_skill_level, link.cavalry_training and playing_house)
    modifiers: list[tuple[str, int]] = []
    damage_bonus = 0
    if target is not None and not ranged:
        speed = relative_velocity(world, rider, target)
        to_hit, damage_bonus = rules.mounted_melee_speed_modifier(speed, chosen.mounts)
        if to_hit:
            modifiers.append(("relative velocity", to_hit))
    if mount_attacked_on_its_last_turn(world, rider, mount):
        modifiers.append(("the mount attacked last turn", rules.MOUNT_ATTACKED_RIDER_ATTACK_MODIFIER))
    if found.saddle_loose:
        modifiers.append(("loose saddle", -3))
    if link.trick is not None:
        modifiers.append((link.trick.replace("_", " "), rules.ranged_trick(link.trick).weapon_modifier))
    aim: int | None = None
    if ranged:
        control = world.try_get(mount, Control)
        moved = control.moved_yd if control is not None else 0
        aim = rules.mounted_aim_limit(moved, _step_yd(world, rider if playing_house else mount))
    return MountedAttack(skill, tuple(modifiers), damage_bonus, aim)


def mount_attacked_on_its_last_turn(world: World, rider: int, mount: int) -> bool:
    """Whether ``mount`` attacked on its last turn before ``rider`` attacks this second (Basic Set: Mounted Combat >
    Attacks by Mounts). The order within the second decides: a mount that acts before its rider
    (:func:`~esper_motion.systems.gurps.shared.movers.initiative_order`) had its last turn this second, so its
    attack this second counts (reported with ``Mount.attack``, or its own ``Attack`` aimed with ``natural``); one
    that acts after had its last turn the second before (``Mount.attacked_turn``)."""
    found = world.get(mount, Mount)
    if initiative_order(world, (rider, mount))[0] == mount:
        own = world.try_get(mount, Attack)
        return found.attack is not None or (own is not None and own.target is not None and own.natural is not None)
    return found.attacked_turn is not None and found.attacked_turn == world.turn - 1


@dataclass(frozen=True, slots=True)
class LanceAttack:
    """A couched lance's damage: the dice and adds, ``"impaling"`` or (jousting) ``"crushing"``, and for a
    jousting lance the most damage it deals before it snaps (None for a war lance)."""

    damage: Damage
    damage_type: str
    snaps_above: int | None


def couched_lance(world: World, rider: int, jousting: bool = False) -> LanceAttack:
    """Damage of a lance couched by mounted ``rider``: the mount's ST times the yards it moved last turn, over
    100, rounded down, in dice, plus 3; impaling for a war lance, crushing for a jousting lance, which snaps
    above 15 points and deals 15 (:func:`esper_motion.systems.gurps.rules.jousting_damage_cap` on the rolled damage). A
    rider without saddle and stirrups cannot couch a lance: :class:`~esper_motion.ecs.errors.IntentError` (Basic Set:
    Mounted Combat > Cavalry Weapons > Lances)."""
    _, mount = require_seated(world, rider)
    check_bool("couched_lance", "jousting", jousting)
    found = world.get(mount, Mount)
    if not rules.can_couch_lance(found.saddle, found.stirrups):
        missing = "saddle" if not found.saddle else "stirrups"
        raise IntentError(rider, f"Mount.{missing}", False, "couching a lance needs a saddle and stirrups on the mount")
    control = world.try_get(mount, Control)
    mover = world.try_get(mount, Mover)
    damage = rules.lance_damage(mover.st if mover is not None else 10, control.moved_yd if control is not None else 0)
    if jousting:
        return LanceAttack(damage, "crushing", 15)
    return LanceAttack(damage, "impaling", None)


def mount_attack_damage(world: World, mount: int, attack: str, base: Damage) -> Damage:
    """Damage of the mount's bite, kick or trample from the animal's own ``base`` damage: iron horseshoes add
    +1 to kicks and tramples (Basic Set: Mounted Combat > Attacks by Mounts)."""
    found = require_mount(world, mount)
    check_choice("mount_attack_damage", "attack", attack, MOUNT_ATTACKS)
    if found.iron_horseshoes and attack in ("kick", "trample"):
        return Damage(base.dice, base.adds + 1)
    return base


@dataclass(frozen=True, slots=True)
class MountedDefense:
    """The active defenses open to a rider or mount, and the modifier to each."""

    options: tuple[str, ...]
    modifier: int


def mounted_defense(world: World, entity: int) -> MountedDefense:
    """Defenses of a mount or a mounted rider (Basic Set: Mounted Combat > Mounted Defense; Spooked Mounts).

    A mount only dodges (its barding or natural DR is the game's). A rider dodges, blocks or parries, at
    Riding - 12 when its Riding is under 12 (Driving on an open vehicle, Cavalry Weapons). On a bucking
    (spooked) mount, mount and rider may only dodge.
    House rules: a mount defends by its own abilities (``Mount.defenses``), dodging alone while it bucks; a
    rider defends normally, the limit being on the skill its parry comes from (see :func:`mounted_attack`), so
    no penalty here (House rules: Mounts).

    Left to the game: the house rules let a rider with Shield Wall Training or Sacrificial Parry use them
    normally to protect its mount. The library models neither ability nor defending someone else, so a game
    that has them applies them to the mount as to any ally (House rules: Mounts).
    """
    found = world.try_get(entity, Mount)
    if found is not None:
        if installed_rules(world).house_mounts and not found.spooked:
            return MountedDefense(found.defenses, 0)
        return MountedDefense(("dodge",), 0)
    _, mount = require_seated(world, entity)
    riding = skill_level(world, entity, control_skill(world.get(mount, Mount)))
    penalty = 0 if installed_rules(world).house_mounts else rules.riding_defense_penalty(riding)
    if world.get(mount, Mount).spooked:
        return MountedDefense(("dodge",), penalty)
    return MountedDefense(("dodge", "block", "parry"), penalty)


@dataclass(frozen=True, slots=True)
class HeightDifference:
    """How far above the other one fighter is (``higher`` None when neither is), and the Combat at Different
    Levels row that applies."""

    higher: int | None
    height_ft: int
    row: rules.DifferentLevelsRow


def _on_foot_standing(world: World, entity: int) -> bool:
    link = world.try_get(entity, Rider)
    if link is not None and link.mount is not None:
        return False
    posture = world.try_get(entity, Posture)
    return posture is None or posture.state is PostureState.STANDING


def height_difference(world: World, a: int, b: int, reach_yd: int = 1) -> HeightDifference:
    """A mounted fighter is 3 feet above a foe standing on foot (Basic Set: Mounted Combat > Height Difference);
    the effect is the row of Combat at Different Levels for that height and the weapon's ``reach_yd``
    (:func:`esper_motion.systems.gurps.rules.different_levels`, docs/architecture.md > Facts the rules lean on). Reading
    chosen: two riders, or a rider and a foe who is not standing, are taken as level here."""
    for high, low in ((a, b), (b, a)):
        link = world.try_get(high, Rider)
        if link is not None and link.mount is not None and _on_foot_standing(world, low):
            height = rules.MOUNTED_HEIGHT_FT
            return HeightDifference(high, height, rules.different_levels(height, reach_yd))
    return HeightDifference(None, 0, rules.different_levels(0, reach_yd))


@dataclass(frozen=True, slots=True)
class Redirect:
    """An attack that missed its target hits ``entity`` instead, unless ``may_defend`` and it defends."""

    entity: int
    may_defend: bool


def missed_attack(world: World, target: int, margin: int) -> Redirect | None:
    """Where an attack on a rider or mount that missed by ``-margin`` lands (Basic Set: Mounted Combat).

    - On a rider hanging on the far side, a miss by 4 or less hits the mount (Using Ranged Weapons While
      Mounted > Tricks).
    - Otherwise a miss by exactly 1 hits the other party unless it defends: the mount for a rider, the
      controlling rider for a mount (Mounted Combat Results).

    ``margin`` is the attack roll's margin (negative for a miss); a hit or a wider miss gives None.
    """
    check_int("missed_attack", "margin", margin)
    if margin >= 0:
        return None
    link = world.try_get(target, Rider)
    if link is not None and link.mount is not None:
        if link.trick == "far_side" and margin >= -FAR_SIDE_MISS_MARGIN:
            return Redirect(link.mount, False)
        return Redirect(link.mount, True) if margin == -1 else None
    found = world.try_get(target, Mount)
    if found is not None and found.controller is not None and margin == -1:
        return Redirect(found.controller, True)
    return None


def target_locations(world: World, rider: int) -> tuple[str, ...] | None:
    """The hit locations a foe may aim at on ``rider``: only foot, face, eyes, skull and one hand while it hangs
    on the far side of its mount; None (every location) otherwise (Basic Set: Mounted Combat > Using Ranged
    Weapons While Mounted > Tricks)."""
    link = require_rider(world, rider)
    return FAR_SIDE_TARGETS if link.mount is not None and link.trick == "far_side" else None


def rider_dx_modifier(world: World, rider: int) -> int:
    """House rules: -10 to the rider's DX rolls while its mount is out of control (``Mount.out_of_control``, or
    out of control at high speed); 0 otherwise, and always 0 under the Basic Set (House rules: Mounts)."""
    link = require_rider(world, rider)
    if not installed_rules(world).house_mounts or link.mount is None:
        return 0
    control = world.try_get(link.mount, Control)
    lost = world.get(link.mount, Mount).out_of_control or (
        control is not None and control.state is MoveState.OUT_OF_CONTROL
    )
    return rules.HOUSE_MOUNT_OUT_OF_CONTROL_RIDER_DX_MODIFIER if lost else 0


def counts_as_standing(world: World, rider: int) -> bool:
    """House rules: a rider in a saddle counts as standing (House rules: Mounts). False on foot, without a
    saddle, and under the Basic Set, where a rider sits."""
    link = require_rider(world, rider)
    if not installed_rules(world).house_mounts or link.mount is None:
        return False
    return world.get(link.mount, Mount).saddle

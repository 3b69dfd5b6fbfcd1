"""The numbers of one attack and of the defense against it, worked out from the queries of every section.

Nothing here rolls or writes: :class:`~esper_motion.systems.gurps.combat.attack.AttackSystem` rolls what these
functions give, and :func:`esper_motion.systems.gurps.preview` lists the same rolls with their odds, so the two
always agree. This folder is the one that reads the other sections: its job is to apply, in play, what their
queries answer (Basic Set: Mounted Combat; Flying Combat; High-Speed Movement > Attacking and Defending; and the
house rules' Mounts, High Speed Movement, Flying Movement and Combat and "Dragon" Rule).
"""

from __future__ import annotations

from dataclasses import dataclass

from esper_motion.components.combat import Attack, Defenses
from esper_motion.components.gurps import Intent, Maneuver, Posture, PostureState
from esper_motion.components.mount import Mount, Rider
from esper_motion.ecs import IntentError, World, WorldError
from esper_motion.ecs.damage import Damage
from esper_motion.systems.gurps import rules
from esper_motion.systems.gurps.flight.aerial import (
    YARD_FT,
    acrobatic_dodge_skill,
    aerial_retreat,
    airborne,
    height_effect,
    house_ranged_distance,
    move_and_attack,
)
from esper_motion.systems.gurps.highspeed.queries import defenses, speed_modifier
from esper_motion.systems.gurps.mounted.cavalry import (
    couched_lance,
    counts_as_standing,
    height_difference,
    mount_attack_damage,
    mounted_attack,
    mounted_defense,
    rider_dx_modifier,
    target_locations,
)
from esper_motion.systems.gurps.shared.injury import defense_modifiers
from esper_motion.systems.gurps.shared.injury_model import register_injury
from esper_motion.systems.gurps.shared.movers import installed_rules
from esper_motion.systems.gurps.shared.rolls import shock

ATTACKING_MANEUVERS = frozenset({Maneuver.ATTACK, Maneuver.ALL_OUT_ATTACK, Maneuver.MOVE_AND_ATTACK})
"""The maneuvers that allow an attack (docs/architecture.md > Facts the rules lean on: maneuvers)."""


@register_injury("gurps.default_injury")
def default_injury(world: World, victim: int, damage: int, damage_type: str) -> int:
    """The default injury of ``damage`` on ``victim``: damage minus its ``Defenses.dr`` (0 without ``Defenses``),
    times the wounding multiplier of ``damage_type`` (:func:`esper_motion.systems.gurps.rules.injury`)."""
    found = world.try_get(victim, Defenses)
    return rules.injury(damage, found.dr if found is not None else 0, damage_type)


def seated_on(world: World, entity: int) -> int | None:
    """The mount ``entity`` sits on, or None on foot."""
    link = world.try_get(entity, Rider)
    return link.mount if link is not None else None


@dataclass(frozen=True, slots=True)
class AttackNumbers:
    """One attack's numbers: ``skill`` after the limits of the saddle or the maneuver, ``modifiers`` each further
    modifier with its reason, the damage with its type (and, for a jousting lance, the most it deals before it
    snaps), and the ``label`` of the roll."""

    skill: int
    modifiers: tuple[tuple[str, int], ...]
    damage: Damage
    damage_type: str
    snaps_above: int | None
    label: str

    @property
    def effective_skill(self) -> int:
        """The number to roll against: ``skill`` plus every modifier."""
        return self.skill + sum(value for _, value in self.modifiers)


def _posture_modifier(world: World, entity: int, column: int) -> tuple[str, int] | None:
    """The posture modifier (column 0 attack, 1 defense) of ``entity``. On foot, its posture. In the saddle, none
    under the Basic Set (Mounted Combat gives a rider its own modifiers); under the house rules a rider in a
    saddle counts as standing and one without a saddle sits (House rules: Mounts), unless
    ``Rules.house_bareback_sitting`` is off."""
    if seated_on(world, entity) is not None:
        chosen = installed_rules(world)
        if not (chosen.house_mounts and chosen.house_bareback_sitting) or counts_as_standing(world, entity):
            return None
        value = rules.posture_modifiers(PostureState.SITTING.value)[column]
        return ("sitting without a saddle", value)
    posture = world.try_get(entity, Posture)
    if posture is None:
        return None
    value = rules.posture_modifiers(posture.state.value)[column]
    return (posture.state.value, value) if value else None


def attack_numbers(
    world: World, attacker: int, target: int, range_yd: float = 0.0, *, across_yd: float | None = None
) -> AttackNumbers:
    """The numbers of ``attacker``'s attack (its ``Attack``) on ``target`` at ``range_yd`` (ranged attacks), of
    which ``across_yd`` are across the map, height aside (None: all of ``range_yd``).

    - From the saddle: :func:`esper_motion.systems.gurps.mounted.cavalry.mounted_attack` (the Riding or Driving
      limit, or the house Cavalry Training perk; the relative-velocity modifier and damage bonus of a melee attack,
      or the house Size-value one; -2 after the mount attacked; -3 with a loose saddle; the shooting trick; the Aim
      limit) and, under the house rules, -10 while the mount is out of control
      (:func:`~esper_motion.systems.gurps.mounted.cavalry.rider_dx_modifier`; reading chosen: weapon skills are
      DX-based, so an attack roll is one of the DX rolls it names, unless ``Rules.house_out_of_control_skills`` is
      off). A couched lance deals
      :func:`~esper_motion.systems.gurps.mounted.cavalry.couched_lance` damage, without the speed's damage bonus
      unless ``Rules.lance_speed_bonus``.
    - A mount's bite, kick or trample (``Attack.natural``): +1 damage to a kick or trample with iron horseshoes
      (:func:`~esper_motion.systems.gurps.mounted.cavalry.mount_attack_damage`).
    - On foot on a Move and Attack: :func:`esper_motion.systems.gurps.flight.aerial.move_and_attack` (melee at -4
      capped at 9, ranged at -2 or Bulk; the house "Dragon" rule for a flier).
    - Posture, shock, the aimed hit location (a rider hanging on the far side exposes only
      :func:`~esper_motion.systems.gurps.mounted.cavalry.target_locations`), and for a ranged attack the Aim bonus
      and the speed/range modifier
      (:func:`esper_motion.systems.gurps.highspeed.queries.speed_modifier`, which adds a fast target's speed to range
      under the house rules) at the range the house height rule gives from ``across_yd``
      (:func:`~esper_motion.systems.gurps.flight.aerial.house_ranged_distance`, spells at half).

    An attack the rules forbid raises :class:`~esper_motion.ecs.errors.IntentError` naming the field: on a maneuver
    that allows none, a lance on foot, a trick on foot, or from a bucking mount, whose rider, like the mount, may
    only dodge (Basic Set: Mounted Combat > Spooked Mounts).
    """
    attack = world.get(attacker, Attack)
    ranged = attack.weapon == "ranged"
    modifiers: list[tuple[str, int]] = []
    skill = attack.skill
    damage = Damage(attack.damage_dice, attack.damage_adds)
    damage_type = attack.damage_type
    snaps_above: int | None = None
    max_aim: int | None = None
    bonus = 0
    intent = world.try_get(attacker, Intent)
    if intent is not None and intent.maneuver not in ATTACKING_MANEUVERS:
        raise IntentError(
            attacker, "Intent.maneuver", intent.maneuver.value, "Attack, All-Out Attack or Move and Attack to attack"
        )
    bucking = world.try_get(seated_on(world, attacker) or attacker, Mount)
    if bucking is not None and bucking.spooked:
        raise IntentError(
            attacker, "Attack.target", target, "None while the mount bucks: rider and mount may only dodge"
        )
    if seated_on(world, attacker) is not None:
        saddle = mounted_attack(world, attacker, skill, target, ranged)
        skill, bonus, max_aim = saddle.skill, saddle.damage_bonus, saddle.max_aim_turns
        modifiers.extend(saddle.modifiers)
        if attack.trick is not None and world.get(attacker, Rider).trick is None:  # asked before the turn takes it
            modifiers.append((attack.trick.replace("_", " "), rules.ranged_trick(attack.trick).weapon_modifier))
        out_of_control = rider_dx_modifier(world, attacker) if installed_rules(world).house_out_of_control_skills else 0
        if out_of_control:
            modifiers.append(("the mount is out of control", out_of_control))
        if attack.lance is not None:
            lance = couched_lance(world, attacker, jousting=attack.lance == "jousting")
            damage, damage_type, snaps_above = lance.damage, lance.damage_type, lance.snaps_above
    elif attack.lance is not None:
        raise IntentError(attacker, "Attack.lance", attack.lance, "None on foot: a lance is couched from the saddle")
    if attack.natural is not None and world.has(attacker, Mount):
        damage = mount_attack_damage(world, attacker, attack.natural, damage)
    elif intent is not None and intent.maneuver is Maneuver.MOVE_AND_ATTACK:
        moving = move_and_attack(world, attacker, skill, ranged=ranged, bulk=attack.bulk, target=target)
        skill, bonus = moving.skill, moving.damage_bonus
        modifiers.extend(moving.modifiers)
    if attack.trick is not None and seated_on(world, attacker) is None:
        raise IntentError(attacker, "Attack.trick", attack.trick, "None on foot: the tricks are shot from the saddle")
    posture = _posture_modifier(world, attacker, 0)
    if posture is not None:
        modifiers.append(posture)
    if shock(world, attacker):
        modifiers.append(("shock", shock(world, attacker)))
    if attack.location is not None and rules.HIT_LOCATION_MODIFIERS[attack.location]:
        modifiers.append((f"aimed at the {attack.location}", rules.HIT_LOCATION_MODIFIERS[attack.location]))
    if ranged:
        aim = rules.aim_bonus(attack.accuracy, attack.aim_turns, max_aim)
        if aim:
            modifiers.append(("Aim", aim))
        distance = range_yd
        if installed_rules(world).house_flight:
            across = range_yd if across_yd is None else across_yd
            distance = house_ranged_distance(world, attacker, target, across, attack.spell)
        speed = speed_modifier(world, attacker, target, distance)
        if speed:
            modifiers.append(("speed and range", speed))
    if bonus and (attack.lance is None or installed_rules(world).lance_speed_bonus):
        damage = Damage(damage.dice, damage.adds + bonus)
    total = sum(value for _, value in modifiers)
    label = f"{attack.skill_name} {skill}{total:+d}" if total else f"{attack.skill_name} {skill}"
    return AttackNumbers(skill, tuple(modifiers), damage, damage_type, snaps_above, label)


def unreachable_location(world: World, attacker: int, target: int) -> str | None:
    """Why ``attacker`` cannot strike the location it aims at on ``target``, or None when it can: a rider hanging
    on the far side of its mount exposes only a foot, the face, eyes, skull or a hand, so an attack must aim at
    one of them (Basic Set: Mounted Combat > Using Ranged Weapons While Mounted > Tricks); from high enough above
    the legs and feet are out of melee reach, from low enough below the head (Combat at Different Levels)."""
    attack = world.get(attacker, Attack)
    aimed = attack.location or "torso"
    if world.has(target, Rider):
        exposed = target_locations(world, target)
        if exposed is not None and aimed not in exposed:
            return f"a rider on the far side of its mount exposes only {', '.join(exposed)}, not the {aimed}"
    if attack.weapon == "melee":
        effect = height_effect(world, attacker, target, attack.reach_yd)
        if effect.legs_out_of_reach and aimed in rules.LEG_LOCATIONS:
            return f"the {aimed} is out of reach {effect.height_ft:g} ft below"
        if effect.head_out_of_reach and aimed in rules.HEAD_LOCATIONS:
            return f"the {aimed} is out of reach {-effect.height_ft:g} ft above"
    return None


@dataclass(frozen=True, slots=True)
class DefenseNumbers:
    """The defense ``defender`` makes: ``kind`` (dodge, parry or block) at ``score``, ``modifiers`` each with its
    reason, whether it ``retreats``, and for an Acrobatic Dodge the skill it rolls first (``acrobatic``: name and
    level, with ``acrobatic_modifier`` what counts against that roll besides shock)."""

    kind: str
    score: int
    modifiers: tuple[tuple[str, int], ...]
    retreats: bool
    acrobatic: tuple[str, int] | None
    acrobatic_modifier: int

    @property
    def target(self) -> int:
        """The number to roll against, before an Acrobatic Dodge's +2 or -2: ``score`` plus every modifier."""
        return self.score + sum(value for _, value in self.modifiers)


def _height_modifier(world: World, attacker: int, defender: int, reach_yd: int) -> tuple[str, int] | None:
    """The defender's modifier for height in melee: Combat at Different Levels between a flier and a foe on the
    ground, or the house height advantage, through :func:`esper_motion.systems.gurps.flight.aerial.height_effect`
    (Basic Set: Flying Combat > Aerial Attack and Defense; House rules: Flying Movement and Combat); otherwise a
    rider's 3 feet over a standing foe (:func:`esper_motion.systems.gurps.mounted.cavalry.height_difference`;
    Basic Set: Mounted Combat > Height Difference), which under the house flight rules is a yard of height like
    any other (+2 to the higher fighter's defense, -2 to the lower's) unless ``Rules.house_height_riders`` is off."""
    chosen = installed_rules(world)
    flying = airborne(world, attacker) or airborne(world, defender)
    if flying or chosen.house_flight:
        effect = height_effect(world, attacker, defender, reach_yd)
        if flying or effect.defender_defense:
            return ("height", effect.defender_defense) if effect.defender_defense else None
    levels = height_difference(world, attacker, defender, reach_yd)
    lower, higher = levels.row.lower_defense, levels.row.higher_defense
    if levels.higher is not None and chosen.house_flight and chosen.house_height_riders:
        higher, lower = rules.house_height_defense_modifiers(levels.height_ft / YARD_FT)
    if levels.higher == attacker and lower:
        return ("a rider 3 ft above", lower)
    if levels.higher == defender and higher:
        return ("3 ft above on a mount", higher)
    return None


def defense_numbers(world: World, defender: int, attacker: int) -> DefenseNumbers | None:
    """The best active defense ``defender`` has against ``attacker``'s attack, or None when it has none (no
    ``Defenses``, no defense left open, or its maneuver is All-Out Attack).

    - Open defenses: those ``Defenses`` has a score for; no parry against a ranged attack; a mount or a rider only
      those of :func:`esper_motion.systems.gurps.mounted.cavalry.mounted_defense` (a mount dodges; on a bucking
      mount both only dodge; house: the mount's own defenses), with its modifier (Riding below 12).
    - Retreat: when ``Defenses.retreat`` and :func:`esper_motion.systems.gurps.highspeed.queries.defenses` allow it
      (no retreat at high speed), +3 to Dodge or +1 to Parry or Block, +1 more for a flier that can hover
      (:func:`esper_motion.systems.gurps.flight.aerial.aerial_retreat`).
    - What its injury does (:func:`esper_motion.systems.gurps.shared.injury.defense_modifiers`): none while
      unconscious, -4 while stunned, a halved Dodge while reeling.
    - Height in melee (:func:`_height_modifier`), posture, and an Acrobatic Dodge rolled against
      :func:`~esper_motion.systems.gurps.flight.aerial.acrobatic_dodge_skill` (Aerobatics in the air), at the house
      rules' -10 while the defender's mount is out of control.

    The best is the highest number to roll against; on a tie, dodge before parry before block.
    """
    found = world.try_get(defender, Defenses)
    intent = world.try_get(defender, Intent)
    if found is None or (intent is not None and intent.maneuver is Maneuver.ALL_OUT_ATTACK):
        return None
    attack = world.get(attacker, Attack)
    ranged = attack.weapon == "ranged"
    kinds = [kind for kind in ("dodge", "parry", "block") if found.score(kind) is not None]
    if not rules.can_parry(ranged):
        kinds = [kind for kind in kinds if kind != "parry"]
    common: list[tuple[str, int]] = []
    if world.has(defender, Mount) or seated_on(world, defender) is not None:
        limit = mounted_defense(world, defender)
        kinds = [kind for kind in kinds if kind in limit.options]
        if limit.modifier:
            common.append(("Riding below 12", limit.modifier))
    if not kinds:
        return None
    retreats = found.retreat and _may_retreat(world, defender)
    aerial = aerial_retreat(world, defender).bonus if retreats and airborne(world, defender) else 0
    if not ranged:
        height = _height_modifier(world, attacker, defender, attack.reach_yd)
        if height is not None:
            common.append(height)
    posture = _posture_modifier(world, defender, 1)
    if posture is not None:
        common.append(posture)
    best: DefenseNumbers | None = None
    for kind in kinds:
        score = found.score(kind)
        assert score is not None
        injured = defense_modifiers(world, defender, kind, score)
        if injured is None:
            return None
        modifiers = [*common, *injured]
        if retreats:
            modifiers.append(("retreat", rules.retreat_bonus(kind, aerial)))
        acrobatic: tuple[str, int] | None = None
        if kind == "dodge" and found.acrobatic:
            name, level = acrobatic_dodge_skill(world, defender)
            if level is None:
                raise IntentError(defender, "Defenses.acrobatic", True, f"a {name} skill (Skills.levels) to roll")
            acrobatic = (name, level)
        numbers = DefenseNumbers(
            kind, score, tuple(modifiers), retreats, acrobatic, _acrobatic_modifier(world, defender)
        )
        if best is None or numbers.target > best.target:
            best = numbers
    return best


def _may_retreat(world: World, entity: int) -> bool:
    """Whether the rules let ``entity`` retreat: not at high speed
    (:func:`esper_motion.systems.gurps.highspeed.queries.defenses`). An entity that is no GURPS mover may."""
    try:
        return defenses(world, entity).retreat
    except WorldError:
        return True


def _acrobatic_modifier(world: World, entity: int) -> int:
    """What counts against an Acrobatic Dodge roll besides shock (which counts against every skill roll): under
    the house rules -10 while the entity's mount is out of control (a DX-based roll,
    :func:`~esper_motion.systems.gurps.mounted.cavalry.rider_dx_modifier`), unless
    ``Rules.house_out_of_control_skills`` is off."""
    counts = world.has(entity, Rider) and installed_rules(world).house_out_of_control_skills
    return rider_dx_modifier(world, entity) if counts else 0

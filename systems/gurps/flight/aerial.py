"""Flying Combat as queries a game (and the other systems) can ask: level yards beside a climb, passing over,
steps and retreats, Acrobatic Dodge, height against foes, a flier's Move and Attack, breathing, winged flight
and the scene's air.

Nothing here changes the world. The rules come from Basic Set: Flying Combat (Aerial Movement, Flying Fast,
Flight Ceiling, Aerial Attack and Defense) and the house rules' Flying Movement and Combat and "Dragon" Rule
when ``Rules.flight`` is ``"house"``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from esper_motion.components.flight import AirSupply, Atmosphere, Flight
from esper_motion.components.gurps import Control, Skills
from esper_motion.components.motion import Position
from esper_motion.ecs import World, WorldError
from esper_motion.ecs.hexgrid import Hex, away_from, neighbour
from esper_motion.ecs.validate import check_bool, check_int
from esper_motion.systems.gurps import rules
from esper_motion.systems.gurps.events import Retreated
from esper_motion.systems.gurps.rules import step_yards
from esper_motion.systems.gurps.shared.movers import installed_rules, moved_outside_walk, relative_velocity
from esper_motion.systems.gurps.shared.spatial import entity_height_yd, shared_index

_AERIAL: Final = "Basic Set: Flying Combat > Aerial Movement"
_ATTACK: Final = "Basic Set: Flying Combat > Aerial Attack and Defense"
_HOUSE: Final = "House rules: Flying Movement and Combat"
_DRAGON: Final = 'House rules: "Dragon" Rule'
_MOVE_AND_ATTACK: Final = "Basic Set: Maneuvers > Move and Attack"

YARD_FT: Final = 3
"""Feet in a yard: altitudes are kept in yards, the flight ceiling and Combat at Different Levels count feet."""


def scene_atmosphere(world: World) -> Atmosphere:
    """The scene's air: the ``Atmosphere`` on the world's scene entity, or standard air at sea level if none.

    A scene has one atmosphere; two entities carrying one is a :class:`~esper_motion.ecs.errors.WorldError`. During a
    step it is looked up once a turn (:meth:`esper_motion.ecs.World.per_turn`), however many fliers ask.
    """
    return world.per_turn(scene_atmosphere, lambda: _find_atmosphere(world))


def _find_atmosphere(world: World) -> Atmosphere:
    found = world.scan(Atmosphere)
    if len(found) > 1:
        holders = ", ".join(str(entity) for entity in sorted(entity for entity, _ in found))
        raise WorldError(f"entities {holders} each carry an Atmosphere; a scene has exactly one")
    return found[0][1][0] if found else Atmosphere()


def airborne(world: World, entity: int) -> bool:
    """Whether ``entity`` is flying: it has ``Flight`` and its altitude is above the ground."""
    flight = world.try_get(entity, Flight)
    return flight is not None and world.get(entity, Position).altitude_yd > 0


def vertically_clear(world: World, a: int, b: int) -> bool:
    """Whether ``a`` and ``b`` can share a hex without meeting: the higher one is at or above the top of the
    lower one, so a flier passes over a fighter (or another flier) when it has the height
    (Basic Set: Flying Combat > Aerial Movement)."""
    low, high = sorted((a, b), key=lambda entity: world.get(entity, Position).altitude_yd)
    return world.get(high, Position).altitude_yd >= world.get(low, Position).altitude_yd + entity_height_yd(world, low)


@dataclass(frozen=True, slots=True)
class AerialRetreat:
    """How a flier may retreat when it defends: ``step_yd`` yards, up or down if ``vertical``, and ``bonus``
    on top of the usual retreat bonus."""

    step_yd: int
    vertical: bool
    bonus: int
    citation: str


def aerial_retreat(world: World, entity: int, room_vertical: bool = True) -> AerialRetreat:
    """How airborne ``entity`` may retreat; ``room_vertical`` says whether there is room to move a step up or
    down (the game knows its ceilings).

    Basic Set: Flying Combat > Aerial Movement > Steps and Retreats: the retreat is a step of basic air Move
    and a flier may make it vertically. Basic Set: Flying Combat > Aerial Attack and Defense > Defense: a
    flier that can hover and has room for a step up or down gets +1 over the usual retreat bonus. Under the
    house rules only a flier that can hover retreats by changing altitude, with the same +1
    (House rules: Flying Movement and Combat). Asking about an entity that is not flying is an error.
    """
    check_bool("aerial_retreat", "room_vertical", room_vertical)
    if not airborne(world, entity):
        raise WorldError(f"entity {entity} is not flying: aerial_retreat asks about fliers in the air")
    flight = world.get(entity, Flight)
    step = step_yards(flight.air_move)
    can_hover = flight.mode.can_hover
    bonus = rules.aerial_retreat_bonus(can_hover, room_vertical)
    if installed_rules(world).house_flight:
        return AerialRetreat(step, can_hover and room_vertical, bonus, _HOUSE)
    return AerialRetreat(step, room_vertical, bonus, f"{_AERIAL} > Steps and Retreats; Aerial Attack and Defense")


def take_aerial_retreat(world: World, defender: int, attacker: int) -> None:
    """Move airborne ``defender``, which retreats from ``attacker``'s attack, its retreat step
    (:func:`aerial_retreat`: a step of basic air Move, vertical if it likes; Basic Set: Flying Combat > Aerial
    Movement > Steps and Retreats). Readings chosen: it steps across the map, yard by yard, to a neighbouring hex a
    yard farther from the attacker (of several, the first facing from east,
    :func:`~esper_motion.ecs.hexgrid.away_from`), while one is clear at its altitude; with none clear on the first
    yard, it steps vertically instead, away from the attacker (down when the attacker is higher and there is room
    above the ground, else up); a ceiling is the game's (``room_vertical``). The hexes entered are added to its
    ``Control.path``; emits :class:`~esper_motion.systems.gurps.events.Retreated`."""
    retreat = aerial_retreat(world, defender)
    index = shared_index(world)
    position = world.get(defender, Position)
    source = world.get(attacker, Position)
    height = entity_height_yd(world, defender)
    path: list[Hex] = []
    climbed = 0.0
    for yard in range(retreat.step_yd):
        here = position.hex
        ways = [
            way
            for way in away_from(here, source.hex)
            if index.clear(neighbour(here, way), position.altitude_yd, height, ignoring=(defender,))
        ]
        if not ways:
            if yard == 0 and retreat.vertical:
                down = source.altitude_yd > position.altitude_yd > retreat.step_yd
                climbed = -retreat.step_yd if down else retreat.step_yd
                position.altitude_yd += climbed
                index.refile(world, defender)
            break
        index.shift(defender, ways[0])
        position.q, position.r = neighbour(here, ways[0])
        path.append(position.hex)
    moved_outside_walk(world, defender, path)
    world.emit(Retreated(defender, attacker, tuple(path), climbed))


def acrobatic_dodge_skill(world: World, entity: int) -> tuple[str, int | None]:
    """The skill an Acrobatic Dodge rolls against, and the entity's level in it (None without it): Aerobatics
    in the air, Acrobatics on the ground (Basic Set: Acrobatic Dodge, for fliers)."""
    name = "Aerobatics" if airborne(world, entity) else "Acrobatics"
    skills = world.try_get(entity, Skills)
    return name, skills.level(name) if skills is not None else None


@dataclass(frozen=True, slots=True)
class HeightEffect:
    """What a height difference does to one attack: the attacker is ``height_ft`` above the defender
    (negative: below). ``attacker_defense`` and ``defender_defense`` are modifiers to each one's active
    defenses in this exchange; ``legs_out_of_reach`` and ``head_out_of_reach`` say which of the defender's
    hit locations the attacker cannot reach."""

    height_ft: float
    attacker_defense: int
    defender_defense: int
    legs_out_of_reach: bool
    head_out_of_reach: bool
    citation: str


def height_effect(world: World, attacker: int, defender: int, reach_yd: int = 1) -> HeightEffect:
    """How the height between ``attacker`` and ``defender`` changes a melee attack with ``reach_yd`` reach.

    Being airborne costs nothing to attack or defense. Against a foe on the ground a flier uses Combat at
    Different Levels (:func:`esper_motion.systems.gurps.rules.different_levels`, the project's replaceable table);
    between two fliers height does not matter (Basic Set: Flying Combat > Aerial Attack and Defense). Under the house
    rules a yard or more of height gives +2 to the higher fighter's defenses and -2 to the lower's, fliers or not (House
    rules: Flying Movement and Combat; between two fliers unless ``Rules.house_height_fliers`` is off); which hit
    locations are out of reach still follows Combat at Different Levels, which the house rules leave alone.
    """
    check_int("height_effect", "reach_yd", reach_yd, low=0)
    height_yd = world.get(attacker, Position).altitude_yd - world.get(defender, Position).altitude_yd
    height_ft = height_yd * YARD_FT
    both_flying = airborne(world, attacker) and airborne(world, defender)
    row = rules.DIFFERENT_LEVELS_TABLE[0] if both_flying else rules.different_levels(abs(height_ft), reach_yd)
    above = height_ft > 0
    legs = above and row.legs_out_of_reach_from_above
    head = height_ft < 0 and row.head_out_of_reach_from_below
    chosen = installed_rules(world)
    if chosen.house_flight and (chosen.house_height_fliers or not both_flying):
        mine, theirs = rules.house_height_defense_modifiers(height_yd)
        return HeightEffect(height_ft, mine, theirs, legs, head, _HOUSE)
    if above:
        return HeightEffect(height_ft, row.higher_defense, row.lower_defense, legs, head, _ATTACK)
    return HeightEffect(height_ft, row.lower_defense, row.higher_defense, legs, head, _ATTACK)


def house_ranged_distance(world: World, attacker: int, target: int, horizontal_yd: float, spell: bool = False) -> float:
    """House rules: the effective range of a ranged attack across the height between ``attacker`` and
    ``target`` (:func:`esper_motion.systems.gurps.rules.house_height_range`) for a target ``horizontal_yd`` away
    (House rules: Flying Movement and Combat). Asked under the Basic Set it is an error."""
    if not installed_rules(world).house_flight:
        raise WorldError("house_ranged_distance applies the house flight rules; this world plays Rules.flight 'basic'")
    height_yd = world.get(attacker, Position).altitude_yd - world.get(target, Position).altitude_yd
    return rules.house_height_range(horizontal_yd, height_yd, spell)


@dataclass(frozen=True, slots=True)
class MoveAndAttack:
    """An attack made on a Move and Attack: ``skill`` after the maneuver's limit, ``modifiers`` each further
    modifier with its reason, ``damage_bonus`` what speed adds to damage, ``dx_modifier`` what the maneuver
    takes off the attacker's DX rolls this turn, and ``dragon`` whether the house "Dragon" rule applied."""

    skill: int
    modifiers: tuple[tuple[str, int], ...]
    damage_bonus: int
    dx_modifier: int
    dragon: bool
    citation: str

    @property
    def effective_skill(self) -> int:
        """The skill to roll against: ``skill`` plus every modifier."""
        return self.skill + sum(value for _, value in self.modifiers)


def move_and_attack(
    world: World, attacker: int, skill: int, *, ranged: bool = False, bulk: int = 0, target: int | None = None
) -> MoveAndAttack:
    """The numbers of ``attacker``'s attack at ``skill`` on a Move and Attack.

    - Melee at -4, and never above 9; ranged at -2 or the weapon's ``bulk``, whichever is worse (docs/architecture.md >
      Facts the rules lean on, :func:`esper_motion.systems.gurps.rules.move_and_attack_melee_skill` and
      ``move_and_attack_ranged_modifier``).
    - House "Dragon" rule, when ``Rules.flight`` is ``"house"`` and the attacker is airborne: neither the -4 nor
      the cap, nor Bulk or the -2; and in melee on ``target`` after more than 7 yards of movement, the speed
      relative to the target as the house mounted rule reads it, a penalty to hit and a bonus to damage
      (:func:`esper_motion.systems.gurps.rules.dragon_melee_speed_modifier`; House rules: "Dragon" Rule).
    - Under the house rules the Move and Attack still takes 2 off every DX roll the attacker makes this turn
      (``dx_modifier``, :data:`esper_motion.systems.gurps.rules.MOVE_AND_ATTACK_DX_MODIFIER`), flier or not; the systems
      apply it themselves (:func:`esper_motion.systems.gurps.shared.movers.dx_modifier`). Under the Basic Set it is 0.

    Readings chosen: the yards moved are the attacker's ``Control.moved_yd``, the turn just resolved (as a
    couched lance reads its mount's); the relative speed is
    :func:`esper_motion.systems.gurps.shared.movers.relative_velocity` (a rider moves as its mount). Flying is the
    attacker's own: a rider on a flying mount has no ``Flight`` and fights under the mounted rules
    (:func:`esper_motion.systems.gurps.mounted.cavalry.mounted_attack`).
    """
    owner = "move_and_attack"
    check_int(owner, "skill", skill)
    check_bool(owner, "ranged", ranged)
    check_int(owner, "bulk", bulk, high=0)
    if target is not None and not world.exists(target):
        raise WorldError(f"{owner}: entity {target} does not exist in this world")
    house = installed_rules(world).house_flight
    dragon = house and airborne(world, attacker)
    dx = rules.MOVE_AND_ATTACK_DX_MODIFIER if house else 0
    citation = f"{_DRAGON}; {_MOVE_AND_ATTACK}" if dragon else _MOVE_AND_ATTACK
    if ranged:
        modifier = rules.move_and_attack_ranged_modifier(bulk, dragon)
        modifiers = (("Move and Attack", modifier),) if modifier else ()
        return MoveAndAttack(skill, modifiers, 0, dx, dragon, citation)
    limited = rules.move_and_attack_melee_skill(skill, dragon)
    if not dragon or target is None:
        return MoveAndAttack(limited, (), 0, dx, dragon, citation)
    control = world.try_get(attacker, Control)
    moved = control.moved_yd if control is not None else 0
    to_hit, damage_bonus = rules.dragon_melee_speed_modifier(moved, relative_velocity(world, attacker, target))
    modifiers = (("relative speed", to_hit),) if to_hit else ()
    return MoveAndAttack(limited, modifiers, damage_bonus, dx, dragon, citation)


def altitude_ft(world: World, entity: int) -> float:
    """Height of ``entity`` above sea level in feet: the scene's ground plus its altitude."""
    return scene_atmosphere(world).ground_ft + world.get(entity, Position).altitude_yd * YARD_FT


def breathing(world: World, entity: int) -> rules.Breathing:
    """How ``entity`` breathes where it is: normally, with trouble, or not without a mask
    (:func:`esper_motion.systems.gurps.rules.breathing_limit` at its height above sea level and the scene's pressure).
    An oxygen mask or Doesn't Breathe (``AirSupply``) means normal breathing anywhere
    (Basic Set: Flying Combat > Flight Ceiling)."""
    supply = world.try_get(entity, AirSupply)
    if supply is not None and supply.protected:
        return rules.Breathing.NORMAL
    return rules.breathing_limit(altitude_ft(world, entity), scene_atmosphere(world).pressure_atm)


def check_winged_flight(world: World, entity: int) -> None:
    """Refuse winged flight where the air cannot carry wings: a winged flier cannot fly at all in a trace
    atmosphere or a vacuum (Basic Set: Flying Combat > Flight Ceiling). Raises
    :class:`~esper_motion.ecs.errors.WorldError` naming the entity and the scene's atmosphere."""
    flight = world.try_get(entity, Flight)
    category = scene_atmosphere(world).category
    if flight is not None and flight.wings and not rules.winged_flight_possible(category):
        raise WorldError(
            f"entity {entity} flies with wings, which cannot fly in a {category} atmosphere "
            "(Basic Set: Flying Combat > Flight Ceiling): keep it on the ground or give it another way to fly"
        )

"""GURPS movement rules as pure tables and functions: numbers in, numbers out.

Nothing here touches the ECS, so a game can use any rule on its own and every worked example in the
rulebook is a one-line test. Speeds are in yards per second, distances in yards (feet where the rule
counts feet), and modifiers are signed numbers added to the roll's target.

Sources, cited on each rule:

- "Basic Set: ..." is the GURPS 4th Edition Basic Set (High-Speed Movement, Changing Posture in Armor,
  Mounted Combat, Flying Combat); sections the seeds lean on but do not contain (Falling, Damage from
  Collisions, the Size and Speed/Range Table, Encumbrance and Move, shock, maneuvers, the damage table,
  Combat at Different Levels) use the facts in DESIGN.md section 5.
- "House rules: ..." is the campaign's rewrite (Mounts, High Speed Movement, Flying Movement and
  Combat, the "Dragon" rule). Functions for those rules start with ``house_`` or take
  ``variant="house"``.

Readings chosen where a text leaves room are written on the function concerned; the main ones:

- Speeds, Moves, skills and yards moved are whole numbers; the collision and falling formulas and
  ranges accept fractions, since the house rules halve and quarter speeds.
- A Basic Move of 0 cannot turn at all: every turning radius is infinite (:func:`turning_radius`).
- A collision at velocity 0 does no damage: ``Damage(0)`` (:func:`collision_dice`).
- Between rows of the Size and Speed/Range Table, speed and range use the next higher row and size
  the next lower row; the table runs on in decades both ways (:func:`speed_range_modifier`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum, IntEnum
from fractions import Fraction
from typing import Final, Literal, TypeVar

from esper_motion.components.gurps import Maneuver
from esper_motion.ecs.damage import Damage
from esper_motion.ecs.errors import RuleValueError
from esper_motion.ecs.validate import check_bool, check_choice, check_int, check_number

_MOUNTED: Final = "Basic Set: Mounted Combat"
_ENCUMBRANCE: Final = "Basic Set: Encumbrance and Move"
_FALLING: Final = "Basic Set: Falling"
_SIZE_SPEED: Final = "Basic Set: Size and Speed/Range Table"
_LEVELS: Final = "Basic Set: Combat at Different Levels"
_DAMAGE_TABLE: Final = "Basic Set: Damage Table"
_HOUSE_FLYING: Final = "House rules: Flying Movement and Combat"

_E = TypeVar("_E", bound=Enum)

Variant = Literal["basic", "house"]
"""Which rule set a function with two readings follows: the Basic Set or the house rules."""

RadiusVariant = Literal["basic", "house", "realistic"]
"""The three turning-radius formulas (see :func:`turning_radius`)."""

_VARIANTS: Final = ("basic", "house")
_RADIUS_VARIANTS: Final = ("basic", "house", "realistic")


def _enum(owner: str, field: str, value: object, kind: type[_E]) -> _E:
    """Return the member of ``kind`` that ``value`` is or equals by value; raise a clear error otherwise.

    The enums here have string values, so the plain string and a member of another string enum with the
    same value (such as the ``Maneuver`` of ``esper_motion.components.gurps``) are accepted too.
    """
    try:
        return kind(value)  # the member itself, or the member whose value ``value`` equals
    except ValueError:
        shown = ", ".join(repr(member.value) for member in kind)
        raise RuleValueError(owner, field, value, f"a {kind.__name__}: one of {shown}") from None


def _exact(value: float) -> Fraction:
    """``value`` as an exact fraction; a float is read as the decimal it prints as (0.7 is 7/10)."""
    if isinstance(value, int):
        return Fraction(value)
    return Fraction(repr(value))


def _positive(owner: str, field: str, value: object) -> float:
    """Return ``value`` if it is a finite number above 0."""
    number = check_number(owner, field, value, low=0)
    if number == 0:
        raise RuleValueError(owner, field, value, "a finite number above 0")
    return number


def _half_up(value: Fraction) -> int:
    """Round to the nearest whole number, halves up."""
    return math.floor(value + Fraction(1, 2))


# --- Encumbrance ----------------------------------------------------------------------------------


class Encumbrance(IntEnum):
    """Encumbrance levels 0 to 4 (Basic Set: Encumbrance and Move). Any int 0-4 works as well."""

    NONE = 0
    LIGHT = 1
    MEDIUM = 2
    HEAVY = 3
    X_HEAVY = 4


@dataclass(frozen=True, slots=True)
class EncumbranceRow:
    """One encumbrance level: Move as a percentage of Basic Move, and the Dodge modifier."""

    level: Encumbrance
    move_percent: int
    dodge: int
    citation: str


ENCUMBRANCE_TABLE: Final[tuple[EncumbranceRow, ...]] = (
    EncumbranceRow(Encumbrance.NONE, 100, 0, _ENCUMBRANCE),
    EncumbranceRow(Encumbrance.LIGHT, 80, -1, _ENCUMBRANCE),
    EncumbranceRow(Encumbrance.MEDIUM, 60, -2, _ENCUMBRANCE),
    EncumbranceRow(Encumbrance.HEAVY, 40, -3, _ENCUMBRANCE),
    EncumbranceRow(Encumbrance.X_HEAVY, 20, -4, _ENCUMBRANCE),
)
"""Basic Set: Encumbrance and Move, one row per level 0-4."""


def encumbered_move(basic_move: int, level: int) -> int:
    """Move at encumbrance ``level`` (0-4): Basic Move times 1, 0.8, 0.6, 0.4 or 0.2, rounded down.

    The result is never below 1, except that a Basic Move of 0 stays 0: a creature that cannot move
    under its own power gains no Move from the minimum (Basic Set: Encumbrance and Move).

    >>> encumbered_move(5, Encumbrance.HEAVY), encumbered_move(2, 4), encumbered_move(0, 0)
    (2, 1, 0)
    """
    basic_move = check_int("encumbered_move", "basic_move", basic_move, low=0)
    level = check_int("encumbered_move", "level", level, low=0, high=4)
    if basic_move == 0:
        return 0
    return max(1, basic_move * ENCUMBRANCE_TABLE[level].move_percent // 100)


def dodge_encumbrance_penalty(level: int) -> int:
    """Dodge modifier at encumbrance ``level`` (0-4): 0, -1, -2, -3, -4 (Basic Set: Encumbrance and Move)."""
    level = check_int("dodge_encumbrance_penalty", "level", level, low=0, high=4)
    return ENCUMBRANCE_TABLE[level].dodge


def posture_change_seconds(encumbrance_level: int) -> int:
    """Seconds a Change Posture takes under the optional Changing Posture in Armor rule.

    One second at None or Light encumbrance, then one more second per level: Medium 2, Heavy 3,
    X-Heavy 4. Until the change completes the fighter counts as still in the old posture
    (Basic Set: Changing Posture in Armor).
    """
    level = check_int("posture_change_seconds", "encumbrance_level", encumbrance_level, low=0, high=4)
    return max(1, level)


# --- Maneuvers and shock --------------------------------------------------------------------------


_MOVING_MANEUVERS: Final = frozenset({Maneuver.MOVE, Maneuver.MOVE_AND_ATTACK})
_ALL_OUT_MANEUVERS: Final = frozenset(
    {
        Maneuver.ALL_OUT_ATTACK,
        Maneuver.ALL_OUT_DEFENSE,
        Maneuver.ALL_OUT_READY,
        Maneuver.ALL_OUT_CONCENTRATE,
    }
)


def shock_penalty(injury: int) -> int:
    """DX and skill modifier on the next turn after ``injury`` HP of injury: -1 per HP, at most -4.

    The same number is the mount's shock penalty a rider subtracts from Riding when the mount is hit
    (Basic Set: Mounted Combat > Mounted Combat Results).
    """
    injury = check_int("shock_penalty", "injury", injury, low=0)
    return -min(injury, 4)


def move_and_attack_melee_skill(skill: int, dragon: bool = False) -> int:
    """Effective melee skill on a Move and Attack: skill -4, and never above 9.

    ``dragon=True`` applies the house "Dragon" rule for a flier: neither the -4 nor the cap
    (House rules: "Dragon" Rule).
    """
    skill = check_int("move_and_attack_melee_skill", "skill", skill)
    if check_bool("move_and_attack_melee_skill", "dragon", dragon):
        return skill
    return min(skill - 4, 9)


MOVE_AND_ATTACK_DX_MODIFIER: Final = -2
"""Modifier to every DX roll made during a Move and Attack, which the house "Dragon" rule leaves in place for
fliers (House rules: "Dragon" Rule). Neither the Basic Set seeds nor DESIGN.md section 5 give it, so the
systems apply it under the house rules only (``esper_motion.systems.gurps.shared.movers.dx_modifier``)."""

DRAGON_MOVE_YD: Final = 7
"""A flier's Move and Attack melee counts its speed only after more than this many yards of movement
(House rules: "Dragon" Rule)."""


def move_and_attack_ranged_modifier(bulk: int = 0, dragon: bool = False) -> int:
    """Ranged modifier on a Move and Attack: -2 or the weapon's Bulk (a negative number), whichever is
    worse. ``dragon=True``: a flier takes neither (House rules: "Dragon" Rule)."""
    bulk = check_int("move_and_attack_ranged_modifier", "bulk", bulk, high=0)
    if check_bool("move_and_attack_ranged_modifier", "dragon", dragon):
        return 0
    return min(-2, bulk)


# --- High-speed movement --------------------------------------------------------------------------


def is_high_speed(velocity: int, basic_move: int) -> bool:
    """Whether ``velocity`` counts as high speed: above Basic Move (Basic Set: High-Speed Movement).

    Under the house rules pass Encumbered Move as ``basic_move`` (House rules: High Speed Movement).
    """
    velocity = check_int("is_high_speed", "velocity", velocity, low=0)
    basic_move = check_int("is_high_speed", "basic_move", basic_move, low=0)
    return velocity > basic_move


def can_enter_high_speed(
    moved_yd: int, move: int, sixty_degree_turns: int, maneuver: Maneuver | str, standing: bool
) -> bool:
    """Whether a fighter may switch to high speed at the end of this turn.

    It must have moved its full Move (Basic Move modified for encumbrance) in one general direction
    with at most one 60-degree turn, on a Move or Move and Attack, while standing
    (Basic Set: High-Speed Movement). The house rules ask the same with Encumbered Move and one
    hexside turn (House rules: High Speed Movement).
    """
    owner = "can_enter_high_speed"
    moved_yd = check_int(owner, "moved_yd", moved_yd, low=0)
    move = check_int(owner, "move", move, low=0)
    sixty_degree_turns = check_int(owner, "sixty_degree_turns", sixty_degree_turns, low=0)
    chosen = _enum(owner, "maneuver", maneuver, Maneuver)
    standing = check_bool(owner, "standing", standing)
    return moved_yd >= move and sixty_degree_turns <= 1 and chosen in _MOVING_MANEUVERS and standing


def sprint_top_speed(move: int) -> int:
    """Top speed when sprinting without Enhanced Move: Move plus 20% (rounded down), at least Move + 1.

    (Basic Set: High-Speed Movement > Accelerating; the same figure as Sprinting.)

    >>> sprint_top_speed(5), sprint_top_speed(10), sprint_top_speed(13)
    (6, 12, 15)
    """
    move = check_int("sprint_top_speed", "move", move, low=0)
    return max(move * 6 // 5, move + 1)


def entry_velocity_limit(move: int, basic_move: int, enhanced: bool = False) -> int:
    """Highest velocity for the first turn at high speed.

    Move plus 20% (rounded down, at least Move + 1), or, with Enhanced Move or for a vehicle whose top
    speed exceeds its Move, twice Basic Move (Basic Set: High-Speed Movement).
    """
    owner = "entry_velocity_limit"
    move = check_int(owner, "move", move, low=0)
    basic_move = check_int(owner, "basic_move", basic_move, low=0)
    if check_bool(owner, "enhanced", enhanced):
        return 2 * basic_move
    return sprint_top_speed(move)


def max_accelerated_velocity(velocity: int, basic_move: int, top_speed: int) -> int:
    """Highest velocity to record at the end of a turn: up to Basic Move more, but not past top speed.

    A velocity already at or above top speed (after a dive, say) cannot be raised and stays as it is
    (Basic Set: High-Speed Movement > Accelerating). Under the house rules the increase is
    Encumbered Move (House rules: High Speed Movement): pass it as ``basic_move``.
    """
    owner = "max_accelerated_velocity"
    velocity = check_int(owner, "velocity", velocity, low=0)
    basic_move = check_int(owner, "basic_move", basic_move, low=0)
    top_speed = check_int(owner, "top_speed", top_speed, low=0)
    if velocity >= top_speed:
        return velocity
    return min(velocity + basic_move, top_speed)


def house_top_speed(encumbered_move: int, enhanced_move: int = 0) -> int:
    """House maximum speed: the better of Encumbered Move + 20% and the full Move with Enhanced Move.

    Reading: "+20%" rounds down with at least +1, as for sprinting, so that high speed (anything over
    Encumbered Move) is always reachable. ``enhanced_move`` 0 means none
    (House rules: High Speed Movement).
    """
    encumbered_move = check_int("house_top_speed", "encumbered_move", encumbered_move, low=0)
    enhanced_move = check_int("house_top_speed", "enhanced_move", enhanced_move, low=0)
    return max(sprint_top_speed(encumbered_move), enhanced_move)


def turning_radius(velocity: int, move: int, variant: RadiusVariant = "basic") -> int | float:
    """Yards to move straight ahead between 60-degree turns.

    - ``basic``: velocity / Basic Move, rounded down (Basic Set: High-Speed Movement > Direction and
      Turning Radius).
    - ``house``: velocity / Encumbered Move, rounded up; pass Encumbered Move as ``move``
      (House rules: High Speed Movement).
    - ``realistic``: velocity squared / 10, rounded down; ``move`` only matters when it is 0
      (the optional realistic radius in the same Basic Set section).

    A ``move`` of 0 cannot turn under its own power at all, whatever the variant: the radius is
    ``math.inf`` (it can only drift, or be pushed or towed round).

    >>> turning_radius(13, 5), turning_radius(13, 5, "house"), turning_radius(13, 5, "realistic")
    (2, 3, 16)
    """
    velocity = check_int("turning_radius", "velocity", velocity, low=0)
    move = check_int("turning_radius", "move", move, low=0)
    check_choice("turning_radius", "variant", variant, _RADIUS_VARIANTS)
    if move == 0:
        return math.inf
    if variant == "basic":
        return velocity // move
    if variant == "house":
        return -(-velocity // move)
    return velocity**2 // 10


PUSHING_THE_ENVELOPE_DX_BONUS: Final = 3
"""A hasty deceleration or early turn is a DX+3 roll before its own modifier; a driver rolls vehicle
skill plus Handling instead (Basic Set: High-Speed Movement > Pushing the Envelope). The house early
turn is also DX+3 (House rules: High Speed Movement)."""


def hasty_deceleration_modifier(decel: int, basic_move: int) -> int:
    """Roll modifier for cutting speed by ``decel`` in one turn.

    Within Basic Move no roll is needed (0). Beyond it, -1 per two full yards/second over Basic Move,
    on a roll of DX + :data:`PUSHING_THE_ENVELOPE_DX_BONUS`; the roll is due even when that modifier is
    still 0 (one yard/second over). More than twice Basic Move cannot be
    attempted voluntarily and raises :class:`~esper_motion.ecs.errors.RuleValueError`; a forced deceleration that
    large is handled by :func:`footing_deceleration`
    (Basic Set: High-Speed Movement > Pushing the Envelope).

    >>> hasty_deceleration_modifier(9, 5)
    -2
    """
    basic_move = check_int("hasty_deceleration_modifier", "basic_move", basic_move, low=0)
    decel = check_int("hasty_deceleration_modifier", "decel", decel, low=0)
    if decel > 2 * basic_move:
        raise RuleValueError(
            "hasty_deceleration_modifier",
            "decel",
            decel,
            f"0 to {2 * basic_move}: no more than twice Basic Move {basic_move} may be cut on purpose",
        )
    return -(max(0, decel - basic_move) // 2)


def early_turn_modifier(velocity: int, basic_move: int, variant: Variant = "basic") -> int:
    """Roll modifier for turning before the turning radius is covered (or turning tighter).

    - ``basic``: -1 per full Basic Move by which velocity exceeds Basic Move, on a DX+3 roll; the same
      modifier covers a tighter turn such as 120 degrees instead of 60
      (Basic Set: High-Speed Movement > Pushing the Envelope).
    - ``house``: minus the house turning radius, on a DX+3 roll; pass Encumbered Move as
      ``basic_move`` (House rules: High Speed Movement).

    At or below ``basic_move`` the fighter is not at high speed and the result is 0. A ``basic_move``
    of 0 cannot turn under its own power, so it is refused.

    >>> early_turn_modifier(23, 3), early_turn_modifier(23, 3, "house")
    (-6, -8)
    """
    velocity = check_int("early_turn_modifier", "velocity", velocity, low=0)
    basic_move = check_int("early_turn_modifier", "basic_move", basic_move)
    if basic_move < 1:
        raise RuleValueError(
            "early_turn_modifier", "basic_move", basic_move, "1 or more (a Basic Move of 0 cannot turn)"
        )
    check_choice("early_turn_modifier", "variant", variant, _VARIANTS)
    if velocity <= basic_move:
        return 0
    if variant == "house":
        return -int(turning_radius(velocity, basic_move, "house"))
    return -((velocity - basic_move) // basic_move)


@dataclass(frozen=True, slots=True)
class Deceleration:
    """What an end-of-turn deceleration does (see :func:`footing_deceleration`).

    ``new_velocity`` is what the deceleration leaves; ``roll_modifier`` is None when no roll is
    needed, else the modifier to a DX+3 Pushing the Envelope roll (failure loses control);
    ``lost_control`` is True when control is lost with no roll, and then the Losing Control rules
    take over from ``new_velocity``.
    """

    new_velocity: int
    roll_modifier: int | None
    lost_control: bool


def footing_deceleration(velocity: int, extra_points: int, basic_move: int, voluntary: int = 0) -> Deceleration:
    """End-of-turn deceleration forced by bad footing and obstructions, plus any voluntary slowing.

    The extra movement points paid for footing this turn slow the mover by as much; any voluntary
    deceleration adds to that. A total within Basic Move is safe, beyond it needs a Pushing the
    Envelope roll at the hasty-deceleration modifier, and beyond twice Basic Move control is lost
    outright (Basic Set: High-Speed Movement > Tactical Movement).

    ``extra_points`` cannot exceed ``velocity`` (the points the turn had), and ``voluntary`` cannot
    take the velocity below 0.

    >>> footing_deceleration(14, 6, 6)
    Deceleration(new_velocity=8, roll_modifier=None, lost_control=False)
    """
    owner = "footing_deceleration"
    velocity = check_int(owner, "velocity", velocity, low=0)
    extra_points = check_int(owner, "extra_points", extra_points, low=0, high=velocity)
    basic_move = check_int(owner, "basic_move", basic_move, low=0)
    voluntary = check_int(owner, "voluntary", voluntary, low=0, high=velocity - extra_points)
    total = extra_points + voluntary
    new_velocity = velocity - total
    if total <= basic_move:
        return Deceleration(new_velocity, None, False)
    if total <= 2 * basic_move:
        return Deceleration(new_velocity, hasty_deceleration_modifier(total, basic_move), False)
    return Deceleration(new_velocity, None, True)


def skid_yards(remaining_movement: int) -> int:
    """Yards a runner who loses control skids straight ahead before stopping: a quarter of the movement
    left this turn, rounded down (Basic Set: High-Speed Movement > Losing Control)."""
    remaining_movement = check_int("skid_yards", "remaining_movement", remaining_movement, low=0)
    return remaining_movement // 4


@dataclass(frozen=True, slots=True)
class HighSpeedDefense:
    """Which active-defense options a fighter has: dodge, retreat, dive for cover."""

    dodge: bool
    retreat: bool
    dive_for_cover: bool


def high_speed_defense(velocity: int, basic_move: int) -> HighSpeedDefense:
    """Defense options at ``velocity``: at high speed a fighter may dodge but neither retreat nor dive
    for cover; otherwise all three are open (Basic Set: High-Speed Movement > Attacking and Defending)."""
    velocity = check_int("high_speed_defense", "velocity", velocity, low=0)
    basic_move = check_int("high_speed_defense", "basic_move", basic_move, low=0)
    if velocity > basic_move:
        return HighSpeedDefense(dodge=True, retreat=False, dive_for_cover=False)
    return HighSpeedDefense(dodge=True, retreat=True, dive_for_cover=True)


def high_speed_maneuver_allowed(maneuver: Maneuver | str) -> bool:
    """Whether a mover at high speed under its own power keeps control on ``maneuver``: only Move and
    Move and Attack; anything else loses control. This binds a mount, not its rider or a vehicle's
    crew (Basic Set: High-Speed Movement > Maneuvers During High-Speed Movement)."""
    return _enum("high_speed_maneuver_allowed", "maneuver", maneuver, Maneuver) in _MOVING_MANEUVERS


def house_high_speed_maneuver_allowed(
    maneuver: Maneuver | str, velocity: int, top_speed: int, slam: bool = False
) -> bool:
    """House version: Move, Move and Attack, and the All-Out maneuvers (Attack, Defense, Ready,
    Concentrate); an All-Out maneuver only while velocity is at most half the maximum speed, except an
    All-Out Attack that is a slam (``slam=True``) (House rules: High Speed Movement)."""
    owner = "house_high_speed_maneuver_allowed"
    chosen = _enum(owner, "maneuver", maneuver, Maneuver)
    velocity = check_int(owner, "velocity", velocity, low=0)
    top_speed = check_int(owner, "top_speed", top_speed, low=0)
    slam = check_bool(owner, "slam", slam)
    if chosen in _MOVING_MANEUVERS:
        return True
    if chosen not in _ALL_OUT_MANEUVERS:
        return False
    return 2 * velocity <= top_speed or (slam and chosen is Maneuver.ALL_OUT_ATTACK)


def house_out_of_control_velocity(velocity: int, basic_move: int) -> int:
    """Velocity at the end of a turn out of control under the house rules: down by Basic Move, to no
    less than 0 (House rules: High Speed Movement)."""
    velocity = check_int("house_out_of_control_velocity", "velocity", velocity, low=0)
    basic_move = check_int("house_out_of_control_velocity", "basic_move", basic_move, low=0)
    return max(0, velocity - basic_move)


def house_regains_control_automatically(velocity: int, encumbered_move: int) -> bool:
    """House rules: control returns by itself once the velocity has fallen below Encumbered Move;
    otherwise the mover needs a DX roll at the end of its movement (House rules: High Speed Movement)."""
    velocity = check_int("house_regains_control_automatically", "velocity", velocity, low=0)
    encumbered_move = check_int("house_regains_control_automatically", "encumbered_move", encumbered_move, low=0)
    return velocity < encumbered_move


def house_trip_skid_yards(velocity: int, remaining_movement: int) -> int:
    """House rules, losing control on the ground: the faller moves a quarter of its velocity (rounded
    down) or whatever movement is left this turn, whichever is less, then stops
    (House rules: High Speed Movement)."""
    velocity = check_int("house_trip_skid_yards", "velocity", velocity, low=0)
    remaining_movement = check_int("house_trip_skid_yards", "remaining_movement", remaining_movement, low=0)
    return min(velocity // 4, remaining_movement)


def house_trip_fall_yards(velocity: float) -> float:
    """House rules, losing control on the ground: fall damage as from a height of a quarter of the
    velocity; feed the result to :func:`fall_velocity` (House rules: High Speed Movement)."""
    return check_number("house_trip_fall_yards", "velocity", velocity, low=0) / 4


def house_trip_collision_velocity(velocity: float) -> float:
    """House rules, losing control on the ground and hitting something: a collision at half the
    velocity; feed the result to :func:`collision_dice` (House rules: High Speed Movement)."""
    return check_number("house_trip_collision_velocity", "velocity", velocity, low=0) / 2


def house_high_speed_target_range(range_yd: float, target_velocity: int, in_line: bool = False) -> float:
    """House rules: a ranged attack on a target at high speed counts the target's velocity as extra
    range, unless shooter and target move exactly together or exactly opposite, altitude changes
    included (``in_line=True``) (House rules: High Speed Movement)."""
    owner = "house_high_speed_target_range"
    range_yd = check_number(owner, "range_yd", range_yd, low=0)
    target_velocity = check_int(owner, "target_velocity", target_velocity, low=0)
    if check_bool(owner, "in_line", in_line):
        return range_yd
    return range_yd + target_velocity


# --- Collisions and falling -----------------------------------------------------------------------


def collision_dice(hp: int, velocity: float, hard_obstacle: bool = False) -> Damage:
    """Crushing damage one side of a collision takes: (the other side's HP x velocity) / 100 dice.

    Under 1 die: up to 0.25 is 1d-3, up to 0.5 is 1d-2, else 1d-1; from 1 die up, round to the nearest
    die, halves up. For an immovable hard obstacle (ground, wall) pass the mover's own HP with
    ``hard_obstacle=True``: the HP count double and the mover takes what it would inflict. A soft
    obstacle uses its normal HP. A collision at velocity 0 (or with 0 HP) does no damage and returns
    ``Damage(0)`` (Basic Set: Damage from Collisions, as in DESIGN.md section 5).

    >>> str(collision_dice(10, 10)), str(collision_dice(20, 13, hard_obstacle=True))
    ('1d', '5d')
    """
    hp = check_int("collision_dice", "hp", hp, low=0)
    velocity = check_number("collision_dice", "velocity", velocity, low=0)
    multiplier = 2 if check_bool("collision_dice", "hard_obstacle", hard_obstacle) else 1
    dice = Fraction(hp * multiplier) * _exact(velocity) / 100
    if dice == 0:
        return Damage(0)
    if dice <= Fraction(1, 4):
        return Damage(1, -3)
    if dice <= Fraction(1, 2):
        return Damage(1, -2)
    if dice < 1:
        return Damage(1, -1)
    return Damage(_half_up(dice))


def collision_velocity(
    v1: float,
    heading1: float,
    v2: float,
    heading2: float,
    reading: Literal["striker", "closing"] = "striker",
) -> float:
    """Velocity a collision is worked out at; mover 1 is the one that strikes mover 2.

    Headings are compass degrees (any finite number; 360 is 0). Head-on (headings 180 degrees apart)
    the velocities add; rear-end (same heading) the smaller is subtracted from the larger
    (Basic Set: Damage from Collisions, as in DESIGN.md section 5). The text gives no other angle, so:

    - ``striker`` (default): any other angle is a side impact at the striker's velocity ``v1``.
    - ``closing``: the closing speed, the length of the difference of the two velocity vectors; it
      agrees with the two cases above and grows smoothly in between.

    >>> collision_velocity(10, 0, 6, 180), collision_velocity(10, 0, 6, 0), collision_velocity(10, 0, 6, 90)
    (16, 4, 10)
    """
    owner = "collision_velocity"
    v1 = check_number(owner, "v1", v1, low=0)
    heading1 = check_number(owner, "heading1", heading1)
    v2 = check_number(owner, "v2", v2, low=0)
    heading2 = check_number(owner, "heading2", heading2)
    check_choice(owner, "reading", reading, ("striker", "closing"))
    angle = abs(heading1 - heading2) % 360
    angle = min(angle, 360 - angle)
    if angle == 180:
        return v1 + v2
    if angle == 0:
        return abs(v1 - v2)
    if reading == "striker":
        return v1
    return math.sqrt(v1 * v1 + v2 * v2 - 2 * v1 * v2 * math.cos(math.radians(angle)))


@dataclass(frozen=True, slots=True)
class FallRow:
    """One listed fall: the height in yards and the velocity it ends at, at Earth gravity."""

    yards: int
    velocity: int
    citation: str


FALL_VELOCITY_TABLE: Final[tuple[FallRow, ...]] = (
    FallRow(1, 5, _FALLING),
    FallRow(2, 7, _FALLING),
    FallRow(3, 8, _FALLING),
    FallRow(5, 10, _FALLING),
    FallRow(17, 19, _FALLING),
)
"""Basic Set: Falling, the listed heights (DESIGN.md section 5)."""


def fall_velocity(yards: float, gravity: float = 1.0) -> int:
    """Velocity a fall of ``yards`` ends at, in yards/second; a fall is a collision with the ground.

    The listed heights at gravity 1 come from :data:`FALL_VELOCITY_TABLE`; anything else is
    sqrt(21.4 x gravity x yards) rounded to the nearest whole number, halves up. ``gravity`` is in
    Earth gravities (Basic Set: Falling, as in DESIGN.md section 5).

    >>> fall_velocity(3), fall_velocity(100), fall_velocity(3, gravity=0.5)
    (8, 46, 6)
    """
    yards = check_number("fall_velocity", "yards", yards, low=0)
    gravity = check_number("fall_velocity", "gravity", gravity, low=0)
    if gravity == 1:
        for row in FALL_VELOCITY_TABLE:
            if row.yards == yards:
                return row.velocity
    return math.floor(math.sqrt(21.4 * gravity * yards) + 0.5)


# --- Size and Speed/Range Table -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SpeedRangeRow:
    """One row of the Size and Speed/Range Table: a linear measurement and its speed/range modifier.
    The size modifier is the same number with the sign reversed."""

    yards: int
    speed_range: int
    citation: str


SPEED_RANGE_DECADE: Final[tuple[SpeedRangeRow, ...]] = (
    SpeedRangeRow(2, 0, _SIZE_SPEED),
    SpeedRangeRow(3, -1, _SIZE_SPEED),
    SpeedRangeRow(5, -2, _SIZE_SPEED),
    SpeedRangeRow(7, -3, _SIZE_SPEED),
    SpeedRangeRow(10, -4, _SIZE_SPEED),
    SpeedRangeRow(15, -5, _SIZE_SPEED),
)
"""One decade of the Size and Speed/Range Table (2 to 15 yards). The whole table repeats these steps
every factor of ten, 6 rows (and a modifier of 6) per decade: 20 yd -6, 30 yd -7, ... 100 yd -10,
150 yd -11; downward 1.5 yd +1, 1 yd +2, 0.7 yd +3, 0.5 yd +4, 0.3 yd +5, 0.2 yd +6, 0.15 yd +7."""


def _row_yards(index: int) -> Fraction:
    """Linear measurement of the table row ``index`` rows below the 2-yard row (negative: above it)."""
    decade, step = divmod(index, len(SPEED_RANGE_DECADE))
    return Fraction(SPEED_RANGE_DECADE[step].yards) * Fraction(10) ** decade


def _row_at_or_below(yards: Fraction) -> int:
    """Index of the last table row whose measurement is at most ``yards`` (which is above 0)."""
    index = len(SPEED_RANGE_DECADE) * math.floor(math.log10(yards / 2))
    while _row_yards(index) > yards:
        index -= 1
    while _row_yards(index + 1) <= yards:
        index += 1
    return index


def speed_range_modifier(yards: float) -> int:
    """Speed/range modifier for ``yards`` (speed and range added first): 2 yd 0, 3 yd -1, 5 yd -2,
    7 yd -3, 10 yd -4, 15 yd -5, 20 yd -6, ... 100 yd -10, and on by decades
    (Basic Set: Size and Speed/Range Table).

    Between rows the next higher row counts (4 yd reads as 5 yd: -2). Below 2 yd the table runs on
    upward by the same decades (1.5 yd +1, 1 yd +2, 0.7 yd +3, 0.5 yd +4, ...), so very short
    distances give bonuses. ``yards`` must be above 0. Decimal floats are read exactly as written
    (0.7 is the 0.7-yard row).

    >>> speed_range_modifier(2), speed_range_modifier(4), speed_range_modifier(100), speed_range_modifier(1)
    (0, -2, -10, 2)
    """
    exact = _exact(_positive("speed_range_modifier", "yards", yards))
    index = _row_at_or_below(exact)
    if _row_yards(index) != exact:
        index += 1
    return -index


def size_modifier(yards: float) -> int:
    """Size Modifier for an object whose longest dimension is ``yards``: the Size and Speed/Range
    Table with the sign reversed (2 yd 0, 3 yd +1, 5 yd +2, ... 1 yd -2).

    Reading: between rows the next lower row counts, so only an object that reaches a row's
    measurement gets its size (a 2.5-yard object is SM 0). ``yards`` must be above 0
    (Basic Set: Size and Speed/Range Table).

    >>> size_modifier(2), size_modifier(2.5), size_modifier(3), size_modifier(50), size_modifier(1)
    (0, 0, 1, 8, -2)
    """
    return _row_at_or_below(_exact(_positive("size_modifier", "yards", yards)))


# --- Flying ---------------------------------------------------------------------------------------


STALL_RECOVERY_DX_MODIFIER: Final = -4
"""A stalled flier turns its fall into a dive and regains speed on a DX-4 roll each turn
(Basic Set: Flying Combat > Cannot Hover)."""


def stall_speed(top_airspeed: int) -> int:
    """Fewest yards a flier with Cannot Hover (or a glider) must cover each turn: a quarter of its top
    airspeed. Reading: distances are whole yards, so the quarter rounds up (top airspeed 18: 4.5, so
    5 yards); covering less stalls it (Basic Set: Flying Combat > Cannot Hover).

    >>> stall_speed(20), stall_speed(18)
    (5, 5)
    """
    top_airspeed = check_int("stall_speed", "top_airspeed", top_airspeed, low=0)
    return -(-top_airspeed // 4)


def dive_limits(basic_air_move: int, top_airspeed: int) -> tuple[int, int]:
    """(acceleration per turn, top airspeed) on a turn spent only diving on a Move maneuver: basic air
    Move + 10 and twice top airspeed (Basic Set: Flying Combat > Flying Fast)."""
    basic_air_move = check_int("dive_limits", "basic_air_move", basic_air_move, low=0)
    top_airspeed = check_int("dive_limits", "top_airspeed", top_airspeed, low=0)
    return basic_air_move + 10, 2 * top_airspeed


def vertical_move_cost(horizontal_yd: int, vertical_yd: int) -> float:
    """Movement points to move ``horizontal_yd`` across and ``vertical_yd`` up or down in one move.

    Climbing or descending a yard costs the same as a level yard; a 45-degree diagonal yard (one up
    and one across together) costs 1.5 (Basic Set: Flying Combat > Aerial Movement > Changing Height).
    Reading for mixed moves: as many yards as possible pair into diagonals at 1.5 each, and the rest,
    all level or all vertical, cost 1 each (3 across and 1 up: 1.5 + 2 = 3.5).

    >>> vertical_move_cost(1, 1), vertical_move_cost(3, 1), vertical_move_cost(0, 4)
    (1.5, 3.5, 4)
    """
    horizontal_yd = check_int("vertical_move_cost", "horizontal_yd", horizontal_yd, low=0)
    vertical_yd = check_int("vertical_move_cost", "vertical_yd", vertical_yd, low=0)
    diagonal = min(horizontal_yd, vertical_yd)
    straight = max(horizontal_yd, vertical_yd) - diagonal
    if diagonal == 0:
        return straight
    return 1.5 * diagonal + straight


def aerial_retreat_bonus(can_hover: bool, room_vertical: bool) -> int:
    """Extra bonus on top of the usual retreat bonus: +1 for a flier that can hover and has room to
    move a step up or down (Basic Set: Flying Combat > Aerial Attack and Defense). The house rules give
    the same +1 for a hover-capable flier retreating by changing altitude
    (House rules: Flying Movement and Combat)."""
    can_hover = check_bool("aerial_retreat_bonus", "can_hover", can_hover)
    room_vertical = check_bool("aerial_retreat_bonus", "room_vertical", room_vertical)
    return 1 if can_hover and room_vertical else 0


class Breathing(Enum):
    """How an unprotected human breathes at an altitude (see :func:`breathing_limit`)."""

    NORMAL = "normal"
    TROUBLE = "trouble"
    NEEDS_MASK = "needs_mask"


SCALE_HEIGHT_FT: Final = 27_000
"""Feet over which Earth-like air thins by a factor of e; used to scale the breathing limits to other
air pressures (see :func:`breathing_limit`)."""


def breathing_limit(altitude_ft: float, pressure: float = 1.0) -> Breathing:
    """Whether an unprotected human breathes normally at ``altitude_ft``.

    On Earth (``pressure`` 1) breathing is hard above 6,000 ft and needs an oxygen mask (or
    Doesn't Breathe) above 20,000 ft (Basic Set: Flying Combat > Flight Ceiling). The text only says
    denser air allows higher flight and thinner air less. Reading: what matters is the air pressure
    reached, so on a world whose surface pressure is ``pressure`` atmospheres both limits move by
    :data:`SCALE_HEIGHT_FT` x ln(pressure): at 2 atm about 18,700 ft higher, at 0.5 atm as much lower
    (trouble from the ground up). ``pressure`` 0 is vacuum: a mask is needed everywhere.

    >>> breathing_limit(6_000), breathing_limit(6_001), breathing_limit(20_001)
    (<Breathing.NORMAL: 'normal'>, <Breathing.TROUBLE: 'trouble'>, <Breathing.NEEDS_MASK: 'needs_mask'>)
    """
    altitude_ft = check_number("breathing_limit", "altitude_ft", altitude_ft)
    pressure = check_number("breathing_limit", "pressure", pressure, low=0)
    if pressure == 0:
        return Breathing.NEEDS_MASK
    shift = SCALE_HEIGHT_FT * math.log(pressure)
    if altitude_ft > 20_000 + shift:
        return Breathing.NEEDS_MASK
    if altitude_ft > 6_000 + shift:
        return Breathing.TROUBLE
    return Breathing.NORMAL


class Atmosphere(Enum):
    """Categories of atmospheric pressure, thinnest first, as the Basic Set names them for worlds
    (Basic Set: Atmospheric Pressure, referred to from Flying Combat > Flight Ceiling)."""

    VACUUM = "vacuum"
    TRACE = "trace"
    VERY_THIN = "very thin"
    THIN = "thin"
    STANDARD = "standard"
    DENSE = "dense"
    VERY_DENSE = "very dense"
    SUPERDENSE = "superdense"


def winged_flight_possible(atmosphere: Atmosphere | str) -> bool:
    """Whether wings can fly in ``atmosphere``: not with only a trace of air or none at all; in anything
    thicker yes (Basic Set: Flying Combat > Flight Ceiling)."""
    air = _enum("winged_flight_possible", "atmosphere", atmosphere, Atmosphere)
    return air not in (Atmosphere.VACUUM, Atmosphere.TRACE)


@dataclass(frozen=True, slots=True)
class DifferentLevelsRow:
    """Effects of fighting across a height difference of at least ``min_height_ft`` (after reach).

    ``lower_defense`` is the lower fighter's active-defense modifier, ``higher_defense`` the higher
    fighter's; ``legs_out_of_reach_from_above`` means the higher fighter cannot reach the lower one's
    legs and feet, ``head_out_of_reach_from_below`` that the lower cannot reach the higher one's head.
    """

    min_height_ft: int
    lower_defense: int
    higher_defense: int
    legs_out_of_reach_from_above: bool
    head_out_of_reach_from_below: bool
    citation: str


DIFFERENT_LEVELS_TABLE: Final[tuple[DifferentLevelsRow, ...]] = (
    DifferentLevelsRow(0, 0, 0, False, False, _LEVELS),
    DifferentLevelsRow(3, -1, 1, False, False, _LEVELS),
    DifferentLevelsRow(4, -2, 2, True, False, _LEVELS),
    DifferentLevelsRow(5, -3, 3, True, True, _LEVELS),
)
"""The project's default reading of Combat at Different Levels (DESIGN.md section 5), ascending by
height. It is not in the seeds and less certain than the rest: pass another table to
:func:`different_levels` to replace it."""

MOUNTED_HEIGHT_FT: Final = 3
"""A rider on a horse is about this many feet above a standing foe (Basic Set: Mounted Combat >
Height Difference); use it with :func:`different_levels`."""


def different_levels(
    height_ft: float, reach_yd: int = 1, table: Sequence[DifferentLevelsRow] = DIFFERENT_LEVELS_TABLE
) -> DifferentLevelsRow:
    """The row of ``table`` for two fighters ``height_ft`` apart in height, one with ``reach_yd`` reach.

    Each yard of reach past the first cancels 3 ft of the difference (a reach of 0, close combat,
    cancels nothing); the row is the last whose ``min_height_ft`` the remaining difference reaches.
    ``table`` must be in ascending order of height and start at 0 ft
    (Basic Set: Combat at Different Levels, as in DESIGN.md section 5).

    >>> different_levels(MOUNTED_HEIGHT_FT).lower_defense, different_levels(6, reach_yd=2).lower_defense
    (-1, -1)
    """
    height_ft = check_number("different_levels", "height_ft", height_ft, low=0)
    reach_yd = check_int("different_levels", "reach_yd", reach_yd, low=0)
    effective = max(0, height_ft - 3 * max(0, reach_yd - 1))
    chosen = None
    for row in table:
        if row.min_height_ft <= effective:
            chosen = row
    if chosen is None:
        raise RuleValueError("different_levels", "table", table, "rows in ascending order, the first at 0 ft")
    return chosen


def house_can_take_off(ground_velocity: int, top_airspeed: int) -> bool:
    """House rules: a flier that cannot hover takes off only when moving on the ground at no less than
    a quarter of its top air speed (House rules: Flying Movement and Combat)."""
    ground_velocity = check_int("house_can_take_off", "ground_velocity", ground_velocity, low=0)
    top_airspeed = check_int("house_can_take_off", "top_airspeed", top_airspeed, low=0)
    return 4 * ground_velocity >= top_airspeed


def house_climb_speed_loss(climb_yd: int) -> int:
    """House rules: velocity lost at once by climbing ``climb_yd`` this turn, a yard per yard for the
    first 10 yards only. Each yard climbed also takes a yard of movement that cannot go sideways
    (House rules: Flying Movement and Combat)."""
    climb_yd = check_int("house_climb_speed_loss", "climb_yd", climb_yd, low=0)
    return min(climb_yd, 10)


def house_dive_speed_gain(dive_yd: int) -> int:
    """House rules: velocity and maximum speed gained by diving ``dive_yd`` this turn, a yard per yard
    for the first 10 yards only; deeper dives spend horizontal movement a yard per yard. The bonus to
    maximum speed lasts while diving and one more turn per turn spent diving
    (House rules: Flying Movement and Combat)."""
    dive_yd = check_int("house_dive_speed_gain", "dive_yd", dive_yd, low=0)
    return min(dive_yd, 10)


def house_dive_speed_cap(top_speed: int) -> int:
    """House rules: no dive goes faster than the normal maximum speed or 100 yards/second, whichever is
    higher (House rules: Flying Movement and Combat)."""
    top_speed = check_int("house_dive_speed_cap", "top_speed", top_speed, low=0)
    return max(top_speed, 100)


def house_dive_control_modifier(velocity: int, top_speed: int) -> int | None:
    """House rules: a diver faster than its normal maximum speed (without the dive bonus) rolls DX+2 at
    the end of the turn or loses control; returns +2 then, None when no roll is due
    (House rules: Flying Movement and Combat)."""
    velocity = check_int("house_dive_control_modifier", "velocity", velocity, low=0)
    top_speed = check_int("house_dive_control_modifier", "top_speed", top_speed, low=0)
    return 2 if velocity > top_speed else None


@dataclass(frozen=True, slots=True)
class ClimbDiveTurnRow:
    """House rules: a climb or dive of at least ``min_yd`` yards counts as a turn of ``degrees``."""

    min_yd: int
    degrees: int
    citation: str


HOUSE_CLIMB_DIVE_TURN_TABLE: Final[tuple[ClimbDiveTurnRow, ...]] = (
    ClimbDiveTurnRow(0, 0, _HOUSE_FLYING),
    ClimbDiveTurnRow(3, 60, _HOUSE_FLYING),
    ClimbDiveTurnRow(6, 120, _HOUSE_FLYING),
)
"""House rules: Flying Movement and Combat. The text gives 1-2 yards 0 degrees, 3-5 yards 60 and
"more than 6" 120; reading: 6 yards and up is 120, so that no climb falls between rows."""


def house_climb_dive_turn_degrees(yards: int) -> int:
    """House rules: the turn a climb or dive of ``yards`` counts as, for turning radius and control
    rolls: 0-2 yards 0 degrees, 3-5 yards 60, 6 or more 120. Keeping the same climb or dive on later
    turns is not a new turn (House rules: Flying Movement and Combat)."""
    yards = check_int("house_climb_dive_turn_degrees", "yards", yards, low=0)
    return next(row.degrees for row in reversed(HOUSE_CLIMB_DIVE_TURN_TABLE) if yards >= row.min_yd)


def house_cannot_hover_credit(horizontal_yd: int, vertical_yd: int) -> int:
    """House rules: yards that count toward a Cannot Hover flier's minimum movement: every level yard,
    plus one per two full yards climbed or dived (House rules: Flying Movement and Combat)."""
    horizontal_yd = check_int("house_cannot_hover_credit", "horizontal_yd", horizontal_yd, low=0)
    vertical_yd = check_int("house_cannot_hover_credit", "vertical_yd", vertical_yd, low=0)
    return horizontal_yd + vertical_yd // 2


HOUSE_WIPE_OUT_REGAIN_DX_MODIFIER: Final = -4
"""House rules: DX rolls to regain control after a wipe-out are at -4 (House rules: Flying Movement
and Combat)."""


def house_uncontrolled_drop_yd(turn: int, wipe_out: bool = False) -> int:
    """House rules: yards a flier at high speed drops on its ``turn``-th turn out of control (1 is the
    first): 5 a turn after losing control; after a wipe-out, 10 more each turn (10, 20, 30, ...)
    (House rules: Flying Movement and Combat)."""
    turn = check_int("house_uncontrolled_drop_yd", "turn", turn, low=1)
    if check_bool("house_uncontrolled_drop_yd", "wipe_out", wipe_out):
        return 10 * turn
    return 5


def house_height_defense_modifiers(height_yd: float) -> tuple[int, int]:
    """House rules, melee across heights: (your defense modifier, your foe's defense modifier against
    your attacks) for ``height_yd`` yards of height over your foe (negative when below).

    A yard or more above: (+2, -2); a yard or more below, the mirror (-2, +2); less than a yard
    either way: (0, 0) (House rules: Flying Movement and Combat).
    """
    height_yd = check_number("house_height_defense_modifiers", "height_yd", height_yd)
    if height_yd >= 1:
        return 2, -2
    if height_yd <= -1:
        return -2, 2
    return 0, 0


def house_height_range(horizontal_yd: float, height_yd: float, spell: bool = False) -> float:
    """House rules, ranged combat across heights: effective range for a target ``horizontal_yd`` away
    when the attacker is ``height_yd`` yards above it (negative when below).

    Above: the horizontal distance shrinks by 1 per 2 full yards of height, but not below half the
    horizontal distance nor below the height itself, whichever is greater. Below: 1 more yard of
    range per yard of depth; for a spell only half as much (1 per 2 full yards)
    (House rules: Flying Movement and Combat).

    Reading: the range being adjusted is the horizontal distance. Both floors are kept as written,
    though on this reading the height floor is the one that binds (the reduction only reaches half the
    distance once the height exceeds the distance).

    >>> house_height_range(20, 4), house_height_range(20, -4), house_height_range(20, -4, spell=True)
    (18, 24, 22)
    """
    horizontal_yd = check_number("house_height_range", "horizontal_yd", horizontal_yd, low=0)
    height_yd = check_number("house_height_range", "height_yd", height_yd)
    spell = check_bool("house_height_range", "spell", spell)
    if height_yd >= 0:
        return max(horizontal_yd - height_yd // 2, horizontal_yd / 2, height_yd)
    depth = -height_yd
    return horizontal_yd + (depth // 2 if spell else depth)


# --- Mounted combat -------------------------------------------------------------------------------


STUNNED_RIDER_RIDING_MODIFIER: Final = -4
"""A stunned rider rolls Riding-4 or falls off (Basic Set: Mounted Combat > Mounted Combat Results);
the house rules agree (House rules: Mounts)."""

MOUNT_ATTACKED_RIDER_ATTACK_MODIFIER: Final = -2
"""The rider's attacks are at -2 after the mount made an attack on its previous turn (Basic Set: Mounted Combat >
Attacks by Mounts)."""

BUCKING_SHEATHE_DX_MODIFIER: Final = -3
"""Sheathing a weapon on a bucking mount takes a Ready and a DX-3 roll; a critical failure drops it
(Basic Set: Mounted Combat)."""

HOUSE_MOUNT_OUT_OF_CONTROL_RIDER_DX_MODIFIER: Final = -10
"""House rules: while the mount is out of control its rider is at -10 to DX rolls (House rules: Mounts)."""


def riding_control_penalty(hands_on_reins: int) -> int:
    """Riding modifier by hands on the reins: none -3, one -1, two 0 (Basic Set: Mounted Combat)."""
    hands = check_int("riding_control_penalty", "hands_on_reins", hands_on_reins, low=0, high=2)
    return (-3, -1, 0)[hands]


class Training(Enum):
    """How well broken a mount is (Basic Set: Mounted Combat)."""

    WAR_TRAINED = "war-trained"
    WELL_BROKEN = "well-broken"
    NOT_FULLY_BROKEN = "not fully broken"


@dataclass(frozen=True, slots=True)
class TrainingRow:
    """A mount's training: the modifier to combat Riding rolls, and the Riding modifier to make it do
    something risky (charge an obstacle, cross bad footing, jump, turn tight); None means no roll."""

    training: Training
    combat_riding: int
    risky_feat_riding: int | None
    citation: str


TRAINING_TABLE: Final[tuple[TrainingRow, ...]] = (
    TrainingRow(Training.WAR_TRAINED, 0, None, _MOUNTED),
    TrainingRow(Training.WELL_BROKEN, -3, 2, _MOUNTED),
    TrainingRow(Training.NOT_FULLY_BROKEN, -6, 2, _MOUNTED),
)
"""Basic Set: Mounted Combat. A mount that is not fully broken is at -6 "or worse": -6 is the
default, and a game may set worse for its own animals."""


def _training_row(owner: str, training: Training | str) -> TrainingRow:
    chosen = _enum(owner, "training", training, Training)
    return next(row for row in TRAINING_TABLE if row.training is chosen)


def training_penalty(training: Training | str) -> int:
    """Modifier to combat Riding rolls for a mount's training: war-trained 0, well-broken -3, not
    fully broken -6 (Basic Set: Mounted Combat)."""
    return _training_row("training_penalty", training).combat_riding


def risky_feat_riding_modifier(training: Training | str) -> int | None:
    """Riding modifier to make a mount charge into an obstacle, onto bad footing or into a risky
    maneuver: a war-trained mount needs no roll (None), any other takes Riding+2; failure means it
    disobeys and spooks. A life-or-death need for the mount itself needs no roll either
    (Basic Set: Mounted Combat)."""
    return _training_row("risky_feat_riding_modifier", training).risky_feat_riding


def mounting_penalty(stirrups: bool) -> int:
    """Modifier to the Riding, Acrobatics or Jumping roll to leap astride in one turn: -3, or 0 with
    stirrups; any failure is a fall (Basic Set: Mounted Combat > Mounting Up)."""
    return 0 if check_bool("mounting_penalty", "stirrups", stirrups) else -3


def can_couch_lance(saddle: bool, stirrups: bool) -> bool:
    """A rider couches a lance only with both a saddle and stirrups (Basic Set: Mounted Combat >
    Cavalry Weapons > Lances)."""
    saddle = check_bool("can_couch_lance", "saddle", saddle)
    stirrups = check_bool("can_couch_lance", "stirrups", stirrups)
    return saddle and stirrups


def lance_damage(mount_st: int, yards_moved: int) -> Damage:
    """Couched-lance damage: mount ST x yards moved last turn / 100 dice, rounded down, plus 3.

    The dice are those of a collision between mount and target; the +3 is the lance's thrust bonus.
    A war lance does impaling damage; a tournament jousting lance does the same dice and adds as
    crushing, and :func:`jousting_damage_cap` applies its snapping. Below 1 die the rounding leaves
    0 dice, so the damage is the flat 3 (Basic Set: Mounted Combat > Cavalry Weapons > Lances).

    >>> str(lance_damage(25, 8))
    '2d+3'
    """
    mount_st = check_int("lance_damage", "mount_st", mount_st, low=1)
    yards_moved = check_int("lance_damage", "yards_moved", yards_moved, low=0)
    return Damage(mount_st * yards_moved // 100, 3)


def jousting_damage_cap(rolled: int) -> tuple[int, bool]:
    """(damage dealt, lance snapped) for a jousting lance that rolled ``rolled`` damage: above 15
    points it snaps and deals 15 (Basic Set: Mounted Combat > Cavalry Weapons > Lances)."""
    rolled = check_int("jousting_damage_cap", "rolled", rolled, low=0)
    if rolled > 15:
        return 15, True
    return rolled, False


class MountLossKind(str, Enum):
    """What a row of the Mount Loss of Control Table does; the values are plain strings."""

    THROWN = "thrown"
    LOST_GRIP = "lost_grip"
    DROPPED_ITEM = "dropped_item"
    CHARGES_TOWARD = "charges_toward"
    EXHAUSTED = "exhausted"
    FRACTIOUS = "fractious"
    CHARGES_AWAY = "charges_away"
    SADDLE_LOOSE = "saddle_loose"
    MOUNT_FALLS = "mount_falls"


@dataclass(frozen=True, slots=True)
class MountLossRow:
    """One row of the Mount Loss of Control Table, for 2d totals ``low`` to ``high``.

    - ``fall_yd``: yards of fall the rider takes damage for (thrown 3; lost grip 2; mount falls: 3 when
      the rider fails the ``stay_seated_modifier`` roll and is unseated).
    - ``fall_negated_by``: skills whose roll cancels that fall's damage.
    - ``call_back_modifier`` / ``call_back_retry_seconds``: a still-conscious rider may at once roll
      Animal Handling at this modifier to call the mount back, and after a failure again each period.
    - ``roll_again``: roll on the table again (after dropping whatever was held).
    - ``move_limit``: the mount will not fight or move faster than this until it has rested hours.
    - ``riding_modifier`` / ``attack_modifier``: to all Riding rolls / attacks while riding, until the
      cause is fixed; ``cumulative`` if the row stacks each time it comes up.
    - ``repair_seconds_dice``: dice of seconds, after dismounting, to tighten the saddle.
    - ``without_saddle_row``: the row that applies instead to a rider without a saddle.
    - ``mount_dx_modifier``: the mount's DX roll modifier; a failure breaks a leg.
    - ``stay_seated_modifier``: the rider's Riding modifier to stay on the falling mount.
    - ``leap_clear_row``: after staying seated, a Riding roll at minus the rider's encumbrance level
      leaps clear, taking damage as this row; failing it, the mount lands on the rider:
      thrust crushing damage for the mount's ST (:func:`thrust_damage`) plus a fall of
      ``crushed_fall_yd`` yards.
    """

    low: int
    high: int
    kind: MountLossKind
    citation: str
    fall_yd: int = 0
    fall_negated_by: tuple[str, ...] = ()
    call_back_modifier: int | None = None
    call_back_retry_seconds: int | None = None
    roll_again: bool = False
    move_limit: int | None = None
    riding_modifier: int = 0
    attack_modifier: int = 0
    cumulative: bool = False
    repair_seconds_dice: int = 0
    without_saddle_row: int | None = None
    mount_dx_modifier: int | None = None
    stay_seated_modifier: int | None = None
    leap_clear_row: int | None = None
    crushed_fall_yd: int = 0


_LOSS_TABLE: Final = f"{_MOUNTED} > Mount Loss of Control Table"

MOUNT_LOSS_OF_CONTROL_TABLE: Final[tuple[MountLossRow, ...]] = (
    MountLossRow(2, 2, MountLossKind.THROWN, _LOSS_TABLE, fall_yd=3, call_back_modifier=-3,
                 call_back_retry_seconds=300),
    MountLossRow(3, 3, MountLossKind.LOST_GRIP, _LOSS_TABLE, fall_yd=2, fall_negated_by=("Jumping", "Acrobatics"),
                 call_back_modifier=-3, call_back_retry_seconds=300),
    MountLossRow(4, 4, MountLossKind.DROPPED_ITEM, _LOSS_TABLE, roll_again=True),
    MountLossRow(5, 5, MountLossKind.CHARGES_TOWARD, _LOSS_TABLE),
    MountLossRow(6, 7, MountLossKind.EXHAUSTED, _LOSS_TABLE, move_limit=2),
    MountLossRow(8, 9, MountLossKind.FRACTIOUS, _LOSS_TABLE, riding_modifier=-1, cumulative=True),
    MountLossRow(10, 10, MountLossKind.CHARGES_AWAY, _LOSS_TABLE),
    MountLossRow(11, 11, MountLossKind.SADDLE_LOOSE, _LOSS_TABLE, riding_modifier=-3, attack_modifier=-3,
                 repair_seconds_dice=4, without_saddle_row=3),
    MountLossRow(12, 12, MountLossKind.MOUNT_FALLS, _LOSS_TABLE, fall_yd=3, mount_dx_modifier=1,
                 stay_seated_modifier=-2, leap_clear_row=3, crushed_fall_yd=2),
)  # fmt: skip
"""Basic Set: Mounted Combat > Mount Loss of Control Table, rows 2 to 12. The falls assume a
horse-sized mount; adjust ``fall_yd`` for an unusually tall or short one."""


def _loss_row(roll: int) -> MountLossRow:
    return next(row for row in MOUNT_LOSS_OF_CONTROL_TABLE if row.low <= roll <= row.high)


def mount_loss_of_control(roll: int, saddled: bool = True) -> MountLossRow:
    """The Mount Loss of Control Table row for a 2d total ``roll`` (2 to 12).

    A loose saddle (11) on a mount ridden without a saddle (``saddled=False``) reads as row 3. The
    same rows apply without rolling whenever a rider comes off or a mount goes down by other means
    (Basic Set: Mounted Combat > Mount Loss of Control Table).

    >>> mount_loss_of_control(7).kind, mount_loss_of_control(11, saddled=False).kind
    (<MountLossKind.EXHAUSTED: 'exhausted'>, <MountLossKind.LOST_GRIP: 'lost_grip'>)
    """
    roll = check_int("mount_loss_of_control", "roll", roll, low=2, high=12)
    row = _loss_row(roll)
    if not check_bool("mount_loss_of_control", "saddled", saddled) and row.without_saddle_row is not None:
        return _loss_row(row.without_saddle_row)
    return row


class SpookResult(Enum):
    """Where fighting a spooked mount stands after a Riding roll."""

    BUCKING = "bucking"
    CALMED = "calmed"
    LOST_CONTROL = "lost_control"


@dataclass(frozen=True, slots=True)
class SpookState:
    """Running count of consecutive Riding successes and failures against a spooked mount."""

    successes: int = 0
    failures: int = 0

    def __post_init__(self) -> None:
        check_int("SpookState", "successes", self.successes, low=0, high=2)
        check_int("SpookState", "failures", self.failures, low=0, high=2)


def spooked_mount_roll(state: SpookState, success: bool, critical: bool = False) -> tuple[SpookState, SpookResult]:
    """Apply one second's Riding roll (with a Ready) to a spooked, bucking mount.

    A critical success, or a third success in a row, calms it; a critical failure, or a third failure
    in a row, is a total loss of control (roll on :func:`mount_loss_of_control`). Otherwise it keeps
    bucking; both mount and rider may still dodge, nothing else (Basic Set: Mounted Combat > Spooked
    Mounts). The returned state is reset once the mount calms or control is lost.
    """
    if not isinstance(state, SpookState):
        raise RuleValueError("spooked_mount_roll", "state", state, "a SpookState")
    success = check_bool("spooked_mount_roll", "success", success)
    critical = check_bool("spooked_mount_roll", "critical", critical)
    if success:
        if critical or state.successes == 2:
            return SpookState(), SpookResult.CALMED
        return SpookState(successes=state.successes + 1), SpookResult.BUCKING
    if critical or state.failures == 2:
        return SpookState(), SpookResult.LOST_CONTROL
    return SpookState(failures=state.failures + 1), SpookResult.BUCKING


def panic_roll_modifier(combat_reflexes: bool) -> int:
    """Modifier to the Will roll to stand against a cavalry charge: +6 with Combat Reflexes
    (Basic Set: Mounted Combat > Attacks by Mounts > Panic)."""
    return 6 if check_bool("panic_roll_modifier", "combat_reflexes", combat_reflexes) else 0


def panic_roll_needed(foe_sm: int, mount_sm: int) -> bool:
    """Whether a foe charged by cavalry must roll against panic at all: not if its SM is at least the
    mount's (Basic Set: Mounted Combat > Attacks by Mounts > Panic). Whether a foe unused to cavalry
    rolls at all is the GM's call."""
    foe_sm = check_int("panic_roll_needed", "foe_sm", foe_sm)
    mount_sm = check_int("panic_roll_needed", "mount_sm", mount_sm)
    return foe_sm < mount_sm


def cavalry_skill(weapon_skill: int, riding: int, cavalry_training: bool = False) -> int:
    """Effective weapon skill from the saddle: the lower of weapon skill and Riding, for melee and
    ranged weapons alike (Basic Set: Mounted Combat > Cavalry Weapons; Using Ranged Weapons While
    Mounted). Use Driving for an open vehicle. Under the house rules the Cavalry Training perk
    (``cavalry_training=True``) lifts the Riding limit (House rules: Mounts)."""
    weapon_skill = check_int("cavalry_skill", "weapon_skill", weapon_skill)
    riding = check_int("cavalry_skill", "riding", riding)
    if check_bool("cavalry_skill", "cavalry_training", cavalry_training):
        return weapon_skill
    return min(weapon_skill, riding)


def riding_defense_penalty(riding: int) -> int:
    """Modifier to a rider's Dodge, Block and Parry: 0 with Riding 12 or more, else Riding - 12
    (Basic Set: Mounted Combat > Mounted Defense).

    >>> riding_defense_penalty(9)
    -3
    """
    riding = check_int("riding_defense_penalty", "riding", riding)
    return min(0, riding - 12)


def mounted_melee_speed_modifier(relative_velocity: float, variant: Variant = "basic") -> tuple[int, int]:
    """(to-hit modifier, damage bonus) for a melee attack from a mount moving ``relative_velocity``
    yards/second relative to the foe.

    - ``basic``: at 7 or more, -1 to hit and +1 damage; below, nothing (Basic Set: Mounted Combat >
      Cavalry Weapons). The same holds from a motorcycle or other open vehicle.
    - ``house``: the Size value of the relative speed on the Size and Speed/Range Table
      (:func:`size_modifier`) minus 2, as a penalty to hit and a bonus to damage when above 0
      (7 yd/s: -1/+1; 50 yd/s: -6/+6) (House rules: Mounts).
    """
    relative_velocity = check_number("mounted_melee_speed_modifier", "relative_velocity", relative_velocity, low=0)
    check_choice("mounted_melee_speed_modifier", "variant", variant, _VARIANTS)
    if variant == "basic":
        return (-1, 1) if relative_velocity >= 7 else (0, 0)
    if relative_velocity == 0:
        return 0, 0
    bonus = max(0, size_modifier(relative_velocity) - 2)
    return -bonus, bonus


def dragon_melee_speed_modifier(yards_moved: float, relative_velocity: float) -> tuple[int, int]:
    """(to-hit modifier, damage bonus) for a flier's melee attack during a Move and Attack under the
    house "Dragon" rule: only after moving more than 7 yards in the turn, then for the speed relative to
    the target, as the house mounted rule reads it (:func:`mounted_melee_speed_modifier` with
    ``variant="house"``): 7 yd/s relative gives -1/+1, 50 yd/s -6/+6 (House rules: "Dragon" Rule). The yards
    moved only open the rule; a target fleeing as fast as the flier closes gives nothing."""
    owner = "dragon_melee_speed_modifier"
    yards_moved = check_number(owner, "yards_moved", yards_moved, low=0)
    relative_velocity = check_number(owner, "relative_velocity", relative_velocity, low=0)
    if yards_moved <= DRAGON_MOVE_YD:
        return 0, 0
    return mounted_melee_speed_modifier(relative_velocity, "house")


def mounted_aim_limit(mount_moved_yd: int, step_yd: int) -> int | None:
    """Most turns of Aim a rider benefits from: 1 once the mount covers more than a step (nor do scopes
    and targeting systems help then), else None for no limit (Basic Set: Mounted Combat > Using
    Ranged Weapons While Mounted > Aim; House rules: Mounts, which says the same)."""
    mount_moved_yd = check_int("mounted_aim_limit", "mount_moved_yd", mount_moved_yd, low=0)
    step_yd = check_int("mounted_aim_limit", "step_yd", step_yd, low=0)
    return 1 if mount_moved_yd > step_yd else None


@dataclass(frozen=True, slots=True)
class RangedTrick:
    """A riding trick for shooting: its modifier to weapon skill and to Riding rolls that turn."""

    kind: str
    weapon_modifier: int
    riding_modifier: int
    citation: str


_TRICKS: Final = f"{_MOUNTED} > Using Ranged Weapons While Mounted > Tricks"

RANGED_TRICK_TABLE: Final[tuple[RangedTrick, ...]] = (
    RangedTrick("turn_in_saddle", -4, -1, _TRICKS),
    RangedTrick("far_side", -6, -3, _TRICKS),
)
"""Turning in the saddle to shoot behind, and hanging on the far side of the mount to shoot over or
under it (the foe can then target only a foot, the face, eyes or skull, or one hand, and a miss by 4 or less
hits the mount)."""


def ranged_trick(kind: str) -> RangedTrick:
    """The row of :data:`RANGED_TRICK_TABLE` for ``kind``: "turn_in_saddle" (-4 weapon, -1 Riding) or
    "far_side" (-6, -3) (Basic Set: Mounted Combat > Using Ranged Weapons While Mounted > Tricks)."""
    check_choice("ranged_trick", "kind", kind, tuple(row.kind for row in RANGED_TRICK_TABLE))
    return next(row for row in RANGED_TRICK_TABLE if row.kind == kind)


def knockback_unseat_modifier(yards: int, saddle: bool = True, stirrups: bool = True) -> int | None:
    """Riding modifier to stay on after ``yards`` (1 or more) of knockback: -4 per yard with saddle and
    stirrups; without both the rider is knocked off with no roll (None)
    (Basic Set: Mounted Combat > Mounted Combat Results)."""
    yards = check_int("knockback_unseat_modifier", "yards", yards, low=1)
    saddle = check_bool("knockback_unseat_modifier", "saddle", saddle)
    stirrups = check_bool("knockback_unseat_modifier", "stirrups", stirrups)
    if not (saddle and stirrups):
        return None
    return -4 * yards


def house_unseat_modifier(stunned: bool, knockback_yd: int, war_saddle: bool = False, stirrups: bool = False) -> int:
    """House rules: Riding modifier to stay mounted when stunned and/or knocked back: -4 if stunned,
    -4 per yard of knockback, one roll for both; a war saddle gives +3 and stirrups +1. A rider
    strapped into the saddle cannot be knocked off, and a failed roll then costs a Ready maneuver
    and, after knockback, :func:`house_strapped_trauma` (House rules: Mounts).

    >>> house_unseat_modifier(True, 2, war_saddle=True, stirrups=True)
    -8
    """
    owner = "house_unseat_modifier"
    stunned = check_bool(owner, "stunned", stunned)
    knockback_yd = check_int(owner, "knockback_yd", knockback_yd, low=0)
    war_saddle = check_bool(owner, "war_saddle", war_saddle)
    stirrups = check_bool(owner, "stirrups", stirrups)
    if not stunned and knockback_yd == 0:
        raise RuleValueError(owner, "knockback_yd", knockback_yd, "1 or more when the rider is not stunned")
    modifier = -4 * knockback_yd
    if stunned:
        modifier -= 4
    if war_saddle:
        modifier += 3
    if stirrups:
        modifier += 1
    return modifier


def house_strapped_trauma(knockback_yd: int) -> int:
    """House rules: points of blunt trauma a rider strapped into the saddle takes on failing the
    Riding roll after knockback: 1 per yard (House rules: Mounts)."""
    return check_int("house_strapped_trauma", "knockback_yd", knockback_yd, low=0)


@dataclass(frozen=True, slots=True)
class MultipleRiders:
    """Two riders on one mount: the controlling rider's Riding, and the skill the passenger rolls
    against to avoid falling off."""

    controller_riding: int
    passenger_stay_on: int


def multiple_riders(controller_riding: int, passenger_st: int) -> MultipleRiders:
    """Riding with a passenger behind (horse-sized mount or bigger, passenger human-sized or smaller):
    the controller is at -1 to Riding; the passenger rolls the lower of the controller's Riding (before
    that -1) and the passenger's own ST, at -3, to stay on (Basic Set: Mounted Combat > Multiple
    Riders).

    >>> multiple_riders(13, 10)
    MultipleRiders(controller_riding=12, passenger_stay_on=7)
    """
    controller_riding = check_int("multiple_riders", "controller_riding", controller_riding)
    passenger_st = check_int("multiple_riders", "passenger_st", passenger_st, low=0)
    return MultipleRiders(controller_riding - 1, min(controller_riding, passenger_st) - 3)


@dataclass(frozen=True, slots=True)
class ThrustRow:
    """Thrust damage from ``min_st`` up to the next row's ST."""

    min_st: int
    damage: Damage
    citation: str


THRUST_TABLE: Final[tuple[ThrustRow, ...]] = tuple(
    ThrustRow(st, Damage(dice, adds), _DAMAGE_TABLE)
    for st, dice, adds in (
        (1, 1, -6), (3, 1, -5), (5, 1, -4), (7, 1, -3), (9, 1, -2), (11, 1, -1), (13, 1, 0), (15, 1, 1),
        (17, 1, 2), (19, 2, -1), (21, 2, 0), (23, 2, 1), (25, 2, 2), (27, 3, -1), (29, 3, 0), (31, 3, 1),
        (33, 3, 2), (35, 4, -1), (37, 4, 0), (39, 4, 1), (45, 5, 0), (50, 5, 2), (55, 6, 0), (60, 7, -1),
        (65, 7, 1), (70, 8, 0), (75, 8, 2), (80, 9, 0), (85, 9, 2), (90, 10, 0), (95, 10, 2), (100, 11, 0),
    )
)  # fmt: skip
"""Basic Set: Damage Table, thrust column, ST 1 to 100: two ST per step up to 40, then the listed
rows every 5 ST."""


def thrust_damage(st: int) -> Damage:
    """Basic thrust damage for ``st`` (1 or more), as used for a mount falling on its rider.

    ST 1-100 come from :data:`THRUST_TABLE`; an ST between listed rows (41-44, 46-49, ...) uses the
    row below it. Above 100: 1 die per full 10 ST, plus 1 die (ST 110: 12d)
    (Basic Set: Damage Table).

    >>> str(thrust_damage(10)), str(thrust_damage(25)), str(thrust_damage(120))
    ('1d-2', '2d+2', '13d')
    """
    st = check_int("thrust_damage", "st", st, low=1)
    if st > 100:
        return Damage(st // 10 + 1)
    return next(row.damage for row in reversed(THRUST_TABLE) if row.min_st <= st)

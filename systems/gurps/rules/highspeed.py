"""High-Speed Movement (Basic Set) and the house rules' High Speed Movement: entering high speed, top speed and
acceleration, the turning radius, pushing the envelope, footing, losing control, defenses and maneuvers at
speed."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final

from esper_motion.components.gurps import Maneuver
from esper_motion.ecs.errors import RuleValueError
from esper_motion.ecs.validate import check_bool, check_choice, check_int, check_number
from esper_motion.systems.gurps.rules._common import _enum
from esper_motion.systems.gurps.rules.tables import _VARIANTS, Reading, Variant, encumbered_move


class RadiusVariant(Reading):
    """The turning-radius readings (``Rules.turning_radius``); what each does is its row of
    :data:`RADIUS_READINGS`."""

    BASIC = "basic"
    HOUSE = "house"
    REALISTIC = "realistic"


@dataclass(frozen=True, slots=True)
class RadiusReading:
    """What one turning-radius reading decides, in one row of :data:`RADIUS_READINGS`.

    - ``yards``: the radius at a velocity, for a Move of 1 or more (:func:`turning_radius` gives a Move of 0
      ``math.inf`` whatever the reading).
    - ``encumbered``: whether the Move it reads is Encumbered Move rather than Basic Move, for the radius and the
      early-turn modifier alike.
    - ``early_turn``: the reading of the early-turn modifier played with it (:func:`early_turn_modifier`).
    """

    yards: Callable[[int, int], int]
    encumbered: bool
    early_turn: Variant


RADIUS_READINGS: Final[Mapping[RadiusVariant, RadiusReading]] = MappingProxyType(
    {
        # Basic Set: High-Speed Movement > Direction and Turning Radius: velocity / Basic Move, rounded down.
        RadiusVariant.BASIC: RadiusReading(lambda velocity, move: velocity // move, False, Variant.BASIC),
        # House rules: High Speed Movement: velocity / Encumbered Move, rounded up.
        RadiusVariant.HOUSE: RadiusReading(lambda velocity, move: -(-velocity // move), True, Variant.HOUSE),
        # The optional realistic radius of the same Basic Set section: velocity squared / 10, rounded down.
        RadiusVariant.REALISTIC: RadiusReading(lambda velocity, _move: velocity**2 // 10, False, Variant.BASIC),
    }
)
"""Each turning-radius reading beside its peers: a new reading is one row here and its tests."""

_RADIUS_VARIANTS: Final = tuple(RadiusVariant)

MOVING_MANEUVERS: Final = frozenset({Maneuver.MOVE, Maneuver.MOVE_AND_ATTACK})
"""The maneuvers that spend the turn's movement: the only ones a mover at high speed keeps control on, and the
only ones that keep a flier that cannot hover in the air (Basic Set: High-Speed Movement; Flying Combat > Cannot
Hover)."""

_ALL_OUT_MANEUVERS: Final = frozenset(
    {
        Maneuver.ALL_OUT_ATTACK,
        Maneuver.ALL_OUT_DEFENSE,
        Maneuver.ALL_OUT_READY,
        Maneuver.ALL_OUT_CONCENTRATE,
    }
)


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
    return moved_yd >= move and sixty_degree_turns <= 1 and chosen in MOVING_MANEUVERS and standing


def sprint_top_speed(move: int) -> int:
    """Top speed when sprinting without Enhanced Move: Move plus 20% (rounded down), at least Move + 1.

    (Basic Set: High-Speed Movement > Accelerating; the same figure as Sprinting.)

    >>> sprint_top_speed(5), sprint_top_speed(10), sprint_top_speed(13)
    (6, 12, 15)
    """
    move = check_int("sprint_top_speed", "move", move, low=0)
    return max(move * 6 // 5, move + 1)


def encumbered_top_speed(move: int, rated: int | None, encumbrance: int) -> int:
    """Basic Set top speed at ``encumbrance`` (0-4): a ``rated`` top speed (Enhanced Move, a vehicle's figure)
    times 1, 0.8, 0.6, 0.4 or 0.2 as Move is, or without one 20% over the Encumbered ``move``
    (:func:`sprint_top_speed`). A mount's gallop is reduced as its Move is, since encumbrance applies
    normally (Basic Set: Mounted Combat > Movement and Maneuvers; Encumbrance and Move).

    >>> encumbered_top_speed(4, 16, 2), encumbered_top_speed(8, 16, 0), encumbered_top_speed(4, None, 2)
    (9, 16, 5)
    """
    move = check_int("encumbered_top_speed", "move", move, low=0)
    if rated is None:
        return sprint_top_speed(move)
    rated = check_int("encumbered_top_speed", "rated", rated, low=0)
    return encumbered_move(rated, encumbrance)


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


def turning_radius(velocity: int, move: int, variant: RadiusVariant = RadiusVariant.BASIC) -> int | float:
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
    return RADIUS_READINGS[variant].yards(velocity, move)


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


def early_turn_modifier(velocity: int, basic_move: int, variant: Variant = Variant.BASIC) -> int:
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
    variant = Variant(check_choice("early_turn_modifier", "variant", variant, _VARIANTS))
    if velocity <= basic_move:
        return 0
    if variant is Variant.HOUSE:
        return -int(turning_radius(velocity, basic_move, RadiusVariant.HOUSE))
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
    return _enum("high_speed_maneuver_allowed", "maneuver", maneuver, Maneuver) in MOVING_MANEUVERS


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
    if chosen in MOVING_MANEUVERS:
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

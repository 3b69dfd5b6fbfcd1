"""Mounted Combat (Basic Set) and the house rules' Mounts: training and reins, risky feats, mounting up, cavalry
weapons and lances, the Mount Loss of Control Table, spooked mounts, panic, mounted defense and shooting,
staying on, and multiple riders."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Final

from esper_motion.ecs.damage import Damage
from esper_motion.ecs.errors import RuleValueError
from esper_motion.ecs.validate import check_bool, check_choice, check_int, check_number
from esper_motion.systems.gurps.rules._common import _enum
from esper_motion.systems.gurps.rules.tables import _VARIANTS, Variant, size_modifier

_MOUNTED: Final = "Basic Set: Mounted Combat"

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

MOUNTED_HEIGHT_FT: Final = 3
"""A rider on a horse is about this many feet above a standing foe (Basic Set: Mounted Combat >
Height Difference); use it with :func:`different_levels`."""


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


def mounted_melee_speed_modifier(relative_velocity: float, variant: Variant = Variant.BASIC) -> tuple[int, int]:
    """(to-hit modifier, damage bonus) for a melee attack from a mount moving ``relative_velocity``
    yards/second relative to the foe.

    - ``basic``: at 7 or more, -1 to hit and +1 damage; below, nothing (Basic Set: Mounted Combat >
      Cavalry Weapons). The same holds from a motorcycle or other open vehicle.
    - ``house``: the Size value of the relative speed on the Size and Speed/Range Table
      (:func:`size_modifier`) minus 2, as a penalty to hit and a bonus to damage when above 0
      (7 yd/s: -1/+1; 50 yd/s: -6/+6) (House rules: Mounts).
    """
    relative_velocity = check_number("mounted_melee_speed_modifier", "relative_velocity", relative_velocity, low=0)
    if Variant(check_choice("mounted_melee_speed_modifier", "variant", variant, _VARIANTS)) is Variant.BASIC:
        return (-1, 1) if relative_velocity >= 7 else (0, 0)
    if relative_velocity == 0:
        return 0, 0
    bonus = max(0, size_modifier(relative_velocity) - 2)
    return -bonus, bonus


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

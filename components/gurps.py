"""Components the GURPS rules read and write: body, intent, control state, posture, condition, terrain.

Per-turn state lives in fields of components that stay on the entity (docs/architecture.md > Performance): the systems
change ``Control.state`` or ``Intent.throttle``; they never add or remove components in the hot path.

Enumerated fields accept a member or its value text (``"high speed"`` for ``MoveState.HIGH_SPEED``) and keep the
member, since the systems compare members by identity; anything else is refused with the allowed values.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Final

from esper_motion.components.motion import MAX_ALTITUDE_YD, MAX_MOVE, MAX_SPEED_YPS
from esper_motion.components.mount import Rider
from esper_motion.ecs.errors import RuleValueError
from esper_motion.ecs.hexgrid import Hex, check_hex
from esper_motion.ecs.links import LinkError, LinkView
from esper_motion.ecs.registry import register
from esper_motion.ecs.validate import check_bool, check_choice, check_int, check_number


class Maneuver(str, Enum):
    """The combat maneuvers of the Basic Set (and the All-Out ones the house rules allow at speed)."""

    AIM = "Aim"
    ALL_OUT_ATTACK = "All-Out Attack"
    ALL_OUT_DEFENSE = "All-Out Defense"
    ALL_OUT_READY = "All-Out Ready"
    ALL_OUT_CONCENTRATE = "All-Out Concentrate"
    ATTACK = "Attack"
    CHANGE_POSTURE = "Change Posture"
    CONCENTRATE = "Concentrate"
    DO_NOTHING = "Do Nothing"
    EVALUATE = "Evaluate"
    FEINT = "Feint"
    MOVE = "Move"
    MOVE_AND_ATTACK = "Move and Attack"
    READY = "Ready"
    WAIT = "Wait"


class MoveState(str, Enum):
    """How an entity is moving: ordinary movement, high speed, or out of control."""

    NORMAL = "normal"
    HIGH_SPEED = "high speed"
    OUT_OF_CONTROL = "out of control"


class LossCause(str, Enum):
    """Why an entity lost control (Basic Set: High-Speed Movement > Losing Control).

    Three or more wheels keep a vehicle upright unless the loss came from a critical failure or an
    injury (``CRITICAL_FAILURE``, ``STUNNED``, ``UNCONSCIOUS``). ``WIPE_OUT`` is a flier that lost all lift
    (House rules: Flying Movement and Combat). ``UNCONTROLLED`` is a vehicle at speed with nobody at its
    controls (Basic Set: High-Speed Movement > Maneuvers During High-Speed Movement); it is no injury, so
    three wheels still only decelerate.
    """

    MANEUVER = "maneuver"
    STUNNED = "stunned"
    UNCONSCIOUS = "unconscious"
    FAILED_ROLL = "failed roll"
    CRITICAL_FAILURE = "critical failure"
    FOOTING = "footing"
    TOP_SPEED = "top speed below velocity"
    WIPE_OUT = "wipe out"
    UNCONTROLLED = "nobody at the controls"

    @property
    def from_injury_or_critical(self) -> bool:
        """Whether this cause denies the stability of three or more wheels."""
        return self in (LossCause.CRITICAL_FAILURE, LossCause.STUNNED, LossCause.UNCONSCIOUS)


FacingChange = tuple[int, int]
"""One change of facing along a path: ``(at_yd, hexsides)``, the yard of the path where it happens and the hexsides
turned (positive counterclockwise)."""


def check_facing_changes(owner: str, name: str, changes: object, *, most: int = 1) -> tuple[FacingChange, ...]:
    """Refuse anything but a tuple of ``(at_yd, hexsides)`` pairs of whole numbers at yards that strictly increase
    (``at_yd`` 0 to ``MAX_SPEED_YPS``, the most a path can run), each of 1 to ``most`` hexsides either way; return
    it."""
    if not isinstance(changes, tuple):
        raise RuleValueError(owner, name, changes, "a tuple of (at_yd, hexsides) pairs")
    after = -1
    for index, change in enumerate(changes):
        where = f"{name}[{index}]"
        if not isinstance(change, tuple) or len(change) != 2:
            raise RuleValueError(owner, where, change, "an (at_yd, hexsides) pair")
        after = check_int(owner, f"{where}[0]", change[0], low=after + 1, high=MAX_SPEED_YPS)
        hexsides = check_int(owner, f"{where}[1]", change[1], low=-most, high=most)
        if hexsides == 0:
            raise RuleValueError(owner, f"{where}[1]", hexsides, f"1 to {most} hexsides either way, not 0")
    return changes


class PostureState(str, Enum):
    """Body postures the movement rules care about."""

    STANDING = "standing"
    KNEELING = "kneeling"
    SITTING = "sitting"
    CRAWLING = "crawling"
    PRONE = "prone"


_MANEUVERS: Final = tuple(Maneuver)
_MOVE_STATES: Final = tuple(MoveState)
_LOSS_CAUSES: Final = tuple(LossCause)
_POSTURES: Final = tuple(PostureState)
"""The members of each enum, which the constructor checks choose from."""


@register("gurps.Mover")
@dataclass(slots=True)
class Mover:
    """The numbers a GURPS character, creature or vehicle moves with.

    ``basic_move`` is ground Basic Move (0 means it cannot turn under its own power). ``top_speed`` is the
    rated top speed from Enhanced Move or a vehicle's statistics; ``None`` means the sprinting top speed,
    20% over Move. ``enhanced`` marks the Enhanced Move advantage, which the rules know by its top speed: it
    needs ``top_speed`` (Basic Set: High-Speed Movement; Accelerating). ``wheels`` of 3 or more make a
    vehicle stable when it loses control. ``handling`` and ``operator_skill`` are set for a vehicle: its
    driver rolls skill plus Handling where a person rolls DX; a vehicle with ``handling`` and no
    ``operator_skill`` has nobody driving it (unless it is a mount with a rider, such as a motorcycle), and
    loses control at high speed. ``basic_speed`` orders initiative (highest first). ``water_move`` is basic
    water Move; while ``swimming`` it takes the place of Basic Move (and ``top_speed``, if set, is the rated
    top speed in water). A flier's air Move lives in ``esper_motion.components.flight.Flight``.
    """

    basic_move: int
    dx: int = 10
    ht: int = 10
    hp: int = 10
    st: int = 10
    basic_speed: float = 5.0
    encumbrance: int = 0
    top_speed: int | None = None
    enhanced: bool = False
    wheels: int = 0
    legs: bool = True
    handling: int | None = None
    operator_skill: int | None = None
    size_modifier: int = 0
    water_move: int | None = None
    swimming: bool = False

    def __post_init__(self) -> None:
        check_int("Mover", "basic_move", self.basic_move, low=0, high=MAX_MOVE)
        for name in ("dx", "ht", "hp", "st"):
            check_int("Mover", name, getattr(self, name), low=1)
        check_number("Mover", "basic_speed", self.basic_speed, low=0)
        check_int("Mover", "encumbrance", self.encumbrance, low=0, high=4)
        if self.top_speed is not None:
            check_int("Mover", "top_speed", self.top_speed, low=0, high=MAX_MOVE)
        check_bool("Mover", "enhanced", self.enhanced)
        if self.enhanced and self.top_speed is None:
            raise RuleValueError(
                "Mover",
                "enhanced",
                self.enhanced,
                "False unless top_speed is set: Enhanced Move is given as its top speed",
            )
        check_int("Mover", "wheels", self.wheels, low=0)
        check_bool("Mover", "legs", self.legs)
        if self.handling is not None:
            check_int("Mover", "handling", self.handling)
        if self.operator_skill is not None:
            check_int("Mover", "operator_skill", self.operator_skill, low=0)
        check_int("Mover", "size_modifier", self.size_modifier, low=-30, high=30)  # 0.00002 to 200,000 yards tall
        if self.water_move is not None:
            check_int("Mover", "water_move", self.water_move, low=0, high=MAX_MOVE)
        check_bool("Mover", "swimming", self.swimming)
        if self.swimming and self.water_move is None:
            raise RuleValueError("Mover", "swimming", self.swimming, "False unless water_move is set")


@register("gurps.Intent", new_fields={3: ("turns",)})
@dataclass(slots=True)
class Intent:
    """What the game asks of the entity this turn, written before ``World.step``.

    ``throttle`` is the change of velocity wanted in yards per second (positive accelerates, negative
    decelerates): at high speed at the end of the turn; in ordinary movement at once, for this turn's yards
    within what the maneuver allows, and what it asks past Move enters high speed at the end of an eligible
    turn. ``turn`` is the facing change wanted this turn in hexsides (positive counterclockwise, at most
    two: a 120-degree turn). ``turn_at_yd`` is how far along the path to turn; ``None`` means as soon as the
    turning radius allows. ``push`` allows the risky options of Pushing the Envelope (an early or tight
    turn, hasty deceleration) at the price of a roll. ``veer`` picks, yard by yard along the path, which
    front hex to enter without changing facing: -1 front-right, 0 straight ahead (the default past its end),
    1 front-left (Basic Set: High-Speed Movement > Direction and Turning Radius); there is no sidestep or
    step back. ``slam`` marks an All-Out Attack as a slam, the one All-Out maneuver the house rules allow at
    any speed (House rules: High Speed Movement); it is refused on any other maneuver. ``turns`` asks instead for
    several changes of facing along the path, each ``(at_yd, hexsides)`` of one hexside (1 or -1) at yards that
    strictly increase; at high speed each must come a full turning radius after the one before (the first, once the
    radius since the last change of facing is run), or it is an early turn that needs ``push`` and its roll (Basic
    Set: High-Speed Movement > Direction and Turning Radius; Tactical Movement: a 60-degree turn is one hexside).
    With ``turns``, ``turn`` is 0 and ``turn_at_yd`` None. ``life_or_death`` marks
    this turn's risky feats (bad footing, an obstacle, a jump on the path) as a matter of life and death for a
    mount, which then does them without its rider's Riding+2 (Basic Set: Mounted Combat); the game's call.
    """

    maneuver: Maneuver = Maneuver.MOVE
    throttle: int = 0
    turn: int = 0
    turn_at_yd: int | None = None
    push: bool = False
    veer: tuple[int, ...] = ()
    slam: bool = False
    life_or_death: bool = False
    turns: tuple[FacingChange, ...] = ()

    def __post_init__(self) -> None:
        if (  # the common case, passed at once: a game may write every mover's intent each turn
            self.maneuver.__class__ is Maneuver
            and self.throttle.__class__ is int
            and -MAX_SPEED_YPS <= self.throttle <= MAX_SPEED_YPS
            and self.turn.__class__ is int
            and -2 <= self.turn <= 2
            and self.turn_at_yd is None
            and self.push.__class__ is bool
            and self.veer.__class__ is tuple
            and not self.veer
            and self.slam is False
            and self.life_or_death.__class__ is bool
            and self.turns.__class__ is tuple
            and not self.turns
        ):
            return
        if self.maneuver.__class__ is not Maneuver:  # a member passes as it is
            self.maneuver = Maneuver(check_choice("Intent", "maneuver", self.maneuver, _MANEUVERS))
        check_int("Intent", "throttle", self.throttle, low=-MAX_SPEED_YPS, high=MAX_SPEED_YPS)
        check_int("Intent", "turn", self.turn, low=-2, high=2)
        if self.turn_at_yd is not None:
            check_int("Intent", "turn_at_yd", self.turn_at_yd, low=0, high=MAX_SPEED_YPS)
        check_bool("Intent", "push", self.push)
        if not isinstance(self.veer, tuple) or len(self.veer) > MAX_SPEED_YPS:
            raise RuleValueError(
                "Intent", "veer", self.veer, f"a tuple of -1, 0 and 1, one per yard, at most {MAX_SPEED_YPS:,}"
            )
        for index, side in enumerate(self.veer):
            check_int("Intent", f"veer[{index}]", side, low=-1, high=1)
        check_bool("Intent", "slam", self.slam)
        check_bool("Intent", "life_or_death", self.life_or_death)
        check_facing_changes("Intent", "turns", self.turns)
        if self.turns and (self.turn or self.turn_at_yd is not None):
            raise RuleValueError(
                "Intent", "turns", self.turns, "() while turn or turn_at_yd is set: one turn, or a sequence in turns"
            )
        if self.slam and self.maneuver is not Maneuver.ALL_OUT_ATTACK:
            raise RuleValueError("Intent", "slam", self.slam, "False unless the maneuver is All-Out Attack")


@register("gurps.Control", new_fields={3: ("turn_plan",)})
@dataclass(slots=True)
class Control:
    """Movement state carried from turn to turn, and this turn's record for the renderer and replay.

    ``straight_yd`` counts yards moved straight ahead since the last change of facing (the turning radius
    is measured against it). ``moved_yd`` and ``path`` describe the turn just resolved: ``path`` every hex entered,
    the walk's and then those entered outside it (a skid, knockback, a flier's retreat step), so that it ends where
    the entity stands; ``moved_yd`` the yards of the walk and a skid. ``extra_cost``
    holds movement points paid for bad footing this turn, which decelerate at the end of the turn.

    Carried from turn to turn: ``loss_cause`` says why control was lost while ``state`` is out of control;
    ``carried_by`` names the mount or vehicle carrying this entity, which then does not move under its own
    power (the GURPS movement systems leave it alone).

    This turn's record, cleared when the turn opens: ``turned_hexsides`` (facing changes made),
    ``turn_yd`` (the yard of the path where the planned turn happens, the first of them for several),
    ``turn_plan`` (every change of facing planned for the path, ``(at_yd, hexsides)`` in order), ``lost_at_yd``
    (the yard of this turn's path where control was lost this turn, 0 before moving; None when it was lost in an
    earlier turn or not at all), ``struck`` (what the path ran into), ``halted`` (the entity's turn is over: it
    moves no further and its velocity changes no more this turn) and ``straight_before_yd`` (``straight_yd`` as
    the turn opened, for the systems that follow the walk).
    """

    state: MoveState = MoveState.NORMAL
    straight_yd: int = 0
    moved_yd: int = 0
    extra_cost: int = 0
    path: list[Hex] = field(default_factory=list)
    loss_cause: LossCause | None = None
    carried_by: int | None = None
    turned_hexsides: int = 0
    turn_yd: int | None = None
    turn_plan: tuple[FacingChange, ...] = ()
    lost_at_yd: int | None = None
    struck: int | None = None
    halted: bool = False
    straight_before_yd: int = 0

    def __post_init__(self) -> None:
        if self.state.__class__ is not MoveState:
            self.state = MoveState(check_choice("Control", "state", self.state, _MOVE_STATES))
        check_int("Control", "straight_yd", self.straight_yd, low=0)
        check_int("Control", "straight_before_yd", self.straight_before_yd, low=0)
        check_int("Control", "moved_yd", self.moved_yd, low=0)
        check_int("Control", "extra_cost", self.extra_cost, low=0)
        if not isinstance(self.path, list) or len(self.path) > MAX_SPEED_YPS + 1:
            raise RuleValueError(
                "Control", "path", self.path, f"a list of hexes (q, r), at most {MAX_SPEED_YPS + 1:,} (one a yard)"
            )
        for index, hex in enumerate(self.path):
            check_hex("Control", f"path[{index}]", hex)
        if self.loss_cause is not None:
            self.loss_cause = LossCause(check_choice("Control", "loss_cause", self.loss_cause, _LOSS_CAUSES))
        if (self.state is MoveState.OUT_OF_CONTROL) != (self.loss_cause is not None):
            raise RuleValueError(
                "Control", "loss_cause", self.loss_cause, "a LossCause exactly when state is out of control"
            )
        for name in ("carried_by", "turn_yd", "lost_at_yd", "struck"):
            value = getattr(self, name)
            if value is not None:
                check_int("Control", name, value, low=0)
        check_int("Control", "turned_hexsides", self.turned_hexsides, low=0)
        check_facing_changes("Control", "turn_plan", self.turn_plan, most=2)
        check_bool("Control", "halted", self.halted)

    def links(self) -> tuple[int, ...]:
        """The entity carrying this one, if any (``struck`` is this turn's record, not a link)."""
        return () if self.carried_by is None else (self.carried_by,)

    def check_links(self, entity: int, view: LinkView) -> None:
        """Refuse an entity carrying itself, or a rider whose ``carried_by`` is not its ``Rider.mount`` (a seated
        rider is carried by its mount, one on foot by nothing: see ``esper_motion.systems.gurps.mounted.common.seat``).
        """
        carrier = self.carried_by
        if carrier == entity:
            raise LinkError(entity, "Control", "carried_by", carrier, "an entity cannot carry itself")
        rider = view.get(entity, Rider)
        if rider is not None and rider.mount != carrier:
            mount = rider.mount
            lost = "" if mount is None or view.exists(mount) else ", an entity that does not exist"
            raise LinkError(
                entity,
                "Control",
                "carried_by",
                carrier,
                f"a rider is carried by its mount, and Rider.mount is {mount}{lost}",
            )


@register("gurps.Posture")
@dataclass(slots=True)
class Posture:
    """The posture the rules count the entity in, and a change under way (``seconds_left`` to finish)."""

    state: PostureState = PostureState.STANDING
    target: PostureState | None = None
    seconds_left: int = 0

    def __post_init__(self) -> None:
        if self.state.__class__ is not PostureState:
            self.state = PostureState(check_choice("Posture", "state", self.state, _POSTURES))
        if self.target is not None:
            self.target = PostureState(check_choice("Posture", "target", self.target, _POSTURES))
        check_int("Posture", "seconds_left", self.seconds_left, low=0)


@register("gurps.Condition", new_fields={3: ("next_shock", "stunned_turn", "mortally_wounded", "dead")})
@dataclass(slots=True)
class Condition:
    """Injury and the states that take control away (Basic Set: Injury, as in docs/architecture.md > Facts the rules
    lean on).

    ``injury`` is the HP lost; ``shock`` this turn's shock penalty, ``next_shock`` the one the injury taken this turn
    gives the next turn (the general injury rules move it into ``shock`` as the turn ends). ``stunned`` since turn
    ``stunned_turn`` (None: since before any turn the rules saw); ``conscious``; ``mortally_wounded`` (unconscious
    and dying); ``dead``.
    """

    injury: int = 0
    stunned: bool = False
    conscious: bool = True
    shock: int = 0
    next_shock: int = 0
    stunned_turn: int | None = None
    mortally_wounded: bool = False
    dead: bool = False

    def __post_init__(self) -> None:
        check_int("Condition", "injury", self.injury, low=0)
        check_bool("Condition", "stunned", self.stunned)
        check_bool("Condition", "conscious", self.conscious)
        check_int("Condition", "shock", self.shock, low=-4, high=0)
        check_int("Condition", "next_shock", self.next_shock, low=-4, high=0)
        if self.stunned_turn is not None:
            check_int("Condition", "stunned_turn", self.stunned_turn, low=0)
        check_bool("Condition", "mortally_wounded", self.mortally_wounded)
        check_bool("Condition", "dead", self.dead)
        if (self.dead or self.mortally_wounded) and self.conscious:
            what = "dead" if self.dead else "mortally_wounded"
            raise RuleValueError("Condition", what, True, "False while conscious is True: the dying are unconscious")


@register("gurps.Skills")
@dataclass(slots=True)
class Skills:
    """Skill levels by name (``"Riding"``, ``"Jumping"``, ``"Acrobatics"``, ``"Aerobatics"``, ...)."""

    levels: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not isinstance(self.levels, dict):
            raise RuleValueError("Skills", "levels", self.levels, "a dict of skill name to level")
        for name, level in self.levels.items():
            if not isinstance(name, str):
                raise RuleValueError("Skills", "levels", name, "skill names as text")
            check_int("Skills", f"levels[{name!r}]", level, low=0)

    def level(self, name: str) -> int | None:
        """The level of skill ``name``, or None if the entity does not have it."""
        return self.levels.get(name)


@register("gurps.Footing")
@dataclass(slots=True)
class Footing:
    """Bad footing on the entity's hex: ``extra_cost`` movement points on top of 1 per yard (mud is 1)."""

    extra_cost: int = 1
    name: str = "mud"

    def __post_init__(self) -> None:
        check_int("Footing", "extra_cost", self.extra_cost, low=0)
        if not isinstance(self.name, str):
            raise RuleValueError("Footing", "name", self.name, "text")


@register("gurps.Obstacle")
@dataclass(slots=True)
class Obstacle:
    """Something in the way on the entity's hex: a wall (``hard``, immovable) or a soft obstacle with HP.

    ``height_yd`` is how far it rises above the ground; a flier higher than that passes over it.
    ``crossable`` marks something low enough to jump at a run (a fence, a log): a mover with legs rolls DX
    or Jumping to cross it instead of running into it (Basic Set: High-Speed Movement > Direction and
    Turning Radius).
    """

    hp: int = 100
    hard: bool = True
    height_yd: float = 2.0
    crossable: bool = False

    def __post_init__(self) -> None:
        check_int("Obstacle", "hp", self.hp, low=1)
        check_bool("Obstacle", "hard", self.hard)
        check_number("Obstacle", "height_yd", self.height_yd, low=0, high=MAX_ALTITUDE_YD)
        check_bool("Obstacle", "crossable", self.crossable)

"""Components the Spelljammer rules read and write: movement stats, the round's intent, round state, vegetation.

The rule set ("Spelljammer: Running, Shooting, Chasing and Fleeing") counts distance in 5-foot squares a
round; the map is the shared :class:`~esper_motion.components.motion.Position` hex grid. The rule set's own fields keep
squares (``RoundState.squares``) and the systems turn them into hexes with the rule options (a one-yard hex by
default, so a square is 5/3 hexes).

A Spelljammer character carries :class:`Mobility`, :class:`RoundIntent`, :class:`RoundState` and a
``Position``; a stretch of vegetation is an entity with a ``Position`` and a :class:`VegetationZone`. Per-round
state lives in fields (docs/architecture.md > Performance): the systems never add or remove these components in a step.

Enumerated fields accept a member or its value text (``"run"`` for ``SpeedMode.RUN``), so data read from a file
turns back into members; anything else is refused with the allowed values.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Final, TypeVar

from esper_motion.components.motion import MAX_MOVE
from esper_motion.ecs.errors import RuleValueError
from esper_motion.ecs.hexgrid import Hex, check_facing, check_hex
from esper_motion.ecs.registry import register
from esper_motion.ecs.validate import check_bool, check_int, check_number

_E = TypeVar("_E", bound=Enum)


class SpeedMode(str, Enum):
    """How fast a character moves this round (Spelljammer: Running, Shooting, Chasing and Fleeing > Movement and
    Defense)."""

    DODGE = "dodge"
    WALK = "walk"
    RUN = "run"
    SPRINT = "sprint"
    FAST_SPRINT = "fast_sprint"
    STEALTHY = "stealthy"


class Vegetation(str, Enum):
    """Vegetation thick enough to restrict movement (Spelljammer: ... > Restricted Movement)."""

    HEAVY = "heavy"
    DENSE = "dense"
    VERY_DENSE = "very_dense"
    EXTREMELY_DENSE = "extremely_dense"


class RangedWeapon(str, Enum):
    """Ranged weapons with their own moving-fire rules (Spelljammer: ... > Moving and Shooting > Weapon
    Modifiers)."""

    SHORT_BOW = "short_bow"
    LONG_BOW = "long_bow"
    """Long bows, composite long bows included."""
    CROSSBOW = "crossbow"
    OTHER = "other"
    """Any other ranged weapon (thrown weapons, slings): the table alone applies."""


TIME_DICE_ALLOWED: Final = "dice with explicit sides like 1d2, 2d6 or 1d3+1 (at least one die of 2 or more sides)"

_TIME_DICE: Final = re.compile(r"(\d{1,4})?d(\d{1,4})([+-]\d{1,9})?")


def parse_time_dice(owner: str, field: str, value: object) -> tuple[int, int, int]:
    """(dice, sides, adds) of a pursuit action's base time such as ``1d2``, ``2d6`` or ``d3+1``.

    The sides are explicit; anything else raises :class:`RuleValueError` naming ``owner`` and ``field``.

    >>> parse_time_dice("example", "dice", "d3+1")
    (1, 3, 1)
    """
    match = _TIME_DICE.fullmatch(value) if isinstance(value, str) else None
    if match is None or int(match.group(1) or 1) < 1 or int(match.group(2)) < 2:
        raise RuleValueError(owner, field, value, TIME_DICE_ALLOWED)
    return int(match.group(1) or 1), int(match.group(2)), int(match.group(3) or 0)


def _member(owner: str, field: str, value: object, kind: type[_E]) -> _E:
    """``value`` as a member of ``kind``: a member itself, or the text of a member's value."""
    if isinstance(value, kind):
        return value
    for member in kind:
        if isinstance(value, str) and value == member.value:
            return member
    raise RuleValueError(owner, field, value, "one of " + ", ".join(repr(member.value) for member in kind))


def _entity_ids(owner: str, field: str, value: object) -> tuple[int, ...]:
    """``value`` as a tuple of distinct entity ids (a list is accepted, as read from a file)."""
    if not isinstance(value, (tuple, list)):
        raise RuleValueError(owner, field, value, "a tuple of distinct entity ids")
    for entity in value:
        check_int(owner, field, entity, low=1)
    if len(set(value)) != len(value):
        raise RuleValueError(owner, field, value, "a tuple of distinct entity ids")
    return tuple(value)


@register("spelljammer.Mobility")
@dataclass(slots=True)
class Mobility:
    """How a Spelljammer character moves and fights on the move.

    ``tmr`` is the Tactical Movement Rate, 5-foot squares a round, set by race and DEX (a TMR of 9 is 45 feet
    a round). ``dex`` is the DEX that percentile rolls are graded against. ``attacks`` is the normal number of
    melee attacks a round (a chase never gives more). ``encumbrance`` is 0 (none), 1 (encumbered, TMR -25%) or
    2 (double encumbered, -50%). ``skills`` holds skill scores graded like DEX, such as ``{"Acrobatics": 14}``,
    that may stand in for DEX in a pursuit action. ``master_reduction`` is what Master skill (Master Bowman)
    takes off a moving-fire penalty. ``large`` marks a large creature (it may fire a long bow on the move) and
    ``centaur`` a centaur (a large creature that halves the moving-fire penalty with a short bow).

    >>> Mobility(tmr=9, dex=14).tmr
    9
    >>> Mobility(tmr=9, dex=14, encumbrance=3)
    Traceback (most recent call last):
    ...
    esper_motion.ecs.errors.RuleValueError: Mobility.encumbrance = 3: expected a whole number from 0 to 2
    """

    tmr: int
    dex: int
    attacks: int = 1
    encumbrance: int = 0
    skills: dict[str, int] = field(default_factory=dict)
    master_reduction: int = 0
    large: bool = False
    centaur: bool = False

    def __post_init__(self) -> None:
        owner = "Mobility"
        check_int(owner, "tmr", self.tmr, low=0, high=MAX_MOVE)
        check_int(owner, "dex", self.dex, low=1)
        check_int(owner, "attacks", self.attacks, low=0)
        check_int(owner, "encumbrance", self.encumbrance, 0, 2)
        if not isinstance(self.skills, dict):
            raise RuleValueError(owner, "skills", self.skills, "a dict of skill name to score")
        for name, score in self.skills.items():
            if not isinstance(name, str) or not name:
                raise RuleValueError(owner, "skills", name, "skill names as non-empty text")
            check_int(owner, f"skills[{name!r}]", score, low=1)
        check_int(owner, "master_reduction", self.master_reduction, low=0)
        check_bool(owner, "large", self.large)
        check_bool(owner, "centaur", self.centaur)


@register("spelljammer.RoundIntent")
@dataclass(slots=True)
class RoundIntent:
    """What a character means to do this round, written by the game before ``World.step``.

    Each field, what it holds and the rule it reads: docs/spelljammer.md > Components, field by field > RoundIntent.

    >>> RoundIntent(mode="run", heading=0, flee_from=(4,)).mode
    <SpeedMode.RUN: 'run'>
    >>> RoundIntent(chase=4, flee_from=(4,), heading=None)
    Traceback (most recent call last):
    ...
    esper_motion.ecs.errors.RuleValueError: RoundIntent.chase = 4: expected an entity not in flee_from (4,)
    """

    mode: SpeedMode | None = None
    heading: int | None = None
    flee_from: tuple[int, ...] = ()
    allies: int = 0
    chase: int | None = None
    match_speed: bool = False
    pursuit_dice: str | None = None
    pursuit_label: str = ""
    pursuit_skill: str | None = None
    shots: int = 0
    weapon: RangedWeapon = RangedWeapon.OTHER
    reloads_itself: bool = False

    def __post_init__(self) -> None:
        self.check()

    def check(self) -> None:
        """Check every field, turning text into enum members (the constructor's checks; the world runs them again
        on an intent a game changed between steps)."""
        owner = "RoundIntent"
        if self.mode is not None:
            self.mode = _member(owner, "mode", self.mode, SpeedMode)
        if self.heading is not None:
            check_facing(owner, "heading", self.heading)
        self.flee_from = _entity_ids(owner, "flee_from", self.flee_from)
        check_int(owner, "allies", self.allies, low=0)
        if self.chase is not None:
            check_int(owner, "chase", self.chase, low=1)
            if self.chase in self.flee_from:
                raise RuleValueError(owner, "chase", self.chase, f"an entity not in flee_from {self.flee_from}")
            if self.heading is not None:
                raise RuleValueError(
                    owner, "heading", self.heading, "None while chasing (a pursuer follows its runner)"
                )
        if self.flee_from and self.heading is None and self.chase is None:
            raise RuleValueError(owner, "heading", None, "a hexside 0-5 to flee along (or a runner to chase)")
        check_bool(owner, "match_speed", self.match_speed)
        if self.pursuit_dice is not None:
            dice, _, adds = parse_time_dice(owner, "pursuit_dice", self.pursuit_dice)
            if dice + adds < 0:
                raise RuleValueError(owner, "pursuit_dice", self.pursuit_dice, "dice that cannot roll below 0 seconds")
        if not isinstance(self.pursuit_label, str):
            raise RuleValueError(owner, "pursuit_label", self.pursuit_label, "text")
        if self.pursuit_skill is not None and (not isinstance(self.pursuit_skill, str) or not self.pursuit_skill):
            raise RuleValueError(owner, "pursuit_skill", self.pursuit_skill, "None or a skill name")
        check_int(owner, "shots", self.shots, low=0)
        self.weapon = _member(owner, "weapon", self.weapon, RangedWeapon)
        check_bool(owner, "reloads_itself", self.reloads_itself)

    def links(self) -> tuple[int, ...]:
        """The entities this intent names: the foes fled and the runner chased."""
        return self.flee_from if self.chase is None else (*self.flee_from, self.chase)


@register("spelljammer.RoundState", new_fields={3: ("weapon_ready", "weapon_dropped")})
@dataclass(slots=True)
class RoundState:
    """What the rules made of a character's round, and what it carries into the next.

    - ``mode`` and ``vegetation``: the speed mode the round was run at and the vegetation under the character
      when it began (None: open ground).
    - ``squares``: the 5-foot squares the character's speed covered this round (its rate times the seconds it
      was not busy); ``moved_hex``: the hexes it actually moved; ``carry_hex``: the fraction of a hex carried
      into the next round.
    - ``seconds_lost``: seconds of this round spent not moving (pursuit actions, getting up);
      ``seconds_owed``: seconds still to be spent, taken from the next round first.
    - ``fallen``: on the ground until the seconds owed are served.
    - ``nonlethal_taken``: non-lethal damage from sprinting this round; ``nonlethal_total``: all so far.
    - ``fled_from``: the foes already offered their free attack in the present flight.
    - ``weapon_ready``: the ranged weapon is loaded, an arrow nocked, so the first shot on the move needs no
      draw. Shooting on the move spends it; a round in which the character moves no hex and shoots nothing
      readies it again (Spelljammer: ... > Moving and Shooting > Weapon Modifiers; ``MovingFire``).
    - ``weapon_dropped``: a threat roll of 96 or more dropped the weapon itself; it fires nothing until readied
      as above (Drop Threat).
    """

    mode: SpeedMode | None = None
    vegetation: Vegetation | None = None
    squares: float = 0.0
    moved_hex: int = 0
    carry_hex: float = 0.0
    seconds_lost: int = 0
    seconds_owed: int = 0
    fallen: bool = False
    nonlethal_taken: int = 0
    nonlethal_total: int = 0
    fled_from: tuple[int, ...] = ()
    weapon_ready: bool = True
    weapon_dropped: bool = False

    def __post_init__(self) -> None:
        owner = "RoundState"
        if self.mode is not None:
            self.mode = _member(owner, "mode", self.mode, SpeedMode)
        if self.vegetation is not None:
            self.vegetation = _member(owner, "vegetation", self.vegetation, Vegetation)
        check_number(owner, "squares", self.squares, low=0)
        check_int(owner, "moved_hex", self.moved_hex, low=0)
        check_number(owner, "carry_hex", self.carry_hex, low=0)
        if self.carry_hex >= 1:
            raise RuleValueError(owner, "carry_hex", self.carry_hex, "a fraction from 0 up to (not including) 1")
        check_int(owner, "seconds_lost", self.seconds_lost, low=0)
        check_int(owner, "seconds_owed", self.seconds_owed, low=0)
        check_bool(owner, "fallen", self.fallen)
        check_int(owner, "nonlethal_taken", self.nonlethal_taken, low=0)
        check_int(owner, "nonlethal_total", self.nonlethal_total, low=0)
        self.fled_from = _entity_ids(owner, "fled_from", self.fled_from)
        check_bool(owner, "weapon_ready", self.weapon_ready)
        check_bool(owner, "weapon_dropped", self.weapon_dropped)

    def links(self) -> tuple[int, ...]:
        """The entities this state names: the foes already offered a free attack."""
        return self.fled_from


def _hexes(owner: str, field: str, value: object) -> tuple[Hex, ...]:
    """``value`` as a tuple of hexes (lists of two are accepted, as read from a file)."""
    if not isinstance(value, (tuple, list)):
        raise RuleValueError(owner, field, value, "a tuple of hexes (q, r)")
    items: Iterable[Any] = value
    return tuple(check_hex(owner, field, tuple(h) if isinstance(h, list) else h) for h in items)


@register("spelljammer.VegetationZone")
@dataclass(slots=True)
class VegetationZone:
    """A stretch of vegetation that restricts movement (Spelljammer: ... > Restricted Movement).

    Put it on an entity with a ``Position``. It covers every hex within ``radius_hex`` of that position
    (0: the position's own hex; None: no disc), plus ``hexes``, given as offsets ``(dq, dr)`` from the
    position, so moving the entity moves the zone. Where zones overlap, the thickest vegetation applies.

    >>> VegetationZone("dense", radius_hex=None, hexes=[[0, 0], [1, 0]]).hexes
    ((0, 0), (1, 0))
    >>> VegetationZone(Vegetation.HEAVY, radius_hex=None)
    Traceback (most recent call last):
    ...
    esper_motion.ecs.errors.RuleValueError: VegetationZone.hexes = (): expected at least one hex when radius_hex is None
    """

    vegetation: Vegetation
    radius_hex: int | None = 0
    hexes: tuple[Hex, ...] = ()

    def __post_init__(self) -> None:
        owner = "VegetationZone"
        self.vegetation = _member(owner, "vegetation", self.vegetation, Vegetation)
        if self.radius_hex is not None:
            check_int(owner, "radius_hex", self.radius_hex, low=0)
        self.hexes = _hexes(owner, "hexes", self.hexes)
        if self.radius_hex is None and not self.hexes:
            raise RuleValueError(owner, "hexes", self.hexes, "at least one hex when radius_hex is None")

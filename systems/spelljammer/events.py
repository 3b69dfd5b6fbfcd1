"""Events of the Spelljammer rule set: frozen dataclasses the systems emit, one line each in a round's log.

Every event names first the entity it happened to. Rolls are reported with ``esper_motion.ecs.RollMade``. Distances are
5-foot squares (``squares``) or map hexes (``hexes``); times are seconds of the ten-second round.
"""

from __future__ import annotations

from dataclasses import dataclass

from esper_motion.components.spelljammer import RangedWeapon, SpeedMode, Vegetation
from esper_motion.ecs.events import Event
from esper_motion.ecs.hexgrid import Hex
from esper_motion.ecs.registry import register
from esper_motion.systems.spelljammer.rules import DropResult, PursuitLevel, grade_name

__all__ = [
    "ChaseEnded",
    "ChaseRound",
    "FellDown",
    "Fled",
    "GoalLost",
    "GoalUnreachable",
    "NonLethalDamage",
    "PursuitActionResolved",
    "ShotsOnTheMove",
    "SpeedModeChosen",
    "SquaresMoved",
]


@register("spelljammer.SpeedModeChosen")
@dataclass(frozen=True, slots=True)
class SpeedModeChosen(Event):
    """The speed mode a character runs this round at; ``matched`` when it sped up to match the other side of
    a chase; ``vegetation`` is what it stands in (None: open ground)."""

    entity: int
    mode: SpeedMode
    matched: bool
    vegetation: Vegetation | None

    def describe(self) -> str:
        """One log line."""
        text = f"entity {self.entity} goes at {self.mode.value.replace('_', ' ')}"
        if self.matched:
            text += ", matching the other side of its chase"
        if self.vegetation is not None:
            text += f", in {self.vegetation.value.replace('_', ' ')} vegetation"
        return text


@register("spelljammer.SquaresMoved")
@dataclass(frozen=True, slots=True)
class SquaresMoved(Event):
    """A character's move this round: the ``squares`` its speed covered in the seconds it was not busy, and
    the ``hexes`` it actually moved from ``start`` to ``end``."""

    entity: int
    mode: SpeedMode
    squares: float
    hexes: int
    start: Hex
    end: Hex
    seconds_lost: int

    def describe(self) -> str:
        """One log line."""
        lost = f" after losing {self.seconds_lost} s" if self.seconds_lost else ""
        return (
            f"entity {self.entity} moves {self.squares:g} squares at {self.mode.value.replace('_', ' ')}{lost}: "
            f"{self.hexes} hexes from {self.start} to {self.end}"
        )


@register("spelljammer.Fled")
@dataclass(frozen=True, slots=True)
class Fled(Event):
    """``runner`` breaks off from ``foe``; ``free_attack`` when the foe gets its one free melee attack (at 1 to 1
    odds or better). The game resolves that attack; the foe may then give chase."""

    runner: int
    foe: int
    free_attack: bool

    def describe(self) -> str:
        """One log line."""
        outcome = "gets a free melee attack" if self.free_attack else "gets no free attack (outnumbered)"
        return f"entity {self.runner} flees entity {self.foe}, which {outcome}"


@register("spelljammer.ChaseEnded")
@dataclass(frozen=True, slots=True)
class ChaseEnded(Event):
    """A chase or flight that named an entity which no longer exists has ended; ``reason`` says which side
    is gone."""

    pursuer: int
    runner: int
    reason: str

    def describe(self) -> str:
        """One log line."""
        return f"the chase of entity {self.runner} by entity {self.pursuer} ends: {self.reason}"


@register("spelljammer.PursuitActionResolved")
@dataclass(frozen=True, slots=True)
class PursuitActionResolved(Event):
    """A pursuit action: the ``grade`` of its roll against ``score`` (DEX or the skill ``against``), how well
    it went (``level``) and the ``seconds`` it took. The game judges what it did to the other side."""

    entity: int
    label: str
    against: str
    score: int
    grade: float
    level: PursuitLevel
    seconds: int

    def describe(self) -> str:
        """One log line."""
        what = f" ({self.label})" if self.label else ""
        return (
            f"entity {self.entity}'s pursuit action{what}: {grade_name(self.grade)} {self.against} "
            f"{self.score}, {self.level.value}, {self.seconds} s"
        )


@register("spelljammer.FellDown")
@dataclass(frozen=True, slots=True)
class FellDown(Event):
    """A character fell; it spends ``seconds`` getting back to its feet. ``cause`` says why."""

    entity: int
    cause: str
    seconds: int

    def describe(self) -> str:
        """One log line."""
        return f"entity {self.entity} falls ({self.cause}) and needs {self.seconds} s to get up"


@register("spelljammer.NonLethalDamage")
@dataclass(frozen=True, slots=True)
class NonLethalDamage(Event):
    """Non-lethal damage from a round at Sprint or Fast Sprint; ``total`` is all the character has taken."""

    entity: int
    mode: SpeedMode
    amount: int
    total: int

    def describe(self) -> str:
        """One log line."""
        mode = self.mode.value.replace("_", " ")
        return f"entity {self.entity} takes {self.amount} non-lethal damage from a {mode} ({self.total} in all)"


@register("spelljammer.ChaseRound")
@dataclass(frozen=True, slots=True)
class ChaseRound(Event):
    """One round of a chase: the squares each side covered, the melee ``attacks`` the pursuer may make at
    ``modifier``, and ``in_reach`` (False when the map option kept a pursuer too far behind to attack)."""

    pursuer: int
    runner: int
    pursuer_mode: SpeedMode
    runner_mode: SpeedMode
    pursuer_squares: float
    runner_squares: float
    attacks: int
    modifier: int
    in_reach: bool

    def describe(self) -> str:
        """One log line."""
        reach = "" if self.in_reach else ", out of reach"
        return (
            f"entity {self.pursuer} chases entity {self.runner} ({self.pursuer_squares:g} vs "
            f"{self.runner_squares:g} squares{reach}): {self.attacks} attack(s) at {self.modifier:+d}"
        )


@register("spelljammer.ShotsOnTheMove")
@dataclass(frozen=True, slots=True)
class ShotsOnTheMove(Event):
    """Ranged attacks on the move: ``allowed`` at ``modifier``; ``drops`` holds the drop checks of the drawn
    shots (all but a first shot readied before the run), in order, and ``fired`` how many shots were not lost
    to a drop."""

    entity: int
    weapon: RangedWeapon
    allowed: int
    modifier: int
    drops: tuple[DropResult, ...]
    fired: int

    def describe(self) -> str:
        """One log line."""
        dropped = [drop.value.replace("_", " ") for drop in self.drops if drop is not DropResult.NOTHING_DROPPED]
        lost = f" ({', '.join(dropped)})" if dropped else ""
        return (
            f"entity {self.entity} shoots on the move with a {self.weapon.value.replace('_', ' ')}: "
            f"{self.fired} of {self.allowed} shot(s) at {self.modifier:+d}{lost}"
        )


@register("spelljammer.GoalLost")
@dataclass(frozen=True, slots=True)
class GoalLost(Event):
    """The entity ``target`` that ``entity``'s goal named is gone: the goal's field became None, and the character
    holds (docs: Movers that decide)."""

    entity: int
    goal: str
    target: int

    def describe(self) -> str:
        """One log line."""
        return f"entity {self.entity} holds: the {self.goal} goal's entity {self.target} is gone"


@register("spelljammer.GoalUnreachable")
@dataclass(frozen=True, slots=True)
class GoalUnreachable(Event):
    """No round the rules allow (within the character's caution) brings ``entity`` nearer its goal: it does its
    best, ``why`` says what stood in the way (docs: Movers that decide)."""

    entity: int
    goal: str
    why: str

    def describe(self) -> str:
        """One log line."""
        return f"entity {self.entity} cannot get nearer its {self.goal} goal: {self.why}"

"""Events of attacks and defenses in play: the attack roll, the defense roll, an attack turned onto the other
party of a rider and mount, the damage and injury dealt, an attack that could not be made, and the moves a blow
or a defense makes outside the walk (knockback, a flier's retreat step)."""

from __future__ import annotations

from dataclasses import dataclass

from esper_motion.ecs.dice import SuccessRoll
from esper_motion.ecs.events import Event
from esper_motion.ecs.hexgrid import Hex
from esper_motion.ecs.registry import register


def _listed(modifiers: tuple[tuple[str, int], ...]) -> str:
    return ", ".join(f"{reason} {value:+d}" for reason, value in modifiers) or "no modifiers"


@register("gurps.AttackRolled")
@dataclass(frozen=True, slots=True)
class AttackRolled(Event):
    """``attacker`` rolled to hit ``target``: ``skill`` before the modifiers, each modifier with its reason, and
    the roll with its story."""

    attacker: int
    target: int
    skill: int
    modifiers: tuple[tuple[str, int], ...]
    roll: SuccessRoll

    def describe(self) -> str:
        """One log line: the roll's story and every modifier."""
        return (
            f"entity {self.attacker} attacks entity {self.target} at skill {self.skill} "
            f"({_listed(self.modifiers)}): {self.roll.story}"
        )


@register("gurps.DefenseRolled")
@dataclass(frozen=True, slots=True)
class DefenseRolled(Event):
    """``defender`` rolled ``defense`` (dodge, parry or block) against ``attacker``: the score before the
    modifiers, each modifier with its reason, and the roll with its story."""

    defender: int
    attacker: int
    defense: str
    score: int
    modifiers: tuple[tuple[str, int], ...]
    roll: SuccessRoll

    def describe(self) -> str:
        """One log line: the roll's story and every modifier."""
        outcome = "defends" if self.roll.success else "fails to defend"
        return (
            f"entity {self.defender} {outcome} with a {self.defense} of {self.score} against entity {self.attacker} "
            f"({_listed(self.modifiers)}): {self.roll.story}"
        )


@register("gurps.AttackRedirected")
@dataclass(frozen=True, slots=True)
class AttackRedirected(Event):
    """An attack on ``intended`` that missed by ``-margin`` goes to ``hit`` instead, the other party of a rider and
    mount; ``may_defend`` whether ``hit`` may still defend (Basic Set: Mounted Combat > Mounted Combat Results;
    Using Ranged Weapons While Mounted > Tricks)."""

    attacker: int
    intended: int
    hit: int
    margin: int
    may_defend: bool

    def describe(self) -> str:
        """One log line."""
        unless = ", unless it defends" if self.may_defend else ""
        return (
            f"entity {self.attacker} misses entity {self.intended} by {-self.margin} and strikes entity "
            f"{self.hit}{unless}"
        )


@register("gurps.DamageDealt")
@dataclass(frozen=True, slots=True)
class DamageDealt(Event):
    """``attacker`` hit ``target``: the damage dice, the rolled damage, its type, the DR it met, the injury dealt,
    and what else the hit did (a jousting lance that snapped, knockback, a stun)."""

    attacker: int
    target: int
    damage: str
    rolled: int
    damage_type: str
    dr: int
    injury: int
    lance_snapped: bool = False
    knockback_yd: int = 0
    stunned: bool = False

    def describe(self) -> str:
        """One log line."""
        extra = []
        if self.lance_snapped:
            extra.append("the lance snaps")
        if self.knockback_yd:
            extra.append(f"{self.knockback_yd} yd of knockback")
        if self.stunned:
            extra.append("stunned")
        tail = f"; {', '.join(extra)}" if extra else ""
        return (
            f"entity {self.attacker} hits entity {self.target} for {self.damage} = {self.rolled} {self.damage_type} "
            f"against DR {self.dr}: {self.injury} injury{tail}"
        )


@register("gurps.AttackNotMade")
@dataclass(frozen=True, slots=True)
class AttackNotMade(Event):
    """``attacker`` asked to attack ``target`` but could not this turn, for ``reason`` (out of reach, say)."""

    attacker: int
    target: int
    reason: str

    def describe(self) -> str:
        """One log line."""
        return f"entity {self.attacker} cannot attack entity {self.target}: {self.reason}"


@register("gurps.KnockedBack")
@dataclass(frozen=True, slots=True)
class KnockedBack(Event):
    """``attacker``'s blow knocked the entity back along ``path``: the hexes it entered straight away from the
    attacker, in order (empty when what it met stood right behind it). They are added to its ``Control.path``."""

    entity: int
    attacker: int
    path: tuple[Hex, ...]

    def describe(self) -> str:
        """One log line."""
        if not self.path:
            return f"entity {self.entity} is knocked back by entity {self.attacker} and meets what stands behind it"
        return f"entity {self.entity} is knocked back {len(self.path)} yd by entity {self.attacker} to {self.path[-1]}"


@register("gurps.Retreated")
@dataclass(frozen=True, slots=True)
class Retreated(Event):
    """The airborne entity retreated from ``attacker``'s attack with its step: across the map along ``path``, the
    hexes it entered in order (added to its ``Control.path``), or ``climbed_yd`` up (down when negative) with no
    room across; neither when it had no room at all."""

    entity: int
    attacker: int
    path: tuple[Hex, ...]
    climbed_yd: float = 0.0

    def describe(self) -> str:
        """One log line."""
        if self.path:
            return f"entity {self.entity} retreats {len(self.path)} yd from entity {self.attacker} to {self.path[-1]}"
        if self.climbed_yd:
            way = "up" if self.climbed_yd > 0 else "down"
            return f"entity {self.entity} retreats {abs(self.climbed_yd):g} yd {way} from entity {self.attacker}"
        return f"entity {self.entity} has no room to retreat from entity {self.attacker}"

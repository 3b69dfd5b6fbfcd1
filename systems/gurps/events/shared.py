"""Events several sections share: moving along a path and turning, the change of velocity,
losing and regaining control, falls and collisions (Basic Set: High-Speed Movement, Flying Combat, Mounted
Combat; Damage from Collisions and Falling)."""

from __future__ import annotations

from dataclasses import dataclass

from esper_motion.ecs.events import Event
from esper_motion.ecs.hexgrid import Hex
from esper_motion.ecs.registry import register


@register("gurps.Turned")
@dataclass(frozen=True, slots=True)
class Turned(Event):
    """A change of facing made on the path, ``after_yd`` yards into the turn; ``pushed`` if it needed a roll."""

    entity: int
    from_facing: int
    to_facing: int
    at: Hex
    after_yd: int
    pushed: bool

    def describe(self) -> str:
        """One log line."""
        how = " (pushing the envelope)" if self.pushed else ""
        return (
            f"entity {self.entity} turns from facing {self.from_facing} to {self.to_facing} at {self.at} "
            f"after {self.after_yd} yd{how}"
        )


@register("gurps.Moved")
@dataclass(frozen=True, slots=True)
class Moved(Event):
    """The hexes entered this turn, in order, and the extra movement points bad footing cost."""

    entity: int
    path: tuple[Hex, ...]
    extra_points: int

    def describe(self) -> str:
        """One log line."""
        if not self.path:
            return f"entity {self.entity} stays where it is"
        extra = f", {self.extra_points} extra points for footing" if self.extra_points else ""
        return f"entity {self.entity} moves {len(self.path)} yd to {self.path[-1]}{extra}"


@register("gurps.ObstacleCrossed")
@dataclass(frozen=True, slots=True)
class ObstacleCrossed(Event):
    """The entity jumped an obstacle in its path (after a successful DX or Jumping roll)."""

    entity: int
    obstacle: int
    at: Hex

    def describe(self) -> str:
        """One log line."""
        return f"entity {self.entity} clears obstacle {self.obstacle} at {self.at}"


@register("gurps.DodgedAside")
@dataclass(frozen=True, slots=True)
class DodgedAside(Event):
    """The entity dodged out of the way of ``mover`` at ``at``, stepping aside (its front) to ``to``."""

    entity: int
    mover: int
    at: Hex
    to: Hex

    def describe(self) -> str:
        """One log line."""
        return f"entity {self.entity} dodges out of the way of entity {self.mover} at {self.at}, stepping to {self.to}"


@register("gurps.VelocityChanged")
@dataclass(frozen=True, slots=True)
class VelocityChanged(Event):
    """A change of velocity: at the end of the turn, or as the turn opens for a mover in ordinary movement, whose
    throttle sets this turn's yards at once, or when the rules change it with no throttle (a mover out of control
    slowing; under the house rules, a flier's climb or dive at high speed). ``wanted_yps`` was the throttle asked
    for, ``forced_yps`` the deceleration nobody chose (bad footing, the safe deceleration of a mover out of control),
    below 0 for speed gained that nobody asked for (a dive's)."""

    entity: int
    from_yps: int
    to_yps: int
    wanted_yps: int
    forced_yps: int

    @classmethod
    def forced(cls, entity: int, from_yps: int, to_yps: int) -> VelocityChanged:
        """A change nobody asked for: no throttle wanted, all of it forced."""
        return cls(entity, from_yps, to_yps, 0, from_yps - to_yps)

    def describe(self) -> str:
        """One log line."""
        forced = f", {self.forced_yps} forced" if self.forced_yps else ""
        return (
            f"entity {self.entity} goes from {self.from_yps} to {self.to_yps} yd/s "
            f"(wanted {self.wanted_yps:+d}{forced})"
        )


@register("gurps.LostControl")
@dataclass(frozen=True, slots=True)
class LostControl(Event):
    """The entity lost control ``after_yd`` yards into this turn's path (0: before moving; at the end of the
    turn: the yards it moved). ``mode`` is what follows: ``trip`` (falls and skids), ``drift`` (in the air or
    water: straight ahead, then the safe deceleration) or ``wheels`` (three or more wheels: decelerates)."""

    entity: int
    cause: str
    mode: str
    after_yd: int

    def describe(self) -> str:
        """One log line."""
        return f"entity {self.entity} loses control after {self.after_yd} yd ({self.cause}): {self.mode}"


@register("gurps.RegainedControl")
@dataclass(frozen=True, slots=True)
class RegainedControl(Event):
    """The entity has control again, moving at ``velocity_yps``."""

    entity: int
    velocity_yps: int

    def describe(self) -> str:
        """One log line."""
        return f"entity {self.entity} regains control at {self.velocity_yps} yd/s"


@register("gurps.FallDamage")
@dataclass(frozen=True, slots=True)
class FallDamage(Event):
    """Damage for a fall at ``velocity_yps``: the dice, the rolled total and the injury it did (never below 0)."""

    entity: int
    velocity_yps: float
    damage: str
    rolled: int
    injury: int

    def describe(self) -> str:
        """One log line."""
        return (
            f"entity {self.entity} takes {self.damage} for a fall at {self.velocity_yps:g} yd/s: "
            f"rolled {self.rolled}, {self.injury} injury"
        )


@register("gurps.Collided")
@dataclass(frozen=True, slots=True)
class Collided(Event):
    """``entity`` ran into ``struck`` at ``at``: ``kind`` is ``head-on``, ``rear-end``, ``side``, ``obstacle``
    or ``from above`` (it fell onto a body); each side's damage dice, rolled total and injury (a damage of
    ``"0d"`` was not rolled)."""

    entity: int
    struck: int
    at: Hex
    kind: str
    velocity_yps: float
    damage_taken: str
    rolled_taken: int
    injury_taken: int
    damage_dealt: str
    rolled_dealt: int
    injury_dealt: int

    def describe(self) -> str:
        """One log line."""
        return (
            f"entity {self.entity} hits entity {self.struck} {self.kind} at {self.velocity_yps:g} yd/s near "
            f"{self.at}: takes {self.damage_taken} = {self.rolled_taken}, deals {self.damage_dealt} = "
            f"{self.rolled_dealt}"
        )


@register("gurps.KnockedDown")
@dataclass(frozen=True, slots=True)
class KnockedDown(Event):
    """A collision knocked the entity down: it took at least twice the damage it dealt to ``by``."""

    entity: int
    by: int

    def describe(self) -> str:
        """One log line."""
        return f"entity {self.entity} is knocked down in the collision with entity {self.by}"

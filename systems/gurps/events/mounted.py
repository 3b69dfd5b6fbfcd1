"""Events of Mounted Combat (Basic Set) and the house rules' Mounts: getting on and off, falling off, spooked
mounts, the Mount Loss of Control Table, mount attacks and panic, and the house rules' forced Ready, strapped
riders and mounts out of control."""

from __future__ import annotations

from dataclasses import dataclass

from esper_motion.ecs.events import Event
from esper_motion.ecs.hexgrid import Hex
from esper_motion.ecs.registry import register


@register("gurps.ClimbedOn")
@dataclass(frozen=True, slots=True)
class ClimbedOn(Event):
    """The rider spent a Move climbing up on ``mount``; a Change Posture next turn seats it
    (Basic Set: Mounted Combat > Mounting Up)."""

    rider: int
    mount: int

    def describe(self) -> str:
        """One log line."""
        return f"entity {self.rider} climbs up on entity {self.mount}"


@register("gurps.MountingAbandoned")
@dataclass(frozen=True, slots=True)
class MountingAbandoned(Event):
    """The rider climbed up but did not seat itself with its next maneuver, and is back on the ground."""

    rider: int
    mount: int

    def describe(self) -> str:
        """One log line."""
        return f"entity {self.rider} gives up mounting entity {self.mount}"


@register("gurps.CarrierGone")
@dataclass(frozen=True, slots=True)
class CarrierGone(Event):
    """The entity that carried ``entity`` (its ``Control.carried_by``) no longer exists: ``entity`` stays where it
    is and moves under its own power again from the next turn."""

    entity: int
    carrier: int

    def describe(self) -> str:
        """One log line."""
        return f"entity {self.entity} is no longer carried: entity {self.carrier} is gone"


@register("gurps.Mounted")
@dataclass(frozen=True, slots=True)
class Mounted(Event):
    """The rider sits on ``mount``; ``how`` is ``"climbed on"`` (two maneuvers) or ``"leapt astride"``."""

    rider: int
    mount: int
    how: str

    def describe(self) -> str:
        """One log line."""
        return f"entity {self.rider} mounts entity {self.mount} ({self.how})"


@register("gurps.MountingFailed")
@dataclass(frozen=True, slots=True)
class MountingFailed(Event):
    """The rider's leap astride failed: it falls down beside the mount at ``at``."""

    rider: int
    mount: int
    at: Hex

    def describe(self) -> str:
        """One log line."""
        return f"entity {self.rider} fails to leap onto entity {self.mount} and falls at {self.at}"


@register("gurps.Dismounted")
@dataclass(frozen=True, slots=True)
class Dismounted(Event):
    """The rider got off ``mount`` safely, standing at ``at``; ``how`` is ``"stepped down"`` or ``"jumped off"``."""

    rider: int
    mount: int
    how: str
    at: Hex

    def describe(self) -> str:
        """One log line."""
        return f"entity {self.rider} gets off entity {self.mount} ({self.how}) at {self.at}"


@register("gurps.FellOff")
@dataclass(frozen=True, slots=True)
class FellOff(Event):
    """The rider came off ``mount`` against its will (``cause`` says why) and lies at ``at`` after a fall of
    ``fall_yd`` yards (its damage is a :class:`FallDamage` event; none when a roll negated it)."""

    rider: int
    mount: int
    cause: str
    fall_yd: float
    at: Hex

    def describe(self) -> str:
        """One log line."""
        return f"entity {self.rider} falls off entity {self.mount} ({self.cause}), {self.fall_yd:g} yd, at {self.at}"


@register("gurps.CrushedByMount")
@dataclass(frozen=True, slots=True)
class CrushedByMount(Event):
    """The falling mount landed on its rider: thrust crushing damage for the mount's ST."""

    rider: int
    mount: int
    damage: str
    rolled: int
    injury: int

    def describe(self) -> str:
        """One log line."""
        return f"entity {self.mount} falls on entity {self.rider}: {self.damage} = {self.rolled}, {self.injury} injury"


@register("gurps.MountSpooked")
@dataclass(frozen=True, slots=True)
class MountSpooked(Event):
    """The mount shies and bucks (``cause`` says why) until its rider calms it."""

    mount: int
    cause: str

    def describe(self) -> str:
        """One log line."""
        return f"entity {self.mount} spooks ({self.cause})"


@register("gurps.MountCalmed")
@dataclass(frozen=True, slots=True)
class MountCalmed(Event):
    """The rider has calmed the spooked mount."""

    mount: int
    rider: int

    def describe(self) -> str:
        """One log line."""
        return f"entity {self.rider} calms entity {self.mount}"


@register("gurps.FeatRefused")
@dataclass(frozen=True, slots=True)
class FeatRefused(Event):
    """A mount without war training refused a risky feat and spooks: refused a tight turn or hasty deceleration, it
    goes straight on; refused a jump, an obstacle or bad footing on its path, it stops short of it."""

    mount: int
    feat: str

    def describe(self) -> str:
        """One log line."""
        return f"entity {self.mount} refuses the {self.feat}"


@register("gurps.MountLossOfControl")
@dataclass(frozen=True, slots=True)
class MountLossOfControl(Event):
    """A row of the Mount Loss of Control Table takes effect: ``roll`` is the 2d total, None when the row
    applies without rolling; ``kind`` is the row's kind; ``rider`` the controlling rider (None if none)."""

    mount: int
    rider: int | None
    roll: int | None
    kind: str

    def describe(self) -> str:
        """One log line."""
        rolled = f"rolls {self.roll}" if self.roll is not None else "without a roll"
        return f"entity {self.mount} out of control ({rolled}): {self.kind}"


@register("gurps.ItemDropped")
@dataclass(frozen=True, slots=True)
class ItemDropped(Event):
    """The rider dropped whatever it held (``cause`` says why)."""

    rider: int
    cause: str

    def describe(self) -> str:
        """One log line."""
        return f"entity {self.rider} drops what it holds ({self.cause})"


@register("gurps.MountCharges")
@dataclass(frozen=True, slots=True)
class MountCharges(Event):
    """The mount, out of control, charges ``direction`` (``"toward"`` or ``"away"``) from ``threat``."""

    mount: int
    direction: str
    threat: int | None
    facing: int

    def describe(self) -> str:
        """One log line."""
        if self.threat is None:
            return f"entity {self.mount} charges straight ahead (facing {self.facing})"
        way = "away from" if self.direction == "away" else self.direction
        return f"entity {self.mount} charges {way} entity {self.threat} (facing {self.facing})"


@register("gurps.MountFell")
@dataclass(frozen=True, slots=True)
class MountFell(Event):
    """The mount fell (table row 12); ``broken_leg`` if it failed its DX+1 roll."""

    mount: int
    broken_leg: bool

    def describe(self) -> str:
        """One log line."""
        leg = " and breaks a leg" if self.broken_leg else ""
        return f"entity {self.mount} falls{leg}"


@register("gurps.MountCalledBack")
@dataclass(frozen=True, slots=True)
class MountCalledBack(Event):
    """The thrown rider tried Animal Handling-3 to call its mount back; ``success`` says whether it came."""

    mount: int
    rider: int
    success: bool

    def describe(self) -> str:
        """One log line."""
        outcome = "comes back" if self.success else "stays away"
        return f"entity {self.rider} calls entity {self.mount}: it {outcome}"


@register("gurps.SaddleTightening")
@dataclass(frozen=True, slots=True)
class SaddleTightening(Event):
    """The rider works on the loose saddle; ``seconds_left`` more seconds are needed (0: it is tight)."""

    mount: int
    rider: int
    seconds_left: int

    def describe(self) -> str:
        """One log line."""
        if self.seconds_left == 0:
            return f"entity {self.rider} has tightened the saddle of entity {self.mount}"
        return f"entity {self.rider} tightens the saddle of entity {self.mount}: {self.seconds_left} s to go"


@register("gurps.WeaponSheathed")
@dataclass(frozen=True, slots=True)
class WeaponSheathed(Event):
    """The rider's Ready to sheathe a weapon: ``outcome`` is ``"sheathed"``, ``"fumbled"`` (still in hand)
    or ``"dropped"``."""

    rider: int
    outcome: str

    def describe(self) -> str:
        """One log line."""
        return f"entity {self.rider} sheathes a weapon: {self.outcome}"


@register("gurps.MountAttacked")
@dataclass(frozen=True, slots=True)
class MountAttacked(Event):
    """The mount attacked (bite, kick or trample); ``damage_bonus`` is what its tack adds to the damage."""

    mount: int
    attack: str
    damage_bonus: int

    def describe(self) -> str:
        """One log line."""
        bonus = f" ({self.damage_bonus:+d} damage)" if self.damage_bonus else ""
        return f"entity {self.mount} attacks: {self.attack}{bonus}"


@register("gurps.PanicChecked")
@dataclass(frozen=True, slots=True)
class PanicChecked(Event):
    """A foe charged by ``mount``: ``rolled`` whether it had to roll Will, ``panicked`` whether it runs."""

    foe: int
    mount: int
    rolled: bool
    panicked: bool

    def describe(self) -> str:
        """One log line."""
        if not self.rolled:
            return f"entity {self.foe} need not fear the charge of entity {self.mount}"
        outcome = "panics and runs" if self.panicked else "stands its ground"
        return f"entity {self.foe}, charged by entity {self.mount}, {outcome}"


@register("gurps.ReadyForced")
@dataclass(frozen=True, slots=True)
class ReadyForced(Event):
    """House rules: the rider's next maneuver must be a Ready (``cause`` says why)."""

    rider: int
    cause: str

    def describe(self) -> str:
        """One log line."""
        return f"entity {self.rider} must take a Ready next turn ({self.cause})"


@register("gurps.StrappedTrauma")
@dataclass(frozen=True, slots=True)
class StrappedTrauma(Event):
    """House rules: a rider strapped in failed to ride out ``yards`` of knockback and takes 1 injury a yard."""

    rider: int
    yards: int
    injury: int

    def describe(self) -> str:
        """One log line."""
        return f"entity {self.rider}, strapped in, takes {self.injury} injury from {self.yards} yd of knockback"


@register("gurps.MountOutOfControl")
@dataclass(frozen=True, slots=True)
class MountOutOfControl(Event):
    """House rules: the rider lost control of the mount (``cause`` says why) until its next Ready."""

    mount: int
    cause: str

    def describe(self) -> str:
        """One log line."""
        return f"entity {self.mount} is out of its rider's control ({self.cause})"


@register("gurps.MountControlRegained")
@dataclass(frozen=True, slots=True)
class MountControlRegained(Event):
    """House rules: the rider's Ready brought the mount back under control."""

    mount: int
    rider: int

    def describe(self) -> str:
        """One log line."""
        return f"entity {self.rider} has entity {self.mount} under control again"

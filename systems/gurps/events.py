"""Events of the GURPS rule set: frozen dataclasses the systems emit, one line each in a turn log.

A flat list, one class per thing that can happen; every event names the entity it happened to first.
Rolls are reported with ``esper_motion.ecs.RollMade``. Hexes are axial ``(q, r)`` tuples, speeds yards per second.
"""

from __future__ import annotations

from dataclasses import dataclass

from esper_motion.ecs.events import Event
from esper_motion.ecs.hexgrid import Hex
from esper_motion.ecs.registry import register


@register("gurps.EnteredHighSpeed")
@dataclass(frozen=True, slots=True)
class EnteredHighSpeed(Event):
    """The entity switched to high-speed movement at the end of a turn (Basic Set: High-Speed Movement)."""

    entity: int
    velocity_yps: int

    def describe(self) -> str:
        """One log line."""
        return f"entity {self.entity} goes to high speed: {self.velocity_yps} yd/s next turn"


@register("gurps.LeftHighSpeed")
@dataclass(frozen=True, slots=True)
class LeftHighSpeed(Event):
    """The entity is back to ordinary movement; ``reason`` says how (slowed down, tripped, collided)."""

    entity: int
    velocity_yps: int
    reason: str

    def describe(self) -> str:
        """One log line."""
        return f"entity {self.entity} leaves high speed at {self.velocity_yps} yd/s ({self.reason})"


@register("gurps.HighSpeedRefused")
@dataclass(frozen=True, slots=True)
class HighSpeedRefused(Event):
    """The entity asked to go past its Move but the turn did not qualify; its velocity stays as it was."""

    entity: int
    velocity_yps: int
    reason: str

    def describe(self) -> str:
        """One log line."""
        return f"entity {self.entity} cannot go to high speed ({self.reason}); stays at {self.velocity_yps} yd/s"


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
    """The end-of-turn change of velocity: ``wanted_yps`` was the throttle asked for, ``forced_yps`` the
    deceleration nobody chose (bad footing, the safe deceleration of a mover out of control)."""

    entity: int
    from_yps: int
    to_yps: int
    wanted_yps: int
    forced_yps: int

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


@register("gurps.Tripped")
@dataclass(frozen=True, slots=True)
class Tripped(Event):
    """The entity fell over at ``at`` (losing control on the ground, or knocked down in a collision)."""

    entity: int
    at: Hex

    def describe(self) -> str:
        """One log line."""
        return f"entity {self.entity} falls over at {self.at}"


@register("gurps.Skidded")
@dataclass(frozen=True, slots=True)
class Skidded(Event):
    """The entity skidded along ``path`` on the ground after tripping, then stopped."""

    entity: int
    path: tuple[Hex, ...]

    def describe(self) -> str:
        """One log line."""
        end = self.path[-1] if self.path else "where it fell"
        return f"entity {self.entity} skids {len(self.path)} yd and stops at {end}"


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


# --- Flying Combat and Changing Posture in Armor ----------------------------------------------------------------


@register("gurps.PostureChanging")
@dataclass(frozen=True, slots=True)
class PostureChanging(Event):
    """A second of a Change Posture went by and ``seconds_left`` more are needed; until then the entity counts
    as still ``posture`` (Basic Set: Changing Posture in Armor)."""

    entity: int
    posture: str
    target: str
    seconds_left: int

    def describe(self) -> str:
        """One log line."""
        return f"entity {self.entity} is getting from {self.posture} to {self.target}: {self.seconds_left} s to go"


@register("gurps.PostureChanged")
@dataclass(frozen=True, slots=True)
class PostureChanged(Event):
    """A change of posture completed: the entity now counts as ``new``."""

    entity: int
    old: str
    new: str

    def describe(self) -> str:
        """One log line."""
        return f"entity {self.entity} goes from {self.old} to {self.new}"


@register("gurps.PostureChangeAbandoned")
@dataclass(frozen=True, slots=True)
class PostureChangeAbandoned(Event):
    """A change of posture under way was given up for another maneuver; the entity stays ``posture``."""

    entity: int
    posture: str
    target: str
    seconds_left: int

    def describe(self) -> str:
        """One log line."""
        return f"entity {self.entity} gives up getting to {self.target} and stays {self.posture}"


@register("gurps.AltitudeChanged")
@dataclass(frozen=True, slots=True)
class AltitudeChanged(Event):
    """A flier climbed (``climb_yd`` above 0) or descended to ``altitude_yd``, paying ``cost`` movement points
    for the vertical yards and the ``level_yd`` level yards flown with them (Basic Set: Flying Combat >
    Aerial Movement > Changing Height). A turn of several climbs and dives (``FlightIntent.legs``) reports each
    in order, every one with the turn's level yards and its whole cost."""

    entity: int
    climb_yd: int
    altitude_yd: float
    level_yd: int
    cost: float

    def describe(self) -> str:
        """One log line."""
        way = "climbs" if self.climb_yd > 0 else "descends"
        return (
            f"entity {self.entity} {way} {abs(self.climb_yd)} yd to {self.altitude_yd:g} yd "
            f"({self.level_yd} yd level, {self.cost:g} movement points)"
        )


@register("gurps.Stalled")
@dataclass(frozen=True, slots=True)
class Stalled(Event):
    """A flier that cannot hover stalled and starts to fall: it covered ``covered_yd`` of the ``needed_yd`` it
    must, or did not take Move or Move and Attack (``reason``) (Basic Set: Flying Combat > Cannot Hover)."""

    entity: int
    reason: str
    covered_yd: float
    needed_yd: int

    def describe(self) -> str:
        """One log line."""
        return f"entity {self.entity} stalls ({self.reason}; covered {self.covered_yd:g} of {self.needed_yd} yd)"


@register("gurps.Falling")
@dataclass(frozen=True, slots=True)
class Falling(Event):
    """A flier without lift dropped ``drop_yd`` this second, ``fall_yd`` in all, to ``altitude_yd``."""

    entity: int
    drop_yd: float
    fall_yd: float
    altitude_yd: float

    def describe(self) -> str:
        """One log line."""
        return f"entity {self.entity} falls {self.drop_yd:g} yd to {self.altitude_yd:g} yd ({self.fall_yd:g} yd so far)"


@register("gurps.StallRecovered")
@dataclass(frozen=True, slots=True)
class StallRecovered(Event):
    """A stalled flier turned its fall into a dive and flies again at ``velocity_yps``
    (Basic Set: Flying Combat > Cannot Hover)."""

    entity: int
    velocity_yps: int
    altitude_yd: float

    def describe(self) -> str:
        """One log line."""
        return (
            f"entity {self.entity} pulls out of the stall into a dive at {self.velocity_yps} yd/s, "
            f"{self.altitude_yd:g} yd up"
        )


@register("gurps.Landed")
@dataclass(frozen=True, slots=True)
class Landed(Event):
    """A falling flier reached the ground after ``fall_yd`` yards, at ``velocity_yps``; the damage follows as
    :class:`FallDamage` (Basic Set: Falling)."""

    entity: int
    fall_yd: float
    velocity_yps: int

    def describe(self) -> str:
        """One log line."""
        return f"entity {self.entity} hits the ground after falling {self.fall_yd:g} yd, at {self.velocity_yps} yd/s"


@register("gurps.FellClear")
@dataclass(frozen=True, slots=True)
class FellClear(Event):
    """A falling flier came down onto ``struck`` (the damage was a :class:`Collided` from above) and ended on the
    ground beside it, at ``at``."""

    entity: int
    struck: int
    at: Hex

    def describe(self) -> str:
        """One log line."""
        return f"entity {self.entity} comes down off entity {self.struck} onto the ground at {self.at}"


@register("gurps.BreathingChanged")
@dataclass(frozen=True, slots=True)
class BreathingChanged(Event):
    """A flier crossed a breathing limit: ``breathing`` is now ``"normal"``, ``"trouble"`` or ``"needs_mask"``
    at ``altitude_ft`` above sea level (Basic Set: Flying Combat > Flight Ceiling)."""

    entity: int
    breathing: str
    altitude_ft: float

    def describe(self) -> str:
        """One log line."""
        return f"entity {self.entity} breathes: {self.breathing} at {self.altitude_ft:g} ft"


# --- Mounted Combat -------------------------------------------------------------------------------


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
    """A mount without war training refused a risky feat: it goes straight on and spooks."""

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


# --- Flying Combat, house rules ---------------------------------------------------------------------------------


@register("gurps.ClimbDiveTurn")
@dataclass(frozen=True, slots=True)
class ClimbDiveTurn(Event):
    """Starting or changing a climb or dive of ``climb_yd`` counted as a turn of ``degrees``; ``pushed`` when it
    came before the turning radius (or was a 120-degree turn) and needed a roll (House rules: Flying Movement
    and Combat)."""

    entity: int
    climb_yd: int
    degrees: int
    pushed: bool

    def describe(self) -> str:
        """One log line."""
        way = "climb" if self.climb_yd > 0 else "dive"
        how = " (pushing the envelope)" if self.pushed else ""
        return f"entity {self.entity} starts a {abs(self.climb_yd)} yd {way}, a {self.degrees}-degree turn{how}"


@register("gurps.WingspanObstructed")
@dataclass(frozen=True, slots=True)
class WingspanObstructed(Event):
    """Something (``obstacles``: entity ids) came within the wingspan of a winged flier; ``whole_movement``
    when it stayed there all the way, which wipes the flier out (House rules: Flying Movement and Combat)."""

    entity: int
    obstacles: tuple[int, ...]
    whole_movement: bool

    def describe(self) -> str:
        """One log line."""
        where = "all along its movement" if self.whole_movement else "on its way"
        return f"entity {self.entity} has {', '.join(map(str, self.obstacles))} in its wingspan {where}"


@register("gurps.WipedOut")
@dataclass(frozen=True, slots=True)
class WipedOut(Event):
    """A flier wiped out: no lift at all, out of control and dropping faster each second (``reason`` says why)
    (House rules: Flying Movement and Combat)."""

    entity: int
    reason: str

    def describe(self) -> str:
        """One log line."""
        return f"entity {self.entity} wipes out ({self.reason})"


@register("gurps.LiftRegained")
@dataclass(frozen=True, slots=True)
class LiftRegained(Event):
    """A wiped-out flier regained control, adding the speed of its dive (``dive_yps``) to its velocity, now
    ``velocity_yps`` (House rules: Flying Movement and Combat)."""

    entity: int
    dive_yps: int
    velocity_yps: int

    def describe(self) -> str:
        """One log line."""
        return f"entity {self.entity} pulls out of the wipe-out, +{self.dive_yps} yd/s: {self.velocity_yps} yd/s"

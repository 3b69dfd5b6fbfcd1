"""Components of Mounted Combat: riders, the mounts they ride, and the nerve of foes who face a charge.

Riders and mounts are linked by entity id: ``Rider.mount`` names the mount, ``Mount.riders`` lists the riders
in seat order, the first one controlling the mount (Basic Set: Mounted Combat > Multiple Riders). The
systems check these links every turn: a mount that no longer exists unseats its riders through the rules
(a fall), and a link that loops back (a rider riding itself, or a chain of riders back to itself) is a
clear error.

Reading chosen for structure (docs/architecture.md > Performance): an entity that may ride keeps its ``Rider`` component
on foot and mounted alike, and an entity that may be ridden keeps its ``Mount``. Mounting, dismounting and
falling off change fields (``Rider.mount``, ``Mount.riders``), never components, so no turn in which
somebody mounts or falls drops esper's cached queries.

Each component has two kinds of field: lasting state, and this turn's requests, which a game writes
through the functions of ``esper_motion.systems.gurps.mounted.mounting``,
``esper_motion.systems.gurps.mounted.mounted_results`` and their neighbours; the MOUNTED phase resolves the requests and
clears them.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Final

from esper_motion.ecs.errors import RuleValueError
from esper_motion.ecs.links import LinkError, LinkView
from esper_motion.ecs.registry import register
from esper_motion.ecs.validate import check_bool, check_choice, check_int, check_number

MOUNT_TRAININGS: Final = ("war-trained", "well-broken", "not fully broken")
"""How well broken a mount is; the values of ``esper_motion.systems.gurps.rules.Training`` (Basic Set: Mounted
Combat)."""

RIDER_ACTIONS: Final = ("mount", "leap astride", "dismount", "jump off", "sheathe", "tighten saddle")
"""What a rider may ask of the MOUNTED phase this turn (see ``esper_motion.systems.gurps.mounted.mounting``)."""

MOUNTING_SKILLS: Final = ("Riding", "Acrobatics", "Jumping")
"""Skills that can leap astride in one turn; jumping off takes Acrobatics or Jumping
(Basic Set: Mounted Combat > Mounting Up; Movement and Maneuvers)."""

RANGED_TRICKS: Final = ("turn_in_saddle", "far_side")
"""The shooting tricks of Basic Set: Mounted Combat > Using Ranged Weapons While Mounted > Tricks (the
kinds of ``esper_motion.systems.gurps.rules.RANGED_TRICK_TABLE``)."""

RISKY_FEATS: Final = ("obstacle", "bad footing", "jump", "tight turn", "hasty deceleration")
"""Things a mount without war training does only if its rider makes Riding+2 (Basic Set: Mounted Combat)."""

MOUNT_ATTACKS: Final = ("bite", "kick", "trample")
"""How a horse fights (Basic Set: Mounted Combat > Attacks by Mounts)."""

MOUNT_DEFENSES: Final = ("dodge", "block", "parry")
"""The active defenses a mount may have by its own abilities under the house rules (House rules: Mounts)."""

CHARGES: Final = ("toward", "away")
"""Which way a mount out of control charges: toward the foe or hazard (table row 5) or away (row 10)."""


def _check_entity(owner: str, name: str, value: object) -> int:
    """An entity id: esper numbers entities from 1."""
    return check_int(owner, name, value, low=1)


@register("gurps.Rider")
@dataclass(slots=True)
class Rider:
    """Someone who may ride, on foot or mounted.

    Each field, what it holds and the rule it reads: docs/gurps-basic.md > Components, field by field > Rider.

    >>> Rider(hands_on_reins=3)
    Traceback (most recent call last):
    ...
    esper_motion.ecs.errors.RuleValueError: Rider.hands_on_reins = 3: expected a whole number from 0 to 2
    """

    mount: int | None = None
    hands_on_reins: int = 2
    strapped_in: bool = False
    cavalry_training: bool = False
    ready_turn: int | None = None
    climbing_onto: int | None = None
    action: str | None = None
    action_target: int | None = None
    action_skill: str | None = None
    stunned_now: bool = False
    knockback_yd: int = 0
    noisy_shots: int = 0
    trick: str | None = None

    def __post_init__(self) -> None:
        owner = "Rider"
        for name in ("mount", "climbing_onto", "action_target"):
            value = getattr(self, name)
            if value is not None:
                _check_entity(owner, name, value)
        check_int(owner, "hands_on_reins", self.hands_on_reins, low=0, high=2)
        check_bool(owner, "strapped_in", self.strapped_in)
        check_bool(owner, "cavalry_training", self.cavalry_training)
        if self.ready_turn is not None:
            check_int(owner, "ready_turn", self.ready_turn, low=0)
        if self.action is not None:
            check_choice(owner, "action", self.action, RIDER_ACTIONS)
            if self.action in ("leap astride", "jump off") and self.action_skill is None:
                raise RuleValueError(
                    owner, "action_skill", None, f"the skill to {self.action} with, one of {MOUNTING_SKILLS}"
                )
        if self.action_skill is not None:
            check_choice(owner, "action_skill", self.action_skill, MOUNTING_SKILLS)
        check_bool(owner, "stunned_now", self.stunned_now)
        check_int(owner, "knockback_yd", self.knockback_yd, low=0)
        check_int(owner, "noisy_shots", self.noisy_shots, low=0)
        if self.trick is not None:
            check_choice(owner, "trick", self.trick, RANGED_TRICKS)

    def links(self) -> Iterator[int]:
        """The entities this rider refers to (its mount, the mount it climbs onto, a request's target)."""
        for value in (self.mount, self.climbing_onto, self.action_target):
            if value is not None:
                yield value

    def check_links(self, entity: int, view: LinkView) -> None:
        """Refuse a rider on itself or on a riding chain that loops back to it, on an entity with no ``Mount``
        (``view.strict``: else the rules unseat it), or, ``view.both_ways``, on a mount that does not list it
        (Basic Set: Mounted Combat > Multiple Riders: a mount's riders are its seats)."""
        mount = self.mount
        if mount is None:
            return
        chain = [entity, mount]
        while chain[-1] != entity:
            below = view.get(chain[-1], Rider)
            if below is None or below.mount is None or len(chain) > len(set(chain)):
                break
            chain.append(below.mount)
        if chain[-1] == entity:
            shown = " -> ".join(str(link) for link in chain)
            raise LinkError(entity, "Rider", "mount", mount, f"the riding chain {shown} loops back to it")
        ridden = view.get(mount, Mount)
        if ridden is None:
            if view.strict and view.exists(mount):
                raise LinkError(entity, "Rider", "mount", mount, f"entity {mount} has no Mount to ride")
            return
        if view.both_ways and entity not in ridden.riders:
            raise LinkError(
                entity, "Rider", "mount", mount, f"Mount.riders of entity {mount} is {ridden.riders}, without it"
            )


@register("gurps.Mount", new_fields={3: ("feats",)})
@dataclass(slots=True)
class Mount:
    """A creature (or open vehicle) that can be ridden, its tack, and its state in the fight.

    Each field, what it holds and the rule it reads: docs/gurps-basic.md > Components, field by field > Mount.

    >>> Mount(hexes=4)
    Traceback (most recent call last):
    ...
    esper_motion.ecs.errors.RuleValueError: Mount.hexes = 4: expected a whole number from 2 to 3
    """

    riders: list[int] = field(default_factory=list)
    training: str = "war-trained"
    hexes: int = 3
    saddle: bool = True
    stirrups: bool = True
    war_saddle: bool = False
    iron_horseshoes: bool = False
    open_vehicle: bool = False
    seats: int = 2
    fall_yd: int = 3
    defenses: tuple[str, ...] = ("dodge",)
    spooked_from: int | None = None
    spook_successes: int = 0
    spook_failures: int = 0
    threat: int | None = None
    fractious: int = 0
    saddle_loose: bool = False
    tightening_left: int = 0
    exhausted: bool = False
    charging: str | None = None
    broken_leg: bool = False
    loose: bool = False
    call_back_by: int | None = None
    call_back_in: int = 0
    out_of_control: bool = False
    attacked_turn: int | None = None
    dx_rolls: list[bool] = field(default_factory=list)
    feat: str | None = None
    feats: dict[str, bool] = field(default_factory=dict)
    attack: str | None = None
    hits: list[int] = field(default_factory=list)
    crippled: bool = False
    crashed_from_yd: float = 0.0
    charge_foe: int | None = None

    def __post_init__(self) -> None:
        owner = "Mount"
        check_int(owner, "seats", self.seats, low=1)
        if not isinstance(self.riders, list):
            raise RuleValueError(owner, "riders", self.riders, "a list of entity ids")
        for index, rider in enumerate(self.riders):
            _check_entity(owner, f"riders[{index}]", rider)
        if len(set(self.riders)) != len(self.riders):
            raise RuleValueError(owner, "riders", self.riders, "each rider at most once")
        if len(self.riders) > self.seats:
            raise RuleValueError(owner, "riders", self.riders, f"at most seats={self.seats} riders")
        check_choice(owner, "training", self.training, MOUNT_TRAININGS)
        check_int(owner, "hexes", self.hexes, low=2, high=3)
        for name in ("saddle", "stirrups", "war_saddle", "iron_horseshoes", "open_vehicle"):
            check_bool(owner, name, getattr(self, name))
        check_int(owner, "fall_yd", self.fall_yd, low=1)
        if not isinstance(self.defenses, tuple) or not self.defenses:
            raise RuleValueError(owner, "defenses", self.defenses, f"a non-empty tuple of {', '.join(MOUNT_DEFENSES)}")
        for index, defense in enumerate(self.defenses):
            check_choice(owner, f"defenses[{index}]", defense, MOUNT_DEFENSES)
        if self.spooked_from is not None:
            check_int(owner, "spooked_from", self.spooked_from, low=0)
        check_int(owner, "spook_successes", self.spook_successes, low=0, high=2)
        check_int(owner, "spook_failures", self.spook_failures, low=0, high=2)
        for name in ("threat", "call_back_by", "charge_foe"):
            value = getattr(self, name)
            if value is not None:
                _check_entity(owner, name, value)
        check_int(owner, "fractious", self.fractious, high=0)
        check_bool(owner, "saddle_loose", self.saddle_loose)
        check_int(owner, "tightening_left", self.tightening_left, low=0)
        check_bool(owner, "exhausted", self.exhausted)
        if self.charging is not None:
            check_choice(owner, "charging", self.charging, CHARGES)
        check_bool(owner, "broken_leg", self.broken_leg)
        check_bool(owner, "loose", self.loose)
        check_int(owner, "call_back_in", self.call_back_in, low=0)
        check_bool(owner, "out_of_control", self.out_of_control)
        if self.attacked_turn is not None:
            check_int(owner, "attacked_turn", self.attacked_turn, low=0)
        if not isinstance(self.dx_rolls, list):
            raise RuleValueError(owner, "dx_rolls", self.dx_rolls, "a list of True (made) or False (failed)")
        for index, made in enumerate(self.dx_rolls):
            check_bool(owner, f"dx_rolls[{index}]", made)
        if self.feat is not None:
            check_choice(owner, "feat", self.feat, RISKY_FEATS)
        if not isinstance(self.feats, dict):
            raise RuleValueError(owner, "feats", self.feats, "a dict of risky feat to True (done) or False (refused)")
        for name, done in self.feats.items():
            check_choice(owner, "feats", name, RISKY_FEATS)
            check_bool(owner, f"feats[{name!r}]", done)
        if self.attack is not None:
            check_choice(owner, "attack", self.attack, MOUNT_ATTACKS)
        if not isinstance(self.hits, list):
            raise RuleValueError(owner, "hits", self.hits, "a list of injuries, each 0 or more")
        for index, injury in enumerate(self.hits):
            check_int(owner, f"hits[{index}]", injury, low=0)
        check_bool(owner, "crippled", self.crippled)
        check_number(owner, "crashed_from_yd", self.crashed_from_yd, low=0)

    @property
    def spooked(self) -> bool:
        """Whether the mount is spooked: shying and bucking until calmed."""
        return self.spooked_from is not None

    @property
    def controller(self) -> int | None:
        """The rider controlling the mount: the first seated, or None when nobody rides it."""
        return self.riders[0] if self.riders else None

    def links(self) -> Iterator[int]:
        """The entities this mount refers to: its riders, its threat, a foe it charges, who may call it."""
        yield from self.riders
        for value in (self.threat, self.call_back_by, self.charge_foe):
            if value is not None:
                yield value

    def check_links(self, entity: int, view: LinkView) -> None:
        """Refuse a mount that carries itself, or lists a rider that rides another mount that exists (two mounts
        claiming one rider); ``view.both_ways``, also a listed rider that exists with no ``Rider`` or on foot
        (Basic Set: Mounted Combat > Multiple Riders)."""
        for index, rider in enumerate(self.riders):
            field = f"riders[{index}]"
            if rider == entity:
                raise LinkError(entity, "Mount", field, rider, "a mount cannot carry itself")
            seated = view.get(rider, Rider)
            if seated is None:
                if view.both_ways and view.exists(rider):
                    raise LinkError(entity, "Mount", field, rider, f"entity {rider} has no Rider")
                continue
            if seated.mount == entity:
                continue
            if seated.mount is None:
                if view.both_ways:
                    raise LinkError(entity, "Mount", field, rider, f"entity {rider} is on foot (Rider.mount is None)")
            elif view.both_ways or view.exists(seated.mount):
                raise LinkError(entity, "Mount", field, rider, f"entity {rider} rides entity {seated.mount}")


@register("gurps.Nerve")
@dataclass(slots=True)
class Nerve:
    """What a foe stands a cavalry charge with: Will, Combat Reflexes, and whether it is used to cavalry.

    A foe ``unused_to_cavalry`` (the GM's call) that is charged rolls Will, +6 with Combat Reflexes, to stand
    and fight, unless its Size Modifier is at least the mount's (Basic Set: Mounted Combat > Attacks by
    Mounts > Panic). ``panicked`` records a failed roll: the foe tries to run.
    """

    will: int = 10
    combat_reflexes: bool = False
    unused_to_cavalry: bool = True
    panicked: bool = False

    def __post_init__(self) -> None:
        check_int("Nerve", "will", self.will, low=0)
        check_bool("Nerve", "combat_reflexes", self.combat_reflexes)
        check_bool("Nerve", "unused_to_cavalry", self.unused_to_cavalry)
        check_bool("Nerve", "panicked", self.panicked)

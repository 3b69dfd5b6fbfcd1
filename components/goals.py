"""Goals: what a GURPS mover wants, for the planner to choose its intents in the DECIDE phase.

A mover with one of these components has its ``Intent`` written for it each turn
(``esper_motion.systems.gurps.planner``); a mover without one keeps the intent the game writes. An entity holds
one goal at a time: a spawn or an add that would give it a second is refused, naming both.

How far the mover may gamble is a component of its own, :class:`Caution`, shared by every goal (one home for
it, and a game changes a mover's goal without restating its temper); a mover without one takes no roll.

A goal that names another entity (``Pursue.target``, ``Flee.source``, ``KeepStation.target``,
``Charge.target``, ``Swoop.target``) is a link
(:mod:`esper_motion.ecs.links`): naming a missing entity, or the mover itself, is refused when the goal is set (a
spawn, an add, a load). A target despawned later is the planner's to deal with: it sets the field to None, the mover
holds, and a ``GoalLost`` event says why; None there always means "hold". Until that next step, what is added to
the mover is checked beside the goal, and refused while its link dangles.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Final

from esper_motion.components.gurps import Mover
from esper_motion.components.motion import MAX_ALTITUDE_YD, MAX_SPEED_YPS, Velocity
from esper_motion.components.spelljammer import Mobility, RoundIntent, RoundState
from esper_motion.ecs.errors import RuleValueError, WorldError
from esper_motion.ecs.hexgrid import Hex, check_hex
from esper_motion.ecs.links import LinkError, LinkView
from esper_motion.ecs.registry import register
from esper_motion.ecs.validate import check_bool, check_int, check_number

MAX_RANGE_YD: Final = 1_000
"""The largest range a goal holds, in yards (a pursuit's, a flight's, a station's)."""


def place_fields(cls: type[Any]) -> tuple[str, ...]:
    """The fields of component class ``cls`` that are places on the map, each a hex or a tuple of hexes: its class
    attribute ``PLACES`` (``GoTo.PLACES == ("hex",)``), none without one. A scene file refuses a component whose
    places are off its map, whatever the component: a goal of your own with a hex field names it in ``PLACES``.

    >>> place_fields(Patrol), place_fields(Hold)
    (('waypoints',), ())
    """
    found = getattr(cls, "PLACES", ())
    if not (isinstance(found, tuple) and all(isinstance(name, str) for name in found)):
        raise WorldError(f"{cls.__qualname__}.PLACES = {found!r}: expected a tuple of field names")
    return found


def _check_target(owner: str, name: str, value: object) -> None:
    """An entity id (esper numbers entities from 1), or None: the entity is gone, and the mover holds."""
    if value is not None:
        check_int(owner, name, value, low=1)


def _links(target: int | None) -> tuple[int, ...]:
    return () if target is None else (target,)


def _check_target_link(goal: Any, entity: int, view: LinkView, name: str) -> None:
    """Refuse a goal naming the mover itself, or (when set: a spawn, an add, a load) an entity that does not exist;
    a target gone between steps is left to the planner."""
    target = getattr(goal, name)
    owner = type(goal).__name__
    if target is None:
        return
    if target == entity:
        raise LinkError(entity, owner, name, target, "another entity: a mover cannot take itself as its goal")
    if (view.strict or not view.both_ways) and not view.exists(target):
        raise LinkError(entity, owner, name, target, "an entity of this world")


def _check_goal(goal: Any, entity: int, view: LinkView) -> None:
    """Refuse a second goal on ``entity``, and a goal the planner of the rule set ``entity`` belongs to does not
    play (:data:`PLAYED`)."""
    kind = type(goal)
    for other in ALL_GOAL_TYPES:
        if other is not kind and view.get(entity, other) is not None:
            raise LinkError(entity, kind.__name__, "goal", other.__name__, "one goal at a time: remove the other first")
    for rule_set, member, marks, plays in PLAYED:
        if kind not in plays and all(view.get(entity, mark) is not None for mark in marks):
            holds = " and ".join(mark.__name__ for mark in marks)
            played = ", ".join(goal.__name__ for goal in plays)
            problem = f"a goal the {rule_set} planner plays, entity {entity} being {member} (it holds {holds})"
            raise LinkError(entity, kind.__name__, "goal", kind.__name__, f"{problem}: one of {played}")


@register("gurps.GoTo")
@dataclass(slots=True)
class GoTo:
    """Go to ``hex`` and stop there (``stop``), or pass through it at whatever speed (``stop=False``).

    >>> GoTo((2, "x"))
    Traceback (most recent call last):
    ...
    esper_motion.ecs.errors.RuleValueError: GoTo.hex = (2, 'x'): expected a hex: a tuple (q, r) of two whole numbers
    """

    hex: Hex
    stop: bool = True

    PLACES: ClassVar[tuple[str, ...]] = ("hex",)
    """Its fields that are places on the map (:func:`place_fields`)."""

    def __post_init__(self) -> None:
        check_hex("GoTo", "hex", self.hex)
        check_bool("GoTo", "stop", self.stop)

    def check_links(self, entity: int, view: LinkView) -> None:
        """One goal at a time, of those its rule set's planner plays."""
        _check_goal(self, entity, view)


@register("gurps.Pursue")
@dataclass(slots=True)
class Pursue:
    """Close on entity ``target`` to within ``range_yd`` (hexes between the two), or run into it (``ram``); None:
    the target is gone, hold."""

    target: int | None
    range_yd: int = 1
    ram: bool = False

    def __post_init__(self) -> None:
        _check_target("Pursue", "target", self.target)
        check_int("Pursue", "range_yd", self.range_yd, low=0, high=MAX_RANGE_YD)
        check_bool("Pursue", "ram", self.ram)

    def links(self) -> tuple[int, ...]:
        """The entity pursued."""
        return _links(self.target)

    def check_links(self, entity: int, view: LinkView) -> None:
        """Refuse a target that is the mover itself or, when set, missing; one goal at a time, of those its rule
        set's planner plays."""
        _check_target_link(self, entity, view, "target")
        _check_goal(self, entity, view)


@register("gurps.Flee")
@dataclass(slots=True)
class Flee:
    """Get at least ``range_yd`` away from entity ``source``, and keep away; with ``cover``, run instead to the
    nearest hex out of the source's sight behind an obstacle, and stay there (the GURPS planner: docs/goals.md >
    Cover); None: the source is gone, hold."""

    source: int | None
    range_yd: int = 20
    cover: bool = False

    def __post_init__(self) -> None:
        _check_target("Flee", "source", self.source)
        check_int("Flee", "range_yd", self.range_yd, low=1, high=MAX_RANGE_YD)
        check_bool("Flee", "cover", self.cover)

    def links(self) -> tuple[int, ...]:
        """The entity fled."""
        return _links(self.source)

    def check_links(self, entity: int, view: LinkView) -> None:
        """Refuse a source that is the mover itself or, when set, missing; one goal at a time."""
        _check_target_link(self, entity, view, "source")
        _check_goal(self, entity, view)


@register("gurps.KeepStation")
@dataclass(slots=True)
class KeepStation:
    """Keep within ``range_yd`` of entity ``target`` (beside it at 1), as it moves; None: the target is gone,
    hold."""

    target: int | None
    range_yd: int = 1

    def __post_init__(self) -> None:
        _check_target("KeepStation", "target", self.target)
        check_int("KeepStation", "range_yd", self.range_yd, low=1, high=MAX_RANGE_YD)

    def links(self) -> tuple[int, ...]:
        """The entity kept beside."""
        return _links(self.target)

    def check_links(self, entity: int, view: LinkView) -> None:
        """Refuse a target that is the mover itself or, when set, missing; one goal at a time, of those its rule
        set's planner plays."""
        _check_target_link(self, entity, view, "target")
        _check_goal(self, entity, view)


@register("gurps.Patrol")
@dataclass(slots=True)
class Patrol:
    """Pass through each hex of ``waypoints`` in turn, round and round; ``next_index`` is the one headed for now
    (the planner moves it on as each is reached)."""

    waypoints: tuple[Hex, ...]
    next_index: int = 0

    PLACES: ClassVar[tuple[str, ...]] = ("waypoints",)
    """Its fields that are places on the map (:func:`place_fields`)."""

    def __post_init__(self) -> None:
        if not isinstance(self.waypoints, tuple) or not self.waypoints:
            raise RuleValueError("Patrol", "waypoints", self.waypoints, "a tuple of one or more hexes (q, r)")
        if len(self.waypoints) > MAX_RANGE_YD:
            raise RuleValueError("Patrol", "waypoints", self.waypoints, f"at most {MAX_RANGE_YD} hexes")
        for index, hex in enumerate(self.waypoints):
            check_hex("Patrol", f"waypoints[{index}]", hex)
        check_int("Patrol", "next_index", self.next_index, low=0, high=len(self.waypoints) - 1)

    def check_links(self, entity: int, view: LinkView) -> None:
        """One goal at a time, of those its rule set's planner plays."""
        _check_goal(self, entity, view)


@register("gurps.Hold")
@dataclass(slots=True)
class Hold:
    """Come to a stop as soon as it safely can, and stay there."""

    def check_links(self, entity: int, view: LinkView) -> None:
        """One goal at a time, of those its rule set's planner plays."""
        _check_goal(self, entity, view)


@register("gurps.Charge")
@dataclass(slots=True)
class Charge:
    """Charge entity ``target`` pass after pass: line up on it, build speed, strike on the pass from the first yard
    it is in reach (the mover's ``Attack``, a rider's couched lance, say), ride on until ``run_yd`` away, wheel
    round and come again. ``wheeling`` is the planner's record of where the mover is in that round: True from the
    pass until it is ``run_yd`` away; ``charged`` True once the run of this pass has been reported to the foe (a
    mount's ``charge_foe``: its panic check), until the pass. None for ``target``: the target is gone, or out of
    the fight: hold."""

    target: int | None
    run_yd: int = 12
    wheeling: bool = False
    charged: bool = False

    def __post_init__(self) -> None:
        _check_target("Charge", "target", self.target)
        check_int("Charge", "run_yd", self.run_yd, low=2, high=MAX_RANGE_YD)
        check_bool("Charge", "wheeling", self.wheeling)
        check_bool("Charge", "charged", self.charged)

    def links(self) -> tuple[int, ...]:
        """The entity charged."""
        return _links(self.target)

    def check_links(self, entity: int, view: LinkView) -> None:
        """Refuse a target that is the mover itself or, when set, missing; one goal at a time, of those its rule
        set's planner plays."""
        _check_target_link(self, entity, view, "target")
        _check_goal(self, entity, view)


def _check_place(owner: str, hex: object) -> None:
    """A hex, or None: where the flier is."""
    if hex is not None:
        check_hex(owner, "hex", hex)


@register("gurps.Climb")
@dataclass(slots=True)
class Climb:
    """A flier: climb (or dive) to ``altitude_yd`` yards up and keep that height, over ``hex`` (None: where it is; a
    flier that cannot hover circles there), within the flight rules' climb and descent limits; one on the ground
    takes off first, where the rules let it.

    >>> Climb(0)
    Traceback (most recent call last):
    ...
    esper_motion.ecs.errors.RuleValueError: Climb.altitude_yd = 0: expected a whole number from 1 to 1000000
    """

    altitude_yd: int
    hex: Hex | None = None

    PLACES: ClassVar[tuple[str, ...]] = ("hex",)
    """Its fields that are places on the map (:func:`place_fields`)."""

    def __post_init__(self) -> None:
        check_int("Climb", "altitude_yd", self.altitude_yd, low=1, high=MAX_ALTITUDE_YD)
        _check_place("Climb", self.hex)

    def check_links(self, entity: int, view: LinkView) -> None:
        """One goal at a time, of those its rule set's planner plays."""
        _check_goal(self, entity, view)


@register("gurps.Land")
@dataclass(slots=True)
class Land:
    """A flier: come down within the descent limits and end on the ground at ``hex`` (None: where it is), at rest."""

    hex: Hex | None = None

    PLACES: ClassVar[tuple[str, ...]] = ("hex",)
    """Its fields that are places on the map (:func:`place_fields`)."""

    def __post_init__(self) -> None:
        _check_place("Land", self.hex)

    def check_links(self, entity: int, view: LinkView) -> None:
        """One goal at a time, of those its rule set's planner plays."""
        _check_goal(self, entity, view)


@register("gurps.Swoop")
@dataclass(slots=True)
class Swoop:
    """A flier: swoop on entity ``target`` pass after pass: come down to striking height on it, strike on the pass on
    a Move and Attack from the first yard it is in reach (the flier's ``Attack``), fly on until ``run_yd`` away while
    climbing back to ``height_yd`` yards up, and come again. ``wheeling`` is the planner's record: True from the
    pass until it is ``run_yd`` away. None for ``target``: the target is gone, hold."""

    target: int | None
    height_yd: int = 10
    run_yd: int = 12
    wheeling: bool = False

    def __post_init__(self) -> None:
        _check_target("Swoop", "target", self.target)
        check_int("Swoop", "height_yd", self.height_yd, low=1, high=MAX_ALTITUDE_YD)
        check_int("Swoop", "run_yd", self.run_yd, low=2, high=MAX_RANGE_YD)
        check_bool("Swoop", "wheeling", self.wheeling)

    def links(self) -> tuple[int, ...]:
        """The entity swooped on."""
        return _links(self.target)

    def check_links(self, entity: int, view: LinkView) -> None:
        """Refuse a target that is the mover itself or, when set, missing; one goal at a time, of those its rule
        set's planner plays."""
        _check_target_link(self, entity, view, "target")
        _check_goal(self, entity, view)


GOAL_TYPES: Final = (GoTo, Pursue, Flee, KeepStation, Patrol, Hold, Charge, Climb, Land, Swoop)
"""Every goal component the GURPS planner plays, in the order the planner looks for them."""


@register("spelljammer.Hunt")
@dataclass(slots=True)
class Hunt:
    """Chase the nearest quarry to within ``range_yd`` (hexes between the two), choosing it afresh each round: its
    quarry is every character that flees from it (its ``Flee`` goal, or its ``RoundIntent.flee_from``, names the
    hunter), the nearest first, then the lowest id. A goal of the Spelljammer planner alone
    (:data:`CHARACTER_GOAL_TYPES`): a GURPS mover refuses it (:data:`PLAYED`).

    >>> Hunt(range_yd=-1)
    Traceback (most recent call last):
    ...
    esper_motion.ecs.errors.RuleValueError: Hunt.range_yd = -1: expected a whole number from 0 to 1000
    >>> from esper_motion.ecs import World
    >>> with World() as world:
    ...     world.spawn(Mover(5), Velocity(0), Hunt())
    Traceback (most recent call last):
    ...
    esper_motion.ecs.links.LinkError: entity 1: Hunt.goal = 'Hunt': a goal the GURPS planner plays, entity 1 being \
a GURPS mover (it holds Mover and Velocity): one of GoTo, Pursue, Flee, KeepStation, Patrol, Hold, Charge, Climb, \
Land, Swoop
    """

    range_yd: int = 1

    def __post_init__(self) -> None:
        check_int("Hunt", "range_yd", self.range_yd, low=0, high=MAX_RANGE_YD)

    def check_links(self, entity: int, view: LinkView) -> None:
        """One goal at a time, of those its rule set's planner plays."""
        _check_goal(self, entity, view)


ALL_GOAL_TYPES: Final = (*GOAL_TYPES, Hunt)
"""Every goal component: an entity holds one of them at a time."""

CHARACTER_GOAL_TYPES: Final = (GoTo, Pursue, Flee, KeepStation, Patrol, Hold, Hunt)
"""Every goal component the Spelljammer planner plays."""

PLAYED: Final = (
    ("GURPS", "a GURPS mover", (Mover, Velocity), GOAL_TYPES),
    ("Spelljammer", "a Spelljammer character", (Mobility, RoundIntent, RoundState), CHARACTER_GOAL_TYPES),
)
"""Which goals each rule set's planner plays: the rule set, what an entity of it is and the components that make
one (as the rule set declares its members), and the goal types its planner plays. A goal is refused when it is set
(a spawn, an add, a load; and an add that makes its entity one of these) on an entity of a rule set whose planner
does not play it, naming the entity, the goal and the goals that planner plays: a ``Hunt`` on a GURPS mover, a
``Charge`` or a ``Swoop`` on a Spelljammer character."""

Goal = GoTo | Pursue | Flee | KeepStation | Patrol | Hold | Charge | Climb | Land | Swoop
"""Any goal component."""


@register("gurps.Caution")
@dataclass(slots=True)
class Caution:
    """The largest chance of failing a roll that the mover accepts in one turn, 0 to 1, the planner reads from the
    exact odds of each roll (0, the default without this component: only moves that need no roll at all).

    >>> Caution(1.5)
    Traceback (most recent call last):
    ...
    esper_motion.ecs.errors.RuleValueError: Caution.failure_chance = 1.5: expected a finite number from 0 to 1
    """

    failure_chance: float = 0.0

    def __post_init__(self) -> None:
        check_number("Caution", "failure_chance", self.failure_chance, low=0, high=1)


MAX_PLAN_TURNS: Final = 16
"""The most turns a :class:`KeptPlan` holds."""

MAX_WAITED: Final = 1_000
"""The most turns :attr:`KeptPlan.waited` counts (a mover that waited longer stays at this)."""


def _check_each(owner: str, name: str, values: object, check: Any) -> None:
    """``values`` a tuple of at most :data:`MAX_PLAN_TURNS` + 1 entries, each passing
    ``check(owner, f"{name}[i]", entry)``."""
    if not isinstance(values, tuple) or len(values) > MAX_PLAN_TURNS + 1:
        raise RuleValueError(owner, name, values, f"a tuple of at most {MAX_PLAN_TURNS + 1} entries")
    for index, value in enumerate(values):
        check(owner, f"{name}[{index}]", value)


def _ranged(low: int, high: int) -> Any:
    return lambda owner, name, value: check_int(owner, name, value, low=low, high=high)


@register("gurps.KeptPlan")
@dataclass(slots=True)
class KeptPlan:
    """The plan the planner follows for a mover with a goal, and what it assumed (written by the planner alone, and
    saved with the world so that a loaded world plays on the same; ``esper_motion.systems.gurps.planner``).

    The turns still to follow, one entry each: ``throttles``, ``turns`` (hexsides, either way), ``at_once`` (the turn
    made at the first yard, pushed), ``pushes``, ``veers`` (-1, 0 or 1: the side veered to for the whole path) and
    ``meets`` (whether that turn meets the goal). The states the plan predicts, one more entry each (now, then after
    each turn): ``hexes``, ``facings``, ``headings``, ``velocities``, ``straight_yd`` and ``high_speed``. ``reaches``:
    whether the plan meets the goal at its end. What it assumed: the goal (``goal``, its repr), ``caution``, and the
    entity the goal names as it was when planned (``target_hex`` and its velocity, ``target_yps`` and
    ``target_heading``; None for no entity) ``followed`` turns ago. No turns: no plan kept. ``waited``: the turns in a
    row the mover was decided without the search it needed, the planning budget spent (docs/goals.md > The planning
    budget; the most waiting go first).

    >>> KeptPlan(caution=2.0)
    Traceback (most recent call last):
    ...
    esper_motion.ecs.errors.RuleValueError: KeptPlan.caution = 2.0: expected a finite number from 0 to 1
    """

    throttles: tuple[int, ...] = ()
    turns: tuple[int, ...] = ()
    at_once: tuple[bool, ...] = ()
    pushes: tuple[bool, ...] = ()
    veers: tuple[int, ...] = ()
    meets: tuple[bool, ...] = ()
    hexes: tuple[Hex, ...] = ()
    facings: tuple[int, ...] = ()
    headings: tuple[int, ...] = ()
    velocities: tuple[int, ...] = ()
    straight_yd: tuple[int, ...] = ()
    high_speed: tuple[bool, ...] = ()
    reaches: bool = False
    goal: str = ""
    caution: float = 0.0
    target_hex: Hex | None = None
    target_yps: int = 0
    target_heading: int = 0
    followed: int = 0
    waited: int = 0

    def __post_init__(self) -> None:
        owner = "KeptPlan"
        speed, side = _ranged(0, MAX_SPEED_YPS), _ranged(-1, 1)
        per_turn = {
            "throttles": _ranged(-MAX_SPEED_YPS, MAX_SPEED_YPS),
            "turns": _ranged(-2, 2),
            "at_once": check_bool,
            "pushes": check_bool,
            "veers": side,
            "meets": check_bool,
        }
        per_state = {
            "hexes": check_hex,
            "facings": _ranged(0, 5),
            "headings": _ranged(0, 5),
            "velocities": speed,
            "straight_yd": speed,
            "high_speed": check_bool,
        }
        for name, check in (per_turn | per_state).items():
            _check_each(owner, name, getattr(self, name), check)
        count = len(self.throttles)
        if count > MAX_PLAN_TURNS:
            raise RuleValueError(owner, "throttles", self.throttles, f"at most {MAX_PLAN_TURNS} turns")
        for names, length, what in ((per_turn, count, "one per turn"), (per_state, count + 1 if count else 0, "")):
            for name in names:
                if len(getattr(self, name)) != length:
                    each = what or "one per state: now, then after each turn (none without turns)"
                    raise RuleValueError(owner, name, getattr(self, name), f"{length} entries, {each}")
        check_bool(owner, "reaches", self.reaches)
        if not isinstance(self.goal, str):
            raise RuleValueError(owner, "goal", self.goal, "the text of the goal the plan was made for")
        check_number(owner, "caution", self.caution, low=0, high=1)
        if self.target_hex is not None:
            check_hex(owner, "target_hex", self.target_hex)
        check_int(owner, "target_yps", self.target_yps, low=0, high=MAX_SPEED_YPS)
        check_int(owner, "target_heading", self.target_heading, low=0, high=5)
        check_int(owner, "followed", self.followed, low=0, high=MAX_PLAN_TURNS)
        check_int(owner, "waited", self.waited, low=0, high=MAX_WAITED)

"""Components of Flying Combat: how an entity flies, what it wants to do in the air, and the scene's air.

A flier is airborne while its ``Position.altitude_yd`` is above 0; at altitude 0 it stands (or lies) on the
ground. Per-turn state lives in fields that stay on the entity (docs/architecture.md > Performance): the systems flip
``Flight.stalled`` or count ``Flight.fall_seconds``; they never add or remove these components in the hot path.

Sources: Basic Set: Flying Combat (Aerial Movement, Flying Fast, Cannot Hover, Flight Ceiling) and the house
rules' Flying Movement and Combat (dive bonus, wipe-outs, wingspan).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Final

from esper_motion.components.motion import MAX_ALTITUDE_YD, MAX_MOVE, MAX_SPEED_YPS
from esper_motion.ecs.errors import RuleValueError
from esper_motion.ecs.registry import register
from esper_motion.ecs.validate import check_bool, check_choice, check_int, check_number


class FlightMode(str, Enum):
    """How a flier stays up: able to hover, or one of the limitations that must keep moving to fly.

    Fliers with Cannot Hover, Controlled Gliding or Gliding stall when they cover less than a quarter of
    their top airspeed in a turn (Basic Set: Flying Combat > Cannot Hover).
    """

    HOVER = "hover"
    CANNOT_HOVER = "cannot hover"
    CONTROLLED_GLIDING = "controlled gliding"
    GLIDING = "gliding"

    @property
    def can_hover(self) -> bool:
        """Whether this mode may stay in place in the air."""
        return self is FlightMode.HOVER


ATMOSPHERE_CATEGORIES: Final = (
    "vacuum",
    "trace",
    "very thin",
    "thin",
    "standard",
    "dense",
    "very dense",
    "superdense",
)
"""The categories of atmospheric pressure, thinnest first, as ``esper_motion.systems.gurps.rules.Atmosphere`` names them
(Basic Set: Atmospheric Pressure, as Flying Combat > Flight Ceiling refers to it)."""


Leg = tuple[int, int]
"""One climb or dive of a turn: ``(at_yd, climb_yd)``, the yard of the turn's level path where it starts and the
yards it goes up (positive) or down (negative)."""


def _check_legs(owner: str, name: str, legs: object) -> None:
    """Refuse anything but a tuple of ``(at_yd, climb_yd)`` pairs of whole numbers, starting in order along the
    path (``at_yd`` 0 or more, each after the one before), none of them 0 yards up or down."""
    if not isinstance(legs, tuple):
        raise RuleValueError(owner, name, legs, "a tuple of (at_yd, climb_yd) pairs")
    after = -1
    for index, leg in enumerate(legs):
        where = f"{name}[{index}]"
        if not isinstance(leg, tuple) or len(leg) != 2:
            raise RuleValueError(owner, where, leg, "an (at_yd, climb_yd) pair")
        at = check_int(owner, f"{where}[0]", leg[0], low=after + 1, high=MAX_SPEED_YPS)
        climb = check_int(owner, f"{where}[1]", leg[1], low=-MAX_ALTITUDE_YD, high=MAX_ALTITUDE_YD)
        if climb == 0:
            raise RuleValueError(owner, f"{where}[1]", climb, "a climb or a dive, not 0")
        after = at


_FLIGHT_MODES: Final = tuple(FlightMode)
"""The modes the constructor checks choose from."""


@register("gurps.Flight", new_fields={3: ("stalled_turn",)})
@dataclass(slots=True)
class Flight:
    """What lets an entity fly, and its flight state from turn to turn.

    Each field, what it holds and the rule it reads: docs/gurps-basic.md > Components, field by field > Flight.

    >>> Flight(air_move=12, mode=FlightMode.CANNOT_HOVER, wings=True).mode.can_hover
    False
    >>> Flight(air_move=-1)
    Traceback (most recent call last):
    ...
    esper_motion.ecs.errors.RuleValueError: Flight.air_move = -1: expected a whole number from 0 to 5000
    """

    air_move: int
    top_airspeed: int | None = None
    mode: FlightMode = FlightMode.HOVER
    wings: bool = False
    lying_flat: bool = False
    climbed_yd: int = 0
    flown_legs: tuple[Leg, ...] = ()
    previous_climb_yd: int = 0
    stalled: bool = False
    fall_seconds: int = 0
    fall_yd: float = 0.0
    stalled_turn: int | None = None
    breathing: str = "normal"
    dive_bonus_yps: int = 0
    dive_bonus_turns: int = 0
    wiped_out: bool = False
    wingspan_yd: int = 0
    crippled_wing: bool = False

    def __post_init__(self) -> None:
        check_int("Flight", "air_move", self.air_move, low=0, high=MAX_MOVE)
        if self.top_airspeed is not None:
            check_int("Flight", "top_airspeed", self.top_airspeed, low=0, high=MAX_MOVE)
        self.mode = FlightMode(check_choice("Flight", "mode", self.mode, _FLIGHT_MODES))
        check_bool("Flight", "wings", self.wings)
        check_bool("Flight", "lying_flat", self.lying_flat)
        check_int("Flight", "climbed_yd", self.climbed_yd, low=-MAX_ALTITUDE_YD, high=MAX_ALTITUDE_YD)
        _check_legs("Flight", "flown_legs", self.flown_legs)
        if self.flown_legs and sum(climb for _, climb in self.flown_legs) != self.climbed_yd:
            raise RuleValueError(
                "Flight", "climbed_yd", self.climbed_yd, "the sum of the climbs and dives in flown_legs"
            )
        check_int("Flight", "previous_climb_yd", self.previous_climb_yd, low=-MAX_ALTITUDE_YD, high=MAX_ALTITUDE_YD)
        check_bool("Flight", "stalled", self.stalled)
        check_int("Flight", "fall_seconds", self.fall_seconds, low=0)
        check_number("Flight", "fall_yd", self.fall_yd, low=0, high=MAX_ALTITUDE_YD)
        if self.stalled_turn is not None:
            check_int("Flight", "stalled_turn", self.stalled_turn, low=0)
        check_choice("Flight", "breathing", self.breathing, ("normal", "trouble", "needs_mask"))
        check_int("Flight", "dive_bonus_yps", self.dive_bonus_yps, low=0, high=MAX_MOVE)
        check_int("Flight", "dive_bonus_turns", self.dive_bonus_turns, low=0)
        check_bool("Flight", "wiped_out", self.wiped_out)
        check_int("Flight", "wingspan_yd", self.wingspan_yd, low=0)
        check_bool("Flight", "crippled_wing", self.crippled_wing)
        if (self.wingspan_yd > 0 or self.crippled_wing) and not self.wings:
            raise RuleValueError("Flight", "wings", self.wings, "True for a flier with a wingspan or a crippled wing")

    @property
    def up_yd(self) -> int:
        """Yards climbed this turn, every climb counted (``climbed_yd`` when no legs are recorded)."""
        if not self.flown_legs:
            return max(0, self.climbed_yd)
        return sum(climb for _, climb in self.flown_legs if climb > 0)

    @property
    def down_yd(self) -> int:
        """Yards descended this turn, every dive counted (from ``climbed_yd`` when no legs are recorded)."""
        if not self.flown_legs:
            return max(0, -self.climbed_yd)
        return -sum(climb for _, climb in self.flown_legs if climb < 0)

    @property
    def last_climb_yd(self) -> int:
        """The last climb or dive flown (the last of ``flown_legs``, else ``climbed_yd``): what the next turn's
        first one is compared with."""
        return self.flown_legs[-1][1] if self.flown_legs else self.climbed_yd


@register("gurps.FlightIntent")
@dataclass(slots=True)
class FlightIntent:
    """What the game asks of a flier this turn, written before ``World.step`` beside ``gurps.Intent``.

    ``climb_yd`` is the change of altitude wanted this turn in yards (positive climbs, negative descends);
    it is paid from the turn's movement like level yards, a 45-degree diagonal yard costing 1.5
    (Basic Set: Flying Combat > Aerial Movement > Changing Height). ``dive`` spends the turn diving on a Move
    maneuver and nothing else, which raises air Move by 10 and doubles top airspeed for the turn
    (Flying Fast); a dive has to go down.

    ``legs`` asks for several climbs and dives in one turn instead, as ``(at_yd, climb_yd)`` pairs in order:
    each starts ``at_yd`` yards along the turn's level path. The house rules let a flier climb and dive in the
    same turn given enough level flight between the starts, or the control rolls (House rules: Flying Movement
    and Combat). ``climb_yd`` is the one-leg form, a climb or dive from the start of the turn: give one or the
    other. The vertical yards cost what they would in one climb or dive of their total.

    >>> FlightIntent(climb_yd=2, dive=True)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    esper_motion.ecs.errors.RuleValueError: FlightIntent.dive = True: expected False unless climb_yd is below 0 ...
    """

    climb_yd: int = 0
    dive: bool = False
    legs: tuple[Leg, ...] = ()

    def __post_init__(self) -> None:
        check_int("FlightIntent", "climb_yd", self.climb_yd, low=-MAX_ALTITUDE_YD, high=MAX_ALTITUDE_YD)
        check_bool("FlightIntent", "dive", self.dive)
        if self.dive and self.climb_yd >= 0:
            raise RuleValueError(
                "FlightIntent", "dive", self.dive, "False unless climb_yd is below 0 (a dive goes down)"
            )
        _check_legs("FlightIntent", "legs", self.legs)
        if self.legs and self.climb_yd:
            raise RuleValueError(
                "FlightIntent", "climb_yd", self.climb_yd, "0 when legs are given (climb_yd is a single leg)"
            )

    def vertical_legs(self) -> tuple[Leg, ...]:
        """The climbs and dives asked for this turn as ``(at_yd, climb_yd)`` pairs: ``legs``, or ``climb_yd`` as
        one leg from the start of the turn (none when both are empty)."""
        if self.legs:
            return self.legs
        return ((0, self.climb_yd),) if self.climb_yd else ()


@register("gurps.AirSupply")
@dataclass(slots=True)
class AirSupply:
    """What keeps an entity breathing high up: an oxygen mask, or the Doesn't Breathe advantage.

    Either one lets it fly past the heights where unprotected humans struggle for air
    (Basic Set: Flying Combat > Flight Ceiling). An entity without this component is unprotected.
    """

    oxygen_mask: bool = False
    doesnt_breathe: bool = False

    def __post_init__(self) -> None:
        check_bool("AirSupply", "oxygen_mask", self.oxygen_mask)
        check_bool("AirSupply", "doesnt_breathe", self.doesnt_breathe)

    @property
    def protected(self) -> bool:
        """Whether the entity breathes at any altitude."""
        return self.oxygen_mask or self.doesnt_breathe


@register("gurps.Atmosphere")
@dataclass(slots=True)
class Atmosphere:
    """The scene's air: a setting of the whole scene, kept on one scene entity of its own.

    Put it on a single entity that stands for the scene (``world.spawn(Atmosphere("thin", 0.6))``); a world
    without one has standard Earth air at sea level. ``category`` decides whether wings can fly (not in a
    trace atmosphere or vacuum); ``pressure_atm`` (Earth at sea level is 1) moves the heights at which
    breathing gets hard; ``ground_ft`` is how high the scene's ground lies above sea level, so that a
    flier's altitude above sea level is ``ground_ft`` plus its ``altitude_yd`` in feet
    (Basic Set: Flying Combat > Flight Ceiling). A vacuum has pressure 0 and nothing else has.

    ``ceiling_yd`` is the height of the roof over an indoor scene, in yards above its ground (None outdoors):
    no flier rises so far that its top would pass it, so only under a ceiling high enough can a flier pass over
    the heads of those below (Basic Set: Flying Combat > Aerial Movement;
    :class:`esper_motion.systems.gurps.flight.altitude. AltitudeSystem`).

    >>> Atmosphere("vacuum", pressure_atm=1.0)
    Traceback (most recent call last):
    ...
    esper_motion.ecs.errors.RuleValueError: Atmosphere.pressure_atm = 1.0: expected 0 for a vacuum, above 0 otherwise
    """

    category: str = "standard"
    pressure_atm: float = 1.0
    ground_ft: float = 0.0
    ceiling_yd: float | None = None

    def __post_init__(self) -> None:
        check_choice("Atmosphere", "category", self.category, ATMOSPHERE_CATEGORIES)
        check_number("Atmosphere", "pressure_atm", self.pressure_atm, low=0)
        check_number("Atmosphere", "ground_ft", self.ground_ft)
        ceiling = self.ceiling_yd
        if ceiling is not None and not check_number("Atmosphere", "ceiling_yd", ceiling, low=0, high=MAX_ALTITUDE_YD):
            raise RuleValueError("Atmosphere", "ceiling_yd", self.ceiling_yd, "None outdoors, or a height above 0")
        if (self.category == "vacuum") != (self.pressure_atm == 0):
            raise RuleValueError("Atmosphere", "pressure_atm", self.pressure_atm, "0 for a vacuum, above 0 otherwise")

"""``Rules``: the named options of the GURPS rule set, with the Basic Set and house presets."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from esper_motion.ecs.validate import check_bool, check_choice
from esper_motion.systems.gurps.rules.highspeed import RadiusVariant
from esper_motion.systems.gurps.rules.tables import Variant


@dataclass(frozen=True, slots=True)
class Rules:
    """Which reading of each rule a table plays. Systems branch on these fields, never on globals.

    - ``turning_radius``: ``basic`` velocity / Basic Move rounded down (Basic Set: High-Speed Movement >
      Direction and Turning Radius); ``realistic`` velocity squared / 10 (the note in the same section);
      ``house`` velocity / Encumbered Move rounded up (house rules: High Speed Movement).
    - ``control``: ``basic`` trips or drifts as the Basic Set's Losing Control says; ``house`` runs the house
      rules' cycle of losing and regaining control.
    - ``wheeled_stability``: the Basic Set lets the GM rule that three or more wheels merely decelerate when
      control is lost; on by default.
    - ``posture_in_armor``: the optional rule Changing Posture in Armor.
    - ``flight`` and ``mounts``: ``basic`` or ``house`` readings of Flying Combat and Mounted Combat.
    - ``lance_speed_bonus``: whether the melee damage bonus for relative velocity (the Basic Set's +1, the house
      Size value) adds to a couched lance, whose damage already comes from the mount's speed. Off in the Basic
      Set, as its worked example has it (Mounted Combat > Cavalry Weapons > Lances); on in the house preset,
      whose speed bonus names no exception.
    - ``house_height_riders``: under the house flight rules, whether a rider's 3 feet over a standing foe is a
      yard of height like any other (+2 to defend, the foe -2: House rules: Flying Movement and Combat); off, it
      keeps the Basic Set's Height Difference (Mounted Combat), the house rule holding between fliers only.
    - ``house_height_fliers``: under the house flight rules, whether a yard of height gives +2 and -2 between two
      fliers too, the house sentence naming no exception (on); off, height does not matter between two fliers, as
      the Basic Set has it (Flying Combat > Aerial Attack and Defense), and the house rule holds between a flier
      and a foe on the ground.
    - ``house_out_of_control_skills``: under the house Mounts, whether the rider's -10 to DX rolls while its mount
      is out of control counts against rolls of DX-based skills too, weapon skills and an Acrobatic Dodge (on);
      off, it counts against DX rolls as such only.
    - ``house_bareback_sitting``: under the house Mounts, whether a rider without a saddle sits (the sitting
      posture's modifiers: -2 to attack), the house rules making a rider in a saddle stand (on); off, a rider
      without a saddle takes no posture modifier, as under the Basic Set.
    - ``house_top_speed_encumbered``: under the house High Speed Movement, whether the rated top speed (Enhanced
      Move, a gallop) that the house top speed is worked from is first reduced by encumbrance, as the Basic Set
      reduces it; off (the default), it counts as rated.

    Each reading is an enum that equals its name, so a scene or a save may give it as text
    (:class:`~esper_motion.systems.gurps.rules.RadiusVariant`, :class:`~esper_motion.systems.gurps.rules.Variant`);
    the systems ask :attr:`house_control`, :attr:`house_flight`, :attr:`house_mounts` and the turning radius's row
    of :data:`~esper_motion.systems.gurps.rules.RADIUS_READINGS`.

    >>> Rules.basic().turning_radius, Rules.house().turning_radius
    ('basic', 'house')
    """

    turning_radius: RadiusVariant = RadiusVariant.BASIC
    control: Variant = Variant.BASIC
    wheeled_stability: bool = True
    posture_in_armor: bool = False
    flight: Variant = Variant.BASIC
    mounts: Variant = Variant.BASIC
    lance_speed_bonus: bool = False
    house_height_riders: bool = True
    house_height_fliers: bool = True
    house_out_of_control_skills: bool = True
    house_bareback_sitting: bool = True
    house_top_speed_encumbered: bool = False

    def __post_init__(self) -> None:
        self._read("turning_radius", RadiusVariant)
        self._read("control", Variant)
        check_bool("Rules", "wheeled_stability", self.wheeled_stability)
        check_bool("Rules", "posture_in_armor", self.posture_in_armor)
        self._read("flight", Variant)
        self._read("mounts", Variant)
        check_bool("Rules", "lance_speed_bonus", self.lance_speed_bonus)
        check_bool("Rules", "house_height_riders", self.house_height_riders)
        check_bool("Rules", "house_height_fliers", self.house_height_fliers)
        check_bool("Rules", "house_out_of_control_skills", self.house_out_of_control_skills)
        check_bool("Rules", "house_bareback_sitting", self.house_bareback_sitting)
        check_bool("Rules", "house_top_speed_encumbered", self.house_top_speed_encumbered)

    def _read(self, field: str, reading: type[Enum]) -> None:
        """Check the reading named in ``field`` and keep it as its enum member (a name given as text included)."""
        object.__setattr__(self, field, reading(check_choice("Rules", field, getattr(self, field), tuple(reading))))

    @property
    def house_control(self) -> bool:
        """Whether ``control`` plays the house rules' High Speed Movement."""
        return self.control is Variant.HOUSE

    @property
    def house_flight(self) -> bool:
        """Whether ``flight`` plays the house rules' Flying Movement and Combat (and the "Dragon" rule)."""
        return self.flight is Variant.HOUSE

    @property
    def house_mounts(self) -> bool:
        """Whether ``mounts`` plays the house rules' Mounts."""
        return self.mounts is Variant.HOUSE

    @classmethod
    def basic(cls) -> Rules:
        """The Basic Set as written."""
        return cls()

    @classmethod
    def house(cls) -> Rules:
        """The campaign's house rules wherever they replace the Basic Set."""
        return cls(
            turning_radius=RadiusVariant.HOUSE,
            control=Variant.HOUSE,
            flight=Variant.HOUSE,
            mounts=Variant.HOUSE,
            lance_speed_bonus=True,
        )

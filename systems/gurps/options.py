"""``Rules``: the named options of the GURPS rule set, with the Basic Set and house presets."""

from __future__ import annotations

from dataclasses import dataclass

from esper_motion.ecs.validate import check_bool, check_choice

TURNING_RADIUS_VARIANTS = ("basic", "house", "realistic")
RULE_SOURCES = ("basic", "house")


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

    >>> Rules.basic().turning_radius, Rules.house().turning_radius
    ('basic', 'house')
    """

    turning_radius: str = "basic"
    control: str = "basic"
    wheeled_stability: bool = True
    posture_in_armor: bool = False
    flight: str = "basic"
    mounts: str = "basic"

    def __post_init__(self) -> None:
        check_choice("Rules", "turning_radius", self.turning_radius, TURNING_RADIUS_VARIANTS)
        check_choice("Rules", "control", self.control, RULE_SOURCES)
        check_bool("Rules", "wheeled_stability", self.wheeled_stability)
        check_bool("Rules", "posture_in_armor", self.posture_in_armor)
        check_choice("Rules", "flight", self.flight, RULE_SOURCES)
        check_choice("Rules", "mounts", self.mounts, RULE_SOURCES)

    @classmethod
    def basic(cls) -> Rules:
        """The Basic Set as written."""
        return cls()

    @classmethod
    def house(cls) -> Rules:
        """The campaign's house rules wherever they replace the Basic Set."""
        return cls(turning_radius="house", control="house", flight="house", mounts="house")

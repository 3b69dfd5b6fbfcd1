"""``Options``: the named choices of the Spelljammer rule set, where a table could read the text differently."""

from __future__ import annotations

from dataclasses import dataclass

from esper_motion.ecs.validate import check_bool, check_choice, check_int
from esper_motion.systems.spelljammer.rules import HALF_MOVE_FIRE_READINGS, SQUARE_FT


@dataclass(frozen=True, slots=True)
class Options:
    """How the Spelljammer systems read the text and the map. Systems branch on these fields, never on globals.

    - ``hex_ft``: feet across one hex of the map. The default 3 is the shared one-yard ``Position`` hex, so
      a 5-foot square is 5/3 hexes; a map drawn in 5-foot hexes sets 5 (one square, one hex).
    - ``chase_on_map``: the chase table's attacks need the pursuer to end its move within one square of the
      runner (:attr:`contact_hex`), so a runner that got ahead must be caught first. False plays the text's
      abstract chase, where the table alone decides.
    - ``larger_dice``: a longer pursuit action steps its dice up (1d2, 1d3, 1d4, 1d6) as the text prefers;
      False adds to the roll instead (1d2+1, 1d2+2, 1d2+3), the GM's other choice.
    - ``max_die_steps``: the mixed forms the text also offers: at most this many of a longer pursuit action's
      steps move the die, the rest add (1: 1d3, 1d3+1, 1d3+2; 2: 1d3, 1d4, 1d4+1). None, every step may
      (``rules.scaled_time_dice``).
    - ``half_move_fire``: shooting at half TMR (Dodge, Stealthy): ``"normal"`` keeps the normal rule of half
      the attacks with no penalty or drop threat, ``"walk"`` uses the moving-fire table's Walk row
      (``rules.moving_fire_row``).

    >>> Options().contact_hex, Options(hex_ft=5).contact_hex
    (2, 1)
    """

    hex_ft: int = 3
    chase_on_map: bool = True
    larger_dice: bool = True
    max_die_steps: int | None = None
    half_move_fire: str = "normal"

    def __post_init__(self) -> None:
        check_int("Options", "hex_ft", self.hex_ft, low=1)
        check_bool("Options", "chase_on_map", self.chase_on_map)
        check_bool("Options", "larger_dice", self.larger_dice)
        if self.max_die_steps is not None:
            check_int("Options", "max_die_steps", self.max_die_steps, low=0)
        check_choice("Options", "half_move_fire", self.half_move_fire, HALF_MOVE_FIRE_READINGS)

    @property
    def contact_hex(self) -> int:
        """One square in hexes, rounded up: how close a pursuer must end to attack (with ``chase_on_map``)."""
        return -(-SQUARE_FT // self.hex_ft)

"""Attacks and defenses in play: the COMBAT phase (``attack.AttackSystem``) and the numbers it rolls
(``numbers``), which the preview reads too."""

"""The walker's short cut: a mover going straight ahead through empty hexes skips the full walk
(:func:`esper_motion.systems.gurps.highspeed.movement.straight_path`). On the same worlds, with and without it,
every turn ends in the same state with the same events."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from support.worlds import fingerprint, mixed_world, plan_turn, step_refusing

from esper_motion.ecs import Hex
from esper_motion.systems.gurps import Rules
from esper_motion.systems.gurps.highspeed import movement
from esper_motion.systems.gurps.shared.movers import Body
from esper_motion.systems.gurps.shared.spatial import SpatialIndex


def general_only(body: Body, points: int, index: SpatialIndex) -> list[Hex] | None:
    """Never take the short cut: every mover goes through the full walk."""
    return None


@pytest.mark.parametrize("rules", [Rules.basic(), Rules.house()], ids=["basic", "house"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_straight_path_ends_every_turn_as_the_full_walk_does(
    rules: Rules, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    short, cast = mixed_world(seed, 6, rules)
    full, _ = mixed_world(seed, 6, rules)  # the same entities: the cast is the same
    taken: Counter[str] = Counter()
    straight = movement.straight_path

    def counted(body: Body, points: int, index: SpatialIndex) -> list[Hex] | None:
        path = straight(body, points, index)
        taken["short cut" if path is not None else "full walk"] += 1
        return path

    for turn in range(10):
        plan_turn(short, cast, random.Random(seed * 100 + turn))
        plan_turn(full, cast, random.Random(seed * 100 + turn))
        monkeypatch.setattr(movement, "straight_path", counted)
        step_refusing(short)
        monkeypatch.setattr(movement, "straight_path", general_only)
        step_refusing(full)
        assert fingerprint(short) == fingerprint(full), f"turn {turn}"
    assert taken["short cut"] > 0
    assert taken["full walk"] > 0  # movers the short cut handed to the full walk

"""The walker's short cut: a mover going straight ahead through empty hexes skips the full walk
(:func:`esper_motion.systems.gurps.highspeed.movement.straight_path`). On the same worlds, with and without it,
every turn ends in the same state with the same events; and the planner's forecasts of such walks
(:func:`esper_motion.systems.gurps.highspeed.movement.straight_walk`) are the full walk's."""

from __future__ import annotations

import importlib
import random
from collections import Counter
from typing import Any

import pytest
from support.worlds import every_candidate, fingerprint, mixed_world, plan_turn, step_refusing

from esper_motion.ecs import Hex, IntentError, RuleValueError
from esper_motion.systems.gurps import Rules
from esper_motion.systems.gurps.highspeed import movement
from esper_motion.systems.gurps.highspeed.intent import check_intent
from esper_motion.systems.gurps.shared.movers import Body
from esper_motion.systems.gurps.shared.spatial import SpatialIndex

forecasts = importlib.import_module("esper_motion.systems.gurps.preview")  # the module: the package names a function so


def general_only(start: Hex, direction: int, points: int, index: SpatialIndex) -> list[Hex] | None:
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

    def counted(start: Hex, direction: int, points: int, index: SpatialIndex) -> list[Hex] | None:
        path = straight(start, direction, points, index)
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


@pytest.mark.parametrize("rules", [Rules.basic(), Rules.house()], ids=["basic", "house"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_candidates_forecast_through_the_straight_walk_is_the_full_walks(
    rules: Rules, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The planner's forecasts take movement.straight_walk for a one-hex walker whose only turn is made as it opens:
    # every candidate the rules accept, of every body of mixed worlds over ten turns, forecast the same without it.
    straight = movement.straight_walk
    taken: Counter[str] = Counter()

    def counted(*args: Any) -> movement.WalkResult | None:
        walked = straight(*args)
        taken["short cut" if walked is not None else "full walk"] += 1
        return walked

    for turn, world, index, chosen, body, lim, intent in every_candidate(seed, rules):
        if body.control.carried_by is not None or body.control.loss_cause is not None:
            continue
        tried = Body(*body[:6], intent)
        try:
            check_intent(world, tried, chosen, lim=lim)
        except (IntentError, RuleValueError):
            continue
        monkeypatch.setattr(forecasts, "straight_walk", counted)
        short = forecasts.forecast_walk(world, tried, chosen, index, lim=lim)
        monkeypatch.setattr(forecasts, "straight_walk", lambda *_: None)
        full = forecasts.forecast_walk(world, tried, chosen, index, lim=lim)
        assert short == full, (turn, body.entity, intent)
    assert taken["short cut"] > 0
    assert taken["full walk"] > 0

"""General injury in play: every injury, from a hit, a collision, a fall or a crush, goes through :func:`wound`,
which adds it to the victim's ``Condition`` with its immediate consequences, and what the victim's state does to its
defenses (Basic Set: Injury, as in docs/architecture.md > Facts the rules lean on). The injury model a game chose is
in :mod:`esper_motion.systems.gurps.shared.injury_model`.

Readings chosen:

- HP and HT are the ``Mover``'s; an entity with a ``Condition`` and no ``Mover`` only adds up its injury.
- Shock is -1 a point of injury, at most -4, for every victim (the texts here give no other scale for large HP).
- A seated rider knocked down or stunned stays in the saddle until its Riding roll of the MOUNTED phase says
  otherwise; anyone else knocked down or knocked out lies prone. An unconscious flier in the air stalls and falls.
- Nothing is held in hand in this library, so dropping what it holds is the game's.
"""

from __future__ import annotations

from esper_motion.components.flight import Flight
from esper_motion.components.gurps import Condition, Mover, Posture, PostureState
from esper_motion.components.motion import Position
from esper_motion.components.mount import Rider
from esper_motion.ecs import World
from esper_motion.systems.gurps import rules
from esper_motion.systems.gurps.events import DeathCheck, Died, KnockedDownByWound, KnockedOut, MajorWound, Stunned
from esper_motion.systems.gurps.shared.injury_model import general_rules
from esper_motion.systems.gurps.shared.movers import reeling_now
from esper_motion.systems.gurps.shared.rolls import success_roll
from esper_motion.systems.gurps.shared.transitions import stall


def _seated(world: World, entity: int) -> bool:
    link = world.try_get(entity, Rider)
    return link is not None and link.mount is not None


def _lie_down(world: World, entity: int) -> None:
    """Prone on the ground, unless seated (the MOUNTED phase decides whether a rider stays on)."""
    posture = world.try_get(entity, Posture)
    if posture is None or _seated(world, entity):
        return
    posture.state = PostureState.PRONE
    posture.target = None
    posture.seconds_left = 0


def stun(world: World, entity: int, cause: str) -> None:
    """``entity`` is stunned from this turn (and knocked down): a seated rider is reported to the MOUNTED phase for
    its Riding roll (Basic Set: Mounted Combat > Mounted Combat Results). Emits :class:`KnockedDownByWound` and
    :class:`Stunned`."""
    condition = world.get(entity, Condition)
    condition.stunned = True
    condition.stunned_turn = world.turn
    _lie_down(world, entity)
    world.emit(KnockedDownByWound(entity, cause))
    world.emit(Stunned(entity, cause))
    link = world.try_get(entity, Rider)
    if link is not None and link.mount is not None:
        link.stunned_now = True


def knock_out(world: World, entity: int, cause: str) -> None:
    """``entity`` falls unconscious (no longer stunned: it does nothing at all), lies prone, and a flier in the air
    stalls and falls. Emits :class:`KnockedOut` (and ``Stalled``); nothing for one already unconscious."""
    condition = world.get(entity, Condition)
    if not condition.conscious:
        return
    condition.conscious = False
    condition.stunned = False
    condition.stunned_turn = None
    _lie_down(world, entity)
    world.emit(KnockedOut(entity, cause))
    flight = world.try_get(entity, Flight)
    position = world.try_get(entity, Position)
    if flight is not None and position is not None and position.altitude_yd > 0 and not flight.stalled:
        stall(world, entity, "unconscious", 0.0, 0)


def die(world: World, entity: int, cause: str) -> None:
    """``entity`` dies (unconscious first, if it was not). Emits :class:`Died`."""
    knock_out(world, entity, cause)
    world.get(entity, Condition).dead = True
    world.emit(Died(entity, cause))


def wound(world: World, entity: int, injury: int) -> bool:
    """Add ``injury`` (one injury: a hit, a collision, a fall) to ``entity``'s ``Condition``, with what the general
    injury rules make of it at once; returns whether it stunned the entity.

    - Shock: ``Condition.next_shock`` (-1 a point, at most -4 with what this turn already gave).
    - At -5 x HP: dead, no roll.
    - A major wound (more than half HP) on a conscious victim: an HT roll; a failure stuns and knocks down, a failure
      by 5 or more or a critical failure knocks out (:func:`esper_motion.systems.gurps.rules.major_wound_outcome`).
    - An HT roll for each of -1, -2, -3 and -4 x HP the injury first reaches: a failure
      by 1 or 2 is a mortal wound (unconscious and dying), by 3 or more death.

    Nothing but the sum for an entity without a ``Condition`` and ``Mover``, a dead one, or while the game leaves
    out the general rules (:func:`~esper_motion.systems.gurps.shared.injury_model.use_injury`). Emits
    :class:`MajorWound`, :class:`KnockedDownByWound`, :class:`Stunned`, :class:`KnockedOut`, :class:`DeathCheck`,
    :class:`Died` and the HT rolls' :class:`~esper_motion.ecs.events.RollMade`.
    """
    condition = world.try_get(entity, Condition)
    if condition is None or injury == 0:
        return False
    before = condition.injury
    condition.injury += injury
    mover = world.try_get(entity, Mover)
    if mover is None or condition.dead or not general_rules(world):
        return False
    condition.next_shock = rules.shock_after(condition.next_shock, injury)
    if rules.dead_by_injury(mover.hp, condition.injury):
        die(world, entity, "injury of -5 x HP")
        return False
    stunned = False
    if condition.conscious and rules.major_wound(injury, mover.hp):
        held = success_roll(world, entity, mover.ht, "HT", "a major wound")
        outcome = rules.major_wound_outcome(held.margin, held.critical_failure)
        world.emit(MajorWound(entity, injury, mover.hp, outcome.value))
        if outcome is rules.WoundOutcome.STUNNED:
            stun(world, entity, "a major wound")
            stunned = True
        elif outcome is rules.WoundOutcome.UNCONSCIOUS:
            knock_out(world, entity, "a major wound")
    for multiple in rules.death_checks_crossed(mover.hp, before, condition.injury):
        made = success_roll(world, entity, mover.ht, "HT", f"the death check at -{multiple} x HP")
        result = rules.death_check_outcome(made.margin)
        world.emit(DeathCheck(entity, multiple, result.value))
        if result is rules.DeathCheckOutcome.DIES:
            die(world, entity, f"failed the death check at -{multiple} x HP")
            break
        if result is rules.DeathCheckOutcome.MORTALLY_WOUNDED:
            knock_out(world, entity, "mortally wounded")
            condition.mortally_wounded = True
    return stunned


def defense_modifiers(world: World, entity: int, kind: str, score: int) -> tuple[tuple[str, int], ...] | None:
    """What ``entity``'s state does to its active defense ``kind`` (``"dodge"``, ``"parry"``, ``"block"``) of
    ``score``, each modifier with its reason; None when it has no defense at all (unconscious). Stunned: -4 to every
    defense; reeling: Dodge halved, rounded up (:func:`~esper_motion.systems.gurps.shared.movers.reeling_now`)."""
    condition = world.try_get(entity, Condition)
    if condition is None:
        return ()
    if not condition.conscious:
        return None
    found: list[tuple[str, int]] = []
    if kind == "dodge" and reeling_now(world, entity):
        found.append(("reeling", rules.halved(max(0, score)) - max(0, score)))
    if condition.stunned:
        found.append(("stunned", rules.STUNNED_DEFENSE_MODIFIER))
    return tuple(found)

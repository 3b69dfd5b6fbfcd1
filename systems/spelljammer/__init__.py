"""The Spelljammer rule set: running, shooting, chasing and fleeing, on percentile dice.

``install(world)`` adds its systems; ``install(world, Options(...))`` picks the readings a table prefers. One
``World.step`` is one ten-second round. It knows nothing of GURPS: it shares only the framework (``ecs``) and
the map (``esper_motion.components.motion.Position``).

A character is an entity with ``Mobility``, ``RoundIntent``, ``RoundState`` and ``Position`` (from
``esper_motion.components.spelljammer`` and ``esper_motion.components.motion``); vegetation is an entity with a
``Position`` and a ``VegetationZone``. The game writes ``RoundIntent`` before a step and reads the events after it. The
systems, in the order they run:

==========  ======================  ====================================================================
phase       system                  job
==========  ======================  ====================================================================
DECIDE      ``GoalPlanner``         write the intent of every character with a goal (docs/goals.md)
INTENT      ``IntentCheck``         refuse an intent the rules forbid, before anything changes
INTENT      ``ChaseLinks``          end chases and flights whose other side no longer exists
INTENT      ``ChooseSpeed``         settle each speed mode: the usual Run of a chase, matching speeds
MOVEMENT    ``Flee``                offer each foe left behind its free melee attack
MOVEMENT    ``PursuitActions``      roll pursuit actions: time lost, falls
MOVEMENT    ``Move``                move at the rate of the mode, encumbrance and vegetation
MOVEMENT    ``SprintFatigue``       non-lethal damage at Sprint and Fast Sprint
CONTROL     ``ChaseTable``          the chase table and its footnotes: attacks, modifier, falls
CONTROL     ``MovingFire``          ranged attacks on the move and their drop checks
CLEANUP     ``ClearRoundIntents``   empty the one-round intents (pursuit action, shots)
==========  ======================  ====================================================================

Within a system, characters act in initiative order: higher TMR first, then lower entity id (``Move`` also
puts a pursuer after the runner it chases), so a run is fixed by its seed and its inputs.

>>> from esper_motion.components import Mobility, Position, RoundIntent, RoundState
>>> from esper_motion.ecs import World
>>> world = World(seed=1)
>>> install(world)
>>> runner = world.spawn(Mobility(tmr=9, dex=14), RoundIntent(heading=0), RoundState(), Position(0, 0))
>>> [event.describe() for event in world.step()]
['entity 1 goes at walk', 'entity 1 moves 9 squares at walk: 15 hexes from (0, 0) to (15, 0)']
>>> defense(world, runner).full
True
"""

from __future__ import annotations

from esper_motion.components import Position
from esper_motion.components.goals import CHARACTER_GOAL_TYPES
from esper_motion.components.spelljammer import Mobility, RoundIntent, RoundState
from esper_motion.ecs import SceneSupport, System, World, WorldError, declare_members, register_rule_set
from esper_motion.systems.spelljammer import events, rules
from esper_motion.systems.spelljammer.chase import ChaseTable
from esper_motion.systems.spelljammer.chase_links import ChaseLinks
from esper_motion.systems.spelljammer.cleanup import ClearRoundIntents
from esper_motion.systems.spelljammer.events import *  # noqa: F403 (every event class, as events.__all__ lists them)
from esper_motion.systems.spelljammer.fatigue import SprintFatigue
from esper_motion.systems.spelljammer.flee import Flee
from esper_motion.systems.spelljammer.intent_check import IntentCheck
from esper_motion.systems.spelljammer.move import Move
from esper_motion.systems.spelljammer.options import Options
from esper_motion.systems.spelljammer.planner import GoalPlanner, PlannedRound, RoundPlan, RoundRoll, plan, quarry
from esper_motion.systems.spelljammer.pursuit import PursuitActions
from esper_motion.systems.spelljammer.rules import DefenseAllowed, defense_allowed
from esper_motion.systems.spelljammer.shooting import MovingFire
from esper_motion.systems.spelljammer.speed import ChooseSpeed

__all__ = [
    "ChaseLinks",
    "ChaseTable",
    "ChooseSpeed",
    "ClearRoundIntents",
    "Flee",
    "GoalPlanner",
    "IntentCheck",
    "Move",
    "MovingFire",
    "Options",
    "PlannedRound",
    "PursuitActions",
    "RoundPlan",
    "RoundRoll",
    "SprintFatigue",
    "defense",
    "events",
    "install",
    "plan",
    "quarry",
    "rules",
    "systems_for",
]
__all__ += events.__all__


def systems_for(options: Options) -> list[System]:
    """Every Spelljammer system, in registration order (the phase decides when each runs).

    Every option is a reading inside a system, so the list is the same for any ``options``.
    """
    return [
        GoalPlanner(),
        IntentCheck(),
        ChaseLinks(),
        ChooseSpeed(),
        Flee(),
        PursuitActions(),
        Move(),
        SprintFatigue(),
        ChaseTable(),
        MovingFire(),
        ClearRoundIntents(),
    ]


def install(world: World, options: Options | None = None) -> None:
    """Install the Spelljammer systems into ``world`` with ``options`` (``Options()`` by default).

    Installing twice in one world is an error (:class:`~esper_motion.ecs.errors.WorldError`), not a double run.
    """
    chosen = Options() if options is None else options
    if not isinstance(chosen, Options):
        raise WorldError(f"esper_motion.systems.spelljammer.install: options must be an Options, not {chosen!r}")
    world.install_rules("spelljammer", chosen)
    for system in systems_for(chosen):
        world.add_system(system)


def defense(world: World, entity: int) -> DefenseAllowed:
    """What of its defense (DEF) ``entity`` keeps at the speed mode of its last round.

    Spelljammer: Running, Shooting, Chasing and Fleeing > Movement and Defense (``rules.defense_allowed``):
    full DEF, +20 against ranged attacks at Dodge, and less at Run, Sprint and Fast Sprint.
    """
    mode = world.get(entity, RoundState).mode
    if mode is None:
        raise WorldError(f"entity {entity} has run no round yet, so it has no speed mode: step the world first")
    return defense_allowed(mode)


register_rule_set(
    "spelljammer",
    install,
    Options,
    scene=SceneSupport(
        "spelljammer.RoundIntent",
        steer="heading",
        steer_wraps=6,
        steer_ends="chase",
        die_faces=100,
        goals=CHARACTER_GOAL_TYPES,
        plan=plan,
    ),
)
declare_members(
    "spelljammer", (Mobility, RoundIntent, RoundState, Position), marked_by=(Mobility, RoundIntent, RoundState)
)

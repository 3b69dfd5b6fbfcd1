"""Riders and lance charges for the planner: which body each goal steers (a rider's goal steers its mount), and the
``Charge`` goal, made concrete turn by turn as a run past the foe or a ride away from it, with the strike on the
pass.

Who steers a body (:func:`steering`): the controlling rider of a mount (``Mount.controller``), when it holds a goal,
steers the mount by that goal, within the mount's own limits and checks (the search plans the mount's body); the
mount's own goal is then set aside. A mount whose rider holds no goal, or with no rider, follows its own goal like
any mover. A rider who does not control its mount (a passenger), or one carried by what is not a mount, is not
planned.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from esper_motion.components.combat import Attack
from esper_motion.components.goals import Charge, Flee, Goal, GoTo, Hold
from esper_motion.components.gurps import Condition, Control, Intent, Maneuver, Posture, PostureState
from esper_motion.components.motion import Position, Velocity
from esper_motion.components.mount import Mount, Rider
from esper_motion.ecs import World
from esper_motion.ecs.hexgrid import DIRECTIONS, Hex, distance, turn
from esper_motion.systems.gurps.planner.search import PlannedTurn, predicted

PASS_YD: Final = 1
"""How far to one side of the foe a lance charge's lane runs: room for the mount to go by, the foe in reach."""


@dataclass(frozen=True, slots=True)
class Steer:
    """A goal and the body it steers: ``decider`` holds the goal (and the ``Caution``), ``mover`` is the body whose
    intent the planner writes (the decider itself, or the mount it rides)."""

    decider: int
    mover: int
    goal: Goal


def steering(world: World, found: dict[int, Goal]) -> tuple[dict[int, Steer], dict[int, str]]:
    """Each goal of ``found`` by the body it steers, and the deciders that steer nothing, with why (a passenger, a
    rider of what is not a mount). A mount's controlling rider wins over the mount's own goal."""
    steers: dict[int, Steer] = {}
    idle: dict[int, str] = {}
    controls = [(entity, world.try_get(entity, Control)) for entity in sorted(found)]
    for entity, control in controls:
        carrier = None if control is None else control.carried_by
        if carrier is None:
            continue
        mount = world.try_get(carrier, Mount)
        if mount is None:
            idle[entity] = f"carried by entity {carrier}, which is not a mount: it moves with it"
        elif mount.controller != entity:
            idle[entity] = f"a passenger: entity {mount.controller} steers its mount {carrier}"
        else:
            steers[carrier] = Steer(entity, carrier, found[entity])
    for entity, control in controls:
        if control is not None and control.carried_by is None:
            steers.setdefault(entity, Steer(entity, entity, found[entity]))
    return steers, idle


def mount_out_of_control(world: World, steer: Steer) -> str | None:
    """Why ``steer``'s rider cannot steer the mount it rides now, or None: it has lost control of it (house rules:
    ``Mount.out_of_control``), or the mount is spooked, shying and bucking until its rider fights it calm (Basic
    Set: Mounted Combat > Spooked Mounts). Its rider's goal steers it again once control comes back."""
    if steer.decider == steer.mover:
        return None
    mount = world.try_get(steer.mover, Mount)
    if mount is None:
        return None
    if mount.out_of_control:
        return f"its rider has lost control of mount {steer.mover}"
    if bucking(world, steer):
        return f"its mount {steer.mover} is spooked: it bucks until its rider calms it"
    return None


def bucking(world: World, steer: Steer) -> bool:
    """Whether the mount ``steer``'s rider steers is spooked (``Mount.spooked``): the planner leaves it alone, and
    says nothing of it (``MountSpooked`` and the rider's rolls to calm it say it all), so that a world saved and
    loaded while it bucks plays on the same."""
    mount = world.try_get(steer.mover, Mount) if steer.decider != steer.mover else None
    return mount is not None and mount.spooked


def out_of_fight(world: World, entity: int) -> str | None:
    """Why ``entity`` is out of the fight, or None: unconscious or dead (``Condition.conscious``, as the COMBAT phase
    reads it: such a body makes no attack and no defense)."""
    condition = world.try_get(entity, Condition)
    if condition is None or condition.conscious:
        return None
    return "dead" if condition.dead else "unconscious"


def down(world: World, entity: int) -> bool:
    """Whether ``entity`` is down: on foot (no ``Rider.mount``: a rider's posture is its seat's) and not standing
    (prone, kneeling, sitting, crawling: its ``Posture``, as the COMBAT phase reads it)."""
    rider = world.try_get(entity, Rider)
    if rider is not None and rider.mount is not None:
        return False
    posture = world.try_get(entity, Posture)
    return posture is not None and posture.state is not PostureState.STANDING


def charge_goal(world: World, mover: int, goal: Charge, *, record: bool) -> Goal:
    """The goal a ``Charge`` comes to this turn for the body ``mover``: on the run, a ``GoTo`` passed through at
    speed (:func:`run_past`), which makes the quickest way the straight one at the best speed the mover builds, past
    the foe within a yard of it; from the strike (:func:`strike` sets ``Charge.wheeling``), a ride away from it (a
    ``Flee`` to ``run_yd``) until it is that far, and round again. A foe that is :func:`down` calls the pass off:
    the mover rides on, away to ``run_yd`` (wheeling), and holds there until it stands. ``record`` writes the end of
    the ride away in ``Charge.wheeling`` (the planner does, a preview does not). A ``Hold`` once the foe is gone
    (``target`` None) or out of the fight (:func:`out_of_fight`: the planner then sets ``target`` None)."""
    if goal.target is None:
        return Hold()
    if not world.exists(goal.target) or not world.has(goal.target, Position):
        return Flee(goal.target, range_yd=goal.run_yd)  # its aim is None: the search says the foe is gone
    if out_of_fight(world, goal.target) is not None:
        return Hold()
    here = world.get(mover, Position).hex
    moving = carrier(world, goal.target)
    foe = world.get(moving, Position).hex
    foe_down = down(world, goal.target)
    wheeling = (goal.wheeling or foe_down) and distance(here, foe) < goal.run_yd
    if record:
        goal.wheeling = wheeling
        goal.charged = goal.charged and not wheeling
    if wheeling:
        return Flee(moving, range_yd=goal.run_yd)
    if foe_down:
        return Hold()
    return GoTo(run_past(here, foe, goal.run_yd, world.get(mover, Velocity).heading), stop=False)


def run_past(here: Hex, foe: Hex, run_yd: int, heading: int) -> Hex:
    """Where a run from ``here`` at ``foe`` heads for: of the six straight ways, the one that brings ``here`` nearest
    the foe (the first in facing order of those as near; ``heading`` from the foe's own hex), and on it the hex
    ``run_yd`` beyond the foe, :data:`PASS_YD` to its left. The same from anywhere in a sixth of the round, so a
    run keeps its aim as it comes round; two lancers running at each other keep their own lanes when they start
    :data:`PASS_YD` apart across them."""
    gap = distance(here, foe)
    way = heading
    if gap:
        way = min(
            range(6), key=lambda f: distance((here[0] + DIRECTIONS[f][0] * gap, here[1] + DIRECTIONS[f][1] * gap), foe)
        )
    aside = DIRECTIONS[turn(way, 1)]
    dq, dr = DIRECTIONS[way]
    return (foe[0] + aside[0] * PASS_YD + dq * run_yd, foe[1] + aside[1] * PASS_YD + dr * run_yd)


def carrier(world: World, entity: int) -> int:
    """What moves ``entity``: the mount or vehicle that carries it (its own velocity says nothing), or itself."""
    control = world.try_get(entity, Control)
    if control is None or control.carried_by is None or not world.has(control.carried_by, Position):
        return entity
    return control.carried_by


def strike(world: World, steer: Steer, first: PlannedTurn | None) -> None:
    """On a ``Charge`` run (not while it wheels) of a rider on a mount, at a foe that is not :func:`down`: report
    the charge to the foe (``Mount.charge_foe``, whose panic check the MOUNTED phase rolls: Basic Set: Mounted
    Combat > Attacks by Mounts > Panic) once a pass, on the turn before the strike (the foe, where it will be after
    the next turn, within the reach plus the yards the mount will run then at its planned speed) or on the strike's
    own turn when it comes sooner (``Charge.charged`` records it); and when the planned path comes within the
    decider's ``Attack.reach_yd`` of where the foe will be, ask the decider's attack of this turn: ``Attack.target``
    the foe and the Attack maneuver (the lance strikes from the first yard of the mount's path the foe is in reach,
    as the COMBAT phase resolves it); the pass is then made (``Charge.wheeling``). A decider with no melee
    ``Attack`` strikes nothing; on foot (its maneuver is its movement's) or on a bucking mount (which lets it only
    dodge, and charges nobody: Basic Set: Mounted Combat > Spooked Mounts) it rides the passes and neither charges
    nor strikes."""
    goal = steer.goal
    if not isinstance(goal, Charge) or goal.wheeling or goal.target is None or first is None:
        return
    if steer.decider == steer.mover or down(world, goal.target):
        return
    mount = world.try_get(steer.mover, Mount)
    if mount is None or mount.spooked:
        return
    attack = world.try_get(steer.decider, Attack)
    reach = attack.reach_yd if attack is not None and attack.weapon == "melee" else 0
    moving = carrier(world, goal.target)
    foe = predicted(world, moving, 1)
    now = any(distance(hex, foe) <= reach for hex in first.path)
    if not goal.charged and (
        now or distance(first.after.hex, predicted(world, moving, 2)) <= reach + first.after.velocity
    ):
        mount.charge_foe = goal.target
        goal.charged = True
    if attack is None or not reach or not now:
        return
    attack.target = goal.target
    intent = world.try_get(steer.decider, Intent)
    if intent is not None:
        intent.maneuver = Maneuver.ATTACK
    goal.wheeling = True  # one strike a pass: then ride on and wheel round

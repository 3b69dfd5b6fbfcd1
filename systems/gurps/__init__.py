"""The GURPS rule set: High-Speed Movement, Flying Combat, Mounted Combat and Changing Posture in Armor.

``install(world, rules=Rules.basic())`` adds every system in its phase; ``Rules.house()`` switches to the
campaign's house rules where they differ. ``preview(world, entity)`` tells a game UI which rolls this
turn's intent would need, and :mod:`esper_motion.systems.gurps.highspeed.queries` answers questions about attacking and
defending at speed. Where each phase's systems live:

- ``INTENT``: ``mount_orders.MountOrderSystem`` (what a mount agrees to do: risky feats, charges, exhaustion),
  ``intent.IntentCheck`` (refuses bad intents before anything changes),
  ``maneuvers.ManeuverLimits`` (opens the turn; the maneuvers allowed at high speed), ``posture.PostureSystem``.
- ``TURNING``: ``turning.TurnPlanner`` (turning radius, early and tight turns).
- ``MOVEMENT``: ``movement.PathWalker`` (the path hex by hex: footing, jumping, running into things; it keeps
  the ``spatial.SpatialIndex`` shared with the CONTROL phase), ``altitude.AltitudeSystem`` (climbs, dives).
- ``COLLISION``: ``collision.CollisionResolver`` (damage both ways, both stop).
- ``STALL``: ``ceiling.CeilingSystem``, ``stall.StallSystem``, ``fall.FallSystem`` (Flying Combat).
- ``CONTROL``: ``control.Tripping`` (trip, skid, fall damage), ``drift.Drifting`` (air, water, wheels), or
  under the house rules ``recovery.HouseRecovery`` (slowing down and DX rolls to regain control).
- ``ACCELERATION``: ``acceleration.VelocityChange`` (accelerate, decelerate, enter and leave high speed).
- ``MOUNTED``: ``mount_links.MountLinkSystem`` (rider-mount links), ``mount_control.MountRecoverySystem``
  (calling a loose mount back; house: the Ready that takes a mount back), ``spooking.SpookingSystem``,
  ``mounting.MountingSystem`` (getting on and off), ``mounted_results.MountedResultsSystem`` (staying on,
  hits, noisy shots, the Mount Loss of Control Table), ``riding.RidingSystem`` (riders go with their mounts).
- ``CLEANUP``: ``cleanup.IntentReset``.

Shared pieces: ``movers`` (initiative order, the Move in use on the ground, in the air and in water, top
speed, the control roll; riders are entities with ``Control.carried_by`` set and never move under their
own power), ``transitions`` (losing and regaining control, coming to rest), ``events`` (every GURPS event),
``rules`` (the pure formulas and tables).
"""

from __future__ import annotations

from esper_motion.ecs import System, World, register_rule_set
from esper_motion.systems.gurps.flight.altitude import AltitudeSystem
from esper_motion.systems.gurps.flight.ceiling import CeilingSystem
from esper_motion.systems.gurps.flight.fall import FallSystem
from esper_motion.systems.gurps.flight.house_climb_turns import HouseClimbTurns
from esper_motion.systems.gurps.flight.house_dive import HouseDiveSpeed
from esper_motion.systems.gurps.flight.house_dive_control import HouseDiveControl
from esper_motion.systems.gurps.flight.house_drop import HouseUncontrolledDrop
from esper_motion.systems.gurps.flight.house_wingspan import HouseWingspan
from esper_motion.systems.gurps.flight.house_wipe_out import HouseWipeOutRecovery
from esper_motion.systems.gurps.flight.stall import StallSystem
from esper_motion.systems.gurps.highspeed.acceleration import VelocityChange
from esper_motion.systems.gurps.highspeed.collision import CollisionResolver
from esper_motion.systems.gurps.highspeed.control import Tripping
from esper_motion.systems.gurps.highspeed.drift import Drifting
from esper_motion.systems.gurps.highspeed.house_recovery import HouseRecovery
from esper_motion.systems.gurps.highspeed.intent import IntentCheck
from esper_motion.systems.gurps.highspeed.maneuvers import ManeuverLimits
from esper_motion.systems.gurps.highspeed.movement import PathWalker
from esper_motion.systems.gurps.highspeed.turning import TurnPlanner
from esper_motion.systems.gurps.mounted.mount_control import MountRecoverySystem
from esper_motion.systems.gurps.mounted.mount_links import MountLinkSystem
from esper_motion.systems.gurps.mounted.mount_orders import MountOrderSystem
from esper_motion.systems.gurps.mounted.mounted_results import MountedResultsSystem
from esper_motion.systems.gurps.mounted.mounting import MountingSystem
from esper_motion.systems.gurps.mounted.riding import RidingSystem
from esper_motion.systems.gurps.mounted.spooking import SpookingSystem
from esper_motion.systems.gurps.options import Rules
from esper_motion.systems.gurps.posture.posture import PostureSystem
from esper_motion.systems.gurps.preview import Forecast, RollForecast, preview
from esper_motion.systems.gurps.shared.cleanup import IntentReset
from esper_motion.systems.gurps.shared.spatial import SpatialIndex

__all__ = ["Forecast", "RollForecast", "Rules", "install", "preview", "systems_for"]


def systems_for(rules: Rules) -> list[System]:
    """Every GURPS system for ``rules``, in registration order (the phase decides when each runs)."""
    index = SpatialIndex()
    house_flight = rules.flight == "house"
    return [
        MountOrderSystem(),
        IntentCheck(),
        ManeuverLimits(),
        PostureSystem(),
        TurnPlanner(),
        PathWalker(index),
        AltitudeSystem(index),
        *([HouseClimbTurns(), HouseDiveSpeed()] if house_flight else []),
        CollisionResolver(),
        CeilingSystem(),
        *([HouseWingspan(index), HouseUncontrolledDrop(index)] if house_flight else []),
        StallSystem(),
        FallSystem(index),
        Tripping(index),
        *([HouseWipeOutRecovery(index)] if house_flight else []),
        Drifting() if rules.control == "basic" else HouseRecovery(),
        VelocityChange(),
        *([HouseDiveControl()] if house_flight else []),
        MountLinkSystem(),
        MountRecoverySystem(),
        SpookingSystem(),
        MountingSystem(),
        MountedResultsSystem(),
        RidingSystem(),
        IntentReset(),
    ]


def install(world: World, rules: Rules | None = None) -> None:
    """Install the GURPS systems into ``world`` with ``rules`` (the Basic Set by default).

    Installing twice in one world is an error, not a double run.
    """
    chosen = Rules.basic() if rules is None else rules
    world.install_rules("gurps", chosen)
    for system in systems_for(chosen):
        world.add_system(system)


register_rule_set("gurps", install, Rules)

"""Ranged attacks on the move, with their drop checks."""

from __future__ import annotations

from esper_motion.ecs import Phase, RollMade, System
from esper_motion.systems.spelljammer._shared import characters, options_of
from esper_motion.systems.spelljammer.events import ShotsOnTheMove
from esper_motion.systems.spelljammer.rules import DropResult, drop_check, fire_on_the_move


class MovingFire(System):
    """CONTROL phase, after ``ChaseTable``: the ranged attacks a character makes on the move this round. Reads
    ``RoundIntent`` (``shots``, ``weapon``, ``reloads_itself``), ``Mobility`` (``dex``, ``large``, ``centaur``,
    ``master_reduction``), ``RoundState`` (``mode``, ``moved_hex``, ``weapon_ready``, ``weapon_dropped``) and the
    ``half_move_fire`` option; writes ``RoundState.weapon_ready`` and ``weapon_dropped``; emits
    :class:`~esper_motion.ecs.RollMade` for each drop check and :class:`ShotsOnTheMove`. Implements Spelljammer:
    Running, Shooting, Chasing and Fleeing > Moving and Shooting.

    Its reading of the rules: docs/spelljammer.md > How each system reads the rules > MovingFire.
    """

    phase = Phase.CONTROL

    def run(self) -> None:
        """Resolve the shots on the move of every shooter, in initiative order."""
        half_move_fire = options_of(self.world).half_move_fire
        for entity, (mobility, intent, state, _) in characters():
            if not intent.shots:
                if state.moved_hex == 0:
                    state.weapon_ready, state.weapon_dropped = True, False
                continue
            if state.weapon_dropped:
                self.world.emit(ShotsOnTheMove(entity, intent.weapon, 0, 0, (), 0))
                continue
            mode = state.mode
            assert mode is not None  # ChooseSpeed sets it every round
            ready = state.weapon_ready
            fire = fire_on_the_move(
                mode,
                intent.shots,
                intent.weapon,
                reloads_itself=intent.reloads_itself,
                large=mobility.large,
                centaur=mobility.centaur,
                penalty_reduction=mobility.master_reduction,
                half_move_fire=half_move_fire,
                ready=ready,
            )
            first_drawn = fire.attacks - fire.drop_checks + 1
            drops: list[DropResult] = []
            for shot in range(first_drawn, first_drawn + fire.drop_checks):
                roll = self.world.dice.roll("d100")
                purpose = f"drop threat of shot {shot}, {fire.drop_multiple}x DEX {mobility.dex}"
                self.world.emit(RollMade(entity, purpose, roll))
                drops.append(drop_check(roll.total, mobility.dex, mode, half_move_fire=half_move_fire))
                if drops[-1] is DropResult.WEAPON_DROPPED:
                    break
            lost = drops.count(DropResult.ARROW_DROPPED)
            if DropResult.WEAPON_DROPPED in drops:
                # that shot (number first_drawn + len(drops) - 1) and every later one
                lost += fire.attacks - (first_drawn + len(drops) - 2)
                state.weapon_dropped = True
            fired = fire.attacks - lost
            if fire.attacks:
                state.weapon_ready = False
            self.world.emit(ShotsOnTheMove(entity, intent.weapon, fire.attacks, fire.modifier, tuple(drops), fired))

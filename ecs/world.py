"""The World: one esper context with its dice, rules, event log, turn counter and queued changes; and System,
an esper Processor that belongs to a phase and runs through its World.

Saving and loading (:mod:`esper_motion.ecs.persist`) and the registry of names know the world; the world needs
neither of them imported first, and imports persistence only when it saves or loads.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable, Hashable, Sequence
from functools import partial
from operator import itemgetter
from typing import Any, ClassVar, TypeVar, overload

import esper

from esper_motion.ecs import _context
from esper_motion.ecs.dice import Dice
from esper_motion.ecs.errors import WorldError
from esper_motion.ecs.events import Event
from esper_motion.ecs.phase import Phase
from esper_motion.ecs.validate import check_int

C = TypeVar("C")
T = TypeVar("T")
C2 = TypeVar("C2")
C3 = TypeVar("C3")
C4 = TypeVar("C4")
E = TypeVar("E", bound=Event)

_names = itertools.count(1)


class World:
    """One simulation: an esper context plus the dice, rule options, events and turn count that go with it.

    Two worlds never see each other's entities, processors, handlers or dice. Every method switches to this
    world's esper context for its duration and then restores whichever context was current, so a game's own
    esper code keeps working around it.

    Changes of structure made while a step runs (spawn, despawn, add, remove) are queued and applied once,
    after the last phase of the turn, so queries inside the turn stay cached (docs/architecture.md > Performance). A
    spawn during a step returns the new id at once; its components arrive with the queue.

    When a step raises, the world goes back to exactly what it was before that step: entities, components,
    dice, turn count and events. That costs a copy of the world every turn; a game that prefers speed to
    that guarantee passes ``transactional=False``.

    >>> from esper_motion.components import Position
    >>> world = World(seed=1)
    >>> runner = world.spawn(Position(0, 0))
    >>> world.get(runner, Position)
    Position(q=0, r=0, altitude_yd=0.0)
    """

    def __init__(self, seed: int | None = None, *, context: str | None = None, transactional: bool = True) -> None:
        self.context = context if context is not None else f"esper-motion-{next(_names)}"
        self.dice = Dice(seed)
        self.rules: dict[str, Any] = {}
        self.turn = 0
        self.events: list[Event] = []
        self.transactional = transactional
        self.systems: list[System] = []
        self._handlers: dict[type[Event], list[Callable[[Any], None]]] = {}
        self._queue: list[Callable[[], None]] = []
        self._stepping = False
        self._emitted: list[Event] = []
        self._this_turn: dict[Hashable, Any] = {}
        self._this_run: dict[Hashable, Any] | None = None  # a dict while one of our systems runs
        self._shaped: dict[Hashable, tuple[object, Any]] = {}
        with _context.active(self.context):
            pass  # switching creates the context if it is new

    @classmethod
    def attach(cls, context: str | None = None, *, seed: int | None = None, transactional: bool = True) -> World:
        """A World over an esper context a game already uses (by default the current one).

        The game's entities, components and processors stay; ours join them.
        """
        return cls(seed, context=context if context is not None else esper.current_world, transactional=transactional)

    # -- entities and components -------------------------------------------------------------

    def spawn(self, *components: Any) -> int:
        """Create an entity with ``components``; return its id (queued during a step, id given at once).

        Links the components make to entities that exist are checked first (:func:`esper_motion.ecs.links.check_new`):
        a link that cannot stand raises :class:`~esper_motion.ecs.links.LinkError` and nothing is created.
        """
        from esper_motion.ecs import links  # noqa: PLC0415 (the links know the world, not the other way round)

        with _context.active(self.context):
            if not self._stepping:
                links.check_new(self, _context.peek_next_entity(), components, new=True)
                return esper.create_entity(*components)
            entity = esper.create_entity()
            links.check_new(self, entity, components, new=True)
        self._queue.extend(partial(esper.add_component, entity, component) for component in components)
        return entity

    def despawn(self, entity: int) -> None:
        """Remove an entity and all its components (queued during a step)."""
        self._require(entity)
        self._run_or_queue(lambda: esper.delete_entity(entity, immediate=True) if esper.entity_exists(entity) else None)

    def add(self, entity: int, component: Any) -> None:
        """Give ``entity`` a component, replacing one of the same type (queued during a step); its links are checked
        first, as :meth:`spawn` checks them."""
        from esper_motion.ecs import links  # noqa: PLC0415 (the links know the world, not the other way round)

        self._require(entity)
        links.check_new(self, entity, (component,))
        self._run_or_queue(lambda: esper.add_component(entity, component) if esper.entity_exists(entity) else None)

    def remove(self, entity: int, component_type: type[Any]) -> None:
        """Take a component off ``entity`` (queued during a step); an error if it has none of that type."""
        if not self.has(entity, component_type):
            raise WorldError(f"entity {entity} has no {component_type.__name__} to remove")
        self._run_or_queue(lambda: esper.try_remove_component(entity, component_type))

    def get(self, entity: int, component_type: type[C]) -> C:
        """The entity's component of ``component_type``; a clear error if it has none."""
        found = self.try_get(entity, component_type)
        if found is None:
            raise WorldError(f"entity {entity} has no {component_type.__name__}")
        return found

    def try_get(self, entity: int, component_type: type[C]) -> C | None:
        """The entity's component of ``component_type``, or None (also for an entity that does not exist)."""
        if esper.current_world == self.context:  # inside a step: no context switch to pay for
            return _context.component(entity, component_type)
        with _context.active(self.context):
            return _context.component(entity, component_type)

    def has(self, entity: int, component_type: type[Any]) -> bool:
        """Whether the entity exists and has a component of ``component_type``."""
        return self.try_get(entity, component_type) is not None

    def exists(self, entity: int) -> bool:
        """Whether the entity is alive in this world."""
        if esper.current_world == self.context:
            return esper.entity_exists(entity)
        with _context.active(self.context):
            return esper.entity_exists(entity)

    def entities(self) -> list[int]:
        """Every live entity id, in creation order."""
        with _context.active(self.context):
            return [e for e in esper.get_entities() if esper.entity_exists(e)]

    def components(self, entity: int) -> tuple[Any, ...]:
        """All components of one entity."""
        self._require(entity)
        with _context.active(self.context):
            return esper.components_for_entity(entity)

    @overload
    def query(self, c1: type[C], /) -> list[tuple[int, tuple[C]]]: ...
    @overload
    def query(self, c1: type[C], c2: type[C2], /) -> list[tuple[int, tuple[C, C2]]]: ...
    @overload
    def query(self, c1: type[C], c2: type[C2], c3: type[C3], /) -> list[tuple[int, tuple[C, C2, C3]]]: ...
    @overload
    def query(
        self, c1: type[C], c2: type[C2], c3: type[C3], c4: type[C4], /
    ) -> list[tuple[int, tuple[C, C2, C3, C4]]]: ...
    def query(self, *component_types: type[Any]) -> list[tuple[int, tuple[Any, ...]]]:
        """Every entity having all ``component_types``, with those components, in entity order."""
        if not component_types:
            raise WorldError("query needs at least one component type")
        with _context.active(self.context):
            return sorted(esper.get_components(*component_types), key=itemgetter(0))

    @overload
    def scan(self, c1: type[C], /) -> Sequence[tuple[int, tuple[C]]]: ...
    @overload
    def scan(self, c1: type[C], c2: type[C2], /) -> Sequence[tuple[int, tuple[C, C2]]]: ...
    @overload
    def scan(self, c1: type[C], c2: type[C2], c3: type[C3], /) -> Sequence[tuple[int, tuple[C, C2, C3]]]: ...
    @overload
    def scan(
        self, c1: type[C], c2: type[C2], c3: type[C3], c4: type[C4], /
    ) -> Sequence[tuple[int, tuple[C, C2, C3, C4]]]: ...
    def scan(self, *component_types: type[Any]) -> Sequence[tuple[int, tuple[Any, ...]]]:
        """What :meth:`query` finds, in no promised order and without sorting it: for work whose outcome does
        not depend on the order. It is esper's own cached list, so read it and never change it."""
        if not component_types:
            raise WorldError("scan needs at least one component type")
        if esper.current_world == self.context:
            return esper.get_components(*component_types)
        with _context.active(self.context):
            return esper.get_components(*component_types)

    # -- systems and rules -------------------------------------------------------------------

    def add_system(self, system: System) -> None:
        """Register a system in its phase; within a phase, systems run in the order they were added."""
        if any(type(s) is type(system) for s in self.systems):
            raise WorldError(f"{type(system).__name__} is already installed in this world")
        system.world = self
        self.systems.append(system)
        with _context.active(self.context):
            esper.add_processor(system, system.phase.priority)

    def install_rules(self, name: str, options: Any) -> None:
        """Record the options of rule set ``name``; installing a rule set twice is an error."""
        if name in self.rules:
            raise WorldError(f"rule set {name!r} is already installed in this world")
        self.rules[name] = options

    def processors(self) -> list[esper.Processor]:
        """Every processor of this world's context in the order esper runs them (ours and the game's)."""
        with _context.active(self.context):
            return list(esper._processors)

    def per_turn(self, key: Hashable, compute: Callable[[], T]) -> T:
        """During a step, what ``compute()`` gave the first time ``key`` was asked this turn; outside a step,
        ``compute()`` every time (between steps a game may change anything).

        For a value several systems need that holds still through a turn, such as the initiative order: the
        systems share one computation instead of each making its own.
        """
        return _kept(self._this_turn if self._stepping else None, key, compute)

    def per_run(self, key: Hashable, compute: Callable[[], T]) -> T:
        """While a system runs, what ``compute()`` gave the first time ``key`` was asked in that run; at any other
        time (between steps, or from a game's own processor in the turn) ``compute()`` every time.

        For a value that only the running system can change and that the system keeps up to date itself as it
        changes it, such as the shared spatial index: brought up to date once a run instead of at every call.
        """
        return _kept(self._this_run, key, compute)

    def _run_system(self, system: System) -> None:
        """Run ``system``'s part of the turn, with a fresh :meth:`per_run` store."""
        self._this_run = {}
        try:
            system.run()
        finally:
            self._this_run = None

    def per_shape(
        self,
        key: Hashable,
        component_types: tuple[type[Any], ...],
        compute: Callable[[Sequence[tuple[int, tuple[Any, ...]]]], T],
    ) -> T:
        """``compute(rows)``, ``rows`` being what :meth:`scan` finds for ``component_types``, kept from turn to
        turn until an entity or a component is added, removed or replaced anywhere in the world (esper then
        drops its cached rows, and the next call computes afresh).

        For values built from which entities have which components, never from what is in the components:
        objects wrapping a query's components, say, made once instead of every turn.
        """
        rows = self.scan(*component_types)
        kept = self._shaped.get(key)
        if kept is not None and kept[0] is rows:
            found: T = kept[1]
            return found
        value = compute(rows)
        self._shaped[key] = (rows, value)
        return value

    # -- saving and loading ------------------------------------------------------------------

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the whole world to ``path`` as JSON, atomically (format and guarantees:
        :mod:`esper_motion.ecs.persist`).

        Refused during a step (its queued changes are half-made code, not data): save between steps.
        """
        self._refuse_mid_step("save")
        from esper_motion.ecs import persist  # noqa: PLC0415 (persistence knows the world, not the other way round)

        persist.save(self, path)

    @classmethod
    def load(cls, path: str | os.PathLike[str], *, context: str | None = None, transactional: bool = True) -> World:
        """A new world from the save at ``path``: same entity ids, components, turn, dice and rule sets.

        Every rule set in the save is reinstalled through the install function its package registered with
        :func:`esper_motion.ecs.register_rule_set` (so import that package first), and every other system through
        :func:`esper_motion.ecs.register_system`, in the order they ran. Event handlers are the game's code: add them
        again. A bad file raises :class:`esper_motion.ecs.persist.SaveError`.
        """
        from esper_motion.ecs import persist  # noqa: PLC0415 (persistence knows the world, not the other way round)

        return persist.load(cls, path, context=context, transactional=transactional)

    def restore(self, path: str | os.PathLike[str]) -> None:
        """Replace this world's entities, components, turn and dice with the save at ``path``; all or nothing.

        The world keeps its systems and handlers, so it must have the save's rule sets installed with the same
        options. A bad file raises :class:`esper_motion.ecs.persist.SaveError` and leaves the world as it was.
        """
        self._refuse_mid_step("restore")
        from esper_motion.ecs import persist  # noqa: PLC0415 (persistence knows the world, not the other way round)

        persist.restore(self, path)

    # -- events ------------------------------------------------------------------------------

    def emit(self, event: Event) -> None:
        """Record an event of the running step; handlers hear it once the turn has completed."""
        self._emitted.append(event)

    def on(self, event_type: type[E], handler: Callable[[E], None]) -> None:
        """Call ``handler(event)`` for every event of exactly ``event_type``, after esper's own handlers.

        The world holds the handler strongly (esper keeps weak references and drops a lambda at once).
        """
        self._handlers.setdefault(event_type, []).append(handler)

    def off(self, event_type: type[E], handler: Callable[[E], None]) -> None:
        """Stop calling a handler registered with :meth:`on`."""
        handlers = self._handlers.get(event_type, [])
        if handler not in handlers:
            raise WorldError(f"{handler!r} is not handling {event_type.__name__}")
        handlers.remove(handler)

    # -- the turn ----------------------------------------------------------------------------

    def step(self, turns: int = 1) -> list[Event]:
        """Resolve ``turns`` turns; return (and keep in :attr:`events`) every event they emitted, in order."""
        check_int("World.step", "turns", turns, low=1)
        if self._stepping:
            raise WorldError("World.step called from inside a step")
        emitted: list[Event] = []
        for _ in range(turns):
            emitted.extend(self._one_turn())
        self.events = emitted
        return emitted

    def _one_turn(self) -> list[Event]:
        with _context.active(self.context):
            saved = (_context.snapshot(), self.dice.getstate(), self.turn) if self.transactional else None
            self._stepping = True
            self._emitted = []
            self._this_turn = {}
            try:
                esper.process()
                self._stepping = False
                self._apply_queue()
                self.turn += 1
            except BaseException:
                self._stepping = False
                self._queue.clear()
                if saved is not None:
                    _context.restore(saved[0])
                    self.dice.setstate(saved[1])
                    self.turn = saved[2]
                raise
            emitted, self._emitted = self._emitted, []
            if esper.event_registry or self._handlers:  # nobody listening: nothing to hand out
                for event in emitted:
                    esper.dispatch_event(type(event).__name__, event)
                    for handler in self._handlers.get(type(event), ()):
                        handler(event)
        return emitted

    # -- internals ---------------------------------------------------------------------------

    def _refuse_mid_step(self, action: str) -> None:
        if self._stepping:
            raise WorldError(f"World.{action} cannot run during a step; call it between steps")

    def _require(self, entity: int) -> None:
        if not self.exists(entity):
            raise WorldError(f"entity {entity} does not exist in this world")

    def _run_or_queue(self, change: Callable[[], None]) -> None:
        if self._stepping:
            self._queue.append(change)
            return
        with _context.active(self.context):
            change()

    def _apply_queue(self) -> None:
        queue, self._queue = self._queue, []
        for change in queue:
            change()


class System(esper.Processor):
    """Base class of every rule system.

    A subclass sets the class attribute ``phase`` and implements :meth:`run`. ``World.add_system`` gives it
    its world and the esper priority of its phase; plain ``esper.process()`` runs it too.
    """

    phase: ClassVar[Phase]

    def __init__(self) -> None:
        self._world: World | None = None

    @property
    def world(self) -> World:
        """The world this system was added to."""
        if self._world is None:
            raise WorldError(f"{type(self).__name__} is not installed in a world")
        return self._world

    @world.setter
    def world(self, world: World) -> None:
        self._world = world

    def process(self, *args: Any, **kwargs: Any) -> None:
        """esper's entry point: run this system's part of the turn (through its world, which keeps what
        :meth:`esper_motion.ecs.World.per_run` holds for the length of the run)."""
        self.world._run_system(self)

    def run(self) -> None:
        """This system's part of the turn. Subclasses implement it."""
        raise NotImplementedError(f"{type(self).__name__} must implement run()")


def _kept(store: dict[Hashable, Any] | None, key: Hashable, compute: Callable[[], T]) -> T:
    """What ``compute()`` gave the first time ``key`` was asked of ``store`` (computed and kept now if never);
    with no store, ``compute()`` every time."""
    if store is None:
        return compute()
    if key in store:
        found: T = store[key]
        return found
    value = store[key] = compute()
    return value

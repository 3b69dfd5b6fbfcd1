"""The World: one esper context with its dice, rules, systems, event log, turn counter and queued changes; and
System, one part of the turn, belonging to a phase and run by its World.

The contract with a game (docs/architecture.md > Embedding): ``World.step`` runs the world's own systems, in
phase order, and nothing else; ``esper.process()`` runs the game's processors and never ours. A game steps the
world from its own loop (a fixed timestep, a key press, its own processor).

World is also the facade over the links between entities (:mod:`esper_motion.ecs.links`) and over saving and
loading (:mod:`esper_motion.ecs.persist`), which both import the world: :meth:`World.spawn`, :meth:`World.add` and
the checks before each step call the links, :meth:`World.save`, :meth:`World.load` and :meth:`World.restore` call
persistence, each importing its module inside the method, when called. This module imports neither of them, nor the
registry of names (which knows the world too, and which the world never calls).
"""

from __future__ import annotations

import gc
import itertools
import os
import sys
import weakref
from bisect import bisect_right
from collections.abc import Callable, Hashable, Iterable, Sequence
from functools import partial
from operator import attrgetter, is_, itemgetter
from typing import Any, ClassVar, TypeVar, overload

import esper

from esper_motion.ecs import _context, watch
from esper_motion.ecs.dice import Dice
from esper_motion.ecs.errors import HandlerError, MotionError, RuleValueError, WorldError, shown
from esper_motion.ecs.events import Event
from esper_motion.ecs.phase import Phase
from esper_motion.ecs.validate import check_in_place, check_int

C = TypeVar("C")
T = TypeVar("T")
C2 = TypeVar("C2")
C3 = TypeVar("C3")
C4 = TypeVar("C4")
E = TypeVar("E", bound=Event)

_names = itertools.count(1)

_OPEN: weakref.WeakSet[World] = weakref.WeakSet()
"""Every world not closed: where a component given to an entity might already belong to another."""

_UNHOOK_FROM = 16
"""The fewest entities for which a step takes the field watch's hooks off while the library's systems run
(:func:`esper_motion.ecs.watch.pause`): in a smaller world the writes cost less through the hooks."""

_NO_TABLE: dict[type[Any], Any] = {}
"""The table of an entity a world does not hold, for look-ups mapped over many (never written to)."""

_second = itemgetter(1)

_Members = tuple[tuple[type[Any], ...], tuple[type[Any], ...]]

_MEMBERS: dict[str, _Members] = {}
"""For each rule set that declared its members: the component types a member needs, and those that make one."""


def declare_members(rule_set: str, needs: tuple[type[Any], ...], *, marked_by: tuple[type[Any], ...]) -> None:
    """Declare what an entity of rule set ``rule_set`` is: an entity holding every type of ``marked_by`` is a
    member, and a member must hold every type of ``needs``. Before each step, a world with the rule set installed
    refuses a member short of a component (which the rule set's systems would pass over without a word), naming
    the entity and what is missing. A rule set's package calls this once, at import."""
    _MEMBERS[rule_set] = (needs, marked_by)


def declared_members(rule_set: str) -> tuple[tuple[type[Any], ...], tuple[type[Any], ...]] | None:
    """What :func:`declare_members` declared for ``rule_set``: the types a member needs and those that make one, or
    None for a rule set that declared nothing."""
    return _MEMBERS.get(rule_set)


class World:
    """One simulation: an esper context plus the systems, dice, rule options, events and turn count that go with it.

    Two worlds never see each other's entities, systems, handlers or dice. Every method switches to this
    world's esper context for its duration and then restores whichever context was current, so a game's own
    esper code keeps working around it. :meth:`step` runs this world's systems and never the processors a game
    gives esper; ``esper.process()`` runs the game's processors and never this world's systems.

    Changes of structure made while a step runs (spawn, despawn, add, remove) are queued and applied once,
    after the last phase of the turn, so queries inside the turn stay cached (docs/architecture.md > Performance). A
    spawn during a step returns the new id at once; its components arrive with the queue.

    When a step raises, the world goes back to exactly what it was before that step: entities, the fields of every
    registered component, dice, turn count and events. That costs a copy of those fields every turn; a game that
    prefers speed to that guarantee passes ``transactional=False``. Components of types no one registered (a
    game's sprites, say) are never copied, replaced or rolled back.

    Python's cyclic garbage collector is paused while a turn runs (a turn leaves no cyclic garbage of its own, and
    the collections its allocations would set off walk the whole heap for nothing) and is resumed when the turn
    ends, so that whatever a game's code left is collected as before; a game whose own systems make cyclic garbage
    in bulk sets :attr:`pause_collector` to False.

    A world owns the esper context it made: :meth:`close` (or leaving a ``with World() as world:`` block, or the
    world being garbage collected) deletes it. A world made by :meth:`attach` leaves the game's context alone.

    >>> from esper_motion.components import Position
    >>> with World(seed=1) as world:
    ...     runner = world.spawn(Position(0, 0))
    ...     world.get(runner, Position)
    Position(q=0, r=0, altitude_yd=0.0)
    """

    pause_collector: bool = True
    """Whether :meth:`step` pauses Python's garbage collector while each turn runs (if it was on)."""

    def __init__(self, seed: int | None = None, *, context: str | None = None, transactional: bool = True) -> None:
        self.context = context if context is not None else f"esper-motion-{next(_names)}"
        self.dice = Dice(seed)
        self.rules: dict[str, Any] = {}
        self.turn = 0
        self.events: list[Event] = []
        self.transactional = transactional
        self.systems: list[System] = []
        self._handlers: dict[type[Event], list[Callable[[Any], None]]] = {}
        self._heard: dict[type[Event], tuple[Callable[[Any], None], ...]] = {}
        self._queue: list[Callable[[], Iterable[type[Any]]]] = []  # each change gives the types it touched
        self._stepping = False
        self._dispatching = False
        self._emitted: list[Event] = []
        self._this_turn: dict[Hashable, Any] = {}
        self._this_run: dict[Hashable, Any] | None = None  # a dict while one of our systems runs
        self._shaped: dict[Hashable, tuple[object, Any]] = {}
        self._gone: str | None = None  # why this world can no longer be used, once it cannot
        self._given: dict[int, int] | None = None  # id of a registered component -> its entity (_holder)
        self._given_built = 0  # how many entries the index held when it was last built
        self._contents: _context.Contents = []  # what lists and dicts held after the last turn (_context.contents)
        self._members_checked: object = None  # the structure of the members' types when last found sound
        self._members_of: tuple[object, list[tuple[str, _Members]], tuple[type[Any], ...]] = (None, [], ())
        self._links_checked: object = None
        owned = self.context not in esper.list_worlds()
        with _context.active(self.context):  # switching creates the context if it is new
            self._entities = _context.entity_table()
            self._dead = _context.dead_entities()
            self._forget_context = _context.when_deleted(partial(_context_deleted, weakref.ref(self)))
        self._finalizer = weakref.finalize(self, _free_context, self.context) if owned else None
        _OPEN.add(self)

    @classmethod
    def attach(cls, context: str | None = None, *, seed: int | None = None, transactional: bool = True) -> World:
        """A World over an esper context a game already uses (by default the current one).

        The game's entities, components and processors stay; ours join them. Closing the world leaves the
        context to the game.
        """
        return cls(seed, context=context if context is not None else esper.current_world, transactional=transactional)

    def close(self) -> None:
        """Delete this world's esper context, with every entity in it (a world made by :meth:`attach` leaves the
        game's context as it is). Closing twice is allowed; every other use of a closed world raises
        :class:`WorldError`, as does every use of a world whose esper context the game deleted
        (``esper.delete_world``): a closed world never saves its emptiness over a save."""
        self._refuse_mid_step("close", handlers=True)
        if self._gone is None:
            self._gone = f"world {self.context!r} is closed"
        self.systems.clear()
        self._forget_context()
        if self._finalizer is not None and self._finalizer.alive:
            self._finalizer()
        self._let_go()

    def _let_go(self) -> None:
        """Hold no entity table any more (the context's, or the game's): every look-up misses."""
        self._entities = {}
        self._dead = set()
        self._given = None
        self._contents = []
        _OPEN.discard(self)

    def _open(self, action: str) -> None:
        """Refuse ``World.action`` on a world that is closed or lost its esper context."""
        if self._gone is not None:
            raise WorldError(f"World.{action}: {self._gone}")

    def __enter__(self) -> World:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- entities and components -------------------------------------------------------------

    def spawn(self, *components: Any) -> int:
        """Create an entity with ``components``; return its id (queued during a step, id given at once).

        Links the components make to entities that exist are checked first (:func:`esper_motion.ecs.links.check_new`):
        a link that cannot stand raises :class:`~esper_motion.ecs.links.LinkError` and nothing is created.
        """
        from esper_motion.ecs import links  # noqa: PLC0415 (the facade over the links, which import the world)

        self._open("spawn")
        for component in components:
            _check_instance("spawn", component)
        with _context.active(self.context), _context.reshaping() as touched:
            if not self._stepping:
                entity = _context.peek_next_entity()
                _refuse_shared("spawn", self, entity, components)
                links.check_new(self, entity, components, new=True)
                esper.create_entity(*components)
                touched.update(map(type, components))
            else:
                entity = esper.create_entity()
                _refuse_shared("spawn", self, entity, components)
                links.check_new(self, entity, components, new=True)
                self._queue.extend(partial(_give, entity, component) for component in components)
            touched.add(_context.Created)
        self._record_given(entity, components)
        _note_containers(components)
        return entity

    def despawn(self, entity: int) -> None:
        """Remove an entity and all its components (queued during a step)."""
        self._open("despawn")
        self._require(entity)
        self._run_or_queue(lambda: self._delete(entity))

    def add(self, entity: int, component: Any) -> None:
        """Give ``entity`` a component, replacing one of the same type (queued during a step); its links are checked
        first, as :meth:`spawn` checks them."""
        from esper_motion.ecs import links  # noqa: PLC0415 (the facade over the links, which import the world)

        self._open("add")
        _check_instance("add", component)
        self._require(entity)
        _refuse_shared("add", self, entity, (component,))
        links.check_new(self, entity, (component,))
        self._run_or_queue(partial(_give, entity, component))
        self._record_given(entity, (component,))
        _note_containers((component,))

    def remove(self, entity: int, component_type: type[Any]) -> None:
        """Take a component off ``entity`` (queued during a step); an error if it has none of that type."""
        self._open("remove")
        if not self.has(entity, component_type):
            raise WorldError(f"entity {entity} has no {component_type.__name__} to remove")
        self._run_or_queue(partial(_take_off, entity, component_type))

    def get(self, entity: int, component_type: type[C]) -> C:
        """The entity's component of ``component_type``; a clear error if it has none."""
        try:
            found: C = self._entities[entity][component_type]
        except KeyError:
            self._open("get")  # a world that is gone holds no table: every look-up comes here
            _check_entity_and_type("get", entity, component_type)
            raise WorldError(f"entity {entity} has no {component_type.__name__}") from None
        if entity in self._dead:
            raise WorldError(f"entity {entity} has no {component_type.__name__}: it was deleted")
        return found

    def try_get(self, entity: int, component_type: type[C]) -> C | None:
        """The entity's component of ``component_type``, or None (also for an entity that does not exist)."""
        table = self._entities.get(entity)
        if table is None or entity in self._dead:
            self._open("try_get")
            if table is None:
                _check_entity_and_type("try_get", entity, component_type)
            return None
        found: C | None = table.get(component_type)
        return found

    def has(self, entity: int, component_type: type[Any]) -> bool:
        """Whether the entity exists and has a component of ``component_type``."""
        table = self._entities.get(entity)
        if table is None or entity in self._dead:
            self._open("has")
            return False
        return component_type in table

    def exists(self, entity: int) -> bool:
        """Whether the entity is alive in this world."""
        if entity in self._entities:
            return entity not in self._dead
        self._open("exists")
        return False

    def entities(self) -> list[int]:
        """Every live entity id, in creation order."""
        self._open("entities")
        with _context.active(self.context):
            return [e for e in esper.get_entities() if esper.entity_exists(e)]

    def components(self, entity: int) -> tuple[Any, ...]:
        """All components of one entity."""
        self._open("components")
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
        self._open("query")
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
        self._open("scan")
        if not component_types:
            raise WorldError("scan needs at least one component type")
        if esper.current_world == self.context:
            return esper.get_components(*component_types)
        with _context.active(self.context):
            return esper.get_components(*component_types)

    # -- systems and rules -------------------------------------------------------------------

    def add_system(
        self, system: System, *, before: type[System] | None = None, after: type[System] | None = None
    ) -> None:
        """Add a system to its phase; within a phase, systems run in the order they were added, unless ``before``
        or ``after`` names an installed system of the same phase to run it just before or just after.

        :attr:`systems` lists them in the order a step runs them. A game's own :class:`System` subclasses run
        inside the turn the same way (and fail the same way: a failed step is undone).
        """
        self._open("add_system")
        if not isinstance(system, System):
            raise WorldError(
                f"add_system takes a System (esper_motion.ecs.System), not {system!r}: a game's own esper "
                "processors stay with esper (esper.add_processor) and run in esper.process()"
            )
        if type(system) in {type(s) for s in self.systems}:
            raise WorldError(f"{type(system).__name__} is already installed in this world")
        if before is not None and after is not None:
            raise WorldError(
                f"add_system({type(system).__name__}) takes before= or after=, not both "
                f"(before={before.__name__}, after={after.__name__})"
            )
        neighbour = before if before is not None else after
        if neighbour is None:
            place = bisect_right(self.systems, system.phase, key=attrgetter("phase"))
        else:
            place = self._beside(system, neighbour) + (after is not None)
        system.world = self
        self.systems.insert(place, system)

    def _beside(self, system: System, neighbour: type[System]) -> int:
        """Where ``neighbour``'s system stands in :attr:`systems`, refusing one not installed or of another phase
        than ``system``'s."""
        name = type(system).__name__
        if not isinstance(neighbour, type):
            raise WorldError(
                f"add_system({name}): before= and after= take the class of an installed system, not {neighbour!r}"
            )
        found = next((i for i, s in enumerate(self.systems) if type(s) is neighbour), None)
        if found is None:
            installed = ", ".join(type(s).__name__ for s in self.systems) or "none"
            raise WorldError(
                f"add_system({name}) is to run beside {neighbour.__name__}, which is not installed in this world "
                f"(installed: {installed})"
            )
        if neighbour.phase != system.phase:
            raise WorldError(
                f"add_system({name}) is to run beside {neighbour.__name__}, but {name} runs in phase "
                f"{system.phase.name} and {neighbour.__name__} in phase {neighbour.phase.name}: "
                "a system runs only beside one of its own phase"
            )
        return found

    def install_rules(self, name: str, options: Any) -> None:
        """Record the options of rule set ``name``; installing a rule set twice is an error."""
        self._open("install_rules")
        if name in self.rules:
            raise WorldError(f"rule set {name!r} is already installed in this world")
        self.rules[name] = options

    def per_turn(self, key: Hashable, compute: Callable[[], T]) -> T:
        """During a step, what ``compute()`` gave the first time ``key`` was asked this turn; outside a step,
        ``compute()`` every time (between steps a game may change anything).

        For a value several systems need that holds still through a turn, such as the initiative order: the
        systems share one computation instead of each making its own.
        """
        self._open("per_turn")
        return _kept(self._this_turn if self._stepping else None, key, compute)

    def per_run(self, key: Hashable, compute: Callable[[], T]) -> T:
        """While a system runs, what ``compute()`` gave the first time ``key`` was asked in that run; at any other
        time (between steps, or from a game's own processor in the turn) ``compute()`` every time.

        For a value that only the running system can change and that the system keeps up to date itself as it
        changes it, such as the shared spatial index: brought up to date once a run instead of at every call.
        """
        self._open("per_run")
        return _kept(self._this_run, key, compute)

    def _run_system(self, system: System) -> None:
        """Run ``system``'s part of the turn, with a fresh :meth:`per_run` store (the one the last system left, if
        it kept nothing in it)."""
        if self._this_run is None or self._this_run:
            self._this_run = {}
        system.run()

    def per_shape(
        self,
        key: Hashable,
        component_types: tuple[type[Any], ...],
        compute: Callable[[Sequence[tuple[int, tuple[Any, ...]]]], T],
    ) -> T:
        """``compute(rows)``, ``rows`` being what :meth:`scan` finds for ``component_types``, kept from turn to
        turn until a component of one of those types is added, removed or replaced (an entity holding one made or
        deleted), or the game changes structure through esper itself (esper then drops its cached rows, and the
        next call computes afresh).

        For values built from which entities have which components, never from what is in the components:
        objects wrapping a query's components, say, made once instead of every turn.
        """
        self._open("per_shape")
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
        self._open("save")
        self._refuse_mid_step("save")
        from esper_motion.ecs import persist  # noqa: PLC0415 (the facade over persistence, which imports the world)

        persist.save(self, path)

    @classmethod
    def load(
        cls,
        path: str | os.PathLike[str],
        *,
        context: str | None = None,
        transactional: bool = True,
        replace: bool = False,
    ) -> World:
        """A new world from the save at ``path``: same entity ids, components, turn, dice and rule sets.

        Every rule set in the save is reinstalled through the install function its package registered with
        :func:`esper_motion.ecs.register_rule_set` (so import that package first), and every other system through
        :func:`esper_motion.ecs.register_system`, in the order they ran. Event handlers are the game's code: add them
        again. A bad file raises :class:`esper_motion.ecs.persist.SaveError`.

        ``context`` names the esper context the world lives in (by default a new one of its own). A context that
        exists is the game's: the world then works in it as :meth:`attach` does, and the save's entities take the
        place of all the context's own, so a context that holds entities is refused unless ``replace`` is set.
        Components of a class marked :func:`~esper_motion.ecs.unsaved` are never in a save.
        """
        from esper_motion.ecs import persist  # noqa: PLC0415 (the facade over persistence, which imports the world)

        if context is not None and not replace and context in esper.list_worlds():
            with _context.active(context):
                held = len(_context.entity_table())
            if held:
                raise WorldError(
                    f"World.load: the esper context {context!r} holds {held} entit{'y' if held == 1 else 'ies'} of "
                    "the game's, which the save's would replace: pass replace=True to replace them, or load into a "
                    "context of its own"
                )
        return persist.load(cls, path, context=context, transactional=transactional)

    def restore(self, path: str | os.PathLike[str]) -> None:
        """Replace this world's entities, components, turn and dice with the save at ``path``; all or nothing.

        The world keeps its systems and handlers, so it must have the save's rule sets installed with the same
        options. A bad file raises :class:`esper_motion.ecs.persist.SaveError` and leaves the world as it was.
        """
        self._open("restore")
        self._refuse_mid_step("restore", handlers=True)
        from esper_motion.ecs import persist  # noqa: PLC0415 (the facade over persistence, which imports the world)

        persist.restore(self, path)
        self._given = None
        self._contents = []

    # -- events ------------------------------------------------------------------------------

    def emit(self, event: Event) -> None:
        """Record an event of the running step; handlers hear it once the turn has completed."""
        self._open("emit")
        self._emitted.append(event)

    def on(self, event_type: type[E], handler: Callable[[E], None]) -> None:
        """Call ``handler(event)`` for every event of ``event_type`` or one of its subclasses, once the turn that
        emitted it has completed (``world.on(Event, handler)`` hears every event).

        The world holds the handler strongly (esper keeps weak references and drops a lambda at once).
        """
        self._open("on")
        self._handlers.setdefault(event_type, []).append(handler)
        self._heard.clear()

    def off(self, event_type: type[E], handler: Callable[[E], None]) -> None:
        """Stop calling a handler registered with :meth:`on`."""
        self._open("off")
        handlers = self._handlers.get(event_type, [])
        if handler not in handlers:
            raise WorldError(f"{handler!r} is not handling {event_type.__name__}")
        handlers.remove(handler)
        self._heard.clear()

    # -- the turn ----------------------------------------------------------------------------

    def step(self, turns: int = 1) -> list[Event]:
        """Resolve ``turns`` turns; return (and keep in :attr:`events`) every event they emitted, in order.

        Each turn is completed before its events are handed out, to the handlers of :meth:`on` and then to
        esper's handlers by name (``esper.set_handler(Moved.esper_name, h)``, in the context current when
        ``step`` was called). A turn that raises is undone and nothing of it is heard. A handler that raises
        does not undo its turn: every other handler still hears every event, and once they all have the step
        raises :class:`esper_motion.ecs.errors.HandlerError` naming each failed call, without playing the
        turns still asked for; :attr:`events` then holds the events of the turns completed.
        """
        check_int("World.step", "turns", turns, low=1)
        self._open("step")
        if self._stepping or self._dispatching:
            where = "a step" if self._stepping else "an event handler"
            raise WorldError(f"World.step called from inside {where} of this world; step from the game's loop")
        if not self.systems:
            raise WorldError(
                "this world has no systems: install a rule set first "
                "(esper_motion.systems.gurps.install(world) or esper_motion.systems.spelljammer.install(world))"
            )
        emitted: list[Event] = []
        for _ in range(turns):
            events = self._one_turn()
            emitted.extend(events)
            self.events = emitted
            failures = self._dispatch(events)
            if failures:
                raise HandlerError(self.turn, failures)
        return emitted

    def _one_turn(self) -> list[Event]:
        paused = self.pause_collector and gc.isenabled()
        if paused:
            gc.disable()
        try:
            return self._play_turn()
        finally:
            if paused:
                gc.enable()

    def _play_turn(self) -> list[Event]:
        with _context.active(self.context):
            self._before_turn()
            saved = (_context.snapshot(), self.dice.getstate(), self.turn) if self.transactional else None
            self._stepping = True
            self._emitted = []
            self._this_turn = {}
            paused = False  # the watch is off while the library's systems run, on while a game's own run
            unhook = len(self._entities) >= _UNHOOK_FROM
            held = _context.component_sets()
            try:
                for system in self.systems:
                    acts_on = system.acts_on
                    if acts_on and not any(map(held.get, acts_on)):
                        continue  # no entity holds what it acts on: nothing to do this turn
                    if system.trusted is not paused:
                        paused = system.trusted
                        watch.pause(unhook=unhook) if paused else watch.resume()
                    if paused:
                        self._run_system(system)
                        continue
                    kept = _context.contents()  # a game's own system: what it wrote, assigned or in place,
                    self._run_system(system)  # is checked before another system reads it
                    self._check_written(changed=False, also=_context.changed_in_place(kept))
                self._stepping = False
                self._this_run = None
                self._apply_queue()
                self.turn += 1
                self._contents = _context.contents()
            except BaseException:
                self._stepping = False
                self._this_run = None
                self._queue.clear()
                if saved is not None:
                    _context.restore(saved[0])
                    self.dice.setstate(saved[1])
                    self.turn = saved[2]
                raise
            finally:
                if paused:
                    watch.resume()
            emitted, self._emitted = self._emitted, []
        return emitted

    def _before_turn(self) -> None:
        """Between steps a game may have deleted entities the esper way (lazily), set fields or linked entities:
        apply the deletions as despawns, check every registered component a game wrote, then the links between
        entities (:func:`esper_motion.ecs.links.check_links`) if anything came or went, or a linking component was
        written, since they were last found sound."""
        if self._dead:
            with _context.reshaping() as touched:
                _context.clear_dead(touched)
        self._check_members()
        self._check_written(changed=True, also=_context.changed_in_place(self._contents))

    def _check_written(self, *, changed: bool, also: list[Any] | None = None) -> None:
        """Check every registered component of this world a game wrote since the last check (and ``also``: those
        whose lists or dicts changed in place), by its own checks, then the links
        (:func:`esper_motion.ecs.links.check_links`) if a linking component was written, or if ``changed`` and
        anything came or went since they were last found sound. The active context is this world's."""
        from esper_motion.ecs import links  # noqa: PLC0415 (the facade over the links, which import the world)

        written = watch.written()
        if also:
            written = list({id(component): component for component in (*written, *also)}.values())
        mine = self._held(written) if written else []
        if mine:
            _check_each(mine)
        components = list(map(_second, mine))
        shape = links.structure()
        linked = any(map(links.has_hook, set(map(type, components))))
        if linked or (changed and shape is not self._links_checked):
            links.check_links(self)
            self._links_checked = shape
        if components:
            watch.checked(components)

    def _check_members(self) -> None:
        """Refuse members of the installed rule sets (:func:`declare_members`) short of a component. Looked at again
        only after components of the types they declared came or went."""
        counted = (len(_MEMBERS), tuple(self.rules))  # the declarations only ever grow
        if self._members_of[0] != counted:  # the declared members of the installed rule sets, and their types
            declared = [(rule_set, found) for rule_set, found in _MEMBERS.items() if rule_set in self.rules]
            kinds = tuple({kind: None for _, (needs, marks) in declared for kind in (*needs, *marks)})
            self._members_of = (counted, declared, kinds)
        _, declared, kinds = self._members_of
        shape = _context.structure(*kinds)
        if shape is self._members_checked:
            return
        for rule_set, (needs, marks) in declared:
            members = set.intersection(*(_context.entities_with(kind) for kind in marks))
            complete = set.intersection(*(_context.entities_with(kind) for kind in needs))
            short = members - complete
            if short:
                entity = min(short)
                present = self._entities[entity]
                missing = ", ".join(_lacking(kind, present) for kind in needs if kind not in present)
                wanted = ", ".join(kind.__name__ for kind in needs)
                raise WorldError(
                    f"entity {entity} is missing {missing}: an entity of the {rule_set} rule set needs {wanted}"
                )
        self._members_checked = shape

    def _dispatch(self, events: list[Event]) -> list[tuple[Any, Event, BaseException]]:
        """Hand a completed turn's events to every handler; return the calls that raised."""
        registry = esper.event_registry
        if not events or not (registry or self._handlers):  # nobody listening: nothing to hand out
            return []
        failures: list[tuple[Any, Event, BaseException]] = []
        self._dispatching = True
        try:
            for event in events:
                calls = list(self._handlers_of(type(event)))
                calls += [ref() for ref in list(registry.get(event.esper_name, ()))]
                for handler in calls:
                    if handler is None:
                        continue
                    try:
                        handler(event)
                    except Exception as error:  # collected, raised once every handler heard
                        failures.append((handler, event, error))
        finally:
            self._dispatching = False
        return failures

    def _handlers_of(self, event_type: type[Event]) -> tuple[Callable[[Any], None], ...]:
        """The :meth:`on` handlers of ``event_type`` and of its base classes, most derived first."""
        found = self._heard.get(event_type)
        if found is None:
            found = self._heard[event_type] = tuple(
                handler for kind in event_type.__mro__ for handler in self._handlers.get(kind, ())
            )
        return found

    # -- internals ---------------------------------------------------------------------------

    def _holder(self, component: Any) -> int | None:
        """The entity of this world holding registered ``component`` (the very object), or None. The index of
        what was given is built from the whole world when first needed (and again after a restore); an entry
        whose component has since left its entity is dropped when met."""
        given = self._given
        if given is not None and id(component) not in given:  # most often a component just made: nobody's
            return None
        found, _ = self._known([component])
        return found[0][0] if found else None

    def _known(self, components: list[Any]) -> tuple[list[tuple[int, Any]], list[Any]]:
        """Those of registered ``components`` the index of what was given finds held by an entity of this world
        (the very object), with their entities, and the others, each in the order given. The index is built from
        the whole world when first needed (and again after a restore); an entry whose component has since left its
        entity is dropped when met. It goes through C-level maps: a game may have written thousands."""
        given = self._given
        if given is None:
            given = self._given = {
                id(held): entity
                for entity, table in self._entities.items()
                for held in table.values()
                if type(held) in watch.looked_after
            }
            self._given_built = len(given)
        ids = list(map(id, components))
        entities = list(map(given.get, ids))
        lookup: Callable[[int | None, dict[type[Any], Any]], dict[type[Any], Any]] = self._entities.get  # type: ignore[assignment]
        tables = map(lookup, entities, itertools.repeat(_NO_TABLE))
        holds = map(is_, map(dict.get, tables, map(type, components)), components)
        dead = self._dead
        found: list[tuple[int, Any]] = []
        unknown: list[Any] = []
        for entity, component, key, held in zip(entities, components, ids, holds, strict=True):
            if entity is None:
                unknown.append(component)
            elif held and not (dead and entity in dead):
                found.append((entity, component))
            else:
                del given[key]
                unknown.append(component)
        return found, unknown

    def _held(self, components: list[Any]) -> list[tuple[int, Any]]:
        """Which of ``components`` this world holds, with their entities, in the order given: each found through
        the index of what was given (:meth:`_known`), and those it does not know (given the esper way, or
        another world's) by a scan of their types (:func:`_held`). The active context is this world's."""
        found, unknown = self._known(components)
        return found + _held(unknown) if unknown else found

    def _delete(self, entity: int) -> tuple[type[Any], ...]:
        """Delete ``entity`` from the esper context, and its components from the index of what was given; the types
        of the components it held."""
        if not esper.entity_exists(entity):
            return ()
        kinds = tuple(self._entities.get(entity, ()))
        given = self._given
        if given is not None:
            for held in self._entities.get(entity, {}).values():
                if given.get(id(held)) == entity:
                    del given[id(held)]
        esper.delete_entity(entity, immediate=True)
        return kinds

    def _record_given(self, entity: int, components: tuple[Any, ...]) -> None:
        given = self._given
        if given is not None:
            for component in components:
                if type(component) in watch.looked_after:
                    given[id(component)] = entity
            if len(given) > 2 * self._given_built + 64:  # what went another way than despawn: build anew
                self._given = None

    def _refuse_mid_step(self, action: str, *, handlers: bool = False) -> None:
        """Refuse ``World.action`` while a step runs (and, ``handlers``, while its handlers hear its events: the
        step would play its other turns on what the action left)."""
        if self._stepping:
            raise WorldError(f"World.{action} cannot run during a step; call it between steps")
        if handlers and self._dispatching:
            raise WorldError(
                f"World.{action} cannot run from an event handler of this world, while its step hands out a turn's "
                "events (the step would play on): call it between steps"
            )

    def _require(self, entity: int) -> None:
        if not self.exists(entity):
            raise WorldError(f"entity {entity} does not exist in this world")

    def _run_or_queue(self, change: Callable[[], Iterable[type[Any]]]) -> None:
        """Make a change of structure now, or at the end of the turn during a step; ``change`` gives the component
        types it touched, so that esper's cached queries of the others are kept (:func:`_context.reshaping`)."""
        if self._stepping:
            self._queue.append(change)
            return
        with _context.active(self.context), _context.reshaping() as touched:
            touched.update(change())

    def _apply_queue(self) -> None:
        if not self._queue and not self._dead:
            return
        queue, self._queue = self._queue, []
        with _context.reshaping() as touched:
            for change in queue:
                touched.update(change())
            _context.clear_dead(touched)  # entities a system deleted the esper way, lazily: gone with the turn


class System:
    """Base class of every rule system, and of a game's own parts of the turn.

    A subclass sets the class attribute ``phase`` and implements :meth:`run`. ``World.add_system`` gives it
    its world; ``World.step`` runs it in its phase. It is not an esper processor: ``esper.process()`` never runs it.
    """

    phase: ClassVar[Phase]

    acts_on: ClassVar[tuple[type[Any], ...]] = ()
    """The component types whose holders this system acts on, if it acts on nothing else: when its turn comes and no
    entity holds a component of any of them, the step skips it (its queries would find nothing, and it would roll
    no die). Empty (the default): it always runs."""

    trusted: ClassVar[bool] = False
    """Whether this is one of the library's own systems, whose writes to components need no check. A game's own
    systems are not: what one writes is checked as soon as it has run, as what a game writes between steps is
    checked before the turn (a refusal undoes the turn)."""

    def __init_subclass__(cls) -> None:
        cls.trusted = cls.__module__.startswith("esper_motion.")

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

    def run(self) -> None:
        """This system's part of the turn. Subclasses implement it."""
        raise NotImplementedError(f"{type(self).__name__} must implement run()")


def _give(entity: int, component: Any) -> tuple[type[Any], ...]:
    """Give ``entity`` of the active context ``component`` if it still exists; the type touched."""
    if not esper.entity_exists(entity):
        return ()
    esper.add_component(entity, component)
    return (type(component),)


def _take_off(entity: int, component_type: type[Any]) -> tuple[type[Any], ...]:
    """Take ``entity``'s component of ``component_type`` off, if it has one; the type touched."""
    esper.try_remove_component(entity, component_type)
    return (component_type,)


def _refuse_shared(action: str, world: World, entity: int, components: tuple[Any, ...]) -> None:
    """Refuse to give ``entity`` of ``world`` a registered component object that is already another entity's, in
    this world or another: stepping one would change the other."""
    registered = [component for component in components if type(component) in watch.looked_after]
    worlds = list(_OPEN) if registered else []
    for component in registered:
        for other in worlds:
            holder = other._holder(component)
            if holder is None or (other is world and holder == entity):
                continue
            where = "" if other is world else f" of world {other.context!r}"
            kind = type(component).__name__
            raise WorldError(
                f"World.{action}: the {kind} given to entity {entity} is already the {kind} of entity {holder}{where}:"
                f" one object cannot be two entities' component (a change to one would change the other); give "
                f"entity {entity} a {kind} of its own"
            )


def _note_containers(components: tuple[Any, ...]) -> None:
    """Have the next step check those of ``components`` whose lists or dicts a game may change in place before the
    step (after it, :func:`esper_motion.ecs._context.contents` keeps what they hold)."""
    for component in components:
        if _context.holds_containers(type(component)):
            watch.note(component)


def _check_each(held: list[tuple[int, Any]]) -> None:
    """Run each component's own checks (:func:`esper_motion.ecs.validate.check_in_place`), naming its entity in
    the error of the first refused."""
    watch.pause(unhook=False)  # the checks' own writes are the library's (and few)
    try:
        for entity, component in held:
            try:
                check_in_place(component)
            except RuleValueError as error:
                raise RuleValueError(error.owner, error.field, error.value, error.allowed, entity=entity) from None
            except MotionError as error:
                raise WorldError(f"entity {entity}: {type(component).__name__}: {error}") from None
            except Exception as error:  # a game's own checks, or a value whose comparisons raise
                raise WorldError(f"entity {entity}: {_refusal(component, error)}") from error
    finally:
        watch.resume()


def _refusal(component: Any, error: Exception) -> str:
    """What an error other than the library's own, raised by checks run on ``component``, is told as."""
    return f"{type(component).__name__}: refused by its own checks: {type(error).__name__}: {error}"


def _check_instance(action: str, component: Any) -> None:
    """Refuse a class where a component belongs (``spawn(Position)`` for ``spawn(Position(0, 0))``)."""
    if isinstance(component, type):
        raise WorldError(f"{action} takes component instances: got the class {component.__name__}; build one first")


def _check_entity_and_type(action: str, entity: Any, component_type: Any) -> None:
    """Refuse arguments a lookup found nothing for because they are not an entity id and a class
    (``get(Position, entity)`` for ``get(entity, Position)``): called only once the lookup failed."""
    if not isinstance(entity, int) or not isinstance(component_type, type):
        raise TypeError(
            f"World.{action}(entity, component_type) takes an entity id and a component class: "
            f"got {shown(entity)} and {shown(component_type)}"
        )


def _lacking(kind: type[Any], present: Iterable[type[Any]]) -> str:
    """The name of a component class an entity lacks; its full import path where the entity holds another class
    of the same name (a game's own ``Position`` beside the rule set's)."""
    others = [other for other in present if other.__name__ == kind.__name__]
    if not others:
        return kind.__name__
    parts = kind.__module__.split(".")
    home = next(
        (
            path
            for path in (".".join(parts[:n]) for n in range(1, len(parts) + 1))
            if getattr(sys.modules.get(path), kind.__name__, None) is kind
        ),
        kind.__module__,
    )
    return f"{home}.{kind.__name__} (its {kind.__name__} is {others[0].__module__}.{others[0].__qualname__})"


def _held(components: list[Any]) -> list[tuple[int, Any]]:
    """Which of ``components`` the active esper context holds, with their entities (a scan of every component of
    their types)."""
    wanted = {id(component) for component in components}
    kinds = {type(component) for component in components}
    found = []
    for kind in kinds:
        for entity, component in esper.get_component(kind):
            if id(component) in wanted:
                found.append((entity, component))
    return found


def _context_deleted(ref: weakref.ref[World]) -> None:
    """The game deleted the esper context of the world ``ref`` refers to (if that world still exists)."""
    world = ref()
    if world is not None and world._gone is None:
        world._gone = f"the esper context {world.context!r} of this world was deleted (esper.delete_world)"
        watch.checked([component for table in world._entities.values() for component in table.values()])
        world._let_go()


def _free_context(context: str) -> None:
    """Delete esper context ``context`` (a world closed, or collected), and forget the writes recorded on its
    components: no step will check them."""
    written = watch.written()
    if written and context in esper.list_worlds():
        with _context.active(context):
            watch.checked([component for _, component in _held(written)])
    if esper.current_world == context:
        esper.switch_world("default")
    if context in esper.list_worlds():
        esper.delete_world(context)


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

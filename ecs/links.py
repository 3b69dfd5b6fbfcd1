"""Links between entities, checked for consistency: one function for the whole world, one for what a spawn or an
add brings.

A component that refers to other entities lists them in ``links()`` (:class:`esper_motion.ecs.Linked`); a
registered component class that must agree with the components it refers to also defines
``check_links(entity, view)`` (:class:`Consistent`), which raises :class:`LinkError` for a link that cannot stand:
a rider on an entity with no ``Mount``, two mounts claiming one rider, a riding chain that loops back, a
``Control.carried_by`` that disagrees with the rider's mount. ``view`` (:class:`LinkView`) answers what the check may
look at, and how strictly:

- :func:`check_links` looks at the whole world with ``both_ways`` set: each side of a link must name the other.
  A link to an entity that no longer exists, or that lost the component the link needs (a mount despawned or
  stripped of its ``Mount`` between steps), is left to the rules, which deal with it in the turn (the rider falls
  off); with ``strict`` set (a save being loaded) that is refused too, as nothing in a save can be gone.
- :func:`check_new` looks at the components a spawn or an add brings, one way only: what they claim of entities
  that exist must hold, but the other side of a new link may still be written afterwards (a game spawns the horse,
  then the rider, then seats it).

What each costs: :func:`check_links` visits only the components of registered classes that define ``check_links``
(through esper's cached lists), each in constant time but for a riding chain's length; :func:`check_new` only the
components given.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, runtime_checkable

import esper

from esper_motion.ecs import _context
from esper_motion.ecs.errors import WorldError, shown
from esper_motion.ecs.registry import registered_types

if TYPE_CHECKING:
    from esper_motion.ecs.world import World

C = TypeVar("C")


class LinkError(WorldError):
    """A link between entities that cannot stand, naming the entity, the component, the field and its value.

    >>> str(LinkError(3, "Rider", "mount", 5, "entity 5 has no Mount"))
    'entity 3: Rider.mount = 5: entity 5 has no Mount'
    """

    def __init__(self, entity: int, component: str, field: str, value: Any, problem: str) -> None:
        self.entity = entity
        self.component = component
        self.field = field
        self.value = value
        self.problem = problem
        super().__init__(f"entity {entity}: {component}.{field} = {shown(value)}: {problem}")


@dataclass(frozen=True, slots=True)
class LinkView:
    """What a component's ``check_links`` may look at: ``get(entity, kind)`` (the component, or None) and
    ``exists(entity)``; ``both_ways``: each side of a link must name the other; ``strict``: a link to an entity
    that is gone, or that lacks the component the link needs, is refused instead of left to the rules."""

    get_component: Callable[[int, type[Any]], Any]
    exists: Callable[[int], bool]
    both_ways: bool
    strict: bool

    def get(self, entity: int, kind: type[C]) -> C | None:
        """``entity``'s component of ``kind``, or None (also for an entity that does not exist)."""
        found: C | None = self.get_component(entity, kind)
        return found


@runtime_checkable
class Consistent(Protocol):
    """A component whose links must agree with the components they refer to."""

    def check_links(self, entity: int, view: LinkView) -> None:
        """Raise :class:`LinkError` for a link of this component (on ``entity``) that cannot stand."""
        ...


_HOOK: dict[type[Any], bool] = {}
"""Whether each class met so far defines ``check_links`` (classes do not change)."""

_HOOKED: list[type[Any]] = []
_SEEN = [0]  # how many registered classes _HOOKED was worked out from


def has_hook(kind: type[Any]) -> bool:
    """Whether components of ``kind`` check their links (define ``check_links``)."""
    found = _HOOK.get(kind)
    if found is None:
        found = _HOOK[kind] = callable(getattr(kind, "check_links", None))
    return found


def _hooked() -> list[type[Any]]:
    """The registered classes that define ``check_links``, worked out again only when more are registered."""
    kinds = registered_types()
    if len(kinds) != _SEEN[0]:
        _HOOKED[:] = [kind for kind in kinds if has_hook(kind)]
        _SEEN[0] = len(kinds)
    return _HOOKED


def structure() -> list[Any]:
    """A token of what :func:`check_links` reads in the active context: the same object until a component of a
    class that checks its links is added, removed or replaced, or an entity is made (a link may name an id before
    its entity exists); compare by identity. An entity deleted that holds none of those classes changes nothing it
    finds: a link to an entity gone is left to the rules."""
    return _context.structure(*_hooked(), _context.Created)


def check_links(world: World, *, strict: bool = False) -> None:
    """Check every link of ``world`` both ways (see the module docstring); raise :class:`LinkError` for the first
    that cannot stand, in the order of the component classes' registration and then of entity ids."""
    with _context.active(world.context):
        view = LinkView(_context.component, esper.entity_exists, both_ways=True, strict=strict)
        kinds = _hooked()
        try:
            for kind in kinds:
                for entity, component in esper.get_component(kind):
                    component.check_links(entity, view)
        except LinkError:  # name the first in a fixed order, whatever order esper's sets gave
            for kind in kinds:
                for entity, component in sorted(esper.get_component(kind), key=_first):
                    component.check_links(entity, view)
            raise


def check_table(table: Mapping[int, Mapping[type[Any], Any]], *, strict: bool = True) -> None:
    """:func:`check_links` over an entity table that is no world yet (id -> {type: component}): a save being read."""
    view = LinkView(
        lambda entity, kind: table.get(entity, {}).get(kind), table.__contains__, both_ways=True, strict=strict
    )
    for entity in sorted(table):
        for component in table[entity].values():
            if has_hook(type(component)):
                component.check_links(entity, view)


def check_new(world: World, entity: int, components: Iterable[Any], *, new: bool = False) -> None:
    """Check, one way, the links of ``components`` about to be given to ``entity`` (a spawn or an add), as if they
    were already there beside the entity's other components, whose own links are checked again beside them
    (``new``: the entity has none yet, a spawn)."""
    incoming = {type(component): component for component in components}
    if not new and world.exists(entity):
        incoming = {type(component): component for component in world.components(entity)} | incoming
    hooked = [component for kind, component in incoming.items() if has_hook(kind)]
    if not hooked:
        return

    def get(other: int, kind: type[Any]) -> Any:
        if other == entity and kind in incoming:
            return incoming[kind]
        return world.try_get(other, kind)

    view = LinkView(get, lambda other: other == entity or world.exists(other), both_ways=False, strict=False)
    for component in hooked:
        component.check_links(entity, view)


def _first(pair: tuple[int, Any]) -> int:
    return pair[0]

"""MkDocs hooks: the tables of the turn, the events and the members of each rule set are made from the code
when the site is built, so they cannot drift from it (tests/test_docs.py checks what they are made from).

A page asks for one with a marker on a line of its own: ``<!-- generated: turn gurps-basic -->`` (also
``gurps-house``, ``spelljammer``), ``<!-- generated: events gurps -->`` (also ``spelljammer``, ``ecs``) or
``<!-- generated: members gurps -->`` (also ``spelljammer``) or ``<!-- generated: functions gurps -->`` (also
``spelljammer``).
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import logging
import re
import typing
from pathlib import Path
from typing import Any

import esper_motion.components
from esper_motion.ecs import Event, System, World
from esper_motion.ecs.world import _MEMBERS
from esper_motion.systems import gurps, spelljammer

log = logging.getLogger("mkdocs.hooks.esper_motion")
MARKER = re.compile(r"^<!-- generated: (\w+) ([\w-]+) -->$", re.MULTILINE)
ROLE = re.compile(r":(?:py:)?(?:func|class|meth|attr|data|mod|exc|obj|const):`(~?)([^`]+)`")
PACKAGES = {"gurps": "esper_motion.systems.gurps", "spelljammer": "esper_motion.systems.spelljammer"}
PACKAGES["ecs"] = "esper_motion.ecs"


def _systems(rule_set: str) -> list[System]:
    world = World()
    try:
        if rule_set == "gurps-basic":
            gurps.install(world, gurps.Rules.basic())
        elif rule_set == "gurps-house":
            gurps.install(world, gurps.Rules.house())
        else:
            spelljammer.install(world)
        return list(world.systems)
    finally:
        world.close()


def _prose(text: str) -> str:
    """A docstring paragraph as one line of a table cell: reST roles as code spans, no pipes."""
    text = ROLE.sub(lambda m: f"``{m.group(2).rsplit('.', 1)[-1] if m.group(1) else m.group(2)}``", text)
    return " ".join(text.split()).replace("|", "\\|")


def paragraphs(owner: Any) -> list[str]:
    """The paragraphs of a class's or function's docstring."""
    return [part.strip() for part in re.split(r"\n\s*\n", inspect.cleandoc(owner.__doc__ or "")) if part.strip()]


def contract(cls: type) -> str:
    """What a system's docstring says it reads, writes and emits: its first paragraph from "Reads" up to the rule
    section it implements ("Implements ...")."""
    first = paragraphs(cls)[0] if paragraphs(cls) else ""
    said = re.search(r"(?:^|\s)(Reads\b.*?)(?:\s+Implements\b.*)?$", first, re.DOTALL)
    if said is None:
        raise ValueError(f"{cls.__name__}'s docstring says nothing starting with 'Reads' in its first paragraph")
    return said.group(1)


def _api(cls: type, package: str) -> str:
    return f"[`{cls.__name__}`][{package}.{cls.__name__}]"


def _system_api(cls: type, package: str) -> str:
    """A link to a system's reference: a GURPS system is documented where its section defines it."""
    return _api(cls, cls.__module__ if package == PACKAGES["gurps"] else package)


def turn_table(rule_set: str) -> str:
    """Every system a rule set installs, in the order a turn runs them, with what it reads, writes and emits."""
    package = PACKAGES["spelljammer" if rule_set == "spelljammer" else "gurps"]
    lines = ["| phase | system | when in the phase | reads, writes, emits |", "|---|---|---|---|"]
    for system in _systems(rule_set):
        cls = type(system)
        when = _prose(paragraphs(cls)[0].split(":", 1)[0].removeprefix(f"{system.phase.name} phase").lstrip(", "))
        lines.append(f"| `{system.phase.name}` | {_system_api(cls, package)} | {when} | {_prose(contract(cls))} |")
    return "\n".join(lines)


def events(package: str) -> list[type[Event]]:
    """The event classes a package root exports, in the order of its ``__all__``."""
    module = importlib.import_module(PACKAGES[package])
    found = [getattr(module, name) for name in module.__all__]
    return [cls for cls in found if isinstance(cls, type) and issubclass(cls, Event) and cls is not Event]


def _type_name(hint: Any) -> str:
    """A field's type as a reader writes it: ``Roll | SuccessRoll``, not the modules they come from."""
    if isinstance(hint, type):
        return hint.__name__
    return re.sub(r"\b(?:\w+\.)+(\w+)", r"\1", str(hint))


def fields(cls: type) -> list[tuple[str, str]]:
    """An event's fields with their types."""
    hints = typing.get_type_hints(cls)
    return [(field.name, _type_name(hints.get(field.name, field.type))) for field in dataclasses.fields(cls)]


def emitted_by(cls: type) -> list[str]:
    """The systems (of every rule set) whose docstring says they emit the event."""
    name = re.compile(rf"(?<![\w.])(?:[\w.~]*\.)?{cls.__name__}(?!\w)")
    found: dict[str, None] = {}
    for rule_set in ("gurps-basic", "gurps-house", "spelljammer"):
        for system in _systems(rule_set):
            text = " ".join(paragraphs(type(system)))
            emits = text.split("emits", 1)[1] if "emits" in text else ""
            if name.search(emits):
                found[type(system).__name__] = None
    return list(found)


def events_table(package: str) -> str:
    """Every event a package exports: its fields, the systems that say they emit it, and what it reports."""
    root = PACKAGES[package]
    lines = ["| event | fields | emitted by | what it reports |", "|---|---|---|---|"]
    for cls in events(package):
        # A pipe inside a code span does not split a cell (Python-Markdown's tables), and an escaped one would
        # show its backslash.
        names = ", ".join(f"`{field}: {kind}`" for field, kind in fields(cls))
        by = ", ".join(f"`{system}`" for system in emitted_by(cls)) or "—"
        summary = _prose(paragraphs(cls)[0]) if paragraphs(cls) else ""
        lines.append(f"| {_api(cls, root)} | {names} | {by} | {summary} |")
    return "\n".join(lines)


def members_table(rule_set: str) -> str:
    """The components that make an entity a member of a rule set, and those a member must then hold."""
    needs, marked_by = _MEMBERS[rule_set]
    marks = ", ".join(f"`{cls.__name__}`" for cls in marked_by)
    held = ", ".join(f"`{cls.__name__}`" for cls in needs)
    assert all(cls.__name__ in esper_motion.components.__all__ for cls in (*needs, *marked_by))
    return f"| an entity with | is a member of the rule set and must hold |\n|---|---|\n| {marks} | {held} |"


def functions_table(package: str) -> str:
    """Every function a package root exports (the questions a game asks between steps, and what it tells the
    rules), with the first sentence of its docstring."""
    root = PACKAGES[package]
    module = importlib.import_module(root)
    lines = ["| function | what it does |", "|---|---|"]
    for name in sorted(module.__all__):
        value = getattr(module, name)
        if inspect.isfunction(value):
            first = re.sub(r"\s*Readings? chosen:$", "", paragraphs(value)[0]) if paragraphs(value) else ""
            # A function named as the module it lives in (gurps.preview) is shown under the module's path.
            where = f"{root}.{name}.{name}" if value.__module__ == f"{root}.{name}" else f"{root}.{name}"
            lines.append(f"| [`{name}`][{where}] | {_prose(first)} |")
    return "\n".join(lines)


MAKERS = {"turn": turn_table, "events": events_table, "members": members_table, "functions": functions_table}


def render(markdown: str) -> str:
    """The page with each marker replaced by its table."""
    return MARKER.sub(lambda m: MAKERS[m.group(1)](m.group(2)), markdown)


def on_page_markdown(markdown: str, **kwargs: Any) -> str:
    return render(markdown)


API_ROOTS = (
    "esper_motion.ecs",
    "esper_motion.components",
    "esper_motion.systems.gurps",
    "esper_motion.systems.gurps.rules",
    "esper_motion.systems.spelljammer",
    "esper_motion.demos",
)
"""The package roots the API reference documents: every name of their ``__all__`` must be on its pages."""


def unrendered(html: str) -> list[str]:
    """The public names of the package roots that no API page shows (no heading with their path)."""
    anchors = set(re.findall(r'id="(esper_motion[\w.]*)"', html))
    missing = []
    for root in API_ROOTS:
        for name in importlib.import_module(root).__all__:
            if f"{root}.{name}" not in anchors and f"{root}.{name}.{name}" not in anchors:
                missing.append(f"{root}.{name}")
    return missing


def on_post_build(config: Any, **kwargs: Any) -> None:
    site = Path(config["site_dir"]) / "api"
    html = "".join(page.read_text(encoding="utf-8") for page in sorted(site.rglob("index.html")))
    for name in unrendered(html):
        log.warning("the API reference does not show %s", name)

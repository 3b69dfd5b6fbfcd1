"""The documentation site (mkdocs.yml, docs/) stays true to the code: the tables its build makes from the code
cover every system, event and member declaration; every code block on a page is code to paste, its output, or a
file of ``examples/``; every page is in the navigation; the scenes the rule-set pages show still play.

The pages' code blocks themselves run through Sybil (tests/support/markdown_examples.py, loaded by pyproject.toml);
``mkdocs build --strict`` (in ``.ci/run``) checks links, references and the API pages."""

from __future__ import annotations

import dataclasses
import importlib.util
import inspect
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

import esper_motion.components
from esper_motion.demos import load_scene
from esper_motion.ecs import Event, World
from esper_motion.systems import gurps, spelljammer

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
RULE_SETS = ("gurps-basic", "gurps-house", "spelljammer")


def _load(name: str) -> ModuleType:
    """A module of docs/_site/ (the build's hooks and griffe extension), imported by path."""
    spec = importlib.util.spec_from_file_location(f"docs_site_{name}", DOCS / "_site" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


hooks = _load("hooks")


def _installed(rule_set: str) -> list[type]:
    world = World()
    try:
        if rule_set == "spelljammer":
            spelljammer.install(world)
        else:
            gurps.install(world, gurps.Rules.house() if rule_set == "gurps-house" else gurps.Rules.basic())
        return [type(system) for system in world.systems]
    finally:
        world.close()


@pytest.mark.parametrize("rule_set", RULE_SETS)
def test_every_system_docstring_names_its_phase_and_what_it_reads_writes_and_emits(rule_set: str) -> None:
    for cls in _installed(rule_set):
        first = hooks.paragraphs(cls)[0]
        assert first.startswith(f"{cls.phase.name} phase"), f"{cls.__name__}: {first[:60]!r}"
        said = hooks.contract(cls)
        assert "writes" in said or "Writes" in said, f"{cls.__name__} does not say what it writes"


POINTER = re.compile(r"^Its (?:page: docs/([\w-]+\.md)|reading of the rules: docs/([\w-]+\.md) > (.+) > (\w+))\.$")


@pytest.mark.parametrize("rule_set", RULE_SETS)
def test_every_system_docstring_is_one_paragraph_and_a_pointer_to_its_page(rule_set: str) -> None:
    for cls in _installed(rule_set):
        parts = hooks.paragraphs(cls)
        assert len(parts) == 2, f"{cls.__name__}: {len(parts)} paragraphs"
        assert re.search(r"\sImplements\s", parts[0]), f"{cls.__name__} does not say which rule section it implements"
        pointer = POINTER.match(" ".join(parts[1].split()))
        assert pointer, f"{cls.__name__}: {parts[1]!r}"
        page, reading_page, heading, name = pointer.groups()
        text = (DOCS / (page or reading_page)).read_text(encoding="utf-8")
        if reading_page:
            assert name == cls.__name__ and f"\n## {heading}\n" in text, cls.__name__
            assert f"\n### {name}\n" in text.split(f"\n## {heading}\n", 1)[1], cls.__name__


@pytest.mark.parametrize("rule_set", RULE_SETS)
def test_the_turn_table_lists_every_system_in_the_order_a_turn_runs_them(rule_set: str) -> None:
    table = hooks.turn_table(rule_set)
    listed = re.findall(r"^\| `(\w+)` \| \[`(\w+)`\]", table, re.MULTILINE)
    assert listed == [(cls.phase.name, cls.__name__) for cls in _installed(rule_set)]


@pytest.mark.parametrize("package", ["ecs", "gurps", "spelljammer"])
def test_the_events_table_lists_every_event_with_every_field(package: str) -> None:
    table = hooks.events_table(package)
    for cls in hooks.events(package):
        row = next(line for line in table.splitlines() if line.startswith(f"| [`{cls.__name__}`]"))
        for field in dataclasses.fields(cls):
            assert f"`{field.name}: " in row, f"{cls.__name__}.{field.name} is not in its row"
    assert len(hooks.events("gurps")) > 50


def test_every_event_a_rule_set_exports_is_in_a_table() -> None:
    exported = {
        value
        for module in (gurps, spelljammer)
        for value in vars(module).values()
        if isinstance(value, type) and issubclass(value, Event) and value is not Event
    }
    listed = set(hooks.events("gurps")) | set(hooks.events("spelljammer")) | set(hooks.events("ecs"))
    assert exported <= listed


def test_the_members_tables_are_the_declarations() -> None:
    assert "| `Mover`, `Velocity` | `Position`, `Facing`, `Velocity`, `Mover`, `Control`, `Intent` |" in (
        hooks.members_table("gurps")
    )
    assert "`Mobility`, `RoundIntent`, `RoundState`, `Position`" in hooks.members_table("spelljammer")


@pytest.mark.parametrize("package", ["gurps", "spelljammer"])
def test_the_functions_table_lists_every_function_a_rule_set_exports(package: str) -> None:
    module = gurps if package == "gurps" else spelljammer
    table = hooks.functions_table(package)
    for name in module.__all__:
        if inspect.isfunction(getattr(module, name)):
            assert f"| [`{name}`]" in table, name


def test_the_build_names_every_public_name_the_api_pages_do_not_show() -> None:
    missing = hooks.unrendered('<h2 id="esper_motion.ecs.World">World</h2>')
    assert "esper_motion.ecs.World" not in missing
    assert {"esper_motion.ecs.Phase", "esper_motion.systems.gurps.preview", "esper_motion.demos.load_scene"} <= set(
        missing
    )
    assert "esper_motion.systems.gurps.preview" not in hooks.unrendered(
        'id="esper_motion.systems.gurps.preview.preview"'
    )


def test_every_marker_on_a_page_is_replaced() -> None:
    for page in DOCS.glob("*.md"):
        text = page.read_text(encoding="utf-8")
        assert "<!-- generated:" not in hooks.render(text), page.name


def test_the_api_pages_show_examples_as_code_blocks_and_roles_as_code() -> None:
    extension = _load("griffe_docstrings")
    text = "Adds.\n\n>>> 1 + 1\n2\n\nSee :func:`~esper_motion.ecs.dice.roll`."
    fenced = extension.fence_examples(extension.ROLE.sub(extension._role, text))
    assert fenced == "Adds.\n\n```pycon\n>>> 1 + 1\n2\n```\n\nSee `roll`."


def code_blocks(page: Path) -> list[tuple[str, str]]:
    """Each fenced block of a page: what follows its opening ``` (the language) and its text."""
    blocks: list[tuple[str, str]] = []
    opened: str | None = None
    lines: list[str] = []
    for line in page.read_text(encoding="utf-8").splitlines():
        if opened is None and line.startswith("```"):
            opened, lines = line[3:], []
        elif opened is not None and line == "```":
            blocks.append((opened, "\n".join(lines)))
            opened = None
        elif opened is not None:
            lines.append(line)
    assert opened is None, f"{page.name}: a code block is never closed"
    return blocks


INCLUDE = re.compile(r'^--8<-- "([^"]+)"$')


def test_every_code_block_is_code_to_paste_its_output_or_a_file_of_the_examples() -> None:
    """Code a reader pastes is a ```python block without prompts, what it prints the ```text block after it (both
    run and checked, tests/support/markdown_examples.py); an included file's block is written {.python ...},
    since ruff formats the Python of ```python blocks and would take the include line for code. Code lines fit
    the site's content column (docs/ruff.toml formats them to 88 characters)."""
    for page in DOCS.glob("*.md"):
        previous = ""
        for language, body in code_blocks(page):
            where = f"{page.name}: {body[:60]!r}"
            included = INCLUDE.match(body.strip())
            if included:
                path = included.group(1).split(":")[0]
                assert language.startswith("{.python"), where
                assert path.startswith("examples/") and (ROOT / path).is_file(), where
            elif language == "text":
                assert previous == "python", f"{where}: output that follows no code"
            else:
                assert language == "python" and ">>> " not in body, where
                code = [line for line in body.splitlines() if not line.lstrip().startswith("#")]
                assert all(len(line) <= 88 for line in code), where
            previous = language


def test_every_page_is_in_the_navigation() -> None:
    nav = set(re.findall(r":\s+([\w/-]+\.md)$", (ROOT / "mkdocs.yml").read_text(encoding="utf-8"), re.MULTILINE))
    pages = {str(page.relative_to(DOCS)) for page in DOCS.rglob("*.md")}
    assert pages == nav


def test_every_image_a_page_shows_exists() -> None:
    for page in DOCS.rglob("*.md"):
        for image in re.findall(r"!\[[^\]]*\]\(([^)]+)\)", page.read_text(encoding="utf-8")):
            assert (page.parent / image).is_file(), f"{page.name}: {image}"


@pytest.mark.parametrize("scene", sorted(path.name for path in (DOCS / "scenes").glob("*.toml")))
def test_the_scenes_of_the_house_rules_page_play_to_the_end(scene: str) -> None:
    world = load_scene(str(DOCS / "scenes" / scene))
    try:
        assert world.rules["gurps"] == gurps.Rules.house()
        for _ in range(5):
            world.step()
    finally:
        world.close()


def test_every_components_pointer_names_a_page_and_a_subsection_that_exist() -> None:
    pointer = re.compile(r"rule it reads: docs/([\w-]+\.md) > (.+) > (\w+)\.$")
    found = 0
    for name in esper_motion.components.__all__:
        cls = getattr(esper_motion.components, name)
        parts = hooks.paragraphs(cls) if inspect.isclass(cls) else []
        for match in filter(None, (pointer.search(" ".join(part.split())) for part in parts)):
            page, heading, subsection = match.groups()
            assert subsection == name, name
            text = (DOCS / page).read_text(encoding="utf-8")
            assert f"\n### {subsection}\n" in text.split(f"\n## {heading}\n", 1)[1], name
            found += 1
    assert found == 5


def test_the_api_pages_link_page_pointers_and_give_a_summary_its_whole_first_sentence() -> None:
    extension = _load("griffe_docstrings")
    text = "Kept in fields (docs/architecture.md >\n    Performance): the systems\nflip them. More."
    assert extension.link_pages(text).startswith(
        "Kept in fields ([architecture.md > Performance](../architecture.md#performance)): the systems"
    )
    assert extension.link_pages("See docs/gurps-basic.md > Components, field by field > Rider.") == (
        "See [gurps-basic.md > Components, field by field > Rider](../gurps-basic.md#rider)."
    )
    assert extension.first_sentence_first("One line,\ne.g. two lines. Then more\ntext.\n\nNext.") == (
        "One line, e.g. two lines.\nThen more text.\n\nNext."
    )

"""The rule coverage page (docs/coverage.md) stays true: every module and test it names exists, every rule has a
status, and the counts it gives are the counts of its rows."""

from __future__ import annotations

import ast
import re
from collections import Counter
from functools import cache
from pathlib import Path
from typing import NamedTuple

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "coverage.md"
STATUSES = ("in play", "query", "the game's")
SUMMARY = re.compile(r"^\*\*(\d+) rules: (\d+) in play, (\d+) queries, (\d+) the game's\.\*\*$", re.MULTILINE)


class Row(NamedTuple):
    """One rule of the page: its number, section, wording, modules, tests and status."""

    number: int
    section: str
    rule: str
    modules: tuple[str, ...]
    tests: tuple[str, ...]
    status: str


def _names(cell: str) -> tuple[str, ...]:
    """The backquoted names of a module or test cell; none for a dash."""
    cell = cell.strip()
    if cell == "—":
        return ()
    names = tuple(re.findall(r"`([^`]+)`", cell))
    assert names, f"a cell of names in backquotes, or a dash: {cell!r}"
    return names


def rows() -> list[Row]:
    """Every rule row of the page, in order."""
    found = []
    section = ""
    for line in PAGE.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            section = line[3:]
        match = re.match(r"^\| (\d+) \|(.*)\|$", line)
        if match is None:
            continue
        cells = match.group(2).split(" | ")
        assert len(cells) == 4, f"rule {match.group(1)}: a rule, modules, tests and status: {line!r}"
        rule, modules, tests, status = (cell.strip() for cell in cells)
        found.append(Row(int(match.group(1)), section, rule, _names(modules), _names(tests), status))
    return found


@cache
def _test_functions(path: Path) -> frozenset[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return frozenset(
        node.name for node in tree.body if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")
    )


def test_the_page_lists_rules_numbered_in_order_each_with_a_status() -> None:
    found = rows()
    assert len(found) > 150
    assert [row.number for row in found] == list(range(1, len(found) + 1))
    assert {row.status for row in found} <= set(STATUSES)
    for row in found:
        assert row.rule, f"rule {row.number} has no wording"
        if row.status == "the game's":
            assert not row.modules and not row.tests, f"rule {row.number} is the game's: no module, no test"
        else:
            assert row.modules and row.tests, f"rule {row.number} ({row.status}) names its modules and tests"


def test_the_counts_of_the_page_are_the_counts_of_its_rows() -> None:
    found = rows()
    summary = SUMMARY.search(PAGE.read_text(encoding="utf-8"))
    assert summary is not None, "the page gives its counts: **N rules: A in play, B queries, C the game's.**"
    counted = Counter(row.status for row in found)
    assert tuple(map(int, summary.groups())) == (len(found), *(counted[status] for status in STATUSES))


@pytest.mark.parametrize("row", rows(), ids=lambda row: f"rule {row.number}")
def test_every_module_and_test_the_page_names_exists(row: Row) -> None:
    for module in row.modules:
        assert module.endswith(".py") and (ROOT / module).is_file(), f"rule {row.number}: no module {module}"
    for test in row.tests:
        path, _, name = test.partition("::")
        file = ROOT / path
        assert path.startswith("tests/") and file.is_file(), f"rule {row.number}: no test file {path}"
        assert name in _test_functions(file), f"rule {row.number}: no test {name} in {path}"

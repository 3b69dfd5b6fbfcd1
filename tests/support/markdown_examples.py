"""The pages' examples (README.md, docs/*.md) run as tests, by Sybil: each ```python block runs, in order, in one
namespace per page; a ```text block right after it is what the block prints, checked exactly. A block that
prints with no ```text block after it fails, so nothing a page runs prints unseen.

Loaded with ``-p support.markdown_examples`` (pyproject.toml)."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

from sybil import Example, Sybil
from sybil.evaluators.python import PythonEvaluator
from sybil.parsers.markdown import CodeBlockParser

PRINTED = "_printed_by_the_last_block"
"""Where the namespace keeps what the last ```python block printed until a ```text block checks it."""

_run = PythonEvaluator()


def run(example: Example) -> str | None:
    """Run a ```python block, keeping what it prints; refuse to run past printed output no block showed."""
    unshown = example.namespace.pop(PRINTED, "")
    if unshown:
        return f"the block before line {example.line} printed, and no ```text block shows it:\n{unshown}"
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        failed = _run(example)
    example.namespace[PRINTED] = printed.getvalue()
    return failed


def check_output(example: Example) -> str | None:
    """Compare a ```text block with what the ```python block before it printed."""
    printed = example.namespace.pop(PRINTED, None)
    if printed is None:
        return None  # text that is no output of a block (a file, a listing)
    if printed != example.parsed:
        return f"the page shows:\n{example.parsed}\nthe block printed:\n{printed}"
    return None


pytest_collect_file = Sybil(
    parsers=[CodeBlockParser("python", run), CodeBlockParser("text", check_output)],
    path=str(Path(__file__).resolve().parents[2]),
    patterns=["README.md", "docs/*.md"],
).pytest()

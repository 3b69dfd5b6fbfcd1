"""A griffe extension for the API pages: the docstrings are written for ``help()`` and doctest (reST roles,
bare ``>>>`` examples); on the site the examples become code blocks and the roles code spans."""

from __future__ import annotations

import re
from typing import Any

import griffe

ROLE = re.compile(r":(?:py:)?(?:func|class|meth|attr|data|mod|exc|obj|const):`(~?)([^`]+)`")


def _role(match: re.Match[str]) -> str:
    name = match.group(2)
    return f"`{name.rsplit('.', 1)[-1] if match.group(1) else name}`"


def fence_examples(text: str) -> str:
    """Wrap each doctest example (a ``>>>`` line, its continuations and its output, up to a blank line) in a
    ``pycon`` code block (tests/test_docs.py checks it).
    """
    out: list[str] = []
    inside = ""
    for line in text.splitlines():
        if not inside and line.lstrip().startswith(">>>"):
            inside = line[: len(line) - len(line.lstrip())] or " "
            out.append(inside.rstrip(" ") + "```pycon")
        elif inside and not line.strip():
            out.append(inside.rstrip(" ") + "```")
            inside = ""
        out.append(line)
    if inside:
        out.append(inside.rstrip(" ") + "```")
    return "\n".join(out)


class ReadableDocstrings(griffe.Extension):
    """Rewrite each docstring as it is loaded."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = fence_examples(ROLE.sub(_role, obj.docstring.value))

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


PAGE_POINTER = re.compile(r"docs/([\w-]+)\.md((?:\s+>\s+[A-Z][\w'\s,-]*\w)*)(?=[).;:,]|$)")
"""A pointer to a page written as text in a docstring: ``docs/architecture.md > Performance``."""


def _slug(heading: str) -> str:
    """The anchor the site gives a heading (the toc extension's default)."""
    return re.sub(r"[-\s]+", "-", re.sub(r"[^\w\s-]", "", heading).strip().lower())


def link_pages(text: str) -> str:
    """Each page pointer as a link to the page and its last heading (the API pages are one folder down)."""

    def link(match: re.Match[str]) -> str:
        page, headings = match.group(1), " ".join(match.group(2).split())
        if not headings:
            return f"[{page}.md](../{page}.md)"
        return f"[{page}.md {headings}](../{page}.md#{_slug(headings.rsplit(' > ', 1)[-1])})"

    return PAGE_POINTER.sub(link, text)


SENTENCE_END = re.compile(r"(?<!\be\.g)(?<!\bi\.e)(?<!\bvs)(?<!\bcf)[.!?](?=\s|$)")
"""The end of a sentence: a full stop, question or exclamation mark before a space (not that of "e.g.")."""


def first_sentence_first(text: str) -> str:
    """The docstring with its first sentence alone on the first line, the rest of its paragraph after it: the
    API pages' summaries take a docstring's first line, which in source is cut at the line length."""
    paragraph, gap, rest = text.partition("\n\n")
    if any(line.lstrip().startswith((">>>", "- ", "* ", "|", "```")) for line in paragraph.splitlines()):
        return text
    flat = " ".join(paragraph.split())
    end = SENTENCE_END.search(flat)
    if end is None:
        return text
    head, tail = flat[: end.end()], flat[end.end() :].strip()
    return head + ("\n" + tail if tail else "") + gap + rest


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
            obj.docstring.value = first_sentence_first(fence_examples(link_pages(ROLE.sub(_role, obj.docstring.value))))

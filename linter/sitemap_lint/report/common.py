"""Helpers the machine-readable reporters share: paths as CI tools want them,
stable fingerprints, long JSON lists written in batches, and plain-text forms of the
rule documentation."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from itertools import islice

# Paths and fingerprints are the run's too (baselines): they live in ``fingerprints``.
from sitemap_lint.report.fingerprints import STDIN as STDIN
from sitemap_lint.report.fingerprints import ci_path as ci_path
from sitemap_lint.report.fingerprints import fingerprints as fingerprints
from sitemap_lint.report.fingerprints import is_fetched as is_fetched
from sitemap_lint.report.fingerprints import stable_message as stable_message

# -- JSON lists ------------------------------------------------------------------

BATCH = 512  # the items of a long list joined into one write


def write_items(items: Iterator[str], indent: str, out: Callable[[str], object]) -> None:
    """A JSON list at ``indent`` of ``items``, each already encoded at the indentation of
    a list item (``indent`` and two spaces), as ``report.json.write`` writes a list
    (``[]`` when empty): ``BATCH`` items a write, so only one batch of them is held."""
    batch = list(islice(items, BATCH))
    if not batch:
        out("[]")
        return
    separator = f",\n{indent}  "
    head = f"[\n{indent}  "
    while batch:
        batch[0] = head + batch[0]  # not the whole batch's text copied once more
        out(separator.join(batch))
        head = separator
        batch.clear()  # written: not held while the next batch is made
        batch.extend(islice(items, BATCH))
    out(f"\n{indent}]")


# -- rule documentation ---------------------------------------------------------


def doc_sections(doc: str) -> dict[str, str]:
    """A rule doc's ``## `` sections by title ("What it does", "Why is this bad?", ...)."""
    sections: dict[str, str] = {}
    title = ""
    lines: list[str] = []
    for line in doc.splitlines():
        if line.startswith("## "):
            if title or any(lines):
                sections[title] = "\n".join(lines).strip()
            title, lines = line[3:].strip(), []
        else:
            lines.append(line)
    if title or any(lines):
        sections[title] = "\n".join(lines).strip()
    return sections


def markdown_to_text(markdown: str) -> str:
    """Markdown as plain text: headings lose their ``#``, fenced code is indented."""
    out: list[str] = []
    in_code = False
    for line in markdown.splitlines():
        if line.lstrip().startswith("```"):
            in_code = not in_code
            continue
        if in_code:
            out.append(f"    {line}" if line else "")
        else:
            out.append(re.sub(r"^#{1,6}\s+", "", line))
    return "\n".join(out).strip() + "\n"


def one_paragraph(markdown: str) -> str:
    """Prose as one line of plain text (code fences dropped, whitespace collapsed)."""
    return " ".join(markdown_to_text(markdown).split())


def truncate(text: str, limit: int) -> str:
    """``text`` cut at a word boundary to at most ``limit`` characters, marked with "…"."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    space = cut.rfind(" ")
    if space > limit // 2:
        cut = cut[:space]
    return cut.rstrip() + "…"


def one_line(text: str) -> str:
    """``text`` with line breaks turned into spaces, for line-oriented formats."""
    return re.sub(r"[ \t]*(?:\r\n|\r|\n)[ \t]*", " ", text)

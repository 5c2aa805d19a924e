"""Helpers the machine-readable reporters share: paths as CI tools want them,
stable fingerprints, and plain-text forms of the rule documentation."""

from __future__ import annotations

import re

# Paths and fingerprints are the run's too (baselines): they live in ``fingerprints``.
from sitemap_lint.report.fingerprints import STDIN as STDIN
from sitemap_lint.report.fingerprints import ci_path as ci_path
from sitemap_lint.report.fingerprints import fingerprints as fingerprints
from sitemap_lint.report.fingerprints import is_fetched as is_fetched
from sitemap_lint.report.fingerprints import stable_message as stable_message

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

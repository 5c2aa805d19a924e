"""Helpers the machine-readable reporters share: paths as CI tools want them,
stable fingerprints, and plain-text forms of the rule documentation."""

from __future__ import annotations

import hashlib
import os
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path, PurePosixPath

from sitemap_lint.finding import Finding
from sitemap_lint.results import FileResult

STDIN = "-"


def ci_path(name: str) -> str:
    """The input's path as CI tools expect it: relative to the working directory,
    symlinks resolved, with forward slashes.

    A file outside the working directory keeps its absolute (resolved) path;
    standard input stays ``-``.
    """
    if name == STDIN:
        return name
    relative = _relative(name)
    if relative is not None:
        return relative
    return Path(os.path.realpath(name)).as_posix()


def _relative(name: str) -> str | None:
    """``name`` relative to the working directory, or None when it lies outside."""
    try:
        target = os.path.realpath(name)
        relative = os.path.relpath(target, os.path.realpath(os.getcwd()))
    except (OSError, ValueError):  # no working directory; another drive on Windows
        return None
    posix = PurePosixPath(Path(relative).as_posix())
    if posix.parts[:1] == ("..",) or posix.is_absolute():
        return None
    return str(posix)


def fingerprints(results: list[FileResult]) -> Iterator[tuple[FileResult, Finding, str]]:
    """Each finding with a fingerprint that is stable from run to run.

    The hash covers the path, the rule and the message, not the line, so a finding
    keeps its fingerprint when unrelated entries move it; repeats of the same
    (path, rule, message) are told apart by their order, as ``hash:1``, ``hash:2``
    (the scheme GitHub's own ``primaryLocationLineHash`` uses). Fingerprints are
    unique within one report.
    """
    seen: Counter[str] = Counter()
    for result in results:
        path = ci_path(result.name)
        for finding in result.findings:
            identity = "\0".join((path, finding.code, finding.message))
            digest = hashlib.sha256(identity.encode("utf-8", "surrogatepass")).hexdigest()[:32]
            seen[digest] += 1
            yield result, finding, f"{digest}:{seen[digest]}"


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

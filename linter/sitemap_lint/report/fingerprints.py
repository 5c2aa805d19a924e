"""Stable names for findings: paths as CI tools want them and fingerprints that survive
line moves and a change of "now". The CI reports (SARIF, GitLab) and baselines use them.

Light on purpose: the reporters import it, and a reporter must not load the checker.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path, PurePosixPath
from typing import Protocol, TypeVar

from sitemap_lint.finding import Finding
from sitemap_lint.support.locations import is_url


class Named(Protocol):
    """What a fingerprint reads of a checked file (``results.FileResult`` is one)."""

    @property
    def name(self) -> str: ...

    @property
    def findings(self) -> Sequence[Finding]: ...


_R = TypeVar("_R", bound=Named)

STDIN = "-"


def ci_path(name: str) -> str:
    """The input's path as CI tools expect it: relative to the working directory,
    symlinks resolved, with forward slashes.

    A file outside the working directory keeps its absolute (resolved) path;
    standard input stays ``-``, a sitemap fetched from a URL its URL.
    """
    if name == STDIN or is_fetched(name):
        return name
    relative = _relative(name)
    if relative is not None:
        return relative
    return Path(os.path.realpath(name)).as_posix()


# Whether the input a report names is a URL the run fetched (no file of the checkout).
is_fetched = is_url


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


# Parts of a message that change while the defect stays: the current time (DT005,
# NW006, FD*, VI expiry), an age measured from it, and where other things are (a line
# or column, or a range of lines: "lines 12-30 were skipped").
_NOW = re.compile(r"\(now is [^)]*\)")
# An age is written with thousands separators ("1,978 days old", NW006).
_AGE = re.compile(r"\b(?:more than )?\d+(?:,\d{3})* (?:hours|days) old\b")
_WHERE = re.compile(r"\b(line|column)s? \d+(?:-\d+)?")


def stable_message(message: str) -> str:
    """``message`` without the parts that change from run to run or when lines move:
    ``(now is <time>)``, ``N days old`` (``1,978 days old`` too), ``line N``, ``lines
    N-M``, ``column N``."""
    # A pattern is searched for only in a message holding a word it cannot match
    # without: most messages hold none, and ``in`` is some forty times faster.
    if "(now is " in message:
        message = _NOW.sub("(now)", message)
    if " old" in message:
        message = _AGE.sub("old", message)
    if "line" in message or "column" in message:
        message = _WHERE.sub(r"\1", message)
    return message


def fingerprints(results: Iterable[_R]) -> Iterator[tuple[_R, Finding, str]]:
    """Each finding with a fingerprint that is stable from run to run.

    The hash covers what identifies the defect: the path (relative to the working
    directory), the rule, and the finding's ``key`` when the rule set one, otherwise
    its message without the volatile parts (see ``stable_message``). The line is not
    part of it, so a finding keeps its fingerprint when unrelated entries move it, nor
    is the time a run takes as "now". Repeats of the same identity in one file are
    told apart by their order in the document, as ``hash:1``, ``hash:2`` (the scheme
    GitHub's own ``primaryLocationLineHash`` uses), so fingerprints are unique within
    one report.
    """
    seen: dict[str, int] = {}  # a Counter's missing key is a call of Python code
    for result in results:
        path = ci_path(result.name)
        for finding in result.findings:
            digest = identity(path, finding)
            repeat = seen[digest] = seen.get(digest, 0) + 1
            yield result, finding, f"{digest}:{repeat}"


def identity(path: str, finding: Finding) -> str:
    """The hash of what identifies ``finding``'s defect in the file at ``path`` (as
    ``ci_path`` gives it): its rule and ``key``, or its message without the volatile
    parts; never its line."""
    if finding.key is not None:
        text = "\0".join((path, finding.code, "\1key", finding.key))
    else:
        text = "\0".join((path, finding.code, stable_message(finding.message)))
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:32]

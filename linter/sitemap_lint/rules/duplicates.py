"""Duplicate rules: each URL once per file."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sitemap_lint.domain.identity import normal_url
from sitemap_lint.fix.model import remove_element
from sitemap_lint.model import Node
from sitemap_lint.rules.base import WARNING, check, rule
from sitemap_lint.rules.registry import stateful
from sitemap_lint.rules.structure import Reporter
from sitemap_lint.support.words import elided

DUPLICATE_LOC = rule(
    "DU001",
    "duplicate-loc",
    WARNING,
    fix="unsafe",
    summary="The same URL is listed twice in one file",
    what="""
        Detects a `loc` equal to an earlier one in the same file (after removing
        surrounding whitespace) and points to the first occurrence. URLs are
        compared in their normal form: the host's case, a default port (`:443`
        on https, `:80` on http), an empty path (`/`), the case of a
        percent-escape (`%c3%a9` is `%C3%A9`) and an escape of a letter, digit,
        `-`, `.`, `_` or `~` (`%7E` is `~`) and `.` or `..` segments of the
        path (`/a/./b/../c` is `/a/c`) do not make another page, and an IRI is
        the URI it maps to (`café` is `caf%C3%A9`, `bücher.example` is
        `xn--bcher-kva.example`); when the two are written differently, the
        message names the normal form they share.
    """,
    why="""
        Duplicates waste the file's 50,000-URL budget and, when their other
        fields differ, send conflicting signals; generators that list a page
        twice often have a bug in pagination or category listing.
    """,
    bad="""
        <url><loc>https://example.com/a</loc></url>
        <url><loc>https://example.com/a</loc></url>
    """,
    good="""
        <url><loc>https://example.com/a</loc></url>
    """,
)

# The family: its title in the rule lists, and its place among the families.
FAMILY = "Duplicates"
ORDER = 110

RULES = (DUPLICATE_LOC,)

if TYPE_CHECKING:
    from sitemap_lint.rules.entry import EntryContext, FileContext


class DuplicateTracker:
    """Remembers each URL by the hash of its normal form and its first position only (one
    int each), so memory stays small even for 50,000 URLs; for a first URL not written in
    normal form, also the hash of how it was written."""

    def __init__(self) -> None:
        self._first: dict[int, int] = {}
        self._written: dict[int, int] = {}  # normal form's hash -> first spelling's hash

    def check(
        self,
        url: str,
        node: Node,
        report: Reporter,
        what: str = "URL",
        entry: Node | None = None,
        remove: str = "remove this entry (or merge it into the first one)",
    ) -> None:
        """DU001 for ``url`` when the file listed it before; ``remove`` says what to do
        (a text sitemap's line has nothing to merge)."""
        here = node.line << 32 | node.column
        normal = normal_url(url)
        key = hash(normal)
        first = self._first.setdefault(key, here)
        if first == here:
            if normal != url:
                self._written[key] = hash(url)
            return
        first_line, first_column = first >> 32, first & 0xFFFFFFFF
        where = f"line {first_line}"
        if first_line == node.line:
            where += f", column {first_column}"
        shown = _shown(url)
        written = self._written.get(key)
        same = hash(url) == written if written is not None else url == normal
        if same:
            message = f"{what} {shown!r} is already listed at {where}"
        else:
            message = (
                f"{what} {shown!r} is the same as the one at {where}: both are "
                f"{_shown(normal)!r} once normalised (the host's case, a default port, an "
                "empty path, how a character is percent-encoded and '.' or '..' segments make "
                "no other URL)"
            )
        report.add(
            DUPLICATE_LOC.at(
                node.line,
                node.column,
                f"{message}; {remove}",
                fix=None
                if entry is None
                else remove_element(
                    entry,
                    "Remove this entry (the first one stays)",
                    kept=(first_line, first_column),
                ),
            )
        )


def _shown(url: str) -> str:
    return elided(url, 100)


@check("loc", emits=RULES, proof=stateful("duplicates"))
class DuplicateCheck:
    """Each entry's URL against the ones listed before it in the file."""

    def __init__(self, file: FileContext) -> None:
        self.tracker = DuplicateTracker()
        self.what = "sitemap" if file.entry_name == "sitemap" else "URL"

    def check(self, node: Node, entry: EntryContext, report: Reporter) -> None:
        self.tracker.check(node.text.strip(), node, report, self.what, entry.entry)

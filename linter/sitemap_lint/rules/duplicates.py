"""Duplicate rules: each URL once per file."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sitemap_lint.fix.model import remove_element
from sitemap_lint.model import Node
from sitemap_lint.rules.base import WARNING, check, rule
from sitemap_lint.rules.structure import Reporter

DUPLICATE_LOC = rule(
    "DU001",
    "duplicate-loc",
    WARNING,
    fix="unsafe",
    summary="The same URL is listed twice in one file",
    what="""
        Detects a `loc` equal to an earlier one in the same file (after removing
        surrounding whitespace) and points to the first occurrence.
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
    """Remembers each URL by its hash and first position only (one int each), so
    memory stays small even for 50,000 URLs."""

    def __init__(self) -> None:
        self._first: dict[int, int] = {}

    def check(
        self, url: str, node: Node, report: Reporter, what: str = "URL", entry: Node | None = None
    ) -> None:
        here = node.line << 32 | node.column
        first = self._first.setdefault(hash(url), here)
        if first != here:
            first_line, first_column = first >> 32, first & 0xFFFFFFFF
            where = f"line {first_line}"
            if first_line == node.line:
                where += f", column {first_column}"
            shown = url if len(url) <= 100 else url[:97] + "..."
            report.add(
                DUPLICATE_LOC.at(
                    node.line,
                    node.column,
                    f"{what} {shown!r} is already listed at {where}; remove this entry "
                    "(or merge it into the first one)",
                    fix=None
                    if entry is None
                    else remove_element(entry, "Remove this entry (the first one stays)"),
                )
            )


@check("loc", emits=RULES)
class DuplicateCheck:
    """Each entry's URL against the ones listed before it in the file."""

    def __init__(self, file: FileContext) -> None:
        self.tracker = DuplicateTracker()
        self.what = "sitemap" if file.entry_name == "sitemap" else "URL"

    def check(self, node: Node, entry: EntryContext, report: Reporter) -> None:
        self.tracker.check(node.text.strip(), node, report, self.what, entry.entry)

"""The contract between the checker and the extension families (image, video, news, hreflang).

For each file the checker makes one ``ExtensionChecker`` per extension
namespace that occurs in it. Each extension element standing directly in a
``url`` goes to ``check`` with the entry's context; ``end_entry`` follows once
per entry that had such elements, and ``finish`` once at the end of the file,
for rules that count or compare across entries.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from sitemap_lint.model import Node
from sitemap_lint.rules.structure import Reporter
from sitemap_lint.rules.urls import ParsedURL


@dataclass(frozen=True, slots=True)
class EntryContext:
    """What extension rules may need to know about the ``url`` they stand in."""

    entry: Node
    loc: str | None  # the page URL, stripped, when the entry has one
    url: ParsedURL | None  # its parts, when it is a usable absolute URL
    now: datetime


class ExtensionChecker(Protocol):
    def check(self, element: Node, context: EntryContext, report: Reporter) -> None: ...

    def end_entry(self, context: EntryContext, report: Reporter) -> None: ...

    def finish(self, report: Reporter) -> None: ...

"""The contract between the checker and the extension families (image, video, news, hreflang).

An extension family registers its checker class for its namespace with
``rules.base.check("extension", namespace=..., emits=...)``. For each file the
checker makes one instance per extension namespace that occurs in it (and whose
rules are enabled). Each extension element standing directly in a ``url`` goes
to ``check`` with the entry's context; ``end_entry`` follows once per entry
that had such elements, and ``finish`` once at the end of the file, for rules
that count or compare across entries.
"""

from __future__ import annotations

from typing import Protocol

from sitemap_lint.model import Node
from sitemap_lint.rules.entry import EntryContext
from sitemap_lint.rules.structure import Reporter

__all__ = ["EntryContext", "ExtensionChecker"]


class ExtensionChecker(Protocol):
    def check(self, element: Node, context: EntryContext, report: Reporter) -> None: ...

    def end_entry(self, context: EntryContext, report: Reporter) -> None: ...

    def finish(self, report: Reporter) -> None: ...

"""News extension rules: news:news inside url."""

from __future__ import annotations

from sitemap_lint.model import Node
from sitemap_lint.rules.extension import EntryContext
from sitemap_lint.rules.structure import Reporter

NAMESPACE = "http://www.google.com/schemas/sitemap-news/0.9"

RULES = ()


class Checker:
    """Checks the //www.google.com/schemas/sitemap-news/0.9:News extension elements of one file."""

    def check(self, element: Node, context: EntryContext, report: Reporter) -> None:
        return None

    def end_entry(self, context: EntryContext, report: Reporter) -> None:
        return None

    def finish(self, report: Reporter) -> None:
        return None

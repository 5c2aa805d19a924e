"""RSS 2.0 and Atom feeds used as sitemaps (being written)."""

from __future__ import annotations

from sitemap_lint.model import Node


def is_feed(root: Node) -> bool:
    return False


class FeedChecker:
    def __init__(self, root, options, report, facts) -> None:
        raise NotImplementedError

    def on_entry(self, entry: Node) -> None: ...

    def finish(self) -> None: ...

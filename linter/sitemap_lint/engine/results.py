"""What the check of one input yields, as the reporters see it.

This module is light on purpose (no parser, no rules, no XSD engine): the
reporters import it, and loading a reporter must not load lxml.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from sitemap_lint.finding import Finding
from sitemap_lint.sets.facts import FileFacts, FileStats
from sitemap_lint.support.records import Mutable

if TYPE_CHECKING:
    from sitemap_lint.engine.sink import FindingSink
    from sitemap_lint.live.model import Target, TargetPointer


@dataclass(init=False, repr=False, eq=False)
class FileResult(Mutable):
    """The findings for one input, sorted by position; ``facts`` feed the checks
    across a set (None unless ``Options.collect``); ``stats`` feed the HTML report's
    charts (None unless ``Options.stats``)."""

    name: str
    findings: list[Finding] = field(default_factory=list)
    facts: FileFacts | None = field(default=None, repr=False, compare=False)
    # What the file is (urlset, sitemapindex, text, rss, atom, robots; None when it is
    # none of them) and the URLs it lists (None for a file that lists no pages: an index,
    # a robots.txt). Every run counts them.
    kind: str | None = None
    urls: int | None = None
    # A sitemap index's entries (its <sitemap> elements, as ST008 counts them; None for
    # any other file): whether its fixes would remove every one (``fix.runner``).
    sitemaps: int | None = None
    # In a set: the index (in the run's results) of the file that listed this one;
    # None for an input.
    parent: int | None = None
    stats: FileStats | None = field(default=None, repr=False, compare=False)
    # In a set (or before a live audit), until it is done: the file's sink, settled and
    # still open for the findings across files (``findings`` is its list).
    sink: FindingSink | None = field(default=None, repr=False, compare=False)
    # A file of a site (fetched, followed, or with robots.txt): the text report gives
    # every file a section, clean or not, with its kind and URLs.
    site: bool = False
    # With --live, until the audit is done: the URLs the file lists, where they stand.
    targets: list[Target] | None = field(default=None, repr=False, compare=False)
    # With --live: what names the targets' elements in the findings (their xpath).
    target_pointer: TargetPointer | None = field(default=None, repr=False, compare=False)

    def __init__(
        self,
        name: str,
        findings: list[Finding] | None = None,
        facts: FileFacts | None = None,
        kind: str | None = None,
        urls: int | None = None,
        sitemaps: int | None = None,
        parent: int | None = None,
        stats: FileStats | None = None,
        sink: FindingSink | None = None,
        site: bool = False,
        targets: list[Target] | None = None,
        target_pointer: TargetPointer | None = None,
    ) -> None:
        self.name = name
        self.findings = [] if findings is None else findings
        self.facts = facts
        self.kind = kind
        self.urls = urls
        self.sitemaps = sitemaps
        self.parent = parent
        self.stats = stats
        self.sink = sink
        self.site = site
        self.targets = targets
        self.target_pointer = target_pointer

    def open_sink(self) -> FindingSink:
        """The file's open sink, where findings across files (and a live audit's) go;
        made, holding the file's findings (none passed yet), when the result has none (a
        fetch that failed, a file that cannot be read, a listing)."""
        if self.sink is None:
            from sitemap_lint.engine.sink import FindingSink

            self.sink = FindingSink.of(self.findings)
            self.findings = self.sink.findings
        return self.sink

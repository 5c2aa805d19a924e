"""What one check of a file is told: the moment, the sitemap's own URL, the robots.txt
files known to the run and the crawler whose rules apply.

A light module: the checker and every format module take ``Options`` from here, so none
of them needs to import another to name it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING

from sitemap_lint.support.records import Frozen

if TYPE_CHECKING:
    from sitemap_lint.domain.urls import ParsedURL
    from sitemap_lint.settings.selection import Selection


# A frozen dataclass whose methods are written out (records.py): declared at start-up.
@dataclass(init=False, repr=False, eq=False)
class Options(Frozen):
    now: datetime
    sitemap_url: ParsedURL | None = None
    # Fill FileResult.facts for the checks across a set of files.
    collect: bool = False
    # Fill FileResult.stats, the counts the HTML report draws (--format html only).
    stats: bool = False
    # robots.txt files known to the run: (the URL it is served at, its text).
    robots: tuple[tuple[str, str], ...] = ()
    # The crawler whose robots.txt group applies.
    agent: str = "Googlebot"
    # The rule codes the run reports (None: all): only the checks of those rules run.
    enabled: frozenset[str] | None = None
    # What the run reports, and at which severity; None reports every finding as it is.
    selection: Selection | None = field(default=None, compare=False)
    # Messages may quote the file's text; False for a body fetched from a URL the user
    # did not give (what it is and its size are named instead).
    quote: bool = True
    # --live: read the URLs the file lists with their positions (FileResult.targets),
    # and keep its suppression directives open for the live audit's findings.
    live: bool = False

    def __init__(
        self,
        now: datetime,
        sitemap_url: ParsedURL | None = None,
        collect: bool = False,
        stats: bool = False,
        robots: tuple[tuple[str, str], ...] = (),
        agent: str = "Googlebot",
        enabled: frozenset[str] | None = None,
        selection: Selection | None = None,
        quote: bool = True,
        live: bool = False,
    ) -> None:
        setattr_ = object.__setattr__
        setattr_(self, "now", now)
        setattr_(self, "sitemap_url", sitemap_url)
        setattr_(self, "collect", collect)
        setattr_(self, "stats", stats)
        setattr_(self, "robots", robots)
        setattr_(self, "agent", agent)
        setattr_(self, "enabled", enabled)
        setattr_(self, "selection", selection)
        setattr_(self, "quote", quote)
        setattr_(self, "live", live)

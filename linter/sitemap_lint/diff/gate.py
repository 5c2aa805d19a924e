"""The thresholds of a diff: what fails the gate (exit 1).

A limit is a count (``500``) or a share (``5%``) of what it is measured against: the
old side's URLs for added, removed and rewritten URLs, the URLs on both sides for the changes of
those URLs, the new side's entries with a lastmod for the lastmod patterns, the
sitemaps the old side's indexes list for those no longer listed, the new side's
hreflang alternates for those naming a removed URL.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal

from sitemap_lint.diff.compare import Changes
from sitemap_lint.errors import UsageError


@dataclass(frozen=True)
class Limit:
    """``--max-removed 5%``: a count, or a share when ``percent``."""

    flag: str
    value: float
    percent: bool
    # A share's digits as given (``33.3333``), which its float may not repeat.
    digits: str = field(default="", compare=False)

    def __str__(self) -> str:
        """``--max-removed 5%``, ``--max-removed 12500000``: the value in plain digits as
        written (no exponent, no leading or trailing zeros)."""
        if not self.percent:
            return f"{self.flag} {int(self.value)}"
        return f"{self.flag} {_plain(self.digits or repr(self.value))}%"


def _plain(number: str) -> str:
    """A decimal number's digits without an exponent, leading or trailing zeros."""
    digits = format(Decimal(number), "f")
    return digits.rstrip("0").rstrip(".") if "." in digits else digits


# A count: ASCII digits; a share: digits, maybe a decimal point and more, then "%"
# (no sign, exponent, "_" or other script's digits, which Python's numbers would take).
_COUNT = re.compile(r"[0-9]+", re.ASCII)
_SHARE = re.compile(r"([0-9]+(?:\.[0-9]*)?|\.[0-9]+)\s*%", re.ASCII)


def parse_limit(flag: str, text: str) -> Limit:
    """``N`` (a whole number) or ``P%`` (a share from 0 to 100)."""
    raw = text.strip()
    share = _SHARE.fullmatch(raw)
    if share is not None and float(share.group(1)) <= 100:
        return Limit(flag, float(share.group(1)), True, share.group(1))
    if _COUNT.fullmatch(raw):
        return Limit(flag, int(raw), False)
    raise UsageError(
        f"{flag} {text!r}: give a count (e.g. 500) or a share from 0% to 100% (e.g. 5%)"
    )


# Each threshold: its flag, what it counts, and what a share is of.
Measure = Callable[[Changes], tuple[int, int]]
MEASURES: dict[str, tuple[str, Measure]] = {
    "--max-removed": ("URLs removed", lambda c: (c.removed, c.old_distinct)),
    "--max-added": ("URLs added", lambda c: (c.added, c.old_distinct)),
    "--max-moved": ("URLs moved to another file", lambda c: (c.moved, c.common)),
    "--max-origin-changes": (
        "URLs moved to another host or scheme",
        lambda c: (sum(n for _a, _b, n in c.origins), c.old_distinct),
    ),
    "--max-rewritten": (
        "URLs removed and listed again written otherwise",
        lambda c: (sum(r.count for r in c.rewrites), c.old_distinct),
    ),
    "--max-lastmod-churn": ("URLs whose lastmod changed", lambda c: (c.lastmod_changed, c.common)),
    "--max-lastmod-earlier": (
        "URLs whose lastmod moved back",
        lambda c: (c.lastmod_earlier, c.common),
    ),
    "--max-same-lastmod": (
        "entries sharing one lastmod",
        lambda c: (_sharing_one_lastmod(c), c.with_lastmod),
    ),
    "--max-recent-lastmod": (
        "entries with a lastmod in the hour before the run or later",
        lambda c: (c.recent, c.with_lastmod),
    ),
    "--max-priority-changes": (
        "URLs whose priority changed",
        lambda c: (c.priority_changed, c.common),
    ),
    "--max-changefreq-changes": (
        "URLs whose changefreq changed",
        lambda c: (c.changefreq_changed, c.common),
    ),
    "--max-children-removed": (
        "sitemaps no longer listed",
        lambda c: (len(c.children_removed), c.old_children),
    ),
    "--max-hreflang-broken": (
        "alternates naming a removed URL",
        lambda c: (c.hreflang_broken, c.alternates),
    ),
}


def _sharing_one_lastmod(changes: Changes) -> int:
    """The new entries carrying the most common lastmod (none when no two share one)."""
    return 0 if changes.same_moment is None else changes.same_moment[1]


# The first word of what a threshold counts, said of a single one.
_SINGULAR = {"URLs": "URL", "entries": "entry", "sitemaps": "sitemap", "alternates": "alternate"}


@dataclass(frozen=True)
class Passed:
    """A threshold the diff passed: what it counts, the count and its share (None when
    it is a share of nothing: URLs added to an empty old side)."""

    limit: Limit
    what: str
    count: int
    share: float | None  # percent of what the limit's share is of

    def counted(self) -> str:
        """``3 URLs removed``, ``1 URL removed``."""
        what = self.what
        if self.count == 1:
            first, _, rest = what.partition(" ")
            what = f"{_SINGULAR.get(first, first)} {rest}"
        return f"{self.count:,} {what}"

    def share_text(self) -> str:
        """``6.0%``; with more decimals when one would round a share past a percentage
        limit down to it (``5.04%`` past ``5%``, not ``5.0%``)."""
        if self.share is None:
            return "of 0, past any share"
        return f"{self.share:.{self.decimals(1)}f}%"

    def decimals(self, least: int) -> int:
        """The decimals to show the share with: ``least``, or more (up to 6) while it
        would show a share past a percentage limit rounded down to the limit."""
        decimals = least
        while self.limit.percent and self.share is not None and decimals < 6:
            if float(f"{self.share:.{decimals}f}") > self.limit.value:
                break
            decimals += 1
        return decimals


def passed(changes: Changes, limits: list[Limit]) -> list[Passed]:
    """The limits ``changes`` goes past, in the order given. A share of nothing passes
    every percentage limit once it counts anything (URLs added to an empty old side)."""
    found = []
    for limit in limits:
        what, measure = MEASURES[limit.flag]
        count, whole = measure(changes)
        share = 100.0 * count / whole if whole else None
        if limit.percent:
            over = count > 0 if share is None else share > limit.value
        else:
            over = count > limit.value
        if over:
            found.append(Passed(limit, what, count, share))
    return found

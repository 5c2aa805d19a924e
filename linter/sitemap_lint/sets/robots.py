"""What robots.txt files let a crawler fetch, for the URLs of a sitemap.

Each robots.txt is parsed once with protego, which matches rules as Google
does (most specific user-agent group, longest rule, Allow on a tie, ``*`` and
``$``). A robots.txt served at a URL applies to the URLs of its origin; one
whose address is unknown (a local file) applies to every URL.

protego spends about 10 µs on a URL, mostly normalising its percent-encoding.
Most sitemap URLs have plain paths, which that normalisation leaves as they
are; for those one regular expression made of the group's Disallow patterns
tells whether any of them can match at all, and protego decides only when
one can.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING

from sitemap_lint.domain.robotstxt import parse_robots
from sitemap_lint.domain.urls import ParsedURL
from sitemap_lint.model import Node
from sitemap_lint.rules.robots import URL_DISALLOWED
from sitemap_lint.rules.structure import Reporter
from sitemap_lint.rules.urls import parse_url
from sitemap_lint.support.words import elided

if TYPE_CHECKING:
    from protego import Protego

# Google reads the first 500 KiB of a robots.txt and ignores the rest.
GOOGLE_LIMIT = 500 * 1024
# Above these, the Disallow rules are not worth one regular expression.
MAX_FILTER_RULES = 5_000
MAX_FILTER_SOURCE = 1 << 20

# A path that protego's normalisation leaves as it is (nothing to decode or encode).
_PLAIN_PATH = re.compile(r"/(?!/)[A-Za-z0-9_.~/=-]*")
_PLAIN_PATTERN = re.compile(r"[A-Za-z0-9_.~/=*-]*\$?")
_NEVER = re.compile(r"(?!)")


class RobotsPolicy:
    """The robots.txt files of a run, asked about each URL of a sitemap."""

    def __init__(self, sources: tuple[tuple[str, str], ...], agent: str):
        self.agent = agent
        self._by_origin: dict[str, list[_Robots]] = {}
        self._everywhere: list[_Robots] = []
        self._applicable: dict[str, tuple[_Robots, ...]] = {}
        for where, text in sources:
            robots = _Robots(where, text, agent)
            if not where:
                self._everywhere.append(robots)
            elif robots.origin is not None:
                self._by_origin.setdefault(robots.origin, []).append(robots)

    def check(self, url: str, parsed: ParsedURL, node: Node, report: Reporter) -> None:
        """Report ``url`` (a page listed at ``node``) when its robots.txt disallows it."""
        origin = parsed.origin
        applicable = self._applicable.get(origin)
        if applicable is None:
            applicable = (*self._by_origin.get(origin, ()), *self._everywhere)
            self._applicable[origin] = applicable
        for robots in applicable:
            if not robots.allows(url, parsed.path):
                report.add(URL_DISALLOWED.at(node.line, node.column, self._message(url, robots)))
                return

    def cross_origins(self, sitemap_url: ParsedURL) -> frozenset[str]:
        """Origins whose robots.txt lists ``sitemap_url`` in a Sitemap line: that sitemap
        may list their URLs (cross-submission). The query is not compared: a
        ``ParsedURL`` has none."""
        wanted = (sitemap_url.origin, sitemap_url.path)
        return frozenset(
            origin
            for origin, sources in self._by_origin.items()
            if any(wanted in robots.sitemaps() for robots in sources)
        )

    def _message(self, url: str, robots: _Robots) -> str:
        shown = elided(url, 100)
        return (
            f"{self.agent} may not fetch {shown!r}: {robots.name} disallows it; "
            "remove the URL from the sitemap, or allow it in robots.txt"
        )


@lru_cache(maxsize=4)
def robots_policy(sources: tuple[tuple[str, str], ...], agent: str) -> RobotsPolicy:
    """The policy of the run's robots.txt files, built once for all the files it checks:
    a robots.txt that lists thousands of sitemaps is not parsed again for each of them."""
    return RobotsPolicy(sources, agent)


class _Robots:
    """One robots.txt: its parse, the origin it governs and the quick Disallow test."""

    def __init__(self, where: str, text: str, agent: str):
        self.name = where or "the given robots.txt"
        location = parse_url(where)
        self.origin = location.origin if location is not None else None
        self.agent = agent
        self.parser = parse_robots(google_part(text))
        self._may_disallow = _disallow_filter(self.parser, agent)
        self._sitemaps: set[tuple[str, str]] | None = None

    def allows(self, url: str, path: str) -> bool:
        parser = self.parser
        if parser is None:
            return True
        quick = self._may_disallow
        if (
            quick is not None
            and _PLAIN_PATH.fullmatch(path)
            and url.isascii()
            and "?" not in url
            and "#" not in url
            and quick.match(path) is None
        ):
            return True  # no Disallow rule of the group can match this path
        try:
            return parser.can_fetch(url, self.agent)
        except ValueError:  # a URL protego cannot split; check_url has reported it
            return True

    def sitemaps(self) -> set[tuple[str, str]]:
        """The (origin, path) of each usable Sitemap URL, computed on first use."""
        if self._sitemaps is None:
            found: set[tuple[str, str]] = set()
            if self.parser is not None:
                for value in self.parser.sitemaps:
                    parsed = parse_url(value)
                    if parsed is not None:
                        found.add((parsed.origin, parsed.path))
            self._sitemaps = found
        return self._sitemaps


def google_part(text: str) -> str:
    """The part of a robots.txt that Google reads: its first 500 KiB of UTF-8."""
    if len(text) <= GOOGLE_LIMIT // 4:
        return text
    head = text[:GOOGLE_LIMIT]  # at least 500 KiB once encoded, when the text is longer
    data = head.encode("utf-8", "surrogatepass")
    if len(data) <= GOOGLE_LIMIT and len(head) == len(text):
        return text
    return data[:GOOGLE_LIMIT].decode("utf-8", "ignore")


def _disallow_filter(parser: Protego | None, agent: str) -> re.Pattern[str] | None:
    """A pattern that matches every plain path some Disallow rule of ``agent``'s group
    matches (and maybe others); None when it cannot be built.

    protego offers no public list of a group's rules, so they are read from its
    rule set; if that ever changes shape, the filter is off and protego decides
    every URL.
    """
    if parser is None:
        return None
    try:
        group = parser._get_matching_rule_set(agent)
        if group is None:
            return _NEVER
        patterns = [rule.value._pattern for rule in group._rules if rule.field == "disallow"]
    except (AttributeError, TypeError):
        return None
    if not all(isinstance(pattern, str) for pattern in patterns):
        return None
    # A pattern with other characters (an escape such as %3F) never matches a plain path.
    patterns = [pattern for pattern in patterns if _PLAIN_PATTERN.fullmatch(pattern)]
    if not patterns:
        return _NEVER
    if len(patterns) > MAX_FILTER_RULES:
        return None
    source = "|".join(_pattern_regex(pattern) for pattern in patterns)
    if len(source) > MAX_FILTER_SOURCE:
        return None
    return re.compile(source)


def _pattern_regex(pattern: str) -> str:
    """A robots.txt path pattern (as protego stores it) as a regular expression
    anchored where ``re.match`` starts. Each ``*`` finds the leftmost match of the
    next literal and keeps it (an atomic group): linear, like protego's own search."""
    anchored = pattern.endswith("$")
    body = pattern[:-1] if anchored else pattern
    end = r"\Z" if anchored else ""
    if "*" not in body:
        return f"(?:{re.escape(body)}{end})"
    first, *middle, last = re.sub(r"\*+", "*", body).split("*")
    parts = [re.escape(first)]
    parts.extend(f"(?>.*?{re.escape(literal)})" for literal in middle)
    if anchored:
        parts.append(f".*{re.escape(last)}{end}")
    elif last:
        parts.append(f"(?>.*?{re.escape(last)})")
    return f"(?:{''.join(parts)})"

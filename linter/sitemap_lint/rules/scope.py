"""Scope rules: a sitemap may list only URLs at or below its own location."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from sitemap_lint.domain.hosts import ip_host, plain_host
from sitemap_lint.domain.urls import ParsedURL, normal_escapes, normal_path
from sitemap_lint.domain.urls import remove_dot_segments as _remove_dot_segments
from sitemap_lint.finding import Finding
from sitemap_lint.fix.model import FindingFix, remove_element
from sitemap_lint.model import EntryPointer, Node, loc_index
from sitemap_lint.rules.base import ERROR, WARNING, check, rule
from sitemap_lint.rules.registry import runs_when, stateful
from sitemap_lint.rules.sets import INDEX_CYCLE, index_itself
from sitemap_lint.rules.structure import Reporter
from sitemap_lint.support.records import Mutable
from sitemap_lint.support.words import plural

if TYPE_CHECKING:
    from sitemap_lint.sets.robots import RobotsPolicy
    from sitemap_lint.settings.options import Options

OTHER_ORIGIN = rule(
    "SC001",
    "url-other-origin",
    ERROR,
    fix="unsafe",
    summary="A URL on another scheme, host or port than the sitemap",
    what="""
        With `--sitemap-url`, checks that each URL has exactly the sitemap's
        scheme, host and port (`https` vs `http`, `www` vs the bare host,
        `:8080`). In an index, the same holds for the listed sitemaps.
    """,
    why="""
        A sitemap may only list URLs of its own site; Google reports "URL not
        allowed" and ignores the entry, unless robots.txt on the other host
        names this sitemap (cross-submission).
    """,
    bad="""
        # sitemap served at https://www.example.com/sitemap.xml
        <loc>https://example.com/about</loc>
    """,
    good="""
        # sitemap served at https://www.example.com/sitemap.xml
        <loc>https://www.example.com/about</loc>
    """,
)

OUTSIDE_DIRECTORY = rule(
    "SC002",
    "url-outside-directory",
    ERROR,
    fix="unsafe",
    summary="A URL above or beside the sitemap's directory",
    what="""
        With `--sitemap-url`, checks that each URL's path starts with the
        directory the sitemap is served from, the two compared as crawlers
        compare them: `.` and `..` segments resolved, and equivalent encodings
        equal (`~` and `%7E`, `café` and `caf%C3%A9`, `%c3%a9` and `%C3%A9`). In
        an index, the listed sitemaps must be in the index's directory or below.
    """,
    why="""
        The protocol limits a sitemap to its own directory and below: a sitemap
        at `/catalog/sitemap.xml` may not list `/about`. Google reports "URL not
        allowed". Serve the sitemap from the site root to list the whole site.
    """,
    bad="""
        # sitemap served at https://example.com/catalog/sitemap.xml
        <loc>https://example.com/about</loc>
    """,
    good="""
        # sitemap served at https://example.com/sitemap.xml
        <loc>https://example.com/about</loc>
    """,
)

MIXED_ORIGINS = rule(
    "SC003",
    "mixed-origins",
    WARNING,
    summary="URLs on more than one scheme or host in one file",
    what="""
        Without `--sitemap-url`, compares every URL's scheme, host and port with
        the first URL's and reports the first one that differs, with a count.
        Give `--sitemap-url` to check the real scope instead.
    """,
    why="""
        Wherever the file is served, some of these URLs are out of its scope.
        Mixed `http`/`https` or `www`/bare hosts usually mean that canonical URLs
        are not used consistently.
    """,
    bad="""
        <url><loc>https://www.example.com/</loc></url>
        <url><loc>http://example.com/about</loc></url>
    """,
    good="""
        <url><loc>https://www.example.com/</loc></url>
        <url><loc>https://www.example.com/about</loc></url>
    """,
)

# The family: its title in the rule lists, and its place among the families.
FAMILY = "Scope"
ORDER = 70

RULES = (OTHER_ORIGIN, OUTSIDE_DIRECTORY, MIXED_ORIGINS)
runs_when(
    lambda options, _fetched: options.sitemap_url is not None, OTHER_ORIGIN, OUTSIDE_DIRECTORY
)
runs_when(lambda options, _fetched: options.sitemap_url is None, MIXED_ORIGINS)

if TYPE_CHECKING:
    from sitemap_lint.rules.entry import EntryContext, FileContext


@dataclass(init=False, repr=False, eq=False)
class ScopeChecker(Mutable):
    """Checks each URL against the sitemap's location, or for mixed origins without one."""

    location: ParsedURL | None
    is_index: bool = False
    # Origins whose robots.txt names this sitemap (cross-submission): any URL there is in scope.
    also: frozenset[str] = frozenset()
    _first: tuple[str, int] | None = None
    # The first URL on another origin: its loc, the origin and its entry's index
    # (``model.loc_index``).
    _first_other: tuple[Node, str, int] | None = None
    _others: int = 0
    # The directory in normal form (``normal_path``), and as the location writes it.
    _directory: str = field(init=False, default="/")
    _shown: str = field(init=False, default="/")
    # An index's own path, dot segments resolved: an entry that lists it is SE002's.
    _itself: str | None = field(init=False, default=None)

    def __init__(
        self,
        location: ParsedURL | None,
        is_index: bool = False,
        also: frozenset[str] = frozenset(),
        _first: tuple[str, int] | None = None,
        _first_other: tuple[Node, str, int] | None = None,
        _others: int = 0,
    ) -> None:
        self.location = location
        self.is_index = is_index
        self.also = also
        self._first = _first
        self._first_other = _first_other
        self._others = _others
        self._directory = self._shown = "/"
        self._itself = None
        self.__post_init__()

    def __post_init__(self) -> None:
        if self.location is not None:
            self.location = _as_browsers_write(self.location)
            path = _remove_dot_segments(self.location.path)
            self._shown = path[: path.rfind("/") + 1] or "/"
            if self.is_index:
                self._itself = path
            path = normal_path(self.location.path)
            self._directory = path[: path.rfind("/") + 1] or "/"

    def surely_inside(self, path: str) -> bool:
        """Whether ``path`` is under the sitemap's directory without reading it in normal
        form: under it as written, without a dot segment ("/." starts each) or an escape
        (the directory ends with "/", which no escape holds), and in an index, not the
        index's own path (``lists_itself`` reads that)."""
        return (
            path.startswith(self._directory)
            and "/." not in path
            and "%" not in path
            and (self._itself is None or not path.startswith(self._itself))
        )

    def lists_itself(self, written: str) -> bool:
        """Whether an index's entry lists ``written``, the URL the index is served at
        (its origin already compared): the same path, dot segments resolved, and query."""
        if self._itself is None or self.location is None:
            return False
        try:
            parts = urlsplit(written.strip())
        except ValueError:
            return False
        return (
            _remove_dot_segments(parts.path or "/") == self._itself
            and parts.query == self.location.query
        )

    def check(
        self, url: ParsedURL, node: Node, report: Reporter, entry: Node | None = None
    ) -> None:
        url = _as_browsers_write(url)
        if self.location is not None:
            self._check_location(url, node, report, entry)
            return
        origin = url.origin
        if self._first is None:
            self._first = (origin, node.line)
        elif origin != self._first[0]:
            self._others += 1
            if self._first_other is None:
                index = loc_index(entry, node) if entry is not None else 0
                self._first_other = (node, origin, index)

    def _check_location(
        self, url: ParsedURL, node: Node, report: Reporter, entry: Node | None = None
    ) -> None:
        where = "sitemap index" if self.is_index else "sitemap"
        listed = "sitemap" if self.is_index else "URL"
        assert self.location is not None  # checked by the caller
        home = self.location.origin
        if url.origin != home and url.origin in self.also:
            return
        if url.origin != home:
            report.add(
                OTHER_ORIGIN.at(
                    node.line,
                    node.column,
                    f"{listed} on {url.origin} but the {where} is served from {home}; "
                    f"list only {listed}s on {home} (or use cross-submission through "
                    "robots.txt)",
                    fix=_drop(entry),
                )
            )
            return
        if self._itself is not None and self.lists_itself(node.text):
            report.add(index_itself(node.line, node.column, node.text.strip()))
            return
        path = url.path
        if self.surely_inside(path):
            return
        escaped = normal_escapes(path)
        normal = _remove_dot_segments(escaped)
        if not normal.startswith(self._directory):
            shown = repr(path) if normal == escaped else f"{path!r} (that is, {normal!r})"
            report.add(
                OUTSIDE_DIRECTORY.at(
                    node.line,
                    node.column,
                    f"{listed} path {shown} is outside {self._shown!r}, the directory "
                    f"the {where} is served from; list only {listed}s under "
                    f"{self._shown}, or serve the {where} from a common parent "
                    "directory such as the site root",
                    fix=_drop(entry),
                )
            )

    def finish(self, pointer: EntryPointer | None = None) -> Finding | None:
        """SC003 when the URLs are on several origins, at the first on another (naming
        its loc in a file of ``pointer``)."""
        if self._first_other is None or self._first is None:
            return None
        node, origin, index = self._first_other
        first_origin, first_line = self._first
        xpath = pointer.at_loc(index) if pointer is not None else None
        return MIXED_ORIGINS.at(
            node.line,
            node.column,
            f"URL on {origin} while the first URL (line {first_line}) is on {first_origin}; "
            f"{plural(self._others, 'URL')} in this file "
            f"{'is' if self._others == 1 else 'are'} not on {first_origin}; "
            "give --sitemap-url to check the scope",
        ).with_xpath(xpath)


def _as_browsers_write(url: ParsedURL) -> ParsedURL:
    """``url`` with an IP address host written as browsers write it, so that two
    spellings of one address are one origin (``[0:0::1]`` and ``[::1]``)."""
    host = _browsers_host(url.host)
    return url if host == url.host else url._replace(host=host)


@lru_cache(maxsize=1024)  # a file's URLs share a few hosts
def _browsers_host(host: str) -> str:
    return host if host[:1] != "[" and plain_host(host) else ip_host(host)


def _drop(entry: Node | None) -> FindingFix | None:
    return None if entry is None else remove_element(entry, "Remove this entry out of scope")


@check("loc", emits=(*RULES, INDEX_CYCLE), proof=stateful("scope"))
class ScopeCheck:
    """Each entry's URL against the sitemap's location (or the first URL's origin)."""

    def __init__(self, file: FileContext) -> None:
        also: frozenset[str] = frozenset()
        location = file.options.sitemap_url
        if file.robots is not None and location is not None:
            also = file.robots.cross_origins(location)
        self.scope = ScopeChecker(location, file.is_index, also=also)
        self.pointer = file.pointer

    def check(self, node: Node, entry: EntryContext, report: Reporter) -> None:
        url = entry.url
        if url is not None:
            self.scope.check(url, node, report, entry.entry)

    def finish(self, report: Reporter) -> None:
        mixed = self.scope.finish(self.pointer)
        if mixed is not None:
            report.add(mixed)


def for_file(options: Options, is_index: bool = False) -> tuple[RobotsPolicy | None, ScopeChecker]:
    """A file's robots.txt policy (when the run knows robots.txt files) and its scope
    checker, which accepts the hosts whose robots.txt names the file (cross-submission)."""
    robots = None
    also: frozenset[str] = frozenset()
    if options.robots:
        from sitemap_lint.sets.robots import robots_policy

        robots = robots_policy(options.robots, options.agent)
        if options.sitemap_url is not None:
            also = robots.cross_origins(options.sitemap_url)
    return robots, ScopeChecker(options.sitemap_url, is_index, also=also)

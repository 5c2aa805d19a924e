"""Set rules: checks across the files of a set (an index's children, a robots.txt's sitemaps,
several files named together).

The ``set`` checks get the set once every file of it is checked
(``CheckedSet``, below, from ``sitemap_lint.sets.runner``); each finding is placed in
the file and at the line where the defect shows. The ``listed`` checks get each listed
sitemap the following of listings leaves (``rules.events.Unfollowed``: a cycle, a
sitemap listed twice, a limit reached, a child not found, an index inside an index), in
the listing file.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Protocol, TypeVar

from sitemap_lint.finding import Finding
from sitemap_lint.rules.base import ERROR, INFO, NO_PROOF, WARNING, check, rule
from sitemap_lint.rules.events import FollowKind, Unfollowed
from sitemap_lint.rules.hreflang import (
    CLUSTER_MISMATCH,
    NO_X_DEFAULT,
    NOT_LISTED,
    RETURN_LINK_MISSING,
    Alternates,
    Links,
    check_alternates,
)
from sitemap_lint.rules.registry import LISTED, SET
from sitemap_lint.rules.structure import Reporter
from sitemap_lint.sets.facts import Child, FileFacts, url_hash
from sitemap_lint.support.records import NamedTuple
from sitemap_lint.support.words import plural

# A sitemap's newest entry may be this much newer than its lastmod in the index.
LASTMOD_TOLERANCE = timedelta(days=1)
# The kinds of file that list URLs (pages).
URL_KINDS = ("urlset", "text", "rss", "atom")

URL_IN_SEVERAL_SITEMAPS = rule(
    "SE001",
    "url-in-several-sitemaps",
    WARNING,
    summary="The same URL is listed in more than one sitemap of the set",
    what="""
        Compares the URLs of every sitemap in the set (the files named together, an
        index's children, a robots.txt's sitemaps) and reports a URL already listed
        in an earlier file, with that file and line. URLs are compared in their
        normal form: the host's case, a default port (`:443` on https, `:80` on
        http) and an empty path (`/`) do not make another page, and the message
        names that form. URLs are compared by a 64-bit hash, so millions of URLs
        fit in little memory. A file whose `per-file-ignores` drop SE001 counts as one
        with a `disable-file SE001` comment: it may repeat the other files' URLs, and a
        repeat elsewhere names the earliest listing outside it, whatever the order of
        the files.
    """,
    why="""
        Each page should be listed once: duplicates across files waste the crawl
        budget, and when their `lastmod` or `priority` differ the search engine
        gets conflicting signals. It usually means two generators (or two
        paginations) cover the same pages.
    """,
    bad="""
        <!-- sitemap-posts.xml -->
        <url><loc>https://example.com/about</loc></url>
        <!-- sitemap-pages.xml -->
        <url><loc>https://example.com/about</loc></url>
    """,
    good="""
        <!-- sitemap-pages.xml only -->
        <url><loc>https://example.com/about</loc></url>
    """,
)

INDEX_CYCLE = rule(
    "SE002",
    "index-cycle",
    ERROR,
    summary="A sitemap index lists itself or an index that leads back to it",
    what="""
        While following an index's children, detects a child whose URL is the
        index itself or one of the indexes that led to it, also across files and
        through any number of them (`a.xml` lists `b.xml`, which lists `c.xml`,
        which lists `a.xml`), even though an index nested in an index is not
        followed for its sitemaps: the children of a nested index are read only
        far enough to see their root element, and those that are indexes are
        checked (within `--max-depth` and `--max-files`). The finding is on the
        entry that closes the cycle and names the files around it. The child is
        not followed again, so the run always ends. An index that lists its own
        URL (the one `--sitemap-url` gives, or it was fetched from) is reported
        without following anything, in a check of that file alone too: the same
        scheme, host, port, path (`.` and `..` resolved) and query. A fetched
        child whose URL redirects to the index or to an index above it (an
        `http://` spelling of an `https://` index, an old path) closes a cycle
        too: it is reported on the listing entry with where the redirect ends,
        and that index is not checked again as a file of its own.
    """,
    why="""
        A cycle cannot be crawled to an end; search engines stop at the first
        level anyway and report the nested index. It is almost always a wrong
        URL in the index.
    """,
    bad="""
        <!-- https://example.com/sitemap-index.xml -->
        <sitemap><loc>https://example.com/sitemap-index.xml</loc></sitemap>
    """,
    good="""
        <!-- https://example.com/sitemap-index.xml -->
        <sitemap><loc>https://example.com/sitemap-posts.xml</loc></sitemap>
    """,
)

NESTED_INDEX = rule(
    "SE003",
    "nested-index",
    ERROR,
    summary="A sitemap index lists another sitemap index",
    what="""
        Reports an index entry whose file turned out to be a sitemap index itself.
        The nested index is checked, but its own children are not followed: only
        those that are sitemap indexes again are checked, to find cycles (SE002).
    """,
    why="""
        The protocol allows an index to list sitemaps only; search engines do
        not follow an index inside an index, so every URL below it is never
        read.
    """,
    bad="""
        <!-- sitemap-index.xml lists another index -->
        <sitemap><loc>https://example.com/sitemap-index-2.xml</loc></sitemap>
    """,
    good="""
        <!-- list the second index's sitemaps directly, or submit both indexes -->
        <sitemap><loc>https://example.com/sitemap-posts-2.xml</loc></sitemap>
    """,
)

SITEMAP_LISTED_TWICE = rule(
    "SE004",
    "sitemap-listed-twice",
    INFO,
    summary="A sitemap is listed by more than one index or robots.txt line",
    what="""
        Reports a child sitemap that an earlier index (or robots.txt) of the set
        already listed, or that its own index lists again written otherwise
        (`/./sitemap-posts.xml`); it is checked once, where it was first listed.
        The same URL twice in one index is DU001's, as RB003 reports a robots.txt
        line repeated; a robots.txt line that repeats a sitemap written with dot
        segments (`/blog/../sitemap-posts.xml`), which RB003 does not compare, is
        SE004's. A fetched child whose URL redirects to a sitemap the set already
        has (an old URL of a file the index lists too) is SE004's on the entry of
        the redirecting URL, naming where the redirect ends: it is the same file,
        checked once, and its URLs are not reported again as SE001.
    """,
    why="""
        Harmless for crawlers, but it hides which index owns the file, and it is
        often left over after a reorganisation.
    """,
    bad="""
        # robots.txt
        Sitemap: https://example.com/sitemap-index.xml
        Sitemap: https://example.com/sitemap-posts.xml  # also in the index
    """,
    good="""
        # robots.txt
        Sitemap: https://example.com/sitemap-index.xml
    """,
    lang="text",
)

SET_LIMIT_REACHED = rule(
    "SE005",
    "set-limit-reached",
    WARNING,
    summary="Following stopped at the depth, file-count or byte limit of the run",
    what="""
        Reports, once per limit, the entry whose sitemap was not checked because
        the run reached `--max-depth`, `--max-files` or `--max-bytes`.
    """,
    why="""
        The limits keep a run bounded on huge or hostile sites; the files past
        them were not checked, so the result is incomplete. Raise the limit to
        check them.
    """,
    bad="""
        $ sitemap-lint --max-files 2 https://example.com/robots.txt
    """,
    good="""
        $ sitemap-lint --max-files 1000 https://example.com/robots.txt
    """,
    lang="sh",
)

INDEX_LASTMOD_OLDER = rule(
    "SE006",
    "index-lastmod-older",
    INFO,
    summary="An index's lastmod for a sitemap is older than the sitemap's newest entry",
    what="""
        Compares an index entry's `lastmod` with the newest `lastmod` inside the
        sitemap it lists, and reports the entry when the sitemap changed later
        than the index says (by more than a day). A month or a year in the index
        (`2024-03`, `2024`) covers the whole period: it is compared as its last
        day, so a sitemap changed inside it is not behind. A date (or a time
        without a zone) in the index is on the site's clock, and the sitemap's
        entry is read on its own (`2024-03-05T23:00:00-05:00` is changed on
        2024-03-05, though it is the 6th in UTC).
    """,
    why="""
        Crawlers use the index's `lastmod` to decide which sitemaps to read
        again; one that is behind hides new and changed pages until the next
        full crawl.
    """,
    bad="""
        <sitemap><loc>https://example.com/sitemap-posts.xml</loc>
          <lastmod>2024-01-01</lastmod></sitemap>
        <!-- sitemap-posts.xml has <lastmod>2024-03-05</lastmod> -->
    """,
    good="""
        <sitemap><loc>https://example.com/sitemap-posts.xml</loc>
          <lastmod>2024-03-05</lastmod></sitemap>
    """,
)

CHILD_NOT_FOUND = rule(
    "SE007",
    "child-not-found",
    ERROR,
    summary="A listed sitemap maps to a local file that does not exist",
    what="""
        With `--map URL_PREFIX=DIR`, reports an index or robots.txt entry whose
        URL maps to a path that is missing, unreadable or outside `DIR`, or that
        ends in `/` where `DIR` has a file (`sitemap.xml/`: a server finds no
        directory there).
    """,
    why="""
        Once deployed, the URL would return an error and every URL of that
        sitemap would be lost; the build did not produce the file the index
        names.
    """,
    bad="""
        <!-- --map https://example.com/=dist/ and no dist/sitemap-2.xml -->
        <sitemap><loc>https://example.com/sitemap-2.xml</loc></sitemap>
    """,
    good="""
        <!-- dist/sitemap-2.xml exists, or the entry is removed -->
        <sitemap><loc>https://example.com/sitemap-2.xml</loc></sitemap>
    """,
)

LISTED_ROBOTS_TXT = rule(
    "SE008",
    "robots-txt-listed-as-sitemap",
    ERROR,
    summary="An index or a robots.txt Sitemap line lists a robots.txt",
    what="""
        Reports an index entry or a robots.txt `Sitemap:` line whose file turned
        out to be a robots.txt (by its name or its lines). Its own `Sitemap:` lines
        are not followed from there.
    """,
    why="""
        An index lists sitemaps only, and a `Sitemap:` line names a sitemap;
        search engines read the listed robots.txt as a sitemap, find no URLs in
        it and report an error, and do not follow the sitemaps it names.
    """,
    bad="""
        <sitemap><loc>https://example.com/robots.txt</loc></sitemap>
    """,
    good="""
        <!-- list the sitemaps that robots.txt names -->
        <sitemap><loc>https://example.com/sitemap-posts.xml</loc></sitemap>
    """,
)


def url_in_several_sitemaps(
    line: int, column: int, first: str, normal: str | None, url_hash: int
) -> Finding:
    """SE001 at ``line``: the URL (of hash ``url_hash``) is also listed at ``first`` (a
    file and line); ``normal`` is the normal form both share when one of them is written
    otherwise. The URL's hash is the finding's key: the other file's name, as the run
    was given it, is no part of what identifies the defect."""
    same = f" (both are {normal} once normalised)" if normal is not None else ""
    return URL_IN_SEVERAL_SITEMAPS.at(
        line,
        column,
        f"this URL is also listed in {first}{same}; list each URL in one sitemap of the set only",
        key=f"url:{url_hash:016x}",
    )


Entry = TypeVar("Entry")


def closing_entries(
    listings: Mapping[str, Sequence[tuple[str, Entry]]], roots: Sequence[str]
) -> Iterator[tuple[str, Entry, list[str]]]:
    """The entries that close a cycle of listings: ``listings`` maps a file's key to the
    (key, entry) of each file it lists, in order; the walk starts at each root in turn
    and follows entries depth first, in order. Yields (the listing file's key, its entry,
    the keys of the cycle from the listed file to the listing one) for each entry that
    lists a file still on the walk's path, each once."""
    done: set[str] = set()
    for root in roots:
        if root in done:
            continue
        path = [root]
        on_path = {root: 0}
        positions = [0]
        while path:
            key = path[-1]
            entries = listings.get(key, ())
            at = positions[-1]
            if at >= len(entries):
                done.add(key)
                del on_path[key]
                path.pop()
                positions.pop()
                continue
            positions[-1] = at + 1
            target, entry = entries[at]
            if target in on_path:
                yield key, entry, path[on_path[target] :]
            elif target not in done:
                on_path[target] = len(path)
                path.append(target)
                positions.append(0)


def index_cycle(line: int, column: int, url: str, cycle: Sequence[str]) -> Finding:
    """SE002 on an entry that lists ``url``, the first of the files ``cycle`` names (the
    listing file last)."""
    around = " -> ".join([*cycle, cycle[0]])
    return INDEX_CYCLE.at(
        line,
        column,
        f"{url} leads back to this file ({around}); the cycle was not followed: list only "
        "sitemaps of URLs here",
        key=listed_key(url),
    )


def index_itself(line: int, column: int, url: str) -> Finding:
    """SE002 on an index's entry that lists ``url``, the URL the index is served at."""
    return INDEX_CYCLE.at(
        line,
        column,
        f"{url} is this file itself; the cycle was not followed: list only sitemaps of URLs here",
        key=listed_key(url),
    )


def loc_path(facts: FileFacts, index: int) -> str | None:
    """The pointer to the loc of the entry of ``index`` in the file of ``facts``."""
    pointer = facts.pointer
    return pointer.at_loc(index) if pointer is not None else None


def listed_key(url: str) -> str:
    """The key of a finding on a listed sitemap whose message names files as the run was
    given them (SE002, SE004, SE007): the listed URL identifies the defect, so that a
    baseline matches from another working directory."""
    return f"listed:{url}"


def hreflang_findings(files: Sequence[tuple[str, FileFacts]]) -> list[tuple[int, Finding]]:
    """The hreflang findings across ``files`` (each file's name and facts: records, URL
    hashes and positions), as (index of the file, finding), in the order of the checks."""
    if not any(facts.alternates for _name, facts in files):
        return []
    several = len(files) > 1
    records = []
    owner: dict[int, int] = {}
    shared: dict[Links, Links] = {}
    for index, (name, facts) in enumerate(files):
        for record in facts.alternates:
            links = shared.setdefault(record.links, record.links)
            record = replace(record, links=links, file=name if several else "")
            owner[id(record)] = index
            records.append(record)
    with_records = {record.page for record in records}

    def bare(urls: list[str]) -> list[Alternates]:
        wanted = [(url_hash(url), url) for url in urls if url not in with_records]
        listed: dict[str, Alternates] = {}
        # By hash: each file looks up one slice of its hashes after the other.
        for value, url in sorted(wanted):
            for index, (name, facts) in enumerate(files):
                listing = facts.first_listing(value)
                if listing is not None:
                    packed, entry = listing
                    line, column = packed >> 32, packed & 0xFFFFFFFF
                    file = name if several else ""
                    record = Alternates(url, line, column, (), file, "bare", entry)
                    owner[id(record)] = index
                    listed[url] = record
                    break
        return [listed[url] for _value, url in wanted if url in listed]

    found = []
    for problem in check_alternates(records, bare, "set"):
        index = owner[id(problem.record)]
        found.append((index, problem.finding(files[index][1].pointer)))
    return found


# The family: its title in the rule lists, and its place among the families.
FAMILY = "Sitemap sets"
ORDER = 220

RULES = (
    URL_IN_SEVERAL_SITEMAPS,
    INDEX_CYCLE,
    NESTED_INDEX,
    SITEMAP_LISTED_TWICE,
    SET_LIMIT_REACHED,
    INDEX_LASTMOD_OLDER,
    CHILD_NOT_FOUND,
    LISTED_ROBOTS_TXT,
)


class SetFile(NamedTuple):
    """One checked file of a set (``CheckedSet.files``).

    ``name``: as the report shows it; ``key``: its identity (the canonical URL, or the
    resolved path); ``facts``: what its check collected (``sets.facts.FileFacts``: its
    kind, counts, children, newest lastmod); ``parent``: the index of the file that
    lists it (None: an input); ``listed_at``: that file's entry for it; ``handle``: the
    executor's reference to the rest of its facts; ``alternates``: its hreflang
    records."""

    name: str
    key: str
    facts: FileFacts
    parent: int | None
    listed_at: Child | None
    handle: object
    alternates: int


# (file, URL hash, first file listing it, line, column, first file's line, the index of
# the file's entry), the files given as indexes into the list handed to
# ``CheckedSet.duplicates``.
Duplicate = tuple[int, int, int, int, int, int, int]


class CheckedSet:
    """A set once every file of it was checked and its listings followed (``set`` checks,
    once a run of several files): ``files`` (``SetFile``, parents before the files they
    list), ``roots`` (the keys of the inputs), ``key_of`` (the key of a listed URL, None
    when it cannot be one), and the joins the executor runs across the files' facts,
    wherever they are kept: ``duplicates(indexes, urls)``, the URLs several of those
    files list, and ``hreflang(records)``, the hreflang findings across every file, as
    (index, finding)."""

    __slots__ = ("duplicates", "files", "hreflang", "key_of", "roots")

    def __init__(
        self,
        files: Sequence[SetFile],
        roots: Sequence[str],
        key_of: Callable[[str], str | None],
        duplicates: Callable[[Sequence[int], int], list[Duplicate]],
        hreflang: Callable[[int], list[tuple[int, Finding]]],
    ) -> None:
        self.files = files
        self.roots = roots
        self.key_of = key_of
        self.duplicates = duplicates
        self.hreflang = hreflang


class SetReporter(Protocol):
    """Where the ``set`` checks put their findings: each file's own sink, open until the
    set is done (``sets.runner.SetReport``)."""

    def add(self, file: int, finding: Finding) -> None:
        """Add ``finding`` to ``file`` (whose directives may suppress it; another file's,
        where the defect stands too, are asked through ``silencer``)."""
        ...

    def withdraw(self, file: int, code: str, line: int, column: int) -> None: ...

    def holds(self, file: int, code: str, line: int, column: int) -> bool: ...

    def silencer(self, file: int, code: str) -> Callable[[int], bool] | None:
        """Whether a directive of ``file`` silences ``code`` at a line, where the file
        lists what a finding in another file is about (a URL both list), the directive
        then used; None when none of its directives names ``code`` (asked once a file)."""
        ...


@check(SET, emits=(INDEX_CYCLE, SITEMAP_LISTED_TWICE, NESTED_INDEX), proof=NO_PROOF)
def check_cycles(checked: CheckedSet, options: object, report: SetReporter) -> None:
    """Cycles of listings across files (a -> b -> a), also through an index that was not
    followed further (not through a listed robots.txt, SE008's): SE002 on the entry
    that closes one, in place of SE004 or SE003 there (so it runs while either is
    enabled): an index that lists an input of the run
    is SE003 while following, and the entry that closes a cycle is SE002 only, as when
    the cycle is found while following."""
    listings: dict[str, list[tuple[str, Child]]] = {}
    where: dict[str, tuple[str, int]] = {}
    # A listed robots.txt is SE008's: its Sitemap lines are not followed from there.
    robots = {file.key for file in checked.files if file.facts.kind == "robots"}
    for index, file in enumerate(checked.files):
        facts, key = file.facts, file.key
        if facts.kind not in ("sitemapindex", "robots") or key in listings:
            continue
        where[key] = (file.name, index)
        listings[key] = [
            (listed, child)
            for child in facts.children
            if (listed := checked.key_of(child.url)) is not None and listed not in robots
        ]
    for key, child, cycle in closing_entries(listings, checked.roots):
        index = where[key][1]
        if report.holds(index, INDEX_CYCLE.code, child.line, child.column):
            continue  # found while following: this file itself or an index above it
        report.withdraw(index, SITEMAP_LISTED_TWICE.code, child.line, child.column)
        report.withdraw(index, NESTED_INDEX.code, child.line, child.column)
        names = [where[k][0] if k in where else k for k in cycle]
        finding = index_cycle(child.line, child.column, child.url, names)
        report.add(index, finding.with_xpath(loc_path(checked.files[index].facts, child.index)))


@check(SET, emits=(INDEX_LASTMOD_OLDER,), proof=NO_PROOF)
def check_index_lastmods(checked: CheckedSet, options: object, report: SetReporter) -> None:
    """An index's lastmod for a sitemap older than the sitemap's newest entry (SE006),
    wherever the set checked that sitemap: below the index, or as an input of its own (a
    directory's files, a sitemap also named on the command line)."""
    files = checked.files
    by_key: dict[str, int] = {}
    for index, file in enumerate(files):
        by_key.setdefault(file.key, index)
    for index, file in enumerate(files):
        if file.facts.kind != "sitemapindex":
            continue
        for entry in file.facts.children:
            if entry.lastmod is None:
                continue
            key = checked.key_of(entry.url)
            listed = by_key.get(key) if key is not None else None
            if listed is None or listed == index:
                continue
            newest = files[listed].facts.newest_lastmod
            if newest is None:
                continue
            stated = entry.lastmod
            # A date (or a time without a zone) is on the site's own clock: the entry's
            # moment is read on its own clock too, its day as it writes it.
            newest = newest.replace(tzinfo=None) if stated.tzinfo is None else _aware(newest)
            if newest - stated > LASTMOD_TOLERANCE:
                report.add(
                    index,
                    INDEX_LASTMOD_OLDER.at(
                        entry.line,
                        entry.column,
                        f"the index says {entry.url} last changed {_day(stated)}, but it has "
                        f"an entry changed {_day(newest)}; update the <lastmod> beside this <loc> when the "
                        "sitemap changes",
                    ).with_xpath(loc_path(file.facts, entry.index)),
                )


@check(SET, emits=(URL_IN_SEVERAL_SITEMAPS,), proof=NO_PROOF)
def check_duplicates(checked: CheckedSet, options: object, report: SetReporter) -> None:
    """URLs listed by several files (SE001), found by the executor's join: compared by
    hash, one slice of the hash space at a time, so the memory for the comparison stays
    a fraction of the set's."""
    files = checked.files
    listing = [
        index
        for index, file in enumerate(files)
        if file.facts.kind in URL_KINDS and file.facts.url_count
    ]
    if len(listing) < 2:
        return
    urls = sum(files[index].facts.url_count for index in listing)
    code = URL_IN_SEVERAL_SITEMAPS.code
    found = checked.duplicates(listing, urls)
    # Each listing file's directives are asked once whether they name the code at all.
    silencers = {at: report.silencer(index, code) for at, index in enumerate(listing)}

    def silenced(at: int, line: int) -> bool:
        silencer = silencers[at]
        return silencer is not None and silencer(line)

    # The URLs whose first listing a directive of its file silences: a repeat names the
    # earliest listing in another file that none silences instead, so that what is
    # reported does not depend on the order of the files.
    silenced_values = {
        value
        for _at, value, first_at, _line, _column, first_line, _entry in found
        if silenced(first_at, first_line)
    }
    listings = _listings(found, silenced_values)
    for at, value, first_at, line, column, first_line, entry in found:
        if value in silenced_values:
            named = next(
                (
                    (other, other_line)
                    for other, other_line in listings[value]
                    if (other, other_line) < (at, line)
                    and other != at
                    and not silenced(other, other_line)
                ),
                None,
            )
            if named is None:
                continue  # every earlier listing's directive silences it
            first_at, first_line = named
        index, first_index = listing[at], listing[first_at]
        facts, first = files[index].facts, files[first_index]
        # The normal form both share, when one of them is written otherwise (on a
        # cluster, the workers send each file's normal forms with its discovery facts).
        normal = facts.normal_forms.get(value) or first.facts.normal_forms.get(value)
        finding = url_in_several_sitemaps(
            line, column, f"{first.name}, line {first_line}", normal, value
        )
        report.add(index, finding.with_xpath(loc_path(facts, entry)))


def _listings(found: Sequence[Duplicate], values: set[int]) -> dict[int, list[tuple[int, int]]]:
    """Where each URL of hash in ``values`` is listed (file, line), in the set's order."""
    listings: dict[int, set[tuple[int, int]]] = {value: set() for value in values}
    for at, value, first_at, line, _column, first_line, _entry in found:
        if value in listings:
            listings[value].update(((first_at, first_line), (at, line)))
    return {value: sorted(places) for value, places in listings.items()}


@check(
    SET,
    emits=(RETURN_LINK_MISSING, CLUSTER_MISMATCH, NO_X_DEFAULT, NOT_LISTED),
    proof=NO_PROOF,
)
def check_hreflang_across(checked: CheckedSet, options: object, report: SetReporter) -> None:
    """The hreflang findings that compare pages, across the files (their records joined
    by the executor: ``hreflang_findings`` in this process)."""
    records = sum(file.alternates for file in checked.files)
    if not records:
        return
    for index, finding in checked.hreflang(records):
        report.add(index, finding)


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _day(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%d")


@check(
    LISTED,
    emits=(
        INDEX_CYCLE,
        SITEMAP_LISTED_TWICE,
        SET_LIMIT_REACHED,
        CHILD_NOT_FOUND,
        NESTED_INDEX,
        LISTED_ROBOTS_TXT,
    ),
    proof=NO_PROOF,
)
def check_unfollowed(listed: Unfollowed, options: object, report: Reporter) -> None:
    """Why a listed sitemap was not followed: SE002 (a cycle), SE004 (listed twice), SE005
    (a limit), SE007 (not found or unreadable), SE003 (an index inside an index), SE008
    (a robots.txt)."""
    report.add(_unfollowed(listed).with_xpath(listed.xpath))


def _unfollowed(listed: Unfollowed) -> Finding:
    kind, url, line, column = listed.kind, listed.url, listed.line, listed.column
    if kind == FollowKind.CYCLE and listed.redirected:
        what = "this file itself" if listed.detail == "self" else "an index that lists this file"
        return INDEX_CYCLE.at(
            line,
            column,
            f"{url} redirects to {listed.redirected}, {what}; the cycle was not followed: "
            "list only sitemaps of URLs here",
            key=listed_key(url),
        )
    if kind == FollowKind.CYCLE:
        if listed.detail == "self":
            return index_itself(line, column, url)
        return INDEX_CYCLE.at(
            line,
            column,
            f"{url} is an index that lists this file; the cycle was not followed: list only "
            "sitemaps of URLs here",
            key=listed_key(url),
        )
    if kind == FollowKind.TWICE and listed.redirected:
        where = (
            "an input of the run, checked as such"
            if listed.detail == "input"
            else f"already listed in {listed.detail} and checked there"
        )
        return SITEMAP_LISTED_TWICE.at(
            line,
            column,
            f"{url} redirects to {listed.redirected}, a sitemap {where}; remove this entry",
            key=listed_key(url),
        )
    if kind == FollowKind.TWICE:
        return SITEMAP_LISTED_TWICE.at(
            line,
            column,
            f"{url} is already listed in {listed.detail} and was checked there; remove "
            "one of the two entries",
            key=listed_key(url),
        )
    if kind == FollowKind.LIMIT:
        return SET_LIMIT_REACHED.at(line, column, _limit_message(listed.detail, url, listed.value))
    if kind == FollowKind.NOT_FOUND:
        return CHILD_NOT_FOUND.at(line, column, listed.detail, key=listed_key(url))
    if kind == FollowKind.UNREADABLE:
        return CHILD_NOT_FOUND.at(
            line,
            column,
            f"{listed.detail}; the file could not be checked",
            key=listed_key(url),
        )
    if kind == FollowKind.ROBOTS:
        followed = (
            "its sitemaps were checked as the run's input"
            if listed.detail == "input"
            else "its Sitemap lines were not followed from here"
        )
        return LISTED_ROBOTS_TXT.at(
            line,
            column,
            f"{url} is a robots.txt, not a sitemap ({followed}); search engines find no "
            "URLs in it: list the sitemaps it names here instead",
        )
    what = (
        ": list its sitemaps"  # an input of the run: they were checked from there
        if listed.detail == "input"
        else ", so its sitemaps were not checked either: list them"
    )
    return NESTED_INDEX.at(
        line,
        column,
        f"{url} is itself a sitemap index (of {plural(listed.value, 'sitemap')}); search "
        f"engines do not follow an index inside an index{what} here directly or submit "
        "that index on its own",
    )


def _limit_message(limit: str, url: str, value: int) -> str:
    if limit == "depth":
        what = f"it is more than --max-depth {value} levels below the input"
        flag = "--max-depth"
    elif limit == "files":
        what = f"the run reached --max-files {value:,}"
        flag = "--max-files"
    else:
        what = f"the run read --max-bytes {value:,} bytes"
        flag = "--max-bytes"
    return f"{url} and any further sitemaps were not checked: {what}; raise {flag} to check them"

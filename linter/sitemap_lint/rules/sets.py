"""Set rules: checks across the files of a set (an index's children, a robots.txt's sitemaps,
several files named together).

These findings are made by the set runner (``sitemap_lint.sets.runner``) once every file of the
set is checked; each is placed in the file and at the line where the defect shows.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, TypeVar

from sitemap_lint.finding import Finding
from sitemap_lint.rules.base import ERROR, INFO, WARNING, rule
from sitemap_lint.rules.hreflang import Alternates, Links, check_alternates
from sitemap_lint.sets.facts import Child, FileFacts, url_hash

if TYPE_CHECKING:
    from sitemap_lint.engine.sink import FindingSink

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
        fit in little memory.
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
        not followed again, so the run always ends.
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
        already listed; it is checked once, where it was first listed.
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
        than the index says (by more than a day).
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
        URL maps to a path that is missing, unreadable or outside `DIR`.
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


def url_in_several_sitemaps(line: int, column: int, first: str, normal: str | None) -> Finding:
    """SE001 at ``line``: the URL is also listed at ``first`` (a file and line); ``normal``
    is the normal form both share when one of them is written otherwise."""
    same = f" (both are {normal} once normalised)" if normal is not None else ""
    return URL_IN_SEVERAL_SITEMAPS.at(
        line,
        column,
        f"this URL is also listed in {first}{same}; list each URL in one sitemap of the set only",
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


def check_cycles(
    files: list[tuple[str, str, FileFacts, FindingSink]],
    roots: Sequence[str],
    key_of: Callable[[str], str | None],
) -> None:
    """Cycles of listings across files (a -> b -> a), also through an index that was not
    followed further: SE002 on the entry that closes one, in place of SE004 there.
    ``files`` are each checked file's key, name, facts and open sink; ``roots`` the keys the
    run started from; ``key_of`` the key of a listed URL (None when it cannot be one)."""
    listings: dict[str, list[tuple[str, Child]]] = {}
    where: dict[str, tuple[str, FindingSink]] = {}
    for key, name, facts, sink in files:
        if facts.kind not in ("sitemapindex", "robots") or key in listings:
            continue
        where[key] = (name, sink)
        listings[key] = [
            (listed, child) for child in facts.children if (listed := key_of(child.url)) is not None
        ]
    for key, child, cycle in closing_entries(listings, roots):
        sink = where[key][1]
        here = (child.line, child.column)
        if any(f.code == INDEX_CYCLE.code and (f.line, f.column) == here for f in sink.findings):
            continue  # found while following: this file itself or an index above it
        sink.withdraw(SITEMAP_LISTED_TWICE.code, child.line, child.column)
        names = [where[k][0] if k in where else k for k in cycle]
        sink.add(index_cycle(child.line, child.column, child.url, names))


def index_cycle(line: int, column: int, url: str, cycle: Sequence[str]) -> Finding:
    """SE002 on an entry that lists ``url``, the first of the files ``cycle`` names (the
    listing file last)."""
    around = " -> ".join([*cycle, cycle[0]])
    return INDEX_CYCLE.at(
        line,
        column,
        f"{url} leads back to this file ({around}); the cycle was not followed: list only "
        "sitemaps of URLs here",
    )


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
                packed = facts.first_position(value)
                if packed is not None:
                    line, column = packed >> 32, packed & 0xFFFFFFFF
                    record = Alternates(url, line, column, (), name if several else "", "bare")
                    owner[id(record)] = index
                    listed[url] = record
                    break
        return [listed[url] for _value, url in wanted if url in listed]

    return [
        (
            owner[id(problem.record)],
            problem.rule.at(problem.record.line, problem.record.column, problem.message),
        )
        for problem in check_alternates(records, bare)
    ]


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
)

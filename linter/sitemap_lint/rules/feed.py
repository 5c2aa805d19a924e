"""Feed rules: RSS 2.0 and Atom 0.3/1.0 feeds used as sitemaps.

The rules are defined here with the date checks they need; ``sitemap_lint.formats.feed``
recognises feeds and walks their items and entries, handing each to the ``item`` checks
(a ``rules.events.FeedItem``: its link and its date as read). What is known only at the
end of a feed (no items, items without a date) is reported by ``end`` checks, from the
``rules.events.FeedRecord`` the front end keeps.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta, timezone
from typing import TYPE_CHECKING

from sitemap_lint.fix.model import shown_attribute
from sitemap_lint.model import Node
from sitemap_lint.rules.base import ERROR, INFO, NO_PROOF, WARNING, check, rule
from sitemap_lint.rules.dates import FUTURE_TOLERANCE, IN_FUTURE, impossible_moment, utc_text
from sitemap_lint.rules.events import FeedItem, FeedRecord, FeedStart, FileEnd
from sitemap_lint.rules.registry import END, FEED, ITEM
from sitemap_lint.rules.structure import Reporter
from sitemap_lint.support.patterns import lazy
from sitemap_lint.support.words import joined

if TYPE_CHECKING:
    from sitemap_lint.rules.entry import FileContext

FEED_AS_SITEMAP = rule(
    "FD001",
    "feed-as-sitemap",
    INFO,
    summary="An RSS or Atom feed is used as a sitemap",
    what="""
        Notes, once per file, that the file is an RSS 2.0 or Atom feed rather
        than an XML sitemap. Under `--profile yandex` this is an error.
    """,
    why="""
        Google and Bing read RSS 2.0 and Atom 0.3/1.0 feeds as sitemaps, taking
        each item's link and date. Yandex does not read feeds as sitemaps, and
        a feed usually lists only the latest items, so pages that dropped out of
        it are no longer submitted. An XML sitemap lists every page for every
        search engine; keep the feed for fresh items next to it.
    """,
    bad="""
        <rss version="2.0">
          <channel>
            <item>
              <link>https://example.com/news/launch</link>
              <pubDate>Wed, 08 May 2024 10:00:00 +0000</pubDate>
            </item>
          </channel>
        </rss>
    """,
    good="""
        <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
          <url><loc>https://example.com/news/launch</loc></url>
        </urlset>
    """,
)

UNSUPPORTED_FORMAT = rule(
    "FD002",
    "unsupported-feed-format",
    ERROR,
    summary="A feed format that search engines do not read as a sitemap",
    what="""
        Detects RSS 1.0 and RSS 0.90 feeds (an `rdf:RDF` root), RSS feeds whose
        `version` is missing or not `2.0` (RSS 0.91 to 0.94), and `feed` roots
        outside the Atom 1.0 and 0.3 namespaces. The items of such a feed are
        checked once it is in a supported format.
    """,
    why="""
        Search engines accept RSS 2.0 and Atom 0.3/1.0 feeds as sitemaps and
        nothing else: the other formats are reported as unsupported and none of
        their URLs are read.
    """,
    bad="""
        <rss version="0.91">
          <channel>...</channel>
        </rss>
    """,
    good="""
        <rss version="2.0">
          <channel>...</channel>
        </rss>
    """,
)

NO_ITEMS = rule(
    "FD003",
    "feed-without-items",
    WARNING,
    summary="A feed with no items or entries",
    what="Checks that an RSS feed has at least one `item` and an Atom feed at least one `entry`.",
    why="""
        A feed without items submits no URL at all; it usually means the
        generator found nothing to publish or the feed is filtered too narrowly.
    """,
    bad="""
        <rss version="2.0">
          <channel><title>News</title><link>https://example.com/</link></channel>
        </rss>
    """,
    good="""
        <rss version="2.0">
          <channel>
            <title>News</title><link>https://example.com/</link>
            <item>
              <link>https://example.com/news/launch</link>
              <pubDate>Wed, 08 May 2024 10:00:00 +0000</pubDate>
            </item>
          </channel>
        </rss>
    """,
)

NO_LINK = rule(
    "FD004",
    "item-without-link",
    ERROR,
    summary="An item or entry without a usable link",
    what="""
        Checks that every RSS `item` has a non-empty `link`, and that every Atom
        `entry` has a `link` with `rel="alternate"` (or no `rel`) and an `href`.
        When the unusable link is given more than once, the one finding also
        says what to do with the repeats (FD007 does not report them again).
    """,
    why="""
        The link is the URL a search engine takes from a feed item; without it
        the item submits nothing. An RSS `guid` is not read as the URL, and
        Atom links such as `rel="self"` or `rel="edit"` are not the page.
    """,
    bad="""
        <entry>
          <title>Launch</title>
          <link rel="self" href="https://example.com/feed/launch.atom"/>
          <updated>2024-05-08T10:00:00Z</updated>
        </entry>
    """,
    good="""
        <entry>
          <title>Launch</title>
          <link rel="alternate" href="https://example.com/news/launch"/>
          <updated>2024-05-08T10:00:00Z</updated>
        </entry>
    """,
)

INVALID_DATE = rule(
    "FD005",
    "feed-date-invalid",
    ERROR,
    summary="An item date that is not in the feed format's date form",
    what="""
        Checks RSS `pubDate` against RFC 822 (`Wed, 08 May 2024 10:00:00 +0000`;
        the weekday and seconds are optional, a timezone is required, and a
        weekday must be the date's) and Atom `updated` (Atom 0.3: `modified`)
        against RFC 3339 as Atom writes it (`2024-05-08T10:00:00Z`, with
        seconds, a timezone and an upper-case `T` and `Z`), and that the date
        exists (a numeric timezone offset too: minutes 00 to 59, at most
        ±14:00). The message gives the value in the expected form when it can be
        read otherwise (a W3C date in RSS, an RSS date in Atom, an RSS timezone
        written `+02:00` or `GMT+2`).
    """,
    why="""
        Search engines take the item's date as its last change; a date they
        cannot parse is ignored, and with it the signal that the page changed.
    """,
    bad="<pubDate>2024-05-08T10:00:00Z</pubDate>",
    good="<pubDate>Wed, 08 May 2024 10:00:00 +0000</pubDate>",
)

NO_DATE = rule(
    "FD006",
    "item-without-date",
    WARNING,
    summary="Items or entries without a date",
    what="""
        Detects RSS items without `pubDate` and Atom entries without `updated`
        (Atom 0.3: `modified`); one finding per file, at the first such item,
        with their count.
    """,
    why="""
        Search engines read the date of each item to know which pages changed
        since their last visit; without it they must recrawl to find out. Atom
        1.0 also requires `updated` in every entry.
    """,
    bad="<item><link>https://example.com/news/launch</link></item>",
    good="""
        <item>
          <link>https://example.com/news/launch</link>
          <pubDate>Wed, 08 May 2024 10:00:00 +0000</pubDate>
        </item>
    """,
)

REPEATED_FIELD = rule(
    "FD007",
    "item-field-repeated",
    WARNING,
    summary="An item or entry that gives its link or its date twice",
    what="""
        Detects an RSS `item` with a second `link` or `pubDate`, and an Atom `entry`
        with a second alternate `link` of the same `type` and `hreflang` or a second
        `updated` (Atom 0.3: `modified`), at each repeated element; but for
        the repeats of a link FD004 reports as unusable, which its finding names.
    """,
    why="""
        RSS 2.0 gives an item one link and one date, and Atom forbids two alternate
        links of the same type and language and a second `updated`: a reader takes
        one of them, usually the first, and the other URL or date is lost, or read
        instead of the one meant. It is usually a template that writes a field
        twice, or two items merged into one.
    """,
    bad="""
        <item>
          <link>https://example.com/news/launch</link>
          <link>https://example.com/news/launch-day</link>
          <pubDate>Wed, 08 May 2024 10:00:00 +0000</pubDate>
        </item>
    """,
    good="""
        <item>
          <link>https://example.com/news/launch</link>
          <pubDate>Wed, 08 May 2024 10:00:00 +0000</pubDate>
        </item>
    """,
)

# The family: its title in the rule lists, and its place among the families.
FAMILY = "Feeds"
ORDER = 210

RULES = (
    FEED_AS_SITEMAP,
    UNSUPPORTED_FORMAT,
    NO_ITEMS,
    NO_LINK,
    INVALID_DATE,
    NO_DATE,
    REPEATED_FIELD,
)

ALTERNATE = ("alternate", "http://www.iana.org/assignments/relation/alternate")
_SHOWN = 80


ATOM_NS = "http://www.w3.org/2005/Atom"
ATOM_03_NS = "http://purl.org/atom/ns#"


@check(FEED, emits=(UNSUPPORTED_FORMAT, FEED_AS_SITEMAP), proof=NO_PROOF)
def check_feed_root(feed: FeedStart, file: object, report: Reporter) -> None:
    """FD002 for a feed search engines do not read as a sitemap, else FD001 (a feed
    Yandex does not read), at its root."""
    root = feed.root
    problem = unsupported(root)
    if problem is not None:
        report.add(UNSUPPORTED_FORMAT.at(root.line, root.column, problem))
        return
    report.add(
        FEED_AS_SITEMAP.at(
            root.line,
            root.column,
            f"{feed.title} feed used as a sitemap: Google and Bing read it, "
            "Yandex does not; list the URLs in an XML sitemap for Yandex",
        )
    )


def unsupported(root: Node) -> str | None:
    """Why search engines do not read the feed whose root is ``root`` as a sitemap, and
    what to do (None: they read it)."""
    if root.name == "rss":
        version = root.attrs.get("version")
        if version is not None and version.strip() == "2.0":
            return None
        return _rss_version_message(version)
    if root.name == "feed":
        if root.ns in (ATOM_NS, ATOM_03_NS):
            return None
        where = "has no namespace" if not root.ns else f"is in the namespace {_quoted(root.ns)}"
        return (
            f"<feed> {where}, so it is not an Atom feed search engines read; write "
            f'<feed xmlns="{ATOM_NS}">'
        )
    return (
        "root <rdf:RDF> is an RSS 1.0 or 0.90 feed, which search engines do not read as a "
        "sitemap; publish the feed as RSS 2.0 or Atom 1.0, or list its URLs in an XML sitemap"
    )


def _rss_version_message(version: str | None) -> str:
    if version is None or not version.strip():
        return (
            "<rss> has no version; search engines read only RSS 2.0 feeds as sitemaps: "
            'write <rss version="2.0"> if the feed follows RSS 2.0'
        )
    return (
        f'<rss version="{shown_attribute(_clip(version))}"> is not RSS 2.0, the only RSS '
        "version search engines read as a sitemap; publish the feed as RSS 2.0 "
        '(<rss version="2.0">) or list its URLs in an XML sitemap'
    )


def _quoted(value: str) -> str:
    return repr(_clip(value))


@check(ITEM, emits=(NO_LINK, INVALID_DATE, IN_FUTURE, REPEATED_FIELD), proof=NO_PROOF)
def check_item(item: FeedItem, file: FileContext, report: Reporter) -> None:
    """FD004 for an item without a usable link; FD005 and DT005 for its date; FD007
    for a link or a date given twice (but for the links FD004's finding names)."""
    named = _no_link(item, report) if item.link is None else ()
    _repeated(item, report, named)
    date = item.date
    if date is None:
        return
    if item.date_problem is not None:
        message = f"<{date.name}> {item.date_problem}"
        report.add(INVALID_DATE.at(date.line, date.column, message), date)
        return
    now = file.options.now
    if item.moment is not None and item.moment > now + FUTURE_TOLERANCE:
        report.add(
            IN_FUTURE.at(
                date.line,
                date.column,
                f"<{date.name}> {date.text.strip()} is in the future (now is "
                f"{utc_text(now)}); give the real date of the last change",
            )
        )


def _link_key(item: FeedItem, link: Node) -> tuple[str, ...] | None:
    """What two links of ``item`` share when the second repeats the first (None: a link
    that is not the page's: Atom's self, edit, enclosure...)."""
    if not item.atom:
        return ("link",)
    if not is_alternate(link):
        return None
    attrs = link.attrs
    return ("link", attrs.get("type", "").strip(), attrs.get("hreflang", "").strip())


def _repeated(item: FeedItem, report: Reporter, named: Sequence[Node] = ()) -> None:
    """FD007 at each repeated link or date of ``item``, but for those in ``named``
    (FD004's finding names them)."""
    node = item.node
    seen: dict[tuple[str, ...], Node] = {}
    for each in node.children:
        if each.ns != node.ns:
            continue
        key: tuple[str, ...] | None
        if each.name == "link":
            key = _link_key(item, each)
            if key is None:
                continue
        elif item.date is not None and each.name == item.date.name:
            key = (each.name,)
        else:
            continue
        first = seen.setdefault(key, each)
        if first is not each and not any(each is other for other in named):
            message = _repeated_message(each, first, item.atom)
            report.add(REPEATED_FIELD.at(each.line, each.column, message))


def _repeated_message(again: Node, first: Node, atom: bool) -> str:
    if atom and again.name == "link":
        what = "a second alternate <link> of the same type and language"
    else:
        what = f"a second <{again.name}>"
    kept = "the URL" if again.name == "link" else "the date"
    return (
        f"{what} in this {'entry' if atom else 'item'} (the first at line {first.line}); "
        f"readers keep only one: keep {kept} meant and remove the other"
    )


def _no_link(item: FeedItem, report: Reporter) -> list[Node]:
    """FD004 for ``item``, which has no usable link; when the link it reports is
    repeated, one finding for both defects: the repeats it names (FD007 says nothing
    more of them)."""
    node, message = _atom_no_link(item.node) if item.atom else _rss_no_link(item.node)
    repeats = _repeats_of(item, node)
    if repeats:
        message = _with_repeats(item, message, repeats)
    report.add(NO_LINK.at(node.line, node.column, message), node)
    return repeats


def _repeats_of(item: FeedItem, link: Node) -> list[Node]:
    """The later links of ``item`` that repeat ``link`` (none when ``link`` is the item
    itself or a link in other letter case)."""
    parent = item.node
    if link.name != "link" or link.ns != parent.ns:
        return []
    key = _link_key(item, link)
    if key is None:
        return []
    return [
        each
        for each in parent.children
        if each is not link
        and each.name == "link"
        and each.ns == parent.ns
        and each.line >= link.line
        and _link_key(item, each) == key
    ]


def _with_repeats(item: FeedItem, message: str, repeats: list[Node]) -> str:
    """FD004's ``message`` for the first of several links of one kind, none usable as
    the first: with what to do with the others."""
    usable = next((each for each in repeats if _link_url(item, each)), None)
    if usable is not None:
        problem = message.split(";", 1)[0]
        rest = [each for each in repeats if each is not usable]
        also = f" (and the others at {_lines(rest)})" if rest else ""
        return (
            f"{problem}, and the {item.node.name}'s next <link>, at line {usable.line}, gives "
            f"the URL; readers keep only the first: remove this one{also}"
        )
    links = "<link>" if len(repeats) == 1 else "<link>s"
    return f"{message}, and remove the repeated {links} at {_lines(repeats)}: readers keep only one"


def _link_url(item: FeedItem, link: Node) -> str:
    """The URL ``link`` gives a reader of its feed ('' for none)."""
    if item.atom:
        return link.attrs.get("href", "").strip()
    return link.text.strip()


def _lines(nodes: list[Node]) -> str:
    numbers = [str(each.line) for each in nodes]
    return ("line " if len(numbers) == 1 else "lines ") + joined(numbers)


def _rss_no_link(item: Node) -> tuple[Node, str]:
    """Where to report an RSS item without a usable <link>, and what to say."""
    link = child(item, item.ns, "link")
    if link is not None:
        return link, "<link> of this <item> is empty; write the page's absolute URL in it"
    misspelt = _link_in_other_case(item)
    if misspelt is not None:
        return misspelt, (
            f"<{misspelt.name}> is not <link>: XML names are case-sensitive, so search "
            f"engines find no link in this <item>; write <link>{_clip(misspelt.text.strip())}"
            "</link>"
        )
    guid = child(item, item.ns, "guid")
    if guid is not None and _is_permalink(guid):
        url = guid.text.strip()
        return item, (
            "<item> has no <link>; its <guid> holds a URL but search engines read "
            f"only <link>: add <link>{_clip(url)}</link>"
        )
    return item, (
        "<item> has no <link>, so it gives search engines no URL; add <link> with the "
        "page's absolute URL"
    )


def _atom_no_link(entry: Node) -> tuple[Node, str]:
    """Where to report an Atom entry without a usable alternate <link>, and what to say."""
    links = atom_links(entry)
    alternate = next((link for link in links if is_alternate(link)), None)
    if alternate is None:
        if not links:
            return entry, (
                "<entry> has no <link>, so it gives search engines no URL; add "
                '<link rel="alternate" href="..."> with the page\'s absolute URL'
            )
        rels = ", ".join(sorted({f'rel="{link.attrs["rel"].strip()}"' for link in links}))
        return entry, (
            f"<entry> has no alternate <link> (only {_clip(rels)}), so it gives "
            'search engines no page URL; add <link rel="alternate" href="..."> with '
            "the page's URL"
        )
    text = alternate.text.strip()
    if text:
        return alternate, (
            f"<link> holds its URL as text, but Atom reads it from href; write "
            f'<link href="{shown_attribute(_clip(text))}"/>'
        )
    if "href" in alternate.attrs:
        return alternate, "<link> has an empty href; write the page's absolute URL in it"
    return alternate, '<link> has no href; write href="..." with the page\'s absolute URL'


def _link_in_other_case(item: Node) -> Node | None:
    """A child of an RSS item named like ``link`` in other letter case (``<Link>``)."""
    for each in item.children:
        if each.ns == item.ns and each.name != "link" and each.name.lower() == "link":
            return each
    return None


def child(node: Node, ns: str, name: str) -> Node | None:
    """The first child of ``node`` named ``name`` in the namespace ``ns``."""
    for each in node.children:
        if each.name == name and each.ns == ns:
            return each
    return None


def atom_links(entry: Node) -> list[Node]:
    return [each for each in entry.children if each.name == "link" and each.ns == entry.ns]


def is_alternate(link: Node) -> bool:
    rel = link.attrs.get("rel")
    return rel is None or rel.strip().lower() in ALTERNATE  # relation types ignore case


def _is_permalink(guid: Node) -> bool:
    text = guid.text.strip()
    permalink = guid.attrs.get("isPermaLink", "true").strip().lower() != "false"
    return permalink and text.startswith(("http://", "https://"))


def _clip(value: str) -> str:
    return value if len(value) <= _SHOWN else value[: _SHOWN - 3] + "..."


@check(END, emits=(NO_ITEMS,), proof=NO_PROOF)
def check_item_count(end: FileEnd, file: object, report: Reporter) -> None:
    """FD003 at the root of a feed without items; not when reading stopped before its end."""
    record, root = end.record, end.root
    if not isinstance(record, FeedRecord) or root is None or end.entries or end.cut_short:
        return
    container = "entries" if record.is_atom else "items"
    report.add(
        NO_ITEMS.at(
            root.line,
            root.column,
            f"feed has no {container}, so it submits no URL; add an <{record.item}> "
            "for each page, or do not submit an empty feed",
        )
    )


@check(END, emits=(NO_DATE,), proof=NO_PROOF)
def check_undated_items(end: FileEnd, file: object, report: Reporter) -> None:
    """FD006 at the first item without a date, with their count."""
    record = end.record
    if not isinstance(record, FeedRecord) or record.first_undated is None:
        return
    first = record.first_undated
    if record.undated == 1:
        what = f"<{record.item}> has no <{record.date}>"
    else:
        plural = "entries" if record.is_atom else "items"
        what = (
            f"{record.undated:,} of {end.entries:,} {plural} have no <{record.date}> "
            "(this is the first)"
        )
    report.add(
        NO_DATE.at(
            first.line,
            first.column,
            f"{what}; add the date of the last change to each: search engines use it to know "
            "which pages changed",
        )
    )


# RFC 822 (RFC 2822) date-time: optional weekday, 2- or 4-digit year, optional
# seconds, a numeric or named zone ("UTC" is not RFC 822 but universally read).
_RFC822 = lazy(
    r"(?:(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun),\s*)?\d{1,2}\s+"
    r"(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\s+(?:\d{4}|\d{2})\s+"
    r"\d{2}:\d{2}(?::\d{2})?\s+(?:[+-]\d{4}|UTC?|GMT|[ECMP][SD]T|[A-IK-Z])\Z",
    re.IGNORECASE,
)
# A time followed by a zone name (known to RFC 822 or not).
_NAMED_ZONE = lazy(r"\d{2}:\d{2}(?::\d{2})?\s+([A-Za-z]+)\Z")
# RFC 3339 date-time as Atom requires it: upper-case T and Z, seconds, a zone.
_RFC3339 = lazy(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})\Z")
_LONGEST_DATE = 80
RSS_EXAMPLE = "Wed, 08 May 2024 10:00:00 +0000"
_WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
ATOM_EXAMPLE = "2024-05-08T10:00:00Z"


def read_date(node: Node, atom: bool) -> tuple[datetime | None, str | None]:
    """The moment of an RSS `pubDate` or, with ``atom``, an Atom `updated` (Atom 0.3:
    `modified`), timezone-aware; or what is wrong with it and the fix."""
    value = node.text.strip()
    return _parse_atom(value) if atom else _parse_rss(value)


def _shown(value: str) -> str:
    return repr(value if len(value) <= 60 else value[:57] + "...")


def _parse_rss(value: str) -> tuple[datetime | None, str | None]:
    """The moment of an RFC 822 date, or the problem (what is wrong and the fix)."""
    if not value:
        return None, f"is empty; write the date in RFC 822 form, e.g. {RSS_EXAMPLE}"
    if len(value) <= _LONGEST_DATE and _RFC822.match(value):
        from email.utils import parsedate_to_datetime

        offset = _offset_problem(value, "+0000")
        if offset is not None:
            return None, f"{_shown(value)} {offset}"
        try:
            moment = parsedate_to_datetime(value)
        except (ValueError, OverflowError) as error:
            return None, _not_real(value, _rss_parts(value), error)
        actual = _WEEKDAYS[moment.weekday()]
        if value[3:4] == "," and value[:3].title() != actual[:3]:
            return None, (
                f"{_shown(value)} names the wrong weekday: {moment.day} "
                f"{_MONTHS[moment.month - 1]} {moment.year} is a {actual}; write "
                f"{actual[:3]}{value[3:]}"
            )
        # "-0000" (UTC, local zone unknown) gives a naive datetime.
        return (moment if moment.tzinfo else moment.replace(tzinfo=UTC)), None
    loose = _LOOSE_OFFSET.search(value) if len(value) <= _LONGEST_DATE else None
    if loose is not None:
        rewritten = _rfc822_offset(value, loose)
        if rewritten is not None:
            said = f"{_shown(value)} writes its timezone as {loose.group(1).strip()!r}"
            problem = _parse_rss(rewritten)[1]
            if problem is None:
                return None, f"{said}, which RFC 822 does not read; write {rewritten}"
            return None, f"{said}, which RFC 822 does not read, and {problem}"
    zone = _NAMED_ZONE.search(value) if len(value) <= _LONGEST_DATE else None
    if zone is not None:
        # Read loosely, a zone name RFC 822 does not know gives a naive datetime.
        read = _read_loosely(value)
        if read is not None and read.tzinfo is None:
            east = _ZONE_OFFSETS.get(zone.group(1).upper())
            if east is not None:
                hours, minutes = divmod(abs(east), 60)
                fixed = timezone(timedelta(minutes=east))
                return None, (
                    f"{_shown(value)} names a timezone RFC 822 does not know "
                    f"({zone.group(1)!r}, UTC{'-' if east < 0 else '+'}{hours:02}:{minutes:02}); "
                    f"write {_as_rss(read.replace(tzinfo=fixed))}"
                )
            return None, (
                f"{_shown(value)} names a timezone RFC 822 does not know "
                f"({zone.group(1)!r}); write {_as_rss(read)}"
            )
    return None, _not_in_form(value, "an RFC 822 date", RSS_EXAMPLE, _as_rss)


# Abbreviations of timezones RFC 822 does not name, each used for one offset only (in
# minutes east of UTC): IST, BST, CST in Asia and the like, which stand for several, are
# left out.
_ZONE_OFFSETS = {
    "WET": 0,
    "WEST": 60,
    "CET": 60,
    "CEST": 120,
    "MET": 60,
    "MEST": 120,
    "EET": 120,
    "EEST": 180,
    "MSK": 180,
    "JST": 540,
    "KST": 540,
    "HKT": 480,
    "SGT": 480,
    "AWST": 480,
    "ACST": 570,
    "ACDT": 630,
    "AEST": 600,
    "AEDT": 660,
    "NZST": 720,
    "NZDT": 780,
    "HST": -600,
    "AKST": -540,
    "AKDT": -480,
    "NST": -210,
    "NDT": -150,
}


# A timezone offset RFC 822 does not read: with a colon (+02:00), or after GMT or UTC
# (GMT+2, UTC+05:30, GMT+0200).
_LOOSE_OFFSET = lazy(
    r"\d\s*((?:GMT|UTC?)\s*([+-])(\d{1,2})(?::?(\d\d))?|([+-])(\d\d):(\d\d))\Z", re.I
)


def _rfc822_offset(value: str, loose: re.Match[str]) -> str | None:
    """``value`` with the offset ``loose`` found written as RFC 822 writes it (+0200),
    when the rest is in RFC 822 form; else None."""
    sign, hours, minutes = loose.group(2, 3, 4) if loose.group(2) else loose.group(5, 6, 7)
    rewritten = f"{value[: loose.start(1)].rstrip()} {sign}{int(hours):02}{minutes or '00'}"
    return rewritten if _RFC822.match(rewritten) else None


def _parse_atom(value: str) -> tuple[datetime | None, str | None]:
    """The moment of an RFC 3339 date-time, or the problem (what is wrong and the fix)."""
    if not value:
        return None, f"is empty; write the date in RFC 3339 form, e.g. {ATOM_EXAMPLE}"
    if len(value) <= _LONGEST_DATE and _RFC3339.match(value):
        offset = _offset_problem(value, "Z")
        if offset is not None:
            return None, f"{_shown(value)} {offset}"
        try:
            return datetime.fromisoformat(value), None
        except ValueError as error:
            parts = (value[0:4], value[5:7], value[8:10], value[11:13], value[14:16], value[17:19])
            return None, _not_real(value, tuple(int(part) for part in parts), error)
    if len(value) <= _LONGEST_DATE and _RFC3339.match(value.upper()):
        return None, (
            f"{_shown(value)} writes 't' or 'z' in lower case, which RFC 3339 allows but "
            f"Atom does not; write {value.upper()}"
        )
    return None, _not_in_form(value, "an RFC 3339 date-time", ATOM_EXAMPLE, _as_atom)


def _rss_parts(value: str) -> tuple[int, ...] | None:
    from email.utils import parsedate_tz

    parsed = parsedate_tz(value)
    return None if parsed is None else tuple(parsed[:6])


def _not_real(value: str, parts: tuple[int, ...] | None, error: Exception) -> str:
    """Why a date in its form names no moment (as the date rules say it), and the fix."""
    why = impossible_moment(*parts) if parts is not None and len(parts) == 6 else None
    if why is None or why.startswith("second 60 ("):
        return f"{_shown(value)} is not a real date ({error}); write the real date"
    told = "" if "write" in why else "; write the real date"
    return f"{_shown(value)} is not a real date: {why}{told}"


# A numeric timezone offset at the end of a date: +hhmm (RFC 822) or +hh:mm (RFC 3339).
_OFFSET = lazy(r"[+-](\d{2}):?(\d{2})\Z")
# The largest offset in use (UTC+14:00, Line Islands).
_MAX_OFFSET_MINUTES = 14 * 60


def _offset_problem(value: str, utc: str) -> str | None:
    """What is wrong with the numeric timezone offset ending ``value`` and the fix
    (``utc`` is how the format writes UTC), or None when it is a real offset."""
    found = _OFFSET.search(value)
    if found is None:
        return None
    hours, minutes = int(found.group(1)), int(found.group(2))
    if minutes <= 59 and hours * 60 + minutes <= _MAX_OFFSET_MINUTES:
        return None
    what = (
        f"has minute {found.group(2)}, and minutes run from 00 to 59"
        if minutes > 59
        else "is beyond ±14:00"
    )
    return (
        f"is not a real date: timezone offset {found.group()} {what}; write the real "
        f"offset, or {utc} for UTC"
    )


def _not_in_form(value: str, form: str, example: str, convert: Callable[[datetime], str]) -> str:
    """What is wrong with a date not in ``form``, and the value to write instead."""
    read = _read_loosely(value) if len(value) <= _LONGEST_DATE else None
    if read is None:
        return f"{_shown(value)} is not {form}; write it in that form, e.g. {example}"
    if read.tzinfo is None and ":" in value:
        return f"{_shown(value)} has no timezone; write {convert(read)}"
    return f"{_shown(value)} is not {form}; write {convert(read)}"


def _read_loosely(value: str) -> datetime | None:
    """A date in another common form (ISO 8601, RFC 822 without a zone), naive
    when it has no timezone."""
    try:
        return datetime.fromisoformat(value.upper() if "t" in value or "z" in value else value)
    except ValueError:
        pass
    from email.utils import parsedate_to_datetime

    try:
        return parsedate_to_datetime(value)
    except (ValueError, TypeError, IndexError, OverflowError):
        return None


def _as_rss(moment: datetime) -> str:
    from email.utils import format_datetime

    if moment.tzinfo is not None:
        return format_datetime(moment.replace(microsecond=0))
    text = format_datetime(moment.replace(microsecond=0, tzinfo=UTC))
    return f"{text} if the time is UTC (otherwise its offset, e.g. +0200)"


def _as_atom(moment: datetime) -> str:
    text = moment.replace(tzinfo=None).isoformat(timespec="seconds")
    if moment.tzinfo is None:
        return f"{text}Z if the time is UTC (otherwise its offset, e.g. {text}+02:00)"
    if not moment.utcoffset():
        return f"{text}Z"
    return moment.isoformat(timespec="seconds")

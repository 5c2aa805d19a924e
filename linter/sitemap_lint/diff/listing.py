"""What one file of a side lists, read into compact columns for the comparison.

A sitemap's entries become parallel arrays (the hash of the URL's normal form, the
one ``check``'s duplicate rules compare, so that ``https://Example.com:443`` and
``https://example.com/`` are one page; its lastmod, changefreq and priority) and the
URLs' text as written, compressed,
so that a side of millions of URLs stays a few dozen bytes an entry and the URLs of
the few shown in the report are read back by their place. An index's and a
robots.txt's sitemaps become the file's children, which the set's discovery follows
as ``check`` follows them.

The file is parsed by libxml2 (lxml) with no network, no entity expansion and no DTD:
every valid way of writing a sitemap reads the same. A file that is not well-formed
XML, past a limit of the parser (elements nested over 2,048 levels deep, an entity
expansion past its safety limit), or no sitemap at all (empty, binary, an HTML page, a
feed, a text whose lines are not all absolute http(s) URLs), is named by
``Listing.problem``; the comparison stops on it (exit 2).
"""

from __future__ import annotations

import re
import zlib
from array import array
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cache
from typing import Any

from sitemap_lint.diff.hashing import joined_hashes, url_hash, url_hashes
from sitemap_lint.diff.scan import scan_urlset
from sitemap_lint.domain.identity import ABNORMAL_ESCAPE, normal_url
from sitemap_lint.engine.dispatch import InputChecks
from sitemap_lint.engine.results import FileResult
from sitemap_lint.engine.sink import FindingList
from sitemap_lint.inputs.reader import READ_CAP, ByteStream, Source
from sitemap_lint.sets.facts import Child, FileFacts

SITEMAP_NS = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
XHTML_LINK = "{http://www.w3.org/1999/xhtml}link"
CHANGEFREQS = ("always", "hourly", "daily", "weekly", "monthly", "yearly", "never")
NO_LASTMOD = -(1 << 62)  # an entry without a lastmod (or with one that is not a date)
NO_PRIORITY = -1  # priorities are kept in thousandths
UTF8_BOM = b"\xef\xbb\xbf"


@dataclass(eq=False)
class Listing:
    """One file's entries as columns, in the file's order."""

    kind: str = ""  # urlset, sitemapindex, text, robots; '' when none of these
    problem: str | None = None  # why the file is no sitemap that can be read
    hashes: array[int] = field(default_factory=lambda: array("Q"))  # of the normal_url
    lastmods: array[int] = field(default_factory=lambda: array("q"))  # UTC seconds
    changefreqs: array[int] = field(default_factory=lambda: array("B"))  # 1 + index; 0 none
    priorities: array[int] = field(default_factory=lambda: array("h"))  # thousandths
    urls: bytes = b""  # the URLs joined by newlines, zlib-compressed
    children: list[str] = field(default_factory=list)  # sitemaps listed (index, robots.txt)
    # hreflang alternates: the entry that gives one, and the hash of the URL it names
    alternate_pages: array[int] = field(default_factory=lambda: array("I"))
    alternate_hrefs: array[int] = field(default_factory=lambda: array("Q"))
    count: int = 0  # entries (the columns' length, also once they are stored elsewhere)
    stored: int = -1  # where a side's column store keeps the columns (-1: here)

    def __len__(self) -> int:
        return self.count

    def url_text(self) -> list[str]:
        """Every URL of the file, in its order (read back from the compressed text)."""
        return (
            zlib.decompress(self.urls).decode("utf-8", "surrogatepass").split("\n")
            if self.urls
            else []
        )


def read_listing(source: Source) -> tuple[FileResult, Listing]:
    """The file's listing, with the result the set's discovery reads (its kind and the
    sitemaps it lists)."""
    findings = FindingList()
    stream = ByteStream(source, InputChecks(findings))
    data = b"".join(stream.chunks())
    if stream.stopped_early and data:  # the read stopped at READ_CAP: the rest is unread
        uncompressed = " uncompressed" if stream.is_gzip else ""
        listing = Listing(
            problem=f"larger than {READ_CAP:,} bytes{uncompressed}, more than is read:"
            " its URLs past that cannot be compared"
        )
    else:
        listing = listing_of(data)
    facts = FileFacts(
        kind=listing.kind,
        url_count=len(listing) if listing.kind in ("urlset", "text") else 0,
        children=[Child(url, 1, 1) for url in listing.children],
    )
    return FileResult(source.name, findings, facts), listing


def listing_of(data: bytes) -> Listing:
    """The listing of a file's uncompressed bytes; a file that is no sitemap (empty,
    binary, a page, a text whose lines are not all URLs) gets a ``problem``."""
    start = data[:4096].removeprefix(UTF8_BOM).lstrip()[:1]
    if start == b"<" or data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return _xml_listing(data)
    data = data.removeprefix(UTF8_BOM)  # as a robots.txt may start (RFC 9309)
    if not data.strip():
        return Listing(problem="an empty file, not a sitemap")
    text = _utf8_text(data)
    if text is None:
        return Listing(problem="binary data (not UTF-8 text), not a sitemap")
    if _looks_like_robots(text):
        return Listing(kind="robots", children=_robots_sitemaps(text))
    return _text_listing(text)


def _utf8_text(data: bytes) -> str | None:
    """The file as UTF-8 text; None for binary data (a NUL byte, or not UTF-8)."""
    if b"\0" in data:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


# A line of a text sitemap: an absolute http(s) URL with a host, and nothing else.
_TEXT_URL = re.compile(r"https?://[^\s/?#\"'<>`]+[^\s\"'<>`]*", re.IGNORECASE)
SHOWN_LINE = 60  # characters of a line that is not a URL named in the problem


def _text_listing(text: str) -> Listing:
    """A text sitemap: one absolute URL a line (blank lines aside); a line that is not
    one makes the file no text sitemap, as a tag out of place makes XML malformed."""
    urls = []
    for number, line in enumerate(text.splitlines(), 1):
        url = line.strip()
        if not url:
            continue
        if not _TEXT_URL.fullmatch(url):
            return Listing(
                problem=f"line {number} is not an absolute http(s) URL "
                f"({url[:SHOWN_LINE]!r}): not a text sitemap"
            )
        urls.append(url)
    listing = Listing(kind="text")
    _fill(listing, urls, [None] * len(urls), [None] * len(urls), [None] * len(urls))
    return listing


_AT_POSITION = re.compile(r", line \d+, column \d+$")


def _xml_listing(data: bytes) -> Listing:
    fields = scan_urlset(data)
    if fields is not None:
        listing = Listing(kind="urlset")
        _fill(listing, *fields)
        return listing
    from lxml import etree

    parser = etree.XMLParser(
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        # The file is within READ_CAP; libxml2's smaller limits on one text node, an
        # attribute and the depth (which ``check`` does not have) would stop it early.
        # Its entity amplification limit holds all the same.
        huge_tree=True,
        remove_comments=True,
        remove_pis=True,
        collect_ids=False,
    )
    parser.resolvers.add(_loading_nothing()())
    try:
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError as error:
        line, column = getattr(error, "position", None) or (getattr(error, "lineno", 0), 0)
        message = str(error.msg if hasattr(error, "msg") else error).split("\n", 1)[0]
        # libxml2 ends its message with the position, which the problem says first.
        message = _AT_POSITION.sub("", message)
        where = f"line {line}, column {column}" if column else f"line {line}"
        if error.code == etree.ErrorTypes.ERR_RESOURCE_LIMIT:
            return Listing(problem=f"past a limit of the XML parser ({where}: {_limit(message)})")
        return Listing(problem=f"not well-formed XML ({where}: {message})")
    qualified = etree.QName(root)
    name = qualified.localname
    problem = _root_problem(qualified.namespace, name)
    if problem is not None:
        return Listing(kind=name, problem=problem)
    if name == "sitemapindex":
        return Listing(
            kind="sitemapindex",
            children=[loc for loc, *_rest in _entries(root, SITEMAP_NS + "sitemap")],
        )
    listing = Listing(kind="urlset")
    columns = _columns(root)
    if columns is None or _has_alternates(root):
        entries = list(_entries(root, SITEMAP_NS + "url", listing))
        columns = ([entry[i] for entry in entries] for i in range(4))  # type: ignore[assignment]
    _fill(listing, *columns)  # type: ignore[misc]
    return listing


_TOO_DEEP = re.compile(r"Excessive depth in document: (\d+)")
_HUGE_HINT = re.compile(r",? (?:try|use) XML_PARSE_HUGE(?: option)?")


def _limit(message: str) -> str:
    """libxml2's message for a limit it met, as the checks say it."""
    deep = _TOO_DEEP.match(message)
    if deep is not None:
        return f"elements nested more than {int(deep.group(1)):,} levels deep"
    if message.startswith("Maximum entity amplification factor exceeded"):
        return "an entity expansion past the parser's safety limit (billion laughs)"
    return _HUGE_HINT.sub("", message)


@cache
def _loading_nothing() -> type[Any]:
    from lxml import etree

    class NothingLoaded(etree.Resolver):
        """Answers every external DTD or entity a document names with an empty one: the
        parser reads no file and no URL a file names (without it, libxml2 reads a
        DOCTYPE's external subset when ``collect_ids`` is off, a FIFO there blocking)."""

        def resolve(self, url: str | None, public_id: str | None, context: object) -> Any:
            return self.resolve_string("", context)

    return NothingLoaded


def _root_problem(namespace: str | None, name: str) -> str | None:
    """Why a root element makes the file no sitemap (an HTML page, a feed, a urlset
    outside the sitemap namespace, whose entries cannot be read); None for a sitemap."""
    if name not in ("urlset", "sitemapindex"):
        return f"the root element is <{name}>, not <urlset> or <sitemapindex>: not a sitemap"
    if namespace != SITEMAP_NS[1:-1]:
        return f"<{name}> is not in the sitemap namespace {SITEMAP_NS[1:-1]}"
    return None


_FIELDS = ("loc", "lastmod", "changefreq", "priority")


@cache
def _column_paths() -> dict[str, Any]:
    from lxml import etree

    namespaces = {"s": SITEMAP_NS[1:-1], "x": XHTML_LINK[1:].split("}")[0]}

    def xpath(expression: str) -> Any:
        return etree.XPath(expression, namespaces=namespaces, smart_strings=False)

    paths = {"entries": xpath("count(s:url)"), "children": xpath("count(*)")}
    paths["alternates"] = xpath("boolean(s:url/x:link)")
    for name in _FIELDS:
        paths[name] = xpath(f"s:url/s:{name}/text()")
        paths[f"{name} elements"] = xpath(f"count(s:url/s:{name})")
        paths[f"{name} twice"] = xpath(f"count(s:url/s:{name}[2])")
    return paths


def _has_alternates(root: Any) -> bool:
    return bool(_column_paths()["alternates"](root))


def _columns(root: Any) -> tuple[list[str | None], ...] | None:
    """Each field of every entry as a column, taken in C by one path each, when the
    columns line up with the entries (every entry has at most one of each field, and
    every field element one text): else None, and the entries are walked one by one."""
    paths = _column_paths()
    entries = int(paths["entries"](root))
    if entries != int(paths["children"](root)):
        return None
    columns: list[list[str | None]] = []
    for name in _FIELDS:
        elements = int(paths[f"{name} elements"](root))
        if not elements and name != "loc":
            columns.append([None] * entries)
            continue
        texts = paths[name](root)
        if elements != entries or len(texts) != entries or paths[f"{name} twice"](root):
            return None
        columns.append([text.strip() for text in texts] if name == "loc" else texts)
    return tuple(columns)


def _entries(
    root: object, tag: str, listing: Listing | None = None
) -> Iterator[tuple[str, str | None, str | None, str | None]]:
    """(loc, lastmod, changefreq, priority) of each entry; an url's hreflang alternates
    go to ``listing``."""
    loc_tag, lastmod_tag = SITEMAP_NS + "loc", SITEMAP_NS + "lastmod"
    changefreq_tag, priority_tag = SITEMAP_NS + "changefreq", SITEMAP_NS + "priority"
    for index, entry in enumerate(root.iterchildren(tag)):  # type: ignore[attr-defined]
        loc = lastmod = changefreq = priority = None
        for child in entry:
            name = child.tag
            if name == loc_tag:
                loc = child.text
            elif name == lastmod_tag:
                lastmod = child.text
            elif name == changefreq_tag:
                changefreq = child.text
            elif name == priority_tag:
                priority = child.text
            elif name == XHTML_LINK and listing is not None:
                href = (child.get("href") or "").strip()
                if href and child.get("rel") == "alternate":
                    listing.alternate_pages.append(index)
                    listing.alternate_hrefs.append(url_hash(normal_url(href)))
        yield (loc or "").strip(), lastmod, changefreq, priority


def _fill(
    listing: Listing,
    urls: list[str],
    lastmods: list[str | None],
    changefreqs: list[str | None],
    priorities: list[str | None],
) -> None:
    """The listing's columns from the entries' fields (one list a field, in order). An
    entry with an empty ``loc`` lists no URL (``check`` reports it): it is left out."""
    if "" in urls:
        kept = [number for number, url in enumerate(urls) if url]
        if listing.alternate_pages:
            renumbered = {old: new for new, old in enumerate(kept)}
            pairs = [
                (renumbered[page], href)
                for page, href in zip(listing.alternate_pages, listing.alternate_hrefs, strict=True)
                if page in renumbered
            ]
            listing.alternate_pages = array("I", [page for page, _href in pairs])
            listing.alternate_hrefs = array("Q", [href for _page, href in pairs])
        urls = [urls[number] for number in kept]
        lastmods = [lastmods[number] for number in kept]
        changefreqs = [changefreqs[number] for number in kept]
        priorities = [priorities[number] for number in kept]
    listing.count = len(urls)
    joined = "\n".join(urls)
    if joined.count("\n") >= len(urls):
        # A URL holding a line break (inside its loc) keeps it as its normal form writes
        # it, "%0A", so that the text holds one URL a line, as it is read back.
        joined = "\n".join(url.replace("\n", "%0A") for url in urls)
    text = joined.encode("utf-8", "surrogatepass")
    hashes = joined_hashes(normal_joined(text, len(urls)), len(urls)) if urls else None
    listing.hashes = hashes or url_hashes([normal_url(url) for url in urls])
    listing.lastmods = array("q", _each(_seconds, lastmods))
    listing.changefreqs = array("B", _each(_changefreq, changefreqs))
    listing.priorities = array("h", _each(_priority, priorities))
    listing.urls = zlib.compress(text, 1)


# A URL its normal form (``normal_url``) leaves as it is, told by its start: a lower-case
# http(s) scheme, then a host of lower-case ASCII letters, digits and the other
# characters lower-casing keeps (no port, no user), and the path's ``/``. Found at each
# line of a file's URLs joined by line breaks: the first by ``_NORMAL_START``, the others
# after the ``\n`` that ``_NOT_NORMAL`` looks for (a literal first, which the search
# skips to in C).
_HOST = rb"[a-z0-9._~!$&'()*+,;=%-]+"
_NORMAL_START = re.compile(rb"https?://" + _HOST + rb"/")
_NOT_NORMAL = re.compile(rb"\n(?!https?://" + _HOST + rb"/)")
# What ``normal_url`` rewrites after the origin: a percent-escape with a lower-case hex
# digit, or of an unreserved character (a letter, a digit, "-", ".", "_" or "~"),
# characters outside ASCII (an IRI's, percent-encoded) and dot-segments.
_ODD_ESCAPE = re.compile(ABNORMAL_ESCAPE.pattern.encode())
_NOT_ASCII = re.compile(rb"[\x80-\xff]+")
# A "." or ".." segment (in a path, or in a query where it changes nothing).
_DOT_SEGMENT = re.compile(rb"/\.\.?(?=[/?#\n]|\Z)")


def normal_joined(joined: bytes, count: int) -> bytes:
    """``count`` URLs joined by line breaks (UTF-8), each in its normal form
    (``normal_url``: the form ``check``'s DU001 and SE001 compare). The URLs of nearly
    every file are in that form already, on one origin: when the first is, each of the
    others starts with its origin (one count of a byte string) and none holds what
    ``normal_url`` rewrites after the origin (``_ODD_ESCAPE``, ``_NOT_ASCII``,
    ``_DOT_SEGMENT``), the text is returned as it is; else only the URLs that
    ``_NOT_NORMAL`` finds, and those lines, are made normal."""
    first = _NORMAL_START.match(joined)
    # What else needs a look: bytes.isascii and the search (for "%" first) run at memory
    # speed, and most files have neither.
    odd = [_NOT_ASCII] if not joined.isascii() else []
    if b"%" in joined and _ODD_ESCAPE.search(joined) is not None:
        odd.append(_ODD_ESCAPE)
    if b"/." in joined and _DOT_SEGMENT.search(joined) is not None:
        odd.append(_DOT_SEGMENT)
    if first is not None and not odd and joined.count(b"\n" + first.group(0)) == count - 1:
        return joined
    starts = [found.end() for found in _NOT_NORMAL.finditer(joined)]
    if first is None:
        starts.insert(0, 0)
    if odd:
        # The lines that hold such text too, each once, in the text's order.
        for pattern in odd:
            for found in pattern.finditer(joined):
                starts.append(joined.rfind(b"\n", 0, found.start()) + 1)
        starts = sorted(set(starts))
    if not starts:
        return joined
    parts: list[bytes] = []
    done = 0
    for start in starts:
        end = joined.find(b"\n", start)
        end = len(joined) if end < 0 else end
        url = joined[start:end].decode("utf-8", "surrogatepass")
        parts += [joined[done:start], normal_url(url).encode("utf-8", "surrogatepass")]
        done = end
    parts.append(joined[done:])
    return b"".join(parts)


def _each(convert: Callable[[str | None], int], values: list[str | None]) -> Iterator[int]:
    """``convert`` of each of ``values``, called once a distinct value (a file's lastmods,
    changefreqs and priorities take few)."""
    converted = {value: convert(value) for value in set(values)}
    return map(converted.__getitem__, values)


_MOMENTS: dict[str, int] = {}
# A date, or a date and time, as W3C Datetime writes them (the date rules report a
# time without a zone, but read it, as UTC here; and a year or a month alone, which the
# schema refuses, DT003, read as its first day).
_W3C_MOMENT = re.compile(
    r"\d{4}(?:-\d{2}(?:-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})?)?)?)?",
    re.ASCII,
)
_FIRST_DAY = {4: "-01-01", 7: "-01"}  # a year's, a month's


def _seconds(value: str | None) -> int:
    """A lastmod as UTC seconds (a date alone is its midnight UTC, a year or a month
    alone its first day's); NO_LASTMOD when none or not a W3C date."""
    if value is None:
        return NO_LASTMOD
    text = value.strip()
    known = _MOMENTS.get(text)
    if known is not None:
        return known
    try:
        if not _W3C_MOMENT.fullmatch(text):  # ISO 8601's other forms: 20250501, 2025-W18
            raise ValueError(text)
        moment = datetime.fromisoformat(text.replace("Z", "+00:00") + _FIRST_DAY.get(len(text), ""))
    except ValueError:
        seconds = NO_LASTMOD
    else:
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=UTC)
        seconds = int(moment.timestamp())
    if len(_MOMENTS) < 100_000:
        _MOMENTS[text] = seconds
    return seconds


def _changefreq(value: str | None) -> int:
    """1 + the value's place in CHANGEFREQS, whatever its case (``Daily`` is ``daily``,
    as ``check --fix`` writes it); 0 for none, past the list for another word."""
    if value is None:
        return 0
    try:
        return 1 + CHANGEFREQS.index(value.strip().lower())
    except ValueError:
        return len(CHANGEFREQS) + 1


def _priority(value: str | None) -> int:
    if value is None:
        return NO_PRIORITY
    try:
        number = float(value.strip())
    except ValueError:
        return NO_PRIORITY
    return round(number * 1000) if 0 <= number <= 1 else NO_PRIORITY


def _looks_like_robots(text: str) -> bool:
    """Whether the text is a robots.txt by its first lines, as the check tells
    (``domain.robotstxt.looks_like_robots``): a URL list with a stray `Sitemap:` line is
    a text sitemap."""
    from sitemap_lint.domain.robotstxt import looks_like_robots

    return looks_like_robots(text)


def _robots_sitemaps(text: str) -> list[str]:
    """The sitemaps a robots.txt lists, as the check follows them: each Sitemap line's
    URL without the comment after it, when it is an absolute http(s) URL and the only
    one on its line."""
    from sitemap_lint.domain.robotstxt import lists_two_urls, sitemap_line
    from sitemap_lint.rules.robots import looks_absolute

    sitemaps = []
    for line in text.splitlines():
        match = sitemap_line(line)
        value = match.group(2) if match is not None else ""
        if looks_absolute(value) and not lists_two_urls(value):
            sitemaps.append(value)
    return sitemaps


# A URL: the origin (scheme "://" authority, "" when it has none), then path, query and
# fragment; matched over the URLs of a file joined by line breaks.
ORIGIN_AND_REST = re.compile(r"^((?:[A-Za-z][A-Za-z0-9+.-]*://[^/?#\n]*)?)(.*)$", re.M)

"""What a page states about itself: noindex, canonical, hreflang alternates and its
modification time, read from its response headers and the start of its HTML.

Pure and cheap: no I/O, nothing reported, no HTML parser over the page. A small
scanner walks the head: it finds the start tags that matter (``meta``, ``link``,
``base``, ``script``), reads their attributes in any order and quoting (only where
they may say something), skips comments and the raw text of ``script``, ``style`` and
``title`` (a tag written inside them is not a tag), and stops at the end of the head:
the first element the head may not hold (``<body``, ``<img``, ``<iframe``,
``<div``...), where Google stops reading the head too, or after ``</head>`` the first
one an HTML parser would not put in the head there (a ``meta``, ``link`` or ``script``
between ``</head>`` and ``<body>`` is still the head's, in a browser and in Google's
rendering); such an element inside ``noscript`` or ``template`` ends nothing, and
what a ``template`` holds is no part of the page (its content is an inert fragment).
An attribute value whose quote never closes runs to the end of the text, as in a
browser, so the scan ends there: its cost stays linear in the text.
"""

from __future__ import annotations

import html
import html.entities
import json
import re
from collections.abc import Iterable, Iterator, Mapping
from datetime import UTC, datetime, timedelta, timezone
from email.utils import parsedate_to_datetime
from functools import cache
from typing import Any
from urllib.parse import urljoin

from sitemap_lint.domain.identity import normal_url
from sitemap_lint.domain.moments import calendar_moment
from sitemap_lint.domain.urls import utf8_escapes
from sitemap_lint.live.model import PageSignals

__all__ = [
    "earliest_moment",
    "head_end",
    "latest_moment",
    "normal_for_compare",
    "parse_http_date",
    "parse_page_date",
    "read_signals",
]

Headers = Mapping[str, str] | Iterable[tuple[str, str]]

# The scanner: a comment, the end of the head, the end of a ``noscript`` or
# ``template``, or a start tag (group 1, its name whole) with its attributes up to its
# ">" (group 2: quoted values read whole; possessive, so no backtracking). Group 2 is
# None when a quote never closes.
_TOKEN = re.compile(
    r"<!--|</head[\s/>]|</(?:noscript|template)[\s/>]|<([A-Za-z][^\s/<>]*+)(?=[\s/>])"
    r"(?:((?:[^>\"']++|\"[^\"]*+\"|'[^']*+')*+)>)?",
    re.IGNORECASE,
)
# The elements a head may hold (with the document's own start tags); any other ends it
# (Google: "Use valid HTML to specify page metadata").
_HEAD_ELEMENTS = frozenset(
    {"meta", "link", "base", "script", "style", "title", "noscript", "template", "html", "head"}
)
# The elements an HTML parser still puts in the head after its end tag, before the body
# starts (the "after head" insertion mode): a ``</head>`` ends the head only at the
# next other element.
_AFTER_HEAD = frozenset({"meta", "link", "base", "script", "style", "title", "template", "head"})
# Elements whose content is no part of the head's own elements: an element the head
# may not hold ends nothing there (a tracking pixel's <noscript><img></noscript>).
_CONTAINERS = frozenset({"noscript", "template"})
# Raw text runs to the element's end tag: a tag written in it is not a tag.
_RAW_TEXT_END = {
    name: re.compile(rf"</{name}[\s/>]", re.IGNORECASE) for name in ("script", "style", "title")
}
# Words one of a tag's attributes must hold for the tag to say anything (its attributes
# are read only then; a character reference could hide them, so "&" reads them too).
_TELLING = {
    name: re.compile(words, re.IGNORECASE)
    for name, words in (
        ("meta", "robots|googlebot|modified_time|updated_time|refresh|&"),
        ("link", "canonical|alternate|&"),
        ("script", "ld\\+json|&"),
        ("base", ""),
    )
}
_ATTRIBUTE = re.compile(
    r"([^\s\"'>/=]+)(?:\s*=\s*(?:\"([^\"]*)\"|'([^']*)'|([^\s>]+)))?",
)
_SPACE = re.compile(r"[\s,]+")
_REFERENCE = re.compile(r"&(?:#[0-9]+;?|#[xX][0-9A-Fa-f]+;?|[A-Za-z][A-Za-z0-9]*;?)")

# X-Robots-Tag: directives that take a value after a colon (not a user agent).
_VALUED_DIRECTIVES = frozenset(
    {"unavailable_after", "max-snippet", "max-image-preview", "max-video-preview"}
)
_AGENT_PREFIX = re.compile(r"\s*([A-Za-z][\w.-]*)\s*:\s*(.*)", re.DOTALL)
_NOINDEX = frozenset({"noindex", "none"})
_GOOGLE = "googlebot"

# A Link header (RFC 8288): <target>; param=value; param="quoted", <target2>; ...
_LINK_TARGET = re.compile(r"[\s,]*<([^>]*)>")
_LINK_PARAM = re.compile(
    r"\s*;\s*([^\s;,=]+)\s*(?:=\s*(?:\"((?:[^\"\\]|\\.)*)\"|([^\s;,]*)))?", re.DOTALL
)
_QUOTED_PAIR = re.compile(r"\\(.)", re.DOTALL)
_TAB_OR_NEWLINE = re.compile(r"[\t\n\r]+")

# HTTP dates (RFC 9110 section 5.6.7): IMF-fixdate, the obsolete RFC 850 and asctime forms.
_MONTHS = {
    name: number
    for number, name in enumerate(
        ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"), 1
    )
}
_IMF_FIXDATE = re.compile(
    r"[A-Za-z]{3},\s*(\d{1,2})[\s-]([A-Za-z]{3})[\s-](\d{4})\s+(\d\d):(\d\d):(\d\d)\s*(?:GMT|UTC|Z)",
    re.IGNORECASE,
)
_RFC850 = re.compile(
    r"[A-Za-z]{6,9},\s*(\d{1,2})-([A-Za-z]{3})-(\d\d)\s+(\d\d):(\d\d):(\d\d)\s*GMT", re.IGNORECASE
)
_ASCTIME = re.compile(
    r"[A-Za-z]{3}\s+([A-Za-z]{3})\s+(\d{1,2})\s+(\d\d):(\d\d):(\d\d)\s+(\d{4})", re.IGNORECASE
)
# W3C Datetime (and the ISO 8601 forms pages write): a year, month, day, time, fraction, zone.
_W3C = re.compile(
    r"(\d{4})(?:-(\d\d)(?:-(\d\d)(?:[Tt ](\d\d):(\d\d)(?::(\d\d)(?:[.,](\d+))?)?"
    r"\s*([Zz]|[+-]\d\d(?::?\d\d)?)?)?)?)?"
)

# Where a modification time was read (PageSignals.modified_source).
LAST_MODIFIED = "Last-Modified"
JSON_LD = "JSON-LD dateModified"
ARTICLE = "article:modified_time"
OPEN_GRAPH = "og:updated_time"
# Where noindex was said and where the canonical was read.
ROBOTS_HEADER = "X-Robots-Tag"
META_ROBOTS = "meta robots"
META_GOOGLEBOT = "meta googlebot"
LINK_HEADER = "Link header"
LINK_ELEMENT = "link element"

# Encoded as browsers send a URL: spaces and controls (``normal_url`` encodes what is
# outside ASCII). Not the scope's path set (``domain.urls.normal_escapes``): a whole
# URL's "?", "#" and "[" are its own.
_UNSENT = re.compile(r"[\x00-\x20\x7f]+")


def read_signals(url: str, headers: Headers, head: str) -> PageSignals:
    """What the page at ``url`` (the final URL, after redirects) states in its response
    ``headers`` (a mapping, a multi-mapping such as aiohttp's, or (name, value) pairs)
    and the start of its HTML ``head`` (decoded text, bounded by the caller)."""
    signals = PageSignals()
    moments: list[tuple[datetime, str]] = []
    canonicals: list[tuple[str, str]] = []
    expiries: list[tuple[datetime, str]] = []  # unavailable_after, where it was said
    dates: list[str] = []  # the Date headers, read only when a moment is compared
    for name, value in _header_pairs(headers):
        lower = name.lower()
        if lower == "date":
            dates.append(value)
        elif lower == "x-robots-tag":
            noindex, expiry = _robots_header(value)
            if noindex and signals.noindex is None:
                signals.noindex = ROBOTS_HEADER
            if expiry is not None:
                expiries.append((expiry, ROBOTS_HEADER))
        elif lower == "link":
            _read_link_header(url, value, signals, canonicals)
        elif lower == "last-modified" and not any(s == LAST_MODIFIED for _, s in moments):
            moment = parse_http_date(value)
            if moment is not None:
                moments.append((moment, LAST_MODIFIED))
    if head:
        _read_head(url, head, signals, moments, canonicals, expiries)
    answered = _answered(dates) if moments or expiries else None
    if signals.noindex is None and answered is not None:
        # Out of the results once that moment has passed: as noindex, when it answered.
        for expiry, source in expiries:
            if latest_moment(expiry) < answered:
                signals.noindex = f"{source} unavailable_after {_moment_text(expiry)}"
                break
    # Several canonicals that name different URLs: Google ignores them all.
    if len(canonicals) == 1 or (
        canonicals and len({normal_for_compare(canonical) for canonical, _ in canonicals}) == 1
    ):
        signals.canonical, signals.canonical_source = canonicals[0]
    if answered is not None:
        # A page that says it changed as it was answered, or later, says nothing (a
        # server that stamps each answer with the time; a clock ahead).
        moments = [pair for pair in moments if earliest_moment(pair[0]) < answered]
    if any(source != LAST_MODIFIED for _, source in moments):
        # The page states when its content changed: Last-Modified, the time its bytes
        # changed (a static site's build, a deploy, a comment, a template), is not that.
        moments = [pair for pair in moments if pair[1] != LAST_MODIFIED]
    if moments:
        # The newest; at equal moments the first source named (header, JSON-LD, meta).
        newest = max(moments, key=lambda pair: earliest_moment(pair[0]))
        signals.modified, signals.modified_source = newest
    return signals


def _answered(dates: list[str]) -> datetime | None:
    """When the page was answered: its first valid Date header's time."""
    for value in dates:
        moment = parse_http_date(value)
        if moment is not None:
            return moment
    return None


def _header_pairs(headers: Headers) -> Iterator[tuple[str, str]]:
    # A multi-mapping's items() gives every value of a repeated header.
    pairs = headers.items() if isinstance(headers, Mapping) else headers
    for name, value in pairs:
        yield str(name), str(value)


# -- X-Robots-Tag -------------------------------------------------------------------


def _robots_header(value: str) -> tuple[bool, datetime | None]:
    """Whether one X-Robots-Tag value says noindex to Googlebot, and the first
    unavailable_after it gives Googlebot: directives with no user agent before them,
    or after ``googlebot:`` (a prefix holds until the next one)."""
    agent: str | None = None
    noindex = False
    expiry: datetime | None = None
    parts = value.split(",")
    for index, part in enumerate(parts):
        directive = part.strip()
        match = _AGENT_PREFIX.fullmatch(directive)
        if match is not None and match.group(1).lower() not in _VALUED_DIRECTIVES:
            agent = match.group(1).lower()
            directive = match.group(2).strip()
        if agent is not None and agent != _GOOGLE:
            continue
        if directive.lower() in _NOINDEX:
            noindex = True
        elif expiry is None:
            expiry = _unavailable_after(directive, parts[index + 1 : index + 2])
    return noindex, expiry


def _unavailable_after(directive: str, following: list[str]) -> datetime | None:
    """The moment of an ``unavailable_after: DATE`` directive (RFC 822, RFC 850 or ISO
    8601; a date that starts with a weekday and a comma goes on in ``following``), or
    None when it is another directive or names no date."""
    name, colon, value = directive.partition(":")
    if not colon or name.strip().lower() != "unavailable_after":
        return None
    value = value.strip()
    if value.isalpha() and following:
        value = f"{value}, {following[0].strip()}"
    return parse_page_date(value) or parse_http_date(value)


def _moment_text(moment: datetime) -> str:
    if moment.tzinfo is None:
        return moment.isoformat()
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _meta_noindex(content: str) -> bool:
    return any(token.lower() in _NOINDEX for token in _SPACE.split(content))


# -- Link headers ---------------------------------------------------------------------


def _read_link_header(
    url: str, value: str, signals: PageSignals, canonicals: list[tuple[str, str]]
) -> None:
    for target, params in _links(value):
        rels = params.get("rel", "").lower().split()
        if "canonical" in rels and target.strip():
            canonical = _absolute(url, target.strip())
            if canonical is not None:
                canonicals.append((canonical, LINK_HEADER))
        hreflang = params.get("hreflang", "").strip()
        if "alternate" in rels and hreflang and target.strip():
            alternate = _absolute(url, target.strip())
            if alternate is not None:
                signals.alternates += ((hreflang, alternate),)


def _links(value: str) -> Iterator[tuple[str, dict[str, str]]]:
    """The links of one Link header value: target and parameters (names lower case;
    the first of a repeated name kept, as RFC 8288 says)."""
    at = 0
    while True:
        target = _LINK_TARGET.match(value, at)
        if target is None:
            return
        at = target.end()
        params: dict[str, str] = {}
        while (param := _LINK_PARAM.match(value, at)) is not None:
            at = param.end()
            name, quoted, bare = param.groups()
            text = _QUOTED_PAIR.sub(r"\1", quoted) if quoted is not None else bare or ""
            params.setdefault(name.lower(), text)
        yield target.group(1), params
        # Anything up to the next link is not understood: skipped.
        comma = value.find(",", at)
        if comma < 0:
            return
        at = comma


# -- the head --------------------------------------------------------------------------


def _read_head(
    url: str,
    head: str,
    signals: PageSignals,
    moments: list[tuple[datetime, str]],
    canonicals: list[tuple[str, str]],
    expiries: list[tuple[datetime, str]],
) -> None:
    base: str | None = None
    canonical_hrefs: list[str] = []
    alternates: list[tuple[str, str]] = []
    json_moments: list[datetime] = []
    articles: list[tuple[datetime, str]] = []  # article:modified_time, og:updated_time
    refreshes: list[str | None] = []  # each meta refresh's URL (None: the page itself)
    for name, text, start, end, containers in _head_tags(head):
        if containers.inert:  # a template's content is no part of the page
            continue
        if name == "script":
            if _tells(name, text) and _is_json_ld(_attributes(text)):
                json_moments.extend(_json_ld_moments(head[start:end]))
        elif name not in _TELLING or not _tells(name, text):
            continue
        elif name == "meta":
            attributes = _attributes(text)
            if attributes.get("http-equiv", "").strip().lower() == "refresh":
                refreshes.append(_refresh_url(attributes.get("content")))
            else:
                _read_meta(attributes, signals, articles, expiries)
        elif name == "link":
            attributes = _attributes(text)
            href = attributes.get("href", "").strip()
            if not href:
                continue
            rels = attributes.get("rel", "").lower().split()
            if "canonical" in rels:
                canonical_hrefs.append(href)
            hreflang = attributes.get("hreflang", "").strip()
            if "alternate" in rels and hreflang:
                alternates.append((hreflang, href))
        elif base is None:  # <base>: the first with an href counts
            href = _attributes(text).get("href", "").strip()
            if href:
                base = _absolute(url, href) or url
    base = base or url
    # The first refresh a browser can read is the one it schedules; later ones are ignored.
    first = next((href for href in refreshes if href != _NO_REFRESH), None)
    if first is not None:
        target = _absolute(base, first)
        if target is not None and normal_for_compare(target) != normal_for_compare(url):
            signals.refresh = target
    canonicals.extend(
        (canonical, LINK_ELEMENT)
        for canonical in (_absolute(base, href) for href in canonical_hrefs)
        if canonical is not None
    )
    if alternates:
        signals.alternates += tuple(
            (lang, alternate)
            for lang, alternate in ((lang, _absolute(base, href)) for lang, href in alternates)
            if alternate is not None
        )
    moments.extend((moment, JSON_LD) for moment in json_moments)
    moments.extend(articles)


def head_metas(head: str) -> Iterator[dict[str, str]]:
    """The attributes of each ``<meta>`` the head of ``head`` holds, read as
    ``read_signals`` reads the head: not in a comment, in raw text (a script, a style, a
    title) or in a noscript or template element."""
    for name, text, _start, _end, containers in _head_tags(head):
        if name == "meta" and not containers.open:
            yield _attributes(text)


class _Containers:
    """The noscript and template elements open around a tag of the head, innermost
    last (True: a template). An end tag closes the innermost, whichever it names, as
    ``head_end`` counts them."""

    __slots__ = ("_templates",)

    def __init__(self) -> None:
        self._templates: list[bool] = []

    @property
    def open(self) -> int:
        """How many are open."""
        return len(self._templates)

    @property
    def inert(self) -> bool:
        """Whether a template is open: its content is a fragment no browser makes part
        of the page (nor Google's rendering), so what it says is said by no page."""
        return any(self._templates)

    def enter(self, name: str) -> None:
        self._templates.append(name == "template")

    def leave(self) -> None:
        if self._templates:
            self._templates.pop()


def _head_tags(head: str) -> Iterator[tuple[str, str, int, int, _Containers]]:
    """The start tags of the head of ``head`` (the start of a page), as ``read_signals``
    reads it: each element's name in lower case, its attributes' text, where its raw text
    starts and ends (a script's, a style's, a title's; the same place for the others),
    and the noscript and template elements open around it (the one ``_Containers``,
    as it stands when the tag is given). The head ends at the first element it may not
    hold (after its end tag, at the first one an HTML parser would not put in it there),
    or a quote that never closes."""
    at = 0
    containers = _Containers()
    after_head = False
    search = _TOKEN.search
    while (token := search(head, at)) is not None:
        at = token.end()
        name = token.group(1)
        if name is None:
            if token.group().startswith("<!"):
                end = head.find("-->", at)
                if end < 0:
                    return
                at = end + 3
                continue
            if _closes_container(token):
                containers.leave()
                continue
            after_head = True  # </head>: what an HTML parser still puts in the head follows
            continue
        text = token.group(2)
        if text is None:
            return  # a quote that never closes: the rest of the text is its value
        name = name.lower()
        if after_head and name not in _AFTER_HEAD and not containers.open:
            return  # the end of the head, after its end tag
        if name not in _HEAD_ELEMENTS:
            if containers.open and name != "body":
                continue
            return  # an element the head may not hold: the end of the head
        if name in _CONTAINERS:
            containers.enter(name)
            continue
        start = at
        raw_end = _RAW_TEXT_END.get(name)
        if raw_end is not None:
            found = raw_end.search(head, at)
            at = len(head) if found is None else found.start()
        yield name, text, start, at, containers


# The most characters of a token the scanner may find cut at the end of a text so far
# (a longer tag name cut there is missed: the head is read on, and then read whole).
_LONGEST_CUT = 64


def head_end(text: str, at: int = 0) -> tuple[bool, int]:
    """Whether the head of ``text`` (the start of a page, more of it to come) has ended
    as ``read_signals`` reads it, scanning from ``at``; and, when it has not, where to
    scan again once more text has come (never inside a comment, a tag, raw text or a
    noscript or template element, so a head read in pieces ends where it ends read
    whole; never past the head's end tag, once met: a scan resumed there, at
    ``</head``, tells the head closed)."""
    search = _TOKEN.search
    containers = 0
    first_open: int | None = None  # where the outermost container still open starts
    head_closed: int | None = None  # where the head's end tag starts, once met

    def resume(where: int) -> tuple[bool, int]:
        # never past the head's end tag: what follows it is read in its light again
        for since in (first_open, head_closed):
            if since is not None:
                where = min(since, where)
        return False, where

    while (token := search(text, at)) is not None:
        name = token.group(1)
        if name is None:
            if token.group().startswith("<!"):
                end = text.find("-->", token.end())
                if end < 0:
                    return resume(token.start())
                at = end + 3
                continue
            if not _closes_container(token):
                if head_closed is None:
                    head_closed = token.start()
                at = token.end()
                continue
            containers = max(containers - 1, 0)
            if not containers:
                first_open = None
            at = token.end()
            continue
        if token.group(2) is None:
            return resume(token.start())
        name = name.lower()
        if head_closed is not None and name not in _AFTER_HEAD and not containers:
            return True, token.start()
        if name not in _HEAD_ELEMENTS:
            if not containers or name == "body":
                return True, token.start()
            at = token.end()
            continue
        if name in _CONTAINERS:
            if not containers:
                first_open = token.start()
            containers += 1
        raw_end = _RAW_TEXT_END.get(name)
        if raw_end is None:
            at = token.end()
            continue
        found = raw_end.search(text, token.end())
        if found is None:
            return resume(token.start())
        at = found.start()
    return resume(max(at, len(text) - _LONGEST_CUT))


def _closes_container(token: re.Match[str]) -> bool:
    return token.group()[2:4].lower() != "he"  # </noscript or </template, not </head


def _attributes(text: str) -> dict[str, str]:
    """A start tag's attributes: names lower case, values with their character
    references decoded; the first of a repeated name kept, as HTML does."""
    attributes: dict[str, str] = {}
    for name, double, single, bare in _ATTRIBUTE.findall(text):
        value = double or single or bare
        if "&" in value:
            value = _REFERENCE.sub(_decode_reference, value)
        attributes.setdefault(name.lower(), value)
    return attributes


def _decode_reference(match: re.Match[str]) -> str:
    """A character reference in an attribute value, decoded as HTML decodes it there:
    a named one without its ";" only when it is whole and no "=" follows (so a query
    such as ``&section=news`` stays as written)."""
    reference = match.group()
    if reference[1] == "#":
        return html.unescape(reference)
    decoded = html.entities.html5.get(reference[1:])
    if decoded is None or (
        not reference.endswith(";") and match.string[match.end() : match.end() + 1] == "="
    ):
        return reference
    return decoded


def _tells(name: str, text: str) -> bool:
    return _TELLING[name].search(text) is not None


def _absolute(base: str, href: str) -> str | None:
    """``href`` resolved against ``base``, without the tabs and newlines a URL parser
    removes wherever they stand, or None where it is no URL; an absolute http(s) URL
    without dot segments, backslashes or brackets is its own resolution, and one from the root is joined to ``base``'s
    origin (the usual cases, made cheap)."""
    if "\t" in href or "\n" in href or "\r" in href:
        href = _TAB_OR_NEWLINE.sub("", href)
    if "/." in href or "\\" in href or "[" in href or "]" in href:
        return _joined(base, href)
    if href.startswith(("https://", "http://")):
        return href
    if _FROM_ROOT.match(href) is not None:
        origin = _ORIGIN.match(base)  # a path from the root keeps the scheme and authority
        if origin is not None and "[" not in origin.group() and "]" not in origin.group():
            return origin.group() + href
    return _joined(base, href)


def _joined(base: str, href: str) -> str | None:
    """``href`` resolved against ``base``; None for what is no URL (an authority's
    bracket that never closes), which a browser leaves unresolved and ignores."""
    try:
        return urljoin(base, href)
    except ValueError:
        return None


_ORIGIN = re.compile(r"https?://[^/?#]*")
# A path from the root that a join keeps as written: no empty parameters, query or
# fragment to drop (urljoin drops a bare ";", "?" or "#").
_FROM_ROOT = re.compile(r"/(?!/)[^;?#]*(?:\?[^;?#]+)?(?:#[^;]+)?\Z")


# The meta properties that state when the page changed (Open Graph's).
_META_TIMES = {ARTICLE: ARTICLE, OPEN_GRAPH: OPEN_GRAPH}


def _read_meta(
    attributes: dict[str, str],
    signals: PageSignals,
    articles: list[tuple[datetime, str]],
    expiries: list[tuple[datetime, str]],
) -> None:
    """Note what a ``meta`` element says (an article:modified_time or og:updated_time
    in ``articles``, with its source; an unavailable_after in ``expiries``)."""
    content = attributes.get("content")
    if content is None:
        return
    name = attributes.get("name", "").strip().lower()
    if name in ("robots", _GOOGLE):
        source = META_ROBOTS if name == "robots" else META_GOOGLEBOT
        if signals.noindex is None and _meta_noindex(content):
            signals.noindex = source
        parts = content.split(",")
        for index, part in enumerate(parts):
            expiry = _unavailable_after(part.strip(), parts[index + 1 : index + 2])
            if expiry is not None:
                expiries.append((expiry, source))
                break
    elif (said := _META_TIMES.get(attributes.get("property", "").strip().lower())) is not None:
        moment = parse_page_date(content)
        if moment is not None:
            articles.append((moment, said))


# A meta refresh's content as browsers read it (HTML's "shared declarative refresh
# steps"): a time (digits, dots), then, after a ";", a "," or a space, an optional
# "url=" and the URL, up to its closing quote when it opens with one.
_REFRESH = re.compile(
    r"[\t\n\f\r ]*(\d+|(?=\.))[\d.]*(?:[;,\t\n\f\r ][\t\n\f\r ]*[;,]?[\t\n\f\r ]*(.*))?\Z",
    re.DOTALL,
)
# The longest delay of a refresh that moves the page ("you are redirected in 5
# seconds"); a longer one (a session's end, a news page reloaded with a query) does not:
# Google reads an instant refresh as a permanent redirect, a delayed one as weaker.
_REFRESH_DELAY = 10
_REFRESH_URL = re.compile(r"[Uu][Rr][Ll][\t\n\f\r ]*=[\t\n\f\r ]*")
# What a meta refresh that cannot be read stands for in the list (a browser skips it).
_NO_REFRESH = ""


def _refresh_url(content: str | None) -> str | None:
    """The URL a meta refresh's ``content`` sends to: None when it reloads the page
    itself or waits more than ``_REFRESH_DELAY`` seconds, ``_NO_REFRESH`` when a
    browser cannot read it (then the next one counts)."""
    match = _REFRESH.match(content or "")
    if match is None:
        return _NO_REFRESH
    if int(match.group(1) or "0") > _REFRESH_DELAY:
        return None
    rest = match.group(2) or ""
    named = _REFRESH_URL.match(rest)
    if named is not None:
        rest = rest[named.end() :]
    if rest[:1] in ("'", '"'):
        rest = rest[1:].split(rest[0], 1)[0]
    rest = rest.strip(" \t\n\r\f\x00")
    return rest or None


def _is_json_ld(attributes: dict[str, str]) -> bool:
    kind = attributes.get("type", "").split(";", 1)[0].strip().lower()
    return kind == "application/ld+json"


def _json_ld_moments(text: str) -> list[datetime]:
    """The ``dateModified`` of the JSON-LD objects in a script that speak of the page
    (``_json_ld_objects``; raw control characters in its strings allowed). Bad JSON says
    nothing."""
    text = text.strip()
    if text.startswith("<!--"):  # an old habit: the script's text in a comment
        text = text[4:].removesuffix("-->").strip()
    try:
        data = json.loads(text, strict=False)
    except (ValueError, RecursionError):
        return []
    moments: list[datetime] = []
    for item in _json_ld_objects(data):
        value = item.get("dateModified")
        if isinstance(value, list) and value:
            value = value[0]
        if isinstance(value, dict):
            value = value.get("@value")
        if isinstance(value, str):
            moment = parse_page_date(value)
            if moment is not None:
                moments.append(moment)
    return moments


def _json_ld_objects(data: Any) -> Iterator[dict[str, Any]]:
    """The objects that speak of the page: the top-level object or array's objects, the
    members of their ``@graph``, and the ``mainEntity`` of each (a WebPage's article is
    the page's content); no other nested object (an ``isPartOf`` site, a publisher, a
    review), whose dates are their own."""
    for item in _dicts(data):
        graph = item.get("@graph")
        for member in (item, *_dicts(graph)) if graph is not None else (item,):
            yield member
            main = member.get("mainEntity")
            if main is not None:
                yield from _dicts(main)


def _dicts(data: Any) -> list[dict[str, Any]]:
    """``data``'s objects: itself when it is one, the objects of a list."""
    if isinstance(data, dict):
        return [data]
    if isinstance(data, list):
        return [item for item in data if isinstance(item, dict)]
    return []


# -- dates -------------------------------------------------------------------------------


def parse_http_date(text: str) -> datetime | None:
    """An HTTP-date (RFC 9110: IMF-fixdate, RFC 850 or asctime form) as an aware UTC
    datetime; other RFC 5322 dates (with a numeric zone) are accepted too; None when
    the text is not a date. A two-digit year under 70 is read as 20xx, else as 19xx."""
    text = text.strip()
    try:
        match = _IMF_FIXDATE.fullmatch(text)
        if match is not None:
            day, month, year, hour, minute, second = match.groups()
            return _utc(year, month, day, hour, minute, second)
        match = _RFC850.fullmatch(text)
        if match is not None:
            day, month, short, hour, minute, second = match.groups()
            year = str(int(short) + (2000 if int(short) < 70 else 1900))
            return _utc(year, month, day, hour, minute, second)
        match = _ASCTIME.fullmatch(text)
        if match is not None:
            month, day, hour, minute, second, year = match.groups()
            return _utc(year, month, day, hour, minute, second)
    except (ValueError, KeyError):
        return None
    return _loose_http_date(text)


def _utc(year: str, month: str, day: str, hour: str, minute: str, second: str) -> datetime:
    return datetime(
        int(year), _MONTHS[month.lower()], int(day), int(hour), int(minute), int(second), tzinfo=UTC
    )


def _loose_http_date(text: str) -> datetime | None:
    if not text or len(text) > 64:
        return None
    try:
        moment = parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError, OverflowError):
        return None
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def parse_page_date(text: str) -> datetime | None:
    """A date as pages write it (W3C Datetime / ISO 8601: a year, a month, a day, a time
    with or without seconds and fraction, a zone ``Z`` or ``+hh:mm``) as an aware
    datetime, or a naive one when it names no zone (a date alone names none): such a
    moment may be in any zone (see ``earliest_moment``). None when it is not such a date."""
    match = _W3C.fullmatch(text.strip())
    if match is None:
        return None
    parts = match.groups()
    fraction, zone = parts[6:]
    try:
        offset = _zone(zone)
    except ValueError:  # (an offset beyond a day)
        return None
    microsecond = int((fraction or "0")[:6].ljust(6, "0"))
    return calendar_moment(parts[:6], offset, microsecond)


# The zones in use on Earth run from -12:00 to +14:00.
_EASTMOST = timezone(timedelta(hours=14))
_WESTMOST = timezone(-timedelta(hours=12))


def earliest_moment(moment: datetime) -> datetime:
    """``moment`` if it is aware; for a naive one (a time written without a zone), the
    earliest moment it can be: its wall time in the eastmost zone."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=_EASTMOST)


def latest_moment(moment: datetime) -> datetime:
    """``moment`` if it is aware; for a naive one, its wall time in the westmost zone."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=_WESTMOST)


@cache
def _zone(zone: str | None) -> timezone | None:
    if zone is None:
        return None
    if zone in ("Z", "z"):
        return UTC
    digits = zone[1:].replace(":", "")
    hours, minutes = int(digits[:2]), int(digits[2:] or "0")
    if hours > 23 or minutes > 59:
        raise ValueError(zone)
    offset = timedelta(hours=hours, minutes=minutes)
    return timezone(-offset if zone[0] == "-" else offset)


# -- URLs --------------------------------------------------------------------------------


def normal_for_compare(url: str) -> str:
    """``url`` as two URLs are compared to tell whether they name the same page:
    ``domain.identity.normal_url`` (the scheme and host in lower case, no default port,
    an IRI as its URI, escapes in normal form, dot segments resolved, as a browser
    does before it asks), spaces and controls percent-encoded, and no fragment."""
    url = url.strip()
    hash_at = url.find("#")
    if hash_at >= 0:
        url = url[:hash_at]
    if _UNSENT.search(url):
        url = _UNSENT.sub(_escape_utf8, url)
    return normal_url(url)


def _escape_utf8(match: re.Match[str]) -> str:
    return utf8_escapes(match.group())

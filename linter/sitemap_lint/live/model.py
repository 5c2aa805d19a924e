"""The records the live audit's steps pass to each other, with the little behaviour
they share: the words of an answer's redirect chain (its findings' and the reports'),
and the element pointer of a listed URL (``TargetPointer``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from sitemap_lint.model import EntryPointer
from sitemap_lint.support.records import Frozen, NamedTuple

# What a listed URL is, by the element that lists it.
PAGE = "page"  # urlset/url/loc
CHILD = "child"  # sitemapindex/sitemap/loc
IMAGE = "image"  # image:image/image:loc
VIDEO_CONTENT = "video-content"  # video:content_loc
VIDEO_PLAYER = "video-player"  # video:player_loc
VIDEO_THUMBNAIL = "video-thumbnail"  # video:thumbnail_loc
ALTERNATE = "alternate"  # xhtml:link rel="alternate" href
KINDS = (PAGE, CHILD, IMAGE, VIDEO_CONTENT, VIDEO_PLAYER, VIDEO_THUMBNAIL, ALTERNATE)
MEDIA_KINDS = frozenset({IMAGE, VIDEO_CONTENT, VIDEO_THUMBNAIL})
# Requested as pages (GET, the head read); the others with HEAD.
GET_KINDS = frozenset({PAGE, ALTERNATE})


@dataclass(init=False, repr=False, eq=False)
class Target(Frozen):
    """One URL as a file lists it: where its element starts (the ``loc``/``link``
    start tag, 1-based line and column, as the static findings give them), and for a
    page its entry's lastmod as written and its ``xhtml:link`` alternates
    ((hreflang, href) pairs, in the file's order). ``written`` says how the URL stands
    in the text, for a fix that rewrites it: ``TEXT``, the whole text of the element at
    the position; ``SPAN``, the URL itself from the position on (a text sitemap's
    line); ``ATTRIBUTE``, the ``href`` of the element (an Atom link). ``element``
    names the element once a finding needs its pointer (``TargetPointer.path``; 0: no
    pointer): an int, not a string, while the targets wait for their answers."""

    url: str
    kind: str
    line: int
    column: int
    lastmod: str | None = None
    alternates: tuple[tuple[str, str], ...] = ()
    written: str = "text"
    element: int = field(default=0, compare=False, repr=False)

    def __init__(
        self,
        url: str,
        kind: str,
        line: int,
        column: int,
        lastmod: str | None = None,
        alternates: tuple[tuple[str, str], ...] = (),
        written: str = "text",
        element: int = 0,
    ) -> None:
        setattr_ = object.__setattr__
        setattr_(self, "url", url)
        setattr_(self, "kind", kind)
        setattr_(self, "line", line)
        setattr_(self, "column", column)
        setattr_(self, "lastmod", lastmod)
        setattr_(self, "alternates", alternates)
        setattr_(self, "written", written)
        setattr_(self, "element", element)


class TargetPointer(NamedTuple):
    """How one file's live findings name their targets' elements, as ``engine.checker``
    names them (the document's prefixes, 1-based indexes): ``head``, the path up to an
    entry's index (``/urlset/url[``), and for each kind of target the step of its box
    ("" for none) and of its element (``("image", "image:image", "image:loc")``). A
    target's ``element`` is numbered as ``model.EntryPointer`` reads it
    (``model.element_number``)."""

    head: str
    steps: tuple[tuple[str, str, str], ...]

    def path(self, kind: str, element: int) -> str | None:
        """The pointer to the element of a target of ``kind`` numbered ``element``."""
        found = next((step for step in self.steps if step[0] == kind), None)
        if found is None:
            return None
        _kind, box, name = found
        return EntryPointer(self.head, "").element(element, name, box)

    def of(self, target: Target) -> str | None:
        """The pointer to ``target``'s element (None: it names none)."""
        return self.path(target.kind, target.element) if target.element else None


# How a target's URL stands in the text (Target.written).
TEXT = "text"
SPAN = "span"
ATTRIBUTE = "attribute"


# Why a request got no answer (Answer.error).
DNS = "dns"
CONNECT = "connect"
TLS = "tls"
TIMEOUT = "timeout"
STALLED = "stalled"  # the status and headers came, then the body stopped past the timeout
REFUSED = "refused"  # the guard refused the address (private, loopback, ...)
PROTOCOL = "protocol"  # not valid HTTP, a header too large, a body that breaks
SCHEME = "scheme"  # neither http nor https
TOO_LARGE = "too-large"  # a decoded head past the bound (a compression bomb)
INVALID_URL = "invalid-url"  # a URL no request can be made for (nothing was sent)
BAD_PORT = "bad-port"  # a port of another protocol, the Fetch standard's (nothing was sent)


@dataclass
class Hop:
    """One response of a redirect chain: the URL asked and its status and Location."""

    url: str
    status: int
    location: str | None = None


@dataclass
class PageSignals:
    """What a page states about itself, read from its headers and the start of its
    HTML (up to the end of its head or the bound). Every field is None / empty when the
    page says nothing; ``noindex`` names where it was said (e.g. "X-Robots-Tag",
    "meta robots", "meta googlebot"; an unavailable_after past when the page answered
    names its moment too: "X-Robots-Tag unavailable_after 2010-06-25T23:00:00Z")."""

    noindex: str | None = None
    canonical: str | None = None  # absolute, resolved against the final URL
    canonical_source: str | None = None  # "Link header" or "link element"
    alternates: tuple[tuple[str, str], ...] = ()  # (hreflang, absolute href)
    modified: datetime | None = None  # the newest the page states, else Last-Modified
    modified_source: str | None = None  # "Last-Modified", "JSON-LD dateModified", ...
    # The URL a <meta http-equiv="refresh"> sends the page to (absolute; not one that
    # reloads the page itself): a redirect, as Google follows it.
    refresh: str | None = None


@dataclass
class Answer:
    """The outcome of requesting one URL (redirects followed, each hop checked).

    ``status`` is the final response's (None when no response: then ``error`` says
    why and ``detail`` gives the one-line reason). ``chain`` holds the redirect hops
    before the final response; ``final_url`` the URL that gave it. ``content_type`` is
    the media type without parameters, lower case. ``elapsed`` is seconds from the
    first byte sent to the final answer. ``from_cache`` is True when a conditional
    request was answered 304 and the cached answer reused, or when the cached answer was
    still fresh (``fresh``: then no request was made). ``loop`` is True when the
    chain came back to a URL it had visited (``loop_to``, which the cache does not keep:
    it gives back only answers reached without redirects); ``too_many_hops`` when it
    was cut."""

    url: str
    status: int | None = None
    final_url: str | None = None
    chain: list[Hop] = field(default_factory=list)
    content_type: str | None = None
    signals: PageSignals | None = None
    error: str | None = None
    detail: str | None = None
    elapsed: float = 0.0
    attempts: int = 1
    sent: int = 0  # requests sent for it (retries and redirects included; robots.txt not)
    loop: bool = False
    loop_to: str | None = None
    too_many_hops: bool = False
    from_cache: bool = False
    etag: str | None = None
    last_modified: str | None = None
    robots_disallowed: bool = False  # the host's robots.txt disallows it for Google's crawler
    robots_agent: str = "Googlebot"  # that crawler (Googlebot-Image for an image, ...)
    # The host's robots.txt answered a server error or could not be fetched: what it did
    # ("answers 503", "could not be fetched"); "" when it was read or answered 4xx.
    robots_unreachable: str = ""
    # Until when (seconds since the epoch) the answer is fresh, as its response's
    # Cache-Control max-age or Expires said (RFC 9111, section 4.2); None: stale at once.
    fresh_until: float | None = None
    fresh: bool = False  # given from the cache without a request: it was still fresh
    # Its response said Cache-Control: no-store: never stored (RFC 9111, section 5.2.2.5).
    no_store: bool = False
    # Not requested: its host's robots.txt Crawl-delay (``crawl_delay`` seconds) times the
    # host's URLs before it is past the run's crawl budget (--live-crawl-budget).
    over_budget: bool = False
    crawl_delay: float = 0.0

    def hops(self, error: bool = True) -> list[str]:
        """The redirect chain as the findings and the reports write it: ``url status``
        for each hop, then the final URL with its status (or, with ``error``, what went
        wrong: the findings say that in words of their own), and for a loop the URL it
        comes back to (not requested again)."""
        hops = [f"{hop.url} {hop.status}" for hop in self.chain]
        ending = self.status or (self.error if error else None) or ""
        last = f"{self.final_url or ''} {ending}".strip()
        if last:
            hops.append(last)
        if self.loop and self.loop_to:
            hops.append(self.loop_to)
        return hops


@dataclass(frozen=True)
class BudgetCut:
    """A host whose robots.txt ``Crawl-delay`` (``delay`` seconds) made the run's crawl
    budget (``budget`` seconds) cut its URLs short: ``requested`` of its ``total`` URLs
    to request were (the first in the run's order), and ``url`` is the first that was
    not (its first listing is where LV016 stands). ``host`` is its origin
    (``robots.origin``)."""

    host: str
    delay: float
    budget: float
    requested: int
    total: int
    url: str

    @property
    def seconds(self) -> float:
        """The seconds of Crawl-delay that requesting every one would have taken."""
        return self.delay * (self.total - 1)

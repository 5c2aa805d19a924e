"""RSS 2.0 and Atom 0.3/1.0 feeds used as sitemaps.

``is_feed`` recognises a feed by its root element; the ``FileChecker`` then
hands each child of the root to a ``FeedChecker`` instead of the sitemap rules
and the schema. A search engine reads a feed as a list of URLs: each RSS item's
``link`` (Atom: the entry's alternate ``link href``) with its date (RSS
``pubDate``, Atom ``updated``, Atom 0.3 ``modified``). Those are what is checked,
with the sitemap's URL, scope, duplicate and limit rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import urljoin, urlsplit

from sitemap_lint.domain.urls import ParsedURL
from sitemap_lint.engine.dispatch import calls, once
from sitemap_lint.model import XML_NS, Node
from sitemap_lint.rules import feed, limits, scope, urls
from sitemap_lint.rules.duplicates import DuplicateTracker
from sitemap_lint.rules.entry import FileContext
from sitemap_lint.rules.events import FeedItem, FeedRecord, FeedStart, FileEnd
from sitemap_lint.rules.feed import ATOM_03_NS, ATOM_NS
from sitemap_lint.rules.registry import END, FEED, ITEM
from sitemap_lint.rules.structure import Reporter
from sitemap_lint.sets.facts import FileFacts
from sitemap_lint.support.records import Frozen

if TYPE_CHECKING:
    from sitemap_lint.rules.events import Replacements
    from sitemap_lint.settings.options import Options

RDF_NS = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
XML_BASE = f"{XML_NS}}}base"  # as the reader keys an attribute in a namespace


@dataclass(init=False, repr=False, eq=False)
class FeedFormat(Frozen):
    """What a feed's root says about where its URLs and dates are."""

    title: str  # for messages: "RSS 2.0", "Atom 1.0"
    kind: str  # FileFacts.kind
    ns: str  # the namespace of the items and of their fields
    item: str  # "item" or "entry"
    date: str  # "pubDate", "updated" or "modified"

    def __init__(self, title: str, kind: str, ns: str, item: str, date: str) -> None:
        setattr_ = object.__setattr__
        setattr_(self, "title", title)
        setattr_(self, "kind", kind)
        setattr_(self, "ns", ns)
        setattr_(self, "item", item)
        setattr_(self, "date", date)

    @property
    def is_atom(self) -> bool:
        return self.kind == "atom"


def is_feed(root: Node) -> bool:
    """True for the roots of RSS and Atom feeds, supported or not (RSS 1.0 included)."""
    if root.name == "rss":
        return True
    if root.name == "feed":
        return root.ns in (ATOM_NS, ATOM_03_NS, "") or "atom" in root.ns.lower()
    return root.name == "RDF" and root.ns == RDF_NS


def _recognise(root: Node) -> FeedFormat | None:
    """Where the feed's URLs and dates are (None: an RSS 1.0 feed, whose items are not
    read)."""
    if root.name == "rss":
        return FeedFormat("RSS 2.0", "rss", root.ns, "item", "pubDate")
    if root.name == "feed":
        if root.ns == ATOM_NS:
            return FeedFormat("Atom 1.0", "atom", ATOM_NS, "entry", "updated")
        if root.ns == ATOM_03_NS:
            return FeedFormat("Atom 0.3", "atom", ATOM_03_NS, "entry", "modified")
        return FeedFormat("Atom", "atom", root.ns, "entry", "updated")
    return None


class FeedChecker:
    """Checks the items or entries of one feed as the parser hands them over."""

    def __init__(
        self,
        root: Node,
        options: Options,
        report: Reporter,
        facts: FileFacts | None,
        replacements: Replacements | None = None,
    ) -> None:
        self.root = root
        self.options = options
        self.report = report
        self.facts = facts
        form = _recognise(root)
        self.kind = form.kind if form is not None else ""  # FileFacts.kind
        self.url_count = 0  # items with a link
        if facts is not None:
            facts.kind = self.kind
        # The items of a feed search engines do not read are checked once it is readable.
        self.format = form if feed.unsupported(root) is None else None
        item = form.item if form is not None else ""
        self.file = FileContext(options, self.kind, item, replacements=replacements)
        title = self.format.title if self.format is not None else ""
        once(FEED, FeedStart(root, title), self.file, report, options.enabled)
        self.count = 0
        self.over_limit: Node | None = None
        self.undated = 0
        self.first_undated: Node | None = None
        self.duplicates = DuplicateTracker()
        served = options.sitemap_url
        self.base = _within(root, served.origin + served.path if served is not None else "")
        self.robots, self.scope = scope.for_file(options)
        self.item_checks = calls(ITEM, options.enabled)  # the checks of each item

    # -- the FileChecker's calls ---------------------------------------------------

    def on_entry(self, entry: Node) -> None:
        """A child of the root: an RSS channel (or a stray item), or an Atom element."""
        form = self.format
        if form is None or entry.ns != form.ns:
            return
        if entry.name == form.item:
            self._check_item(entry)
        elif entry.name == "channel" and not form.is_atom:
            for child in entry.children:
                if child.name == "item" and child.ns == form.ns:
                    self._check_item(child)

    def finish(self) -> None:
        form = self.format
        if form is None:
            return
        node = self.over_limit
        past_limit = None if node is None else (node.line, node.column)
        record = FeedRecord(form.item, form.date, self.undated, self.first_undated)
        end = FileEnd(self.kind, self.root, self.count, past_limit, self._cut_short(), record)
        once(END, end, self.file, self.report, self.options.enabled)
        mixed = self.scope.finish()
        if mixed is not None:
            self.report.add(mixed)

    def _cut_short(self) -> bool:
        """True when the file ended early (a syntax error, too large): its items were not seen."""
        parser = getattr(self.report, "parser", None)
        stream = getattr(self.report, "stream", None)
        return bool(getattr(parser, "failed", False) or getattr(stream, "stopped_early", False))

    # -- one item or entry ---------------------------------------------------------

    def _check_item(self, item: Node) -> None:
        self.count += 1
        if self.count == limits.MAX_ENTRIES + 1:
            self.over_limit = item
        form = self.format
        assert form is not None  # items are checked only in a readable feed
        link, url = _atom_link(item) if form.is_atom else _rss_link(item)
        if link is not None:
            self.url_count += 1
            base = _within(link, _within(item, self.base)) if form.is_atom else ""
            self._check_url(url, link, base)
        date = feed.child(item, form.ns, form.date)
        moment = problem = None
        if date is None:
            self.undated += 1
            if self.first_undated is None:
                self.first_undated = item
        else:
            moment, problem = feed.read_date(date, form.is_atom)
        if self.item_checks:
            event = FeedItem(item, form.is_atom, link, url, date, moment, problem)
            for call in self.item_checks:
                call(event, self.file, self.report)
        if self.facts is not None:
            if moment is not None:
                self.facts.add_lastmod(moment)
            if link is not None:
                self.facts.add_url(url.strip(), link.line, link.column)

    def _check_url(self, value: str, link: Node, base: str) -> None:
        """``base``: the base URI in scope at an Atom link (XML Base), for UR001's words
        on a relative one: the URL a feed reader resolves it to."""
        assert self.format is not None  # items are checked only in a readable feed
        field = "link href" if self.format.is_atom else "link"
        parsed = urls.check_url(
            value,
            link,
            self.report,
            field,
            replacements=self.file.replacements,
            base=_parsed_base(base) or self.options.sitemap_url,
        )
        urls.check_escaped_twice(link, self.report)
        url = value.strip()
        if parsed is not None:
            self.scope.check(parsed, link, self.report)
            if self.robots is not None:
                self.robots.check(url, parsed, link, self.report)
        self.duplicates.check(url, link, self.report, "URL")


def _within(node: Node, base: str) -> str:
    """The base URI in scope inside ``node``: its ``xml:base`` resolved against ``base``,
    the one in scope around it."""
    value = node.attrs.get(XML_BASE)
    return base if value is None else urljoin(base, value.strip())


def _parsed_base(base: str) -> ParsedURL | None:
    """An absolute http(s) base URI as the URL rules take it, else None."""
    try:
        parts = urlsplit(base)
        port = parts.port
    except ValueError:
        return None
    host = (parts.hostname or "").rstrip(".")
    if parts.scheme not in ("http", "https") or not host:
        return None
    default = 443 if parts.scheme == "https" else 80
    return ParsedURL(parts.scheme, host, port or default, parts.path or "/")


def _rss_link(item: Node) -> tuple[Node | None, str]:
    """An RSS item's <link> and its URL; (None, '') when it has no usable one."""
    link = feed.child(item, item.ns, "link")
    if link is not None and link.text.strip():
        return link, link.text
    return None, ""


def _atom_link(entry: Node) -> tuple[Node | None, str]:
    """An Atom entry's alternate <link> and its href; (None, '') when it has no usable
    one."""
    alternate = next((link for link in feed.atom_links(entry) if feed.is_alternate(link)), None)
    href = alternate.attrs.get("href") if alternate is not None else None
    if href is not None and href.strip():
        return alternate, href
    return None, ""

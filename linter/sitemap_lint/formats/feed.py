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
from datetime import datetime
from typing import TYPE_CHECKING

from sitemap_lint.engine.dispatch import once
from sitemap_lint.finding import Finding
from sitemap_lint.model import Node
from sitemap_lint.rules import feed, limits, scope, urls
from sitemap_lint.rules.duplicates import DuplicateTracker
from sitemap_lint.rules.entry import FileContext
from sitemap_lint.rules.events import FileEnd
from sitemap_lint.rules.registry import END
from sitemap_lint.rules.structure import Reporter
from sitemap_lint.sets.facts import FileFacts
from sitemap_lint.support.records import Frozen

if TYPE_CHECKING:
    from sitemap_lint.settings.options import Options

ATOM_NS = "http://www.w3.org/2005/Atom"
ATOM_03_NS = "http://purl.org/atom/ns#"
RDF_NS = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
ALTERNATE = ("alternate", "http://www.iana.org/assignments/relation/alternate")
_SHOWN = 80


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


def _recognise(root: Node) -> tuple[FeedFormat | None, Finding | None]:
    """The feed's format (None when its items cannot be read) and, when search
    engines do not accept it, the finding that says so."""
    if root.name == "rss":
        rss = FeedFormat("RSS 2.0", "rss", root.ns, "item", "pubDate")
        version = root.attrs.get("version")
        if version is not None and version.strip() == "2.0":
            return rss, None
        return rss, _unsupported(root, _rss_version_message(version))
    if root.name == "feed":
        if root.ns == ATOM_NS:
            return FeedFormat("Atom 1.0", "atom", ATOM_NS, "entry", "updated"), None
        if root.ns == ATOM_03_NS:
            return FeedFormat("Atom 0.3", "atom", ATOM_03_NS, "entry", "modified"), None
        atom = FeedFormat("Atom", "atom", root.ns, "entry", "updated")
        where = "has no namespace" if not root.ns else f"is in the namespace {_short(root.ns)}"
        return atom, _unsupported(
            root,
            f"<feed> {where}, so it is not an Atom feed search engines read; write "
            f'<feed xmlns="{ATOM_NS}">',
        )
    return None, _unsupported(
        root,
        "root <rdf:RDF> is an RSS 1.0 or 0.90 feed, which search engines do not read as a "
        "sitemap; publish the feed as RSS 2.0 or Atom 1.0, or list its URLs in an XML sitemap",
    )


def _rss_version_message(version: str | None) -> str:
    if version is None or not version.strip():
        return (
            "<rss> has no version; search engines read only RSS 2.0 feeds as sitemaps: "
            'write <rss version="2.0"> if the feed follows RSS 2.0'
        )
    return (
        f"<rss version={_short(version)}> is not RSS 2.0, the only RSS version search engines "
        'read as a sitemap; publish the feed as RSS 2.0 (<rss version="2.0">) or list its '
        "URLs in an XML sitemap"
    )


def _unsupported(root: Node, message: str) -> Finding:
    return feed.UNSUPPORTED_FORMAT.at(root.line, root.column, message)


def _short(value: str) -> str:
    return repr(value if len(value) <= _SHOWN else value[: _SHOWN - 3] + "...")


def _child(node: Node, ns: str, name: str) -> Node | None:
    for child in node.children:
        if child.name == name and child.ns == ns:
            return child
    return None


class FeedChecker:
    """Checks the items or entries of one feed as the parser hands them over."""

    def __init__(
        self, root: Node, options: Options, report: Reporter, facts: FileFacts | None
    ) -> None:
        self.root = root
        self.options = options
        self.now: datetime = options.now
        self.report = report
        self.facts = facts
        form, problem = _recognise(root)
        self.kind = form.kind if form is not None else ""  # FileFacts.kind
        self.url_count = 0  # items with a link
        if facts is not None:
            facts.kind = self.kind
        # The items of a feed search engines do not read are checked once it is readable.
        self.format = form if problem is None else None
        if problem is not None:
            report.add(problem)
        else:
            assert self.format is not None  # every format without a problem is readable
            report.add(
                feed.FEED_AS_SITEMAP.at(
                    root.line,
                    root.column,
                    f"{self.format.title} feed used as a sitemap: Google and Bing read it, "
                    "Yandex does not; list the URLs in an XML sitemap for Yandex",
                )
            )
        self.count = 0
        self.over_limit: Node | None = None
        self.undated = 0
        self.first_undated: Node | None = None
        self.duplicates = DuplicateTracker()
        self.robots, self.scope = scope.for_file(options)

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
        root = self.root
        if self.count == 0 and not self._cut_short():
            container = "entries" if form.is_atom else "items"
            self.report.add(
                feed.NO_ITEMS.at(
                    root.line,
                    root.column,
                    f"feed has no {container}, so it submits no URL; add an <{form.item}> "
                    "for each page, or do not submit an empty feed",
                )
            )
        node = self.over_limit
        past_limit = None if node is None else (node.line, node.column)
        end = FileEnd(self.kind, root, self.count, past_limit, self._cut_short())
        context = FileContext(self.options, self.kind, form.item)
        once(END, end, context, self.report, self.options.enabled)
        if self.first_undated is not None:
            self.report.add(self._undated_finding(form, self.first_undated))
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
        link, url = self._atom_link(item) if form.is_atom else self._rss_link(item)
        if link is not None:
            self.url_count += 1
            self._check_url(url, link)
        date = _child(item, form.ns, form.date)
        moment = None
        if date is None:
            self.undated += 1
            if self.first_undated is None:
                self.first_undated = item
        elif form.is_atom:
            moment = feed.check_atom_date(date, self.report, self.now)
        else:
            moment = feed.check_rss_date(date, self.report, self.now)
        if self.facts is not None:
            if moment is not None:
                self.facts.add_lastmod(moment)
            if link is not None:
                self.facts.add_url(url.strip(), link.line, link.column)

    def _check_url(self, value: str, link: Node) -> None:
        assert self.format is not None  # items are checked only in a readable feed
        field = "link href" if self.format.is_atom else "link"
        parsed = urls.check_url(value, link, self.report, field)
        url = value.strip()
        if parsed is not None:
            self.scope.check(parsed, link, self.report)
            if self.robots is not None:
                self.robots.check(url, parsed, link, self.report)
        self.duplicates.check(url, link, self.report, "URL")

    def _rss_link(self, item: Node) -> tuple[Node | None, str]:
        """The item's <link> and its URL; (None, '') after reporting when there is none."""
        assert self.format is not None  # items are checked only in a readable feed
        ns = self.format.ns
        link = _child(item, ns, "link")
        if link is not None and link.text.strip():
            return link, link.text
        if link is not None:
            self._no_link(
                link, "<link> of this <item> is empty; write the page's absolute URL in it"
            )
            return None, ""
        message = (
            "<item> has no <link>, so it gives search engines no URL; add <link> with the "
            "page's absolute URL"
        )
        guid = _child(item, ns, "guid")
        if guid is not None and _is_permalink(guid):
            url = guid.text.strip()
            message = (
                "<item> has no <link>; its <guid> holds a URL but search engines read "
                f"only <link>: add <link>{_clip(url)}</link>"
            )
        self._no_link(item, message)
        return None, ""

    def _atom_link(self, entry: Node) -> tuple[Node | None, str]:
        """The entry's alternate <link> and its href; (None, '') after reporting when
        there is none."""
        links = [child for child in entry.children if child.name == "link" and child.ns == entry.ns]
        alternate = next((link for link in links if _is_alternate(link)), None)
        if alternate is None:
            if not links:
                message = (
                    "<entry> has no <link>, so it gives search engines no URL; add "
                    '<link rel="alternate" href="..."> with the page\'s absolute URL'
                )
            else:
                rels = ", ".join(sorted({f'rel="{link.attrs["rel"].strip()}"' for link in links}))
                message = (
                    f"<entry> has no alternate <link> (only {_clip(rels)}), so it gives "
                    'search engines no page URL; add <link rel="alternate" href="..."> with '
                    "the page's URL"
                )
            self._no_link(entry, message)
            return None, ""
        href = alternate.attrs.get("href")
        if href is not None and href.strip():
            return alternate, href
        text = alternate.text.strip()
        if text:
            message = (
                f"<link> holds its URL as text, but Atom reads it from href; write "
                f'<link href="{_clip(text)}"/>'
            )
        else:
            message = '<link> has no href; write href="..." with the page\'s absolute URL'
        self._no_link(alternate, message)
        return None, ""

    def _no_link(self, node: Node, message: str) -> None:
        self.report.add(feed.NO_LINK.at(node.line, node.column, message), node)

    def _undated_finding(self, form: FeedFormat, first: Node) -> Finding:
        plural = "entries" if form.is_atom else "items"
        if self.undated == 1:
            what = f"<{form.item}> has no <{form.date}>"
        else:
            what = (
                f"{self.undated:,} of {self.count:,} {plural} have no <{form.date}> "
                "(this is the first)"
            )
        return feed.NO_DATE.at(
            first.line,
            first.column,
            f"{what}; add the date of the last change to each: search engines use it to know "
            "which pages changed",
        )


def _is_alternate(link: Node) -> bool:
    rel = link.attrs.get("rel")
    return rel is None or rel.strip() in ALTERNATE


def _is_permalink(guid: Node) -> bool:
    text = guid.text.strip()
    permalink = guid.attrs.get("isPermaLink", "true").strip().lower() != "false"
    return permalink and text.startswith(("http://", "https://"))


def _clip(value: str) -> str:
    return value if len(value) <= _SHOWN else value[: _SHOWN - 3] + "..."

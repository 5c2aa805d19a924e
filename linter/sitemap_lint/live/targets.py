"""The URLs one sitemap lists, with where their elements start; and the sample of them
the live audit requests.

``TargetReader`` is fed the decoded text the static check reads (the same chunks, and
the decoder's line and column offsets when text before the XML declaration was dropped),
so the positions it records are those the static findings give for the same elements:
expat's, through the same mapping as ``formats.xml.StreamParser``. Entries are found by
their local names in the root's namespace, as the static check finds them (a
look-alike namespace is reported there, not here); the extensions by their namespace
URIs, with any prefix.

The lexical defects the static check reads past (a raw ``&``, an entity it does not
expand, a character XML does not allow) are marked before expat reads the text, by a
mark of the same length in characters, and the values are given back as written. A
plain expat parser reads a clean file (the cheap way); at any other syntax error inside
the root, or an entry inside an entry (which the check reads as an entry of its own when
the outer one's end tag is missing), the rest of the file, from the start of the damaged
entry, goes to the static check's own ``StreamParser`` behind a synthetic root start tag
(and an RSS channel's, in one), which recovers as the check does (the entry lost or read
again, reading resumed at the next entry), so the targets after the error are those the
check reads, at the same positions: a sitemap's entries and a feed's items alike.
"""

from __future__ import annotations

import hashlib
import heapq
import pyexpat
import re
from collections.abc import Sequence
from typing import Any

from sitemap_lint.formats.xml import AMP_MARK, DROP_MARK, StreamParser
from sitemap_lint.live.model import (
    ALTERNATE,
    ATTRIBUTE,
    CHILD,
    IMAGE,
    PAGE,
    SPAN,
    TEXT,
    VIDEO_CONTENT,
    VIDEO_PLAYER,
    VIDEO_THUMBNAIL,
    Target,
    TargetPointer,
)
from sitemap_lint.model import XHTML_NS, Node, element_number, pointer_step

__all__ = ["LineTargets", "TargetReader", "sample"]

IMAGE_NS = "http://www.google.com/schemas/sitemap-image/1.1"
VIDEO_NS = "http://www.google.com/schemas/sitemap-video/1.1"
_ENTRIES = {"urlset": ("url", PAGE), "sitemapindex": ("sitemap", CHILD)}
# Feeds, as formats.feed reads them: RSS 2.0 (items, in a channel or not: each its
# <link>) and Atom 1.0 and 0.3 (entries: each its first alternate <link href>, and its
# date as the lastmod; RSS's pubDate is no W3C date, so its items have none).
ATOM_NS = "http://www.w3.org/2005/Atom"
ATOM_03_NS = "http://purl.org/atom/ns#"
_ATOM_DATES = {ATOM_NS: "updated", ATOM_03_NS: "modified"}
_ALTERNATE = ("alternate", "http://www.iana.org/assignments/relation/alternate")
_VIDEO_LOCS = {
    f"{VIDEO_NS}}}content_loc": VIDEO_CONTENT,
    f"{VIDEO_NS}}}player_loc": VIDEO_PLAYER,
    f"{VIDEO_NS}}}thumbnail_loc": VIDEO_THUMBNAIL,
}
_IMAGE = f"{IMAGE_NS}}}image"
_IMAGE_LOC = f"{IMAGE_NS}}}loc"
# A box's URLs of which the check reads the first only (a repeat is a schema error):
# the audit requests those alone.
_FIRST_ONLY = frozenset({_IMAGE_LOC, f"{VIDEO_NS}}}content_loc", f"{VIDEO_NS}}}player_loc"})
_VIDEO = f"{VIDEO_NS}}}video"
_LINK = f"{XHTML_NS}}}link"

# What an open element is to the reader.
(
    _OTHER,
    _ROOT,
    _ENTRY,
    _LOC,
    _LASTMOD,
    _IMAGE_BOX,
    _VIDEO_BOX,
    _MEDIA_LOC,
    _LINK_ROLE,
    _FEED_LINK,
) = range(10)
_VALUES = frozenset({_LOC, _LASTMOD, _MEDIA_LOC})  # the elements whose text is kept
_NUMBERED = frozenset({_LOC, _MEDIA_LOC, _LINK_ROLE})  # the elements targets stand at

# A "&" that does not start a reference expat reads (the predefined entities and
# character references); an entity the file declares is kept as written either way.
_BAD_AMPERSAND = re.compile(r"&(?!(?:amp|lt|gt|quot|apos|#[0-9]{1,8}|#x[0-9A-Fa-f]{1,8});)")
# Characters XML 1.0 does not allow.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
# The most text kept for a recovery to read again, in bytes.
MAX_REPLAY = 1 << 20
# At the end of a chunk, a reference that may go on in the next one is held back.
_OPEN_REFERENCE = re.compile(r"&#?[xX]?[0-9A-Za-z_.-]{0,16}\Z")


class _NestedEntry(Exception):
    """Raised from a start handler: an entry starts inside the open entry."""


class LineTargets:
    """The targets of a text sitemap, given one by one by its checker
    (``formats.text.check_text``'s ``on_url``): each a page, its URL the span that
    starts at the line and column."""

    def __init__(self) -> None:
        self.targets: list[Target] = []

    def __call__(self, url: str, line: int, column: int) -> None:
        self.targets.append(Target(url, PAGE, line, column, written=SPAN))


class TargetReader:
    """Reads the targets of one sitemap (or feed) from its decoded text, chunk by chunk.

    One class, longer than most: its expat callbacks, for sitemaps and for feeds, are
    closures over one parser's state (the positions, the open entry, the namespaces),
    and recovery after a syntax error replays text into that state or hands the rest to
    the check's own reader."""

    def __init__(self, line_offset: int = 0, column_offset: int = 0) -> None:
        self._line_offset = line_offset
        self._column_offset = column_offset
        self._targets: list[Target] = []
        self._held = ""
        self._failed = False
        self._marked = False
        # What names the targets' elements (``pointer``): the entries so far, whether
        # they are counted as the static check counts them, the first prefix declared
        # for each namespace.
        self._entries = 0
        self._counted = True
        self._prefixes: dict[str, str] = {}
        # What a recovery needs: the open elements' roles, the root's namespace
        # declarations, the start of the open entry (byte index, expat's line and
        # column), the text fed since (blocks: their first byte index and their
        # bytes), the entries' name and kind once the root is known.
        self._roles: list[int] = []
        self._declarations: list[tuple[str, str]] = []
        self._root: tuple[str, str] | None = None  # (namespace, name)
        self._entry: tuple[str, str] | None = None  # (name, target kind)
        self._root_closed = False
        self._feed_items = False  # a feed whose items are read
        self._open_entry = (0, 0, 0)
        self._window: list[tuple[int, bytes]] = []
        self._fed = 0
        self._recovery: StreamParser | None = None
        self._parser = self._new_parser()

    def feed(self, text: str, final: bool = False) -> None:
        """Read the next chunk of text (``final`` with the last one, or after it)."""
        if self._failed:
            return
        text = self._held + text
        self._held = ""
        if not final:
            held = _OPEN_REFERENCE.search(text, max(len(text) - 20, 0))
            if held is not None:
                self._held = text[held.start() :]
                text = text[: held.start()]
        if "&" in text:
            text, marks = _BAD_AMPERSAND.subn(AMP_MARK, text)
            self._marked = self._marked or marks > 0
        if _NOT_XML.search(text) is not None:
            text = _NOT_XML.sub(DROP_MARK, text)
            self._marked = True
        if self._recovery is not None:
            self._feed_recovery(text, final)
            return
        data = text.encode("utf-8")
        self._window.append((self._fed, data))
        self._fed += len(data)
        try:
            self._parser.Parse(data, final)
        except pyexpat.ExpatError as error:
            self._recover(error, final)
        except _NestedEntry:
            self._read_nested(final)
        else:
            if final:
                self._stop()
            else:
                self._trim_window()

    def _trim_window(self) -> None:
        """Keep the text a recovery may read again: the last block, and all from the
        start of the open entry (up to MAX_REPLAY bytes)."""
        window = self._window
        keep = window[-1][0]
        if len(self._roles) >= 2:
            keep = min(keep, self._open_entry[0])
        while len(window) > 1 and window[0][0] + len(window[0][1]) <= keep:
            del window[0]
        while len(window) > 1 and self._fed - window[0][0] > MAX_REPLAY:
            del window[0]  # a giant entry: no recovery inside it

    def targets(self) -> list[Target]:
        """The targets read so far, in the file's order."""
        return self._targets

    def pointer(self) -> TargetPointer | None:
        """What names the targets' elements as the static findings name them (the
        prefixes the document declared first for each namespace, as
        ``formats.xml.StreamParser.prefixes``); None for a feed or another document."""
        if self._root is None or self._entry is None:
            return None
        ns, name = self._root
        prefixes = self._prefixes
        entry_name, kind = self._entry
        image, video = (
            pointer_step(IMAGE_NS, "image", prefixes),
            pointer_step(VIDEO_NS, "video", prefixes),
        )
        steps = (
            (kind, "", pointer_step(ns, "loc", prefixes)),
            (IMAGE, image, pointer_step(IMAGE_NS, "loc", prefixes)),
            (VIDEO_CONTENT, video, pointer_step(VIDEO_NS, "content_loc", prefixes)),
            (VIDEO_PLAYER, video, pointer_step(VIDEO_NS, "player_loc", prefixes)),
            (VIDEO_THUMBNAIL, video, pointer_step(VIDEO_NS, "thumbnail_loc", prefixes)),
            (ALTERNATE, "", pointer_step(XHTML_NS, "link", prefixes)),
        )
        return TargetPointer(
            f"/{pointer_step(ns, name, prefixes)}/{pointer_step(ns, entry_name, prefixes)}[", steps
        )

    def _stop(self) -> None:
        self._failed = True
        self._held = ""
        self._window = []
        _detach(self._parser)
        if self._recovery is not None:
            self._recovery.release()
            self._recovery = None

    # -- after a syntax error ------------------------------------------------------------

    def _recover(self, error: pyexpat.ExpatError, final: bool) -> None:
        """Hand the rest of the file, from the damaged entry's start (or the error,
        between entries), to a recovering StreamParser."""
        roles = self._roles
        if self._root is None or self._root_closed or not roles or not self._entry_reader():
            self._stop()
            return
        start, line, column = self._open_entry
        # In an entry (a feed's channel is no entry, its items are)
        in_entry = len(roles) >= 2 if self._entry is not None else _ENTRY in roles
        replay = self._replay(start) if in_entry else None
        if replay is None:  # between entries, or in an entry too long to keep
            start, line, column = self._parser.ErrorByteIndex, error.lineno, error.offset
            replay = self._replay(start)
        line, column = self._position(line, column)
        if replay is None:
            self._stop()
            return
        self._hand_over(replay, line, column, final)

    def _entry_reader(self) -> bool:
        """Whether a recovering StreamParser can read this document's entries: a
        sitemap's, or a feed's whose items the reader wants (an RSS 2.0 or Atom feed)."""
        return self._entry is not None or self._feed_items

    def _hand_over(self, replay: str, line: int, column: int, final: bool) -> None:
        """Read ``replay``, the rest of the file from file ``line`` and ``column`` (both
        1-based) on, with a recovering StreamParser."""
        assert self._root is not None
        _detach(self._parser)
        self._counted = False  # entries the check may lose or read again: not numbered
        prefix = self._synthetic_root()
        handler: _EntryTargets | _ItemTargets
        if self._entry is not None:
            handler = _EntryTargets(self._targets, self._root[0], *self._entry)
        else:
            handler = _ItemTargets(self._targets, *self._root)
            if self._roles.count(_ROOT) > 1:  # inside an RSS channel: opened again
                qname = prefix[1:].split(maxsplit=1)[0].rstrip(">")
                prefix += f"<{qname.rpartition(':')[0] + ':' if ':' in qname else ''}channel>"
        recovery = StreamParser(handler, line - 1, column - 1 - len(prefix))
        handler.parser = recovery
        self._recovery = recovery
        self._window = []
        self._feed_recovery(prefix + replay, final)

    def _read_nested(self, final: bool) -> None:
        """An entry started inside the open entry: the check reads it as an entry of its
        own when the open one's end tag is missing, as a child otherwise (it decides at
        the inner entry's end). The rest of the file, from the open entry's start, goes
        to a StreamParser, which reads it as the check does."""
        start, line, column = self._open_entry
        replay = self._replay(start)
        if replay is None:  # too long to keep: its children are passed over
            self._stop()
            return
        self._hand_over(replay, *self._position(line, column), final)

    def _feed_recovery(self, text: str, final: bool) -> None:
        recovery = self._recovery
        assert recovery is not None
        if not recovery.feed(text):
            self._stop()
        elif final:
            recovery.close()
            self._stop()

    def _position(self, line: int, column: int) -> tuple[int, int]:
        """Expat's position (1-based line, 0-based column) in the file (both 1-based)."""
        if line == 1:
            column += self._column_offset
        return line + self._line_offset, column + 1

    def _replay(self, start: int) -> str | None:
        """The text fed from byte index ``start`` on, or None when it is no longer kept."""
        for index, (base, data) in enumerate(self._window):
            if base <= start <= base + len(data):
                rest = b"".join([data[start - base :], *(d for _, d in self._window[index + 1 :])])
                try:
                    return rest.decode("utf-8")
                except UnicodeDecodeError:
                    return None
        return None

    def _synthetic_root(self) -> str:
        """The root start tag on one line: its name and namespace declarations."""
        assert self._root is not None
        ns, name = self._root
        declared = dict(self._declarations)
        prefix = next((p for p, uri in reversed(self._declarations) if uri == ns and p), "")
        if ns and declared.get("") == ns:
            prefix = ""
        qname = f"{prefix}:{name}" if prefix else name
        parts = [qname]
        for key, uri in declared.items():
            parts.append(f'xmlns:{key}="{_escape(uri)}"' if key else f'xmlns="{_escape(uri)}"')
        return "<" + " ".join(parts) + ">"

    def _new_parser(self) -> pyexpat.XMLParserType:
        parser = pyexpat.ParserCreate("utf-8", namespace_separator="}")
        parser.buffer_text = True
        parser.buffer_size = 1 << 16
        parser.SetParamEntityParsing(pyexpat.XML_PARAM_ENTITY_PARSING_NEVER)
        # With a default handler, expat expands no internal entity.
        parser.DefaultHandler = _ignore
        self._install(parser)
        return parser

    def _install(self, parser: pyexpat.XMLParserType) -> None:
        # The hot path of the reader: one call per element start and end, so the
        # handlers do as little as they can for an element that is not wanted.
        targets = self._targets
        roles = self._roles
        prefixes = self._prefixes
        pieces: list[str] = []
        line_offset, column_offset = self._line_offset, self._column_offset
        reader = self
        # Expat tag -> (the role its parent must have, its role): set at the root.
        wanted: dict[str, tuple[int, int]] = {}
        # The targets of the open entry, in order, until its end numbers them:
        # [url, kind, line, column, written, tag, place, box, has children].
        entry: list[list[Any]] = []
        page: list[Any] | None = None  # the entry's own loc target, in ``entry``
        kind = PAGE
        lastmod: str | None = None
        alternates: list[tuple[str, str]] = []
        at = (0, 0)
        media_kind = IMAGE
        place = 0  # the open loc's or media loc's place among its siblings of its name
        nested = False  # the open loc or media loc has a child element
        link_item: list[Any] | None = None  # the target of the open xhtml:link
        seen: dict[str, int] = {}  # the open entry's children wanted, counted by tag
        box_seen: dict[str, int] = {}  # the open box's locs, counted by tag
        box_at = 0  # where the open box's targets start in ``entry``
        box_place = 0
        written = "text"  # how the entry's loc stands in the text (Target.written)

        def where() -> tuple[int, int]:
            line, column = parser.CurrentLineNumber, parser.CurrentColumnNumber + 1
            if line == 1:
                column += column_offset
            return line + line_offset, column

        def value() -> str:
            text = "".join(pieces).strip()
            return _unmark(text) if reader._marked else text

        def start(tag: str, attrs: dict[str, str]) -> None:
            nonlocal page, lastmod, alternates, at, media_kind, written, place, nested
            nonlocal link_item, box_at, box_place
            spec = wanted.get(tag)
            if spec is None or spec[0] != roles[-1]:
                if len(roles) == 1:
                    reader._open_entry = (
                        parser.CurrentByteIndex,
                        parser.CurrentLineNumber,
                        parser.CurrentColumnNumber,
                    )
                elif spec is not None and spec[1] == _ENTRY:
                    if roles[-1] == _ENTRY and reader._entry is not None:
                        raise _NestedEntry  # read as the check reads it (``_read_nested``)
                    reader._counted = False  # an entry in an entry: the check may count it
                elif roles and roles[-1] in _NUMBERED:
                    nested = True  # its place is written even when it is the only one
                roles.append(_OTHER if roles else root(tag, attrs))
                return
            role = spec[1]
            if role == _FEED_LINK:
                feed_link(attrs)
                role = _OTHER
            elif role == _LOC:
                seen[tag] = place = seen.get(tag, 0) + 1
                if page is not None:  # a second loc: the first counts
                    role = _OTHER
                at, nested = where(), False
            elif role == _MEDIA_LOC:
                box_seen[tag] = place = box_seen.get(tag, 0) + 1
                media_kind, at, nested = _VIDEO_LOCS.get(tag, IMAGE), where(), False
            elif role == _ENTRY:
                reader._open_entry = (
                    parser.CurrentByteIndex,
                    parser.CurrentLineNumber,
                    parser.CurrentColumnNumber,
                )
                reader._entries += 1
                entry.clear()
                seen.clear()
                page, lastmod, alternates, written = None, None, [], "text"
            elif role == _LINK_ROLE:
                seen[tag] = count = seen.get(tag, 0) + 1
                link_item, nested = link(attrs, tag, count), False
            elif role in (_IMAGE_BOX, _VIDEO_BOX):
                seen[tag] = box_place = seen.get(tag, 0) + 1
                box_at = len(entry)
                box_seen.clear()
            pieces.clear()
            roles.append(role)

        def root(tag: str, attrs: dict[str, str]) -> int:
            nonlocal kind
            ns, _, name = tag.rpartition("}")
            reader._root = (ns, name)
            if name == "rss" or (name == "feed" and ns in _ATOM_DATES):
                kind = PAGE
                wanted.update(_feed_roles(ns, name, attrs))
                reader._feed_items = bool(wanted)
            elif name in _ENTRIES:
                entry_name, kind = _ENTRIES[name]
                reader._entry = (entry_name, kind)
                prefix = f"{ns}}}" if ns else ""
                wanted.update(
                    {
                        f"{prefix}{entry_name}": (_ROOT, _ENTRY),
                        f"{prefix}loc": (_ENTRY, _LOC),
                        f"{prefix}lastmod": (_ENTRY, _LASTMOD),
                        _IMAGE: (_ENTRY, _IMAGE_BOX),
                        _IMAGE_LOC: (_IMAGE_BOX, _MEDIA_LOC),
                        _VIDEO: (_ENTRY, _VIDEO_BOX),
                        _LINK: (_ENTRY, _LINK_ROLE),
                    }
                )
                wanted.update({tag: (_VIDEO_BOX, _MEDIA_LOC) for tag in _VIDEO_LOCS})
            else:
                reader._failed = True  # not a sitemap: nothing to read past this chunk
            return _ROOT

        def feed_link(attrs: dict[str, str]) -> None:
            nonlocal page, written
            if page is not None or written == ATTRIBUTE:  # the first alternate link counts
                return
            rel = attrs.get("rel")
            if rel is not None and rel.strip().lower() not in _ALTERNATE:
                return
            written = ATTRIBUTE
            href = attrs.get("href", "").strip()
            if href:
                url = _unmark(href) if reader._marked else href
                page = [url, kind, *where(), ATTRIBUTE, "", 0, 0, False]
                entry.append(page)

        def link(attrs: dict[str, str], tag: str, count: int) -> list[Any] | None:
            if "alternate" not in attrs.get("rel", "").lower().split():
                return None
            href = attrs.get("href", "").strip()
            if not href:
                return None
            if reader._marked:
                href = _unmark(href)
            hreflang = attrs.get("hreflang", "").strip()
            if hreflang:
                alternates.append((_unmark(hreflang), href))
            item = [href, ALTERNATE, *where(), TEXT, tag, count, 0, False]
            entry.append(item)
            return item

        def end(tag: str) -> None:
            nonlocal page, lastmod, link_item
            role = roles.pop()
            if role == _OTHER:
                if len(pieces) > 64 and roles and roles[-1] not in _VALUES:
                    pieces.clear()  # text no value gathers: memory stays bounded
                return
            if role == _LOC:
                text = value()
                if text:
                    page = [text, kind, *at, written, tag, place, 0, nested]
                    entry.append(page)
            elif role == _LASTMOD:
                lastmod = value() or None
            elif role == _MEDIA_LOC:
                text = value()
                if text and (place == 1 or tag not in _FIRST_ONLY):
                    entry.append([text, media_kind, *at, TEXT, tag, place, box_place, nested])
            elif role == _LINK_ROLE:
                if link_item is not None and nested:
                    link_item[8] = True
                link_item = None
            elif role in (_IMAGE_BOX, _VIDEO_BOX):
                for item in entry[box_at:]:  # numbered by the box's locs of their name
                    if box_seen[item[5]] == 1 and not item[8]:
                        item[6] = 0
            elif role == _ENTRY:
                index = reader._entries if reader._counted and reader._entry else 0
                for item in entry:
                    url, item_kind, line, column, item_written, item_tag, at_place, box, _ = item
                    if not box and seen.get(item_tag, 0) == 1 and not item[8]:
                        at_place = 0
                    element = element_number(index, at_place, box) if index else 0
                    if item is page:
                        targets.append(
                            Target(
                                url,
                                item_kind,
                                line,
                                column,
                                lastmod,
                                tuple(alternates),
                                item_written,
                                element,
                            )
                        )
                    else:
                        targets.append(Target(url, item_kind, line, column, element=element))
                entry.clear()
                page = None
            elif role == _ROOT:
                reader._root_closed = not roles  # not an RSS channel
            pieces.clear()

        def declare(prefix: str | None, uri: str | None) -> None:
            prefixes.setdefault(uri or "", prefix or "")
            if not roles:
                reader._declarations.append((prefix or "", uri or ""))

        parser.StartNamespaceDeclHandler = declare
        parser.StartElementHandler = start
        parser.EndElementHandler = end
        parser.CharacterDataHandler = pieces.append


def _feed_roles(ns: str, name: str, attrs: dict[str, str]) -> dict[str, tuple[int, int]]:
    """The elements of a feed's root that the reader wants, as ``_install``'s
    ``wanted``: none for a feed search engines do not read (an RSS version but 2.0),
    whose items the static check does not read either."""
    prefix = f"{ns}}}" if ns else ""
    if name == "rss":
        if attrs.get("version", "").strip() != "2.0":
            return {}
        # A channel is read as the root is: its items are entries, as the root's are.
        return {
            f"{prefix}channel": (_ROOT, _ROOT),
            f"{prefix}item": (_ROOT, _ENTRY),
            f"{prefix}link": (_ENTRY, _LOC),
        }
    return {
        f"{prefix}entry": (_ROOT, _ENTRY),
        f"{prefix}link": (_ENTRY, _FEED_LINK),
        f"{prefix}{_ATOM_DATES[ns]}": (_ENTRY, _LASTMOD),
    }


def _ignore(_data: str) -> None:
    return None


def _detach(parser: pyexpat.XMLParserType) -> None:
    parser.StartElementHandler = None
    parser.EndElementHandler = None
    parser.CharacterDataHandler = None
    parser.StartNamespaceDeclHandler = None


def _escape(value: str) -> str:
    return value.replace("&", "&amp;").replace("<", "&lt;").replace('"', "&quot;")


def _unmark(text: str) -> str:
    if AMP_MARK in text or DROP_MARK in text:
        return text.replace(AMP_MARK, "&").replace(DROP_MARK, "")
    return text


_BOXES = {(IMAGE_NS, "image"), (VIDEO_NS, "video")}


def _media_targets(box: Node) -> list[Target]:
    """The targets of an ``image:image`` or ``video:video`` node."""
    found: list[Target] = []
    seen: set[str] = set()
    for part in box.children:
        key = f"{part.ns}}}{part.name}"
        kind = (
            (IMAGE if key == _IMAGE_LOC else None) if box.ns == IMAGE_NS else _VIDEO_LOCS.get(key)
        )
        text = _unmark(part.text.strip())
        if kind is not None and text and key not in seen:
            found.append(Target(text, kind, part.line, part.column))
        if key in _FIRST_ONLY:
            seen.add(key)
    return found


def _link_target(link: Node, found: list[Target], alternates: list[tuple[str, str]]) -> None:
    """An ``xhtml:link`` node's alternate target, and its (hreflang, href) pair."""
    attrs = link.attrs
    href = _unmark(attrs.get("href", "").strip())
    if "alternate" not in attrs.get("rel", "").lower().split() or not href:
        return
    hreflang = _unmark(attrs.get("hreflang", "").strip())
    if hreflang:
        alternates.append((hreflang, href))
    found.append(Target(href, ALTERNATE, link.line, link.column))


class _EntryTargets:
    """The StreamParser handler of a recovery: each entry it hands over becomes targets
    (the same as the plain reader makes of it); what it reports is the check's."""

    def __init__(self, targets: list[Target], ns: str, entry_name: str, kind: str) -> None:
        self.targets = targets
        self.ns = ns
        self.entry_name = entry_name
        self.kind = kind
        self.parser: StreamParser | None = None

    def on_root(self, root: Node) -> None:
        assert self.parser is not None
        self.parser.set_entries(root, self.entry_name)

    def on_entry(self, entry: Node) -> None:
        if entry.ns != self.ns or entry.name != self.entry_name:
            return
        found: list[Target] = []
        loc: tuple[int, Node] | None = None  # (its place in ``found``, the node)
        lastmod: str | None = None
        alternates: list[tuple[str, str]] = []
        for child in entry.children:
            if child.ns == self.ns and child.name == "loc":
                if loc is None and child.text.strip():
                    loc = (len(found), child)
            elif child.ns == self.ns and child.name == "lastmod":
                lastmod = _unmark(child.text.strip()) or None
            elif (child.ns, child.name) in _BOXES:
                found.extend(_media_targets(child))
            elif (child.ns, child.name) == (XHTML_NS, "link"):
                _link_target(child, found, alternates)
        if loc is not None:
            at, node = loc
            url = _unmark(node.text.strip())
            page = Target(url, self.kind, node.line, node.column, lastmod, tuple(alternates))
            found.insert(at, page)
        self.targets.extend(found)

    def on_root_text(self, line: int, column: int, text: str = "") -> None:
        return None

    def on_doctype(self, name: str, line: int, column: int) -> None:
        return None

    def on_too_deep(self, outermost: Node, line: int, column: int) -> None:
        return None

    def on_comment(self, text: str, line: int, column: int) -> None:
        return None

    def on_syntax_error(self, code: int, line: int, column: int, context: str, offset: int) -> None:
        return None

    def on_unclosed(self, entry: Node, node: Node, qname: str, line: int, column: int) -> None:
        return None

    def on_unended(self, what: str, closer: str, line: int, column: int) -> None:
        return None

    def on_lost_entry(self, entry: Node) -> None:
        return None

    def on_skipped(self, first: int, last: int, resumed: int | None) -> None:
        return None

    def on_too_many_errors(self, line: int, column: int) -> None:
        return None


class _ItemTargets(_EntryTargets):
    """The StreamParser handler of a feed's recovery: each item (RSS 2.0: its first
    ``link``) or entry (Atom: its first alternate ``link href``, its date as the
    lastmod) becomes a page, as the plain reader makes it."""

    def __init__(self, targets: list[Target], ns: str, root: str) -> None:
        super().__init__(targets, ns, "item" if root == "rss" else "entry", PAGE)
        self.date = _ATOM_DATES.get(ns) if root == "feed" else None

    def on_root(self, root: Node) -> None:
        assert self.parser is not None
        if self.date is None:
            self.parser.containers = frozenset({(root.ns, "channel")})
            self.parser.set_entries(root, "item", container="channel")
        else:
            self.parser.set_entries(root, "entry")

    def on_entry(self, entry: Node) -> None:
        if entry.ns != self.ns or entry.name != self.entry_name:
            return
        link: tuple[str, Node] | None = None  # the page's URL and its element
        alternate = False  # the first alternate link counts, even without an href
        lastmod: str | None = None
        for child in entry.children:
            if child.ns != self.ns:
                continue
            if child.name == "link" and self.date is None and link is None:
                url = _unmark(child.text.strip())
                link = (url, child) if url else None
            elif child.name == "link" and self.date is not None and not alternate:
                rel = child.attrs.get("rel")
                if rel is None or rel.strip().lower() in _ALTERNATE:
                    alternate = True
                    url = _unmark(child.attrs.get("href", "").strip())
                    link = (url, child) if url else None
            elif child.name == self.date:
                lastmod = _unmark(child.text.strip()) or None
        if link is not None:
            url, node = link
            written = TEXT if self.date is None else ATTRIBUTE
            self.targets.append(Target(url, PAGE, node.line, node.column, lastmod, (), written))


def sample(
    targets: Sequence[Target],
    count: int | None,
    percent: float | None,
    seed: int,
    limit: int | None,
) -> list[Target]:
    """The targets to request: the ``count`` of them, or ``percent`` of them (rounded,
    at least one of a list that has any when ``percent`` is above 0), whose URL's
    seeded hash is lowest (the same URLs chosen alike for a seed, on every run and
    platform), then the first ``limit`` of them; in the file's order. None leaves a
    step out."""
    chosen = list(targets)
    if percent is not None or count is not None:
        wanted = len(chosen)
        if percent is not None:
            share = max(0.0, min(percent, 100.0))
            wanted = int(len(chosen) * share / 100 + 0.5)
            if share > 0 and chosen:
                wanted = max(wanted, 1)
        if count is not None:
            wanted = min(wanted, max(count, 0))
        if wanted < len(chosen):
            scores = [_score(target.url, seed) for target in chosen]
            indices = heapq.nsmallest(wanted, range(len(chosen)), key=scores.__getitem__)
            chosen = [chosen[index] for index in sorted(indices)]
    if limit is not None:
        chosen = chosen[: max(limit, 0)]
    return chosen


def _score(url: str, seed: int) -> int:
    """A URL's place in the hash space for a seed: the first 8 bytes of BLAKE2b."""
    data = f"{seed}\n{url}".encode("utf-8", "surrogatepass")
    return int.from_bytes(hashlib.blake2b(data, digest_size=8).digest(), "big")

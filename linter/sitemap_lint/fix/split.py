"""``sitemap-lint split``: a URL set over the limits as parts plus a sitemap index.

Every entry is copied as it is written in the file (extensions, namespaces and all),
in order, exactly once; the parts repeat the root element's start tag, so every
namespace the entries use stays declared, and end their lines as the file does (LF or
CRLF). A part holds at most ``max_urls`` entries
and ``max_bytes`` bytes uncompressed (the protocol's 50,000 and 50 MiB by default).
The index lists the parts with the newest valid ``lastmod`` of their entries.

The file's inline directives go with what they silence: a ``disable-file`` comment is
copied into every part (before its root element); a ``disable-next-line`` comment
before an entry (or before the root) is written before it in the part, on its own line
or on the entry's first line as it was (so it silences the same line of the entry).
Other comments between the entries are not copied; the processing instructions before
the root element (an ``<?xml-stylesheet?>``) are copied into every part, after the
declaration.

The parts are served under the base URL, and a sitemap may list only URLs under its
own directory (rules SC001 and SC002): a base URL that puts entries out of the parts'
scope is refused (unless forced), naming the directory common to the entries.

A file in the output directory that no earlier split of the file wrote (a site's own
``sitemap-index.xml``) is never replaced: the split is refused.
"""

from __future__ import annotations

import hashlib
import os
import re
import stat
import zlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO
from xml.parsers import expat

from sitemap_lint.domain.urls import ParsedURL
from sitemap_lint.fix.model import escape_text

if TYPE_CHECKING:
    from array import array

    from sitemap_lint.finding import Finding

MAX_URLS = 50_000
MAX_BYTES = 50 * 1024 * 1024
MAX_SITEMAPS = 50_000  # in one index
_WRITE_SIZE = 1 << 20  # a part's entries are written a megabyte at a time
DECLARATION = b'<?xml version="1.0" encoding="UTF-8"?>\n'
INDEX_NS = "http://www.sitemaps.org/schemas/sitemap/0.9"
# Only where a declaration may stand: at the start (after a byte order mark, or the
# white space the checks report), never a "<?xml" in a comment or a CDATA section.
_DECLARATION = re.compile(r"[\ufeff \t\r\n]*<\?xml[ \t\r\n].*?\?>", re.DOTALL)
_TAG_END = re.compile(rb"""(?:[^>"']|"[^"]*"|'[^']*')*>""")
_LINE_END = re.compile(rb"\r\n|\r|\n")


def limits_refusal(max_urls: int, max_bytes: int, bytes_given: str | None = None) -> str | None:
    """Why the limits of a part are refused (None: they are not): each within the
    protocol's. ``bytes_given`` is ``--max-bytes`` as it was written (``1GiB``)."""
    if not 1 <= max_urls <= MAX_URLS:
        return f"--max-urls {max_urls}: give from 1 to {MAX_URLS:,}, the protocol's limit"
    if not 1 <= max_bytes <= MAX_BYTES:
        shown = max_bytes if bytes_given is None else bytes_given
        return (
            f"--max-bytes {shown}: give from 1 to {MAX_BYTES:,} bytes (50MiB), the protocol's limit"
        )
    return None


class SplitError(Exception):
    """The file cannot be split; the message is one line."""


@dataclass
class Entry:
    raw: bytes  # the element as written, start tag to end tag
    lastmod: str | None = None
    loc: str | None = None
    lead: bytes = b""  # the disable-next-line comments written before it, and their line end
    url: bool = True  # a <url>, not another element of the root (an extension's)
    at: int = 0  # where it starts in the bytes read


@dataclass
class Parsed:
    root_tag: bytes  # the root's start tag as written
    root_name: str
    entries: list[Entry] = field(default_factory=list)
    root_lead: bytes = b""  # the disable-next-line comments written before the root
    # The disable-file comments, each with the index of the entry that holds it (None:
    # none does).
    file_directives: list[tuple[int | None, bytes]] = field(default_factory=list)
    newline: bytes = b"\n"  # the file's first line break: the parts' lines end with it
    # The processing instructions before the root (an <?xml-stylesheet?>), as written.
    instructions: list[bytes] = field(default_factory=list)

    def head(self, entries: range) -> bytes:
        """A part's declaration, the processing instructions before the root, the
        disable-file comments its own ``entries`` do not hold, and the root's start
        tag."""
        copied = b"".join(
            comment + self.newline
            for holder, comment in self.file_directives
            if holder is None or holder not in entries
        )
        declaration = DECLARATION.replace(b"\n", self.newline)
        instructions = b"".join(pi + self.newline for pi in self.instructions)
        return declaration + instructions + copied + self.root_lead + self.root_tag + self.newline


class _Scanner:
    """Reads a URL set's UTF-8 bytes a piece at a time (``entries``), handing on each
    entry as soon as its end tag is read, and holds only the bytes still needed: those
    of the entry being read, of the directives waiting for the next entry and of the
    markup not read yet. Once every entry is handed on, ``parsed`` holds the root and
    the directives (no entries)."""

    def __init__(self) -> None:
        self.parsed: Parsed | None = None
        self._ready: list[Entry] = []
        self._parser = expat.ParserCreate()
        self._parser.buffer_text = True
        self._data = bytearray()  # the bytes still needed, from offset ``_base`` on
        self._base = 0
        self._last = 0  # where the latest markup read starts: none read later starts before
        self._depth = 0
        self._root: tuple[bytes, str] | None = None
        self._root_lead = b""  # the disable-next-line comments written before the root
        self._lead = b""  # those before the entry being read
        self._count = 0  # the entries read
        self._start_at = 0
        self._start_tag_end = 0
        self._field_names = ("url", "loc", "lastmod")  # with the root's prefix
        self._is_url = True  # the element being read is a <url>
        self._gathering: list[str] | None = None
        self._lastmod: list[str] = []
        self._loc: list[str] = []
        self._file_directives: list[tuple[int | None, bytes]] = []
        self._instructions: list[bytes] = []
        self._waiting: list[tuple[bytes, int]] = []  # disable-next-line comments: text, end
        self._newline: bytes | None = None  # the file's first line break, once read
        self._scanned = 0  # where the search for the first line break goes on
        parser = self._parser
        parser.StartDoctypeDeclHandler = self._doctype
        parser.StartElementHandler = self._start
        parser.EndElementHandler = self._end
        parser.CharacterDataHandler = self._text
        parser.CommentHandler = self._comment
        parser.ProcessingInstructionHandler = self._instruction

    def entries(self, pieces: Iterable[bytes]) -> Iterator[Entry]:
        """The entries of the URL set whose bytes are ``pieces``, in order."""
        for piece in pieces:
            self._feed(piece, False)
            yield from self._ready
            self._ready.clear()
        self._feed(b"", True)
        yield from self._ready
        self._ready.clear()
        if self._root is None:
            raise SplitError("no root element")
        self.parsed = Parsed(
            self._root[0],
            self._root[1],
            [],
            self._root_lead,
            self._file_directives,
            self._newline or b"\n",
            self._instructions,
        )

    def _feed(self, piece: bytes, final: bool) -> None:
        self._data += piece
        if self._newline is None:
            self._find_newline(final)
        try:
            self._parser.Parse(piece, final)
        except expat.ExpatError as error:
            raise SplitError(
                f"not well-formed XML at line {error.lineno}: {expat.ErrorString(error.code)}; "
                "run sitemap-lint --fix first or repair it by hand"
            ) from None
        keep = self._last
        if self._depth >= 2:
            keep = min(keep, self._start_at)
        for _comment, stop in self._waiting:
            keep = min(keep, stop)
        if self._newline is None:
            keep = min(keep, self._scanned)
        if keep > self._base:
            del self._data[: keep - self._base]
            self._base = keep

    def _find_newline(self, final: bool) -> None:
        """The first line break, once read whole (a CR at the end of what is read may be
        the first half of a CR LF)."""
        found = _LINE_END.search(self._data, max(0, self._scanned - self._base))
        if found is None:
            self._scanned = self._base + len(self._data)
        elif found.group() == b"\r" and found.end() == len(self._data) and not final:
            self._scanned = self._base + found.start()
        else:
            self._newline = bytes(found.group())

    def _at(self) -> int:
        """Where the markup being read starts in the file (and noted as the latest)."""
        self._last = self._parser.CurrentByteIndex
        return self._last

    def _bytes(self, start: int, stop: int) -> bytes:
        return bytes(self._data[start - self._base : stop - self._base])

    def _lead_of(self, at: int, indent: bytes) -> bytes:
        """The waiting disable-next-line comments that silence the line of the element
        starting at ``at`` (on the line before it) or its second line (on its first
        line); the others silence no line of it and are left out."""
        kept = []
        newline = self._newline or b"\n"
        for comment, stop in self._waiting:
            breaks = len(_LINE_END.findall(self._data, stop - self._base, at - self._base))
            if breaks <= 1:
                kept.append(comment + (newline + indent if breaks else b" "))
        self._waiting.clear()
        return b"".join(kept)

    def _comment(self, text: str) -> None:
        at = self._at()
        action = _directive(text)
        if action is None:
            return
        stop = self._data.index(b"-->", at - self._base) + 3 + self._base
        if action == "disable-file":
            holder = self._count if self._depth >= 2 else None
            self._file_directives.append((holder, self._bytes(at, stop)))
        elif self._depth < 2:  # one within an entry goes with it
            self._waiting.append((self._bytes(at, stop), stop))

    def _instruction(self, target: str, data: str) -> None:
        at = self._at()
        if self._depth == 0 and self._root is None:  # before the root: it goes in every part
            stop = self._data.index(b"?>", at - self._base) + 2 + self._base
            self._instructions.append(self._bytes(at, stop))

    def _tag_end(self, at: int) -> int:
        match = _TAG_END.match(self._data, at - self._base + 1)
        if match is None:
            raise SplitError("a tag that does not end")
        return match.end() + self._base

    def _start(self, name: str, attrs: dict[str, str]) -> None:
        self._depth += 1
        at = self._at()
        if self._depth == 1:
            if name.rsplit(":", 1)[-1] != "urlset":
                raise SplitError(f"the root element is <{name}>; only a <urlset> can be split")
            self._root = (self._bytes(at, self._tag_end(at)), name)
            self._root_lead = self._lead_of(at, b"")
            prefix = name.removesuffix("urlset")
            self._field_names = (f"{prefix}url", f"{prefix}loc", f"{prefix}lastmod")
        elif self._depth == 2:
            self._start_at = at
            self._start_tag_end = self._tag_end(at)
            self._is_url = name == self._field_names[0]
            self._lastmod.clear()
            self._loc.clear()
            self._lead = self._lead_of(at, b"  ")
        elif self._depth == 3 and name in self._field_names[1:]:
            self._gathering = self._loc if name == self._field_names[1] else self._lastmod

    def _end(self, name: str) -> None:
        at = self._at()
        if self._depth == 2:
            stop = self._start_tag_end if at == self._start_at else self._tag_end(at)
            value = "".join(self._lastmod).strip() or None
            url = "".join(self._loc).strip() or None
            raw = self._bytes(self._start_at, stop)
            self._ready.append(Entry(raw, value, url, self._lead, self._is_url, self._start_at))
            self._count += 1
        self._gathering = None
        self._depth -= 1

    def _text(self, chunk: str) -> None:
        if self._gathering is not None:
            self._gathering.append(chunk)

    def _doctype(self, *_args: object) -> None:
        raise SplitError("the file has a DOCTYPE; remove it first (sitemaps allow none)")


def parse(data: bytes) -> Parsed:
    """The root start tag and the entries of a URL set (``data`` is UTF-8)."""
    scanner = _Scanner()
    entries = list(scanner.entries([data]))
    assert scanner.parsed is not None
    scanner.parsed.entries = entries
    return scanner.parsed


def _directive(text: str) -> str | None:
    """The action of the inline directive ``text`` (a comment's), or None."""
    from sitemap_lint.rules.suppression import ACTIONS, directive_parts

    parts = directive_parts(text)
    return parts[0] if parts is not None and parts[0] in ACTIONS else None


@dataclass
class Part:
    name: str
    data: bytes  # its bytes when made in memory (``plan``); ``split_file`` keeps none
    count: int  # its <url> entries
    lastmod: str | None


def plan(
    parsed: Parsed, stem: str, max_urls: int, max_bytes: int, gzip: bool = False
) -> list[Part]:
    """The parts: entries in order, each part within both limits."""
    import io

    _refuse_no_urls(parsed, any(entry.url for entry in parsed.entries))
    sizes = ((len(entry.lead), len(entry.raw), entry.url) for entry in parsed.entries)
    entries = iter(parsed.entries)
    parts: list[Part] = []
    first = 0
    for count in _cuts(parsed, sizes, max_urls, max_bytes):
        buffer = io.BytesIO()
        urls, newest = _write_part(parsed, range(first, first + count), entries, buffer)
        parts.append(Part(_part_name(stem, len(parts) + 1, gzip), buffer.getvalue(), urls, newest))
        first += count
    return parts


def _part_name(stem: str, number: int, gzip: bool) -> str:
    return f"{stem}-{number}{'.xml.gz' if gzip else '.xml'}"


def _refuse_no_urls(parsed: Parsed, any_url: bool) -> None:
    if not any_url:
        raise SplitError(
            f"the <{parsed.root_name}> has no <url> entries, so there is nothing to split "
            "(a sitemap needs at least one: ST008)"
        )


def _foot(parsed: Parsed) -> bytes:
    return f"</{parsed.root_name}>".encode() + parsed.newline


def _cuts(
    parsed: Parsed, sizes: Iterable[tuple[int, int, bool]], max_urls: int, max_bytes: int
) -> list[int]:
    """How many entries each part holds, the entries in order and each part within both
    limits; ``sizes``: each entry's lead and element lengths and whether it is a <url>."""
    fixed = len(parsed.head(range(0))) + len(_foot(parsed))  # the longest head: every directive
    counts: list[int] = []
    chunk = 0  # the entries of the part being filled
    size = fixed
    urls = 0  # its <url> entries
    for lead, raw, url in sizes:
        cost = lead + raw + 2 + len(parsed.newline)
        if fixed + cost > max_bytes:
            raise SplitError(
                f"an entry of {raw:,} bytes does not fit in a part of {max_bytes:,} bytes"
            )
        if chunk and ((url and urls >= max_urls) or size + cost > max_bytes):
            counts.append(chunk)
            chunk, size, urls = 0, fixed, 0
        chunk += 1
        size += cost
        urls += url
    counts.append(chunk)
    return counts


def _write_part(
    parsed: Parsed, numbers: range, entries: Iterator[Entry], out: BinaryIO | _Compressing
) -> tuple[int, str | None]:
    """Write the part that holds the entries ``numbers`` (the next ones of ``entries``)
    to ``out``; its <url> entries and their newest lastmod."""
    out.write(parsed.head(numbers))
    newest = _Newest()
    urls = 0
    buffer = bytearray()
    for _number in numbers:
        entry = next(entries)
        buffer += b"  " + entry.lead + entry.raw + parsed.newline
        if len(buffer) >= _WRITE_SIZE:
            out.write(buffer)
            buffer.clear()
        urls += entry.url
        newest.add(entry.lastmod)
    out.write(buffer + _foot(parsed))
    return urls, newest.value


def index(parts: list[Part], base_url: str) -> bytes:
    """The sitemap index that lists ``parts`` under ``base_url``."""
    base = index_base(base_url)
    lines = [DECLARATION.decode(), f'<sitemapindex xmlns="{INDEX_NS}">\n']
    for part in parts:
        lines.append(f"  <sitemap>\n    <loc>{escape_text(base + part_path(part.name))}</loc>\n")
        if part.lastmod is not None:
            lines.append(f"    <lastmod>{escape_text(part.lastmod)}</lastmod>\n")
        lines.append("  </sitemap>\n")
    lines.append("</sitemapindex>\n")
    return "".join(lines).encode("utf-8")


def _outside(urls: Iterable[ParsedURL], part_url: str) -> int:
    """How many of ``urls`` a sitemap served at ``part_url`` may not list (SC001, SC002)."""
    from sitemap_lint.model import Node
    from sitemap_lint.rules.scope import ScopeChecker
    from sitemap_lint.rules.urls import parse_url

    checker = ScopeChecker(parse_url(part_url))
    found = _Count()
    node = Node("", "loc", {}, 1, 1)
    for url in urls:
        checker.check(url, node, found)
    return found.count


class _Count:
    """Counts the findings handed to it, and keeps none."""

    def __init__(self) -> None:
        self.count = 0

    def add(self, finding: Finding, covers: object = None) -> None:
        self.count += 1


@dataclass
class OutOfScope:
    """Entries a base URL puts out of the parts' scope, and the base URL that fits."""

    message: str
    fitting: str | None  # None: the entries are on more than one origin

    def refusal(self) -> str:
        if self.fitting is None:
            return f"{self.message}; they are on more than one origin: --force splits anyway"
        return (
            f"{self.message}; use --base-url {self.fitting} (or a directory above it), "
            "or --force to split anyway"
        )

    def warning(self) -> str:
        if self.fitting is None:
            return f"{self.message}; they are on more than one origin"
        return f"{self.message}; --base-url {self.fitting} would fit them all"


def out_of_scope(parsed: Parsed, base_url: str, part_name: str) -> OutOfScope | None:
    """Whether parts served at ``base_url`` would list URLs out of their scope (a
    sitemap lists only URLs of its own origin, under its own directory: SC001,
    SC002), with the directory common to the entries, which fits them all."""
    base = _directory(base_url)
    if all(_plainly_under(entry.loc, base) for entry in parsed.entries):
        return None  # the common case, without reading a million URLs
    return _scope_problem(lambda: (entry.loc for entry in parsed.entries), base_url, part_name)


def _scope_problem(
    locs: Callable[[], Iterable[str | None]], base_url: str, part_name: str
) -> OutOfScope | None:
    """``out_of_scope`` of the entries whose locs ``locs`` gives (each time it is
    called: they are read again rather than held)."""
    from sitemap_lint.rules.urls import parse_url

    def urls() -> Iterator[ParsedURL]:
        # A URL that cannot be read is the URL rules' to report, not a matter of scope.
        for loc in locs():
            url = None if loc is None else parse_url(loc)
            if url is not None:
                yield url

    base = _directory(base_url)
    total = 0
    common = _CommonDirectory()

    def noted() -> Iterator[ParsedURL]:
        nonlocal total
        for url in urls():
            total += 1
            common.add(url)
            yield url

    outside = _outside(noted(), base + part_path(part_name))
    if not outside:
        return None
    message = (
        f"--base-url {base_url} puts {outside:,} of {total:,} entries out of the parts' "
        f"scope (a sitemap may list only URLs under its own directory, here {base})"
    )
    fitting = common.value
    if fitting is not None and _outside(urls(), fitting + part_path(part_name)):
        fitting = None
    return OutOfScope(message, fitting)


def _plainly_under(loc: str | None, base: str) -> bool:
    """Whether ``loc`` is written under ``base`` without a dot segment after it (so in
    its scope whatever the two hold)."""
    return loc is None or (loc.startswith(base) and "/." not in loc[len(base) - 1 :])


def _directory(base_url: str) -> str:
    return base_url if base_url.endswith("/") else base_url + "/"


def index_base(base_url: str) -> str:
    """The parts' directory as the index lists it: the URI its IRI maps to (its host as
    browsers encode it, ``domain.identity.as_uri``), a space or another character a URI
    may not hold percent-encoded (a '%' stays: the URL rules judge it); the same
    directory, as the scope rules read it."""
    from urllib.parse import quote

    from sitemap_lint.domain.identity import as_uri

    return quote(as_uri(_directory(base_url)), safe="/%:@!$&'()*+,;=~?#[]")


def part_path(name: str) -> str:
    """A part's file name as the last segment of its URL: every character of the name
    is literal, so a space, a '%', '?', '#' or a character outside ASCII is
    percent-encoded (UTF-8)."""
    from urllib.parse import quote

    return quote(name, safe="!$&'()*+,;=:@")


class _CommonDirectory:
    """The deepest directory URL above every URL ``add``ed (None: several origins, or
    none), their paths compared as the scope rules compare them (``~`` is ``%7E``)."""

    def __init__(self) -> None:
        self._origin = ""
        self._shared: list[str] | None = None
        self._several = False

    def add(self, url: ParsedURL) -> None:
        from sitemap_lint.domain.urls import normal_path

        if self._several:
            return
        segments = normal_path(url.path).split("/")[:-1]
        if self._shared is None:
            self._origin, self._shared = url.origin, segments
        elif url.origin != self._origin:
            self._several = True
        else:
            same = 0
            for mine, theirs in zip(self._shared, segments, strict=False):
                if mine != theirs:
                    break
                same += 1
            del self._shared[same:]

    @property
    def value(self) -> str | None:
        if self._several or self._shared is None:
            return None
        return self._origin + "/".join(self._shared) + "/"


_NO_MOMENT = -(1 << 63)  # a lastmod absent, or one the date rules report


def _moment(lastmod: str | None) -> int:
    """The moment ``lastmod`` names, in microseconds since 1970 (UTC when it names no
    offset), or ``_NO_MOMENT`` when it is absent or the date rules find something wrong
    with it."""
    from sitemap_lint.rules.dates import read_date

    if lastmod is None:
        return _NO_MOMENT
    parsed, problems = read_date(lastmod)
    if parsed is None or problems:
        return _NO_MOMENT
    moment = parsed.moment
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return (moment - _EPOCH) // timedelta(microseconds=1)


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


class _Newest:
    """The latest ``lastmod`` of entries as written (``add``), of those the date rules
    find nothing wrong with (None when there is none): the index is not given a value
    they report."""

    def __init__(self) -> None:
        self._best: tuple[int, str] | None = None

    @property
    def value(self) -> str | None:
        return None if self._best is None else self._best[1]

    def add(self, lastmod: str | None) -> None:
        moment = _moment(lastmod)
        if (
            lastmod is not None
            and moment != _NO_MOMENT
            and (self._best is None or moment > self._best[0])
        ):
            self._best = (moment, lastmod)


@dataclass
class Written:
    """What ``split_file`` wrote, and the warning a forced split gets."""

    parts: list[Part]
    index: Path
    warning: str | None = None


def split_file(
    path: Path,
    base_url: str,
    out_dir: Path,
    max_urls: int = MAX_URLS,
    max_bytes: int = MAX_BYTES,
    gzip: bool = False,
    force: bool = False,
) -> Written:
    """Split the sitemap at ``path`` into ``out_dir``. A base URL that puts entries
    out of the parts' scope is refused (``SplitError``), or with ``force`` said in
    ``Written.warning``.

    The file is read a piece at a time, never held whole: once to parse it, keeping
    the root, the directives and where each entry stands, its size, kind and lastmod's
    moment (the parts are planned from these), then again to copy the entries' bytes
    into the parts, each in a temporary file beside its place (it must read as the
    first time, or nothing is written); the index last. Only then are they renamed
    into place."""
    from array import array

    from sitemap_lint.fix.engine import RUN_AGAIN, decode, decodes, read_source
    from sitemap_lint.fix.write import Staged, WriteError, stage
    from sitemap_lint.inputs.reader import Source

    refusal = limits_refusal(max_urls, max_bytes)
    if refusal is not None:
        raise SplitError(refusal)
    source = Source(str(path), path)
    if not decodes(source):
        # Read whole only to say why (it is refused).
        decoded = decode(read_source(source))
        reason = decoded if isinstance(decoded, str) else "it changed while it was being read"
        reason = reason.replace(RUN_AGAIN, "split it again")
        raise SplitError(f"{path}: cannot be split: {reason}")
    stem = path.name
    for suffix in (".gz", ".xml"):
        stem = stem.removesuffix(suffix)
    base = _directory(base_url)
    # Where each entry starts in the bytes read, its length, whether it is a <url>, its
    # lastmod's moment and its lead (the few it has).
    starts, raws, kinds, moments = array("Q"), array("I"), bytearray(), array("q")
    leads: dict[int, bytes] = {}
    plain = True  # every loc plainly under the base URL
    first = _Reading(path)
    try:
        scanner = _Scanner()
        for number, entry in enumerate(scanner.entries(first.pieces())):
            starts.append(entry.at)
            raws.append(len(entry.raw))
            kinds.append(entry.url)
            moments.append(_moment(entry.lastmod))
            if entry.lead:
                leads[number] = entry.lead
            plain = plain and _plainly_under(entry.loc, base)
        assert scanner.parsed is not None
        parsed = scanner.parsed
        _refuse_no_urls(parsed, any(kinds))
        sizes = (
            (len(leads.get(number, b"")), raw, bool(kind))
            for number, (raw, kind) in enumerate(zip(raws, kinds, strict=True))
        )
        counts = _cuts(parsed, sizes, max_urls, max_bytes)
    except SplitError as error:
        raise SplitError(f"{path}: cannot be split: {error}") from None
    except _Changed:
        raise SplitError(_changed(path)) from None
    if len(counts) > MAX_SITEMAPS:
        raise SplitError(
            f"{path}: cannot be split: {len(counts):,} parts, more than the {MAX_SITEMAPS:,} "
            "an index may list; give a larger --max-urls or --max-bytes"
        )
    names = [_part_name(stem, number, gzip) for number in range(1, len(counts) + 1)]
    _refuse_base_url_with_errors(base_url, names[0])
    problem = None
    if not plain:
        try:
            problem = _scope_problem(lambda: _locs(path), base_url, names[0])
        except (SplitError, _Changed):
            raise SplitError(_changed(path)) from None
    if problem is not None and not force:
        raise SplitError(problem.refusal())
    index_path = out_dir / f"{stem}-index.xml"
    targets = [out_dir / name for name in names] + [index_path]
    _refuse_links(targets)
    _refuse_unwritable(targets)
    _refuse_other_files(path.name, stem, targets[:-1], index_path)
    # Every file is written in full beside its place before any is renamed there: a
    # write that fails (a full disk) leaves the directory as it was, an earlier split's
    # parts and index included.
    staged: list[Staged] = []
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        reason = "it is not a directory" if out_dir.exists() else error.strerror or str(error)
        raise SplitError(f"--out-dir {out_dir}: {reason}; nothing was written") from None
    again = _Reading(path)
    copied = _Copied(again.pieces(), starts, raws)
    parts: list[Part] = []
    start = 0

    def writer(numbers: range, name: str) -> Callable[[BinaryIO], object]:
        def write(out: BinaryIO) -> None:
            into = _Compressing(out) if gzip else out
            into.write(parsed.head(numbers))
            newest = _newest_number(numbers, moments)
            lastmod = None
            buffer = bytearray()
            for number in numbers:
                raw = copied.entry(number)
                if number == newest:
                    lastmod = _lastmod_in(parsed, raw)
                    if _moment(lastmod) != moments[number]:
                        raise _Changed
                buffer += b"  " + leads.get(number, b"") + raw + parsed.newline
                if len(buffer) >= _WRITE_SIZE:
                    into.write(buffer)
                    buffer.clear()
            into.write(buffer + _foot(parsed))
            if isinstance(into, _Compressing):
                into.close()
            count = sum(kinds[numbers.start : numbers.stop])
            parts.append(Part(name, b"", count, lastmod))

        return write

    try:
        for name, count in zip(names, counts, strict=True):
            part = writer(range(start, start + count), name)
            staged.append(stage(out_dir / name, part, create=True))
            start += count
        copied.finish()
        if again.digest != first.digest:
            raise _Changed
        staged.append(stage(index_path, index(parts, base_url), create=True))
    except BaseException as error:
        for done in staged:
            done.discard()
        if isinstance(error, SplitError | _Changed):
            raise SplitError(_changed(path)) from None
        if isinstance(error, OSError | WriteError):
            reason = str(error).removesuffix("; it was left unchanged")
            raise SplitError(f"{reason}; nothing was written") from None
        raise
    committed = 0
    try:
        for done in staged:
            done.commit()
            committed += 1
    except BaseException as error:
        for rest in staged[committed + 1 :]:
            rest.discard()
        if isinstance(error, WriteError):
            replaced = f"{committed} of {len(staged)} files were replaced"
            raise SplitError(f"{error}; {replaced}") from None
        raise
    warnings = [problem.warning()] if problem is not None else []
    stale = _stale_parts(out_dir, stem, set(names))
    if stale:
        warnings.append(
            f"{out_dir} still holds {', '.join(stale)} from an earlier split, which the new "
            "index does not list: remove them"
        )
    return Written(parts, index_path, "; ".join(warnings) or None)


class _Compressing:
    """Writes what it is given gzip-compressed into ``out``: the bytes
    ``gzip.compress(data, mtime=0)`` gives of all of it (zlib's gzip header)."""

    def __init__(self, out: BinaryIO) -> None:
        self._out = out
        self._compressor = zlib.compressobj(9, wbits=31)

    def write(self, data: bytes | bytearray) -> None:
        self._out.write(self._compressor.compress(data))

    def close(self) -> None:
        self._out.write(self._compressor.flush())


def _changed(path: Path) -> str:
    return (
        f"{path}: cannot be split: it changed while it was being split (split it again); "
        "nothing was written"
    )


class _Changed(Exception):
    """The file read the second time is not the file read the first time."""


class _Reading:
    """The UTF-8 bytes a split parses of the file at ``path`` (``pieces``): its text as
    ``fix.engine.decode`` reads it, without its XML declaration (``_without_declaration``),
    a piece at a time; and, once read, a digest of them (``digest``)."""

    def __init__(self, path: Path) -> None:
        self._path = path
        self._hash = hashlib.blake2b(digest_size=32)

    @property
    def digest(self) -> bytes:
        return self._hash.digest()

    def pieces(self) -> Iterator[bytes]:
        from sitemap_lint.fix.engine import ReadAgainError, decoded_texts
        from sitemap_lint.inputs.reader import Source

        texts = decoded_texts(Source(str(self._path), self._path))
        try:
            for piece in _without_declaration_in(texts):
                data = piece.encode("utf-8")
                self._hash.update(data)
                yield data
        except ReadAgainError:
            raise _Changed from None


def _locs(path: Path) -> Iterator[str | None]:
    """The locs of the entries of the file at ``path``, read again."""
    for entry in _Scanner().entries(_Reading(path).pieces()):
        yield entry.loc


class _Copied:
    """The entries' bytes cut from the bytes read (``pieces``), where they stood the
    first time (``starts``, ``lengths``), in order; only the bytes from the entry asked
    for on are held."""

    def __init__(self, pieces: Iterator[bytes], starts: array[int], lengths: array[int]) -> None:
        self._pieces = pieces
        self._starts = starts
        self._lengths = lengths
        self._data = bytearray()
        self._base = 0  # where ``_data`` starts in the bytes read

    def entry(self, number: int) -> bytes:
        start = self._starts[number]
        stop = start + self._lengths[number]
        if start < self._base:
            raise _Changed
        while self._base + len(self._data) < stop:
            piece = next(self._pieces, None)
            if piece is None:
                raise _Changed
            self._data += piece
        del self._data[: start - self._base]
        self._base = start
        return bytes(self._data[: stop - start])

    def finish(self) -> None:
        """Read the rest (for its digest)."""
        self._data.clear()
        for _piece in self._pieces:
            pass


def _newest_number(numbers: range, moments: array[int]) -> int | None:
    """The first of the entries ``numbers`` whose lastmod names the latest moment (None:
    none names one the date rules find nothing wrong with)."""
    best = None
    latest = _NO_MOMENT
    for number in numbers:
        if moments[number] > latest:
            best, latest = number, moments[number]
    return best


def _lastmod_in(parsed: Parsed, raw: bytes) -> str | None:
    """The lastmod of the entry whose element's bytes are ``raw``, read as in the file."""
    end = f"</{parsed.root_name}>".encode()
    entries = list(_Scanner().entries([parsed.root_tag, raw, end]))
    return entries[0].lastmod if len(entries) == 1 else None


def _refuse_base_url_with_errors(base_url: str, part_name: str) -> None:
    """Refuse a base URL that would give the index a URL the URL rules report, once
    encoded (a user name, a stray '%'...): their message says how to write it."""
    from sitemap_lint.engine.sink import FindingList
    from sitemap_lint.finding import Severity
    from sitemap_lint.model import Node
    from sitemap_lint.rules.urls import LOCAL_HOST, check_url

    found = FindingList()
    check_url(index_base(base_url) + part_path(part_name), Node("", "loc", {}, 1, 1), found)
    for finding in found:
        # (A local server is a place the user may serve the parts at.)
        if finding.severity >= Severity.WARNING and finding.code != LOCAL_HOST.code:
            raise SplitError(
                f"--base-url {base_url}: the index would list the parts at a URL the URL "
                f"rules report ({finding.code}: {finding.message}); nothing was written"
            )


def _without_declaration(text: str) -> str:
    """``text`` without its XML declaration (the parts get one of their own, in UTF-8),
    its line breaks kept so that the lines of the file are the parser's."""
    match = _DECLARATION.match(text)
    if match is None:
        return text
    return re.sub(r"[^\r\n]+", "", match.group()) + text[match.end() :]


def _without_declaration_in(texts: Iterable[str]) -> Iterator[str]:
    """``_without_declaration`` of the text whose pieces are ``texts``, a piece at a
    time; the text must start as XML does (after white space, with a '<')."""
    head = ""
    pieces = iter(texts)
    for text in pieces:
        head += text
        if _declaration_known(head):
            break
    if not head.lstrip("\ufeff \t\r\n").startswith("<"):
        from sitemap_lint.domain.robotstxt import looks_like_robots

        if looks_like_robots(head):
            raise SplitError(
                "it is a robots.txt, not a sitemap: it lists sitemaps and has no URLs to "
                "split; split the sitemaps its Sitemap lines name"
            )
        raise SplitError(
            "it is not an XML sitemap (a text sitemap is split by its lines, e.g. split -l 50000)"
        )
    yield _without_declaration(head)
    yield from pieces


def _declaration_known(head: str) -> bool:
    """Whether the start of a text, ``head``, tells whether and where its XML declaration
    ends (``_DECLARATION``), whatever text comes after it."""
    stripped = head.lstrip("\ufeff \t\r\n")
    if len(stripped) < 6:
        return bool(stripped) and not "<?xml".startswith(stripped[:5])
    if not (stripped.startswith("<?xml") and stripped[5] in " \t\r\n"):
        return True
    return "?>" in stripped[6:]


def _refuse_links(targets: list[Path]) -> None:
    """Refuse before anything is written when one of ``targets`` is a symbolic link: the
    file written would be the one it points at, wherever that is (outside --out-dir, or
    the input itself), and a link to no file would make one there."""
    for target in targets:
        if target.is_symlink():
            raise SplitError(
                f"{target}: cannot write: it is a symbolic link (to {os.readlink(target)}), "
                "and the split writes its files in --out-dir itself: remove the link or give "
                "another --out-dir; nothing was written"
            )


def _refuse_unwritable(targets: list[Path]) -> None:
    """Refuse before anything is written when one of ``targets`` cannot be replaced by a
    file (a directory stands there, or a file nobody may write)."""
    from sitemap_lint.inputs.reader import file_kind

    for target in targets:
        try:
            mode = os.stat(target).st_mode
        except OSError:
            continue  # made by the split (or refused as it is written)
        if not stat.S_ISREG(mode):
            raise SplitError(
                f"{target}: cannot write: it is not a regular file ({file_kind(mode)}); "
                "nothing was written"
            )
        if not os.access(target, os.W_OK) or not mode & 0o222:
            raise SplitError(f"{target}: cannot write: the file is read-only; nothing was written")


# An earlier split's index, read to know the parts it lists: larger is none of ours.
_MAX_INDEX_READ = 64 * 1024 * 1024
_INDEX_LOC = re.compile(r"<loc>\s*([^<]*?)\s*</loc>")


def _refuse_other_files(name: str, stem: str, parts: list[Path], index_path: Path) -> None:
    """Refuse before anything is written to replace a file no earlier split of ``stem``
    wrote: an index there must list only parts of ``stem`` (a site's own
    ``sitemap-index.xml`` is not replaced), and without one no part may be there."""
    if index_path.exists():
        if not _earlier_index(index_path, stem):
            raise SplitError(
                f"{index_path}: it is not the index of an earlier split of {name}, which "
                "would replace it; move it or give another --out-dir; nothing was written"
            )
        return
    for part in parts:
        if part.exists():
            raise SplitError(
                f"{part}: it is no part of an earlier split of {name} (there is no "
                f"{index_path.name}), which would replace it; move it or give another "
                "--out-dir; nothing was written"
            )


def _earlier_index(index_path: Path, stem: str) -> bool:
    """Whether the file at ``index_path`` is the index of an earlier split of ``stem``:
    an index whose every loc names a part of ``stem``."""
    from urllib.parse import unquote

    try:
        with open(index_path, "rb") as handle:
            data = handle.read(_MAX_INDEX_READ + 1)
    except OSError:
        return False
    text = data.decode("utf-8", "replace")
    if len(data) > _MAX_INDEX_READ or "<sitemapindex" not in text:
        return False
    part_name = re.compile(rf"{re.escape(stem)}-[0-9]+\.xml(?:\.gz)?")
    return all(
        part_name.fullmatch(unquote(loc.rpartition("/")[2])) is not None
        for loc in _INDEX_LOC.findall(text)
    )


def _stale_parts(out_dir: Path, stem: str, written: set[str]) -> list[str]:
    """The parts of an earlier split of ``stem`` that this one did not write: numbered
    past its parts, or compressed when its parts are not (or the reverse)."""
    pattern = re.compile(rf"{re.escape(stem)}-([0-9]+)\.xml(?:\.gz)?")
    found = []
    for entry in out_dir.iterdir():
        match = pattern.fullmatch(entry.name)
        if match is not None and entry.name not in written:
            found.append((int(match.group(1)), entry.name))
    return [name for _number, name in sorted(found)]

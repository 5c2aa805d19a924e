"""``sitemap-lint split``: a URL set over the limits as parts plus a sitemap index.

Every entry is copied as it is written in the file (extensions, namespaces and all),
in order, exactly once; the parts repeat the root element's start tag, so every
namespace the entries use stays declared. A part holds at most ``max_urls`` entries
and ``max_bytes`` bytes uncompressed (the protocol's 50,000 and 50 MiB by default).
The index lists the parts with the newest ``lastmod`` of their entries.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from xml.parsers import expat

from sitemap_lint.fix.locate import escape_text

MAX_URLS = 50_000
MAX_BYTES = 50 * 1024 * 1024
DECLARATION = b'<?xml version="1.0" encoding="UTF-8"?>\n'
INDEX_NS = "http://www.sitemaps.org/schemas/sitemap/0.9"
_TAG_END = re.compile(rb"""(?:[^>"']|"[^"]*"|'[^']*')*>""")


class SplitError(Exception):
    """The file cannot be split; the message is one line."""


@dataclass
class Entry:
    raw: bytes  # the element as written, start tag to end tag
    lastmod: str | None = None


@dataclass
class Parsed:
    root_tag: bytes  # the root's start tag as written
    root_name: str
    entries: list[Entry] = field(default_factory=list)


def parse(data: bytes) -> Parsed:
    """The root start tag and the entries of a URL set (``data`` is UTF-8)."""
    parser = expat.ParserCreate()
    parser.buffer_text = True
    depth = 0
    root: list[tuple[bytes, str]] = []
    entries: list[Entry] = []
    start_at = 0
    start_tag_end = 0
    in_lastmod = False
    lastmod: list[str] = []

    def tag_end(at: int) -> int:
        match = _TAG_END.match(data, at + 1)
        if match is None:
            raise SplitError("a tag that does not end")
        return match.end()

    def start(name: str, attrs: dict[str, str]) -> None:
        nonlocal depth, start_at, start_tag_end, in_lastmod
        depth += 1
        at = parser.CurrentByteIndex
        if depth == 1:
            if name.rsplit(":", 1)[-1] != "urlset":
                raise SplitError(f"the root element is <{name}>; only a <urlset> can be split")
            root.append((data[at : tag_end(at)], name))
        elif depth == 2:
            start_at = at
            start_tag_end = tag_end(at)
            lastmod.clear()
        elif depth == 3 and name.rsplit(":", 1)[-1] == "lastmod" and ":" not in name:
            in_lastmod = True

    def end(name: str) -> None:
        nonlocal depth, in_lastmod
        at = parser.CurrentByteIndex
        if depth == 2:
            stop = start_tag_end if at == start_at else tag_end(at)
            value = "".join(lastmod).strip() or None
            entries.append(Entry(data[start_at:stop], value))
        in_lastmod = False
        depth -= 1

    def text(chunk: str) -> None:
        if in_lastmod:
            lastmod.append(chunk)

    def doctype(*_args: object) -> None:
        raise SplitError("the file has a DOCTYPE; remove it first (sitemaps allow none)")

    parser.StartDoctypeDeclHandler = doctype
    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = text
    try:
        parser.Parse(data, True)
    except expat.ExpatError as error:
        raise SplitError(
            f"not well-formed XML at line {error.lineno}: {expat.ErrorString(error.code)}; "
            "run sitemap-lint --fix first or repair it by hand"
        ) from None
    if not root:
        raise SplitError("no root element")
    return Parsed(root[0][0], root[0][1], entries)


@dataclass
class Part:
    name: str
    data: bytes
    count: int
    lastmod: str | None


def plan(
    parsed: Parsed, stem: str, max_urls: int, max_bytes: int, gzip: bool = False
) -> list[Part]:
    """The parts: entries in order, each part within both limits."""
    head = DECLARATION + parsed.root_tag + b"\n"
    foot = f"</{parsed.root_name}>\n".encode()
    fixed = len(head) + len(foot)
    parts: list[Part] = []
    chunk: list[Entry] = []
    size = fixed

    def close() -> None:
        body = b"".join(b"  " + e.raw + b"\n" for e in chunk)
        suffix = ".xml.gz" if gzip else ".xml"
        name = f"{stem}-{len(parts) + 1}{suffix}"
        parts.append(Part(name, head + body + foot, len(chunk), _newest(chunk)))

    for entry in parsed.entries:
        cost = len(entry.raw) + 3
        if fixed + cost > max_bytes:
            raise SplitError(
                f"an entry of {len(entry.raw):,} bytes does not fit in a part of "
                f"{max_bytes:,} bytes"
            )
        if chunk and (len(chunk) >= max_urls or size + cost > max_bytes):
            close()
            chunk, size = [], fixed
        chunk.append(entry)
        size += cost
    if chunk or not parts:
        close()
    return parts


def index(parts: list[Part], base_url: str) -> bytes:
    """The sitemap index that lists ``parts`` under ``base_url``."""
    base = base_url if base_url.endswith("/") else base_url + "/"
    lines = [DECLARATION.decode(), f'<sitemapindex xmlns="{INDEX_NS}">\n']
    for part in parts:
        lines.append(f"  <sitemap>\n    <loc>{escape_text(base + part.name)}</loc>\n")
        if part.lastmod is not None:
            lines.append(f"    <lastmod>{escape_text(part.lastmod)}</lastmod>\n")
        lines.append("  </sitemap>\n")
    lines.append("</sitemapindex>\n")
    return "".join(lines).encode("utf-8")


def _newest(entries: list[Entry]) -> str | None:
    """The latest ``lastmod`` of ``entries`` as written (None when none can be read)."""
    best: tuple[datetime, str] | None = None
    for entry in entries:
        if entry.lastmod is None:
            continue
        moment = _moment(entry.lastmod)
        if moment is not None and (best is None or moment > best[0]):
            best = (moment, entry.lastmod)
    return None if best is None else best[1]


def _moment(value: str) -> datetime | None:
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        try:  # a year or a year and month alone
            moment = datetime.fromisoformat(
                value + ("-01-01" if len(value) == 4 else "-01" if len(value) == 7 else "")
            )
        except ValueError:
            return None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def split_file(
    path: Path,
    base_url: str,
    out_dir: Path,
    max_urls: int = MAX_URLS,
    max_bytes: int = MAX_BYTES,
    gzip: bool = False,
) -> tuple[list[Part], Path]:
    """Split the sitemap at ``path`` into ``out_dir``; the parts and the index's path."""
    import gzip as gzip_module

    from sitemap_lint.fix.engine import decode, read_source
    from sitemap_lint.fix.write import WriteError, write_atomic
    from sitemap_lint.inputs.reader import Source

    if max_urls < 1 or max_bytes < 1:
        raise SplitError("--max-urls and --max-bytes must be positive")
    decoded = decode(read_source(Source(str(path), path)))
    if isinstance(decoded, str):
        raise SplitError(f"{path}: cannot be split: {decoded}")
    text = decoded.text
    at = text.find("<?xml")
    if at >= 0:  # the parts get a declaration of their own (UTF-8)
        end = text.find("?>", at)
        text = text[end + 2 :] if end >= 0 else text
    parsed = parse(text.encode("utf-8"))
    stem = path.name
    for suffix in (".gz", ".xml"):
        stem = stem.removesuffix(suffix)
    parts = plan(parsed, stem, max_urls, max_bytes, gzip)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        for part in parts:
            data = gzip_module.compress(part.data, mtime=0) if gzip else part.data
            write_atomic(out_dir / part.name, data, create=True)
        index_path = out_dir / f"{stem}-index.xml"
        write_atomic(index_path, index(parts, base_url), create=True)
    except (OSError, WriteError) as error:
        raise SplitError(str(error)) from None
    return parts, index_path

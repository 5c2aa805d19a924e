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
Other comments between the entries are not copied.

The parts are served under the base URL, and a sitemap may list only URLs under its
own directory (rules SC001 and SC002): a base URL that puts entries out of the parts'
scope is refused (unless forced), naming the directory common to the entries.

A file in the output directory that no earlier split of the file wrote (a site's own
``sitemap-index.xml``) is never replaced: the split is refused.
"""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from xml.parsers import expat

from sitemap_lint.domain.urls import ParsedURL
from sitemap_lint.fix.model import escape_text

MAX_URLS = 50_000
MAX_BYTES = 50 * 1024 * 1024
MAX_SITEMAPS = 50_000  # in one index
DECLARATION = b'<?xml version="1.0" encoding="UTF-8"?>\n'
INDEX_NS = "http://www.sitemaps.org/schemas/sitemap/0.9"
# Only where a declaration may stand: at the start (after a byte order mark, or the
# white space the checks report), never a "<?xml" in a comment or a CDATA section.
_DECLARATION = re.compile(r"[\ufeff \t\r\n]*<\?xml[ \t\r\n].*?\?>", re.DOTALL)
_TAG_END = re.compile(rb"""(?:[^>"']|"[^"]*"|'[^']*')*>""")
_LINE_END = re.compile(rb"\r\n|\r|\n")


class SplitError(Exception):
    """The file cannot be split; the message is one line."""


@dataclass
class Entry:
    raw: bytes  # the element as written, start tag to end tag
    lastmod: str | None = None
    loc: str | None = None
    lead: bytes = b""  # the disable-next-line comments written before it, and their line end
    url: bool = True  # a <url>, not another element of the root (an extension's)


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

    def head(self, entries: range) -> bytes:
        """A part's declaration, the disable-file comments its own ``entries`` do not
        hold, and the root's start tag."""
        copied = b"".join(
            comment + self.newline
            for holder, comment in self.file_directives
            if holder is None or holder not in entries
        )
        declaration = DECLARATION.replace(b"\n", self.newline)
        return declaration + copied + self.root_lead + self.root_tag + self.newline


def parse(data: bytes) -> Parsed:
    """The root start tag and the entries of a URL set (``data`` is UTF-8)."""
    parser = expat.ParserCreate()
    parser.buffer_text = True
    depth = 0
    root: list[tuple[bytes, str]] = []
    entries: list[Entry] = []
    start_at = 0
    start_tag_end = 0
    field_names: tuple[str, str, str] = ("url", "loc", "lastmod")  # with the root's prefix
    is_url = True  # the element being read is a <url>
    gathering: list[str] | None = None
    lastmod: list[str] = []
    loc: list[str] = []
    file_directives: list[tuple[int | None, bytes]] = []
    waiting: list[tuple[bytes, int]] = []  # disable-next-line comments: text, end offset
    leads: list[bytes] = [b""]  # the root's, then each entry's
    first_break = _LINE_END.search(data)
    newline = b"\n" if first_break is None else first_break.group()

    def lead(at: int, indent: bytes) -> bytes:
        """The waiting disable-next-line comments that silence the line of the element
        starting at ``at`` (on the line before it) or its second line (on its first
        line); the others silence no line of it and are left out."""
        kept = []
        for comment, stop in waiting:
            breaks = len(_LINE_END.findall(data, stop, at))
            if breaks <= 1:
                kept.append(comment + (newline + indent if breaks else b" "))
        waiting.clear()
        return b"".join(kept)

    def comment(text: str) -> None:
        action = _directive(text)
        if action is None:
            return
        at = parser.CurrentByteIndex
        stop = data.index(b"-->", at) + 3
        if action == "disable-file":
            file_directives.append((len(entries) if depth >= 2 else None, data[at:stop]))
        elif depth < 2:  # one within an entry goes with it
            waiting.append((data[at:stop], stop))

    def tag_end(at: int) -> int:
        match = _TAG_END.match(data, at + 1)
        if match is None:
            raise SplitError("a tag that does not end")
        return match.end()

    def start(name: str, attrs: dict[str, str]) -> None:
        nonlocal depth, start_at, start_tag_end, gathering, field_names, is_url
        depth += 1
        at = parser.CurrentByteIndex
        if depth == 1:
            if name.rsplit(":", 1)[-1] != "urlset":
                raise SplitError(f"the root element is <{name}>; only a <urlset> can be split")
            root.append((data[at : tag_end(at)], name))
            leads[0] = lead(at, b"")
            prefix = name.removesuffix("urlset")
            field_names = (f"{prefix}url", f"{prefix}loc", f"{prefix}lastmod")
        elif depth == 2:
            start_at = at
            start_tag_end = tag_end(at)
            is_url = name == field_names[0]
            lastmod.clear()
            loc.clear()
            leads.append(lead(at, b"  "))
        elif depth == 3 and name in field_names[1:]:
            gathering = loc if name == field_names[1] else lastmod

    def end(name: str) -> None:
        nonlocal depth, gathering
        at = parser.CurrentByteIndex
        if depth == 2:
            stop = start_tag_end if at == start_at else tag_end(at)
            value = "".join(lastmod).strip() or None
            url = "".join(loc).strip() or None
            entries.append(Entry(data[start_at:stop], value, url, leads[-1], is_url))
        gathering = None
        depth -= 1

    def text(chunk: str) -> None:
        if gathering is not None:
            gathering.append(chunk)

    def doctype(*_args: object) -> None:
        raise SplitError("the file has a DOCTYPE; remove it first (sitemaps allow none)")

    parser.StartDoctypeDeclHandler = doctype
    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = text
    parser.CommentHandler = comment
    try:
        parser.Parse(data, True)
    except expat.ExpatError as error:
        raise SplitError(
            f"not well-formed XML at line {error.lineno}: {expat.ErrorString(error.code)}; "
            "run sitemap-lint --fix first or repair it by hand"
        ) from None
    if not root:
        raise SplitError("no root element")
    return Parsed(root[0][0], root[0][1], entries, leads[0], file_directives, newline)


def _directive(text: str) -> str | None:
    """The action of the inline directive ``text`` (a comment's), or None."""
    from sitemap_lint.rules.suppression import ACTIONS, directive_parts

    parts = directive_parts(text)
    return parts[0] if parts is not None and parts[0] in ACTIONS else None


@dataclass
class Part:
    name: str
    data: bytes
    count: int  # its <url> entries
    lastmod: str | None


def plan(
    parsed: Parsed, stem: str, max_urls: int, max_bytes: int, gzip: bool = False
) -> list[Part]:
    """The parts: entries in order, each part within both limits."""
    if not any(entry.url for entry in parsed.entries):
        raise SplitError(
            f"the <{parsed.root_name}> has no <url> entries, so there is nothing to split "
            "(a sitemap needs at least one: ST008)"
        )
    foot = f"</{parsed.root_name}>".encode() + parsed.newline
    fixed = len(parsed.head(range(0))) + len(foot)  # the longest head: every directive
    parts: list[Part] = []
    chunk: list[Entry] = []
    first = 0  # the index of the chunk's first entry
    size = fixed
    urls = 0  # the chunk's <url> entries

    def close() -> None:
        head = parsed.head(range(first, first + len(chunk)))
        body = b"".join(b"  " + e.lead + e.raw + parsed.newline for e in chunk)
        suffix = ".xml.gz" if gzip else ".xml"
        name = f"{stem}-{len(parts) + 1}{suffix}"
        count = sum(entry.url for entry in chunk)
        parts.append(Part(name, head + body + foot, count, _newest(chunk)))

    for entry in parsed.entries:
        cost = len(entry.lead) + len(entry.raw) + 2 + len(parsed.newline)
        if fixed + cost > max_bytes:
            raise SplitError(
                f"an entry of {len(entry.raw):,} bytes does not fit in a part of "
                f"{max_bytes:,} bytes"
            )
        if chunk and ((entry.url and urls >= max_urls) or size + cost > max_bytes):
            close()
            first += len(chunk)
            chunk, size, urls = [], fixed, 0
        chunk.append(entry)
        size += cost
        urls += entry.url
    close()
    return parts


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


def _outside(urls: list[ParsedURL], part_url: str) -> int:
    """How many of ``urls`` a sitemap served at ``part_url`` may not list (SC001, SC002)."""
    from sitemap_lint.engine.sink import FindingList
    from sitemap_lint.model import Node
    from sitemap_lint.rules.scope import ScopeChecker
    from sitemap_lint.rules.urls import parse_url

    checker = ScopeChecker(parse_url(part_url))
    found = FindingList()
    node = Node("", "loc", {}, 1, 1)
    for url in urls:
        checker.check(url, node, found)
    return len(found)


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
    from sitemap_lint.rules.urls import parse_url

    base = _directory(base_url)
    if all(_plainly_under(entry.loc, base) for entry in parsed.entries):
        return None  # the common case, without reading a million URLs
    # A URL that cannot be read is the URL rules' to report, not a matter of scope.
    read = (parse_url(entry.loc) for entry in parsed.entries if entry.loc is not None)
    urls = [url for url in read if url is not None]
    outside = _outside(urls, base + part_path(part_name))
    if not outside:
        return None
    message = (
        f"--base-url {base_url} puts {outside:,} of {len(urls):,} entries out of the parts' "
        f"scope (a sitemap may list only URLs under its own directory, here {base})"
    )
    fitting = _common_directory(urls)
    if fitting is not None and _outside(urls, fitting + part_path(part_name)):
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


def _common_directory(urls: list[ParsedURL]) -> str | None:
    """The deepest directory URL above every one of ``urls`` (None: several origins),
    their paths compared as the scope rules compare them (``~`` is ``%7E``)."""
    from sitemap_lint.domain.urls import normal_path

    origins = {url.origin for url in urls}
    if len(origins) != 1:
        return None
    shared: list[str] = []
    paths = (normal_path(url.path).split("/")[:-1] for url in urls)
    for segments in zip(*paths, strict=False):
        if any(segment != segments[0] for segment in segments):
            break
        shared.append(segments[0])
    return origins.pop() + "/".join(shared) + "/"


def _newest(entries: list[Entry]) -> str | None:
    """The latest ``lastmod`` of ``entries`` as written, of those the date rules find
    nothing wrong with (None when there is none): the index is not given a value they
    report."""
    from sitemap_lint.rules.dates import read_date

    best: tuple[datetime, str] | None = None
    for entry in entries:
        if entry.lastmod is None:
            continue
        parsed, problems = read_date(entry.lastmod)
        if parsed is None or problems:
            continue
        moment = parsed.moment
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=UTC)
        if best is None or moment > best[0]:
            best = (moment, entry.lastmod)
    return None if best is None else best[1]


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
    ``Written.warning``."""
    import gzip as gzip_module

    from sitemap_lint.fix.engine import decode, read_source
    from sitemap_lint.fix.write import Staged, WriteError, stage
    from sitemap_lint.inputs.reader import Source

    if not 1 <= max_urls <= MAX_URLS:
        raise SplitError(
            f"--max-urls {max_urls}: give from 1 to {MAX_URLS:,}, the protocol's limit"
        )
    if not 1 <= max_bytes <= MAX_BYTES:
        raise SplitError(
            f"--max-bytes {max_bytes}: give from 1 to {MAX_BYTES:,} bytes (50MiB), the "
            "protocol's limit"
        )
    decoded = decode(read_source(Source(str(path), path)))
    if isinstance(decoded, str):
        raise SplitError(f"{path}: cannot be split: {decoded}")
    text = decoded.text
    if not text.lstrip("\ufeff \t\r\n").startswith("<"):
        raise SplitError(
            f"{path}: cannot be split: it is not an XML sitemap (a text sitemap is split by "
            "its lines, e.g. split -l 50000)"
        )
    stem = path.name
    for suffix in (".gz", ".xml"):
        stem = stem.removesuffix(suffix)
    try:
        parsed = parse(_without_declaration(text).encode("utf-8"))
        parts = plan(parsed, stem, max_urls, max_bytes, gzip)
    except SplitError as error:
        raise SplitError(f"{path}: cannot be split: {error}") from None
    if len(parts) > MAX_SITEMAPS:
        raise SplitError(
            f"{path}: cannot be split: {len(parts):,} parts, more than the {MAX_SITEMAPS:,} "
            "an index may list; give a larger --max-urls or --max-bytes"
        )
    _refuse_base_url_with_errors(base_url, parts[0].name)
    problem = out_of_scope(parsed, base_url, parts[0].name)
    if problem is not None and not force:
        raise SplitError(problem.refusal())
    index_path = out_dir / f"{stem}-index.xml"
    targets = [out_dir / part.name for part in parts] + [index_path]
    _refuse_links(targets)
    _refuse_unwritable(targets)
    _refuse_other_files(path.name, stem, targets[:-1], index_path)
    contents = [gzip_module.compress(part.data, mtime=0) if gzip else part.data for part in parts]
    contents.append(index(parts, base_url))
    # Every file is written in full beside its place before any is renamed there: a
    # write that fails (a full disk) leaves the directory as it was, an earlier split's
    # parts and index included.
    staged: list[Staged] = []
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        reason = "it is not a directory" if out_dir.exists() else error.strerror or str(error)
        raise SplitError(f"--out-dir {out_dir}: {reason}; nothing was written") from None
    try:
        for target, data in zip(targets, contents, strict=True):
            staged.append(stage(target, data, create=True))
    except BaseException as error:
        for done in staged:
            done.discard()
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
    stale = _stale_parts(out_dir, stem, {part.name for part in parts})
    if stale:
        warnings.append(
            f"{out_dir} still holds {', '.join(stale)} from an earlier split, which the new "
            "index does not list: remove them"
        )
    return Written(parts, index_path, "; ".join(warnings) or None)


def _refuse_base_url_with_errors(base_url: str, part_name: str) -> None:
    """Refuse a base URL that would give the index a URL the URL rules report, once
    encoded (a user name, a stray '%'...): their message says how to write it."""
    from sitemap_lint.engine.sink import FindingList
    from sitemap_lint.finding import Severity
    from sitemap_lint.model import Node
    from sitemap_lint.rules.urls import check_url

    found = FindingList()
    check_url(index_base(base_url) + part_path(part_name), Node("", "loc", {}, 1, 1), found)
    for finding in found:
        if finding.severity >= Severity.WARNING:
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

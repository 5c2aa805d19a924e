"""Property-based fuzzing of the whole check (hypothesis).

Sitemaps come from a small grammar (``urlset`` or ``sitemapindex``; entries with
``loc``, ``lastmod``, ``changefreq`` and ``priority`` holding valid values; a
few layouts, line endings and escapes), and are then mutated at three levels:
bytes (flips, insertions, deletions, repeats, cuts), characters (markup
characters, NUL, invalid UTF-8, non-ASCII, case) and elements (children dropped,
repeated, reordered, renamed, moved, nested, junk text and attributes added);
values are also replaced by odd ones (any characters, URLs assembled from odd
parts, numbers, dates), and documents re-encoded (BOM, UTF-16, UTF-32, Latin-1)
or gzip-compressed, then possibly damaged.

For every input, run in-process through ``run.execute`` (what the CLI runs):

- no exception escapes, and the exit status is 0 or 1;
- the JSON report parses; every finding has a registered code with its name,
  a severity, ``1 <= line <= lines in the content + 1`` and ``column >= 1``;
- linting twice gives the same report, and the text report gives the same status;
- a valid generated sitemap gets no error (and no warning) finding.

The normal suite runs a small, derandomized number of examples per property
(150; about 10 s in all). A long, randomized run, one property at a time (each
property gets ``SITEMAP_LINT_FUZZ_EXAMPLES`` examples; ``timeout`` bounds it):

    for test in mutated_sitemaps valid_sitemaps arbitrary_bytes; do
        SITEMAP_LINT_FUZZ_EXAMPLES=40000 timeout 30m python -m pytest tests/test_fuzz.py \
            -k "$test" -p no:cacheprovider -x -q --hypothesis-show-statistics
    done

The environment variable also turns derandomization off and keeps failing
examples in hypothesis's database (``.hypothesis/``, ignored by git), which
replays them first on the next run. ``--hypothesis-seed=N`` repeats a run.
"""

from __future__ import annotations

import gzip
import io
import json
import os
import string
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sitemap_lint.engine.dispatch import InputChecks
from sitemap_lint.engine.sink import FindingList
from sitemap_lint.finding import Severity
from sitemap_lint.inputs.reader import ByteStream, Source
from sitemap_lint.rules import RULES
from sitemap_lint.run import RunSettings, execute

pytestmark = pytest.mark.slow

NS = "http://www.sitemaps.org/schemas/sitemap/0.9"
NOW = "2025-06-01T00:00:00Z"

_LONG_RUN = os.environ.get("SITEMAP_LINT_FUZZ_EXAMPLES")
FUZZ = settings(
    max_examples=int(_LONG_RUN) if _LONG_RUN else 150,
    deadline=None,
    derandomize=not _LONG_RUN,
    database=None if not _LONG_RUN else settings.default.database,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


# -- a document as a tree, so that it can be mutated element by element ---------------


@dataclass
class Element:
    tag: str
    attrs: list[tuple[str, str]] = field(default_factory=list)
    children: list[Element | str] = field(default_factory=list)  # str: raw (escaped) text


@dataclass
class Layout:
    declaration: bool = True
    newline: str = "\n"
    indent: str = "  "
    comment: bool = False


def serialize(root: Element, layout: Layout) -> str:
    parts: list[str] = []
    if layout.declaration:
        parts.append(f'<?xml version="1.0" encoding="UTF-8"?>{layout.newline}')
    if layout.comment:
        parts.append(f"<!-- generated -->{layout.newline}")
    _write(root, 0, layout, parts)
    parts.append(layout.newline)
    return "".join(parts)


def _write(element: Element, depth: int, layout: Layout, parts: list[str]) -> None:
    attrs = "".join(f' {name}="{value}"' for name, value in element.attrs)
    if not element.children:
        parts.append(f"<{element.tag}{attrs}/>")
        return
    parts.append(f"<{element.tag}{attrs}>")
    only_text = all(isinstance(child, str) for child in element.children)
    for child in element.children:
        if isinstance(child, str):
            parts.append(child)
        else:
            if not only_text:
                parts.append(layout.newline + layout.indent * (depth + 1))
            _write(child, depth + 1, layout, parts)
    if not only_text:
        parts.append(layout.newline + layout.indent * depth)
    parts.append(f"</{element.tag}>")


# -- valid sitemaps -------------------------------------------------------------------

HOSTS = ("example.com", "www.example.org", "shop.example.net:8080", "xn--bcher-kva.example")
SEGMENTS = st.text(string.ascii_lowercase + string.digits + "-._~", min_size=1, max_size=10).filter(
    lambda s: s not in (".", "..")
)
CHANGEFREQS = ("always", "hourly", "daily", "weekly", "monthly", "yearly", "never")
AMPERSANDS = ("&amp;", "&#38;", "&#x26;")


@st.composite
def locs(draw, scheme: str, host: str) -> str:
    segments = draw(st.lists(SEGMENTS, max_size=4))
    url = f"{scheme}://{host}/" + "/".join(segments)
    if draw(st.booleans()):
        pairs = draw(st.lists(st.tuples(SEGMENTS, SEGMENTS), min_size=1, max_size=3))
        amp = draw(st.sampled_from(AMPERSANDS))
        url += "?" + amp.join(f"{key}={value}" for key, value in pairs)
    return url


@st.composite
def lastmods(draw) -> str:
    day = draw(st.dates(min_value=_date(2000, 1, 1), max_value=_date(2024, 12, 31)))
    if draw(st.booleans()):
        return day.isoformat()
    hour, minute, second = (
        draw(st.integers(0, 23)),
        draw(st.integers(0, 59)),
        draw(st.integers(0, 59)),
    )
    fraction = draw(st.sampled_from(("", ".5", ".123", ".000001")))
    zone = draw(st.sampled_from(("Z", "+00:00", "-05:00", "+05:30", "+14:00", "-12:00")))
    return f"{day.isoformat()}T{hour:02d}:{minute:02d}:{second:02d}{fraction}{zone}"


def _date(year: int, month: int, day: int):
    import datetime

    return datetime.date(year, month, day)


PRIORITIES = st.one_of(
    st.integers(0, 10).map(lambda n: f"{n / 10:.1f}"),
    st.integers(0, 100).map(lambda n: f"{n / 100:.2f}"),
    st.sampled_from(("0", "1", "0.5", "1.0", "0.0")),
)


def _leaf(tag: str, text: str, cdata: bool = False) -> Element:
    return Element(tag, children=[f"<![CDATA[{text}]]>" if cdata else text])


@st.composite
def valid_trees(draw) -> Element:
    index = draw(st.booleans())
    scheme = draw(st.sampled_from(("https", "http")))
    host = draw(st.sampled_from(HOSTS))
    urls = draw(st.lists(locs(scheme, host), min_size=1, max_size=8, unique=True))
    entries: list[Element | str] = []
    for url in urls:
        use_cdata = draw(st.integers(0, 9)) == 0 and "&" not in url
        children: list[Element | str] = [_leaf("loc", url, cdata=use_cdata)]
        if draw(st.booleans()):
            children.append(_leaf("lastmod", draw(lastmods())))
        if not index:
            if draw(st.booleans()):
                children.append(_leaf("changefreq", draw(st.sampled_from(CHANGEFREQS))))
            if draw(st.booleans()):
                children.append(_leaf("priority", draw(PRIORITIES)))
        entries.append(Element("sitemap" if index else "url", children=children))
    root = "sitemapindex" if index else "urlset"
    return Element(root, attrs=[("xmlns", NS)], children=entries)


LAYOUTS = st.builds(
    Layout,
    declaration=st.booleans(),
    newline=st.sampled_from(("\n", "\r\n", "\r", "")),
    indent=st.sampled_from(("", "  ", "\t")),
    comment=st.booleans(),
)


@st.composite
def valid_sitemaps(draw) -> bytes:
    text = serialize(draw(valid_trees()), draw(LAYOUTS))
    if draw(st.integers(0, 9)) == 0:
        return b"\xef\xbb\xbf" + text.encode()  # a BOM is only an info finding
    return text.encode()


# -- mutations ------------------------------------------------------------------------

JUNK = st.text(
    st.sampled_from(list("<>&;\"'=/!?[]-#%x \t\r\n\x00\x01\ufffd\u2028\u00e9\u20ac\U0001f600")),
    min_size=1,
    max_size=8,
)
NAMES = (
    "url",
    "sitemap",
    "loc",
    "lastmod",
    "changefreq",
    "priority",
    "urlset",
    "sitemapindex",
    "foo",
    "image:image",
    "image:loc",
    "xhtml:link",
    "news:news",
    "video:video",
    "x:y",
    "html",
)
ATTRIBUTES = (
    ("id", "1"),
    ("xmlns", "http://www.google.com/schemas/sitemap/0.84"),
    ("xmlns", ""),
    ("xmlns:image", "http://www.google.com/schemas/sitemap-image/1.1"),
    ("xmlns:xhtml", "http://www.w3.org/1999/xhtml"),
    ("xmlns:x", "urn:other"),
    ("xsi:schemaLocation", "urn:a b"),
    ("xmlns:xsi", "http://www.w3.org/2001/XMLSchema-instance"),
    ("rel", "alternate"),
    ("hreflang", "en"),
    ("href", "https://example.com/"),
)


def _elements(root: Element) -> list[Element]:
    found, stack = [], [root]
    while stack:
        element = stack.pop()
        found.append(element)
        stack.extend(child for child in element.children if isinstance(child, Element))
    return found


@st.composite
def element_mutations(draw, root: Element) -> Element:
    for _ in range(draw(st.integers(1, 4))):
        elements = _elements(root)
        target = draw(st.sampled_from(elements))
        kind = draw(
            st.sampled_from(
                (
                    "drop",
                    "duplicate",
                    "reorder",
                    "junk",
                    "insert",
                    "rename",
                    "attribute",
                    "move",
                    "nest",
                    "retext",
                    "empty",
                )
            )
        )
        children = target.children
        if kind == "drop" and children:
            del children[draw(st.integers(0, len(children) - 1))]
        elif kind == "duplicate" and children:
            at = draw(st.integers(0, len(children) - 1))
            children.insert(at, _copy(children[at]))
        elif kind == "reorder" and len(children) > 1:
            order = draw(st.permutations(range(len(children))))
            target.children = [children[i] for i in order]
        elif kind == "junk":
            text = draw(JUNK)
            children.insert(draw(st.integers(0, len(children))), text)
        elif kind == "insert":
            name = draw(st.sampled_from(NAMES))
            content = draw(st.sampled_from(("", "https://example.com/x", "text")))
            new = Element(name, children=[content] if content else [])
            children.insert(draw(st.integers(0, len(children))), new)
        elif kind == "rename":
            target.tag = draw(st.sampled_from(NAMES))
        elif kind == "attribute":
            target.attrs.append(draw(st.sampled_from(ATTRIBUTES)))
        elif kind == "move" and len(elements) > 2:
            other = draw(st.sampled_from(elements))
            if other is not target and children:
                moved = children.pop(draw(st.integers(0, len(children) - 1)))
                if not (isinstance(moved, Element) and other in _elements(moved)):
                    other.children.append(moved)
        elif kind == "nest" and children:
            at = draw(st.integers(0, len(children) - 1))
            children[at] = Element(draw(st.sampled_from(NAMES)), children=[children[at]])
        elif kind == "retext":
            target.children = [draw(JUNK)]
        elif kind == "empty":
            target.children = []
    return root


def _copy(node: Element | str) -> Element | str:
    if isinstance(node, str):
        return node
    return Element(node.tag, list(node.attrs), [_copy(child) for child in node.children])


@st.composite
def element_mutated(draw) -> bytes:
    root = draw(element_mutations(draw(valid_trees())))
    return serialize(root, draw(LAYOUTS)).encode()


CHARACTERS = st.sampled_from(
    [*"<>&;\"'=/!?[]-#% \t\r\n\x00\x0b\ufffd\ufeff\u2028\u00e9\U0001f600", "\udc80", "\ud800"]
)


@st.composite
def character_mutated(draw) -> bytes:
    text = serialize(draw(valid_trees()), draw(LAYOUTS))
    for _ in range(draw(st.integers(1, 6))):
        at = draw(st.integers(0, len(text)))
        kind = draw(st.sampled_from(("insert", "delete", "replace", "case")))
        if kind == "insert":
            text = text[:at] + draw(st.text(CHARACTERS, min_size=1, max_size=4)) + text[at:]
        elif kind == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 12)) :]
        elif kind == "replace" and at < len(text):
            text = text[:at] + draw(CHARACTERS) + text[at + 1 :]
        elif kind == "case":
            end = at + draw(st.integers(1, 20))
            text = text[:at] + text[at:end].swapcase() + text[end:]
    # Lone surrogates become bytes that are not valid UTF-8.
    return text.encode("utf-8", errors="surrogatepass")


@st.composite
def byte_mutated(draw, base: bytes | None = None) -> bytes:
    data = bytearray(base if base is not None else draw(valid_sitemaps()))
    for _ in range(draw(st.integers(1, 6))):
        at = draw(st.integers(0, len(data)))
        kind = draw(st.sampled_from(("flip", "insert", "delete", "repeat", "cut", "random")))
        if kind == "flip" and at < len(data):
            data[at] ^= 1 << draw(st.integers(0, 7))
        elif kind == "insert":
            data[at:at] = draw(st.binary(min_size=1, max_size=8))
        elif kind == "delete":
            del data[at : at + draw(st.integers(1, 16))]
        elif kind == "repeat":
            data[at:at] = data[at : at + draw(st.integers(1, 64))] * draw(st.integers(1, 4))
        elif kind == "cut":
            del data[at:]
        elif kind == "random" and at < len(data):
            data[at : at + 4] = draw(st.binary(min_size=4, max_size=4))
    return bytes(data)


@st.composite
def reencoded(draw) -> bytes:
    text = serialize(draw(valid_trees()), draw(LAYOUTS))
    codec = draw(st.sampled_from(("utf-16", "utf-16-be", "utf-32", "latin-1", "utf-8-sig")))
    if codec == "latin-1":
        text = text.replace("UTF-8", "ISO-8859-1")
    data = text.encode(codec)
    return draw(byte_mutated(data)) if draw(st.booleans()) else data


@st.composite
def gzipped(draw) -> bytes:
    inner = draw(st.one_of(valid_sitemaps(), element_mutated(), character_mutated()))
    data = gzip.compress(inner, mtime=0)
    return draw(byte_mutated(data)) if draw(st.booleans()) else data


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


URL_PARTS = {
    "scheme": st.sampled_from(("https", "http", "HTTPS", "ftp", "mailto", "", "h ttp", "https:")),
    "slashes": st.sampled_from(("://", ":/", ":", "//", ":///", ":\\\\")),
    "userinfo": st.sampled_from(("", "user@", "user:pass@", "@", "a@b@")),
    "host": st.one_of(
        st.sampled_from(
            (
                "example.com",
                "EXAMPLE.com.",
                "xn--bcher-kva.example",
                "xn--",
                "b\u00fccher.example",
                "\u4f8b\u3048.\u30c6\u30b9\u30c8",
                "[::1]",
                "[::1",
                "[v1.x]",
                "127.0.0.1",
                "256.1.1.1",
                "a..b",
                "-a.com",
                "a" * 64 + ".com",
                "\u00e9" * 70 + ".com",
                "",
            )
        ),
        st.text(min_size=1, max_size=12),
    ),
    "port": st.sampled_from(("", ":80", ":0", ":65536", ":99999", ":-1", ":", ":x")),
    "path": st.text(
        st.sampled_from(list("/abc.~-_%20%zz% \u00e9\u20ac\U0001f600{}|\\^`\"<>[]'")),
        max_size=30,
    ),
    "query": st.sampled_from(("", "?", "?a=1&b=2", "?a=%", "?q=\u00e9", "?x=<y>")),
    "fragment": st.sampled_from(("", "#", "#top", "#\u00e9")),
}


@st.composite
def odd_urls(draw) -> str:
    parts = {name: draw(strategy) for name, strategy in URL_PARTS.items()}
    return (
        parts["scheme"]
        + parts["slashes"]
        + parts["userinfo"]
        + parts["host"]
        + parts["port"]
        + parts["path"]
        + parts["query"]
        + parts["fragment"]
    )


VALUES = st.one_of(
    st.text(max_size=40),  # any characters, also those XML does not allow
    odd_urls(),
    st.sampled_from(CHANGEFREQS).map(str.upper),
    st.decimals(allow_nan=True, allow_infinity=True).map(str),
    st.floats().map(str),
    st.datetimes().map(lambda moment: moment.isoformat()),
    st.sampled_from(("0.5 ", " daily", "1,0", "50%", "+0.5", ".5", "1e-1", "2024-02-30", "24:00")),
)


@st.composite
def value_mutated(draw) -> bytes:
    """A valid document with one to three values replaced by odd ones."""
    root = draw(valid_trees())
    leaves = [e for e in _elements(root) if e.children and isinstance(e.children[0], str)]
    for _ in range(draw(st.integers(1, 3))):
        leaf = draw(st.sampled_from(leaves))
        leaf.children = [_escape(draw(VALUES))]
    text = serialize(root, draw(LAYOUTS))
    return text.encode("utf-8", errors="surrogatepass")


MUTATED = st.one_of(
    value_mutated(),
    byte_mutated(),
    character_mutated(),
    element_mutated(),
    element_mutated().flatmap(byte_mutated),
    reencoded(),
    gzipped(),
)


# -- the properties -------------------------------------------------------------------


@pytest.fixture(scope="module")
def workdir(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


def lint_json(path: Path) -> tuple[int, str]:
    out = io.StringIO()
    status = execute(RunSettings(paths=[str(path)], format="json", now=NOW), out=out)
    return status, out.getvalue()


def content_lines(path: Path) -> int:
    """Lines of the (uncompressed) content as XML counts them; an upper bound for
    wide encodings, whose other characters may hold a 0x0A or 0x0D byte."""
    data = b"".join(ByteStream(Source(str(path), path), InputChecks(FindingList())).chunks())
    return 1 + data.count(b"\n") + data.count(b"\r") - data.count(b"\r\n")


def check_invariants(data: bytes, directory: Path, name: str | None = None) -> dict:
    if name is None:
        name = "sitemap.xml.gz" if data.startswith(b"\x1f\x8b") else "sitemap.xml"
    path = directory / name
    for stale in directory.iterdir():
        stale.unlink()
    path.write_bytes(data)

    status, report = lint_json(path)
    assert status in (0, 1)
    document = json.loads(report)
    assert document["version"] == 1
    [file] = document["files"]
    lines = content_lines(path)
    errors = 0
    for finding in file["findings"]:
        rule = RULES.get(finding["code"])
        assert rule is not None, finding
        assert finding["name"] == rule.name, finding
        assert finding["severity"] in ("error", "warning", "info"), finding
        assert finding["severity"] == str(rule.severity), finding
        assert isinstance(finding["message"], str) and finding["message"], finding
        assert 1 <= finding["line"] <= lines + 1, (finding, lines)
        assert finding["column"] >= 1, finding
        errors += finding["severity"] == "error"
    assert status == (1 if errors else 0)
    summary = document["summary"]
    assert summary["errors"] == errors
    assert summary["errors"] + summary["warnings"] + summary["infos"] == len(file["findings"])

    again_status, again = lint_json(path)
    assert (again_status, again) == (status, report), "linting twice gave different reports"
    text = io.StringIO()
    text_status = execute(RunSettings(paths=[str(path)], format="text", now=NOW), out=text)
    assert text_status == status
    return document


@FUZZ
@given(data=valid_sitemaps())
def test_valid_sitemaps_have_no_errors(data: bytes, workdir: Path) -> None:
    document = check_invariants(data, workdir)
    findings = document["files"][0]["findings"]
    serious = [f for f in findings if Severity.parse(f["severity"]) >= Severity.WARNING]
    assert serious == [], (data.decode("utf-8", "replace"), serious)


@FUZZ
@given(data=MUTATED)
def test_mutated_sitemaps_keep_the_invariants(data: bytes, workdir: Path) -> None:
    check_invariants(data, workdir)


@FUZZ
@given(data=st.binary(max_size=512))
def test_arbitrary_bytes_keep_the_invariants(data: bytes, workdir: Path) -> None:
    check_invariants(data, workdir)


# Pieces of text sitemaps, robots.txt files and feeds, joined by any line break.
TEXT_PIECES = [
    "https://example.com/",
    "https://example.com/a?b=1&c=2",
    "http://example.com/caf\u00e9",
    "https://ex ample.com/x",
    "/relative",
    "Sitemap: https://example.com/sitemap.xml",
    "Sitemap:/sitemap.xml",
    "sitemap https://example.com/s.xml",
    "User-agent: *",
    "User-agent: Googlebot",
    "Disallow: /private/",
    "Allow: /private/ok$",
    "Disallow: /*.pdf$",
    "# comment",
    "",
    "   ",
    "\t",
    "<urlset>",
    "https://example.com/a, https://example.com/b",
    "\x00",
    "\ufeff",
    "x" * 300,
]
BREAKS = ["\n", "\r\n", "\r"]


@st.composite
def text_files(draw) -> bytes:
    lines = draw(st.lists(st.sampled_from(TEXT_PIECES), max_size=12))
    separator = draw(st.sampled_from(BREAKS))
    text = separator.join(lines) + draw(st.sampled_from(["", separator]))
    encoding = draw(st.sampled_from(["utf-8", "utf-8", "latin-1", "utf-16"]))
    return text.encode(encoding, "replace")


FEED_PIECES = [
    "<item><title>A</title><link>https://example.com/a</link>"
    "<pubDate>Sat, 01 Mar 2025 10:00:00 GMT</pubDate></item>",
    "<item><link> https://example.com/b </link><pubDate>2025-03-01</pubDate></item>",
    "<item><guid>https://example.com/g</guid></item>",
    "<item><link>/relative</link><pubDate>Mon, 31 Feb 2025 10:00:00 GMT</pubDate></item>",
    "<entry><link href='https://example.com/e'/><updated>2025-03-01T10:00:00Z</updated></entry>",
    "<entry><link rel='self' href='https://example.com/s'/><updated>yesterday</updated></entry>",
    "<title>T</title>",
    "<!-- sitemap-lint: disable-file FD001 -->",
    "&amp;",
    "<item>",
    "</channel>",
]
FEED_HEADS = [
    '<rss version="2.0"><channel>',
    "<rss><channel>",
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    '<feed xmlns="http://purl.org/atom/ns#" version="0.3">',
    '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">',
]
FEED_TAILS = {"<rss": "</channel></rss>", "<feed": "</feed>", "<rdf": "</rdf:RDF>"}


@st.composite
def feeds(draw) -> bytes:
    head = draw(st.sampled_from(FEED_HEADS))
    body = "\n".join(draw(st.lists(st.sampled_from(FEED_PIECES), max_size=10)))
    tail = next(t for prefix, t in FEED_TAILS.items() if head.startswith(prefix))
    if draw(st.booleans()):
        tail = ""  # cut short
    return f'<?xml version="1.0" encoding="UTF-8"?>\n{head}\n{body}\n{tail}\n'.encode()


@FUZZ
@given(data=text_files(), name=st.sampled_from(["sitemap.txt", "robots.txt", "urls.xml"]))
def test_text_and_robots_files_keep_the_invariants(data: bytes, name: str, workdir: Path) -> None:
    check_invariants(data, workdir, name)


@FUZZ
@given(data=feeds())
def test_feeds_keep_the_invariants(data: bytes, workdir: Path) -> None:
    check_invariants(data, workdir, "feed.xml")

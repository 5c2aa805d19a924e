"""Hostile and broken inputs, generated on demand (never committed as files).

Shared by ``tests/test_hostile.py`` (which asserts how the CLI handles each one)
and ``bench/hostile.py`` (which measures time and peak memory). Every generator
writes in chunks, so even the 30 MB and > 1 GiB cases cost the generating
process only a few MiB.

``make(directory, trap)`` writes one input below ``directory`` and returns its
path; ``trap`` is an ``http://127.0.0.1:PORT/`` URL on which a test listens, so
that a fetch of an external entity or DTD would be seen.
"""

from __future__ import annotations

import contextlib
import gzip
import os
import random
import socket
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

NS = "http://www.sitemaps.org/schemas/sitemap/0.9"
DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n'
URLSET = f'<urlset xmlns="{NS}">\n'
MiB = 1 << 20
GiB = 1 << 30


@dataclass(frozen=True)
class Case:
    """One hostile input and what the CLI must make of it.

    ``status`` is the exit status; ``codes`` must all be among the findings
    (status 0 or 1), or ``message`` must be in the one stderr line (status 2).
    """

    name: str
    make: Callable[[Path, str], Path]
    status: int
    codes: tuple[str, ...] = ()
    message: str = ""
    note: str = ""


# -- small builders ------------------------------------------------------------------


def _url(loc: str) -> str:
    return f"  <url><loc>{loc}</loc></url>\n"


def sitemap_text(count: int, duplicate_first: bool = False) -> str:
    """A valid URL set of ``count`` entries; optionally the first URL repeated second."""
    locs = [f"https://example.com/page-{i}" for i in range(count)]
    if duplicate_first and count > 1:
        locs[1] = locs[0]
    return DECLARATION + URLSET + "".join(_url(loc) for loc in locs) + "</urlset>\n"


def _write(path: Path, text: str | bytes) -> Path:
    if isinstance(text, str):
        text = text.encode("utf-8")
    path.write_bytes(text)
    return path


def _doctype_sitemap(doctype: str, loc: str) -> str:
    return DECLARATION + doctype + "\n" + URLSET + _url(loc) + "</urlset>\n"


# -- entity attacks --------------------------------------------------------------------


def billion_laughs(directory: Path, _trap: str) -> Path:
    lines = ['<!ENTITY lol0 "lol">']
    for level in range(1, 10):
        lines.append(f'<!ENTITY lol{level} "{f"&lol{level - 1};" * 10}">')
    doctype = "<!DOCTYPE urlset [\n  " + "\n  ".join(lines) + "\n]>"
    return _write(directory / "laughs.xml", _doctype_sitemap(doctype, "https://example.com/&lol9;"))


def quadratic_blowup(directory: Path, _trap: str) -> Path:
    """One entity of 100 KB used 10,000 times: 1 GB if it were expanded."""
    doctype = f'<!DOCTYPE urlset [<!ENTITY big "{"a" * 100_000}">]>'
    return _write(
        directory / "quadratic.xml",
        _doctype_sitemap(doctype, "https://example.com/" + "&big;" * 10_000),
    )


def external_entity_file(directory: Path, _trap: str) -> Path:
    doctype = '<!DOCTYPE urlset [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>'
    return _write(
        directory / "xxe-file.xml", _doctype_sitemap(doctype, "https://example.com/&xxe;")
    )


def external_entity_http(directory: Path, trap: str) -> Path:
    doctype = f'<!DOCTYPE urlset [<!ENTITY xxe SYSTEM "{trap}entity.txt">]>'
    return _write(
        directory / "xxe-http.xml", _doctype_sitemap(doctype, "https://example.com/&xxe;")
    )


def parameter_entities(directory: Path, trap: str) -> Path:
    doctype = (
        "<!DOCTYPE urlset [\n"
        f'  <!ENTITY % remote SYSTEM "{trap}parameter.dtd">\n'
        "  %remote;\n"
        "  <!ENTITY % inner \"<!ENTITY leak SYSTEM 'file:///etc/passwd'>\">\n"
        "  %inner;\n"
        "]>"
    )
    return _write(
        directory / "parameter.xml", _doctype_sitemap(doctype, "https://example.com/&leak;")
    )


def external_dtd_http(directory: Path, trap: str) -> Path:
    doctype = f'<!DOCTYPE urlset SYSTEM "{trap}sitemap.dtd">'
    return _write(
        directory / "external-dtd.xml", _doctype_sitemap(doctype, "https://example.com/&ext;")
    )


# -- decompression ---------------------------------------------------------------------


def gzip_bomb(directory: Path, _trap: str, size: int = GiB + 64 * MiB) -> Path:
    """Over 1 GiB of spaces inside a URL set, about 1 MiB compressed.

    Deflate cannot do better than about 1,030:1, so "a few kilobytes" for a
    gigabyte is out of reach; the point is that the reader stops at its cap.
    Compressed in 1 MiB blocks: a full flush after the first block resets the
    dictionary, so every further block compresses to the same bytes, which are
    written again rather than computed again.
    """
    path = directory / "bomb.xml.gz"
    head = (DECLARATION + URLSET).encode()
    block = b" " * MiB
    compressor = zlib.compressobj(9, zlib.DEFLATED, 31)
    crc = zlib.crc32(head)
    blocks = size // MiB
    with open(path, "wb") as out:
        out.write(compressor.compress(head) + compressor.flush(zlib.Z_FULL_FLUSH))
        repeated = compressor.compress(block) + compressor.flush(zlib.Z_FULL_FLUSH)
        for _ in range(blocks):
            out.write(repeated)
            crc = zlib.crc32(block, crc)
        # The compressor saw one block only, so the end of the member is written
        # by hand: an empty final block, then the CRC-32 and length of it all.
        total = len(head) + blocks * MiB
        out.write(
            b"\x03\x00" + crc.to_bytes(4, "little") + (total % (1 << 32)).to_bytes(4, "little")
        )
    return path


def gz_name_plain_content(directory: Path, _trap: str) -> Path:
    return _write(directory / "sitemap.xml.gz", sitemap_text(3))


def gzip_content_plain_name(directory: Path, _trap: str) -> Path:
    return _write(directory / "sitemap.xml", gzip.compress(sitemap_text(3).encode()))


def _entries_text() -> bytes:
    """2,000 entries with the first URL repeated second (a DU001 early in the file)."""
    rng = random.Random(3)  # incompressible-ish URLs: a cut falls well inside the entries
    locs = [f"https://example.com/{rng.getrandbits(64):016x}" for _ in range(2000)]
    locs[1] = locs[0]
    return (DECLARATION + URLSET + "".join(_url(loc) for loc in locs) + "</urlset>\n").encode()


def gzip_truncated(directory: Path, _trap: str) -> Path:
    data = gzip.compress(_entries_text(), mtime=0)
    return _write(directory / "truncated.xml.gz", data[: len(data) // 2])


def gzip_corrupt_block(directory: Path, _trap: str) -> Path:
    """The first half compressed, then bytes that are no valid deflate block."""
    text = _entries_text()
    compressor = zlib.compressobj(9, zlib.DEFLATED, 31)
    head = compressor.compress(text[: len(text) // 2]) + compressor.flush(zlib.Z_FULL_FLUSH)
    # After a full flush the next byte starts a block header: 0xff is BFINAL=1
    # with block type 3, which deflate reserves ("invalid block type").
    return _write(directory / "corrupt-block.xml.gz", head + b"\xff" * 64)


def gzip_bad_checksum(directory: Path, _trap: str) -> Path:
    data = bytearray(gzip.compress(_entries_text(), mtime=0))
    data[-8] ^= 0xFF  # first byte of the CRC-32 in the trailer
    return _write(directory / "bad-crc.xml.gz", bytes(data))


# -- shapes ----------------------------------------------------------------------------


def deep_nesting(directory: Path, _trap: str, depth: int = 200_000) -> Path:
    path = directory / "deep.xml"
    with open(path, "w", encoding="utf-8") as out:
        out.write(DECLARATION + URLSET + "  <url><loc>https://example.com/</loc>")
        for _ in range(depth // 1000):
            out.write("<x>" * 1000)
        for _ in range(depth // 1000):
            out.write("</x>" * 1000)
        out.write("</url>\n</urlset>\n")
    return path


def many_attributes(directory: Path, _trap: str, count: int = 200_000) -> Path:
    path = directory / "attributes.xml"
    with open(path, "w", encoding="utf-8") as out:
        out.write(DECLARATION + URLSET + "  <url")
        for start in range(0, count, 1000):
            out.write("".join(f' a{n}="v"' for n in range(start, start + 1000)))
        out.write("><loc>https://example.com/</loc></url>\n</urlset>\n")
    return path


LONG_LINE_BYTES = 30 * MiB


def long_line(directory: Path, _trap: str) -> Path:
    """30 MB on one line: URL entries with no line break, and a relative URL at the end."""
    path = directory / "one-line.xml"
    with open(path, "w", encoding="ascii") as out:
        out.write(DECLARATION.strip() + URLSET.strip())
        written, index = 0, 0
        while written < LONG_LINE_BYTES:
            piece = "".join(
                f"<url><loc>https://example.com/page-{index + n}</loc></url>" for n in range(1000)
            )
            index += 1000
            out.write(piece)
            written += len(piece)
        out.write("<url><loc>/relative</loc></url></urlset>")
    return path


def long_text_node(directory: Path, _trap: str) -> Path:
    """One ``loc`` whose text is 30 MB."""
    path = directory / "long-text.xml"
    with open(path, "w", encoding="ascii") as out:
        out.write(DECLARATION + URLSET + "  <url><loc>https://example.com/")
        for _ in range(30):
            out.write("a" * MiB)
        out.write("</loc></url>\n</urlset>\n")
    return path


def long_text_node_non_ascii(directory: Path, _trap: str) -> Path:
    """One ``loc`` of 30 MB of non-ASCII text (15 M times U+00E9)."""
    path = directory / "long-text-non-ascii.xml"
    with open(path, "w", encoding="utf-8") as out:
        out.write(DECLARATION + URLSET + "  <url><loc>https://example.com/")
        for _ in range(15):
            out.write("\u00e9" * MiB)
        out.write("</loc></url>\n</urlset>\n")
    return path


def invalid_utf8_everywhere(directory: Path, _trap: str) -> Path:
    """A start tag, then 30 MB of bytes that are never valid UTF-8 (0xFF)."""
    path = directory / "invalid-utf8.xml"
    with open(path, "wb") as out:
        out.write((DECLARATION + URLSET + "  <url><loc>https://example.com/").encode())
        for _ in range(30):
            out.write(b"\xff" * MiB)
        out.write(b"</loc></url>\n</urlset>\n")
    return path


def truncated_document(directory: Path, _trap: str) -> Path:
    text = sitemap_text(10, duplicate_first=True)
    cut = text.index("page-5")
    return _write(directory / "truncated.xml", text[:cut])


def nul_bytes(directory: Path, _trap: str) -> Path:
    text = sitemap_text(5).encode()
    at = text.index(b"page-3")
    return _write(directory / "nul.xml", text[:at] + b"\x00\x00\x00" + text[at:])


def random_binary(directory: Path, _trap: str) -> Path:
    data = random.Random(1).randbytes(MiB)
    assert not data.startswith((b"\x1f\x8b", b"<")), "pick another seed"
    return _write(directory / "random.bin", data)


def _encoded(codec: str, bom: bytes) -> Callable[[Path, str], Path]:
    def make(directory: Path, _trap: str) -> Path:
        text = sitemap_text(3).replace('encoding="UTF-8"', f'encoding="{codec.upper()}"')
        return _write(directory / f"{codec}.xml", bom + text.encode(codec))

    return make


def directory_input(directory: Path, _trap: str) -> Path:
    path = directory / "empty-directory"
    path.mkdir()
    return path


def fifo_input(directory: Path, _trap: str) -> Path:
    path = directory / "sitemap.xml"
    os.mkfifo(path)
    return path


def directory_with_fifo(directory: Path, _trap: str) -> Path:
    path = directory / "site"
    path.mkdir()
    os.mkfifo(path / "sitemap.xml")
    return path


def missing_path(directory: Path, _trap: str) -> Path:
    return directory / "no-such-sitemap.xml"


def character_device(_directory: Path, _trap: str) -> Path:
    return Path("/dev/zero")


IN003_IS_A_WARNING = "IN003 is a warning, so the exit status is 0 (with the finding)"
NOT_REGULAR = "not a regular file"

# -- many sections where patterns could backtrack ------------------------------------


def comments_before_root(directory: Path, _trap: str) -> Path:
    """Comments before the root, each a place where a pattern that looks for an HTML page
    after them could split them otherwise: tried every way, they never end."""
    return _write(
        directory / "comments.xml",
        DECLARATION + "<!--a-->" * 80 + "\n" + URLSET + _url("/relative") + "</urlset>\n",
    )


def instructions_in_entry(directory: Path, _trap: str) -> Path:
    """Processing instructions in an entry with a stray "<" among them: the check for a
    section inside a start tag tried every way of grouping them."""
    run = "<?pi x?>" * 15 + "<"
    return _write(
        directory / "instructions.xml",
        DECLARATION + URLSET + "  <url>\n " + run * 12 + "\n  </url>\n</urlset>\n",
    )


def comments_in_a_start_tag(directory: Path, _trap: str) -> Path:
    """Thousands of comments inside an entry's start tag, before a value without quotes:
    each looked at in turn, not one call deeper for each."""
    tag = "<url " + "<!--a-->" * 3000 + " a=b>"
    return _write(
        directory / "tag-comments.xml",
        DECLARATION + URLSET + f"  {tag}<loc>https://example.com/</loc></url>\n</urlset>\n",
    )


def white_space_in_a_start_tag(directory: Path, _trap: str) -> Path:
    """Instructions in the root's start tag, then a long run of tabs and a character no
    tag holds: the look for the tag's rest tried every split of the run."""
    tag = "<urlset" + "<?pi x?>" * 3 + "\t" * 400 + "\x01"
    return _write(directory / "tag-tabs.xml", DECLARATION + tag + "\n</urlset>\n")


CASES: tuple[Case, ...] = (
    Case("billion laughs", billion_laughs, 1, ("XM003",)),
    Case("80 comments before the root", comments_before_root, 1, ("UR001",)),
    Case("3,000 comments in a start tag", comments_in_a_start_tag, 1, ("XM001",)),
    Case("tabs after instructions in a start tag", white_space_in_a_start_tag, 1, ("XM001",)),
    Case("instructions and stray '<' in an entry", instructions_in_entry, 1, ("XM005",)),
    Case("quadratic blow-up", quadratic_blowup, 1, ("XM003",)),
    Case("external entity file:///etc/passwd", external_entity_file, 1, ("XM003",)),
    Case("external entity http://", external_entity_http, 1, ("XM003",)),
    Case("parameter entities", parameter_entities, 1, ("XM003",)),
    Case("external DTD over http", external_dtd_http, 1, ("XM003",)),
    Case("gzip bomb (> 1 GiB)", gzip_bomb, 1, ("LM002",)),
    Case(".gz name, plain content", gz_name_plain_content, 0, ("IN003",), note=IN003_IS_A_WARNING),
    Case(
        "gzip content, no .gz name", gzip_content_plain_name, 0, ("IN003",), note=IN003_IS_A_WARNING
    ),
    Case("truncated gzip", gzip_truncated, 1, ("IN004", "DU001")),
    Case("corrupt gzip (bad deflate block)", gzip_corrupt_block, 1, ("IN004", "DU001")),
    Case("corrupt gzip (bad CRC-32)", gzip_bad_checksum, 1, ("IN004", "DU001")),
    Case("200,000 levels of nesting", deep_nesting, 1, ("ST011",)),
    Case("200,000 attributes", many_attributes, 1, ("ST010",)),
    Case("one line of 30 MB", long_line, 1, ("UR001",)),
    Case("text node of 30 MB", long_text_node, 1, ("UR003",)),
    Case("text node of 30 MB, non-ASCII", long_text_node_non_ascii, 1, ("UR003",)),
    Case("30 MB of invalid UTF-8", invalid_utf8_everywhere, 1, ("EN001",)),
    Case("truncated document", truncated_document, 1, ("DU001", "XM008")),
    Case("NUL bytes", nul_bytes, 1, ("XM001",)),
    Case("random binary", random_binary, 1),
    Case("UTF-16 LE with BOM", _encoded("utf-16-le", b"\xff\xfe"), 1, ("EN003",)),
    Case("UTF-16 BE without BOM", _encoded("utf-16-be", b""), 1, ("EN003",)),
    Case("UTF-32 LE with BOM", _encoded("utf-32-le", b"\xff\xfe\x00\x00"), 1, ("EN003",)),
    Case("UTF-32 BE without BOM", _encoded("utf-32-be", b""), 1, ("EN003",)),
    Case("directory", directory_input, 2, message="directory holds no sitemap files"),
    Case("FIFO", fifo_input, 2, message=NOT_REGULAR),
    Case("directory holding a FIFO", directory_with_fifo, 2, message=NOT_REGULAR),
    Case("character device /dev/zero", character_device, 2, message=NOT_REGULAR),
    Case("missing path", missing_path, 2, message="no such file or directory"),
)


@contextlib.contextmanager
def network_trap() -> Iterator[tuple[str, Callable[[], int]]]:
    """A listening socket on localhost: ``(url, count)``; ``count()`` says how many
    connections reached it (the kernel accepts them into the backlog on its own)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as server:
        server.bind(("127.0.0.1", 0))
        server.listen(16)
        server.setblocking(False)
        url = f"http://127.0.0.1:{server.getsockname()[1]}/"

        def count() -> int:
            seen = 0
            while True:
                try:
                    connection, _ = server.accept()
                except BlockingIOError:
                    return seen
                connection.close()
                seen += 1

        yield url, count

"""The members of a gzip file are read by one walk (``inputs.reader.gunzip``), for the
check and for ``--fix`` alike: where the reader's chunks end changes nothing."""

from __future__ import annotations

import gzip
import struct
import zlib

import pytest

from sitemap_lint.engine.checker import check_source
from sitemap_lint.fix.engine import decode
from sitemap_lint.inputs.fetch import _inflated
from sitemap_lint.inputs.reader import READ_SIZE, Source
from sitemap_lint.settings.options import Options
from tests.helpers import NOW, engine

TEXT = (
    b'<?xml version="1.0" encoding="UTF-8"?>\n'
    b'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
    b"  <url><loc>https://example.com/a</loc></url>\n"
    b"  <url><loc>https://example.com/b</loc></url>\n"
    b"</urlset>\n"
)
HALF = TEXT.index(b"  <url>")


def member(data: bytes, size: int) -> bytes:
    """A gzip member of ``data`` exactly ``size`` bytes long (its file name pads it)."""
    compressor = zlib.compressobj(6, zlib.DEFLATED, -15)
    body = compressor.compress(data) + compressor.flush()
    trailer = struct.pack("<II", zlib.crc32(data), len(data))
    name = b"n" * (size - 10 - len(body) - len(trailer) - 1)
    assert name
    return b"\x1f\x8b\x08\x08\0\0\0\0\0\xff" + name + b"\0" + body + trailer


def codes(data: bytes) -> list[str]:
    source = Source("sitemap.xml.gz", None, data=data)
    return [f.code for f in check_source(source, Options(now=NOW), engine()).findings]


# The first member ends where the reader's first chunk of READ_SIZE bytes ends, or one
# byte before it (the next member's magic split over two chunks).
WHOLE = [
    pytest.param(member(TEXT[:HALF], READ_SIZE - 1) + gzip.compress(TEXT[HALF:]), id="magic-split"),
    pytest.param(member(TEXT[:HALF], READ_SIZE) + gzip.compress(TEXT[HALF:]), id="member-at-end"),
    pytest.param(member(TEXT, READ_SIZE) + b"\0" * 8, id="padding-in-next-chunk"),
    pytest.param(member(TEXT, READ_SIZE - 4) + b"\0" * 8, id="padding-over-two-chunks"),
]
DAMAGED = [
    pytest.param(member(TEXT, READ_SIZE - 4) + b"\0" * 8 + b"junk", id="padding-then-junk"),
    pytest.param(member(TEXT, READ_SIZE - 1) + b"\x1f", id="half-a-magic-at-the-end"),
    pytest.param(gzip.compress(TEXT) + b"\0\0" + gzip.compress(TEXT), id="member-after-padding"),
]


@pytest.mark.parametrize("data", WHOLE)
def test_members_are_read_whole_wherever_a_chunk_ends(data: bytes) -> None:
    assert codes(data) == []
    decoded = decode(data)
    assert not isinstance(decoded, str)
    assert decoded.text == TEXT.decode()


@pytest.mark.parametrize("data", DAMAGED)
def test_data_after_the_members_is_damage_wherever_a_chunk_ends(data: bytes) -> None:
    assert codes(data) == ["IN004"]
    assert decode(data) == (
        "the gzip stream has data after its end that is no gzip member; compress the file"
        " again, then run the fix again"
    )


@pytest.mark.parametrize("cut", range(-2, 3))
def test_a_gzip_content_encoding_is_read_whole_wherever_a_chunk_ends(cut: int) -> None:
    """The body of a response (Content-Encoding: gzip) arrives in chunks cut anywhere:
    one that ends inside the next member's magic bytes loses nothing after it."""
    first = gzip.compress(TEXT[:HALF], mtime=0)
    body = first + gzip.compress(TEXT[HALF:], mtime=0)
    at = len(first) + cut
    assert b"".join(_inflated([body[:at], body[at:]], "gzip")) == TEXT

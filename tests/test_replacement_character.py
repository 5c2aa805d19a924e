"""U+FFFD in a URL: written in the file it is UR011 (a trace of a wrong decoding upstream,
no fix); put there by the decoder in place of bytes that are not UTF-8 it is EN001's alone.

The decoder notes the lines where it replaced bytes (``rules.events.Replacements``), and
the URL rules have them from the file's context, in every place a URL is checked.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from sitemap_lint import fastpath
from sitemap_lint.engine.sink import FindingList
from sitemap_lint.model import Node
from sitemap_lint.rules.urls import check_url
from tests.helpers import NOW, run_cli, write

FFFD = "\ufffd".encode()  # EF BF BD: valid UTF-8
NOT_UTF8 = b"\xff"  # never valid in UTF-8: the decoder replaces it with U+FFFD
HEAD = (
    b'<?xml version="1.0" encoding="UTF-8"?>\n'
    b'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"\n'
    b'        xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"\n'
    b'        xmlns:xhtml="http://www.w3.org/1999/xhtml"\n'
    b'        xmlns:video="http://www.google.com/schemas/sitemap-video/1.1">\n'
)
TAIL = b"</urlset>\n"
SAYS_FFFD = "URL holds U+FFFD, the replacement character"


def report(path: Path, capsys: pytest.CaptureFixture[str], *options: str) -> dict[str, Any]:
    """The command's JSON report on ``path`` (``options`` before it)."""
    _status, out, _err = run_cli(
        ["--format", "json", "--now", NOW.date().isoformat(), *options, str(path)], capsys
    )
    return json.loads(out)  # type: ignore[no-any-return]


def findings(path: Path, capsys: pytest.CaptureFixture[str], *options: str) -> list[Any]:
    (checked,) = report(path, capsys, *options)["files"]
    return checked["findings"]  # type: ignore[no-any-return]


def shown(found: list[Any]) -> list[tuple[int, str]]:
    """The findings' lines and codes, UR011 on U+FFFD named apart."""
    return [
        (f["line"], "UR011-FFFD" if f["message"].startswith(SAYS_FFFD) else f["code"])
        for f in found
    ]


def loc(path: bytes) -> bytes:
    return b"  <url><loc>https://example.com/" + path + b"</loc></url>\n"


def test_literal_replacement_character_in_a_loc_is_ur011_without_a_fix(tmp_path, capsys):
    path = write(
        tmp_path, "sitemap.xml", HEAD + loc(b"a" + FFFD + b"b") + loc(b"a\xc3\xa9b") + TAIL
    )
    first, second = findings(path, capsys)
    assert first["code"] == "UR011"
    assert first["line"] == 6
    assert first["message"].startswith(SAYS_FFFD)
    assert "damaged by a wrong decoding upstream" in first["message"]
    assert "write the URL's real characters, percent-encoded" in first["message"]
    assert "fix" not in first  # %EF%BF%BD would only hide the damage
    # Any other character outside ASCII keeps its finding and its fix.
    assert second["code"] == "UR011"
    assert second["line"] == 7
    assert second["message"].endswith("https://example.com/a%C3%A9b")
    assert "fix" in second


def test_replaced_bytes_in_a_loc_are_en001_alone(tmp_path, capsys):
    path = write(tmp_path, "sitemap.xml", HEAD + loc(b"a" + NOT_UTF8 + b"b") + TAIL)
    assert shown(findings(path, capsys)) == [(6, "EN001")]


def test_a_file_with_both_tells_them_apart_by_line(tmp_path, capsys):
    body = loc(b"a" + NOT_UTF8 + b"b") + loc(b"c" + FFFD + b"d") + loc(b"e" + NOT_UTF8 + FFFD)
    path = write(tmp_path, "sitemap.xml", HEAD + body + TAIL)
    # Line 8 holds a replaced byte: its U+FFFD beside it cannot be told apart, and is left.
    assert shown(findings(path, capsys)) == [(6, "EN001"), (7, "UR011-FFFD"), (8, "EN001")]


def test_the_decoder_tells_also_where_en001_is_not_selected(tmp_path, capsys):
    body = loc(b"a" + NOT_UTF8 + b"b") + loc(b"c" + FFFD + b"d")
    path = write(tmp_path, "sitemap.xml", HEAD + body + TAIL)
    assert shown(findings(path, capsys, "--select", "UR011")) == [(7, "UR011-FFFD")]


def test_replaced_bytes_on_a_loc_broken_over_lines(tmp_path, capsys):
    entry = b"  <url><loc>\n    https://example.com/a" + NOT_UTF8 + b"b\n  </loc></url>\n"
    path = write(tmp_path, "sitemap.xml", HEAD + entry + TAIL)
    found = shown(findings(path, capsys))
    assert (7, "EN001") in found
    assert all(code != "UR011-FFFD" for _line, code in found)


def _extensions(page: bytes, bad: bytes) -> bytes:
    """An entry whose image:loc, xhtml:link href (its start tag over several lines), video
    thumbnail and content URLs each hold ``bad``."""
    return (
        (
            b"  <url>\n"
            b"    <loc>https://example.com/PAGE</loc>\n"
            b"    <image:image><image:loc>https://example.com/i-BAD.jpg</image:loc></image:image>\n"
            b"    <xhtml:link\n"
            b'      rel="alternate"\n'
            b'      hreflang="de"\n'
            b'      href="https://example.com/de/PAGE-BAD"/>\n'
            b'    <xhtml:link rel="alternate" hreflang="en" href="https://example.com/PAGE"/>\n'
            b"    <video:video>\n"
            b"      <video:thumbnail_loc>https://example.com/t-BAD.jpg</video:thumbnail_loc>\n"
            b"      <video:title>A video</video:title>\n"
            b"      <video:description>About it</video:description>\n"
            b"      <video:content_loc>https://example.com/v-BAD.mp4</video:content_loc>\n"
            b"    </video:video>\n"
            b"  </url>\n"
        )
        .replace(b"BAD", bad)
        .replace(b"PAGE", page)
    )


def test_extension_urls_tell_literal_from_replaced(tmp_path, capsys):
    body = _extensions(b"one", FFFD) + _extensions(b"two", NOT_UTF8)
    path = write(tmp_path, "sitemap.xml", HEAD + body + TAIL)
    found = [(line, code) for line, code in shown(findings(path, capsys)) if code != "HL008"]
    literal = [(8, "UR011-FFFD"), (9, "UR011-FFFD"), (15, "UR011-FFFD"), (18, "UR011-FFFD")]
    replaced = [(23, "EN001"), (27, "EN001"), (30, "EN001"), (33, "EN001")]
    assert found == literal + replaced


def test_text_sitemap_lines(tmp_path, capsys):
    text = (
        b"https://example.com/a" + FFFD + b"b\n"
        b"https://example.com/c" + NOT_UTF8 + b"d\n"
        b"https://example.com/e\xc3\xa9f\n"
    )
    path = write(tmp_path, "sitemap.txt", text)
    found = findings(path, capsys)
    assert shown(found) == [(1, "UR011-FFFD"), (2, "EN001"), (3, "UR011")]
    assert "fix" not in found[0]


def test_robots_txt_sitemap_lines(tmp_path, capsys):
    text = (
        b"User-agent: *\n"
        b"Sitemap: https://example.com/a" + FFFD + b".xml\n"
        b"Sitemap: https://example.com/c" + NOT_UTF8 + b".xml\n"
    )
    path = write(tmp_path, "robots.txt", text)
    assert shown(findings(path, capsys)) == [(2, "UR011-FFFD"), (3, "EN001")]


def test_feed_links(tmp_path, capsys):
    text = (
        b'<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0"><channel>\n'
        b"<title>t</title><link>https://example.com/</link><description>d</description>\n"
        b"<item><link>https://example.com/a" + FFFD + b"</link></item>\n"
        b"<item><link>https://example.com/c" + NOT_UTF8 + b"</link></item>\n"
        b"</channel></rss>\n"
    )
    path = write(tmp_path, "feed.xml", text)
    assert [found for found in shown(findings(path, capsys)) if found[1][:2] in ("UR", "EN")] == [
        (4, "UR011-FFFD"),
        (5, "EN001"),
    ]


def test_lines_past_the_cap_on_en001_count_as_replaced(tmp_path, capsys):
    # The decoder stops looking after 20 lines; a U+FFFD from there on may be a
    # replaced byte, so it is left rather than reported twice.
    body = b"".join(loc(b"p%d-" % i + NOT_UTF8) for i in range(25)) + loc(b"x" + FFFD)
    path = write(tmp_path, "sitemap.xml", HEAD + loc(b"first" + FFFD) + body + TAIL)
    found = shown(findings(path, capsys))
    assert found[0] == (6, "UR011-FFFD")
    assert [code for _line, code in found[1:]] == ["EN001"] * 20


def test_same_output_with_and_without_the_fast_path(tmp_path, capsys, monkeypatch):
    entries = [loc(b"page-%d" % i) for i in range(400)]  # past the fast path's small files
    entries[100] = loc(b"a" + FFFD + b"b")
    entries[200] = loc(b"c" + NOT_UTF8 + b"d")
    entries[300] = loc(b"e\xc3\xa9" + FFFD)
    path = write(tmp_path, "sitemap.xml", HEAD + b"".join(entries) + TAIL)
    monkeypatch.setenv(fastpath.ENV, "1")
    fast = report(path, capsys)
    monkeypatch.setenv(fastpath.ENV, "0")
    slow = report(path, capsys)
    assert fast == slow
    (checked,) = fast["files"]
    assert shown(checked["findings"]) == [(106, "UR011-FFFD"), (206, "EN001"), (306, "UR011-FFFD")]


def test_a_value_read_outside_a_file_holds_it_as_written():
    found = FindingList()
    check_url("https://example.com/a\ufffdb", Node("", "loc", {}, 1, 1), found)
    assert [(f.code, f.message.startswith(SAYS_FFFD), f.fix) for f in found] == [
        ("UR011", True, None)
    ]


def test_replaced_bytes_beside_other_characters_outside_ascii(tmp_path, capsys):
    path = write(tmp_path, "sitemap.xml", HEAD + loc(b"caf\xc3\xa9-" + NOT_UTF8) + TAIL)
    non_ascii, invalid = findings(path, capsys)
    assert (non_ascii["code"], invalid["code"]) == ("UR011", "EN001")
    # The encoded form would write the replaced byte as %EF%BF%BD: not quoted, no fix.
    assert "%EF%BF%BD" not in non_ascii["message"]
    assert non_ascii["message"].endswith(
        "write it encoded (percent-encoded UTF-8) once its bytes that are not in the "
        "file's encoding (reported as invalid-utf8) are corrected"
    )
    assert "fix" not in non_ascii

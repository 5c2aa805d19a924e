"""Sitemaps damaged the way real ones are: cut off in the middle of a UTF-8 character,
a byte order mark left in the middle by joining files or including one, an invisible
character before a URL. Each is one finding at its place whose message names what an
editor does not show, with the fast path off and on."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import run_cli, without_and_with_fast_path

HEAD = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
)
TAIL = "</urlset>\n"


def entries(first: int, last: int) -> str:
    return "".join(
        f"  <url>\n    <loc>https://example.com/p{n}</loc>\n  </url>\n" for n in range(first, last)
    )


def findings(path: Path, capsys: pytest.CaptureFixture[str]) -> list[dict[str, Any]]:
    _status, out, _err = run_cli(
        ["--isolated", "--now", "2025-06-01", "--format", "json", str(path)], capsys
    )
    found: list[dict[str, Any]] = json.loads(out)["files"][0]["findings"]
    return found


def places(found: list[dict[str, Any]]) -> list[tuple[str, int, int]]:
    return [(f["code"], f["line"], f["column"]) for f in found]


@pytest.mark.parametrize(
    ("cut", "shown"),
    [
        (b"\xe2\x82", "bytes E2 82 at the end of the file are not valid UTF-8"),
        (b"\xc3", "byte C3 at the end of the file is not valid UTF-8"),
    ],
)
def test_a_file_cut_in_a_character_is_said_to_be_cut(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], cut: bytes, shown: str
) -> None:
    path = tmp_path / "sitemap.xml"
    path.write_bytes((HEAD + entries(0, 3)).encode() + b"  <url><loc>https://example.com/" + cut)
    found = findings(path, capsys)
    assert places(found) == [("EN001", 12, 33), ("XM008", 12, 34)]
    message = found[0]["message"]
    assert message.startswith(shown)
    assert "whose other bytes are missing" in message
    assert "cut off" in message


def test_a_latin1_byte_inside_the_file_is_not_said_to_be_a_cut(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "sitemap.xml"
    path.write_bytes(
        (HEAD + "  <url><loc>https://example.com/caf\xe9</loc></url>\n" + TAIL).encode("latin-1")
    )
    found = findings(path, capsys)
    assert [f["code"] for f in found if f["code"] == "EN001"] == ["EN001"]
    message = next(f["message"] for f in found if f["code"] == "EN001")
    assert message == (
        "byte E9 is not valid UTF-8 (Latin-1 or Windows-1252 text?); re-encode the file as UTF-8"
    )


def test_a_byte_order_mark_between_entries_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Enough plain entries before and after for the fast path to prove runs of them.
    text = HEAD + entries(0, 1500) + "\n  \ufeff" + entries(1500, 3000) + TAIL
    path = tmp_path / "sitemap.xml"
    path.write_text(text, encoding="utf-8")
    slow, fast = without_and_with_fast_path(monkeypatch, lambda: findings(path, capsys))
    assert slow == fast
    assert places(slow) == [("ST009", 4504, 3)]
    message = slow[0]["message"]
    assert message.startswith("character U+FEFF, a byte order mark, directly inside <urlset>")
    assert message.endswith("remove it")


def test_text_that_is_not_only_a_mark_keeps_its_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "sitemap.xml"
    path.write_text(HEAD + entries(0, 2) + "\ufeffoops\n" + TAIL, encoding="utf-8")
    found = findings(path, capsys)
    assert [f["code"] for f in found] == ["ST009"]
    assert found[0]["message"].startswith("text directly inside <urlset>")


@pytest.mark.parametrize(
    ("mark", "name"),
    [("\ufeff", "U+FEFF (a byte order mark)"), ("\u200b", "U+200B (ZERO WIDTH SPACE)")],
)
def test_an_invisible_character_before_a_url_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], mark: str, name: str
) -> None:
    path = tmp_path / "sitemap.xml"
    loc = f"  <url>\n    <loc>{mark}https://example.com/x</loc>\n  </url>\n"
    path.write_text(HEAD + loc + TAIL, encoding="utf-8")
    found = findings(path, capsys)
    assert places(found) == [("UR001", 4, 5)]
    message = found[0]["message"]
    assert f"starts with {name}, an invisible character" in message
    assert message.endswith("remove it: 'https://example.com/x'")


@pytest.mark.parametrize("char", ["\x00", "\x0c", "\x01\x01"])
def test_a_control_character_alone_between_entries_is_one_finding(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    char: str,
) -> None:
    # XM001 names each character; it is no text in the root besides (ST009).
    text = HEAD + entries(0, 1500) + f"  {char}\n" + entries(1500, 3000) + TAIL
    path = tmp_path / "sitemap.xml"
    path.write_text(text, encoding="utf-8")
    slow, fast = without_and_with_fast_path(monkeypatch, lambda: findings(path, capsys))
    assert slow == fast
    assert places(slow) == [("XM001", 4503, 3 + n) for n in range(len(char))]


def test_text_before_a_control_character_between_entries_stands_where_it_starts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "sitemap.xml"
    path.write_text(HEAD + entries(0, 2) + "  oops\x00\n" + entries(2, 3) + TAIL, encoding="utf-8")
    found = findings(path, capsys)
    assert places(found) == [("ST009", 9, 3), ("XM001", 9, 7)]


@pytest.mark.parametrize("mark", [b"", b"\xef\xbb\xbf"])
def test_a_utf8_label_in_the_declaration_is_fixed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], mark: bytes
) -> None:
    body = (
        b'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        b"  <url><loc>https://example.com/caf%C3%A9</loc><lastmod>2024-01-01</lastmod></url>\n"
        b"</urlset>\n"
    )
    path = tmp_path / "sitemap.xml"
    path.write_bytes(mark + b'<?xml version="1.0" encoding="utf8"?>\n' + body)
    found = findings(path, capsys)
    assert [(f["code"], f["fix"]["applicability"]) for f in found if f["code"] == "EN005"] == [
        ("EN005", "safe")
    ]
    status, _out, _err = run_cli(["--isolated", "--fix", str(path)], capsys)
    assert status == 0
    assert path.read_bytes() == b'<?xml version="1.0" encoding="UTF-8"?>\n' + body


PHP_WARNING = (
    "<br />\n<b>Warning</b>:  Undefined variable $x in <b>/var/www/sitemap.php</b> on line "
    "<b>12</b><br />\n"
)


def test_a_php_error_message_in_the_root_is_one_finding(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    notice = PHP_WARNING.replace("Warning", "Notice")
    text = HEAD + entries(0, 1500) + PHP_WARNING + notice + entries(1500, 3000) + TAIL
    path = tmp_path / "sitemap.xml"
    path.write_text(text, encoding="utf-8")
    slow, fast = without_and_with_fast_path(monkeypatch, lambda: findings(path, capsys))
    assert slow == fast
    assert places(slow) == [("ST009", 4503, 1), ("ST009", 4505, 1)]
    assert slow[0]["message"].startswith("PHP Warning printed into the sitemap")
    assert slow[1]["message"].startswith("PHP Notice printed into the sitemap")
    assert [f["xpath"] for f in slow] == ["/urlset/br[1]", "/urlset/br[3]"]


def test_other_markup_in_the_root_is_reported_as_before(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A <br> and a <b> that start no PHP message: each element is one ST004.
    stray = "<br />\n<b>bold</b>\n<br/>"
    path = tmp_path / "sitemap.xml"
    path.write_text(HEAD + entries(0, 2) + stray + "\n" + entries(2, 3) + stray + TAIL)
    found = findings(path, capsys)
    assert places(found) == [
        ("ST004", 9, 1),
        ("ST004", 10, 1),
        ("ST004", 11, 1),
        ("ST004", 15, 1),
        ("ST004", 16, 1),
        ("ST004", 17, 1),
    ]


def dated(first: int, last: int, bad: int = -1) -> str:
    return "".join(
        f"  <url>\n    <loc>https://example.com/p{n}</loc>\n"
        f"    <lastmod>{'2024-13-01' if n == bad else '2024-01-01'}</lastmod>\n  </url>\n"
        for n in range(first, last)
    )


@pytest.mark.parametrize(
    ("written", "field"),
    [
        ("<loc>https://example.com/x</url>\n    <lastmod>2024-13-01</lastmod>", "loc"),
        ("<loc>https://example.com/x</loc>\n    <lastmod>2024-13-01</url>", "lastmod"),
    ],
)
def test_a_field_end_tag_written_as_the_entry_s_is_one_finding_and_the_entry_is_read(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    written: str,
    field: str,
) -> None:
    damaged = f"  <url>\n    {written}\n  </url>\n"
    text = HEAD + dated(0, 1500) + damaged + dated(1500, 3000, bad=2000) + TAIL
    path = tmp_path / "sitemap.xml"
    path.write_text(text, encoding="utf-8")
    slow, fast = without_and_with_fast_path(monkeypatch, lambda: findings(path, capsys))
    assert slow == fast
    end = text.index("</url>", text.index(damaged))
    line = text.count("\n", 0, end) + 1
    column = end - text.rfind("\n", 0, end)
    lastmod = text.count("\n", 0, text.index("<lastmod>2024-13-01")) + 1
    later = text.count("\n", 0, text.rindex("<lastmod>2024-13-01")) + 1
    assert places(slow) == sorted(
        [("XM001", line, column), ("DT002", lastmod, 5), ("DT002", later, 5)],
        key=lambda p: (p[1], p[2]),
    )
    syntax = next(f for f in slow if f["code"] == "XM001")
    assert syntax["message"].startswith(
        f"mismatched tag: end tag '</url>' does not close <{field}>"
    )
    assert f"write '</{field}>'" in syntax["message"]


def test_an_entry_end_tag_after_a_field_left_open_before_the_next_entry_is_still_unclosed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The next entry starts after it: the field's end tag is missing, not misnamed.
    damaged = "  <url>\n    <loc>https://example.com/x</url>\n"
    path = tmp_path / "sitemap.xml"
    path.write_text(HEAD + dated(0, 2) + damaged + dated(2, 3) + TAIL, encoding="utf-8")
    found = findings(path, capsys)
    assert [f["code"] for f in found] == ["XM001"]
    assert found[0]["message"].startswith("<loc> is never closed")

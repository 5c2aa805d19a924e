"""A character XML does not allow in markup (right after "<", "</", "<?" or "<!", in a
tag's name, in a reference's name): it is the finding, as it is anywhere else, and the
entry around it is still read, with the fast path on and off."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from sitemap_lint import fastpath
from tests.helpers import run_cli, without_and_with_fast_path

HEAD = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
)
FIRST = "<url><loc>https://example.com/a</loc></url>\n"
# The entry a defect is put in: its priority is out of range, so that the entry is seen
# to be read (VA003 at its place).
ENTRY = "<url><loc>https://example.com/b</loc><priority>1.5</priority></url>\n"
TAIL = "</urlset>\n"
BAD = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def sitemap(entry: str) -> str:
    return HEAD + FIRST + entry + TAIL


def position(text: str, index: int) -> tuple[int, int]:
    before = text[:index]
    return before.count("\n") + 1, index - (before.rfind("\n") + 1) + 1


def bad_places(text: str) -> list[tuple[int, int]]:
    return [position(text, m.start()) for m in BAD.finditer(text)]


def check(tmp_path: Path, text: str, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    path = tmp_path / "sitemap.xml"
    path.write_text(text, encoding="utf-8", newline="")
    _status, out, _err = run_cli(
        ["--isolated", "--now", "2025-06-01", "--format", "json", str(path)], capsys
    )
    report: dict[str, Any] = json.loads(out)["files"][0]
    return report


def found(report: dict[str, Any], code: str) -> list[tuple[int, int]]:
    return [(f["line"], f["column"]) for f in report["findings"] if f["code"] == code]


def assert_read_whole(text: str, report: dict[str, Any]) -> None:
    """Every character XML does not allow is reported at its place, nothing else is,
    and the entry that holds one is read: its priority is checked, both entries count."""
    assert found(report, "XM001") == bad_places(text)
    assert {f["code"] for f in report["findings"]} == {"XM001", "VA003"}
    assert found(report, "VA003") == [position(text, text.index("<priority>"))]
    assert report["urls"] == 2


@pytest.mark.parametrize("char", ["\x00", "\x01", "\x08", "\x1b", "\ufffe"])
def test_a_character_right_after_lt_is_the_finding(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], char: str
) -> None:
    text = sitemap(ENTRY.replace("<url>", f"<{char}url>"))
    report = check(tmp_path, text, capsys)
    (finding,) = [f for f in report["findings"] if f["code"] == "XM001"]
    assert finding["message"] == f"character U+{ord(char):04X} is not allowed in XML; remove it"
    assert (finding["line"], finding["column"]) == (4, 2)
    assert_read_whole(text, report)


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("</url>", "</\x00url>"),
        ("<loc>", "<\x00loc>"),
        ("</loc>", "</\x00loc>"),
        ("<url>", "<u\x00rl>"),
        ("<url>", "<url\x00>"),
        ("<url>", "<?\x00pi?><url>"),
        ("<url>", "<!\x00-- a comment --><url>"),
        ("<url>", "<\x00\x00url>"),
        ("<url>", "<u\x00r\x01l>"),
    ],
    ids=repr,
)
def test_a_character_in_a_name_leaves_the_entry_readable(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], before: str, after: str
) -> None:
    text = sitemap(ENTRY.replace(before, after, 1))
    assert_read_whole(text, check(tmp_path, text, capsys))


def test_a_character_before_the_root_end_tag(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = sitemap(ENTRY).replace("</urlset>", "<\x00/urlset>")
    report = check(tmp_path, text, capsys)
    assert_read_whole(text, report)
    assert "(end of line)" not in json.dumps(report)


def test_a_character_after_a_raw_ampersand(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = sitemap(ENTRY.replace("/b<", "/b?a&b\x00c<"))
    report = check(tmp_path, text, capsys)
    assert found(report, "XM004") == [position(text, text.index("&b"))]
    assert found(report, "XM001") == bad_places(text)
    assert found(report, "VA003") == [position(text, text.index("<priority>"))]


@pytest.mark.parametrize("space", ["\t", "\r\n", " "])
def test_white_space_after_a_raw_ampersand_is_no_character_finding(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], space: str
) -> None:
    text = sitemap(ENTRY.replace("/b<", f"/b?a&b{space}c<"))
    report = check(tmp_path, text, capsys)
    assert found(report, "XM004") == [position(text, text.index("&b"))]
    assert found(report, "XM001") == []


def test_without_a_name_the_entry_is_skipped_and_reported_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = sitemap(ENTRY.replace("<url>", "<\x00 url>"))
    report = check(tmp_path, text, capsys)
    assert [(f["code"], f["line"], f["column"]) for f in report["findings"]] == [("XM001", 4, 2)]
    assert "not allowed in XML" in report["findings"][0]["message"]


def test_a_character_after_lt_in_a_cdata_section_is_left_out_of_the_value(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = sitemap(ENTRY.replace("https://example.com/b", "<![CDATA[https://e.com/?q=<\x00b]]>"))
    report = check(tmp_path, text, capsys)
    assert found(report, "XM001") == bad_places(text)
    (unsafe,) = [f for f in report["findings"] if f["code"] == "UR006"]
    assert unsafe["message"].endswith("write https://e.com/?q=%3Cb")


def test_the_root_start_tag(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = sitemap(ENTRY).replace("<urlset", "<\x00urlset")
    report = check(tmp_path, text, capsys)
    assert [(f["code"], f["line"], f["column"]) for f in report["findings"]] == [("XM001", 2, 2)]


@pytest.mark.parametrize(
    ("before", "after"),
    [("<url>", "<\x00url>"), ("<url>", "<\x1burl>"), ("<loc>", "<\x00loc>")],
    ids=repr,
)
def test_fix_never_escapes_the_lt(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], before: str, after: str
) -> None:
    text = sitemap(ENTRY.replace(before, after, 1).replace("1.5", "0.5"))
    path = tmp_path / "sitemap.xml"
    path.write_text(text, encoding="utf-8", newline="")
    run_cli(["--isolated", "--fix", str(path)], capsys)
    assert path.read_text(encoding="utf-8") == text  # XM001 has no fix: left for a person


@pytest.mark.parametrize("newline", ["\n", "\r\n", ""], ids=["LF", "CR LF", "one line"])
def test_the_fast_path_changes_nothing(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    newline: str,
) -> None:
    plain = [f"<url><loc>https://example.com/p{n}</loc></url>" for n in range(400)]
    damaged = [
        ENTRY.strip().replace("<url>", "<\x00url>"),
        plain[0].replace("p0", "c").replace("<url>", "<u\x01rl>"),
        plain[0].replace("p0", "d").replace("</loc>", "</\x1bloc>"),
    ]
    entries = [*plain[:200], damaged[0], *plain[200:], damaged[1], damaged[2]]
    text = HEAD.replace("\n", newline) + newline.join(entries) + newline + TAIL
    assert len(text) > fastpath.SMALL
    slow, fast = without_and_with_fast_path(monkeypatch, lambda: check(tmp_path, text, capsys))
    assert fast == slow
    as_read = text.replace("\r\n", "\n")
    assert found(fast, "XM001") == bad_places(as_read)
    assert found(fast, "VA003") == [position(as_read, as_read.index("<priority>"))]
    assert fast["urls"] == len(entries)

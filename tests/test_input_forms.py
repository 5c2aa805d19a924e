"""What an input is taken for, through the command line: an empty or blank robots.txt is a
robots.txt (it allows everything), binary data is no text sitemap or robots.txt whatever its
name, and EN002 quotes the declared encoding as the file writes it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from sitemap_lint.fastpath import ENV as FAST_PATH
from tests.helpers import run_cli

# The start of an ELF executable (`head -c 4096 /bin/ls`): NUL bytes, control characters,
# bytes that are not UTF-8, and a few lines that would pass for URLs.
BINARY = (
    b"\x7fELF\x02\x01\x01\x00" + b"\x00" * 8 + b"\x03\x00>\x00\x01\x00\x00\x00\x60\x61\x00\x00"
    b"\nhttps://example.com/page\n" + bytes(range(256)) * 4 + b"\nSitemap: /s.xml\n"
)
_BODY = (
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
    "  <url><loc>https://example.com/</loc></url>\n</urlset>\n"
)


def _check(capsys: pytest.CaptureFixture[str], path: Path) -> tuple[int, dict[str, Any]]:
    """The exit status and the JSON report's one file."""
    status, out, err = run_cli(["check", "--isolated", "-f", "json", str(path)], capsys)
    assert "Traceback" not in err, err
    [file] = json.loads(out)["files"]
    return status, file


def _codes(file: dict[str, Any]) -> list[str]:
    return [finding["code"] for finding in file["findings"]]


def _write(directory: Path, name: str, data: bytes) -> Path:
    path = directory / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


# -- an empty or blank robots.txt --------------------------------------------------------


@pytest.mark.parametrize(
    "data",
    [b"", b"\n", b"\n\n  \n", b"\r\n\t\r\n", b"\xef\xbb\xbf", b"\xef\xbb\xbf\n \n"],
    ids=["empty", "newline", "blank-lines", "crlf-tab", "bom-only", "bom-blank"],
)
def test_an_empty_or_blank_robots_txt_is_a_robots_txt_without_sitemap_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], data: bytes
) -> None:
    path = _write(tmp_path / "site", "robots.txt", data)
    status, file = _check(capsys, path)
    assert (status, file.get("kind"), _codes(file)) == (0, "robots", ["RB004"])
    [finding] = file["findings"]
    assert (finding["line"], finding["column"], finding["severity"]) == (1, 1, "info")
    assert "robots.txt has no Sitemap line" in finding["message"]


def test_a_blank_robots_txt_gets_what_one_with_rules_but_no_sitemap_line_gets(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blank_status, blank = _check(capsys, _write(tmp_path / "blank", "robots.txt", b"\n\n"))
    rules_status, rules = _check(
        capsys, _write(tmp_path / "rules", "robots.txt", b"User-agent: *\n")
    )
    del blank["path"], rules["path"]
    assert (blank_status, blank) == (rules_status, rules)


@pytest.mark.parametrize("name", ["sitemap.xml", "sitemap.txt", "robots.txt.bak", "notes"])
def test_an_empty_file_of_another_name_is_still_an_empty_sitemap(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    status, file = _check(capsys, _write(tmp_path, name, b""))
    assert (status, _codes(file)) == (1, ["IN001"])


@pytest.mark.parametrize(
    ("data", "quoted"),
    [
        (b"\x0c", "'\\x0c'"),  # a form feed
        (b"\n\x1f\n", "'\\x1f'"),
        (b"\xe2\x80\xa8", "'\\u2028'"),  # LINE SEPARATOR
        (b"\xc2\xa0", "'\\xa0'"),  # NO-BREAK SPACE
        (b"  page\x0cnext\r\nmore", "'page\\x0cnext'"),
    ],
)
def test_only_xml_white_space_is_blank(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], data: bytes, quoted: str
) -> None:
    """XML's white space is space, tab, CR and LF: a file of other space characters is not
    empty (IN001) but text that is no XML, quoted up to its first line break."""
    status, file = _check(capsys, _write(tmp_path, "sitemap.xml", data))
    assert (status, _codes(file)) == (1, ["IN006"])
    assert f"it looks like text starting {quoted};" in file["findings"][0]["message"]


# -- binary data ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name", ["sitemap-bin.txt", "sitemap.txt", "site/robots.txt", "sitemap-bin.xml"]
)
def test_binary_data_is_one_not_xml_finding_whatever_its_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    status, file = _check(capsys, _write(tmp_path, name, BINARY))
    assert (status, _codes(file)) == (1, ["IN006"])
    assert "looks like binary data" in file["findings"][0]["message"]
    assert "kind" not in file and "urls" not in file


def test_binary_data_without_nul_bytes_is_still_binary(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = bytes(byte for byte in BINARY if byte) * 2  # control characters and bad bytes
    status, file = _check(capsys, _write(tmp_path, "sitemap.txt", data))
    assert (status, _codes(file)) == (1, ["IN006"])


def test_a_latin1_text_sitemap_stays_text_with_its_bad_bytes_on_each_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = [f"https://example.com/caf\xe9-{n}" for n in range(1, 11)]
    data = ("\n".join(lines) + "\n").encode("latin-1")
    status, file = _check(capsys, _write(tmp_path, "sitemap.txt", data))
    assert (status, file.get("kind"), file.get("urls")) == (1, "text", 10)
    assert _codes(file) == ["EN001"] * 10
    assert [f["line"] for f in file["findings"]] == list(range(1, 11))


def test_a_text_sitemap_with_a_few_control_characters_stays_text(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = b"https://example.com/a\x01\nhttps://example.com/b\nhttps://example.com/c\x7f\n"
    status, file = _check(capsys, _write(tmp_path, "sitemap.txt", data))
    assert (status, file.get("kind"), file.get("urls")) == (1, "text", 3)
    assert [(f["code"], f["line"]) for f in file["findings"]] == [("UR006", 1), ("UR006", 3)]


def test_a_robots_txt_with_a_bad_byte_stays_a_robots_txt(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = b"# caf\xe9\nUser-agent: *\nSitemap: https://example.com/sitemap.xml\n"
    status, file = _check(capsys, _write(tmp_path / "site", "robots.txt", data))
    assert (status, file.get("kind")) == (1, "robots")
    assert [(f["code"], f["line"], f["column"]) for f in file["findings"]] == [("EN001", 1, 6)]


# -- EN002 quotes the declaration as written ---------------------------------------------


@pytest.mark.parametrize(
    ("declared", "body"),
    [
        ("ISO-8859-1", _BODY.encode()),  # UTF-8 bytes under a Latin-1 declaration
        ("ISO-8859-1", _BODY.replace("/</loc>", "/caf\xe9</loc>").encode("latin-1")),
        ("Windows-1252", _BODY.encode()),
        ("UTF-16", _BODY.encode()),  # not UTF-16 at all
        ("Utf_8", _BODY.encode()),  # a library's alias of UTF-8
    ],
    ids=["iso-utf8-bytes", "iso-latin1-bytes", "windows", "utf16", "alias"],
)
def test_declared_encoding_is_quoted_as_the_file_writes_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], declared: str, body: bytes
) -> None:
    head = f'<?xml version="1.0" encoding="{declared}"?>\n'.encode()
    _status, file = _check(capsys, _write(tmp_path, "sitemap.xml", head + body))
    [finding] = [f for f in file["findings"] if f["code"] == "EN002"]
    assert f'XML declaration says encoding="{declared}"' in finding["message"]
    assert (finding["line"], finding["column"]) == (1, 21)


def test_a_long_declared_encoding_is_shortened_as_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    declared = "X-Made-Up-" + "Abc" * 20
    head = f'<?xml version="1.0" encoding="{declared}"?>\n'.encode()
    _status, file = _check(capsys, _write(tmp_path, "sitemap.xml", head + _BODY.encode()))
    [finding] = [f for f in file["findings"] if f["code"] == "EN002"]
    assert f'encoding="{declared[:40]}..."' in finding["message"]


# -- the same with and without the fast path ----------------------------------------------


@pytest.mark.parametrize(
    ("name", "data"),
    [
        ("site/robots.txt", b""),
        ("site/robots.txt", b"\n \n"),
        ("sitemap-bin.txt", BINARY),
        ("site/robots.txt", BINARY),
        ("sitemap.xml", b'<?xml version="1.0" encoding="ISO-8859-1"?>\n' + _BODY.encode()),
    ],
    ids=["empty-robots", "blank-robots", "binary-txt", "binary-robots", "en002"],
)
def test_the_output_is_the_same_without_the_fast_path(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    name: str,
    data: bytes,
) -> None:
    path = _write(tmp_path, name, data)
    with_it = _check(capsys, path)
    monkeypatch.setenv(FAST_PATH, "0")
    assert _check(capsys, path) == with_it


# -- a name that ends in robots.txt -------------------------------------------------------


@pytest.mark.parametrize("name", ["notrobots.txt", "MyRobots.txt", "sub/notrobots.txt"])
def test_a_url_list_whose_name_only_ends_in_robots_txt_is_a_text_sitemap(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    urls = b"https://example.com/a\nhttps://example.com/a\n"
    _, file = _check(capsys, _write(tmp_path, name, urls))
    assert (file.get("kind"), file["urls"], _codes(file)) == ("text", 2, ["DU001"])


@pytest.mark.parametrize(
    "name", ["robots.txt", "ROBOTS.TXT", "staging.robots.txt", "site-robots.txt"]
)
def test_a_file_named_robots_txt_after_a_separator_is_a_robots_txt(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    _write(tmp_path, "s.xml", _BODY.encode())
    _, out, err = run_cli(
        ["check", "--isolated", "-f", "json", str(_write(tmp_path, name, b"Sitemap: s.xml\n"))],
        capsys,
    )
    assert "Traceback" not in err, err
    kinds = {Path(file["path"]).name: file.get("kind") for file in json.loads(out)["files"]}
    assert kinds[name] == "robots"

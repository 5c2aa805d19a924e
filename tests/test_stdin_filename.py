"""``--stdin-filename NAME``: standard input reported, and matched by the configuration's
per-file settings, under the name of the file it stands for, which is never opened."""

from __future__ import annotations

import gzip
import io
import json
import sys
from pathlib import Path

import pytest

import sitemap_lint
from tests.helpers import run_cli

NAME = "public/sitemap.xml"
BAD = (
    b'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
    b"  <url><loc>/relative</loc><priority>2</priority></url>\n"
    b"</urlset>\n"
)
# What the file NAME holds: nothing its findings could come from.
ON_DISK = (
    b'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
    b"  <url><loc>https://example.com/</loc></url>\n"
    b"</urlset>\n"
)


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "public").mkdir()
    (tmp_path / NAME).write_bytes(ON_DISK)
    return tmp_path


def _stdin(monkeypatch: pytest.MonkeyPatch, data: bytes = BAD) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))


def _check(args: list[str], capsys, monkeypatch, data: bytes = BAD) -> tuple[int, str, str]:
    _stdin(monkeypatch, data)
    return run_cli(["--now", "2025-06-01", *args], capsys)


def test_the_text_report_names_the_file_and_shows_the_lines_read(
    site: Path, capsys, monkeypatch
) -> None:
    status, out, err = _check(["--isolated", "--stdin-filename", NAME, "-"], capsys, monkeypatch)
    assert (status, err) == (1, "")
    assert out.startswith(f"{NAME}\n  2:8   error    UR001")
    assert "2 |   <url><loc>/relative</loc>" in out  # standard input's line, not the file's
    assert (site / NAME).read_bytes() == ON_DISK


@pytest.mark.parametrize("fmt", ["concise", "json", "sarif", "github", "junit", "gitlab"])
def test_every_format_names_the_file(fmt: str, site: Path, capsys, monkeypatch) -> None:
    args = ["--isolated", "-f", fmt, "--stdin-filename", NAME, "-"]
    status, out, err = _check(args, capsys, monkeypatch)
    assert (status, err) == (1, "")
    if fmt == "concise":
        assert out.splitlines()[0].startswith(f"{NAME}:2:8: UR001 ")
    elif fmt == "json":
        assert [file["path"] for file in json.loads(out)["files"]] == [NAME]
    elif fmt == "sarif":
        result = json.loads(out)["runs"][0]["results"][0]
        location = result["locations"][0]["physicalLocation"]["artifactLocation"]
        assert location == {"uri": NAME, "uriBaseId": "%SRCROOT%"}
    elif fmt == "github":  # an annotation on the file, as for the file itself
        assert out.startswith(f"::error file={NAME},line=2,col=8,")
    elif fmt == "junit":
        assert f'<testsuite name="{NAME}"' in out
    else:
        assert {issue["location"]["path"] for issue in json.loads(out)} == {NAME}
    assert '"-"' not in out and "file=-," not in out  # not standard input's "-"


def test_per_file_ignores_match_the_name(site: Path, capsys, monkeypatch) -> None:
    (site / ".sitemap-lint.toml").write_text('[per-file-ignores]\n"public/*.xml" = ["VA003"]\n')
    named = ["-f", "concise", "--stdin-filename", NAME, "-"]
    status, out, _err = _check(named, capsys, monkeypatch)
    assert status == 1 and [line.split()[1] for line in out.splitlines()] == ["UR001"]
    status, out, _err = _check(["-f", "concise", "-"], capsys, monkeypatch)
    assert [line.split()[1] for line in out.splitlines()] == ["UR001", "VA003"]


def test_a_sitemap_url_table_matches_the_name(site: Path, capsys, monkeypatch) -> None:
    (site / ".sitemap-lint.toml").write_text(
        '[sitemap-url]\n"public/*.xml" = "https://example.com/sitemap.xml"\n'
    )
    data = BAD.replace(b"/relative", b"https://other.example/a")
    args = ["-f", "concise", "--select", "SC", "--stdin-filename", NAME, "-"]
    status, out, _err = _check(args, capsys, monkeypatch, data)
    assert status == 1 and out.startswith(f"{NAME}:2:8: SC001 ")


def test_the_name_tells_a_text_sitemap(site: Path, capsys, monkeypatch) -> None:
    args = ["--isolated", "-f", "concise", "--stdin-filename", "urls.txt", "-"]
    data = b"https://example.com/a\nnot a url\n"
    status, out, _err = _check(args, capsys, monkeypatch, data)
    assert status == 1 and out.startswith("urls.txt:2:1: TX001 ")


@pytest.mark.parametrize(
    ("name", "data"),
    [("public/sitemap.xml.gz", ON_DISK), ("public/sitemap.xml", gzip.compress(ON_DISK))],
)
def test_the_name_says_gzip_or_not_as_a_file_of_that_name_does(
    name: str, data: bytes, site: Path, capsys, monkeypatch
) -> None:
    (site / name).write_bytes(data)
    on_disk = run_cli(["--isolated", "-f", "concise", name], capsys)
    from_stdin = _check(
        ["--isolated", "-f", "concise", "--stdin-filename", name, "-"], capsys, monkeypatch, data
    )
    assert from_stdin == on_disk and on_disk[1].startswith(f"{name}:1:1: IN003 ")
    assert sitemap_lint.lint(data, name=name, isolated=True)[0].code == "IN003"
    # Unnamed, the content has no name to contradict.
    assert _check(["--isolated", "-"], capsys, monkeypatch, data)[0] == 0
    assert sitemap_lint.lint(data, isolated=True) == []


def test_fix_writes_standard_output_not_the_file(site: Path, capsysbinary, monkeypatch) -> None:
    data = BAD.replace(b"/relative", b"https://example.com/a").replace(b"2<", b"1.0<")
    data = data.replace(b"<loc>", b"<loc> ")  # a safe fix: the space trimmed
    _stdin(monkeypatch, data)
    from sitemap_lint.cli import main

    status = main(["--isolated", "--fix", "--stdin-filename", NAME, "-"])
    captured = capsysbinary.readouterr()
    assert status == 0, captured.err
    assert b"<loc>https://example.com/a</loc>" in captured.out
    assert (site / NAME).read_bytes() == ON_DISK


def test_the_diff_names_the_file(site: Path, capsys, monkeypatch) -> None:
    data = BAD.replace(b"<loc>", b"<loc> ")
    args = ["--isolated", "--diff", "--stdin-filename", NAME, "-"]
    status, out, _err = _check(args, capsys, monkeypatch, data)
    assert status == 1 and out.startswith(f"--- {NAME}\n+++ {NAME}\n")
    assert (site / NAME).read_bytes() == ON_DISK


def test_a_baseline_of_the_file_matches_standard_input_named_so(
    site: Path, capsys, monkeypatch
) -> None:
    (site / NAME).write_bytes(BAD)
    status, _out, _err = run_cli(["--isolated", "--write-baseline", "base.json", NAME], capsys)
    assert status == 0
    (site / NAME).write_bytes(ON_DISK)
    args = ["--isolated", "-f", "json", "--baseline", "base.json", "--stdin-filename", NAME, "-"]
    status, out, _err = _check(args, capsys, monkeypatch)
    assert status == 0 and json.loads(out)["summary"]["baseline"]["matched"] == 2


def test_an_index_read_from_standard_input_is_named_in_a_set(
    site: Path, capsys, monkeypatch
) -> None:
    (site / "public" / "pages.xml").write_bytes(BAD)
    index = (
        b'<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
        b"<sitemap><loc>https://example.com/pages.xml</loc></sitemap></sitemapindex>"
    )
    args = ["--isolated", "-f", "json", "--map", "https://example.com/=public"]
    status, out, _err = _check([*args, "--stdin-filename", NAME, "-"], capsys, monkeypatch, index)
    assert status == 1
    assert [file["path"] for file in json.loads(out)["files"]] == [NAME, "public/pages.xml"]


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (
            ["--stdin-filename", NAME, NAME],
            f"--stdin-filename {NAME}: no input is standard input; give - among the inputs,"
            " or leave the option out",
        ),
        (
            ["--stdin-filename", NAME, "-", "public"],
            f"--stdin-filename {NAME}: another input has this name; give standard input a"
            " name of its own",
        ),
        (
            ["--stdin-filename", "https://example.com/s.xml", "-", "https://example.com/s.xml"],
            "--stdin-filename https://example.com/s.xml: another input has this name; give"
            " standard input a name of its own",
        ),
        (
            ["--stdin-filename", "", "-"],
            "--stdin-filename: an empty name names no file; give one, e.g. public/sitemap.xml",
        ),
    ],
)
def test_a_name_that_cannot_be_is_exit_2(
    args: list[str], says: str, site: Path, capsys, monkeypatch
) -> None:
    status, out, err = _check(["--isolated", *args], capsys, monkeypatch)
    assert (status, out, err) == (2, "", f"sitemap-lint: error: {says}\n")


def test_the_api_takes_the_name_for_standard_input_and_for_bytes(site: Path, monkeypatch) -> None:
    _stdin(monkeypatch)
    result = sitemap_lint.lint_paths(["-"], stdin_filename=Path(NAME), isolated=True)
    assert [file.path for file in result.files] == [NAME]
    by_option = sitemap_lint.lint(BAD, stdin_filename=NAME, isolated=True)
    assert by_option == sitemap_lint.lint(BAD, name=NAME, isolated=True) == list(result.findings)
    # The name tells a text sitemap (a file named so needs no TX006 on its content).
    lines = b"https://example.com/a\nnot a url\n"
    named = sitemap_lint.lint(lines, stdin_filename="urls.txt", isolated=True)
    assert [f.code for f in named] == ["TX001"]
    assert [f.code for f in sitemap_lint.lint(lines, isolated=True)] == ["TX006", "TX001"]
    with pytest.raises(sitemap_lint.SitemapLintError, match=r"^name= and stdin_filename= both"):
        sitemap_lint.lint(BAD, name=NAME, stdin_filename=NAME)
    with pytest.raises(sitemap_lint.SitemapLintError, match=r"^stdin_filename=x\.xml: no input"):
        sitemap_lint.lint_paths([NAME], stdin_filename="x.xml", isolated=True)


@pytest.mark.parametrize("flag", ["--output-file", "--write-baseline"])
def test_a_report_is_never_written_over_the_file_standard_input_stands_for(
    flag: str, site: Path, capsys, monkeypatch
) -> None:
    args = ["--isolated", "--stdin-filename", NAME, flag, NAME, "-"]
    status, out, err = _check(args, capsys, monkeypatch)
    assert (status, out) == (2, "")
    assert err == (
        f"sitemap-lint: error: {flag} {NAME}: it is the input {NAME}; writing there would"
        " replace the sitemap: name another file\n"
    )
    assert (site / NAME).read_bytes() == ON_DISK

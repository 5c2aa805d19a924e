"""``sitemap-lint diff OLD NEW``: what a deploy changed, and the thresholds that gate it."""

from __future__ import annotations

import errno
import gzip
import io
import json
import os
import re
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import run_cli
from tests.site_server import SiteServer

NOW = "2026-12-04T10:00:00Z"
SITE = "https://example.com/"


def _urlset(*entries: tuple[str, str | None]) -> str:
    body = "".join(
        f"  <url><loc>{url}</loc>{f'<lastmod>{lastmod}</lastmod>' if lastmod else ''}</url>\n"
        for url, lastmod in entries
    )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n{body}</urlset>\n'
    )


def _index(*children: str) -> str:
    body = "".join(f"  <sitemap><loc>{SITE}{child}</loc></sitemap>\n" for child in children)
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n{body}'
        "</sitemapindex>\n"
    )


def _pages(count: int, lastmod: str | None = "2025-01-01", host: str = "example.com") -> list:
    return [(f"https://{host}/p/{i}", lastmod) for i in range(count)]


@pytest.fixture
def sides(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An old and a new deploy of one site: an index of pages and blog; the new one drops
    20 pages and an old sitemap, moves the blog to www, stamps every page's lastmod with
    the build time and moves one page from pages.xml to blog.xml."""
    monkeypatch.chdir(tmp_path)
    old, new = tmp_path / "old", tmp_path / "new"
    old.mkdir()
    new.mkdir()
    (old / "sitemap.xml").write_text(_index("pages.xml", "blog.xml", "legacy.xml"))
    (old / "pages.xml").write_text(_urlset(*_pages(100)))
    (old / "blog.xml").write_text(_urlset(*[(f"{SITE}blog/{i}", "2025-02-01") for i in range(50)]))
    (old / "legacy.xml").write_text(_urlset((f"{SITE}legacy", None)))
    (new / "sitemap.xml").write_text(_index("pages.xml", "blog.xml"))
    (new / "pages.xml").write_text(_urlset(*_pages(79, "2026-12-04T09:30:00Z")))
    blog = [(f"https://www.example.com/blog/{i}", "2025-02-01") for i in range(50)]
    (new / "blog.xml").write_text(_urlset(*blog, (f"{SITE}p/99", "2025-01-01")))
    return tmp_path


def _diff(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict, str]:
    status, out, err = run_cli(
        [
            "diff",
            "--follow",
            "--old-map",
            f"{SITE}=old",
            "--new-map",
            f"{SITE}=new",
            "--now",
            NOW,
            "--format",
            "json",
            "old/sitemap.xml",
            "new/sitemap.xml",
            *args,
        ],
        capsys,
    )
    return status, json.loads(out) if out.strip() else {}, err


def test_an_index_in_a_cycle_is_compared_as_read_once(
    sides: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An index that lists itself (SE002 for ``check``) was read once: every URL of the
    side is there, so the sides are compared."""
    (sides / "new" / "sitemap.xml").write_text(_index("pages.xml", "blog.xml", "sitemap.xml"))
    status, report, err = _diff(capsys)
    assert (status, err) == (0, "")
    assert (report["old"]["urls"], report["new"]["urls"]) == (151, 130)


def test_what_a_deploy_changed(sides: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, report, _err = _diff(capsys, "--show", "2")
    assert status == 0  # no thresholds given
    assert (report["old"]["urls"], report["new"]["urls"]) == (151, 130)
    urls = report["urls"]
    # 20 pages and the legacy page gone, the 50 blog URLs moved host (removed and added).
    assert (urls["removed"], urls["added"], urls["common"]) == (20 + 1 + 50, 50, 80)
    assert urls["removed_first"] == [
        {"url": f"{SITE}p/79", "file": "pages.xml"},
        {"url": f"{SITE}p/80", "file": "pages.xml"},
    ]
    assert urls["added_first"][0] == {"url": "https://www.example.com/blog/0", "file": "blog.xml"}
    assert urls["moved"] == 1
    assert urls["moved_first"] == [{"url": f"{SITE}p/99", "from": "pages.xml", "to": "blog.xml"}]
    assert report["children"] == {"added": [], "removed": [f"{SITE}legacy.xml"]}
    assert report["origins"] == [
        {"from": "https://example.com", "to": "https://www.example.com", "urls": 50}
    ]
    lastmod = report["lastmod"]
    assert lastmod["changed"] == 79  # every page still listed but p/99, which kept its date
    assert lastmod["most_common"] == {"moment": "2026-12-04T09:30:00Z", "entries": 79}
    assert lastmod["within_the_last_hour"] == 79
    assert lastmod["with_lastmod"] == 130
    assert report["by_file"] == [
        {"file": "blog.xml", "added": 50, "removed": 50},
        {"file": "legacy.xml", "added": 0, "removed": 1},
        {"file": "pages.xml", "added": 0, "removed": 20},
    ]


def _hreflang_sides(tmp_path: Path) -> tuple[str, str]:
    """An old and a new urlset of one cluster of pages (en/, de/, fr/, each naming the
    three) and one page without alternates; the new one drops fr/, which en/ and de/
    still name: 2 of its 6 alternates name a removed URL."""

    def page(path: str, *alternates: str) -> str:
        links = "".join(
            f'<xhtml:link rel="alternate" hreflang="{code}" href="{SITE}{target}"/>'
            for code, target in (a.split("=") for a in alternates)
        )
        return f"  <url><loc>{SITE}{path}</loc>{links}</url>\n"

    def urlset(*pages: str) -> str:
        return (
            '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" '
            'xmlns:xhtml="http://www.w3.org/1999/xhtml">\n' + "".join(pages) + "</urlset>\n"
        )

    cluster = ("en=en/", "de=de/", "fr=fr/")
    (tmp_path / "old.xml").write_text(
        urlset(*(page(p.split("=")[1], *cluster) for p in cluster), page("other"))
    )
    (tmp_path / "new.xml").write_text(
        urlset(page("en/", *cluster), page("de/", *cluster), page("other"))
    )
    return str(tmp_path / "old.xml"), str(tmp_path / "new.xml")


def test_alternates_that_name_a_removed_url(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _err = run_cli(
        ["diff", "-f", "json", "--max-hreflang-broken", "1", *_hreflang_sides(tmp_path)], capsys
    )
    report = json.loads(out)
    assert status == 1
    assert report["hreflang"] == {
        "broken": 2,
        "first": [
            {"url": f"{SITE}en/", "file": "new.xml"},
            {"url": f"{SITE}de/", "file": "new.xml"},
        ],
    }


@pytest.mark.parametrize(("limit", "expected"), [("34%", 0), ("90%", 0), ("33%", 1)])
def test_a_share_of_broken_alternates_is_of_the_new_alternates(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], limit: str, expected: int
) -> None:
    status, out, _err = run_cli(
        ["diff", "-f", "json", "--max-hreflang-broken", limit, *_hreflang_sides(tmp_path)], capsys
    )
    assert status == expected
    passed = json.loads(out)["thresholds"]["passed"]
    assert [p["share"] for p in passed] == ([33.33] if expected else [])


@pytest.mark.parametrize(("limit", "expected"), [("34%", 0), ("50%", 0), ("90%", 0), ("33%", 1)])
def test_a_share_of_sitemaps_no_longer_listed_is_of_the_old_indexes_children(
    sides: Path, capsys: pytest.CaptureFixture[str], limit: str, expected: int
) -> None:
    """The old index lists 3 sitemaps, the new one 2 of them: 1 of 3 is no longer listed."""
    status, report, _err = _diff(capsys, "--max-children-removed", limit)
    assert status == expected
    passed = report["thresholds"]["passed"]
    assert [(p["count"], p["share"]) for p in passed] == ([(1, 33.33)] if expected else [])


def test_thresholds_fail_the_gate(sides: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, report, _err = _diff(
        capsys, "--max-removed", "10%", "--max-lastmod-churn", "50%", "--max-moved", "5"
    )
    assert status == 1
    passed = report["thresholds"]["passed"]
    assert [p["threshold"] for p in passed] == ["--max-removed 10%", "--max-lastmod-churn 50%"]
    assert passed[0]["count"] == 71 and passed[0]["share"] == pytest.approx(47.02, abs=0.01)
    status, _report, _err = _diff(capsys, "--max-removed", "71", "--max-recent-lastmod", "80%")
    assert status == 0  # 71 removed is not more than 71; 60.8% recent is under 80%


@pytest.mark.parametrize(
    ("lastmods", "expected", "says"),
    [
        (("2025-01-01", "2025-01-02"), 0, ""),
        (("2025-01-01", "2025-01-01", "2025-01-02"), 1, "2 entries sharing one lastmod (66.7%)"),
    ],
)
def test_only_a_lastmod_two_entries_carry_is_shared(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    lastmods: tuple[str, ...],
    expected: int,
    says: str,
) -> None:
    new = tmp_path / "new.xml"
    new.write_text(_urlset(*((f"{SITE}p/{i}", day) for i, day in enumerate(lastmods))))
    status, out, _err = run_cli(["diff", "--max-same-lastmod", "40%", str(new), str(new)], capsys)
    assert status == expected
    assert says in out


@pytest.mark.parametrize("fmt", ["text", "json", "html"])
def test_lastmods_no_two_entries_share_are_not_called_the_most_common(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], fmt: str
) -> None:
    new = tmp_path / "new.xml"
    new.write_text(_urlset((f"{SITE}a", "2025-01-01"), (f"{SITE}b", "2025-01-02")))
    status, out, _err = run_cli(["diff", "-f", fmt, "--now", NOW, str(new), str(new)], capsys)
    assert status == 0
    assert "2025-01-01T00:00:00Z" not in out  # a lastmod one entry carries is shared with none
    if fmt == "json":
        assert json.loads(out)["lastmod"]["most_common"] is None
    else:
        assert "no two new entries carry the same lastmod; 0.0% of those with one" in out


def test_a_single_url_is_said_as_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    old = tmp_path / "old.xml"
    old.write_text(_urlset(*_pages(2)))
    new = tmp_path / "new.xml"
    new.write_text(_urlset(*_pages(1)))
    status, out, _err = run_cli(["diff", "--max-removed", "0", str(old), str(new)], capsys)
    assert status == 1
    assert "--max-removed 0: 1 URL removed (50.0%)" in out


@pytest.mark.parametrize("pretty", [True, False], ids=["scanned", "parsed"])
def test_an_entry_with_an_empty_loc_lists_no_url(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], pretty: bool
) -> None:
    """An empty (or blank) loc is no URL added, on either route of the reader; the
    alternates of the entries after it stay with their own pages."""
    old = tmp_path / "old.xml"
    old.write_text(_urlset(*_pages(3)))
    new = tmp_path / "new.xml"
    text = _urlset(("", "2025-01-01"), *_pages(2), ("  ", None))
    if not pretty:  # an alternate: the file is parsed, its alternates numbered by entry
        text = text.replace(
            '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
            '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
            ' xmlns:xhtml="http://www.w3.org/1999/xhtml">',
        ).replace(
            "<loc>https://example.com/p/1</loc>",
            '<loc>https://example.com/p/1</loc><xhtml:link rel="alternate" hreflang="de"'
            ' href="https://example.com/p/2"/>',
        )
    new.write_text(text)
    status, out, _err = run_cli(["diff", "--format", "json", str(old), str(new)], capsys)
    report = json.loads(out)
    assert status == 0
    assert report["new"]["urls"] == 2
    assert report["urls"]["added"] == 0 and report["urls"]["removed"] == 1
    if not pretty:  # the alternate names the removed page, and stands on p/1
        assert [a["url"] for a in report["hreflang"]["first"]] == ["https://example.com/p/1"]


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["-o", ""], "--output-file: an empty path names no file; give a file"),
        ([], "OLD: '': an empty path names no file; give a file, directory or URL"),
    ],
)
def test_an_empty_path_is_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch, args: list[str], says: str
) -> None:
    """Not the working directory, which is what an empty path (an unset variable) reads."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sitemap.xml").write_text(_urlset(("https://example.com/a", None)))
    old = "sitemap.xml" if args else ""
    status, out, err = run_cli(["diff", *args, old, "sitemap.xml"], capsys)
    assert (status, out, err) == (2, "", f"sitemap-lint: error: {says}\n")


@pytest.mark.parametrize(("added", "expected"), [(0, 0), (1, 1)])
def test_urls_added_to_an_empty_old_side_pass_any_share(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], added: int, expected: int
) -> None:
    old = tmp_path / "old.xml"
    old.write_text(_urlset())
    new = tmp_path / "new.xml"
    new.write_text(_urlset(*_pages(added)))
    args = ["diff", "-f", "json", "--max-added", "100%", str(old), str(new)]
    status, out, _err = run_cli(args, capsys)
    assert status == expected
    passed = json.loads(out)["thresholds"]["passed"]
    assert passed == (
        [{"threshold": "--max-added 100%", "what": "URLs added", "count": 1, "share": None}]
        if added
        else []
    )
    status, out, _err = run_cli(["diff", "--max-added", "100%", str(old), str(new)], capsys)
    assert status == expected
    assert ("--max-added 100%: 1 URL added (of 0, past any share)" in out) == bool(added)


def test_the_html_page_says_a_share_of_an_empty_old_side(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("vl_convert")
    old = tmp_path / "old.xml"
    old.write_text(_urlset())
    new = tmp_path / "new.xml"
    new.write_text(_urlset(*_pages(2)))
    args = ["diff", "-f", "html", "--max-added", "5%", str(old), str(new)]
    status, out, err = run_cli(args, capsys)
    assert status == 1, err
    assert "</code>: 2 URLs added (of 0, past any share)</li>" in out


def test_same_sides_are_no_change(sides: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _err = run_cli(
        ["diff", "--now", NOW, "--max-removed", "0", "old/pages.xml", "old/pages.xml"], capsys
    )
    assert status == 0
    assert "URLs removed           0" in out and "Within every threshold" in out


def test_the_html_page_writes_now_in_utc(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sitemap = tmp_path / "sitemap.xml"
    sitemap.write_text(_urlset(*_pages(2)))
    args = ["diff", "-f", "html", "--now", "2026-12-04T05:00:00-05:00", str(sitemap), str(sitemap)]
    status, out, err = run_cli(args, capsys)
    assert status == 0, err
    assert "<dt>Now</dt><dd>2026-12-04T10:00:00Z</dd>" in out


def test_the_html_page_holds_no_time_without_now(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without --now the page says no time, as the text and JSON reports: the same
    sides give the same bytes, a minute later too."""
    pytest.importorskip("vl_convert")
    sitemap = tmp_path / "sitemap.xml"
    sitemap.write_text(_urlset(*_pages(2)))
    status, out, err = run_cli(["diff", "-f", "html", str(sitemap), str(sitemap)], capsys)
    assert status == 0, err
    assert "<dt>Now</dt>" not in out
    again = run_cli(["diff", "-f", "html", str(sitemap), str(sitemap)], capsys)[1]
    assert again == out


def test_gzip_text_and_plain_files_compare_by_content(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = tmp_path / "sitemap.xml.gz"
    old.write_bytes(gzip.compress(_urlset(*_pages(5)).encode()))
    new = tmp_path / "sitemap.txt"
    new.write_text("".join(f"{url}\n" for url, _lastmod in _pages(4)))
    status, out, _err = run_cli(
        ["diff", "--format", "json", "--now", NOW, str(old), str(new)], capsys
    )
    report = json.loads(out)
    assert status == 0
    assert (report["urls"]["removed"], report["urls"]["added"]) == (1, 0)


@pytest.mark.parametrize(
    ("old_text", "says"),
    [
        (None, "OLD"),
        ("<urlset><url><loc>https://example.com/</loc></urlset>", "not well-formed XML"),
    ],
)
def test_a_side_that_cannot_be_read_is_exit_2_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], old_text: str | None, says: str
) -> None:
    old = tmp_path / "old.xml"
    if old_text is not None:
        old.write_text(old_text)
    new = tmp_path / "new.xml"
    new.write_text(_urlset(*_pages(2)))
    before = new.read_bytes()
    status, out, err = run_cli(["diff", str(old), str(new)], capsys)
    assert status == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1 and says in err, err
    assert new.read_bytes() == before


@pytest.mark.parametrize(
    ("new_data", "says"),
    [
        (b"", "an empty file, not a sitemap"),
        (b"  \n\n", "an empty file, not a sitemap"),
        (b"<html><body>oops</body></html>", "the root element is <html>"),
        (b'<rss version="2.0"><channel/></rss>', "the root element is <rss>"),
        (b"<urlset><url><loc>https://example.com/p/0</loc></url></urlset>", "namespace"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "binary data"),
        (b"caf\xe9 \xc3\x28 text", "binary data"),
        (b"just text\n", "line 1 is not an absolute http(s) URL ('just text')"),
        (b"https://example.com/p/0\n\n# comment\n", "line 3 is not an absolute http(s) URL"),
        (b"https://example.com/p/0 2025-01-01\n", "line 1 is not an absolute http(s) URL"),
        (b"/p/0\nftp://example.com/p/1\n", "line 1 is not an absolute http(s) URL"),
    ],
)
def test_a_side_that_is_no_sitemap_is_exit_2_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], new_data: bytes, says: str
) -> None:
    old = tmp_path / "old.xml"
    old.write_text(_urlset(*_pages(3)))
    odd = tmp_path / "odd.xml"
    odd.write_bytes(new_data)
    for args, side in (([str(old), str(odd)], "NEW"), ([str(odd), str(old)], "OLD")):
        status, out, err = run_cli(["diff", "--max-removed", "100%", *args], capsys)
        assert status == 2, err
        assert out == ""
        assert len(err.strip().splitlines()) == 1, err
        assert f"{side} {odd}: " in err and says in err and "nothing was compared" in err


def test_a_text_sitemap_of_urls_is_still_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = tmp_path / "sitemap.txt"
    old.write_text("https://example.com/p/0\n\n  HTTP://example.com/p/1?a=b#c \r\n")
    new = tmp_path / "new.txt"
    new.write_text("https://example.com/p/0\n")
    status, out, err = run_cli(["diff", "-f", "json", str(old), str(new)], capsys)
    assert status == 0, err
    assert json.loads(out)["old"]["urls"] == 2


def test_an_index_whose_sitemaps_were_not_read_stops_a_diff_of_urls(
    sides: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Without --follow or a map, the new index's sitemaps are not read: their URLs would
    # all look removed from the old flat sitemap (and added, the other way round).
    (sides / "flat.xml").write_text(_urlset(*_pages(3)))
    for args, side, look in (
        (["flat.xml", "new/sitemap.xml"], "NEW", "removed"),
        (["new/sitemap.xml", "flat.xml"], "OLD", "added"),
        (["--new-map", f"{SITE}=new", "new/sitemap.xml", "flat.xml"], "OLD", "added"),
    ):
        status, out, err = run_cli(["diff", "--max-removed", "5%", *args], capsys)
        assert status == 2, err
        assert out == "" and len(err.strip().splitlines()) == 1, err
        assert f"{side} new/sitemap.xml lists a sitemap that was not read ({SITE}pages.xml)" in err
        assert f"would all look {look}" in err and "nothing was compared" in err
    # Read on one side only, with a map for it: compared.
    status, out, err = run_cli(
        ["diff", "-f", "json", "--new-map", f"{SITE}=new", "flat.xml", "new/sitemap.xml"], capsys
    )
    assert status == 0, err
    assert json.loads(out)["new"]["urls"] == 130
    # Indexes on both sides, nothing followed: their lists of sitemaps are compared.
    status, out, err = run_cli(["diff", "-f", "json", "old/sitemap.xml", "new/sitemap.xml"], capsys)
    assert status == 0, err
    assert json.loads(out)["old"]["urls"] == json.loads(out)["new"]["urls"] == 0


def test_a_missing_child_stops_the_diff(sides: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (sides / "new" / "blog.xml").unlink()
    status, _report, err = _diff(capsys)
    assert status == 2
    assert "NEW" in err and "SE007" in err and "nothing was compared" in err


@pytest.mark.parametrize(
    "value",
    # Numbers Python reads but a limit is not written as: a sign, "_", an exponent,
    # another script's digits, not a number.
    ["-1", "101%", "lots", "5 %x", "+1", "-0%", "1_0", "1e3", "1e1%", "\uff15", "nan%", "%"],
)
def test_a_bad_threshold_is_exit_2(
    sides: Path, capsys: pytest.CaptureFixture[str], value: str
) -> None:
    status, out, err = run_cli(
        ["diff", "--max-removed", value, "old/pages.xml", "new/pages.xml"], capsys
    )
    assert status == 2 and out == ""
    assert "--max-removed" in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("flag", ["--map", "--old-map", "--new-map"])
def test_the_report_never_overwrites_a_file_a_map_reads(
    sides: Path, capsys: pytest.CaptureFixture[str], flag: str
) -> None:
    """A side's children read through a map are the side's files too, wherever the map's
    directory is."""
    (sides / "a").mkdir()
    (sides / "b").mkdir()
    index = (sides / "new" / "sitemap.xml").read_text()
    (sides / "a" / "sitemap.xml").write_text(index)
    (sides / "b" / "sitemap.xml").write_text(index)
    before = (sides / "new" / "pages.xml").read_bytes()
    status, out, err = run_cli(
        ["diff", flag, f"{SITE}=new", "-o", "new/pages.xml", "a/sitemap.xml", "b/sitemap.xml"],
        capsys,
    )
    assert (status, out) == (2, "")
    assert err == (
        f"sitemap-lint: error: --output-file new/pages.xml: inside new, which {flag}"
        f" {SITE}=new reads for a side of the diff; write the report elsewhere\n"
    )
    assert (sides / "new" / "pages.xml").read_bytes() == before


@pytest.mark.parametrize(
    ("lastmod", "moment"),
    [
        ("2026-12-04T10:30:00+01:00", "2026-12-04T09:30:00Z"),
        ("0999-05-05", "0999-05-05T00:00:00Z"),  # a W3C year has four digits
        ("0001-01-01T00:00:00+14:00", "0000-12-31T10:00:00Z"),
        ("9999-12-31T23:59:59-14:00", "10000-01-01T13:59:59Z"),
    ],
)
def test_the_shared_lastmod_is_written_in_utc_at_the_calendar_s_ends_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], lastmod: str, moment: str
) -> None:
    (tmp_path / "old.xml").write_text(_urlset(("https://example.com/0", None)))
    entries = [(f"https://example.com/{i}", lastmod) for i in range(2)]
    (tmp_path / "new.xml").write_text(_urlset(*entries))
    args = ["diff", "--now", NOW, str(tmp_path / "old.xml"), str(tmp_path / "new.xml")]
    status, out, err = run_cli([*args, "-f", "json"], capsys)
    assert status == 0, err
    assert json.loads(out)["lastmod"]["most_common"] == {"moment": moment, "entries": 2}
    status, out, err = run_cli(args, capsys)
    assert status == 0 and f" carry {moment};" in out, err
    assert out.startswith(f"OLD {tmp_path / 'old.xml'} (1 file, 1 URL)  NEW "), out


def test_an_unknown_format_is_named_as_check_names_it(
    sides: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run_cli(
        ["diff", "--format", "sarif", "old/pages.xml", "new/pages.xml"], capsys
    )
    assert (status, out) == (2, "")
    assert err == (
        "sitemap-lint: error: --format: unknown format 'sarif'; choose one of text, json, html,"
        " github\n"
    )


def test_the_report_never_overwrites_a_side(
    sides: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = (sides / "new" / "pages.xml").read_bytes()
    status, _out, err = run_cli(
        ["diff", "-o", "new/pages.xml", "old/pages.xml", "new/pages.xml"], capsys
    )
    assert status == 2 and "a side of the diff" in err
    assert (sides / "new" / "pages.xml").read_bytes() == before
    status, _out, _err = run_cli(
        ["diff", "-o", "report.json", "-f", "json", "old/pages.xml", "new/pages.xml"], capsys
    )
    assert status == 0
    assert json.loads((sides / "report.json").read_text())["urls"]["removed"] == 21


def test_the_report_goes_into_a_fifo_that_stays_one(
    sides: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fifo = sides / "report.json"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # a reader waits: no block
    try:
        status, _out, err = run_cli(
            ["diff", "-o", "report.json", "-f", "json", "old/pages.xml", "new/pages.xml"], capsys
        )
        received = os.read(reader, 1 << 16)
    finally:
        os.close(reader)
    assert (status, err) == (0, "")
    assert json.loads(received)["urls"]["removed"] == 21
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


class _ClosedAfterFirstWrite(io.StringIO):
    """A pipe whose reader goes away after the first write (``| head -1``)."""

    def write(self, text: str) -> int:
        if self.tell():
            raise BrokenPipeError(errno.EPIPE, "Broken pipe")
        return super().write(text)


@pytest.mark.parametrize("report_format", ["text", "json"])
@pytest.mark.parametrize(("threshold", "expected"), [("5000", 0), ("0", 1)])
def test_a_reader_that_stops_early_leaves_the_status_as_it_is(
    sides: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    report_format: str,
    threshold: str,
    expected: int,
) -> None:
    stdout = _ClosedAfterFirstWrite()
    monkeypatch.setattr(sys, "stdout", stdout)
    status, _report, err = _diff(capsys, "--format", report_format, "--max-removed", threshold)
    assert (status, err) == (expected, "")
    assert stdout.getvalue()  # the first write went through


def test_a_closed_pipe_ends_the_installed_command_quietly(sides: Path) -> None:
    new = sides / "many.xml"
    new.write_text(_urlset(*_pages(3000)))
    command = [sys.executable, "-m", "sitemap_lint", "diff", "--show", "3000"]
    with subprocess.Popen(
        [*command, "old/pages.xml", str(new)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=sides,
        env={**os.environ, "NO_COLOR": "1"},
    ) as process:
        assert process.stdout is not None and process.stderr is not None
        assert process.stdout.readline().startswith(b"OLD ")
        process.stdout.close()
        err = process.stderr.read()
    assert (process.returncode, err) == (0, b"")


@pytest.mark.slow
def test_the_deployed_sitemap_against_the_build_through_the_installed_command(
    sides: Path,
) -> None:
    """The CI recipe: the deployed sitemap by URL (a real local server), the build on disk."""
    with SiteServer() as site:
        site.mount("/", sides / "old")
        deployed = site.url("/sitemap.xml")
        # The deployed index lists https://example.com/...: map it to the server.
        completed = subprocess.run(
            [
                sys.executable,
                "-m",
                "sitemap_lint",
                "diff",
                "--old-map",
                f"{SITE}=old",
                "--new-map",
                f"{SITE}=new",
                "--max-removed",
                "10%",
                "--now",
                NOW,
                deployed,
                "new/sitemap.xml",
            ],
            capture_output=True,
            text=True,
            env={**os.environ, "NO_COLOR": "1"},
            cwd=sides,
        )
        assert site.paths == ["/sitemap.xml"]
    assert completed.returncode == 1, completed.stderr
    assert "--max-removed 10%: 71 URLs removed (47.0%)" in completed.stdout


def test_the_html_page_is_deterministic_and_escapes_what_it_shows(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("vl_convert")
    old = tmp_path / "old.xml"
    old.write_text(_urlset((f"{SITE}a?x=&lt;b&gt;&amp;y", None), (f"{SITE}kept", None)))
    new = tmp_path / "new.xml"
    new.write_text(_urlset((f"{SITE}kept", None), (f"{SITE}new", None)))
    pages = []
    for name in ("one.html", "two.html"):
        status, _out, err = run_cli(
            [
                "diff",
                "-f",
                "html",
                "-o",
                str(tmp_path / name),
                "--now",
                NOW,
                "--max-removed",
                "0",
                str(old),
                str(new),
            ],
            capsys,
        )
        assert status == 1, err
        pages.append((tmp_path / name).read_text(encoding="utf-8"))
    assert pages[0] == pages[1]
    page = pages[0]
    assert '<div class="value" id="removed">1</div>' in page
    assert '<div class="value" id="added">1</div>' in page
    assert "<b>" not in page and "a?x=&lt;b&gt;&amp;y" in page
    assert 'id="chart-by-file"' in page and "<svg" in page
    assert "--max-removed 0" in page


def test_the_help_says_the_exit_statuses(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _err = run_cli(["diff", "--help"], capsys)
    assert status == 0
    said = " ".join(out.split())
    assert "Exit 0 within every threshold, 1 past one, 2 when a side cannot be read." in said


def test_a_side_that_is_not_well_formed_says_where_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = tmp_path / "old.xml"
    old.write_text(_urlset(*_pages(2)))
    new = tmp_path / "new.xml"
    new.write_text(_urlset(*_pages(2))[:-20])  # cut inside the last end tag
    status, _out, err = run_cli(["diff", str(old), str(new)], capsys)
    assert status == 2
    assert f"NEW {new}: not well-formed XML (line 4, column 68: expected " in err, err
    assert err.count("line 4") == 1, err


_HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'

_NESTED_300 = "<x:n xmlns:x='urn:x'>" + "<x:n>" * 299 + "</x:n>" * 300


@pytest.mark.parametrize(
    "entry",
    [
        f"<url><loc>{SITE}long</loc><x:note xmlns:x='urn:x'>{'a' * 11_000_000}</x:note></url>",
        f"<url><loc>{SITE}long</loc><x:note xmlns:x='urn:x' v='{'a' * 11_000_000}'/></url>",
        f"<url><loc>{SITE}{'a' * 11_000_000}</loc></url>",
        f"<url><loc>{SITE}long</loc>{_NESTED_300}</url>",
    ],
    ids=["text node over 10 MB", "attribute over 10 MB", "loc over 10 MB", "300 levels deep"],
)
def test_a_side_past_libxml2_s_default_limits_is_compared_as_check_reads_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], entry: str
) -> None:
    old = tmp_path / "old.xml"
    old.write_text(_urlset(*_pages(2)))
    new = tmp_path / "new.xml"
    new.write_text(
        _HEAD
        + "".join(f"<url><loc>{url}</loc></url>\n" for url, _ in _pages(2))
        + entry
        + "\n</urlset>\n"
    )
    status, out, err = run_cli(["diff", "--format", "json", str(old), str(new)], capsys)
    assert status == 0, err
    assert json.loads(out)["urls"]["added"] == 1


def _billion_laughs() -> str:
    entities = ['<!ENTITY l0 "lollollollollollollollollollol">']
    entities += [f'<!ENTITY l{i} "{f"&l{i - 1};" * 10}">' for i in range(1, 10)]
    return (
        f'<?xml version="1.0"?>\n<!DOCTYPE urlset [{"".join(entities)}]>\n'
        f'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url b="&l9;">'
        f"<loc>{SITE}</loc></url></urlset>\n"
    )


@pytest.mark.parametrize(
    ("text", "says"),
    [
        (
            _HEAD + f"<url><loc>{SITE}</loc>{'<a>' * 3000}{'</a>' * 3000}</url></urlset>\n",
            "elements nested more than 2,048 levels deep",
        ),
        (_billion_laughs(), "an entity expansion past the parser's safety limit (billion laughs)"),
    ],
    ids=["3,000 levels deep", "billion laughs"],
)
def test_a_side_past_a_limit_of_the_parser_is_not_called_malformed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, says: str
) -> None:
    old = tmp_path / "old.xml"
    old.write_text(_urlset(*_pages(2)))
    new = tmp_path / "new.xml"
    new.write_text(text)
    status, _out, err = run_cli(["diff", str(old), str(new)], capsys)
    assert status == 2
    assert f"NEW {new}: past a limit of the XML parser (line " in err, err
    assert says in err and "well-formed" not in err and "XML_PARSE_HUGE" not in err, err


def test_lastmods_moved_back_are_counted_and_can_fail_the_gate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = tmp_path / "old.xml"
    old.write_text(_urlset(*[(f"{SITE}{i}", "2025-05-01") for i in range(4)]))
    new = tmp_path / "new.xml"
    # Back a month, back a second, forward, dropped: two moved back of four changed.
    new.write_text(
        _urlset(
            (f"{SITE}0", "2025-04-01"),
            (f"{SITE}1", "2025-04-30T23:59:59Z"),
            (f"{SITE}2", "2025-06-01"),
            (f"{SITE}3", None),
        )
    )
    args = ["diff", "--now", NOW, str(old), str(new)]
    status, out, _err = run_cli([*args, "-f", "json"], capsys)
    assert status == 0
    lastmod = json.loads(out)["lastmod"]
    assert (lastmod["changed"], lastmod["earlier"]) == (4, 2)
    status, out, _err = run_cli([*args, "--max-lastmod-earlier", "1"], capsys)
    assert status == 1
    assert "changed on 4 of 4 URLs on both sides (100.0%), 2 of them to an earlier moment" in out
    assert "--max-lastmod-earlier 1: 2 URLs whose lastmod moved back (50.0%)" in out
    status, _out, _err = run_cli([*args, "--max-lastmod-earlier", "50%"], capsys)
    assert status == 0


def test_a_lastmod_that_is_no_w3c_date_is_read_as_none(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """ISO 8601's other forms (the date rules' DT001) are no lastmod: none moved back."""
    old = tmp_path / "old.xml"
    old.write_text(_urlset(*[(f"{SITE}{i}", "2025-05-20") for i in range(4)]))
    new = tmp_path / "new.xml"
    new.write_text(
        _urlset(
            (f"{SITE}0", "20250515"),
            (f"{SITE}1", "2025-W20"),
            (f"{SITE}2", "2025-05-15 10:00:00"),
            (f"{SITE}3", "2025-05-15T10:00:00.5+02:00"),
        )
    )
    status, out, _err = run_cli(["diff", "--now", NOW, str(old), str(new), "-f", "json"], capsys)
    assert status == 0
    lastmod = json.loads(out)["lastmod"]
    assert (lastmod["changed"], lastmod["earlier"], lastmod["with_lastmod"]) == (4, 1, 1)


def test_a_year_or_a_month_alone_is_read_as_its_first_day(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """W3C Datetime's shorter dates (DT003: the schema wants the day): a lastmod all the
    same, compared from the first day they name."""
    old = tmp_path / "old.xml"
    old.write_text(_urlset((f"{SITE}0", "2024"), (f"{SITE}1", "2025-05"), (f"{SITE}2", "2025-05")))
    new = tmp_path / "new.xml"
    new.write_text(
        _urlset((f"{SITE}0", "2024-01-01"), (f"{SITE}1", "2025-04"), (f"{SITE}2", "2025-06-01"))
    )
    status, out, _err = run_cli(["diff", "--now", NOW, str(old), str(new), "-f", "json"], capsys)
    assert status == 0
    lastmod = json.loads(out)["lastmod"]
    assert (lastmod["changed"], lastmod["earlier"], lastmod["with_lastmod"]) == (2, 1, 3)


@pytest.mark.parametrize(("env", "styled"), [({}, True), ({"NO_COLOR": "1"}, False)])
def test_no_color_wins_over_force_color_in_the_text_report(
    sides: Path, capsys: pytest.CaptureFixture[str], monkeypatch, env: dict, styled: bool
) -> None:
    """As in the check's report: NO_COLOR turns colour off whatever else says."""
    monkeypatch.setenv("FORCE_COLOR", "1")
    monkeypatch.delenv("NO_COLOR", raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    status, out, _err = run_cli(["diff", "old/pages.xml", "new/pages.xml"], capsys)
    assert status == 0 and "URLs removed" in out
    assert ("\x1b[" in out) is styled


def test_dash_for_the_report_is_standard_output_even_when_a_side_is_the_working_directory(
    sides: Path, capsys: pytest.CaptureFixture[str], monkeypatch
) -> None:
    """``-o -`` names no file (as in check), so none inside a side either."""
    monkeypatch.chdir(sides / "old")
    status, out, err = run_cli(["diff", "-o", "-", ".", "../new"], capsys)
    assert (status, err) == (0, "")
    assert out.startswith("OLD ") and not (sides / "old" / "-").exists()


def test_a_share_past_a_limit_is_not_shown_rounded_down_to_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """504 of 10,000 URLs removed is past 5%: shown as 5.04%, not as 5.0%."""
    old, new = tmp_path / "old.txt", tmp_path / "new.txt"
    old.write_text("".join(f"{SITE}p/{i}\n" for i in range(10_000)))
    new.write_text("".join(f"{SITE}p/{i}\n" for i in range(504, 10_000)))
    for limit, shown in (("5%", "5.04%"), ("4%", "5.0%")):
        status, out, _err = run_cli(["diff", "--max-removed", limit, str(old), str(new)], capsys)
        assert status == 1
        assert f"--max-removed {limit}: 504 URLs removed ({shown})\n" in out


def test_one_broken_alternate_is_said_in_the_singular(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    link = f'<xhtml:link rel="alternate" hreflang="de" href="{SITE}de"/>'
    head = (
        '<?xml version="1.0" encoding="UTF-8"?>\n<urlset'
        ' xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
        ' xmlns:xhtml="http://www.w3.org/1999/xhtml">\n'
    )
    old, new = tmp_path / "old.xml", tmp_path / "new.xml"
    old.write_text(f"{head}<url><loc>{SITE}en</loc></url><url><loc>{SITE}de</loc></url></urlset>")
    new.write_text(f"{head}<url><loc>{SITE}en</loc>{link}</url></urlset>")
    status, out, _err = run_cli(["diff", str(old), str(new)], capsys)
    assert status == 0
    assert "hreflang: 1 alternate names a URL the new side no longer lists\n" in out
    if _has_html_extra():
        status, out, _err = run_cli(["diff", "-f", "html", str(old), str(new)], capsys)
        assert "<p>1 alternate names a URL the new side no longer lists, on:</p>" in out


def _has_html_extra() -> bool:
    try:
        import vl_convert  # noqa: F401
    except ImportError:
        return False
    return True


def test_the_chart_of_a_few_urls_counts_in_whole_numbers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Five URLs removed: the axis reads -5 to 0 once each, not -5, -5, -4, -4... (the
    half steps of a scale of five, printed as whole numbers)."""
    pytest.importorskip("vl_convert")
    old, new = tmp_path / "old.xml", tmp_path / "new.xml"
    old.write_text(_urlset(*_pages(10)))
    new.write_text(_urlset(*_pages(5)))
    status, out, err = run_cli(["diff", "-f", "html", str(old), str(new)], capsys)
    assert status == 0, err
    axis = out[out.index("role-axis-label") :]
    labels = re.findall(r">([^<>]+)</text>", axis[: axis.index("</g></g>")])
    assert labels[:-1] == [f"\N{MINUS SIGN}{n}" for n in range(5, 0, -1)] + ["0"]


@pytest.mark.parametrize(
    ("old_pages", "new_pages", "expected"),
    [
        ([0, 1], [0, 2], ["\N{MINUS SIGN}1", "0", "1"]),  # one removed, one added
        ([0, 1], [0], ["\N{MINUS SIGN}1", "0"]),
        ([0], [0, 1], ["0", "1"]),
    ],
)
def test_the_chart_of_one_url_counts_each_whole_number_once(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    old_pages: list[int],
    new_pages: list[int],
    expected: list[str],
) -> None:
    """One URL removed and one added: the axis reads -1, 0, 1, not -1, -1, 0, 1, 1 (the
    half steps printed as whole numbers)."""
    pytest.importorskip("vl_convert")
    old, new = tmp_path / "old.xml", tmp_path / "new.xml"
    old.write_text(_urlset(*(_pages(3)[n] for n in old_pages)))
    new.write_text(_urlset(*(_pages(3)[n] for n in new_pages)))
    status, out, err = run_cli(["diff", "-f", "html", str(old), str(new)], capsys)
    assert status == 0, err
    axis = out[out.index("role-axis-label") :]
    labels = re.findall(r">([^<>]+)</text>", axis[: axis.index("</g></g>")])
    assert labels[:-1] == expected


@pytest.mark.parametrize("fmt", ["text", "html"])
def test_show_caps_the_sitemaps_an_index_no_longer_lists(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], fmt: str
) -> None:
    if fmt == "html":
        pytest.importorskip("vl_convert")
    old, new = tmp_path / "old.xml", tmp_path / "new.xml"
    old.write_text(_index(*(f"s{i}.xml" for i in range(15))))
    new.write_text(_index("s0.xml"))
    args = ["diff", "-f", fmt, "--show", "2", "--max-children-removed", "13", str(old), str(new)]
    status, out, err = run_cli(args, capsys)
    assert status == 1, err
    assert f"{SITE}s2.xml" in out
    assert f"{SITE}s3.xml" not in out
    assert ("Sitemaps removed: 14\n" if fmt == "text" else "0 added, 14 removed") in out
    args = ["diff", "-f", "json", "--show", "2", str(old), str(new)]
    status, out, err = run_cli(args, capsys)
    assert len(json.loads(out)["children"]["removed"]) == 14


def test_a_share_of_the_old_urls_counts_a_url_listed_twice_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Ten URLs each listed twice, five of them gone: half the old URLs were removed,
    not a quarter of the old entries."""
    old, new = tmp_path / "old.xml", tmp_path / "new.xml"
    old.write_text(_urlset(*_pages(10), *_pages(10)))
    new.write_text(_urlset(*_pages(5)))
    args = ["diff", "-f", "json", "--max-removed", "30%", str(old), str(new)]
    status, out, _err = run_cli(args, capsys)
    assert status == 1
    passed = json.loads(out)["thresholds"]["passed"]
    assert passed == [
        {"threshold": "--max-removed 30%", "what": "URLs removed", "count": 5, "share": 50.0}
    ]
    status, out, _err = run_cli(["diff", str(old), str(new)], capsys)
    assert "URLs removed           5  50.0% of the old URLs\n" in out


@pytest.mark.parametrize("gzipped", [False, True])
def test_a_side_longer_than_is_read_is_exit_2_not_a_shorter_list(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], gzipped: bool
) -> None:
    """A text sitemap (or a gzipped urlset) past the read cap: its URLs past the cap were
    left out, the last one cut, and the side compared as if it had no more."""
    from sitemap_lint.inputs.reader import READ_CAP

    old = tmp_path / "old.txt"
    old.write_text("https://example.com/p/0\n")
    line = b"https://example.com/page-with-a-longish-name/0000000000\n"
    count = READ_CAP // len(line) + 1000
    if gzipped:
        big = tmp_path / "big.xml.gz"
        entry = b"<url><loc>" + line.strip() + b"</loc></url>\n"
        body = _urlset().encode().replace(b"</urlset>", entry * count + b"</urlset>")
        big.write_bytes(gzip.compress(body, compresslevel=1))
    else:
        big = tmp_path / "big.txt"
        big.write_bytes(line * count)
    status, out, err = run_cli(["diff", str(old), str(big)], capsys)
    assert status == 2, err
    assert out == ""
    assert len(err.strip().splitlines()) == 1, err
    assert f"NEW {big}: larger than {READ_CAP:,} bytes" in err and "nothing was compared" in err


@pytest.mark.parametrize(
    ("given", "shown"),
    [
        ("12345678", "--max-removed 12345678"),
        ("0.00001%", "--max-removed 0.00001%"),
        ("33.333333333333333%", "--max-removed 33.333333333333333%"),
        ("007.50%", "--max-removed 7.5%"),
        (".5%", "--max-removed 0.5%"),
    ],
)
def test_a_threshold_is_shown_in_plain_digits_as_given(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], given: str, shown: str
) -> None:
    """Not ``1.23457e+07`` or ``1e-05%``, which the command would refuse."""
    old, new = tmp_path / "old.txt", tmp_path / "new.txt"
    old.write_text(f"{SITE}a\n{SITE}b\n")
    new.write_text(f"{SITE}a\n")
    status, out, _err = run_cli(
        ["diff", "-f", "json", "--max-removed", given, str(old), str(new)], capsys
    )
    thresholds = json.loads(out)["thresholds"]
    assert thresholds["given"] == [shown]
    assert status == (1 if given.endswith("%") else 0)


def test_a_share_past_a_limit_is_not_rounded_down_to_it_in_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """51 of 1,019 URLs removed (5.0049%) is past 5%: its share is 5.005, not 5.0."""
    old, new = tmp_path / "old.txt", tmp_path / "new.txt"
    old.write_text("".join(f"{SITE}p/{i}\n" for i in range(1019)))
    new.write_text("".join(f"{SITE}p/{i}\n" for i in range(51, 1019)))
    for limit, share in (("5%", 5.005), ("4%", 5.0)):
        status, out, _err = run_cli(
            ["diff", "-f", "json", "--max-removed", limit, str(old), str(new)], capsys
        )
        assert status == 1
        assert [p["share"] for p in json.loads(out)["thresholds"]["passed"]] == [share]


def _listing(*urls: str) -> str:
    body = "".join(f"  <sitemap><loc>{url}</loc></sitemap>\n" for url in urls)
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n{body}'
        "</sitemapindex>\n"
    )


def test_sitemaps_told_apart_by_their_query_are_no_longer_listed_each(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``sitemap.php?page=2`` is another sitemap than ``sitemap.php?page=1``; a path
    written with escapes is the one written without them."""
    old, new = tmp_path / "old.xml", tmp_path / "new.xml"
    pages = [f"{SITE}sitemap.php?page={n}" for n in (1, 2, 3)]
    old.write_text(_listing(*pages, f"{SITE}sitemap%2Dposts.xml"))
    new.write_text(_listing(pages[0], f"{SITE}sitemap-posts.xml.gz"))
    status, out, _err = run_cli(
        ["diff", "-f", "json", "--max-children-removed", "1", str(old), str(new)], capsys
    )
    assert status == 1
    report = json.loads(out)
    assert report["children"] == {"added": [], "removed": pages[1:]}
    assert report["thresholds"]["passed"][0]["share"] == 50.0


def test_a_sitemap_listed_twice_is_one_sitemap_no_longer_listed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The old index lists a.xml twice and b.xml: 1 of its 2 sitemaps is gone (50%)."""
    old, new = tmp_path / "old.xml", tmp_path / "new.xml"
    old.write_text(_listing(f"{SITE}a.xml", f"{SITE}b.xml", f"{SITE}a.xml"))
    new.write_text(_listing(f"{SITE}a.xml", f"{SITE}a.xml"))
    status, out, _err = run_cli(
        ["diff", "-f", "json", "--max-children-removed", "40%", str(old), str(new)], capsys
    )
    assert status == 1
    report = json.loads(out)
    assert report["children"] == {"added": [], "removed": [f"{SITE}b.xml"]}
    assert report["thresholds"]["passed"][0]["share"] == 50.0


def test_one_url_moved_to_another_host_is_said_in_the_singular(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old, new = tmp_path / "old.txt", tmp_path / "new.txt"
    old.write_text(f"{SITE}a\n{SITE}b\n")
    new.write_text(f"{SITE}a\nhttps://www.example.com/b\n")
    status, out, _err = run_cli(["diff", str(old), str(new)], capsys)
    assert status == 0
    assert (
        "Host or scheme: 1 URL moved from https://example.com to https://www.example.com\n" in out
    )
    if _has_html_extra():
        status, out, _err = run_cli(["diff", "-f", "html", str(old), str(new)], capsys)
        assert "<li>1 URL moved from <code>" in out


def test_standard_input_for_both_sides_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Not the new side called an empty file: standard input is read once."""
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(f"{SITE}a\n".encode())))
    status, out, err = run_cli(["diff", "-", "-"], capsys)
    assert (status, out) == (2, "")
    assert "both standard input" in err and "empty" not in err
    assert len(err.strip().splitlines()) == 1


def test_a_url_holding_a_line_break_shifts_none_of_the_urls_shown(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A loc with a line break inside is one URL (shown as its normal form writes the
    break, %0A): the URLs after it are shown as theirs, and each counts on its new host."""
    old, new = tmp_path / "old.xml", tmp_path / "new.xml"
    old.write_text(_urlset((f"{SITE}a\nb", None), (f"{SITE}c", None), (f"{SITE}d", None)))
    www = "https://www.example.com/"
    new.write_text(_urlset((f"{www}a%0Ab", None), (f"{www}c", None), (f"{www}d", None)))
    status, out, _err = run_cli(["diff", "-f", "json", str(old), str(new)], capsys)
    assert status == 0
    report = json.loads(out)
    assert [s["url"] for s in report["urls"]["removed_first"]] == [
        f"{SITE}a%0Ab",
        f"{SITE}c",
        f"{SITE}d",
    ]
    assert report["origins"] == [{"from": SITE.rstrip("/"), "to": www.rstrip("/"), "urls": 3}]


def test_a_threshold_given_twice_applies_both_limits(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--max-removed 500 --max-removed 5%``: a count and a share of one change both
    gate it; the second does not silently replace the first."""
    old = tmp_path / "old.xml"
    old.write_text(_urlset(*_pages(20)))
    new = tmp_path / "new.xml"
    new.write_text(_urlset(*_pages(15)))
    args = ["diff", str(old), str(new)]
    status, out, _err = run_cli([*args, "--max-removed", "3", "--max-removed", "50%"], capsys)
    assert status == 1
    assert "--max-removed 3: 5 URLs removed (25.0%)" in out
    status, out, _err = run_cli(
        [*args, "--max-removed", "50%", "--max-removed", "3", "-f", "json"], capsys
    )
    assert status == 1
    thresholds = json.loads(out)["thresholds"]
    assert thresholds["given"] == ["--max-removed 50%", "--max-removed 3"]
    assert [p["threshold"] for p in thresholds["passed"]] == ["--max-removed 3"]


@pytest.mark.parametrize("fmt", ["text", "json", "html"])
def test_the_urls_whose_lastmod_moved_back_are_named_with_both_moments(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], fmt: str
) -> None:
    """A lastmod set back is a stale source: the report names the first URLs it hit,
    in the new side's order, with their file and both moments, not a count alone."""
    old = tmp_path / "old.xml"
    old.write_text(_urlset(*[(f"{SITE}{i}", "2025-05-01") for i in range(5)]))
    new = tmp_path / "new.xml"
    new.write_text(
        _urlset(
            (f"{SITE}4", "2025-04-01"),
            (f"{SITE}0", "2025-06-01"),
            (f"{SITE}3", "2025-04-30T23:59:59Z"),
            (f"{SITE}1", "2025-03-01"),
            (f"{SITE}2", "2025-05-01"),
        )
    )
    args = ["diff", "--now", NOW, "--show", "2", "-f", fmt, str(old), str(new)]
    status, out, _err = run_cli(args, capsys)
    assert status == 0
    if fmt == "json":
        assert json.loads(out)["lastmod"]["earlier_first"] == [
            {
                "url": f"{SITE}4",
                "file": "new.xml",
                "old": "2025-05-01T00:00:00Z",
                "new": "2025-04-01T00:00:00Z",
            },
            {
                "url": f"{SITE}3",
                "file": "new.xml",
                "old": "2025-05-01T00:00:00Z",
                "new": "2025-04-30T23:59:59Z",
            },
        ]
        return
    moments = "2025-05-01T00:00:00Z -> 2025-04-01T00:00:00Z"
    if fmt == "text":
        assert f"  {SITE}4  (new.xml): {moments}" in out
    else:
        moments = moments.replace(">", "&gt;")
        assert f'{SITE}4</code> <span class="muted">new.xml</span> {moments}' in out
    assert f"{SITE}3" in out and f"{SITE}1" not in out  # the first two, by --show


@pytest.mark.parametrize(
    ("old_url", "new_url", "how"),
    [
        (f"{SITE}a/b", f"{SITE}a/b/", "trailing slash added"),
        (f"{SITE}a/b/", f"{SITE}a/b", "trailing slash dropped"),
        (f"{SITE}a/b", f"{SITE}A/b", "path case changed"),
        (f"{SITE}s?a=1&amp;b=2", f"{SITE}s?b=2&amp;a=1", "query parameters reordered"),
        (f"{SITE}a/B?x=1&amp;y=2", f"{SITE}a/b/?y=2&amp;x=1", None),
        (f"{SITE}a/b/", f"{SITE}a/b//", "trailing slash added"),
        (f"{SITE}a/b?", f"{SITE}a/b", "empty query dropped"),
        (f"{SITE}a/b#top", f"{SITE}a/b", "fragment dropped"),
        (f"{SITE}a/b#top", f"{SITE}a/b#end", "fragment changed"),
    ],
)
def test_urls_listed_again_written_otherwise_are_named_and_can_fail_the_gate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], old_url: str, new_url: str, how: str | None
) -> None:
    """A trailing slash, the path's case or the query's order changed by a deploy makes
    every page another URL to search engines: the report says which way, with the
    first URL as each side writes it, and --max-rewritten gates it."""
    how = how or "path case changed, trailing slash added, query parameters reordered"
    old = tmp_path / "old.xml"
    old.write_text(_urlset((old_url, None), (f"{SITE}kept", None), (f"{SITE}gone", None)))
    new = tmp_path / "new.xml"
    new.write_text(_urlset((new_url, None), (f"{SITE}kept", None), (f"{SITE}else", None)))
    args = ["diff", str(old), str(new)]
    status, out, _err = run_cli([*args, "-f", "json"], capsys)
    assert status == 0
    written = (old_url.replace("&amp;", "&"), new_url.replace("&amp;", "&"))
    assert json.loads(out)["rewrites"] == [
        {"how": how, "urls": 1, "first": {"old": written[0], "new": written[1]}}
    ]
    status, out, _err = run_cli([*args, "--max-rewritten", "0"], capsys)
    assert status == 1
    assert f"Written otherwise: 1 URL removed is listed again ({how}); each form" in out
    assert f"  {written[0]} -> {written[1]}\n" in out
    assert "--max-rewritten 0: 1 URL removed and listed again written otherwise (33.3%)" in out
    status, out, _err = run_cli([*args, "-f", "html"], capsys)
    assert f"1 URL removed is listed again ({how}): <code>" in out


def test_a_url_moved_to_another_host_is_not_called_written_otherwise(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = tmp_path / "old.xml"
    old.write_text(_urlset(*_pages(3)))
    new = tmp_path / "new.xml"
    new.write_text(_urlset(*_pages(3, host="www.example.com")))
    status, out, _err = run_cli(["diff", "--max-rewritten", "0", str(old), str(new)], capsys)
    assert status == 0
    assert "Written otherwise" not in out and "Host or scheme: 3 URLs moved" in out


def test_github_annotations_say_what_changed_and_each_threshold_passed(
    sides: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """In a workflow, ``--format github`` gives a notice of what changed and an error
    annotation on the new file for each threshold passed (``%`` escaped as the Actions
    toolkit escapes it), with the same exit status."""
    args = ["diff", "--now", NOW, "-f", "github", "old/pages.xml", "new/pages.xml"]
    status, out, _err = run_cli([*args, "--max-removed", "10%", "--max-added", "0"], capsys)
    assert status == 1
    lines = out.splitlines()
    assert lines[0].startswith(
        "::notice file=new/pages.xml,title=sitemap-lint diff::old/pages.xml -> new/pages.xml:"
        " 0 URLs added, 21 removed (21.0%25 of the old URLs), 0 moved to another file;"
    )
    assert lines[1:] == [
        "::error file=new/pages.xml,title=sitemap-lint diff --max-removed 10%25::21 URLs"
        " removed (21.0%25), past --max-removed 10%25: review them in the text report"
        " (--format text); raise the threshold only if the deploy meant them"
    ]
    status, out, _err = run_cli([*args, "--max-removed", "50%"], capsys)
    assert status == 0
    assert out.splitlines()[1] == (
        "::notice file=new/pages.xml,title=sitemap-lint diff::Within every threshold"
        " (--max-removed 50%25)"
    )


def _entries(*entries: tuple[str, str, str | None]) -> str:
    """A urlset of (URL, changefreq, priority) entries (a priority of None: none)."""
    body = "".join(
        f"  <url><loc>{url}</loc><changefreq>{freq}</changefreq>"
        + (f"<priority>{priority}</priority>" if priority else "")
        + "</url>\n"
        for url, freq, priority in entries
    )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n{body}</urlset>\n'
    )


@pytest.mark.parametrize("fmt", ["text", "json", "html"])
def test_priority_and_changefreq_churn_is_counted_by_change_of_value(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], fmt: str
) -> None:
    """Priorities all raised, changefreqs rewritten by a template: the report says the
    most common changes of value (the first --show), not a count alone."""
    old = tmp_path / "old.xml"
    old.write_text(
        _entries(*[(f"{SITE}{i}", "weekly", "0.5") for i in range(5)], (f"{SITE}x", "daily", "1"))
    )
    new = tmp_path / "new.xml"
    new.write_text(
        _entries(
            *[(f"{SITE}{i}", "Daily" if i < 3 else "weekly", "0.80") for i in range(5)],
            (f"{SITE}x", "hourly", None),
        )
    )
    args = ["diff", "--now", NOW, "--show", "2", "-f", fmt, str(old), str(new)]
    status, out, _err = run_cli(args, capsys)
    assert status == 0
    if fmt == "json":
        report = json.loads(out)
        assert report["priority_changes"] == [
            {"from": "0.5", "to": "0.8", "urls": 5},
            {"from": "1", "to": "none", "urls": 1},
        ]
        assert report["changefreq_changes"] == [
            {"from": "weekly", "to": "daily", "urls": 3},
            {"from": "daily", "to": "hourly", "urls": 1},
        ]
        return
    for line in (
        "priority 0.5 -> 0.8 on 5 URLs",
        "priority 1 -> none on 1 URL",
        "changefreq weekly -> daily on 3 URLs",
        "changefreq daily -> hourly on 1 URL",
    ):
        assert line.replace(">", "&gt;" if fmt == "html" else ">") in out


def test_the_text_report_says_where_urls_were_added_and_removed_by_file(
    sides: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Of a set, the text names the files with most URLs added or removed first (the
    first --show), as the page's chart and JSON's by_file do: a child emptied by a
    deploy shows at once."""
    status, out, _err = run_cli(
        [
            "diff",
            "--follow",
            "--old-map",
            f"{SITE}=old",
            "--new-map",
            f"{SITE}=new",
            "--now",
            NOW,
            "--show",
            "2",
            "old/sitemap.xml",
            "new/sitemap.xml",
        ],
        capsys,
    )
    assert status == 0
    assert "By file: 3 files with URLs added or removed\n  blog.xml  +50 -50\n" in out
    assert "  pages.xml  +0 -20\n" in out and "legacy.xml  +0 -1" not in out


def test_a_lastmod_in_the_future_set_back_is_a_fix_not_a_move_back(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An old lastmod after the run's time (DT005) set back to a real moment fixes it:
    it changed, but --max-lastmod-earlier does not fail the gate on it."""
    old = tmp_path / "old.xml"
    old.write_text(_urlset((f"{SITE}a", "2099-01-01"), (f"{SITE}b", "2025-05-01")))
    new = tmp_path / "new.xml"
    new.write_text(_urlset((f"{SITE}a", "2026-11-01"), (f"{SITE}b", "2025-04-01")))
    args = ["diff", "--now", NOW, "-f", "json", "--max-lastmod-earlier", "1", str(old), str(new)]
    status, out, _err = run_cli(args, capsys)
    assert status == 0
    lastmod = json.loads(out)["lastmod"]
    assert (lastmod["changed"], lastmod["earlier"]) == (2, 1)
    assert [back["url"] for back in lastmod["earlier_first"]] == [f"{SITE}b"]


@pytest.mark.parametrize("fmt", ["text", "html"])
def test_a_threshold_passed_says_what_to_do(
    sides: Path, capsys: pytest.CaptureFixture[str], fmt: str
) -> None:
    args = ["diff", "-f", fmt, "--max-removed", "0", "old/pages.xml", "new/pages.xml"]
    status, out, _err = run_cli(args, capsys)
    assert status == 1
    assert (
        "Review these changes (--show N names more of each); raise a threshold only if the"
        " deploy meant them: exit 1." in out
    )
    status, out, _err = run_cli([*args[:4], "100%", *args[5:]], capsys)
    assert status == 0 and "Review these changes" not in out


def test_lastmods_dropped_are_counted_apart_from_those_moved_back(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A generator that stops writing lastmod drops the crawl signal of every page: the
    report says how many of the changed lastmods were dropped."""
    old = tmp_path / "old.xml"
    old.write_text(_urlset(*[(f"{SITE}{i}", "2025-05-01") for i in range(4)]))
    new = tmp_path / "new.xml"
    new.write_text(
        _urlset(
            (f"{SITE}0", None), (f"{SITE}1", None), (f"{SITE}2", "2025-04-01"), (f"{SITE}3", None)
        )
    )
    args = ["diff", "--now", NOW, str(old), str(new)]
    status, out, _err = run_cli(args, capsys)
    assert status == 0
    assert (
        "changed on 4 of 4 URLs on both sides (100.0%), 1 of them to an earlier moment, 3 dropped"
        in out
    )
    new.write_text(_urlset(*[(f"{SITE}{i}", None) for i in range(4)]))
    status, out, _err = run_cli([*args, "-f", "json"], capsys)
    assert json.loads(out)["lastmod"]["dropped"] == 4
    status, out, _err = run_cli(args, capsys)
    assert "changed on 4 of 4 URLs on both sides (100.0%), 4 of them dropped\n" in out


def test_each_host_moved_to_https_is_paired_with_its_own_host(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Hosts that share paths (the root of each subdomain) moved to https are each
    paired with their own host, not all with the first added URL of that path."""
    hosts = ["a.example.com", "b.example.com", "www.c.example.com"]
    old = tmp_path / "old.xml"
    old.write_text(_urlset(*[(f"http://{host}/", None) for host in hosts]))
    new = tmp_path / "new.xml"
    new.write_text(
        _urlset(
            ("https://a.example.com/", None),
            ("https://b.example.com/", None),
            ("https://c.example.com/", None),
        )
    )
    status, out, _err = run_cli(["diff", "-f", "json", str(old), str(new)], capsys)
    assert status == 0
    assert json.loads(out)["origins"] == [
        {"from": "http://a.example.com", "to": "https://a.example.com", "urls": 1},
        {"from": "http://b.example.com", "to": "https://b.example.com", "urls": 1},
        {"from": "http://www.c.example.com", "to": "https://c.example.com", "urls": 1},
    ]


@pytest.mark.parametrize("fmt", ["text", "html", "github"])
def test_hosts_moved_are_named_up_to_show_with_a_count_of_the_rest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], fmt: str
) -> None:
    """A thousand subdomains moved to https make a thousand pairs of origins: the text,
    the page and the annotations name the first --show, and count the rest."""
    old = tmp_path / "old.xml"
    old.write_text(_urlset(*[(f"http://u{i}.example.com/", None) for i in range(30)]))
    new = tmp_path / "new.xml"
    new.write_text(_urlset(*[(f"https://u{i}.example.com/", None) for i in range(30)]))
    status, out, _err = run_cli(["diff", "--show", "2", "-f", fmt, str(old), str(new)], capsys)
    assert status == 0
    assert len(re.findall(" moved from (?:<code>)?http://u", out)) == 2
    assert "28 URLs more, moved between 28 other pairs of origins (JSON lists every one)" in out


def test_a_url_its_file_still_lists_is_not_moved_when_another_file_lists_it_too(
    sides: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """blog.xml's first URL now also listed first in pages.xml (a duplicate, DU002 for
    ``check``) still stands in blog.xml: it did not move."""
    first = "https://www.example.com/blog/0"
    pages = (sides / "new" / "pages.xml").read_text()
    (sides / "new" / "pages.xml").write_text(
        pages.replace("<url>", f"<url><loc>{first}</loc></url>\n  <url>", 1)
    )
    (sides / "old" / "blog.xml").write_text(
        (sides / "old" / "blog.xml").read_text().replace(f"{SITE}blog/0<", f"{first}<")
    )
    status, report, _err = _diff(capsys)
    assert status == 0
    assert report["urls"]["moved"] == 1  # p/99 alone, from pages.xml to blog.xml
    assert [m["url"] for m in report["urls"]["moved_first"]] == [f"{SITE}p/99"]


@pytest.mark.parametrize("fmt", ["text", "json", "html"])
def test_urls_removed_en_masse_are_counted_by_section(
    sides: Path, capsys: pytest.CaptureFixture[str], fmt: str
) -> None:
    """More URLs removed than --show names: the report says under which sections (an
    origin's first directory, or its top) all of them stood, most first."""
    args = ["diff", "--now", NOW, "--show", "1", "-f", fmt]
    status, out, _err = run_cli([*args, "old/blog.xml", "new/blog.xml"], capsys)
    assert status == 0
    if fmt == "json":
        sections = json.loads(out)["sections"]
        assert sections["removed"] == [{"section": f"{SITE}blog/", "urls": 50}]
        assert sections["added"] == [
            {"section": "https://www.example.com/blog/", "urls": 50},
            {"section": f"{SITE}p/", "urls": 1},
        ]
        return
    said = "https://www.example.com/blog/ 50 and 1 other section"
    assert f"by section: {said}" in out if fmt == "text" else f"By section: {said}" in out


def test_a_relative_loc_counts_under_its_own_first_directory(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A loc without an origin (a relative path, UR001 for ``check``) keeps its whole
    first directory as its section, not one cut by a character."""
    old = tmp_path / "old.xml"
    old.write_text(_urlset((f"{SITE}a", None)))
    new = tmp_path / "new.xml"
    new.write_text(_urlset(*[(f"foo/bar{i}", None) for i in range(3)]))
    status, out, _err = run_cli(["diff", "-f", "json", str(old), str(new)], capsys)
    assert status == 0
    assert json.loads(out)["sections"]["added"] == [{"section": "/foo/", "urls": 3}]

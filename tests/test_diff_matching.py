"""``sitemap-lint diff``: which files of the two sides are one file (a URL listed by
another one moved), and which URLs are one page (the normal form ``check`` compares)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from tests.helpers import run_cli

SITE = "https://example.com/"
NS = "http://www.sitemaps.org/schemas/sitemap/0.9"


def _urlset(*urls: str, changefreq: str | None = None, comment: bool = False) -> str:
    field = f"<changefreq>{changefreq}</changefreq>" if changefreq else ""
    body = "".join(f"  <url><loc>{url}</loc>{field}</url>\n" for url in urls)
    # A comment keeps the file off the fast route (``scan``): lxml reads it.
    marker = "  <!-- parsed -->\n" if comment else ""
    return (
        f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="{NS}">\n{marker}{body}</urlset>\n'
    )


def _index(*children: str) -> str:
    body = "".join(f"  <sitemap><loc>{SITE}{child}</loc></sitemap>\n" for child in children)
    return f'<?xml version="1.0"?>\n<sitemapindex xmlns="{NS}">\n{body}</sitemapindex>\n'


def _write(path: Path, text: str) -> None:
    """``text`` at ``path``, gzip-compressed when its name ends in .gz."""
    path.parent.mkdir(parents=True, exist_ok=True)
    data = text.encode("utf-8")
    path.write_bytes(gzip.compress(data) if path.name.endswith(".gz") else data)


def _page(name: str) -> str:
    return f"{SITE}{name}"


def _diff(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict]:
    status, out, err = run_cli(["diff", "--format", "json", *args], capsys)
    assert status in (0, 1), err
    return status, json.loads(out)


# -- files: the root of each side, and places below it --------------------------------


@pytest.mark.parametrize(
    ("new_name", "text"),
    [
        ("new.xml", False),
        ("new.xml.gz", False),
        ("new.txt", True),
        ("sitemap_index.xml", False),
    ],
)
def test_each_sides_root_file_is_one_file_whatever_its_name(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    new_name: str,
    text: bool,
) -> None:
    monkeypatch.chdir(tmp_path)
    _write(tmp_path / "old.xml", _urlset(_page("a"), _page("b")))
    new = "\n".join((_page("a"), _page("c"))) + "\n" if text else _urlset(_page("a"), _page("c"))
    _write(tmp_path / new_name, new)
    status, report = _diff(capsys, "--max-moved", "0", "old.xml", new_name)
    assert status == 0
    urls = report["urls"]
    assert (urls["common"], urls["moved"], urls["moved_first"]) == (1, 0, [])
    assert (urls["removed"], urls["added"]) == (1, 1)
    # Counted once, for the pair of files, under the new side's name.
    assert report["by_file"] == [{"file": new_name, "added": 1, "removed": 1}]


def test_the_issues_repro_single_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    _write(tmp_path / "old.xml", _urlset(_page("a"), _page("b")))
    _write(tmp_path / "new.xml", _urlset(_page("a"), _page("b")))
    status, report = _diff(capsys, "--max-moved", "0", "old.xml", "new.xml")
    assert status == 0
    assert report["urls"]["moved"] == 0 and report["thresholds"]["passed"] == []


@pytest.mark.parametrize("new_name", ["sitemap.xml.gz", "sitemap.XML.GZ", "sitemap.txt"])
def test_a_root_named_in_a_directory_served_compressed_or_as_text(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    new_name: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    _write(tmp_path / "o" / "sitemap.xml", _urlset(_page("a"), _page("b")))
    if new_name.endswith(".txt"):
        _write(tmp_path / "n" / new_name, f"{_page('a')}\n{_page('b')}\n")
    else:
        (tmp_path / "n").mkdir()
        (tmp_path / "n" / new_name).write_bytes(
            gzip.compress(_urlset(_page("a"), _page("b")).encode())
        )
    status, report = _diff(capsys, "--max-moved", "0", "o/sitemap.xml", f"n/{new_name}")
    assert status == 0
    assert (report["urls"]["common"], report["urls"]["moved"]) == (2, 0)


def test_files_below_the_root_match_by_place_without_gz(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two directories: each ``sitemap-N.xml`` now served as ``sitemap-N.xml.gz`` is the
    same file; a URL that really changed file still moved."""
    monkeypatch.chdir(tmp_path)
    _write(tmp_path / "o" / "sitemap-1.xml", _urlset(_page("a"), _page("b"), _page("m")))
    _write(tmp_path / "o" / "sitemap-2.xml", _urlset(_page("c"), _page("d")))
    _write(tmp_path / "n" / "sitemap-1.xml.gz", _urlset(_page("a"), _page("b")))
    _write(tmp_path / "n" / "sitemap-2.xml.gz", _urlset(_page("c"), _page("d"), _page("m")))
    status, report = _diff(capsys, "--max-moved", "1", "o", "n")
    assert status == 0
    urls = report["urls"]
    assert (urls["common"], urls["moved"], urls["added"], urls["removed"]) == (5, 1, 0, 0)
    assert urls["moved_first"] == [
        {"url": _page("m"), "from": "sitemap-1.xml", "to": "sitemap-2.xml.gz"}
    ]
    assert report["by_file"] == []


def _mapped_diff(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict]:
    """``diff --follow`` with each side's site mapped to its directory (old/, new/)."""
    maps = ("--old-map", f"{SITE}=old", "--new-map", f"{SITE}=new")
    return _diff(capsys, "--follow", *maps, "--max-moved", "0", *args)


def _site(root: Path, index: str, children: dict[str, list[str]]) -> None:
    _write(root / index, _index(*children))
    for name, pages in children.items():
        _write(root / name, _urlset(*map(_page, pages)))


def test_an_index_renamed_and_its_children_compressed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The old site's index lists a.xml and b.xml; the new one is sitemap_index.xml and
    lists a.xml.gz and b.xml: no URL moved, and no sitemap is no longer listed."""
    monkeypatch.chdir(tmp_path)
    _site(tmp_path / "old", "sitemap.xml", {"a.xml": ["a1", "a2"], "b.xml": ["b1"]})
    _site(tmp_path / "new", "sitemap_index.xml", {"a.xml.gz": ["a1", "a2"], "b.xml": ["b1"]})
    status, report = _mapped_diff(
        capsys, "--max-children-removed", "0", "old/sitemap.xml", "new/sitemap_index.xml"
    )
    assert status == 0
    assert (report["urls"]["common"], report["urls"]["moved"]) == (3, 0)
    assert report["children"] == {"added": [], "removed": []}


@pytest.mark.parametrize("spelling", ["./", "absolute"])
def test_a_root_written_otherwise_places_its_children_alike(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    spelling: str,
) -> None:
    """``./old/sitemap.xml`` or an absolute path: the mapped children stand where those
    of ``new/sitemap.xml`` do (they were ``old/a.xml`` against ``a.xml``: moved)."""
    monkeypatch.chdir(tmp_path)
    _site(tmp_path / "old", "sitemap.xml", {"a.xml": ["a1"], "b.xml": ["b1"]})
    _site(tmp_path / "new", "sitemap.xml", {"a.xml": ["a1"], "b.xml": ["b1"]})
    old = "./old/sitemap.xml" if spelling == "./" else str(tmp_path / "old" / "sitemap.xml")
    status, report = _mapped_diff(capsys, old, "new/sitemap.xml")
    assert status == 0
    assert (report["urls"]["common"], report["urls"]["moved"]) == (2, 0)


@pytest.mark.parametrize("old", [f"{SITE}sitemap.xml", "old/sitemap.xml"])
def test_a_url_read_through_a_map_places_its_children_below_the_map_s_directory(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    old: str,
) -> None:
    """``https://example.com/sitemap.xml`` read from ``new/`` (and ``old/``): its children
    stand at ``a.xml`` and ``b.xml``, as a local side's do (they were ``new/a.xml``
    against ``a.xml``: every URL moved)."""
    monkeypatch.chdir(tmp_path)
    _site(tmp_path / "old", "sitemap.xml", {"a.xml": ["a1"], "b.xml": ["b1"]})
    _site(tmp_path / "new", "sitemap.xml", {"a.xml": ["a1"], "b.xml": ["b1"]})
    status, report = _mapped_diff(capsys, old, f"{SITE}sitemap.xml")
    assert status == 0
    assert (report["urls"]["common"], report["urls"]["moved"]) == (2, 0)


def test_a_place_on_the_other_side_is_matched_before_the_roots(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """old/sitemap.xml (a urlset) against an index that lists new/sitemap.xml: the file of
    the same place is the match, not the other side's root (the index)."""
    monkeypatch.chdir(tmp_path)
    _write(tmp_path / "old" / "sitemap.xml", _urlset(_page("a"), _page("b")))
    _site(tmp_path / "new", "sitemap_index.xml", {"sitemap.xml": ["a"], "more.xml": ["b"]})
    status, report = _diff(
        capsys,
        "--follow",
        "--new-map",
        f"{SITE}=new",
        "old/sitemap.xml",
        "new/sitemap_index.xml",
    )
    assert status == 0
    assert report["urls"]["moved"] == 1
    assert report["urls"]["moved_first"] == [
        {"url": _page("b"), "from": "sitemap.xml", "to": "more.xml"}
    ]


# -- URLs: one page in its normal form ------------------------------------------------


LAYOUTS = ["fast route", "parsed", "text"]


def _listing(layout: str, *urls: str, changefreq: str | None = None) -> str:
    if layout == "text":
        return "".join(f"{url}\n" for url in urls)
    return _urlset(*urls, changefreq=changefreq, comment=layout == "parsed")


@pytest.mark.parametrize("layout", LAYOUTS)
def test_urls_are_joined_in_their_normal_form(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    layout: str,
) -> None:
    """The host's case, a default port, an empty path, an escape's case, an escape of an
    unreserved character, an IRI's encoding and dot-segments make no other page (DU001,
    SE001): nothing removed, added or moved to another origin."""
    monkeypatch.chdir(tmp_path)
    name = "sitemap.txt" if layout == "text" else "sitemap.xml"
    old = ["https://Example.com:443/a", "https://example.com", "https://example.com/z"]
    old += ["http://EXAMPLE.COM:80/b?q=1", "HTTPS://example.com:443"]
    old += ["https://example.com/%7Ec%c3%a9", "https://example.com/d%C3%A9"]
    old += ["https://example.com/é", "https://xn--bcher-kva.example/", "https://example.com/x/./y"]
    new = ["https://example.com/a", "https://example.com/", "https://example.com/z"]
    new += [
        "http://example.com/b?q=1",
        "https://example.com/~c%C3%A9",
        "https://example.com/d%c3%a9",
        "https://example.com/%C3%A9",
        "https://bücher.example/",
        "https://example.com/x/z/../y",
    ]
    _write(tmp_path / "A" / name, _listing(layout, *old))
    _write(tmp_path / "B" / name, _listing(layout, *new))
    status, report = _diff(
        capsys,
        "--max-removed",
        "0",
        "--max-added",
        "0",
        "--max-origin-changes",
        "0",
        f"A/{name}",
        f"B/{name}",
    )
    assert status == 0
    urls = report["urls"]
    assert (urls["removed"], urls["added"], urls["common"]) == (0, 0, 9)
    assert report["origins"] == []


def test_the_issues_repro_normal_form(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    _write(tmp_path / "A" / "sitemap.xml", _urlset("https://Example.com:443/a", SITE[:-1]))
    _write(tmp_path / "B" / "sitemap.xml", _urlset(_page("a"), SITE))
    status, report = _diff(
        capsys,
        "--max-removed",
        "0",
        "--max-origin-changes",
        "0",
        "A/sitemap.xml",
        "B/sitemap.xml",
    )
    assert status == 0
    assert (report["urls"]["removed"], report["urls"]["added"], report["origins"]) == (0, 0, [])


def test_a_migration_names_origins_in_normal_form_and_urls_as_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    _write(tmp_path / "old.xml", _urlset("https://Example.com:443/a", "https://example.com"))
    _write(tmp_path / "new.xml", _urlset("https://www.example.com/a", "https://www.example.com/"))
    status, report = _diff(capsys, "--max-origin-changes", "1", "old.xml", "new.xml")
    assert status == 1
    assert report["origins"] == [
        {"from": "https://example.com", "to": "https://www.example.com", "urls": 2}
    ]
    assert [shown["url"] for shown in report["urls"]["removed_first"]] == [
        "https://Example.com:443/a",
        "https://example.com",
    ]


def test_an_alternate_written_otherwise_names_the_removed_page(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)

    def urlset(*pages: tuple[str, str]) -> str:
        body = "".join(
            f'<url><loc>{loc}</loc><xhtml:link rel="alternate" hreflang="de" href="{href}"/></url>\n'
            for loc, href in pages
        )
        return (
            f'<urlset xmlns="{NS}" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n{body}</urlset>\n'
        )

    _write(tmp_path / "old.xml", urlset((_page("en"), _page("de")), (_page("de"), _page("de"))))
    # de is gone; en's alternate names it as https://EXAMPLE.com:443/de
    _write(tmp_path / "new.xml", urlset((_page("en"), "https://EXAMPLE.com:443/de")))
    status, report = _diff(capsys, "--max-hreflang-broken", "0", "old.xml", "new.xml")
    assert status == 1
    assert report["hreflang"]["broken"] == 1


@pytest.mark.parametrize("layout", ["fast route", "parsed"])
def test_changefreq_is_compared_whatever_its_case(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    layout: str,
) -> None:
    """``Daily`` is ``daily`` (``check --fix`` lower-cases it); ``weekly`` is a change."""
    monkeypatch.chdir(tmp_path)
    _write(tmp_path / "o" / "sitemap-a.xml", _listing(layout, _page("a"), changefreq="Daily"))
    _write(tmp_path / "o" / "sitemap-b.xml", _listing(layout, _page("b"), changefreq="WEEKLY"))
    _write(tmp_path / "n" / "sitemap-a.xml", _listing(layout, _page("a"), changefreq="daily"))
    _write(tmp_path / "n" / "sitemap-b.xml", _listing(layout, _page("b"), changefreq="daily"))
    status, report = _diff(capsys, "--max-changefreq-changes", "1", "o", "n")
    assert status == 0
    assert report["changefreq_changed"] == 1

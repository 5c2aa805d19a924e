"""The element pointer (``xpath``) of the findings made once the entries are gone: the
checks that compare entries within a file (hreflang clusters, mixed origins, the news
limit) and across the files of a set (duplicates, hreflang, an index's listings). Each
names the element the finding stands at as the entry's own findings would, with the
document's prefixes; the same in a local run, with worker processes (``--jobs 2``) and
without the fast path."""

from __future__ import annotations

import gzip
import io
import json
from pathlib import Path
from typing import Any

import pytest

from sitemap_lint import fastpath
from sitemap_lint.run import RunSettings, execute
from tests.helpers import NOW

S = "http://www.sitemaps.org/schemas/sitemap/0.9"
X = "http://www.w3.org/1999/xhtml"
N = "http://www.google.com/schemas/sitemap-news/0.9"
HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n'


def _url(loc: str, links: tuple[tuple[str, str], ...] = (), more: str = "") -> str:
    alternates = "".join(
        f'<x:link rel="alternate" hreflang="{code}" href="{href}"/>' for code, href in links
    )
    return f"  <s:url><s:loc>{loc}</s:loc>{alternates}{more}</s:url>\n"


def _urlset(entries: list[str]) -> str:
    return f'{HEAD}<s:urlset xmlns:s="{S}" xmlns:x="{X}">\n{"".join(entries)}</s:urlset>\n'


def _index(base: str, entries: list[tuple[str, str | None]]) -> str:
    body = "".join(
        f"  <i:sitemap><i:loc>{base}{name}</i:loc>"
        + (f"<i:lastmod>{lastmod}</i:lastmod>" if lastmod else "")
        + "</i:sitemap>\n"
        for name, lastmod in entries
    )
    return f'{HEAD}<i:sitemapindex xmlns:i="{S}">\n{body}</i:sitemapindex>\n'


def _report(paths: list[Path], **settings: Any) -> str:
    out = io.StringIO()
    run = RunSettings(
        paths=[str(p) for p in paths],
        format="json",
        now=NOW.date().isoformat(),
        isolated=True,
        **settings,
    )
    execute(run, out=out, err=io.StringIO())
    return out.getvalue()


def _pointers(report: str, codes: tuple[str, ...]) -> set[tuple[str, str, int, str | None]]:
    """(file name, code, line, xpath) of each finding of ``codes``."""
    return {
        (file["path"].rsplit("/", 1)[-1], f["code"], f["line"], f.get("xpath"))
        for file in json.loads(report)["files"]
        for f in file["findings"]
        if f["code"].startswith(codes)
    }


# -- within a file -----------------------------------------------------------------------


def test_hreflang_clusters_and_mixed_origins_name_the_entry_or_its_loc(tmp_path: Path) -> None:
    en, fr, de = "https://example.com/en/", "https://example.com/fr/", "https://example.com/de/"
    path = tmp_path / "sitemap.xml"
    entries = [
        _url("https://example.com/"),
        _url(en, (("en", en), ("fr", fr), ("de", de))),
        _url(fr),  # listed as an alternate, lists none: HL006 at its loc
        _url(de, (("de", de), ("en", en))),  # lists back, without fr: HL007 at the entry
        _url("https://www.example.com/"),  # another origin: SC003 at its loc
    ]
    path.write_text(_urlset(entries), encoding="utf-8")
    found = _pointers(_report([path]), ("HL", "SC"))
    assert ("sitemap.xml", "HL006", 5, "/s:urlset/s:url[3]/s:loc") in found
    assert ("sitemap.xml", "HL007", 6, "/s:urlset/s:url[4]") in found
    assert ("sitemap.xml", "SC003", 7, "/s:urlset/s:url[5]/s:loc") in found
    assert all(xpath is not None for *_rest, xpath in found), found


def test_the_news_limit_names_the_first_news_element_past_it(tmp_path: Path) -> None:
    news = (
        "<n:news><n:publication><n:name>Daily</n:name><n:language>en</n:language>"
        "</n:publication><n:publication_date>2025-05-31T08:00:00+00:00</n:publication_date>"
        "<n:title>A title</n:title></n:news>"
    )
    entries = [_url(f"https://example.com/a/{n}", more=news) for n in range(1, 1_003)]
    text = _urlset(entries).replace(f'xmlns:x="{X}"', f'xmlns:n="{N}"')
    path = tmp_path / "news-sitemap.xml.gz"
    path.write_bytes(gzip.compress(text.encode()))
    found = _pointers(_report([path]), ("NW005",))
    assert found == {("news-sitemap.xml.gz", "NW005", 1_003, "/s:urlset/s:url[1001]/n:news[1]")}


def test_an_entry_with_several_locs_names_the_one_the_set_compares(tmp_path: Path) -> None:
    first = tmp_path / "a-sitemap.xml"
    first.write_text(_urlset([_url("https://example.com/x")]), encoding="utf-8")
    second = tmp_path / "b-sitemap.xml"
    twice = _url("https://example.com/x").replace("</s:loc>", "</s:loc><s:loc>/y</s:loc>")
    second.write_text(_urlset([_url("https://example.com/z"), twice]), encoding="utf-8")
    found = _pointers(_report([first, second]), ("SE001", "ST003"))
    assert found == {
        ("b-sitemap.xml", "SE001", 4, "/s:urlset/s:url[2]/s:loc[1]"),
        ("b-sitemap.xml", "ST003", 4, "/s:urlset/s:url[2]/s:loc[2]"),
    }


# -- across the files of a set -----------------------------------------------------------

# Entries before the ones the set's checks compare: files past 1 MiB (checked in worker
# processes with --jobs 2) and long enough for the fast path to prove runs of them.
PADDING = 20_000


def _site(directory: Path, padding: int = PADDING) -> Path:
    """An index (prefixed) of two sitemaps (prefixed; ``padding`` entries first) that
    share a URL and a hreflang cluster, itself, and a missing file; one sitemap's lastmod
    in the index is behind."""
    directory.mkdir()
    a_pad = [_url(f"https://example.com/a/{n}") for n in range(padding)]
    b_pad = [_url(f"https://example.com/b/{n}") for n in range(padding)]
    en, fr = "https://example.com/en/page", "https://example.com/fr/page"
    a = [
        *a_pad,
        _url("https://example.com/shared"),
        _url(fr),  # listed by b's entry as an alternate: HL006 here, at its loc
        "  <s:url><s:loc>https://example.com/dated</s:loc>"
        "<s:lastmod>2025-05-01</s:lastmod></s:url>\n",
    ]
    b = [*b_pad, _url(en, (("en", en), ("fr", fr))), _url("https://example.com/shared")]
    (directory / "a.xml").write_text(_urlset(a), encoding="utf-8")
    (directory / "b.xml").write_text(_urlset(b), encoding="utf-8")
    base = "https://example.com/"
    index = _index(
        base, [("a.xml", "2025-01-01"), ("b.xml", None), ("index.xml", None), ("gone.xml", None)]
    )
    (directory / "index.xml").write_text(index, encoding="utf-8")
    return directory / "index.xml"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _site(tmp_path_factory.mktemp("joins") / "site")


def _set_report(index: Path, **settings: Any) -> str:
    return _report([index], maps=(f"https://example.com/={index.parent}",), **settings)


def test_the_set_s_findings_name_the_entry_s_element(site: Path) -> None:
    found = _pointers(_set_report(site), ("SE", "HL006"))
    last = PADDING + 1
    assert found == {
        ("index.xml", "SE006", 3, "/i:sitemapindex/i:sitemap[1]/i:loc"),
        ("index.xml", "SE002", 5, "/i:sitemapindex/i:sitemap[3]/i:loc"),
        ("index.xml", "SE007", 6, "/i:sitemapindex/i:sitemap[4]/i:loc"),
        ("b.xml", "SE001", last + 3, f"/s:urlset/s:url[{last + 1}]/s:loc"),
        ("a.xml", "HL006", last + 3, f"/s:urlset/s:url[{last + 1}]/s:loc"),
    }


def _same_everywhere(site: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    local = _set_report(site, jobs=1)
    assert '"xpath": "/s:urlset/s:url[' in local
    assert _set_report(site, jobs=2) == local
    monkeypatch.setenv(fastpath.ENV, "0")
    assert _set_report(site, jobs=1) == local
    assert _set_report(site, jobs=2) == local


def test_small_files_in_worker_processes_and_the_full_checker_give_the_same_pointers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from sitemap_lint.sets import runner

    monkeypatch.setattr(runner, "POOL_MIN_SIZE", 0)  # every file of a level to a worker
    _same_everywhere(_site(tmp_path / "site", padding=400), monkeypatch)


@pytest.mark.slow
def test_worker_processes_and_the_full_checker_give_the_same_pointers(
    site: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _same_everywhere(site, monkeypatch)

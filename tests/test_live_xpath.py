"""The element pointer (``xpath``) of the live audit's findings: each target names its
element as a static finding on that element names it (the same names and prefixes as
the file writes them, the same indexes), in plain, prefixed and one-line files, with
and without the fast path; none where the target reader cannot count the entries as the
check does (after a syntax error that loses entries)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from sitemap_lint import fastpath
from sitemap_lint.live.model import Target, TargetPointer
from sitemap_lint.live.targets import TargetReader
from tests.helpers import lint_content, run_cli
from tests.live_server import LiveServer, live_server  # noqa: F401
from tests.test_fastpath import _Counter

S = "http://www.sitemaps.org/schemas/sitemap/0.9"
I = "http://www.google.com/schemas/sitemap-image/1.1"  # noqa: E741
V = "http://www.google.com/schemas/sitemap-video/1.1"
X = "http://www.w3.org/1999/xhtml"
HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n'
PREFIXES = {"plain": ("", "image", "video", "xhtml"), "prefixed": ("s", "i", "v", "x")}


def _q(prefix: str, name: str) -> str:
    return f"{prefix}:{name}" if prefix else name


def _clean(n: int, p: tuple[str, str, str, str]) -> str:
    """An entry the fast path proves: a loc, two alternates and an image."""
    s, i, _v, x = p
    url = f"https://example.com/page/{n}"
    return (
        f"<{_q(s, 'url')}><{_q(s, 'loc')}>{url}</{_q(s, 'loc')}>"
        f'<{x}:link rel="alternate" hreflang="en" href="{url}"/>'
        f'<{x}:link rel="alternate" hreflang="de" href="{url}/de"/>'
        f"<{i}:image><{i}:loc>{url}.jpg</{i}:loc></{i}:image></{_q(s, 'url')}>"
    )


def _odd(n: int, p: tuple[str, str, str, str]) -> str:
    """An entry whose every target is a relative URL (a static finding at each), with
    elements of one name several times and one alone."""
    s, i, v, x = p
    sl, il = _q(s, "loc"), f"{i}:loc"
    return (
        f"<{_q(s, 'url')}><{sl}>/page/{n}</{sl}>"
        f'<{x}:link rel="alternate" hreflang="en" href="/en/{n}"/>'
        f'<{x}:link rel="canonical" href="https://example.com/{n}"/>'
        f'<{x}:link rel="alternate" hreflang="de" href="/de/{n}"/>'
        f"<{i}:image><{il}>https://example.com/{n}.jpg</{il}></{i}:image>"
        f"<{i}:image><{il}>/{n}-a.jpg</{il}></{i}:image>"
        f"<{v}:video><{v}:thumbnail_loc>/{n}.jpg</{v}:thumbnail_loc><{v}:title>T</{v}:title>"
        f"<{v}:description>D</{v}:description><{v}:content_loc>/{n}.mp4</{v}:content_loc>"
        f"</{v}:video></{_q(s, 'url')}>"
    )


def _document(shape: str, clean: int) -> str:
    p = PREFIXES["prefixed" if shape == "prefixed" else "plain"]
    s, i, v, x = p
    root = _q(s, "urlset")
    declarations = (
        f'xmlns{":" + s if s else ""}="{S}" xmlns:{i}="{I}" xmlns:{v}="{V}" xmlns:{x}="{X}"'
    )
    entries = [_clean(n, p) for n in range(1, clean + 1)]
    entries.insert(clean // 2, _odd(clean // 2, p))
    entries.append(_odd(clean + 1, p))
    sep = "" if shape == "one line" else "\n  "
    return f"{HEAD}<{root} {declarations}>{sep}{sep.join(entries)}\n</{root}>\n"


def _pointed(
    result_targets: list[Target] | None, pointer: TargetPointer | None
) -> dict[tuple[int, int], str | None]:
    assert result_targets is not None and pointer is not None
    return {
        (t.line, t.column): pointer.path(t.kind, t.element)
        for t in result_targets
        if not t.url.startswith("https:")
    }


@pytest.mark.parametrize("shape", ["plain", "prefixed", "one line"])
@pytest.mark.parametrize("fast", [True, False])
def test_each_target_names_its_element_as_the_static_findings_do(
    shape: str, fast: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(fastpath.ENV, "1" if fast else "0")
    counter = _Counter(monkeypatch)
    result = lint_content(tmp_path, _document(shape, 300), sitemap_url=None, live=True)
    assert (counter.proved >= 290) is fast
    pointed = _pointed(result.targets, result.target_pointer)
    assert len(pointed) == 2 * 6
    static = {(f.line, f.column): f.xpath for f in result.findings if f.xpath is not None}
    assert {at: static.get(at) for at in pointed} == pointed
    if shape == "prefixed":
        assert set(pointed.values()) >= {
            "/s:urlset/s:url[151]/s:loc",
            "/s:urlset/s:url[302]/x:link[1]",
            "/s:urlset/s:url[302]/x:link[3]",
            "/s:urlset/s:url[302]/i:image[2]/i:loc",
            "/s:urlset/s:url[302]/v:video[1]/v:thumbnail_loc",
            "/s:urlset/s:url[302]/v:video[1]/v:content_loc",
        }


def _read(text: str) -> tuple[list[Target], TargetPointer | None]:
    reader = TargetReader()
    reader.feed(text, final=True)
    return reader.targets(), reader.pointer()


def _paths(text: str) -> list[tuple[str, str | None]]:
    targets, pointer = _read(text)
    assert pointer is not None
    return [(t.url, pointer.path(t.kind, t.element)) for t in targets]


def test_an_element_alone_of_its_name_is_numbered_when_it_has_children() -> None:
    text = (
        f'<urlset xmlns="{S}" xmlns:image="{I}" xmlns:xhtml="{X}"><url><loc>/a<b/></loc>'
        f'<xhtml:link rel="alternate" href="/x"><z/></xhtml:link>'
        f"<image:image><image:loc>/i<b/></image:loc></image:image></url>"
        f"<url><loc></loc><loc>/second</loc></url></urlset>"
    )
    assert _paths(text) == [
        ("/a", "/urlset/url[1]/loc[1]"),
        ("/x", "/urlset/url[1]/xhtml:link[1]"),
        ("/i", "/urlset/url[1]/image:image[1]/image:loc[1]"),
        ("/second", "/urlset/url[2]/loc[2]"),
    ]


def test_an_index_and_a_document_without_namespace() -> None:
    assert _paths(
        f'<sitemapindex xmlns="{S}"><sitemap><loc>/a.xml</loc></sitemap></sitemapindex>'
    ) == [("/a.xml", "/sitemapindex/sitemap[1]/loc")]
    assert _paths("<urlset><url><loc>/a</loc></url><url><loc>/b</loc></url></urlset>") == [
        ("/a", "/urlset/url[1]/loc"),
        ("/b", "/urlset/url[2]/loc"),
    ]


def test_a_feed_names_no_element() -> None:
    targets, pointer = _read(
        '<rss version="2.0"><channel><item><link>/a</link></item></channel></rss>'
    )
    assert [t.url for t in targets] == ["/a"] and pointer is None


@pytest.mark.parametrize(
    "damage",
    [
        "<url><loc>/lost</loc></bad></url>",  # an entry lost to a syntax error
        "<url><loc>/nested</loc><url><loc>/inner</loc></url>\n<url><loc>/x</loc></url></url>",
    ],
)
def test_after_entries_the_check_may_count_otherwise_no_element_is_named(
    damage: str, tmp_path: Path
) -> None:
    text = (
        f'{HEAD}<urlset xmlns="{S}">\n<url><loc>/first</loc></url>\n{damage}\n'
        "<url><loc>/after</loc></url>\n</urlset>\n"
    )
    result = lint_content(tmp_path, text, sitemap_url=None, live=True)
    assert result.targets is not None and result.target_pointer is not None
    pointer = result.target_pointer
    named = {t.url: pointer.path(t.kind, t.element) for t in result.targets}
    assert named["/first"] == "/urlset/url[1]/loc"
    assert named["/after"] is None
    static = {(f.line, f.column): f.xpath for f in result.findings if f.code == "UR001"}
    for target in result.targets:  # never another element than the check names
        xpath = pointer.path(target.kind, target.element)
        assert xpath is None or static[target.line, target.column] == xpath


# -- end to end: the reports, a set, worker processes (a real local server) --------------

SITE = "http://example.com"
GONE = f"{SITE}/status/404"
ONE_LINE = (
    f'{HEAD}<s:urlset xmlns:s="{S}" xmlns:i="{I}" xmlns:v="{V}" xmlns:x="{X}">'
    f"<s:url><s:loc>{SITE}/pages/plain</s:loc><s:lastmod>2024-01-01</s:lastmod></s:url>"
    f"<s:url><s:loc>{GONE}</s:loc><s:lastmod>2024-01-01</s:lastmod>"
    f'<x:link rel="alternate" hreflang="de" href="{GONE}"/>'
    f'<x:link rel="alternate" hreflang="en" href="{SITE}/pages/plain"/>'
    f"<i:image><i:loc>{GONE}</i:loc></i:image>"
    f"<v:video><v:thumbnail_loc>{GONE}</v:thumbnail_loc><v:title>t</v:title>"
    f"<v:description>d</v:description><v:content_loc>{GONE}</v:content_loc>"
    f"<v:player_loc>{GONE}</v:player_loc></v:video></s:url>"
    f"<s:url><s:loc>{SITE}/status/200</s:loc><s:lastmod>2024-01-01</s:lastmod></s:url>"
    "</s:urlset>\n"
)
EXPECTED = [
    ("LV011", "/s:urlset/s:url[1]/s:loc"),
    ("LV001", "/s:urlset/s:url[2]/s:loc"),
    ("LV001", "/s:urlset/s:url[2]/x:link[1]"),
    ("LV013", "/s:urlset/s:url[2]/i:image[1]/i:loc"),
    ("LV013", "/s:urlset/s:url[2]/v:video[1]/v:thumbnail_loc"),
    ("LV013", "/s:urlset/s:url[2]/v:video[1]/v:content_loc"),
    ("LV001", "/s:urlset/s:url[2]/v:video[1]/v:player_loc"),
]


def _args(server: object, *more: str) -> list[str]:
    return [
        "--isolated",
        "--now",
        "2025-06-01",
        "--live",
        "--no-live-cache",
        "--live-timeout",
        "10",
        "--live-connect-to",
        f"example.com:80:{server.origin}",  # type: ignore[attr-defined]
        *more,
    ]


def _live_pointers(out: str, name: str = "sitemap.xml") -> list[tuple[str, str | None]]:
    files = [f for f in json.loads(out)["files"] if Path(f["path"]).name == name]
    return [(f["code"], f.get("xpath")) for f in files[0]["findings"] if f["code"][:2] == "LV"]


@pytest.mark.slow
def test_the_reports_name_each_live_findings_element(
    live_server: LiveServer,  # noqa: F811
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = tmp_path / "sitemap.xml"
    path.write_text(ONE_LINE, encoding="utf-8")
    status, out, _err = run_cli([*_args(live_server, "--format", "json"), str(path)], capsys)
    assert status == 1
    assert sorted(_live_pointers(out)) == sorted(EXPECTED)
    status, out, _err = run_cli([*_args(live_server, "--format", "sarif"), str(path)], capsys)
    logical = {
        result["ruleId"]: result["locations"][0].get("logicalLocations")
        for result in json.loads(out)["runs"][0]["results"]
        if result["ruleId"] == "LV011"
    }
    assert logical == {
        "LV011": [{"fullyQualifiedName": "/s:urlset/s:url[1]/s:loc", "kind": "element"}]
    }
    status, out, _err = run_cli([*_args(live_server, "--format", "text"), str(path)], capsys)
    assert "at /s:urlset/s:url[2]/v:video[1]/v:player_loc" in out


@pytest.mark.slow
@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("fast", ["1", "0"])
def test_a_set_names_the_same_elements_with_workers_and_without_the_fast_path(
    live_server: LiveServer,  # noqa: F811
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    jobs: str,
    fast: str,
) -> None:
    from sitemap_lint.sets import runner

    monkeypatch.setattr(runner, "POOL_MIN_SIZE", 0)  # every file of a level to a worker
    monkeypatch.setattr(fastpath, "SMALL", 0)
    monkeypatch.setenv(fastpath.ENV, fast)
    (tmp_path / "sitemap.xml").write_text(ONE_LINE, encoding="utf-8")
    index = tmp_path / "index.xml"
    index.write_text(
        f'{HEAD}<sitemapindex xmlns="{S}"><sitemap><loc>{SITE}/sitemap.xml</loc></sitemap>'
        "</sitemapindex>\n",
        encoding="utf-8",
    )
    more = ["--format", "json", "--jobs", jobs, "--map", f"{SITE}/={tmp_path}"]
    status, out, err = run_cli([*_args(live_server, *more), str(index)], capsys)
    assert status == 1, err
    assert sorted(_live_pointers(out)) == sorted(EXPECTED)


def test_the_live_events_carry_the_pointer_to_their_targets_elements(tmp_path: Path) -> None:
    """An ``answer`` or ``audited`` check names a target's element by its event (as the
    set checks do by their facts), wherever its finding stands; the targets' elements are
    numbered as ``model.EntryPointer`` reads an entry's loc."""
    from datetime import UTC, datetime

    from sitemap_lint.live.audit import add_findings
    from sitemap_lint.live.model import Answer
    from sitemap_lint.model import EntryPointer
    from tests.helpers import noting_rule, plugin_checks

    result = lint_content(tmp_path, _document("prefixed", 3), sitemap_url=None, live=True)
    targets, pointer = result.targets, result.target_pointer
    assert targets is not None and pointer is not None
    entries = EntryPointer(pointer.head, "]/s:loc")
    for target in targets:
        if target.kind == "page":
            assert entries.at_loc(target.element) == pointer.of(target)
    answered_rule, audited_rule = (
        noting_rule("ZX301", "noted-answer"),
        noting_rule("ZX302", "noted-audited"),
    )

    def answered(event: Any, name: str, report: Any) -> None:
        report.add(answered_rule.at(1, 1, event.target.url).with_xpath(event.xpath))

    def audited(event: Any, name: str, report: Any) -> None:
        last = event.targets[-1]
        report.add(audited_rule.at(1, 1, last.url).with_xpath(event.xpath(last)))

    answers = {t.url: Answer(url=t.url, status=200) for t in targets}
    with plugin_checks(("answer", answered_rule, answered), ("audited", audited_rule, audited)):
        add_findings(result, answers, datetime.now(UTC), frozenset({"ZX301", "ZX302"}))
    found = {
        (f.code, f.message): f.xpath
        for f in result.open_sink().findings
        if f.code in ("ZX301", "ZX302")
    }
    expected = {("ZX301", t.url): pointer.of(t) for t in targets}
    expected["ZX302", targets[-1].url] = pointer.of(targets[-1])
    assert found == expected
    assert found["ZX302", targets[-1].url] == "/s:urlset/s:url[5]/v:video[1]/v:content_loc"

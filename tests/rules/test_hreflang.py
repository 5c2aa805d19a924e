"""hreflang family: each rule's failing fixtures give exactly the expected finding; passing ones none."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from sitemap_lint.rules import hreflang
from sitemap_lint.rules.hreflang import Alternates, check_alternates, check_code
from tests.helpers import RULE_FIXTURES, check_message, found, lint

MESSAGES = [
    ("HL001/fail.xml", 'hreflang="CODE" href="https://example.com/de/preise"'),
    ("HL001/fail-empty-href.xml", "an empty href"),
    ("HL002/fail.xml", 'write rel="alternate"'),
    ("HL003/fail.xml", 'write hreflang="en-GB"'),
    ("HL003/fail-underscore.xml", 'write hreflang="en-US"'),
    ("HL003/fail-three-letter.xml", 'write hreflang="de"'),
    ("HL003/fail-country.xml", 'write hreflang="ja-JP"'),
    ("HL003/fail-numeric-region.xml", "e.g. es-MX"),
    ("HL004/fail.xml", 'href="https://example.com/nl/"/>'),
    ("HL004/fail-trailing-slash.xml", 'write href="https://example.com/nl/"'),
    ("HL005/fail.xml", "e.g. de-AT"),
    (
        "HL006/fail.xml",
        'add <xhtml:link rel="alternate" hreflang="en" '
        'href="https://example.com/en/blog/spring-sale"/>',
    ),
    ("HL006/fail-several.xml", "2 pages list this page"),
    ("HL007/fail.xml", 'hreflang="pt" (there: "pt-BR")'),
    ("HL007/fail-extra.xml", 'adds hreflang="ca" href="https://example.org/ca/productes/bullidor"'),
    ("HL008/fail.xml", 'hreflang="x-default"'),
    ("HL008/fail-file.xml", "none of the 2 clusters"),
]


@pytest.mark.parametrize(("fixture", "text"), MESSAGES, ids=[m[0] for m in MESSAGES])
def test_message_shows_the_fix(fixture: str, text: str) -> None:
    check_message(fixture, text)


FAMILY_FIXTURES = sorted(
    [path for directory in RULE_FIXTURES.glob("HL*") for path in directory.glob("*.xml")]
    + [RULE_FIXTURES / "UR001" / "fail-hreflang-href.xml"]
)


def test_family_fixtures_found() -> None:
    assert {p.parent.name for p in FAMILY_FIXTURES} >= {rule.code for rule in hreflang.RULES}


def test_valid_extensions_fixture_has_no_hreflang_findings() -> None:
    path = RULE_FIXTURES.parent / "valid" / "sitemap-extensions.xml"
    assert [f for f in lint(path).findings if f.code.startswith("HL")] == []


# -- language codes -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "canonical"),
    [
        ("en", "en"),
        ("EN", "en"),
        ("en-GB", "en-GB"),
        ("en-gb", "en-GB"),
        ("zh-Hant-TW", "zh-Hant-TW"),
        ("ZH-HANT-TW", "zh-Hant-TW"),
        ("zh-Hans", "zh-Hans"),
        ("sr-Latn-RS", "sr-Latn-RS"),
        ("se", "se"),  # Northern Sami, although SE is also Sweden
        ("uk", "uk"),  # Ukrainian, although UK is a common mistake for GB
        ("x-default", "x-default"),
        ("X-Default", "x-default"),
    ],
)
def test_valid_codes(value: str, canonical: str) -> None:
    assert check_code(value) == (canonical, None, False)


@pytest.mark.parametrize(
    ("value", "text", "schema_rejects"),
    [
        ("en_GB", 'write hreflang="en-GB"', True),
        ("en-UK", 'write hreflang="en-GB"', False),
        ("en_UK", 'write hreflang="en-GB"', True),
        ("eng", 'write hreflang="en"', False),
        ("ger", 'write hreflang="de"', False),
        ("iw", 'write hreflang="he"', False),
        ("jp", 'write hreflang="ja-JP"', False),
        ("cn-ZH", "e.g. zh-CN", False),
        ("en-GBR", 'write hreflang="en-GB"', False),
        (" de", 'write hreflang="de"', True),
        ("default", 'write hreflang="x-default"', False),
        ("fil", "has no two-letter ISO 639-1 code", False),
        ("xx", "'xx' is not an ISO 639-1 language", False),
        ("en-XY", "'XY' is not an ISO 3166-1 region", False),
        ("en-YU", "was withdrawn", False),
        ("es-419", "numeric regions", False),
        ("zh-Xxxx-TW", "not an ISO 15924 script", False),
        ("zh-TW-Hant", 'comes before the region, not after it; write hreflang="zh-Hant-TW"', False),
        ("sr-rs-latn", 'write hreflang="sr-Latn-RS"', False),
        ("de-CH-1996", "'1996' cannot follow", False),
        ("en-", "empty subtag", True),
        ("e1", "not a language code", True),
    ],
)
def test_invalid_codes(value: str, text: str, schema_rejects: bool) -> None:
    verdict = check_code(value)
    assert verdict.canonical is None
    assert text in verdict.message, verdict.message
    assert verdict.schema_rejects == schema_rejects


def test_pycountry_is_imported_on_first_use_only() -> None:
    """Loading pycountry costs start-up time: the module imports it inside a function."""
    tree = ast.parse(Path(hreflang.__file__).read_text(encoding="utf-8"))
    top_level = [
        alias.name
        for node in tree.body
        if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in node.names
    ] + [node.module for node in tree.body if isinstance(node, ast.ImportFrom)]
    assert not any(name and name.split(".")[0] == "pycountry" for name in top_level)


def test_code_verdicts_are_cached() -> None:
    assert check_code("pt-BR") is check_code("pt-BR")


# -- the checks across entries, on records ------------------------------------------------------


def _record(page: str, line: int, *links: tuple[str, str]) -> Alternates:
    return Alternates(page, line, 3, tuple(sorted(links)))


EN, DE, FR = "https://example.com/en/", "https://example.com/de/", "https://example.com/fr/"


def _problems(*records: Alternates) -> list[tuple[str, int]]:
    return [(p.rule.code, p.record.line) for p in check_alternates(records)]


def test_consistent_cluster_gives_nothing() -> None:
    links = (("en", EN), ("de", DE), ("x-default", EN))
    assert _problems(_record(EN, 4, *links), _record(DE, 9, *links)) == []


def test_return_link_missing_is_reported_on_the_page_that_lacks_it() -> None:
    assert _problems(
        _record(EN, 4, ("en", EN), ("de", DE), ("x-default", EN)),
        _record(DE, 9, ("de", DE)),
    ) == [("HL006", 9)]


def test_one_finding_per_page_for_several_missing_return_links() -> None:
    links = (("en", EN), ("de", DE), ("fr", FR), ("x-default", EN))
    assert _problems(
        _record(EN, 4, *links), _record(DE, 9, *links), _record(FR, 14, ("fr", FR))
    ) == [("HL006", 14)]


def test_a_page_missing_from_two_pages_is_a_return_link_problem_only() -> None:
    # fr lists en and de; they do not list fr: two return-link findings, no mismatch on fr.
    small = (("en", EN), ("de", DE), ("x-default", EN))
    assert _problems(
        _record(EN, 4, *small),
        _record(DE, 9, *small),
        _record(FR, 14, ("en", EN), ("de", DE), ("fr", FR), ("x-default", EN)),
    ) == [("HL006", 4), ("HL006", 9)]


def test_code_conflict_is_a_mismatch() -> None:
    first = (("en", EN), ("de", DE), ("x-default", EN))
    second = (("en", EN), ("de-DE", DE), ("x-default", EN))
    assert _problems(_record(EN, 4, *first), _record(DE, 9, *second)) == [("HL007", 9)]


def test_shared_x_default_page_does_not_join_clusters() -> None:
    # Every page points x-default at the home page, which lists only itself: one
    # return-link finding there, and no cluster spanning the whole file.
    home = "https://example.com/"
    records = [_record(home, 4, ("x-default", home))]
    for i in range(50):
        en, de = f"{EN}{i}", f"{DE}{i}"
        links = (("en", en), ("de", de), ("x-default", home))
        records += [_record(en, 10 + 2 * i, *links), _record(de, 11 + 2 * i, *links)]
    problems = list(check_alternates(records))
    assert [(p.rule.code, p.record.line) for p in problems] == [("HL006", 4)]
    assert "100 pages list this page" in problems[0].message


def test_x_default_advice_once_per_file_when_no_cluster_has_it() -> None:
    records = []
    for i in range(3):
        en, de = f"{EN}{i}", f"{DE}{i}"
        links = (("en", en), ("de", de))
        records += [_record(en, 10 * i + 4, *links), _record(de, 10 * i + 8, *links)]
    assert _problems(*records) == [("HL008", 4)]


def test_regional_versions_of_one_language_need_no_x_default() -> None:
    links = (("en-GB", EN), ("en-US", DE))
    assert _problems(_record(EN, 4, *links), _record(DE, 9, *links)) == []


def test_separate_mobile_url_annotation_is_not_an_hreflang_link(tmp_path: Path) -> None:
    """rel="alternate" with media and no hreflang points at a mobile site, not a language."""
    path = tmp_path / "sitemap.xml"
    path.write_text(
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
        ' xmlns:xhtml="http://www.w3.org/1999/xhtml">\n'
        "  <url>\n    <loc>https://example.com/page</loc>\n"
        '    <xhtml:link rel="alternate" media="only screen and (max-width: 640px)"'
        ' href="https://m.example.com/page"/>\n  </url>\n</urlset>\n'
    )
    assert found(lint(path)) == []
    path.write_text(path.read_text().replace(' media="only screen and (max-width: 640px)"', ""))
    # Without media it is an alternate lacking its code, and the page lacks a self-link.
    assert found(lint(path)) == [("HL004", 2), ("HL001", 4)]


# -- Google's "must", the normal form of URLs, entries without alternates ---------------------

_HEAD = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" '
    'xmlns:xhtml="http://www.w3.org/1999/xhtml">\n'
)


def _link(code: str, href: str) -> str:
    return f'<xhtml:link rel="alternate" hreflang="{code}" href="{href}"/>'


def _lint_entries(tmp_path: Path, *entries: str):
    from tests.helpers import lint_content

    return lint_content(tmp_path, _HEAD + "".join(entries) + "</urlset>\n")


def test_self_missing_is_an_error_and_a_warning_under_bing() -> None:
    from sitemap_lint.finding import Severity
    from sitemap_lint.settings.profiles import severity_under

    assert hreflang.SELF_MISSING.severity is Severity.ERROR
    assert severity_under("bing", "HL004", Severity.ERROR) is Severity.WARNING
    assert severity_under("yandex", "HL004", Severity.ERROR) is Severity.INFO


def test_self_link_in_another_spelling_of_the_page_counts(tmp_path: Path) -> None:
    result = _lint_entries(
        tmp_path,
        "<url><loc>https://Example.com</loc>"
        + _link("en", "https://example.com:443/")
        + _link("de", "https://example.com/de/")
        + "</url>\n",
        "<url><loc>https://example.com/de/</loc>"
        + _link("en", "https://example.com")
        + _link("de", "https://example.com/de/")
        + "</url>\n",
    )
    # No HL004, HL006 or HL007: the other spellings are only not canonical (UR018).
    assert [f.code for f in result.findings if f.code != "UR018"] == ["HL008"]
    assert [f.code for f in result.findings].count("UR018") == 3


def test_self_link_differing_in_path_case_is_still_missing(tmp_path: Path) -> None:
    result = _lint_entries(
        tmp_path,
        "<url><loc>https://example.com/De/</loc>"
        + _link("de", "https://example.com/de/")
        + "</url>\n",
    )
    assert found(result) == [("HL004", 3)]


def test_target_without_alternates_lists_nothing_back(tmp_path: Path) -> None:
    result = _lint_entries(
        tmp_path,
        "<url><loc>https://example.com/en/</loc>"
        + _link("en", "https://example.com/en/")
        + _link("fr", "https://example.com/fr/")
        + "</url>\n",
        "<url>\n<loc>https://example.com/fr/</loc></url>\n",
        "<url><loc>https://example.com/it/</loc></url>\n",
    )
    [finding] = [f for f in result.findings if f.code == "HL006"]
    assert (finding.line, finding.column) == (5, 1)  # at the loc of the French entry
    assert "has no alternates at all" in finding.message


def test_target_with_defective_alternates_is_left_to_their_findings(tmp_path: Path) -> None:
    result = _lint_entries(
        tmp_path,
        "<url><loc>https://example.com/en/</loc>"
        + _link("en", "https://example.com/en/")
        + _link("fr", "https://example.com/fr/")
        + "</url>\n",
        "<url><loc>https://example.com/fr/</loc>"
        + _link("fr_FR", "https://example.com/fr/")
        + _link("en", "https://example.com/en/")
        + "</url>\n",
    )
    assert sorted(f.code for f in result.findings) == ["HL003", "HL008"]


def test_bare_records_take_part_in_return_links_only() -> None:
    en = Alternates(
        "https://e.com/en", 1, 1, (("en", "https://e.com/en"), ("fr", "https://e.com/fr"))
    )

    def bare(urls: list[str]) -> list[Alternates]:
        assert urls == ["https://e.com/fr"]
        return [Alternates("https://e.com/fr", 9, 5, (), kind="bare")]

    [problem] = [p for p in check_alternates([en], bare) if p.rule is hreflang.RETURN_LINK_MISSING]
    assert (problem.record.line, problem.record.column) == (9, 5)


@pytest.mark.parametrize(
    ("code", "example"),
    [("fr-150", " (e.g. fr-FR)"), ("es-419", " (e.g. es-MX)"), ("pt-999", "")],
)
def test_a_numeric_region_is_answered_with_a_country_of_that_region(
    code: str, example: str
) -> None:
    message = check_code(code).message
    assert message is not None
    assert f"list a two-letter country code{example} for each country" in message


def _order_free(records: list[Alternates], table: bool) -> list[tuple[str, str, str]]:
    """The HL006 and HL007 problems of ``records`` by rule, page and message, their lines
    taken out of the messages (the positions are the order's)."""
    import re

    given = hreflang.AlternatesTable(records) if table else records
    return sorted(
        (p.rule.code, p.record.page, re.sub(r"line \d+", "line N", p.message))
        for p in check_alternates(given)
        if p.rule.code in ("HL006", "HL007")
    )


@pytest.mark.parametrize("table", [False, True])
def test_return_links_and_mismatches_do_not_depend_on_the_order_of_the_entries(
    table: bool,
) -> None:
    """Each defect once, on the same page, with the same message, however the entries
    are ordered: the pages a missing return link names are the least URLs, and of two
    sets of alternates as many members list, the least one is the reference."""
    import random

    site = "https://example.com/"
    listed = ("de", f"{site}b")
    pages = [(f"{site}a{n}", (("en", f"{site}a{n}"), listed)) for n in range(5)]
    pages.append((f"{site}b", (listed, ("it", f"{site}c"))))
    pages.append((f"{site}c", (("it", f"{site}c"), listed)))
    one = (("en", f"{site}p"), ("de", f"{site}q"), ("fr", f"{site}r"), ("it", f"{site}s"))
    other = (*one[:3], ("it-IT", f"{site}s"))
    pages += [(f"{site}{name}", one) for name in "pq"]
    pages += [(f"{site}{name}", other) for name in "rs"]
    shared = {links: links for _page, links in pages}  # records of one list share it
    rng = random.Random(5)
    reports = set()
    for _ in range(30):
        rng.shuffle(pages)
        records = [
            Alternates(page, line, 3, shared[links]) for line, (page, links) in enumerate(pages, 4)
        ]
        reports.add(tuple(_order_free(records, table)))
    (report,) = reports
    assert [(code, page[len(site) :]) for code, page, _message in report] == [
        ("HL006", "b"),
        ("HL007", "r"),
        ("HL007", "s"),
    ]
    assert "a0 (line N)" in report[0][2] and "a3" not in report[0][2]
    assert f"differ from those of {site}p " in report[1][2]


def _cluster(page: str, *links: tuple[str, str]) -> str:
    return (
        f"<url><loc>{page}</loc>" + "".join(_link(code, href) for code, href in links) + "</url>\n"
    )


_EN, _DE, _FR = (f"https://example.com/{code}/page" for code in ("en", "de", "fr"))
_C = "https://example.com/de/c"


def test_an_alternate_no_entry_lists_is_reported_once_at_the_first_entry(tmp_path: Path) -> None:
    other = "https://example.com/en/other"
    result = _lint_entries(
        tmp_path,
        _cluster("https://example.com/de/start", ("de", "https://example.com/de/start")),
        _cluster(_EN, ("en", _EN), ("de", _DE)),
        _cluster(other, ("en", other), ("de", _DE)),  # names it too: no second finding
    )
    notes = [(f.line, f.message) for f in result.findings if f.code == "HL009"]
    assert len(notes) == 1
    assert notes[0][0] == 4  # the first entry naming it (one entry a line, from line 3)
    assert f'alternate {_DE} (hreflang="de") is the <loc> of no entry in this file' in (notes[0][1])


def test_an_alternate_listed_in_another_form_or_without_alternates_is_listed(
    tmp_path: Path,
) -> None:
    result = _lint_entries(
        tmp_path,
        _cluster(_EN, ("en", _EN), ("de", "https://EXAMPLE.com:443/de/./page")),
        "<url><loc>https://example.com/de/page</loc></url>\n",  # listed without alternates
    )
    codes = [f.code for f in result.findings]
    assert "HL009" not in codes and "HL006" in codes


def test_alternates_on_another_site_or_in_a_language_no_page_is_in_are_left_out(
    tmp_path: Path,
) -> None:
    result = _lint_entries(
        tmp_path,
        _cluster(_EN, ("en", _EN), ("de", "https://example.de/page"), ("fr", _FR)),
        _cluster("https://example.com/en/b", ("en", "https://example.com/en/b"), ("fr", _FR)),
    )
    assert "HL009" not in [f.code for f in result.findings]
    # Once the file lists a page in French, the French alternate must be listed too.
    result = _lint_entries(
        tmp_path,
        _cluster(_EN, ("en", _EN), ("fr", _FR)),
        _cluster(
            "https://example.com/fr/b",
            ("fr", "https://example.com/fr/b"),
            ("en", "https://example.com/en/b"),
        ),
        _cluster("https://example.com/en/b", ("en", "https://example.com/en/b")),
    )
    assert [f.line for f in result.findings if f.code == "HL009"] == [3]


def test_hl009_alone_sees_the_entries_without_alternates(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Selected alone, HL009 still knows the pages listed without alternates."""
    from tests.helpers import run_cli

    path = tmp_path / "sitemap.xml"
    path.write_text(
        _HEAD
        + _cluster(_EN, ("en", _EN), ("de", _DE))
        + _cluster("https://example.com/de/b", ("de", "https://example.com/de/b"))
        + _cluster("https://example.com/en/c", ("en", "https://example.com/en/c"), ("de", _C))
        + "<url><loc>https://example.com/de/page</loc></url>\n</urlset>\n",
        encoding="utf-8",
    )
    _status, out, _err = run_cli(["--isolated", "--select", "HL009", str(path)], capsys)
    assert out.count("HL009") == 1 and _C in out and _DE not in out
    _status, out, _err = run_cli(["--isolated", "--select", "HL009,HL006", str(path)], capsys)
    assert "HL006" in out and out.count("HL009") == 1


@pytest.mark.parametrize("fixture", ["HL006/fail.xml", "HL004/fail.xml", "HL007/fail.xml"])
def test_alternates_on_a_local_host_are_compared_as_on_a_public_one(
    tmp_path: Path, fixture: str
) -> None:
    """A URL on a host only a local network reaches (UR019) still names its page: a
    development build's sitemap gets the same hreflang findings as the deployed one."""
    text = (RULE_FIXTURES / fixture).read_text(encoding="utf-8")
    local = tmp_path / "local.xml"
    local.write_text(
        text.replace("https://www.example.com", "http://localhost:4000").replace(
            "https://example.com", "http://localhost:4000"
        ),
        encoding="utf-8",
    )
    public = [f.code for f in lint(RULE_FIXTURES / fixture).findings]
    on_localhost = [f.code for f in lint(local).findings if f.code != "UR019"]
    assert on_localhost == public
    assert any(code.startswith("HL") for code in public)

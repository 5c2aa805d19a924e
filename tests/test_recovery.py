"""Recovery after syntax errors: every planted defect is found at its place, and no
entry without a defect gains or loses a finding (hand-made cases and a property)."""

from __future__ import annotations

import gzip
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sitemap_lint.engine.checker import check_source
from sitemap_lint.finding import Finding
from sitemap_lint.formats import xml as xml_format
from sitemap_lint.inputs.reader import Source
from sitemap_lint.model import Node
from sitemap_lint.settings.options import Options
from tests.helpers import NOW, Draws, draws, engine

NS = "http://www.sitemaps.org/schemas/sitemap/0.9"
IMAGE_NS = "http://www.google.com/schemas/sitemap-image/1.1"
XHTML_NS = "http://www.w3.org/1999/xhtml"
HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n'


def check(data: bytes | str, name: str = "sitemap.xml") -> list[Finding]:
    raw = data.encode("utf-8") if isinstance(data, str) else data
    options = Options(now=NOW)
    return check_source(Source(name, None, data=raw), options, engine()).findings


def at(findings: list[Finding], code: str) -> list[tuple[int, int]]:
    return [(f.line, f.column) for f in findings if f.code == code]


def position(text: str, needle: str, occurrence: int = 1) -> tuple[int, int]:
    """1-based line and column of the ``occurrence``-th ``needle`` in ``text``."""
    index = -1
    for _ in range(occurrence):
        index = text.index(needle, index + 1)
    before = text[:index].replace("\r\n", "\n")
    line = before.count("\n") + 1
    return line, len(before) - (before.rfind("\n") + 1) + 1


def urlset(*entries: str, extensions: bool = False) -> str:
    declarations = f' xmlns:image="{IMAGE_NS}" xmlns:xhtml="{XHTML_NS}"' if extensions else ""
    body = "".join(f"  {entry}\n" for entry in entries)
    return f'{HEAD}<urlset xmlns="{NS}"{declarations}>\n{body}</urlset>\n'


def url(n: int, loc_tail: str = "", extra: str = "") -> str:
    return f"<url><loc>https://example.com/p{n}{loc_tail}</loc>{extra}</url>"


BAD_PRIORITY = "<priority>1.5</priority>"


# -- the new user's files: one per defect kind ----------------------------------------


def test_raw_ampersands_in_text_each_reported_and_the_rest_checked() -> None:
    text = urlset(
        url(1, "?a=1&b=2"),
        url(2),
        url(3, "?a=1&b=2&c=3"),
        url(4, "?x&y", BAD_PRIORITY),
        url(5),
        url(6, "", BAD_PRIORITY),
    )
    findings = check(text)
    assert at(findings, "XM004") == [
        position(text, "&b"),
        position(text, "&b", 2),
        position(text, "&c"),
        position(text, "&y"),
    ]
    assert at(findings, "VA003") == [
        position(text, "<priority>"),
        position(text, "<priority>", 2),
    ]
    assert {f.code for f in findings} == {"XM004", "VA003"}


def test_a_raw_ampersand_after_a_name_and_before_another() -> None:
    # "?flag&x=1&y": the parser stops at the second "&" of "&flag&x"; the first is the raw
    # one, and each is repaired in turn, so the entry is read whole.
    text = urlset(url(1, "?a&flag&x=1&y", BAD_PRIORITY), url(2), url(3, "", BAD_PRIORITY))
    findings = check(text)
    assert at(findings, "XM004") == [
        position(text, "&flag"),
        position(text, "&x"),
        position(text, "&y"),
    ]
    assert at(findings, "VA003") == [
        position(text, "<priority>"),
        position(text, "<priority>", 2),
    ]
    assert {f.code for f in findings} == {"XM004", "VA003"}


def test_raw_ampersand_in_an_attribute_value() -> None:
    link = '<xhtml:link rel="alternate" hreflang="de" href="https://example.com/de?a&b"/>'
    text = urlset(url(1, "", link), url(2, "", BAD_PRIORITY), extensions=True)
    findings = check(text)
    assert at(findings, "XM004") == [position(text, "&b")]
    assert at(findings, "VA003") == [position(text, "<priority>")]


def test_the_entry_is_read_as_written_after_a_raw_ampersand() -> None:
    # The entry's value keeps its '&': the duplicate with the next entry is found.
    text = urlset(url(1, "?a&b"), "<url><loc>https://example.com/p1?a&amp;b</loc></url>")
    findings = check(text)
    assert at(findings, "XM004") == [position(text, "&b")]
    assert any(f.code.startswith("DU") or "duplicate" in f.name for f in findings)


def test_html_entities_each_reported() -> None:
    text = urlset(url(1, "&nbsp;"), url(2, "/caf&eacute;"), url(3, "", BAD_PRIORITY))
    findings = check(text)
    assert at(findings, "XM006") == [position(text, "&nbsp;"), position(text, "&eacute;")]
    assert at(findings, "VA003") == [position(text, "<priority>")]


def test_control_characters_each_reported() -> None:
    text = urlset(url(1, "\x01"), url(2, "\x0b"), url(3, "", BAD_PRIORITY))
    findings = check(text)
    assert at(findings, "XM001") == [position(text, "\x01"), position(text, "\x0b")]
    assert at(findings, "VA003") == [position(text, "<priority>")]


def test_invalid_bytes_in_the_declared_encoding() -> None:
    text = urlset(url(1, "/caf\x00"), url(2, "", BAD_PRIORITY))
    data = text.encode("utf-8").replace(b"\x00", b"\xe9")
    findings = check(data)
    assert at(findings, "EN004") or [f for f in findings if f.code.startswith("EN")]
    (encoding,) = [f for f in findings if f.code.startswith("EN")]
    assert (encoding.line, encoding.column) == position(text, "\x00")
    assert at(findings, "VA003") == [position(text, "<priority>")]


def test_raw_less_than_resumes_at_the_next_entry() -> None:
    text = urlset(url(1, "?q=a<b"), url(2, "", BAD_PRIORITY), url(3, "?q=1 < 2"))
    findings = check(text)
    assert at(findings, "XM005") == [position(text, "<b"), position(text, "< 2")]
    assert at(findings, "VA003") == [position(text, "<priority>")]


def test_mismatched_end_tags() -> None:
    entries = [
        "<url><loc>https://example.com/1</lco></url>",
        url(2, "", BAD_PRIORITY),
        "<url><loc>https://example.com/3</loc></ulr>",
        url(4, "", BAD_PRIORITY),
    ]
    text = urlset(*entries)
    findings = check(text)
    assert at(findings, "XM001") == [position(text, "</lco>"), position(text, "</ulr>")]
    assert at(findings, "VA003") == [
        position(text, "<priority>"),
        position(text, "<priority>", 2),
    ]


def test_missing_end_tags_are_reported_at_the_start_tag() -> None:
    entries = [
        "<url><loc>https://example.com/1</url>",  # </loc> missing
        url(2, "", BAD_PRIORITY),
        "<url><loc>https://example.com/3</loc>",  # </url> missing: the next <url> inside it
        url(4, "", BAD_PRIORITY),
        url(5),
        "<url><loc>https://example.com/6</loc>" + BAD_PRIORITY,  # </url> missing at the end
    ]
    text = urlset(*entries)
    findings = check(text)
    assert at(findings, "XM001") == [
        position(text, "<loc>"),
        position(text, "<url>", 3),
        position(text, "<url>", 6),
    ]
    # Entries 3 and 6 are complete but for their end tag: their fields are checked.
    assert at(findings, "VA003") == [
        position(text, "<priority>"),
        position(text, "<priority>", 2),
        position(text, "<priority>", 3),
    ]
    messages = [f.message for f in findings if f.code == "XM001"]
    assert "</loc> is missing" in messages[0] and "</url> is missing" in messages[1]


def test_well_formed_nested_entries_are_not_a_syntax_error() -> None:
    text = urlset(
        "<url><loc>https://example.com/1</loc><url><loc>https://example.com/2</loc></url></url>"
    )
    assert not [f for f in check(text) if f.code.startswith("XM")]


def test_stray_end_tag() -> None:
    text = urlset(url(1) + "</url>", url(2, "", BAD_PRIORITY))
    findings = check(text)
    assert at(findings, "XM001") == [position(text, "</url>", 2)]
    assert at(findings, "VA003") == [position(text, "<priority>")]


def test_element_never_closed_inside_an_entry() -> None:
    text = urlset(
        "<url><loc>https://example.com/1</loc><lastmod>2024-01-01</url>",
        url(2, "", BAD_PRIORITY),
    )
    findings = check(text)
    assert at(findings, "XM001") == [position(text, "<lastmod>")]
    assert at(findings, "VA003") == [position(text, "<priority>")]


def test_unquoted_and_duplicated_attributes() -> None:
    text = urlset(
        "<url id=3><loc>https://example.com/1</loc></url>",
        url(2, "", BAD_PRIORITY),
        '<url><loc a="1" a="2">https://example.com/3</loc></url>',
        url(4, "", BAD_PRIORITY),
    )
    findings = check(text)
    assert at(findings, "XM011") == [position(text, "3>")]
    assert at(findings, "XM001") == [position(text, 'a="2"')]
    assert len(at(findings, "VA003")) == 2


def test_double_hyphen_in_a_comment() -> None:
    text = urlset(
        "<url><!-- old -- new --><loc>https://example.com/1</loc></url>",
        url(2, "", BAD_PRIORITY),
    )
    findings = check(text)
    assert at(findings, "XM001") == [position(text, "-- new")]  # at the '--', as xmllint
    assert at(findings, "VA003") == [position(text, "<priority>")]


def test_truncated_download_reports_its_entries_and_its_end() -> None:
    text = urlset(url(1, "", BAD_PRIORITY), url(2, "?a&b"), url(3))
    cut = text[: text.index("/p3") + 3]
    findings = check(cut)
    assert at(findings, "VA003") == [position(text, "<priority>")]
    assert at(findings, "XM004") == [position(text, "&b")]
    assert len(at(findings, "XM008")) == 1


def test_truncated_after_a_structural_error_says_which_lines_were_skipped() -> None:
    text = urlset(url(1, "", BAD_PRIORITY), "<url><loc>x</lco></url>") + "\n" * 3
    cut = text[: text.index("</urlset>")] + "  <lost>cut</lost>\n" * 3
    findings = check(cut)
    assert at(findings, "XM001")[0] == position(text, "</lco>")
    skipped = [f for f in findings if f.code == "XM001" and "skipped after" in f.message]
    assert len(skipped) == 1 and "lines 5-7" in skipped[0].message
    assert len(at(findings, "XM008")) == 1


def test_skipped_lines_are_named() -> None:
    entries = [
        "<url>\n    <loc>https://example.com/1</lco>\n    <priority>0.5</priority>\n"
        "    <changefreq>daily</changefreq>\n  </url>",
        url(2, "", BAD_PRIORITY),
    ]
    text = urlset(*entries)
    findings = check(text)
    error, skipped = [f for f in findings if f.code == "XM001"]
    assert (error.line, error.column) == position(text, "</lco>")
    assert (skipped.line, skipped.column) == (5, 1)
    assert "lines 5-7" in skipped.message and "line 8" in skipped.message
    assert at(findings, "VA003") == [position(text, "<priority>", 2)]


def test_crlf_file() -> None:
    text = urlset(url(1, "?a&b"), "<url><loc>x</lco></url>", url(3, "", BAD_PRIORITY))
    crlf = text.replace("\n", "\r\n")
    findings = check(crlf)
    assert at(findings, "XM004") == [position(text, "&b")]
    assert at(findings, "XM001") == [position(text, "</lco>")]
    assert at(findings, "VA003") == [position(text, "<priority>")]


def test_gzip_file() -> None:
    text = urlset(url(1, "&nbsp;"), "<url><loc>x</lco></url>", url(3, "", BAD_PRIORITY))
    findings = check(gzip.compress(text.encode()), "sitemap.xml.gz")
    assert at(findings, "XM006") == [position(text, "&nbsp;")]
    assert at(findings, "XM001") == [position(text, "</lco>")]
    assert at(findings, "VA003") == [position(text, "<priority>")]


def test_minified_one_line_sitemap() -> None:
    entries = [url(1, "?a&b"), url(2, "", BAD_PRIORITY), "<url><loc>x</lco></url>", url(4)]
    text = (
        f'{HEAD}<urlset xmlns="{NS}">' + "".join(entries) + url(5, "", BAD_PRIORITY) + "</urlset>"
    )
    findings = check(text)
    assert at(findings, "XM004") == [position(text, "&b")]
    assert at(findings, "XM001") == [position(text, "</lco>")]
    assert at(findings, "VA003") == [
        position(text, "<priority>"),
        position(text, "<priority>", 2),
    ]
    xpaths = [f.xpath for f in findings if f.code == "VA003"]
    assert xpaths == ["/urlset/url[2]/priority", "/urlset/url[5]/priority"]


def test_sitemap_index() -> None:
    text = (
        f'{HEAD}<sitemapindex xmlns="{NS}">\n'
        "  <sitemap><loc>https://example.com/a.xml?x&y</loc></sitemap>\n"
        "  <sitemap><loc>https://example.com/b.xml</lco></sitemap>\n"
        "  <sitemap><loc>https://example.com/c.xml</loc><lastmod>yesterday</lastmod></sitemap>\n"
        "</sitemapindex>\n"
    )
    findings = check(text)
    assert at(findings, "XM004") == [position(text, "&y")]
    assert at(findings, "XM001") == [position(text, "</lco>")]
    (lastmod,) = [f for f in findings if f.line == 5 and not f.code.startswith("XM")]
    assert lastmod.xpath == "/sitemapindex/sitemap[3]/lastmod"


def test_prefixed_root_and_entries() -> None:
    text = (
        f'{HEAD}<s:urlset xmlns:s="{NS}">\n'
        "  <s:url><s:loc>https://example.com/1</s:lco></s:url>\n"
        "  <s:url><s:loc>https://example.com/2?a&b</s:loc><s:priority>7</s:priority></s:url>\n"
        "</s:urlset>\n"
    )
    findings = check(text)
    assert at(findings, "XM001") == [position(text, "</s:lco>")]
    assert at(findings, "XM004") == [position(text, "&b")]
    (priority,) = [f for f in findings if f.code == "VA003"]
    assert (priority.line, priority.column, priority.xpath) == (
        *position(text, "<s:priority>"),
        "/s:urlset/s:url[2]/s:priority",
    )


def test_errors_before_the_root_still_stop_the_check() -> None:
    text = HEAD + f'<urlset xmlns="{NS}" a="1" a="2">\n' + "  " + url(1, "?a&b") + "\n</urlset>\n"
    findings = check(text)
    assert [f.code for f in findings if f.code.startswith("XM")] == ["XM001"]


def test_the_number_of_syntax_errors_is_capped(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(xml_format, "MAX_SYNTAX_ERRORS", 5)
    text = urlset(*(url(n, "?a&b") for n in range(20)))
    findings = check(text)
    assert len(at(findings, "XM004")) == 5
    (last,) = [f for f in findings if f.code == "XM001"]
    assert "rest of the file was not read" in last.message


def test_a_syntax_error_in_every_entry_of_a_large_file() -> None:
    # Far more than one parse block (1 MB): positions stay right across blocks.
    count = 9_000
    text = urlset(*(url(n, "/" + "x" * 100 + "?a&b") for n in range(count)))
    assert len(text) > 1 << 20
    findings = check(text)
    amps = at(findings, "XM004")
    assert len(amps) == count
    assert amps[-1] == position(text, "&b", count)


# -- the property: no invented errors --------------------------------------------------


@dataclass(frozen=True)
class Plant:
    """A defect put into an entry: the entry's text changed, and where it is."""

    kind: str
    before: str  # replaced in the entry's text (its first occurrence)
    after: str
    needle: str  # the defect's position: the first occurrence of this in ``after``...
    offset: int = 0  # ...plus this many characters
    codes: tuple[str, ...] = ("XM001",)
    exact: bool = True  # reported exactly there (else: on that line)


PLANTS = (
    Plant("raw &", "</loc>", "?a=1&b=2</loc>", "&b", codes=("XM004",)),
    Plant("raw & in attribute", "<url>", '<url data="a&b">', "&b", codes=("XM004",)),
    Plant("&nbsp;", "</loc>", "&nbsp;</loc>", "&nbsp;", codes=("XM006",)),
    Plant("&eacute;", "</loc>", "/caf&eacute;</loc>", "&eacute;", codes=("XM006",)),
    Plant("control character", "</loc>", "\x01</loc>", "\x01"),
    Plant("U+FFFF", "</loc>", "\uffff</loc>", "\uffff"),
    Plant("raw <", "</loc>", "?q=a<b</loc>", "<b", codes=("XM005",)),
    Plant("raw < alone", "</loc>", "?q=1 < 2</loc>", "< 2", codes=("XM005",)),
    Plant("mismatched end tag", "</loc>", "</lco>", "</lco>"),
    Plant("missing </loc>", "</loc>", "", "<loc>"),
    Plant("missing end tag of the entry", "</url>", "", "<url>"),
    Plant("stray end tag", "</url>", "</url></url>", "</url>", 6),
    Plant("unquoted attribute", "<url>", "<url a=b>", "b>", codes=("XM011",)),
    Plant("duplicated attribute", "<loc>", '<loc a="1" a="2">', 'a="2"'),
    Plant("-- in a comment", "<url>", "<url><!-- a -- b -->", " b", exact=False),
)


def render(index: int, fields: tuple[int, int, bool], root: str, layout: str) -> str:
    priority, lastmod, extension = fields
    entry = "url" if root == "urlset" else "sitemap"
    sep = "\n    " if layout == "lines" else ""
    parts = [f"<loc>https://example.com/{entry}{index}</loc>"]
    if lastmod:
        parts.append(f"<lastmod>2024-01-{lastmod:02d}</lastmod>")
    if root == "urlset" and priority:
        parts.append(f"<priority>{(0.5, 1.5, 7)[priority - 1]}</priority>")
    if root == "urlset" and extension:
        parts.append(
            f"<image:image><image:loc>https://example.com/i{index}.jpg</image:loc></image:image>"
        )
    return (
        f"<{entry}>{sep}" + sep.join(parts) + ("\n  " if layout == "lines" else "") + f"</{entry}>"
    )


def document(entries: list[str], root: str, layout: str) -> str:
    declarations = f' xmlns:image="{IMAGE_NS}"' if root == "urlset" else ""
    newline = "\n" if layout == "lines" else ""
    inner = "".join(f"{'  ' if layout == 'lines' else ''}{e}{newline}" for e in entries)
    return f'{HEAD}<{root} xmlns="{NS}"{declarations}>{newline}{inner}</{root}>\n'


def by_entry(findings: list[Finding], root: str) -> dict[int, list[tuple[str, str, str]]]:
    entry = "url" if root == "urlset" else "sitemap"
    grouped: dict[int, list[tuple[str, str, str]]] = {}
    for f in findings:
        if f.xpath and f.xpath.startswith(f"/{root}/{entry}["):
            number = int(f.xpath.split("[", 1)[1].split("]", 1)[0])
            grouped.setdefault(number, []).append((f.code, f.message, f.xpath))
    return {k: sorted(v) for k, v in grouped.items()}


@pytest.mark.parametrize(
    "draws", draws(25, 125, settings(deadline=None, suppress_health_check=[HealthCheck.too_slow]))
)
def test_a_planted_defect_changes_no_other_entry(draws: Draws) -> None:
    @draws
    @given(
        fields=st.lists(
            st.tuples(st.integers(0, 3), st.integers(0, 28), st.booleans()), min_size=1, max_size=6
        ),
        data=st.data(),
        root=st.sampled_from(["urlset", "sitemapindex"]),
        layout=st.sampled_from(["lines", "minified"]),
        newline=st.sampled_from(["\n", "\r\n"]),
        packed=st.booleans(),
        plant=st.sampled_from(PLANTS),
    )
    def planted_defect(
        fields: list[tuple[int, int, bool]],
        data: st.DataObject,
        root: str,
        layout: str,
        newline: str,
        packed: bool,
        plant: Plant,
    ) -> None:
        k = data.draw(st.integers(0, len(fields) - 1), label="k")
        entries = [render(i, f, root, layout) for i, f in enumerate(fields)]
        if plant.before == "<url>" and root != "urlset":
            plant = Plant(
                plant.kind,
                "<sitemap>",
                plant.after.replace("url", "sitemap"),
                plant.needle,
                plant.offset,
                plant.codes,
                plant.exact,
            )
        if plant.before == "</url>" and root != "urlset":
            after = plant.after.replace("url", "sitemap")
            needle = plant.needle.replace("url", "sitemap")
            offset = len("</sitemap>") if plant.offset else 0
            plant = Plant(plant.kind, "</sitemap>", after, needle, offset, plant.codes, plant.exact)
        if plant.needle == "<url>" and root != "urlset":
            plant = Plant(
                plant.kind, plant.before, plant.after, "<sitemap>", plant.offset, plant.codes
            )
        planted_entries = list(entries)
        planted_entries[k] = entries[k].replace(plant.before, plant.after, 1)
        clean = document(entries, root, layout)
        planted = document(planted_entries, root, layout)
        entry_start = planted.index(planted_entries[k])
        if plant.needle in ("<url>", "<sitemap>"):
            defect = entry_start  # the entry's own start tag
        else:
            changed = planted_entries[k].find(plant.after) if plant.after else 0
            defect = entry_start + planted_entries[k].index(plant.needle, changed) + plant.offset
        line, column = position(planted[:defect] + "\0", "\0")

        def run(text: str) -> list[Finding]:
            raw = text.replace("\n", newline).encode("utf-8")
            return check(gzip.compress(raw) if packed else raw, "s.xml.gz" if packed else "s.xml")

        clean_findings = run(clean)
        planted_findings = run(planted)
        before, after = by_entry(clean_findings, root), by_entry(planted_findings, root)
        for number in range(1, len(entries) + 1):
            if number != k + 1:
                assert after.get(number, []) == before.get(number, []), number
        syntax = [f for f in planted_findings if f.code.startswith("XM")]
        assert any(
            f.code in plant.codes and f.line == line and (f.column == column or not plant.exact)
            for f in syntax
        ), (plant.kind, line, column, syntax)
        # Nothing else outside the damaged entry.
        others = [f for f in planted_findings if not f.xpath and not f.code.startswith("XM")]
        assert sorted((f.code, f.message) for f in others) == sorted(
            (f.code, f.message)
            for f in clean_findings
            if not f.xpath and not f.code.startswith("XM")
        )

    planted_defect()


@pytest.mark.parametrize("plant", PLANTS, ids=[p.kind for p in PLANTS])
def test_each_plant_in_a_truncated_file(plant: Plant) -> None:
    entries = [url(1, "", BAD_PRIORITY), url(2).replace(plant.before, plant.after, 1), url(3)]
    text = urlset(*entries)
    cut = text[: text.index("/p3")]
    findings = check(cut)
    assert at(findings, "VA003") == [position(text, "<priority>")]
    assert len(at(findings, "XM008")) == 1


# -- the README's examples of the text report are its real output ------------------------

README_HEADS = {
    # By the number of lines an example shows: the lines before its first, after its last.
    2: (
        f'{HEAD}<urlset xmlns="{NS}">\n  <url>\n',
        "  </url>\n</urlset>\n",
    ),
    5: (
        f'{HEAD}<urlset xmlns="{NS}">\n  <url><loc>https://example.com/</loc></url>\n',
        "</urlset>\n",
    ),
}


def readme_examples() -> list[str]:
    from tests.helpers import ROOT

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return re.findall(r"```text\n\$ sitemap-lint sitemap\.xml\n(.*?)```", text, re.S)


def test_the_readme_shows_two_text_reports_with_source() -> None:
    assert len(readme_examples()) == 2


@pytest.mark.parametrize("index", [0, 1])
def test_a_readme_text_report_is_the_real_output(
    index: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from sitemap_lint import cli

    shown = readme_examples()[index]
    lines = {int(n): line for n, line in re.findall(r"^ +(\d+) \| (.*)$", shown, re.M)}
    assert sorted(lines) == list(range(4, 4 + len(lines)))  # lines 4.. in a row
    head, tail = README_HEADS[len(lines)]
    body = "".join(f"{lines[n]}\n" for n in sorted(lines))
    (tmp_path / "sitemap.xml").write_text(head + body + tail, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "200")
    capsys.readouterr()
    cli.main(["--isolated", "--now", NOW, "sitemap.xml"])
    assert capsys.readouterr().out == shown


@pytest.mark.parametrize(
    "damaged",
    [
        url(1).replace("</loc>", "</lco>") + "x" * 600,  # skipped up to the next entry
        '<url><loc>https://example.com/p1</loc><lastmod a="1" a="2">x</lastmod>'
        + "<!-- padding -->" * 30
        + "</url>",
        "<url><loc>https://example.com/p1</loc><x:y/>" + "y" * 300 + "</url>",
    ],
)
def test_resuming_across_blocks_shorter_than_the_search_keeps(monkeypatch, damaged) -> None:
    """The text skipped while the parser looks for a place to resume stays within
    reach however short the blocks are (the search keeps the last 256 bytes)."""
    text = urlset(damaged, url(2), url(2))
    whole = [(f.code, f.line, f.column) for f in check(text)]
    assert ("DU001", 5, 8) in whole  # the entries after the damage are read
    from sitemap_lint.engine import checker

    for size in (8, 33, 63, 200):

        def blocks(texts: object, _size: int = 0, size: int = size) -> object:
            joined = "".join(texts)  # type: ignore[arg-type]
            return (joined[at : at + size] for at in range(0, len(joined), size))

        monkeypatch.setattr(checker, "_blocks", blocks)
        assert [(f.code, f.line, f.column) for f in check(text)] == whole


class _Entries:
    """A reader's handler that keeps the entries it hands over and ignores the rest."""

    def __init__(self) -> None:
        self.entries: list[Node] = []

    def on_entry(self, entry: Node) -> None:
        self.entries.append(entry)

    def __getattr__(self, name: str) -> Any:
        return lambda *args: None


@pytest.mark.parametrize("before", ["", "a > b "])
def test_a_long_entry_read_on_after_a_defect_keeps_the_whole_text(before: str) -> None:
    parser = xml_format.StreamParser(_Entries())  # type: ignore[arg-type]
    handler = parser.handler
    assert isinstance(handler, _Entries)
    parser.feed(HEAD + f'<urlset xmlns="{NS}">\n')
    parser.set_entries(Node(NS, "urlset", {}, 2, 1), "url")
    text = "c" * 70_000 + before
    parser.feed(f"<url><loc>https://example.com/</loc><note>{text}&x</note><lastmod/></url>")
    parser.feed("</urlset>\n")
    parser.close()
    (entry,) = handler.entries
    assert [child.name for child in entry.children] == ["loc", "note", "lastmod"]
    assert entry.children[1].text == text + "&x"

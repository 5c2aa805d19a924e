"""The element pointer of a finding: XPath-like, 1-based, with the document's prefixes;
in the JSON report (``xpath``), in SARIF (``logicalLocations``) and in the text report
when a line holds more than one entry."""

from __future__ import annotations

import io
import json
from pathlib import Path

from sitemap_lint.finding import Finding
from sitemap_lint.run import RunSettings, execute
from tests.helpers import NOW, run_json
from tests.test_recovery import HEAD, IMAGE_NS, NS, check


def pointers(text: str) -> list[tuple[str, str | None]]:
    return [(f.code, f.xpath) for f in check(text)]


def test_an_entry_field() -> None:
    entries = "".join(f"  <url><loc>https://example.com/{n}</loc></url>\n" for n in range(1, 6))
    text = (
        f'{HEAD}<urlset xmlns="{NS}">\n{entries}'
        "  <url><loc>https://example.com/6</loc><priority>1.5</priority></url>\n</urlset>\n"
    )
    assert pointers(text) == [("VA003", "/urlset/url[6]/priority")]


def test_an_extension_with_the_documents_prefix() -> None:
    text = (
        f'{HEAD}<urlset xmlns="{NS}" xmlns:img="{IMAGE_NS}">\n'
        "  <url><loc>https://example.com/1</loc></url>\n"
        "  <url><loc>https://example.com/2</loc>\n"
        "    <img:image><img:loc>https://example.com/a.jpg</img:loc></img:image>\n"
        "    <img:image><img:loc>/relative.jpg</img:loc></img:image>\n"
        "  </url>\n</urlset>\n"
    )
    found = [f for f in check(text) if f.line == 6]
    assert found and {f.xpath for f in found} == {"/urlset/url[2]/img:image[2]/img:loc"}


def test_a_sitemap_index() -> None:
    entries = "".join(
        f"  <sitemap><loc>https://example.com/s{n}.xml</loc></sitemap>\n" for n in (1, 2)
    )
    text = (
        f'{HEAD}<sitemapindex xmlns="{NS}">\n{entries}'
        "  <sitemap><loc>https://example.com/s3.xml</loc><lastmod>soon</lastmod></sitemap>\n"
        "</sitemapindex>\n"
    )
    found = [f for f in check(text) if f.line == 5]
    assert found and {f.xpath for f in found} == {"/sitemapindex/sitemap[3]/lastmod"}


def test_a_schema_error_names_its_element() -> None:
    text = (
        f'{HEAD}<urlset xmlns="{NS}">\n'
        "  <url><loc>https://example.com/1</loc></url>\n"
        "  <url><loc>https://example.com/2</loc><color>red</color></url>\n</urlset>\n"
    )
    (finding,) = check(text)
    assert finding.xpath == "/urlset/url[2]/color"


def test_the_pointer_takes_no_part_in_comparison() -> None:
    a = Finding("X", "x", 3, "m", 1, 1, xpath="/urlset/url[1]")  # type: ignore[arg-type]
    assert a == Finding("X", "x", 3, "m", 1, 1)  # type: ignore[arg-type]


MINIFIED = (
    f'{HEAD}<urlset xmlns="{NS}">'
    + "".join(f"<url><loc>https://example.com/page/{n}</loc></url>" for n in range(1, 5))
    + "<url><loc>https://example.com/page/5</loc><priority>9</priority></url></urlset>\n"
)


def test_json_and_sarif(tmp_path: Path) -> None:
    path = tmp_path / "sitemap.xml"
    path.write_text(MINIFIED, encoding="utf-8")
    _status, report = run_json([str(path)])
    (finding,) = report["files"][0]["findings"]
    assert finding["xpath"] == "/urlset/url[5]/priority"
    out = io.StringIO()
    run = RunSettings(paths=[str(path)], format="sarif", now=NOW.date().isoformat(), isolated=True)
    execute(run, out=out, err=io.StringIO())
    (result,) = json.loads(out.getvalue())["runs"][0]["results"]
    assert result["locations"][0]["logicalLocations"] == [
        {"fullyQualifiedName": "/urlset/url[5]/priority", "kind": "element"}
    ]


def test_json_omits_the_key_without_an_element(tmp_path: Path) -> None:
    path = tmp_path / "sitemap.xml"
    path.write_text(f'{HEAD}<urlset xmlns="{NS}">\n</urlset>\n', encoding="utf-8")
    _status, report = run_json([str(path)])
    assert report["files"][0]["findings"]
    assert all("xpath" not in f for f in report["files"][0]["findings"])


def text_report(path: Path) -> str:
    out = io.StringIO()
    run = RunSettings(paths=[str(path)], now=NOW.date().isoformat(), isolated=True)
    execute(run, out=out, err=io.StringIO())
    return out.getvalue()


def test_text_report_shows_the_pointer_on_a_line_with_several_entries(tmp_path: Path) -> None:
    path = tmp_path / "sitemap.xml"
    path.write_text(MINIFIED, encoding="utf-8")
    assert "at /urlset/url[5]/priority" in text_report(path)
    lines = MINIFIED.replace("<url>", "\n<url>")
    path.write_text(lines, encoding="utf-8")
    assert "at /urlset/url[5]/priority" not in text_report(path)


def test_an_element_written_as_an_entry_in_another_namespace_is_named_by_its_place() -> None:
    lookalike = NS.replace("http://", "https://")
    text = (
        f'{HEAD}<urlset xmlns="{NS}">\n'
        "  <url><loc>https://example.com/1</loc></url>\n"
        f'  <url xmlns="{lookalike}"><loc>https://example.com/2</loc></url>\n'
        '  <url xmlns=""><loc>https://example.com/3</loc></url>\n'
        "  <url><loc>https://example.com/4</loc><lastmod>soon</lastmod></url>\n</urlset>\n"
    )
    found = {(f.line, f.xpath) for f in check(text)}
    assert (4, "/urlset/*[2]") in found
    assert (5, "/urlset/*[3]") in found
    assert (6, "/urlset/url[2]/lastmod") in found  # the second sitemap entry


def test_a_prefixed_root_and_its_unprefixed_children() -> None:
    text = (
        f'{HEAD}<sm:urlset xmlns:sm="{NS}">\n'
        "  <sm:url><loc>https://example.com/1</loc></sm:url>\n"
        "  <url><loc>https://example.com/2</loc></url>\n</sm:urlset>\n"
    )
    found = {f.xpath for f in check(text) if f.line == 4}
    assert found == {"/sm:urlset/url[1]"}

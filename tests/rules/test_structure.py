"""Structure family: each rule's failing fixtures give exactly the expected finding; passing ones none."""

from __future__ import annotations

from pathlib import Path

import pytest

from sitemap_lint.rules import structure
from tests.helpers import Case, check_case, check_pass, found, lint

SITEMAP = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
IMAGE = 'xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"'

CASES = [
    # ST001 unknown-root
    Case("ST001", "fail.xml", line=2),  # <urls>
    Case("ST001", "fail-case.xml", line=2),  # <URLSet>
    Case("ST001", "fail-index-case.xml", line=3),  # <sitemapIndex>
    # ST002 missing-loc
    Case("ST002", "fail.xml", line=6),  # url with lastmod and changefreq only
    Case("ST002", "fail-sitemap.xml", line=6),  # index entry with lastmod only
    Case("ST002", "fail-empty-entry.xml", line=6),  # <url/>
    Case("ST002", "fail-extension-only.xml", line=4),  # only an image:image
    # ST003 repeated-child
    Case("ST003", "fail.xml", line=5),  # two loc
    Case("ST003", "fail-lastmod.xml", line=6),
    Case("ST003", "fail-priority.xml", line=7),
    Case("ST003", "fail-sitemap.xml", line=5),  # two loc in an index entry
    Case("ST003", "fail-changefreq-after-extension.xml", line=10),
    # ST004 unknown-element
    Case("ST004", "fail.xml", line=5),  # <changefrec>
    Case("ST004", "fail-case-loc.xml", line=4),  # <Loc>: not also "missing loc"
    Case("ST004", "fail-case-lastmod.xml", line=5),  # <lastMod>
    Case("ST004", "fail-image-prefix.xml", line=5),  # <image> without prefix
    Case("ST004", "fail-index-changefreq.xml", line=6),  # changefreq in a sitemap entry
    Case("ST004", "fail-loc-in-urlset.xml", line=6),  # loc directly in urlset
    Case("ST004", "fail-unknown.xml", line=5),  # <title>
    Case("ST004", "fail-nested-url.xml", line=5),  # url inside url
    # ST005 child-order
    Case("ST005", "fail.xml", line=5),  # lastmod before loc
    Case("ST005", "fail-priority-first.xml", line=6),
    Case("ST005", "fail-after-extension.xml", line=8),  # loc after image:image
    Case("ST005", "fail-lastmod-after-extension.xml", line=9),
    Case("ST005", "fail-sitemap.xml", line=5),  # lastmod before loc in an index
    # ST006 empty-value
    Case("ST006", "fail.xml", line=5),  # <lastmod/>
    Case("ST006", "fail-loc.xml", line=7),  # <loc></loc>
    Case("ST006", "fail-whitespace.xml", line=5),  # changefreq with only whitespace
    Case("ST006", "fail-priority.xml", line=5),
    Case("ST006", "fail-sitemap-loc.xml", line=4),
    # ST007 misplaced-entry
    Case("ST007", "fail.xml", line=6),  # url in a sitemapindex
    Case("ST007", "fail-sitemap-in-urlset.xml", line=6),
    # ST008 no-entries
    Case("ST008", "fail.xml", line=2),
    Case("ST008", "fail-self-closing.xml", line=2),
    Case("ST008", "fail-index.xml", line=2),
    # ST009 unexpected-content
    Case("ST009", "fail.xml", line=6),  # text on its own line between entries
    Case("ST009", "fail-between-entries.xml", line=3),  # "," between two entries
    Case("ST009", "fail-trailing-text.xml", line=6),  # text after the last entry
    Case("ST009", "fail-text-in-url.xml", line=3),
    Case("ST009", "fail-url-only-text.xml", line=6),  # <url>URL</url>: not also ST002
    Case("ST009", "fail-element-in-loc.xml", line=4),
    # ST010 unexpected-attribute
    Case("ST010", "fail.xml", line=3),  # on url
    Case("ST010", "fail-loc.xml", line=4),
    Case("ST010", "fail-urlset.xml", line=2),  # next to an allowed xsi:schemaLocation
    Case("ST010", "fail-sitemap.xml", line=5),  # on an index entry's lastmod
    # ST011 nesting-too-deep: 40 levels of x:node. The namespace has no schema, so
    # NS003 is a separate, unavoidable finding (it shows with one level too).
    Case("ST011", "fail.xml", line=6, also=(("NS003", 6),)),
    # image:caption nested 40 deep; the deprecated caption is a separate (info) finding
    Case("ST011", "fail-known-namespace.xml", line=8, also=(("IM004", 8),)),
]


@pytest.mark.parametrize("case", CASES, ids=str)
def test_failing_fixture(case: Case) -> None:
    check_case(case)


@pytest.mark.parametrize("code", [rule.code for rule in structure.RULES])
def test_passing_fixture(code: str) -> None:
    check_pass(code)


def _messages(path: Path) -> list[str]:
    return [f.message for f in lint(path).findings]


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "sitemap.xml"
    path.write_text(text, encoding="utf-8")
    return path


def _case_path(code: str, fixture: str) -> Path:
    return Case(code, fixture, 0).path


# -- messages that promise a fix ---------------------------------------------------


def test_unknown_root_suggests_the_right_root() -> None:
    (message,) = _messages(_case_path("ST001", "fail.xml"))
    assert "<urls>" in message and "did you mean <urlset>?" in message


def test_unknown_root_case_hint() -> None:
    (message,) = _messages(_case_path("ST001", "fail-case.xml"))
    assert "did you mean <urlset>? names are case-sensitive" in message


def test_unknown_element_did_you_mean() -> None:
    (message,) = _messages(_case_path("ST004", "fail.xml"))
    assert "did you mean <changefreq>?" in message


def test_unknown_element_case_hint() -> None:
    (message,) = _messages(_case_path("ST004", "fail-case-loc.xml"))
    assert "did you mean <loc>? names are case-sensitive" in message


def test_unprefixed_extension_names_namespace() -> None:
    (message,) = _messages(_case_path("ST004", "fail-image-prefix.xml"))
    assert "<image:image>" in message
    assert 'xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"' in message


def test_changefreq_in_index_entry_says_remove() -> None:
    (message,) = _messages(_case_path("ST004", "fail-index-changefreq.xml"))
    assert "sitemap index entry" in message and "remove it" in message


def test_text_only_url_shows_the_loc_to_write() -> None:
    (message,) = _messages(_case_path("ST009", "fail-url-only-text.xml"))
    assert "<url><loc>https://example.com/about</loc></url>" in message


def test_attribute_message_names_the_attribute() -> None:
    (message,) = _messages(_case_path("ST010", "fail-loc.xml"))
    assert 'remove type="page"' in message


def test_order_message_names_the_order() -> None:
    (message,) = _messages(_case_path("ST005", "fail.xml"))
    assert "<loc>, <lastmod>, <changefreq>, <priority>" in message


# -- one defect, one finding; other defects still found ----------------------------


def test_attribute_on_url_does_not_hide_extension_errors(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        f"""<?xml version="1.0" encoding="UTF-8"?>
<urlset {SITEMAP} {IMAGE}>
  <url id="a">
    <loc>https://example.com/a</loc>
    <image:image><image:loc>https://example.com/a.jpg</image:loc><image:loc>https://example.com/b.jpg</image:loc></image:image>
  </url>
</urlset>
""",
    )
    assert found(lint(path)) == [("ST010", 3), ("XS001", 5)]


def test_text_in_url_does_not_hide_extension_errors(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        f"""<?xml version="1.0" encoding="UTF-8"?>
<urlset {SITEMAP} {IMAGE}>
  <url>
    <loc>https://example.com/a</loc> stray
    <image:image><image:loc>https://example.com/a.jpg</image:loc><image:loc>https://example.com/b.jpg</image:loc></image:image>
  </url>
</urlset>
""",
    )
    assert found(lint(path)) == [("ST009", 3), ("XS001", 5)]


def test_order_finding_covers_where_the_schema_sequence_breaks(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        f"""<?xml version="1.0" encoding="UTF-8"?>
<urlset {SITEMAP}>
  <url>
    <changefreq>daily</changefreq>
    <lastmod>2025-05-20</lastmod>
    <loc>https://example.com/a</loc>
  </url>
</urlset>
""",
    )
    codes = [code for code, _line in found(lint(path))]
    assert "XS001" not in codes
    assert codes.count("ST005") == 2  # lastmod after changefreq, loc last


def test_too_deep_is_reported_once_and_fast(tmp_path: Path) -> None:
    depth = 100_000
    path = _write(
        tmp_path,
        f"""<?xml version="1.0" encoding="UTF-8"?>
<urlset {SITEMAP} xmlns:x="https://example.com/schemas/tree">
  <url><loc>https://example.com/</loc>{"<x:n>" * depth}{"</x:n>" * depth}</url>
  <url><loc>https://example.com/a</loc><lastmod/></url>
</urlset>
""",
    )
    result = lint(path)
    # Once, and the entries after it are still checked.
    assert found(result) == [("NS003", 3), ("ST011", 3), ("ST006", 4)]

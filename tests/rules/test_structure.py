"""Structure family: each rule's failing fixtures give exactly the expected finding; passing ones none."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import fixture, found, lint, write

SITEMAP = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
IMAGE = 'xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"'


def _messages(path: Path) -> list[str]:
    return [f.message for f in lint(path).findings]


# -- messages that promise a fix ---------------------------------------------------


def test_unknown_root_suggests_the_right_root() -> None:
    (message,) = _messages(fixture("ST001/fail.xml"))
    assert "<urls>" in message and "did you mean <urlset>?" in message


def test_unknown_root_case_hint() -> None:
    (message,) = _messages(fixture("ST001/fail-case.xml"))
    assert "did you mean <urlset>? names are case-sensitive" in message


@pytest.mark.parametrize(
    ("name", "entry", "root"),
    [
        ("ST001/fail-entry-root.xml", "url", "urlset"),
        ("ST001/fail-index-entry-root.xml", "sitemap", "sitemapindex"),
    ],
)
def test_an_entry_as_root_says_the_root_start_tag_is_missing(
    name: str, entry: str, root: str
) -> None:
    """A file that starts with its first entry lost the root's start tag: renaming the
    entry would lose it, and the entries after it are no content to remove (no XM007)."""
    findings = lint(fixture(name)).findings
    assert [f.code for f in findings] == ["ST001"]
    message = findings[0].message
    assert f"the <{root}> start tag is missing" in message
    assert f'write <{root} xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">' in message
    assert f"before the first <{entry}>" in message
    assert "did you mean" not in message


def test_unknown_element_did_you_mean() -> None:
    (message,) = _messages(fixture("ST004/fail.xml"))
    assert "did you mean <changefreq>?" in message


def test_unknown_element_case_hint() -> None:
    (message,) = _messages(fixture("ST004/fail-case-loc.xml"))
    assert "did you mean <loc>? names are case-sensitive" in message


def test_unprefixed_extension_names_namespace() -> None:
    (message,) = _messages(fixture("ST004/fail-image-prefix.xml"))
    assert "<image:image>" in message
    assert 'xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"' in message


def test_changefreq_in_index_entry_says_remove() -> None:
    (message,) = _messages(fixture("ST004/fail-index-changefreq.xml"))
    assert "sitemap index entry" in message and "remove it" in message


def test_text_only_url_shows_the_loc_to_write() -> None:
    (message,) = _messages(fixture("ST009/fail-url-only-text.xml"))
    assert "<url><loc>https://example.com/about</loc></url>" in message


def test_text_in_the_root_names_the_entries_and_the_fix() -> None:
    (message,) = _messages(fixture("ST009/fail.xml"))
    assert "only <url> entries may stand there: remove the text" in message


def test_nesting_too_deep_says_how_to_fix() -> None:
    message = next(f.message for f in lint(fixture("ST011/fail.xml")).findings if f.code == "ST011")
    assert "they were not checked: remove the extra levels" in message


def test_attribute_message_names_the_attribute() -> None:
    (message,) = _messages(fixture("ST010/fail-loc.xml"))
    assert 'remove type="page"' in message


def test_order_message_names_the_order() -> None:
    (message,) = _messages(fixture("ST005/fail.xml"))
    assert "<loc>, <lastmod>, <changefreq>, <priority>" in message


def test_no_entries_says_to_stop_listing_an_empty_file() -> None:
    """An empty sitemap is often one a plugin writes for a kind of page the site has
    none of (attachments, authors): adding an entry is not the fix there."""
    (message,) = _messages(fixture("ST008/fail.xml"))
    assert "add at least one, or stop listing this file" in message


def test_template_code_in_the_root_says_the_file_was_not_rendered() -> None:
    """A sitemap template's source (Jekyll, Hugo, Jinja) checked instead of its output:
    removing the text is not the fix, rendering the template is."""
    messages = [
        f.message for f in lint(fixture("ST009/fail-template.xml")).findings if f.code == "ST009"
    ]
    assert messages[0].startswith(
        "template code '{% for post in site.posts %}' directly inside <urlset>: "
    )
    assert "not rendered" in messages[0]
    assert "remove the text" not in messages[0]


def test_order_message_names_the_child_to_move_before() -> None:
    """Which child stands in the way, and where: the first earlier one that the schema's
    order puts after it."""
    (message,) = _messages(fixture("ST005/fail.xml"))
    assert message.startswith("<loc> must come before <lastmod> (line 4); ")
    (message,) = _messages(fixture("ST005/fail-priority-first.xml"))
    assert message.startswith("<changefreq> must come before <priority> (line 5); ")


# -- one defect, one finding; other defects still found ----------------------------


def test_attribute_on_url_does_not_hide_extension_errors(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "sitemap.xml",
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
    path = write(
        tmp_path,
        "sitemap.xml",
        f"""<?xml version="1.0" encoding="UTF-8"?>
<urlset {SITEMAP} {IMAGE}>
  <url>
    <loc>https://example.com/a</loc> stray
    <image:image><image:loc>https://example.com/a.jpg</image:loc><image:loc>https://example.com/b.jpg</image:loc></image:image>
  </url>
</urlset>
""",
    )
    assert found(lint(path)) == [("ST009", 4), ("XS001", 5)]


def test_order_finding_covers_where_the_schema_sequence_breaks(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "sitemap.xml",
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


@pytest.mark.slow
def test_too_deep_is_reported_once_and_fast(tmp_path: Path) -> None:
    depth = 100_000
    path = write(
        tmp_path,
        "sitemap.xml",
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


# -- extension elements outside entries, elements in no namespace --------------------------------


@pytest.mark.parametrize(
    ("root", "body", "expected"),
    [
        # Before the first url, between entries, after the last one.
        (
            "urlset",
            "<image:image><image:loc>https://example.com/a.jpg</image:loc></image:image>\n"
            "<url><loc>https://example.com/a</loc></url>\n",
            [("ST012", 3)],
        ),
        (
            "urlset",
            "<url><loc>https://example.com/a</loc></url>\n"
            "<image:image><image:loc>https://example.com/a.jpg</image:loc></image:image>\n",
            [("ST012", 4)],
        ),
        # In an index, outside every sitemap entry.
        (
            "sitemapindex",
            "<sitemap><loc>https://example.com/s.xml</loc></sitemap>\n"
            "<image:image><image:loc>https://example.com/a.jpg</image:loc></image:image>\n",
            [("ST012", 4)],
        ),
        # An element of a namespace of one's own: after an entry the schema rejects it
        # (ST012); before the first entry it is the namespace rules' business only.
        (
            "urlset",
            '<url><loc>https://example.com/a</loc></url>\n<x:meta xmlns:x="https://example.com/x"/>\n',
            [("NS003", 4), ("ST012", 4)],
        ),
        (
            "urlset",
            '<x:meta xmlns:x="https://example.com/x"/>\n<url><loc>https://example.com/a</loc></url>\n',
            [("NS003", 3)],
        ),
        (
            "sitemapindex",
            "<sitemap><loc>https://example.com/s.xml</loc></sitemap>\n"
            '<x:meta xmlns:x="https://example.com/x"/>\n',
            [("NS003", 4), ("ST012", 4)],
        ),
        # A loc taken out of the namespace: one finding, not a missing loc as well.
        ("urlset", '<url><loc xmlns="">https://example.com/a</loc></url>\n', [("ST004", 3)]),
        # No namespace at all: the schema rejects it, in the root and in an entry.
        (
            "urlset",
            '<url><loc>https://example.com/a</loc></url>\n<meta xmlns=""/>\n',
            [("ST004", 4)],
        ),
        (
            "urlset",
            '<url><loc>https://example.com/a</loc><a xmlns=""/><b xmlns=""/></url>\n',
            [("ST004", 3), ("ST004", 3)],
        ),
    ],
)
def test_outside_entries_and_without_namespace(
    tmp_path: Path, root: str, body: str, expected: list[tuple[str, int]]
) -> None:
    text = f'<?xml version="1.0" encoding="UTF-8"?>\n<{root} {SITEMAP} {IMAGE}>\n{body}</{root}>\n'
    assert found(lint(write(tmp_path, "sitemap.xml", text))) == expected


def test_outside_entry_message_points_at_the_element() -> None:
    (message,) = _messages(fixture("ST012/fail.xml"))
    assert message.startswith("<image:image> stands directly in <urlset>, outside any <url>")
    assert "search engines ignore it" in message


def test_stray_text_in_a_cdata_section_is_reported_where_the_section_starts(
    tmp_path: Path,
) -> None:
    path = write(
        tmp_path,
        "sitemap.xml",
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
        ' xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">\n'
        "  <url><loc>https://example.com/</loc>\n"
        "    <image:image><![CDATA[garbage]]><image:loc>https://example.com/a.png</image:loc>"
        "</image:image></url>\n"
        "  <url>  <![CDATA[  x]]><loc>https://example.com/b</loc></url>\n"
        "  <url><loc><![CDATA[https://example.com/c]]></loc>junk<![CDATA[y]]></url>\n"
        "</urlset>\n",
    )
    stray = [(f.line, f.column) for f in lint(path).findings if f.code == "ST009"]
    assert stray == [(4, 18), (5, 10), (6, 52)]

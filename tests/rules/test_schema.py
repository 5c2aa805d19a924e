"""Schema family: XS001 reports what the XSD finds that no clearer rule covers."""

from __future__ import annotations

from pathlib import Path

import pytest

from sitemap_lint.xsd import messages
from tests.helpers import RULE_FIXTURES, lint, lint_content


def _message(fixture: str, engine_name: str = "libxml2") -> str:
    (finding,) = lint(RULE_FIXTURES / "XS001" / fixture, engine_name=engine_name).findings
    return finding.message


@pytest.mark.parametrize("engine_name", ["libxml2", "xmlschema"])
def test_message_names_the_element_and_what_is_expected(engine_name: str) -> None:
    message = _message("fail.xml", engine_name)
    assert message.startswith("<image:loc>: ")
    assert "ns0:" not in message and "ns1:" not in message and "{http" not in message


@pytest.mark.parametrize("engine_name", ["libxml2", "xmlschema"])
def test_message_names_the_attribute_and_value(engine_name: str) -> None:
    message = _message("fail-link-attribute.xml", engine_name)
    assert message.startswith("<xhtml:link>: ")
    assert "target" in message


# Both engines agreeing on every fixture is tested once for all families, in
# tests/test_engines.py.


# -- text that is no XML white space between elements ---------------------------------

ENTRY_WITH = """<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
        xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
  <url>{text}<loc>https://example.com/</loc>
    <image:image>{text}<image:loc>https://example.com/a.jpg</image:loc></image:image>
  </url>
</urlset>
"""


@pytest.mark.parametrize("engine_name", ["libxml2", "xmlschema"])
@pytest.mark.parametrize("text", ["\u00a0", "\u2003", "\u0085", "\u3000"])
def test_space_that_is_no_xml_white_space_between_elements_is_text(
    tmp_path: Path, text: str, engine_name: str
) -> None:
    """XML's white space is space, tab, CR and LF: a no-break space (or an em space, a
    NEL, an ideographic space) between an entry's elements is character content, which
    the schema rejects: one finding each, where the text stands."""
    path = tmp_path / "sitemap.xml"
    path.write_text(ENTRY_WITH.format(text=text), encoding="utf-8")
    result = lint(path, engine_name=engine_name)
    assert [(f.code, f.line, f.column) for f in result.findings] == [
        ("ST009", 4, 8),
        ("ST009", 5, 18),
    ]


@pytest.mark.parametrize("text", ["\u00a0", "&#160;"])
def test_a_no_break_space_in_the_root_is_text(tmp_path: Path, text: str) -> None:
    content = (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{text}'
        "<url><loc>https://example.com/</loc></url></urlset>\n"
    )
    result = lint_content(tmp_path, content)
    assert [(f.code, f.line) for f in result.findings] == [("ST009", 2)]


def test_white_space_between_elements_stays_valid(tmp_path: Path) -> None:
    result = lint_content(tmp_path, ENTRY_WITH.format(text="\n \t\r\n"))
    assert result.findings == []


def test_text_in_an_extension_element_is_one_finding(tmp_path: Path) -> None:
    """ST009 explains the schema's error on the image:image it reports text in."""
    content = ENTRY_WITH.replace("<image:image>{text}", "<image:image>x").format(text="")
    result = lint_content(tmp_path, content)
    assert [f.code for f in result.findings] == ["ST009"]


def test_an_id_repeated_in_another_batch_is_an_error(tmp_path: Path) -> None:
    """An xhtml:link id is an xs:ID, unique in the document: the schema sees one batch of
    entries at a time (256), so the checker compares the ids across batches."""
    link = '<xhtml:link rel="alternate" hreflang="en" href="https://example.com/{0}" id="a"/>'
    entries = [
        f"<url><loc>https://example.com/{n}</loc>{link.format(n) if n in (0, 299) else ''}</url>"
        for n in range(300)
    ]
    content = (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" '
        'xmlns:xhtml="http://www.w3.org/1999/xhtml">\n' + "\n".join(entries) + "\n</urlset>\n"
    )
    result = lint_content(tmp_path, content)
    (finding,) = [f for f in result.findings if f.code == "XS001"]
    assert finding.line == 302
    assert "line 3" in finding.message


def test_the_text_is_found_where_it_stands_on_a_shared_line(tmp_path: Path) -> None:
    """On a one-line file the text is reported where it stands, beside the other
    findings of the line."""
    content = (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
        "<url><loc>https://example.com/a</loc><lastmod>2024-13-01</lastmod></url>"
        "<url><loc>https://example.com/b</loc>\u00a0</url></urlset>\n"
    )
    result = lint_content(tmp_path, content)
    assert [(f.code, f.line, f.column) for f in result.findings] == [
        ("DT002", 2, 98),
        ("ST009", 2, 170),
    ]


@pytest.mark.parametrize(
    ("message", "told"),
    [
        ("attribute width: The attribute 'width' is not allowed", "remove the attribute"),
        (
            "attribute dir: [facet 'enumeration'] The value 'up' is not an element of the set"
            " {'ltr', 'rtl'}",
            "write one of 'ltr', 'rtl'",
        ),
        (
            "[facet 'maxLength'] The value has a length of '120'; this exceeds the allowed"
            " maximum length of '100'",
            "shorten it to 100 characters at most",
        ),
        ("The element is not 'nillable'", "remove its xsi:nil attribute"),
        (
            "This element is not expected. Expected is ( loc )",
            "the schema expects <loc> at this place: add it before this element, or remove"
            " this one",
        ),
        ("Missing child element(s). Expected is ( video:title )", "add <video:title>"),
        ("value is not a valid anyURI", None),
    ],
)
def test_an_engines_usual_message_says_what_to_do(message: str, told: str | None) -> None:
    assert messages.advice(message) == told

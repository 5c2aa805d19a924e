"""Schema family: XS001 reports what the XSD finds that no clearer rule covers."""

from __future__ import annotations

from pathlib import Path

import pytest

from sitemap_lint.model import SITEMAP_NS, Node
from sitemap_lint.xsd import messages
from tests.helpers import RULE_FIXTURES, engine, lint, lint_content


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


# -- the same advice whichever engine reports --------------------------------------------

ADVICE_FIXTURES = [
    *sorted((RULE_FIXTURES / "XS001").glob("fail*.xml")),
    RULE_FIXTURES / "IM004" / "fail-repeated.xml",
]


def _advice(path: Path, engine_name: str) -> list[tuple[int, str]]:
    """Each XS001 finding's line and what its message says to do (after the engine's text)."""
    return [
        (f.line, f.message.partition(" (schema); ")[2])
        for f in lint(path, engine_name=engine_name).findings
        if f.code == "XS001"
    ]


@pytest.mark.parametrize("path", ADVICE_FIXTURES, ids=lambda path: path.stem)
def test_both_engines_give_the_same_advice(path: Path) -> None:
    libxml2 = _advice(path, "libxml2")
    assert libxml2 and all(told for _, told in libxml2)
    assert _advice(path, "xmlschema") == libxml2


def test_an_element_inside_an_empty_element_is_told_to_go(tmp_path: Path) -> None:
    # libxml2 reports it at the empty element (xmlschema at the child, as unexpected).
    link = '<xhtml:link rel="alternate" hreflang="en" href="https://example.com/"><b/></xhtml:link>'
    content = (
        f'<urlset xmlns="{SITEMAP_NS}" xmlns:xhtml="http://www.w3.org/1999/xhtml">'
        f"<url><loc>https://example.com/</loc>{link}</url></urlset>"
    )
    (finding,) = [f for f in lint_content(tmp_path, content).findings if f.code == "XS001"]
    assert finding.message.startswith("<xhtml:link>: Element content is not allowed")
    assert finding.message.endswith("(schema); " + messages._EMPTY)


def _entry(*children: tuple[str, str]) -> Node:
    entry = Node(SITEMAP_NS, "url", {}, 1, 1)
    for line, (name, text) in enumerate(children, start=2):
        child = Node(SITEMAP_NS, name, {}, line, 1)
        child.text = text
        entry.children.append(child)
    return entry


LOC = ("loc", "https://example.com/")


@pytest.mark.parametrize(
    ("children", "told"),
    [
        ((LOC, ("changefreq", "Daily")), "write one of 'always', 'hourly', 'daily', "),
        ((("lastmod", "2024-05-01"), LOC), "the schema expects <loc> at this place"),
        ((LOC, ("unknown", "x")), "remove it, or move it to where the schema allows it"),
        ((LOC, ("loc", "https://example.com/b")), "remove it, or move it to where"),
        ((LOC, ("priority", "0.5"), ("changefreq", "daily")), "remove it, or move it to where"),
        ((), "add <loc>"),
        ((("loc", "x"),), "write at least 12 characters"),
        ((("loc", "https://example.com/" + "a" * 2048),), "shorten it to 2048 characters"),
    ],
)
def test_both_engines_advise_the_same_below_the_rules(
    children: tuple[tuple[str, str], ...], told: str
) -> None:
    """The engines' own messages, for defects the clearer rules usually report first
    (an unknown or misplaced child of url, an invalid changefreq)."""
    said = {}
    for name in ("libxml2", "xmlschema"):
        ((_, message),) = engine(name).validate("urlset", [_entry(*children)])
        said[name] = messages.advice(message)
    assert said["libxml2"] == said["xmlschema"]
    assert said["libxml2"] is not None and said["libxml2"].startswith(told)


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

"""XML family: each rule's failing fixtures give exactly the expected finding; passing ones none."""

from pyexpat import errors as expat_errors

import pytest

from sitemap_lint.rules import xml
from tests.helpers import RULE_FIXTURES, lint

# Cases that fail because of a bug outside this family's modules (see the reasons).


def only(code: str, fixture: str):
    """The single finding of ``code`` in a fixture."""
    [finding] = [f for f in lint(RULE_FIXTURES / code / fixture).findings if f.code == code]
    return finding


# -- messages: they must say how to fix the problem ------------------------------------


def test_truncated_message_says_how_to_fix() -> None:
    message = only("XM008", "fail.xml").message
    assert message.endswith("upload the complete file, or regenerate it if its generator stopped")


@pytest.mark.parametrize(
    ("fixture", "column", "escaped"),
    [
        ("fail.xml", 41, "'https://example.com/list?page=2&amp;sort=price'"),
        ("fail-attribute.xml", 85, "'https://example.com/shop?lang=de&amp;region=eu'"),
        ("fail-text.xml", 25, "'Fish &amp; Chips'"),
        (
            "fail-long-parameter.xml",
            52,
            "newsletter&amp;utm_campaign_identifier_for_the_spring_sale_2025",
        ),
    ],
)
def test_raw_ampersand_message_shows_escaped_value(fixture: str, column: int, escaped: str) -> None:
    finding = only("XM004", fixture)
    assert escaped in finding.message
    assert finding.column == column  # the '&' itself


@pytest.mark.parametrize(
    ("fixture", "column", "fixed"),
    [
        ("fail.xml", 44, "'https://example.com/search?q=price%3C100'"),
        ("fail-before-letter.xml", 39, "'https://example.com/compare?a%3Cb'"),
        ("fail-tag-like.xml", 39, "'https://example.com/search?q=%3Cb%3Ebold'"),
        ("fail-text.xml", 31, "'Everything &lt; $10'"),
    ],
)
def test_raw_less_than_message_shows_fixed_value(fixture: str, column: int, fixed: str) -> None:
    finding = only("XM005", fixture)
    assert fixed in finding.message
    assert finding.column == column  # the '<' itself


@pytest.mark.parametrize(
    ("fixture", "column", "fix"),
    [
        ("fail.xml", 33, "percent-encode it as %C3%A9"),
        ("fail.xml", 33, "&#233;"),
        ("fail-nbsp.xml", 30, "write &#160;"),
        ("fail-attribute.xml", 79, "percent-encode it as %C3%A9"),
        ("fail-unknown.xml", 25, "&amp;brand;"),
    ],
)
def test_undefined_entity_message_gives_a_replacement(fixture: str, column: int, fix: str) -> None:
    finding = only("XM006", fixture)
    assert fix in finding.message
    assert finding.column == column  # the '&' of the reference


@pytest.mark.parametrize(
    ("fixture", "declaration"),
    [
        ("fail.xml", 'xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"'),
        ("fail-xhtml.xml", 'xmlns:xhtml="http://www.w3.org/1999/xhtml"'),
        ("fail-xsi.xml", 'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"'),
        ("fail-xsi-next-line.xml", 'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"'),
        ("fail-pagemap.xml", 'xmlns:pagemap="http://www.google.com/schemas/sitemap-pagemap/1.0"'),
        ("fail-unknown-prefix.xml", "xmlns:geo"),
    ],
)
def test_undeclared_prefix_message_names_the_declaration(fixture: str, declaration: str) -> None:
    assert declaration in only("XM009", fixture).message


def test_content_after_root_message_quotes_the_content() -> None:
    message = only("XM007", "fail-text.xml").message
    assert "'Query took 0.031 seconds'" in message
    assert "remove" in message


def test_an_entry_after_the_root_is_not_content_to_remove() -> None:
    """The root's end tag stands before the last entries (two generators' output joined,
    a stray end tag): removing everything after it would lose those entries."""
    message = only("XM007", "fail-entry-after-root.xml").message
    assert message.startswith("a <url> entry after </urlset>: ")
    assert "move </urlset> after the last <url>" in message
    assert "remove everything" not in message


@pytest.mark.parametrize(
    ("fixture", "what"),
    [
        ("fail.xml", "1 blank line"),
        ("fail-spaces.xml", "2 spaces"),
        ("fail-text.xml", "'Notice: Undefined index"),
    ],
)
def test_content_before_declaration_message_says_what(fixture: str, what: str) -> None:
    assert what in only("XM002", fixture).message


@pytest.mark.parametrize(
    ("fixture", "line", "column"),
    [("fail.xml", 2, 1), ("fail-spaces.xml", 1, 3), ("fail-text.xml", 2, 1)],
)
def test_content_before_declaration_is_reported_where_the_declaration_is(
    fixture: str, line: int, column: int
) -> None:
    finding = only("XM002", fixture)
    assert (finding.line, finding.column) == (line, column)


def test_content_before_declaration_names_mixed_whitespace() -> None:
    from sitemap_lint.rules.xml import content_before_declaration

    finding = content_before_declaration("\r\n\n \t")
    assert (finding.line, finding.column) == (3, 3)
    assert "2 blank lines, 1 space and 1 tab" in finding.message


# -- DOCTYPE: nothing expanded, nothing read --------------------------------------------


def test_billion_laughs_is_not_expanded() -> None:
    result = lint(RULE_FIXTURES / "XM003" / "fail.xml")
    [finding] = result.findings
    assert "not expanded" in finding.message


def test_external_entity_is_not_read() -> None:
    result = lint(RULE_FIXTURES / "XM003" / "fail-external-entity.xml")
    assert [f.code for f in result.findings] == ["XM003"]
    assert all("root:" not in f.message for f in result.findings)


def test_external_entity_in_attribute_is_not_read(tmp_path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET-VALUE")
    sitemap = tmp_path / "sitemap.xml"
    source = (RULE_FIXTURES / "XM003" / "fail-external-entity-in-attribute.xml").read_text()
    sitemap.write_text(source.replace("file:///etc/passwd", secret.as_uri()))
    result = lint(sitemap)
    assert result.findings, "the DOCTYPE must be reported"
    assert all("TOP-SECRET" not in f.message for f in result.findings)


def test_entity_limit_error_is_reported_as_doctype_problem() -> None:
    # The entity's error is said by the DOCTYPE's finding (not a second one); reading
    # resumes after it, the lines it skipped said as after any syntax error.
    found = lint(RULE_FIXTURES / "XM003" / "fail-entity-in-attribute.xml").findings
    assert [f.code for f in found] == ["XM003", "XM001"]
    assert "at line 18 was left unread" in found[0].message


def test_doctype_message_can_say_where_checking_stopped() -> None:
    amplification = code("XML_ERROR_AMPLIFICATION_LIMIT_BREACH")
    finding = xml.doctype("urlset", 2, 1, stopped_at=18, error_code=amplification)
    assert "line 18" in finding.message
    assert "billion laughs" in finding.message
    assert "remove it" in finding.message


# -- the classification of expat errors, on its own -------------------------------------


def code(name: str) -> int:
    return expat_errors.codes[getattr(expat_errors, name)]


@pytest.mark.parametrize(
    ("error", "context", "offset", "rule"),
    [
        ("XML_ERROR_INVALID_TOKEN", "<loc>https://e.com/?a=1&b=2</loc>", 25, "XM004"),
        ("XML_ERROR_INVALID_TOKEN", "<title>Tom & Jerry</title>", 12, "XM004"),
        ("XML_ERROR_INVALID_TOKEN", "<loc>https://e.com/?q=1<2</loc>", 24, "XM005"),
        ("XML_ERROR_INVALID_TOKEN", "<loc>https://e.com/?q=a<b</loc>", 25, "XM005"),
        ("XML_ERROR_TAG_MISMATCH", "<loc>https://e.com/?q=a<b>c</loc>", 29, "XM005"),
        ("XML_ERROR_UNDEFINED_ENTITY", "<loc>https://e.com/caf&eacute;</loc>", 22, "XM006"),
        ("XML_ERROR_JUNK_AFTER_DOC_ELEMENT", "Warning: oops", 0, "XM007"),
        ("XML_ERROR_UNBOUND_PREFIX", "<image:image>", 0, "XM009"),
        ("XML_ERROR_AMPLIFICATION_LIMIT_BREACH", '<a b="&x;">', 0, "XM003"),
        # In an attribute's value, closed by its quote on the line: a raw '<' too.
        ("XML_ERROR_INVALID_TOKEN", '<xhtml:link href="https://e.com/?q=a<b"/>', 36, "XM005"),
        ("XML_ERROR_INVALID_TOKEN", "<url a='1 < 2' b='y'>", 10, "XM005"),
        # ... but not where the quote or the tag's '>' is missing.
        ("XML_ERROR_INVALID_TOKEN", '<url a="x <loc>https://e.com/</loc>', 10, "XM001"),
        ("XML_ERROR_INVALID_TOKEN", '<url a="x" <loc>https://e.com/</loc>', 11, "XM001"),
        # A typo in a tag is not a raw '<': the '<' follows whitespace.
        ("XML_ERROR_INVALID_TOKEN", "  <url<loc>https://e.com/</loc>", 6, "XM001"),
        ("XML_ERROR_TAG_MISMATCH", "  </ulr>", 4, "XM001"),
    ],
)
def test_syntax_error_classification(error: str, context: str, offset: int, rule: str) -> None:
    assert xml.syntax_error(code(error), 3, offset + 1, context, offset).code == rule


def test_a_mismatched_end_tag_is_quoted_whole() -> None:
    finding = xml.syntax_error(code("XML_ERROR_TAG_MISMATCH"), 5, 5, "  </ulr>", 4)
    assert (finding.code, finding.line, finding.column) == ("XM001", 5, 3)
    assert finding.message == (
        "mismatched tag: end tag '</ulr>' does not match the element it closes; check the tag names"
    )


def test_a_mismatched_end_tag_names_the_element_it_should_close() -> None:
    context = "  <url><loc>http://example.com/b</loc><lastmod>2020-01-01</lastmo></url>"
    offset = context.index("lastmo>")
    opened = ("lastmod", (4, 39))
    finding = xml.syntax_error(
        code("XML_ERROR_TAG_MISMATCH"), 4, offset + 1, context, offset, False, opened
    )
    assert (finding.line, finding.column) == (4, offset - 1)
    assert finding.message == (
        "mismatched tag: end tag '</lastmo>' does not close <lastmod>, the element open since"
        " line 4, column 39; write '</lastmod>' or correct the start tag"
    )


def test_a_generic_syntax_error_has_a_hint() -> None:
    context = '  <url a="1" a="2">'
    offset = context.rindex("a=")
    finding = xml.syntax_error(
        code("XML_ERROR_DUPLICATE_ATTRIBUTE"), 5, offset + 1, context, offset
    )
    assert finding.code == "XM001"
    assert "an attribute is repeated; keep only one" in finding.message


# -- a broken start: each gets its own message, never "escape the '<'" ----------------------

BROKEN_STARTS = [
    (
        "XM001/fail-closing-tag-first.xml",
        "XM001",
        "closing tag '</urlset>' before any start tag: the start of the document is missing; "
        "a sitemap begins with its root element's start tag, <urlset xmlns=\"http://www.sitemaps.org"
        '/schemas/sitemap/0.9">',
    ),
    (
        "XM001/fail-text-before-root.xml",
        "XM001",
        "text 'HTTP 500 Internal Server Error' before the root element; only the XML "
        "declaration and comments may come before <urlset> or <sitemapindex>",
    ),
    (
        "XM007/fail-closing-tag.xml",
        "XM007",
        "closing tag '</urlset>' after the end of the root element, where no element is open; "
        "remove it",
    ),
    (
        "IN001/fail-comment-only.xml",
        "IN001",
        "file has no root element; a sitemap needs <urlset> or <sitemapindex>",
    ),
    (
        "IN006/fail-text-before-root.xml",
        "IN006",
        "file starts with text before its XML ('Notice: cache warmed'); remove everything "
        "before '<urlset'",
    ),
]


@pytest.mark.parametrize(
    ("fixture", "code", "text"), BROKEN_STARTS, ids=[b[0] for b in BROKEN_STARTS]
)
def test_broken_start_has_its_own_message(fixture: str, code: str, text: str) -> None:
    findings = [f for f in lint(RULE_FIXTURES / fixture).findings if f.code != "EN004"]
    assert [f.code for f in findings] == [code]
    assert text in findings[0].message
    assert "escape" not in findings[0].message


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("</urlset>", "XM001"),  # no root started
        ("<?xml version='1.0'?>\n</sitemapindex>", "XM001"),
        ("<urlset/>\n</urlset>", "XM007"),  # after the root
        ("<urlset><url><loc>q=a<b</loc></url></urlset>", "XM005"),  # a raw '<' in a value
    ],
)
def test_closing_tag_without_open_element(tmp_path, text: str, expected: str) -> None:
    path = tmp_path / "sitemap.xml"
    path.write_text(text, encoding="utf-8")
    codes = [f.code for f in lint(path).findings]
    assert expected in codes
    assert not {"XM001", "XM005", "XM007"} - {expected} & set(codes)
    if expected == "XM001":
        assert "before any start tag" in lint(path).findings[0].message


def test_syntax_error_without_parser_state_still_names_the_closing_tag() -> None:
    code = expat_errors.codes[expat_errors.XML_ERROR_INVALID_TOKEN]
    finding = xml.syntax_error(code, 1, 2, "</urlset>", 1)
    assert finding.code == "XM001"
    assert finding.message.startswith("closing tag '</urlset>' where no element is open")
    assert finding.column == 1


@pytest.mark.parametrize(
    ("between", "says"),
    [
        ("\u00a0", "character U+00A0 (NO-BREAK SPACE) is not white space in XML 1.0"),
        ("\x85", "character U+0085 (NEXT LINE) is not white space in XML 1.0"),
        ("\u2028", "character U+2028 (LINE SEPARATOR) is not white space in XML 1.0"),
        ("\ufeff", "character U+FEFF, a byte order mark, in the middle of the file"),
    ],
)
def test_a_character_that_looks_like_white_space_before_the_root(
    tmp_path, between: str, says: str
) -> None:
    from tests.helpers import lint_content

    text = (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        + between
        + '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        "  <url><loc>https://example.com/</loc></url>\n</urlset>\n"
    )
    [finding] = lint_content(tmp_path, text).findings
    assert (finding.code, finding.line, finding.column) == ("XM001", 2, 1)
    assert finding.message.startswith(says)
    assert finding.message.endswith("remove it" if between == "\ufeff" else "or a line feed")


def test_a_character_that_looks_like_white_space_in_the_xml_declaration(tmp_path) -> None:
    from tests.helpers import lint_content

    text = (
        '<?xml version="1.0"\x85encoding="UTF-8"?>\n'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        "  <url><loc>https://example.com/</loc></url>\n</urlset>\n"
    )
    [finding] = lint_content(tmp_path, text).findings
    assert finding.code == "XM001"
    assert finding.message.endswith(
        ": character U+0085 (NEXT LINE) is not white space in XML 1.0; "
        'write <?xml version="1.0" encoding="UTF-8"?>'
    )


@pytest.mark.parametrize(
    ("tags", "column", "what"),
    [
        ("<urlset <!-- x --> {ns}><url><loc>", 9, "a comment ('<!-- x -->') cannot stand inside"),
        ("<urlset <?pi x?> {ns}><url><loc>", 9, "a processing instruction ('<?pi x?>')"),
        ("<urlset {ns}><url <!-- x -->><loc>", 66, "inside the start tag <url>"),
        ("<urlset {ns}><url><loc <!-- -->>", 71, "inside the start tag <loc>"),
        ("<urlset {ns}><url a='b' <!-- x --> c='d'><loc>", 72, "inside the start tag <url>"),
    ],
)
def test_a_comment_inside_a_start_tag_is_one_finding_and_the_rest_is_read(
    tmp_path, tags: str, column: int, what: str
) -> None:
    from tests.helpers import lint_content

    ns = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
    text = (
        '<?xml version="1.0"?>\n'
        + tags.format(ns=ns)
        + "https://e.com/</loc><priority>7</priority></url></urlset>\n"
    )
    result = lint_content(tmp_path, text)
    found = [(f.code, f.line, f.column) for f in result.findings if f.code != "ST010"]
    assert found[0] == ("XM001", 2, column)
    assert [code for code, *_ in found[1:]] == ["VA003"]  # the entry is read
    [finding] = [f for f in result.findings if f.code == "XM001"]
    assert what in finding.message
    assert finding.message.endswith("remove it, or move it after the tag's '>'")
    assert result.urls == 1


def test_a_comment_after_a_root_tag_whose_gt_is_missing_is_not_inside_it(tmp_path) -> None:
    from tests.helpers import lint_content

    text = (
        '<?xml version="1.0"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"\n'
        "<!-- c -->\n<url><loc>https://e.com/</loc></url></urlset>\n"
    )
    [finding] = lint_content(tmp_path, text).findings
    assert (finding.line, finding.column) == (2, 60)
    assert "its '>' is missing" in finding.message


def test_a_prefix_used_outside_the_entry_that_declares_it_names_that_entry(tmp_path) -> None:
    from tests.helpers import lint_content

    image = "http://www.google.com/schemas/sitemap-image/1.1"
    entry = "<url{declares}><loc>https://e.com/{page}</loc>{uses}</url>\n"
    uses = "<i:image><i:loc>https://e.com/p.png</i:loc></i:image>"
    text = (
        '<?xml version="1.0"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        + entry.format(declares=f' xmlns:i="{image}"', page="a", uses=uses)
        + entry.format(declares="", page="b", uses=uses)
        + entry.format(declares="", page="c", uses="<priority>7</priority>")
        + "</urlset>\n"
    )
    result = lint_content(tmp_path, text)
    found = {f.code: f for f in result.findings}
    assert sorted(found) == ["VA003", "XM009"]  # the entries after it are read
    assert (found["XM009"].line, found["XM009"].column) == (4, 32)
    assert found["XM009"].message == (
        "prefix 'i' is declared only on <url> at line 3, column 1, and is used here outside "
        f'it; add xmlns:i="{image}" to the root element'
    )
    assert found["XM009"].fix is not None
    assert result.urls == 3


def test_a_prefix_declared_on_an_entry_and_used_inside_it_is_in_scope(tmp_path) -> None:
    from tests.helpers import lint_content

    text = (
        '<?xml version="1.0"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        '<url xmlns:q="urn:x"><loc q:id="1">https://e.com/</loc></url>\n</urlset>\n'
    )
    assert [f.code for f in lint_content(tmp_path, text).findings] == ["ST010"]


def _section_in_tag_of_many_instructions() -> None:
    context = "<url" + "<?pi x?>" * 40 + "<?pi <?pi x?>"
    xml._section_in_tag(context, context.rindex("<?pi x?>"), 1, 1)


def test_a_section_in_a_tag_after_many_instructions_is_looked_at_once() -> None:
    """Each instruction before the place is matched one way: a pattern whose
    instruction could run on over the next ones tried every grouping of them (2 to the
    40th here) before it failed."""
    import multiprocessing

    worker = multiprocessing.get_context("spawn").Process(
        target=_section_in_tag_of_many_instructions
    )
    worker.start()
    worker.join(60)  # a guard against a search that never ends, not a time limit
    finished = not worker.is_alive()
    worker.kill()
    assert finished and worker.exitcode == 0


@pytest.mark.parametrize("context", ["", "<url", "<loc a=", '<loc a="b" c=  '])
def test_an_unquoted_value_looked_for_past_the_context_end(context: str) -> None:
    """The reader may stop past the end of the context it gives (the text ends there)."""
    assert xml._unquoted_attribute(context, len(context) + 5, 1, 1) is None

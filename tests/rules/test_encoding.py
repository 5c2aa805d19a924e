"""Encoding family: UTF-8 only; other encodings are reported and the file is still checked."""

import pytest

from sitemap_lint.finding import Severity
from tests.helpers import RULE_FIXTURES, lint

# Cases that fail because of a bug outside this family's modules (see the reasons).


def only(code: str, fixture: str):
    [finding] = [f for f in lint(RULE_FIXTURES / code / fixture).findings if f.code == code]
    return finding


@pytest.mark.parametrize(
    ("fixture", "column", "shown"),
    [("fail.xml", 23, "byte E9 is"), ("fail-windows-1252.xml", 26, "byte 92 is")],
)
def test_invalid_bytes_message_shows_the_byte(fixture: str, column: int, shown: str) -> None:
    finding = only("EN001", fixture)
    assert shown in finding.message
    assert "re-encode the file as UTF-8" in finding.message
    assert finding.column == column


def test_invalid_bytes_are_reported_once_per_line() -> None:
    result = lint(RULE_FIXTURES / "EN001" / "fail-two-lines.xml")
    assert [(f.line, f.column) for f in result.findings] == [(8, 23), (15, 22)]


@pytest.mark.parametrize(
    ("fixture", "declared", "fix"),
    [
        ("fail.xml", 'encoding="ISO-8859-1"', "convert the file to UTF-8"),
        ("fail-windows-1252.xml", 'encoding="windows-1252"', "convert the file to UTF-8"),
        (
            "fail-utf16-declared.xml",
            'encoding="UTF-16" but the bytes are not',
            'write encoding="UTF-8"',
        ),
    ],
)
def test_declared_encoding_message(fixture: str, declared: str, fix: str) -> None:
    message = only("EN002", fixture).message
    assert declared in message
    assert fix in message


def test_declared_encoding_is_used_to_decode() -> None:
    # The Latin-1 'é' decodes with the declared encoding: no EN001 on top of EN002.
    result = lint(RULE_FIXTURES / "EN002" / "fail.xml")
    assert [f.code for f in result.findings] == ["EN002"]


@pytest.mark.parametrize(
    ("fixture", "family"),
    [
        ("fail.xml", "UTF-16 (utf-16-le)"),
        ("fail-no-bom.xml", "UTF-16 (utf-16-le)"),
        ("fail-big-endian.xml", "UTF-16 (utf-16-be)"),
        ("fail-utf32.xml", "UTF-32 (utf-32-le)"),
    ],
)
def test_wide_encoding_message_names_it(fixture: str, family: str) -> None:
    message = only("EN003", fixture).message
    assert family in message
    assert "must be UTF-8" in message


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be", "utf-32-le", "utf-16"])
@pytest.mark.parametrize(
    ("name", "text", "what"),
    [
        ("sitemap.txt", "https://example.com/a\nhttps://example.com/b\n", "a text sitemap"),
        ("robots.txt", "User-agent: *\nSitemap: https://example.com/s.xml\n", "a robots.txt"),
    ],
)
def test_wide_text_sitemap_or_robots_txt_is_told_without_its_byte_order_mark(
    tmp_path, codec: str, name: str, text: str, what: str
) -> None:
    path = tmp_path / name
    path.write_bytes(text.encode(codec))
    findings = lint(path).findings
    assert [f.code for f in findings] == ["EN003"]
    message = findings[0].message
    assert f"{what} must be UTF-8" in message
    assert "encoding=" not in message  # a text file has no XML declaration


def test_byte_order_mark_is_info_only() -> None:
    finding = only("EN004", "fail.xml")
    assert finding.severity is Severity.INFO
    assert "without" in finding.message


# -- spellings of UTF-8, the XML version, stray byte order marks ------------------------------

_BODY = (
    b'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
    b"  <url><loc>https://example.com/</loc></url>\n</urlset>\n"
)


def _declared(tmp_path, encoding: str, version: str = "1.0", before: bytes = b""):
    from tests.helpers import lint_content

    head = f'<?xml version="{version}" encoding="{encoding}"?>\n'.encode()
    return lint_content(tmp_path, before + head + _BODY)


@pytest.mark.parametrize("name", ["UTF8", "utf8", "unicode-1-1-utf-8"])
def test_utf8_label_is_a_warning_naming_the_canonical_name(tmp_path, name: str) -> None:
    [finding] = _declared(tmp_path, name).findings
    assert (finding.code, finding.severity) == ("EN005", Severity.WARNING)
    assert f'encoding="{name}"' in finding.message
    assert 'write encoding="UTF-8"' in finding.message


@pytest.mark.parametrize("name", ["UTF-8", "utf-8", "Utf-8"])
def test_utf8_in_any_case_is_fine(tmp_path, name: str) -> None:
    assert _declared(tmp_path, name).findings == []


@pytest.mark.parametrize("name", ["u8", "utf_8", "cp65001"])
def test_library_alias_of_utf8_is_an_error_that_does_not_ask_to_convert(
    tmp_path, name: str
) -> None:
    [finding] = _declared(tmp_path, name).findings
    assert finding.code == "EN002"
    assert "convert" not in finding.message
    assert 'write encoding="UTF-8"' in finding.message


def test_declaration_findings_are_placed_where_the_declaration_is(tmp_path) -> None:
    result = _declared(tmp_path, "UTF8", version="1.1", before=b"\n\n")
    placed = {f.code: (f.line, f.column) for f in result.findings}
    assert placed == {"XM002": (3, 1), "XM010": (3, 7), "EN005": (3, 21)}


def test_declared_encoding_after_a_utf8_bom_is_reported_and_utf8_still_decodes(tmp_path) -> None:
    from tests.helpers import lint_content

    data = b'\xef\xbb\xbf<?xml version="1.0" encoding="ISO-8859-1"?>\n' + _BODY.replace(
        b"/</loc>", "/caf\u00e9</loc>".encode()
    )
    findings = lint_content(tmp_path, data).findings
    codes = sorted(f.code for f in findings)
    assert "EN001" not in codes  # the bytes are read as UTF-8
    assert {"EN002", "EN004"} <= set(codes)
    # The text is UTF-8 already: only the declaration is wrong.
    [declared] = [f for f in findings if f.code == "EN002"]
    assert "convert" not in declared.message
    assert "byte order mark" in declared.message
    assert declared.message.endswith('write encoding="UTF-8"')


@pytest.mark.parametrize("mark", [b"\xff\xfe", b"\xfe\xff", b"\xff\xfe\xfd", b"\xfd"])
def test_bytes_never_valid_in_utf8_before_a_utf8_document(tmp_path, mark: bytes) -> None:
    from tests.helpers import lint_content

    head = b'<?xml version="1.0" encoding="UTF-8"?>\n'
    [finding] = lint_content(tmp_path, mark + head + _BODY).findings
    assert (finding.code, finding.line, finding.column) == ("EN001", 1, 1)
    assert " ".join(f"{byte:02X}" for byte in mark) in finding.message
    assert "remove them" in finding.message


@pytest.mark.parametrize(
    ("declared", "bad", "name"),
    [
        (b"windows-1252", b"\x81", "windows-1252"),
        (b"Shift_JIS", b"\x81\x20", "Shift_JIS"),
        (b"EUC-JP", b"\xa1", "EUC-JP"),
    ],
)
def test_bytes_not_valid_in_the_declared_encoding_name_it_as_declared(
    tmp_path, declared: bytes, bad: bytes, name: str
) -> None:
    from tests.helpers import lint_content

    head = b'<?xml version="1.0" encoding="' + declared + b'"?>\n'
    data = head + _BODY.replace(b"/</loc>", b"/" + bad + b"</loc>")
    [finding] = [f for f in lint_content(tmp_path, data).findings if f.code == "EN001"]
    assert f"is not valid {name}, the encoding the file is read in" in finding.message
    # Converting the file cannot carry bytes its encoding does not have over to UTF-8.
    assert finding.message.endswith("correct it, then re-encode the file as UTF-8")

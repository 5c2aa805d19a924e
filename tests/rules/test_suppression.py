"""Inline suppression: directives silence findings; unused or unreadable ones are findings."""

from __future__ import annotations

from pathlib import Path

import pytest

from sitemap_lint.engine.results import FileResult
from tests.helpers import found, lint, lint_fixture

MESSAGES = [
    ("SU001/fail.xml", "disable-next-line UR008 suppresses nothing: no UR008 finding on line 9"),
    ("SU001/fail-file.xml", "no DU001 finding in this file"),
    ("SU001/fail-one-of-two.xml", "disable-next-line DT004 suppresses nothing"),
    ("SU002/fail.xml", "'UR08' is not a rule code or a prefix of one; did you mean UR018?"),
    ("SU002/fail-directive.xml", "unknown directive 'disable-line'"),
    ("SU002/fail-no-codes.xml", "names no rule codes"),
    ("SU002/fail-missing-colon.xml", "with a colon"),
    ("SU002/fail-separator.xml", "not a comma-separated list of rule codes; write 'UR008, UR011'"),
]


@pytest.mark.parametrize(("fixture", "text"), MESSAGES, ids=[m[0] for m in MESSAGES])
def test_message(fixture: str, text: str) -> None:
    code = fixture.split("/")[0]
    finding = next(f for f in lint_fixture(fixture).findings if f.code == code)
    assert text in finding.message, finding.message


# -- what a directive reaches ---------------------------------------------------------------

HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n'
URLSET = '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'


def _write(tmp_path: Path, body: str, prefix: bytes = b"") -> Path:
    path = tmp_path / "sitemap.xml"
    path.write_bytes(prefix + (HEAD + URLSET + body + "</urlset>\n").encode("utf-8"))
    return path


def _lint(tmp_path: Path, body: str, prefix: bytes = b"") -> list[tuple[str, int]]:
    return found(lint(_write(tmp_path, body, prefix)))


def test_without_directives_the_findings_stand(tmp_path: Path) -> None:
    body = "<url><loc>https://example.com/a#x</loc></url>\n"
    assert _lint(tmp_path, body) == [("UR008", 3)]


def test_next_line_only(tmp_path: Path) -> None:
    body = (
        "<!-- sitemap-lint: disable-next-line UR008 -->\n"
        "<url><loc>https://example.com/a#x</loc></url>\n"
        "<url><loc>https://example.com/b#x</loc></url>\n"
    )
    assert _lint(tmp_path, body) == [("UR008", 5)]


def test_several_codes_and_prefixes(tmp_path: Path) -> None:
    body = (
        "<!-- sitemap-lint: disable-next-line UR, DT004 -->\n"
        "<url><loc>https://example.com/a#x</loc><lastmod>2024-05-08T10:30:00</lastmod></url>\n"
    )
    assert _lint(tmp_path, body) == []


def test_disable_file_reaches_findings_before_the_comment(tmp_path: Path) -> None:
    body = (
        "<url><loc>https://example.com/a#x</loc></url>\n"
        "<url><loc>https://example.com/a#x</loc></url>\n"
        "<!-- sitemap-lint: disable-file UR008,DU001 -->\n"
    )
    assert _lint(tmp_path, body) == []


def test_disable_file_reaches_findings_about_the_whole_file(tmp_path: Path) -> None:
    body = "<!-- sitemap-lint: disable-file EN004 -->\n<url><loc>https://example.com/</loc></url>\n"
    assert _lint(tmp_path, body, prefix=b"\xef\xbb\xbf") == []
    assert _lint(tmp_path, body.replace("EN004", "UR008"), prefix=b"\xef\xbb\xbf") == [
        ("EN004", 1),
        ("SU001", 3),
    ]


def test_schema_findings_can_be_suppressed(tmp_path: Path) -> None:
    entry = (
        '<url xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">'
        "<loc>https://example.com/gallery</loc>\n<image:image>\n"
        "<image:loc>https://example.com/front.jpg</image:loc>\n"
        "{comment}<image:loc>https://example.com/back.jpg</image:loc>\n"
        "</image:image></url>\n"
    )
    assert _lint(tmp_path, entry.format(comment="")) == [("XS001", 6)]
    comment = "<!-- sitemap-lint: disable-next-line XS001 -->\n"
    assert _lint(tmp_path, entry.format(comment=comment)) == []


def test_ordinary_comments_are_not_directives(tmp_path: Path) -> None:
    body = (
        "<!-- checked by sitemap-lint in CI -->\n"
        "<!-- sitemap-lint-version 0.1 -->\n"
        "<url><loc>https://example.com/</loc></url>\n"
    )
    assert _lint(tmp_path, body) == []


@pytest.mark.parametrize(
    "reason",
    [
        "legacy anchors",
        "- legacy anchors, kept until the CMS moves",
        "(see the ticket)",
        "\u2014 HTTP2 move",
        "lowercase ur011 words",
    ],
)
def test_a_reason_after_the_codes_is_accepted(tmp_path: Path, reason: str) -> None:
    body = (
        f"<!-- sitemap-lint: disable-next-line UR008, UR011 {reason} -->\n"
        "<url><loc>https://example.com/caf\u00e9#x</loc></url>\n"
        f"<!-- sitemap-lint: disable-file DT004 {reason} -->\n"
        "<url><loc>https://example.com/b</loc><lastmod>2024-05-08T10:30:00</lastmod></url>\n"
    )
    assert _lint(tmp_path, body) == []


def test_a_reason_on_the_next_lines_of_the_comment(tmp_path: Path) -> None:
    body = (
        "<!-- sitemap-lint: disable-next-line UR008 the anchors\n"
        "     are kept for the old app -->\n"
        "<url><loc>https://example.com/a#x</loc></url>\n"
    )
    assert _lint(tmp_path, body) == []


@pytest.mark.parametrize(
    ("listed", "message"),
    [
        ("UR008 UR011", "write 'UR008, UR011' (a reason may follow"),
        ("UR008 UR011 old anchors", "write 'UR008, UR011 old anchors'"),
        ("UR008 UR old anchors", "write 'UR008, UR old anchors'"),
        ("UR008 XY12 old", "write 'UR008, XY12 old'"),
    ],
)
def test_a_code_written_after_a_space_is_no_reason(
    tmp_path: Path, listed: str, message: str
) -> None:
    body = (
        f"<!-- sitemap-lint: disable-next-line {listed} -->\n"
        "<url><loc>https://example.com/a#x</loc></url>\n"
    )
    result = lint(_write(tmp_path, body))
    assert found(result) == [("SU002", 3), ("UR008", 4)]
    (invalid,) = [f for f in result.findings if f.code == "SU002"]
    assert message in invalid.message, invalid.message


def test_a_double_hyphen_before_a_reason_is_named(tmp_path: Path) -> None:
    body = (
        "<!-- sitemap-lint: disable-next-line UR008 -- legacy anchors -->\n"
        "<url><loc>https://example.com/a#x</loc></url>\n"
    )
    first = lint(_write(tmp_path, body)).findings[0]
    assert (first.code, first.line, first.column) == ("XM001", 3, 44)
    assert first.message == (
        "'--' inside a comment, which XML allows only in its closing '-->'; write the "
        "directive's reason after a space: "
        "'<!-- sitemap-lint: disable-next-line UR008 legacy anchors -->'"
    )


def test_directive_findings_cannot_suppress_themselves(tmp_path: Path) -> None:
    body = (
        "<!-- sitemap-lint: disable-file SU -->\n"
        "<!-- sitemap-lint: disable-next-line UR008 -->\n"
        "<url><loc>https://example.com/</loc></url>\n"
    )
    # A directive naming SU codes cannot be read (SU002); the other suppresses nothing.
    assert _lint(tmp_path, body) == [("SU002", 3), ("SU001", 4)]


def test_a_directive_in_the_prolog(tmp_path: Path) -> None:
    path = tmp_path / "sitemap.xml"
    path.write_text(
        HEAD + "<!-- sitemap-lint: disable-next-line UR008 -->\n"
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url>'
        "<loc>https://example.com/#x</loc></url></urlset>\n"
    )
    assert found(lint(path)) == []


# -- what a directive is judged on ----------------------------------------------------------


def _directive_on(tmp_path: Path, codes: str) -> Path:
    path = tmp_path / "sitemap.xml"
    path.write_text(
        HEAD + f"<!-- sitemap-lint: disable-file {codes} -->\n" + URLSET + "<url>\n"
        f"<!-- sitemap-lint: disable-next-line {codes} -->\n"
        "<loc>https://example.com/a</loc></url>\n</urlset>\n"
    )
    return path


@pytest.mark.parametrize(
    ("codes", "sitemap_url"),
    [
        ("SC001", None),
        ("SC002", None),
        ("SC", None),
        ("SC003", "https://example.com/sitemap.xml"),
        ("RB007", None),
        ("LV001", None),
        ("LV", None),
        ("FE009", None),
    ],
)
def test_a_directive_for_a_rule_that_cannot_run_is_not_unused(
    tmp_path: Path, codes: str, sitemap_url: str | None
) -> None:
    """Whether SU001 speaks must not depend on the options a run was given (a pre-commit
    run without --sitemap-url, a CI run with it)."""
    assert found(lint(_directive_on(tmp_path, codes), sitemap_url)) == []


@pytest.mark.parametrize(
    ("codes", "sitemap_url"),
    [("SC001", "https://example.com/sitemap.xml"), ("SC003", None), ("UR008", None)],
)
def test_a_directive_for_a_rule_that_ran_and_found_nothing_is_unused(
    tmp_path: Path, codes: str, sitemap_url: str | None
) -> None:
    assert found(lint(_directive_on(tmp_path, codes), sitemap_url)) == [("SU001", 2), ("SU001", 5)]


def test_a_directive_for_robots_rules_is_judged_once_robots_txt_is_known(tmp_path: Path) -> None:
    from sitemap_lint.engine.checker import check_source
    from sitemap_lint.inputs.reader import Source
    from sitemap_lint.settings.options import Options
    from tests.helpers import NOW, engine

    path = _directive_on(tmp_path, "RB007")
    options = Options(now=NOW, robots=(("https://example.com/robots.txt", "User-agent: *\n"),))
    result = check_source(Source(str(path), path), options, engine("libxml2"))
    assert found(result) == [("SU001", 2), ("SU001", 5)]


def test_a_directive_naming_a_rule_reported_after_the_directives_cannot_be_read(
    tmp_path: Path,
) -> None:
    """FX001 is reported by --fix once the file's directives are applied: a directive
    naming it would never suppress it, so it is SU002, and a prefix naming it with other
    rules is not unused for its sake."""
    result = lint(_directive_on(tmp_path, "FX001"))
    assert found(result) == [("SU002", 2), ("SU002", 5)]
    assert "per-file-ignores" in result.findings[0].message
    assert found(lint(_directive_on(tmp_path, "F"))) == []


@pytest.mark.parametrize(
    ("comment", "reason"),
    [
        ("<!-- SITEMAP-LINT: disable-next-line UR008 -->", "in lower case"),
        ("<!-- Sitemap-Lint disable-next-line UR008 -->", "with a colon"),
    ],
)
def test_a_directive_with_the_tag_in_another_case_is_invalid(
    tmp_path: Path, comment: str, reason: str
) -> None:
    result = lint_text(tmp_path, comment)
    assert found(result) == [("SU002", 3), ("UR008", 4)]
    assert reason in result.findings[0].message


def test_a_comment_naming_the_tool_in_another_case_is_no_directive(tmp_path: Path) -> None:
    assert found(lint_text(tmp_path, "<!-- checked with Sitemap-Lint: all good -->")) == [
        ("UR008", 4)
    ]


def lint_text(tmp_path: Path, comment: str) -> FileResult:
    path = tmp_path / "sitemap.xml"
    path.write_text(
        HEAD + URLSET + comment + "\n<url><loc>https://example.com/a#x</loc></url>\n</urlset>\n"
    )
    return lint(path)

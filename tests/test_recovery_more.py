"""Recovery after syntax errors, more cases: an end tag whose '>' is missing, a raw '<'
in a value (with a raw '&' after it, in a URL or in text), and the comments the reader
passes while it looks for the place to resume. Each defect is one finding at its place,
the entry around it is read, the fixes the reports show are what ``--fix`` writes, and
the fast path changes nothing."""

from __future__ import annotations

import json
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

from sitemap_lint import fastpath
from tests.helpers import run_cli, without_and_with_fast_path

HEAD = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
    ' xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">\n'
)
TAIL = "</urlset>\n"
BAD_DATE = "<lastmod>2024-13-01</lastmod>"


def sitemap(*entries: str) -> str:
    return HEAD + "".join(f"  {entry}\n" for entry in entries) + TAIL


def entry(name: str, extra: str = "") -> str:
    return f"<url><loc>https://example.com/{name}</loc>{extra}</url>"


# Clean entries enough to take a file past the fast path's threshold.
PLAIN = [entry(f"p{n}") for n in range(400)]


def among_plain(*middle: str) -> list[str]:
    """``middle`` between the first and the last 200 of ``PLAIN``."""
    return [*PLAIN[:200], *middle, *PLAIN[200:]]


def position(text: str, needle: str, occurrence: int = 1) -> tuple[int, int]:
    """1-based line and column of the ``occurrence``-th ``needle`` in ``text``."""
    index = -1
    for _ in range(occurrence):
        index = text.index(needle, index + 1)
    before = text[:index].replace("\r\n", "\n")
    return before.count("\n") + 1, len(before) - (before.rfind("\n") + 1) + 1


def write(tmp_path: Path, text: str, name: str = "sitemap.xml") -> Path:
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8"))
    return path


def report(path: Path, capsys: pytest.CaptureFixture[str], form: str = "json") -> Any:
    _status, out, _err = run_cli(
        ["--isolated", "--now", "2025-06-01", "--format", form, str(path)], capsys
    )
    return json.loads(out)


def checked(tmp_path: Path, text: str, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    found: dict[str, Any] = report(write(tmp_path, text), capsys)["files"][0]
    return found


def places(found: dict[str, Any]) -> list[tuple[str, int, int]]:
    return [(f["code"], f["line"], f["column"]) for f in found["findings"]]


def by_code(found: dict[str, Any], code: str) -> list[dict[str, Any]]:
    return [f for f in found["findings"] if f["code"] == code]


def applied(text: str, found: dict[str, Any]) -> str:
    """``text`` with the edits of every fix the JSON report shows (each edit once)."""
    lines = text.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))

    def offset(where: dict[str, int]) -> int:
        return starts[where["line"] - 1] + where["column"] - 1

    edits = {
        (offset(e["location"]), offset(e["end_location"]), e["content"])
        for f in found["findings"]
        if f.get("fix")
        for e in f["fix"]["edits"]
    }
    spans = sorted(edits)
    for (_s, end, _c), (start, _e, _d) in pairwise(spans):
        assert end <= start, spans  # the edits of the report never overlap
    for start, end, content in reversed(spans):
        text = text[:start] + content + text[end:]
    return text


def fixed_agrees(
    tmp_path: Path, text: str, capsys: pytest.CaptureFixture[str]
) -> tuple[dict[str, Any], str]:
    """The JSON report of ``text``, and the file ``--fix`` writes: the report's edits
    give that file, its fixable count is what ``--diff`` says it would fix and the text
    report's ``[*] N fixable``."""
    path = write(tmp_path, text)
    found = report(path, capsys)["files"][0]
    fixable = sum(1 for f in found["findings"] if f.get("fix"))
    _status, out, err = run_cli(["--isolated", "--now", "2025-06-01", str(path)], capsys)
    assert f"[*] {fixable} fixable with --fix." in out + err
    _status, out, err = run_cli(["--isolated", "--now", "2025-06-01", "--diff", str(path)], capsys)
    finding = "finding" if fixable == 1 else "findings"
    assert f"Would fix {fixable} {finding} in 1 file." in out + err
    run_cli(["--isolated", "--now", "2025-06-01", "--fix", str(path)], capsys)
    after = path.read_text(encoding="utf-8")
    assert applied(text, found) == after
    return found, after


# -- an end tag whose '>' is missing ------------------------------------------------------


def test_an_entry_end_tag_without_its_gt_is_one_finding_and_the_entry_is_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = sitemap(entry("a"), entry("b", BAD_DATE)[:-1], entry("c", BAD_DATE))
    found = checked(tmp_path, text, capsys)
    assert places(found) == [
        ("DT002", *position(text, "<lastmod>")),
        ("XM001", *position(text, "</url\n")),
        ("DT002", *position(text, "<lastmod>", 2)),
    ]
    (syntax,) = by_code(found, "XM001")
    assert syntax["message"] == (
        "end tag '</url' is not closed: its '>' is missing; add '>' after the name: '</url>'"
    )
    assert found["urls"] == 3


@pytest.mark.parametrize(
    ("broken", "tag"),
    [
        # A comment after the end tag: read, its directive too.
        (
            entry("b")[:-1] + "\n  <!-- sitemap-lint: disable-next-line UR008 -->",
            "</url\n",
        ),
        # The end tag of a field, a line break after it, or a space.
        (entry("b", "\n    " + BAD_DATE).replace("</loc>", "</loc"), "</loc\n"),
        (entry("b", " " + BAD_DATE).replace("</loc>", "</loc"), "</loc "),
        # Spaces, then a line break.
        (entry("b", BAD_DATE)[:-1] + "  ", "</url "),
    ],
    ids=["comment after", "field, line break", "field, space", "spaces"],
)
def test_an_end_tag_without_its_gt_before_white_space_and_a_tag(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], broken: str, tag: str
) -> None:
    text = sitemap(entry("a"), broken, entry("c#x"), entry("d", BAD_DATE))
    found = checked(tmp_path, text, capsys)
    (syntax,) = by_code(found, "XM001")
    name = tag.strip()
    assert (syntax["line"], syntax["column"]) == position(text, tag)
    assert f"end tag '{name}' is not closed" in syntax["message"]
    dates = [position(text, "<lastmod>", n + 1) for n in range(text.count("<lastmod>"))]
    assert [(f["line"], f["column"]) for f in by_code(found, "DT002")] == dates
    directive = "disable-next-line" in text
    assert len(by_code(found, "UR008")) == (0 if directive else 1)
    assert found["urls"] == 4


def test_an_end_tag_without_its_gt_in_a_crlf_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = sitemap(entry("a"), entry("b", BAD_DATE)[:-1], entry("c", BAD_DATE))
    text = text.replace("\n", "\r\n")
    found = checked(tmp_path, text, capsys)
    assert places(found) == [
        ("DT002", *position(text, "<lastmod>")),
        ("XM001", *position(text, "</url\r")),
        ("DT002", *position(text, "<lastmod>", 2)),
    ]
    assert found["urls"] == 3


# -- a raw '<' in a value -----------------------------------------------------------------


def test_a_raw_less_than_in_a_loc_is_fixed_as_the_report_says(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = sitemap(entry("w?a<b"))
    found, after = fixed_agrees(tmp_path, text, capsys)
    (less,) = found["findings"]
    assert (less["code"], less["line"], less["column"]) == ("XM005", *position(text, "<b"))
    assert less["message"] == (
        "raw '<' in 'https://example.com/w?a<b'; percent-encode it in a URL: "
        "'https://example.com/w?a%3Cb'"
    )
    (edit,) = less["fix"]["edits"]
    assert edit["content"] == "%3C"
    assert less["fix"]["message"] == "Percent-encode the `<` as `%3C`"
    assert after == text.replace("a<b", "a%3Cb")
    assert found["urls"] == 1


def test_the_sarif_fix_of_a_raw_less_than_in_a_loc(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = sitemap(entry("w?a<b"))
    results = report(write(tmp_path, text), capsys, "sarif")["runs"][0]["results"]
    (result,) = results
    (change,) = result["fixes"][0]["artifactChanges"]
    (replacement,) = change["replacements"]
    line, column = position(text, "<b")
    assert replacement == {
        "deletedRegion": {
            "startLine": line,
            "startColumn": column,
            "endLine": line,
            "endColumn": column + 1,
        },
        "insertedContent": {"text": "%3C"},
    }


def test_a_raw_less_than_then_a_raw_ampersand_in_a_loc(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = sitemap(entry("w?a<b&c"), entry("x", BAD_DATE))
    found, after = fixed_agrees(tmp_path, text, capsys)
    assert places(found) == [
        ("XM005", *position(text, "<b")),
        ("XM004", *position(text, "&c")),
        ("DT002", *position(text, "<lastmod>")),
    ]
    less, amp = by_code(found, "XM005") + by_code(found, "XM004")
    url, written = "https://example.com/w?a<b&c", "https://example.com/w?a%3Cb&amp;c"
    assert less["message"] == f"raw '<' in {url!r}; percent-encode it in a URL: {written!r}"
    assert amp["message"] == f"raw '&' in {url!r}; escape it as {written!r}"
    assert after == text.replace("a<b&c", "a%3Cb&amp;c")
    assert found["urls"] == 2


def test_a_raw_less_than_and_another_defect_of_the_url(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The URL's other fix fits the file as it is: the fixes --fix applies are never
    more than the report's fixable ones."""
    text = sitemap(entry("a b<c"))
    path = write(tmp_path, text)
    found = report(path, capsys)["files"][0]
    assert [f["code"] for f in found["findings"] if f.get("fix")] == ["UR006", "XM005"]
    _status, out, err = run_cli(["--isolated", "--diff", str(path)], capsys)
    assert "Would fix 1 finding in 1 file." in out + err  # one edit fixes both
    run_cli(["--isolated", "--fix", str(path)], capsys)
    assert path.read_text(encoding="utf-8") == text.replace("a b<c", "a%20b%3Cc")


def test_a_raw_less_than_and_a_raw_ampersand_in_a_caption(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    caption = "<image:caption>a < b & c</image:caption>"
    image = f"<image:image><image:loc>https://example.com/i.png</image:loc>{caption}</image:image>"
    text = sitemap(entry("a", image), entry("b", BAD_DATE))
    found, after = fixed_agrees(tmp_path, text, capsys)
    (less,) = by_code(found, "XM005")
    (amp,) = by_code(found, "XM004")
    assert (less["line"], less["column"]) == position(text, "< b")
    assert (amp["line"], amp["column"]) == position(text, "& c")
    assert less["message"] == "raw '<' in 'a < b & c'; escape it: 'a &lt; b &amp; c'"
    assert amp["message"] == "raw '&' in 'a < b & c'; escape it as 'a &lt; b &amp; c'"
    assert less["fix"]["edits"][0]["content"] == "&lt;"
    assert after == text.replace("a < b & c", "a &lt; b &amp; c")
    assert len(by_code(found, "DT002")) == 1
    assert found["urls"] == 2


# -- comments while the reader looks for the place to resume ------------------------------


def test_a_directive_after_a_syntax_error_is_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = sitemap(
        entry("a").replace("</loc>", "</lco>"),
        "<!-- sitemap-lint: disable-next-line UR008 -->",
        entry("b#x"),
    )
    found = checked(tmp_path, text, capsys)
    assert places(found) == [("XM001", *position(text, "</lco>"))]
    assert "mismatched tag" in found["findings"][0]["message"]


def test_a_file_directive_after_a_syntax_error_is_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = sitemap(
        entry("a").replace("</loc>", "</lco>"),
        "<!-- sitemap-lint: disable-file UR008 -->\n",
        entry("b#x"),
        entry("c#y"),
    )
    found = checked(tmp_path, text, capsys)
    assert places(found) == [("XM001", *position(text, "</lco>"))]


def test_lines_of_comments_and_white_space_are_not_skipped_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = sitemap(
        entry("a").replace("</loc>", "</lco>"),
        "<!-- one\n  two -->\n\n  <!-- three --> <!-- four -->",
        entry("b#x"),
    )
    found = checked(tmp_path, text, capsys)
    assert [code for code, _line, _column in places(found)] == ["XM001", "UR008"]


def test_skipped_lines_are_named_without_the_comments_around_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = sitemap(
        entry("a").replace("</loc>", "</lco>"),
        "<!-- one -->\n  <lost>x</lost>\n  <!-- two -->\n  <lost>y</lost>\n  <!-- three -->",
        entry("b"),
    )
    found = checked(tmp_path, text, capsys)
    skipped = [f for f in by_code(found, "XM001") if "skipped" in f["message"]]
    first, last = position(text, "<lost>")[0], position(text, "<lost>", 2)[0]
    assert [(f["line"], f["column"]) for f in skipped] == [(first, 1)]
    assert skipped[0]["message"].startswith(f"lines {first}-{last} were skipped")


def test_a_comment_holding_the_next_entry_is_still_no_place_to_skip_to(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A comment is read whole only when no place to resume stands in it: reading
    resumes there as before (the comment is broken off, not the entries after it)."""
    text = sitemap(
        entry("a").replace("</loc>", "</lco>"),
        "<!-- " + entry("b", BAD_DATE) + " -->",
        entry("c", BAD_DATE),
    )
    found = checked(tmp_path, text, capsys)
    assert ("DT002", *position(text, "<lastmod>", 2)) in places(found)


# -- the fast path changes nothing --------------------------------------------------------


@pytest.mark.parametrize("newline", ["\n", "\r\n", ""], ids=["LF", "CR LF", "one line"])
def test_the_fast_path_changes_nothing(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    newline: str,
) -> None:
    damaged = [
        entry("b", BAD_DATE)[:-1] + " ",  # an end tag without its '>'
        entry("c<d&e"),  # a raw '<' and a raw '&'
        entry("f<g"),
        entry("h", BAD_DATE).replace("</loc>", "</lco>"),
        "<!-- sitemap-lint: disable-next-line UR008 -->",
        entry("i#x"),
    ]
    entries = [*PLAIN[:100], damaged[0], *PLAIN[100:200], damaged[1], *PLAIN[200:], *damaged[2:]]
    if not newline:  # the directive names the next line: on one line, the entry stays
        entries = [e for e in entries if "sitemap-lint" not in e]
    text = HEAD.replace("\n", newline) + newline.join(entries) + newline + TAIL
    assert len(text) > fastpath.SMALL
    slow, fast = without_and_with_fast_path(monkeypatch, lambda: checked(tmp_path, text, capsys))
    assert fast == slow
    as_read = text.replace("\r\n", "\n")
    expected = [
        ("DT002", *position(as_read, "<lastmod>")),
        ("XM001", *position(as_read, "</url ")),
        ("XM005", *position(as_read, "<d&e")),
        ("XM004", *position(as_read, "&e")),
        ("XM005", *position(as_read, "<g")),
        ("XM001", *position(as_read, "</lco>")),
    ]
    if not newline:
        expected.append(("UR008", *position(as_read, "<loc>https://example.com/i#x")))
    assert sorted(places(fast)) == sorted(expected)
    assert fast["urls"] == len([e for e in entries if e.startswith("<url>")]) - 1


# -- a malformed XML declaration ------------------------------------------------------------

BODY = (
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
    "  <url><loc>/about</loc><priority>1.5</priority></url>\n"
    "</urlset>\n"
)


@pytest.mark.parametrize(
    ("declaration", "column", "problem"),
    [
        ('<?xml version="1.0" encoding="UTF-8">', 37, "'?>' expected at its end"),  # the '>'
        ('<?xml version="1.0" encoding="UTF-8"', 37, "'?>' expected at its end"),  # after it
        ("<?xml>", 6, "'?>' expected at its end"),
        ('<?xml version=1.0 encoding="UTF-8"?>', 15, 'not in quotes: version="1.0"'),
        ('<?xml version="1.0" standalone="maybe"?>', 33, "'yes' or 'no', not 'maybe'"),
        ('<?xml encoding="UTF-8"?>', 7, 'version="1.0" is missing'),
        ('<?xml version="1.0" encoding="UTF-8"??>', 37, "'?' does not belong there"),
        ('<?xml version="1.0"encoding="UTF-8"?>', 20, "a space is missing before 'encoding'"),
        ('<?xml version="1.0" standalone="no" encoding="UTF-8"?>', 37, "out of order"),
    ],
)
def test_a_malformed_declaration_is_one_finding_and_the_check_goes_on(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    declaration: str,
    column: int,
    problem: str,
) -> None:
    text = declaration + "\n" + BODY
    slow, fast = without_and_with_fast_path(monkeypatch, lambda: checked(tmp_path, text, capsys))
    assert fast == slow
    assert places(slow) == [
        ("XM001", 1, column),
        ("UR001", *position(text, "<loc>")),
        ("VA003", *position(text, "<priority>")),
    ]
    message = slow["findings"][0]["message"]
    assert message.startswith("not well-formed XML: XML declaration not well-formed at '<?xml")
    assert problem in message and message.endswith('; write <?xml version="1.0" encoding="UTF-8"?>')
    assert (slow["kind"], slow["urls"]) == ("urlset", 1)


@pytest.mark.parametrize("newline", ["\n", "\r\n", ""], ids=["LF", "CR LF", "one line"])
@pytest.mark.parametrize(
    "declaration",
    ['<?xml version="1.0" encoding="UTF-8">', '<?xml version=1.0 encoding="UTF-8"?>'],
    ids=["no end", "unquoted"],
)
def test_after_a_malformed_declaration_the_fast_path_changes_nothing(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    declaration: str,
    newline: str,
) -> None:
    entries = [*among_plain(entry("b", BAD_DATE)), entry("c&d")]
    head = HEAD.replace('<?xml version="1.0" encoding="UTF-8"?>', declaration)
    text = head.replace("\n", newline) + newline.join(entries) + newline + TAIL
    assert len(text) > fastpath.SMALL
    slow, fast = without_and_with_fast_path(monkeypatch, lambda: checked(tmp_path, text, capsys))
    assert fast == slow
    as_read = text.replace("\r\n", "\n")
    first = places(slow)[0]
    assert first[:2] == ("XM001", 1)
    assert places(slow)[1:] == [
        ("DT002", *position(as_read, "<lastmod>")),
        ("XM004", *position(as_read, "&d")),
    ]
    assert (slow["kind"], slow["urls"]) == ("urlset", 402)


@pytest.mark.parametrize(
    ("opening", "what", "closer"),
    [
        ("<!-- old entries", "comment", "-->"),
        ("<?generator version 2", "processing instruction", "?>"),
        ("<url><loc><![CDATA[https://example.com/x</loc></url>", "CDATA section", "]]>"),
    ],
    ids=["comment", "instruction", "CDATA"],
)
@pytest.mark.parametrize("size", ["small", "past the fast path's threshold"])
def test_a_section_never_closed_is_one_finding_and_the_entries_after_it_are_read(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    opening: str,
    what: str,
    closer: str,
    size: str,
) -> None:
    count = 2 if size == "small" else 200
    before = [entry(f"p{n}") for n in range(count)]
    after = [entry(f"q{n}") for n in range(count)] + [entry("late", BAD_DATE)]
    text = sitemap(*before, opening, *after)
    assert (len(text) > fastpath.SMALL) == (size != "small")
    slow, fast = without_and_with_fast_path(monkeypatch, lambda: checked(tmp_path, text, capsys))
    assert fast == slow
    start = opening.index("<![CDATA[") if "CDATA" in opening else 0
    line, column = position(text, opening)
    assert places(slow) == [
        ("XM001", line, column + start),
        ("DT002", *position(text, "<lastmod>")),
    ]
    message = slow["findings"][0]["message"]
    assert message.startswith(f"this {what} is never closed: no '{closer}' follows it")
    assert message.endswith("(the entries after it were read and checked)")
    # Every entry but the one the section starts in.
    assert slow["urls"] == 2 * count + 1


@pytest.mark.parametrize(
    ("text", "code"),
    [
        (sitemap(entry("a")) + "<!-- after the root", "XM001"),
        (HEAD + "  " + entry("a") + "\n  <!-- cut short", "XM008"),
        (HEAD.replace("<urlset", "<!-- before the root\n<urlset") + entry("a") + TAIL, "XM001"),
    ],
    ids=["after the root", "at the end of a cut file", "before the root"],
)
def test_a_comment_the_file_ends_in_is_one_finding(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, code: str
) -> None:
    found = checked(tmp_path, text, capsys)
    assert [finding["code"] for finding in found["findings"]] == [code]
    if code == "XM001":
        assert found["findings"][0]["message"].startswith("this comment is never closed")


# -- attribute values without XML's quotes -------------------------------------------------


@pytest.mark.parametrize(
    ("written", "how"),
    [
        ("\u201chttp://www.sitemaps.org/schemas/sitemap/0.9\u201d", "is in \u201c\u201d"),
        ("\u00abhttp://www.sitemaps.org/schemas/sitemap/0.9\u00bb", "is in \u00ab\u00bb"),
        ("\u2018http://www.sitemaps.org/schemas/sitemap/0.9\u2019", "is in \u2018\u2019"),
        ('\u201chttp://www.sitemaps.org/schemas/sitemap/0.9"', 'is in \u201c"'),
        ("`http://www.sitemaps.org/schemas/sitemap/0.9`", "is in ``"),
        ("http://www.sitemaps.org/schemas/sitemap/0.9", "has no quotes"),
    ],
)
def test_a_root_namespace_without_straight_quotes_is_one_finding_with_a_fix(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], written: str, how: str
) -> None:
    text = sitemap(entry("a")).replace('"http://www.sitemaps.org/schemas/sitemap/0.9"', written)
    found, after = fixed_agrees(tmp_path, text, capsys)
    assert places(found) == [("XM011", *position(text, written))]
    assert found["findings"][0]["message"] == (
        f"the value of xmlns {how}: XML needs straight quotes; write "
        'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
    )
    assert after == sitemap(entry("a"))


def test_each_unquoted_value_of_a_tag_is_a_finding_and_the_next_entries_are_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    link = "<image:image><image:loc id=a class=\u201cb\u201d>https://example.com/i.png</image:loc></image:image>"
    text = sitemap(*among_plain(entry("x", link)), entry("late", BAD_DATE))
    assert len(text) > fastpath.SMALL
    slow, fast = without_and_with_fast_path(monkeypatch, lambda: checked(tmp_path, text, capsys))
    assert fast == slow
    # The tag is read written right: the entry is checked (no attribute stands there).
    assert places(slow) == [
        ("XS001", *position(text, "<image:loc")),
        ("XM011", *position(text, "a class")),
        ("XM011", *position(text, "\u201cb")),
        ("DT002", *position(text, "<lastmod>")),
    ]
    assert slow["urls"] == 402
    _found, after = fixed_agrees(tmp_path, text, capsys)
    assert 'id="a" class="b">' in after


# -- the root's start tag ----------------------------------------------------------------

ROOT = '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
IMAGE = ' xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"'
ROOT_DEFECTS = [
    # (the root's start tag as written, where each defect stands, what its finding says)
    (ROOT + IMAGE, [(IMAGE, len(IMAGE))], ["XM001 <urlset> is not closed: its '>' is missing"]),
    (ROOT + IMAGE[:-1] + ">", [(IMAGE[:-1] + ">", len(IMAGE) - 1)], ["XM001 the value of"]),
    (ROOT + IMAGE.lstrip() + ">", [("xmlns:image", 0)], ["XM001 no white space between"]),
    (
        ROOT + IMAGE.replace('"', "\u201c", 1).replace('"', "\u201d") + ">",
        [("\u201c", 0)],
        ["XM011 the value of xmlns:image is in \u201c\u201d"],
    ),
    (
        ROOT.replace('="', '=\u201d"', 1) + IMAGE + ">",
        [("\u201d", 0)],
        ["XM011 a stray \u201d stands before the value of xmlns; remove it"],
    ),
    (
        ROOT.replace('"', "") + IMAGE.replace('"', "") + ">",
        [("http://www.sitemaps", 0), ("http://www.google", 0)],
        ["XM011 the value of xmlns has no quotes", "XM011 the value of xmlns:image has no"],
    ),
]


@pytest.mark.parametrize(("tag", "defects", "says"), ROOT_DEFECTS)
@pytest.mark.parametrize("layout", ["pretty", "attributes on lines", "large"])
def test_a_defect_of_the_root_tag_is_named_and_the_file_is_read_on(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tag: str,
    defects: list[tuple[str, int]],
    says: list[str],
    layout: str,
) -> None:
    if layout == "attributes on lines":
        tag = tag.replace(" xmlns:image", "\n        xmlns:image")
    count = 300 if layout == "large" else 1
    entries = [entry(f"p{n}") for n in range(count)] + [entry("late", BAD_DATE)]
    text = sitemap(*entries).replace(HEAD.splitlines()[1], tag, 1)
    slow, fast = without_and_with_fast_path(monkeypatch, lambda: checked(tmp_path, text, capsys))
    assert fast == slow
    places_of_defects = [position(text, needle, 1) for needle, _shift in defects]
    expected = [
        (says_one.split()[0], line, column + shift)
        for says_one, (line, column), (_needle, shift) in zip(
            says, places_of_defects, defects, strict=True
        )
    ]
    assert places(slow) == [*expected, ("DT002", *position(text, "<lastmod>"))]
    for finding, says_one in zip(slow["findings"], says, strict=False):
        assert f"{finding['code']} {finding['message']}".startswith(says_one)
    assert slow["urls"] == count + 1


@pytest.mark.parametrize(
    "tag", [ROOT + IMAGE, ROOT.replace('"', "") + ">"], ids=["'>' missing", "bare value"]
)
def test_a_root_tag_on_a_line_with_the_entries_is_named_and_the_file_is_read_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tag: str
) -> None:
    # The tag is read written right; what follows it on the line stands where the file
    # has it.
    entries = [entry(f"p{n}") for n in range(300)] + [entry("a", BAD_DATE), entry("b")]
    text = sitemap(*entries).replace("\n", "").replace(HEAD.splitlines()[1], tag)
    slow, fast = without_and_with_fast_path(monkeypatch, lambda: checked(tmp_path, text, capsys))
    assert fast == slow
    codes = [code for code, _line, _column in places(slow)]
    assert codes in (["XM001", "DT002"], ["XM011", "DT002"])
    assert places(slow)[1] == ("DT002", *position(text, "<lastmod>"))
    assert "fix the markup here" not in slow["findings"][0]["message"]
    assert slow["urls"] == 302


def test_typographic_quotes_in_an_entry_are_read_as_xml_quotes_and_the_entry_is_checked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    curly = "\u201c{}\u201d"
    image = (
        f"<image:image><image:loc id={curly.format('a')} class={curly.format('b')}>"
        "https://example.com/i.png</image:loc></image:image>"
    )
    text = sitemap(*among_plain(entry("x", BAD_DATE + image)))
    slow, fast = without_and_with_fast_path(monkeypatch, lambda: checked(tmp_path, text, capsys))
    assert fast == slow
    assert places(slow) == [
        ("DT002", *position(text, "<lastmod>")),
        ("XS001", *position(text, "<image:loc")),  # the entry is read: no attribute there
        ("XM011", *position(text, "\u201ca")),
        ("XM011", *position(text, "\u201cb")),
    ]
    assert slow["urls"] == 401


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_bare_values_in_a_tag_that_ends_its_line_are_read_quoted_and_the_entry_is_checked(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    newline: str,
) -> None:
    link = "<xhtml:link rel=alternate hreflang=en_GB href=https://example.com/x />"
    bad = f"<url>{newline}<loc>https://example.com/x</loc>{newline}{link}{newline}{BAD_DATE}</url>"
    text = sitemap(*among_plain(bad)).replace(
        "xmlns=", 'xmlns:xhtml="http://www.w3.org/1999/xhtml" xmlns=', 1
    )
    slow, fast = without_and_with_fast_path(monkeypatch, lambda: checked(tmp_path, text, capsys))
    assert fast == slow
    assert places(slow) == [
        ("HL003", *position(text, "<xhtml:link")),  # the entry is read, its values too
        ("XM011", *position(text, "alternate")),
        ("XM011", *position(text, "en_GB")),
        ("XM011", *position(text, "https://example.com/x />")),
        ("DT002", *position(text, "<lastmod>")),
        ("ST005", *position(text, "<lastmod>")),
    ]
    assert slow["urls"] == 401


def test_a_raw_less_than_before_a_tag_name_in_a_value_is_text_and_the_entry_is_checked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # "<<b>": the first "<" opens no tag, so the second is glued to text (a raw one too).
    bad = "<url><loc>https://example.com/x?q=<<b>y</loc>" + BAD_DATE + "</url>"
    text = sitemap(*among_plain(bad))
    slow, fast = without_and_with_fast_path(monkeypatch, lambda: checked(tmp_path, text, capsys))
    assert fast == slow
    line, column = position(text, "<<b>")
    assert places(slow) == [
        ("UR006", *position(text, "<loc>https://example.com/x?")),
        ("XM005", line, column),
        ("XM005", line, column + 1),
        ("DT002", *position(text, "<lastmod>")),
    ]
    assert slow["urls"] == 401


@pytest.mark.parametrize(
    "stray",
    ["<<b>", "<", "<<<b>", "< ", "\n    <<b>\n    "],
    ids=["glued tag", "alone", "a run", "before a space", "on its own line"],
)
def test_a_stray_less_than_between_an_entrys_elements_is_one_finding_and_the_entry_is_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, stray: str
) -> None:
    # The entry reads as it would without the stray markup: its fields are checked, and
    # the entries after it on the same line too.
    def bad(name: str) -> str:
        return entry(name, BAD_DATE).replace("<loc>", stray + "<loc>", 1)

    one_line = entry("p", BAD_DATE) + bad("x") + entry("y", BAD_DATE)
    text = sitemap(*among_plain(one_line, bad("w"), entry("z", BAD_DATE)))
    slow, fast = without_and_with_fast_path(monkeypatch, lambda: checked(tmp_path, text, capsys))
    assert fast == slow
    needle = stray.lstrip() + "<loc>https://example.com/"
    assert places(slow) == [
        ("DT002", *position(text, "<lastmod>")),
        ("XM001", *position(text, needle)),
        ("DT002", *position(text, "<lastmod>", 2)),
        ("DT002", *position(text, "<lastmod>", 3)),
        ("XM001", *position(text, needle, 2)),
        ("DT002", *position(text, "<lastmod>", 4)),
        ("DT002", *position(text, "<lastmod>", 5)),
    ]
    assert "a stray '<' between elements" in by_code(slow, "XM001")[0]["message"]
    assert slow["urls"] == 405


@pytest.mark.parametrize("defect", ["&", "&nbsp;", "\x01", "<", " a > b &"])
def test_the_fields_after_a_defect_in_a_long_entry_are_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, defect: str
) -> None:
    # Too long to be read again from its start: the entry is read on where the defect
    # stands, its fields after it included.
    caption = "c" * 70_000
    image = (
        "<image:image><image:loc>https://example.com/i.png</image:loc>"
        f"<image:caption>{caption}{defect}</image:caption></image:image>"
    )
    text = sitemap(*among_plain(entry("x", image + BAD_DATE), entry("y", BAD_DATE)))
    slow, fast = without_and_with_fast_path(monkeypatch, lambda: checked(tmp_path, text, capsys))
    assert fast == slow
    codes = [code for code, _line, _column in places(slow)]
    assert len([c for c in codes if c.startswith("XM")]) == 1
    assert [p for p in places(slow) if p[0] == "DT002"] == [
        ("DT002", *position(text, "<lastmod>")),
        ("DT002", *position(text, "<lastmod>", 2)),
    ]
    assert slow["urls"] == 402


@pytest.mark.parametrize("layout", ["pretty", "one line"])
def test_bare_values_in_a_tag_with_more_on_its_line_are_read_quoted_and_the_entry_is_checked(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    layout: str,
) -> None:
    # Quoting the values moves what follows on the line: it is placed back where the
    # file has it, so the entry's findings and those after it stand where they belong.
    link = "<xhtml:link rel=alternate hreflang=en_GB href=https://example.com/x />"
    bad = entry("x", link + BAD_DATE) + entry("y", BAD_DATE)
    text = sitemap(*among_plain(bad, entry("z", BAD_DATE).replace("<url>", "<url id=z>"))).replace(
        "xmlns=", 'xmlns:xhtml="http://www.w3.org/1999/xhtml" xmlns=', 1
    )
    if layout == "one line":
        text = text.replace("\n", "")
    slow, fast = without_and_with_fast_path(monkeypatch, lambda: checked(tmp_path, text, capsys))
    assert fast == slow
    assert places(slow) == [
        ("HL003", *position(text, "<xhtml:link")),
        ("XM011", *position(text, "alternate")),
        ("XM011", *position(text, "en_GB href")),
        ("XM011", *position(text, "https://example.com/x />")),
        ("DT002", *position(text, "<lastmod>")),
        ("ST005", *position(text, "<lastmod>")),
        ("DT002", *position(text, "<lastmod>", 2)),
        ("ST010", *position(text, "<url id=z>")),
        ("XM011", *position(text, "z>")),
        ("DT002", *position(text, "<lastmod>", 3)),
    ]
    assert slow["urls"] == 403


@pytest.mark.parametrize(("tag", "_defects", "_says"), ROOT_DEFECTS)
def test_fix_writes_the_root_tag_right(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    tag: str,
    _defects: list[tuple[str, int]],
    _says: list[str],
) -> None:
    right = HEAD.splitlines()[1]
    text = sitemap(entry("a")).replace(right, tag, 1)
    _found, after = fixed_agrees(tmp_path, text, capsys)
    assert after == sitemap(entry("a"))


# -- an undeclared prefix in a tag whose value the reader repaired ------------------------


@pytest.mark.parametrize(("prefix", "read"), [("xhtml", True), ("foo", False)])
def test_an_undeclared_prefix_in_a_repaired_tag_is_reported(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    prefix: str,
    read: bool,
) -> None:
    # The raw "&" in the href stops the reader first; once it is repaired, the tag's
    # undeclared prefix stops it at the tag's "<", before the value: a defect of its own,
    # not a repair that did not help (the entry was lost without a word of the prefix).
    link = f'<{prefix}:link rel="alternate" hreflang="en" href="https://example.com/h?a&b"/>'
    damaged = entry("a", link + "<priority>0,5</priority>")
    text = sitemap(*among_plain(damaged))
    slow, fast = without_and_with_fast_path(monkeypatch, lambda: checked(tmp_path, text, capsys))
    assert fast == slow
    codes = {code for code, _line, _column in places(slow)}
    assert ("XM009", *position(text, f"<{prefix}:link")) in places(slow)
    assert ("XM004", *position(text, "&b")) in places(slow)
    assert ("VA003" in codes) is read  # the entry's other fields are checked
    assert slow["urls"] == len(PLAIN) + read

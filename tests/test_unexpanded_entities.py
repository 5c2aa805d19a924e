"""Entity references a DOCTYPE's entities make are never expanded (and nothing is
fetched): the value keeps the reference as written, so it is neither equal to the
value without it (no false DU001) nor rewritten or removed by a fix, but for the escape
of a raw '&' in it (XM004), which leaves the reference as written."""

from __future__ import annotations

from pathlib import Path

import pytest

from sitemap_lint.cli import main
from tests.helpers import codes, lint_content

# An external subset makes an undeclared entity (&b;) legal XML that expat skips, as
# it skips the internal one (&a;); the external one (&xxe;) is passed through.
DOCTYPE = """<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE urlset SYSTEM "https://example.com/sitemap.dtd" [
  <!ENTITY a "a">
  <!ENTITY xxe SYSTEM "file:///etc/passwd">
]>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
{entries}</urlset>
"""

PLAIN = """<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>{loc}</loc></url>
</urlset>
"""


def sitemap(*locs: str) -> str:
    return DOCTYPE.format(entries="".join(f"  <url><loc>{loc}</loc></url>\n" for loc in locs))


@pytest.mark.parametrize("reference", ["&xxe;", "&b;", "&a;"])
def test_a_value_with_an_unexpanded_entity_is_not_the_value_without_it(
    tmp_path: Path, reference: str, no_network: None
) -> None:
    result = lint_content(
        tmp_path, sitemap(f"https://example.com/{reference}", "https://example.com/")
    )
    assert "DU001" not in codes(result)
    assert codes(result) == ["XM003"]


def test_the_value_keeps_the_reference_as_written_in_messages(tmp_path: Path) -> None:
    result = lint_content(tmp_path, sitemap(" https://example.com/x&xxe;y "))
    (finding,) = [f for f in result.findings if f.code == "UR005"]
    assert "https://example.com/x&xxe;y" in finding.message
    assert finding.fix is None  # trimmed, the reference would be written as &amp;xxe;


def test_the_same_reference_twice_is_a_duplicate_without_a_fix(tmp_path: Path) -> None:
    result = lint_content(tmp_path, sitemap("https://example.com/&b;", "https://example.com/&b;"))
    (finding,) = [f for f in result.findings if f.code == "DU001"]
    assert finding.line == 8 and finding.fix is None


def test_fixes_leave_every_value_with_a_reference_as_it_is(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "sitemap.xml"
    path.write_text(
        sitemap(
            "https://example.com/&b;",
            "https://example.com/",
            " https://example.com/&xxe; ",
            "https://example.com/café&a;",
            "https://other.example/&a;",
        ),
        encoding="utf-8",
    )
    before = path.read_bytes()
    flags = ["--isolated", "--unsafe-fixes", "--sitemap-url", "https://example.com/sitemap.xml"]
    assert main([*flags, "--diff", str(path)]) == 0
    assert capsys.readouterr().err == "No fixes available.\n"
    main([*flags, "--fix-only", str(path)])
    assert path.read_bytes() == before


@pytest.mark.parametrize(
    ("text", "fixed"),
    [
        (  # under a DOCTYPE that declares the entity
            sitemap("https://example.com/&a;?x=1&y=2", " https://example.com/&a; p?x=1&y=2 "),
            sitemap(
                "https://example.com/&a;?x=1&amp;y=2", " https://example.com/&a; p?x=1&amp;y=2 "
            ),
        ),
        (  # an undefined entity, without a DOCTYPE
            PLAIN.format(loc="https://example.com/a&nbsp;b?x=1&y=2"),
            PLAIN.format(loc="https://example.com/a&nbsp;b?x=1&amp;y=2"),
        ),
    ],
    ids=["declared", "undefined"],
)
def test_only_the_raw_ampersand_of_a_value_with_a_reference_is_fixed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, fixed: str
) -> None:
    # XM004's edit is the "&" alone: the reference stays as written, and the value's
    # other defects (the white space, the space) are left, as the value is not known.
    path = tmp_path / "sitemap.xml"
    path.write_text(text, encoding="utf-8")
    flags = ["--isolated", "--unsafe-fixes", "--no-show-source"]
    assert main([*flags, "--fix-only", str(path)]) == 0
    assert path.read_text(encoding="utf-8") == fixed
    count = fixed.count("&amp;")
    assert capsys.readouterr().err == f"Fixed {count} finding{'s' * (count > 1)} in 1 file.\n"


@pytest.mark.parametrize(
    "doctype",
    [
        "<!DOCTYPE urlset>",
        '<!DOCTYPE urlset [<!ENTITY a "a">]>',
        '<!DOCTYPE urlset SYSTEM "https://example.com/s.dtd" [<!ENTITY a "a">]>',
    ],
)
def test_reading_goes_on_after_an_undefined_entity_under_a_doctype(
    tmp_path: Path, doctype: str
) -> None:
    # Without an external subset &zz; is an error; reading resumes after it as it does
    # without a DOCTYPE, and a declared entity in a later entry reads as it did before.
    content = f"""<?xml version="1.0" encoding="UTF-8"?>
{doctype}
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>https://example.com/&zz;</loc></url>
  <url><loc>https://example.com/&a;</loc></url>
  <url><loc>https://example.com/page</loc></url>
  <url><loc>https://example.com/page</loc></url>
</urlset>
"""
    result = lint_content(tmp_path, content)
    external = "SYSTEM" in doctype
    declared = "ENTITY a" in doctype or external
    assert [(f.code, f.line) for f in result.findings if f.code != "XM003"] == [
        *([] if external else [("XM006", 4)]),
        *([] if declared else [("XM006", 5)]),
        ("DU001", 7),
    ]
    assert result.urls == 4

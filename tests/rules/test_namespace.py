"""Namespace family: each rule's failing fixtures give exactly the expected finding; passing ones none."""

from __future__ import annotations

from pathlib import Path

import pytest

from sitemap_lint.model import SITEMAP_NS
from sitemap_lint.rules import namespace
from tests.helpers import found, lint, write
from tests.helpers import message as message_of


def test_extension_look_alike_names_the_exact_namespace() -> None:
    message = message_of("NS004/fail.xml")
    assert "'http://www.google.com/schemas/sitemap-image/1.1'" in message


# -- messages name the exact fix ---------------------------------------------------


@pytest.mark.parametrize(
    ("fixture", "difference"),
    [
        ("fail.xml", "(https instead of http)"),
        ("fail-trailing-slash.xml", "(a trailing slash)"),
        ("fail-no-www.xml", "(no www)"),
        ("fail-https-no-www-slash.xml", "(https instead of http, no www, a trailing slash)"),
        ("fail-google-084.xml", "(Google's namespace from before sitemaps.org)"),
        ("fail-version-090.xml", "(version 0.90 instead of 0.9)"),
        ("fail-schema-address.xml", "(the schema file's address, not the namespace)"),
    ],
)
def test_wrong_namespace_names_difference_and_fix(fixture: str, difference: str) -> None:
    message = message_of(f"NS002/{fixture}")
    assert difference in message
    assert f'write xmlns="{SITEMAP_NS}"' in message


@pytest.mark.parametrize(
    ("ns", "difference"),
    [
        (" http://www.sitemaps.org/schemas/sitemap/0.9", "surrounding whitespace"),
        ("http://www.Sitemaps.org/schemas/sitemap/0.9", "different letter case"),
        ("HTTP://www.sitemaps.org/schemas/sitemap/0.9", "different letter case"),
        ("www.sitemaps.org/schemas/sitemap/0.9", "no http:// at the start"),
    ],
)
def test_wrong_namespace_other_look_alikes(ns: str, difference: str) -> None:
    finding = namespace.check_root(ns, "urlset", 2, 1)
    assert finding is not None and finding.code == "NS002"
    assert f"({difference})" in finding.message


def test_unrelated_namespace_has_no_made_up_difference() -> None:
    message = message_of("NS002/fail-other.xml")
    assert "not the sitemap namespace; write xmlns=" in message


def test_missing_namespace_names_the_fix() -> None:
    assert f'add xmlns="{SITEMAP_NS}"' in message_of("NS001/fail.xml")


def test_wrong_extension_version_names_the_right_one() -> None:
    message = message_of("NS004/fail-image-version.xml")
    assert (
        "is not 'http://www.google.com/schemas/sitemap-image/1.1' (version 1.0 instead" in message
    )


@pytest.mark.parametrize(
    ("declaration", "element", "expected"),
    [
        # Not a URI at all, on an element named like the extension's own: NS004.
        (
            'xmlns:xhtml="xhtml"',
            '<xhtml:link rel="alternate" hreflang="en" href="https://example.com/"/>',
            "NS004",
        ),
        # A misspelt Google extension namespace.
        (
            'xmlns:video="http://www.google.com/schemas/sitemap-vidoe/1.1"',
            "<video:video/>",
            "NS004",
        ),
        ('xmlns:image="http://www.google.com/schema/sitemap-image/1.1"', "<image:image/>", "NS004"),
        # Look-alikes, as before.
        ('xmlns:news="https://www.google.com/schemas/sitemap-news/0.9/"', "<news:news/>", "NS004"),
        # Another Google extension, or a namespace of one's own: not validated, a warning.
        ('xmlns:geo="http://www.google.com/schemas/sitemap-geo/1.0"', "<geo:geo/>", "NS003"),
        ('xmlns:x="https://example.com/x"', "<x:image/>", "NS003"),
        ('xmlns:image="image"', "<image:image/>", "NS004"),
        ('xmlns:x="https://example.com/x"', "<x:rank/>", "NS003"),
    ],
)
def test_wrong_namespace_of_a_known_extension(
    tmp_path: Path, declaration: str, element: str, expected: str
) -> None:
    path = write(
        tmp_path,
        "sitemap.xml",
        f"""<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="{SITEMAP_NS}" {declaration}>
  <url>
    <loc>https://example.com/</loc>
    {element}
  </url>
</urlset>
""",
    )
    assert [code for code, _line in found(lint(path)) if code.startswith("NS")] == [expected]


def test_unvalidated_namespace_without_close_match() -> None:
    message = message_of("NS003/fail.xml")
    assert "'https://example.com/schemas/ranking'" in message
    assert "did you mean" not in message


# -- the rest of the file is still checked -------------------------------------------


@pytest.mark.parametrize("xmlns", ["", ' xmlns="https://www.sitemaps.org/schemas/sitemap/0.9"'])
def test_entries_are_checked_despite_the_root_namespace(tmp_path: Path, xmlns: str) -> None:
    path = write(
        tmp_path,
        "sitemap.xml",
        f"""<?xml version="1.0" encoding="UTF-8"?>
<urlset{xmlns} xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
  <url>
    <loc>https://example.com/</loc>
  </url>
  <url>
    <lastmod>2025-05-20</lastmod>
  </url>
  <url>
    <loc>https://example.com/b</loc>
    <changefrec>daily</changefrec>
  </url>
  <url>
    <loc>https://example.com/c</loc>
    <image:image><image:loc>https://example.com/a.jpg</image:loc><image:loc>https://example.com/b.jpg</image:loc></image:image>
  </url>
</urlset>
""",
    )
    code = "NS002" if xmlns else "NS001"
    assert found(lint(path)) == [(code, 2), ("ST002", 6), ("ST004", 11), ("XS001", 15)]


def test_unvalidated_namespace_content_gives_no_schema_error(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "sitemap.xml",
        f"""<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="{SITEMAP_NS}" xmlns:x="https://example.com/x" xmlns:y="https://example.com/y">
  <url>
    <loc>https://example.com/</loc>
    <x:a><x:b>1</x:b></x:a>
    <y:a/>
  </url>
  <url>
    <loc>https://example.com/b</loc>
    <x:a/>
    <y:a/>
  </url>
</urlset>
""",
    )
    assert found(lint(path)) == [("NS003", 5), ("NS003", 6)]  # once per namespace

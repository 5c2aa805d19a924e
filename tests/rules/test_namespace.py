"""Namespace family: each rule's failing fixtures give exactly the expected finding; passing ones none."""

from __future__ import annotations

from pathlib import Path

import pytest

from sitemap_lint.model import SITEMAP_NS
from sitemap_lint.rules import namespace
from tests.helpers import Case, check_case, check_pass, found, lint

CASES = [
    # NS001 missing-namespace
    Case("NS001", "fail.xml", line=2),
    Case("NS001", "fail-index.xml", line=2),
    Case("NS001", "fail-with-extension.xml", line=2),  # image:image still validates
    # NS002 wrong-namespace
    Case("NS002", "fail.xml", line=2),  # https
    Case("NS002", "fail-trailing-slash.xml", line=2),
    Case("NS002", "fail-no-www.xml", line=2),
    Case("NS002", "fail-https-no-www-slash.xml", line=2),
    Case("NS002", "fail-google-084.xml", line=2),
    Case("NS002", "fail-google-09.xml", line=2),
    Case("NS002", "fail-version-090.xml", line=2),
    Case("NS002", "fail-schema-address.xml", line=2),  # .../0.9/sitemap.xsd
    Case("NS002", "fail-index.xml", line=2),
    Case("NS002", "fail-other.xml", line=2),
    # NS003 unvalidated-namespace
    Case("NS003", "fail.xml", line=6),  # once, though used in two entries
    Case("NS003", "fail-image-typo.xml", line=6),  # image namespace 1.0 for 1.1
    Case("NS003", "fail-top-level.xml", line=4),  # before the first url
    Case("NS003", "fail-index.xml", line=6),
    # NS004 wrong-extension-namespace
    Case("NS004", "fail.xml", line=6),  # https and once for both images
    Case("NS004", "fail-trailing-slash.xml", line=6),
]


def test_extension_look_alike_names_the_exact_namespace() -> None:
    message = _message("NS004", "fail.xml")
    assert "'http://www.google.com/schemas/sitemap-image/1.1'" in message


@pytest.mark.parametrize("case", CASES, ids=str)
def test_failing_fixture(case: Case) -> None:
    check_case(case)


@pytest.mark.parametrize("code", [rule.code for rule in namespace.RULES])
def test_passing_fixture(code: str) -> None:
    check_pass(code)


def _message(code: str, fixture: str) -> str:
    (finding,) = lint(Case(code, fixture, 0).path).findings
    return finding.message


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "sitemap.xml"
    path.write_text(text, encoding="utf-8")
    return path


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
    message = _message("NS002", fixture)
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
    message = _message("NS002", "fail-other.xml")
    assert "not the sitemap namespace; write xmlns=" in message


def test_missing_namespace_names_the_fix() -> None:
    assert f'add xmlns="{SITEMAP_NS}"' in _message("NS001", "fail.xml")


def test_unvalidated_namespace_suggests_the_close_one() -> None:
    message = _message("NS003", "fail-image-typo.xml")
    assert "did you mean 'http://www.google.com/schemas/sitemap-image/1.1'?" in message


def test_unvalidated_namespace_without_close_match() -> None:
    message = _message("NS003", "fail.xml")
    assert "'https://example.com/schemas/ranking'" in message
    assert "did you mean" not in message


# -- the rest of the file is still checked -------------------------------------------


@pytest.mark.parametrize("xmlns", ["", ' xmlns="https://www.sitemaps.org/schemas/sitemap/0.9"'])
def test_entries_are_checked_despite_the_root_namespace(tmp_path: Path, xmlns: str) -> None:
    path = _write(
        tmp_path,
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
    path = _write(
        tmp_path,
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

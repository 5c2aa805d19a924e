"""Image extension family: each rule's failing fixtures give exactly the expected finding;
passing ones none; both XSD engines agree."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import check_message, found, lint, lint_content

MESSAGES = [
    ("IM001/fail.xml", "add <image:loc> with the image's absolute URL"),
    ("IM001/fail-misspelt.xml", "rename <image:url> to <image:loc>"),
    ("IM001/fail-unprefixed.xml", "write <image:loc> (with the image: prefix)"),
    ("IM001/fail-empty.xml", "<image:loc> is empty"),
    ("IM002/fail.xml", "has 1,001 <image:image> elements; Google reads at most 1,000"),
    ("IM003/fail.xml", "already listed in this <url> (line 8); remove the repeated"),
    (
        "IM004/fail.xml",
        "Google ignores <image:caption>, <image:geo_location>, <image:title> and "
        "<image:license> since 2022",
    ),
    ("IM004/fail-caption.xml", "remove it"),
    ("IM005/fail.xml", "wrap it: <image:image><image:loc>"),
    ("IM006/fail.xml", "Google ignores <image:title> since 2022: removing it also fixes this"),
    ("IM005/fail-unknown.xml", "rename it to <image:image>"),
]


@pytest.mark.parametrize(("fixture", "text"), MESSAGES, ids=[m[0] for m in MESSAGES])
def test_message_shows_the_fix(fixture: str, text: str) -> None:
    check_message(fixture, text)


def test_a_long_duplicate_image_url_keeps_its_end(tmp_path: Path) -> None:
    """Images of one page share a long start; the message keeps the end that names the
    image (``-2.jpg`` and ``-3.jpg`` would both read ``%D9%...``)."""
    long = "https://example.com/wp-content/uploads/2024/07/" + "%D9%81" * 20
    images = "".join(
        f"<image:image><image:loc>{long}-{n}.jpg</image:loc></image:image>" for n in (2, 3, 2)
    )
    content = SITEMAP.replace(
        "<image:image>\n      <image:loc>{loc}</image:loc>\n    </image:image>", images
    )
    result = lint_content(tmp_path, content)
    (message,) = [f.message for f in result.findings if f.code == "IM003"]
    assert "-2.jpg is already listed in this <url>" in message
    assert message.startswith("image https://example.com/wp-content/")


# -- through the shared rules --------------------------------------------------------------------

SITEMAP = """<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
        xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
  <url>
    <loc>https://example.com/products/running-shoe</loc>
    <image:image>
      <image:loc>{loc}</image:loc>
    </image:image>
  </url>
</urlset>
"""


def lint_image_loc(tmp_path: Path, loc: str) -> list[tuple[str, int]]:
    path = tmp_path / "sitemap.xml"
    path.write_text(SITEMAP.format(loc=loc), encoding="utf-8")
    result = found(lint(path))
    assert found(lint(path, engine_name="xmlschema")) == result
    return result


@pytest.mark.parametrize(
    ("loc", "expected"),
    [
        ("https://cdn.example.org/img/shoe.jpg", []),  # another domain is fine for images
        ("/img/shoe.jpg", [("UR001", 7)]),
        ("img/shoe.jpg", [("UR001", 7)]),
        ("ftp://example.com/img/shoe.jpg", [("UR002", 7)]),
        ("https://example.com/img/red shoe.jpg", [("UR006", 7)]),
        ("https://example.com/img/50%-off.jpg", [("UR007", 7)]),
    ],
)
def test_image_loc_goes_through_the_url_rules(
    tmp_path: Path, loc: str, expected: list[tuple[str, int]]
) -> None:
    assert lint_image_loc(tmp_path, loc) == expected


def test_url_message_names_the_image_field(tmp_path: Path) -> None:
    path = tmp_path / "sitemap.xml"
    path.write_text(SITEMAP.format(loc=" https://example.com/img/shoe.jpg "), encoding="utf-8")
    (finding,) = lint(path).findings
    assert finding.code == "UR005"
    assert "<image:loc>https://example.com/img/shoe.jpg</image:loc>" in finding.message


def test_duplicates_are_counted_per_url(tmp_path: Path) -> None:
    """The same image under two pages is fine; twice under one page is not."""
    entry = (
        "  <url><loc>https://example.com/{page}</loc>"
        "<image:image><image:loc>https://example.com/logo.png</image:loc></image:image>{extra}"
        "</url>\n"
    )
    body = entry.format(page="a", extra="") + entry.format(
        page="b",
        extra="<image:image><image:loc>https://example.com/logo.png</image:loc></image:image>",
    )
    path = tmp_path / "sitemap.xml"
    path.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" '
        'xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">\n'
        f"{body}</urlset>\n",
        encoding="utf-8",
    )
    assert found(lint(path)) == [("IM003", 4)]


def test_url_written_directly_in_image_image(tmp_path: Path) -> None:
    path = tmp_path / "sitemap.xml"
    text = SITEMAP.replace(
        "<image:image>\n      <image:loc>{loc}</image:loc>\n    </image:image>",
        "<image:image>https://example.com/img/shoe.jpg</image:image>",
    )
    path.write_text(text, encoding="utf-8")
    assert found(lint(path)) == found(lint(path, engine_name="xmlschema")) == [("IM001", 6)]
    (finding,) = lint(path).findings
    assert "<image:image><image:loc>https://example.com/img/shoe.jpg</image:loc>" in finding.message


def test_license_goes_through_the_url_rules(tmp_path: Path) -> None:
    path = tmp_path / "sitemap.xml"
    path.write_text(
        """<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
        xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
  <url>
    <loc>https://example.com/shoes</loc>
    <image:image>
      <image:loc>https://example.com/img/shoe.jpg</image:loc>
      <image:license>/licence</image:license>
    </image:image>
    <image:image>
      <image:loc>https://example.com/img/boot.jpg</image:loc>
      <image:license>https://example.com/licence%2520v2</image:license>
    </image:image>
  </url>
</urlset>
""",
        encoding="utf-8",
    )
    assert found(lint(path)) == [("IM004", 8), ("UR001", 8), ("IM004", 12), ("UR015", 12)]

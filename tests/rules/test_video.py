"""Video extension family: each rule's failing fixtures give exactly the expected finding;
passing ones none; both XSD engines agree."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import check_message, found, lint, lint_fixture

MESSAGES = [
    (
        "VD001/fail.xml",
        "has no <video:title>; Google requires thumbnail_loc, title and description",
    ),
    ("VD001/fail-unprefixed.xml", "write <video:title> instead of <title>"),
    ("VD001/fail-empty.xml", "<video:description> is empty"),
    ("VD002/fail.xml", "add the URL of the video file (content_loc) or of its player"),
    ("VD003/fail.xml", "<video:player_loc> is the page's own URL"),
    ("VD003/fail-fragment.xml", "is the page's own URL once its fragment is dropped"),
    ("VD004/fail.xml", "looks like a web page (.html); give the URL of the video file itself"),
    ("VD004/fail-flash.xml", "looks like a Flash file"),
    ("VD004/fail-video-site.xml", "<video:content_loc> is a YouTube page, not a video file"),
    ("VD005/fail.xml", "uses rtmp:, which Google cannot fetch"),
    ("VD006/fail.xml", "101 characters long; the schema and Google allow at most 100: shorten it"),
    ("VD006/fail-whitespace.xml", "remove the whitespace around the text"),
    ("VD006/fail-description.xml", "2,049 characters long"),
    ("VD006/fail-uploader.xml", "Google allows at most 255"),
    ("VD007/fail.xml", "Google requires at least 1 second"),
    ("VD007/fail-iso.xml", "'PT10M' must be a whole number of seconds; write 600"),
    ("VD007/fail-over.xml", "over 8 hours"),
    ("VD007/fail-segment.xml", "give the segment's length in seconds"),
    ("VD008/fail.xml", "on a 0-10 scale write 4.2"),
    ("VD008/fail-comma.xml", "uses a decimal comma; write 4.2"),
    ("VD009/fail.xml", "has thousands separators; write 12345"),
    ("VD010/fail.xml", "has passed (now is 2025-06-01T00:00:00Z)"),
    ("VD011/fail.xml", "is 'true', not yes or no; write yes"),
    ("VD011/fail-whitespace.xml", "remove the whitespace: write no"),
    ("VD012/fail.xml", 'add relationship="allow"'),
    ("VD012/fail-lowercase.xml", "separated by spaces: IE GB US"),
    ("VD012/fail-unknown-country.xml", "UK is not an ISO 3166 country code; write GB"),
    ("VD012/fail-empty-allow.xml", 'an empty list with relationship="allow" allows no country'),
    ("VD012/fail-whitespace.xml", "no white space around the countries: write IE GB US"),
    ("VD012/fail-blank.xml", "no white space in an empty list: list the countries or remove"),
    ("VD013/fail.xml", "separated by single spaces: web tv"),
    ("VD013/fail-whitespace.xml", "no white space around the platforms: write web tv"),
    ("VD013/fail-blank.xml", "no white space in an empty list: list the platforms or remove"),
    ("VD013/fail-empty-allow.xml", 'an empty list with relationship="allow" allows no platform'),
    ("VD013/fail-relationship.xml", 'is neither allow nor deny; write relationship="allow"'),
    ("VD020/fail-id.xml", "url; write one of them"),
    ("VD014/fail.xml", "(first at line 21); Google reads one per video: merge the countries"),
    ("VD014/fail-platform.xml", "merge the platforms into the first one"),
    ("VD015/fail.xml", "has 33 <video:tag> elements; at most 32"),
    ("VD016/fail.xml", "is on social.example.org, not on the page's domain (example.com)"),
    (
        "VD017/fail.xml",
        "Google ignores <video:category>, <video:price> and the allow_embed and autoplay "
        "attributes of <video:player_loc> since 2022",
    ),
    ("VD018/fail.xml", "move it before <video:view_count> (line 15)"),
    (
        "VD018/fail-deprecated.xml",
        "Google ignores <video:category> since 2022: removing it also fixes this",
    ),
    ("VD021/fail.xml", "unknown element <video:language>"),
    ("VD019/fail.xml", "put it inside the <video:video> it describes"),
]


@pytest.mark.parametrize(("fixture", "text"), MESSAGES, ids=[m[0] for m in MESSAGES])
def test_message_shows_the_fix(fixture: str, text: str) -> None:
    check_message(fixture, text)


def test_price_attribute_messages_show_the_values_to_write() -> None:
    messages = [f.message for f in lint_fixture("VD020/fail-price.xml").findings]
    assert (
        'type="lease" of <video:price> is neither purchase nor rent; write type="purchase" or type="rent"'
        in messages
    )
    assert (
        'resolution="4k" of <video:price> is neither sd nor hd; write resolution="hd" or resolution="sd"'
        in messages
    )


# -- single videos, through both engines ------------------------------------------------------

SITEMAP = """<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
        xmlns:video="http://www.google.com/schemas/sitemap-video/1.1">
  <url>
    <loc>https://example.com/videos/steaks</loc>
    <video:video>
{children}
    </video:video>
  </url>
</urlset>
"""
# Each child on its own line, from line 7 on.
THUMB = "<video:thumbnail_loc>https://example.com/thumbs/1.jpg</video:thumbnail_loc>"
TITLE = "<video:title>Grilling steaks</video:title>"
DESCRIPTION = "<video:description>How to grill steaks.</video:description>"
CONTENT = "<video:content_loc>https://example.com/media/1.mp4</video:content_loc>"
REQUIRED = [THUMB, TITLE, DESCRIPTION, CONTENT]


def lint_video(tmp_path: Path, *children: str) -> list[tuple[str, int]]:
    path = tmp_path / "sitemap.xml"
    text = SITEMAP.format(children="\n".join(f"      {child}" for child in children))
    path.write_text(text, encoding="utf-8")
    result = found(lint(path))
    assert found(lint(path, engine_name="xmlschema")) == result
    return result


def test_complete_video_passes(tmp_path: Path) -> None:
    assert lint_video(tmp_path, *REQUIRED) == []


@pytest.mark.parametrize(
    ("child", "text"),
    [
        ("<video:duration></video:duration>", "<video:duration> is empty; give the length"),
        ("<video:rating> </video:rating>", "<video:rating> is empty; give the average rating"),
        ("<video:view_count/>", "<video:view_count> is empty; give the number of views"),
    ],
)
def test_an_empty_number_is_said_to_be_empty(tmp_path: Path, child: str, text: str) -> None:
    path = tmp_path / "sitemap.xml"
    children = "\n".join(f"      {line}" for line in (*REQUIRED, child))
    path.write_text(SITEMAP.format(children=children), encoding="utf-8")
    (message,) = [f.message for f in lint(path).findings]
    assert message.startswith(text), message
    assert message.endswith("or remove it"), message


@pytest.mark.parametrize(
    ("children", "expected"),
    [
        # Missing required children: one VD001 on the video, no schema error.
        ([TITLE, DESCRIPTION, CONTENT], [("VD001", 6)]),
        ([THUMB, TITLE, CONTENT], [("VD001", 6)]),
        ([THUMB, TITLE], [("VD001", 6), ("VD002", 6)]),  # the last required one, at the end
        ([CONTENT], [("VD001", 6)]),
        # Order: the child where the schema's sequence breaks.
        ([TITLE, THUMB, DESCRIPTION, CONTENT], [("VD018", 7)]),
        (
            [THUMB, TITLE, DESCRIPTION, "<video:duration>60</video:duration>", CONTENT],
            [("VD018", 11)],
        ),
        # A child from another namespace.
        (
            [*REQUIRED, '<m:rating xmlns:m="http://search.yahoo.com/mrss/">adult</m:rating>'],
            [("VD021", 11)],
        ),
        # Repeats.
        ([THUMB, TITLE, TITLE, DESCRIPTION, CONTENT], [("VD014", 9)]),
        (
            [*REQUIRED, *[f"<video:tag>t{i}</video:tag>" for i in range(40)]],
            [("VD015", 43)],
        ),
        # Several defects: each reported once.
        (
            [TITLE, DESCRIPTION, CONTENT, "<video:duration>abc</video:duration>"],
            [("VD001", 6), ("VD007", 10)],
        ),
        (
            [
                THUMB,
                TITLE,
                DESCRIPTION,
                CONTENT,
                "<video:rating>6</video:rating>",
                "<video:duration>0</video:duration>",
                "<video:family_friendly>y</video:family_friendly>",
            ],
            [("VD008", 11), ("VD018", 12), ("VD007", 12), ("VD011", 13)],
        ),
    ],
)
def test_structure(tmp_path: Path, children: list[str], expected: list[tuple[str, int]]) -> None:
    assert sorted(lint_video(tmp_path, *children)) == sorted(expected)


@pytest.mark.parametrize(
    ("child", "expected"),
    [
        # Dates go through the date rules.
        ("<video:publication_date>2024-11-05T19:20:30+08:00</video:publication_date>", []),
        ("<video:publication_date>2024-11-05 19:20:30</video:publication_date>", [("DT001", 11)]),
        ("<video:publication_date>2024-02-30</video:publication_date>", [("DT002", 11)]),
        ("<video:publication_date>2024-11-05T19:20</video:publication_date>", [("DT003", 11)]),
        ("<video:publication_date>2025-07-01</video:publication_date>", [("DT005", 11)]),
        # An expiration date lies ahead: never "in the future", but "passed" when behind.
        ("<video:expiration_date>2099-01-01</video:expiration_date>", []),
        ("<video:expiration_date>2025-06-01</video:expiration_date>", []),  # today
        ("<video:expiration_date>2025-05-30</video:expiration_date>", [("VD010", 11)]),
        ("<video:expiration_date>9999-12-31</video:expiration_date>", []),  # the last day
        ("<video:expiration_date>2099-01-01T10:00</video:expiration_date>", [("DT003", 11)]),
        ("<video:expiration_date>1 Jan 2099</video:expiration_date>", [("DT001", 11)]),
        # Numbers at their bounds.
        ("<video:duration>1</video:duration>", []),
        ("<video:duration>28800</video:duration>", []),
        ("<video:duration> 600 </video:duration>", []),
        ("<video:duration>+600</video:duration>", []),
        ("<video:duration>-1</video:duration>", [("VD007", 11)]),
        ("<video:duration>10:30</video:duration>", [("VD007", 11)]),
        ("<video:rating>0.0</video:rating>", []),
        ("<video:rating>5</video:rating>", []),
        ("<video:rating>5.01</video:rating>", [("VD008", 11)]),
        ("<video:rating>-1</video:rating>", [("VD008", 11)]),
        ("<video:rating>good</video:rating>", [("VD008", 11)]),
        ("<video:view_count>0</video:view_count>", []),
        ("<video:view_count>-3</video:view_count>", [("VD009", 11)]),
        ("<video:view_count>1.2K</video:view_count>", [("VD009", 11)]),
        # Yes/no in every case the schema accepts.
        *[
            (f"<video:live>{value}</video:live>", [])
            for value in ("yes", "Yes", "YES", "no", "No", "NO")
        ],
        ("<video:live>yEs</video:live>", [("VD011", 11)]),
        ("<video:live>1</video:live>", [("VD011", 11)]),
        # Restriction and platform.
        ('<video:restriction relationship="deny">CN  RU</video:restriction>', []),
        ('<video:restriction relationship="deny"></video:restriction>', []),
        ('<video:restriction relationship="allow"></video:restriction>', [("VD012", 11)]),
        ('<video:restriction relationship="allow"> US</video:restriction>', [("VD012", 11)]),
        ('<video:restriction relationship="Allow">US</video:restriction>', [("VD012", 11)]),
        ('<video:platform relationship="allow">web mobile tv</video:platform>', []),
        ('<video:platform relationship="allow">web  tv</video:platform>', [("VD013", 11)]),
        ("<video:platform>web</video:platform>", [("VD013", 11)]),
        # Uploader.
        ('<video:uploader info="https://example.com/u/grilly">Grilly</video:uploader>', []),
        ('<video:uploader info="https://www.example.com/u/grilly">Grilly</video:uploader>', []),
        (
            '<video:uploader info="https://example.org/u/grilly">Grilly</video:uploader>',
            [("VD016", 11)],
        ),
        # The info URL goes through the URL rules first, as loc does.
        ('<video:uploader info="/u/grilly">Grilly</video:uploader>', [("UR001", 11)]),
        (
            '<video:uploader info="https://example.com/u/a b">Grilly</video:uploader>',
            [("UR006", 11)],
        ),
        # URL fields of deprecated children: the URL rules too; ftp: is fetchable media.
        (
            '<video:gallery_loc title="All">/gallery</video:gallery_loc>',
            [("UR001", 11), ("VD017", 11)],
        ),
        (
            '<video:content_segment_loc duration="30">https://example.com/s/a%2520b.mp4</video:content_segment_loc>',
            [("UR015", 11), ("VD017", 11)],
        ),
        # Legacy and deprecated children: harmless, reported once per video.
        ('<video:id type="url">https://example.com/v/1</video:id>', [("VD017", 11)]),
        (
            '<video:content_segment_loc duration="30">https://example.com/s/1.mp4</video:content_segment_loc>',
            [("VD017", 11)],
        ),
        (
            '<video:content_segment_loc duration="0">https://example.com/s/1.mp4</video:content_segment_loc>',
            [("VD007", 11), ("VD017", 11)],
        ),
        ("<video:category>" + "c" * 257 + "</video:category>", [("VD006", 11), ("VD017", 11)]),
    ],
)
def test_values(tmp_path: Path, child: str, expected: list[tuple[str, int]]) -> None:
    assert sorted(lint_video(tmp_path, *REQUIRED, child)) == sorted(expected)


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("https://example.com/media/1.mp4", []),
        ("https://example.com/hls/1/master.m3u8", []),
        ("ftp://media.example.com/1.mp4", []),
        ("https://example.com/videos/steaks", [("VD003", 10)]),  # the page itself
        ("https://example.com/watch.php?v=1", [("VD004", 10)]),
        ("https://example.com/media/player.swf", [("VD004", 10)]),
        ("rtsp://media.example.com/1", [("VD005", 10)]),
        ("file:///srv/media/1.mp4", [("VD005", 10)]),
        ("/media/1.mp4", [("UR001", 10)]),
        ("htp://example.com/media/1.mp4", [("UR002", 10)]),
        ("https://example.com/media/my video.mp4", [("UR006", 10)]),
    ],
)
def test_content_loc(tmp_path: Path, content: str, expected: list[tuple[str, int]]) -> None:
    children = [THUMB, TITLE, DESCRIPTION, f"<video:content_loc>{content}</video:content_loc>"]
    assert lint_video(tmp_path, *children) == expected


@pytest.mark.parametrize(
    ("children", "text"),
    [
        ([THUMB, TITLE, "<video:desc>How to grill.</video:desc>", CONTENT], "rename <video:desc>"),
        (
            ["<video:thumbnail>https://example.com/t.jpg</video:thumbnail>", TITLE, DESCRIPTION],
            "rename <video:thumbnail> to <video:thumbnail_loc>",
        ),
    ],
)
def test_a_misspelt_required_child_is_one_finding(
    tmp_path: Path, children: list[str], text: str
) -> None:
    if CONTENT not in children:
        children = [*children, CONTENT]
    assert lint_video(tmp_path, *children) == [("VD001", 6)]
    (finding,) = lint(tmp_path / "sitemap.xml").findings
    assert text in finding.message, finding.message


def test_order_message_lists_the_whole_order_when_more_is_wrong(tmp_path: Path) -> None:
    children = [
        TITLE,
        THUMB,
        DESCRIPTION,
        CONTENT,
        "<video:live>no</video:live>",
        "<video:tag>steak</video:tag>",
    ]
    assert lint_video(tmp_path, *children) == [("VD018", 7)]
    (finding,) = lint(tmp_path / "sitemap.xml").findings
    assert "<video:title> must come after <video:thumbnail_loc> (line 8)" in finding.message
    assert "write them as thumbnail_loc, title, description, content_loc, tag, live" in (
        finding.message
    )


def test_player_may_be_a_page_of_another_url(tmp_path: Path) -> None:
    player = "<video:player_loc>https://example.com/player.php?v=1</video:player_loc>"
    assert lint_video(tmp_path, THUMB, TITLE, DESCRIPTION, player) == []


def test_thumbnail_goes_through_the_url_rules(tmp_path: Path) -> None:
    thumb = "<video:thumbnail_loc>thumbs/1.jpg</video:thumbnail_loc>"
    assert lint_video(tmp_path, thumb, TITLE, DESCRIPTION, CONTENT) == [("UR001", 7)]


def test_expiration_date_is_not_reported_as_future(tmp_path: Path) -> None:
    path = tmp_path / "sitemap.xml"
    child = "<video:expiration_date>2030-01-01T00:00:00Z</video:expiration_date>"
    path.write_text(
        SITEMAP.format(children="\n".join(f"      {c}" for c in (*REQUIRED, child))),
        encoding="utf-8",
    )
    assert lint(path).findings == []


def test_date_messages_name_the_video_field(tmp_path: Path) -> None:
    path = tmp_path / "sitemap.xml"
    child = "<video:publication_date>2024-11-05 19:20:30</video:publication_date>"
    path.write_text(
        SITEMAP.format(children="\n".join(f"      {c}" for c in (*REQUIRED, child))),
        encoding="utf-8",
    )
    (finding,) = lint(path).findings
    assert finding.message.startswith("<video:publication_date>")


@pytest.mark.parametrize(
    ("expiry", "codes"),
    [
        ("2025-06", ["DT003"]),  # NOW is the first of June: the month is still running
        ("2025", ["DT003"]),
        ("2025-04", ["DT003", "VD010"]),
        ("2025-05-30", ["VD010"]),
    ],
)
def test_a_month_or_year_of_expiration_lasts_to_its_end(
    tmp_path: Path, expiry: str, codes: list[str]
) -> None:
    path = tmp_path / "sitemap.xml"
    child = f"<video:expiration_date>{expiry}</video:expiration_date>"
    path.write_text(
        SITEMAP.format(children="\n".join(f"      {c}" for c in (*REQUIRED, child))),
        encoding="utf-8",
    )
    assert sorted(f.code for f in lint(path).findings) == codes

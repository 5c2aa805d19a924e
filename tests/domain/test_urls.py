"""Percent-escapes that are well formed but decode to something no URL should hold."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sitemap_lint.domain.urls import encoded, percent_faults


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("/products/boots", []),
        ("/caf%C3%A9/menu", []),  # UTF-8
        ("/%E2%82%AC", []),  # a three-byte UTF-8 character
        ("/sale-50%25-off", []),  # a literal percent sign
        ("/red%20shoes?q=a%2Cb", []),
        ("/a%00b", [("control", "%00", "U+0000")]),
        ("/a%0a", [("control", "%0a", "U+000A")]),
        ("/a%7F", [("control", "%7F", "U+007F")]),
        ("/caf%E9", [("utf8", "%E9", "é")]),
        ("/caf%c3", [("utf8", "%c3", "Ã")]),  # cut off
        ("/%C3/path/%BC", [("utf8", "%C3", "Ã")]),  # each run of escapes on its own
        ("/red%2520shoes", [("double", "%2520", "%20")]),
        (
            "/%00%E9%252F",
            [("control", "%00", "U+0000"), ("utf8", "%E9", "é"), ("double", "%252F", "%2F")],
        ),
    ],
)
def test_percent_faults(text: str, expected: list[tuple[str, str, str]]) -> None:
    assert [tuple(fault) for fault in percent_faults(text)] == expected


def test_one_fault_of_each_kind() -> None:
    assert len(percent_faults("/%00%01%E9%E8%2520%2541")) == 3


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("https://example.com/ü sitemap.xml", "https://example.com/%C3%BC%20sitemap.xml"),
        ('/s?a=<b>&c="d"%zz', "/s?a=%3Cb%3E&c=%22d%22%25zz"),  # the part after the host
        ("/a%2Fb?x=1#top", "/a%2Fb?x=1#top"),  # escapes and reserved characters kept
        ("http://[::1]:8080/a[1].xml", "http://[::1]:8080/a%5B1%5D.xml"),
        (":8080/café", ":8080/caf%C3%A9"),
    ],
)
def test_encoded_writes_what_a_uri_cannot_hold_percent_encoded(url: str, expected: str) -> None:
    assert encoded(url) == expected


@given(st.text(alphabet=st.sampled_from("/aé?ü€x-😀\x7f"), max_size=30))
def test_outside_ascii_escaped_character_by_character(text: str) -> None:
    from sitemap_lint.domain import urls

    expected = "".join(
        char if char.isascii() else "".join(f"%{byte:02X}" for byte in char.encode())
        for char in text
    )
    assert urls.escaped_outside_ascii(text) == expected
    assert urls.escaped_outside_ascii(text) == expected  # kept folders give the same
    urls._ESCAPED_FOLDERS.clear()
    urls._ESCAPED_LAST.clear()


def test_the_last_segments_kept_are_the_most_recent_and_bounded() -> None:
    from sitemap_lint.domain import urls

    kept = urls._LAST_KEPT
    segments = [f"café-{number}" for number in range(kept + kept // 2 + 10)]
    for segment in segments:
        assert urls.escaped_outside_ascii(f"/p/{segment}") == f"/p/{segment.replace('é', '%C3%A9')}"
        assert len(urls._ESCAPED_LAST) <= kept
    assert segments[-1] in urls._ESCAPED_LAST and segments[0] not in urls._ESCAPED_LAST
    # Kept ones give the same again.
    assert urls.escaped_outside_ascii(f"/q/{segments[-1]}") == f"/q/caf%C3%A9-{len(segments) - 1}"
    urls._ESCAPED_LAST.clear()

"""Set family: the pure parts of the checks across files (the set runner is tested in
tests/test_sets.py and through the set fixtures)."""

from __future__ import annotations

from sitemap_lint.rules.sets import closing_entries, index_cycle


def test_no_cycle_in_a_tree() -> None:
    listings = {"i": [("a", 1), ("b", 2)], "a": [], "b": []}
    assert list(closing_entries(listings, ["i"])) == []


def test_a_cycle_through_two_files_closes_in_the_second() -> None:
    listings = {"a": [("b", "a:1")], "b": [("a", "b:1")]}
    assert list(closing_entries(listings, ["a"])) == [("b", "b:1", ["a", "b"])]


def test_a_longer_cycle_and_a_self_listing_each_once() -> None:
    listings = {
        "r": [("a", "r:1")],
        "a": [("b", "a:1"), ("a", "a:2")],
        "b": [("c", "b:1")],
        "c": [("a", "c:1"), ("b", "c:2")],
    }
    found = list(closing_entries(listings, ["r", "a"]))
    assert found == [
        ("c", "c:1", ["a", "b", "c"]),
        ("c", "c:2", ["b", "c"]),
        ("a", "a:2", ["a"]),
    ]


def test_a_file_reached_twice_without_a_cycle_is_not_one() -> None:
    listings = {"r": [("a", 1), ("b", 2)], "a": [("c", 3)], "b": [("c", 4)], "c": []}
    assert list(closing_entries(listings, ["r"])) == []


def test_the_message_names_the_files_around_the_cycle() -> None:
    finding = index_cycle(4, 5, "https://example.com/a.xml", ["a.xml", "b.xml"])
    assert (finding.code, finding.line, finding.column) == ("SE002", 4, 5)
    assert "(a.xml -> b.xml -> a.xml)" in finding.message


def test_the_root_element_is_read_past_the_prolog() -> None:
    from sitemap_lint.sets.runner import root_name

    head = (
        b'\xef\xbb\xbf<?xml version="1.0"?>\n<!-- a comment -->\n<?xml-stylesheet href="s.xsl"?>\n'
    )
    assert root_name(head + b'<sitemapindex xmlns="x">') == "sitemapindex"
    assert root_name(b"<!DOCTYPE x [ <!ENTITY a 'b'> ]>\n<s:urlset>") == "urlset"
    assert root_name("<sitemapindex/>".encode("utf-16")) == "sitemapindex"
    assert root_name(b"https://example.com/ a text sitemap") == ""
    assert root_name(b"<!-- never closed") == ""

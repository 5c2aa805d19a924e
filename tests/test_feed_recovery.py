"""Recovery after syntax errors in RSS and Atom feeds: as in a sitemap, the defect is
reported where it stands and every item after it is still checked, at its place."""

from __future__ import annotations

import pytest

from sitemap_lint.engine.checker import check_source
from sitemap_lint.finding import Finding
from sitemap_lint.inputs.reader import Source
from sitemap_lint.settings.options import Options
from tests.helpers import NOW, engine

HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n'
ATOM_NS = "http://www.w3.org/2005/Atom"
DATE = "<pubDate>Mon, 06 Sep 2021 16:45:00 +0000</pubDate>"
UPDATED = "<updated>2021-09-06T16:45:00Z</updated>"


def check(text: str) -> list[Finding]:
    options = Options(now=NOW)
    source = Source("feed.xml", None, data=text.encode("utf-8"))
    return check_source(source, options, engine()).findings


def found(text: str, *codes: str) -> list[tuple[str, int, int]]:
    return [(f.code, f.line, f.column) for f in check(text) if f.code in codes]


def rss(*items: str, title: str = "T", newline: str = "\n") -> str:
    body = "".join(f"  {item}{newline}" for item in items)
    return (
        f'{HEAD}<rss version="2.0">{newline}<channel>{newline}  <title>{title}</title>{newline}'
        f"{body}</channel>{newline}</rss>{newline}"
    )


def atom(*entries: str, title: str = "T") -> str:
    body = "".join(f"  {entry}\n" for entry in entries)
    return f'{HEAD}<feed xmlns="{ATOM_NS}">\n  <title>{title}</title>\n{body}</feed>\n'


def item(n: int, extra: str = "", link: str | None = None) -> str:
    return f"<item><link>{link or f'/p{n}'}</link><title>t{n}{extra}</title>{DATE}</item>"


def entry(n: int, extra: str = "") -> str:
    return f'<entry><link href="/p{n}"/><title>t{n}{extra}</title>{UPDATED}</entry>'


@pytest.mark.parametrize("defect", ["&nbsp;", "&", "<", "\x01"])
@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_rss_items_after_a_defect_are_checked_at_their_places(defect: str, newline: str) -> None:
    clean = rss(*(item(n) for n in range(6)), newline=newline)
    broken = rss(*(item(n, defect if n in (1, 4) else "") for n in range(6)), newline=newline)
    assert found(broken, "UR001") == found(clean, "UR001")
    assert len(found(clean, "UR001")) == 6
    syntax = [code for code, *_ in found(broken, "XM001", "XM004", "XM005", "XM006", "XM010")]
    assert len(syntax) == 2


@pytest.mark.parametrize("defect", ["&nbsp;", "&", "<", "\x01"])
def test_atom_entries_after_a_defect_are_checked_at_their_places(defect: str) -> None:
    clean = atom(*(entry(n) for n in range(6)))
    broken = atom(*(entry(n, defect if n in (1, 4) else "") for n in range(6)))
    assert found(broken, "UR001") == found(clean, "UR001")
    assert len(found(clean, "UR001")) == 6


def test_a_defect_in_the_channel_title_leaves_the_items_checked() -> None:
    text = rss(item(0), "<item><title>x</title></item>", title="News &eacute; more")
    assert found(text, "XM006", "UR001", "FD004") == [
        ("XM006", 4, 15),
        ("UR001", 5, 9),
        ("FD004", 6, 3),
    ]


def test_an_item_without_its_end_tag_is_checked_and_so_is_the_next() -> None:
    text = rss(item(0), f"<item><link>/p1</link>{DATE}", item(2))
    assert found(text, "XM001", "UR001") == [
        ("UR001", 5, 9),
        ("XM001", 6, 3),
        ("UR001", 6, 9),
        ("UR001", 7, 9),
    ]


def test_a_channel_without_its_end_tag_is_reported_at_its_start_tag() -> None:
    text = rss(item(0, "&"), item(1)).replace("</channel>\n", "")
    assert found(text, "XM001", "XM004", "UR001") == [
        ("XM001", 3, 1),
        ("UR001", 5, 9),
        ("XM004", 5, 34),
        ("UR001", 6, 9),
    ]


def test_items_of_a_second_channel_and_stray_items_are_checked() -> None:
    text = (
        f'{HEAD}<rss version="2.0">\n<channel>\n{item(0)}\n</channel>\n'
        f"<channel>\n<title>&amp</title>\n{item(1)}\n</channel>\n{item(2, '&')}\n{item(3)}\n</rss>\n"
    )
    assert found(text, "XM004", "UR001") == [
        ("UR001", 4, 7),
        ("XM004", 7, 8),
        ("UR001", 8, 7),
        ("UR001", 10, 7),
        ("XM004", 10, 32),
        ("UR001", 11, 7),
    ]


BIG = "y" * 70_000  # more than an entry the reader reads again from its start


@pytest.mark.parametrize("defect", ["&nbsp;", "&", "<", "\x01"])
@pytest.mark.parametrize("form", ["rss", "atom"])
@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_the_fields_after_a_defect_in_a_long_item_are_checked_at_their_places(
    defect: str, form: str, newline: str
) -> None:
    # The reader reads on where the defect stands: the item's link after it is checked,
    # as are the items after it.
    def one(n: int, text: str = "") -> str:
        if form == "rss":
            return f"<item><description>{text}</description><link>/p{n}</link>{DATE}</item>"
        return f'<entry><summary>{text}</summary><link href="/p{n}"/>{UPDATED}</entry>'

    def feed(text: str) -> str:
        items = [one(0), one(1, text), one(2, "a " + text), one(3)]
        written = rss(*items) if form == "rss" else atom(*items)
        return written.replace("\n", newline)

    clean, broken = feed(BIG + "y" * len(defect)), feed(BIG + defect)
    assert found(broken, "UR001") == found(clean, "UR001")
    assert len(found(clean, "UR001")) == 4
    syntax = [code for code, *_ in found(broken, "XM001", "XM004", "XM005", "XM006")]
    assert len(syntax) == 2


@pytest.mark.parametrize("tag", ["<item a=b>", "<item a=“b”>", "<item a='b'c='d'>"])
def test_an_item_whose_start_tag_has_a_defect_is_read_as_written_right(tag: str) -> None:
    text = rss(f"{tag}<link>/p1</link>{DATE}</item>", f"<item><link>/p2</link>{DATE}</item>")
    assert found(text, "UR001") == [("UR001", 5, len(f"  {tag}") + 1), ("UR001", 6, 9)]


def test_an_atom_entry_whose_start_tag_has_a_defect_is_read_as_written_right() -> None:
    text = atom(
        f'<entry a=b><link href="/p1"/>{UPDATED}</entry>',
        f'<entry><link href="/p2"/>{UPDATED}</entry>',
    )
    assert [line for _code, line, _column in found(text, "UR001")] == [4, 5]

"""sitemap-lint split: every entry once, in order, in parts that are valid and within
both limits, and an index that lists the parts with their newest lastmod."""

from __future__ import annotations

import gzip
import itertools
import os
import re
import stat
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sitemap_lint.cli import main
from sitemap_lint.fix.split import Parsed, SplitError, parse, plan
from sitemap_lint.inputs.reader import Source
from sitemap_lint.run import parse_sitemap_url
from sitemap_lint.settings.options import Options
from tests.helpers import NOW, engine

HEAD = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"\n'
    '        xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">\n'
)


def entry(i: int, padding: int = 0, image: bool = False) -> str:
    extra = (
        f"<image:image><image:loc>https://example.com/i{i}.png</image:loc></image:image>"
        if image
        else ""
    )
    return (
        f"<url><loc>https://example.com/p{i}{'x' * padding}</loc>"
        f"<lastmod>2024-01-{i % 28 + 1:02d}T00:00:00+00:00</lastmod>{extra}</url>"
    )


def sitemap(entries: list[str]) -> bytes:
    return (HEAD + "".join(f"  {e}\n" for e in entries) + "</urlset>\n").encode()


def errors(data: bytes, name: str = "part.xml", url: str | None = None) -> list[str]:
    """The errors of a part, checked as served at ``url`` when given."""
    from sitemap_lint.engine.checker import check_source

    options = Options(now=NOW, sitemap_url=parse_sitemap_url(url))
    found = check_source(Source(name, None, data=data), options, engine())
    return [f"{f.code} {f.message}" for f in found.findings if str(f.severity) == "error"]


def split_entries(parts_data: list[bytes]) -> list[bytes]:
    """The entries of the parts, in order, as written."""
    out: list[bytes] = []
    for data in parts_data:
        out += [e.raw for e in parse(data.split(b"?>", 1)[1]).entries]
    return out


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    sizes=st.lists(st.integers(0, 300), min_size=1, max_size=40),
    images=st.lists(st.booleans(), min_size=40, max_size=40),
    max_urls=st.integers(1, 12),
    slack=st.integers(0, 2000),
)
def test_split_keeps_every_entry_once_in_order_within_both_limits(
    sizes: list[int], images: list[bool], max_urls: int, slack: int
) -> None:
    entries = [entry(i, size, images[i]) for i, size in enumerate(sizes)]
    data = sitemap(entries)
    parsed = parse(data.split(b"?>", 1)[1])
    assert [e.raw.decode() for e in parsed.entries] == entries
    longest = max(len(e.raw) for e in parsed.entries)
    max_bytes = len(HEAD) + len("</urlset>\n") + longest + 3 + slack
    parts = plan(parsed, "sitemap", max_urls, max_bytes)
    assert split_entries([p.data for p in parts]) == [e.raw for e in parsed.entries]
    for part in parts:
        assert 1 <= part.count <= max_urls
        assert len(part.data) <= max_bytes
        assert errors(part.data, part.name) == []  # each part valid on its own
    # A part is full: the next entry would have broken a limit.
    for part, following in itertools.pairwise(parts):
        first = parse(following.data.split(b"?>", 1)[1]).entries[0]
        assert part.count == max_urls or len(part.data) + len(first.raw) + 3 > max_bytes


def test_cli_split_writes_valid_parts_and_an_index(tmp_path: Path, capsys) -> None:
    source = tmp_path / "sitemap.xml"
    entries = [entry(i, image=i % 3 == 0) for i in range(25)]
    source.write_bytes(sitemap(entries))
    out = tmp_path / "out"
    status = main(
        [
            "split",
            str(source),
            "--base-url",
            "https://example.com/",
            "--out-dir",
            str(out),
            "--max-urls",
            "10",
        ]
    )
    assert status == 0
    assert "25 entries in 3 parts" in capsys.readouterr().err
    names = sorted(p.name for p in out.iterdir())
    assert names == ["sitemap-1.xml", "sitemap-2.xml", "sitemap-3.xml", "sitemap-index.xml"]
    parts = [(out / f"sitemap-{n}.xml").read_bytes() for n in (1, 2, 3)]
    assert [e.decode() for e in split_entries(parts)] == entries
    for name, data in zip(names, parts, strict=False):
        assert errors(data, name) == []
    index = (out / "sitemap-index.xml").read_bytes()
    assert errors(index, "sitemap-index.xml") == []
    locs = re.findall(rb"<loc>([^<]*)</loc>", index)
    assert locs == [f"https://example.com/sitemap-{n}.xml".encode() for n in (1, 2, 3)]
    # The newest lastmod of each part: entries 0-9, 10-19 and 20-24.
    assert re.findall(rb"<lastmod>([^<]*)</lastmod>", index) == [
        b"2024-01-10T00:00:00+00:00",
        b"2024-01-20T00:00:00+00:00",
        b"2024-01-25T00:00:00+00:00",
    ]


def test_parts_may_be_served_from_a_local_server(tmp_path: Path, capsys) -> None:
    """A base URL on a development server is a place the parts may be served at: its
    host only the local machine reaches (UR019) does not refuse it."""
    source = tmp_path / "sitemap.xml"
    pages = sitemap([entry(i) for i in range(5)])
    source.write_bytes(pages.replace(b"https://example.com", b"http://localhost:4000"))
    out = tmp_path / "out"
    args = ["split", str(source), "--base-url", "http://localhost:4000/", "--out-dir", str(out)]
    assert main([*args, "--max-urls", "2"]) == 0, capsys.readouterr().err
    index = (out / "sitemap-index.xml").read_bytes()
    assert re.findall(rb"<loc>([^<]*)</loc>", index)[0] == b"http://localhost:4000/sitemap-1.xml"


def test_the_index_takes_no_lastmod_the_date_rules_report(tmp_path: Path, capsys) -> None:
    """A part's lastmod is its newest valid one: a basic-format date, a week date or a
    time without seconds (read by Python as dates) would give the index a DT001/DT003."""
    source = tmp_path / "sitemap.xml"
    values = ["2024-06-01", "20250101", "2024-W30-1", "2024-07-01T10:00"]
    source.write_bytes(
        sitemap(
            [
                f"<url><loc>https://example.com/p{i}</loc><lastmod>{value}</lastmod></url>"
                for i, value in enumerate(values)
            ]
        )
    )
    out = tmp_path / "out"
    args = ["split", str(source), "--base-url", "https://example.com/", "--out-dir", str(out)]
    assert main(args) == 0
    index = (out / "sitemap-index.xml").read_bytes()
    assert re.findall(rb"<lastmod>([^<]*)</lastmod>", index) == [b"2024-06-01"]
    assert errors(index, "sitemap-index.xml") == []


def test_a_file_with_crlf_line_ends_gives_parts_with_crlf_line_ends(tmp_path: Path, capsys) -> None:
    """The parts' own lines (declaration, root, entry ends, directives) end as the
    file's do, so that no part mixes LF and CRLF; the byte limit counts them."""
    source = tmp_path / "sitemap.xml"
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        "<!-- sitemap-lint: disable-file UR008 -->",
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ]
    for i in range(12):
        lines += [
            "  <!-- sitemap-lint: disable-next-line UR008 -->",
            f"  <url>\r\n    <loc>https://example.com/p{i}#x</loc>\r\n  </url>",
        ]
    source.write_bytes(("\r\n".join([*lines, "</urlset>", ""])).encode())
    out = tmp_path / "out"
    args = ["split", str(source), "--base-url", "https://example.com/", "--out-dir", str(out)]
    assert main([*args, "--max-bytes", "400"]) == 0
    parts = sorted(out.glob("sitemap-[0-9]*.xml"))
    assert len(parts) > 1
    for part in parts:
        data = part.read_bytes()
        assert len(data) <= 400
        assert data.count(b"\n") == data.count(b"\r\n") > 0
        assert errors(data, part.name) == []


def test_more_parts_than_an_index_may_list_are_refused(tmp_path: Path, capsys) -> None:
    """50,001 parts would make an index over its limit (LM003): nothing is written."""
    source = tmp_path / "sitemap.xml"
    source.write_bytes(
        sitemap([f"<url><loc>https://example.com/{i}</loc></url>" for i in range(50_001)])
    )
    out = tmp_path / "out"
    args = ["split", str(source), "--base-url", "https://example.com/", "--out-dir", str(out)]
    assert main([*args, "--max-urls", "1"]) == 2
    assert "50,001 parts, more than the 50,000 an index may list" in capsys.readouterr().err
    assert not out.exists()


def test_a_file_no_earlier_split_wrote_is_not_replaced(tmp_path: Path, capsys) -> None:
    """The site's own sitemap-index.xml beside sitemap.xml, or a sitemap-2.xml without
    an index of an earlier split, is left alone: nothing is written. An earlier split's
    index and parts are replaced."""
    site = tmp_path / "site"
    site.mkdir()
    source = site / "sitemap.xml"
    source.write_bytes(sitemap([entry(i) for i in range(4)]))
    own_index = (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        "  <sitemap><loc>https://example.com/news-sitemap.xml</loc></sitemap>\n"
        "</sitemapindex>\n"
    )
    index = site / "sitemap-index.xml"
    index.write_text(own_index, encoding="utf-8")
    args = ["split", str(source), "--base-url", "https://example.com/", "--out-dir", str(site)]
    assert main([*args, "--max-urls", "2"]) == 2
    assert "it is not the index of an earlier split of sitemap.xml" in capsys.readouterr().err
    assert index.read_text(encoding="utf-8") == own_index
    index.unlink()
    (site / "sitemap-2.xml").write_text("mine", encoding="utf-8")
    assert main([*args, "--max-urls", "2"]) == 2
    assert "it is no part of an earlier split of sitemap.xml" in capsys.readouterr().err
    assert (site / "sitemap-2.xml").read_text(encoding="utf-8") == "mine"
    assert sorted(path.name for path in site.iterdir()) == ["sitemap-2.xml", "sitemap.xml"]
    (site / "sitemap-2.xml").unlink()
    assert main([*args, "--max-urls", "2"]) == 0
    assert main([*args, "--max-urls", "1"]) == 0  # over an earlier split
    assert index.read_bytes().count(b"<sitemap>") == 4


@pytest.mark.parametrize("earlier_split", [False, True])
def test_a_symbolic_link_in_the_out_dir_is_not_written_through(
    tmp_path: Path, capsys, earlier_split: bool
) -> None:
    """A part or the index that is a link to a file outside --out-dir (an existing one,
    over an earlier split, or one that does not exist yet) made the split write there."""
    source = tmp_path / "sitemap.xml"
    source.write_bytes(sitemap([entry(i) for i in range(4)]))
    out, outside = tmp_path / "out", tmp_path / "outside"
    outside.mkdir()
    args = ["split", str(source), "--base-url", "https://example.com/", "--out-dir", str(out)]
    if earlier_split:
        assert main([*args, "--max-urls", "2"]) == 0
        (outside / "victim.txt").write_text("keep", encoding="utf-8")
        (out / "sitemap-2.xml").unlink()
        (out / "sitemap-2.xml").symlink_to(outside / "victim.txt")
    else:
        out.mkdir()
        (out / "sitemap-index.xml").symlink_to(outside / "made.xml")
    capsys.readouterr()
    assert main([*args, "--max-urls", "2"]) == 2
    err = capsys.readouterr().err
    link = out / ("sitemap-2.xml" if earlier_split else "sitemap-index.xml")
    assert err.count("\n") == 1
    assert f"{link}: cannot write: it is a symbolic link (to {outside}" in err
    assert "nothing was written" in err
    expected = ["victim.txt"] if earlier_split else []
    assert sorted(path.name for path in outside.iterdir()) == expected
    if earlier_split:
        assert (outside / "victim.txt").read_text(encoding="utf-8") == "keep"


def test_cli_split_leaves_a_fifo_in_the_way_and_says_so(tmp_path: Path, capsys) -> None:
    source = tmp_path / "sitemap.xml"
    source.write_bytes(sitemap([entry(i) for i in range(3)]))
    out = tmp_path / "out"
    out.mkdir()
    fifo = out / "sitemap-index.xml"
    os.mkfifo(fifo)
    status = main(
        ["split", str(source), "--base-url", "https://example.com/", "--out-dir", str(out)]
    )
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1
    assert f"{fifo}: cannot write: it is not a regular file (a FIFO or pipe)" in err
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_cli_split_writes_nothing_when_a_part_cannot_be_written(tmp_path: Path, capsys) -> None:
    source = tmp_path / "sitemap.xml"
    source.write_bytes(sitemap([entry(i) for i in range(3)]))
    out = tmp_path / "out"
    (out / "sitemap-3.xml").mkdir(parents=True)  # in the way of the last part
    args = ["split", str(source), "--base-url", "https://example.com/", "--out-dir", str(out)]
    status = main([*args, "--max-urls", "1"])
    err = capsys.readouterr().err
    assert status == 2 and "it is not a regular file (a directory)" in err
    assert sorted(path.name for path in out.iterdir()) == ["sitemap-3.xml"]


def test_a_split_that_cannot_write_every_file_leaves_an_earlier_split_whole(
    tmp_path: Path, monkeypatch, capsys
) -> None:
    """A full disk halfway through: the earlier parts and index stay as they were, and
    no temporary file is left, rather than some parts of each split under the old index."""
    from sitemap_lint.fix import write as fix_write

    source = tmp_path / "sitemap.xml"
    source.write_bytes(sitemap([entry(i) for i in range(6)]))
    out = tmp_path / "out"
    args = ["split", str(source), "--base-url", "https://example.com/", "--out-dir", str(out)]
    assert main([*args, "--max-urls", "2"]) == 0
    before = {path.name: path.read_bytes() for path in out.iterdir()}
    capsys.readouterr()
    synced = 0
    real_fsync = os.fsync

    def full_at_the_third(descriptor: int) -> None:
        nonlocal synced
        synced += 1
        if synced == 3:
            raise OSError(28, "No space left on device")
        real_fsync(descriptor)

    monkeypatch.setattr(fix_write.os, "fsync", full_at_the_third)
    assert main([*args, "--max-urls", "1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "sitemap-3.xml: cannot write: No space left on device; nothing was written" in err
    assert {path.name: path.read_bytes() for path in out.iterdir()} == before


@pytest.mark.parametrize(
    ("file", "out_dir", "says"),
    [
        ("", "out", "FILE: an empty path names no file; give the sitemap to split"),
        ("sitemap.xml", "", "--out-dir: an empty path names no directory; give one"),
        ("-", "out", "FILE -: split reads a file, not standard input; save the sitemap to a file"),
    ],
)
def test_cli_split_refuses_an_empty_path(
    tmp_path: Path, capsys, monkeypatch, file: str, out_dir: str, says: str
) -> None:
    """Not the working directory, which is what an empty path (an unset variable) reads."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sitemap.xml").write_bytes(sitemap([entry(i) for i in range(3)]))
    args = ["split", file, "--base-url", "https://example.com/", "--out-dir", out_dir]
    assert main([*args, "--max-urls", "1"]) == 2
    assert capsys.readouterr().err == f"sitemap-lint: error: {says}\n"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["sitemap.xml"]


def test_cli_split_names_parts_left_from_an_earlier_split(tmp_path: Path, capsys) -> None:
    source = tmp_path / "sitemap.xml"
    source.write_bytes(sitemap([entry(i) for i in range(3)]))
    out = tmp_path / "out"
    args = ["split", str(source), "--base-url", "https://example.com/", "--out-dir", str(out)]
    assert main([*args, "--max-urls", "1"]) == 0
    capsys.readouterr()
    assert main(args) == 0
    err = capsys.readouterr().err
    assert "still holds sitemap-2.xml, sitemap-3.xml from an earlier split" in err


def test_cli_split_names_the_parts_of_an_earlier_split_compressed_otherwise(
    tmp_path: Path, capsys
) -> None:
    source = tmp_path / "sitemap.xml"
    source.write_bytes(sitemap([entry(i) for i in range(12)]))
    out = tmp_path / "out"
    args = ["split", str(source), "--base-url", "https://example.com/", "--out-dir", str(out)]
    assert main([*args, "--max-urls", "1"]) == 0
    capsys.readouterr()
    assert main([*args, "--max-urls", "6", "--gzip"]) == 0
    err = capsys.readouterr().err
    stale = ", ".join(f"sitemap-{i}.xml" for i in range(1, 13))
    assert f"still holds {stale} from an earlier split" in err
    assert main([*args, "--max-urls", "12"]) == 0
    err = capsys.readouterr().err
    assert "still holds sitemap-1.xml.gz, sitemap-2.xml, sitemap-2.xml.gz, sitemap-3.xml, " in err


@pytest.mark.parametrize(
    ("name", "text", "said"),
    [
        (
            "urls.txt",
            "https://example.com/a\nhttps://example.com/b\n",
            "it is not an XML sitemap (a text sitemap is split by its lines",
        ),
        (
            "robots.txt",
            "User-agent: *\nSitemap: https://example.com/s.xml\n",
            "it is a robots.txt, not a sitemap: it lists sitemaps and has no URLs to split",
        ),
    ],
    ids=["text-sitemap", "robots-txt"],
)
def test_cli_split_refuses_what_is_no_xml_sitemap_saying_what_it_is(
    name: str, text: str, said: str, tmp_path: Path, capsys
) -> None:
    source = tmp_path / name
    source.write_text(text, encoding="utf-8")
    args = ["split", str(source), "--base-url", "https://example.com/"]
    status = main([*args, "--out-dir", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert status == 2 and said in err
    assert not (tmp_path / "out").exists()


def test_cli_split_gzip_and_byte_limit(tmp_path: Path, capsys) -> None:
    source = tmp_path / "big.xml.gz"
    entries = [entry(i, 40) for i in range(30)]
    source.write_bytes(gzip.compress(sitemap(entries)))
    out = tmp_path / "out"
    status = main(
        [
            "split",
            str(source),
            "--base-url",
            "https://example.com",
            "--out-dir",
            str(out),
            "--max-bytes",
            "1KiB",
            "--gzip",
        ]
    )
    assert status == 0
    parts = sorted(out.glob("big-*.xml.gz"), key=lambda p: int(p.name.split("-")[1].split(".")[0]))
    data = [gzip.decompress(p.read_bytes()) for p in parts]
    assert all(len(d) <= 1024 for d in data)
    assert [e.decode() for e in split_entries(data)] == entries
    assert b"https://example.com/big-1.xml.gz" in (out / "big-index.xml").read_bytes()


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b'<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"/>', "only a <urlset>"),
        (b"<urlset><url><loc>https://e.com/a&b</loc></url></urlset>", "not well-formed"),
        (b'<!DOCTYPE urlset [<!ENTITY a "b">]><urlset/>', "DOCTYPE"),
        (b'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"/>', "no <url> entries"),
        (
            b'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n<!-- x -->\n</urlset>',
            "no <url> entries",
        ),
        (
            b'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:x="urn:x">'
            b"<x:meta>a</x:meta></urlset>",
            "no <url> entries",
        ),
        (
            b'\n\n<?xml version="1.0"?>\n<urlset>\n<url><loc>https://e.com/a&b</loc></url></urlset>',
            "not well-formed XML at line 5",  # the file's line, the declaration taken off
        ),
        (
            b'<?xml version="1.0"?>\r<urlset>\r<url><loc>https://e.com/a&b</loc></url></urlset>',
            "not well-formed XML at line 3",
        ),
    ],
)
def test_split_refuses_what_it_cannot_split(
    tmp_path: Path, capsys, content: bytes, reason: str
) -> None:
    source = tmp_path / "s.xml"
    source.write_bytes(content)
    status = main(
        ["split", str(source), "--base-url", "https://e.com/", "--out-dir", str(tmp_path / "o")]
    )
    assert status == 2
    err = capsys.readouterr().err
    assert err.startswith(f"sitemap-lint: error: {source}: cannot be split: ")
    assert reason in err and err.count("\n") == 1
    assert not (tmp_path / "o").exists()


def test_max_urls_counts_the_url_entries_alone(tmp_path: Path, capsys) -> None:
    """An extension element of the root is no entry: it takes no place of one."""
    source = tmp_path / "s.xml"
    source.write_bytes(
        sitemap([entry(i) for i in range(3)]).replace(
            b"  <url>", b'  <x:meta xmlns:x="urn:x">about</x:meta>\n  <url>', 1
        )
    )
    out = tmp_path / "o"
    args = ["split", str(source), "--base-url", "https://example.com/", "--out-dir", str(out)]
    assert main([*args, "--max-urls", "3"]) == 0
    assert sorted(path.name for path in out.iterdir()) == ["s-1.xml", "s-index.xml"]
    assert "3 entries in 1 part" in capsys.readouterr().err


def test_an_xml_declaration_in_a_comment_is_left_to_the_comment(tmp_path: Path, capsys) -> None:
    """Only a declaration at the start is taken off: a file without one that names one
    in a comment is split as any other."""
    source = tmp_path / "s.xml"
    written = sitemap([entry(1)]).split(b"?>\n", 1)[1]
    source.write_bytes(
        written.replace(b"</urlset>", b'<!-- from <?xml version="1.0"?> --></urlset>')
    )
    out = tmp_path / "o"
    args = ["split", str(source), "--base-url", "https://example.com/", "--out-dir", str(out)]
    assert main(args) == 0
    assert split_entries([(out / "s-1.xml").read_bytes()]) == [entry(1).encode()]


def test_an_entry_larger_than_a_part_is_refused() -> None:
    parsed = Parsed(b"<urlset>", "urlset")
    parsed.entries = parse(sitemap([entry(1, 500)]).split(b"?>", 1)[1]).entries
    with pytest.raises(SplitError, match="does not fit"):
        plan(parsed, "s", 10, 200)


@pytest.mark.parametrize(
    ("base_url", "listed"),
    [
        ("https://example.com/my maps/", "https://example.com/my%20maps/s-1.xml"),
        ("https://example.com/caf\u00e9/", "https://example.com/caf%C3%A9/s-1.xml"),
        ("https://ex\u00e4mple.com/", "https://xn--exmple-cua.com/s-1.xml"),
        ("https://example.com/a%20b/", "https://example.com/a%20b/s-1.xml"),
        # As browsers encode a host (UTS #46, not the idna codec's IDNA 2003: fass.de).
        ("https://fa\u00df.de/maps/", "https://xn--fa-hia.de/maps/s-1.xml"),
    ],
)
def test_the_index_lists_the_parts_at_the_base_url_encoded(
    tmp_path: Path, capsys, base_url: str, listed: str
) -> None:
    """As the URL rules want a URL written: the index itself is clean."""
    source = tmp_path / "s.xml"
    source.write_bytes(sitemap([entry(1)]))
    out = tmp_path / "out"
    args = ["split", str(source), "--base-url", base_url, "--out-dir", str(out), "--force"]
    assert main(args) == 0
    index = (out / "s-index.xml").read_bytes()
    assert re.findall(rb"<loc>([^<]*)</loc>", index) == [listed.encode()]
    assert errors(index, "s-index.xml") == []


@pytest.mark.parametrize(
    ("name", "listed"),
    [
        ("my map.xml", "my%20map-1.xml"),
        ("caf\u00e9.xml", "caf%C3%A9-1.xml"),
        ("50%#1?.xml", "50%25%231%3F-1.xml"),
    ],
)
def test_the_index_lists_a_part_whose_name_a_url_cannot_hold_as_is_encoded(
    tmp_path: Path, capsys, name: str, listed: str
) -> None:
    """A file name is no URL: the index lists its parts encoded, and a run that maps
    the base URL to the directory finds them."""
    source = tmp_path / name
    source.write_bytes(sitemap([entry(1)]))
    out = tmp_path / "out"
    args = ["split", str(source), "--base-url", "https://example.com/", "--out-dir", str(out)]
    assert main(args) == 0, capsys.readouterr().err
    index = out / (name.removesuffix(".xml") + "-index.xml")
    locs = re.findall(rb"<loc>([^<]*)</loc>", index.read_bytes())
    assert locs == [f"https://example.com/{listed}".encode()]
    assert errors(index.read_bytes(), index.name) == []
    capsys.readouterr()
    status = main(
        [
            "--now",
            "2025-06-01T00:00:00Z",
            "-f",
            "concise",
            "--map",
            f"https://example.com/={out}",
            str(index),
        ]
    )
    assert (status, capsys.readouterr().out) == (0, "")


def test_the_split_names_its_files_escaped(tmp_path: Path, capsys) -> None:
    source = tmp_path / "a\u202eb.xml"
    source.write_bytes(sitemap([entry(1)]))
    out = tmp_path / "out"
    args = ["split", str(source), "--base-url", "https://example.com/", "--out-dir", str(out)]
    assert main(args) == 0
    err = capsys.readouterr().err
    assert "\u202e" not in err and "a\\u202eb.xml: 1 entry in 1 part;" in err


@pytest.mark.parametrize(
    ("base_url", "says"),
    [
        ("https://user@example.com/", "UR009: URL contains a user name or password"),
        ("https://example.com/50%/", "UR007: '%' not followed by two hex digits"),
    ],
)
def test_a_base_url_the_url_rules_report_is_refused(
    tmp_path: Path, capsys, base_url: str, says: str
) -> None:
    """The index would list the parts at that URL: refused, with the rule's words."""
    source = tmp_path / "s.xml"
    source.write_bytes(sitemap([entry(1)]))
    out = tmp_path / "out"
    status = main(["split", str(source), "--base-url", base_url, "--out-dir", str(out), "--force"])
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1
    assert err.startswith(f"sitemap-lint: error: --base-url {base_url}: the index would list")
    assert says in err and err.endswith("; nothing was written\n")
    assert not out.exists()


@pytest.mark.parametrize(
    ("flag", "value", "says"),
    [
        ("--max-urls", "0", "--max-urls 0: give from 1 to 50,000"),
        ("--max-urls", "50001", "--max-urls 50001: give from 1 to 50,000"),
        ("--max-bytes", "0", "--max-bytes 0: give from 1 to 52,428,800 bytes"),
        ("--max-bytes", "51MiB", "--max-bytes 51MiB: give from 1 to 52,428,800 bytes"),
    ],
)
def test_a_part_limit_outside_the_protocol_s_is_refused_by_name(
    tmp_path: Path, capsys, flag: str, value: str, says: str
) -> None:
    """Parts over the protocol's limits would be sitemaps search engines refuse."""
    source = tmp_path / "s.xml"
    source.write_bytes(sitemap([entry(1)]))
    out = tmp_path / "out"
    args = ["split", str(source), "--base-url", "https://example.com/", "--out-dir", str(out)]
    assert main([*args, flag, value]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"sitemap-lint: error: {says}") and err.count("\n") == 1
    assert not out.exists()


def test_an_out_dir_that_is_a_file_is_refused_in_words(tmp_path: Path, capsys) -> None:
    source = tmp_path / "s.xml"
    source.write_bytes(sitemap([entry(1)]))
    (tmp_path / "out").write_text("a file\n", encoding="utf-8")
    args = ["split", str(source), "--base-url", "https://example.com/"]
    assert main([*args, "--out-dir", str(tmp_path / "out")]) == 2
    assert capsys.readouterr().err == (
        f"sitemap-lint: error: --out-dir {tmp_path / 'out'}: it is not a directory; "
        "nothing was written\n"
    )


@pytest.mark.parametrize(
    ("base_url", "says"),
    [
        ("maps/", "give an absolute http(s) URL"),
        ("https://e.com/?v=2", "has a query or a fragment"),
        ("https://e.com/maps#top", "has a query or a fragment"),
        ("https:///maps/", "has no host"),
    ],
)
def test_split_needs_the_url_of_a_directory(
    tmp_path: Path, capsys, base_url: str, says: str
) -> None:
    source = tmp_path / "s.xml"
    source.write_bytes(sitemap([entry(1)]))
    out = tmp_path / "out"
    status = main(["split", str(source), "--base-url", base_url, "--out-dir", str(out)])
    assert status == 2
    err = capsys.readouterr().err
    assert says in err and err.count("\n") == 1
    assert not out.exists()  # nothing written


def split_into(tmp_path: Path, base_url: str, *flags: str) -> tuple[int, Path]:
    """``sitemap-lint split`` of five entries under /blog/ into parts of two."""
    source = tmp_path / "big.xml"
    source.write_bytes(
        sitemap([f"<url><loc>https://example.com/blog/p{i}</loc></url>" for i in range(5)])
    )
    out = tmp_path / "out"
    args = ["split", str(source), "--base-url", base_url, "--out-dir", str(out), "--max-urls", "2"]
    status = main([*args, *flags])
    return status, out


def test_a_base_url_that_puts_the_entries_out_of_scope_is_refused_naming_one_that_fits(
    tmp_path: Path, capsys
) -> None:
    status, out = split_into(tmp_path, "https://example.com/sitemaps/")
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1
    assert "puts 5 of 5 entries out of the parts' scope" in err
    assert "use --base-url https://example.com/blog/ (or a directory above it)" in err
    assert "--force" in err
    assert not out.exists()


def test_the_base_url_named_puts_every_part_in_scope(tmp_path: Path, capsys) -> None:
    status, out = split_into(tmp_path, "https://example.com/blog/")
    assert status == 0
    assert "warning" not in capsys.readouterr().err
    for part in sorted(out.glob("big-[0-9].xml")):
        assert errors(part.read_bytes(), part.name, f"https://example.com/blog/{part.name}") == []


def test_force_splits_out_of_scope_with_a_warning_that_the_check_bears_out(
    tmp_path: Path, capsys
) -> None:
    status, out = split_into(tmp_path, "https://example.com/sitemaps/", "--force")
    err = capsys.readouterr().err
    assert status == 0
    assert err.startswith("sitemap-lint: warning: --base-url https://example.com/sitemaps/ puts")
    assert "--base-url https://example.com/blog/ would fit them all" in err
    assert "5 entries in 3 parts" in err
    part = out / "big-1.xml"
    found = errors(part.read_bytes(), part.name, f"https://example.com/sitemaps/{part.name}")
    assert [e.split()[0] for e in found] == ["SC002", "SC002"]


def test_entries_on_several_origins_fit_no_base_url(tmp_path: Path, capsys) -> None:
    source = tmp_path / "s.xml"
    locs = ["https://example.com/a", "https://example.org/b"]
    source.write_bytes(sitemap([f"<url><loc>{loc}</loc></url>" for loc in locs]))
    status = main(
        ["split", str(source), "--base-url", "https://example.com/", "--out-dir", str(tmp_path)]
    )
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1
    assert "puts 1 of 2 entries out" in err and "more than one origin" in err


@pytest.mark.parametrize(
    ("base_url", "locs", "outside"),
    [
        ("https://example.com/blog/", ["https://example.com/blog/a"], 0),
        ("https://example.com/blog", ["https://example.com/blog/a"], 0),
        ("https://example.com/blog/", ["https://example.com/blog/../a"], 1),
        ("https://example.com/blog/", ["https://EXAMPLE.com:443/blog/a"], 0),
        ("https://example.com/blog/", ["http://example.com/blog/a"], 1),
        ("https://example.com/", ["https://example.com/a", "not a URL"], 0),
    ],
)
def test_the_scope_of_the_parts_is_the_scope_rules_own(
    base_url: str, locs: list[str], outside: int
) -> None:
    """What split counts out of scope is what SC001 and SC002 report of a part."""
    from sitemap_lint.fix.split import out_of_scope

    data = sitemap([f"<url><loc>{loc}</loc></url>" for loc in locs])
    problem = out_of_scope(parse(data.split(b"?>", 1)[1]), base_url, "s-1.xml")
    counted = 0 if problem is None else int(problem.message.split(" puts ")[1].split()[0])
    served_at = base_url.rstrip("/") + "/s-1.xml"
    reported = [e for e in errors(data, "s-1.xml", served_at) if e.startswith(("SC001", "SC002"))]
    assert counted == len(reported) == outside


@pytest.mark.parametrize(
    ("base_url", "written"),
    [
        ("https://example.com/~alice/", "%7Ealice"),
        ("https://example.com/%7Ealice/", "~alice"),
        ("https://example.com/%7ealice/", "%7Ealice"),
        ("https://example.com/café/", "caf%C3%A9"),
        ("https://example.com/caf%c3%a9/", "caf%C3%A9"),
    ],
)
def test_a_base_url_written_otherwise_than_the_entries_is_their_directory(
    tmp_path: Path, capsys, base_url: str, written: str
) -> None:
    """~ is %7E (RFC 3986, 2.3), café is caf%C3%A9 (RFC 3987), hex digits in either case."""
    source = tmp_path / "user.xml"
    source.write_bytes(
        sitemap([f"<url><loc>https://example.com/{written}/p{i}</loc></url>" for i in range(3)])
    )
    out = tmp_path / "out"
    args = ["split", str(source), "--base-url", base_url, "--out-dir", str(out)]
    assert main([*args, "--max-urls", "2"]) == 0
    assert "warning" not in capsys.readouterr().err
    assert (out / "user-index.xml").exists()


def test_the_directory_named_for_entries_written_two_ways_is_their_own(
    tmp_path: Path, capsys
) -> None:
    source = tmp_path / "user.xml"
    locs = ["https://example.com/~alice/a", "https://example.com/%7Ealice/b"]
    source.write_bytes(sitemap([f"<url><loc>{loc}</loc></url>" for loc in locs]))
    args = ["split", str(source), "--base-url", "https://example.com/bob/"]
    assert main([*args, "--out-dir", str(tmp_path / "out")]) == 2
    assert "use --base-url https://example.com/~alice/ (or" in capsys.readouterr().err


DIRECTED = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    "<!-- sitemap-lint: disable-file UR008 -->\n"
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
    "  <!-- a plain comment -->\n"
    "  <url><loc>https://example.com/a#x</loc></url>\n"
    "  <!-- sitemap-lint: disable-next-line VA002 -->\n"
    "  <url><loc>https://example.com/b</loc><changefreq>Daily</changefreq></url>\n"
    "  <url><loc>https://example.com/c#y</loc></url>\n"
    "  <!-- sitemap-lint: disable-next-line VA002 --><url>\n"
    "    <loc>https://example.com/d</loc><changefreq>Weekly</changefreq></url>\n"
    "  <url><loc>https://example.com/e</loc><!-- sitemap-lint: disable-file UR006 --></url>\n"
    "  <url><loc>https://example.com/f g</loc></url>\n"
    "</urlset>\n"
)


def test_split_keeps_the_directives_with_what_they_silence(tmp_path: Path, capsys) -> None:
    """A disable-file comment is in every part (one inside an entry too); a
    disable-next-line comment goes with the entry whose line it silences."""
    from sitemap_lint.engine.checker import check_source

    source = tmp_path / "sitemap.xml"
    source.write_text(DIRECTED, encoding="utf-8")
    out = tmp_path / "out"
    base = "https://example.com/"
    args = ["split", str(source), "--base-url", base, "--out-dir", str(out), "--max-urls", "2"]
    assert main(args) == 0
    capsys.readouterr()
    for n in (1, 2, 3):
        name = f"sitemap-{n}.xml"
        data = (out / name).read_bytes()
        assert data.count(b"disable-file UR008") == 1
        assert data.count(b"disable-file UR006") == 1
        options = Options(now=NOW, sitemap_url=parse_sitemap_url(base + name))
        found = check_source(Source(name, None, data=data), options, engine()).findings
        assert [f.code for f in found if f.code != "SU001"] == [], name
    second = (out / "sitemap-2.xml").read_text(encoding="utf-8")
    assert (
        "  <url><loc>https://example.com/c#y</loc></url>\n"
        "  <!-- sitemap-lint: disable-next-line VA002 --> <url>\n"
        "    <loc>https://example.com/d</loc><changefreq>Weekly</changefreq></url>\n"
    ) in second
    assert "a plain comment" not in (out / "sitemap-1.xml").read_text(encoding="utf-8")


def test_a_disable_next_line_before_the_root_goes_before_every_part_s_root(
    tmp_path: Path, capsys
) -> None:
    source = tmp_path / "sitemap.xml"
    source.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        "<!-- sitemap-lint: disable-next-line NS002 -->\n"
        '<urlset xmlns="https://www.sitemaps.org/schemas/sitemap/0.9">\n'
        "  <url><loc>https://example.com/a</loc></url>\n"
        "  <url><loc>https://example.com/b</loc></url>\n"
        "</urlset>\n",
        encoding="utf-8",
    )
    out = tmp_path / "out"
    args = ["split", str(source), "--base-url", "https://example.com/", "--out-dir", str(out)]
    assert main([*args, "--max-urls", "1"]) == 0
    capsys.readouterr()
    for n in (1, 2):
        data = (out / f"sitemap-{n}.xml").read_bytes()
        assert data.startswith(
            b'<?xml version="1.0" encoding="UTF-8"?>\n'
            b"<!-- sitemap-lint: disable-next-line NS002 -->\n"
            b'<urlset xmlns="https://www.sitemaps.org/schemas/sitemap/0.9">\n'
        )
        assert errors(data, f"sitemap-{n}.xml") == []


def _varied_sitemap(newline: str, declaration: str, count: int) -> bytes:
    """A URL set with the line ends, declaration, directives, comments, instructions,
    CDATA and extension elements the split copies."""
    lines = [
        declaration,
        "<!-- sitemap-lint: disable-file UR011 -->",
        "<!-- sitemap-lint: disable-next-line NS001 -->",
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"',
        '        xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">',
    ]
    for i in range(count):
        if i % 4 == 1:
            lines.append("  <!-- sitemap-lint: disable-next-line UR005 -->")
        if i % 5 == 2:
            lines.append("  <?pi data?><!-- a comment -->")
        if i % 7 == 3:
            lines.append("  <!-- sitemap-lint: disable-file UR006 -->")
        lines.append(f"  {entry(i, i % 3, image=i % 2 == 0)}")
        if i % 6 == 5:
            lines.append(f"  <url>{newline}    <loc><![CDATA[https://example.com/c{i}]]></loc>")
            lines.append("  </url>")
    lines.append("</urlset>")
    return newline.join(line for line in lines if line).encode()


@pytest.mark.parametrize("size", [1, 2, 3, 7, 64, 1 << 20])
@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_the_entries_read_a_piece_at_a_time_are_those_read_whole(size: int, newline: str) -> None:
    from sitemap_lint.fix.split import _Scanner

    data = _varied_sitemap(newline, "", 30)
    whole = parse(data)
    scanner = _Scanner()
    pieces = [data[at : at + size] for at in range(0, len(data), size)]
    assert list(scanner.entries(pieces)) == whole.entries
    assert scanner.parsed is not None
    scanner.parsed.entries = whole.entries
    assert scanner.parsed == whole


@pytest.mark.parametrize("gzip_input", [False, True])
@pytest.mark.parametrize("gzip_parts", [False, True])
@pytest.mark.parametrize(
    "declaration",
    [
        "",
        '<?xml version="1.0" encoding="UTF-8"?>',
        '\ufeff<?xml version="1.0"?>',
        ' <?xml version="1.0" encoding="ISO-8859-1" standalone="yes"?>',
    ],
)
def test_the_split_writes_the_parts_plan_makes(
    tmp_path: Path, declaration: str, gzip_input: bool, gzip_parts: bool
) -> None:
    from sitemap_lint.fix.split import _without_declaration, split_file

    text = _varied_sitemap("\r\n", declaration, 40).decode()
    data = text.encode("latin-1" if "ISO-8859-1" in text else "utf-8")
    source = tmp_path / ("sitemap.xml.gz" if gzip_input else "sitemap.xml")
    source.write_bytes(gzip.compress(data) if gzip_input else data)
    written = split_file(
        source, "https://example.com/", tmp_path / "out", max_urls=7, gzip=gzip_parts
    )
    planned = plan(
        parse(_without_declaration(text.lstrip("\ufeff")).encode()), "sitemap", 7, 50 << 20
    )
    assert [(p.name, p.count, p.lastmod) for p in written.parts] == [
        (p.name.replace(".xml", ".xml.gz") if gzip_parts else p.name, p.count, p.lastmod)
        for p in planned
    ]
    for part, made in zip(written.parts, planned, strict=True):
        on_disk = (tmp_path / "out" / part.name).read_bytes()
        assert (gzip.decompress(on_disk) if gzip_parts else on_disk) == made.data
        if gzip_parts:
            assert on_disk == gzip.compress(made.data, mtime=0)


def test_the_split_holds_neither_the_file_nor_its_parts_in_memory(tmp_path: Path) -> None:
    import tracemalloc

    from sitemap_lint.fix.split import split_file

    source = tmp_path / "sitemap.xml"
    source.write_bytes(sitemap([entry(i, 40, image=i % 2 == 0) for i in range(24_000)]))
    size = source.stat().st_size
    assert size > 4_000_000
    tracemalloc.start()
    try:
        written = split_file(source, "https://example.com/", tmp_path / "out", max_urls=8_000)
        _current, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(written.parts) == 3
    assert peak < size, f"peak {peak:,} bytes for a file of {size:,}"


def test_a_file_that_changes_while_it_is_split_is_not_split(
    tmp_path: Path, capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    from sitemap_lint.fix import split

    source = tmp_path / "sitemap.xml"
    source.write_bytes(sitemap([entry(i) for i in range(6)]))
    refuse = split._refuse_other_files

    def changed_meanwhile(*args: object, **kwargs: object) -> None:
        # The same sizes, another URL: only what was read tells them apart.
        source.write_bytes(sitemap([entry(i) for i in range(6)]).replace(b"/p3<", b"/q3<"))
        refuse(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(split, "_refuse_other_files", changed_meanwhile)
    out = tmp_path / "out"
    argv = ["split", str(source), "--base-url", "https://example.com/", "--out-dir", str(out)]
    assert main([*argv, "--max-urls", "2"]) == 2
    assert "changed while it was being split" in capsys.readouterr().err
    assert list(out.iterdir()) == []


def test_the_instructions_before_the_root_go_in_every_part(tmp_path: Path, capsys) -> None:
    """An ``<?xml-stylesheet?>`` styles every part as it styled the file; an instruction
    between the entries stays out, as the comments there do."""
    stylesheet = b'<?xml-stylesheet type="text/xsl" href="/sitemap.xsl"?>'
    data = sitemap([entry(i) for i in range(5)]).replace(b"?>\n", b"?>\n" + stylesheet + b"\n", 1)
    data = data.replace(b"  <url>", b"  <?between entries?><url>", 1)
    source = tmp_path / "sitemap.xml"
    source.write_bytes(data)
    out = tmp_path / "out"
    argv = ["split", str(source), "--base-url", "https://example.com/", "--out-dir", str(out)]
    assert main([*argv, "--max-urls", "2"]) == 0
    capsys.readouterr()
    for number in (1, 2, 3):
        part = (out / f"sitemap-{number}.xml").read_bytes()
        assert part.split(b"\n")[1] == stylesheet
        assert b"<?between" not in part
        assert errors(part) == []


def test_a_forced_split_keeps_no_finding_of_the_entries_out_of_scope(tmp_path: Path) -> None:
    import tracemalloc

    from sitemap_lint.fix.split import split_file

    source = tmp_path / "sitemap.xml"
    source.write_bytes(sitemap([entry(i, 120) for i in range(24_000)]))
    size = source.stat().st_size
    tracemalloc.start()
    try:
        written = split_file(
            source, "https://example.com/maps/", tmp_path / "out", max_urls=8_000, force=True
        )
        _current, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert written.warning is not None
    assert "puts 24,000 of 24,000 entries out of the parts' scope" in written.warning
    assert peak < size, f"peak {peak:,} bytes for a file of {size:,}"


def test_a_damaged_gzip_is_refused_with_what_to_do_before_splitting_it_again(
    tmp_path: Path, capsys
) -> None:
    """The refusal's advice is the split's, not the fix's."""
    import gzip

    source = tmp_path / "s.xml.gz"
    source.write_bytes(gzip.compress(sitemap([entry(i) for i in range(50)]))[:-40])
    status = main(
        ["split", str(source), "--base-url", "https://e.com/", "--out-dir", str(tmp_path / "o")]
    )
    assert status == 2
    err = capsys.readouterr().err
    assert "cannot be split: the gzip stream is truncated" in err
    assert err.rstrip().endswith("then split it again") and "fix" not in err

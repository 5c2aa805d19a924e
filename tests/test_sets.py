"""Sets of local files: order, determinism, worker processes, limits, --map, hreflang across files."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from sitemap_lint.cli import main
from sitemap_lint.rules.structure import Reporter
from sitemap_lint.run import RunSettings, UsageError, execute
from tests.helpers import noting_rule, plugin_checks, run_json

HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
XHTML = ' xmlns:xhtml="http://www.w3.org/1999/xhtml"'


def urlset(*pages: str, extra: str = "") -> str:
    body = "".join(f"  <url><loc>https://example.com/{page}</loc>{extra}</url>\n" for page in pages)
    return f"{HEAD}>\n{body}</urlset>\n"


def index(*children: str) -> str:
    body = "".join(
        f"  <sitemap><loc>https://example.com/{child}</loc></sitemap>\n" for child in children
    )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        f"{body}</sitemapindex>\n"
    )


run = run_json


def codes(report: dict) -> list[tuple[str, str, int]]:
    return [
        (Path(entry["path"]).name, f["code"], f["line"])
        for entry in report["files"]
        for f in entry["findings"]
    ]


def set_codes(report: dict) -> list[tuple[str, str, int]]:
    """``codes`` but UR018's: the URLs written otherwise that the set reads as one."""
    return [found for found in codes(report) if found[1] != "UR018"]


@pytest.fixture
def site(tmp_path: Path) -> Path:
    (tmp_path / "index.xml").write_text(index("b.xml", "a.xml"), encoding="utf-8")
    (tmp_path / "a.xml").write_text(urlset("one", "two"), encoding="utf-8")
    (tmp_path / "b.xml").write_text(urlset("three", "one"), encoding="utf-8")
    return tmp_path


def test_an_index_is_followed_with_its_children_in_document_order(site: Path) -> None:
    status, report = run(
        [str(site / "index.xml")], follow=True, maps=(f"https://example.com/={site}",)
    )
    assert [Path(entry["path"]).name for entry in report["files"]] == [
        "index.xml",
        "b.xml",
        "a.xml",
    ]
    assert [entry.get("urls") for entry in report["files"]] == [None, 2, 2]
    assert report["summary"]["urls"] == 4
    # /one is in b.xml (line 4, first in order) and again in a.xml, line 3.
    assert codes(report) == [("a.xml", "SE001", 3)]
    assert status == 0  # a warning only


def test_a_local_index_is_not_followed_without_follow(site: Path) -> None:
    _status, report = run([str(site / "index.xml")])
    assert [Path(entry["path"]).name for entry in report["files"]] == ["index.xml"]


def test_files_named_together_are_a_set(site: Path) -> None:
    _status, report = run([str(site / "a.xml"), str(site / "b.xml")])
    assert codes(report) == [("b.xml", "SE001", 4)]
    message = report["files"][1]["findings"][0]["message"]
    assert f"{site / 'a.xml'}, line 3" in message


def test_a_single_file_is_not_a_set(site: Path) -> None:
    _status, report = run([str(site / "a.xml")])
    assert [Path(entry["path"]).name for entry in report["files"]] == ["a.xml"]
    # Not a set, but counted as every run is.
    assert report["summary"]["urls"] == 2 and report["files"][0]["kind"] == "urlset"


def test_depth_limit(site: Path) -> None:
    _status, report = run(
        [str(site / "index.xml")],
        follow=True,
        maps=(f"https://example.com/={site}",),
        max_depth=0,
    )
    assert codes(report) == [("index.xml", "SE005", 3)]
    assert "--max-depth" in report["files"][0]["findings"][0]["message"]


def test_the_byte_limit_holds_between_the_files_of_one_level(tmp_path: Path) -> None:
    """The children an index lists are checked together, but a local child's bytes count
    as soon as it is listed: once the index and a.xml reach the limit, b.xml and c.xml
    are not read, and SE005 says so at b.xml's entry."""
    (tmp_path / "index.xml").write_text(index("a.xml", "b.xml", "c.xml"), encoding="utf-8")
    for name in ("a", "b", "c"):
        (tmp_path / f"{name}.xml").write_text(urlset(name), encoding="utf-8")
    limit = (tmp_path / "index.xml").stat().st_size + 1
    _status, report = run(
        [str(tmp_path / "index.xml")], maps=(f"https://example.com/={tmp_path}",), max_bytes=limit
    )
    assert [Path(entry["path"]).name for entry in report["files"]] == ["index.xml", "a.xml"]
    assert codes(report) == [("index.xml", "SE005", 4)]
    assert "--max-bytes" in report["files"][0]["findings"][0]["message"]


def _named(folder: Path, named: str, *files: str) -> list[str]:
    """The inputs: ``folder`` itself, or ``files`` in it by name."""
    return [str(folder)] if named == "directory" else [str(folder / name) for name in files]


@pytest.mark.parametrize("named", ["directory", "files"])
def test_an_index_lastmod_is_compared_with_a_sitemap_that_is_an_input_too(
    tmp_path: Path, no_network, named: str
) -> None:
    """A directory's files (or a sitemap named beside its index) are inputs of their own:
    the index's stale lastmod for one of them is SE006 all the same."""
    (tmp_path / "sitemap-index.xml").write_text(
        index("sitemap-a.xml").replace("</loc>", "</loc><lastmod>2024-01-01</lastmod>"),
        encoding="utf-8",
    )
    (tmp_path / "sitemap-a.xml").write_text(
        urlset("one", extra="<lastmod>2024-03-01</lastmod>"), encoding="utf-8"
    )
    paths = _named(tmp_path, named, "sitemap-index.xml", "sitemap-a.xml")
    _status, report = run(paths, maps=(f"https://example.com/={tmp_path}",), select="SE006")
    assert codes(report) == [("sitemap-index.xml", "SE006", 3)]


@pytest.mark.parametrize(
    ("stated", "newest", "reported"),
    [
        ("2024-03", "2024-03-31T20:00:00Z", False),  # a month covers its days
        ("2024", "2024-12-30", False),
        ("2024-03", "2024-04-01", False),  # a day after its last day: the tolerance
        ("2024-03", "2024-04-03", True),
        ("2024", "2025-01-03", True),
        ("2024-03-01", "2024-03-05", True),
    ],
)
@pytest.mark.parametrize("fast", ["1", "0"])
def test_an_index_month_or_year_lastmod_is_older_only_than_entries_after_its_period(
    tmp_path: Path,
    no_network,
    monkeypatch: pytest.MonkeyPatch,
    stated: str,
    newest: str,
    reported: bool,
    fast: str,
) -> None:
    """A month or a year in the index covers the whole period: a sitemap's entry inside it
    is no later than the index says (SE006), whether the fast path reads the index or not
    (its lastmods written with spaces, which its entry pattern takes)."""
    monkeypatch.setenv("SITEMAP_LINT_FAST_PATH", fast)
    others = [f"other-{number}.xml" for number in range(300)]
    listed = index(*others[:150], "sitemap-a.xml", *others[150:])
    (tmp_path / "sitemap-index.xml").write_text(
        listed.replace("</loc>", f"</loc><lastmod>{stated}      </lastmod>"), encoding="utf-8"
    )
    (tmp_path / "sitemap-a.xml").write_text(
        urlset("one", extra=f"<lastmod>{newest}</lastmod>"), encoding="utf-8"
    )
    paths = [str(tmp_path / "sitemap-index.xml")]
    _status, report = run(paths, maps=(f"https://example.com/={tmp_path}",), ignore="SE007")
    found = [code for code in codes(report) if code[1] != "DT003"]
    assert found == ([("sitemap-index.xml", "SE006", 153)] if reported else [])


@pytest.mark.parametrize("named", ["directory", "files"])
def test_an_index_listing_an_index_that_is_an_input_too_is_se003(
    tmp_path: Path, no_network, named: str
) -> None:
    """Checking a directory (or naming the nested index too) keeps the error of an index
    inside an index; its sitemaps are checked, as the nested index is an input."""
    (tmp_path / "sitemap-index.xml").write_text(index("sitemap-sub.xml"), encoding="utf-8")
    (tmp_path / "sitemap-sub.xml").write_text(index("sitemap-a.xml"), encoding="utf-8")
    (tmp_path / "sitemap-a.xml").write_text(urlset("one"), encoding="utf-8")
    paths = _named(tmp_path, named, "sitemap-index.xml", "sitemap-sub.xml")
    _status, report = run(paths, maps=(f"https://example.com/={tmp_path}",), select="SE003")
    assert codes(report) == [("sitemap-index.xml", "SE003", 3)]
    (message,) = [f["message"] for entry in report["files"] for f in entry["findings"]]
    assert "list its sitemaps here directly" in message and "not checked" not in message
    assert "(of 1 sitemap)" in message
    assert "sitemap-a.xml" in [Path(entry["path"]).name for entry in report["files"]]


def test_map_outside_its_directory_is_refused(tmp_path: Path) -> None:
    root = tmp_path / "dist"
    root.mkdir()
    (tmp_path / "secret.xml").write_text(urlset("x"), encoding="utf-8")
    (tmp_path / "other.xml").write_text(urlset("y"), encoding="utf-8")
    # Two files: "%2e%2e/secret.xml" would be the first URL again (DU001), %2e being ".".
    (root / "index.xml").write_text(index("../secret.xml", "%2e%2e/other.xml"), encoding="utf-8")
    _status, report = run(
        [str(root / "index.xml")], follow=True, maps=(f"https://example.com/={root}",)
    )
    assert [Path(entry["path"]).name for entry in report["files"]] == ["index.xml"]
    found = codes(report)
    assert ("index.xml", "SE007", 3) in found and ("index.xml", "SE007", 4) in found


def test_a_mapped_childs_dot_segments_are_resolved_in_its_url_before_the_directory(
    tmp_path: Path, no_network
) -> None:
    """``..`` above the root is the root (RFC 3986, 5.2.4), ``%2e`` is ``.``, and a
    segment before ``..`` is dropped from the URL whatever the mirror holds there (a
    link to another directory): each child is the file its URL names."""
    (tmp_path / "deep" / "er").mkdir(parents=True)
    (tmp_path / "link").symlink_to(tmp_path / "deep" / "er")
    (tmp_path / "index.xml").write_text(
        index("../a.xml", "%2e%2e/%2E%2E/b.xml", "link/../c.xml"), encoding="utf-8"
    )
    for name, page in (("a.xml", "one"), ("b.xml", "two"), ("c.xml", "three")):
        (tmp_path / name).write_text(urlset(page), encoding="utf-8")
    (tmp_path / "deep" / "c.xml").write_text(urlset("wrong"), encoding="utf-8")
    _status, report = run([str(tmp_path / "index.xml")], maps=(f"https://example.com/={tmp_path}",))
    assert [entry["path"] for entry in report["files"]] == [
        str(tmp_path / name) for name in ("index.xml", "a.xml", "b.xml", "c.xml")
    ]
    assert set_codes(report) == []


def test_a_missing_child_is_named_as_the_children_are_when_the_map_is_configured(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A configuration's directory is read relative to the file (an absolute path), but
    the report names the missing file from the working directory, as it names the files
    it checked."""
    (tmp_path / "public" / "blog").mkdir(parents=True)
    (tmp_path / ".sitemap-lint.toml").write_text(
        '[map]\n"https://example.com/" = "public"\n', encoding="utf-8"
    )
    (tmp_path / "public" / "index.xml").write_text(
        index("blog/a.xml", "blog/gone.xml"), encoding="utf-8"
    )
    (tmp_path / "public" / "blog" / "a.xml").write_text(urlset("blog/a"), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    out = io.StringIO()
    execute(RunSettings(paths=["public/index.xml"], format="json"), out=out, err=io.StringIO())
    report = json.loads(out.getvalue())
    assert [entry["path"] for entry in report["files"]] == ["public/index.xml", "public/blog/a.xml"]
    (finding,) = report["files"][0]["findings"]
    assert finding["code"] == "SE007"
    assert "maps to public/blog/gone.xml, which does not exist" in finding["message"]


@pytest.mark.parametrize(
    "value",
    ["no-equals", "ftp://example.com/=.", "https://=.", "https://example.com/=/no/such/dir"],
)
def test_bad_map_is_a_usage_error(value: str) -> None:
    with pytest.raises(UsageError):
        run(["fixtures/valid/sitemap.xml", "fixtures/valid/sitemap.xml"], maps=(value,))


def test_cli_bad_map_exits_2(capsys) -> None:
    assert main(["--map", "nonsense", "fixtures/valid/sitemap.xml"]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_a_url_input_under_a_map_is_read_from_its_directory(site: Path, no_network) -> None:
    """As the sitemaps an index lists: no request, the file named as it was read, its
    children (those of a URL are followed) read from the directory too."""
    status, report = run(["https://example.com/index.xml"], maps=(f"https://example.com/={site}",))
    assert [Path(entry["path"]).name for entry in report["files"]] == [
        "index.xml",
        "b.xml",
        "a.xml",
    ]
    assert codes(report) == [("a.xml", "SE001", 3)]
    assert status == 0


def test_a_robots_url_under_a_map_is_read_from_its_directory(site: Path, no_network) -> None:
    (site / "robots.txt").write_text("User-agent: *\nDisallow: /one\n", encoding="utf-8")
    _status, report = run(
        [str(site / "a.xml")],
        maps=(f"https://example.com/={site}",),
        robots=("https://example.com/robots.txt",),
        select="RB",
    )
    assert [(f["code"], f["line"]) for f in report["files"][0]["findings"]] == [("RB007", 3)]


def test_a_mapped_child_no_file_can_be_named_is_se007_not_a_crash(
    tmp_path: Path, no_network
) -> None:
    """A NUL byte (%00) or a name longer than the system takes: the run went on to an
    internal error (exit 2), every other file unchecked."""
    long_name = "n" * 300 + ".xml"
    (tmp_path / "index.xml").write_text(
        index("a.xml", "nul%00.xml", long_name, "/".join(["d" * 200] * 25) + ".xml"),
        encoding="utf-8",
    )
    (tmp_path / "a.xml").write_text(urlset("one"), encoding="utf-8")
    status, report = run([str(tmp_path / "index.xml")], maps=(f"https://example.com/={tmp_path}",))
    assert status == 1
    assert [Path(entry["path"]).name for entry in report["files"]] == ["index.xml", "a.xml"]
    found = [(f["code"], f["line"], f["message"]) for f in report["files"][0]["findings"]]
    assert [line for code, line, _message in found if code == "SE007"] == [4, 5, 6]
    messages = [message for code, _line, message in found if code == "SE007"]
    assert "nul%00.xml has a NUL byte (%00) in its path" in messages[0]
    assert "which cannot be read (File name too long)" in messages[1]
    assert "which cannot be read (File name too long)" in messages[2]


def test_a_url_input_mapped_to_no_file_exits_2(site: Path, no_network, capsys) -> None:
    argv = ["--isolated", "--map", f"https://example.com/={site}", "https://example.com/gone.xml"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "gone.xml, which does not exist" in err


def test_a_mapped_child_that_is_a_link_loop_or_a_directory_is_se007_saying_so(
    tmp_path: Path, no_network
) -> None:
    (tmp_path / "index.xml").write_text(
        index("a.xml", "loop.xml", "folder.xml", "gone.xml"), encoding="utf-8"
    )
    (tmp_path / "a.xml").write_text(urlset("one"), encoding="utf-8")
    (tmp_path / "loop.xml").symlink_to("loop.xml")
    (tmp_path / "folder.xml").mkdir()
    _status, report = run([str(tmp_path / "index.xml")], maps=(f"https://example.com/={tmp_path}",))
    assert [Path(entry["path"]).name for entry in report["files"]] == ["index.xml", "a.xml"]
    assert codes(report) == [("index.xml", "SE007", line) for line in (4, 5, 6)]
    messages = [f["message"] for f in report["files"][0]["findings"]]
    assert "loop.xml, which cannot be read (Too many levels of symbolic links)" in messages[0]
    assert "folder.xml, which is a directory, not a file" in messages[1]
    assert "gone.xml, which does not exist" in messages[2]


@pytest.mark.parametrize("mapped", [False, True])
def test_a_link_loop_among_several_inputs_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], mapped: bool
) -> None:
    (tmp_path / "a.xml").write_text(urlset("one"), encoding="utf-8")
    (tmp_path / "sitemap-loop.xml").symlink_to("sitemap-loop.xml")
    maps = ["--map", f"https://example.com/={tmp_path}"] if mapped else []
    for paths in ([str(tmp_path / "a.xml"), str(tmp_path / "sitemap-loop.xml")], [str(tmp_path)]):
        assert main(["--isolated", *maps, *paths]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "Too many levels of symbolic links" in err, err


@pytest.mark.slow
def test_worker_processes_give_the_same_report(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Files over 1 MiB go to worker processes when several are checked, and so do the
    slices of the hashes compared for duplicates; the report is the same byte for byte
    as with one worker."""
    from sitemap_lint.sets import runner as sets

    pools = []
    original = sets.find_duplicates

    def spy(files: Any, pool: Any = None) -> Any:
        pools.append(pool is not None)
        return original(files, pool)

    monkeypatch.setattr(sets, "find_duplicates", spy)
    for n in range(3):
        pages = [f"p{n}-{i}" for i in range(22_000)] + ["shared"]
        (tmp_path / f"sitemap-{n}.xml").write_text(urlset(*pages), encoding="utf-8")
    assert (tmp_path / "sitemap-0.xml").stat().st_size > 1 << 20
    outputs = []
    for jobs in (1, 2):
        out = io.StringIO()
        settings = RunSettings(
            paths=[str(tmp_path)], format="json", now="2025-06-01", isolated=True, jobs=jobs
        )
        execute(settings, out=out, err=io.StringIO())
        outputs.append(out.getvalue())
    assert outputs[0] == outputs[1]
    assert pools == [False, True]
    assert codes(json.loads(outputs[0])) == [
        ("sitemap-1.xml", "SE001", 22_003),
        ("sitemap-2.xml", "SE001", 22_003),
    ]


def test_hreflang_return_links_are_checked_across_files(tmp_path: Path) -> None:
    def alternates(*pairs: tuple[str, str]) -> str:
        return "".join(
            f'<xhtml:link rel="alternate" hreflang="{code}" href="https://example.com/{page}"/>'
            for code, page in pairs
        )

    english = urlset("en/", extra=alternates(("en", "en/"), ("de", "de/"))).replace(
        HEAD, HEAD + XHTML
    )
    german = urlset("de/", extra=alternates(("de", "de/"))).replace(HEAD, HEAD + XHTML)
    (tmp_path / "en.xml").write_text(english, encoding="utf-8")
    (tmp_path / "de.xml").write_text(german, encoding="utf-8")
    _status, report = run([str(tmp_path / "en.xml"), str(tmp_path / "de.xml")])
    returns = [
        (Path(entry["path"]).name, f)
        for entry in report["files"]
        for f in entry["findings"]
        if f["code"] == "HL006"
    ]
    assert len(returns) == 1
    file, finding = returns[0]
    assert file == "de.xml"  # de/ does not link back to en/, listed in the other file
    assert finding["line"] == 3 and f"{tmp_path / 'en.xml'}, line 3" in finding["message"]


def test_a_missing_return_link_across_files_names_the_same_pages_whatever_their_order(
    tmp_path: Path,
) -> None:
    """A page that five pages of three files list without listing them back: one HL006
    naming the pages of the least URLs, whatever the order the files are named in."""
    import itertools
    import re

    def entry(page: str, code: str) -> str:
        links = "".join(
            f'<xhtml:link rel="alternate" hreflang="{c}" href="https://example.com/{p}"/>'
            for c, p in ((code, page), ("de", "b"))
        )
        return f"  <url><loc>https://example.com/{page}</loc>{links}</url>\n"

    files = {
        "one.xml": entry("a3", "en") + entry("a1", "fr"),
        "two.xml": entry("b", "de").replace(
            '<xhtml:link rel="alternate" hreflang="de" href="https://example.com/b"/>', "", 1
        ),
        "three.xml": entry("a2", "es") + entry("a4", "it") + entry("a0", "pt"),
    }
    for name, body in files.items():
        (tmp_path / name).write_text(f"{HEAD}{XHTML}>\n{body}</urlset>\n", encoding="utf-8")
    messages = set()
    for order in itertools.permutations(files):
        _status, report = run([str(tmp_path / name) for name in order], select="HL006")
        found = [f["message"] for entry in report["files"] for f in entry["findings"]]
        messages.add(tuple(re.sub(r"line \d+", "line N", message) for message in found))
    (only,) = messages
    (message,) = only
    assert re.findall(r"example\.com/(a\d) \(", message) == ["a0", "a1", "a2"], message
    assert 'hreflang="pt" href="https://example.com/a0"' in message


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(
    ("stream", "options", "shown"),
    [
        (Terminal, {}, True),
        (Terminal, {"quiet": True}, False),
        (Terminal, {"format": "json"}, False),
        (io.StringIO, {}, False),  # not a terminal
    ],
)
def test_progress_bar_only_for_a_person_at_a_terminal(stream, options, shown) -> None:
    from sitemap_lint.run import _progress

    settings = RunSettings(paths=["x"], **options)
    bar = _progress(options.get("format", "text"), settings, stream())
    assert (bar is not None) == shown


def test_progress_bar_appears_from_four_files_and_is_gone_at_the_end(site: Path) -> None:
    from sitemap_lint.report.progress import ProgressBar

    err = Terminal()
    bar = ProgressBar(err)
    bar(1, 3)
    assert err.getvalue() == ""  # three files: no bar
    bar(2, 4)
    bar(4, 4)
    bar.close()
    assert "4/4" in err.getvalue()


@pytest.mark.parametrize("kind", ["missing", "directory", "fifo"])
def test_unreadable_robots_option_exits_2_in_one_line(tmp_path: Path, kind: str, capsys) -> None:
    target = tmp_path / "robots.txt"
    if kind == "directory":
        target.mkdir()
    elif kind == "fifo":
        os.mkfifo(target)
    assert main(["--robots", str(target), "fixtures/valid/sitemap.xml"]) == 2
    error = capsys.readouterr().err
    assert error.startswith("sitemap-lint: error: --robots") and error.count("\n") == 1


def test_map_alone_follows_mapped_children_and_fetches_nothing(tmp_path: Path, no_network) -> None:
    (tmp_path / "robots.txt").write_text(
        "User-agent: *\nDisallow:\n"
        "Sitemap: https://example.com/index.xml\n"
        "Sitemap: https://elsewhere.example/other.xml\n",
        encoding="utf-8",
    )
    (tmp_path / "index.xml").write_text(index("a.xml", "b.xml"), encoding="utf-8")
    (tmp_path / "a.xml").write_text(urlset("one"), encoding="utf-8")
    (tmp_path / "b.xml").write_text(urlset("two"), encoding="utf-8")
    _status, report = run(
        [str(tmp_path / "robots.txt")], maps=(f"https://example.com/={tmp_path}",)
    )
    names = [Path(entry["path"]).name for entry in report["files"]]
    assert names == ["robots.txt", "index.xml", "a.xml", "b.xml"]  # other.xml not fetched
    assert codes(report) == []


def test_a_robots_txt_listing_many_sitemaps_is_parsed_once_for_the_whole_set(
    tmp_path: Path, no_network, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each checked sitemap asks the run's robots.txt files about its URLs; parsing a
    robots.txt of N Sitemap lines again for each of its N sitemaps made the run quadratic
    in time and memory."""
    from sitemap_lint.sets import robots

    names = [f"s{number}.xml" for number in range(40)]
    lines = "".join(f"Sitemap: https://example.com/{name}\n" for name in names)
    (tmp_path / "robots.txt").write_text(f"User-agent: *\nDisallow: /one\n{lines}", "utf-8")
    for name in names:
        (tmp_path / name).write_text(urlset(f"{name}-page"), encoding="utf-8")
    (tmp_path / "s7.xml").write_text(urlset("one"), encoding="utf-8")
    parsed: list[str] = []

    def counted(text: str) -> Any:
        parsed.append(text)
        return parse_robots(text)

    parse_robots = robots.parse_robots
    monkeypatch.setattr(robots, "parse_robots", counted)
    robots.robots_policy.cache_clear()
    _status, report = run(
        [str(tmp_path / "robots.txt")], maps=(f"https://example.com/={tmp_path}",)
    )
    assert len(report["files"]) == 41
    assert codes(report) == [("s7.xml", "RB007", 3)]  # the policy still applies
    assert len(parsed) == 1


def test_a_child_written_with_another_host_case_or_the_default_port_is_mapped(
    tmp_path: Path, no_network
) -> None:
    """The host is case-insensitive and :443 is https's own port: both children are the
    mapped files, checked as the index's others are, not left out without a word."""
    (tmp_path / "index.xml").write_text(
        index("a.xml").replace("</sitemapindex>", "")
        + "  <sitemap><loc>HTTPS://Example.COM/b.xml</loc></sitemap>\n"
        + "  <sitemap><loc>https://example.com:443/c.xml</loc></sitemap>\n"
        + "</sitemapindex>\n",
        encoding="utf-8",
    )
    for name, page in (("a.xml", "one"), ("b.xml", "two"), ("c.xml", "one")):
        (tmp_path / name).write_text(urlset(page), encoding="utf-8")
    _status, report = run([str(tmp_path / "index.xml")], maps=(f"https://example.com/={tmp_path}",))
    names = [Path(entry["path"]).name for entry in report["files"]]
    assert names == ["index.xml", "a.xml", "b.xml", "c.xml"]
    assert ("c.xml", "SE001", 3) in codes(report)


def test_a_cycle_through_four_indexes_closes_in_the_last_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, no_network
) -> None:
    # Relative names: a message is cut to its length limit, which long paths reach.
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.xml").write_text(index("pages.xml", "b.xml"), encoding="utf-8")
    (tmp_path / "b.xml").write_text(index("other.xml", "c.xml"), encoding="utf-8")
    (tmp_path / "c.xml").write_text(index("d.xml"), encoding="utf-8")
    (tmp_path / "d.xml").write_text(index("a.xml"), encoding="utf-8")
    (tmp_path / "pages.xml").write_text(urlset("one"), encoding="utf-8")
    (tmp_path / "other.xml").write_text(urlset("two"), encoding="utf-8")
    _status, report = run(["a.xml"], maps=("https://example.com/=.",))
    names = [entry["path"] for entry in report["files"]]
    # other.xml, below a nested index, is read for its root element only.
    assert names == ["a.xml", "pages.xml", "b.xml", "c.xml", "d.xml"]
    assert codes(report) == [
        ("a.xml", "SE003", 4),
        ("b.xml", "SE003", 4),
        ("c.xml", "SE003", 3),
        ("d.xml", "SE002", 3),
    ]
    message = report["files"][4]["findings"][0]["message"]
    assert "(a.xml -> b.xml -> c.xml -> d.xml -> a.xml)" in message


@pytest.mark.parametrize(
    "inputs", [["a.xml"], ["a.xml", "b.xml", "c.xml"], ["a.xml", "c.xml"], ["b.xml", "a.xml"]]
)
def test_a_cycle_through_inputs_closes_with_se002_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, no_network, inputs: list[str]
) -> None:
    """The entry that closes a cycle is SE002 only, as when the cycle is found while
    following, also when the index it lists is an input of the run too (SE003 there)."""
    monkeypatch.chdir(tmp_path)
    for name, child in (("a", "b"), ("b", "c"), ("c", "a")):
        (tmp_path / f"{name}.xml").write_text(index(f"{child}.xml"), encoding="utf-8")
    _status, report = run(inputs, maps=("https://example.com/=.",))
    found = codes(report)
    # One finding on each entry: SE002 where the walk from the first input closes it.
    closing = {"a.xml": "c.xml", "b.xml": "a.xml"}[inputs[0]]
    assert sorted(found) == sorted(
        (name, "SE002" if name == closing else "SE003", 3) for name in ("a.xml", "b.xml", "c.xml")
    )


@pytest.mark.parametrize("written", ["./index.xml", "a/../index.xml", "a/b/../../index.xml"])
def test_an_index_listing_itself_through_dot_segments_is_checked_once(
    tmp_path: Path, no_network, written: str
) -> None:
    """/./index.xml is /index.xml (RFC 3986, 5.2.4): the file itself, not a nested index."""
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "b").mkdir()
    (tmp_path / "index.xml").write_text(index("s.xml", written), encoding="utf-8")
    (tmp_path / "s.xml").write_text(urlset("one"), encoding="utf-8")
    _status, report = run([str(tmp_path / "index.xml")], maps=(f"https://example.com/={tmp_path}",))
    assert [Path(entry["path"]).name for entry in report["files"]] == ["index.xml", "s.xml"]
    assert report["summary"]["files"] == 2
    assert set_codes(report) == [("index.xml", "SE002", 4)]
    assert "is this file itself" in report["files"][0]["findings"][0]["message"]


@pytest.mark.parametrize("configured", [False, True])
def test_an_index_listing_the_url_its_sitemap_url_gives_lists_itself(
    tmp_path: Path, no_network, monkeypatch: pytest.MonkeyPatch, configured: bool
) -> None:
    """--sitemap-url (or the configuration's table) says where the input is served: an
    index listing that URL is a cycle (SE002), not a nested index fetched and checked."""
    (tmp_path / "index.xml").write_text(
        index("sitemap-index.xml").replace("https://example.com/", "https://Example.com:443/"),
        encoding="utf-8",
    )
    monkeypatch.chdir(tmp_path)
    if configured:
        (tmp_path / ".sitemap-lint.toml").write_text(
            '[sitemap-url]\n"index.xml" = "https://example.com/sitemap-index.xml"\n',
            encoding="utf-8",
        )
        given = {}
    else:
        given = {"sitemap_url": "https://example.com/sitemap-index.xml", "isolated": True}
    out = io.StringIO()
    settings = RunSettings(paths=["index.xml"], format="json", follow=True, **given)
    execute(settings, out=out, err=io.StringIO())
    report = json.loads(out.getvalue())
    assert [entry["path"] for entry in report["files"]] == ["index.xml"]
    assert set_codes(report) == [("index.xml", "SE002", 3)]
    assert "is this file itself" in report["files"][0]["findings"][0]["message"]


def test_inputs_sharing_one_sitemap_url_are_each_checked(tmp_path: Path, no_network) -> None:
    for name in ("a.xml", "b.xml"):
        (tmp_path / name).write_text(urlset("one"), encoding="utf-8")
    paths = [str(tmp_path / "a.xml"), str(tmp_path / "b.xml")]
    _status, report = run(paths, sitemap_url="https://example.com/sitemap.xml")
    assert [Path(entry["path"]).name for entry in report["files"]] == ["a.xml", "b.xml"]
    assert codes(report) == [("b.xml", "SE001", 3)]


def test_a_sitemap_an_index_lists_twice_is_one_finding(tmp_path: Path, no_network) -> None:
    """DU001 for a repeat in one file (as RB003 in a robots.txt), not SE004 too."""
    (tmp_path / "index.xml").write_text(index("s.xml", "s.xml", "t.xml"), encoding="utf-8")
    (tmp_path / "s.xml").write_text(urlset("one"), encoding="utf-8")
    (tmp_path / "t.xml").write_text(urlset("two"), encoding="utf-8")
    (tmp_path / "robots.txt").write_text(
        "Sitemap: https://example.com/t.xml\nSitemap: https://example.com/index.xml\n",
        encoding="utf-8",
    )
    maps = (f"https://example.com/={tmp_path}",)
    _status, report = run([str(tmp_path / "index.xml")], maps=maps)
    assert codes(report) == [("index.xml", "DU001", 4)]
    assert report["summary"]["files"] == 3
    # Without DU001, SE004 still says it.
    _status, report = run([str(tmp_path / "index.xml")], maps=maps, select="SE")
    assert codes(report) == [("index.xml", "SE004", 4)]
    # Listed by robots.txt first: SE004 names that line, DU001 the repeat in the index.
    _status, report = run([str(tmp_path / "robots.txt")], maps=maps)
    assert codes(report) == [("index.xml", "DU001", 4), ("index.xml", "SE004", 5)]
    (message,) = [
        f["message"] for entry in report["files"] for f in entry["findings"] if f["code"] == "SE004"
    ]
    assert "t.xml is already listed in" in message and "robots.txt, line 1" in message
    # A missing file too is named with the file that listed it first.
    (tmp_path / "t.xml").unlink()
    _status, report = run([str(tmp_path / "robots.txt")], maps=maps)
    (message,) = [
        f["message"] for entry in report["files"] for f in entry["findings"] if f["code"] == "SE004"
    ]
    assert "robots.txt, line 1" in message and "command line" not in message


def test_a_robots_txt_repeat_rb003_does_not_compare_is_se004(tmp_path: Path, no_network) -> None:
    """A Sitemap line that repeats an earlier one is RB003's; written with dot segments,
    which RB003 does not compare, SE004's."""
    (tmp_path / "s.xml").write_text(urlset("one"), encoding="utf-8")
    (tmp_path / "robots.txt").write_text(
        "Sitemap: https://example.com/s.xml\n"
        "Sitemap: https://example.com/s.xml\n"
        "Sitemap: https://example.com/a/../s.xml\n",
        encoding="utf-8",
    )
    paths, maps = [str(tmp_path / "robots.txt")], (f"https://example.com/={tmp_path}",)
    _status, report = run(paths, maps=maps)
    assert set_codes(report) == [("robots.txt", "RB003", 2), ("robots.txt", "SE004", 3)]


def test_a_chain_of_indexes_without_a_cycle_has_none(tmp_path: Path, no_network) -> None:
    (tmp_path / "a.xml").write_text(index("b.xml"), encoding="utf-8")
    (tmp_path / "b.xml").write_text(index("c.xml"), encoding="utf-8")
    (tmp_path / "c.xml").write_text(index("pages.xml"), encoding="utf-8")
    (tmp_path / "pages.xml").write_text(urlset("one"), encoding="utf-8")
    _status, report = run([str(tmp_path / "a.xml")], maps=(f"https://example.com/={tmp_path}",))
    assert [c for _name, c, _line in codes(report)] == ["SE003", "SE003"]


def test_a_longer_cycle_past_the_depth_limit_is_not_read(tmp_path: Path, no_network) -> None:
    for name, child in (("a", "b"), ("b", "c"), ("c", "a")):
        (tmp_path / f"{name}.xml").write_text(index(f"{child}.xml"), encoding="utf-8")
    _status, report = run(
        [str(tmp_path / "a.xml")], maps=(f"https://example.com/={tmp_path}",), max_depth=1
    )
    assert [Path(entry["path"]).name for entry in report["files"]] == ["a.xml", "b.xml"]
    assert [c for _name, c, _line in codes(report)] == ["SE003"]


@pytest.mark.parametrize(
    "url", ["", "https://www.example.com/", "https://www.example.com/p?a=1&b=2", "x\udc80y\u00e9"]
)
def test_url_hashes_are_the_eight_byte_blake2b_digest(url: str) -> None:
    # The same in every process and every version: sets on a cluster compare them.
    from hashlib import blake2b

    from sitemap_lint.sets.facts import url_hash

    expected = blake2b(url.encode("utf-8", "surrogatepass"), digest_size=8).digest()
    assert url_hash(url) == int.from_bytes(expected) == url_hash(url)


@given(st.lists(st.text(max_size=40), max_size=30))
def test_url_hashes_in_bulk_are_each_urls_hash(urls: list[str]) -> None:
    from sitemap_lint.sets.facts import url_hash, url_hashes

    assert list(url_hashes(urls)) == [url_hash(url) for url in urls]


@given(
    st.lists(
        st.tuples(
            st.sampled_from(["https://a.example/", "https://a.example/p", "x"]), st.booleans()
        ),
        max_size=30,
    ),
    st.integers(min_value=0, max_value=4),
)
def test_urls_added_together_give_the_facts_of_urls_added_one_by_one(
    written: list[tuple[str, bool]], kept: int
) -> None:
    from sitemap_lint.sets import facts as module

    before, module.NORMAL_FORMS_KEPT = module.NORMAL_FORMS_KEPT, kept
    try:
        _compare_added_urls(written)
    finally:
        module.NORMAL_FORMS_KEPT = before


def _compare_added_urls(written: list[tuple[str, bool]]) -> None:
    from sitemap_lint.sets.facts import FileFacts

    urls = [url + ("?v" if other else "") for url, other in written]
    normals = [url for url, _other in written]
    positions = [(n + 1) << 32 | (n % 7 + 1) for n in range(len(urls))]
    one, together = FileFacts(), FileFacts()
    for number, (url, normal, here) in enumerate(zip(urls, normals, positions, strict=True)):
        one.add_url(url, here >> 32, here & 0xFFFFFFFF, normal, number + 3)
    together.add_urls(urls, normals, positions, 3)
    same = FileFacts()
    same.add_urls(normals, normals, positions, 3)
    assert (
        together.url_count,
        list(together.hashes),
        list(together.positions),
        list(together.indexes),
    ) == (one.url_count, list(one.hashes), list(one.positions), list(one.indexes))
    assert together.normal_forms == one.normal_forms
    assert same.normal_forms == {} and list(same.hashes) == list(one.hashes)


def test_a_slice_coarser_than_the_compacted_ones_keeps_the_file_order() -> None:
    from array import array

    from sitemap_lint.sets.facts import FileFacts

    # Compacted slices 3, 1 and 0, listed in that order, all in the first quarter.
    values = [3 << 60, 1 << 60, 0, 1 << 60]
    positions = [2 << 32 | 1, 3 << 32 | 1, 4 << 32 | 7, 5 << 32 | 1]
    indexes = [1, 2, 4, 5]
    facts = FileFacts(
        _hashes=array("Q", values), _positions=list(positions), _indexes=list(indexes)
    )
    facts.compact()
    whole = (array("Q", values), array("Q", positions), array("Q", indexes))
    assert facts.hash_slice(0, 4) == whole
    assert facts.hash_slice(0, 2) == whole
    assert facts.hash_slice(1, 16) == (
        array("Q", [1 << 60] * 2),
        array("Q", positions[1::2]),
        array("Q", indexes[1::2]),
    )


# Hashes spread over the whole 64-bit space, and some repeated in the file.
_HASHES = st.lists(
    st.integers(min_value=0, max_value=(1 << 64) - 1) | st.sampled_from([0, 5, (1 << 64) - 1]),
    max_size=60,
)


@given(_HASHES)
@example(values=[1 << 60, 0])  # two compacted slices joined in one coarser slice
def test_compacted_facts_give_each_slice_in_the_file_order_and_first_listings(
    values: list[int],
) -> None:
    from array import array

    from sitemap_lint.sets.facts import FileFacts, sorted_first_listings

    positions = [(n + 2) << 32 | (n % 5 + 1) for n in range(len(values))]
    indexes = [n * 2 + 1 for n in range(len(values))]  # entries without a URL between
    facts = FileFacts(
        _hashes=array("Q", values), _positions=list(positions), _indexes=list(indexes)
    )
    facts.compact()
    for parts in (1, 2, 4, 8, 16, 64):
        step = (1 << 64) // parts
        for part in range(parts):
            piece = facts.hash_slice(part, parts)
            expected = [
                (value, here, index)
                for value, here, index in zip(values, positions, indexes, strict=True)
                if part * step <= value < (part + 1) * step
            ]
            assert list(zip(*piece, strict=True)) == expected
            first = {value: (here, index) for value, here, index in reversed(expected)}
            assert sorted_first_listings(piece) == (
                array("Q", sorted(first)),
                array("Q", [first[value][0] for value in sorted(first)]),
                array("Q", [first[value][1] for value in sorted(first)]),
            )
    for value in {*values, 1, 1 << 63}:
        at = values.index(value) if value in values else None
        expected_listing = None if at is None else (positions[at], indexes[at])
        assert facts.first_listing(value) == expected_listing


@given(st.lists(st.lists(st.integers(min_value=0, max_value=40), max_size=12), max_size=6))
def test_duplicates_across_files_are_each_later_listing_with_the_first_file(
    files: list[list[int]],
) -> None:
    from array import array

    from sitemap_lint.sets.runner import duplicates_in_slice

    pieces = []
    for number, values in enumerate(files):
        # In the file's order, some listed twice; a position that names the file, the
        # value and which listing of it it is, to check which one is reported.
        listings = [values[:at].count(value) for at, value in enumerate(values)]
        positions = [
            (number + 1) << 32 | (value * 100 + listing)
            for value, listing in zip(values, listings, strict=True)
        ]
        # The entry's index names the file, the value and the listing too.
        indexes = [position + 7 for position in positions]
        pieces.append((array("Q", values), array("Q", positions), array("Q", indexes)))
    expected = set()
    for index, (chunk, _positions, _indexes) in enumerate(pieces):
        for value in chunk:
            first = next(i for i, (other, _p, _i) in enumerate(pieces) if value in other)
            if first != index:
                entry = ((index + 1) << 32 | value * 100) + 7
                expected.add((index, value, first, index + 1, value * 100, first + 1, entry))
    found = duplicates_in_slice(pieces)
    assert len(found) == len(set(found)) and set(found) == expected


def test_a_plugin_checks_the_set_once_every_file_is_checked(site: Path) -> None:
    """The rules across files come through the rule API: a plugin's ``set`` check sees
    every checked file, in the order of the set, and reports into one of them."""
    from sitemap_lint.rules.registry import SET
    from sitemap_lint.rules.sets import CheckedSet, SetReporter

    noted = noting_rule("ZX003", "noted-set")

    def note_set(checked: CheckedSet, options: object, report: SetReporter) -> None:
        names = [f"{Path(file.name).name}:{file.facts.url_count}" for file in checked.files]
        report.add(len(checked.files) - 1, noted.at(1, 1, " ".join(names)))

    with plugin_checks((SET, noted, note_set)):
        _status, report = run([str(site / "a.xml"), str(site / "b.xml")])
        _status, alone = run([str(site / "a.xml")])
    assert codes(report) == [("b.xml", "ZX003", 1), ("b.xml", "SE001", 4)]
    assert report["files"][1]["findings"][0]["message"] == "a.xml:2 b.xml:2"
    assert codes(alone) == []  # one file is no set


def test_a_plugin_checks_each_listed_sitemap_the_set_does_not_follow(tmp_path: Path) -> None:
    """What the following of listings leaves comes through the rule API too: a plugin's
    ``listed`` check sees a sitemap listed twice (written otherwise: the same URL twice in
    one file is DU001's, which no listing is) and one that is not there."""
    from sitemap_lint.rules.events import Unfollowed
    from sitemap_lint.rules.registry import LISTED

    noted = noting_rule("ZX004", "noted-listing")

    def note(listed: Unfollowed, options: object, report: Reporter) -> None:
        report.add(noted.at(listed.line, listed.column, f"{listed.kind} {listed.url}"))

    # "./a.xml" would be DU001's (dot-segments resolved); a fragment DU001 keeps.
    (tmp_path / "index.xml").write_text(index("a.xml", "gone.xml", "a.xml#top"), encoding="utf-8")
    (tmp_path / "a.xml").write_text(urlset("one"), encoding="utf-8")
    with plugin_checks((LISTED, noted, note)):
        _status, report = run(
            [str(tmp_path / "index.xml")], follow=True, maps=(f"https://example.com/={tmp_path}",)
        )
    found = [
        (name, code, line, f["message"])
        for entry in report["files"]
        for f in entry["findings"]
        for name, code, line in [(Path(entry["path"]).name, f["code"], f["line"])]
        if code == "ZX004"
    ]
    assert found == [
        ("index.xml", "ZX004", 4, "not-found https://example.com/gone.xml"),
        ("index.xml", "ZX004", 5, "twice https://example.com/a.xml#top"),
    ]
    assert [c for c in codes(report) if c[1][:2] == "SE"] == [
        ("index.xml", "SE007", 4),
        ("index.xml", "SE004", 5),
    ]


@pytest.mark.parametrize("named", ["the directory", "every file"])
def test_an_index_child_that_is_an_input_too_is_checked_once_without_a_finding(
    tmp_path: Path, named: str
) -> None:
    (tmp_path / "sitemap-index.xml").write_text(index("sitemap-a.xml", "sitemap-b.xml"))
    (tmp_path / "sitemap-a.xml").write_text(urlset("one"))
    (tmp_path / "sitemap-b.xml").write_text(urlset("two"))
    paths = (
        [str(tmp_path)]
        if named == "the directory"
        else [
            str(tmp_path / name) for name in ("sitemap-index.xml", "sitemap-a.xml", "sitemap-b.xml")
        ]
    )
    status, report = run_json(paths, maps=[f"https://example.com/={tmp_path}"])
    assert status == 0
    assert codes(report) == []
    names = sorted(Path(entry["path"]).name for entry in report["files"])
    assert names == ["sitemap-a.xml", "sitemap-b.xml", "sitemap-index.xml"]


def test_two_ipv6_hosts_a_port_would_join_are_two_sitemaps(tmp_path: Path) -> None:
    """``[::1]:8080`` and ``[::1:8080]`` are two hosts: the set's key of a URL keeps an
    IPv6 address in its brackets, so the second is no repeat of the first (SE004)."""
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir(), second.mkdir()
    (first / "a.xml").write_text(urlset("one"), encoding="utf-8")
    (second / "a.xml").write_text(urlset("two"), encoding="utf-8")
    listed = ("http://[::1]:8080/a.xml", "http://[::1:8080]/a.xml")
    body = "".join(f"  <sitemap><loc>{url}</loc></sitemap>\n" for url in listed)
    (tmp_path / "index.xml").write_text(
        index().replace("</sitemapindex>", f"{body}</sitemapindex>"), encoding="utf-8"
    )
    maps = (f"http://[::1]:8080/={first}", f"http://[::1:8080]/={second}")
    _status, report = run([str(tmp_path / "index.xml")], follow=True, maps=maps, select="SE")
    assert codes(report) == []
    assert [Path(entry["path"]).parent.name for entry in report["files"][1:]] == [
        "first",
        "second",
    ]

"""Inline suppression over the findings across files: a set's files keep their
directives open until the set is done, so that a directive silences a cross-file
finding (SE001) like any other, in either file that lists the URL, whatever the order
of the files; a directive naming only such rules is never unused, since whether they
fire depends on the other files a run checks."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

from tests.helpers import run_json, write

DIRECTIVE = "<!-- sitemap-lint: {action} {codes} -->"


def _sitemap(own: str, directive: str = "", before_shared: str = "") -> str:
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f"{directive}\n"
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        f"{before_shared}\n"
        "  <url><loc>https://example.com/shared</loc></url>\n"
        f"  <url><loc>https://example.com/{own}</loc></url>\n"
        "</urlset>\n"
    )


def _found(report: dict, name: str) -> list[tuple[str, int]]:
    (file,) = [f for f in report["files"] if f["path"].endswith(name)]
    return [(finding["code"], finding["line"]) for finding in file["findings"]]


def test_a_file_directive_silences_the_url_another_file_lists_too(tmp_path: Path) -> None:
    directive = DIRECTIVE.format(action="disable-file", codes="SE001")
    first = write(tmp_path, "a-sitemap.xml", _sitemap("a", directive))
    second = write(tmp_path, "b-sitemap.xml", _sitemap("b", directive))
    status, report = run_json([str(first), str(second)])
    assert _found(report, "a-sitemap.xml") == []
    assert _found(report, "b-sitemap.xml") == []
    assert status == 0


def test_a_next_line_directive_silences_a_cross_file_finding_on_its_line(
    tmp_path: Path,
) -> None:
    first = write(tmp_path, "a-sitemap.xml", _sitemap("a"))
    directive = "  " + DIRECTIVE.format(action="disable-next-line", codes="SE")
    second = write(tmp_path, "b-sitemap.xml", _sitemap("b", before_shared=directive))
    _status, report = run_json([str(first), str(second)])
    assert _found(report, "b-sitemap.xml") == []
    assert _found(report, "a-sitemap.xml") == []


def test_without_a_directive_the_cross_file_finding_stays(tmp_path: Path) -> None:
    first = write(tmp_path, "a-sitemap.xml", _sitemap("a"))
    unrelated = DIRECTIVE.format(action="disable-file", codes="UR008")
    second = write(tmp_path, "b-sitemap.xml", _sitemap("b", unrelated))
    _status, report = run_json([str(first), str(second)])
    assert _found(report, "b-sitemap.xml") == [("SU001", 2), ("SE001", 5)]


@pytest.mark.parametrize("jobs", [1, 2])
def test_the_same_in_worker_processes(tmp_path: Path, jobs: int) -> None:
    directive = DIRECTIVE.format(action="disable-file", codes="SE001")
    paths = [
        str(write(tmp_path, f"{name}-sitemap.xml", _sitemap(name, directive)))
        for name in ("a", "b", "c")
    ]
    _status, report = run_json(paths, jobs=jobs)
    assert _found(report, "a-sitemap.xml") == []
    assert _found(report, "b-sitemap.xml") == []
    assert _found(report, "c-sitemap.xml") == []


@pytest.mark.parametrize("order", [("a", "b"), ("b", "a")])
def test_a_directive_in_either_file_silences_the_url_both_list(
    tmp_path: Path, order: tuple[str, str]
) -> None:
    directive = DIRECTIVE.format(action="disable-file", codes="SE001")
    write(tmp_path, "a-sitemap.xml", _sitemap("a"))
    write(tmp_path, "b-sitemap.xml", _sitemap("b", directive))
    status, report = run_json([str(tmp_path / f"{name}-sitemap.xml") for name in order])
    assert _found(report, "a-sitemap.xml") == []
    assert _found(report, "b-sitemap.xml") == []
    assert status == 0


def test_a_next_line_directive_in_the_first_file_names_its_own_line(tmp_path: Path) -> None:
    directive = "  " + DIRECTIVE.format(action="disable-next-line", codes="SE001")
    first = write(tmp_path, "a-sitemap.xml", _sitemap("a", before_shared=directive))
    second = write(tmp_path, "b-sitemap.xml", _sitemap("b"))
    _status, report = run_json([str(first), str(second)])
    assert _found(report, "a-sitemap.xml") == []
    assert _found(report, "b-sitemap.xml") == []


@pytest.mark.parametrize("codes", ["SE001", "SE"])
def test_a_file_checked_alone_keeps_its_cross_file_directive_quietly(
    tmp_path: Path, codes: str
) -> None:
    # A pre-commit run checks the files that changed: SE001 cannot fire there.
    directive = DIRECTIVE.format(action="disable-file", codes=codes)
    alone = write(tmp_path, "a-sitemap.xml", _sitemap("a", directive))
    status, report = run_json([str(alone)])
    assert _found(report, "a-sitemap.xml") == []
    assert status == 0


def test_a_directive_naming_other_rules_too_is_unused_for_those(tmp_path: Path) -> None:
    directive = DIRECTIVE.format(action="disable-file", codes="SE001,UR008")
    alone = write(tmp_path, "a-sitemap.xml", _sitemap("a", directive))
    _status, report = run_json([str(alone)])
    assert _found(report, "a-sitemap.xml") == [("SU001", 2)]


def _assert_the_later_of_a_and_b_repeats_the_first(report: dict, order: tuple[str, ...]) -> None:
    """The one finding of the run: SE001 on the later of a.xml and b.xml, naming the
    first one's listing."""
    first, later = sorted("ab", key=order.index)
    found = [
        (file["path"], finding["message"])
        for file in report["files"]
        for finding in file["findings"]
    ]
    ((path, message),) = found
    assert path.endswith(f"{later}-sitemap.xml")
    assert f"{first}-sitemap.xml, line 5" in message


@pytest.mark.parametrize("order", list(itertools.permutations("abc")))
def test_a_directive_in_a_third_file_leaves_the_other_two_s_duplicate_in_any_order(
    tmp_path: Path, order: tuple[str, ...]
) -> None:
    """c.xml may repeat the others' URLs; a.xml and b.xml may not repeat each other's,
    whichever file comes first: the repeat then names the listing no directive silences."""
    directive = DIRECTIVE.format(action="disable-file", codes="SE001")
    write(tmp_path, "a-sitemap.xml", _sitemap("a"))
    write(tmp_path, "b-sitemap.xml", _sitemap("b"))
    write(tmp_path, "c-sitemap.xml", _sitemap("c", directive))
    _status, report = run_json([str(tmp_path / f"{name}-sitemap.xml") for name in order])
    _assert_the_later_of_a_and_b_repeats_the_first(report, order)


@pytest.mark.parametrize("order", list(itertools.permutations("abc")))
def test_a_per_file_ignore_is_a_file_directive_in_any_order(
    tmp_path: Path, order: tuple[str, ...], capsys: pytest.CaptureFixture[str]
) -> None:
    """A per-file ignore of SE001 for c.xml acts as a disable-file directive there: c.xml
    may repeat the others' URLs, whichever file comes first, and a.xml and b.xml still
    may not repeat each other's (it used to hide the repeat of a URL c.xml listed first,
    and only then)."""
    from sitemap_lint.cli import main

    for name in "abc":
        write(tmp_path, f"{name}-sitemap.xml", _sitemap(name))
    config = write(tmp_path, "config.toml", '[per-file-ignores]\n"c-sitemap.xml" = ["SE001"]\n')
    paths = [str(tmp_path / f"{name}-sitemap.xml") for name in order]
    main(["--config", str(config), "--format", "json", "--now", "2025-06-01", *paths])
    report = json.loads(capsys.readouterr().out)
    _assert_the_later_of_a_and_b_repeats_the_first(report, order)


def _alternates(page: str, other: str, directive: str = "") -> str:
    links = "".join(
        f'<xhtml:link rel="alternate" hreflang="{lang}" href="https://example.com/{lang}/"/>'
        for lang in (page, other, "x-default")
    )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
        ' xmlns:xhtml="http://www.w3.org/1999/xhtml">\n'
        f"  {directive}\n"
        f"  <url><loc>https://example.com/{page}/</loc>{links}</url>\n"
        "</urlset>\n"
    )


@pytest.mark.parametrize("codes", ["HL006", "HL006,HL008", "HL008"])
def test_a_directive_for_page_comparing_hreflang_rules_is_not_unused_in_a_partial_run(
    tmp_path: Path, codes: str
) -> None:
    # fr's entry lists en, whose file (not in this run) does not list fr back: only the
    # whole set says whether the directive is needed.
    directive = DIRECTIVE.format(action="disable-next-line", codes=codes)
    fr = write(tmp_path, "fr-sitemap.xml", _alternates("fr", "en", directive))
    _status, report = run_json([str(fr)])
    assert _found(report, "fr-sitemap.xml") == []


def test_a_directive_for_an_entrys_own_hreflang_defect_is_still_unused(tmp_path: Path) -> None:
    directive = DIRECTIVE.format(action="disable-next-line", codes="HL003")
    fr = write(tmp_path, "fr-sitemap.xml", _alternates("fr", "en", directive))
    _status, report = run_json([str(fr)])
    assert [code for code, _line in _found(report, "fr-sitemap.xml")] == ["SU001"]


def test_each_file_is_asked_once_whether_a_directive_names_the_code(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The duplicates' check asks each listing file's directives once, not once per
    repeated URL."""
    from sitemap_lint.sets.runner import SetReport

    asked: list[tuple[int, str]] = []
    silencer = SetReport.silencer

    def counted(self: SetReport, file: int, code: str) -> object:
        asked.append((file, code))
        return silencer(self, file, code)

    monkeypatch.setattr(SetReport, "silencer", counted)
    pages = "".join(f"  <url><loc>https://example.com/{n}</loc></url>\n" for n in range(20))
    directive = DIRECTIVE.format(action="disable-file", codes="SE001")
    names = ("a-sitemap.xml", "b-sitemap.xml", "c-sitemap.xml")
    paths = [
        write(tmp_path, name, _sitemap(name[0], directive if name[0] == "a" else "", pages))
        for name in names
    ]
    _status, report = run_json([str(path) for path in paths])
    assert sorted(asked) == [(0, "SE001"), (1, "SE001"), (2, "SE001")]
    assert _found(report, "a-sitemap.xml") == []
    assert len(_found(report, "b-sitemap.xml")) == 0
    assert len(_found(report, "c-sitemap.xml")) == 21

"""Checks of the whole file: its start (``prolog``) and its end (``end``).

A plugin registers them as the built-in families do, they see every file once, and
they keep the fast path on (they are not entry checks). The built-in rules reported
there (the input, declaration and entry-count rules) are covered by the fixtures.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from sitemap_lint import fastpath
from sitemap_lint.engine.checker import check_source
from sitemap_lint.inputs.reader import Source
from sitemap_lint.rules.base import WARNING, check, pattern, rule
from sitemap_lint.rules.events import FileEnd, Prolog
from sitemap_lint.rules.registry import CHECKS, END, PROLOG, CheckSpec, rules
from sitemap_lint.rules.structure import Reporter
from sitemap_lint.settings.options import Options
from tests.helpers import NOW, engine
from tests.test_fastpath import HEAD, check_both, write
from tests.test_proofs import plugin_sitemap

NOTED = rule(
    "ZX001",
    "noted-file",
    WARNING,
    summary="A file a plugin notes",
    what="Notes a file the test's plugin check looks at once.",
    why="It shows that a check of the whole file sees what it must see.",
    bad="<urlset/>",
    good="<urlset><url><loc>https://example.com/</loc></url></urlset>",
)


@contextmanager
def file_check(
    target: str, look: Callable[[object, object, Reporter], None]
) -> Iterator[CheckSpec]:
    """A plugin's check of ``target`` (``prolog`` or ``end``), registered while the block
    runs."""
    rules()
    before = len(CHECKS)
    check(target, emits=(NOTED,))(look)
    try:
        yield CHECKS[-1]
    finally:
        del CHECKS[before:]


def _count_entries(end: object, file: object, report: Reporter) -> None:
    assert isinstance(end, FileEnd)
    where = (1, 1) if end.root is None else (end.root.line, end.root.column)
    state = "cut short" if end.cut_short else "whole"
    report.add(NOTED.at(*where, f"{end.kind}: {end.entries} entries, {state}"))


def _note_declaration(prolog: object, options: object, report: Reporter) -> None:
    assert isinstance(prolog, Prolog)
    declaration = prolog.declaration
    if declaration is None:
        report.add(NOTED.at(1, 1, f"{prolog.form}: no XML declaration"))
    else:
        line, column = declaration.encoding_at
        report.add(NOTED.at(line, column, f"{prolog.form}: {declaration.encoding}"))


def messages(path: Path) -> list[tuple[str, int, int, str]]:
    result = check_source(Source(str(path), path), Options(now=NOW), engine())
    return [(f.code, f.line, f.column, f.message) for f in result.findings if f.code == "ZX001"]


def test_an_end_check_counts_the_entries_and_the_fast_path_stays(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    with file_check(END, _count_entries):
        assert fastpath.unproved(None) == []
        assert fastpath.notes(lambda: None) == []
        outcome = check_both(monkeypatch, write(tmp_path, plugin_sitemap(280)))
    assert outcome.proved >= 200  # the proved entries are counted at the end
    noted = [(f.line, f.column, f.message) for f in outcome.findings if f.code == "ZX001"]
    assert noted == [(2, 1, "urlset: 280 entries, whole")]


def test_an_end_check_sees_every_kind_of_file(tmp_path: Path) -> None:
    urls = "".join(f"https://www.example.com/{i}\n" for i in range(3))
    feed = (
        '<?xml version="1.0"?>\n<rss version="2.0"><channel><title>t</title>'
        "<link>https://www.example.com/</link><description>d</description>"
        "<item><link>https://www.example.com/a</link></item></channel></rss>\n"
    )
    broken = HEAD + "  <url><loc>https://www.example.com/</loc></url>\n  <url><loc>x</lo"
    with file_check(END, _count_entries):
        assert messages(write(tmp_path, urls, "urls.txt")) == [
            ("ZX001", 1, 1, "text: 3 entries, whole")
        ]
        assert messages(write(tmp_path, feed, "feed.xml")) == [
            ("ZX001", 2, 1, "rss: 1 entries, whole")
        ]
        assert messages(write(tmp_path, broken, "broken.xml")) == [
            ("ZX001", 2, 1, "urlset: 1 entries, cut short")
        ]
        # Another root: no sitemap, no end of one.
        assert messages(write(tmp_path, "<html-ish/>", "other.xml")) == []


def test_a_prolog_check_reads_the_declaration_and_the_fast_path_stays(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    declared = plugin_sitemap(280).replace('encoding="UTF-8"', 'encoding="utf-8"')
    with file_check(PROLOG, _note_declaration):
        assert fastpath.unproved(None) == []
        outcome = check_both(monkeypatch, write(tmp_path, declared))
        assert outcome.proved >= 200
        noted = [(f.line, f.column, f.message) for f in outcome.findings if f.code == "ZX001"]
        assert noted == [(1, 21, "xml: utf-8")]
        undeclared = declared.split("\n", 1)[1]
        assert messages(write(tmp_path, undeclared, "bare.xml")) == [
            ("ZX001", 1, 1, "xml: no XML declaration")
        ]
        assert messages(write(tmp_path, "\n \n", "blank.xml")) == [
            ("ZX001", 1, 1, "empty: no XML declaration")
        ]
        assert messages(write(tmp_path, "<!doctype html><html></html>", "page.xml")) == [
            ("ZX001", 1, 1, "html: no XML declaration")
        ]


def test_a_check_of_the_prolog_or_the_end_runs_only_for_its_rules(tmp_path: Path) -> None:
    seen: list[str] = []

    def look(event: object, context: object, report: Reporter) -> None:
        seen.append(type(event).__name__)

    path = write(tmp_path, plugin_sitemap(3))
    for target in (PROLOG, END):
        with file_check(target, look):
            other = Options(now=NOW, enabled=frozenset({"UR001"}))
            check_source(Source(str(path), path), other, engine())
            before = list(seen)
            check_source(Source(str(path), path), Options(now=NOW), engine())
            assert seen == [*before, "Prolog" if target == PROLOG else "FileEnd"]
    assert seen == ["Prolog", "FileEnd"]


def test_a_check_of_the_prolog_or_the_end_has_no_pattern_proof() -> None:
    for target in (PROLOG, END):
        with pytest.raises(ValueError, match="entry fields only"):
            check(target, emits=("UR001",), proof=pattern("x"))


def test_a_check_of_the_prolog_or_the_end_is_a_function() -> None:
    class Counter:
        def check(self, event: object, context: object, report: Reporter) -> None:
            """Nothing: the registration fails first."""

    for target in (PROLOG, END):
        with pytest.raises(ValueError, match="is a function"):
            check(target, emits=(NOTED,))(Counter)

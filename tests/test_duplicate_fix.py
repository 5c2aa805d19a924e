"""DU001's fix removes a repeated entry only when that loses nothing: the repeat holds its
loc alone, or the same content as the entry that stays. A repeat that says more (a
lastmod, an image) is left for a person to merge."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sitemap_lint import fastpath
from tests.helpers import run_cli

HEAD = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
    ' xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">\n'
)
BARE = "  <url><loc>https://example.com/ok</loc></url>\n"
RICH = (
    "  <url><loc>https://example.com/ok</loc><lastmod>2024-05-01</lastmod>"
    "<image:image><image:loc>https://example.com/i.jpg</image:loc></image:image></url>\n"
)
DATED = (
    "  <url>\n    <loc>https://example.com/ok</loc>\n    <lastmod>2024-05-01</lastmod>\n  </url>\n"
)


def _fixed(tmp_path: Path, capsys: pytest.CaptureFixture[str], *entries: str) -> tuple[str, bool]:
    path = tmp_path / "sitemap.xml"
    path.write_text(HEAD + "".join(entries) + "</urlset>\n", encoding="utf-8")
    _status, out, _err = run_cli(
        ["check", "--isolated", "-f", "json", "--unsafe-fixes", str(path)], capsys
    )
    fixable = any(f.get("fix") for file in json.loads(out)["files"] for f in file["findings"])
    run_cli(["check", "--isolated", "--fix-only", "--unsafe-fixes", str(path)], capsys)
    return path.read_text(encoding="utf-8"), fixable


@pytest.mark.parametrize(
    ("entries", "kept"),
    [
        ((RICH, BARE), (RICH,)),  # a bare repeat goes
        ((BARE, BARE), (BARE,)),
        ((DATED, DATED.replace("\n    ", "")), (DATED,)),  # the same, written otherwise
        ((BARE, RICH), (BARE, RICH)),  # the repeat says more: merged by hand
        ((DATED, RICH), (DATED, RICH)),
    ],
)
@pytest.mark.parametrize("fast", [True, False])
def test_a_repeat_is_removed_only_when_that_loses_nothing(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    entries: tuple[str, ...],
    kept: tuple[str, ...],
    fast: bool,
) -> None:
    monkeypatch.setenv(fastpath.ENV, "1" if fast else "0")
    text, fixable = _fixed(tmp_path, capsys, *entries)
    assert text == HEAD + "".join(kept) + "</urlset>\n"
    assert fixable == (len(kept) < len(entries))  # the report offers what --fix does


def test_an_end_tag_inside_a_comment_does_not_end_the_entry_removed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The file has a syntax error already (the <lco>): the removal must not add another.
    commented = "  <url><loc>https://example.com/ok</loc><!-- </url> --></url>\n"
    broken = "  <url><loc>https://example.com/b</lco></url>\n"
    text, fixable = _fixed(tmp_path, capsys, commented, commented, broken)
    assert text == HEAD + commented + broken + "</urlset>\n"
    assert fixable

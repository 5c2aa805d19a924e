"""What recovery after syntax errors costs on damaged text: the bytes expat parses in all
and the pieces it is given (counted through a wrapper of each parser the reader makes)
stay within a bound of the file's size and of the errors' count, however many errors
there are, and the findings say what was not read."""

from __future__ import annotations

import json
import pyexpat
import types
from pathlib import Path
from typing import Any

import pytest

from sitemap_lint.formats import xml
from tests.helpers import run_cli

HEAD = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
)


class _Counted:
    """An expat parser whose ``Parse`` adds the bytes it got through to ``parsed[0]``,
    and its calls to ``parsed[1]``."""

    def __init__(self, real: Any, parsed: list[int]) -> None:
        object.__setattr__(self, "_real", real)
        object.__setattr__(self, "_parsed", parsed)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real, name)

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(self._real, name, value)

    def Parse(self, data: Any, final: bool = False) -> int:
        before = self._real.CurrentByteIndex
        self._parsed[1] += 1
        try:
            return int(self._real.Parse(data, final))
        finally:
            self._parsed[0] += max(self._real.CurrentByteIndex - max(before, 0), 0)


def _parsed_bytes(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], path: Path
) -> tuple[int, dict[str, Any]]:
    parsed, _calls, file = _parsed(monkeypatch, capsys, path)
    return parsed, file


def _parsed(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], path: Path
) -> tuple[int, int, dict[str, Any]]:
    """The bytes expat parsed, the pieces it was given, and the file's JSON report."""
    parsed = [0, 0]
    shim = types.SimpleNamespace(
        **{name: getattr(pyexpat, name) for name in dir(pyexpat) if not name.startswith("__")}
    )
    shim.ParserCreate = lambda *args, **kw: _Counted(pyexpat.ParserCreate(*args, **kw), parsed)
    monkeypatch.setattr(xml, "pyexpat", shim)
    _, out, err = run_cli(["check", "--isolated", "-f", "json", str(path)], capsys)
    assert "Traceback" not in err, err
    [file] = json.loads(out)["files"]
    return parsed[0], parsed[1], file


def test_damaged_text_read_as_deeply_nested_tags_is_not_opened_again_at_each_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Past the nesting the checks read, an entry too long to be read again is not read
    on behind thousands of tags opened again at each error: it is skipped, and said."""
    nested = "<y>" * 3000
    errors = "".join(f"p{n}&q{n} " for n in range(2000))
    path = tmp_path / "sitemap.xml"
    path.write_text(
        HEAD
        + f"<url><loc>https://e.com/b</loc>{nested}\n{errors}\n</url>\n"
        + "<url><loc>https://e.com/c</loc></url>\n</urlset>\n"
    )
    parsed, file = _parsed_bytes(monkeypatch, capsys, path)
    codes = {finding["code"] for finding in file["findings"]}
    assert {"ST011", "XM001", "XM004"} <= codes
    assert any("skipped" in finding["message"] for finding in file["findings"])
    assert file["urls"] == 1  # the next entry is read
    assert parsed <= 40 * path.stat().st_size


@pytest.mark.parametrize("separator", ["", "\n"], ids=["one-line", "a-line-each"])
def test_thousands_of_raw_ampersands_in_one_value_cost_in_proportion_to_their_count(
    separator: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A value read again at each of its raw "&" is given to expat in a few pieces each
    time, not one for each repair made before; and each finding of a long value holds a
    fix of its own "&", not a copy of the whole value."""
    count = 3000
    query = separator.join(f"p{n}=1&" for n in range(count))
    path = tmp_path / "sitemap.xml"
    path.write_text(
        HEAD
        + f"<url><loc>https://e.com/?{query}</loc></url>\n"
        + "<url><loc>https://e.com/c</loc></url>\n</urlset>\n"
    )
    _parsed_bytes, calls, file = _parsed(monkeypatch, capsys, path)
    findings = file["findings"]
    ampersands = [finding for finding in findings if finding["code"] == "XM004"]
    assert len(ampersands) == count
    assert len({(finding["line"], finding["column"]) for finding in ampersands}) == count
    assert file["urls"] == 2
    assert calls <= 6 * count
    written = sum(
        len(edit["content"]) for finding in ampersands for edit in finding["fix"]["edits"]
    )
    assert written <= 16 * count


def test_a_value_with_more_raw_less_thans_than_it_can_be_read_again_for_is_read_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Past the budget of reading its entry again, a value with a raw "<" at each of
    thousands of places is read on from its text, past the raw "<" marked before, as a
    value with raw "&" is: each is reported, and the entry and those after it are read."""
    count = 2000
    path = tmp_path / "sitemap.xml"
    path.write_text(
        HEAD
        + "<url><loc>https://e.com/?"
        + "a<1 " * count
        + "</loc></url>\n"
        + "<url><loc>https://e.com/b</loc></url>\n<url><loc>https://e.com/c d</loc></url>\n"
        + "</urlset>\n"
    )
    _parsed_bytes, calls, file = _parsed(monkeypatch, capsys, path)
    codes = [finding["code"] for finding in file["findings"]]
    assert codes.count("XM005") == count
    assert "UR006" in codes  # the third entry is read
    assert file["urls"] == 3
    assert calls <= 6 * count

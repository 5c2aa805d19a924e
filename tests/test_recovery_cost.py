"""What recovery after syntax errors costs on damaged text: the bytes expat parses in all
(counted through a wrapper of each parser the reader makes) stay within a bound of the
file's size, however many errors there are, and the findings say what was not read."""

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
    """An expat parser whose ``Parse`` adds the bytes it got through to ``parsed``."""

    def __init__(self, real: Any, parsed: list[int]) -> None:
        object.__setattr__(self, "_real", real)
        object.__setattr__(self, "_parsed", parsed)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real, name)

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(self._real, name, value)

    def Parse(self, data: Any, final: bool = False) -> int:
        before = self._real.CurrentByteIndex
        try:
            return int(self._real.Parse(data, final))
        finally:
            self._parsed[0] += max(self._real.CurrentByteIndex - max(before, 0), 0)


def _parsed_bytes(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], path: Path
) -> tuple[int, dict[str, Any]]:
    parsed = [0]
    shim = types.SimpleNamespace(
        **{name: getattr(pyexpat, name) for name in dir(pyexpat) if not name.startswith("__")}
    )
    shim.ParserCreate = lambda *args, **kw: _Counted(pyexpat.ParserCreate(*args, **kw), parsed)
    monkeypatch.setattr(xml, "pyexpat", shim)
    _, out, err = run_cli(["check", "--isolated", "-f", "json", str(path)], capsys)
    assert "Traceback" not in err, err
    [file] = json.loads(out)["files"]
    return parsed[0], file


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

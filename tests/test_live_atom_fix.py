"""LV005's fix in an Atom feed: the final URL written in the entry link's ``href``
(the ``href`` edit target of ``fix.locate``), with the installed command against a real
local HTTP server process (tests/live_server.py)."""

from __future__ import annotations

import json
import pyexpat
import re
import subprocess
import sys
from pathlib import Path

import pytest

from sitemap_lint.finding import Edit
from sitemap_lint.fix.locate import Text
from sitemap_lint.fix.model import escape_attribute
from tests.live_server import LiveServer, live_server  # noqa: F401


def _replaced(text: str, edit: Edit) -> str | None:
    """``text`` with ``edit`` applied, or None when it does not fit."""
    located = Text(text)
    found = located.resolve(edit)
    if found is None:
        return None
    (replacement,) = found
    return text[: replacement.start] + replacement.content + text[replacement.end :]


def test_the_href_target_replaces_the_value_within_the_files_quotes() -> None:
    text = "<feed>\r\n  <link title='a > b'\n    href='https://e.com/a?x=1&amp;y=2' />\n</feed>"
    edit = Edit(2, 3, "https://e.com/b?p='q'&r=<s>\"", "href", old="https://e.com/a?x=1&y=2")
    assert _replaced(text, edit) == text.replace(
        "https://e.com/a?x=1&amp;y=2", "https://e.com/b?p=&apos;q&apos;&amp;r=&lt;s>&quot;"
    )
    double = '<link rel="alternate" href=" https://e.com/a "/>'
    assert _replaced(double, Edit(1, 1, "https://e.com/b'", "href", old="https://e.com/a")) == (
        '<link rel="alternate" href="https://e.com/b\'"/>'
    )


@pytest.mark.parametrize(
    ("text", "old"),
    [
        ('<link href="https://e.com/a"/>', "https://e.com/other"),  # not what the check saw
        ('<link rel="alternate"/>', ""),  # no href
        ('<link xhref="https://e.com/a"/>', "https://e.com/a"),
        ('<link href="https://e.com/&ent;"/>', "https://e.com/&ent;"),  # an unexpanded entity
        ('<!-- <link href="https://e.com/a"/> -->', "https://e.com/a"),  # not at a tag
    ],
)
def test_the_href_target_is_skipped_where_the_file_holds_another_value(text: str, old: str) -> None:
    assert Text(text).resolve(Edit(1, 1, "https://e.com/b", "href", old=old)) is None


def test_an_escaped_value_reads_back_as_it_was() -> None:
    value = "https://e.com/?a=1&b='2'&c=\"3\"&d=<4>\t\n"
    for quote in "\"'":
        written = f"<link href={quote}{escape_attribute(value, quote)}{quote}/>"
        assert _href_read(written) == value


def _href_read(document: str) -> str:
    """The ``href`` of ``document``'s root as expat reads it."""
    read: dict[str, str] = {}
    parser = pyexpat.ParserCreate()
    parser.StartElementHandler = lambda _name, attrs: read.update(attrs)
    parser.Parse(document, True)
    return read["href"]


def _feed(*links: str) -> str:
    entries = "".join(
        f'  <entry>\n    <link rel="self" href="{link}.atom"/>\n    {link_tag}\n'
        "    <updated>2025-05-05T10:00:00Z</updated>\n  </entry>\n"
        for link, link_tag in links
    )
    return (
        '<?xml version="1.0" encoding="utf-8"?>\n'
        '<feed xmlns="http://www.w3.org/2005/Atom">\n'
        "  <!-- <link href='kept as it is'/> -->\n"
        f"{entries}</feed>\n"
    )


def _codes(concise: str) -> list[tuple[int, str]]:
    """The line and code of each finding of a concise report."""
    return [(int(line), code) for line, code in re.findall(r":(\d+):\d+: (\w+) ", concise)]


def _command(feed: Path, *options: str) -> subprocess.CompletedProcess[str]:
    """The installed command's ``check --live`` of ``feed`` (its URLs on loopback)."""
    return subprocess.run(
        [
            str(Path(sys.executable).with_name("sitemap-lint")),
            "check",
            str(feed),
            "--live",
            "--allow-private-hosts",
            "--no-live-cache",
            "--isolated",
            "--now",
            "2025-06-01",
            *options,
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.slow
def test_the_fix_rewrites_the_href_of_an_atom_link_on_the_same_host(
    live_server: LiveServer,  # noqa: F811
    tmp_path: Path,
) -> None:
    live_server.reset()
    same, other = live_server.url("/redirect/1"), live_server.url("/loopback-redirect")
    original = _feed(
        (same, f'<link rel="alternate" type="text/html"\n      href="{same}"/>'),
        (other, f"<link href='{other}'/>"),  # to 127.0.0.2: another host, no fix
    )
    feed = tmp_path / "feed.atom"
    feed.write_bytes(original.encode())

    shown = _command(feed, "--format", "json", "--unsafe-fixes")
    assert shown.returncode == 0, shown.stderr
    (report,) = json.loads(shown.stdout)["files"]
    redirects = [f for f in report["findings"] if f["code"] == "LV005"]
    assert [(f["line"], f.get("fix") is not None) for f in redirects] == [(6, True), (12, False)]
    final = live_server.url("/redirect/0")
    assert redirects[0]["fix"] == {
        "applicability": "unsafe",
        "message": f"list the final URL {final}",
        "edits": [
            {
                "content": final,
                "location": {"line": 7, "column": 13},
                "end_location": {"line": 7, "column": 13 + len(same)},
            }
        ],
    }

    fixed = _command(feed, "--fix", "--unsafe-fixes", "--format", "concise")
    assert fixed.returncode == 0, fixed.stderr
    assert "Fixed 1 finding in 1 file." in fixed.stderr
    assert feed.read_bytes() == original.replace(f'href="{same}"', f'href="{final}"').encode()
    assert _codes(fixed.stdout) == [(2, "FD001"), (12, "LV005")]


@pytest.mark.slow
def test_a_final_url_with_an_ampersand_is_escaped_in_the_href(
    live_server: LiveServer,  # noqa: F811
    tmp_path: Path,
) -> None:
    live_server.reset()
    live_server.route("/moved", status=301, headers=[("Location", "/redirect/0?a=1&b=2")])
    listed = live_server.url("/moved")
    original = _feed((listed, f"<link href='{listed}' rel='alternate'/>"))
    feed = tmp_path / "feed.atom"
    feed.write_bytes(original.encode())
    fixed = _command(feed, "--fix", "--unsafe-fixes", "--format", "concise")
    assert (fixed.returncode, _codes(fixed.stdout)) == (0, [(2, "FD001")]), fixed.stderr
    final = live_server.url("/redirect/0?a=1&amp;b=2")
    assert feed.read_bytes() == original.replace(f"href='{listed}'", f"href='{final}'").encode()

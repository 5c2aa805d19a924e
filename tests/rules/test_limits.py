"""Limits family: 50,000 entries per file, 52,428,800 uncompressed bytes."""

import gzip
import json
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

from tests.helpers import ROOT, RULE_FIXTURES, found, lint

pytestmark = pytest.mark.slow

SIZE_LIMIT = 52_428_800


# -- exactly at the limits: no finding -----------------------------------------------------


@pytest.mark.parametrize(("code", "entry"), [("LM001", b"<url>"), ("LM003", b"<sitemap>")])
def test_exactly_50000_entries_pass(tmp_path: Path, code: str, entry: bytes) -> None:
    lines = gzip.decompress((RULE_FIXTURES / code / "fail.xml.gz").read_bytes()).split(b"\n")
    last = max(i for i, line in enumerate(lines) if line.startswith(entry))
    del lines[last]
    path = tmp_path / "sitemap.xml.gz"
    path.write_bytes(gzip.compress(b"\n".join(lines), 1, mtime=0))
    assert found(lint(path)) == []


def test_exactly_the_size_limit_passes(tmp_path: Path) -> None:
    data = gzip.decompress((RULE_FIXTURES / "LM002" / "fail.xml.gz").read_bytes())
    assert len(data) == SIZE_LIMIT + 1
    path = tmp_path / "sitemap.xml.gz"
    path.write_bytes(gzip.compress(data.replace(b" \n</urlset>", b"\n</urlset>", 1), 1, mtime=0))
    assert found(lint(path)) == []


# -- messages --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("code", "text"),
    [("LM001", "sitemap lists 50,001 URLs"), ("LM003", "index lists 50,001 sitemaps")],
)
def test_too_many_entries_message(code: str, text: str) -> None:
    [finding] = lint(RULE_FIXTURES / code / "fail.xml.gz").findings
    assert text in finding.message
    assert "split" in finding.message


def test_file_too_large_message_gives_the_size() -> None:
    [finding] = lint(RULE_FIXTURES / "LM002" / "fail.xml.gz").findings
    assert "is 52,428,801 bytes" in finding.message
    assert "split it" in finding.message


def test_capped_file_says_checking_stopped() -> None:
    [finding] = lint(RULE_FIXTURES / "LM002" / "fail-capped.xml.gz").findings
    assert "checking stopped" in finding.message


# -- the cap keeps a huge input cheap ------------------------------------------------------

_LINT_ONE = (
    "import json, sys; from pathlib import Path; from tests.helpers import found, lint; "
    "print(json.dumps(found(lint(Path(sys.argv[1])))))"
)


def lint_in_subprocess(path: Path, timeout: float) -> list[tuple[str, int]]:
    """Lint in a child process, so that a slow run is stopped at ``timeout``."""
    try:
        done = subprocess.run(
            [sys.executable, "-c", _LINT_ONE, str(path)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=True,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"checking {path.name} took more than {timeout} s")
    return [tuple(pair) for pair in json.loads(done.stdout)]


@pytest.mark.parametrize(
    "fixture",
    [
        "fail-capped.xml.gz",
        "fail-comment.xml.gz",
    ],
)
def test_size_cap_stops_checking_quickly(fixture: str) -> None:
    # A generous bound: this guards against a hang, it does not measure speed.
    assert lint_in_subprocess(RULE_FIXTURES / "LM002" / fixture, timeout=60) == [("LM002", 1)]


def test_fixtures_stay_small() -> None:
    for code in ("LM001", "LM002", "LM003"):
        for path in (RULE_FIXTURES / code).iterdir():
            assert path.stat().st_size < 200_000, path


def test_gzip_bomb_is_cut_at_the_cap() -> None:
    # The capped fixture inflates to 64 MiB; no more than the cap is ever read.
    raw = (RULE_FIXTURES / "LM002" / "fail-capped.xml.gz").read_bytes()
    assert len(zlib.decompress(raw, wbits=31)) == 64 << 20
    [finding] = lint(RULE_FIXTURES / "LM002" / "fail-capped.xml.gz").findings
    assert "larger than 56,623,104 bytes" in finding.message

"""Every fix over every rule fixture: the fixed file has fewer findings and none of a
new rule, and fixing it again changes nothing.

A finding that stops the reading or the validation of part of the file (a syntax
error, an attribute without quotes, a wrong extension namespace) hides what stands
there: once it is fixed, that part's own findings may appear.
"""

from __future__ import annotations

import gzip
import json
import shutil
import subprocess
from collections import Counter
from pathlib import Path

import pytest

from sitemap_lint.cli import main
from sitemap_lint.engine.checker import check_source
from sitemap_lint.fix.engine import fix_source
from sitemap_lint.inputs.reader import Source
from sitemap_lint.run import parse_sitemap_url
from sitemap_lint.settings.options import Options
from tests.expected import expected_path, inputs, read_header
from tests.helpers import NOW, RULE_FIXTURES, engine

# Findings after which part of the file is not read, not validated or not checked.
HIDING = frozenset({"XM001", "XM008", "XM009", "XM011", "NS004", "TX005"})
# ... and findings of markup read as its fix writes it, whose entry's other checks may
# see more once it is fixed (fix.engine's gate reads them all so).
REVEALING = HIDING | {"XM002", "XM003", "XM004", "XM005", "XM006", "XM007", "ST009"}


def _fixable() -> list[tuple[Path, dict[str, str]]]:
    """The rule fixtures checked as plain files (no server, set or robots.txt)."""
    found = []
    for path in inputs():
        if RULE_FIXTURES not in path.parents:
            continue
        header = read_header(expected_path(path)) if expected_path(path).exists() else {}
        if not ({"driver", "robots", "url"} & header.keys()):
            found.append((path, header))
    return found


# Each rule fixture with a fix, with its expected findings' header.
_EACH_FIXABLE = pytest.mark.parametrize(
    ("path", "header"),
    _fixable(),
    ids=lambda value: (
        value.relative_to(RULE_FIXTURES).as_posix() if isinstance(value, Path) else ""
    ),
)


@pytest.mark.slow
@pytest.mark.parametrize("unsafe", [False, True], ids=["safe", "unsafe"])
@_EACH_FIXABLE
def test_a_fixed_fixture_has_fewer_findings_none_new_and_fixes_no_further(
    path: Path, header: dict[str, str], unsafe: bool
) -> None:
    options = Options(now=NOW, sitemap_url=parse_sitemap_url(header.get("sitemap-url")))
    done = fix_source(Source(str(path), path), options, engine(), unsafe)
    if not done.changed:
        return
    assert done.fixed is not None
    before = Counter(
        f.code for f in check_source(Source(str(path), path), options, engine()).findings
    )
    fixed = Source(str(path), None, data=done.fixed)
    after = [f for f in check_source(fixed, options, engine()).findings]
    assert len(after) < sum(before.values())
    if not HIDING & before.keys():
        assert [
            f"{f.line}:{f.column} {f.code} {f.message}" for f in after if f.code not in before
        ] == []
    again = fix_source(fixed, options, engine(), unsafe)
    assert not again.changed, [f.code for f in again.fixed_findings]


def _findings(report: bytes, unsafe: bool) -> tuple[list[str], int]:
    """The codes of the findings of a JSON report, and how many it marks fixable by
    this run."""
    findings = [f for file in json.loads(report)["files"] for f in file["findings"]]
    fixable = [
        f for f in findings if f.get("fix") and (unsafe or f["fix"]["applicability"] == "safe")
    ]
    return [f["code"] for f in findings], len(fixable)


def _applied(tool: list[str], original: bytes, diff: bytes, name: str, where: Path) -> bytes:
    """The bytes of ``original`` (the file ``name``) once ``tool`` applied ``diff`` there."""
    where.mkdir()
    (where / name).write_bytes(original)
    done = subprocess.run([*tool], input=diff, cwd=where, capture_output=True, check=False)
    assert done.returncode == 0, (tool, done.stdout + done.stderr)
    return (where / name).read_bytes()


@pytest.mark.slow
@pytest.mark.parametrize("unsafe", [False, True], ids=["safe", "unsafe"])
@_EACH_FIXABLE
def test_the_command_fixes_a_fixture_once_as_its_diff_and_its_fixable_count_say(
    path: Path,
    header: dict[str, str],
    unsafe: bool,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsysbinary: pytest.CaptureFixture[bytes],
) -> None:
    """As a user runs it: ``--diff`` exits 1 and applies (``patch -p0``, ``git apply``)
    to give what ``--fix`` writes; the report's fixable count is the number of findings
    ``--fix`` removes (unless a finding hid part of the file); after the fix, the report
    marks nothing fixable, and a second ``--fix`` changes nothing (a gzip file's diff is
    of its content)."""
    monkeypatch.chdir(tmp_path)
    name = path.name
    shutil.copyfile(path, tmp_path / name)
    original = path.read_bytes()
    flags = ["--now", NOW.date().isoformat(), "--isolated"]
    flags += ["--sitemap-url", header["sitemap-url"]] if "sitemap-url" in header else []
    flags += ["--unsafe-fixes"] if unsafe else []

    def run(*args: str) -> tuple[int, bytes]:
        status = main([*flags, *args, name])
        return status, capsysbinary.readouterr().out

    before, fixable = _findings(run("--format", "json")[1], unsafe)
    if not fixable:
        return
    status, diff = run("--diff")
    run("--fix")
    fixed = (tmp_path / name).read_bytes()
    assert status == (1 if fixed != original else 0)
    if fixed == original:  # left as it is (FX001): a refusal, nothing removed
        return
    after, still = _findings(run("--format", "json")[1], unsafe)
    assert still == 0, after
    if not REVEALING & set(before):
        assert len(before) - len(after) == fixable, (before, after)
    run("--fix")
    assert (tmp_path / name).read_bytes() == fixed
    if fixed.startswith(b"\x1f\x8b"):  # gzip: the diff is of the content
        original, fixed = gzip.decompress(original), gzip.decompress(fixed)
    if diff.startswith(b"--- ") and b"\n@@ " in diff:  # a diff of lines (not of UTF-16)
        if shutil.which("patch"):
            assert _applied(["patch", "-p0", "-s"], original, diff, name, tmp_path / "p") == fixed
        if shutil.which("git"):
            git = ["git", "apply", "--unsafe-paths", "-"]
            assert _applied(git, original, diff, name, tmp_path / "g") == fixed

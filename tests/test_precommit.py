"""The pre-commit hook, driven by the real ``pre-commit`` tool with the README's example.

The configuration is the README's own block, its repository URL replaced by a copy
of this working tree (committed on a branch ``main``, as the example's ``rev``
names). pre-commit installs the hook's environment from it with pip, which needs
the package index: the test is slow (about a minute) and needs network. It is
skipped only where pre-commit itself is not installed.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import FIXTURES, ROOT, RULE_FIXTURES

pytestmark = pytest.mark.slow

HOOKS = ROOT / ".pre-commit-hooks.yaml"
README = ROOT / "README.md"
COMMITTER = ("-c", "user.name=test", "-c", "user.email=test@example.invalid")
HAS_PRE_COMMIT = importlib.util.find_spec("pre_commit") is not None


def _hook() -> dict:
    import yaml  # installed with pre-commit

    (hook,) = yaml.safe_load(HOOKS.read_text(encoding="utf-8"))
    return hook


def _git(*args: str, cwd: Path) -> str:
    return subprocess.run(
        ["git", *args], cwd=cwd, check=True, capture_output=True, text=True
    ).stdout


def _repository_under_test(tmp_path: Path) -> Path:
    """The working tree (tracked and untracked files) committed on ``main`` in a new repository."""
    listed = _git("ls-files", "-z", "--cached", "--others", "--exclude-standard", cwd=ROOT)
    copy = tmp_path / "repository"
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        target = copy / name
        if source.is_symlink():  # linter/sitemap_lint/schemas links to schemas/
            target.parent.mkdir(parents=True, exist_ok=True)
            target.symlink_to(os.readlink(source))
        elif source.is_file():
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    _git("init", "-q", "-b", "main", cwd=copy)
    _git("add", "-A", cwd=copy)
    _git(*COMMITTER, "commit", "-q", "-m", "working tree under test", cwd=copy)
    return copy


def _readme_config(repository: Path) -> str:
    """The README's ``.pre-commit-config.yaml`` example, pointing at ``repository``."""
    section = README.read_text(encoding="utf-8").split("### pre-commit", 1)[1]
    block = section.split("```yaml\n", 1)[1].split("```", 1)[0]
    assert "rev: main" in block and "id: sitemap-lint" in block, block
    return block.replace("https://github.com/OWNER/sitemap-lint", str(repository))


@pytest.mark.skipif(not HAS_PRE_COMMIT, reason="pre-commit is not installed")
def test_hook_manifest_is_valid_and_matches_sitemap_names() -> None:
    from pre_commit.clientlib import load_manifest

    (loaded,) = load_manifest(str(HOOKS))
    assert loaded["id"] == "sitemap-lint" and loaded["entry"] == "sitemap-lint"
    assert loaded["language"] == "python" and loaded["pass_filenames"] is True
    # All the files in one run, so that the checks across files (SE001) see them all:
    # pre-commit otherwise splits them into batches run in parallel.
    assert loaded["require_serial"] is True
    files = re.compile(_hook()["files"])
    for name in (
        "sitemap.xml",
        "public/sitemap-index.xml",
        "sitemap_products.xml.gz",
        "static/news-sitemap.xml",
        "sitemap.txt",
    ):
        assert files.search(name), name
    for name in ("feed.xml", "sitemap.xml.bak", "sitemaps/index.html", "sitemap/urls.xml"):
        assert not files.search(name), name


@pytest.mark.skipif(not HAS_PRE_COMMIT, reason="pre-commit is not installed")
def test_the_readme_example_runs_the_hook(tmp_path: Path) -> None:
    repository = _repository_under_test(tmp_path)
    work = tmp_path / "site"
    (work / "public").mkdir(parents=True)
    (work / "public" / "sitemap.xml").write_bytes((FIXTURES / "valid" / "sitemap.xml").read_bytes())
    broken = RULE_FIXTURES / "XM001" / "fail.xml"
    (work / "public" / "sitemap-broken.xml").write_bytes(broken.read_bytes())
    (work / "feed.xml").write_text("<rss>not a sitemap, and not well-formed")
    config = work / ".pre-commit-config.yaml"
    config.write_text(_readme_config(repository), encoding="utf-8")
    _git("init", "-q", cwd=work)
    _git("add", "-A", cwd=work)
    env = {
        **os.environ,
        "PRE_COMMIT_HOME": str(tmp_path / "cache"),
        "PRE_COMMIT_COLOR": "never",
        "NO_COLOR": "1",
    }

    def pre_commit(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-m", "pre_commit", *args],
            cwd=work,
            env=env,
            capture_output=True,
            text=True,
            timeout=900,
        )

    clean = pre_commit("run", "--files", "public/sitemap.xml", "feed.xml")
    assert clean.returncode == 0, clean.stdout + clean.stderr
    assert re.search(r"sitemap-lint\.+Passed", clean.stdout), clean.stdout

    failed = pre_commit(
        "run", "--files", "public/sitemap.xml", "public/sitemap-broken.xml", "feed.xml"
    )
    assert failed.returncode == 1, failed.stdout + failed.stderr
    assert re.search(r"sitemap-lint\.+Failed", failed.stdout), failed.stdout
    report = failed.stdout.split("Failed", 1)[1]
    assert re.search(r"^public/sitemap-broken\.xml\n  5:3 +error +XM001 ", report, re.MULTILINE)
    assert "feed.xml" not in failed.stdout.split("Failed", 1)[1]  # not a sitemap name

    # What the README says of `pre-commit autoupdate` on a repository without tags.
    assert not _git("tag", cwd=repository).strip()
    updated = pre_commit("autoupdate")
    assert updated.returncode == 0, updated.stdout + updated.stderr
    head = _git("rev-parse", "HEAD", cwd=repository).strip()
    assert f"rev: {head}" in config.read_text(encoding="utf-8")

"""The GitHub Action and the README's CI snippets agree with the tool and with each other."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import FIXTURES, ROOT, RULE_FIXTURES

yaml = pytest.importorskip("yaml")  # installed with pre-commit (the test extra)

ACTION = ROOT / "action.yml"
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _action() -> dict:
    return yaml.safe_load(ACTION.read_text(encoding="utf-8"))


def _readme_yaml(heading: str) -> dict:
    section = README.split(f"### {heading}\n", 1)[1]
    return yaml.safe_load(re.search(r"```yaml\n(.*?)```", section, re.DOTALL).group(1))


def test_action_inputs_and_steps() -> None:
    action = _action()
    assert set(action["inputs"]) == {"args", "version", "sarif-file"}
    assert action["runs"]["using"] == "composite"
    for step in action["runs"]["steps"]:
        assert step["shell"] == "bash"
        # Inputs reach the scripts through the environment only (no script injection).
        assert "${{" not in step["run"], step["run"]


def _run_step(name: str, env: dict, cwd: Path) -> subprocess.CompletedProcess:
    (step,) = [s for s in _action()["runs"]["steps"] if s["name"] == name]
    bin_dir = str(Path(sys.executable).parent)  # where the sitemap-lint script is installed
    return subprocess.run(
        ["bash", "-e", "-c", step["run"]],
        cwd=cwd,
        env={**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}", **env},
        capture_output=True,
        text=True,
    )


@pytest.mark.slow
def test_action_steps_write_sarif_and_gate(tmp_path: Path) -> None:
    (tmp_path / "public").mkdir()
    (tmp_path / "public" / "sitemap.xml").write_bytes(
        (RULE_FIXTURES / "XM001" / "fail.xml").read_bytes()
    )
    args = "--isolated --format github public/"
    sarif = _run_step("Write the SARIF report", {"ARGS": args, "SARIF_FILE": "out.sarif"}, tmp_path)
    assert sarif.returncode == 0, sarif.stderr
    document = json.loads((tmp_path / "out.sarif").read_text(encoding="utf-8"))
    assert document["version"] == "2.1.0"
    lint = _run_step("Lint", {"ARGS": args}, tmp_path)
    assert lint.returncode == 1
    assert lint.stdout.startswith("::error file=public/sitemap.xml,line=5,col=5")


@pytest.mark.slow
def test_action_lint_step_passes_a_clean_sitemap(tmp_path: Path) -> None:
    (tmp_path / "sitemap.xml").write_bytes((FIXTURES / "valid" / "sitemap.xml").read_bytes())
    lint = _run_step("Lint", {"ARGS": "--isolated --now 2025-06-01 ."}, tmp_path)
    assert lint.returncode == 0, lint.stdout + lint.stderr


def test_readme_pre_commit_snippet_names_the_hook() -> None:
    (hook,) = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    (repo,) = _readme_yaml("pre-commit")["repos"]
    assert [h["id"] for h in repo["hooks"]] == [hook["id"]]


def test_readme_github_snippet_uploads_what_the_action_writes() -> None:
    steps = _readme_yaml("GitHub Actions")["jobs"]["sitemap-lint"]["steps"]
    action = next(s for s in steps if "sarif-file" in s.get("with", {}))
    upload = next(s for s in steps if s.get("uses", "").startswith("github/codeql-action/upload"))
    assert upload["with"]["sarif_file"] == action["with"]["sarif-file"]
    assert "--format github" in action["with"]["args"]
    assert set(action["with"]) <= set(_action()["inputs"])


def test_readme_gitlab_snippet_reports_code_quality() -> None:
    job = _readme_yaml("GitLab CI")["sitemap-lint"]
    report = job["artifacts"]["reports"]["codequality"]
    assert any(f"--format gitlab --output-file {report}" in line for line in job["script"])

"""The GitHub Action and the README's CI snippets agree with the tool and with each other."""

from __future__ import annotations

import json
import os
import re
import shutil
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
    assert set(action["inputs"]) == {"args", "version", "sarif-file", "baseline", "extras"}
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


def _install(tmp_path: Path, extras: str, version: str = "") -> tuple[int, list[str], str]:
    """The install step run with a ``python`` that records its arguments: its status,
    what pip was asked to install (none: an empty list) and its output."""
    (step,) = [s for s in _action()["runs"]["steps"] if s["name"] == "Install sitemap-lint"]
    assert step["env"]["EXTRAS"] == "${{ inputs.extras }}"
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    record = tmp_path / "pip-args"
    record.unlink(missing_ok=True)
    fake = bin_dir / "python"
    fake.write_text(f'#!/bin/sh\nprintf "%s\\n" "$@" > "{record}"\n', encoding="utf-8")
    fake.chmod(0o755)
    env = {
        "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
        "VERSION": version,
        "EXTRAS": extras,
        "GITHUB_ACTION_PATH": "/action",
    }
    done = subprocess.run(
        ["bash", "-e", "-c", step["run"]], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    args = record.read_text(encoding="utf-8").splitlines() if record.exists() else []
    return done.returncode, args, done.stdout + done.stderr


@pytest.mark.parametrize(
    ("extras", "version", "requirement"),
    [
        ("", "", "/action"),
        ("html", "", "/action[html]"),
        ("html", "0.1.0", "sitemap-lint[html]==0.1.0"),
        (" html, dask ", "", "/action[html,dask]"),
        ("dask\nhtml,html", "0.1.0", "sitemap-lint[dask,html]==0.1.0"),
        ("", "0.1.0", "sitemap-lint==0.1.0"),
    ],
)
def test_action_installs_the_extras_asked_for(
    tmp_path: Path, extras: str, version: str, requirement: str
) -> None:
    status, args, output = _install(tmp_path, extras, version)
    assert status == 0, output
    assert args[-1] == requirement and args[:3] == ["-m", "pip", "install"]


def test_action_extras_are_the_packages_own() -> None:
    """The names the install step accepts are the package's extras, but the test one."""
    import tomllib

    (step,) = [s for s in _action()["runs"]["steps"] if s["name"] == "Install sitemap-lint"]
    (accepted,) = re.findall(r"^ *([a-z| ]+)\) ;;$", step["run"], re.MULTILINE)
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = set(project["optional-dependencies"]) - {"test"}
    assert {name.strip() for name in accepted.split("|")} == extras
    assert ", ".join(sorted(extras)) in README.split("### GitHub Actions", 1)[1]


@pytest.mark.parametrize(
    "extras",
    ["test", "html]", "html;touch hacked", "$(touch hacked)", "`touch hacked`", "*", "html dask,x"],
)
def test_action_refuses_any_other_extra(tmp_path: Path, extras: str) -> None:
    (tmp_path / "html.txt").write_text("")  # a file a pattern would expand to
    status, args, output = _install(tmp_path, extras)
    assert status == 1 and args == []
    assert "::error title=sitemap-lint action::extras: unknown extra" in output
    assert not (tmp_path / "hacked").exists()


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
    assert lint.stdout.startswith("::error file=public/sitemap.xml,line=5,col=3")


@pytest.mark.slow
def test_action_steps_take_a_baseline(tmp_path: Path) -> None:
    (tmp_path / "public").mkdir()
    (tmp_path / "public" / "sitemap.xml").write_bytes(
        (RULE_FIXTURES / "XM001" / "fail.xml").read_bytes()
    )
    args = "--isolated --format github public/"
    recorded = _run_step("Lint", {"ARGS": f"{args} --write-baseline base.json"}, tmp_path)
    assert recorded.returncode == 0, recorded.stderr
    gated = {"ARGS": args, "BASELINE": "base.json", "SARIF_FILE": "out.sarif"}
    lint = _run_step("Lint", gated, tmp_path)
    assert lint.returncode == 0, lint.stdout + lint.stderr
    assert "::error" not in lint.stdout
    sarif = _run_step("Write the SARIF report", gated, tmp_path)
    assert sarif.returncode == 0, sarif.stderr
    document = json.loads((tmp_path / "out.sarif").read_text(encoding="utf-8"))
    assert document["runs"][0]["results"] == []
    without = _run_step("Lint", {"ARGS": args, "BASELINE": ""}, tmp_path)
    assert without.returncode == 1


@pytest.mark.slow
def test_action_lint_step_passes_a_clean_sitemap(tmp_path: Path) -> None:
    (tmp_path / "sitemap.xml").write_bytes((FIXTURES / "valid" / "sitemap.xml").read_bytes())
    lint = _run_step("Lint", {"ARGS": "--isolated --now 2025-06-01 ."}, tmp_path)
    assert lint.returncode == 0, lint.stdout + lint.stderr


def test_readme_pre_commit_snippet_names_the_hook() -> None:
    (hook,) = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    (repo,) = _readme_yaml("pre-commit")["repos"]
    assert [h["id"] for h in repo["hooks"]] == [hook["id"]]


@pytest.mark.parametrize(
    ("path", "linted"),
    [
        ("public/sitemap.xml", True),
        ("Sitemap.xml", True),
        ("public/SITEMAP_INDEX.XML.GZ", True),
        ("news-sitemap.txt", True),
        ("public/Sitemap-Pages.TXT", True),
        ("sitemap/index.xml", False),
        ("sitemap-notes.md", False),
        ("public/robots.txt", False),
        ("sitemap.xml.bak", False),
    ],
)
def test_pre_commit_hook_takes_the_files_a_directory_run_takes(
    tmp_path: Path, path: str, linted: bool
) -> None:
    """The hook and a directory run take the same files: a text sitemap a commit touches
    is linted by the hook, so a CI run over the directory must lint it too."""
    from sitemap_lint.inputs.reader import expand

    (hook,) = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    assert (re.search(hook["files"], path) is not None) is linted
    (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / path).write_text("https://example.com/\n")
    (tmp_path / "other-sitemap.xml").write_text("<urlset/>")  # the directory is never empty
    taken = {
        Path(source.name).relative_to(tmp_path).as_posix() for source in expand([str(tmp_path)])
    }
    assert (path in taken) is linted


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


# -- this repository's own CI and pre-commit checks -------------------------------------------

_CHECKS = ["ruff check .", "ruff format --check .", "mypy", "python -m pytest"]
_FAKE_TOOL = """#!/usr/bin/env bash
# Records the call; fails when it is the one named in $FAIL.
call="$(basename "$0")${*:+ $*}"
echo "$call" >> "$CALLS"
if [ "$call" = "python3 -m venv .venv" ]; then mkdir -p .venv/bin && : > .venv/bin/activate; fi
[ "$call" != "$FAIL" ]
"""


def _run_ci(tmp_path: Path, fail: str) -> tuple[int, list[str]]:
    """Run .ci/run in a copy of the repository layout with every tool replaced by one
    that records its call; ``fail`` names the call that fails."""
    (tmp_path / ".ci").mkdir()
    shutil.copy2(ROOT / ".ci" / "run", tmp_path / ".ci" / "run")
    tools = tmp_path / "tools"
    tools.mkdir()
    for name in ("python3", "python", "ruff", "mypy"):
        (tools / name).write_text(_FAKE_TOOL, encoding="utf-8")
        (tools / name).chmod(0o755)
    calls = tmp_path / "calls"
    calls.touch()
    done = subprocess.run(
        ["bash", str(tmp_path / ".ci" / "run")],
        env={
            "PATH": f"{tools}{os.pathsep}/usr/bin{os.pathsep}/bin",
            "CALLS": str(calls),
            "FAIL": fail,
        },
        capture_output=True,
        text=True,
    )
    return done.returncode, calls.read_text(encoding="utf-8").splitlines()


@pytest.mark.slow
def test_ci_installs_then_checks_style_and_types_before_the_tests(tmp_path: Path) -> None:
    status, calls = _run_ci(tmp_path, fail="")
    assert status == 0
    install = calls.index("python -m pip install -e .[test]")
    assert calls[install + 1 :] == _CHECKS


@pytest.mark.slow
@pytest.mark.parametrize("failing", _CHECKS)
def test_ci_fails_on_any_check_and_stops_there(tmp_path: Path, failing: str) -> None:
    status, calls = _run_ci(tmp_path, fail=failing)
    assert status != 0
    assert calls[-1] == failing


def test_ci_script_is_strict_bash() -> None:
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "set -euo pipefail" in script.splitlines()


def test_mypy_alone_checks_the_package_strictly() -> None:
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    mypy = project["tool"]["mypy"]
    assert mypy["strict"] is True
    assert mypy["files"] == ["linter/sitemap_lint"]
    extras = " ".join(project["project"]["optional-dependencies"]["test"])
    for tool in ("ruff", "mypy", "types-lxml"):
        assert re.search(rf"(^| ){re.escape(tool)}\b", extras), tool


def test_pre_commit_config_runs_ruff_and_mypy_from_the_environment() -> None:
    clientlib = pytest.importorskip("pre_commit.clientlib")
    config = clientlib.load_config(str(ROOT / ".pre-commit-config.yaml"))
    hooks = {hook["id"]: hook for repo in config["repos"] for hook in repo["hooks"]}
    assert set(hooks) == {"ruff-check", "ruff-format", "mypy"}
    assert hooks["ruff-check"]["entry"].split()[:2] == ["ruff", "check"]
    assert hooks["ruff-format"]["entry"].split()[:2] == ["ruff", "format"]
    # mypy checks the configured package as a whole, not the files of a commit.
    assert hooks["mypy"]["entry"] == "mypy" and hooks["mypy"]["pass_filenames"] is False
    assert re.search(hooks["mypy"]["files"], "linter/sitemap_lint/engine/checker.py")
    bin_dir = str(Path(sys.executable).parent)
    for hook in hooks.values():
        assert hook["language"] in ("system", "unsupported")  # pre-commit 4.4 renamed it
        assert shutil.which(hook["entry"].split()[0], path=bin_dir), hook["entry"]

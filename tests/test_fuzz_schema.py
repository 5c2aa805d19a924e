"""bench/fuzz_schema.py, the differential fuzz of schema validity against xmllint, runs a
handful of cases with a fixed seed, so that the script cannot rot (its long runs are in
bench/README.md)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import ROOT

pytestmark = pytest.mark.skipif(shutil.which("xmllint") is None, reason="xmllint not installed")


def test_a_few_cases_agree_with_xmllint(tmp_path: Path) -> None:
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "bench" / "fuzz_schema.py"),
            *("--cases", "120", "--batch", "40", "--seed", "20261206", "--keep", str(tmp_path)),
        ],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    kept = sorted(path.name for path in tmp_path.iterdir())
    assert done.returncode == 0, (done.stdout, done.stderr, kept)
    summary = done.stdout.splitlines()[-1]
    assert summary.startswith("schema fuzz: seed 20261206, 120 cases (invalid "), summary
    assert summary.endswith("; 0 disagreements"), summary
    assert kept == []

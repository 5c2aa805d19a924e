"""Every file of the shared real-world corpus: no crash, and errors where xmllint finds them.

The corpus lives beside the repository (../shared/corpus); the test is skipped
where it is absent. ORACLE.tsv holds an independent xmllint verdict per file.
"""

from __future__ import annotations

import csv
import json

import pytest

from sitemap_lint.cli import main
from sitemap_lint.finding import Severity
from sitemap_lint.settings.profiles import PROFILES
from tests.helpers import ROOT

CORPUS = ROOT.parent / "shared" / "corpus"
# Child order, a news time without seconds and an empty port: Google accepts them, strict
# schema validators do not, so they are warnings by default and errors under the strict
# profile.
STRICT_ERRORS = frozenset(("IM006", "NW012", "VD018", "NW016", "UR016"))

pytestmark = pytest.mark.skipif(not (CORPUS / "ORACLE.tsv").exists(), reason="corpus not present")
# The fast loop checks every EVERY-th file of the corpus; the whole run all of them.
EVERY = 10


def _oracle() -> list[dict[str, str]]:
    with open(CORPUS / "ORACLE.tsv", newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle, delimiter="\t"))


def test_strict_errors_are_errors_under_the_strict_profile() -> None:
    assert all(PROFILES["strict"].changes.get(code) is Severity.ERROR for code in STRICT_ERRORS)


@pytest.mark.parametrize(
    "everyday",
    [pytest.param(True, id="everyday"), pytest.param(False, id="rest", marks=pytest.mark.slow)],
)
def test_corpus(capsys, everyday: bool) -> None:
    present = [row for row in _oracle() if (CORPUS / row["file"]).is_file()]
    rows = [row for n, row in enumerate(present) if (n % EVERY == 0) == everyday]
    assert rows
    paths = [str(CORPUS / row["file"]) for row in rows]
    status = main(["--format", "json", "--now", "2026-12-01", *paths])
    captured = capsys.readouterr()
    assert status in (0, 1), captured.err
    assert "Traceback" not in captured.err
    report = {entry["path"]: entry["findings"] for entry in json.loads(captured.out)["files"]}
    missed = []
    schema_errors_on_valid = []
    agree = disagree = 0
    for row, path in zip(rows, paths, strict=True):
        findings = report[path]
        has_error = any(f["severity"] == "error" for f in findings)
        for finding in findings:
            assert finding["line"] >= 1 and finding["column"] >= 1
        must_fail = row["well_formed"] == "no" or row["ext_xsd_valid"] == "no"
        strict_error = any(f["code"] in STRICT_ERRORS for f in findings)
        if must_fail and not has_error and not strict_error:
            missed.append(row["file"])
        if row["ext_xsd_valid"] == "yes" and any(f["code"] == "XS001" for f in findings):
            # Valid against the official schemas with extensions: ours must agree.
            # (Rules may still report errors the schemas do not see, such as
            # relative URLs, which anyURI accepts.)
            schema_errors_on_valid.append(row["file"])
        if row["ext_xsd_valid"] in ("yes", "no"):
            if has_error == (row["ext_xsd_valid"] == "no"):
                agree += 1
            else:
                disagree += 1
    print(
        f"corpus: {len(rows)} files; error verdict agrees with xmllint+extensions on {agree}, differs on {disagree}"
    )
    assert missed == []
    assert schema_errors_on_valid == []


def test_corpus_files_are_read_in_place() -> None:
    """The corpus is other people's data: no copy of it may live in this repository."""
    names = {path.name for path in (CORPUS / "files").rglob("*") if path.is_file()}
    ours = {path.name for path in (ROOT / "fixtures").rglob("*") if path.is_file()}
    assert not names & ours - {"sitemap.xml", "sitemap-index.xml", "sitemap.xml.gz"}

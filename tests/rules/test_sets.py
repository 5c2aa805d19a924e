"""Set family: each fixture site (an index or robots.txt and the files it lists, under
fixtures/rules/SEnnn/, served as https://example.com/) gives exactly the expected findings."""

from __future__ import annotations

import io
import json
from dataclasses import dataclass, field

import pytest

from sitemap_lint.rules import sets
from sitemap_lint.run import RunSettings, execute
from tests.helpers import RULE_FIXTURES, Case


@dataclass(frozen=True)
class SetCase:
    code: str
    fixture: str
    file: str  # the file of the set the finding lands in
    line: int
    options: dict = field(default_factory=dict)
    also: tuple[tuple[str, str, int], ...] = ()

    def __str__(self) -> str:
        return f"{self.code}/{self.fixture}"


SET_CASES = [
    SetCase("SE001", "fail.xml", "pages.xml", 4),  # /about is in posts.xml too
    SetCase("SE002", "fail.xml", "fail.xml", 7),  # the index lists itself
    SetCase("SE003", "fail.xml", "fail.xml", 7),  # more.xml is an index
    SetCase("SE004", "fail.txt", "pass.xml", 4),  # the index lists posts.xml, robots.txt did too
    SetCase("SE005", "fail.xml", "fail.xml", 10, {"max_files": 3}),  # team.xml is the 4th file
    SetCase("SE006", "fail.xml", "fail.xml", 4),  # index 2024-01-01, sitemap 2024-03-05
    SetCase("SE007", "fail.xml", "fail.xml", 7),  # missing.xml was not built
]
# For the catalogue: every rule of the family has a failing case.
CASES = [Case(case.code, case.fixture, case.line) for case in SET_CASES]
OPTIONS = {case.code: case.options for case in SET_CASES}


def lint_set(code: str, fixture: str, **options) -> dict[str, list[tuple[str, int]]]:
    """Check a fixture site with --follow and --map; findings by file name (relative to
    the fixture directory)."""
    directory = RULE_FIXTURES / code
    settings = RunSettings(
        paths=[str(directory / fixture)],
        format="json",
        now="2025-06-01",
        isolated=True,
        follow=True,
        maps=(f"https://example.com/={directory}",),
        **options,
    )
    out = io.StringIO()
    execute(settings, out=out, err=io.StringIO())
    report = json.loads(out.getvalue())
    found: dict[str, list[tuple[str, int]]] = {}
    for entry in report["files"]:
        name = entry["path"].rsplit("/", 1)[-1]
        found[name] = [(f["code"], f["line"]) for f in entry["findings"]]
    return found


@pytest.mark.parametrize("case", SET_CASES, ids=str)
def test_failing_fixture(case: SetCase) -> None:
    found = lint_set(case.code, case.fixture, **case.options)
    everything = sorted((file, code, line) for file, items in found.items() for code, line in items)
    assert everything == sorted([(case.file, case.code, case.line), *case.also])


@pytest.mark.parametrize("code", [rule.code for rule in sets.RULES])
def test_passing_fixture(code: str) -> None:
    fixture = "pass.txt" if code == "SE004" else "pass.xml"  # SE004's input is a robots.txt
    found = lint_set(code, fixture, **OPTIONS.get(code, {}))
    assert all(items == [] for items in found.values()), found

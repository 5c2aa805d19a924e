"""The one sink: every finding goes in through ``add``, and passes the file's directives
and the run's selection once, the findings across files of a set included."""

from __future__ import annotations

import pickle
import re
from collections.abc import Iterator

from sitemap_lint.engine.sink import FindingList, FindingSink
from sitemap_lint.finding import Finding, Severity
from sitemap_lint.rules import sets as set_rules
from tests.helpers import ROOT

SE001 = set_rules.URL_IN_SEVERAL_SITEMAPS.code
SE004 = set_rules.SITEMAP_LISTED_TWICE.code


def _twice(line: int) -> Finding:
    return set_rules.url_in_several_sitemaps(line, 3, "a.xml, line 4", None, line)


def _listed_twice(line: int, message: str = "listed twice") -> Finding:
    return set_rules.SITEMAP_LISTED_TWICE.at(line, 3, message)


def _codes(findings: list[Finding]) -> list[tuple[str, int, str]]:
    return [(f.code, f.line, str(f.severity)) for f in findings]


def test_a_file_checked_alone_passes_its_findings_at_close_in_order() -> None:
    sink = FindingSink({SE001: Severity.ERROR, SE004: None})
    sink.add(_twice(9))
    sink.add(_listed_twice(5))
    sink.add(_twice(2))
    assert _codes(sink.close()) == [(SE001, 2, "error"), (SE001, 9, "error")]


def test_a_settled_file_passes_only_the_later_findings_at_close() -> None:
    sink = FindingSink({SE001: Severity.INFO})
    sink.add(_twice(3))
    assert _codes(sink.settle()) == [(SE001, 3, "info")]
    sink.add(_twice(8))  # across files, after the file's own check
    # The run's levels at close would drop SE001: the finding that passed at settle
    # stays as it passed, the later one is dropped.
    assert _codes(sink.close({SE001: None})) == [(SE001, 3, "info")]


def test_the_directives_of_a_settled_file_silence_later_findings_and_speak_at_close() -> None:
    sink = FindingSink()
    sink.comment(" sitemap-lint: disable-file SE001 ", 2, 1)
    sink.comment(" sitemap-lint: disable-file UR008 ", 3, 1)
    assert sink.settle() == []  # nothing said yet: later findings may use them
    sink.add(_twice(7))
    (unused,) = sink.close()
    assert (unused.code, unused.line) == ("SU001", 3)
    assert "disable-file UR008 suppresses nothing" in unused.message


def test_withdraw_and_drop_reach_only_the_findings_not_passed_yet() -> None:
    sink = FindingSink()
    sink.add(_listed_twice(4, "passed"))
    sink.settle()
    sink.add(_listed_twice(4, "pending"))
    sink.add(_listed_twice(6, "other line"))
    sink.withdraw(SE004, 4, 3)
    sink.drop("SE00")  # a prefix: nothing passed goes
    sink.add(_listed_twice(9, "after"))
    assert [f.message for f in sink.close()] == ["passed", "after"]


def test_a_settled_sink_travels_without_its_levels_and_takes_the_runs_at_close() -> None:
    levels = {code: Severity.ERROR for code in (f"XX{n:03d}" for n in range(1000))}
    sink = FindingSink({**levels, SE001: Severity.ERROR})
    sink.add(_twice(2))
    sink.settle()
    data = pickle.dumps(sink)
    assert len(data) < 2000  # not the thousand levels: each file of a set carries its sink
    again = pickle.loads(data)
    again.add(_twice(5))
    assert _codes(again.close({SE001: Severity.INFO})) == [
        (SE001, 2, "error"),
        (SE001, 5, "info"),
    ]


def test_a_sink_of_findings_made_elsewhere_passes_them_all_at_close() -> None:
    sink = FindingSink.of([_twice(4), _listed_twice(1)])
    assert sink.added == 2
    assert _codes(sink.close({SE004: None})) == [(SE001, 4, "warning")]


def test_a_finding_list_takes_findings_as_the_sink_does() -> None:
    found = FindingList()
    found.add(_twice(1))
    assert found == [_twice(1)]


# A finding handed to a file's findings but through its sink: appended, extended,
# inserted or assigned into ``sink.findings`` or ``result.findings``.
_AROUND_THE_SINK = re.compile(
    r"(?:sink|result)\.findings(?:\.(?:append|extend|insert)\b|\s*\[[^\]]*\]\s*=[^=])"
)
# The steps after the report's findings are final, each with its reason: the baseline
# drops the findings it records; --fix adds why it left a file unchanged.
_AFTER_THE_SINK = {"report/baseline.py", "run.py"}


def test_no_module_hands_a_finding_to_a_file_but_through_its_sink() -> None:
    source = ROOT / "linter" / "sitemap_lint"
    found = []
    for path in sorted(source.rglob("*.py")):
        name = path.relative_to(source).as_posix()
        if name == "sink.py" or name in _AFTER_THE_SINK:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if _AROUND_THE_SINK.search(line):
                found.append(f"{name}:{number}: {line.strip()}")
    assert found == []


def test_added_counts_only_what_the_levels_report() -> None:
    sink = FindingSink({SE004: None})
    sink.add(_twice(4))
    sink.add(_listed_twice(1))
    assert sink.added == 1
    # A finding the levels do not report is not kept (a file of 50,000 URLs with an
    # ignored finding in each held them all until it ended).
    assert [f.line for f in sink.findings] == [4]


class _Node:
    pass


class _Covering:
    def __init__(self, node: object) -> None:
        self.node = node

    def iter(self) -> Iterator[object]:
        yield self.node


def test_a_finding_not_reported_still_covers_its_node() -> None:
    sink = FindingSink({SE004: None})
    node = _Node()
    sink.add(_listed_twice(4), _Covering(node))
    assert sink.findings == []
    assert sink.covered(node)  # its schema error is not reported in its stead

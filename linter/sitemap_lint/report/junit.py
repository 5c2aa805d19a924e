"""JUnit XML, for CI test-report views (GitLab, Jenkins, Azure and others).

One ``testsuite`` per file and one ``testcase`` per (file, rule) with findings,
sorted by rule code: its name carries the rule and the lines (``UR001
url-not-absolute (lines 11, 14)``), one ``failure`` element holds the first message
as its ``message`` and every finding, one per line, as its text; ``type`` is the
worst severity. A file without findings gets one passing test case, so every file
checked shows up. ``classname`` is the file's path relative to the working
directory. No timestamps or durations are written.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Sequence
from itertools import groupby

from sitemap_lint.finding import Finding
from sitemap_lint.report.base import FileReport, Reporter
from sitemap_lint.report.common import ci_path, one_line
from sitemap_lint.support.printable import printable_lines

LINES_IN_NAME = 10  # further lines are counted in the name and listed in the failure text


def xml_text(text: str) -> str:
    """``text`` as a person reading a CI page may see it, and XML can carry it: control
    and format characters (those XML cannot hold, a bidirectional control that would
    reverse what follows, a zero-width one) written as ``\\xNN`` / ``\\uNNNN``, a byte
    of a file name that is no UTF-8 as ``\\xNN``, as the text report shows them; line
    breaks kept."""
    return printable_lines(text)


def case_name(code: str, name: str, findings: list[Finding]) -> str:
    lines = list(dict.fromkeys(f.line for f in findings))
    shown = ", ".join(str(line) for line in lines[:LINES_IN_NAME])
    if len(lines) > LINES_IN_NAME:
        shown += f" and {len(lines) - LINES_IN_NAME} more"
    return f"{code} {name} (line{'s' if len(lines) > 1 else ''} {shown})"


class JunitReporter(Reporter):
    def report(self, results: Sequence[FileReport]) -> None:
        root = ET.Element("testsuites", name="sitemap-lint")
        total_tests = total_failures = 0
        for result in results:
            path = xml_text(ci_path(result.name))
            suite = ET.SubElement(root, "testsuite", name=path)
            by_rule = sorted(result.findings, key=lambda f: (f.code, f.line, f.column))
            groups = [(code, list(group)) for code, group in groupby(by_rule, lambda f: f.code)]
            for code, findings in groups:
                case = ET.SubElement(
                    suite,
                    "testcase",
                    classname=path,
                    name=xml_text(case_name(code, findings[0].name, findings)),
                )
                first = findings[0].message
                more = f" (and {len(findings) - 1} more)" if len(findings) > 1 else ""
                failure = ET.SubElement(
                    case,
                    "failure",
                    message=xml_text(one_line(first) + more),
                    type=str(max(f.severity for f in findings)),
                )
                failure.text = xml_text(
                    "".join(
                        f"{f.line}:{f.column}: {f.severity} {f.code} {one_line(f.message)}\n"
                        for f in findings
                    )
                )
            if not groups:
                ET.SubElement(suite, "testcase", classname=path, name="no findings")
            tests, failures = max(len(groups), 1), len(groups)
            _counts(suite, tests, failures)
            total_tests += tests
            total_failures += failures
        _counts(root, total_tests, total_failures)
        ET.indent(root)
        self.out.write('<?xml version="1.0" encoding="UTF-8"?>\n')
        self.out.write(ET.tostring(root, encoding="unicode"))
        self.out.write("\n")


def _counts(element: ET.Element, tests: int, failures: int) -> None:
    element.set("tests", str(tests))
    element.set("failures", str(failures))
    element.set("errors", "0")
    element.set("skipped", "0")

"""The HTML report: one self-contained page to open from disk or publish from CI.

Everything the page needs is inside it: styles, a small script, the charts as static
SVG (Vega-Lite specifications rendered by ``vl-convert`` when the report is written)
and the rule documentation. Read with scripts off, it is the set's tree as nested
lists and the findings as a table; the script only sorts, filters and opens the
documentation in a dialog.

Every value that comes from a sitemap (file names, URLs in messages) is untrusted:
the Jinja2 environment escapes everything by default, the embedded JSON escapes
``<``, ``>`` and ``&``, and the only markup taken as is comes from the chart renderer,
which escapes the texts it draws. File names and messages are shown as the text report shows them
(``support.printable``: control and format characters, and the bytes of a name that are
no UTF-8, as escapes; the chart renderer needs that too).

At most ``ROW_LIMIT`` findings are embedded: the first ``RULE_QUOTA`` of every rule,
then errors first; the page says how many of which rules were left out and that
``--format json`` has them all. The page is written in pieces as the template makes it
(``page``); the rows of the findings table are escaped and joined here, not by a
template loop (``finding_rows``). Needs the ``html`` extra (Jinja2, vl-convert-python).
"""

from __future__ import annotations

import json
import math
import os
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any

from sitemap_lint import __version__
from sitemap_lint.errors import UsageError
from sitemap_lint.finding import Finding
from sitemap_lint.report.base import (
    EntryCounts,
    FileReport,
    Reporter,
    RunInfo,
    Summary,
    applicable,
    by_frequency,
    counts_of,
    parent_of,
    plural,
)
from sitemap_lint.support.chunks import joined_blocks
from sitemap_lint.support.printable import encodable, printable, printable_lines

try:  # the html extra; without it --format html stops before anything is checked
    import jinja2
    import vl_convert  # noqa: F401
    from markupsafe import Markup, escape
except ImportError:
    raise UsageError(
        "--format html needs the html extra: pip install 'sitemap-lint[html]'"
    ) from None

ROW_LIMIT = 10_000  # findings embedded in the page; --format json has every one
# Rows past which the findings table lays out only the rows on screen (content-visibility:
# its sorts stay quick), though a row off screen then has no cells for a screen reader.
ONSCREEN_ROWS = 1_000
RULE_QUOTA = 100  # a capped page keeps the first findings of every rule, up to this many
URL_LIMIT = 50_000  # the protocol's limit of URLs per sitemap file
SIZE_LIMIT = 50 * 1024 * 1024  # the protocol's limit of a sitemap's size, uncompressed
TOP = 15  # bars in the charts by rule, by file and by hreflang code
INPUTS_SHOWN = 10  # inputs the header names (a shell glob may give thousands)
MONTHS = 36  # more months of lastmod than this are drawn as years
RETURN_LINK_CODE = "HL006"  # hreflang-return-link-missing, counted beside the hreflang chart
SEVERITY_COLOURS = {"error": "#c62828", "warning": "#b26a00", "info": "#1565c0"}
LEVELS = ("error", "warning", "info")
_SEVERITY = attrgetter("severity")
_KIND = attrgetter("code", "name", "severity")


@dataclass
class FileRow:
    """One file of the run, as the page lists it: a node of the set's tree (a robots.txt,
    an index, a sitemap), its children being the files it listed that the run checked."""

    name: str
    anchor: str
    kind: str | None
    urls: int | None
    size: int | None
    counts: Counter[str] = field(default_factory=Counter)
    parent: int | None = None
    shown: int = 0  # of its findings, those the page embeds
    children: list[FileRow] = field(default_factory=list)

    @property
    def findings(self) -> int:
        return sum(self.counts.values())

    @property
    def status(self) -> str:
        for level in LEVELS:
            if self.counts[level]:
                return level
        return "clean"

    @property
    def url_share(self) -> float:
        return min(1.0, (self.urls or 0) / URL_LIMIT)

    @property
    def size_share(self) -> float:
        return min(1.0, (self.size or 0) / SIZE_LIMIT)


@dataclass(frozen=True)
class TreeStep:
    """The tree as a flat sequence for the template: a file (its node opens a list of
    its children when it has any), or None where the innermost open list ends."""

    row: FileRow | None
    depth: int = 0


@dataclass(frozen=True)
class DocBlock:
    """A block of a rule's Markdown documentation: a heading, a paragraph (as runs of
    text and inline code) or a code block. Rendered by the template, escaped."""

    kind: str  # "heading", "paragraph", "code"
    text: str = ""
    runs: tuple[tuple[bool, str], ...] = ()  # (is code, text)


@dataclass(frozen=True)
class RuleDoc:
    code: str
    name: str
    severity: str
    summary: str
    count: int
    blocks: tuple[DocBlock, ...]
    shown: int = 0  # of its findings, those the page embeds

    @property
    def left_out(self) -> int:
        return self.count - self.shown

    @property
    def summary_runs(self) -> tuple[tuple[bool, str], ...]:
        return tuple(inline_runs(self.summary))


class HtmlReporter(Reporter):
    def report(self, results: Sequence[FileReport]) -> None:
        write = self.out.write
        for piece in page(results, self.run):
            write(piece)


def page(results: Sequence[FileReport], run: RunInfo | None) -> Iterator[str]:
    """The page for ``results`` in pieces of about ``PIECE`` characters: written as it is
    made, it is never whole in memory."""
    summary = Summary.of(results)
    files = file_rows(results)
    findings = [(n, result, f) for n, result in enumerate(results) for f in result.findings]
    # The order of the run: file by file, each file's by position.
    findings.sort(key=lambda item: (item[0], item[2].line, item[2].column))
    chosen = embedded(findings)
    shown = len(chosen)
    for number, _, _ in chosen:
        files[number].shown += 1
    by_rule = _by_rule(f for _, _, f in findings)
    rules = rule_docs(by_rule, Counter(f.code for _, _, f in chosen))
    counted = [stats for stats in map(counts_of, results) if stats is not None]
    unsafe = run is not None and run.unsafe_fixes
    fixable = sum(applicable(f, unsafe) for _, _, f in findings)
    sizes = [row.size for row in files if row.size is not None]
    context = {
        "version": __version__,
        "run": run,
        "generated": _generated(run),
        "inputs_shown": INPUTS_SHOWN,
        "summary": summary,
        "total": len(findings),
        "bytes": sum(sizes) if sizes else None,
        "files": files,
        "tree": list(tree(files)),
        "size_limit": SIZE_LIMIT,
        "shown": shown,
        "onscreen": shown > ONSCREEN_ROWS,
        "row_blocks": finding_rows(chosen, files, unsafe),
        "fixable": fixable,
        "fixes_hidden": sum(f.fix is not None for _, _, f in findings) - fixable,
        "hidden": len(findings) - shown,
        "row_limit": ROW_LIMIT,
        "rule_quota": _quota(len(rules)),
        "url_limit": URL_LIMIT,
        "rules": rules,
        "charts": charts(by_rule, files) + entry_charts(counted, by_rule) + live_charts(run),
        "live": run.live if run is not None else None,
        "colours": SEVERITY_COLOURS,
        "data": embedded_json(
            {
                "tool": {"name": "sitemap-lint", "version": __version__},
                "files": [
                    {
                        "name": r.name,
                        "anchor": r.anchor,
                        "kind": r.kind,
                        "urls": r.urls,
                        "parent": r.parent,
                    }
                    for r in files
                ],
                "rules": {
                    r.code: {"name": r.name, "count": r.count, "shown": r.shown} for r in rules
                },
                "shown": shown,
                "total": len(findings),
            }
        ),
    }
    return _pieces(_template().generate(context))


PIECE = 1 << 16  # characters of the page written at once


def _pieces(parts: Iterator[str]) -> Iterator[str]:
    """The template's many small parts joined into pieces of about ``PIECE`` characters,
    each as UTF-8 can carry it."""
    return map(encodable, joined_blocks(parts, PIECE))


Item = tuple[int, FileReport, Finding]


def embedded(findings: list[Item]) -> list[Item]:
    """The findings the page embeds, in the order given (the run's): all of them while
    they fit; else the first findings of every rule, up to a quota that leaves room
    for the others, then the rest errors first, up to ``ROW_LIMIT`` in all."""
    if len(findings) <= ROW_LIMIT:
        return findings
    quota = _quota(len({f.code for _, _, f in findings}))
    taken: Counter[str] = Counter()
    firsts = []
    for number, (_, _, f) in enumerate(findings):
        if taken[f.code] < quota:
            taken[f.code] += 1
            firsts.append(number)

    def severity_first(number: int) -> tuple[int, int]:
        return -findings[number][2].severity, number

    # More rules than rows (a tiny limit): the first of the most severe rules.
    chosen = set(sorted(firsts, key=severity_first)[:ROW_LIMIT])
    for number in sorted(range(len(findings)), key=severity_first):
        if len(chosen) >= ROW_LIMIT:
            break
        chosen.add(number)
    return [findings[number] for number in sorted(chosen)]


ROWS_AT_ONCE = 100  # rows of the findings table joined into one piece of the page


def finding_rows(chosen: list[Item], files: list[FileRow], unsafe: bool = False) -> Iterator[str]:
    """The rows of the findings table, escaped, ``ROWS_AT_ONCE`` at a time. What a row
    says of its rule and of its file is escaped once per rule and once per file; only
    its position and message are made per row. The first row of a file carries the
    file's anchor; a finding ``--fix`` fixes (``unsafe``: with ``--unsafe-fixes``) says
    so after its message."""
    rule_parts: dict[tuple[str, str, str], tuple[str, str]] = {}
    file_parts: dict[int, tuple[str, str]] = {}
    block: list[str] = []
    previous = -1
    for number, _, f in chosen:
        severity = str(f.severity)
        kind = (f.code, f.name, severity)
        rule = rule_parts.get(kind)
        if rule is None:
            rule = rule_parts[kind] = _rule_cells(*kind)
        file = file_parts.get(number)
        if file is None:
            file = file_parts[number] = _file_cells(files[number].name)
        anchor = f' id="{files[number].anchor}"' if number != previous else ""
        previous = number
        block.append(
            f"{rule[0]}{file[0]}{anchor}{rule[1]}{file[1]}"
            f'        <td class="num">{f.line}</td>\n'
            f'        <td class="num">{f.column}</td>\n'
            f'        <td class="message">{escape(printable_lines(f.message))}'
            f"{FIXABLE if applicable(f, unsafe) else ''}</td>\n"
            "      </tr>\n"
        )
        if len(block) >= ROWS_AT_ONCE:
            yield "".join(block)
            block.clear()
    if block:
        yield "".join(block)


FIXABLE = ' <span class="badge badge-fix" title="--fix fixes it">fixable</span>'


def _rule_cells(code: str, name: str, severity: str) -> tuple[str, str]:
    """A row's markup of its rule: what comes before its file's name, and after."""
    severity, code, name = escape(severity), escape(code), escape(name)
    return (
        f'      <tr class="sev-{severity}" data-severity="{severity}" data-code="{code}"'
        ' data-file="',
        ">\n"
        f'        <td><span class="badge badge-{severity}">{severity}</span></td>\n'
        f'        <td class="nowrap"><a class="rule-link" href="#rule-{code}"'
        f' data-code="{code}">{code}</a> <span class="muted">{name}</span></td>\n',
    )


def _file_cells(name: str) -> tuple[str, str]:
    """A row's markup of its file: its name in the row's attribute, and its cell, which
    may break the name after each ``/``."""
    cell = "/<wbr>".join(escape(part) for part in name.split("/"))
    return f'{escape(name)}"', f'        <td class="file-cell">{cell}</td>\n'


def _quota(rules: int) -> int:
    """The first findings each rule keeps on a capped page: no more than half the rows
    go to the quotas, so the rest can still be errors first."""
    return max(1, min(RULE_QUOTA, ROW_LIMIT // (2 * max(rules, 1))))


# -- the files --------------------------------------------------------------------------


def file_rows(results: Sequence[FileReport]) -> list[FileRow]:
    """The files in the order of the run (a set: each file followed by those it listed),
    each with its children."""
    rows = []
    for number, result in enumerate(results):
        stats = counts_of(result)
        size = stats.size if stats is not None and stats.size is not None else None
        parent = parent_of(result)
        rows.append(
            FileRow(
                printable(result.name),
                _anchor(number),
                result.kind,
                result.urls,
                size if size is not None else _size(result.name),
                _by_severity(result.findings),
                # Only a file listed earlier can be a parent: the tree has no cycle.
                parent if parent is not None and 0 <= parent < number else None,
            )
        )
    for row in rows:
        if row.parent is not None:
            rows[row.parent].children.append(row)
    return rows


def _by_rule(findings: Iterable[Finding]) -> Counter[tuple[str, str, str]]:
    """Findings counted by rule: code, name and severity (counted at C speed, then named)."""
    counted = Counter(map(_KIND, findings))
    return Counter(
        {(code, name, str(severity)): count for (code, name, severity), count in counted.items()}
    )


def _by_severity(findings: Sequence[Finding]) -> Counter[str]:
    """A file's findings counted by severity (counted at C speed, then named)."""
    counted = Counter(map(_SEVERITY, findings))
    return Counter({str(severity): count for severity, count in counted.items()})


def tree(files: list[FileRow]) -> Iterator[TreeStep]:
    """The set as nested lists, depth first, without recursion: each input, then the
    files it listed, then theirs."""
    stack: list[Iterator[FileRow]] = [iter([row for row in files if row.parent is None])]
    while stack:
        row = next(stack[-1], None)
        if row is None:
            stack.pop()
            if stack:
                yield TreeStep(None, len(stack))
            continue
        yield TreeStep(row, len(stack) - 1)
        if row.children:
            stack.append(iter(row.children))


def _anchor(number: int) -> str:
    return f"file-{number + 1}"


def _size(name: str) -> int | None:
    """The file's size in bytes when it is a local file (not a URL or standard input)."""
    if name == "-" or "://" in name:
        return None
    try:
        return os.stat(name).st_size
    except OSError:
        return None


# -- the rule documentation -------------------------------------------------------------


def rule_docs(by_rule: Counter[tuple[str, str, str]], shown: Counter[str]) -> list[RuleDoc]:
    """Every rule with findings, most findings first, with its documentation and how
    many of its findings the page embeds (``shown``)."""
    from sitemap_lint.rules import RULES

    counts: Counter[str] = Counter()
    names: dict[str, tuple[str, str]] = {}
    for (code, name, severity), count in by_rule.items():
        counts[code] += count
        names.setdefault(code, (name, severity))
    docs = []
    for code, count in by_frequency(counts):
        rule = RULES.get(code)
        name, severity = names[code]
        if rule is None:  # a code the catalogue does not know
            docs.append(RuleDoc(code, name, severity, name, count, (), shown[code]))
            continue
        docs.append(
            RuleDoc(
                rule.code,
                rule.name,
                str(rule.severity),
                rule.summary,
                count,
                tuple(markdown_blocks(rule.doc)),
                shown[code],
            )
        )
    return docs


def markdown_blocks(markdown: str) -> Iterator[DocBlock]:
    """The Markdown the rule catalogue uses: ``#`` headings, fenced code, paragraphs
    with inline code. The blocks hold plain text, so the template escapes all of it."""
    paragraph: list[str] = []
    code: list[str] | None = None

    def flush() -> Iterator[DocBlock]:
        if paragraph:
            text = " ".join(line.strip() for line in paragraph)
            paragraph.clear()
            yield DocBlock("paragraph", runs=tuple(inline_runs(text)))

    for line in markdown.splitlines():
        if code is not None:
            if line.lstrip().startswith("```"):
                yield DocBlock("code", text="\n".join(code))
                code = None
            else:
                code.append(line)
        elif line.lstrip().startswith("```"):
            yield from flush()
            code = []
        elif line.startswith("#"):
            yield from flush()
            yield DocBlock("heading", text=line.lstrip("#").strip())
        elif not line.strip():
            yield from flush()
        else:
            paragraph.append(line)
    yield from flush()
    if code is not None:
        yield DocBlock("code", text="\n".join(code))


def inline_runs(text: str) -> Iterator[tuple[bool, str]]:
    """``a `b` c`` as (False, "a "), (True, "b"), (False, " c")."""
    for number, part in enumerate(re.split(r"`([^`]*)`", text)):
        if part:
            yield number % 2 == 1, part


# -- charts -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Chart:
    id: str
    title: str
    note: str
    svg: str


def charts(by_rule: Counter[tuple[str, str, str]], files: list[FileRow]) -> list[Chart]:
    """Static SVG charts: findings by rule and by file, severities stacked."""
    made = []
    if by_rule:
        rule_totals: Counter[str] = Counter()
        for (code, name, _), count in by_rule.items():
            rule_totals[f"{code} {name}"] += count
        top = {label for label, _ in rule_totals.most_common(TOP)}
        values = [
            {
                "label": f"{code} {name}",
                "severity": severity,
                "count": count,
                "rank": _rank(severity),
            }
            for (code, name, severity), count in by_rule.items()
            if f"{code} {name}" in top
        ]
        note = f"top {len(top)} of {len(rule_totals):,} rules" if len(rule_totals) > TOP else ""
        made.append(Chart("chart-rules", "Findings by rule", note, bar_chart(values, "rules")))
    with_findings = [row for row in files if row.findings]
    if with_findings:
        top_files = sorted(with_findings, key=lambda row: -row.findings)[:TOP]
        values = [
            {
                "label": _short(row.name),
                "severity": level,
                "count": row.counts[level],
                "rank": _rank(level),
            }
            for row in top_files
            for level in LEVELS
            if row.counts[level]
        ]
        note = f"top {TOP} of {len(with_findings):,} files" if len(with_findings) > TOP else ""
        made.append(Chart("chart-files", "Findings by file", note, bar_chart(values, "files")))
    return made


CHANGEFREQS = ("always", "hourly", "daily", "weekly", "monthly", "yearly", "never")
PRIORITIES = tuple(f"{n / 10:.1f}" for n in range(11))
# The keys facts.FileStats uses beside the values, as the charts name them.
SPECIAL = {"none": "not given", "invalid": "invalid", "other": "other values"}
GROUP_COLOURS = {
    "value": "#2f5d8a",
    "not given": "#848e9c",  # 3:1 on the panel, light or dark
    "invalid": "#c62828",
    "other values": "#6b7280",
}


def entry_charts(counted: list[EntryCounts], by_rule: Counter[tuple[str, str, str]]) -> list[Chart]:
    """What the entries of the run's sitemaps look like: lastmod freshness, changefreq
    and priority, and the hreflang codes, from each file's counts."""
    months: Counter[str] = Counter()
    changefreqs: Counter[str] = Counter()
    priorities: Counter[str] = Counter()
    hreflangs: Counter[str] = Counter()
    for stats in counted:
        months.update(stats.months)
        changefreqs.update(stats.changefreqs)
        priorities.update(stats.priorities)
        hreflangs.update(stats.hreflangs)
    made = []
    if months:
        dated = sorted(key for key in months if key not in SPECIAL)
        unit = "month"
        if len(dated) > MONTHS:
            unit = "year"
            years: Counter[str] = Counter()
            for key in dated:
                years[key[:4]] += months[key]
            for key in SPECIAL:
                if key in months:
                    years[key] = months[key]
            months, dated = years, sorted(years.keys() - SPECIAL.keys())
        values = _counted(months, dated)
        undated = months["none"]
        note = f"entries per {unit}; {undated:,} without lastmod" if undated else f"per {unit}"
        made.append(
            Chart("chart-lastmod", "lastmod freshness", note, column_chart(values, "lastmod"))
        )
    if changefreqs:
        values = _counted(changefreqs, CHANGEFREQS)
        made.append(
            Chart(
                "chart-changefreq",
                "changefreq",
                "entries per value",
                row_chart(values, "changefreq"),
            )
        )
    if priorities:
        values = _counted(priorities, PRIORITIES)
        note = "entries per value; not given means 0.5"
        made.append(Chart("chart-priority", "priority", note, row_chart(values, "priority")))
    if hreflangs:
        codes = [code for code, _ in hreflangs.most_common() if code != "other"]
        top = sorted(codes[:TOP], key=lambda code: (-hreflangs[code], code))
        values = [{"label": code, "count": hreflangs[code], "group": "value"} for code in top]
        missing = sum(count for (code, _, _), count in by_rule.items() if code == RETURN_LINK_CODE)
        note = f"URLs per code; {plural(missing, 'missing return link')}"
        if len(codes) > TOP:
            note += f"; top {TOP} of {len(codes):,} codes"
        made.append(
            Chart("chart-hreflang", "hreflang languages", note, row_chart(values, "hreflang"))
        )
    return made


def live_charts(run: RunInfo | None) -> list[Chart]:
    """``--live``: the answers by status code (and by error, apart)."""
    if run is None or not run.live or not run.live.get("statuses"):
        return []
    statuses: dict[str, int] = run.live["statuses"]
    values = [
        {"label": key, "count": count, "group": "value" if key.isdigit() else "invalid"}
        for key, count in sorted(
            statuses.items(), key=lambda item: (not item[0].isdigit(), item[0])
        )
    ]
    return [Chart("chart-live", "Live audit: answers by status", "", row_chart(values, "live"))]


def _counted(counter: Counter[str], order: Sequence[str]) -> list[dict[str, Any]]:
    """Bars in ``order`` (values the counter has), then the special keys."""
    values = [
        {"label": key, "count": counter[key], "group": "value"} for key in order if counter[key]
    ]
    for key, label in SPECIAL.items():
        if counter[key]:
            values.append({"label": label, "count": counter[key], "group": label})
    return values


COLUMNS_WIDTH = 420  # the column chart's width once its columns no longer fit at their step
COLUMN_STEP = 40  # a column's width (with its gap) while they fit
LABEL_SPACING = 20  # pixels from one slanted label to the next, so that none covers another


def column_chart(values: list[dict[str, Any]], prefix: str) -> str:
    """Vertical bars in the order given, coloured by group: the values (months, years)
    as a time line, each labelled while the labels fit, else every few counted back
    from the newest; then, apart, the special bars (not given, invalid, other values),
    each labelled."""
    dated = [value for value in values if value["group"] == "value"]
    special = [value for value in values if value["group"] != "value"]
    colour = _group_colour(values)  # one scale for both views
    views = []
    if dated:
        room = COLUMNS_WIDTH - COLUMN_STEP * len(special)
        fits = len(dated) * COLUMN_STEP <= room
        every = 1 if fits else math.ceil(LABEL_SPACING * len(dated) / room)
        labels = [value["label"] for value in dated][::-1][::every][::-1]
        width: Any = {"step": COLUMN_STEP} if fits else room
        views.append(_columns(dated, width, labels, _count_axis(values), colour))
    if special:
        axis = _count_axis(values, shown=not dated)
        labels = [value["label"] for value in special]
        views.append(_columns(special, {"step": COLUMN_STEP}, labels, axis, colour))
    spec = {
        "$schema": "https://vega.github.io/schema/vega-lite/v5.json",
        "hconcat": views,
        "spacing": 8,
        "resolve": {"scale": {"y": "shared"}},
        "config": CHART_CONFIG,
    }
    return svg(spec, prefix)


def _columns(
    values: list[dict[str, Any]],
    width: Any,
    labels: list[str],
    counts: dict[str, Any],
    colour: dict[str, Any],
) -> dict[str, Any]:
    """One view of ``column_chart``: its bars, with only ``labels`` written under them."""
    return {
        "data": {"values": values},
        "width": width,
        "height": 170,
        "mark": {"type": "bar", "cornerRadiusEnd": 2},
        "encoding": {
            "x": {
                "field": "label",
                "type": "ordinal",
                "sort": [value["label"] for value in values],
                "title": None,
                "axis": {
                    "values": labels,
                    "labelAngle": -45,
                    "labelOverlap": False,
                    "labelLimit": 120,
                },
            },
            "y": {"field": "count", "type": "quantitative", "title": None, "axis": counts},
            "color": colour,
        },
    }


def _count_axis(values: list[dict[str, Any]], shown: bool = True) -> dict[str, Any]:
    """The axis of counts (whole numbers); not shown: only its grid lines."""
    axis: dict[str, Any] = {"format": ",d", "tickCount": _ticks(values)}
    if not shown:
        axis.update(labels=False, ticks=False, domain=False)
    return axis


def row_chart(values: list[dict[str, Any]], prefix: str) -> str:
    """Horizontal bars in the order given."""
    spec = {
        "$schema": "https://vega.github.io/schema/vega-lite/v5.json",
        "data": {"values": values},
        "width": 360,
        "mark": {"type": "bar", "cornerRadiusEnd": 2},
        "encoding": {
            "y": {
                "field": "label",
                "type": "nominal",
                "sort": [value["label"] for value in values],
                "title": None,
                "axis": {"labelLimit": 220},
            },
            "x": {
                "field": "count",
                "type": "quantitative",
                "title": None,
                "axis": {"format": ",d", "tickCount": _ticks(values)},
            },
            "color": _group_colour(values),
        },
        "config": CHART_CONFIG,
    }
    return svg(spec, prefix)


def _ticks(values: list[dict[str, Any]]) -> int:
    # Whole numbers only: no more ticks than the longest bar counts.
    return max(1, min(max((value["count"] for value in values), default=1), 6))


def _group_colour(values: list[dict[str, Any]]) -> dict[str, Any]:
    groups = [group for group in GROUP_COLOURS if any(v["group"] == group for v in values)]
    return {
        "field": "group",
        "type": "nominal",
        "title": None,
        "scale": {"domain": groups, "range": [GROUP_COLOURS[group] for group in groups]},
        "legend": None,  # the bars' labels say what each is
    }


def _rank(severity: str) -> int:
    return LEVELS.index(severity) if severity in LEVELS else len(LEVELS)


def _short(name: str, limit: int = 48) -> str:
    return name if len(name) <= limit else "…" + name[-(limit - 1) :]


# Wide fonts first: the renderer measures the labels with the first font it has, and a
# viewer's fallback is then no wider, so no label is clipped.
_FONT = "DejaVu Sans, Verdana, Geneva, sans-serif"
CHART_CONFIG = {
    "background": None,
    "view": {"stroke": None},
    "font": _FONT,
    "axis": {
        "labelColor": "#3c4350",
        "titleColor": "#3c4350",
        "gridColor": "#e6e8eb",
        "domainColor": "#c8ccd2",
        "tickColor": "#c8ccd2",
        "labelFontSize": 11,
    },
    "legend": {"labelColor": "#3c4350", "titleColor": "#3c4350", "orient": "bottom"},
}


def bar_chart(values: list[dict[str, Any]], prefix: str) -> str:
    """Horizontal bars, one per label, stacked by severity."""
    totals: Counter[str] = Counter()
    for value in values:
        totals[value["label"]] += value["count"]
    # Whole numbers only: no more ticks than the longest bar has findings.
    ticks = max(1, min(max(totals.values(), default=1), 6))
    spec = {
        "$schema": "https://vega.github.io/schema/vega-lite/v5.json",
        "data": {"values": values},
        "width": 360,
        "mark": {"type": "bar", "cornerRadiusEnd": 2},
        "encoding": {
            "y": {
                "field": "label",
                "type": "nominal",
                "sort": "-x",
                "title": None,
                "axis": {"labelLimit": 220},
            },
            "x": {
                "aggregate": "sum",
                "field": "count",
                "type": "quantitative",
                "title": None,
                "axis": {"format": ",d", "tickCount": ticks},
            },
            "color": _severity_colour(),
            "order": {"field": "rank", "sort": "ascending"},
        },
        "config": CHART_CONFIG,
    }
    return svg(spec, prefix)


def _severity_colour() -> dict[str, Any]:
    present = list(LEVELS)
    return {
        "field": "severity",
        "type": "nominal",
        "title": None,
        "scale": {"domain": present, "range": [SEVERITY_COLOURS[s] for s in present]},
    }


def svg(spec: dict[str, Any], prefix: str) -> str:
    """A Vega-Lite chart as an inline SVG element (the report's and the diff's pages), its
    ids (clip paths) prefixed so that two charts in one page do not share them."""
    import vl_convert

    # The renderer stops the process on a character its SVG cannot hold: every text drawn
    # (a label: a file name, a hreflang code) is shown as the text report shows it.
    drawable = json.dumps(_drawable(spec))
    drawn: str = vl_convert.vegalite_to_svg(drawable, allowed_base_urls=[])
    drawn = drawn[drawn.index("<svg") :]
    # The renderer numbers its ids (clip paths) on from one chart to the next in a
    # process: renumbered in order of appearance, the same chart gives the same SVG.
    ids = {
        name: f"{prefix}-{number}"
        for number, name in enumerate(dict.fromkeys(re.findall(r'\bid="([^"]+)"', drawn)), 1)
    }
    drawn = re.sub(r'\bid="([^"]+)"', lambda m: f'id="{ids[m[1]]}"', drawn)
    drawn = re.sub(r"url\(#([^)]+)\)", lambda m: f"url(#{ids.get(m[1], m[1])})", drawn)
    return drawn.replace('class="marks"', 'class="marks" role="img"', 1)


def labelled(drawing: str, label: str) -> Markup:
    """A chart's SVG (``svg``) with ``label`` as its name: a drawing in the role of an
    image has no name of its own for a screen reader to say."""
    return Markup(drawing.replace('role="img"', f'role="img" aria-label="{escape(label)}"', 1))


def _drawable(value: Any) -> Any:
    """A chart's specification with each of its strings ``printable``."""
    if isinstance(value, str):
        return printable(value)
    if isinstance(value, dict):
        return {key: _drawable(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_drawable(item) for item in value]
    return value


# -- the page ---------------------------------------------------------------------------


def embedded_json(value: object) -> str:
    """JSON safe inside ``<script type="application/json">``: no ``<``, ``>`` or ``&``
    (so no ``</script>`` or ``<!--``), and no line separators JavaScript once rejected."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    for char, escape in (
        ("<", "\\u003c"),
        (">", "\\u003e"),
        ("&", "\\u0026"),
        ("\u2028", "\\u2028"),
        ("\u2029", "\\u2029"),
    ):
        text = text.replace(char, escape)
    return text


def _generated(run: RunInfo | None) -> str | None:
    """The time the rules took as now: ``--now`` as given. Without it the page says no
    time, so that the same files give the same page."""
    if run is not None and run.now:
        return f"{run.now} (--now)"
    return None


def _template() -> jinja2.Template:
    return template("report.html.j2")


def template(name: str) -> jinja2.Template:
    """A page template of ``html_assets`` (the report's, the diff's), with the report's
    filters, style and script."""
    from importlib.resources import files

    from jinja2 import Environment, select_autoescape

    assets = files("sitemap_lint.report") / "html_assets"
    env = Environment(
        autoescape=select_autoescape(default=True, default_for_string=True),
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["number"] = lambda value: f"{value:,}"
    env.filters["plural"] = plural
    env.filters["bytes"] = _human_bytes
    env.filters["printable"] = printable
    env.filters["labelled"] = labelled
    env.globals["style"] = (assets / "report.css").read_text(encoding="utf-8")
    env.globals["script"] = (assets / "report.js").read_text(encoding="utf-8")
    return env.from_string((assets / name).read_text(encoding="utf-8"))


def _human_bytes(size: int) -> str:
    value = float(size)
    for unit in ("bytes", "KiB", "MiB", "GiB"):
        if value < 1024 or unit == "GiB":
            return f"{size:,} bytes" if unit == "bytes" else f"{value:,.1f} {unit}"
        value /= 1024
    return f"{size:,} bytes"


__all__ = ["ROW_LIMIT", "URL_LIMIT", "HtmlReporter", "embedded_json", "page"]

"""The HTML report: one self-contained page to open from disk or publish from CI.

Everything the page needs is inside it: styles, a small script, the charts as static
SVG (Vega-Lite specifications rendered by ``vl-convert`` when the report is written)
and the rule documentation. Read with scripts off, it is a set of tables; the script
only sorts, filters and opens the documentation in a dialog.

Every value that comes from a sitemap (file names, URLs in messages) is untrusted:
the Jinja2 environment escapes everything by default, the embedded JSON escapes
``<``, ``>`` and ``&``, and the only markup taken as is comes from the chart renderer,
which escapes the texts it draws.

At most ``ROW_LIMIT`` findings are embedded (errors first); the page says how many
were left out and that ``--format json`` has them all. Needs the ``html`` extra
(Jinja2, vl-convert-python).
"""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sitemap_lint import __version__
from sitemap_lint.errors import UsageError
from sitemap_lint.report.base import FileReport, Reporter, RunInfo, Summary

try:  # the html extra; without it --format html stops before anything is checked
    import jinja2
    import vl_convert  # noqa: F401
except ImportError:
    raise UsageError(
        "--format html needs the html extra: pip install 'sitemap-lint[html]'"
    ) from None

ROW_LIMIT = 10_000  # findings embedded in the page; --format json has every one
URL_LIMIT = 50_000  # the protocol's limit of URLs per sitemap file
TOP = 15  # bars in the charts by rule and by file
SEVERITY_COLOURS = {"error": "#c62828", "warning": "#b26a00", "info": "#1565c0"}
LEVELS = ("error", "warning", "info")


@dataclass
class FileRow:
    """One file of the run, as the page lists it."""

    name: str
    anchor: str
    kind: str | None
    urls: int | None
    size: int | None
    counts: Counter[str] = field(default_factory=Counter)

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


@dataclass(frozen=True)
class Row:
    severity: str
    code: str
    name: str
    file: str
    anchor: str
    line: int
    column: int
    message: str


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

    @property
    def summary_runs(self) -> tuple[tuple[bool, str], ...]:
        return tuple(inline_runs(self.summary))


class HtmlReporter(Reporter):
    def report(self, results: Sequence[FileReport]) -> None:
        self.out.write(render(results, self.run))


def render(results: Sequence[FileReport], run: RunInfo | None) -> str:
    """The whole page for ``results``."""
    summary = Summary.of(results)
    files = file_rows(results)
    findings = [(n, result, f) for n, result in enumerate(results) for f in result.findings]
    # The rows embedded: errors first; shown in file order, each file's by position.
    findings.sort(key=lambda item: -item[2].severity)
    chosen = sorted(findings[:ROW_LIMIT], key=lambda item: (item[0], item[2].line, item[2].column))
    shown = [
        Row(
            str(f.severity),
            f.code,
            f.name,
            result.name,
            _anchor(number),
            f.line,
            f.column,
            f.message,
        )
        for number, result, f in chosen
    ]
    by_rule: Counter[tuple[str, str, str]] = Counter(
        (f.code, f.name, str(f.severity)) for _, _, f in findings
    )
    rules = rule_docs(by_rule)
    sizes = [row.size for row in files if row.size is not None]
    context = {
        "version": __version__,
        "run": run,
        "generated": _generated(run),
        "summary": summary,
        "total": len(findings),
        "bytes": sum(sizes) if sizes else None,
        "files": files,
        "rows": shown,
        "hidden": max(0, len(findings) - ROW_LIMIT),
        "row_limit": ROW_LIMIT,
        "url_limit": URL_LIMIT,
        "rules": rules,
        "charts": charts(by_rule, files),
        "colours": SEVERITY_COLOURS,
        "data": embedded_json(
            {
                "tool": {"name": "sitemap-lint", "version": __version__},
                "files": [
                    {"name": r.name, "anchor": r.anchor, "kind": r.kind, "urls": r.urls}
                    for r in files
                ],
                "rules": {r.code: {"name": r.name, "count": r.count} for r in rules},
                "shown": len(shown),
                "total": len(findings),
            }
        ),
    }
    return _template().render(context)


# -- the files --------------------------------------------------------------------------


def file_rows(results: Sequence[FileReport]) -> list[FileRow]:
    """The files in the order of the run (a set: each level of indexes, then its files)."""
    return [
        FileRow(
            result.name,
            _anchor(number),
            result.kind,
            result.urls,
            _size(result.name),
            Counter(str(f.severity) for f in result.findings),
        )
        for number, result in enumerate(results)
    ]


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


def rule_docs(by_rule: Counter[tuple[str, str, str]]) -> list[RuleDoc]:
    """Every rule with findings, most findings first, with its documentation."""
    from sitemap_lint.rules import RULES

    counts: Counter[str] = Counter()
    names: dict[str, tuple[str, str]] = {}
    for (code, name, severity), count in by_rule.items():
        counts[code] += count
        names.setdefault(code, (name, severity))
    docs = []
    for code, count in sorted(counts.items(), key=lambda item: (-item[1], item[0])):
        rule = RULES.get(code)
        name, severity = names[code]
        if rule is None:  # a code the catalogue does not know
            docs.append(RuleDoc(code, name, severity, name, count, ()))
            continue
        docs.append(
            RuleDoc(
                rule.code,
                rule.name,
                str(rule.severity),
                rule.summary,
                count,
                tuple(markdown_blocks(rule.doc)),
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
    """Static SVG charts: findings by rule and by file, severities stacked.

    Distributions of lastmod, changefreq and priority are not drawn: the checker keeps
    no such counts, and a set run drops each file's facts once the set is checked."""
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
        note = f"top {len(top)} of {len(rule_totals)} rules" if len(rule_totals) > TOP else ""
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
        note = f"top {TOP} of {len(with_findings)} files" if len(with_findings) > TOP else ""
        made.append(Chart("chart-files", "Findings by file", note, bar_chart(values, "files")))
    return made


def _rank(severity: str) -> int:
    return LEVELS.index(severity) if severity in LEVELS else len(LEVELS)


def _short(name: str, limit: int = 48) -> str:
    return name if len(name) <= limit else "…" + name[-(limit - 1) :]


# Wide fonts first: the renderer measures the labels with the first font it has, and a
# viewer's fallback is then no wider, so no label is clipped.
_FONT = "DejaVu Sans, Verdana, Geneva, sans-serif"
_CONFIG = {
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
        "config": _CONFIG,
    }
    return _svg(spec, prefix)


def _severity_colour() -> dict[str, Any]:
    present = list(LEVELS)
    return {
        "field": "severity",
        "type": "nominal",
        "title": None,
        "scale": {"domain": present, "range": [SEVERITY_COLOURS[s] for s in present]},
    }


def _svg(spec: dict[str, Any], prefix: str) -> str:
    """The chart as an inline SVG element, its ids (clip paths) prefixed so that two
    charts in one page do not share them."""
    import vl_convert

    svg: str = vl_convert.vegalite_to_svg(json.dumps(spec), allowed_base_urls=[])
    svg = svg[svg.index("<svg") :]
    svg = re.sub(r'\bid="([^"]+)"', rf'id="{prefix}-\1"', svg)
    svg = re.sub(r"url\(#([^)]+)\)", rf"url(#{prefix}-\1)", svg)
    return svg.replace('class="marks"', 'class="marks" role="img"', 1)


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


def _generated(run: RunInfo | None) -> str:
    """The time the rules took as now: ``--now`` as given, or the clock's."""
    if run is not None and run.now:
        return f"{run.now} (--now)"
    return datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")


def _template() -> jinja2.Template:
    from importlib.resources import files

    from jinja2 import Environment, select_autoescape

    assets = files("sitemap_lint.report") / "html_assets"
    env = Environment(
        autoescape=select_autoescape(default=True, default_for_string=True),
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["number"] = lambda value: f"{value:,}"
    env.filters["bytes"] = _human_bytes
    env.globals["style"] = (assets / "report.css").read_text(encoding="utf-8")
    env.globals["script"] = (assets / "report.js").read_text(encoding="utf-8")
    return env.from_string((assets / "report.html.j2").read_text(encoding="utf-8"))


def _human_bytes(size: int) -> str:
    value = float(size)
    for unit in ("bytes", "KiB", "MiB", "GiB"):
        if value < 1024 or unit == "GiB":
            return f"{size:,} bytes" if unit == "bytes" else f"{value:,.1f} {unit}"
        value /= 1024
    return f"{size:,} bytes"


__all__ = ["ROW_LIMIT", "URL_LIMIT", "HtmlReporter", "embedded_json", "render"]

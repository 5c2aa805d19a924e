"""The diff's HTML page: a summary card, the chart of URLs added and removed by file,
and the changes, self-contained (the report's stylesheet and chart renderer). Needs the
``html`` extra. Every value from a sitemap is escaped by the template."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sitemap_lint import __version__
from sitemap_lint.diff.compare import Changes
from sitemap_lint.diff.gate import Limit, Passed
from sitemap_lint.diff.report import (
    PASSED_ADVICE,
    REWRITE_ADVICE,
    backdated_text,
    earlier_text,
    more_origins_text,
    rewrite_text,
    sections_text,
    shared_lastmod_text,
    value_changes_lines,
)

# Files named in the chart; the rest are summed in one bar.
CHART_FILES = 20


def render(
    old: str,
    new: str,
    changes: Changes,
    limits: list[Limit],
    found: list[Passed],
    now: datetime | None,
    show: int,
) -> str:
    from sitemap_lint.report.html import template
    from sitemap_lint.rules.dates import utc_text
    from sitemap_lint.support.printable import encodable

    page = template("diff.html.j2").render(
        version=__version__,
        old=old,
        new=new,
        now=utc_text(now) if now is not None else None,
        c=changes,
        limits=limits,
        passed=found,
        lastmods=shared_lastmod_text(changes) if changes.with_lastmod else None,
        earlier=earlier_text(changes),
        value_changes=[
            *value_changes_lines("priority", changes.priority_changes),
            *value_changes_lines("changefreq", changes.changefreq_changes),
        ],
        rewrites=[(r, rewrite_text(r)) for r in changes.rewrites],
        rewrite_advice=REWRITE_ADVICE,
        sections_added=(
            sections_text(changes.sections_added, show) if changes.added > show else ""
        ),
        sections_removed=(
            sections_text(changes.sections_removed, show) if changes.removed > show else ""
        ),
        more_origins=more_origins_text(changes, show) if len(changes.origins) > show else "",
        passed_advice=PASSED_ADVICE,
        backdated=[(b, backdated_text(b)) for b in changes.earlier_shown],
        chart=_chart(changes),
        show=show,
    )
    return encodable(page)


def _chart(changes: Changes) -> str:
    from sitemap_lint.report.html import CHART_CONFIG, svg

    rows = sorted(changes.by_file, key=lambda row: (-(row[1] + row[2]), row[0]))
    if not rows:
        return ""
    shown, rest = rows[:CHART_FILES], rows[CHART_FILES:]
    if rest:
        others = f"{len(rest)} other files"
        shown.append((others, sum(r[1] for r in rest), sum(r[2] for r in rest)))
    values: list[dict[str, Any]] = []
    for place, added, removed in shown:
        values.append({"file": place, "change": "added", "count": added})
        values.append({"file": place, "change": "removed", "count": -removed})
    spec = {
        "$schema": "https://vega.github.io/schema/vega-lite/v5.json",
        "data": {"values": values},
        "width": 420,
        "mark": {"type": "bar", "cornerRadiusEnd": 2},
        "encoding": {
            "y": {
                "field": "file",
                "type": "nominal",
                "sort": [row[0] for row in shown],
                "title": None,
                "axis": {"labelLimit": 240},
            },
            "x": {
                "field": "count",
                "type": "quantitative",
                "title": "URLs removed (left) and added (right)",
                # Whole numbers only: no more ticks than the axis spans URLs (a
                # minimum step alone still halves a span of two: -1, -0.5, 0...).
                "axis": {"format": ",d", "tickMinStep": 1, "tickCount": _ticks(shown)},
            },
            "color": {
                "field": "change",
                "type": "nominal",
                "title": None,
                "scale": {"domain": ["added", "removed"], "range": ["#2563eb", "#dc2626"]},
            },
        },
        "config": CHART_CONFIG,
    }
    return svg(spec, "diff")


def _ticks(rows: list[tuple[str, int, int]]) -> int:
    """Ticks of the axis of URLs removed (left) and added (right): at most one per URL."""
    span = max(row[1] for row in rows) + max(row[2] for row in rows)
    return max(1, min(span, 6))

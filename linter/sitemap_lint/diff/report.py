"""The diff's reports: text for people (rich) and JSON (a stable document, ``version`` 1).

The text shows file names and URLs as the check's text report does
(``support.printable``); the JSON carries them as they are (a byte of a name that is no
UTF-8 as ``\\xNN``).

They know the comparison's result (``compare.Changes``) and the thresholds passed
(``gate.Passed``), nothing of how the sides were read.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, TextIO

from sitemap_lint._version import __version__
from sitemap_lint.diff.compare import Backdated, Changes, Rewrite, Shown
from sitemap_lint.diff.gate import Limit, Passed
from sitemap_lint.support.words import plural

if TYPE_CHECKING:
    from rich.console import Console

FORMAT_VERSION = 1


def share_text(count: int, whole: int) -> str:
    """``count`` as a share of ``whole`` (``12.5%``), ``-`` of nothing."""
    return f"{100.0 * count / whole:.1f}%" if whole else "-"


def earlier_text(c: Changes) -> str:
    """``, 3 of them to an earlier moment`` when lastmods moved back (a page's lastmod
    only moves forward; a generator that sets it back dates pages from a stale source),
    ``, 5 dropped`` when URLs no longer carry one."""
    said = f", {c.lastmod_earlier:,} of them to an earlier moment" if c.lastmod_earlier else ""
    if c.lastmod_dropped:
        said += f", {c.lastmod_dropped:,}{'' if said else ' of them'} dropped"
    return said


PASSED_ADVICE = (
    "Review these changes (--show N names more of each); raise a threshold only if the "
    "deploy meant them: exit 1."
)
REWRITE_ADVICE = "each form is another URL to search engines: list the one canonical form"


def rewrite_text(rewrite: Rewrite) -> str:
    """``20 URLs removed are listed again (trailing slash added)``."""
    are = "is" if rewrite.count == 1 else "are"
    return f"{plural(rewrite.count, 'URL')} removed {are} listed again ({rewrite.how})"


def sections_text(sections: list[tuple[str, int]], show: int) -> str:
    """``https://example.com/blog/ 4,500, https://example.com/ 20 and 3 other
    sections``: the first ``show`` sections with their URLs."""
    said = ", ".join(f"{shown_url(section)} {count:,}" for section, count in sections[:show])
    rest = len(sections) - show
    return f"{said} and {rest:,} other section{'s' * (rest != 1)}" if rest > 0 else said


def shown_url(url: str) -> str:
    from sitemap_lint.support.printable import printable

    return printable(url)


def more_origins_text(c: Changes, show: int) -> str:
    """``997 URLs more, moved between 997 other pairs of origins (JSON lists every
    one)``: the origins past the first ``show``."""
    rest = c.origins[show:]
    urls = sum(n for _a, _b, n in rest)
    return (
        f"{plural(urls, 'URL')} more, moved between {len(rest):,} other "
        f"pair{'s' * (len(rest) != 1)} of origins (JSON lists every one)"
    )


def value_changes_lines(name: str, values: list[tuple[str, str, int]]) -> list[str]:
    """``priority 0.5 -> 0.8 on 4,000 URLs``: the most common changes of a value."""
    return [f"{name} {a} -> {b} on {plural(n, 'URL')}" for a, b, n in values]


def backdated_text(back: Backdated) -> str:
    """``2025-05-01T00:00:00Z -> 2025-04-01T00:00:00Z``: a lastmod moved back."""
    return f"{moment_text(back.old)} -> {moment_text(back.new)}"


_CYCLE = 146_097 * 86_400  # the seconds of 400 Gregorian years: the calendar repeats


def moment_text(seconds: int) -> str:
    """UTC seconds as a W3C datetime (``2026-12-04T09:30:00Z``), also a moment a zone
    puts in the year 0 or 10000 (``0001-01-01T00:00:00+14:00``), which Python's dates
    cannot hold: they are read 400 years on or back."""
    cycles = 0
    while seconds < _FIRST:
        seconds, cycles = seconds + _CYCLE, cycles - 1
    while seconds > _LAST:
        seconds, cycles = seconds - _CYCLE, cycles + 1
    moment = datetime.fromtimestamp(seconds, UTC)
    return f"{moment.year + 400 * cycles:04d}-{moment:%m-%dT%H:%M:%S}Z"


_FIRST = int(datetime(1, 1, 1, tzinfo=UTC).timestamp())
_LAST = int(datetime(9999, 12, 31, 23, 59, 59, tzinfo=UTC).timestamp())


def shared_lastmod_text(c: Changes) -> str:
    """What the new entries' lastmods share: the most common one, or that no two are
    the same; then how many fall in the hour before the run or later."""
    recent = share_text(c.recent, c.with_lastmod)
    if c.same_moment is None:
        return (
            f"no two new entries carry the same lastmod; {recent} of those with one carry a "
            "moment within the hour before the run or later"
        )
    moment, count = c.same_moment
    return (
        f"{share_text(count, c.with_lastmod)} of the new entries with a lastmod carry "
        f"{moment_text(moment)}; {recent} a moment within the hour before the run or later"
    )


def document(
    old: str, new: str, changes: Changes, limits: list[Limit], found: list[Passed]
) -> dict[str, Any]:
    """The JSON report's document."""

    def shown(items: list[Shown], other: str | None = None) -> list[dict[str, str]]:
        return [
            {"url": s.url, "file": s.place, **({other: s.other} if other else {})} for s in items
        ]

    c = changes
    return {
        "version": FORMAT_VERSION,
        "tool": {"name": "sitemap-lint", "version": __version__},
        "old": {"input": old, "files": c.old_files, "urls": c.old_urls},
        "new": {"input": new, "files": c.new_files, "urls": c.new_urls},
        "urls": {
            "added": c.added,
            "removed": c.removed,
            "common": c.common,
            "moved": c.moved,
            "added_first": shown(c.added_shown),
            "removed_first": shown(c.removed_shown),
            "moved_first": [{"url": s.url, "from": s.place, "to": s.other} for s in c.moved_shown],
        },
        "children": {"added": c.children_added, "removed": c.children_removed},
        "sections": {
            "added": [{"section": s, "urls": n} for s, n in c.sections_added],
            "removed": [{"section": s, "urls": n} for s, n in c.sections_removed],
        },
        "origins": [{"from": a, "to": b, "urls": n} for a, b, n in c.origins],
        "rewrites": [
            {"how": r.how, "urls": r.count, "first": {"old": r.old, "new": r.new}}
            for r in c.rewrites
        ],
        "lastmod": {
            "changed": c.lastmod_changed,
            "earlier": c.lastmod_earlier,
            "dropped": c.lastmod_dropped,
            "with_lastmod": c.with_lastmod,
            "most_common": (
                {"moment": moment_text(c.same_moment[0]), "entries": c.same_moment[1]}
                if c.same_moment
                else None
            ),
            "earlier_first": [
                {
                    "url": b.url,
                    "file": b.place,
                    "old": moment_text(b.old),
                    "new": moment_text(b.new),
                }
                for b in c.earlier_shown
            ],
            "within_the_last_hour": c.recent,
        },
        "priority_changed": c.priority_changed,
        "changefreq_changed": c.changefreq_changed,
        "priority_changes": [{"from": a, "to": b, "urls": n} for a, b, n in c.priority_changes],
        "changefreq_changes": [{"from": a, "to": b, "urls": n} for a, b, n in c.changefreq_changes],
        "hreflang": {"broken": c.hreflang_broken, "first": shown(c.hreflang_shown)},
        "by_file": [{"file": p, "added": a, "removed": r} for p, a, r in c.by_file],
        "thresholds": {
            "given": [str(limit) for limit in limits],
            "passed": [
                {
                    "threshold": str(p.limit),
                    "what": p.what,
                    "count": p.count,
                    "share": None if p.share is None else round(p.share, p.decimals(2)),
                }
                for p in found
            ],
        },
    }


def write_github(
    out: TextIO,
    old: str,
    new: str,
    changes: Changes,
    limits: list[Limit],
    found: list[Passed],
    show: int,
) -> None:
    """GitHub Actions workflow commands: a notice with what changed, then an error for
    each threshold passed, on the new side's file when it is one of the checkout."""
    from pathlib import Path

    from sitemap_lint.report.fingerprints import STDIN, ci_path, is_fetched
    from sitemap_lint.report.github import escape_data, escape_property
    from sitemap_lint.support.printable import printable_lines

    c = changes
    path = printable_lines(ci_path(new))
    on_file = new != STDIN and not is_fetched(new) and Path(new).is_file()
    where = f"file={escape_property(path)}," if on_file else ""
    said = [
        f"{printable_lines(old)} -> {printable_lines(new)}: {plural(c.added, 'URL')} added, "
        f"{c.removed:,} removed ({share_text(c.removed, c.old_distinct)} of the old URLs), "
        f"{c.moved:,} moved to another file; lastmod changed on {c.lastmod_changed:,} of "
        f"{c.common:,} URLs on both sides{earlier_text(c)}"
    ]
    said += [
        f"{plural(n, 'URL')} moved from {printable_lines(a)} to {printable_lines(b)}"
        for a, b, n in c.origins[:show]
    ]
    if len(c.origins) > show:
        said.append(more_origins_text(c, show))
    said += [
        f"{rewrite_text(r)}: {printable_lines(r.old)} -> {printable_lines(r.new)}"
        for r in c.rewrites
    ]
    if c.children_removed:
        said.append(f"{plural(len(c.children_removed), 'sitemap')} no longer listed")
    out.write(f"::notice {where}title=sitemap-lint diff::{escape_data('; '.join(said))}\n")
    for p in found:
        title = escape_property(f"sitemap-lint diff {p.limit}")
        message = (
            f"{p.counted()} ({p.share_text()}), past {p.limit}: review them in the text "
            "report (--format text); raise the threshold only if the deploy meant them"
        )
        out.write(f"::error {where}title={title}::{escape_data(message)}\n")
    if not found:
        given = (
            f"Within every threshold ({', '.join(map(str, limits))})"
            if limits
            else "No thresholds given (--max-removed, --max-lastmod-churn, ...): exit 0"
        )
        out.write(f"::notice {where}title=sitemap-lint diff::{escape_data(given)}\n")


def write_json(out: TextIO, document_: dict[str, Any]) -> None:
    from sitemap_lint.support.printable import encodable_json

    out.write(encodable_json(json.dumps(document_, ensure_ascii=False, indent=2)))
    out.write("\n")


def _console(out: TextIO, color: bool | None) -> Console:
    """A rich console on ``out`` that lets a closed pipe's BrokenPipeError through (rich
    would exit 1 on it) for the diff to end with the status the run has."""
    from sitemap_lint.support.pipes import pipe_console

    return pipe_console(
        file=out,
        force_terminal=color,
        no_color=color is False,
        highlight=False,
        soft_wrap=True,
        width=100,
    )


def write_text(
    out: TextIO,
    old: str,
    new: str,
    changes: Changes,
    limits: list[Limit],
    found: list[Passed],
    color: bool | None,
    show: int,
) -> None:
    """The text report, through rich (styled on a terminal, plain elsewhere); ``show``:
    how many sitemaps added and removed to name (the URLs shown are the comparison's)."""
    from rich.text import Text

    from sitemap_lint.support.printable import printable as shown

    console = _console(out, color)
    c = changes
    old, new = shown(old), shown(new)
    console.print(
        Text.assemble(
            ("OLD ", "bold"),
            f"{old} ({plural(c.old_files, 'file')}, {plural(c.old_urls, 'URL')})  ",
            ("NEW ", "bold"),
            f"{new} ({plural(c.new_files, 'file')}, {plural(c.new_urls, 'URL')})",
        )
    )
    console.print()
    rows = [
        ("URLs added", c.added, c.old_distinct, c.added_shown, c.sections_added, "green"),
        ("URLs removed", c.removed, c.old_distinct, c.removed_shown, c.sections_removed, "red"),
    ]
    for title, count, whole, items, sections, style in rows:
        console.print(
            Text.assemble(
                (f"{title:<14}", "bold"),
                (f"{count:>10,}", style),
                f"  {share_text(count, whole)} of the old URLs",
            )
        )
        for item in items:
            console.print(Text(f"  {shown(item.url)}  ({shown(item.place)})", style="dim"))
        if count > show and sections:  # more than are named: where all of them are
            console.print(Text(f"  by section: {sections_text(sections, show)}", style="dim"))
    console.print(
        Text.assemble(
            (f"{'URLs moved':<14}", "bold"),
            f"{c.moved:>10,}  to another file, of {c.common:,} URLs on both sides",
        )
    )
    for item in c.moved_shown:
        line = f"  {shown(item.url)}  ({shown(item.place)} -> {shown(item.other)})"
        console.print(Text(line, style="dim"))
    if max(c.old_files, c.new_files) > 1 and c.by_file:
        # Where URLs were added and removed, the files with most first (the first --show).
        files = sorted(c.by_file, key=lambda row: (-(row[1] + row[2]), row[0]))
        console.print(
            Text.assemble(
                ("By file:", "bold"), f" {plural(len(files), 'file')} with URLs added or removed"
            )
        )
        for place, added, removed in files[:show]:
            console.print(Text(f"  {shown(place)}  +{added:,} -{removed:,}", style="dim"))
    for title, listed in (
        ("Sitemaps added", c.children_added),
        ("Sitemaps removed", c.children_removed),
    ):
        if listed:
            console.print(Text.assemble((f"{title}:", "bold"), f" {len(listed)}"))
            for url in listed[:show]:
                console.print(Text(f"  {shown(url)}", style="dim"))
    for old_origin, new_origin, count in c.origins[:show]:
        console.print(
            Text.assemble(
                ("Host or scheme: ", "bold"),
                f"{plural(count, 'URL')} moved from {shown(old_origin)} to {shown(new_origin)}",
            )
        )
    if len(c.origins) > show:
        console.print(Text.assemble(("Host or scheme: ", "bold"), more_origins_text(c, show)))
    for rewrite in c.rewrites:
        console.print(
            Text.assemble(
                ("Written otherwise: ", "bold"), f"{rewrite_text(rewrite)}; {REWRITE_ADVICE}"
            )
        )
        console.print(Text(f"  {shown(rewrite.old)} -> {shown(rewrite.new)}", style="dim"))
    console.print()
    console.print(
        Text.assemble(
            ("lastmod", "bold"),
            f": changed on {c.lastmod_changed:,} of {c.common:,} URLs on both sides "
            f"({share_text(c.lastmod_changed, c.common)}){earlier_text(c)}",
        )
    )
    for back in c.earlier_shown:
        line = f"  {shown(back.url)}  ({shown(back.place)}): {backdated_text(back)}"
        console.print(Text(line, style="dim"))
    if c.with_lastmod:
        console.print(f"  {shared_lastmod_text(c)}")
    console.print(
        Text.assemble(
            ("priority", "bold"),
            f" changed on {c.priority_changed:,}, ",
            ("changefreq", "bold"),
            f" on {c.changefreq_changed:,} URLs",
        )
    )
    for name, values in (("priority", c.priority_changes), ("changefreq", c.changefreq_changes)):
        for line in value_changes_lines(name, values):
            console.print(Text(f"  {line}", style="dim"))
    if c.hreflang_broken:
        console.print(
            Text.assemble(
                ("hreflang", "bold"),
                f": {plural(c.hreflang_broken, 'alternate')} "
                f"{'names' if c.hreflang_broken == 1 else 'name'} a URL the new side no longer lists",
            )
        )
        for item in c.hreflang_shown:
            console.print(Text(f"  on {shown(item.url)}  ({shown(item.place)})", style="dim"))
    console.print()
    if found:
        console.print(
            Text(f"{len(found)} threshold{'s' * (len(found) != 1)} passed:", style="bold red")
        )
        for p in found:
            console.print(f"  {p.limit}: {p.counted()} ({p.share_text()})")
        console.print(PASSED_ADVICE)
    elif limits:
        console.print(
            Text(f"Within every threshold ({', '.join(map(str, limits))}).", style="green")
        )
    else:
        console.print("No thresholds given (--max-removed, --max-lastmod-churn, ...): exit 0.")

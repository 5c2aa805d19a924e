"""The diff's core, apart from command-line parsing: read both sides, compare, report,
and the exit status (0 within every threshold, 1 past one; errors raise UsageError)."""

from __future__ import annotations

import io
import sys
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from sitemap_lint.diff.gate import Limit, Passed, passed
from sitemap_lint.errors import UsageError
from sitemap_lint.sets.runner import SetSettings
from sitemap_lint.settings.parsing import resolve_color

if TYPE_CHECKING:
    from sitemap_lint.diff.compare import Changes

FORMATS = ("text", "json", "html", "github")


@dataclass
class DiffSettings:
    old: str
    new: str
    format: str = "text"
    output_file: str | None = None  # None: standard output
    show: int = 10
    now: datetime | None = None
    limits: list[Limit] = field(default_factory=list)
    sets: SetSettings = field(default_factory=SetSettings)
    color: bool | None = None  # None: as --color auto would decide (NO_COLOR, FORCE_COLOR)
    # --old-map, --new-map: (URL prefix, directory) for one side only, before --map's
    old_maps: tuple[tuple[str, Path], ...] = ()
    new_maps: tuple[tuple[str, Path], ...] = ()


def execute(settings: DiffSettings, out: TextIO | None = None) -> int:
    """Read both sides, compare, report; the exit status (0 within every threshold, 1
    past one), also when the report's reader stops reading early."""
    from sitemap_lint.diff.compare import compare
    from sitemap_lint.diff.sides import read_sides, refuse_unread_sitemaps

    if settings.format not in FORMATS:
        raise UsageError(
            f"--format: unknown format {settings.format!r}; choose one of {', '.join(FORMATS)}"
        )
    if settings.format == "html":  # without the html extra: exit 2 before reading a side
        import sitemap_lint.report.html  # noqa: F401
    if settings.show < 0:
        raise UsageError(f"--show {settings.show}: give a count of 0 or more")
    if settings.old == settings.new == "-":
        raise UsageError(
            "OLD and NEW are both standard input (-), which is read once; give one side as a file"
        )
    _refuse_writing_a_side(settings)
    sets = settings.sets
    old, new = read_sides(
        [settings.old],
        replace(sets, maps=(*settings.old_maps, *sets.maps)),
        [settings.new],
        replace(sets, maps=(*settings.new_maps, *sets.maps)),
    )
    now = settings.now or datetime.now(UTC)
    try:
        refuse_unread_sitemaps(old, new)
        changes = compare(old, new, now, settings.show)
    finally:
        old.store.close()
        new.store.close()
    found = passed(changes, settings.limits)
    status = 1 if found else 0
    if settings.output_file is not None:
        buffer = io.StringIO()
        _write_report(buffer, settings, changes, found, now, color=False)
        _write_output_file(settings.output_file, buffer.getvalue())
        return status
    target = out or sys.stdout
    color = resolve_color("auto", target) if settings.color is None else settings.color
    from sitemap_lint.support.pipes import writing_to

    with writing_to(target):
        _write_report(target, settings, changes, found, now, color)
    return status


def _write_report(
    target: TextIO,
    settings: DiffSettings,
    changes: Changes,
    found: list[Passed],
    now: datetime,
    color: bool | None,
) -> None:
    from sitemap_lint.diff import report

    old, new, limits = settings.old, settings.new, settings.limits
    if settings.format == "json":
        report.write_json(target, report.document(old, new, changes, limits, found))
    elif settings.format == "github":
        report.write_github(target, old, new, changes, limits, found, settings.show)
    elif settings.format == "html":
        from sitemap_lint.diff import html

        # The time only as --now gives it: the same sides give the same page.
        shown = settings.now
        target.write(html.render(old, new, changes, limits, found, shown, settings.show))
    else:
        report.write_text(target, old, new, changes, limits, found, color, settings.show)


def _write_output_file(output_file: str, text: str) -> None:
    from sitemap_lint.fix.write import WriteError, write_output

    try:
        write_output(Path(output_file), text.encode("utf-8"))
    except WriteError as error:
        raise UsageError(f"--output-file {error}") from None


def _refuse_writing_a_side(settings: DiffSettings) -> None:
    """A diff never writes to either side: no report over one of their files."""
    if settings.output_file is None:
        return
    target = Path(settings.output_file).resolve()
    for side in (settings.old, settings.new):
        if "://" in side:
            continue
        path = Path(side).resolve()
        if target == path or (path.is_dir() and path in target.parents):
            raise UsageError(
                f"--output-file {settings.output_file}: inside {side}, a side of the diff; "
                "write the report elsewhere"
            )
    for flag, maps in (
        ("--map", settings.sets.maps),
        ("--old-map", settings.old_maps),
        ("--new-map", settings.new_maps),
    ):
        for prefix, directory in maps:
            if directory.resolve() in target.parents:
                raise UsageError(
                    f"--output-file {settings.output_file}: inside {directory}, which"
                    f" {flag} {prefix}={directory} reads for a side of the diff; write the"
                    " report elsewhere"
                )

"""The diff's core, apart from command-line parsing: read both sides, compare, report,
and the exit status (0 within every threshold, 1 past one; errors raise UsageError)."""

from __future__ import annotations

import io
import sys
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import TextIO

from sitemap_lint.diff.gate import Limit, passed
from sitemap_lint.errors import UsageError
from sitemap_lint.sets.runner import SetSettings

FORMATS = ("text", "json", "html")


@dataclass
class DiffSettings:
    old: str
    new: str
    format: str = "text"
    output_file: str | None = None
    show: int = 10
    now: datetime | None = None
    limits: list[Limit] = field(default_factory=list)
    sets: SetSettings = field(default_factory=SetSettings)
    color: bool | None = None
    # --old-map, --new-map: (URL prefix, directory) for one side only, before --map's
    old_maps: tuple[tuple[str, Path], ...] = ()
    new_maps: tuple[tuple[str, Path], ...] = ()


def execute(settings: DiffSettings, out: TextIO | None = None) -> int:
    from sitemap_lint.diff import report
    from sitemap_lint.diff.compare import compare
    from sitemap_lint.diff.sides import read_sides

    if settings.format not in FORMATS:
        raise UsageError(f"unknown format {settings.format!r}; choose {', '.join(FORMATS)}")
    if settings.format == "html":  # without the html extra: exit 2 before reading a side
        import sitemap_lint.report.html  # noqa: F401
    if settings.show < 0:
        raise UsageError(f"--show {settings.show}: give a count of 0 or more")
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
        changes = compare(old, new, now, settings.show)
    finally:
        old.store.close()
        new.store.close()
    found = passed(changes, settings.limits)
    buffer = io.StringIO() if settings.output_file else None
    target = buffer or out or sys.stdout
    if settings.format == "json":
        document = report.document(settings.old, settings.new, changes, settings.limits, found)
        report.write_json(target, document)
    elif settings.format == "html":
        from sitemap_lint.diff import html

        target.write(html.render(settings.old, settings.new, changes, settings.limits, found, now))
    else:
        color = False if buffer is not None else settings.color
        report.write_text(
            target, settings.old, settings.new, changes, settings.limits, found, color
        )
    if buffer is not None and settings.output_file is not None:
        from sitemap_lint.fix.write import WriteError, write_atomic

        try:
            write_atomic(Path(settings.output_file), buffer.getvalue().encode("utf-8"), create=True)
        except WriteError as error:
            raise UsageError(f"--output-file {error}") from None
    return 1 if found else 0


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

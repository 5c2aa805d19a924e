"""The core of a run, apart from command-line parsing: settings, check, report, exit status.

Command-line values win over the configuration file's; a value left as None in
``RunSettings`` was not given on the command line.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TextIO

from sitemap_lint.errors import UsageError
from sitemap_lint.finding import Severity
from sitemap_lint.inputs.reader import InputError, expand, is_url

EXIT_CLEAN = 0
EXIT_FINDINGS = 1
EXIT_TROUBLE = 2

COLOR_MODES = ("auto", "always", "never")


@dataclass(frozen=True)
class RunSettings:
    paths: list[str]
    format: str | None = None
    sitemap_url: str | None = None
    now: str | None = None
    xsd_engine: str | None = None
    color: str = "auto"
    config: str | None = None
    isolated: bool = False
    select: str | None = None  # comma-separated codes or prefixes
    extend_select: str | None = None
    ignore: str | None = None
    profile: str | None = None
    fail_on: str | None = None
    exit_zero: bool = False
    statistics: bool = False
    quiet: bool = False
    output_file: str | None = None
    # Sets: following index and robots.txt children, local maps, robots.txt knowledge, limits.
    follow: bool = False
    maps: tuple[str, ...] = ()  # URL_PREFIX=DIR
    robots: tuple[str, ...] = ()
    max_depth: int = 3
    max_files: int = 10_000
    max_bytes: int = 20 * 1024**3
    jobs: int = 0
    timeout: float = 10.0


def execute(settings: RunSettings, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Check every input and write the report; return the exit status."""
    from sitemap_lint import config as configuration
    from sitemap_lint import xsd
    from sitemap_lint.checker import Options, check_source
    from sitemap_lint.profiles import AGENTS, DEFAULT, checked
    from sitemap_lint.report import REPORTERS
    from sitemap_lint.selection import RuleSelection, Selection, split_codes

    err = err or sys.stderr
    config = configuration.resolve(settings.config, settings.isolated)
    format_name = settings.format or config.format or "text"
    reporter_class = REPORTERS.get(format_name)
    if reporter_class is None:
        raise UsageError(f"unknown format {format_name!r}; choose one of {', '.join(REPORTERS)}")
    engine_name = settings.xsd_engine or config.xsd_engine or "libxml2"
    if engine_name not in xsd.ENGINES:
        raise UsageError(f"unknown XSD engine {engine_name!r}; choose {' or '.join(xsd.ENGINES)}")
    fail_on = _level(settings.fail_on, "--fail-on") or config.fail_on or Severity.ERROR
    if settings.color not in COLOR_MODES:
        raise UsageError(f"--color {settings.color!r}: choose one of {', '.join(COLOR_MODES)}")

    def codes(text: str | None, flag: str) -> tuple[str, ...] | None:
        return None if text is None else split_codes(text, flag)

    selection = Selection(
        layers=(
            RuleSelection(config.select, config.extend_select, config.ignore),
            RuleSelection(
                codes(settings.select, "--select"),
                codes(settings.extend_select, "--extend-select") or (),
                codes(settings.ignore, "--ignore") or (),
            ),
        ),
        profile=checked(settings.profile) if settings.profile else config.profile or DEFAULT,
        severity=config.severity,
        per_file_ignores=config.per_file_ignores,
    )
    now = parse_now(settings.now)
    url = parse_sitemap_url(settings.sitemap_url)
    profile = checked(settings.profile) if settings.profile else config.profile or DEFAULT
    local = [p for p in settings.paths if not is_url(p)]
    sources = expand(local)
    agent = AGENTS.get(profile, "Googlebot")
    enabled = selection.enabled()
    if _is_set_run(settings, config, len(sources)):
        from sitemap_lint import sets

        progress = _progress(format_name, settings, err)
        runner = sets.SetRunner(
            _set_settings(settings, config),
            Options(now=now, agent=agent, enabled=enabled, selection=selection),
            engine_name,
            lambda name: url or config.sitemap_url_for(name),
            progress,
        )
        try:
            results = runner.run(settings.paths)
        finally:
            if progress is not None:
                progress.close()
    else:
        engine = xsd.load(engine_name)
        results = []
        for source in sources:
            options = Options(
                now=now,
                sitemap_url=url or config.sitemap_url_for(source.name),
                agent=agent,
                enabled=enabled,
                selection=selection,
            )
            results.append(check_source(source, options, engine))

    _write_report(reporter_class, format_name, results, settings, out or sys.stdout)
    _write_summary(results, format_name, settings, err)
    worst = max((f.severity for r in results for f in r.findings), default=None)
    if settings.exit_zero or worst is None or worst < fail_on:
        return EXIT_CLEAN
    return EXIT_FINDINGS


def _is_set_run(settings: RunSettings, config, file_count: int) -> bool:
    """A set run fetches, follows, knows a robots.txt, or checks several files; a single
    local file keeps the fast single-file path."""
    return (
        file_count > 1
        or settings.follow
        or config.follow
        or bool(settings.robots or config.robots)
        or bool(settings.maps or config.maps)
        or any(is_url(a) or a.lower().endswith("robots.txt") for a in settings.paths)
    )


def _set_settings(settings: RunSettings, config):
    """The set options: the command line's, after the configuration file's maps and
    robots.txt files."""
    from sitemap_lint.sets import SetSettings

    if settings.max_depth < 0:
        raise UsageError(f"--max-depth {settings.max_depth}: give 0 (no following) or more")
    for flag, value in (
        ("--max-files", settings.max_files),
        ("--max-bytes", settings.max_bytes),
    ):
        if value < 1:
            raise UsageError(f"{flag} {value}: give a positive number")
    if settings.jobs < 0:
        raise UsageError(f"--jobs {settings.jobs}: give 0 (one per core) or more")
    if not 0 < settings.timeout <= 600:
        raise UsageError(f"--timeout {settings.timeout}: give seconds between 0 and 600")
    return SetSettings(
        follow=settings.follow or config.follow,
        maps=(*tuple(parse_map(text) for text in settings.maps), *config.maps),
        robots=(*config.robots, *settings.robots),
        max_depth=settings.max_depth,
        max_files=settings.max_files,
        max_bytes=settings.max_bytes,
        workers=settings.jobs,
        timeout=settings.timeout,
    )


def parse_map(text: str, must_exist: bool = True) -> tuple[str, Path]:
    """``URL_PREFIX=DIR`` from --map: an http(s) URL prefix and an existing directory
    (a configuration file may name one the build has not made yet)."""
    prefix, equals, directory = text.partition("=")
    if not equals or not directory:
        raise UsageError(f"--map {text!r}: write URL_PREFIX=DIR, e.g. https://example.com/=dist")
    from urllib.parse import urlsplit

    if not is_url(prefix) or not urlsplit(prefix).hostname:
        raise UsageError(f"--map {text!r}: the prefix must be an http(s) URL")
    path = Path(directory)
    if must_exist and not path.is_dir():
        raise UsageError(f"--map {text!r}: {directory} is not a directory")
    if not prefix.endswith("/"):
        prefix += "/"
    return prefix, path


def _progress(format_name: str, settings: RunSettings, err: TextIO):
    """A progress bar on stderr for a person at a terminal; None otherwise."""
    if format_name not in ("text", "concise") or settings.quiet:
        return None
    try:
        if not err.isatty():
            return None
    except (AttributeError, ValueError):
        return None
    from sitemap_lint.progress import ProgressBar

    return ProgressBar(err)


def _write_report(reporter_class, format_name, results, settings, stdout: TextIO) -> None:
    # The text report's summary is dropped (--quiet) or written to stderr by
    # _write_summary (--output-file); files without findings are not shown, so a
    # clean quiet run prints nothing.
    summary = not (format_name == "text" and (settings.quiet or settings.output_file))
    if settings.output_file is None:
        reporter_class(stdout, resolve_color(settings.color, stdout), summary).report(results)
        return
    try:
        with open(settings.output_file, "w", encoding="utf-8", newline="") as handle:
            reporter_class(handle, resolve_color(settings.color, handle), summary).report(results)
    except OSError as error:
        reason = error.strerror or error
        raise UsageError(f"--output-file {settings.output_file}: cannot write: {reason}") from None


def _write_summary(results, format_name: str, settings: RunSettings, err: TextIO) -> None:
    """Totals on stderr when the report went to a file; counts per rule with
    ``--statistics`` unless the text report on stdout already shows them."""
    if settings.quiet and not settings.statistics:
        return
    from sitemap_lint.report.base import Summary

    summary = Summary.of(results)
    if settings.output_file is not None and not settings.quiet:
        files = summary.files_checked
        if summary.errors or summary.warnings or summary.infos:
            err.write(
                f"{files}: {summary.errors} error(s), {summary.warnings} warning(s), "
                f"{summary.infos} info; report written to {settings.output_file}\n"
            )
        else:
            err.write(f"{files}: no problems found; report written to {settings.output_file}\n")
    in_report = format_name == "text" and settings.output_file is None and not settings.quiet
    if settings.statistics and not in_report:
        for rule, count in summary.by_rule.items():
            err.write(f"{count:>7}  {rule}\n")


def resolve_color(mode: str, stream: TextIO, environ=None) -> bool | None:
    """Colour or not: ``NO_COLOR`` always wins, then the ``--color`` flag; with ``auto``,
    ``FORCE_COLOR`` turns it on, and otherwise only a terminal gets it (None lets the
    terminal library decide, e.g. for ``TERM=dumb``)."""
    environ = os.environ if environ is None else environ
    if environ.get("NO_COLOR"):
        return False
    if mode != "auto":
        return mode == "always"
    if environ.get("FORCE_COLOR"):
        return True
    try:
        return None if stream.isatty() else False
    except (AttributeError, ValueError):
        return False


def _level(text: str | None, flag: str) -> Severity | None:
    from sitemap_lint.selection import LEVELS

    if text is None:
        return None
    if text not in LEVELS:
        raise UsageError(f"{flag} {text!r}: choose one of {', '.join(LEVELS)}")
    return Severity.parse(text)


def parse_now(text: str | None) -> datetime:
    if text is None:
        return datetime.now(UTC)
    try:
        moment = datetime.fromisoformat(text.strip())
    except ValueError:
        raise UsageError(
            f"--now {text!r} is not a timestamp; write e.g. 2024-05-08 or 2024-05-08T10:00:00Z"
        ) from None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def parse_sitemap_url(text: str | None, where: str = "--sitemap-url"):
    """The URL a sitemap is served at, checked like a ``loc``; ``where`` names the flag
    or the configuration key in the message of the UsageError."""
    if text is None:
        return None
    from sitemap_lint.model import Node
    from sitemap_lint.rules.urls import check_url

    problems: list = []

    class Collect:
        def add(self, finding, covers=None):
            problems.append(finding)

    parsed = check_url(text, Node("", "sitemap-url", {}, 1, 1), Collect())
    errors = [p for p in problems if p.severity is Severity.ERROR]
    if parsed is None or errors:
        reason = errors[0].message if errors else "not an absolute http(s) URL"
        raise UsageError(f"{where} {text!r} is not usable: {reason}")
    return parsed


__all__ = [
    "EXIT_CLEAN",
    "EXIT_FINDINGS",
    "EXIT_TROUBLE",
    "InputError",
    "RunSettings",
    "UsageError",
    "execute",
]

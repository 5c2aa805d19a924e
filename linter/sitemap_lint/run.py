"""The core of a run, apart from command-line parsing: settings, check, report, exit status.

Command-line values win over the configuration file's; a value left as None in
``RunSettings`` was not given on the command line. ``RunSettings`` and the checks of
its values are declared in settings.py.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field, replace
from operator import attrgetter
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, TextIO

from sitemap_lint.errors import UsageError
from sitemap_lint.finding import Finding, Severity, sort_key
from sitemap_lint.inputs.reader import (
    STDIN,
    InputError,
    Source,
    expand,
    is_url,
    read_standard_input,
    standard_input,
)
from sitemap_lint.settings.declared import (
    LIVE_CRAWL_BUDGET,
    RANGED,
    RUN_SETTINGS,
    RunSettings,
    given_empty,
    parse,
)
from sitemap_lint.settings.parsing import (
    COLOR_MODES,
    parse_map,
    parse_now,
    parse_sitemap_url,
    resolve_color,
)
from sitemap_lint.support.locations import names_robots
from sitemap_lint.support.printable import printable
from sitemap_lint.support.records import Frozen, Mutable
from sitemap_lint.support.words import plural

_SEVERITY = attrgetter("severity")

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from datetime import datetime

    from sitemap_lint.domain.urls import ParsedURL
    from sitemap_lint.engine.results import FileResult
    from sitemap_lint.fix.runner import FixRun
    from sitemap_lint.inputs.lines import SourceLine
    from sitemap_lint.live.audit import LiveSettings, LiveStats
    from sitemap_lint.report.base import FileReport, Reporter, RunInfo
    from sitemap_lint.report.baseline import Baseline, Matched
    from sitemap_lint.report.progress import ProgressBar
    from sitemap_lint.sets.cluster import DaskExecutor
    from sitemap_lint.sets.runner import SetSettings
    from sitemap_lint.settings.config import Config
    from sitemap_lint.settings.options import Options
    from sitemap_lint.settings.selection import Selection

EXIT_CLEAN = 0
EXIT_FINDINGS = 1
EXIT_TROUBLE = 2


@dataclass(init=False, repr=False, eq=False)
class Outcome(Mutable):
    """What a run found, before any report is written."""

    results: list[FileResult]  # in report order
    exit_code: int  # EXIT_CLEAN or EXIT_FINDINGS
    # The local files and standard input that were checked, by name: what can be
    # read again to show the source of findings.
    sources: dict[str, Source] = field(default_factory=dict)
    baseline: Matched | None = None  # what --baseline matched, when given
    live: LiveStats | None = None  # what --live requested and got

    def __init__(
        self,
        results: list[FileResult],
        exit_code: int,
        sources: dict[str, Source] | None = None,
        baseline: Matched | None = None,
        live: LiveStats | None = None,
    ) -> None:
        self.results = results
        self.exit_code = exit_code
        self.sources = {} if sources is None else sources
        self.baseline = baseline
        self.live = live


def execute(settings: RunSettings, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Check every input and write the report; return the exit status."""
    from sitemap_lint.report import REPORTERS
    from sitemap_lint.settings import config as configuration

    # Each value is checked by its declaration (settings.py), in this order, after the
    # configuration file (whose values were checked when it was read).
    err = err or sys.stderr
    for setting in RUN_SETTINGS:
        value = getattr(settings, setting.name)
        if given_empty(value):  # --profile "" is refused as any unknown one
            setting.parse(value)
    if settings.diff and settings.fix_only:  # one writes the fixes, the other nothing
        raise UsageError(
            "--diff and --fix-only cannot be used together: --diff writes nothing, "
            "--fix-only writes the fixes; give one of them"
        )
    settings = settings.replace(output_file=parse("output_file", settings.output_file))
    _refuse_report_options_without_a_report(settings)
    config = configuration.resolve(settings.config, settings.isolated)
    sources = local_inputs(settings)  # once for every pass
    _refuse_writing_over_what_is_read(settings, config, sources)
    format_name = parse("format", settings.format or config.format or "text")
    reporter_class = REPORTERS[format_name]
    show_source = format_name == "text" and (
        config.show_source if settings.show_source is None else settings.show_source
    )
    fix = config.fix if settings.fix is None else settings.fix
    fixing = fix or settings.fix_only or settings.diff
    stdin = _read_stdin(settings, fixing=fixing) if STDIN in settings.paths else None
    out = out or sys.stdout
    from sitemap_lint.support.pipes import writing_to

    if fixing:
        from sitemap_lint.fix import runner

        fixed, stdin = _fix(settings, config, sources, stdin, out, err)
        # The fixer's passes read every rule, whatever the selection.
        _note_slow_checks(lambda: None, err)
        if settings.diff or settings.fix_only or fixed.unread:
            # A file that cannot be read cannot be checked either: no report, as without
            # --fix; what was written is still said.
            if not (settings.diff or settings.fix_only):
                _say_fixed(fixed, settings, err)
            return _fix_status(settings, fixed)
        if stdin is not None:  # the fixed file is on stdout: the report goes to stderr
            out = err
    outcome = compute(
        settings, config, lambda: _progress(format_name, settings, err), stdin, sources
    )
    if not fixing:
        _note_slow_checks(lambda: check_plan(settings, config).enabled, err)
    results = outcome.results
    if fixing:
        outcome = _with_refusals(outcome, fixed, settings, config)
    if any(f.fix is not None for r in outcome.results for f in r.findings):
        from sitemap_lint.fix import runner

        # Fixable is what --fix fixes: the local files (a fetched one has no file).
        files = runner.fixable_files(outcome.results, outcome.sources)
        outcome.results = runner.unfixable_dropped(outcome.results, files)
        unsafe = unsafe_fixes(settings, config)
        outcome.results = runner.emptying_dropped(outcome.results, unsafe)
        if outcome.live is not None:  # the audit's fixes that --fix's first pass takes
            outcome.results = runner.answered_after_static(outcome.results, files)
        # Exact edits (JSON, SARIF), and fixable counts of what --fix applies (every format).
        outcome.results = runner.resolved(outcome.results, files)
    results = outcome.results
    source = source_lines(outcome.sources) if show_source else None
    # The status the run ends with, as the report says it: a file --fix could not write
    # (said on stderr) makes it 2 whatever the findings.
    status = EXIT_TROUBLE if fixing and fixed.trouble else outcome.exit_code
    run = _run_info(settings, config, status, outcome.baseline, outcome.live)
    with writing_to(out):
        _write_report(reporter_class, format_name, results, settings, out, source, run)
    if format_name == "sarif":
        _note_code_scanning_limit(results, err)
    if settings.write_baseline and not settings.quiet:
        recorded = sum(len(result.findings) for result in outcome.results)
        if outcome.baseline is not None:
            recorded += outcome.baseline.matched
        err.write(
            f"Recorded {plural(recorded, 'finding')} in the baseline {printable(settings.write_baseline)}.\n"
        )
    _write_summary(results, format_name, settings, err)
    if fixing:
        _say_fixed(fixed, settings, err)
    return status


def _refuse_report_options_without_a_report(settings: RunSettings) -> None:
    """``--diff`` and ``--fix-only`` make no report: a file named to hold it (or the
    baseline of its findings) would be left unwritten without a word."""
    mode = "--diff" if settings.diff else "--fix-only" if settings.fix_only else None
    if mode is None:
        return
    for flag, value, reason in (
        ("--write-baseline", settings.write_baseline, "there is nothing to record"),
        ("--output-file", settings.output_file, "there is nothing to write"),
    ):
        if value is not None:
            raise UsageError(
                f"{flag} and {mode} cannot be used together: {mode} makes no report, so"
                f" {reason}; give one of them"
            )


def _refuse_writing_over_what_is_read(
    settings: RunSettings, config: Config, sources: list[Source]
) -> None:
    """Exit 2 before anything is read when the report (``--output-file``) or the baseline
    (``--write-baseline``) would replace a file the run reads (a local input, the file
    standard input stands for, the baseline, a robots.txt, the configuration file, the
    live audit's cache), or the report the baseline written. A baseline may be written
    where it is read: that refreshes it."""
    report, written_baseline = settings.output_file, settings.write_baseline
    if not (report or written_baseline):
        return
    # What each file is, the options whose file may not replace it, and what replacing
    # it would do (None: the report or the baseline would replace it).
    read: list[tuple[str, str, tuple[str | None, ...], str | None]] = []
    named = [(str(source.path), source.name) for source in sources if source.path is not None]
    if settings.stdin_filename:
        named.append((settings.stdin_filename, settings.stdin_filename))
    for path, name in named:
        replaced = "writing there would replace the sitemap"
        read.append((path, f"the input {name}", (report, written_baseline), replaced))
    baseline = settings.baseline or config.baseline
    if baseline:
        read.append(
            (baseline, f"the baseline the run reads (--baseline {baseline})", (report,), None)
        )
    for robots in (*settings.robots, *config.robots):
        if not is_url(robots):
            what = f"the robots.txt the run reads (--robots {robots})"
            read.append((robots, what, (report, written_baseline), None))
    if config.path is not None:
        what = f"the configuration file {config.path}"
        read.append((str(config.path), what, (report, written_baseline), None))
    if (settings.live or config.live) and not settings.no_live_cache:
        from sitemap_lint.live.cache import default_path

        cache = settings.live_cache or config.live_cache or str(default_path())
        what = f"the cache the live audit reads and writes ({cache})"
        read.append((cache, what, (report, written_baseline), None))
    if written_baseline:
        what = f"the baseline the run writes (--write-baseline {written_baseline})"
        read.append((written_baseline, what, (report,), None))
    for path, what, refused, replacing in read:
        for flag, target, thing in (
            ("--output-file", report, "the report"),
            ("--write-baseline", written_baseline, "the baseline"),
        ):
            if target and target in refused and os.path.realpath(path) == os.path.realpath(target):
                replaced = replacing or f"{thing} would replace it"
                raise UsageError(f"{flag} {target}: it is {what}; {replaced}: name another file")


def _refuse_writing_over_what_the_set_read(
    settings: RunSettings, results: list[FileResult]
) -> None:
    """Exit 2, before the baseline or the report is written, when either would replace a
    local file the set read through ``--map`` (known only once the set is checked): one
    an index or a robots.txt lists, or an input given as a URL."""
    targets = [
        (flag, target, thing)
        for flag, target, thing in (
            ("--output-file", settings.output_file, "the report"),
            ("--write-baseline", settings.write_baseline, "the baseline"),
        )
        if target and target != STDIN
    ]
    if not targets:
        return
    for result in results:
        if is_url(result.name) or result.name == STDIN:
            continue  # fetched, or standard input
        for flag, target, thing in targets:
            if os.path.realpath(result.name) == os.path.realpath(target):
                how = (
                    "given as a URL"
                    if result.parent is None
                    else f"listed by {results[result.parent].name}"
                )
                raise UsageError(
                    f"{flag} {target}: it is {result.name}, a sitemap the run reads ({how});"
                    f" {thing} would replace it: name another file"
                )


def _fix(
    settings: RunSettings,
    config: Config,
    sources: list[Source],
    stdin: Source | None,
    out: TextIO,
    err: TextIO,
) -> tuple[FixRun, Source | None]:
    """Fix the local inputs (``--fix``, ``--fix-only``) or print the diff (``--diff``);
    the fixed standard input goes to ``out`` and is what the report then checks."""
    from sitemap_lint.fix.runner import fix_files
    from sitemap_lint.support.pipes import write_bytes, writing_to

    plan = check_plan(settings, config)
    checked = sources
    if stdin is not None:
        sources = [stdin if source.is_stdin else source for source in sources]
    first = _first_check(settings, config, stdin, checked, plan, err)
    sources = _with_mapped_files(settings, config, sources, first)
    answered = None
    if plan.live is not None and first is not None:
        from sitemap_lint.fix.runner import answered_fixes

        answered = answered_fixes(first)
    unsafe = unsafe_fixes(settings, config)
    fixed = fix_files(
        sources, plan, config, unsafe=unsafe, write=not settings.diff, out=out, answered=answered
    )
    for line in fixed.trouble:
        err.write(f"sitemap-lint: error: {printable(line)}\n")
    for line in fixed.unshown:
        err.write(f"sitemap-lint: warning: {printable(line)}\n")
    if fixed.stdin is not None:
        with writing_to(out):
            write_bytes(out, fixed.stdin)
            if stdin is not None:
                _pass_rest(stdin, out)
        stdin = Source(_stdin_name(settings), None, data=fixed.stdin)
    if settings.diff and not settings.quiet:
        if fixed.fixed:
            err.write(
                f"Would fix {plural(fixed.fixed, 'finding')} in {plural(fixed.files, 'file')}.\n"
            )
        else:
            err.write("No fixes available.\n")
    if settings.fix_only and not settings.quiet:
        err.write(f"Fixed {plural(fixed.fixed, 'finding')} in {plural(fixed.files, 'file')}.\n")
    for name, refusal in fixed.refused.items():
        if settings.diff or settings.fix_only:
            for finding in refusal:
                err.write(f"{printable(name)}: {finding.code} {printable(finding.message)}\n")
    return fixed, stdin


def _first_check(
    settings: RunSettings,
    config: Config,
    stdin: Source | None,
    sources: list[Source],
    plan: CheckPlan,
    err: TextIO,
) -> list[FileResult] | None:
    """The inputs checked as the report checks them, before any fix, when the fixes
    need it (None when not): with ``--map``, to find the set's local files; with
    ``--live``, for the fixes that rest on the audit's answers (``fix.model.answered``),
    which the fix passes cannot find again."""
    if plan.live is None and not _set_settings(settings, config).maps:
        return None
    # The report's run writes the baseline; --fix fixes what a baseline accepts too.
    discovery = settings.replace(write_baseline=None, baseline=None)
    format_name = parse("format", settings.format or config.format or "text")
    progress = None if plan.live is None else lambda: _progress(format_name, settings, err)
    return compute(discovery, config, progress, stdin, sources).results


def _with_mapped_files(
    settings: RunSettings,
    config: Config,
    sources: list[Source],
    checked: list[FileResult] | None,
) -> list[Source]:
    """With ``--map``: ``sources`` and the local files the set reads through the maps
    (a local index's children), found in ``checked``, the set checked as the report
    checks it."""
    maps = _set_settings(settings, config).maps
    if not maps or checked is None:
        return sources
    from sitemap_lint.fix.runner import with_mapped_files

    return with_mapped_files(sources, checked, maps)


def unsafe_fixes(settings: RunSettings, config: Config) -> bool:
    """Whether the run applies (or shows) the unsafe fixes: the command line decides,
    else the configuration."""
    given = settings.unsafe_fixes
    return bool(config.unsafe_fixes if given is None else given)


def _say_fixed(fixed: FixRun, settings: RunSettings, err: TextIO) -> None:
    """``--fix``: how many findings were fixed, in how many files (nothing when none)."""
    if fixed.fixed and not settings.quiet:
        err.write(f"Fixed {plural(fixed.fixed, 'finding')} in {plural(fixed.files, 'file')}.\n")


def _fix_status(settings: RunSettings, fixed: FixRun) -> int:
    """``--diff``: 1 when there is something to fix (0 with ``--exit-zero``);
    ``--fix-only``: 0; 2 when a file could not be read or written."""
    if fixed.trouble:
        return EXIT_TROUBLE
    return EXIT_FINDINGS if settings.diff and fixed.files and not settings.exit_zero else EXIT_CLEAN


def _with_refusals(
    outcome: Outcome, fixed: FixRun, settings: RunSettings, config: Config
) -> Outcome:
    """The findings that say why a file was left unfixed (as the run's selection for
    that file reports them: ``fix.engine``), added to its result."""
    if not fixed.refused:
        return outcome
    plan = check_plan(settings, config)
    added: list[Finding] = []
    for result in outcome.results:
        refusal = fixed.refused.get(result.name)
        if refusal:
            result.findings[:0] = refusal
            result.findings.sort(key=sort_key)
            added += refusal
    if not settings.exit_zero and any(f.severity >= plan.fail_on for f in added):
        outcome.exit_code = EXIT_FINDINGS
    return outcome


def compute(
    settings: RunSettings,
    config: Config,
    make_progress: Callable[[], ProgressBar | None] | None = None,
    stdin: Source | None = None,
    sources: list[Source] | None = None,
) -> Outcome:
    """Check every input under the resolved configuration ``config``; write nothing.

    ``make_progress`` makes the progress bar of a set run (None: no bar); ``stdin`` is
    read in place of standard input where an argument is ``-``; ``sources``: the local
    inputs as ``expand`` found them, when the caller has them already.
    """
    from sitemap_lint import xsd
    from sitemap_lint.engine.checker import check_source
    from sitemap_lint.settings.options import Options

    plan = check_plan(settings, config)
    accepted = _read_baseline(settings, config)  # before the check: a bad file fails at once
    if sources is None:
        sources = local_inputs(settings)
    if stdin is not None:
        sources = [stdin if source.is_stdin else source for source in sources]
    set_run = plan.scheduler or _is_set_run(settings, config, len(sources))
    pins = None
    if set_run or plan.live is not None:  # one pin table a run (inputs.guard.Pins)
        from sitemap_lint.inputs.guard import Pins

        pins = Pins()
    if set_run:
        from sitemap_lint.sets import runner as sets

        set_settings = replace(_set_settings(settings, config), pins=pins)
        executor = None
        if plan.scheduler:  # the files are checked on a Dask cluster
            from sitemap_lint.sets.cluster import connect

            executor = connect(
                plan.scheduler, set_settings.timeout, set_settings.timeout, plan.engine_name
            )
        progress = make_progress() if make_progress is not None else None
        runner = sets.SetRunner(
            set_settings,
            Options(
                now=plan.now,
                agent=plan.agent,
                enabled=plan.enabled,
                selection=plan.selection,
                stats=plan.stats,
                live=plan.live is not None,
            ),
            plan.engine_name,
            lambda name: plan.url or config.sitemap_url_for(name),
            progress,
            stdin,
            executor,
        )
        runner.keep_executor = executor is not None and plan.live is not None
        try:
            results = runner.run(settings.paths)
        except BaseException:
            if runner.keep_executor and executor is not None:
                executor.close()
            raise
        finally:
            if progress is not None:
                progress.close()
    else:
        executor = None
        engine = xsd.load(plan.engine_name)
        results = [check_source(s, plan.options(config, s.name), engine) for s in sources]

    _refuse_writing_over_what_the_set_read(settings, results)
    checked = {source.name: source for source in sources}
    live = None
    if plan.live is not None:
        try:
            live_settings = replace(plan.live, pins=pins)
            live = _live_audit(plan, live_settings, results, make_progress, executor)
        finally:
            if executor is not None:
                executor.close()
    recorded = _baseline(settings, accepted, results)
    worst = max((max(map(_SEVERITY, r.findings)) for r in results if r.findings), default=None)
    if settings.write_baseline or settings.exit_zero or worst is None or worst < plan.fail_on:
        return Outcome(results, EXIT_CLEAN, checked, recorded, live)
    return Outcome(results, EXIT_FINDINGS, checked, recorded, live)


def _live_audit(
    plan: CheckPlan,
    live: LiveSettings,
    results: list[FileResult],
    make_progress: Callable[[], ProgressBar | None] | None,
    executor: DaskExecutor | None = None,
) -> LiveStats:
    """``--live``: the listed URLs requested (as tasks of ``executor``'s cluster when
    there is one), their findings added to ``results``."""
    from sitemap_lint.live.audit import audit

    progress = make_progress() if make_progress is not None else None
    try:
        return audit(
            results,
            live,
            plan.now,
            plan.selection,
            progress.live if progress is not None else None,
            executor,
        )
    finally:
        if progress is not None:
            progress.close()


def _read_baseline(settings: RunSettings, config: Config) -> Baseline | None:
    path = settings.baseline or config.baseline
    if not (path or settings.write_baseline):
        return None
    from sitemap_lint.report import baseline

    if settings.write_baseline:
        written = Path(settings.write_baseline)
        baseline.check_writable(written)
        if path and not Path(path).exists() and (not settings.baseline or Path(path) == written):
            return None  # the first baseline: the one the configuration names, or a refresh
    if not path:
        return None
    # A file the configuration names is said to come from it: no --baseline was given.
    where = None if settings.baseline else f"{config.path}: baseline {path}"
    return baseline.read(Path(path), where)


def _baseline(
    settings: RunSettings, accepted: Baseline | None, results: list[FileResult]
) -> Matched | None:
    """``--write-baseline``: record every finding; ``--baseline`` (read before the
    check, so that one file can be read and refreshed): drop the findings it records."""
    if settings.write_baseline:
        from sitemap_lint.report import baseline

        baseline.write(Path(settings.write_baseline), results)
    if accepted is None:
        return None
    from sitemap_lint.rules.registry import CHECKS, across_files

    return accepted.apply(results, across_files(CHECKS))


@dataclass(init=False, repr=False, eq=False)
class CheckPlan(Frozen):
    """What every file of a run is checked with, from the settings and the configuration."""

    engine_name: str
    fail_on: Severity
    selection: Selection
    now: datetime
    url: ParsedURL | None
    agent: str
    enabled: frozenset[str] | None
    # The HTML report's charts count lastmod months, changefreq, priority and hreflang.
    stats: bool = False
    # A Dask scheduler's address (or "auto"): the set's files are checked on the cluster.
    scheduler: str | None = None
    # --live: what the live audit requests, and how (None: no live audit).
    live: LiveSettings | None = None

    def __init__(
        self,
        engine_name: str,
        fail_on: Severity,
        selection: Selection,
        now: datetime,
        url: ParsedURL | None,
        agent: str,
        enabled: frozenset[str] | None,
        stats: bool = False,
        scheduler: str | None = None,
        live: LiveSettings | None = None,
    ) -> None:
        setattr_ = object.__setattr__
        setattr_(self, "engine_name", engine_name)
        setattr_(self, "fail_on", fail_on)
        setattr_(self, "selection", selection)
        setattr_(self, "now", now)
        setattr_(self, "url", url)
        setattr_(self, "agent", agent)
        setattr_(self, "enabled", enabled)
        setattr_(self, "stats", stats)
        setattr_(self, "scheduler", scheduler)
        setattr_(self, "live", live)

    def options(self, config: Config, name: str) -> Options:
        """The options of the single-file check of the file ``name``."""
        from sitemap_lint.settings.options import Options

        return Options(
            now=self.now,
            sitemap_url=self.url or config.sitemap_url_for(name),
            agent=self.agent,
            enabled=self.enabled,
            selection=self.selection,
            stats=self.stats,
            live=self.live is not None,
        )


def check_plan(settings: RunSettings, config: Config) -> CheckPlan:
    """The values are checked here, in the order the run has always checked them."""
    from sitemap_lint.settings.profiles import AGENTS, DEFAULT
    from sitemap_lint.settings.selection import RuleSelection, Selection

    engine_name = parse("xsd_engine", settings.xsd_engine or config.xsd_engine or "libxml2")
    fail_on = parse("fail_on", settings.fail_on) or config.fail_on or Severity.ERROR
    parse("color", settings.color)
    for name in RANGED:  # the set's limits, checked in a run of one file too
        parse(name, getattr(settings, name))
    layers = [
        RuleSelection(config.select, config.extend_select, config.ignore),
        RuleSelection(
            parse("select", settings.select),
            parse("extend_select", settings.extend_select) or (),
            parse("ignore", settings.ignore) or (),
        ),
    ]
    if _local_hosts_expected(settings, config):
        from sitemap_lint.rules.urls import LOCAL_HOST

        layers.append(RuleSelection(ignore=(LOCAL_HOST.code,)))
    selection = Selection(
        layers=tuple(layers),
        profile=parse("profile", settings.profile)
        if settings.profile
        else config.profile or DEFAULT,
        severity=config.severity,
        per_file_ignores=config.per_file_ignores,
        external=config.external,
    )
    now = parse("now", settings.now)
    url = parse("sitemap_url", settings.sitemap_url)
    profile = parse("profile", settings.profile) if settings.profile else config.profile or DEFAULT
    agent = AGENTS.get(profile, "Googlebot")
    scheduler = parse("scheduler", settings.scheduler)
    stats = parse("format", settings.format or config.format or "text") == "html"
    live = _live_settings(settings, config)
    return CheckPlan(
        engine_name,
        fail_on,
        selection,
        now,
        url,
        agent,
        selection.enabled(),
        stats,
        scheduler,
        live,
    )


def _local_hosts_expected(settings: RunSettings, config: Config) -> bool:
    """Whether URLs on a host only a local machine or network reaches are expected, so
    that UR019 does not report them: ``--allow-private-hosts``, or a sitemap checked at
    (or said to be served from, ``--sitemap-url``) such a host, or its robots.txt read
    there (``--robots``): a development or staging server."""
    if settings.allow_private_hosts or config.allow_private_hosts:
        return True
    named = [path for path in settings.paths if is_url(path)]
    named.extend(_named_urls(settings, config))
    named.extend(robots for robots in (*settings.robots, *config.robots) if is_url(robots))
    if not named:
        return False
    from urllib.parse import urlsplit

    from sitemap_lint.rules.urls import local_host

    for url in named:
        try:
            host = urlsplit(url.strip()).hostname
        except ValueError:
            continue
        if host and local_host(host) is not None:
            return True
    return False


def _live_settings(settings: RunSettings, config: Config) -> LiveSettings | None:
    """What ``--live`` and its options ask for; None without ``--live``, its options
    checked all the same (a wrong value is a usage error whether or not it is used)."""
    count, percent = parse("live_sample", settings.live_sample) or (None, None)
    connect_to = parse("live_connect_to", settings.live_connect_to)
    budget = parse("live_crawl_budget", settings.live_crawl_budget)
    if not (settings.live or config.live):
        return None
    from sitemap_lint.live.audit import LiveSettings
    from sitemap_lint.live.cache import default_path

    cache = None
    if not settings.no_live_cache:
        given = settings.live_cache or config.live_cache
        cache = Path(given) if given else default_path()
    named = [p for p in settings.paths if is_url(p)]
    return LiveSettings(
        concurrency=settings.live_concurrency,
        per_host=settings.live_per_host,
        timeout=settings.live_timeout,
        max=parse("live_max", settings.live_max),
        count=count,
        percent=percent,
        seed=settings.live_seed,
        crawl_budget=_first_given(budget, config.live_crawl_budget, LIVE_CRAWL_BUDGET),
        cache=cache,
        connect_to=connect_to,
        allow_private=bool(settings.allow_private_hosts or config.allow_private_hosts),
        named_hosts=(*named, *_named_urls(settings, config)),
    )


def _note_slow_checks(rules: Callable[[], frozenset[str] | None], err: TextIO) -> None:
    """Say on stderr which checks that the run's ``rules`` enable turn the fast path off."""
    from sitemap_lint.fastpath import notes

    for note in notes(rules):
        err.write(f"sitemap-lint: note: {note}\n")


def _note_code_scanning_limit(results: list[FileResult], err: TextIO) -> None:
    """Say on stderr when a SARIF report holds more results than GitHub's code scanning
    takes in one run (it refuses the upload)."""
    from sitemap_lint.report.sarif import CODE_SCANNING_MOST_RESULTS, CODE_SCANNING_STORED

    count = sum(len(result.findings) for result in results)
    if count > CODE_SCANNING_MOST_RESULTS:
        err.write(
            f"sitemap-lint: note: the SARIF report holds {count:,} results; GitHub code "
            f"scanning refuses a run of more than {CODE_SCANNING_MOST_RESULTS:,} (and keeps "
            f"{CODE_SCANNING_STORED:,} at most): narrow it with --select, --ignore or a "
            "--baseline before uploading it\n"
        )


def _first_given(*values: float | None) -> float:
    """The first value given: the command line's, the configuration file's, the default."""
    return next(value for value in values if value is not None)


def local_inputs(settings: RunSettings) -> list[Source]:
    """The inputs that are no URL (``expand``), standard input named as
    ``--stdin-filename`` says: given only with ``-``, and the name of no other input."""
    local = [path for path in settings.paths if not is_url(path)]
    name = settings.stdin_filename
    if name is None:
        return expand(local)
    if STDIN not in settings.paths:
        raise UsageError(
            f"--stdin-filename {name}: no input is standard input; give - among the inputs,"
            " or leave the option out"
        )
    sources = expand(local, name)
    urls = (path for path in settings.paths if is_url(path))
    if sum(source.name == name for source in sources) > 1 or name in urls:
        raise UsageError(
            f"--stdin-filename {name}: another input has this name; give standard input"
            " a name of its own"
        )
    return sources


def _stdin_name(settings: RunSettings) -> str:
    """The name standard input is reported under: ``-``, or ``--stdin-filename``'s."""
    return settings.stdin_filename or STDIN


def _read_stdin(settings: RunSettings, fixing: bool) -> Source:
    """Standard input read into memory, so that the report can show its lines and make
    its fixes exact after the check (a pipe cannot be read twice); it is checked from
    these bytes. It is held as far as the check reads it, or, ``fixing``, up to one
    byte more than ``--fix`` fixes: the rest of a larger input is left unread
    (``_pass_rest``)."""
    name = _stdin_name(settings)
    if not fixing:
        return Source(name, None, data=read_standard_input())
    from sitemap_lint.fix.engine import read_source

    return Source(name, None, data=read_source(Source(name, None)))


def _pass_rest(stdin: Source, out: TextIO) -> None:
    """Copy to ``out`` what ``_read_stdin`` left unread of standard input: the fixer
    leaves such a file as it is, and the whole of it goes out."""
    from sitemap_lint.fix.engine import MAX_FIX_BYTES
    from sitemap_lint.support.pipes import write_bytes

    if stdin.data is None or len(stdin.data) <= MAX_FIX_BYTES:
        return
    handle = standard_input()
    while piece := handle.read(1 << 20):
        write_bytes(out, piece)


def source_lines(sources: Mapping[str, Source]) -> Callable[[FileReport], dict[int, SourceLine]]:
    """The text report's source lines of a file: read again, keeping only the lines
    of its findings. A file not among ``sources`` (a URL, a sitemap found by
    following an index) shows none."""

    def lines(result: FileReport) -> dict[int, SourceLine]:
        from sitemap_lint.inputs.lines import read_lines

        source = sources.get(result.name)
        if source is None or source.is_stdin:
            return {}
        wanted: dict[int, list[int]] = {}
        for finding in result.findings:
            wanted.setdefault(finding.line, []).append(finding.column)
        return read_lines(source, wanted)

    return lines


def _is_set_run(settings: RunSettings, config: Config, file_count: int) -> bool:
    """A set run fetches, follows, knows a robots.txt, or checks several files; a single
    local file keeps the fast single-file path."""
    return (
        file_count > 1
        or settings.follow
        or config.follow
        or bool(settings.robots or config.robots)
        or bool(settings.maps or config.maps)
        or any(is_url(a) or names_robots(a) for a in settings.paths)
    )


def _set_settings(settings: RunSettings, config: Config) -> SetSettings:
    """The set options: the command line's, after the configuration file's maps and
    robots.txt files."""
    from sitemap_lint.sets.runner import SetSettings

    limits = {
        name: parse(name, getattr(settings, name))
        for name in ("max_depth", "max_files", "max_bytes", "jobs", "timeout")
    }
    return SetSettings(
        follow=settings.follow or config.follow,
        maps=(*parse("maps", settings.maps), *config.maps),
        robots=(*config.robots, *settings.robots),
        robots_named_by=tuple((path, f"{config.path}: robots") for path in config.robots),
        max_depth=limits["max_depth"],
        max_files=limits["max_files"],
        max_bytes=limits["max_bytes"],
        workers=limits["jobs"],
        timeout=limits["timeout"],
        allow_private_hosts=settings.allow_private_hosts or config.allow_private_hosts,
        named_urls=_named_urls(settings, config),
        stdin_name=_stdin_name(settings),
    )


def _named_urls(settings: RunSettings, config: Config) -> tuple[str, ...]:
    """The URLs a set run is told a file is served at: their hosts count as named."""
    given = parse("sitemap_url", settings.sitemap_url)
    parsed = [given, config.sitemap_url, *(url for _glob, url in config.sitemap_urls)]
    return tuple(url.origin + "/" for url in parsed if url is not None)


def _progress(format_name: str, settings: RunSettings, err: TextIO) -> ProgressBar | None:
    """A progress bar on stderr for a person at a terminal; None otherwise."""
    if format_name not in ("text", "concise") or settings.quiet:
        return None
    try:
        if not err.isatty():
            return None
    except (AttributeError, ValueError):
        return None
    from sitemap_lint.report.progress import ProgressBar

    return ProgressBar(err)


def _write_report(
    reporter_class: type[Reporter],
    format_name: str,
    results: list[FileResult],
    settings: RunSettings,
    stdout: TextIO,
    source: Callable[[FileReport], dict[int, SourceLine]] | None = None,
    run: RunInfo | None = None,
) -> None:
    # The text report's summary is dropped (--quiet) or written to stderr by
    # _write_summary (--output-file); files without findings are not shown, so a
    # clean quiet run prints nothing.
    summary = not (format_name == "text" and (settings.quiet or settings.output_file))
    extra: dict[str, Any] = {} if source is None else {"source": source}
    if settings.output_file is None:
        reporter = reporter_class(
            stdout, resolve_color(settings.color, stdout), summary, settings.statistics, **extra
        )
        reporter.run = run
        reporter.report(results)
        return
    import io

    from sitemap_lint.fix.write import WriteError, write_output

    # The report is written whole or not at all: a failed write leaves the file as it was
    # (a FIFO, a terminal or /dev/stdout is written to as it is, as a shell would). It
    # goes into the file that replaces it as it is made.
    def fill(binary: BinaryIO) -> None:
        handle = io.TextIOWrapper(binary, encoding="utf-8", newline="", write_through=False)
        # A report file (an artefact, a diff's input) gets colour only when asked by the
        # flag: FORCE_COLOR, often set for a whole CI job, is for its terminal log.
        color = False if settings.color == "auto" else resolve_color(settings.color, handle)
        reporter = reporter_class(handle, color, summary, settings.statistics, **extra)
        reporter.run = run
        reporter.report(results)
        handle.flush()
        handle.detach()

    try:
        write_output(Path(settings.output_file), fill)
    except WriteError as error:
        raise UsageError(f"--output-file {error}") from None


def _run_info(
    settings: RunSettings,
    config: Config,
    exit_code: int,
    baseline: Matched | None = None,
    live: LiveStats | None = None,
) -> RunInfo:
    from sitemap_lint.report.base import RunInfo
    from sitemap_lint.settings.declared import command_line
    from sitemap_lint.settings.profiles import DEFAULT

    profile = settings.profile or config.profile or DEFAULT
    unsafe = unsafe_fixes(settings, config)
    return RunInfo(
        tuple(settings.paths),
        settings.now,
        profile,
        exit_code,
        command_line(settings),
        unsafe,
        None if baseline is None else (baseline.matched, baseline.unseen),
        None if live is None else live.as_dict(),
    )


def _write_summary(
    results: list[FileResult], format_name: str, settings: RunSettings, err: TextIO
) -> None:
    """Totals on stderr when the report went to a file; counts per rule with
    ``--statistics`` unless the text report on stdout already shows them."""
    if settings.quiet and not settings.statistics:
        return
    from sitemap_lint.report.base import Summary, by_frequency

    summary = Summary.of(results)
    if settings.output_file is not None and not settings.quiet:
        err.write(f"{summary.totals}; report written to {printable(settings.output_file)}\n")
    in_report = format_name == "text" and settings.output_file is None and not settings.quiet
    if settings.statistics and not in_report:
        # Most frequent first, as the text report's table.
        for rule, count in by_frequency(summary.by_rule):
            err.write(f"{count:>7}  {rule}\n")


__all__ = [
    "COLOR_MODES",
    "EXIT_CLEAN",
    "EXIT_FINDINGS",
    "EXIT_TROUBLE",
    "InputError",
    "Outcome",
    "RunSettings",
    "UsageError",
    "compute",
    "execute",
    "parse_map",
    "parse_now",
    "parse_sitemap_url",
    "resolve_color",
]

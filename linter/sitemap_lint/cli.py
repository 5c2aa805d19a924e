"""Command-line interface: parses arguments and hands them to ``run.execute``.

``sitemap-lint FILE...`` is short for ``sitemap-lint check FILE...``.
"""

from __future__ import annotations

import contextlib
import copy
import inspect
import os
import sys
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Annotated, Any, Protocol, cast

from sitemap_lint._version import __version__
from sitemap_lint.errors import UsageError, internal_error, plugin_at_fault
from sitemap_lint.settings.declared import (
    BY_NAME,
    CODE_LISTS,
    RUN_SETTINGS,
    Range,
    RunSettings,
    Setting,
    refuse_empty_path,
)
from sitemap_lint.settings.parsing import format_size, parse_size, resolve_color
from sitemap_lint.support.deferred import deferring

# typer's subprocess and shellingham serve typer.launch and shell completion only.
with deferring("subprocess", "shellingham"):
    import typer
    from typer.core import TyperCommand

if TYPE_CHECKING:
    from sitemap_lint.finding import Rule

# The help is click's plain layout (rich_markup_mode=None): at 80 columns rich's
# panels leave a description column of some 17 characters and cut what does not fit.
# ``-h`` as ruff and xmllint's users type it.
_HELP = {"help_option_names": ["-h", "--help"]}
app = typer.Typer(
    add_completion=False,
    context_settings=_HELP,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    help="Validate and lint XML sitemaps and sitemap indexes.",
)
COMMANDS = ("check", "rules", "rule", "schemas", "split", "diff")


def _version(value: bool) -> None:
    if value:
        typer.echo(f"sitemap-lint {__version__}")
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Show the version and exit."
        ),
    ] = False,
) -> None:
    """Validate and lint XML sitemaps and sitemap indexes."""


class _ReaderGone(Exception):
    """Standard output's reader went away while a command wrote to it (``| head``)."""


class _Command(TyperCommand):
    """A command whose usage line shows a required argument as ``FILE``, not ``{FILE}``,
    and whose output's reader may go away (``sitemap-lint rules | head``) without
    failing the run: click's own handling of a broken pipe exits 1."""

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        pieces: list[str] = super().collect_usage_pieces(ctx)
        return [p[1:-1] if p.startswith("{") and p.endswith("}") else p for p in pieces]

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except BrokenPipeError as error:
            raise _ReaderGone from error


class _SettingsCommand(_Command):
    """A command whose options are declared settings (``check``; ``rules --profile``):
    shows the choices of a setting as its metavar (looked up only for the help: the
    registries are slow to import), and ``PATH...`` as such."""

    def format_help(self, ctx: Any, formatter: Any) -> None:
        for param in self.params:
            setting = BY_NAME.get(param.name or "")
            if setting is None:
                continue
            if setting.choices is not None:
                param.metavar = setting.metavar_text()
            elif setting.kind == "paths":
                # The metavar says it all: no "<str>" type column (a copy of the type,
                # which click shares between parameters).
                param.type = copy.copy(param.type)
                param.type.get_metavar = lambda param, ctx: ""  # type: ignore[method-assign]
        super().format_help(ctx, formatter)


def _size(setting: Setting) -> Callable[[str], int]:
    shown_default = format_size(setting.default)

    def parse(text: str) -> int:
        if text == shown_default:  # click hands every run the default as shown
            return int(setting.default)
        # A UsageError, not click's: one line as every other option's ("--max-bytes
        # '5XB': write ..."), not "Invalid value for '--max-bytes': ...".
        return parse_size(text, setting.flag)

    return parse


def _number(setting: Setting) -> Callable[[Any], float]:
    """The parser of an int or float setting: a value that is no number is one line
    that says what to give ("--jobs 'x': give a whole number, 0 (one per core) or
    more"), not click's "'x' is not a valid int". The range is checked by the run."""
    whole = setting.kind == "int"

    def parse(value: Any) -> float:
        if not isinstance(value, str):  # the default, handed over as it is declared
            return cast("float", value)
        try:
            return int(value) if whole else float(value)
        except ValueError:
            pass
        what = "a whole number" if whole else "a number"
        allowed = f", {setting.range.text}" if setting.range is not None else ""
        raise UsageError(f"{setting.flag} {value!r}: give {what}{allowed}") from None

    return parse


_TYPES: dict[str, Any] = {
    "text": str | None,
    "flag": bool,
    "int": int,
    "float": float,
    "size": int,
    "repeat": list[str] | None,
}


def _parameter(setting: Setting) -> inspect.Parameter:
    """The typer parameter of a setting: its flags, help, metavar and default."""
    kind = inspect.Parameter.KEYWORD_ONLY
    if setting.kind == "paths":
        argument = typer.Argument(help=setting.help, metavar=f"{setting.metavar}...")
        return inspect.Parameter(setting.name, kind, annotation=Annotated[list[str], argument])
    extra: dict[str, Any] = {}
    default = setting.default
    if setting.kind == "size":
        extra["parser"] = _size(setting)
        default = format_size(default)  # converted by the parser; shown as 20GiB
    elif setting.kind in ("int", "float"):
        extra["parser"] = _number(setting)
    if setting.kind == "repeat":
        default = None
    python_type = _TYPES[setting.kind]
    if setting.name in CODE_LISTS:
        python_type = _TYPES["repeat"]  # joined again by ``check``
    if setting.kind == "text" and default is not None:
        python_type = str
    option = typer.Option(
        *setting.flags,
        help=setting.help,
        metavar=setting.metavar,
        show_default=setting.show_default,
        **extra,
    )
    return inspect.Parameter(
        setting.name, kind, default=default, annotation=Annotated[python_type, option]
    )


def check(**values: Any) -> None:
    """Check sitemaps and sitemap indexes; exit 0 when clean, 1 on findings, 2 when unable to check."""
    from sitemap_lint.run import execute

    for name, value in values.items():
        if BY_NAME[name].kind == "repeat":
            values[name] = tuple(value or ())
        elif name in CODE_LISTS and value is not None:
            values[name] = ",".join(value)  # ``--ignore UR --ignore DT`` ignores both
    raise typer.Exit(execute(RunSettings(**values)))


# The parameters of ``check`` are the declared settings that have flags (settings.py).
check.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
    [_parameter(setting) for setting in RUN_SETTINGS]
)
check.__annotations__ = {
    parameter.name: parameter.annotation
    for parameter in check.__signature__.parameters.values()  # type: ignore[attr-defined]
}
_CHECK_SHORT_HELP = "Check sitemaps and sitemap indexes (the default command)."
app.command("check", cls=_SettingsCommand, short_help=_CHECK_SHORT_HELP)(check)
# ``check`` alone, for a run that checks (nearly every one): building the other
# commands' options is work such a run does not need.
_check_app = typer.Typer(
    add_completion=False,
    context_settings=_HELP,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)
_check_app.command("check", cls=_SettingsCommand, short_help=_CHECK_SHORT_HELP)(check)


@app.command("rules", cls=_SettingsCommand)
def list_rules(
    profile: Annotated[
        str,
        typer.Option("--profile", help="Show the severities of this profile (google by default)."),
    ] = "google",
) -> None:
    """List every rule: code, name, severity and summary."""
    from sitemap_lint.rules import RULES
    from sitemap_lint.settings.selection import Selection

    levels = Selection(profile=BY_NAME["profile"].parse(profile)).levels
    for rule in RULES.values():
        level = levels[rule.code]
        changed = f" (default: {rule.severity})" if level is not rule.severity else ""
        typer.echo(f"{rule.code}  {rule.name:<28} {level!s:<8} {rule.summary}{changed}")


@app.command("schemas", cls=_Command)
def list_schemas() -> None:
    """List the bundled XSD files with their namespaces."""
    from sitemap_lint.xsd import SCHEMAS

    for name, namespace, title in SCHEMAS:
        typer.echo(f"{name:<20} {namespace:<50} {title}")


@app.command("rule", cls=_Command, short_help="Print a rule's full documentation.")
def show_rule(
    code: Annotated[
        str,
        typer.Argument(
            help="A rule code such as UR001, or its name (url-not-absolute).", metavar="CODE"
        ),
    ],
) -> None:
    """Print a rule's full documentation (rendered on a terminal, Markdown when piped)."""
    from sitemap_lint.rules import RULES

    rule = _find_rule(code, RULES)
    if rule is None:
        _fail(_no_rule(code, RULES))
        raise typer.Exit(2)
    _print_markdown(rule.page)


# ``split --max-urls``: entries per part (checked with ``--max-bytes`` by ``split``).
_MAX_URLS = Setting("max_urls", "int", "", flags=("--max-urls",), range=Range(1, 50_000))


@app.command(
    "split", cls=_Command, short_help="Split a sitemap into parts and an index that lists them."
)
def split(
    file: Annotated[str, typer.Argument(help="The sitemap (a URL set) to split.", metavar="FILE")],
    base_url: Annotated[
        str,
        typer.Option(
            "--base-url",
            metavar="URL",
            help="Where the parts will be served (the index lists them there).",
        ),
    ],
    out_dir: Annotated[
        str,
        typer.Option(
            "--out-dir", metavar="DIR", help="The directory to write the parts and the index to."
        ),
    ],
    max_urls: Annotated[
        int,
        typer.Option(
            "--max-urls",
            metavar="N",
            parser=_number(_MAX_URLS),
            help="Entries per part at most (1 to 50,000).",
        ),
    ] = 50_000,
    max_bytes: Annotated[
        str,
        typer.Option(
            "--max-bytes",
            metavar="SIZE",
            help="Bytes per part at most, uncompressed (e.g. 10MiB; at most 50MiB).",
        ),
    ] = "50MiB",
    gzip: Annotated[bool, typer.Option("--gzip", help="Write the parts gzip-compressed.")] = False,
    force: Annotated[
        bool,
        typer.Option(
            "--force", help="Split even when --base-url puts entries out of the parts' scope."
        ),
    ] = False,
) -> None:
    """Split a sitemap into parts within the limits, plus a sitemap index that lists them."""
    from pathlib import Path
    from urllib.parse import urlsplit

    from sitemap_lint.fix.split import SplitError, limits_refusal, split_file

    refuse_empty_path(file, "FILE", give="the sitemap to split")
    refuse_empty_path(out_dir, "--out-dir", names="directory", give="one")
    if file == "-":
        _fail("FILE -: split reads a file, not standard input; save the sitemap to a file")
        raise typer.Exit(2)
    if not base_url.lower().startswith(("http://", "https://")):
        _fail(f"--base-url {base_url!r}: give an absolute http(s) URL")
        raise typer.Exit(2)
    parts = urlsplit(base_url)
    if not parts.netloc or "?" in base_url or "#" in base_url:
        what = "no host" if not parts.netloc else "a query or a fragment"
        _fail(
            f"--base-url {base_url!r} has {what}; give the URL of the directory the parts "
            "are served in, such as https://example.com/sitemaps/"
        )
        raise typer.Exit(2)
    part_bytes = parse_size(max_bytes, "--max-bytes")
    refusal = limits_refusal(max_urls, part_bytes, bytes_given=max_bytes)
    if refusal is not None:  # named as given: --max-bytes 1GiB, not 1073741824
        _fail(refusal)
        raise typer.Exit(2)
    try:
        written = split_file(Path(file), base_url, Path(out_dir), max_urls, part_bytes, gzip, force)
    except SplitError as error:
        _fail(str(error))
        raise typer.Exit(2) from None
    from sitemap_lint.support.printable import printable
    from sitemap_lint.support.words import plural

    if written.warning is not None:
        sys.stderr.write(f"sitemap-lint: warning: {printable(written.warning)}\n")
    entries = sum(part.count for part in written.parts)
    sys.stderr.write(
        f"{printable(file)}: {entries:,} {'entry' if entries == 1 else 'entries'} in"
        f" {plural(len(written.parts), 'part')}; "
        f"index written to {printable(str(written.index))}\n"
    )


_LIMIT_HELP = "A count (500) or a share (5%%) of %s; passing it exits 1 (repeatable)."
# ``diff --show``: the count of URLs named (0 or more; checked by ``diff.run``).
_SHOW = Setting("show", "int", "", flags=("--show",), range=Range(0))


def _set_option(name: str, help: str | None = None) -> Any:
    """A ``diff`` option that is one of ``check``'s set limits: its flag, metavar, help and
    parser (its range is checked as ``check`` checks it)."""
    setting = BY_NAME[name]
    return typer.Option(
        setting.flag,
        metavar=setting.metavar,
        parser=_number(setting),
        help=help or setting.help,
    )


@app.command(
    "diff", cls=_Command, short_help="Compare a sitemap or a site's set with its last deploy."
)
def diff(
    old: Annotated[
        str,
        typer.Argument(help="The last deploy: file, directory, URL or index.", metavar="OLD"),
    ],
    new: Annotated[
        str, typer.Argument(help="The new build: file, directory, URL or index.", metavar="NEW")
    ],
    format: Annotated[
        str,
        typer.Option(
            "--format", "-f", metavar="[text|json|html|github]", help="The report's format."
        ),
    ] = "text",
    output_file: Annotated[
        str | None,
        typer.Option("--output-file", "-o", metavar="PATH", help="Write the report to a file."),
    ] = None,
    show: Annotated[
        int,
        typer.Option(
            "--show",
            metavar="N",
            parser=_number(_SHOW),
            help="URLs named for each kind of change.",
        ),
    ] = 10,
    now: Annotated[
        str | None,
        typer.Option("--now", metavar="TIMESTAMP", help="The run's time, for recent lastmods."),
    ] = None,
    follow: Annotated[
        bool, typer.Option("--follow", help="Follow the sitemaps local indexes list.")
    ] = False,
    maps: Annotated[
        list[str] | None,
        typer.Option("--map", metavar="URL=DIR", help="Both sides: read URLs under URL from DIR."),
    ] = None,
    old_maps: Annotated[
        list[str] | None,
        typer.Option("--old-map", metavar="URL=DIR", help="The old side only."),
    ] = None,
    new_maps: Annotated[
        list[str] | None,
        typer.Option("--new-map", metavar="URL=DIR", help="The new side only."),
    ] = None,
    max_depth: Annotated[int, _set_option("max_depth")] = 3,
    max_files: Annotated[int, _set_option("max_files")] = 10_000,
    timeout: Annotated[float, _set_option("timeout")] = 10.0,
    jobs: Annotated[int, _set_option("jobs", help="Worker processes (0: one per core).")] = 0,
    allow_private_hosts: Annotated[
        bool,
        typer.Option(
            "--allow-private-hosts", help="Also fetch internal addresses no argument names."
        ),
    ] = False,
    max_removed: Annotated[
        list[str] | None,
        typer.Option("--max-removed", metavar="LIMIT", help=_LIMIT_HELP % "the old URLs"),
    ] = None,
    max_added: Annotated[
        list[str] | None,
        typer.Option("--max-added", metavar="LIMIT", help=_LIMIT_HELP % "the old URLs"),
    ] = None,
    max_moved: Annotated[
        list[str] | None,
        typer.Option("--max-moved", metavar="LIMIT", help=_LIMIT_HELP % "the URLs on both sides"),
    ] = None,
    max_origin_changes: Annotated[
        list[str] | None,
        typer.Option("--max-origin-changes", metavar="LIMIT", help=_LIMIT_HELP % "the old URLs"),
    ] = None,
    max_rewritten: Annotated[
        list[str] | None,
        typer.Option(
            "--max-rewritten",
            metavar="LIMIT",
            help=_LIMIT_HELP % "the old URLs (a trailing slash, case or query order changed)",
        ),
    ] = None,
    max_lastmod_churn: Annotated[
        list[str] | None,
        typer.Option(
            "--max-lastmod-churn", metavar="LIMIT", help=_LIMIT_HELP % "the URLs on both sides"
        ),
    ] = None,
    max_lastmod_earlier: Annotated[
        list[str] | None,
        typer.Option(
            "--max-lastmod-earlier", metavar="LIMIT", help=_LIMIT_HELP % "the URLs on both sides"
        ),
    ] = None,
    max_same_lastmod: Annotated[
        list[str] | None,
        typer.Option(
            "--max-same-lastmod",
            metavar="LIMIT",
            help=_LIMIT_HELP % "the new entries with a lastmod",
        ),
    ] = None,
    max_recent_lastmod: Annotated[
        list[str] | None,
        typer.Option(
            "--max-recent-lastmod",
            metavar="LIMIT",
            help=_LIMIT_HELP % "the new entries with a lastmod",
        ),
    ] = None,
    max_priority_changes: Annotated[
        list[str] | None,
        typer.Option(
            "--max-priority-changes", metavar="LIMIT", help=_LIMIT_HELP % "the URLs on both sides"
        ),
    ] = None,
    max_changefreq_changes: Annotated[
        list[str] | None,
        typer.Option(
            "--max-changefreq-changes", metavar="LIMIT", help=_LIMIT_HELP % "the URLs on both sides"
        ),
    ] = None,
    max_children_removed: Annotated[
        list[str] | None,
        typer.Option(
            "--max-children-removed",
            metavar="LIMIT",
            help=_LIMIT_HELP % "the sitemaps the old indexes list",
        ),
    ] = None,
    max_hreflang_broken: Annotated[
        list[str] | None,
        typer.Option(
            "--max-hreflang-broken",
            metavar="LIMIT",
            help=_LIMIT_HELP % "the new hreflang alternates",
        ),
    ] = None,
) -> int:
    """Compare a sitemap (or a site's set) with its last deploy: URLs added, removed and
    moved, index children, host changes, lastmod churn; thresholds fail the gate. Exit 0
    within every threshold, 1 past one, 2 when a side cannot be read."""
    from sitemap_lint.diff.gate import parse_limit
    from sitemap_lint.diff.run import DiffSettings, execute
    from sitemap_lint.sets.runner import SetSettings
    from sitemap_lint.settings.parsing import parse_map, parse_now

    given = {
        "--max-removed": max_removed,
        "--max-added": max_added,
        "--max-moved": max_moved,
        "--max-origin-changes": max_origin_changes,
        "--max-rewritten": max_rewritten,
        "--max-lastmod-churn": max_lastmod_churn,
        "--max-lastmod-earlier": max_lastmod_earlier,
        "--max-same-lastmod": max_same_lastmod,
        "--max-recent-lastmod": max_recent_lastmod,
        "--max-priority-changes": max_priority_changes,
        "--max-changefreq-changes": max_changefreq_changes,
        "--max-children-removed": max_children_removed,
        "--max-hreflang-broken": max_hreflang_broken,
    }
    limits = [parse_limit(flag, text) for flag, texts in given.items() for text in texts or ()]
    output_file = BY_NAME["output_file"].parse(output_file)  # check's: "-" is stdout
    ranged = {"max_depth": max_depth, "max_files": max_files, "timeout": timeout, "jobs": jobs}
    for name, value in ranged.items():
        BY_NAME[name].parse(value)  # the ranges of check's options
    settings = DiffSettings(
        old,
        new,
        format=format,
        output_file=output_file,
        show=show,
        now=parse_now(now) if now else None,
        limits=limits,
        sets=SetSettings(
            follow=follow,
            maps=tuple(parse_map(text, where="--map") for text in maps or ()),
            max_depth=max_depth,
            max_files=max_files,
            workers=jobs,
            timeout=timeout,
            allow_private_hosts=allow_private_hosts,
        ),
        old_maps=tuple(parse_map(text, where="--old-map") for text in old_maps or ()),
        new_maps=tuple(parse_map(text, where="--new-map") for text in new_maps or ()),
    )
    status = execute(settings)
    raise typer.Exit(status)


def _find_rule(wanted: str, rules: Mapping[str, Rule]) -> Rule | None:
    """The rule with this code or name; case and ``_`` for ``-`` do not matter."""
    key = wanted.strip()
    if key.upper() in rules:
        return rules[key.upper()]
    name = key.lower().replace("_", "-")
    return next((rule for rule in rules.values() if rule.name == name), None)


def _no_rule(wanted: str, rules: Mapping[str, Rule]) -> str:
    """One line: no such rule, and the codes or names that come closest, if any."""
    from difflib import SequenceMatcher

    shown = " ".join(wanted.split()) or repr(wanted)
    code, name = wanted.strip().upper(), wanted.strip().lower().replace("_", "-")
    # A family's letters (UR): the rules of the family; a code cut short (UR01) may be a
    # typo, answered with the nearest codes.
    prefixed = sorted(c for c in rules if code.isalpha() and c.startswith(code))
    if prefixed:
        span = prefixed[0] if len(prefixed) == 1 else f"{prefixed[0]}-{prefixed[-1]}"
        rule_word = "rule" if len(prefixed) == 1 else "rules"
        return (
            f"no rule {shown}; it is the prefix of {len(prefixed)} {rule_word} ({span}): "
            f"'sitemap-lint rule {prefixed[0]}' shows one, 'sitemap-lint rules' lists them all"
        )
    scores = {
        rule.code: max(
            SequenceMatcher(None, code, rule.code).ratio(),
            SequenceMatcher(None, name, rule.name).ratio(),
        )
        for rule in rules.values()
    }
    # The closest, and others nearly as close (a typo in a name matches one rule well).
    cutoff = max(0.6, max(scores.values(), default=0.0) - 0.15)
    close = sorted(
        (c for c, score in scores.items() if score >= cutoff), key=lambda c: (-scores[c], c)
    )
    suggestions = [f"{c} ({rules[c].name})" for c in close[:3]]
    if not suggestions:
        return f"no rule {shown}; 'sitemap-lint rules' lists them all"
    return f"no rule {shown}; did you mean {_either(suggestions)}?"


def _either(items: list[str]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} or {items[-1]}"


def _print_markdown(markdown: str) -> None:
    """Markdown rendered for a terminal (without colour or other styles where the report
    would have no colour: ``NO_COLOR``); as it is, for a pipe or a file, whatever
    ``FORCE_COLOR`` says (which rich takes for a terminal: the page went out rendered,
    centred and padded, to a file)."""
    try:
        terminal = sys.stdout.isatty()
    except (AttributeError, ValueError):  # no isatty, or a closed stream
        terminal = False
    if not terminal:
        typer.echo(markdown.rstrip("\n"))
        return
    from rich.console import Console
    from rich.markdown import Markdown

    plain = resolve_color("auto", sys.stdout) is False
    Console(highlight=False, color_system=None if plain else "auto").print(Markdown(markdown))


def main(argv: list[str] | None = None) -> int:
    """Entry point of the console script; returns the exit status."""
    from sitemap_lint.errors import SitemapLintError
    from sitemap_lint.inputs.reader import InputError
    from sitemap_lint.run import EXIT_CLEAN, EXIT_TROUBLE

    args = list(sys.argv[1:] if argv is None else argv)
    if not args:  # still exit 2: a CI step whose list of paths came out empty checked nothing
        sys.stderr.write(_help())
        return EXIT_TROUBLE
    if args[0] not in COMMANDS and args[0] not in ("--help", "-h", "--version"):
        mistyped = _mistyped_command(args[0])
        if mistyped is not None:
            _fail(mistyped)
            return EXIT_TROUBLE
        args.insert(0, "check")
    prog_name = "sitemap-lint"
    if args[0] == "check":
        # The check command alone, as the group would have run it.
        command = typer.main.get_command(_check_app)
        args, prog_name = args[1:], "sitemap-lint check"
    else:
        command = typer.main.get_command(app)
    from sitemap_lint.support.pipes import writing_to

    status: object = 0  # what a listing whose reader went away (``| head``) exits with
    try:
        with writing_to(sys.stdout):  # also the help, the version and the rule listings
            status = command.main(args, prog_name=prog_name, standalone_mode=False)
    except _ReaderGone:  # what the command wrote before has been read: not a failure
        from sitemap_lint.support.pipes import discard_the_rest

        discard_the_rest(sys.stdout)
        return EXIT_CLEAN
    except typer.Exit as done:
        return done.exit_code
    except typer.Abort:
        _fail("aborted")
        return EXIT_TROUBLE
    except _CLICK_EXCEPTION as error:
        message = cast("_ClickError", error).format_message().strip()
        if message:
            _fail(message.splitlines()[0])
        return EXIT_TROUBLE
    except (InputError, SitemapLintError) as error:  # UsageError is one
        _fail(str(error))
        return EXIT_TROUBLE
    except KeyboardInterrupt:
        _fail("interrupted")
        return EXIT_TROUBLE
    except Exception as error:
        _fail(internal_error(error, plugin_at_fault(error)))
        return EXIT_TROUBLE
    return status if isinstance(status, int) else 0


def _mistyped_command(word: str) -> str | None:
    """Why ``word``, the first argument, is refused when it names no file and reads as a
    command written wrong (``rulez``, ``help``): one line that gives the command, where
    the check of a missing file would only say that there is no such file."""
    from difflib import get_close_matches

    if not word.isalpha() or os.path.lexists(word):
        return None  # a path (a.xml, dir/, -), a URL or an option; or a file of that name
    if word.lower() == "help":
        return f"{word}: no such file or command; 'sitemap-lint --help' lists the commands"
    close = get_close_matches(word.lower(), COMMANDS, n=2, cutoff=0.7)  # rulse: rule, rules
    if not close:
        return None
    commands = " or ".join(f"'sitemap-lint {command}'" for command in close)
    return f"{word}: no such file or command; did you mean {commands}?"


def _help() -> str:
    """The help of ``sitemap-lint`` (its commands), as ``--help`` prints it."""
    command = typer.main.get_command(app)
    with command.make_context("sitemap-lint", [], resilient_parsing=True) as context:
        return context.get_help() + "\n"


def _click_exception() -> type[Exception]:
    """Click's base exception, whether typer ships its own copy of click or uses click."""
    for cls in typer.BadParameter.__mro__:
        if cls.__name__ == "ClickException":
            return cls
    return Exception


_CLICK_EXCEPTION = _click_exception()


class _ClickError(Protocol):
    """What the exception caught as ``_CLICK_EXCEPTION`` offers (found by name above)."""

    def format_message(self) -> str: ...


def _fail(message: str) -> None:
    from sitemap_lint.support.printable import printable

    # The message may quote a file name or a URL: no escape sequence reaches the terminal.
    sys.stderr.write(f"sitemap-lint: error: {printable(message)}\n")


# The status of a run interrupted by Ctrl-C (128 + SIGINT), as typer returns it.
INTERRUPTED = 130


def run() -> None:
    """Console-script entry point: exits with ``main``'s status."""
    _tune_garbage_collector()
    _open_closed_streams()
    status = main()
    if status == INTERRUPTED:
        _leave_at_once(status)
    sys.exit(status)


def _open_closed_streams() -> None:
    """A process started with standard output or error closed (``>&-``, ``2>&-``) has
    None for it: what would go there is dropped, as when its reader goes away, and the
    run ends with its status (a report written with ``-o`` is written all the same),
    not with an internal error about None."""
    for name in ("stdout", "stderr"):
        if getattr(sys, name) is None:
            setattr(sys, name, open(os.devnull, "w", encoding="utf-8"))  # noqa: SIM115


def _leave_at_once(status: int) -> None:
    """Exit without joining the threads still fetching: the interpreter's exit would wait
    for each of them until its fetch times out (``--timeout``)."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # a closed pipe, a closed stream
            stream.flush()
    os._exit(status)


def _tune_garbage_collector() -> None:
    """A check allocates hundreds of thousands of small objects that never form cycles
    (entries are freed as soon as they are checked), so collecting every 700
    allocations is wasted work: collect far less often, and never scan what start-up
    loaded. Measured: 4% of a 50,000-URL run, 10% with extensions."""
    import gc

    from sitemap_lint.engine import collector

    gc.freeze()
    collector.tune()

"""Parsers of setting values shared by the command line, the configuration and the run.

Each turns a text (or a value from a configuration file) into what the run uses and
raises a one-line UsageError naming ``where`` (a flag, a keyword or a file and key)
when it cannot. This module imports neither the run nor the configuration.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, TextIO

from sitemap_lint.errors import UsageError
from sitemap_lint.finding import Severity
from sitemap_lint.support.patterns import lazy

COLOR_MODES = ("auto", "always", "never")

# Binary units first: "20GiB" is what the help shows; decimal units are accepted too.
_UNITS = {
    "": 1,
    "b": 1,
    "kib": 1024,
    "mib": 1024**2,
    "gib": 1024**3,
    "tib": 1024**4,
    "kb": 1000,
    "mb": 1000**2,
    "gb": 1000**3,
    "tb": 1000**4,
}
_SIZE = lazy(r"\s*([+-]?[0-9]+(?:\.[0-9]+)?)\s*([a-z]*)\s*", re.IGNORECASE)


def parse_size(value: str | int, where: str = "--max-bytes") -> int:
    """A number of bytes: plain (``1048576``) or with a unit (``500MiB``, ``20GiB``,
    ``1.5GB``); fractions of a byte are dropped. The sign is kept so that the range
    check can name the value the user wrote."""
    if isinstance(value, bool) or not isinstance(value, int | str):
        # Only a caller in Python gives another type (a float, None, a list).
        raise UsageError(f"{where} {value!r}: expected a size in bytes, e.g. 500MiB or 20GiB")
    if isinstance(value, int):
        return value
    match = _SIZE.fullmatch(value)
    unit = _UNITS.get(match.group(2).lower()) if match else None
    if match is None or unit is None:
        raise UsageError(
            f"{where} {value!r}: write a number of bytes or a size such as 500MiB or 20GiB"
        )
    number = match.group(1)
    if "." in number:
        whole, fraction = number.split(".")
        scaled: int = int(whole + fraction) * unit // 10 ** len(fraction)
        return scaled
    whole_bytes: int = int(number) * unit
    return whole_bytes


def format_size(size: int) -> str:
    """``size`` with the largest binary unit that divides it (``20GiB``), else bytes."""
    for unit in ("TiB", "GiB", "MiB", "KiB"):
        factor = _UNITS[unit.lower()]
        if size and size % factor == 0:
            return f"{size // factor}{unit}"
    return str(size)


def parse_level(text: str | None, where: str) -> Severity | None:
    """``error``, ``warning`` or ``info`` as a Severity; None stays None."""
    from sitemap_lint.settings.selection import LEVELS

    if text is None:
        return None
    if text not in LEVELS:
        raise UsageError(f"{where} {text!r}: choose one of {', '.join(LEVELS)}")
    return Severity.parse(text)


def check_color(mode: str, where: str = "--color") -> str:
    """One of the colour modes."""
    if mode not in COLOR_MODES:
        raise UsageError(f"{where} {mode!r}: choose one of {', '.join(COLOR_MODES)}")
    return mode


def resolve_color(
    mode: str, stream: TextIO, environ: Mapping[str, str] | None = None
) -> bool | None:
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


NOW_YEARS = (1000, 9998)
MAX_OFFSET = timedelta(hours=14)  # the widest UTC offset a date may have (DT002's)


def parse_now(text: str | None, where: str = "--now") -> datetime:
    """The current time of a run: now, or a timestamp (UTC when it has no zone)."""
    if text is None:
        return datetime.now(UTC)
    try:
        moment = datetime.fromisoformat(text.strip())
    except ValueError:
        raise UsageError(
            f"{where} {text!r} is not a timestamp; write e.g. 2024-05-08 or 2024-05-08T10:00:00Z"
        ) from None
    moment = moment if moment.tzinfo else moment.replace(tzinfo=UTC)
    offset = moment.utcoffset()
    if offset is not None and abs(offset) > MAX_OFFSET:
        raise UsageError(
            f"{where} {text!r} has an offset beyond ±14:00, which no time zone has; write "
            "the real offset, or Z for UTC"
        )
    # The rules compute days before and after it, and write it with a four-digit year.
    try:
        year = moment.astimezone(UTC).year
    except OverflowError:
        year = moment.year
    if not NOW_YEARS[0] <= year <= NOW_YEARS[1]:
        raise UsageError(
            f"{where} {text!r} is out of range; give a time from the year {NOW_YEARS[0]}"
            f" to the year {NOW_YEARS[1]}"
        )
    # In UTC, the reading of a date without a zone: one instant, one report, whatever
    # offset it is written with.
    return moment.astimezone(UTC)


def parse_sitemap_url(text: str | None, where: str = "--sitemap-url") -> Any:
    """The URL a sitemap is served at, checked like a ``loc``; ``where`` names the flag
    or the configuration key in the message of the UsageError."""
    if text is None:
        return None
    if not text.strip():
        raise UsageError(
            f"{where} {text!r} is not usable: give the URL the sitemap is served at, e.g. "
            "https://example.com/sitemap.xml"
        )
    from sitemap_lint.engine.sink import FindingList
    from sitemap_lint.model import Node
    from sitemap_lint.rules.urls import LOCAL_HOST, check_url, with_query

    problems = FindingList()
    parsed = check_url(text, Node("", "sitemap-url", {}, 1, 1), problems)
    # (A local server is a place the user may check a sitemap at: it is usable.)
    errors = [p for p in problems if p.severity is Severity.ERROR and p.code != LOCAL_HOST.code]
    if parsed is None or errors:
        reason = errors[0].message if errors else "not an absolute http(s) URL"
        raise UsageError(f"{where} {text!r} is not usable: {reason}")
    return with_query(parsed, text)


def refuse_nul(path: str, where: str) -> None:
    """A path holding a NUL character names no file (the system refuses it): a usage
    error, not the ValueError opening it would raise."""
    if "\0" in path:
        raise UsageError(f"{where}: {path!r} holds a NUL character, which no file name can")


def parse_map(text: str, must_exist: bool = True, where: str = "--map") -> tuple[str, Path]:
    """``URL_PREFIX=DIR`` from --map: an http(s) URL prefix and an existing directory
    (a configuration file may name one the build has not made yet)."""
    from urllib.parse import urlsplit

    from sitemap_lint.inputs.reader import is_url

    prefix, equals, directory = text.partition("=")
    if not equals or not directory:
        raise UsageError(f"{where} {text!r}: write URL_PREFIX=DIR, e.g. https://example.com/=dist")
    refuse_nul(directory, f"{where} {text!r}")
    try:
        host = urlsplit(prefix).hostname if is_url(prefix) else None
    except ValueError as error:  # e.g. an unclosed IPv6 bracket
        raise UsageError(f"{where} {text!r}: the prefix is not a valid URL ({error})") from None
    if not host:
        raise UsageError(f"{where} {text!r}: the prefix must be an http(s) URL")
    path = Path(directory)
    if must_exist and not path.is_dir():
        raise UsageError(f"{where} {text!r}: {directory} is not a directory")
    if not prefix.endswith("/"):
        prefix += "/"
    return prefix, path

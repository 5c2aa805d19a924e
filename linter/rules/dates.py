"""Date rules: `lastmod` in W3C Datetime form, accepted by the schema, real and not in the future.

The date parser is shared: extension rules (video, news) reuse ``parse_w3c``
and ``check_date``.
"""

from __future__ import annotations

import calendar
import re
from datetime import UTC, date, datetime, timedelta, timezone
from typing import NamedTuple

from sitemap_lint.model import Node
from sitemap_lint.rules.base import ERROR, WARNING, rule
from sitemap_lint.rules.structure import Reporter

NOT_W3C = rule(
    "DT001",
    "date-not-w3c",
    ERROR,
    summary="A date that is not in W3C Datetime form",
    what="""
        Checks `lastmod` against W3C Datetime (`YYYY-MM-DD`, or
        `YYYY-MM-DDThh:mm:ss` with a timezone such as `Z` or `+02:00`) and shows
        the expected form for common mistakes (a space instead of `T`, slashes,
        month names, `+0200` without a colon).
    """,
    why="""
        Search engines ignore dates they cannot parse (Google: "Invalid date"),
        and with them the signal that a page changed.
    """,
    bad="<lastmod>2024-05-08 08:53:11</lastmod>",
    good="<lastmod>2024-05-08T08:53:11+00:00</lastmod>",
)

IMPOSSIBLE = rule(
    "DT002",
    "date-impossible",
    ERROR,
    summary="A date or time that does not exist",
    what="Checks the calendar: month 1-12, the days of the month (leap years included), hour 0-23, minutes and seconds 0-59, offsets up to 14:00.",
    why="A date that cannot exist is invalid; search engines discard it.",
    bad="<lastmod>2023-02-29</lastmod>",
    good="<lastmod>2023-02-28</lastmod>",
)

NOT_XSD = rule(
    "DT003",
    "date-rejected-by-schema",
    ERROR,
    summary="A W3C date form that the sitemap schema rejects",
    what="""
        Detects the W3C Datetime forms the schema does not accept: a year alone
        (`2024`), a year and month (`2024-05`), and a time without seconds
        (`2024-05-08T10:30+02:00`).
    """,
    why="""
        The protocol text allows them, but the schema's `date`/`dateTime` types
        do not, so the file fails validation and strict consumers drop the value.
        Full dates are also the more useful signal.
    """,
    bad="<lastmod>2024-05-08T10:30+02:00</lastmod>",
    good="<lastmod>2024-05-08T10:30:00+02:00</lastmod>",
)

NO_TIMEZONE = rule(
    "DT004",
    "time-without-timezone",
    WARNING,
    summary="A time without a timezone",
    what="Detects a date with a time but no `Z` or `±hh:mm` offset.",
    why="""
        W3C Datetime requires a timezone with every time; without one the moment
        is ambiguous by up to a day, and Google may treat the value as invalid.
    """,
    bad="<lastmod>2024-05-08T10:30:00</lastmod>",
    good="<lastmod>2024-05-08T10:30:00+02:00</lastmod>",
)

IN_FUTURE = rule(
    "DT005",
    "date-in-future",
    WARNING,
    summary="A `lastmod` later than now",
    what="""
        Compares each `lastmod` with the current time, or with `--now` for
        reproducible runs. Dates without a time get a day of tolerance, times
        five minutes.
    """,
    why="""
        A page cannot have been modified in the future. Bing rejects such
        timestamps, and Google stops trusting `lastmod` values from a site whose
        dates are not accurate.
    """,
    bad="<lastmod>2099-01-01</lastmod>",
    good="<lastmod>2024-05-08</lastmod>",
)

RULES = (NOT_W3C, IMPOSSIBLE, NOT_XSD, NO_TIMEZONE, IN_FUTURE)

_W3C = re.compile(
    r"(\d{4})(?:-(\d{2})(?:-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?"
    r"(Z|[+-]\d{2}:\d{2})?)?)?)?\Z"
)
_DATE_WITH_ZONE = re.compile(r"\d{4}-\d{2}-\d{2}(Z|[+-]\d{2}:\d{2})\Z")
_SPACE_SEPARATED = re.compile(r"(\d{4}-\d{2}-\d{2})[ _](\d{2}:\d{2}(?::\d{2})?(?:\.\d+)?)\s*(.*)\Z")
_COMPACT_ZONE = re.compile(r"(.*T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)([+-])(\d{2})(\d{2})\Z")
_SLASHED = re.compile(r"\d{1,4}[/.]\d{1,2}[/.]\d{1,4}")
FUTURE_TOLERANCE = timedelta(minutes=5)
DATE_TOLERANCE = timedelta(days=1)


class Parsed(NamedTuple):
    """A valid W3C date: its moment (UTC when a zone is known) and its precision."""

    moment: datetime
    has_time: bool
    has_zone: bool


class Problem(NamedTuple):
    rule: object
    message: str


def parse_w3c(value: str, field: str = "lastmod") -> tuple[Parsed | None, list[Problem]]:
    """Parse a W3C Datetime; return the moment (if usable) and the problems found."""
    match = _W3C.match(value)
    if not match:
        return None, [Problem(NOT_W3C, _not_w3c_message(value, field))]
    year, month, day, hour, minute, second, _fraction, zone = match.groups()
    problems: list[Problem] = []
    impossible = _impossible(int(year), month, day, hour, minute, second, zone)
    if impossible:
        return None, [Problem(IMPOSSIBLE, f"{value!r} is not a real date: {impossible}")]
    if month is None or day is None:
        problems.append(
            Problem(
                NOT_XSD,
                f"{value!r} is a valid W3C date but the schema requires a full date; "
                f"write {value}{'-01' if month else '-01-01'} or the exact day",
            )
        )
    elif hour is not None and second is None:
        fixed = value[: match.end(5)] + ":00" + value[match.end(5) :]
        problems.append(
            Problem(NOT_XSD, f"{value!r} has no seconds, which the schema requires; write {fixed}")
        )
    if hour is not None and zone is None:
        problems.append(
            Problem(
                NO_TIMEZONE,
                f"{value!r} has a time but no timezone; add Z or an offset such as +00:00",
            )
        )
    moment = datetime(
        int(year),
        int(month or 1),
        int(day or 1),
        int(hour or 0),
        int(minute or 0),
        int(second or 0),
        tzinfo=_zone(zone),
    )
    return Parsed(moment, hour is not None, zone is not None), problems


def check_date(
    value: str, node: Node, report: Reporter, now: datetime, field: str = "lastmod"
) -> Parsed | None:
    """Check a date value in place; reports go to ``report``, covering ``node``."""
    text = value.strip()
    parsed, problems = _cached_parse(text, field)
    for problem in problems:
        report.add(problem.rule.at(node.line, node.column, problem.message), node)
    if parsed is not None and _is_future(parsed, now):
        report.add(
            IN_FUTURE.at(
                node.line,
                node.column,
                f"<{field}> {text} is in the future (now is {now.strftime('%Y-%m-%dT%H:%M:%SZ')}); "
                "give the real date of the last change",
            )
        )
    return parsed


_cache: dict[tuple[str, str], tuple[Parsed | None, list[Problem]]] = {}


def _cached_parse(text: str, field: str) -> tuple[Parsed | None, list[Problem]]:
    key = (text, field)
    result = _cache.get(key)
    if result is None:
        if len(_cache) > 4096:
            _cache.clear()
        result = _cache[key] = parse_w3c(text, field)
    return result


def _is_future(parsed: Parsed, now: datetime) -> bool:
    moment = parsed.moment
    if moment.tzinfo is None:
        return moment > now.replace(tzinfo=None) + DATE_TOLERANCE
    if not parsed.has_time:
        return moment > now + DATE_TOLERANCE
    return moment > now + FUTURE_TOLERANCE


def _zone(zone: str | None) -> timezone | None:
    if zone is None:
        return None
    if zone == "Z":
        return UTC
    sign = -1 if zone[0] == "-" else 1
    return timezone(sign * timedelta(hours=int(zone[1:3]), minutes=int(zone[4:6])))


def _impossible(year, month, day, hour, minute, second, zone) -> str | None:
    if year == 0:
        return "year 0000 does not exist"
    if month is not None and not 1 <= int(month) <= 12:
        return f"month {month} does not exist"
    if day is not None:
        last = calendar.monthrange(year, int(month))[1]
        if not 1 <= int(day) <= last:
            return f"{date(year, int(month), 1):%B %Y} has no day {day}"
    if hour is not None and int(hour) > 23:
        return f"hour {hour} does not exist (use 00 of the next day)"
    if minute is not None and int(minute) > 59:
        return f"minute {minute} does not exist"
    if second is not None and int(second) > 59:
        return f"second {second} does not exist"
    if zone and zone != "Z":
        hours, minutes = int(zone[1:3]), int(zone[4:6])
        if minutes > 59 or hours * 60 + minutes > 14 * 60:
            return f"timezone offset {zone} is beyond ±14:00"
    return None


def _not_w3c_message(value: str, field: str) -> str:
    shown = value if len(value) <= 60 else value[:57] + "..."
    suggestion = None
    match = _SPACE_SEPARATED.match(value)
    if match:
        day, time, rest = match.groups()
        if time.count(":") == 1:
            time += ":00"
        zone = rest.strip()
        if re.fullmatch(r"[+-]\d{2}:?\d{2}", zone):
            zone = zone[:3] + ":" + zone[-2:]
        elif zone.upper() in ("Z", "UTC", "GMT"):
            zone = "+00:00"
        else:
            zone = "+00:00 (or your offset)"
        suggestion = f"{day}T{time}{zone}"
    else:
        compact = _COMPACT_ZONE.match(value)
        if compact:
            suggestion = (
                f"{compact.group(1)}{compact.group(2)}{compact.group(3)}:{compact.group(4)}"
            )
        elif _DATE_WITH_ZONE.match(value):
            suggestion = value[:10]
    if suggestion:
        return f"<{field}> {shown!r} is not a W3C Datetime; write {suggestion}"
    if _SLASHED.match(value):
        return f"<{field}> {shown!r} is not a W3C Datetime; write the date as YYYY-MM-DD"
    return (
        f"<{field}> {shown!r} is not a W3C Datetime; write YYYY-MM-DD or YYYY-MM-DDThh:mm:ss+hh:mm"
    )

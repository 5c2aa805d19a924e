"""Date rules: `lastmod` in W3C Datetime form, accepted by the schema, real and not in the future.

The date parser is shared: extension rules (video, news) reuse ``parse_w3c``
and ``check_date``.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta, timezone
from typing import TYPE_CHECKING

from sitemap_lint.domain.moments import calendar_moment
from sitemap_lint.finding import Rule
from sitemap_lint.fix.model import replace_text
from sitemap_lint.model import XML_SPACE, Node
from sitemap_lint.rules.base import ERROR, WARNING, check, rule
from sitemap_lint.rules.registry import proved_value
from sitemap_lint.rules.structure import Reporter
from sitemap_lint.support.patterns import lazy
from sitemap_lint.support.records import NamedTuple

if TYPE_CHECKING:
    from sitemap_lint.rules.entry import EntryContext

NOT_W3C = rule(
    "DT001",
    "date-not-w3c",
    ERROR,
    fix="unsafe",
    summary="A date that is not in W3C Datetime form",
    what="""
        Checks `lastmod` against W3C Datetime (`YYYY-MM-DD`, or
        `YYYY-MM-DDThh:mm:ss` with a timezone such as `Z` or `+02:00`) and shows
        the expected form for common mistakes (a space instead of `T`, slashes
        when the day and month cannot be confused, month names, RSS-style dates,
        lower-case `t` or `z`, missing zeros, `+0200` without a colon).
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
    fix="safe",
    summary="A W3C date form that the sitemap schema rejects",
    what="""
        Detects the W3C Datetime forms the schema does not accept: a year alone
        (`2024`), a year and month (`2024-05`), and a time without seconds
        (`2024-05-08T10:30+02:00`; when the timezone is missing as well, this one
        finding names both). The fix writes the seconds of a time (`:00`); where
        the timezone is missing too, it writes UTC's (`+00:00`), an unsafe fix: the
        zone is a guess. A year or a year and month is left to you: the day would
        be a guess.
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
    fix="unsafe",
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
        five minutes. A month or a year written alone (`2025-06`, `2025`) is in
        the future only when it has not begun: its first day is the one compared.
    """,
    why="""
        A page cannot have been modified in the future. Bing rejects such
        timestamps, and Google stops trusting `lastmod` values from a site whose
        dates are not accurate.
    """,
    bad="<lastmod>2099-01-01</lastmod>",
    good="<lastmod>2024-05-08</lastmod>",
)

TOO_OLD = rule(
    "DT006",
    "date-implausibly-old",
    WARNING,
    summary="A `lastmod` before 1970, or the Unix epoch itself",
    what="""
        Detects a `lastmod` that is a real date but lies before 1970 in UTC (such as
        `0001-01-01`, a framework's empty date), or is 1970-01-01 at midnight
        UTC (a timestamp of 0). The web did not exist then, so the value is a
        placeholder, not the date of a change. A month or a year written alone
        is reported only before 1970: `1970-01` is a whole month, not the epoch.
    """,
    why="""
        Such dates come from an unset field or a timestamp of zero. Search
        engines use `lastmod` only when it is consistently accurate; a
        placeholder date makes every `lastmod` of the site less trusted. Write
        the real date of the last change, or leave `lastmod` out.
    """,
    bad="<lastmod>0001-01-01T00:00:00+00:00</lastmod>",
    good="<lastmod>2024-05-08</lastmod>",
)

# The family: its title in the rule lists, and its place among the families.
FAMILY = "Dates"
ORDER = 80

RULES = (NOT_W3C, IMPOSSIBLE, NOT_XSD, NO_TIMEZONE, IN_FUTURE, TOO_OLD)

_W3C = lazy(
    r"(\d{4})(?:-(\d{2})(?:-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?"
    r"(Z|[+-]\d{2}:\d{2})?)?)?)?\Z",
    re.ASCII,  # (a full-width digit is no W3C digit, though int() reads it)
)
_DATE_WITH_ZONE = lazy(r"(\d{4}-\d{2}-\d{2})(Z|[+-]\d{2}:\d{2})\Z")
_SPACE_SEPARATED = lazy(r"(\d{4}-\d{2}-\d{2})[ _](\d{2}:\d{2}(?::\d{2})?(?:\.\d+)?)\s*(.*)\Z")
_COMPACT_ZONE = lazy(r"(.*T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)([+-])(\d{2})(\d{2})\Z")
_UNPADDED = lazy(r"(\d{4})-(\d{1,2})-(\d{1,2})((?:[Tt ]\d{1,2}:\d{1,2}(?::\d{1,2})?)?)(.*)\Z")
_SLASHED = lazy(r"(\d{1,4})([/.])(\d{1,2})\2(\d{1,4})\Z")
_BASIC = lazy(r"(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})?(Z|[+-]\d{2}:?\d{2})?)?\Z")
_MONTHS = {
    name: number
    for number, name in enumerate(
        ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"), 1
    )
}
_DAYS = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)  # in each month of a common year
_MONTH_NAMES = lazy(
    r"(?:(?P<d1>\d{1,2})(?:st|nd|rd|th)?\.?\s+(?P<m1>[A-Za-z]{3,})\.?,?\s+(?P<y1>\d{4})"
    r"|(?P<m2>[A-Za-z]{3,})\.?\s+(?P<d2>\d{1,2})(?:st|nd|rd|th)?,?\s+(?P<y2>\d{4}))\Z"
)
_ZONE_WORD = lazy(r"(.*\d)\s*(?:UTC|GMT|Z)\Z", re.IGNORECASE)
FUTURE_TOLERANCE = timedelta(minutes=5)
DATE_TOLERANCE = timedelta(days=1)


class Parsed(NamedTuple):
    """A valid W3C date: its moment (the first of the period it names: a year, a month or
    a day, at midnight, for a value without a time) and its precision."""

    moment: datetime
    has_time: bool
    has_zone: bool
    # What a value without a time names: "year", "month" or "day" ("day" for a time).
    period: str = "day"

    def last_day(self) -> datetime:
        """The latest reading of the value by day: the first moment of the last day of
        the month or year a reduced date names, else its moment."""
        moment = self.moment
        if self.period == "year":
            return moment.replace(month=12, day=31)
        if self.period == "month":
            return moment.replace(day=_days_in(moment.year, moment.month))
        return moment

    def end(self) -> datetime:
        """The end of the period a value without a time names (the first moment after
        its day, month or year; the last one the calendar has after 9999-12-31); the
        moment of a value with a time."""
        if self.has_time:
            return self.moment
        last = self.last_day()
        if last.date() == date.max:
            return last.replace(hour=23, minute=59, second=59, microsecond=999_999)
        return last + timedelta(days=1)


class Problem(NamedTuple):
    """A defect of a date value: its rule, its message, and the value its message says
    to write where a fix may write it, with whether that fix is safe."""

    rule: Rule
    message: str
    fix: tuple[str, bool] | None = None


def parse_w3c(value: str, field: str = "lastmod") -> tuple[Parsed | None, list[Problem]]:
    """Parse a W3C Datetime; return the moment (if usable) and the problems found.

    Each defect of the value gives one problem: a time without seconds and
    without a timezone is one DT003 whose fix adds both.
    """
    match = _W3C.match(value)
    if not match:
        return None, [Problem(NOT_W3C, _not_w3c_message(value, field), _spaced_fix(value))]
    parts = match.groups()
    year, month, day, hour, minute, second, _fraction, zone = parts
    problems: list[Problem] = []
    moment = _moment(parts[:6], zone)
    if moment is None:  # (what is wrong, looked for only in a date that has it)
        impossible = _impossible(int(year), month, day, hour, minute, second, zone)
        assert impossible is not None  # (``_moment`` makes any moment it finds possible)
        what = "a time the schema takes" if impossible.startswith("second 60 (") else "a real date"
        problems.append(Problem(IMPOSSIBLE, f"<{field}> {value!r} is not {what}: {impossible}"))
    if moment is not None and (month is None or day is None):
        problems.append(
            Problem(
                NOT_XSD,
                f"<{field}> {value!r} is a valid W3C date but the schema requires a full date; "
                f"write {value}{'-01' if month else '-01-01'} or the exact day",
            )
        )
    elif hour is not None and second is None:
        # Seconds written: the same moment (safe); a zone too: a guess (unsafe).
        fixed = value[: match.end(5)] + ":00" + value[match.end(5) :]
        missing = "no seconds, which the schema requires"
        if zone is None:
            fixed += "+00:00"
            missing += ", and no timezone"
        # The value of an impossible date is no model to copy: only what to add is said.
        if moment is None:
            advice = "add :00 after the minutes" + (" and a timezone" if zone is None else "")
        else:
            advice = f"write {fixed}" + (" (or your offset)" if zone is None else "")
        problems.append(
            Problem(
                NOT_XSD, f"<{field}> {value!r} has {missing}; {advice}", (fixed, zone is not None)
            )
        )
    if hour is not None and zone is None and second is not None:
        fixed = value + "+00:00"
        advice = (
            "add one after the time: Z for UTC, or your offset such as +02:00"
            if moment is None
            else f"write {fixed} (or your offset; Z also means UTC)"
        )
        problems.append(
            Problem(
                NO_TIMEZONE,
                f"<{field}> {value!r} has a time but no timezone; {advice}",
                (fixed, False),
            )
        )
    if moment is None:
        return None, problems
    period = "year" if month is None else "month" if day is None else "day"
    return Parsed(moment, hour is not None, zone is not None, period), problems


def _moment(parts: tuple[str | None, ...], zone: str | None) -> datetime | None:
    """The moment a W3C Datetime's parts name, or None exactly where ``_impossible``
    finds them impossible (the calendar's refusals, and an offset beyond ±14:00)."""
    tzinfo = None
    if zone is not None:
        tzinfo = _ZONES.get(zone)
        if tzinfo is None:
            if zone != "Z" and (int(zone[4:6]) > 59 or int(zone[1:3]) * 60 + int(zone[4:6]) > 840):
                return None
            tzinfo = _ZONES[zone] = _zone(zone)
    return calendar_moment(parts, tzinfo)


# The offsets read so far (a file's dates share a few).
_ZONES: dict[str, timezone | None] = {}


_SPACED = lazy(r"\d{4}-\d\d-\d\d \d\d:\d\d(:\d\d(?:\.\d+)?)?(Z|[+-]\d\d:\d\d)?\Z")


def _spaced_fix(text: str) -> tuple[str, bool] | None:
    """The W3C form of a date and time whose fault is a space for ``T``: seconds
    (``:00``) and a zone (UTC) written where it has none, as the message says. Unsafe:
    the zone may be a guess."""
    match = _SPACED.match(text)
    if match is None:
        return None
    seconds, zone = match.groups()
    minutes = text[:16].replace(" ", "T", 1)  # up to hh:mm
    return f"{minutes}{seconds or ':00'}{zone or '+00:00'}", False


def _date_fix(problem: Problem, field: str) -> tuple[str, bool] | None:
    """The fix a problem offers (the value to write, whether writing it is safe), when
    that value is a valid date the schema takes; else None."""
    if problem.fix is None:
        return None
    parsed, problems = _cached_parse(problem.fix[0], field)
    return problem.fix if parsed is not None and not problems else None


def check_date(
    value: str,
    node: Node,
    report: Reporter,
    now: datetime,
    field: str = "lastmod",
    future_ok: bool = False,
) -> Parsed | None:
    """Check a date value in place; reports go to ``report``, covering ``node``.

    ``future_ok`` is for dates that are meant to lie ahead (an expiration date).
    """
    text = value.strip(XML_SPACE)
    parsed, problems = _cached_parse(text, field)
    for problem in problems:
        fix = _date_fix(problem, field) if value == node.text else None
        report.add(
            problem.rule.at(
                node.line,
                node.column,
                problem.message,
                fix=None if fix is None else replace_text(node, fix[0], f"Write {fix[0]}", fix[1]),
            ),
            # A time without a timezone is valid against the schema: that finding
            # explains no schema error on the node (xsi:nil, say), which must show.
            None if problem.rule is NO_TIMEZONE else node,
        )
    if not future_ok and parsed is not None and _is_future(parsed, now):
        real = "the real date of the last change" if field == "lastmod" else "the real date"
        report.add(
            IN_FUTURE.at(
                node.line,
                node.column,
                f"<{field}> {text} is in the future (now is {utc_text(now)}); give {real}",
            )
        )
    if field == "lastmod" and parsed is not None:
        old = _implausibly_old(parsed)
        if old is not None:
            report.add(
                TOO_OLD.at(
                    node.line,
                    node.column,
                    f"<lastmod> {text} {old}, so it is a placeholder, not the date of a change; "
                    "write the real date of the last change, or leave <lastmod> out",
                )
            )
    return parsed


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def _implausibly_old(parsed: Parsed) -> str | None:
    """Why a valid lastmod cannot be the date of a change to a web page, or None."""
    moment = parsed.moment
    if moment.tzinfo is not None:  # the instant, as the epoch is one
        try:
            moment = moment.astimezone(UTC)
        except OverflowError:  # before the year 1 in UTC, or after 9999
            return "is before 1970, long before the web existed" if moment.year < 1970 else None
    if moment == _EPOCH.replace(tzinfo=moment.tzinfo) and parsed.period == "day":
        return "is the Unix epoch, what a timestamp of 0 gives"
    if moment.year < 1970:
        return "is before 1970, long before the web existed"
    return None


def _moment_of(node: Node) -> datetime | None:
    parsed = parse_date(node.text)
    return parsed.moment if parsed is not None else None


@check(
    "lastmod",
    emits=RULES,
    covers=True,
    provides="moment",
    fallback=_moment_of,
    proof=proved_value("date"),
)
def check_lastmod(node: Node, entry: EntryContext, report: Reporter) -> None:
    """The date rules on an entry's ``lastmod``; its moment feeds the set checks."""
    parsed = check_date(node.text, node, report, entry.now)
    entry.moment = parsed.moment if parsed is not None else None


def read_date(value: str, field: str = "lastmod") -> tuple[Parsed | None, list[Problem]]:
    """``value`` as the date rules read it and the problems they find, nothing reported
    (the same cached reading ``check_date`` makes)."""
    return _cached_parse(value.strip(XML_SPACE), field)


def parse_date(value: str, field: str = "lastmod") -> Parsed | None:
    """``value`` read as the date rules read it, or None; nothing is reported."""
    return _cached_parse(value.strip(XML_SPACE), field)[0]


_cache: dict[tuple[str, str], tuple[Parsed | None, list[Problem]]] = {}


def _cached_parse(text: str, field: str) -> tuple[Parsed | None, list[Problem]]:
    key = (text, field)
    result = _cache.get(key)
    if result is None:
        if len(_cache) > 4096:
            _cache.clear()
        result = _cache[key] = parse_w3c(text, field)
    return result


def utc_text(moment: datetime) -> str:
    """``moment`` as messages write it, in UTC: ``2024-03-06T04:30:00Z`` (a moment with
    no zone is taken as UTC)."""
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


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


def _days_in(year: int, month: int) -> int:
    """The days of a month of the proleptic Gregorian calendar (as ``calendar.monthrange``)."""
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    return 29 if month == 2 and leap else _DAYS[month - 1]


def _impossible(
    year: int,
    month: str | None,
    day: str | None,
    hour: str | None,
    minute: str | None,
    second: str | None,
    zone: str | None,
) -> str | None:
    if year == 0:
        return "year 0000 does not exist; write the real year"
    if month is not None and not 1 <= int(month) <= 12:
        return f"month {month} does not exist; months run from 01 to 12: write the real date"
    if day is not None:
        assert month is not None  # the pattern has no day without a month
        last = _days_in(year, int(month))
        if not 1 <= int(day) <= last:
            return (
                f"{date(year, int(month), 1):%B %Y} has no day {day}; it has {last} days:"
                " write the real date"
            )
    if hour is not None and int(hour) > 23:
        # 24:00 is the end of the day: the next day's 00:00 (for hour 25 that is a guess).
        after = " (write 00 of the next day)" if int(hour) == 24 else ""
        return f"hour {hour} does not exist; hours run from 00 to 23{after}"
    if minute is not None and int(minute) > 59:
        return f"minute {minute} does not exist; minutes run from 00 to 59: write the real time"
    if second is not None and int(second) > 59:
        if second == "60" and _at_leap_second(hour, minute, zone):  # XSD has none
            return "second 60 (a leap second) is outside its seconds 00 to 59; write 59"
        return f"second {second} does not exist; seconds run from 00 to 59: write the real time"
    if zone and zone != "Z":
        hours, minutes = int(zone[1:3]), int(zone[4:6])
        if minutes > 59:
            return (
                f"timezone offset {zone} has minute {zone[4:6]}, and minutes run from 00 to 59; "
                "write the real offset, or Z for UTC"
            )
        if hours * 60 + minutes > 14 * 60:
            return f"timezone offset {zone} is beyond ±14:00; write the real offset, or Z for UTC"
    return None


def impossible_moment(
    year: int, month: int, day: int, hour: int, minute: int, second: int
) -> str | None:
    """What makes a date and time no moment of the calendar (month 13, 31 April, hour
    24, ...) and the fix, as the date rules say it; None when it is one."""
    return _impossible(
        year, f"{month:02}", f"{day:02}", f"{hour:02}", f"{minute:02}", f"{second:02}", None
    )


def _at_leap_second(hour: str | None, minute: str | None, zone: str | None) -> bool:
    """Whether a time of second 60 stands where leap seconds are inserted: 23:59 UTC."""
    if hour is None or minute is None:
        return False
    local = int(hour) * 60 + int(minute)
    offset = 0
    if zone and zone != "Z":
        offset = (-1 if zone[0] == "-" else 1) * (int(zone[1:3]) * 60 + int(zone[4:6]))
    return (local - offset) % (24 * 60) == 23 * 60 + 59


def _is_valid(candidate: str) -> bool:
    """True when ``candidate`` is a real date in a form both W3C and the schema accept."""
    match = _W3C.match(candidate)
    if not match:
        return False
    year, month, day, hour, minute, second, _fraction, zone = match.groups()
    if day is None or (hour is not None and (second is None or zone is None)):
        return False
    return _impossible(int(year), month, day, hour, minute, second, zone) is None


# Said after a suggested date whose time zone is a guess.
_OFFSET_HINT = " (or your offset)"


def _with_zone(stamp: str, zone: str) -> str:
    """``stamp`` with ``zone`` written as W3C wants it: Z or ±hh:mm; '' when unknown."""
    zone = zone.strip()
    if not zone:
        return f"{stamp}+00:00{_OFFSET_HINT}"
    if zone.upper() in ("Z", "UTC", "GMT"):
        return f"{stamp}Z"
    if re.fullmatch(r"[+-]\d{2}:?\d{2}", zone):
        return f"{stamp}{zone[:3]}:{zone[-2:]}"
    return ""


def _suggestion(value: str) -> str | None:
    """A corrected form of a common non-W3C date, or None when there is no safe guess."""
    candidates: list[str] = []
    if value.strip() != value:  # (white space around it that XML keeps: a no-break space)
        candidates.append(value.strip())
    match = _SPACE_SEPARATED.match(value)
    if match:
        day, time, rest = match.groups()
        if time.count(":") == 1:
            time += ":00"
        candidates.append(_with_zone(f"{day}T{time}", rest))
    match = _COMPACT_ZONE.match(value)
    if match:
        candidates.append(f"{match.group(1)}{match.group(2)}{match.group(3)}:{match.group(4)}")
    match = _DATE_WITH_ZONE.match(value)
    if match:
        candidates.append(match.group(1))
    match = _ZONE_WORD.match(value)
    if match and "T" in match.group(1).upper():
        candidates.append(match.group(1).upper() + "Z")
    if "t" in value or "z" in value:
        candidates.append(value.upper())
    if " " in value:
        candidates.append(value.replace(" ", ""))
    match = _UNPADDED.match(value)
    if match:
        year, month, day, time, rest = match.groups()
        stamp = f"{year}-{int(month):02d}-{int(day):02d}"
        if time:
            parts = [f"{int(part):02d}" for part in time[1:].split(":")]
            stamp += "T" + ":".join([*parts, "00"][:3])
            stamp = _with_zone(stamp, rest)
        elif rest:
            stamp = ""
        candidates.append(stamp)
    match = _SLASHED.match(value)
    if match:
        candidates.append(_from_slashed(*match.group(1, 2, 3, 4)) or "")
    match = _BASIC.match(value)
    if match:
        year, month, day, hour, minute, second, zone = match.groups()
        stamp = f"{year}-{month}-{day}"
        if hour:
            stamp = _with_zone(f"{stamp}T{hour}:{minute}:{second or '00'}", zone or "")
        candidates.append(stamp)
    match = _MONTH_NAMES.match(value)
    if match:
        month = _MONTHS.get((match["m1"] or match["m2"])[:3].lower())
        day = match["d1"] or match["d2"]
        year = match["y1"] or match["y2"]
        if month:
            candidates.append(f"{year}-{month:02d}-{int(day):02d}")
    if "," in value and ":" in value:
        candidates.append(_from_rfc2822(value) or "")
    for candidate in candidates:
        if candidate and _is_valid(candidate.removesuffix(_OFFSET_HINT)):
            return candidate
    return None


def _from_slashed(first: str, separator: str, second: str, third: str) -> str | None:
    """YYYY/MM/DD; DD/MM/YYYY or MM/DD/YYYY only when the day is unambiguous."""
    if len(first) == 4:
        return f"{first}-{int(second):02d}-{int(third):02d}"
    if len(third) != 4:
        return None
    a, b = int(first), int(second)
    if separator == "." or (a > 12 >= b):
        day, month = a, b
    elif b > 12 >= a:
        month, day = a, b
    else:
        return None
    return f"{third}-{month:02d}-{day:02d}"


def _from_rfc2822(value: str) -> str | None:
    """An RSS-style date (`Wed, 08 May 2024 10:00:00 GMT`) in W3C form."""
    try:
        from email.utils import parsedate_to_datetime  # only for this rare hint

        moment = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if moment.tzinfo is None:
        return None
    offset = moment.utcoffset() or timedelta(0)
    if not offset:
        return moment.strftime("%Y-%m-%dT%H:%M:%SZ")
    text = moment.strftime("%Y-%m-%dT%H:%M:%S%z")
    return text[:-2] + ":" + text[-2:]


def _not_w3c_message(value: str, field: str) -> str:
    shown = value if len(value) <= 60 else value[:57] + "..."
    suggestion = _suggestion(value) if len(value) <= 60 else None
    if suggestion:
        return f"<{field}> {shown!r} is not a W3C Datetime; write {suggestion}"
    slashed = _SLASHED.match(value)
    if slashed and len(slashed.group(4)) == 4 and slashed.group(2) == "/":
        first, second, year = int(slashed.group(1)), int(slashed.group(3)), slashed.group(4)
        if first <= 12 and second <= 12:
            return (
                f"<{field}> {shown!r} is not a W3C Datetime; write the date as YYYY-MM-DD: "
                f"{year}-{first:02d}-{second:02d} if the month comes first, "
                f"{year}-{second:02d}-{first:02d} if the day does"
            )
    if slashed:
        return f"<{field}> {shown!r} is not a W3C Datetime; write the date as YYYY-MM-DD"
    return (
        f"<{field}> {shown!r} is not a W3C Datetime; write YYYY-MM-DD or YYYY-MM-DDThh:mm:ss+hh:mm"
    )

"""Date family: each rule's failing fixtures give exactly the expected finding; passing ones none."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sitemap_lint
from sitemap_lint.finding import Finding
from sitemap_lint.model import Node
from sitemap_lint.rules import dates
from sitemap_lint.rules.dates import check_date, parse_w3c
from tests.helpers import NOW, RULE_FIXTURES, check_message

FEED = "feed"  # an RSS item's pubDate in the future
FUTURE_FEED = """<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0"><channel><title>News</title><link>https://example.com/</link>
<description>News.</description>
<item><link>https://example.com/a</link><pubDate>Wed, 01 Jan 2031 09:30:00 +0000</pubDate></item>
</channel></rss>
"""

MESSAGES = [
    ("DT001/fail.xml", "write 2024-05-08T08:53:11+00:00 (or your offset)"),
    ("DT001/fail-slashes.xml", "write 2024-01-15"),
    ("DT001/fail-compact-offset.xml", "write 2024-05-08T10:00:00+02:00"),
    ("DT001/fail-rfc822.xml", "write 2024-05-08T10:00:00Z"),
    ("DT001/fail-index.xml", "write 2025-05-12"),
    ("DT002/fail.xml", "February 2024 has no day 30; it has 29 days"),
    ("DT002/fail-month.xml", "month 13 does not exist"),
    ("DT002/fail-hour.xml", "hour 24 does not exist"),
    ("DT002/fail-offset.xml", "+15:00 is beyond ±14:00"),
    ("DT002/fail-offset-minute.xml", "offset +02:60 has minute 60, and minutes run from 00 to"),
    ("DT001/fail-other-digits.xml", "-05-08' is not a W3C Datetime; write YYYY-MM-DD"),
    ("DT003/fail.xml", "write 2024-01-01"),
    ("DT003/fail-year-month.xml", "write 2024-05-01"),
    ("DT003/fail-no-seconds.xml", "write 2024-05-08T10:30:00+02:00"),
    ("DT003/fail-no-seconds-no-zone.xml", "write 2024-05-08T10:30:00+00:00"),
    ("DT004/fail.xml", "write 2024-05-08T10:30:00+00:00"),
    ("DT005/fail.xml", "in the future (now is 2025-06-01T00:00:00Z)"),
]


@pytest.mark.parametrize(("fixture", "text"), MESSAGES, ids=[m[0] for m in MESSAGES])
def test_message_shows_the_fix(fixture: str, text: str) -> None:
    check_message(fixture, text)


ZONELESS_EXPIRY = ("2025-03-31T23:59:59+02:00", "2025-03-31")


@pytest.mark.parametrize(
    ("fixture", "change"),
    [
        ("DT005/fail.xml", None),
        ("NW006/fail.xml", None),  # a publication date without a zone
        ("VD010/fail.xml", None),
        ("VD010/fail.xml", ZONELESS_EXPIRY),
        (FEED, None),
    ],
)
def test_now_is_written_in_utc_whatever_its_offset(
    fixture: str, change: tuple[str, str] | None, tmp_path: Path
) -> None:
    source = None if fixture == FEED else RULE_FIXTURES / fixture
    text = FUTURE_FEED if source is None else source.read_text(encoding="utf-8")
    if change is not None:
        text = text.replace(*change)
    path = tmp_path / "sitemap.xml"
    path.write_text(text, encoding="utf-8")
    result = sitemap_lint.lint_paths([path], now="2025-06-01T02:00:00+02:00", isolated=True)
    (message,) = [f.message for f in result.findings if "(now is " in f.message]
    assert "(now is 2025-06-01T00:00:00Z)" in message


@pytest.mark.parametrize(
    "value", ["2025-06-02", "2025-06-01T20:00:00", "2025-06-02T09:00:00", "2025-06"]
)
def test_one_instant_of_now_gives_one_report_whatever_its_offset(
    value: str, tmp_path: Path
) -> None:
    """A value without a zone is judged against now in UTC, so `--now` written in
    +14:00 or in UTC for the same instant reports the same."""
    path = tmp_path / "sitemap.xml"
    path.write_text(
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url>'
        f"<loc>https://example.com/</loc><lastmod>{value}</lastmod></url></urlset>",
        encoding="utf-8",
    )
    reports = [
        [
            (f.code, f.message)
            for f in sitemap_lint.lint_paths([path], now=now, isolated=True).findings
        ]
        for now in (
            "2025-05-31T10:00:00Z",
            "2025-06-01T00:00:00+14:00",
            "2025-05-30T22:00:00-12:00",
        )
    ]
    assert reports[0] == reports[1] == reports[2]


# -- parse_w3c ---------------------------------------------------------------------------------

PLUS_2 = timezone(timedelta(hours=2))


@pytest.mark.parametrize(
    ("value", "moment", "has_time", "has_zone"),
    [
        ("2024-05-08", datetime(2024, 5, 8), False, False),
        ("2024-02-29", datetime(2024, 2, 29), False, False),  # a leap day
        ("2000-02-29", datetime(2000, 2, 29), False, False),  # divisible by 400: leap
        ("2024-05-08T10:30:00Z", datetime(2024, 5, 8, 10, 30, tzinfo=UTC), True, True),
        ("2024-05-08T10:30:00+02:00", datetime(2024, 5, 8, 10, 30, tzinfo=PLUS_2), True, True),
        ("2024-05-08T10:30:00-05:30", datetime(2024, 5, 8, 16, 0, tzinfo=UTC), True, True),
        ("2024-05-08T10:30:15.5Z", datetime(2024, 5, 8, 10, 30, 15, tzinfo=UTC), True, True),
        (
            "2024-05-08T10:30:15.123456789+01:00",
            datetime(2024, 5, 8, 9, 30, 15, tzinfo=UTC),
            True,
            True,
        ),
        ("2024-12-31T23:59:59+14:00", datetime(2024, 12, 31, 9, 59, 59, tzinfo=UTC), True, True),
        ("2024-01-01T00:00:00-14:00", datetime(2024, 1, 1, 14, 0, tzinfo=UTC), True, True),
        ("2024-02-29T12:00:00Z", datetime(2024, 2, 29, 12, tzinfo=UTC), True, True),
    ],
)
def test_parse_w3c_valid_forms(
    value: str, moment: datetime, has_time: bool, has_zone: bool
) -> None:
    parsed, problems = parse_w3c(value)
    assert problems == []
    assert parsed.moment == moment
    assert (parsed.has_time, parsed.has_zone) == (has_time, has_zone)


@pytest.mark.parametrize(
    ("value", "codes", "usable"),
    [
        ("2024", ["DT003"], True),  # W3C, but not the schema's date
        ("2024-05", ["DT003"], True),
        ("2024-05-08T10:30+02:00", ["DT003"], True),
        ("2024-05-08T10:30", ["DT003"], True),  # no seconds and no zone: one problem
        ("2024-05-08T10:30:00", ["DT004"], True),
        ("2023-02-29", ["DT002"], False),
        ("1900-02-29", ["DT002"], False),  # divisible by 100, not by 400: no leap day
        ("2024-04-31", ["DT002"], False),
        ("2024-00-10", ["DT002"], False),
        ("2024-05-00", ["DT002"], False),
        ("0000-01-01", ["DT002"], False),
        ("2024-05-08T10:60:00Z", ["DT002"], False),
        ("2024-05-08T10:30:60Z", ["DT002"], False),
        ("2024-05-08T10:30:00+02:60", ["DT002"], False),
        ("2024-05-08T10:30:00-14:01", ["DT002"], False),
        # An impossible date and a missing zone or seconds: two defects, two problems.
        ("2024-13-08T10:30:00", ["DT002", "DT004"], False),
        ("2024-05-08T25:00:00", ["DT002", "DT004"], False),
        ("2024-02-30T10:30+02:00", ["DT002", "DT003"], False),
        ("2024-13-08T10:30", ["DT002", "DT003"], False),
        ("2024-13", ["DT002"], False),  # a full date written from it would be impossible too
        ("2024-05-08Z", ["DT001"], False),  # the schema's date takes a zone; W3C does not
        ("2024-05-08t10:30:00z", ["DT001"], False),
        ("2024-5-8", ["DT001"], False),
        ("20240508", ["DT001"], False),
        ("yesterday", ["DT001"], False),
        ("", ["DT001"], False),
    ],
)
def test_parse_w3c_problems(value: str, codes: list[str], usable: bool) -> None:
    parsed, problems = parse_w3c(value)
    assert [p.rule.code for p in problems] == codes
    assert (parsed is not None) == usable


@pytest.mark.parametrize(
    ("value", "leap"),
    [
        ("2016-12-31T23:59:60Z", True),  # a real leap second
        ("2016-12-31T18:59:60-05:00", True),  # the same moment in New York
        ("2015-07-01T05:29:60+05:30", True),  # 23:59:60 UTC on June 30 in India
        ("2024-05-08T10:30:60Z", False),  # no leap second is inserted at 10:30
        ("2024-05-08T23:58:60Z", False),
    ],
)
def test_second_60_is_called_a_leap_second_only_at_23_59_utc(value: str, leap: bool) -> None:
    _parsed, [problem] = parse_w3c(value)
    assert problem.rule.code == "DT002"
    assert ("(a leap second)" in problem.message) is leap
    assert "write 59" in problem.message if leap else "second 60 does not exist" in problem.message


@pytest.mark.parametrize(
    ("value", "suggestion"),
    [
        ("2024-05-08 08:53", "2024-05-08T08:53:00+00:00"),
        ("2024-05-08 08:53:11 +0200", "2024-05-08T08:53:11+02:00"),
        ("2024-05-08 08:53:11Z", "2024-05-08T08:53:11Z"),
        ("2024-05-08T10:30:00 +02:00", "2024-05-08T10:30:00+02:00"),
        ("2024-05-08T10:30:00UTC", "2024-05-08T10:30:00Z"),
        ("2024-05-08t10:30:00z", "2024-05-08T10:30:00Z"),
        ("2024-5-8", "2024-05-08"),
        ("2024-5-8T9:05:00Z", "2024-05-08T09:05:00Z"),
        ("2024/05/08", "2024-05-08"),
        ("15/01/2024", "2024-01-15"),
        ("08.05.2024", "2024-05-08"),
        ("20240508T103000Z", "2024-05-08T10:30:00Z"),
        ("May 8, 2024", "2024-05-08"),
        ("8th May 2024", "2024-05-08"),
        ("Wed, 08 May 2024 10:00:00 +0200", "2024-05-08T10:00:00+02:00"),
        ("2024-05-08+02:00", "2024-05-08"),
        ("05/06/2024", "2024-05-06 if the month comes first, 2024-06-05 if the day does"),
    ],
)
def test_not_w3c_message_suggests_the_w3c_form(value: str, suggestion: str) -> None:
    _, problems = parse_w3c(value)
    (problem,) = problems
    assert problem.rule is dates.NOT_W3C
    assert f"write {suggestion}" in problem.message or suggestion in problem.message


@pytest.mark.parametrize("value", ["2023/02/29", "2024-02-30 10:00:00", "13/13/2024"])
def test_no_suggestion_of_an_impossible_date(value: str) -> None:
    _, problems = parse_w3c(value)
    (problem,) = problems
    assert "write YYYY-MM-DD" in problem.message or "as YYYY-MM-DD" in problem.message


# -- the future ---------------------------------------------------------------------------------


class Collect:
    def __init__(self) -> None:
        self.findings: list[Finding] = []

    def add(self, finding: Finding, covers: Node | None = None) -> None:
        self.findings.append(finding)


def future_codes(value: str, now: datetime = NOW) -> list[str]:
    report = Collect()
    check_date(value, Node("", "lastmod", {}, 5, 5), report, now)
    return [f.code for f in report.findings]


@pytest.mark.parametrize(
    "value",
    [
        "2025-06-01",
        "2025-06-02",  # a date of the next day: within a day of tolerance (time zones)
        "2025-06-01T00:04:59Z",  # within five minutes (clock skew)
        "2025-06-01T01:00:00+02:00",  # 23:00 the day before in UTC
        "2025-05-31T23:59:59-00:00",
    ],
)
def test_not_in_the_future(value: str) -> None:
    assert future_codes(value) == []


@pytest.mark.parametrize(
    ("value", "codes"),
    [
        ("2025-06-03", ["DT005"]),
        ("2025-06-01T00:06:00Z", ["DT005"]),
        ("2025-06-01T00:30:00-01:00", ["DT005"]),  # 01:30 UTC
        ("2025-06-02T00:30:00", ["DT004", "DT005"]),  # two defects: no zone, and a day ahead
        ("2099-01-01", ["DT005"]),
    ],
)
def test_in_the_future(value: str, codes: list[str]) -> None:
    assert future_codes(value) == codes


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        ("1969-12-31T23:00:00-01:00", "is the Unix epoch"),
        ("1970-01-01T00:30:00+01:00", "is before 1970"),  # 23:30 UTC the day before
        ("0001-01-01T00:00:00+14:00", "is before 1970"),
        ("1970-01-01T00:00:00", "is the Unix epoch"),
        ("1970-01-01T00:30:00-01:00", None),
        ("9999-12-31T23:59:59-14:00", None),  # after 9999 in UTC, which Python cannot hold
    ],
)
def test_the_old_dates_are_judged_by_their_instant(value: str, problem: str | None) -> None:
    report = Collect()
    check_date(value, Node("", "lastmod", {}, 5, 5), report, NOW)
    found = [f.message for f in report.findings if f.code == "DT006"]
    if problem is None:
        assert found == []
    else:
        (message,) = found
        assert problem in message


@pytest.mark.parametrize(
    ("value", "codes"),
    [
        ("2025-06", ["DT003"]),  # begun at NOW: not in the future
        ("2025", ["DT003"]),
        ("2025-07", ["DT003", "DT005"]),
        ("2026", ["DT003", "DT005"]),
        ("1970", ["DT003"]),  # the whole year, not the epoch
        ("1970-01", ["DT003"]),
        ("1969-12", ["DT003", "DT006"]),
        ("1970-01-01", ["DT006"]),
    ],
)
def test_a_month_or_year_is_read_from_its_first_day(value: str, codes: list[str]) -> None:
    assert future_codes(value) == codes


@pytest.mark.parametrize(
    ("value", "last_day", "end"),
    [
        ("2024-02", datetime(2024, 2, 29), datetime(2024, 3, 1)),
        ("2023-02", datetime(2023, 2, 28), datetime(2023, 3, 1)),
        ("2025", datetime(2025, 12, 31), datetime(2026, 1, 1)),
        ("2025-12", datetime(2025, 12, 31), datetime(2026, 1, 1)),
        ("2025-06-15", datetime(2025, 6, 15), datetime(2025, 6, 16)),
        ("9999", datetime(9999, 12, 31), datetime.max),
        (
            "2025-06-15T10:00:00+02:00",
            datetime(2025, 6, 15, 8, tzinfo=UTC),
            datetime(2025, 6, 15, 8, tzinfo=UTC),
        ),
    ],
)
def test_the_period_a_date_names(value: str, last_day: datetime, end: datetime) -> None:
    parsed = dates.parse_date(value)
    assert parsed is not None
    assert (parsed.last_day(), parsed.end()) == (last_day, end)


def test_surrounding_whitespace_is_allowed() -> None:
    assert future_codes("\n      2024-05-08\n    ") == []


@pytest.mark.parametrize("value", ["\u00a02024-05-08", "2024-05-08\u2003"])
def test_white_space_the_schema_keeps_makes_no_date(value: str) -> None:
    # The schema collapses spaces, tabs and line breaks around a value, no other white
    # space: a no-break space is part of the value, which then is no date.
    report = Collect()
    check_date(value, Node("", "lastmod", {}, 5, 5), report, NOW)
    (finding,) = report.findings
    assert (finding.code, finding.message.endswith("; write 2024-05-08")) == ("DT001", True)
    assert dates.parse_date(value) is None


def test_days_in_a_month_are_the_calendar_modules() -> None:
    import calendar

    from sitemap_lint.rules.dates import _MONTHS, _days_in

    assert all(
        _days_in(year, month) == calendar.monthrange(year, month)[1]
        for year in range(1, 10000)
        for month in range(1, 13)
    )
    assert {name.lower(): n for n, name in enumerate(calendar.month_abbr) if name} == _MONTHS


@settings(max_examples=2000, deadline=None)
@given(
    st.sampled_from(["0000", "0001", "1999", "2000", "2024", "2100", "9999"]),
    st.integers(0, 13),
    st.integers(0, 32),
    st.integers(0, 25),
    st.integers(0, 61),
    st.integers(0, 61),
    st.sampled_from(
        [None, "Z", "+00:00", "-00:00", "+14:00", "+14:01", "-14:00", "+13:60", "-23:59", "+05:30"]
    ),
)
def test_a_moment_is_made_exactly_where_nothing_is_impossible(
    year: str, month: int, day: int, hour: int, minute: int, second: int, zone: str | None
) -> None:
    """``parse_w3c`` makes the moment first and asks what is impossible only where it
    cannot: the two agree on every date and time, leap seconds and offsets included."""
    parts = (year, f"{month:02d}", f"{day:02d}", f"{hour:02d}", f"{minute:02d}", f"{second:02d}")
    moment = dates._moment(parts, zone)
    impossible = dates._impossible(int(year), *parts[1:], zone)
    assert (moment is None) is (impossible is not None)
    if moment is not None:
        assert moment.utcoffset() == (None if zone is None else dates._zone(zone).utcoffset(None))


@pytest.mark.parametrize(
    ("value", "advice"),
    [
        ("2024-13-08T10:30:00", "add one after the time: Z for UTC, or your offset such as +02:00"),
        ("2024-13-08T10:30", "add :00 after the minutes and a timezone"),
        ("2024-02-30T10:30+02:00", "add :00 after the minutes"),
    ],
)
def test_the_form_of_an_impossible_date_is_told_without_copying_its_value(
    value: str, advice: str
) -> None:
    _parsed, (_impossible, form) = parse_w3c(value)
    assert form.message.endswith(f"; {advice}")


def only_finding(value: str) -> Finding:
    """The one finding of the date rules on a lastmod of ``value`` (its whole text)."""
    report = Collect()
    node = Node("", "lastmod", {}, 5, 5)
    node.text = value
    check_date(value, node, report, NOW)
    (finding,) = report.findings
    return finding


@pytest.mark.parametrize(
    "value",
    [
        "2024-05-01 10:00",
        "2024-05-01 10:00Z",
        "2024-05-01 10:00+01:00",
        "2024-05-01 10:00:05",
        "2024-05-01 10:00:05.25+02:00",
    ],
)
def test_the_fix_of_a_space_for_t_writes_what_the_message_says(value: str) -> None:
    """DT001's fix of a date and time with a space for ``T`` writes the form its message
    suggests: seconds where it has none, a zone (UTC) where it has none."""
    finding = only_finding(value)
    assert finding.code == "DT001"
    assert finding.fix is not None
    (edit,) = finding.fix.edits
    assert parse_w3c(edit.content)[1] == []
    assert f"write {edit.content}" in finding.message


@pytest.mark.parametrize(
    ("value", "fixed", "safe"),
    [
        ("2024-05-08T10:30+02:00", "2024-05-08T10:30:00+02:00", True),
        ("2024-05-08T10:30Z", "2024-05-08T10:30:00Z", True),
        ("2024-05-08T10:30", "2024-05-08T10:30:00+00:00", False),  # the zone is a guess
        ("2024-05", None, None),  # the day would be a guess
        ("2024", None, None),
    ],
)
def test_the_fix_of_a_time_without_seconds(value: str, fixed: str | None, safe: bool) -> None:
    """DT003's fix writes the seconds the schema requires (safe: the same moment), and
    UTC's offset where the zone is missing too (unsafe); a year or a month, none."""
    finding = only_finding(value)
    assert finding.code == "DT003"
    if fixed is None:
        assert finding.fix is None
        return
    assert finding.fix is not None
    assert [edit.content for edit in finding.fix.edits] == [fixed]
    assert finding.fix.is_safe is safe
    assert f"write {fixed}" in finding.message


@pytest.mark.parametrize(
    ("hour", "said"),
    [
        (24, "hour 24 does not exist; hours run from 00 to 23 (write 00 of the next day)"),
        (25, "hour 25 does not exist; hours run from 00 to 23"),  # not "00 of the next day"
        (99, "hour 99 does not exist; hours run from 00 to 23"),
    ],
)
def test_only_hour_24_is_said_to_be_the_next_days_00(hour: int, said: str) -> None:
    assert dates.impossible_moment(2024, 5, 8, hour, 0, 0) == said

"""Moments named by the parts of a W3C Datetime."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, tzinfo


def calendar_moment(
    parts: Sequence[str | None], zone: tzinfo | None, microsecond: int = 0
) -> datetime | None:
    """The moment ``parts`` name (the digits of the year, month, day, hour, minute and
    second a pattern read; the first month and day, and midnight, for those not
    written), or None where the calendar has none (year 0, a 13th month, a 31st of
    April, an hour 24, a 60th second)."""
    year, month, day, hour, minute, second = parts
    try:
        return datetime(
            int(year or 0),
            int(month or 1),
            int(day or 1),
            int(hour or 0),
            int(minute or 0),
            int(second or 0),
            microsecond,
            tzinfo=zone,
        )
    except ValueError:
        return None

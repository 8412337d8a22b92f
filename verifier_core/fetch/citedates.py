"""Dates as citations write them ("2024-04-02", "12 March 2019", "March 2019", "2019"),
and the archive timestamps they are compared with ("20190312093000")."""
from __future__ import annotations

import re
from datetime import date, datetime

from dateutil import parser as dateparser

_DEFAULT = datetime(2000, 1, 1)
_YEAR_ONLY = re.compile(r"^\s*(\d{4})\s*$")


def cited_day(text: str | None) -> date | None:
    """The day a citation's date names; a month or a year alone is read as its last day
    (a page read "in March 2019" was read by 31 March). None when there is no date."""
    text = (text or "").strip()
    if not text or not re.search(r"\d{4}", text):
        return None
    year = _YEAR_ONLY.match(text)
    if year:
        return date(int(year.group(1)), 12, 31)
    try:
        day = dateparser.parse(text, default=_DEFAULT, fuzzy=True).date()
    except (ValueError, OverflowError, TypeError):
        return None
    if not re.search(r"\b\d{1,2}\b", re.sub(r"\d{4}", "", text)):  # "March 2019": no day given
        day = _month_end(day)
    return day


def _month_end(day: date) -> date:
    following = date(day.year + (day.month == 12), day.month % 12 + 1, 1)
    return date.fromordinal(following.toordinal() - 1)


def timestamp_day(timestamp: str) -> date | None:
    """The day of a 14-digit archive timestamp (shorter ones are padded)."""
    digits = re.sub(r"\D", "", timestamp or "")[:8]
    if len(digits) < 4:
        return None
    digits = (digits + "0101")[:8] if len(digits) < 8 else digits
    try:
        return date(int(digits[:4]), max(int(digits[4:6]), 1), max(int(digits[6:8]), 1))
    except ValueError:
        return None


def day_timestamp(day: date) -> str:
    """The end of `day` as an archive timestamp: a capture that day is "not after" it."""
    return f"{day:%Y%m%d}235959"


def day_words(day: date) -> str:
    """"12 March 2019": how pages say which copy they read."""
    return f"{day.day} {day:%B %Y}"

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


# A capture timestamp as web archives write it in their links: /web/20150211093000/ (the
# Internet Archive, pywb; "id_" and the like after it ask for the raw page).
_ARCHIVE_TIMESTAMP = re.compile(r"/(\d{8}|\d{14})(?:[a-z]{2}_)?/")
_DAY_GIVEN = re.compile(r"\b\d{1,2}\b")


def archive_url_day(archive_url: str | None, archive_date: str | None) -> date | None:
    """The day of a citation's own archived copy: the capture timestamp in its link (what was
    captured, whatever the editor wrote), else its archive-date when that names a day. None
    when neither says (a month or a year alone is no day of a copy)."""
    stamp = _ARCHIVE_TIMESTAMP.search(archive_url or "")
    if stamp and (day := timestamp_day(stamp.group(1))) and f"{day:%Y%m%d}" == stamp.group(1)[:8]:
        return day
    text = (archive_date or "").strip()
    if not _DAY_GIVEN.search(re.sub(r"\d{4}", "", text)):
        return None
    return cited_day(text)

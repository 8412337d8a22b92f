"""Wayback-compatible web archives: which are configured, what a CDX lookup answers, which
capture is the page as it was cited, and the addresses of a capture.

    archives = parse_archives("https://web.archive.org/cdx/search/cdx https://web.archive.org/web/")
    url = cdx_query_url(archives[0], "http://example.org/a")    # CDX_URL?url=...&output=json
    captures = parse_cdx(body, "http://example.org/a")          # both the Internet Archive's and pywb's JSON
    best = nearest_first(captures, day)                          # not after the day, where one exists
    archives[0].raw_url(best[0].timestamp, url)                 # REPLAY_PREFIX<ts>id_/<url>
    archives[0].link_url(best[0].timestamp, url)                # REPLAY_PREFIX<ts>/<url>

Pure: the network side is in copies.py.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date
from urllib.parse import quote, urlsplit

from verifier_core.fetch.citedates import day_timestamp
from verifier_core.fetch.urls import page_key

INTERNET_ARCHIVE = "https://web.archive.org/cdx/search/cdx https://web.archive.org/web/"
CDX_LIMIT = 2000  # rows asked of one lookup; one a day at most (collapse), so years of captures


@dataclass(frozen=True)
class Archive:
    cdx_url: str
    replay_prefix: str  # ends with "/"

    @property
    def host(self) -> str:
        return (urlsplit(self.replay_prefix).hostname or "").lower()

    @property
    def hosts(self) -> tuple[str, ...]:
        """Every host of the archive (its CDX server may be another one)."""
        return tuple(dict.fromkeys(h for h in (self.host, (urlsplit(self.cdx_url).hostname or "").lower()) if h))

    @property
    def name(self) -> str:
        """How pages name it: "the Internet Archive", else "the web archive at HOST"."""
        if self.host.endswith("archive.org"):
            return "the Internet Archive"
        return f"the web archive at {urlsplit(self.replay_prefix).netloc}"

    def raw_url(self, timestamp: str, url: str) -> str:
        """The capture as it was recorded, without the archive's banner or rewritten links."""
        return f"{self.replay_prefix}{timestamp}id_/{url}"

    def link_url(self, timestamp: str, url: str) -> str:
        """The capture as readers open it: the link written into an article."""
        return f"{self.replay_prefix}{timestamp}/{url}"

    def capture_url(self, url: str) -> str:
        """Where a capture of `url` is asked for: Save Page Now for the Internet Archive,
        pywb's recording mode (`<collection>/record/`) for another archive."""
        if self.host.endswith("archive.org"):
            return f"https://web.archive.org/save/{url}"
        return f"{self.replay_prefix}record/{url}"


def parse_archives(setting: str) -> list[Archive]:
    """"CDX_URL REPLAY_PREFIX[, CDX_URL REPLAY_PREFIX ...]" -> archives, in order ("none": no
    archive). Raises
    ValueError naming the entry that is not two http(s) URLs."""
    archives = []
    if (setting or "").strip().lower() in ("none", "off"):
        return archives  # archives switched off (the tests' default: no network)
    for entry in (setting or "").split(","):
        parts = entry.split()
        if not parts:
            continue
        if len(parts) != 2 or not all(p.startswith(("http://", "https://")) for p in parts):
            raise ValueError(f"SIDE_ARCHIVES entry {entry.strip()!r} is not 'CDX_URL REPLAY_PREFIX'")
        cdx, prefix = parts
        archives.append(Archive(cdx, prefix if prefix.endswith("/") else prefix + "/"))
    return list(dict.fromkeys(archives))


def cdx_query_url(archive: Archive, url: str) -> str:
    """One lookup lists every capture of `url` (one a day): the nearest to any date is then
    chosen here, so several citations of one page cost one lookup. No `filter=`: pywb
    answers a filter that matches nothing with fuzzy matches of other pages."""
    return (f"{archive.cdx_url}?url={quote(url, safe='')}&output=json"
            f"&collapse=timestamp:8&limit={CDX_LIMIT}")


@dataclass(frozen=True)
class Capture:
    timestamp: str  # 14 digits
    url: str  # the original URL as captured
    status: str  # HTTP status of the capture ("200"), "-" for a revisit
    mime: str = ""

    def to_json(self) -> list[str]:
        return [self.timestamp, self.url, self.status, self.mime]

    @classmethod
    def from_json(cls, row: list[str]) -> "Capture":
        return cls(*row)


def parse_cdx(body: bytes | str, url: str) -> list[Capture]:
    """Captures of `url` that answered 200, oldest first, from either JSON form: the
    Internet Archive's array of rows after a header row, or pywb's one object per line.
    Fuzzy matches (another page's captures) are left out."""
    text = body.decode("utf-8", errors="replace") if isinstance(body, bytes) else body
    rows = _rows(text)
    key = page_key(url)
    out = [c for c in rows if c.status in ("200", "-") and c.timestamp.isdigit() and page_key(c.url) == key]
    return sorted(dict.fromkeys(out), key=lambda c: c.timestamp)


def _rows(text: str) -> list[Capture]:
    text = text.strip()
    if not text:
        return []
    try:
        data = json.loads(text)
    except ValueError:
        data = None
    if isinstance(data, list) and data and isinstance(data[0], list):
        header = [h.lower() for h in data[0]]
        return [_capture(dict(zip(header, row))) for row in data[1:] if isinstance(row, list)]
    objects = [data] if isinstance(data, dict) else []
    if data is None:
        for line in text.splitlines():
            try:
                item = json.loads(line)
            except ValueError:
                continue
            if isinstance(item, dict):
                objects.append(item)
    return [_capture(o) for o in objects if not o.get("is_fuzzy") and o.get("is_fuzzy") != "1"]


def _capture(row: dict) -> Capture:
    return Capture(str(row.get("timestamp", "")), str(row.get("original") or row.get("url") or ""),
                   str(row.get("statuscode") or row.get("status") or ""),
                   str(row.get("mimetype") or row.get("mime") or ""))


def nearest_first(captures: list[Capture], day: date | None) -> list[Capture]:
    """Captures in the order they are tried: the latest on or before `day` first, then
    earlier ones going back, then those after it going forward. Without a day (an undated
    citation), the newest first."""
    if day is None:
        return sorted(captures, key=lambda c: c.timestamp, reverse=True)
    limit = day_timestamp(day)
    before = sorted((c for c in captures if c.timestamp <= limit), key=lambda c: c.timestamp, reverse=True)
    after = sorted((c for c in captures if c.timestamp > limit), key=lambda c: c.timestamp)
    return before + after

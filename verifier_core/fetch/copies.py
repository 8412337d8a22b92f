"""The copy of a page as it was cited: look it up in web archives and read it raw.

    outcome = find_copy(cited, archives, policy=policy, day=day, lookups=cache)
    outcome.found, outcome.archive, outcome.timestamp, outcome.result (a FetchResult), outcome.reason

Every request goes through the same safe fetcher as cited pages (guard, size and time
caps), with the archive's own hosts let through (an archive listed in SIDE_ARCHIVES is the
admin's choice, whatever its address) and redirects kept on those hosts: the URLs inside a
capture are never fetched live. Politeness per archive is the policy's host slot (the app
passes one with the archive's rate budget); a 429 or 503 makes the lookup wait what the
archive asks (at most `max_wait`) once, then give up for now (`busy`: try later).
"""
from __future__ import annotations

import time
from dataclasses import dataclass, replace
from datetime import date
from typing import Callable, Protocol

from verifier_core.fetch.archives import Archive, Capture, cdx_query_url, nearest_first, parse_cdx
from verifier_core.fetch.citedates import day_words, timestamp_day
from verifier_core.fetch.client import fetch_source
from verifier_core.fetch.guard import Allowlist, vet
from verifier_core.fetch.metadata import PageMeta
from verifier_core.fetch.pagestate import CitedWork, PageState, PageView, page_state
from verifier_core.fetch.transport import open_pinned, parse_target, read_capped
from verifier_core.fetch.types import FetchFailure, FetchPolicy, FetchResult, FetchStatus

BUSY_CODES = frozenset({429, 503})
MAX_TRIES = 3  # captures read before giving up on an archive (soft 404s, parked pages in between)


class Lookups(Protocol):
    """A cache of CDX answers (the app keeps them in PostgreSQL)."""

    def get(self, archive: Archive, url: str) -> list[Capture] | None: ...

    def put(self, archive: Archive, url: str, captures: list[Capture]) -> None: ...


class MemoryLookups:
    """`Lookups` kept in this process only: for one run of a script, a benchmark or a test."""

    def __init__(self):
        self.rows: dict[tuple[Archive, str], list[Capture]] = {}

    def get(self, archive: Archive, url: str) -> list[Capture] | None:
        return self.rows.get((archive, url))

    def put(self, archive: Archive, url: str, captures: list[Capture]) -> None:
        self.rows[(archive, url)] = captures


class ArchiveBusy(Exception):
    def __init__(self, archive: Archive, code: int, retry_after: float):
        super().__init__(f"{archive.name} answered HTTP {code}: it asks for fewer requests")
        self.retry_after = retry_after


@dataclass(frozen=True)
class CopyOutcome:
    found: bool
    reason: str  # in words: which copy, or why none
    archive: Archive | None = None
    timestamp: str = ""
    result: FetchResult | None = None
    state: PageState | None = None  # the copy judged against the citation
    lookups: int = 0  # CDX requests made (cache hits are free)
    busy: bool = False  # an archive asked to slow down or did not answer: try again later

    @property
    def day(self) -> date | None:
        return timestamp_day(self.timestamp)

    @property
    def words(self) -> str:
        """"the Internet Archive's copy of 12 March 2019"."""
        if not self.found or self.archive is None:
            return ""
        return f"{self.archive.name}'s copy of {day_words(self.day)}"


def archive_policy(policy: FetchPolicy, archive: Archive) -> FetchPolicy:
    """The fetch policy for one archive: its hosts let through, redirects kept on them."""
    return replace(policy, allowlist=(*policy.allowlist, *archive.hosts), stay_on_hosts=archive.hosts)


def find_copy(cited: CitedWork, archives: list[Archive], *, policy: FetchPolicy, day: date | None,
              lookups: Lookups, max_wait: float = 30.0, sleep: Callable[[float], None] = time.sleep) -> CopyOutcome:
    """The first archive's capture nearest to `day` (not after it where one exists) that is
    still the cited work; archives in their configured order."""
    made, reasons, unanswered = 0, [], 0
    for archive in archives:
        try:
            outcome = _in_archive(cited, archive, policy, day, lookups, max_wait, sleep)
        except ArchiveBusy as exc:
            reasons.append(str(exc))
            unanswered += 1
            continue
        except FetchFailure as failure:  # the archive itself did not answer
            reasons.append(f"{archive.name} could not be asked ({failure.reason})")
            unanswered += 1
            continue
        made += outcome.lookups
        if outcome.found:
            return replace(outcome, lookups=made)
        reasons.append(outcome.reason)
    why = "; ".join(reasons) or "no web archive is configured"
    # Ask again later only when no archive answered at all: one that did has said "none".
    return CopyOutcome(False, why, lookups=made, busy=bool(archives) and unanswered == len(archives))


def _in_archive(cited, archive, policy, day, lookups, max_wait, sleep) -> CopyOutcome:
    captures, made = lookups.get(archive, cited.url), 0
    if captures is None:
        captures, made = _lookup(archive, cited.url, policy, max_wait, sleep), 1
        lookups.put(archive, cited.url, captures)
    if not captures:
        return CopyOutcome(False, f"{archive.name} has no copy of the page", lookups=made)
    refused, faults = [], []
    for capture in nearest_first(captures, day)[:MAX_TRIES]:
        result = _read(archive, capture, policy, max_wait, sleep)
        if result.retryable:  # timed out, refused, a 5xx: says nothing about the copy
            faults.append(result)
            continue
        state = copy_state(cited, capture.url, result)
        if result.ok and state.is_cited_work:
            return CopyOutcome(True, "", archive, capture.timestamp, result, state, made)
        refused.append(f"{day_words(timestamp_day(capture.timestamp))}: {state.sentence}")
    if not refused:  # not one capture could be read: the archive failed, not its copies (busy)
        raise FetchFailure(faults[0].status, f"reading its copies failed: {faults[0].reason}", faults[0].http_status)
    return CopyOutcome(False, f"{archive.name}'s copies are not the cited work ({'; '.join(refused)})",
                       lookups=made)


def copy_state(cited: CitedWork, url: str, result: FetchResult) -> PageState:
    """A capture judged as the live page is: the cited work, or a soft 404, parked page..."""
    view = PageView(result.status.value, url, url, result.http_status, PageMeta.from_json(result.meta),
                    result.text)
    return page_state(replace(cited, access_date="", date=""), view)


def _read(archive, capture: Capture, policy, max_wait, sleep) -> FetchResult:
    url = archive.raw_url(capture.timestamp, capture.url)
    result = fetch_source(url, policy=archive_policy(policy, archive))
    if result.status is FetchStatus.HTTP_ERROR and result.http_status in BUSY_CODES:
        _wait(archive, result.http_status, None, max_wait, sleep)
        result = fetch_source(url, policy=archive_policy(policy, archive))
        if result.http_status in BUSY_CODES:
            raise ArchiveBusy(archive, result.http_status, 0)
    return result


def _lookup(archive: Archive, url: str, policy: FetchPolicy, max_wait: float, sleep) -> list[Capture]:
    query = cdx_query_url(archive, url)
    for attempt in range(2):
        code, retry_after, body = raw_get(query, archive_policy(policy, archive))
        if code in BUSY_CODES:
            if attempt:
                raise ArchiveBusy(archive, code, retry_after or 0)
            _wait(archive, code, retry_after, max_wait, sleep)
            continue
        if code == 404 or (code == 200 and not body.strip()):
            return []  # pywb answers 404 for a page it never captured
        if code != 200:
            raise FetchFailure(FetchStatus.HTTP_ERROR, f"{archive.name} answered HTTP {code} to a lookup", code)
        return parse_cdx(body, url)
    return []


def _wait(archive: Archive, code: int, retry_after: float | None, max_wait: float, sleep) -> None:
    wait = retry_after if retry_after is not None else 5.0
    if wait > max_wait:
        raise ArchiveBusy(archive, code, wait)
    sleep(wait)


def raw_get(url: str, policy: FetchPolicy) -> tuple[int, float | None, bytes]:
    """(status, Retry-After seconds or None, body) of one GET through the guard; no redirects."""
    target = parse_target(url)
    addresses = vet(target.scheme, target.host, target.port, Allowlist.parse(policy.allowlist))
    deadline = time.monotonic() + policy.total_timeout
    with policy.host_slot(target.host):
        with open_pinned(target, addresses, policy, deadline) as response:
            retry = response.headers.get("Retry-After", "")
            body = read_capped(response, target, policy, deadline, policy.max_bytes)
            return response.status, float(retry) if retry.isdigit() else None, body

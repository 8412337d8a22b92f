"""Archived copies of cited pages: the page as it was cited, found in the configured web
archives (SIDE_ARCHIVES), stored once per page and day, lookups kept in PostgreSQL.

A copy is looked for (copy_fetch) when the live page is not the cited work (gone, moved, a
soft 404, usurped: at fetch time, sources_dead_copies) or when a dated claim fails against
the live page (the verdict asks for it: copy_wanted, then the archive stage reads it and
the claim is judged again with both).
"""
from __future__ import annotations

import hashlib
import logging
import re
from dataclasses import replace
from datetime import timedelta
from functools import lru_cache

from django.conf import settings
from django.db import transaction
from django.db.models import Prefetch, Q
from django.utils import timezone

from sideapp.sources.models import ArchivedCopy, ArchiveLookup, Source, retry_after
from sideapp.sources.politeness import RedisHostSlots, fetch_policy
from verifier_core.fetch import FetchPolicy, HostSlots
from verifier_core.fetch.archives import Archive, Capture, parse_archives
from verifier_core.fetch.citedates import cited_day, timestamp_day
from verifier_core.fetch.copies import CopyOutcome, find_copy
from verifier_core.fetch.metadata import PageMeta
from verifier_core.fetch.pagestate import NOT_THE_WORK, CitedWork, PageState, PageView, page_state

log = logging.getLogger(__name__)
# How the fetcher says the live page was gone before it read the citation's archive-url.
_GONE = re.compile(r"^live URL failed \(http_error: HTTP (404|410)\b")
# Failures where an archive may hold what the live address no longer gives. Not "blocked",
# "too_large", "unsupported_type", "no_url": about the citation itself, not the page's fate.
ARCHIVE_WORTHY = frozenset({"http_error", "timeout", "dns_error", "connection_error", "empty", "paywall_suspected"})


class ArchiveBusy(Exception):
    """Raised so that RQ tries the archive job again later (the archive asked us to wait)."""


def archives() -> list[Archive]:
    return parse_archives(settings.SIDE_ARCHIVES)


@lru_cache(maxsize=1)
def _archive_slots():
    """One request at a time per archive across all workers, SIDE_ARCHIVE_RATE a minute."""
    delay = 60.0 / settings.SIDE_ARCHIVE_RATE if settings.SIDE_ARCHIVE_RATE > 0 else 0.0
    if delay <= 0:
        return HostSlots(min_delay=0)
    from django_rq import get_connection

    return RedisHostSlots(get_connection("fetch"), min_delay=delay, prefix="side:archive")


def archive_fetch_policy() -> FetchPolicy:
    return replace(fetch_policy(), user_agent=settings.SIDE_ARCHIVE_USER_AGENT, host_slot=_archive_slots())


class DbLookups:
    """CDX answers kept in ArchiveLookup for SIDE_ARCHIVE_LOOKUP_MAX_AGE_DAYS."""

    def get(self, archive: Archive, url: str) -> list[Capture] | None:
        since = timezone.now() - timedelta(days=settings.SIDE_ARCHIVE_LOOKUP_MAX_AGE_DAYS)
        row = ArchiveLookup.objects.filter(cdx_url=archive.cdx_url, url=url, looked_up_at__gte=since).first()
        return None if row is None else [Capture.from_json(c) for c in row.captures]

    def put(self, archive: Archive, url: str, captures: list[Capture]) -> None:
        ArchiveLookup.objects.update_or_create(
            cdx_url=archive.cdx_url, url=url,
            defaults={"captures": [c.to_json() for c in captures], "looked_up_at": timezone.now()})


# --- a citation's facts --------------------------------------------------------------------

def cited_work(citation) -> CitedWork:
    """What the citation says it cites: its title, site, authors and dates."""
    fields = citation.fields or {}
    authors = [fields.get(k, "") for k in ("last", "last1", "author", "author1", "authors", "surname")]
    site = citation.work or citation.publisher or fields.get("website", "")
    url = citation.source.url if citation.source_id else citation.url
    return CitedWork(url=url, title=citation.title, site=site, authors=tuple(a for a in authors if a),
                     date=citation.date, access_date=citation.access_date)


def citation_target(citation) -> str:
    """The day the copy should come from: the access-date, else the date ("" when none)."""
    day = cited_day(citation.access_date) or cited_day(citation.date)
    return f"{day:%Y%m%d}" if day else ""


def citation_page_state(citation) -> PageState | None:
    """What became of the cited page, from its last fetch (None: not fetched, or no URL)."""
    source = citation.source if citation.source_id else None
    if source is None or source.status in (Source.Status.PENDING, Source.Status.NO_URL):
        return None
    document = getattr(source, "document", None)
    if source.used_archive:  # the citation's own archive-url was read: the live page failed
        gone = _GONE.search(source.reason)
        return (PageState("gone", f"the live page is gone (HTTP {gone.group(1)})") if gone
                else PageState("unreadable", "the live page could not be read"))
    view = PageView(source.status, source.url, source.final_url or source.url, source.http_status,
                    PageMeta.from_json(document.meta if document else {}), document.text[:3000] if document else "")
    return page_state(cited_work(citation), view)


def wants_dead_copy(citation, state: PageState | None) -> bool:
    """The live address does not give the cited work, and an archive may."""
    if state is None or state.is_cited_work or citation.source_id is None:
        return False
    source = citation.source
    return source.status == Source.Status.OK or source.status in ARCHIVE_WORTHY


# --- copies ------------------------------------------------------------------------------

def sources_dead_copies(*, source: Source) -> list[ArchivedCopy]:
    """At fetch time: a copy for each day the source is cited on whose live page is not the
    cited work, read now (the fetch job is on the network queue already). Returns the copies
    read by this call."""
    if not archives():
        return []
    source = Source.objects.select_related("document").get(pk=source.pk)
    return [copy_fetch(copy=copy) for copy in _dead_copies_wanted(source, source.citations.filter(archive_url=""))]


def sources_copies_wanted(*, source_ids: list[int]) -> None:
    """For pages that are not fetched again (fresh), at a scan or a patrolled edit: the copy for
    each day a dead page is cited on that none was looked up for yet (a new citation of a page
    known dead), and lookups that ended busy and are due again, marked wanted (the pipeline
    queues them)."""
    if not archives() or not source_ids:
        return
    bare = Prefetch("citations", queryset=Source.citations.rel.related_model.objects.filter(archive_url=""),
                    to_attr="bare_citations")
    # Only pages that may not be the cited work: not read, or judged so for a citation already
    # (a live page that is the cited work, most of them, loads no text and no citations here).
    maybe_dead = Q(~Q(status=Source.Status.OK) | Q(citations__claim_citations__page_state__in=NOT_THE_WORK))
    sources = Source.objects.filter(maybe_dead, pk__in=source_ids).distinct()
    for source in sources.select_related("document").prefetch_related(bare, "copies"):
        looked_up = {copy.target for copy in source.copies.all()}
        _dead_copies_wanted(source, [c for c in source.bare_citations if citation_target(c) not in looked_up])
    ArchivedCopy.objects.filter(source_id__in=source_ids, state=ArchivedCopy.State.BUSY,
                                fetched_at__lte=timezone.now() - retry_after()).update(state=ArchivedCopy.State.WANTED)


def _dead_copies_wanted(source: Source, citations) -> list[ArchivedCopy]:
    """The copies wanted for `citations` of `source` whose live page is not the cited work."""
    wanted = {}
    for citation in citations:
        citation.source = source
        if wants_dead_copy(citation, citation_page_state(citation)):
            copy = copy_wanted(source=source, target=citation_target(citation))
            if copy.state == ArchivedCopy.State.WANTED:
                wanted[copy.pk] = copy
    return list(wanted.values())


def copy_wanted(*, source: Source, target: str) -> ArchivedCopy:
    """The copy of `source` for day `target`, wanted: new, or a busy lookup due again."""
    copy, _ = ArchivedCopy.objects.get_or_create(source=source, target=target)
    now = timezone.now()
    if copy.retry_due(now):  # one writer wins: the state is checked again in the update
        ArchivedCopy.objects.filter(pk=copy.pk, state=ArchivedCopy.State.BUSY, fetched_at=copy.fetched_at).update(
            state=ArchivedCopy.State.WANTED)
        copy.refresh_from_db()
    return copy


def copy_fetch(*, copy: ArchivedCopy, retries_left: int = 0) -> ArchivedCopy:
    """Look the page up in every archive and read the nearest copy that is the cited work;
    store the outcome all at once. Busy archives with retries left raise ArchiveBusy."""
    citations = list(copy.source.citations.order_by("pk"))
    if not citations:
        return _store(copy, CopyOutcome(False, "no citation cites this page any more"))
    # The copy is of one day: its facts come from a citation of that day.
    citation = next((c for c in citations if citation_target(c) == copy.target), citations[0])
    citation.source = copy.source
    day = timestamp_day(copy.target)  # the stored YYYYMMDD, not a date as an editor writes it
    outcome = find_copy(cited_work(citation), archives(), policy=archive_fetch_policy(), day=day,
                        lookups=DbLookups(), max_wait=settings.SIDE_ARCHIVE_MAX_WAIT)
    if outcome.busy and not outcome.found and retries_left > 0:
        ArchivedCopy.objects.filter(pk=copy.pk).update(reason=f"retrying: {outcome.reason}"[:2000])
        raise ArchiveBusy(outcome.reason)
    return _store(copy, outcome)


def _store(copy: ArchivedCopy, outcome: CopyOutcome) -> ArchivedCopy:
    State = ArchivedCopy.State
    result = outcome.result
    with transaction.atomic():
        copy = ArchivedCopy.objects.select_for_update().get(pk=copy.pk)
        copy.state = State.FOUND if outcome.found else (State.BUSY if outcome.busy else State.NONE)
        copy.reason, copy.lookups = outcome.reason[:2000], copy.lookups + outcome.lookups
        copy.fetched_at, copy.queued_at = timezone.now(), None
        if outcome.found:
            copy.archive_name, copy.timestamp = outcome.archive.name, outcome.timestamp
            copy.cdx_url, copy.replay_prefix = outcome.archive.cdx_url, outcome.archive.replay_prefix
            copy.capture_url = copy.source.url
            copy.title, copy.text, copy.meta = result.title, result.text, result.meta
            copy.sha256 = hashlib.sha256(result.text.encode("utf-8")).hexdigest()
        copy.save()
    return copy


def copies_of(sources) -> dict[tuple[int, str], ArchivedCopy]:
    """{(source id, target): copy} of these sources, whatever their state (one query)."""
    rows = ArchivedCopy.objects.filter(source__in=[s for s in sources if s is not None])
    return {(c.source_id, c.target): c for c in rows}


def source_capture(*, source: Source) -> bool:
    """With SIDE_ARCHIVE_CAPTURE on, ask the first archive to capture a live page that is the
    cited work (Save Page Now, or pywb's recording mode), at most once per URL per
    SIDE_ARCHIVE_CAPTURE_DAYS, so that a later death of the page is covered. True when asked."""
    from verifier_core.fetch.copies import archive_policy, raw_get

    listed = archives()
    if not settings.SIDE_ARCHIVE_CAPTURE or not listed:
        return False
    source = Source.objects.select_related("document").get(pk=source.pk)
    since = timezone.now() - timedelta(days=settings.SIDE_ARCHIVE_CAPTURE_DAYS)
    if source.status != Source.Status.OK or source.used_archive or (source.captured_at or since) > since:
        return False
    citations = list(source.citations.all())
    for citation in citations:
        citation.source = source
    if not citations or not all((s := citation_page_state(c)) and s.is_cited_work for c in citations):
        return False  # only the cited work is worth keeping
    try:
        status, _, _ = raw_get(listed[0].capture_url(source.url), archive_policy(archive_fetch_policy(), listed[0]))
    except Exception as exc:  # noqa: BLE001 - a capture is a courtesy: never fail the fetch for it
        log.info("capture of %s not asked: %s", source.url, exc)
        return False
    Source.objects.filter(pk=source.pk).update(captured_at=timezone.now())
    return status < 400

"""Fetching cited sources: one job per source, the text stored as a SourceDocument."""
from __future__ import annotations

import hashlib
import logging

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from sideapp.claims.models import Citation, Claim
from sideapp.sources.archives import sources_dead_copies
from sideapp.sources.models import Source, SourceDocument
from sideapp.sources.politeness import fetch_policy
from verifier_core.fetch import FetchResult, fetch_source

log = logging.getLogger(__name__)


class TransientFetchFailure(Exception):
    """Raised so that RQ retries the job later; the source stays pending meanwhile."""


def fetch_retry():
    """RQ retries for transient fetch failures: a little later, then much later."""
    from rq import Retry

    retries = settings.SIDE_FETCH_RETRIES
    return Retry(max=retries, interval=[10 * 3**i for i in range(retries)]) if retries else None


def _archive_url(source: Source) -> str | None:
    return (
        Citation.objects.filter(source=source).exclude(archive_url="")
        .values_list("archive_url", flat=True).first()
    )


def source_fetch(*, source: Source, retries_left: int = 0, force: bool = False) -> Source:
    """Fetch `source` unless a fresh copy is stored; store the outcome all at once.

    A transient failure with retries left raises TransientFetchFailure (RQ retries
    the job with backoff); any other outcome is stored as the source's status.
    """
    if source.is_fresh and not force:
        return source
    result = fetch_source(source.url, archive_url=_archive_url(source), policy=fetch_policy())
    if result.retryable and retries_left > 0:
        Source.objects.filter(pk=source.pk).update(
            attempts=source.attempts + 1, reason=f"retrying: {result.reason}")
        raise TransientFetchFailure(result.reason)
    changed = source_store(source=source, result=result)
    # A live address that no longer gives the cited work: the copy as cited, read now. (One
    # that gives it and supports its claim is sent to an archive once judged, with
    # SIDE_ARCHIVE_CAPTURE on: sideapp.claims.verification.)
    copies = sources_dead_copies(source=source)
    changed = bool(copies) or changed
    if changed:
        # The text behind their verdicts changed: judge those claims again.
        Claim.objects.filter(claim_citations__citation__source=source).exclude(
            verify_state=Claim.State.PENDING).update(verify_state=Claim.State.PENDING)
    return source


def source_store(*, source: Source, result: FetchResult) -> bool:
    """Write a fetch result. Returns True when the stored text changed."""
    now = timezone.now()
    with transaction.atomic():
        source = Source.objects.select_for_update().get(pk=source.pk)
        source.status, source.reason = result.status.value, result.reason[:2000]
        source.http_status, source.content_type = result.http_status, result.content_type[:100]
        source.final_url, source.used_archive = result.final_url, result.used_archive
        source.title = result.title or source.title
        source.site_name = result.site_name[:200] or source.site_name
        source.attempts, source.fetched_at, source.queued_at = source.attempts + 1, now, None
        source.save()
        if not result.ok:
            return False
        digest = hashlib.sha256(result.text.encode("utf-8")).hexdigest()
        old = SourceDocument.objects.filter(source=source).values_list("sha256", flat=True).first()
        SourceDocument.objects.update_or_create(
            source=source,
            defaults={"title": result.title, "text": result.text, "sha256": digest, "meta": result.meta,
                      "fetched_at": now, **({} if old == digest else {"indexed_at": None})},
        )
    return old is not None and old != digest

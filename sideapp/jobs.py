"""RQ job functions: take primary keys, load rows, call a service.

A job whose row is gone (deleted while queued) ends quietly: there is nothing to do.
"""
from __future__ import annotations

from sideapp.models import ScanItem, ScanJob
from sideapp.services import scans


def scan_expand_job(job_pk: int) -> int:
    job = ScanJob.objects.filter(pk=job_pk).select_related("wiki").first()
    if job is None:
        return 0
    return len(scans.scan_expand(job=job))


def scan_item_job(item_pk: int) -> str:
    item = ScanItem.objects.filter(pk=item_pk).select_related("job__wiki").first()
    if item is None:
        return "gone"
    return scans.scan_item_run(item=item).status


def fetch_source_job(source_pk: int) -> str:
    """Fetch one source, then queue the claims that were only waiting for it."""
    from rq import get_current_job

    from sideapp.models import Source
    from sideapp.services import pipeline, sources

    source = Source.objects.filter(pk=source_pk).first()
    if source is None:
        return "gone"
    job = get_current_job()
    retries_left = (job.retries_left or 0) if job else 0
    sources.source_fetch(source=source, retries_left=retries_left)
    pipeline.claims_dispatch(claim_ids=pipeline.claims_waiting_on(source=source))
    source.refresh_from_db()
    return source.status

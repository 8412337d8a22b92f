"""RQ job functions: take primary keys, load rows, call a service.

A job whose row is gone (deleted while queued) ends quietly: there is nothing to do.
"""
from __future__ import annotations

from sideapp import queues
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
    from sideapp.services import pipeline, sources, stages

    source = Source.objects.filter(pk=source_pk).first()
    if source is None:
        return "gone"
    job = get_current_job()
    retries_left = (job.retries_left or 0) if job else 0
    sources.source_fetch(source=source, retries_left=retries_left)
    source.refresh_from_db()
    if source.status == Source.Status.OK:
        # Into the retrieval corpus, on the model worker that holds the index open.
        queues.enqueue_after_commit("verify", "sideapp.jobs.corpus_sync_job")
    pipeline.claims_dispatch(claim_ids=pipeline.claims_waiting_on(source=source))
    stages.source_jobs_refresh(source=source)
    return source.status


def _claim(claim_pk: int):
    from sideapp.models import Claim

    return Claim.objects.filter(pk=claim_pk).select_related("article").first()


def verify_claim_job(claim_pk: int) -> str:
    """Verify one claim; a verifier that cannot run leaves the claim failed with the reason."""
    from sideapp.services import stages, verification

    claim = _claim(claim_pk)
    if claim is None:
        return "gone"
    with stages.failure_recorded(claim, "verify"):
        verification.claim_verify(claim=claim)
    stages.jobs_refresh(claim=claim)
    return claim.verdict or claim.verify_state


def suggest_claim_job(claim_pk: int) -> str:
    from sideapp.services import stages, suggestions

    claim = _claim(claim_pk)
    if claim is None:
        return "gone"
    with stages.failure_recorded(claim, "suggest"):
        suggestions.claim_suggest(claim=claim)
    stages.jobs_refresh(claim=claim)
    return claim.suggest_reason


def corpus_sync_job() -> int:
    from sideapp.services.corpus import corpus_sync

    return corpus_sync()


def corpus_import_job(import_pk: int) -> str:
    from sideapp.models import CorpusImport
    from sideapp.services.imports import import_run

    record = CorpusImport.objects.filter(pk=import_pk).first()
    if record is None:
        return "gone"
    return import_run(record=record).status

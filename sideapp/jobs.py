"""RQ job functions: take primary keys, load rows, call a service.

A job whose row is gone (deleted while queued) ends quietly: there is nothing to do.
"""
from __future__ import annotations

from typing import Callable

from rq import get_current_job

from sideapp import queues
from sideapp.models import Claim, CorpusImport, ScanItem, ScanJob, Source
from sideapp.services import corpus, imports, pipeline, scans, sources, stages, suggestions, verification


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
    source = Source.objects.filter(pk=source_pk).first()
    if source is None:
        return "gone"
    job = get_current_job()
    sources.source_fetch(source=source, retries_left=(job.retries_left or 0) if job else 0)
    source.refresh_from_db()
    if source.status == Source.Status.OK:
        # Into the retrieval corpus, on the model worker that holds the index open.
        queues.enqueue_after_commit("verify", "sideapp.jobs.corpus_sync_job")
    pipeline.claims_dispatch(claim_ids=pipeline.claims_waiting_on(source=source))
    stages.source_jobs_refresh(source=source)
    return source.status


def _claim_stage(claim_pk: int, stage: str, run: Callable[[Claim], object]) -> Claim | None:
    """Run one stage for a claim; any failure ends as the claim's state with its reason."""
    claim = Claim.objects.filter(pk=claim_pk).select_related("article").first()
    if claim is None:
        return None
    with stages.failure_recorded(claim, stage):
        run(claim)
    stages.jobs_refresh(claim=claim)
    return claim


def verify_claim_job(claim_pk: int) -> str:
    claim = _claim_stage(claim_pk, "verify", lambda c: verification.claim_verify(claim=c))
    return "gone" if claim is None else claim.verdict or claim.verify_state


def suggest_claim_job(claim_pk: int) -> str:
    claim = _claim_stage(claim_pk, "suggest", lambda c: suggestions.claim_suggest(claim=c))
    return "gone" if claim is None else claim.suggest_reason


def corpus_sync_job() -> int:
    return corpus.corpus_sync()


def corpus_import_job(import_pk: int) -> str:
    record = CorpusImport.objects.filter(pk=import_pk).first()
    if record is None:
        return "gone"
    return imports.import_run(record=record).status

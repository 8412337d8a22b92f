"""What each stage hands on to, once its work on a row is done.

scan request -> expand (category / recent changes) -> scan (one job per article)
scan -> fetch (each cited source not fresh) + verify (claims whose sources are all in)
fetch -> corpus (the text joins the retrieval index) + verify (claims waiting on it)
verify -> suggest (flagged claims, once every source of their scan is in the corpus)
suggest -> the scan job's final status

State lives in PostgreSQL, not in the queue: a hand-on picks the rows that are ready
(locking them with SKIP LOCKED so that two workers never take the same row), marks them
queued and enqueues a job per row after commit. Every job is idempotent and the rows say
what is unfinished, so lost or abandoned jobs can be put back at any time (recovery.py).
"""
from __future__ import annotations

from typing import Iterable

from django.db import transaction
from django.utils import timezone

from sideapp.annotation.items import items_for_scan
from sideapp.claims.models import Claim
from sideapp.pipeline import dispatch
from sideapp.pipeline.names import StageName
from sideapp.pipeline.progress import job_claims, scan_progress
from sideapp.scans.models import Revision, ScanItem, ScanJob
from sideapp.sources.models import Source


def scan_requested(job: ScanJob) -> None:
    """A new scan: one job per title, or one job that lists the articles first."""
    if job.kind == ScanJob.Kind.TITLES:
        dispatch.enqueue_many(StageName.SCAN, job.items.values_list("pk", flat=True))
    else:
        dispatch.enqueue(StageName.EXPAND, job.pk)


def after_expand(job: ScanJob) -> None:
    dispatch.enqueue_many(StageName.SCAN, job.items.filter(
        status=ScanItem.Status.QUEUED).values_list("pk", flat=True))


def after_scan(item: ScanItem) -> None:
    if item.revision_id and item.status != ScanItem.Status.FAILED:
        revision_dispatch(revision=item.revision)
    scan_job_refresh(job=item.job)


def after_fetch(source: Source) -> None:
    if source.status == Source.Status.OK:
        dispatch.enqueue(StageName.CORPUS)  # on the model worker, which holds the index open
    claims_dispatch(claim_ids=Claim.objects.filter(
        claim_citations__citation__source=source, verify_state=Claim.State.PENDING,
    ).values_list("pk", flat=True))
    for job in ScanJob.objects.filter(items__article__citations__source=source,
                                      status__in=ScanJob.OPEN).distinct():
        scan_job_refresh(job=job)


def after_claim(claim: Claim) -> None:
    """After a claim's verification or suggestion search: its open scan jobs move on.
    A claim outside any (re-verified because its source changed) starts its suggestion
    search at once."""
    open_jobs = ScanJob.objects.filter(items__revision__revision_claims__claim=claim,
                                       status__in=ScanJob.OPEN).distinct()
    for job in open_jobs:
        scan_job_refresh(job=job)
    if not open_jobs:
        suggestions_dispatch(claim_ids=[claim.pk])


def revision_dispatch(*, revision: Revision) -> None:
    """Queue the fetches and verifications a scanned revision needs.

    Every source the article cites is fetched, also those behind citations that back
    no claim (in a heading, an empty infobox field): each source ends with a status.
    """
    sources_dispatch(source_ids=Source.objects.filter(
        citations__article_id=revision.article_id).values_list("pk", flat=True))
    claims_dispatch(claim_ids=revision.revision_claims.filter(
        claim__verify_state=Claim.State.PENDING).values_list("claim_id", flat=True))


def sources_dispatch(*, source_ids: Iterable[int]) -> int:
    """Queue a fetch for each source that is not fetched (or stale) and not queued."""
    with transaction.atomic():
        rows = list(Source.objects.select_for_update(skip_locked=True)
                    .filter(pk__in=list(source_ids), queued_at=None))
        due = [s.pk for s in rows if not s.is_fresh]
        Source.objects.filter(pk__in=due).update(queued_at=timezone.now())
        return dispatch.enqueue_many(StageName.FETCH, due)


def claims_dispatch(*, claim_ids: Iterable[int]) -> int:
    """Queue verification for pending claims whose cited sources are all fetched."""
    with transaction.atomic():
        ready = (Claim.objects.select_for_update(skip_locked=True, of=("self",))
                 .filter(pk__in=list(claim_ids), verify_state=Claim.State.PENDING)
                 .exclude(claim_citations__citation__source__status=Source.Status.PENDING))
        ids = list(ready.values_list("pk", flat=True))
        Claim.objects.filter(pk__in=ids).update(verify_state=Claim.State.QUEUED, queued_at=timezone.now())
        return dispatch.enqueue_many(StageName.VERIFY, ids)


def suggestions_dispatch(*, claim_ids: Iterable[int]) -> int:
    """Queue the suggestion search of flagged claims that wait for it."""
    with transaction.atomic():
        ids = list(Claim.objects.select_for_update(skip_locked=True)
                   .filter(pk__in=list(claim_ids), suggest_state=Claim.State.PENDING)
                   .values_list("pk", flat=True))
        Claim.objects.filter(pk__in=ids).update(suggest_state=Claim.State.QUEUED, queued_at=timezone.now())
        return dispatch.enqueue_many(StageName.SUGGEST, ids)


def scan_job_refresh(*, job: ScanJob) -> ScanJob:
    """Start suggestions once all the job's sources are in; give the job its final
    status once every stage of every article has ended."""
    progress = scan_progress(job=job)
    scanned, fetched = progress[StageName.SCAN], progress[StageName.FETCH]
    if scanned["done"] == scanned["total"] and fetched["done"] == fetched["total"]:
        # Every source this scan found is fetched (so in the corpus): a suggestion search
        # now sees them all, including pages cited by the job's other articles.
        if suggestions_dispatch(claim_ids=job_claims(job).filter(
                suggest_state=Claim.State.PENDING).values_list("pk", flat=True)):
            return job
    outcome = job.outcome(progress)
    if outcome is not None:
        # SIDE's study: claims whose top suggestion outscores the citation go to
        # annotators; made before the job reads as finished, so its end means "items ready".
        items_for_scan(claim_ids=job_claims(job).values_list("pk", flat=True))
        job.finish(*outcome)
    return job

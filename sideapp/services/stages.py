"""Where a scan job stands: progress per stage, and its final status once all are done."""
from __future__ import annotations

import contextlib
import logging
from collections import Counter
from typing import Iterator

from django.db.models import Count, Q, QuerySet
from django.utils import timezone

from sideapp.models import Claim, ScanItem, ScanJob, Source
from sideapp.services import pipeline

log = logging.getLogger(__name__)
TERMINAL_ITEMS = {ScanItem.Status.DONE, ScanItem.Status.UNCHANGED, ScanItem.Status.FAILED}
FINISHED = [Claim.State.DONE, Claim.State.FAILED]


def job_claims(job: ScanJob) -> QuerySet[Claim]:
    return Claim.objects.filter(revision_claims__revision__scanitem__job=job).distinct()


def job_sources(job: ScanJob) -> QuerySet[Source]:
    return Source.objects.filter(citations__article__scanitem__job=job).distinct()


def scan_progress(*, job: ScanJob) -> dict[str, dict[str, int]]:
    """done / total (and failed) for each stage: scan, fetch, verify, suggest."""
    items = Counter(job.items.values_list("status", flat=True))
    sources = job_sources(job).aggregate(
        total=Count("pk"), done=Count("pk", filter=~Q(status=Source.Status.PENDING)),
        failed=Count("pk", filter=~Q(status__in=[Source.Status.PENDING, Source.Status.OK])))
    claims = job_claims(job).aggregate(
        total=Count("pk"), done=Count("pk", filter=Q(verify_state__in=FINISHED)),
        failed=Count("pk", filter=Q(verify_state=Claim.State.FAILED)),
        flagged=Count("pk", filter=~Q(suggest_state="")),
        suggested=Count("pk", filter=Q(suggest_state__in=FINISHED)),
        suggest_failed=Count("pk", filter=Q(suggest_state=Claim.State.FAILED)))
    return {
        "scan": {"done": sum(items[s] for s in TERMINAL_ITEMS), "total": sum(items.values()),
                 "failed": items[ScanItem.Status.FAILED]},
        "fetch": sources,
        "verify": {"done": claims["done"], "total": claims["total"], "failed": claims["failed"]},
        "suggest": {"done": claims["suggested"], "total": claims["flagged"],
                    "failed": claims["suggest_failed"]},
    }


def scan_job_refresh(*, job: ScanJob) -> ScanJob:
    """Start suggestions once all the job's sources are in; give the job its final
    status once every stage of every article has ended."""
    progress = scan_progress(job=job)
    fetch = progress["fetch"]
    if progress["scan"]["done"] == progress["scan"]["total"] and fetch["done"] == fetch["total"]:
        # Every source this scan found is fetched (so in the corpus): a suggestion search
        # now sees them all, including pages cited by the job's other articles.
        if pipeline.suggestions_dispatch(claim_ids=job_claims(job).filter(
                suggest_state=Claim.State.PENDING).values_list("pk", flat=True)):
            return job
    if not progress["scan"]["total"] or any(p["done"] < p["total"] for p in progress.values()):
        return job
    failed, total = progress["scan"]["failed"], progress["scan"]["total"]
    problems = []
    if failed:
        problems.append(f"{failed} of {total} articles failed")
    for stage, what in (("verify", "claims could not be verified"), ("suggest", "suggestion searches failed")):
        if progress[stage]["failed"]:
            problems.append(f"{progress[stage]['failed']} {what}")
    status = (ScanJob.Status.FAILED if failed == total else
              ScanJob.Status.PARTIAL if problems else ScanJob.Status.DONE)
    reason = f"all {total} articles failed" if failed == total else "; ".join(problems)
    ScanJob.objects.filter(pk=job.pk).update(status=status, reason=reason, finished_at=timezone.now())
    job.refresh_from_db()
    return job


def jobs_refresh(*, claim: Claim) -> None:
    """Refresh the unfinished scan jobs this claim belongs to. A claim outside any
    (re-verified because its source changed) starts its suggestion search at once."""
    open_jobs = ScanJob.objects.filter(
        items__revision__revision_claims__claim=claim,
        status__in=[ScanJob.Status.QUEUED, ScanJob.Status.RUNNING]).distinct()
    for job in open_jobs:
        scan_job_refresh(job=job)
    if not open_jobs:
        pipeline.suggestions_dispatch(claim_ids=[claim.pk])


def source_jobs_refresh(*, source: Source) -> None:
    open_jobs = ScanJob.objects.filter(
        items__article__citations__source=source,
        status__in=[ScanJob.Status.QUEUED, ScanJob.Status.RUNNING]).distinct()
    for job in open_jobs:
        scan_job_refresh(job=job)


@contextlib.contextmanager
def failure_recorded(claim: Claim, stage: str) -> Iterator[None]:
    """Any error of a verify or suggest job ends as the claim's state with its reason,
    never as a crashed worker or a claim stuck in `queued`."""
    try:
        yield
    except Exception as exc:  # noqa: BLE001
        log.exception("%s of claim %s failed", stage, claim.pk)
        reason = f"{stage} failed: {type(exc).__name__}: {exc}"[:2000]
        fields = ({"verify_state": Claim.State.FAILED, "verify_reason": reason} if stage == "verify"
                  else {"suggest_state": Claim.State.FAILED, "suggest_reason": reason})
        Claim.objects.filter(pk=claim.pk).update(**fields)
        claim.refresh_from_db()

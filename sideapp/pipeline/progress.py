"""Where a scan job stands: done / total (and failed) for each stage that reports into
a scan. Each stage of the table names its own count (`Stage.progress`)."""
from __future__ import annotations

from collections import Counter

from django.db.models import Count, Q, QuerySet

from sideapp.claims.models import Claim
from sideapp.pipeline import dispatch
from sideapp.scans.models import ScanItem, ScanJob
from sideapp.sources.models import Source

Counts = dict[str, int]


def job_claims(job: ScanJob) -> QuerySet[Claim]:
    return Claim.objects.filter(revision_claims__revision__scanitem__job=job).distinct()


def job_sources(job: ScanJob) -> QuerySet[Source]:
    return Source.objects.filter(citations__article__scanitem__job=job).distinct()


def scan_counts(job: ScanJob) -> Counts:
    items = Counter(job.items.values_list("status", flat=True))
    return {"done": sum(items[s] for s in ScanItem.TERMINAL), "total": sum(items.values()),
            "failed": items[ScanItem.Status.FAILED]}


def fetch_counts(job: ScanJob) -> Counts:
    return job_sources(job).aggregate(
        total=Count("pk"), done=Count("pk", filter=~Q(status=Source.Status.PENDING)),
        failed=Count("pk", filter=~Q(status__in=[Source.Status.PENDING, Source.Status.OK])))


def verify_counts(job: ScanJob) -> Counts:
    return job_claims(job).aggregate(
        total=Count("pk"), done=Count("pk", filter=Q(verify_state__in=Claim.FINISHED)),
        failed=Count("pk", filter=Q(verify_state=Claim.State.FAILED)))


def suggest_counts(job: ScanJob) -> Counts:
    return job_claims(job).aggregate(
        total=Count("pk", filter=~Q(suggest_state="")),
        done=Count("pk", filter=Q(suggest_state__in=Claim.FINISHED)),
        failed=Count("pk", filter=Q(suggest_state=Claim.State.FAILED)))


def scan_progress(*, job: ScanJob) -> dict[str, Counts]:
    """{stage name: {done, total, failed}} in pipeline order."""
    return {stage.name: stage.progress(job) for stage in dispatch.stages() if stage.progress}

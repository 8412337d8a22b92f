"""Where a scan job stands: done / total (and failed) for each stage that reports into
a scan. Each stage of the table names its own count (`Stage.progress`); stages.scan_progress
reads them all in pipeline order."""
from __future__ import annotations

from collections import Counter

from django.db.models import Count, Q

from sideapp.claims.models import Claim
from sideapp.scans.models import ScanItem, ScanJob
from sideapp.scans.selectors import job_claims, job_sources
from sideapp.sources.models import Source

Counts = dict[str, int]


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

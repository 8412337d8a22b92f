"""Reads of scans: the admins' list and one scan with its articles and progress."""
from __future__ import annotations

from django.db.models import QuerySet

from sideapp.pipeline.progress import scan_progress
from sideapp.scans.models import ScanItem, ScanJob


def scan_list(*, limit: int = 50) -> QuerySet[ScanJob]:
    return ScanJob.objects.select_related("wiki", "created_by")[:limit]


def scan_detail(pk: int) -> ScanJob:
    return ScanJob.objects.select_related("wiki").get(pk=pk)


def scan_items(job: ScanJob) -> QuerySet[ScanItem]:
    return job.items.select_related("article", "revision")


def scan_status(job: ScanJob) -> dict:
    """Everything the scan page shows, read at once."""
    return {"job": job, "items": scan_items(job), "progress": scan_progress(job=job),
            "running": job.is_open}

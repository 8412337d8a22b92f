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

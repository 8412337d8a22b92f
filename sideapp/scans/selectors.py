"""Reads of scans: the admins' list and one scan with its articles and progress."""
from __future__ import annotations

from django.db.models import Count, Q, QuerySet

from sideapp.claims.models import Claim
from sideapp.scans.models import ScanItem, ScanJob, Wiki
from sideapp.scans.wikis import saving_off_reason, wiki_is_configured
from sideapp.sources.models import Source


def scan_list(*, limit: int = 50) -> QuerySet[ScanJob]:
    return ScanJob.objects.select_related("wiki", "created_by")[:limit]


def scan_detail(pk: int) -> ScanJob:
    return ScanJob.objects.select_related("wiki").get(pk=pk)


def scan_items(job: ScanJob) -> QuerySet[ScanItem]:
    return job.items.select_related("article", "revision")


def job_claims(job: ScanJob) -> QuerySet[Claim]:
    return Claim.objects.filter(revision_claims__revision__scanitem__job=job).distinct()


def job_sources(job: ScanJob) -> QuerySet[Source]:
    return Source.objects.filter(citations__article__scanitem__job=job).distinct()


def scan_status(job: ScanJob, *, progress: dict) -> dict:
    """Everything the scan page shows, read at once (`progress`: the pipeline's
    done / total per stage)."""
    return {"job": job, "items": scan_items(job), "progress": progress,
            "running": job.is_open, "rerunnable": job.status in ScanJob.RERUNNABLE,
            "failed_sources": failed_sources(job)}


def failed_sources(job: ScanJob, limit: int = 200) -> list[Source]:
    """The sources of this scan's articles that could not be read, with why."""
    failed = job_sources(job).exclude(status__in=[Source.Status.OK, Source.Status.PENDING])
    return list(failed.order_by("url")[:limit])


def wiki_rows() -> list[dict]:
    """The admins' wikis page: each wiki with its articles, current claims and whether
    edits can be saved on it from Side editor (and why not)."""
    wikis = Wiki.objects.annotate(
        article_count=Count("articles", distinct=True),
        claim_count=Count("articles__claims", filter=Q(articles__claims__current=True), distinct=True),
    ).order_by("name", "api_url")
    return [{"wiki": w, "configured": wiki_is_configured(w), "saving_off": saving_off_reason(w)}
            for w in wikis]


def several_wikis() -> bool:
    """Lists name each row's wiki only when there is more than one to tell apart."""
    return Wiki.objects.count() > 1

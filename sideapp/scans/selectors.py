"""Reads of scans: the admins' list and one scan with its articles and progress."""
from __future__ import annotations

from django.db.models import Count, Q, QuerySet

from sideapp.claims.models import Claim
from sideapp.pipeline.names import StageName
from sideapp.scans.models import ScanItem, ScanJob, Wiki, counted
from sideapp.scans.wikis import saving_off_reason, wiki_is_configured
from sideapp.sources.models import Source


def scan_list(*, limit: int = 50) -> QuerySet[ScanJob]:
    # Patrol scans (one per edit) are listed on /patrol/, not among the admins' scans.
    return ScanJob.objects.exclude(kind=ScanJob.Kind.PATROL).select_related("wiki", "created_by")[:limit]


def scan_detail(pk: int) -> ScanJob:
    return ScanJob.objects.select_related("wiki").get(pk=pk)


def scan_items(job: ScanJob) -> QuerySet[ScanItem]:
    return job.items.select_related("article", "revision")


def job_claims(job: ScanJob) -> QuerySet[Claim]:
    if job.checked_claims is not None:  # a patrol scan: what its edit added, nothing else
        return Claim.objects.filter(pk__in=job.checked_claims)
    return Claim.objects.filter(revision_claims__revision__scanitem__job=job).distinct()


def job_sources(job: ScanJob) -> QuerySet[Source]:
    if job.checked_claims is not None:
        return Source.objects.filter(citations__claim_citations__claim__in=job.checked_claims).distinct()
    return Source.objects.filter(citations__article__scanitem__job=job).distinct()


def scan_status(job: ScanJob, *, progress: dict) -> dict:
    """Everything the scan page shows, read at once (`progress`: the pipeline's done /
    total per stage): one status and one sentence about the present, and the actions
    that fit it."""
    items = list(scan_items(job))
    return {"job": job, "items": items, "progress": progress, "headline": scan_headline(job, progress),
            "running": job.is_open, "rerun": rerun_label(job, has_items=bool(items)),
            "failed_sources": failed_sources(job)}


def scan_headline(job: ScanJob, progress: dict) -> str:
    """What the scan is doing now, or how it ended, as a clause."""
    scanned = progress[StageName.SCAN]
    if job.status == ScanJob.Status.QUEUED:
        return "waiting for a worker to start it"
    if job.status == ScanJob.Status.RUNNING:
        if not scanned["total"]:
            return "asking the wiki for the list of articles"
        if scanned["done"] < scanned["total"]:
            return f"{scanned['done']} of {counted(scanned['total'], 'article', 'articles')} read"
        return "every article is read; their sources and claims are being checked"
    if job.status == ScanJob.Status.CANCELLED:
        busy = job.items.filter(status=ScanItem.Status.RUNNING).count()
        return job.reason + (f"; {counted(busy, 'article', 'articles')} already being read will finish"
                             if busy else "")
    if job.status == ScanJob.Status.DONE and not job.reason:
        return f"{counted(scanned['total'], 'article', 'articles')} read and their claims checked"
    return job.reason


def rerun_label(job: ScanJob, *, has_items: bool) -> str:
    """The words of the button that runs a finished scan again ("" when none fits)."""
    if job.status not in ScanJob.RERUNNABLE:
        return ""
    if not has_items:  # the list of articles never came: ask for it again
        return "Ask the wiki again"
    return "Scan these articles again" if job.status == ScanJob.Status.DONE else "Retry what failed"


def failed_sources(job: ScanJob, limit: int = 200) -> list[Source]:
    """The sources of this scan's articles that could not be read, with why."""
    failed = job_sources(job).exclude(status__in=[Source.Status.OK, Source.Status.PENDING])
    return list(failed.order_by("url")[:limit])


def wiki_rows() -> list[dict]:
    """The admins' wikis page: each wiki with its articles, current claims, whether
    edits can be saved on it from Side editor (and why not), and the addresses of other
    wikis named alike (the same wikiid and sitename, holding other pages)."""
    wikis = Wiki.objects.annotate(
        article_count=Count("articles", distinct=True),
        claim_count=Count("articles__claims", filter=Q(articles__claims__current=True), distinct=True),
    ).select_related("patrol_cursor").order_by("name", "api_url")
    wikis = list(wikis)
    return [{"wiki": w, "configured": wiki_is_configured(w), "saving_off": saving_off_reason(w),
             "problem": "" if w.wikiid else wiki_problem(w),
             "namesakes": [o.api_url for o in wikis if o.pk != w.pk and o.wikiid and o.identity == w.identity]}
            for w in wikis]


def wiki_problem(wiki: Wiki) -> str:
    """Why a wiki is not identified, in words: what its newest failed scan met (the wiki
    did not answer, the address is not an api.php), or that nothing has reached it yet."""
    job = wiki.scan_jobs.filter(status=ScanJob.Status.FAILED).order_by("-created_at").first()
    if job is None:
        return "Side editor has not reached a wiki at this address yet; a scan of it will try."
    item = job.items.filter(status=ScanItem.Status.FAILED).exclude(reason="").first()
    return (item.reason if item else job.reason) or f"scan {job.pk} of it failed"


def several_wikis() -> bool:
    """Lists name each row's wiki only when there is more than one to tell apart."""
    return Wiki.objects.count() > 1

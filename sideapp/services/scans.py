"""Scanning articles: from an admin's request to stored claims and citations."""
from __future__ import annotations

import logging

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from sideapp import queues
from sideapp.services import pipeline, stages
from sideapp.models import Article, Revision, ScanItem, ScanJob, Wiki
from sideapp.services.revisions import revision_store
from sideapp.services.wikis import client_for
from sideapp.wikiapi import PageData, WikiClient, WikiError
from verifier_core.wikitext import extract

log = logging.getLogger(__name__)


class ScanRefused(Exception):
    """A page the scanner will not process; the message says why."""


def scan_request(*, wiki: Wiki, kind: str, titles: list[str] | None = None,
                 category: str = "", limit: int = 50, user=None, enqueue: bool = True) -> ScanJob:
    """Record a scan job and queue its work once the transaction commits."""
    clean = list(dict.fromkeys(t.strip() for t in titles or [] if t.strip()))
    if kind == ScanJob.Kind.TITLES and not clean:
        raise ValueError("a scan of titles needs at least one title")
    if kind == ScanJob.Kind.CATEGORY and not category.strip():
        raise ValueError("a category scan needs a category name")
    with transaction.atomic():
        job = ScanJob.objects.create(
            wiki=wiki, kind=kind, created_by=user,
            params={"titles": clean, "category": category.strip(), "limit": limit},
        )
        ScanItem.objects.bulk_create([ScanItem(job=job, title=t) for t in clean])
        if enqueue:
            if kind == ScanJob.Kind.TITLES:
                for item in job.items.all():
                    queues.enqueue_after_commit("scan", "sideapp.jobs.scan_item_job", item.pk)
            else:
                queues.enqueue_after_commit("scan", "sideapp.jobs.scan_expand_job", job.pk)
    return job


def scan_expand(*, job: ScanJob, client: WikiClient | None = None, enqueue: bool = True) -> list[ScanItem]:
    """Turn a category or recent-changes scan into one item per article."""
    client = client or client_for(job.wiki)
    limit = int(job.params.get("limit") or 50)
    try:
        if job.kind == ScanJob.Kind.CATEGORY:
            titles = client.category_members(job.params["category"], limit=limit)
        else:
            titles = client.recent_changes(limit=limit)
    except WikiError as exc:
        _job_finish(job, ScanJob.Status.FAILED, str(exc))
        return []
    if not titles:
        _job_finish(job, ScanJob.Status.DONE, "nothing to scan: no matching articles")
        return []
    with transaction.atomic():
        ScanItem.objects.bulk_create([ScanItem(job=job, title=t) for t in titles], ignore_conflicts=True)
        items = list(job.items.all())
        if enqueue:
            for item in items:
                queues.enqueue_after_commit("scan", "sideapp.jobs.scan_item_job", item.pk)
    return items


def _item_update(item: ScanItem, status: str, reason: str = "", **fields) -> None:
    item.status, item.reason = status, reason[:2000]
    for name, value in fields.items():
        setattr(item, name, value)
    item.save()


def scan_item_run(*, item: ScanItem, client: WikiClient | None = None) -> ScanItem:
    """Scan one article of a job. Never raises: the item ends with a status and reason."""
    ScanItem.objects.filter(pk=item.pk).update(status=ScanItem.Status.RUNNING, attempts=item.attempts + 1)
    ScanJob.objects.filter(pk=item.job_id, started_at=None).update(
        started_at=timezone.now(), status=ScanJob.Status.RUNNING)
    try:
        page = (client or client_for(item.job.wiki)).page(item.title)
        _check_size(page)
        article, revision, written = article_store(wiki=item.job.wiki, page=page)
        status = ScanItem.Status.DONE if written else ScanItem.Status.UNCHANGED
        _item_update(item, status, _notes(page, written), article=article, revision=revision)
        pipeline.revision_dispatch(revision=revision)
    except (WikiError, ScanRefused) as exc:
        _item_update(item, ScanItem.Status.FAILED, str(exc))
    except Exception as exc:  # noqa: BLE001 - a scan must end with a status, not a trace
        log.exception("scan of %r failed", item.title)
        _item_update(item, ScanItem.Status.FAILED, f"internal error: {type(exc).__name__}: {exc}")
    stages.scan_job_refresh(job=item.job)
    return item


def _check_size(page: PageData) -> None:
    size = len(page.wikitext.encode("utf-8"))
    if size > settings.SIDE_MAX_ARTICLE_BYTES:
        raise ScanRefused(
            f"article is {size // 1024} KB, above the limit of "
            f"{settings.SIDE_MAX_ARTICLE_BYTES // 1024} KB (SIDE_MAX_ARTICLE_BYTES)"
        )


def _notes(page: PageData, written: bool) -> str:
    notes = [] if written else [f"revision {page.rev_id} was already scanned: nothing new written"]
    if page.redirected_from:
        notes.append(f"followed redirect from {page.redirected_from!r} to {page.title!r}")
    if page.protection:
        notes.append(f"page is protected ({', '.join(page.protection)})")
    return "; ".join(notes)


def article_store(*, wiki: Wiki, page: PageData) -> tuple[Article, Revision, bool]:
    """Store `page` unless its revision is known. Returns (article, revision, written)."""
    article, _ = Article.objects.get_or_create(wiki=wiki, title=page.title)
    known = Revision.objects.filter(article=article, rev_id=page.rev_id).first()
    if known:
        return article, known, False
    extraction = extract(page.wikitext, page.title)  # outside the transaction: CPU only
    try:
        with transaction.atomic():
            # One writer per article at a time; the loser of a race sees the winner's row.
            article = Article.objects.select_for_update().get(pk=article.pk)
            known = Revision.objects.filter(article=article, rev_id=page.rev_id).first()
            if known:
                return article, known, False
            revision = revision_store(article=article, page=page, extraction=extraction)
    except IntegrityError:
        return article, Revision.objects.get(article=article, rev_id=page.rev_id), False
    Article.objects.filter(pk=article.pk).update(last_scanned_at=timezone.now())
    return article, revision, True


def _job_finish(job: ScanJob, status: str, reason: str = "") -> None:
    ScanJob.objects.filter(pk=job.pk).update(status=status, reason=reason[:2000], finished_at=timezone.now())
    job.refresh_from_db()

"""Scanning articles: from an admin's request to stored claims and citations."""
from __future__ import annotations

import logging

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from sideapp import events
from sideapp.claims.models import Claim
from sideapp.edits.audit import audit_record
from sideapp.edits.models import AuditEntry
from sideapp.scans.models import Article, Revision, ScanItem, ScanJob, Wiki
from sideapp.scans.pages import article_for_page
from sideapp.scans.revisions import revision_store
from sideapp.scans.selectors import job_claims, job_sources
from sideapp.scans.wikiapi import PageData, WikiClient, WikiError, category_title
from sideapp.scans.wikipages import page_by_id
from sideapp.scans.wikis import client_for
from sideapp.sources.models import Source
from verifier_core.wikitext import extract

log = logging.getLogger(__name__)


class ScanRefused(Exception):
    """A page the scanner will not process; the message says why."""


def scan_request(*, wiki: Wiki, kind: str, titles: list[str] | None = None, category: str = "",
                 limit: int = 50, user=None, enqueue: bool = True, rev_id: int | None = None,
                 page_id: int | None = None) -> ScanJob:
    """Record a scan job and report it (sideapp.events.scan_requested: the pipeline
    queues its work once the transaction commits); `enqueue=False` only records it.
    A patrol scan (kind PATROL) reads revision `rev_id` of its one title; a scan of one
    page asked by `page_id` reads that page under whatever title it has by then."""
    clean = list(dict.fromkeys(t.strip() for t in titles or [] if t.strip()))
    if kind in (ScanJob.Kind.TITLES, ScanJob.Kind.PATROL) and not clean:
        raise ValueError("a scan of titles needs at least one title")
    if kind == ScanJob.Kind.CATEGORY and not category.strip():
        raise ValueError("a category scan needs a category name")
    with transaction.atomic():
        job = ScanJob.objects.create(
            wiki=wiki, kind=kind, created_by=user,
            params={"titles": clean, "category": category.strip(), "limit": limit,
                    **({"rev_id": rev_id, "claims": []} if rev_id else {})},
        )
        ScanItem.objects.bulk_create([ScanItem(job=job, title=t, page_id=page_id if len(clean) == 1 else None)
                                      for t in clean])
        _findings_follow(wiki, clean, page_id)
        if enqueue:
            events.scan_requested.send(sender=ScanJob, job=job)
    return job


def scan_start(*, user, **request) -> ScanJob:
    """An admin's scan (scan_request's arguments), recorded in the audit log with it."""
    with transaction.atomic():
        job = scan_request(user=user, **request)
        audit_record(user=user, action=AuditEntry.Action.SCAN_START, detail=f"scan {job.pk}")
    return job


@transaction.atomic
def scan_cancel(*, job: ScanJob, user=None) -> bool:
    """Stop an open scan: articles not yet taken by a worker are cancelled (their queued
    jobs then do nothing, see ScanItem.take); an article being scanned finishes."""
    job = ScanJob.objects.select_for_update().get(pk=job.pk)
    who = f" by {user.get_username()}" if user else ""
    if not job.finish(ScanJob.Status.CANCELLED, f"cancelled{who}"):
        return False
    job.items.filter(status=ScanItem.Status.QUEUED).update(
        status=ScanItem.Status.CANCELLED, reason=f"the scan was cancelled{who} before this article's turn")
    audit_record(user=user, action=AuditEntry.Action.SCAN_CANCEL, detail=f"scan {job.pk}")
    return True


def scan_rerun(*, job: ScanJob, user=None) -> ScanJob:
    """A new scan that retries what went wrong in `job`: its failed or cancelled
    articles, the articles whose claims could not be verified or searched, and their
    unreadable sources; all of its articles when nothing went wrong. A job that never
    listed its articles (the wiki did not answer) is asked again as it was."""
    if job.status not in ScanJob.RERUNNABLE:
        raise ValueError("only a finished or cancelled scan can be run again")
    with transaction.atomic():
        titles = _titles_to_retry(job)
        if titles:
            again = scan_request(wiki=job.wiki, kind=ScanJob.Kind.TITLES, titles=titles, user=user)
        else:
            again = scan_request(wiki=job.wiki, kind=job.kind, category=job.params.get("category", ""),
                                 limit=int(job.params.get("limit") or 50), user=user)
        again.params["retry_of"] = job.pk  # the scan page says which scan it retries
        again.save(update_fields=["params"])
        audit_record(user=user, action=AuditEntry.Action.SCAN_RERUN, detail=f"scan {again.pk} retries scan {job.pk}")
    return again


def _titles_to_retry(job: ScanJob) -> list[str]:
    with transaction.atomic():
        unreadable = Source.objects.filter(pk__in=job_sources(job).exclude(
            status__in=[Source.Status.OK, Source.Status.PENDING]).values("pk"))
        claims = Claim.objects.filter(pk__in=job_claims(job).values("pk"))
        again = claims.filter(Q(verify_state=Claim.State.FAILED) | Q(suggest_state=Claim.State.FAILED)
                              | Q(claim_citations__citation__source__in=unreadable))
        articles = set(again.values_list("article_id", flat=True))
        # Their sources are fetched again however recently they failed, and their claims
        # wait for them and are checked again.
        again.update(verify_state=Claim.State.PENDING, suggest_state="", queued_at=None)
        unreadable.update(status=Source.Status.PENDING, fetched_at=None, queued_at=None)
    bad = job.items.filter(Q(status__in=[ScanItem.Status.FAILED, ScanItem.Status.CANCELLED])
                           | Q(article_id__in=articles))
    return list(bad.values_list("title", flat=True)) or list(job.items.values_list("title", flat=True))


def scan_expand(*, job: ScanJob, client: WikiClient | None = None) -> list[ScanItem]:
    """Turn a category or recent-changes scan into one item per article (each waits
    for its scan job: the pipeline queues them)."""
    client = client or client_for(job.wiki)
    limit = int(job.params.get("limit") or 50)
    try:
        if job.kind == ScanJob.Kind.CATEGORY:
            titles = client.category_members(job.params["category"], limit=limit)
        else:
            titles = client.recent_changes(limit=limit)
    except WikiError as exc:
        job.finish(ScanJob.Status.FAILED, str(exc))
        return []
    if not titles:
        where = (f"{category_title(job.params['category'])} has no articles"
                 if job.kind == ScanJob.Kind.CATEGORY else "the wiki lists no recent edits of articles")
        job.finish(ScanJob.Status.DONE, f"nothing to scan: {where}")
        return []
    ScanItem.objects.bulk_create([ScanItem(job=job, title=t) for t in titles], ignore_conflicts=True)
    _findings_follow(job.wiki, titles, None)
    return list(job.items.all())


def _findings_follow(wiki: Wiki, titles: list[str], page_id: int | None) -> None:
    """A scan of these pages is open: their findings say so (and have no ETag) from now on."""
    page = Q(title__in=titles) | Q(page_id=page_id) if page_id else Q(title__in=titles)
    events.findings_changed.send(sender=ScanJob, articles=list(Article.objects.filter(page, wiki=wiki)
                                                                .values_list("pk", flat=True)))


def scan_item_run(*, item: ScanItem, client: WikiClient | None = None) -> ScanItem:
    """Scan one article of a job (an item taken by this run, see ScanItem.take).
    Never raises: the item ends with a status and reason."""
    ScanJob.objects.filter(pk=item.job_id, started_at=None, status=ScanJob.Status.QUEUED).update(
        started_at=timezone.now(), status=ScanJob.Status.RUNNING)
    try:
        client = client or client_for(item.job.wiki)
        page = _page_read(client, item)
        _check_size(page)
        article, revision, written = article_store(wiki=item.job.wiki, page=page)
        item.finish(written=written, notes=_notes(page, written), article=article, revision=revision)
    except (WikiError, ScanRefused) as exc:
        item.fail(str(exc))
    except Exception as exc:  # noqa: BLE001 - a scan must end with a status, not a trace
        log.exception("scan of %r failed", item.title)
        item.fail(f"an internal error ({type(exc).__name__}) stopped the scan of this article; "
                  "the worker's log has the details")
    return item


def _page_read(client: WikiClient, item: ScanItem) -> PageData:
    """A patrolled edit's own revision; a page asked by id under whatever title it has now
    (moved since); else the latest revision of the title."""
    rev_id = item.job.params.get("rev_id")
    if rev_id:
        return client.page_at(rev_id)
    if item.page_id:
        return page_by_id(client, item.page_id)
    return client.page(item.title)


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
    """Store `page` unless its revision is known. Returns (article, revision, written).
    The article is the page's by its id: a moved page's row is renamed, not copied.
    ScanRefused when the wiki's revision is not the one stored under its id (before any
    row is renamed or written): another wiki answers at this wiki's address."""
    _check_same_wiki(wiki, page)
    article = article_for_page(wiki=wiki, page_id=page.page_id, title=page.title)
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


def _check_same_wiki(wiki: Wiki, page: PageData) -> None:
    """A revision id names one revision of one wiki: one stored under it that is another
    page's, or another text, was read from another wiki (two wikis named alike, an address
    that another wiki answers at now). Refused in words, so a scan never answers with
    another wiki's page."""
    stored = (Revision.objects.filter(article__wiki=wiki, rev_id=page.rev_id)
              .values_list("article__page_id", "article__title", "sha1").first())
    if stored is None:
        return
    page_id, title, sha1 = stored
    if (page_id in (None, page.page_id)) and (not sha1 or not page.sha1 or sha1 == page.sha1):
        return
    raise ScanRefused(
        f"revision {page.rev_id} of {page.title!r} at {wiki.api_url} is not the revision {page.rev_id} "
        f"Side editor stored for {wiki} (of {title!r}): another wiki answers at {wiki.api_url} now, "
        "though it is named alike. Nothing was written (a scan never mixes two wikis' pages); an admin "
        "gives this wiki's row its own address again (Django admin, Wikis), then adds the wiki answering "
        "here on the wikis page: it becomes a wiki of its own.")

"""The pipeline, declared once.

Every stage of work is one entry of STAGES: the queue it runs on, its RQ job function
(enqueued by reference), how a job loads its row, the service that does the work, what
it hands on to when done, and the query that finds its unfinished rows. Progress
(scan_progress below) and recovery (recovery.py) read this table; a new stage is one
entry plus its service.

    stage    queue    row           service                         hands on to
    expand   scan     ScanJob       scans.scan_expand               scan
    scan     scan     ScanItem      scans.scan_item_run             fetch, verify (a patrolled edit:
                                                                   patrol.edit_scanned picks its claims)
    fetch    fetch    Source        sources.source_fetch            corpus, verify (copies of dead pages read too)
    archive  fetch    ArchivedCopy  archives.copy_fetch             verify (a verdict asked for the copy)
    verify   verify   Claim         claims.claim_verify             suggest (when the scan's sources are in)
                                                                   (queued at the front: verdicts first)
    suggest  verify   Claim(s)      claims.claims_suggest           the scan job's end (up to
                                                                   SUGGEST_BATCH claims of one
                                                                   article a job)
    corpus   verify   -             corpus.corpus_sync              corpus, while documents wait (passages
                                                                   into PostgreSQL, CORPUS_STEP documents
                                                                   a job, then this worker's replica
                                                                   synced; one waiting job serves every
                                                                   request)
    import   default  CorpusImport  corpus.import_run               -

What each stage hands on to is below the table too (the hand-ons). State lives in
PostgreSQL, not in the queue: a hand-on picks the rows that are ready (locking them with
SKIP LOCKED so that two workers never take the same row), marks them queued and enqueues
a job per row after commit. Every job is idempotent and the rows say what is unfinished,
so lost or abandoned jobs can be put back at any time (recovery.py). Services never
import this module: they report what they did (sideapp.events) and receivers.py asks for
the work that follows.
"""
from __future__ import annotations

import logging
from typing import Iterable

from django.db import InterfaceError, OperationalError, transaction
from django.db.models import Q
from django.utils import timezone
from rq import get_current_job

from sideapp.annotation.items import items_for_scan
from sideapp.claims import suggestions, verification
from sideapp.claims.changes import findings_changed
from sideapp.claims.models import Claim
from sideapp.corpus import imports
from sideapp.corpus.models import CorpusImport
from sideapp.corpus.selectors import corpus_waiting
from sideapp.corpus.services import corpus_sync
from sideapp.patrol import services as patrol
from sideapp.pipeline import progress
from sideapp.pipeline.dispatch import Stage, enqueue, enqueue_many, execute, take_job, waiting_jobs
from sideapp.pipeline.names import Queue, StageName
from sideapp.scans import services as scans
from sideapp.scans.models import Revision, ScanItem, ScanJob
from sideapp.scans.selectors import job_claims
from sideapp.sources import archives
from sideapp.sources import services as sources
from sideapp.sources.models import ArchivedCopy, Source

log = logging.getLogger(__name__)
CORPUS_STEP = 8  # documents a corpus job encodes (about a second on 2 cores) before it hands on
# Claims of one article a suggest job searches together: their reranks fill the cross-encoder's
# batches (bench/bench_rerank.py); small enough that the first suggestions still come early.
SUGGEST_BATCH = 8


# --- job functions: what RQ runs ---------------------------------------------------

def expand_job(job_pk: int) -> str:
    return execute(EXPAND, job_pk)


def scan_job(item_pk: int) -> str:
    return execute(SCAN, item_pk)


def fetch_job(source_pk: int) -> str:
    return execute(FETCH, source_pk)


def archive_job(copy_pk: int) -> str:
    return execute(ARCHIVE, copy_pk)


def capture_job(source_pk: int) -> str:
    return execute(CAPTURE, source_pk)


def verify_job(claim_pk: int) -> str:
    return execute(VERIFY, claim_pk)


def suggest_job(claim_pk: int, *more_pks: int) -> str:
    return execute(SUGGEST, claim_pk, *more_pks)


def corpus_job() -> str:
    return execute(CORPUS)


def import_job(import_pk: int) -> str:
    return execute(IMPORT, import_pk)


# --- loading rows and adapting services ------------------------------------------

def _take_item(pk: int) -> ScanItem | None:
    item = ScanItem.objects.filter(pk=pk).select_related("job__wiki").first()
    return item if item is not None and item.take() else None


def _requeue_items(pks: list[int]) -> None:
    ScanItem.objects.filter(pk__in=pks, status=ScanItem.Status.RUNNING).update(
        status=ScanItem.Status.QUEUED)


def _fetch(source: Source) -> str:
    job = get_current_job()  # None when run inline
    sources.source_fetch(source=source, retries_left=(job.retries_left or 0) if job else 0)
    source.refresh_from_db()
    return source.status


def _archive(copy: ArchivedCopy) -> str:
    job = get_current_job()
    return archives.copy_fetch(copy=copy, retries_left=(job.retries_left or 0) if job else 0).state


def after_archive(copy: ArchivedCopy) -> None:
    """Claims citing the page are judged again with what the lookup ended with (a copy, none,
    or busy): those that waited for it, and those judged while it was still to come (a lookup
    queued at a scan or patrolled edit, or asked again)."""
    citing = Claim.objects.filter(claim_citations__citation__source_id=copy.source_id)
    citing.filter(current=True, verify_state=Claim.State.DONE).update(verify_state=Claim.State.PENDING)
    claims_dispatch(claim_ids=citing.filter(verify_state=Claim.State.PENDING).values_list("pk", flat=True))


def copies_dispatch(*, claim: Claim) -> int:
    """Queue the archive lookups a verdict asked for (copies wanted for its sources)."""
    wanted = set(ArchivedCopy.objects.filter(state=ArchivedCopy.State.WANTED,
                                             source__citations__claim_citations__claim=claim).values_list("pk", flat=True))
    with transaction.atomic():
        ids = list(ArchivedCopy.objects.select_for_update(skip_locked=True).filter(
            pk__in=wanted, state=ArchivedCopy.State.WANTED).values_list("pk", flat=True))
        ArchivedCopy.objects.filter(pk__in=ids).update(state=ArchivedCopy.State.QUEUED, queued_at=timezone.now())
        return enqueue_many(ARCHIVE, ids)


def _claim(pk: int) -> Claim | None:
    return Claim.objects.filter(pk=pk).select_related("article").first()


def _suggest_claims(*pks: int) -> list[Claim] | None:
    """The claims of a suggest job that still wait for it (a job put back by recovery may
    find its claim done already), with the article's claims whose own jobs still wait on
    the queue, up to SUGGEST_BATCH (verdicts come one by one, so do their searches' jobs);
    None when none waits."""
    claims = list(Claim.objects.filter(pk__in=pks, suggest_state=Claim.State.QUEUED).select_related("article")
                  .order_by("pk"))
    if claims and len(claims) < SUGGEST_BATCH:
        claims += _waiting_siblings(claims[0].article_id, SUGGEST_BATCH - len(claims), {c.pk for c in claims})
    return claims or None


def _waiting_siblings(article_id: int, room: int, have: set[int]) -> list[Claim]:
    """Up to `room` more claims of the article (besides `have`) whose suggest jobs wait on
    the queue, their jobs taken off it (handed on afresh: recovery counts from then on)."""
    waiting = waiting_jobs(SUGGEST)
    mine = set(Claim.objects.filter(pk__in={pk for _, args in waiting for pk in args}, article_id=article_id,
                                    suggest_state=Claim.State.QUEUED).values_list("pk", flat=True))
    taken: list[int] = []
    for job_id, args in waiting:
        more = [pk for pk in args if pk not in have and pk not in taken]
        if set(args) <= mine | have and len(taken) + len(more) <= room and take_job(SUGGEST, job_id):
            taken += more
    Claim.objects.filter(pk__in=taken).update(queued_at=timezone.now())
    return list(Claim.objects.filter(pk__in=taken, suggest_state=Claim.State.QUEUED).select_related("article")
                .order_by("pk"))


def _suggest(claims: list[Claim]) -> str:
    """One article's claims searched together (their reranks share the cross-encoder's
    batches); should that fail, each claim on its own, so one bad claim fails alone."""
    try:
        done = suggestions.claims_suggest(claims=claims)
    except (OperationalError, InterfaceError):
        raise  # the database went away: recovery puts the claims back
    except Exception:  # noqa: BLE001 - retried claim by claim below, each failure kept on its claim
        if len(claims) == 1:
            raise
        log.exception("suggestion search of claims %s together failed; each on its own", [c.pk for c in claims])
        done = []
        for claim in claims:
            try:
                done.append(suggestions.claim_suggest(claim=claim))
            except (OperationalError, InterfaceError):
                raise
            except Exception as exc:  # noqa: BLE001 - the claim's state says why
                _suggest_failed(claim, exc)
    return "; ".join(claim.suggest_reason for claim in done)


def _verify_failed(claim: Claim, exc: Exception) -> None:
    _claim_failed(claim, exc, "verify", verify_state=Claim.State.FAILED)


def _suggest_failed(claim: Claim, exc: Exception) -> None:
    _claim_failed(claim, exc, "suggest", suggest_state=Claim.State.FAILED)


def _suggestions_failed(claims: list[Claim], exc: Exception) -> None:
    for claim in claims:
        _suggest_failed(claim, exc)


def _after_suggest(claims: list[Claim]) -> None:
    for claim in claims:
        after_claim(claim)


def _claim_failed(claim: Claim, exc: Exception, what: str, **state) -> None:
    """Any error of a verify or suggest job ends as the claim's state with its reason,
    never as a crashed worker or a claim stuck in `queued`."""
    log.exception("%s of claim %s failed", what, claim.pk)
    reason = f"{what} failed: {type(exc).__name__}: {exc}"[:2000]
    with transaction.atomic():
        Claim.objects.filter(pk=claim.pk).update(**state, **{f"{what}_reason": reason})
        findings_changed(articles=[claim.article_id])
    claim.refresh_from_db()


# --- hand-ons: what each stage hands on to once its work on a row is done ----------
#
# scan request -> expand (category / recent changes) -> scan (one job per article)
# scan -> fetch (each cited source not fresh) + verify (claims whose sources are all in)
# fetch -> corpus (the text joins the retrieval index) + verify (claims waiting on it)
# verify -> suggest (flagged claims, once every source of their scan is in the corpus)
# suggest -> the scan job's final status

def scan_requested(job: ScanJob) -> None:
    """A new scan: one job per title, or one job that lists the articles first."""
    if job.kind in ScanJob.LISTED:
        enqueue_many(SCAN, job.items.values_list("pk", flat=True))
    else:
        enqueue(EXPAND, job.pk)


def after_expand(job: ScanJob) -> None:
    enqueue_many(SCAN, job.items.filter(
        status=ScanItem.Status.QUEUED).values_list("pk", flat=True))


def after_scan(item: ScanItem) -> None:
    if item.job.kind == ScanJob.Kind.PATROL:
        edit_dispatch(claim_ids=patrol.edit_scanned(item=item))
    elif item.revision_id and item.status != ScanItem.Status.FAILED:
        revision_dispatch(revision=item.revision)
    scan_job_refresh(job=item.job)


def after_fetch(source: Source) -> None:
    # Verdicts first, then the corpus (on the model worker, which holds the index open): an
    # idle model worker takes whichever job reaches the queue first.
    claims_dispatch(claim_ids=_waiting_on(source))
    if source.status == Source.Status.OK:
        enqueue(CORPUS)
    for job in _jobs_citing(source):
        scan_job_refresh(job=job)


def _jobs_citing(source: Source) -> list[ScanJob]:
    """Open scan jobs that wait on `source`: those of an article citing it, except patrol
    scans whose edit added no claim citing it (a burst of edits to one article leaves many
    open, and each would otherwise count its progress again after every fetch)."""
    jobs = list(ScanJob.objects.filter(items__article__citations__source=source, status__in=ScanJob.OPEN).distinct())
    if any(job.checked_claims is not None for job in jobs):
        citing = set(Claim.objects.filter(claim_citations__citation__source=source).values_list("pk", flat=True))
        jobs = [job for job in jobs if job.checked_claims is None or citing.intersection(job.checked_claims)]
    return jobs


def _waiting_on(source: Source) -> list[int]:
    """Pending claims citing `source` that a scan asked to check, or that were judged
    before (their source's text changed): a patrol scan stores a whole revision but asks
    only for the claims its edit added; the rest stay unchecked (at no cost) until a scan
    of the article asks for them."""
    pending = Claim.objects.filter(claim_citations__citation__source=source, verify_state=Claim.State.PENDING)
    patrolled = [pk for params in ScanJob.objects.filter(kind=ScanJob.Kind.PATROL, status__in=ScanJob.OPEN)
                 .values_list("params", flat=True) for pk in params.get("claims", [])]
    asked = pending.filter(Q(pk__in=patrolled) | Q(verified_at__isnull=False) | Q(
        revision_claims__revision__scanitem__job__kind__in=[k for k in ScanJob.Kind if k != ScanJob.Kind.PATROL]))
    return list(set(asked.values_list("pk", flat=True)))


def after_verify(claim: Claim) -> None:
    """A verdict: live pages that support it are sent to an archive from the fetch queue (the
    model worker makes no request to the network), then as after every claim job."""
    enqueue_many(CAPTURE, verification.sources_to_capture(claim))
    after_claim(claim)


def after_claim(claim: Claim) -> None:
    """After a claim's verification or suggestion search: its open scan jobs move on.
    A claim outside any (re-verified because its source changed) starts its suggestion
    search at once."""
    if claim.verify_state == Claim.State.PENDING:  # its verdict asked for archived copies first
        copies_dispatch(claim=claim)
    open_jobs = ScanJob.objects.filter(items__revision__revision_claims__claim=claim,
                                       status__in=ScanJob.OPEN).distinct()
    for job in open_jobs:
        scan_job_refresh(job=job)
    if not open_jobs:
        suggestions_dispatch(claim_ids=[claim.pk])


def after_corpus(_) -> None:
    """Documents left for a next step: another corpus job, behind the verdicts queued
    meanwhile (a claim's verdict never waits for a whole scan's pages to be encoded)."""
    if corpus_waiting():
        enqueue(CORPUS)


def revision_dispatch(*, revision: Revision) -> None:
    """Queue the fetches and verifications a scanned revision needs.

    Every source the article cites is fetched, also those behind citations that back
    no claim (in a heading, an empty infobox field): each source ends with a status.
    """
    sources_dispatch(source_ids=Source.objects.filter(
        citations__article_id=revision.article_id).values_list("pk", flat=True))
    # A rescan picks up a fix to the rules behind reasons, with or without a new revision.
    Claim.judged_under_older_rules().filter(revision_claims__revision=revision).update(
        verify_state=Claim.State.PENDING, suggest_state="")
    claims_dispatch(claim_ids=revision.revision_claims.filter(
        claim__verify_state=Claim.State.PENDING).values_list("claim_id", flat=True))


def edit_dispatch(*, claim_ids: list[int]) -> None:
    """A patrolled edit: only the claims it added are fetched and verified; the rest of
    the article keeps what it had, at no cost."""
    sources_dispatch(source_ids=Source.objects.filter(
        citations__claim_citations__claim__in=claim_ids).values_list("pk", flat=True))
    claims_dispatch(claim_ids=claim_ids)


def sources_dispatch(*, source_ids: Iterable[int]) -> int:
    """Queue a fetch for each source that is not fetched (or stale) and not queued."""
    with transaction.atomic():
        rows = list(Source.objects.select_for_update(skip_locked=True)
                    .filter(pk__in=list(source_ids), queued_at=None))
        due = [s.pk for s in rows if not s.is_fresh]
        Source.objects.filter(pk__in=due).update(queued_at=timezone.now())
        copies_wanted_dispatch(source_ids=[s.pk for s in rows if s.is_fresh])  # a fetch asks for its own
        return enqueue_many(FETCH, due)


def copies_wanted_dispatch(*, source_ids: list[int]) -> int:
    """Queue the archive lookups that fresh pages (not fetched again) still want: a dead page
    cited for a day none was looked up for, a lookup that ended busy and is due again."""
    archives.sources_copies_wanted(source_ids=source_ids)
    with transaction.atomic():
        ids = list(ArchivedCopy.objects.select_for_update(skip_locked=True).filter(
            source_id__in=source_ids, state=ArchivedCopy.State.WANTED).values_list("pk", flat=True))
        ArchivedCopy.objects.filter(pk__in=ids).update(state=ArchivedCopy.State.QUEUED, queued_at=timezone.now())
        return enqueue_many(ARCHIVE, ids)


def claims_dispatch(*, claim_ids: Iterable[int]) -> int:
    """Queue verification for pending claims whose cited sources are all fetched."""
    with transaction.atomic():
        ready = (Claim.objects.select_for_update(skip_locked=True, of=("self",))
                 .filter(pk__in=list(claim_ids), verify_state=Claim.State.PENDING)
                 .exclude(claim_citations__citation__source__status=Source.Status.PENDING))
        ids = list(ready.values_list("pk", flat=True))
        Claim.objects.filter(pk__in=ids).update(verify_state=Claim.State.QUEUED, queued_at=timezone.now())
        return enqueue_many(VERIFY, ids)


def suggestions_dispatch(*, claim_ids: Iterable[int]) -> int:
    """Queue the suggestion search of flagged claims that wait for it: one job for up to
    SUGGEST_BATCH claims of one article (their reranks share the cross-encoder's batches;
    each claim is in one job only)."""
    with transaction.atomic():
        rows = list(Claim.objects.select_for_update(skip_locked=True)
                    .filter(pk__in=list(claim_ids), suggest_state=Claim.State.PENDING)
                    .order_by("article_id", "pk").values_list("pk", "article_id"))
        Claim.objects.filter(pk__in=[pk for pk, _ in rows]).update(
            suggest_state=Claim.State.QUEUED, queued_at=timezone.now())
        by_article: dict[int, list[int]] = {}
        for pk, article in rows:
            by_article.setdefault(article, []).append(pk)
        for pks in by_article.values():
            for at in range(0, len(pks), SUGGEST_BATCH):
                enqueue(SUGGEST, *pks[at:at + SUGGEST_BATCH])
        return len(rows)


def scan_job_refresh(*, job: ScanJob) -> ScanJob:
    """Start suggestions once all the job's sources are in; give the job its final
    status once every stage of every article has ended."""
    counts = scan_progress(job=job)
    scanned, fetched = counts[StageName.SCAN], counts[StageName.FETCH]
    if scanned["done"] == scanned["total"] and fetched["done"] == fetched["total"]:
        # Every source this scan found is fetched (so in the corpus): a suggestion search
        # now sees them all, including pages cited by the job's other articles.
        if suggestions_dispatch(claim_ids=job_claims(job).filter(
                suggest_state=Claim.State.PENDING).values_list("pk", flat=True)):
            return job
    outcome = job.outcome(counts)
    if outcome is not None:
        # SIDE's study: claims whose top suggestion outscores the citation go to
        # annotators; made before the job reads as finished, so its end means "items ready".
        items_for_scan(claim_ids=job_claims(job).values_list("pk", flat=True))
        job.finish(*outcome)
    return job


# --- the table ----------------------------------------------------------------------

EXPAND = Stage(
    StageName.EXPAND, Queue.SCAN, expand_job,
    load=lambda pk: ScanJob.objects.filter(pk=pk).select_related("wiki").first(),
    run=lambda job: len(scans.scan_expand(job=job)), then=after_expand,
    unfinished=lambda: ScanJob.objects.filter(
        ~Q(kind__in=ScanJob.LISTED), items=None, status__in=ScanJob.OPEN),
    since="created_at")
SCAN = Stage(
    StageName.SCAN, Queue.SCAN, scan_job, load=_take_item,
    run=lambda item: scans.scan_item_run(item=item).status, then=after_scan,
    unfinished=lambda: ScanItem.objects.filter(status__in=ScanItem.UNFINISHED),
    since="updated_at", reset=_requeue_items, progress=progress.scan_counts)
FETCH = Stage(
    StageName.FETCH, Queue.FETCH, fetch_job, load=lambda pk: Source.objects.filter(pk=pk).first(),
    run=_fetch, then=after_fetch, retry=sources.fetch_retry,
    unfinished=lambda: Source.objects.filter(status=Source.Status.PENDING).exclude(queued_at=None),
    since="queued_at", progress=progress.fetch_counts)
ARCHIVE = Stage(
    StageName.ARCHIVE, Queue.FETCH, archive_job, load=lambda pk: ArchivedCopy.objects.filter(pk=pk).first(),
    run=_archive, then=after_archive, retry=sources.fetch_retry, since="queued_at",
    unfinished=lambda: ArchivedCopy.objects.filter(state=ArchivedCopy.State.QUEUED))
# A courtesy to the page's future readers: no row state, nothing to recover if it is lost.
CAPTURE = Stage(StageName.CAPTURE, Queue.FETCH, capture_job, load=lambda pk: Source.objects.filter(pk=pk).first(),
                run=lambda source: archives.source_capture(source=source))
VERIFY = Stage(
    StageName.VERIFY, Queue.VERIFY, verify_job, load=_claim,
    run=lambda claim: verification.claim_verify(claim=claim).verdict, then=after_verify,
    on_error=_verify_failed, since="queued_at", progress=progress.verify_counts, front=True,
    unfinished=lambda: Claim.objects.filter(verify_state=Claim.State.QUEUED))
SUGGEST = Stage(
    StageName.SUGGEST, Queue.VERIFY, suggest_job, load=_suggest_claims, run=_suggest, then=_after_suggest,
    on_error=_suggestions_failed, since="queued_at", progress=progress.suggest_counts,
    unfinished=lambda: Claim.objects.filter(suggest_state=Claim.State.QUEUED))
# On a model worker, which holds a replica open; no row: it turns every stored document
# not in the corpus yet into passages and embeddings in PostgreSQL (the corpus's source of
# truth), then brings its own local replica up to date from there. Workers on other
# machines bring theirs up to date before each suggestion search (claims.suggestions).
CORPUS = Stage(StageName.CORPUS, Queue.VERIFY, corpus_job, run=lambda _: corpus_sync(most=CORPUS_STEP),
               then=after_corpus, coalesce=True)
IMPORT = Stage(
    StageName.IMPORT, Queue.DEFAULT, import_job,
    load=lambda pk: CorpusImport.objects.filter(pk=pk).first(),
    run=lambda record: imports.import_run(record=record).status,
    unfinished=lambda: CorpusImport.objects.filter(status__in=CorpusImport.UNFINISHED),
    since="created_at")

STAGES: dict[StageName, Stage] = {s.name: s for s in (EXPAND, SCAN, FETCH, ARCHIVE, CAPTURE, VERIFY, SUGGEST,
                                                      CORPUS, IMPORT)}


def scan_progress(*, job: ScanJob) -> dict[str, progress.Counts]:
    """{stage name: {done, total, failed}} in pipeline order."""
    return {stage.name: stage.progress(job) for stage in STAGES.values() if stage.progress}

"""The pipeline, declared once.

Every stage of work is one entry of STAGES: the queue it runs on, its RQ job function
(enqueued by reference), how a job loads its row, the service that does the work, what
it hands on to when done, and the query that finds its unfinished rows. Dispatch
(dispatch.py), progress (progress.py) and recovery (recovery.py) read this table; a new
stage is one entry plus its service.

    stage    queue    row           service                         hands on to
    expand   scan     ScanJob       scans.scan_expand               scan
    scan     scan     ScanItem      scans.scan_item_run             fetch, verify
    fetch    fetch    Source        sources.source_fetch            corpus, verify
    verify   verify   Claim         claims.claim_verify             suggest (when the scan's sources are in)
    suggest  verify   Claim         claims.claim_suggest            the scan job's end
    corpus   verify   -             corpus.corpus_sync              - (passages into PostgreSQL, then
                                                                   this worker's replica synced)
    import   default  CorpusImport  corpus.import_run               -
"""
from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any, Callable

from django.db.models import Model, Q, QuerySet
from rq import get_current_job

from sideapp.claims import suggestions, verification
from sideapp.claims.models import Claim
from sideapp.corpus import imports
from sideapp.corpus.models import CorpusImport
from sideapp.corpus.services import corpus_sync
from sideapp.pipeline import flow, progress
from sideapp.pipeline.names import Queue, StageName
from sideapp.scans import services as scans
from sideapp.scans.models import ScanItem, ScanJob
from sideapp.sources import services as sources
from sideapp.sources.models import Source

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Stage:
    name: StageName
    queue: Queue
    job: Callable[..., str]  # the RQ job function: takes the row's primary key
    run: Callable[[Any], object]  # the service that does the work on the loaded row
    load: Callable[[int], Model | None] | None = None  # None: a job without a row
    then: Callable[[Any], None] | None = None  # what it hands on to
    unfinished: Callable[[], QuerySet] | None = None  # rows that should have a job
    since: str = ""  # the unfinished row's field saying when it was handed on
    reset: Callable[[list[int]], None] | None = None  # rows of dead jobs, back to queued
    on_error: Callable[[Any, Exception], None] | None = None  # None: RQ sees the error
    retry: Callable[[], Any] | None = None  # RQ Retry for the job, if any
    progress: Callable[[ScanJob], dict] | None = None  # its share of a scan job


def execute(stage: Stage, *args) -> str:
    """Run one job of `stage`: load the row, do the work, hand on. A row that is gone
    (deleted while queued) or already taken by another job ends the job quietly."""
    row = stage.load(*args) if stage.load else None
    if stage.load and row is None:
        return "gone or taken"
    try:
        outcome = stage.run(row)
    except Exception as exc:
        if stage.on_error is None:
            raise
        stage.on_error(row, exc)
        outcome = "failed"
    if stage.then:
        stage.then(row)
    return str(outcome)


# --- job functions: what RQ runs ---------------------------------------------------

def expand_job(job_pk: int) -> str:
    return execute(EXPAND, job_pk)


def scan_job(item_pk: int) -> str:
    return execute(SCAN, item_pk)


def fetch_job(source_pk: int) -> str:
    return execute(FETCH, source_pk)


def verify_job(claim_pk: int) -> str:
    return execute(VERIFY, claim_pk)


def suggest_job(claim_pk: int) -> str:
    return execute(SUGGEST, claim_pk)


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


def _claim(pk: int) -> Claim | None:
    return Claim.objects.filter(pk=pk).select_related("article").first()


def _verify_failed(claim: Claim, exc: Exception) -> None:
    _claim_failed(claim, exc, "verify", verify_state=Claim.State.FAILED)


def _suggest_failed(claim: Claim, exc: Exception) -> None:
    _claim_failed(claim, exc, "suggest", suggest_state=Claim.State.FAILED)


def _claim_failed(claim: Claim, exc: Exception, what: str, **state) -> None:
    """Any error of a verify or suggest job ends as the claim's state with its reason,
    never as a crashed worker or a claim stuck in `queued`."""
    log.exception("%s of claim %s failed", what, claim.pk)
    reason = f"{what} failed: {type(exc).__name__}: {exc}"[:2000]
    Claim.objects.filter(pk=claim.pk).update(**state, **{f"{what}_reason": reason})
    claim.refresh_from_db()


# --- the table ----------------------------------------------------------------------

EXPAND = Stage(
    StageName.EXPAND, Queue.SCAN, expand_job,
    load=lambda pk: ScanJob.objects.filter(pk=pk).select_related("wiki").first(),
    run=lambda job: len(scans.scan_expand(job=job)), then=flow.after_expand,
    unfinished=lambda: ScanJob.objects.filter(
        ~Q(kind=ScanJob.Kind.TITLES), items=None, status__in=ScanJob.OPEN),
    since="created_at")
SCAN = Stage(
    StageName.SCAN, Queue.SCAN, scan_job, load=_take_item,
    run=lambda item: scans.scan_item_run(item=item).status, then=flow.after_scan,
    unfinished=lambda: ScanItem.objects.filter(status__in=ScanItem.UNFINISHED),
    since="updated_at", reset=_requeue_items, progress=progress.scan_counts)
FETCH = Stage(
    StageName.FETCH, Queue.FETCH, fetch_job, load=lambda pk: Source.objects.filter(pk=pk).first(),
    run=_fetch, then=flow.after_fetch, retry=sources.fetch_retry,
    unfinished=lambda: Source.objects.filter(status=Source.Status.PENDING).exclude(queued_at=None),
    since="queued_at", progress=progress.fetch_counts)
VERIFY = Stage(
    StageName.VERIFY, Queue.VERIFY, verify_job, load=_claim,
    run=lambda claim: verification.claim_verify(claim=claim).verdict, then=flow.after_claim,
    on_error=_verify_failed, since="queued_at", progress=progress.verify_counts,
    unfinished=lambda: Claim.objects.filter(verify_state=Claim.State.QUEUED))
SUGGEST = Stage(
    StageName.SUGGEST, Queue.VERIFY, suggest_job, load=_claim,
    run=lambda claim: suggestions.claim_suggest(claim=claim).suggest_reason, then=flow.after_claim,
    on_error=_suggest_failed, since="queued_at", progress=progress.suggest_counts,
    unfinished=lambda: Claim.objects.filter(suggest_state=Claim.State.QUEUED))
# On a model worker, which holds a replica open; no row: it turns every stored document
# not in the corpus yet into passages and embeddings in PostgreSQL (the corpus's source of
# truth), then brings its own local replica up to date from there. Workers on other
# machines bring theirs up to date before each suggestion search (claims.suggestions).
CORPUS = Stage(StageName.CORPUS, Queue.VERIFY, corpus_job, run=lambda _: corpus_sync())
IMPORT = Stage(
    StageName.IMPORT, Queue.DEFAULT, import_job,
    load=lambda pk: CorpusImport.objects.filter(pk=pk).first(),
    run=lambda record: imports.import_run(record=record).status,
    unfinished=lambda: CorpusImport.objects.filter(status__in=CorpusImport.UNFINISHED),
    since="created_at")

STAGES: dict[StageName, Stage] = {s.name: s for s in (EXPAND, SCAN, FETCH, VERIFY, SUGGEST, CORPUS, IMPORT)}

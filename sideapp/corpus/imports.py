"""Importing a corpus file: documents become sources with text, then join the index.

Every line is checked (bad JSON, no URL, no text are skipped with their line number);
documents are stored in batches, each batch in one transaction, so a failed import
leaves whole documents or none of a batch.
"""
from __future__ import annotations

import hashlib
import logging

from django.db import transaction
from django.utils import timezone

from sideapp import events
from sideapp.corpus.models import CorpusImport
from sideapp.corpus.services import corpus_sync
from sideapp.sources.models import Source, SourceDocument
from verifier_core.fetch import normalise_url
from verifier_core.progress import Progress
from verifier_core.retrieval import Document, read_corpus

log = logging.getLogger(__name__)
BATCH = 200
MAX_REPORTED = 100


def import_request(*, upload, user=None) -> CorpusImport:
    with transaction.atomic():
        record = CorpusImport.objects.create(upload=upload, name=upload.name[:255], created_by=user)
        events.corpus_import_requested.send(sender=CorpusImport, record=record)
    return record


def _progress(record: CorpusImport, **fields) -> None:
    CorpusImport.objects.filter(pk=record.pk).update(**fields)


def _stage_progress(record: CorpusImport, summary: dict, stage: str, total: int) -> Progress:
    # stage: "storing" or "indexing"; the log line says "documents stored" / "indexed"
    """A Progress for one stage of the import: periodic lines in the worker's log, and
    done / total, documents/s and time left on the import's row (its page shows them)."""
    _progress(record, stage=stage, done=0, total=total, report=summary)

    def mirror(snap) -> None:
        summary.update(rate=round(snap.rate, 1), seconds_left=snap.seconds_left)
        _progress(record, done=min(snap.done, total), report=summary)

    return Progress(total=total, what=f"documents {stage.removesuffix('ing')}ed ({record.name})", on_update=mirror, bar=False)


def _summary(report) -> dict:
    if report.lines and not report.objects:
        raise ValueError(f"no line was a JSON object ({report.lines} lines read): "
                         'the file must hold one {"url", "title", "text"} object per line')
    return {"lines": report.lines, "documents": report.documents,
            "duplicates_merged": report.duplicates_merged, "skipped_lines": len(report.skipped),
            "skipped": [list(s) for s in report.skipped[:MAX_REPORTED]]}


def import_run(*, record: CorpusImport) -> CorpusImport:
    """Run one import to its end; failures end as a status with the reason."""
    _progress(record, status=CorpusImport.Status.RUNNING, stage="reading", done=0)
    try:
        docs, report = read_corpus(record.upload.path)
        summary = _summary(report)
        with _stage_progress(record, summary, "storing", len(docs)) as progress:
            summary["stored"] = _store(docs, progress)
        with _stage_progress(record, summary, "indexing", len(docs)) as progress:
            summary["indexed"] = corpus_sync(progress=lambda n: progress.advance(max(0, n - progress.done)))
        summary["seconds"] = round((timezone.now() - record.created_at).total_seconds(), 1)
        _progress(record, status=CorpusImport.Status.DONE, stage="", report=summary,
                  done=len(docs), finished_at=timezone.now())
    except Exception as exc:  # noqa: BLE001 - an import must end with a status, not a trace
        log.exception("corpus import %s failed", record.pk)
        _progress(record, status=CorpusImport.Status.FAILED, finished_at=timezone.now(),
                  reason=f"{type(exc).__name__}: {exc}"[:2000])
    record.refresh_from_db()
    return record


def _store(docs: list[Document], progress: Progress) -> int:
    stored = 0
    for first in range(0, len(docs), BATCH):
        batch = docs[first:first + BATCH]
        stored += _store_batch(batch)
        progress.advance(len(batch))
    return stored


def _store_batch(docs: list[Document]) -> int:
    """Sources for new URLs; a URL already fetched keeps its fetched text."""
    now = timezone.now()
    by_norm = {normalise_url(d.url): d for d in docs}
    with transaction.atomic():
        Source.objects.bulk_create(
            [Source(normalized_url=n, url=d.url[:2000], title=d.title, status=Source.Status.OK,
                    reason="imported from a corpus file", fetched_at=now) for n, d in by_norm.items()],
            ignore_conflicts=True)
        sources = Source.objects.filter(normalized_url__in=by_norm, document__isnull=True)
        rows = [SourceDocument(source=s, title=by_norm[s.normalized_url].title,
                               text=by_norm[s.normalized_url].text, fetched_at=now,
                               sha256=hashlib.sha256(by_norm[s.normalized_url].text.encode()).hexdigest())
                for s in sources if s.status == Source.Status.OK]
        SourceDocument.objects.bulk_create(rows)
    return len(rows)

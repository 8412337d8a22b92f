"""The retrieval corpus: every fetched (or imported) source document, indexed.

PostgreSQL holds the corpus (documents, and their passages with embeddings:
CorpusPassage); every worker machine keeps a local replica in `SIDE_INDEX_DIR` (one
RetrievalEngine per process) that it brings up to date from there by passage id.
"""
from __future__ import annotations

import logging
import shutil
import socket
import threading
from functools import lru_cache
from pathlib import Path
from typing import Callable

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from sideapp.corpus.feed import DatabasePassageFeed
from sideapp.corpus.models import CorpusPassage, CorpusReplica
from sideapp.scans.models import Article, Revision
from sideapp.sources.models import Source, SourceDocument
from verifier_core.progress import Progress
from verifier_core.retrieval import (
    AnchorDictionary, Document, EncoderMismatchError, IndexConfig, IndexNotFoundError, RetrievalEngine,
    make_encoder,
)
from verifier_core.retrieval.corpus import dense_text, iter_passages
from verifier_core.retrieval.replica import SyncReport
from verifier_core.wikitext import extract_links

log = logging.getLogger(__name__)
_sync_lock = threading.Lock()
BATCH = 50  # documents encoded per transaction
PASSAGE_LOCK = 0x51DE_0001  # the advisory lock under which passage ids are taken


def corpus_engine() -> RetrievalEngine:
    return _engine_at(str(settings.SIDE_INDEX_DIR), settings.SIDE_ENCODER)


def corpus_encoder():
    return make_encoder(settings.SIDE_ENCODER, cache_dir=settings.SIDE_ENCODER_CACHE)


@lru_cache(maxsize=4)
def _engine_at(index_dir: str, encoder_kind: str) -> RetrievalEngine:
    encoder = corpus_encoder()
    try:
        return RetrievalEngine.load(index_dir, encoder=encoder)
    except IndexNotFoundError:
        return RetrievalEngine.create(index_dir, encoder=encoder)
    except EncoderMismatchError:
        # The replica is a cache of the database: one written by another encoder is
        # rebuilt from the passages, never mixed.
        log.warning("index %s was written by another encoder than %s: rebuilding it", index_dir, encoder.name)
        shutil.rmtree(index_dir)
        return RetrievalEngine.create(index_dir, encoder=encoder)


def corpus_sync(*, progress: Callable[[int], None] | None = None, most: int | None = None) -> int:
    """Turn every stored document not in the corpus yet into passages with embeddings in
    PostgreSQL (any worker may do it: each document is taken by one), then bring this
    worker's local index up to date from there. Returns how many documents it added.

    `progress` is called with the running count of documents after each batch; with `most`,
    at most that many documents are encoded (the rest waits for the next call)."""
    with _sync_lock:
        added = passages_store(encoder=corpus_engine().encoder, progress=progress, most=most)
        replica_sync()
    return added


def passages_store(*, encoder, progress: Callable[[int], None] | None = None, most: int | None = None) -> int:
    added = 0
    while (most is None or added < most) and (
            stored := _store_batch(encoder, BATCH if most is None else min(BATCH, most - added))):
        added += stored
        if progress:
            progress(added)
    return added


def _store_batch(encoder, size: int = BATCH) -> int:
    """One batch of documents into passages, in one transaction; 0 when none is left."""
    with transaction.atomic():
        docs = list(SourceDocument.objects.select_for_update(skip_locked=True, of=("self",))
                    .filter(indexed_at=None, source__status=Source.Status.OK)
                    .select_related("source").order_by("pk")[:size])
        if not docs:
            return 0
        config = IndexConfig()
        records = list(iter_passages([Document(d.source.url, d.title, d.text) for d in docs],
                                     config.passage_words, config.stride))
        vectors = encoder.encode([dense_text(p) for p in records]).astype("<f2")
        # Ids must grow in commit order, or a replica that read past a later id would never
        # see an earlier one that committed after: writers take their ids one at a time.
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [PASSAGE_LOCK])
        CorpusPassage.objects.filter(document__in=docs).delete()  # a document fetched again
        CorpusPassage.objects.bulk_create(
            [CorpusPassage(document=docs[p.doc], start=p.start, end=p.end, text=p.text,
                           encoder=encoder.name, embedding=v.tobytes()) for p, v in zip(records, vectors)],
            batch_size=1000)
        SourceDocument.objects.filter(pk__in=[d.pk for d in docs]).update(indexed_at=timezone.now())
    return len(docs)


def replica_sync() -> SyncReport:
    """Bring this worker's local index up to date with the passages in PostgreSQL."""
    engine = corpus_engine()
    feed = DatabasePassageFeed(engine.encoder.name, engine.encoder.dim)
    replica, _ = CorpusReplica.objects.get_or_create(name=_replica_name(),
                                                     defaults={"encoder": engine.encoder.name})
    total = feed.count_after(engine.synced_through)
    with Progress(total=total, what="passages synced", on_update=_mirror(replica), bar=False) as progress:
        report = engine.sync_from(feed, batch=settings.SIDE_SYNC_BATCH, progress=progress) if total else None
    CorpusReplica.objects.filter(pk=replica.pk).update(
        encoder=engine.encoder.name, synced_through=engine.synced_through, passages=len(engine),
        documents=engine.manifest["document_count"], syncing=False, seconds_left=None)
    return report or SyncReport(synced_through=engine.synced_through)


def _mirror(replica: CorpusReplica):
    def update(snap) -> None:
        CorpusReplica.objects.filter(pk=replica.pk).update(
            syncing=True, done=snap.done, total=snap.total or 0, rate=round(snap.rate, 1),
            seconds_left=snap.seconds_left)
    return update


def _replica_name() -> str:
    return f"{socket.gethostname()}:{settings.SIDE_INDEX_DIR}"[:300]


def _anchors_signature() -> str:
    latest = Revision.objects.order_by("-pk").values_list("pk", flat=True).first()
    return f"{Article.objects.exclude(current_revision=None).count()}:{latest}"


def anchors_sync() -> bool:
    """Rebuild the anchor-text dictionary from the scanned articles' links when an
    article has been scanned since the last build, and install it in the index, so
    queries are expanded with the wiki's own vocabulary. Returns True when rebuilt."""
    marker = Path(settings.SIDE_INDEX_DIR) / "anchors.signature"
    signature = _anchors_signature()
    if marker.exists() and marker.read_text() == signature:
        return False
    with _sync_lock:
        articles = Article.objects.exclude(current_revision=None).select_related("current_revision")
        links = (link for a in articles.iterator(chunk_size=100)
                 for link in extract_links(a.current_revision.wikitext))
        corpus_engine().set_anchors(AnchorDictionary.from_links(links))
        marker.write_text(signature)
    return True

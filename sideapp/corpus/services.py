"""The retrieval corpus: every fetched (or imported) source document, indexed.

One RetrievalEngine per process over `SIDE_INDEX_DIR`; the engine itself serialises
writers across processes and picks up other processes' additions.
"""
from __future__ import annotations

import logging
import threading
from functools import lru_cache
from pathlib import Path
from typing import Callable

from django.conf import settings
from django.utils import timezone

from sideapp.scans.models import Article, Revision
from sideapp.sources.models import Source, SourceDocument
from verifier_core.retrieval import AnchorDictionary, Document, IndexNotFoundError, RetrievalEngine
from verifier_core.wikitext import extract_links

log = logging.getLogger(__name__)
_sync_lock = threading.Lock()
BATCH = 200


def corpus_engine() -> RetrievalEngine:
    return _engine_at(str(settings.SIDE_INDEX_DIR))


@lru_cache(maxsize=4)
def _engine_at(index_dir: str) -> RetrievalEngine:
    try:
        return RetrievalEngine.load(index_dir)
    except IndexNotFoundError:
        return RetrievalEngine.create(index_dir)


def corpus_sync(*, progress: Callable[[int], None] | None = None) -> int:
    """Index every stored document that is not in the corpus yet; returns how many.

    `progress` is called with the running count after each batch."""
    added = 0
    with _sync_lock:
        while True:
            batch = list(
                SourceDocument.objects.filter(indexed_at=None, source__status=Source.Status.OK)
                .select_related("source").order_by("pk")[:BATCH]
            )
            if not batch:
                return added
            report = corpus_engine().add_documents(
                [Document(url=d.source.url, title=d.title, text=d.text) for d in batch])
            for url, why in report.skipped:
                if why != "already indexed":
                    log.info("corpus skipped %s: %s", url, why)
            SourceDocument.objects.filter(pk__in=[d.pk for d in batch]).update(indexed_at=timezone.now())
            added += report.added_documents
            if progress:
                progress(added)


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

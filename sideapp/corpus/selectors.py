"""Reads of the corpus: its size and the admins' imports."""
from __future__ import annotations

from django.db.models import Count, Q, QuerySet

from sideapp.corpus.models import CorpusImport, CorpusPassage, CorpusReplica
from sideapp.sources.models import Source, SourceDocument


def corpus_summary() -> dict[str, int]:
    counts = SourceDocument.objects.aggregate(documents=Count("pk"),
                                              indexed=Count("pk", filter=Q(indexed_at__isnull=False)))
    return {**counts, "passages": CorpusPassage.objects.count()}


def corpus_waiting() -> bool:
    """Whether a fetched document waits to join the corpus."""
    return SourceDocument.objects.filter(indexed_at=None, source__status=Source.Status.OK).exists()


def replica_list() -> QuerySet[CorpusReplica]:
    """Every worker machine's local index, with how far its last or running sync got."""
    return CorpusReplica.objects.all()


def import_list(*, limit: int = 50) -> QuerySet[CorpusImport]:
    return CorpusImport.objects.all()[:limit]

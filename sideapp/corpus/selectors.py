"""Reads of the corpus: its size and the admins' imports."""
from __future__ import annotations

from django.db.models import Count, Q, QuerySet

from sideapp.corpus.models import CorpusImport
from sideapp.sources.models import SourceDocument


def corpus_summary() -> dict[str, int]:
    return SourceDocument.objects.aggregate(documents=Count("pk"),
                                            indexed=Count("pk", filter=Q(indexed_at__isnull=False)))


def import_list(*, limit: int = 50) -> QuerySet[CorpusImport]:
    return CorpusImport.objects.all()[:limit]

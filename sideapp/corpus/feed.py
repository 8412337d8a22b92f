"""The corpus passages in PostgreSQL as a PassageFeed for local replicas."""
from __future__ import annotations

import numpy as np

from sideapp.corpus.models import CorpusPassage
from verifier_core.retrieval.replica import FeedPassage


class DatabasePassageFeed:
    """Passages written by one encoder, in id order, whole documents at a time."""

    def __init__(self, encoder_name: str, dim: int):
        self.encoder_name = encoder_name
        self.dim = dim

    def _rows(self):
        return (CorpusPassage.objects.filter(encoder=self.encoder_name).order_by("id")
                .values_list("id", "document__source__url", "document__title", "start", "end", "text",
                             "embedding"))

    def count_after(self, passage_id: int) -> int:
        return CorpusPassage.objects.filter(encoder=self.encoder_name, id__gt=passage_id).count()

    def passages_after(self, passage_id: int, limit: int) -> list[FeedPassage]:
        rows = list(self._rows().filter(id__gt=passage_id)[:limit])
        if len(rows) == limit:  # the last document may go on past the limit
            last = CorpusPassage.objects.get(pk=rows[-1][0]).document_id
            rows += list(self._rows().filter(id__gt=rows[-1][0], document_id=last))
        return [FeedPassage(pid, url, title, start, end, text,
                            np.frombuffer(bytes(blob), dtype="<f2").astype(np.float32))
                for pid, url, title, start, end, text, blob in rows]

"""A local index as a replica of a shared passage store (the app's PostgreSQL tables).

The store holds every corpus passage with its text, offsets and embedding, numbered by an
increasing id; a replica records, in its manifest, the last id it holds
(`synced_through`) and brings itself up to date by reading the passages after it, whole
documents at a time, as append-only segments published with the usual atomic swap. A
sync killed half-way leaves the previous version current, and its cursor with it, so
the next sync starts where the last published one ended.
"""
from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from verifier_core.retrieval.corpus import PassageRecord


@dataclass(frozen=True)
class FeedPassage:
    id: int  # increasing in the order the store made them visible
    url: str
    title: str
    start: int  # character offsets into the document text
    end: int
    text: str
    embedding: np.ndarray  # (dim,) unit vector written by the feed's encoder


class PassageFeed(Protocol):
    """Where a replica reads passages from."""

    encoder_name: str  # the encoder that wrote every embedding the feed returns

    def passages_after(self, passage_id: int, limit: int) -> list[FeedPassage]:
        """Passages with id > passage_id in id order: about `limit` of them, and every
        passage of each document returned (a document is never split across calls)."""
        ...


@dataclass
class SyncReport:
    added_documents: int = 0
    added_passages: int = 0
    skipped_documents: int = 0  # URLs the replica already held
    synced_through: int = 0
    versions: list[str] = field(default_factory=list)


@dataclass
class FeedBatch:
    """One batch of feed passages laid out as a segment: documents and their passages."""

    docs: list[tuple[str, str]]
    passages: list[PassageRecord]
    embeddings: np.ndarray
    skipped: int

    def checksum(self) -> str:
        digest = hashlib.sha256()
        for url, _title in self.docs:
            digest.update(url.encode("utf-8", "surrogatepass") + b"\0")
        for p in self.passages:
            digest.update(f"{p.doc}:{p.start}:{p.end}\0".encode())
        return digest.hexdigest()

    def embed(self, chunk: list[PassageRecord], start: int) -> np.ndarray:
        return self.embeddings[start : start + len(chunk)]

    def records(self) -> Iterator[PassageRecord]:
        return iter(self.passages)


def feed_batch(rows: list[FeedPassage], known_urls, dim: int) -> FeedBatch:
    """Groups rows by document, leaving out documents the replica already holds."""
    docs: list[tuple[str, str]] = []
    number: dict[str, int] = {}
    passages, vectors, skipped = [], [], set()
    for row in rows:
        if row.url in known_urls:
            skipped.add(row.url)
            continue
        if row.url not in number:
            number[row.url] = len(docs)
            docs.append((row.url, row.title))
        passages.append(PassageRecord(number[row.url], row.start, row.end, row.text, row.title))
        vectors.append(np.asarray(row.embedding, dtype=np.float32))
    embeddings = np.vstack(vectors) if vectors else np.zeros((0, dim), dtype=np.float32)
    if embeddings.shape[1] != dim:
        raise ValueError(f"feed embeddings have width {embeddings.shape[1]}, the replica {dim}")
    return FeedBatch(docs, passages, embeddings, len(skipped))

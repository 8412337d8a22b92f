"""Merging sparse and dense results: reciprocal rank fusion, document-level ranks,
maximal marginal relevance (so one site cannot fill the list), and the abstain floor."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from urllib.parse import urlsplit

import numpy as np

RRF_K = 60  # Cormack et al.'s constant: damps the head so agreement between lists counts


@dataclass(frozen=True)
class PassageHit:
    text: str
    start: int  # character offsets into the document text
    end: int
    score: float
    similarity: float | None = None  # cosine with the query, when it was computed
    passage_id: int = -1


@dataclass(frozen=True)
class DocumentHit:
    url: str
    title: str
    score: float  # the score of its best passage
    passages: list[PassageHit] = field(default_factory=list)  # best first
    similarity: float | None = None  # best passage cosine with the query


def reciprocal_rank_fusion(rankings: Sequence[Sequence[int]], k: int = RRF_K) -> dict[int, float]:
    """Sum over rankings of 1 / (k + rank), rank counted from 1."""
    fused: dict[int, float] = {}
    for ranking in rankings:
        for rank, item in enumerate(ranking, start=1):
            fused[int(item)] = fused.get(int(item), 0.0) + 1.0 / (k + rank)
    return fused


def rank_items(scores: dict[int, float]) -> list[int]:
    """Items best first; equal scores in id order so results are reproducible."""
    return sorted(scores, key=lambda i: (-scores[i], i))


def group_by_document(passages: Sequence[int], doc_of: Sequence[int]) -> list[tuple[int, list[int]]]:
    """(document, its passages) in the order of each document's best passage.

    `passages` is ranked best first, so a document's rank is that of its best passage.
    """
    groups: dict[int, list[int]] = {}
    for passage, doc in zip(passages, doc_of):
        groups.setdefault(int(doc), []).append(int(passage))
    return list(groups.items())


def site_of(url: str) -> str:
    host = urlsplit(url).hostname or url
    return host[4:] if host.startswith("www.") else host


def mmr(relevance: np.ndarray, similarity: np.ndarray, lam: float, k: int) -> list[int]:
    """Maximal marginal relevance: pick, one by one, the item that maximises
    lam * relevance - (1 - lam) * (max similarity to the items already picked).

    `relevance` is scaled to [0, 1] first so `lam` means the same for any scorer.
    """
    if not 0 <= lam <= 1:
        raise ValueError("MMR lambda must lie in [0, 1]")
    n = len(relevance)
    if n == 0:
        return []
    rel = np.asarray(relevance, dtype=np.float64)
    span = rel.max() - rel.min()
    rel = (rel - rel.min()) / span if span > 0 else np.ones(n)
    chosen: list[int] = []
    redundancy = np.zeros(n)
    free = np.ones(n, dtype=bool)
    for _ in range(min(k, n)):
        gain = np.where(free, lam * rel - (1 - lam) * redundancy, -np.inf)
        best = int(np.argmax(gain))  # argmax keeps the earlier (better ranked) item on ties
        chosen.append(best)
        free[best] = False
        redundancy = np.maximum(redundancy, similarity[best])
    return chosen


def document_similarity(embeddings: np.ndarray, urls: Sequence[str]) -> np.ndarray:
    """Pairwise document similarity for MMR: cosine of their best passages, raised to 1
    for two documents of the same site (the point is that one site cannot fill the list)."""
    emb = np.asarray(embeddings, dtype=np.float32)
    sim = emb @ emb.T if len(emb) else np.zeros((0, 0), dtype=np.float32)
    sites = [site_of(u) for u in urls]
    same = np.array([[a == b for b in sites] for a in sites], dtype=bool).reshape(sim.shape)
    return np.maximum(sim, same.astype(np.float32))

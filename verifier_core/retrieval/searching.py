"""One search over a snapshot: sparse and dense candidates, fusion, documents, MMR,
the abstain floor. Pure functions of (snapshot, encoder, queries, options)."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from verifier_core.retrieval.dense import limited_threads
from verifier_core.retrieval.errors import EmptyQueryError
from verifier_core.retrieval.fusion import (
    DocumentHit, PassageHit, document_similarity, group_by_document, mmr, rank_items,
    reciprocal_rank_fusion,
)
from verifier_core.retrieval.query import Query
from verifier_core.retrieval.sparse import weights_for
from verifier_core.retrieval.tokenize import tokenize, words

MODES = ("hybrid", "sparse", "dense")
SIDE_DEPTH = 100  # SIDE fused the top 100 of each retriever


@dataclass(frozen=True)
class SearchOptions:
    k: int = 10
    exclude_urls: frozenset[str] = frozenset()
    mode: str = "hybrid"
    expand: bool | None = None  # None: expand when the index has an anchor dictionary
    expansion_weight: float = 0.3
    mmr_lambda: float | None = None
    min_similarity: float | None = None
    depth: int | None = None
    passages_per_document: int = 3
    query_threads: int | None = 1  # torch/faiss threads for a few queries; None = leave as set

    def __post_init__(self):
        if self.mode not in MODES:
            raise ValueError(f"mode must be one of {MODES}, not {self.mode!r}")
        if self.k < 1:
            raise ValueError("k must be at least 1")

    @property
    def passage_depth(self) -> int:
        # Several passages of one document share its rank, so ask for more passages than
        # documents wanted.
        return self.depth or max(SIDE_DEPTH, 3 * self.k)

    def needs_vectors(self) -> bool:
        return self.mode != "sparse" or self.mmr_lambda is not None or bool(self.min_similarity)


def query_weights(snap, text: str, opts: SearchOptions) -> dict[str, float]:
    """BM25 term weights: the query's own terms at 1, anchor expansion terms lower."""
    weights = weights_for(tokenize(text))
    expand = opts.expand if opts.expand is not None else snap.anchors is not None
    if expand and snap.anchors is not None:
        for anchor, weight in snap.anchors.expand(text, weight=opts.expansion_weight).terms:
            for term in tokenize(anchor):
                if term not in weights:
                    weights[term] = weight
    return weights


def run_search(snap, encoder, queries: list[Query], opts: SearchOptions) -> list[list[DocumentHit]]:
    texts = [q.text() for q in queries]
    for text in texts:
        if not words(text):
            raise EmptyQueryError("the query has no words to search for")
    if not len(snap):
        return [[] for _ in texts]
    threads = opts.query_threads if opts.needs_vectors() else None  # sparse needs no torch
    with limited_threads(threads, len(texts)):
        return _search(snap, encoder, texts, opts)


def _search(snap, encoder, texts: list[str], opts: SearchOptions) -> list[list[DocumentHit]]:
    depth = min(opts.passage_depth, len(snap))
    vectors = encoder.encode(texts) if opts.needs_vectors() else None
    dense_hits = snap.dense.search(vectors, depth) if vectors is not None and opts.mode != "sparse" else None
    results = []
    for i, text in enumerate(texts):
        sparse = snap.sparse.search(query_weights(snap, text, opts), depth) if opts.mode != "dense" else None
        dense = dense_hits[i] if dense_hits is not None else None
        ranked, scores = _rank_passages(sparse, dense, opts.mode)
        qvec = vectors[i] if vectors is not None else None
        results.append(_documents(snap, ranked, scores, qvec, opts))
    return results


def _rank_passages(sparse, dense, mode: str) -> tuple[list[int], dict[int, float]]:
    if mode == "sparse":
        scores = {int(i): float(s) for i, s in zip(*sparse)}
    elif mode == "dense":
        scores = {int(i): float(s) for i, s in zip(*dense)}
    else:
        scores = reciprocal_rank_fusion([sparse[0], dense[0]])
    return rank_items(scores), scores


def _documents(snap, ranked: list[int], scores: dict[int, float], qvec, opts: SearchOptions) -> list[DocumentHit]:
    if not ranked:
        return []
    ids = np.asarray(ranked, dtype=np.int64)
    sims = snap.embeddings(ids) @ qvec if qvec is not None else None
    sim_of = dict(zip(ranked, sims.tolist())) if sims is not None else {}
    groups = [(d, ps) for d, ps in group_by_document(ranked, snap.doc_of[ids])
              if snap.urls[d] not in opts.exclude_urls]
    if opts.min_similarity is not None and sims is not None:
        # The floor is on meaning, not on rank: a top-ranked page can still be off topic.
        groups = [(d, ps) for d, ps in groups if max(sim_of[p] for p in ps) >= opts.min_similarity]
    if opts.mmr_lambda is not None and len(groups) > 1:
        groups = _diversify(snap, groups, scores, opts)
    return [_hit(snap, d, ps, scores, sim_of, opts) for d, ps in groups[: opts.k]]


def _diversify(snap, groups, scores, opts: SearchOptions):
    best = np.asarray([ps[0] for _, ps in groups], dtype=np.int64)
    relevance = np.asarray([scores[p] for p in best])
    sim = document_similarity(snap.embeddings(best), [snap.urls[d] for d, _ in groups])
    order = mmr(relevance, sim, opts.mmr_lambda, opts.k)
    return [groups[i] for i in order]


def _hit(snap, doc: int, passages: list[int], scores, sim_of, opts: SearchOptions) -> DocumentHit:
    hits = []
    for pid in passages[: opts.passages_per_document]:
        stored = snap.passage(pid)
        hits.append(PassageHit(stored.text, stored.start, stored.end, scores[pid], sim_of.get(pid), pid))
    sims = [sim_of[p] for p in passages if p in sim_of]
    return DocumentHit(snap.urls[doc], snap.titles[doc], scores[passages[0]], hits,
                       max(sims) if sims else None)

"""Sparse retrieval: BM25 over an inverted index, with weighted query terms.

The large base segment is a bm25s index: scores are precomputed per (term, passage) and
stored column-wise, so a query only touches the postings of its own terms (no Python
loop over passages). Small segments added later are scored at query time from term
frequencies with the statistics of the whole index, until compaction folds them into a
new base. Query terms carry weights so that anchor-text expansion terms count less.
"""
from __future__ import annotations

import json
from array import array
import logging
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from verifier_core.retrieval.errors import CorruptIndexError

METHODS = ("lucene", "robertson")  # both share the tf part with bm25s; idf differs


@dataclass(frozen=True)
class Bm25Params:
    k1: float = 1.5
    b: float = 0.75
    # Lucene's idf never goes negative, so tiny corpora (the app starts with a few
    # sources) still rank; "robertson" is rank_bm25.BM25Okapi's formula.
    method: str = "lucene"

    def __post_init__(self):
        if self.method not in METHODS:
            raise ValueError(f"BM25 method must be one of {METHODS}, not {self.method!r}")

    def idf(self, df: np.ndarray | float, n: int) -> np.ndarray | float:
        inner = (n - np.asarray(df, dtype=np.float64) + 0.5) / (np.asarray(df) + 0.5)
        if self.method == "lucene":
            return np.log1p(inner)
        return np.log(np.maximum(inner, 1.0))  # bm25s floors Robertson's idf at 0

    def tf_part(self, tf: np.ndarray, length: np.ndarray, avg_len: float) -> np.ndarray:
        return tf / (self.k1 * (1 - self.b + self.b * length / avg_len) + tf)


class TokenIds:
    """Maps terms to dense ids while streaming; each passage keeps a compact int32 array
    (4 bytes a term instead of a list's 8-byte pointer), which bounds build memory."""

    def __init__(self) -> None:
        self.vocab: dict[str, int] = {}

    def ids(self, tokens: list[str]) -> array:
        vocab = self.vocab
        return array("i", [vocab.setdefault(t, len(vocab)) for t in tokens])


def build_bm25(token_ids: list, vocab: dict[str, int], params: Bm25Params, path: Path) -> float:
    """Builds and saves a bm25s index; returns the average passage length in terms."""
    import bm25s

    # bm25s sets its own logger to DEBUG; its per-build chatter is not ours to print.
    logging.getLogger("bm25s").setLevel(logging.WARNING)
    if not token_ids:
        raise ValueError("cannot build a BM25 index over zero passages")
    vocab = dict(vocab)
    if not vocab:
        vocab[""] = 0  # bm25s needs one column even when every passage is empty of terms
    retriever = bm25s.BM25(k1=params.k1, b=params.b, method=params.method, csc_backend="scipy")
    retriever.index((token_ids, vocab), show_progress=False, create_empty_token=False)
    retriever.save(str(path), show_progress=False)
    return float(np.mean([len(t) for t in token_ids]))


class Bm25Segment:
    """A saved bm25s index, memory-mapped, scored with weighted terms."""

    def __init__(self, path: Path, expected_passages: int):
        import bm25s

        try:
            self.retriever = bm25s.BM25.load(str(path), mmap=True, show_progress=False)
            params = json.loads((Path(path) / "params.index.json").read_text())
        except (OSError, ValueError, KeyError) as exc:
            raise CorruptIndexError(f"BM25 index {path} cannot be read: {exc}") from exc
        self.num_docs = int(params["num_docs"])
        scores = self.retriever.scores
        self.data, self.indices, self.indptr = scores["data"], scores["indices"], scores["indptr"]
        self.vocab: dict[str, int] = self.retriever.vocab_dict
        if self.num_docs != expected_passages or len(self.indptr) != len(self.vocab) + 1:
            raise CorruptIndexError(
                f"BM25 index {path} is damaged: {self.num_docs} passages for {expected_passages} "
                f"expected, {len(self.indptr) - 1} columns for {len(self.vocab)} terms"
            )

    def df(self, token: str) -> int:
        col = self.vocab.get(token)
        return 0 if col is None else int(self.indptr[col + 1] - self.indptr[col])

    def add_scores(self, weights: dict[str, float], out: np.ndarray, scale: dict[str, float]) -> None:
        """Adds each term's precomputed column times its weight (and idf correction)."""
        for token, weight in weights.items():
            col = self.vocab.get(token)
            if col is None:
                continue
            lo, hi = int(self.indptr[col]), int(self.indptr[col + 1])
            # Within one column a passage appears once, so fancy-index += is exact.
            out[self.indices[lo:hi]] += (weight * scale.get(token, 1.0)) * self.data[lo:hi]


class DeltaPostings:
    """Term frequencies of the small added segments, kept in memory."""

    def __init__(self, token_lists: list[list[str]]):
        self.lengths = np.asarray([len(t) for t in token_lists], dtype=np.float32)
        rows: dict[str, list[int]] = {}
        tfs: dict[str, list[int]] = {}
        for row, tokens in enumerate(token_lists):
            for token, tf in Counter(tokens).items():
                rows.setdefault(token, []).append(row)
                tfs.setdefault(token, []).append(tf)
        self.postings = {
            t: (np.asarray(rows[t], dtype=np.int64), np.asarray(tfs[t], dtype=np.float32)) for t in rows
        }

    def __len__(self) -> int:
        return len(self.lengths)

    def df(self, token: str) -> int:
        hit = self.postings.get(token)
        return 0 if hit is None else len(hit[0])


class SparseSearcher:
    """BM25 over a base segment (passages 0..n_base-1) and a delta (the rest)."""

    def __init__(self, params: Bm25Params, base: Bm25Segment | None, base_avg_len: float,
                 delta: DeltaPostings | None):
        self.params = params
        self.base = base
        self.delta = delta
        self.n_base = base.num_docs if base else 0
        self.n_delta = len(delta) if delta else 0
        self.avg_len = base_avg_len if base else float(np.mean(delta.lengths) if delta else 1.0)

    def __len__(self) -> int:
        return self.n_base + self.n_delta

    def scores(self, weights: dict[str, float]) -> np.ndarray:
        out = np.zeros(len(self), dtype=np.float32)
        if self.base is not None:
            self.base.add_scores(weights, out[: self.n_base], self._base_scale(weights))
        if self.delta is not None and self.n_delta:
            self._add_delta_scores(weights, out[self.n_base :])
        return out

    def _global_idf(self, token: str) -> float:
        df = (self.base.df(token) if self.base else 0) + (self.delta.df(token) if self.delta else 0)
        return float(self.params.idf(df, len(self)))

    def _base_scale(self, weights: dict[str, float]) -> dict[str, float]:
        # The base's precomputed scores hold the idf of the base alone; once segments are
        # added, rescale each term to the idf of the whole index so both parts compare.
        if not self.n_delta:
            return {}
        scale = {}
        for token in weights:
            base_idf = float(self.params.idf(self.base.df(token), self.n_base))
            scale[token] = self._global_idf(token) / base_idf if base_idf > 0 else 1.0
        return scale

    def _add_delta_scores(self, weights: dict[str, float], out: np.ndarray) -> None:
        for token, weight in weights.items():
            hit = self.delta.postings.get(token)
            if hit is None:
                continue
            rows, tf = hit
            part = self.params.tf_part(tf, self.delta.lengths[rows], self.avg_len)
            out[rows] += (weight * self._global_idf(token)) * part

    def search(self, weights: dict[str, float], depth: int) -> tuple[np.ndarray, np.ndarray]:
        """Passage ids and scores of the best `depth` passages with a positive score."""
        if not weights or not len(self):
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float32)
        return top_k(self.scores(weights), depth)


def top_k(scores: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Best `k` positive entries, best first; equal scores in id order (deterministic)."""
    positive = np.flatnonzero(scores > 0)
    if len(positive) > k:
        part = np.argpartition(-scores[positive], k - 1)[:k]
        # Keep every entry tied with the k-th score so the tie-break below is by id.
        kth = scores[positive[part]].min()
        positive = positive[scores[positive] >= kth]
    order = np.lexsort((positive, -scores[positive]))[:k]
    ids = positive[order].astype(np.int64)
    return ids, scores[ids].astype(np.float32)


def weights_for(tokens: list[str], weight: float = 1.0) -> dict[str, float]:
    """Query term weights: a term repeated in the query counts again (as in rank_bm25)."""
    return {t: weight * c for t, c in Counter(tokens).items()}




class PassageBm25:
    """BM25 over the handful of passages of one source, built per query in memory.

    A source has tens of passages, so term counts in dictionaries beat any index on
    disk; the formula is the index's own (Bm25Params), so both rank alike."""

    def __init__(self, docs: list[list[str]], params: Bm25Params = Bm25Params(k1=1.2)):
        self.params = params
        self.docs = [Counter(d) for d in docs]
        self.lengths = np.array([len(d) for d in docs], dtype=np.float64)
        self.avg = float(self.lengths.mean()) if docs else 0.0
        df = Counter(t for d in self.docs for t in d)
        self.idf = {t: float(params.idf(f, len(docs))) for t, f in df.items()}

    def unseen_idf(self) -> float:
        """The idf of a term no passage holds: the most a query term can weigh."""
        return float(self.params.idf(0, len(self.docs)))

    def scores(self, query: list[str]) -> list[float]:
        k1, avg = self.params.k1, self.avg or 1.0
        out = []
        for doc, length in zip(self.docs, self.lengths):
            tf = np.array([doc[t] for t in set(query) if t in doc], dtype=np.float64)
            idf = np.array([self.idf[t] for t in set(query) if t in doc], dtype=np.float64)
            out.append(float((idf * self.params.tf_part(tf, length, avg) * (k1 + 1)).sum()) if len(tf) else 0.0)
        return out

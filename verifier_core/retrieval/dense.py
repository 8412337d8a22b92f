"""Dense retrieval: sentence embeddings in a faiss inner-product index.

Embeddings are unit vectors, so inner product is cosine. Below a configurable size the
index is exact (IndexFlatIP, built at load from the stored embeddings); above it an
inverted-file index with half-precision codes answers by probing a few clusters, and
its recall against exact search is measured by the benchmark. (8-bit codes halve the
memory again but lost ~5% of the exact top 10 even when every cluster was probed.)
"""
from __future__ import annotations

import math
import threading
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import numpy as np

from verifier_core.retrieval.errors import CorruptIndexError

APPROX_THRESHOLD = 200_000  # passages; the flat index answers below this in < 50 ms
_TRAIN_PER_LIST = 32  # faiss warns below ~39 points per centroid; 32 is enough for IVF


class Encoder(Protocol):
    """Anything that turns texts into L2-normalised float32 rows of width `dim`."""

    name: str
    dim: int

    def encode(self, texts: list[str]) -> np.ndarray: ...


def __getattr__(name: str):
    # MiniLMEncoder moved to encoders.py with the other encoders; old imports still work.
    if name == "MiniLMEncoder":
        from verifier_core.retrieval.encoders import MiniLMEncoder

        return MiniLMEncoder
    raise AttributeError(name)


@dataclass(frozen=True)
class DenseParams:
    approx_threshold: int = APPROX_THRESHOLD
    nlist: int | None = None  # clusters; None = about 4 * sqrt(n), a power of two
    # Clusters probed per query. On real (WiCE) embeddings, probing ~3% of the lists kept
    # ~98% of the exact top 10 and ~84% of the top 100; 128 of the 4096 lists a
    # million passages get is that share, at ~15 ms a query on 2 cores.
    nprobe: int = 128

    def lists_for(self, n: int) -> int:
        if self.nlist:
            return self.nlist
        return int(min(65536, max(64, 2 ** round(math.log2(4 * math.sqrt(max(n, 1)))))))


def _faiss():
    import faiss

    return faiss


SMALL_BATCH = 4  # queries; below this, extra threads only add scheduling cost
_threads_lock = threading.Lock()
_threads_state = {"users": 0, "saved": None}


@contextmanager
def limited_threads(threads: int | None, batch: int):
    """Runs a small search with `threads` torch and faiss threads, restoring the
    previous counts afterwards (the last of concurrent searches restores them).

    Measured on 2 shared cores at 1M passages: encoding one query took 21 ms with one
    torch thread and 62 ms (p95 540 ms) with two, and two torch threads interleaved with
    faiss's own OpenMP pool made a hybrid query take ~500 ms instead of ~30 ms.
    """
    if threads is None or batch > SMALL_BATCH:
        yield
        return
    import torch

    faiss = _faiss()
    with _threads_lock:
        if _threads_state["users"] == 0:
            _threads_state["saved"] = (torch.get_num_threads(), faiss.omp_get_max_threads())
            torch.set_num_threads(threads)
            faiss.omp_set_num_threads(threads)
        _threads_state["users"] += 1
    try:
        yield
    finally:
        with _threads_lock:
            _threads_state["users"] -= 1
            if _threads_state["users"] == 0:
                torch_threads, faiss_threads = _threads_state["saved"]
                torch.set_num_threads(torch_threads)
                faiss.omp_set_num_threads(faiss_threads)


def build_ivf(embeddings: np.ndarray, params: DenseParams, seed: int = 0):
    """IVF with float16 codes, inner product, coarse clusters trained on a sample."""
    faiss = _faiss()
    n, dim = embeddings.shape
    nlist = min(params.lists_for(n), max(1, n // _TRAIN_PER_LIST))
    quantizer = faiss.IndexFlatIP(dim)
    index = faiss.IndexIVFScalarQuantizer(
        quantizer, dim, nlist, faiss.ScalarQuantizer.QT_fp16, faiss.METRIC_INNER_PRODUCT
    )
    sample_size = min(n, nlist * _TRAIN_PER_LIST * 2)
    rows = np.sort(np.random.default_rng(seed).choice(n, size=sample_size, replace=False))
    index.train(np.asarray(embeddings[rows], dtype=np.float32))
    for lo in range(0, n, 100_000):
        index.add(np.asarray(embeddings[lo : lo + 100_000], dtype=np.float32))
    index.nprobe = min(params.nprobe, nlist)
    return index


def save_index(index, path: Path) -> None:
    _faiss().write_index(index, str(path))


def load_ivf(path: Path, expected: int, nprobe: int):
    faiss = _faiss()
    try:
        # Memory-mapped: the inverted lists stay in the page cache, not in the heap.
        index = faiss.read_index(str(path), faiss.IO_FLAG_MMAP | faiss.IO_FLAG_READ_ONLY)
    except RuntimeError as exc:
        raise CorruptIndexError(f"dense index {path} cannot be read: {exc}") from exc
    if index.ntotal != expected:
        raise CorruptIndexError(f"dense index {path} holds {index.ntotal} vectors, expected {expected}")
    index.nprobe = min(nprobe, index.nlist)
    return index


def flat_index(embeddings: np.ndarray):
    faiss = _faiss()
    index = faiss.IndexFlatIP(embeddings.shape[1])
    for lo in range(0, len(embeddings), 100_000):
        index.add(np.asarray(embeddings[lo : lo + 100_000], dtype=np.float32))
    return index


class DenseSearcher:
    """Searches the base index and the flat index of the added segments, merged by score."""

    def __init__(self, base_index, n_base: int, delta_embeddings: np.ndarray | None):
        self.base = base_index
        self.n_base = n_base
        self.delta = flat_index(delta_embeddings) if delta_embeddings is not None and len(delta_embeddings) else None

    def search(self, queries: np.ndarray, depth: int) -> list[tuple[np.ndarray, np.ndarray]]:
        """Per query: (passage ids, cosines), best first."""
        queries = np.ascontiguousarray(queries, dtype=np.float32)
        parts = []
        if self.base is not None and self.n_base:
            scores, ids = self.base.search(queries, min(depth, self.n_base))
            parts.append((ids.astype(np.int64), scores))
        if self.delta is not None:
            scores, ids = self.delta.search(queries, min(depth, self.delta.ntotal))
            parts.append((np.where(ids >= 0, ids + self.n_base, -1), scores))
        return [_merge([(ids[i], scores[i]) for ids, scores in parts], depth) for i in range(len(queries))]


def _merge(parts: list[tuple[np.ndarray, np.ndarray]], depth: int) -> tuple[np.ndarray, np.ndarray]:
    if not parts:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float32)
    ids = np.concatenate([p[0] for p in parts])
    scores = np.concatenate([p[1] for p in parts]).astype(np.float32)
    keep = ids >= 0  # faiss pads with -1 when a probe finds fewer than k vectors
    ids, scores = ids[keep], scores[keep]
    order = np.lexsort((ids, -scores))[:depth]
    return ids[order], scores[order]


def recall_at_k(approx_ids: np.ndarray, exact_ids: np.ndarray, k: int) -> float:
    """Mean share of the exact top-k that the approximate top-k also returns."""
    hits = [len(set(a[:k]) & set(e[:k])) / max(1, min(k, len(e))) for a, e in zip(approx_ids, exact_ids)]
    return float(np.mean(hits)) if hits else 0.0

"""One published index version, loaded and ready to search.

A snapshot never changes after loading; the engine swaps in a new snapshot when the
index grows. Segments are immutable, so their loaded parts are cached by name and shared
between consecutive snapshots (adding ten passages does not reload a million).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from verifier_core.retrieval import dense as dense_mod
from verifier_core.retrieval.anchors import AnchorDictionary
from verifier_core.retrieval.corpus import PassageRecord, sparse_text
from verifier_core.retrieval.errors import CorruptIndexError
from verifier_core.retrieval.lifecycle import IndexConfig, IndexRoot
from verifier_core.retrieval.sparse import Bm25Segment, DeltaPostings, SparseSearcher
from verifier_core.retrieval.store import SegmentStore, StoredPassage
from verifier_core.retrieval.tokenize import tokenize


@dataclass
class _Loaded:
    store: SegmentStore
    bm25: Bm25Segment | None = None
    dense: object | None = None  # faiss index of a base segment
    tokens: list[list[str]] | None = None  # terms of a delta segment's passages


class Snapshot:
    def __init__(self, root: IndexRoot, manifest: dict, cache: dict[str, _Loaded]):
        self.root = root
        self.manifest = manifest
        self.version: str = manifest["version"]
        self.config = IndexConfig.from_json(manifest["config"])
        self.dim = int(manifest["encoder"]["dim"])
        entries = manifest["segments"]
        if any(e["kind"] == "base" for e in entries[1:]):
            raise CorruptIndexError(f"version {self.version}: a base segment must come first")
        self.entries = entries
        self.loaded = [cache.get(e["name"]) or self._load_segment(e) for e in entries]
        self.stores = [x.store for x in self.loaded]
        self._index_documents()
        self.sparse = self._sparse()
        self.dense = self._dense()
        self.anchors = self._anchors()

    # --- loading ----------------------------------------------------------------
    def _load_segment(self, entry: dict) -> _Loaded:
        path = self.root.segments_dir / entry["name"]
        if not path.is_dir():
            raise CorruptIndexError(f"version {self.version} lists segment {entry['name']}, which is missing")
        store = SegmentStore(path, entry["passages"], entry["documents"], self.dim)
        loaded = _Loaded(store)
        if entry["kind"] == "base" and entry["passages"]:
            loaded.bm25 = Bm25Segment(path / "bm25", entry["passages"])
            if entry["dense"] == "ivf":
                loaded.dense = dense_mod.load_ivf(path / "dense.faiss", entry["passages"], self.config.dense.nprobe)
            else:
                loaded.dense = dense_mod.flat_index(store.embeddings)
        else:
            loaded.tokens = [
                tokenize(sparse_text(PassageRecord(p.doc, p.start, p.end, p.text, store.titles[p.doc])))
                for p in map(store.passage, range(len(store)))
            ]
        return loaded

    def _index_documents(self) -> None:
        self.passage_start = np.cumsum([0] + [len(s) for s in self.stores]).astype(np.int64)
        self.doc_start = np.cumsum([0] + [len(s.urls) for s in self.stores]).astype(np.int64)
        parts = [s.passage_docs().astype(np.int64) + self.doc_start[k] for k, s in enumerate(self.stores)]
        self.doc_of = np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)
        self.urls = [u for s in self.stores for u in s.urls]
        self.titles = [t for s in self.stores for t in s.titles]
        self.url_index = {u: i for i, u in enumerate(self.urls)}

    def _sparse(self) -> SparseSearcher:
        base = self.loaded[0] if self.loaded and self.loaded[0].bm25 is not None else None
        tokens = [t for x in self.loaded if x.tokens is not None for t in x.tokens]
        avg_len = self.entries[0]["avg_len"] if base else 0.0
        return SparseSearcher(self.config.bm25, base.bm25 if base else None, avg_len,
                              DeltaPostings(tokens) if tokens else None)

    def _dense(self) -> dense_mod.DenseSearcher:
        base = self.loaded[0] if self.loaded and self.loaded[0].dense is not None else None
        delta = [x.store.embeddings for x in self.loaded if x is not base]
        delta_rows = np.concatenate([np.asarray(e, dtype=np.float32) for e in delta]) if delta else None
        n_base = len(base.store) if base else 0
        return dense_mod.DenseSearcher(base.dense if base else None, n_base, delta_rows)

    def _anchors(self) -> AnchorDictionary | None:
        name = self.manifest.get("anchors")
        if not name:
            return None
        path = self.root.versions_dir / self.version / name
        try:
            return AnchorDictionary.load(path)
        except ValueError as exc:
            raise CorruptIndexError(str(exc)) from exc

    def cache(self) -> dict[str, _Loaded]:
        return {e["name"]: x for e, x in zip(self.entries, self.loaded)}

    # --- access -----------------------------------------------------------------
    def __len__(self) -> int:
        return int(self.passage_start[-1])

    def _locate(self, gid: int) -> tuple[int, int]:
        k = int(np.searchsorted(self.passage_start, gid, side="right")) - 1
        return k, gid - int(self.passage_start[k])

    def passage(self, gid: int) -> StoredPassage:
        k, local = self._locate(gid)
        return self.stores[k].passage(local)

    def embeddings(self, gids: np.ndarray) -> np.ndarray:
        out = np.zeros((len(gids), self.dim), dtype=np.float32)
        for row, gid in enumerate(gids):
            k, local = self._locate(int(gid))
            out[row] = self.stores[k].embeddings[local]
        return out

    @property
    def delta_passages(self) -> int:
        return sum(e["passages"] for e in self.entries if e["kind"] == "delta")

    @property
    def base_passages(self) -> int:
        return sum(e["passages"] for e in self.entries if e["kind"] == "base")

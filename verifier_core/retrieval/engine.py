"""The retrieval engine: hybrid search over a published index, and its growth.

One engine per worker process. Searches read an immutable snapshot, so they need no
lock; writers (add, compact) serialise on a thread lock and on the index's file lock,
publish a new version, then swap the snapshot in one assignment. An engine notices a
version published by another process at its next search.
"""
from __future__ import annotations

import hashlib
import threading
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from verifier_core.retrieval import builder
from verifier_core.retrieval.anchors import AnchorDictionary
from verifier_core.retrieval.corpus import Document, merge_documents
from verifier_core.retrieval.dense import Encoder
from verifier_core.retrieval.encoders import MiniLMEncoder, encoder_named
from verifier_core.retrieval.fusion import DocumentHit
from verifier_core.retrieval.lifecycle import IndexConfig, IndexRoot, check_encoder, make_manifest
from verifier_core.retrieval.errors import EncoderMismatchError
from verifier_core.retrieval.query import Query
from verifier_core.retrieval.replica import PassageFeed, SyncReport, feed_batch
from verifier_core.retrieval.searching import SearchOptions, run_search
from verifier_core.retrieval.snapshot import Snapshot


@dataclass
class AddReport:
    added_documents: int = 0
    added_passages: int = 0
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (url or line, reason)
    compacted: bool = False
    version: str | None = None


class RetrievalEngine:
    def __init__(self, root: IndexRoot, encoder: Encoder, *, auto_refresh: bool = True,
                 query_threads: int | None = 1):
        self.root = root
        self.encoder = encoder
        self.auto_refresh = auto_refresh
        # Threads for searches of a few queries (see dense.limited_threads); None leaves
        # the process's torch and faiss settings alone.
        self.query_threads = query_threads
        self._write_lock = threading.Lock()
        self._snap = self._load(None)

    # --- opening ----------------------------------------------------------------
    @classmethod
    def load(cls, index_dir: str | Path, *, encoder: Encoder | None = None, auto_refresh: bool = True,
             query_threads: int | None = 1) -> "RetrievalEngine":
        """Opens a built index; IndexNotFoundError, CorruptIndexError or
        EncoderMismatchError say why it cannot be used. Without `encoder`, queries are
        encoded by the encoder that wrote the index's vectors."""
        root = IndexRoot.locate(index_dir)
        if encoder is None:
            try:
                encoder = encoder_named(root.read_manifest()["encoder"]["name"])
            except ValueError:
                encoder = MiniLMEncoder()  # check_encoder then says what does not match
        return cls(root, encoder, auto_refresh=auto_refresh, query_threads=query_threads)

    @classmethod
    def create(cls, index_dir: str | Path, *, encoder: Encoder | None = None,
               config: IndexConfig | None = None, anchors: AnchorDictionary | None = None) -> "RetrievalEngine":
        """An empty index the app can grow with `add_documents`; opens it if it exists."""
        root = IndexRoot(index_dir)
        encoder = encoder or MiniLMEncoder()
        with root.lock():
            if root.current_version() is None:
                if root.path.exists():
                    builder.refuse_foreign_folder(root.path)
                root.ensure()
                manifest = make_manifest(encoder_name=encoder.name, dim=encoder.dim,
                                         config=config or IndexConfig(), segments=[],
                                         corpus_checksum=hashlib.sha256().hexdigest(),
                                         build_seconds=0.0, parent=None, anchors=anchors is not None)
                root.publish(manifest, _staged_anchors(root, anchors))
        return cls(root, encoder)

    def _load(self, previous: Snapshot | None) -> Snapshot:
        manifest = self.root.read_manifest()
        check_encoder(manifest, self.encoder.name, self.encoder.dim)
        return Snapshot(self.root, manifest, previous.cache() if previous else {})

    def refresh(self) -> bool:
        """Loads the current version if another writer published one; True if it did."""
        if self.root.current_version() == self._snap.version:
            return False
        with self._write_lock:
            self._latest()
        return True

    def _latest(self) -> Snapshot:
        """The snapshot of the current version (call under the write lock)."""
        if self.root.current_version() != self._snap.version:
            self._snap = self._load(self._snap)
        return self._snap

    # --- facts ------------------------------------------------------------------
    @property
    def manifest(self) -> dict:
        return self._snap.manifest

    @property
    def synced_through(self) -> int:
        """The last passage id of the shared store this replica holds (0: none)."""
        return self._snap.manifest.get("synced_through") or 0

    @property
    def has_anchors(self) -> bool:
        return self._snap.anchors is not None

    def __len__(self) -> int:
        return len(self._snap)

    # --- searching --------------------------------------------------------------
    def search(self, claim_text: str, *, title: str = "", section: str = "", k: int = 10,
               exclude_urls: Iterable[str] = (), mode: str = "hybrid", expand: bool | None = None,
               mmr_lambda: float | None = None, min_similarity: float | None = None,
               depth: int | None = None) -> list[DocumentHit]:
        """Documents best first for one claim; an empty list means "no good candidate".

        mode: "hybrid" (RRF of sparse and dense), "sparse" or "dense". expand: anchor
        expansion, None = on when the index has a dictionary. mmr_lambda: diversify
        documents (None = off). min_similarity: abstain floor on the best passage cosine.
        depth: passages taken from each retriever (default max(100, 3k)).
        Raises EmptyQueryError when claim, title and section hold no word at all.
        """
        query = Query(claim_text or "", title or "", section or "")
        return self.search_many([query], k=k, exclude_urls=exclude_urls, mode=mode, expand=expand,
                                mmr_lambda=mmr_lambda, min_similarity=min_similarity, depth=depth)[0]

    def search_many(self, queries: Sequence[Query], *, k: int = 10, exclude_urls: Iterable[str] = (),
                    mode: str = "hybrid", expand: bool | None = None, mmr_lambda: float | None = None,
                    min_similarity: float | None = None, depth: int | None = None) -> list[list[DocumentHit]]:
        """`search` for a batch (queries are encoded together)."""
        if self.auto_refresh:
            self.refresh()
        opts = SearchOptions(k=k, exclude_urls=frozenset(exclude_urls), mode=mode, expand=expand,
                             mmr_lambda=mmr_lambda, min_similarity=min_similarity, depth=depth,
                             query_threads=self.query_threads)
        return run_search(self._snap, self.encoder, list(queries), opts)

    # --- growing ----------------------------------------------------------------
    def add_documents(self, docs: Iterable[Document | dict]) -> AddReport:
        """Indexes documents whose URL is new; known URLs and empty texts are reported."""
        docs = list(docs)
        with self._write_lock, self.root.lock():
            snap = self._latest()  # another process may have written
            merged, corpus_report = merge_documents(docs)
            report = AddReport(skipped=[(f"document {n}", why) for n, why in corpus_report.skipped])
            new = [d for d in merged if d.url not in snap.url_index]
            report.skipped += [(d.url, "already indexed") for d in merged if d.url in snap.url_index]
            if not new:
                report.version = snap.version
                return report
            started = time.perf_counter()
            entry = builder.documents_segment(self.root, new, builder.encoder_embed(self.encoder),
                                              dim=snap.dim, config=snap.config, base=snap.base_passages == 0)
            report.compacted = self._append(snap, entry, started)
            report.added_documents, report.added_passages = len(new), entry["passages"]
            report.version = self._snap.version
            return report

    def _append(self, snap: Snapshot, entry: dict | None, started: float,
                synced_through: int | None = None) -> bool:
        """Publishes `snap` plus a new segment (compacting when due); True if it compacted."""
        if entry is None:
            self._publish(snap, snap.entries, started, snap.manifest["corpus_checksum"], synced_through)
            return False
        checksum = _chain(snap.manifest["corpus_checksum"], entry["checksum"])
        entries, compacted = self._maybe_compact(snap, snap.entries + [entry], checksum)
        self._publish(snap, entries, started, checksum, synced_through)
        return compacted

    def sync_from(self, feed: PassageFeed, *, batch: int = 5000, progress=None) -> SyncReport:
        """Brings this replica up to date with `feed`: every passage after the last one it
        holds, `batch` at a time, each batch published as its own version (so a sync
        killed half-way keeps what it published). Vectors come from the feed, never
        re-encoded, so they must be the replica's encoder's. `progress` (a Progress)
        counts passages read."""
        if feed.encoder_name != self.encoder.name:
            raise EncoderMismatchError(f"the passage store holds vectors of {feed.encoder_name!r}, this "
                                       f"replica {self.encoder.name!r}: rebuild the replica")
        report = SyncReport()
        with self._write_lock, self.root.lock():
            snap = self._latest()
            report.synced_through = snap.manifest.get("synced_through") or 0
            while rows := feed.passages_after(report.synced_through, batch):
                started = time.perf_counter()
                part = feed_batch(rows, snap.url_index, snap.dim)
                entry = builder.write_segment(
                    self.root, part.docs, part.records(), part.embed, dim=snap.dim, config=snap.config,
                    base=snap.base_passages == 0, checksum=part.checksum()) if part.docs else None
                report.synced_through = rows[-1].id
                self._append(snap, entry, started, report.synced_through)
                snap = self._snap
                report.added_documents += len(part.docs)
                report.added_passages += len(part.passages)
                report.skipped_documents += part.skipped
                report.versions.append(snap.version)
                if progress is not None:
                    progress.advance(len(rows))
        return report

    def compact(self) -> None:
        """Folds every segment into one new base (no re-encoding)."""
        with self._write_lock, self.root.lock():
            snap = self._latest()
            if len(snap.entries) <= 1:
                return
            started = time.perf_counter()
            checksum = snap.manifest["corpus_checksum"]
            entry = builder.compacted_segment(self.root, snap.stores, dim=snap.dim, config=snap.config,
                                              checksum=checksum, base=True)
            self._publish(snap, [entry], started, checksum, snap.manifest.get("synced_through"))

    def _maybe_compact(self, snap: Snapshot, entries: list[dict], checksum: str) -> tuple[list[dict], bool]:
        deltas = [e for e in entries if e["kind"] == "delta"]
        base_n = sum(e["passages"] for e in entries if e["kind"] == "base")
        delta_n = sum(e["passages"] for e in deltas)
        if not deltas:
            return entries, False
        stores = _stores(self.root, snap, entries)
        if delta_n > snap.config.compact_ratio * base_n:
            entry = builder.compacted_segment(self.root, stores, dim=snap.dim, config=snap.config,
                                              checksum=checksum, base=True)
            return [entry], True
        if len(deltas) > snap.config.max_delta_segments:
            # Many small segments slow loading; merge the deltas (cheap) and keep the base.
            delta_stores = stores[len(entries) - len(deltas):]
            merged = builder.compacted_segment(self.root, delta_stores, dim=snap.dim, config=snap.config,
                                               checksum=checksum, base=False)
            return entries[: len(entries) - len(deltas)] + [merged], True
        return entries, False

    def _publish(self, snap: Snapshot, entries: list[dict], started: float, checksum: str,
                 synced_through: int | None = None) -> None:
        manifest = make_manifest(encoder_name=self.encoder.name, dim=snap.dim, config=snap.config,
                                 segments=entries, corpus_checksum=checksum,
                                 build_seconds=time.perf_counter() - started, parent=snap.version,
                                 anchors=snap.anchors is not None,
                                 synced_through=synced_through or snap.manifest.get("synced_through"))
        anchors = self.root.versions_dir / snap.version / "anchors.json" if snap.anchors is not None else None
        self.root.publish(manifest, anchors)
        self._snap = Snapshot(self.root, manifest, snap.cache())

    def set_anchors(self, anchors: AnchorDictionary | None) -> None:
        """Publishes the same passages with a new (or no) anchor dictionary."""
        with self._write_lock, self.root.lock():
            snap = self._latest()
            manifest = make_manifest(encoder_name=self.encoder.name, dim=snap.dim, config=snap.config,
                                     segments=snap.entries, corpus_checksum=snap.manifest["corpus_checksum"],
                                     build_seconds=0.0, parent=snap.version, anchors=anchors is not None,
                                     synced_through=snap.manifest.get("synced_through"))
            self.root.publish(manifest, _staged_anchors(self.root, anchors))
            self._snap = Snapshot(self.root, manifest, snap.cache())


def _stores(root: IndexRoot, snap: Snapshot, entries: list[dict]):
    from verifier_core.retrieval.store import SegmentStore

    cache = snap.cache()
    return [cache[e["name"]].store if e["name"] in cache else
            SegmentStore(root.segments_dir / e["name"], e["passages"], e["documents"], snap.dim)
            for e in entries]


def _chain(*parts: str) -> str:
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


def _staged_anchors(root: IndexRoot, anchors: AnchorDictionary | None) -> Path | None:
    if anchors is None:
        return None
    root.ensure()
    path = root.staging(f"anchors-{time.time_ns()}.json")
    anchors.save(path)
    return path


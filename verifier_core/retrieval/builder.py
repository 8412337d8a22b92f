"""Writing index segments: a full build, an added segment, and compaction.

Every write goes to a staging folder, is renamed into `segments/`, and becomes visible
only when a new version manifest that lists it is published (see lifecycle.py).
"""
from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from verifier_core.retrieval import dense as dense_mod
from verifier_core.progress import Progress
from verifier_core.retrieval.corpus import (
    CorpusReport, Document, PassageRecord, dense_text, documents_checksum, iter_passages, sparse_text,
)
from verifier_core.retrieval.lifecycle import IndexConfig, IndexRoot, fsync_tree, new_name
from verifier_core.retrieval.sparse import TokenIds, build_bm25
from verifier_core.retrieval.store import SegmentStore, SegmentWriter
from verifier_core.retrieval.tokenize import tokenize

CHUNK = 2048  # passages encoded and written per step: bounds memory, keeps batches full

# (passages of a chunk, index of its first passage) -> their embeddings
EmbedFn = Callable[[list[PassageRecord], int], np.ndarray]
Log = Callable[[str], None]


def _quiet(_message: str) -> None:
    pass


@dataclass
class BuildReport:
    corpus: CorpusReport
    version: str
    documents: int
    passages: int
    seconds: float
    dense_kind: str


def encoder_embed(encoder: dense_mod.Encoder) -> EmbedFn:
    return lambda chunk, _start: encoder.encode([dense_text(p) for p in chunk])


def _chunks(items: Iterable[PassageRecord], size: int) -> Iterator[list[PassageRecord]]:
    chunk: list[PassageRecord] = []
    for item in items:
        chunk.append(item)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def write_segment(root: IndexRoot, docs: list[tuple[str, str]], passages: Iterable[PassageRecord],
                  embed: EmbedFn, *, dim: int, config: IndexConfig, base: bool,
                  checksum: str, log: Log = _quiet, progress: Progress | None = None) -> dict:
    """Writes one segment and returns its manifest entry. A base segment also gets the
    BM25 index and, above the size threshold, the approximate dense index. `progress`
    counts documents tokenised and encoded (its total: len(docs))."""
    name = new_name("base" if base else "delta")
    staged = root.staging(name)
    writer = SegmentWriter(staged, dim)
    for url, title in docs:
        writer.add_document(url, title)
    ids, token_ids = TokenIds(), []
    for chunk in _chunks(passages, CHUNK):
        start = writer.passages
        for p in chunk:
            writer.add_passage(p.doc, p.start, p.end, p.text)
            if base:
                token_ids.append(ids.ids(tokenize(sparse_text(p))))
        writer.add_embeddings(embed(chunk, start))
        if progress is not None:  # the chunk's last document may go on in the next chunk
            progress.advance(max(0, chunk[-1].doc - progress.done))
    if progress is not None:
        progress.advance(max(0, len(docs) - progress.done))
    writer.finish()
    log(f"{writer.passages} passages tokenised and encoded")
    entry = {"name": name, "kind": "base" if base else "delta", "documents": writer.documents,
             "passages": writer.passages, "checksum": checksum, "dense": "flat", "avg_len": None}
    if base and writer.passages:
        entry["avg_len"] = build_bm25(token_ids, ids.vocab, config.bm25, staged / "bm25")
        del token_ids
        log("BM25 index written")
        if writer.passages >= config.dense.approx_threshold:
            _write_ivf(staged, writer.passages, config, log)
            entry["dense"] = "ivf"
    (staged / "segment.json").write_text(json.dumps(entry), encoding="utf-8")
    fsync_tree(staged)
    os.rename(staged, root.segments_dir / name)
    return entry


def _write_ivf(staged: Path, n: int, config: IndexConfig, log: Log) -> None:
    started = time.perf_counter()
    embeddings = np.load(staged / "embeddings.npy", mmap_mode="r")
    index = dense_mod.build_ivf(embeddings, config.dense)
    dense_mod.save_index(index, staged / "dense.faiss")
    log(f"IVF index over {n} passages ({index.nlist} lists) in {time.perf_counter() - started:.0f} s")


def documents_segment(root: IndexRoot, docs: list[Document], embed: EmbedFn, *, dim: int,
                      config: IndexConfig, base: bool, log: Log = _quiet,
                      progress: Progress | None = None) -> dict:
    passages = iter_passages(docs, config.passage_words, config.stride)
    return write_segment(root, [(d.url, d.title) for d in docs], passages, embed, dim=dim,
                         config=config, base=base, checksum=documents_checksum(docs), log=log,
                         progress=progress)


def compacted_segment(root: IndexRoot, segments: list[SegmentStore], *, dim: int,
                      config: IndexConfig, checksum: str, base: bool) -> dict:
    """One new segment holding every passage of `segments`; embeddings are copied, not
    recomputed, so compaction costs tokenising and indexing, never encoding."""
    docs = [(u, t) for s in segments for u, t in zip(s.urls, s.titles)]
    return write_segment(root, docs, _stored_passages(segments), _stored_embed(segments, dim),
                         dim=dim, config=config, base=base, checksum=checksum)


def _stored_passages(segments: list[SegmentStore]) -> Iterator[PassageRecord]:
    doc_offset = 0
    for seg in segments:
        for i in range(len(seg)):
            p = seg.passage(i)
            yield PassageRecord(doc_offset + p.doc, p.start, p.end, p.text, seg.titles[p.doc])
        doc_offset += len(seg.urls)


def _stored_embed(segments: list[SegmentStore], dim: int) -> EmbedFn:
    bounds = np.cumsum([0] + [len(s) for s in segments])

    def embed(chunk: list[PassageRecord], start: int) -> np.ndarray:
        rows = []
        for k, seg in enumerate(segments):
            lo, hi = max(start, bounds[k]), min(start + len(chunk), bounds[k + 1])
            if lo < hi:
                rows.append(np.asarray(seg.embeddings[lo - bounds[k] : hi - bounds[k]], dtype=np.float32))
        return np.concatenate(rows) if rows else np.zeros((0, dim), dtype=np.float32)

    return embed


def build_index(out: str | Path, docs: list[Document], corpus_report: CorpusReport, *,
                encoder: dense_mod.Encoder, config: IndexConfig | None = None,
                anchors_path: str | Path | None = None, corpus_checksum: str | None = None,
                embed: EmbedFn | None = None, log: Log = _quiet,
                progress: Progress | None = None) -> BuildReport:
    """A full build into a new version of the index at `out`, then an atomic swap.
    `progress` (verifier_core.progress.Progress) counts documents encoded."""
    from verifier_core.retrieval.anchors import AnchorDictionary
    from verifier_core.retrieval.lifecycle import make_manifest

    if not docs:
        raise ValueError("the corpus holds no usable documents: " + corpus_report.summary())
    if anchors_path is not None:
        AnchorDictionary.load(anchors_path)  # fail before the long build, not after
    config = config or IndexConfig()
    root = IndexRoot(out)
    started = time.perf_counter()
    with root.lock():
        if root.current_version() is None and root.path.exists():
            refuse_foreign_folder(root.path)
        root.ensure()
        entry = documents_segment(root, docs, embed or encoder_embed(encoder), dim=encoder.dim,
                                  config=config, base=True, log=log, progress=progress)
        manifest = make_manifest(
            encoder_name=encoder.name, dim=encoder.dim, config=config, segments=[entry],
            corpus_checksum=corpus_checksum or entry["checksum"],
            build_seconds=time.perf_counter() - started, parent=root.current_version(),
            anchors=anchors_path is not None,
        )
        version = root.publish(manifest, Path(anchors_path) if anchors_path else None)
    return BuildReport(corpus_report, version, entry["documents"], entry["passages"],
                       time.perf_counter() - started, entry["dense"])


def refuse_foreign_folder(path: Path) -> None:
    if any(p.name not in (".lock", "segments", "versions", "tmp") for p in path.iterdir()):
        raise FileExistsError(f"{path} exists and is not a retrieval index; refusing to write into it")

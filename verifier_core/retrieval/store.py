"""On-disk passage storage of one index segment, written once and memory-mapped on load.

A segment directory holds:
  documents.jsonl        one {"url", "title"} per document, in order
  passages.bin           UTF-8 passage texts, back to back
  passages.offsets.npy   int64 byte offsets into passages.bin (n + 1 of them)
  passages.meta.npy      int32 (n, 3): document number in the segment, start, end
                         (character offsets into the document text)
  embeddings.npy         float16 (n, dim) normalised passage embeddings
Segments are immutable: new documents go into new segments.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from verifier_core.retrieval.errors import CorruptIndexError

EMBEDDING_DTYPE = np.float16  # half the disk and page cache of float32; cosine error ~1e-3


@dataclass(frozen=True)
class StoredPassage:
    doc: int  # document number within the segment
    start: int
    end: int
    text: str


class SegmentWriter:
    """Streams documents, passages and embeddings of a new segment to disk."""

    def __init__(self, path: Path, dim: int):
        self.path = Path(path)
        self.path.mkdir(parents=True, exist_ok=False)
        self.dim = dim
        self._docs = open(self.path / "documents.jsonl", "w", encoding="utf-8")
        self._texts = open(self.path / "passages.bin", "wb")
        self._emb_raw = open(self.path / "embeddings.raw", "wb")
        self._offsets = [0]
        self._meta: list[tuple[int, int, int]] = []
        self.documents = 0
        self.embedded = 0

    def add_document(self, url: str, title: str) -> None:
        self._docs.write(json.dumps({"url": url, "title": title}, ensure_ascii=False) + "\n")
        self.documents += 1

    def add_passage(self, doc: int, start: int, end: int, text: str) -> None:
        data = text.encode("utf-8", "surrogatepass")
        self._texts.write(data)
        self._offsets.append(self._offsets[-1] + len(data))
        self._meta.append((doc, start, end))

    def add_embeddings(self, vectors: np.ndarray) -> None:
        if vectors.ndim != 2 or vectors.shape[1] != self.dim:
            raise ValueError(f"embeddings must have shape (n, {self.dim}), got {vectors.shape}")
        self._emb_raw.write(np.ascontiguousarray(vectors, dtype=EMBEDDING_DTYPE).tobytes())
        self.embedded += len(vectors)

    @property
    def passages(self) -> int:
        return len(self._meta)

    def finish(self) -> None:
        for handle in (self._docs, self._texts, self._emb_raw):
            handle.close()
        n = self.passages
        if self.embedded != n:
            raise ValueError(f"{self.embedded} embeddings for {n} passages")
        np.save(self.path / "passages.offsets.npy", np.asarray(self._offsets, dtype=np.int64))
        meta = np.asarray(self._meta, dtype=np.int32).reshape(n, 3)
        np.save(self.path / "passages.meta.npy", meta)
        self._raw_to_npy(n)

    def _raw_to_npy(self, n: int) -> None:
        # Embeddings were streamed to a headerless file to keep memory flat while
        # encoding; copy them under a .npy header so they can be memory-mapped by shape.
        raw_path = self.path / "embeddings.raw"
        raw = np.memmap(raw_path, dtype=EMBEDDING_DTYPE, mode="r", shape=(n, self.dim)) if n else None
        out = np.lib.format.open_memmap(
            self.path / "embeddings.npy", mode="w+", dtype=EMBEDDING_DTYPE, shape=(n, self.dim)
        )
        for i in range(0, n, 65536):
            out[i : i + 65536] = raw[i : i + 65536]
        out.flush()
        del out, raw
        os.remove(raw_path)


class SegmentStore:
    """Read side of a segment: documents in memory, passages and embeddings mapped."""

    def __init__(self, path: Path, expected_passages: int, expected_documents: int, dim: int):
        self.path = Path(path)
        try:
            self.urls, self.titles = _read_documents(self.path / "documents.jsonl")
            self.offsets = np.load(self.path / "passages.offsets.npy", mmap_mode="r")
            self.meta = np.load(self.path / "passages.meta.npy", mmap_mode="r")
            self.embeddings = np.load(self.path / "embeddings.npy", mmap_mode="r")
            self._texts = np.memmap(self.path / "passages.bin", dtype=np.uint8, mode="r") if (
                self.path / "passages.bin"
            ).stat().st_size else np.zeros(0, dtype=np.uint8)
        except (OSError, ValueError, json.JSONDecodeError) as exc:
            raise CorruptIndexError(f"segment {self.path.name} cannot be read: {exc}") from exc
        self._check(expected_passages, expected_documents, dim)

    def _check(self, passages: int, documents: int, dim: int) -> None:
        problems = []
        if len(self.urls) != documents:
            problems.append(f"{len(self.urls)} documents, manifest says {documents}")
        if self.offsets.shape != (passages + 1,):
            problems.append(f"offsets shape {self.offsets.shape}, expected ({passages + 1},)")
        elif int(self.offsets[-1]) != len(self._texts):
            problems.append("passage text file size does not match its offsets")
        if self.meta.shape != (passages, 3):
            problems.append(f"meta shape {self.meta.shape}, expected ({passages}, 3)")
        if self.embeddings.shape != (passages, dim):
            problems.append(f"embeddings shape {self.embeddings.shape}, expected ({passages}, {dim})")
        if problems:
            raise CorruptIndexError(f"segment {self.path.name} is damaged: " + "; ".join(problems))

    def __len__(self) -> int:
        return len(self.meta)

    def passage(self, i: int) -> StoredPassage:
        lo, hi = int(self.offsets[i]), int(self.offsets[i + 1])
        text = bytes(self._texts[lo:hi]).decode("utf-8", "surrogatepass")
        doc, start, end = (int(x) for x in self.meta[i])
        return StoredPassage(doc, start, end, text)

    def passage_docs(self) -> np.ndarray:
        return np.asarray(self.meta[:, 0])


def _read_documents(path: Path) -> tuple[list[str], list[str]]:
    urls, titles = [], []
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            record = json.loads(line)
            urls.append(record["url"])
            titles.append(record["title"])
    return urls, titles

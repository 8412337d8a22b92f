"""Corpus documents, their passages, and reading a corpus file with a report of bad lines.

A document is `{url, title, text}`. Documents are split into word windows (SIDE used
100-word passages); every passage keeps its character offsets into the document text so
that evidence shown later can be cut verbatim from the source.
"""
from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from verifier_core.text import word_passages

DEFAULT_PASSAGE_WORDS = 100
DEFAULT_STRIDE = 50
# Larger documents are cut: a 5M-character "page" is a data dump, not a source, and
# would otherwise fill the index with thousands of passages from one URL.
MAX_DOCUMENT_CHARS = 2_000_000


@dataclass(frozen=True)
class Document:
    url: str
    title: str
    text: str


@dataclass(frozen=True)
class PassageRecord:
    """A passage ready to index: `start`/`end` index into its document's text."""

    doc: int  # position of the document in its batch
    start: int
    end: int
    text: str
    title: str


@dataclass
class CorpusReport:
    """What reading a corpus did: counts plus every skipped line with its reason."""

    lines: int = 0
    objects: int = 0  # lines that decoded to a JSON object (0 of many: not JSONL at all)
    documents: int = 0
    duplicates_merged: int = 0
    truncated: int = 0
    skipped: list[tuple[int, str]] = field(default_factory=list)  # (line number, reason)

    def summary(self) -> str:
        parts = [
            f"{self.lines} lines",
            f"{self.documents} documents",
            f"{self.duplicates_merged} duplicate URLs merged",
            f"{len(self.skipped)} lines skipped",
        ]
        if self.truncated:
            parts.append(f"{self.truncated} documents truncated to {MAX_DOCUMENT_CHARS} chars")
        return ", ".join(parts)


def document_problem(record: object) -> str | None:
    """Why a decoded corpus record cannot be indexed, or None when it can."""
    if not isinstance(record, dict):
        return "not a JSON object"
    url = record.get("url")
    if not isinstance(url, str) or not url.strip():
        return "missing url"
    text = record.get("text")
    if not isinstance(text, str):
        return "missing text"
    if not text.strip():
        return "empty text"
    title = record.get("title")
    if title is not None and not isinstance(title, str):
        return "title is not a string"
    return None


class _Merger:
    """Collects documents in first-seen order, merging records that share a URL."""

    def __init__(self, report: CorpusReport):
        self.report = report
        self.by_url: dict[str, Document] = {}

    def add(self, url: str, title: str, text: str) -> None:
        if len(text) > MAX_DOCUMENT_CHARS:
            text = text[:MAX_DOCUMENT_CHARS]
            self.report.truncated += 1
        old = self.by_url.get(url)
        if old is None:
            self.by_url[url] = Document(url, title, text)
            return
        self.report.duplicates_merged += 1
        # The same URL seen twice is usually the same page fetched twice; only text the
        # first copy lacks is appended, so a plain repeat adds nothing.
        merged = old.text if text in old.text else f"{old.text}\n\n{text}"
        self.by_url[url] = Document(url, old.title or title, merged)


def read_corpus(path: str | Path) -> tuple[list[Document], CorpusReport]:
    """Documents of a JSONL corpus file; bad lines are skipped and reported by number."""
    with open(path, encoding="utf-8", errors="replace") as handle:
        return _merge(_decoded_lines(handle))


def merge_documents(docs: Iterable[Document | dict]) -> tuple[list[Document], CorpusReport]:
    """In-memory counterpart of `read_corpus` (used when the app adds documents); takes
    Document objects or {url, title, text} dicts."""
    return _merge(doc if isinstance(doc, dict) else {"url": doc.url, "title": doc.title, "text": doc.text}
                  for doc in docs)


def _decoded_lines(handle) -> Iterator[object]:
    """Each line decoded from JSON, or a `_BadLine` saying why it could not be."""
    for line in handle:
        if not line.strip():
            yield _BadLine("blank line")
            continue
        try:
            yield json.loads(line)
        except json.JSONDecodeError as exc:
            yield _BadLine(f"invalid JSON: {exc.msg}")


class _BadLine(str):
    """A corpus line that did not decode; the string is the reason."""


def _merge(records: Iterable[object]) -> tuple[list[Document], CorpusReport]:
    report = CorpusReport()
    merger = _Merger(report)
    for number, record in enumerate(records, start=1):
        report.lines += 1
        report.objects += isinstance(record, dict)
        problem = record if isinstance(record, _BadLine) else document_problem(record)
        if problem:
            report.skipped.append((number, str(problem)))
            continue
        merger.add(record["url"].strip(), (record.get("title") or "").strip(), record["text"])
    report.documents = len(merger.by_url)
    return list(merger.by_url.values()), report


def iter_passages(
    docs: list[Document], size: int = DEFAULT_PASSAGE_WORDS, stride: int = DEFAULT_STRIDE
) -> Iterator[PassageRecord]:
    for number, doc in enumerate(docs):
        for p in word_passages(doc.text, size, stride):
            yield PassageRecord(number, p.start, p.end, p.text, doc.title)


def sparse_text(passage: PassageRecord) -> str:
    # The title is indexed with every passage: a page's passages rarely repeat its
    # subject's name, yet queries carry it (SIDE adds the article title to the claim).
    return f"{passage.title}\n{passage.text}" if passage.title else passage.text


def dense_text(passage: PassageRecord) -> str:
    return f"{passage.title}. {passage.text}" if passage.title else passage.text


def file_checksum(path: str | Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def documents_checksum(docs: Iterable[Document]) -> str:
    digest = hashlib.sha256()
    for doc in docs:
        for part in (doc.url, doc.title, doc.text):
            digest.update(part.encode("utf-8", "surrogatepass"))
            digest.update(b"\0")
    return digest.hexdigest()

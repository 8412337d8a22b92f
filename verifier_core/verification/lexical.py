"""Cheap lexical signals: content terms, numbers, names, and BM25 over a source's passages.

They are the verifier's pre-filter (which passages the cross-encoder sees) and a
part of its verdict features: a claim whose numbers or names are absent from the
source is rarely fully supported, whatever a neural score says.
"""
from __future__ import annotations

import math
import re
from collections import Counter
from functools import lru_cache

_TOKEN = re.compile(r"[^\W_]+(?:[.,'][^\W_]+)*", re.UNICODE)
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_NAME = re.compile(r"\b[A-Z][\w'\-]*(?:\s+[A-Z][\w'\-]*)*")
STOPWORDS = frozenset(
    """a about above after again against all also am an and any are as at be because been
    before being below between both but by can could did do does doing down during each
    few for from further had has have having he her here hers herself him himself his how
    i if in into is it its itself just me more most my myself no nor not now of off on once
    only or other our ours out over own same she should so some such than that the their
    theirs them themselves then there these they this those through to too under until up
    very was we were what when where which while who whom why will with would you your
    yours s t said says one two first new became become later since""".split()
)


@lru_cache(maxsize=1)
def _stemmer():
    try:
        import Stemmer  # PyStemmer: fast Snowball, already a dependency of bm25s

        return Stemmer.Stemmer("english").stemWord
    except ImportError:  # pragma: no cover - keeps the library usable without it
        return lambda word: word


def terms(text: str) -> list[str]:
    """Lower-cased, stemmed content words (stop words removed)."""
    stem = _stemmer()
    out = []
    for match in _TOKEN.finditer(text.lower()):
        word = match.group(0).replace(",", "")
        if word not in STOPWORDS:
            out.append(stem(word))
    return out


def numbers(text: str) -> set[str]:
    return {m.group(0).replace(",", "") for m in _NUMBER.finditer(text)}


def names(text: str) -> set[str]:
    """Capitalised words not at the start of a sentence: a rough stand-in for names."""
    found = set()
    for match in _NAME.finditer(text):
        before = text[: match.start()].rstrip()
        if before and before[-1] not in ".!?\"'\n":
            found.update(w.lower() for w in match.group(0).split())
    return found - STOPWORDS


def coverage(wanted: set[str], present: set[str]) -> float:
    """Share of `wanted` found in `present`; 1.0 when nothing is wanted."""
    return 1.0 if not wanted else len(wanted & present) / len(wanted)


class BM25:
    """Okapi BM25 over a handful of passages (one source), built per query.

    A source has tens of passages, so a dictionary index built on the fly is faster
    than any persistent index and needs nothing on disk.
    """

    def __init__(self, docs: list[list[str]], k1: float = 1.2, b: float = 0.75):
        self.docs = [Counter(d) for d in docs]
        self.lengths = [len(d) for d in docs]
        self.avg = (sum(self.lengths) / len(docs)) if docs else 0.0
        df = Counter(t for d in self.docs for t in d)
        n = len(docs)
        self.idf = {t: math.log(1 + (n - f + 0.5) / (f + 0.5)) for t, f in df.items()}
        self.k1, self.b = k1, b

    def scores(self, query: list[str]) -> list[float]:
        out = []
        for doc, length in zip(self.docs, self.lengths):
            norm = self.k1 * (1 - self.b + self.b * length / (self.avg or 1.0))
            out.append(
                sum(
                    self.idf.get(t, 0.0) * doc[t] * (self.k1 + 1) / (doc[t] + norm)
                    for t in set(query)
                    if t in doc
                )
            )
        return out

"""Cheap lexical signals: content terms, numbers, names.

Terms and BM25 are the retrieval stack's own (`verifier_core.retrieval.tokenize` and
`sparse.PassageBm25`), so a claim is tokenised one way everywhere. A claim whose numbers
or names are absent from the source is rarely fully supported, whatever a neural score
says.
"""
from __future__ import annotations

import re

from verifier_core.retrieval.sparse import PassageBm25
from verifier_core.retrieval.tokenize import stop_words, term_spans
from verifier_core.retrieval.tokenize import tokenize as terms

__all__ = ["PassageBm25", "coverage", "names", "numbers", "term_spans", "terms"]

_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_NAME = re.compile(r"\b[A-Z][\w'\-]*(?:\s+[A-Z][\w'\-]*)*")


def numbers(text: str) -> set[str]:
    return {m.group(0).replace(",", "") for m in _NUMBER.finditer(text)}


def names(text: str) -> set[str]:
    """Capitalised words not at the start of a sentence: a rough stand-in for names."""
    found = set()
    for match in _NAME.finditer(text):
        before = text[: match.start()].rstrip()
        if before and before[-1] not in ".!?\"'\n":
            found.update(w.lower() for w in match.group(0).split())
    return found - stop_words()


def coverage(wanted: set[str], present: set[str]) -> float:
    """Share of `wanted` found in `present`; 1.0 when nothing is wanted."""
    return 1.0 if not wanted else len(wanted & present) / len(wanted)

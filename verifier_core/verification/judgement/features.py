"""Claim-level verdict features from one or several analysed sources.

Every feature is a max or a set union over sources, so that the same code scores one
citation and the union of a claim's citations (a claim can be supported by two
sources together though by neither alone).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from verifier_core.verification.evidence.parts import UNTRAINED, Part, WordModel, part_scores, split_claim, word_matrix
from verifier_core.verification.language.lexical import coverage, names, numbers, term_spans
from verifier_core.verification.language.quantities import Mismatch, Quantity, mismatches
from verifier_core.verification.language.reckoning import reckoned_spans, reckoned_terms

FEATURE_NAMES = (
    "bm25_norm",  # best passage BM25 over the claim's own best possible score
    "cov_page",  # share of claim terms anywhere in the source(s)
    "cov_best",  # ... in the best passage
    "cov_top",  # ... in the top passages together
    "cov_numbers",
    "has_numbers",
    "cov_names",
    "log_page_words",
    "log_claim_terms",
    "pair_max",  # cross-encoder: best passage probability
    "pair_second",
    "tok_min",  # cross-encoder: weakest content word's support (max over passages)
    "tok_mean",
    "tok_low_share",  # share of content words with support below one half
    "tok_min_absent",  # weakest support among words absent from the source text
    "part_min",  # the weakest claim part's support (parts.py)
    "word_min",  # the weakest content word's support by the word model
    "num_mismatch",  # the source gives another figure for one of the claim's (quantities.py)
)


@dataclass
class SourceAnalysis:
    """What the verifier learnt about one source for one claim."""

    page_terms: set[str]
    page_numbers: set[str]
    page_lower: str
    page_words: int
    bm25_norm: float
    top_terms: list[set[str]]  # term sets of the top passages, best first
    pair_probs: list[float] = field(default_factory=list)  # per top passage
    word_support: list[list[float]] = field(default_factory=list)  # per passage, per content word
    quantities: list[Quantity] = field(default_factory=list)  # the source's figures
    text: str = ""  # the source's text, which its figures' offsets point into


@dataclass
class ClaimAnalysis:
    """The verdict head's features and what they rest on, shown to editors as reasons."""

    features: np.ndarray
    words: list[tuple[int, int, str]]
    word_probs: np.ndarray
    parts: list[Part]
    part_scores: list[float]
    mismatches: list[Mismatch]


def content_words(claim: str) -> list[tuple[int, int, str]]:
    """(start, end, term) of the claim's content words, in order."""
    return term_spans(claim)


def word_support_from_pieces(piece_probs, piece_offsets, words) -> list[float]:
    """Per content word, the mean support of the word pieces that overlap it."""
    out = []
    for start, end, _ in words:
        vals = [p for p, (a, b) in zip(piece_probs, piece_offsets) if a < end and b > start]
        out.append(float(np.mean(vals)) if vals else 0.0)
    return out


def claim_features(claim: str, analyses: list[SourceAnalysis], word_model: WordModel = UNTRAINED) -> np.ndarray:
    return analyse_claim(claim, analyses, word_model).features


def analyse_claim(claim: str, analyses: list[SourceAnalysis], word_model: WordModel = UNTRAINED) -> ClaimAnalysis:
    words = content_words(claim)
    support = _word_support(words, analyses)
    page_terms = set().union(*(a.page_terms for a in analyses)) if analyses else set()
    figures = [q for a in analyses for q in a.quantities]
    # The claim's words a span of years the page gives carries ("125th anniversary" on a page
    # of 2016 saying "125 years after she was born") are held by the page, as an editor reads it.
    reckoned = reckoned_words(claim, words, figures)
    held = page_terms | reckoned
    tops = [t | reckoned for a in analyses for t in a.top_terms]
    probs = word_model.prob(word_matrix(words, support, held, tops))
    parts = split_claim(claim)
    scores = part_scores(parts, words, probs)
    found = mismatches(claim, "", figures, page_terms)
    structured = [min(scores, default=1.0), float(probs.min()) if len(probs) else 1.0, float(bool(found))]
    features = np.concatenate([_lexical(claim, words, analyses, reckoned), _neural(words, support, held, analyses),
                               structured])
    return ClaimAnalysis(features, words, probs, parts, scores, found)


def _word_support(words, analyses: list[SourceAnalysis]) -> np.ndarray:
    """Per content word, its best support over every passage read (any passage may hold it)."""
    rows = [ws for a in analyses for ws in a.word_support if len(ws) == len(words)]
    return np.max(np.array(rows), axis=0) if words and rows else np.zeros(len(words))


def reckoned_words(claim: str, words, figures: list[Quantity]) -> set[str]:
    """The terms of the claim's content words that follow from the page's own figures and date
    (reckoning.py): the figure and the words of its span ("125th", "anniversary")."""
    reckoned = reckoned_terms(claim, figures)
    if not reckoned:
        return set()
    spans = reckoned_spans(claim, figures)
    return {term for start, end, term in words
            if claim[start:end].lower() in reckoned or any(a <= start and end <= b for a, b in spans)}


def _lexical(claim: str, words, analyses: list[SourceAnalysis], reckoned: set[str]) -> list[float]:
    """`reckoned`: claim terms the page's figures give, held by the page and its passages."""
    claim_terms = {w[2] for w in words}
    page_terms = set().union(*(a.page_terms for a in analyses)) | reckoned if analyses else set()
    tops = [[t | reckoned for t in a.top_terms] for a in analyses if a.top_terms]
    best = set(tops[0][0]) if tops else set()
    for top in tops[1:]:  # the best passage of the source that covers most
        if coverage(claim_terms, top[0]) > coverage(claim_terms, best):
            best = top[0]
    top_union = set().union(*(t for top in tops for t in top)) if tops else set()
    nums = numbers(claim)
    page_nums = set().union(*(a.page_numbers for a in analyses)) if analyses else set()
    claim_names = names(claim)
    lowered = " ".join(a.page_lower for a in analyses)
    return [
        max((a.bm25_norm for a in analyses), default=0.0),
        coverage(claim_terms, page_terms),
        coverage(claim_terms, best),
        coverage(claim_terms, top_union),
        coverage(nums, page_nums),
        float(bool(nums)),
        (sum(1 for n in claim_names if n in lowered) / len(claim_names)) if claim_names else 1.0,
        math.log1p(sum(a.page_words for a in analyses)),
        math.log1p(len(claim_terms)),
    ]


def _neural(words, support: np.ndarray, page_terms: set[str], analyses: list[SourceAnalysis]) -> list[float]:
    pairs = sorted((p for a in analyses for p in a.pair_probs), reverse=True)
    absent = [s for s, w in zip(support, words) if w[2] not in page_terms]
    return [
        pairs[0] if pairs else 0.0,
        pairs[1] if len(pairs) > 1 else (pairs[0] if pairs else 0.0),
        float(support.min()) if len(support) else 1.0,
        float(support.mean()) if len(support) else 1.0,
        float((support < 0.5).mean()) if len(support) else 0.0,
        float(min(absent)) if absent else 1.0,
    ]

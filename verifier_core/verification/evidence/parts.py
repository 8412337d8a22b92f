"""Claim parts: a claim split into clauses, each scored on its own words' support.

WiCE found sub-claims far easier to check than whole claims. A part is a clause or a
coordinated fact; its score is the mean, over its content words, of a word model's
probability that the source supports that word. The word model is a logistic regression
over the cross-encoder's per-word support and whether the word (or number) is in the
source at all, trained on the `nst_train` claims whose unsupported tokens WiCE marks
(never on `dev`, so the cross-validated figures stay fair). The claim's weakest part
is one of the verdict head's features, and the part shown to editors as unsupported.
"""
from __future__ import annotations

import re
from dataclasses import asdict, dataclass

import numpy as np

from verifier_core.verification.language.lexical import term_spans

# Clause boundaries: semicolons, and a comma or "and" before a connective that opens a
# new fact. A bare "and" joins names too often ("Tom and Jerry") to split on alone.
_BOUNDARY = re.compile(
    r";\s+|\s+[–—]\s+|,\s+(?=(?:and|but|while|whereas|which|who|where|when|after|before|although|though|"
    r"including|making|becoming|one|an?)\s)|\s+(?=and\s+(?:he|she|it|they|was|were|is|are|has|had|have|\w+ed)\b)",
    re.IGNORECASE,
)
MIN_TERMS = 2  # a shorter piece is no fact of its own: it joins the one before
WORD_FEATURES = ("support", "in_page", "in_top", "in_best", "is_number")


@dataclass(frozen=True)
class Part:
    text: str
    start: int
    end: int


def split_claim(claim: str) -> list[Part]:
    """Clauses of `claim` with their offsets; the whole claim when it has one clause."""
    pieces, pos = [], 0
    for match in _BOUNDARY.finditer(claim):
        pieces.append((pos, match.start()))
        pos = match.end()
    pieces.append((pos, len(claim)))
    merged: list[list[int]] = []
    for start, end in pieces:
        if merged and len(term_spans(claim[start:end])) < MIN_TERMS:
            merged[-1][1] = end
        elif merged and len(term_spans(claim[merged[-1][0]:merged[-1][1]])) < MIN_TERMS:
            merged[-1][1] = end
        else:
            merged.append([start, end])
    parts = [Part(claim[a:b].strip(" ,;"), a, b) for a, b in merged]
    return [p for p in parts if p.text] or [Part(claim, 0, len(claim))]


@dataclass
class WordModel:
    """P(a claim word is supported by the source) from WORD_FEATURES."""

    coef: list[float]
    intercept: float

    def prob(self, X: np.ndarray) -> np.ndarray:
        if not len(X):
            return np.zeros(0)
        return 1.0 / (1.0 + np.exp(-(np.asarray(X) @ np.array(self.coef) + self.intercept)))

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> "WordModel":
        return cls(**data)


# Before training: the cross-encoder's own word support, nudged by presence in the page.
UNTRAINED = WordModel(coef=[4.0, 1.0, 0.5, 0.5, 0.0], intercept=-3.0)


def word_matrix(words, support, page_terms: set[str], top_terms: list[set[str]]) -> np.ndarray:
    """One row of WORD_FEATURES per content word (start, end, term)."""
    top = set().union(*top_terms) if top_terms else set()
    best = top_terms[0] if top_terms else set()
    rows = [[float(s), t in page_terms, t in top, t in best, t.replace(".", "").isdigit()]
            for (_, _, t), s in zip(words, support)]
    return np.array(rows, dtype=np.float64).reshape(len(rows), len(WORD_FEATURES))


def fit_word_model(X: np.ndarray, supported: np.ndarray) -> WordModel:
    from sklearn.linear_model import LogisticRegression

    model = LogisticRegression(C=1.0, max_iter=2000, class_weight="balanced").fit(X, supported)
    return WordModel(coef=model.coef_[0].tolist(), intercept=float(model.intercept_[0]))


def part_scores(parts: list[Part], words, word_probs: np.ndarray) -> list[float]:
    """Mean word probability of each part's content words (1.0 for a part without any)."""
    out = []
    for part in parts:
        inside = [p for (a, b, _), p in zip(words, word_probs) if a >= part.start and b <= part.end]
        out.append(float(np.mean(inside)) if inside else 1.0)
    return out

"""Training and testing the claim-parts word model on WiCE's marked unsupported tokens.

`nst_*` rows mark, token by token, which words of a claim the cited page does not
support. Each claim content word gets the mark of the tokens it overlaps; the word model
learns P(supported) from the word's features (parts.WORD_FEATURES).
"""
from __future__ import annotations

import numpy as np

from verifier_core.verification.evidence.parts import WordModel, fit_word_model, part_scores, split_claim, word_matrix
from verifier_core.verification.judgement.features import SourceAnalysis, _word_support, content_words
from verifier_core.verification.model.data import Example
from verifier_core.verification.model.metrics import roc_auc


def token_marks(ex: Example) -> list[tuple[int, int, bool]]:
    """(start, end, unsupported) of each marked token, located in the claim text."""
    out, pos = [], 0
    for token, bad in zip(ex.claim_tokens, ex.unsupported):
        start = ex.claim.find(token, pos)
        if start < 0:
            continue
        out.append((start, start + len(token), bad))
        pos = start + len(token)
    return out


def word_rows(ex: Example, analysis: SourceAnalysis) -> tuple[np.ndarray, np.ndarray, list]:
    """(features, supported?, words) of one marked claim's content words."""
    words = content_words(ex.claim)
    marks = token_marks(ex)
    X = word_matrix(words, _word_support(words, [analysis]), analysis.page_terms, analysis.top_terms)
    y = np.array([not any(bad for a, b, bad in marks if a < end and b > start) for start, end, _ in words])
    return X, y, words


def fit_words(examples: list[Example], analyses: dict[int, SourceAnalysis], rows: list[int]) -> WordModel:
    data = [word_rows(examples[i], analyses[i]) for i in rows]
    X = np.vstack([d[0] for d in data if len(d[0])])
    y = np.concatenate([d[1] for d in data if len(d[0])])
    return fit_word_model(X, y)


def test_words(model: WordModel, examples: list[Example], analyses: dict[int, SourceAnalysis], rows: list[int]) -> dict:
    """Word-level ROC-AUC; how often a claim's lowest-scoring word is a marked one (vs the
    share of marked words: chance); and how often the lowest-scoring part holds a marked
    word, over claims of two or more parts with marks in some but not all (WiCE's marked
    claims are sub-claims already, so few split)."""
    probs, labels, hits, tries, word_hits = [], [], 0, 0, []
    for i in rows:
        X, y, words = word_rows(examples[i], analyses[i])
        if not len(X):
            continue
        p = model.prob(X)
        probs.append(p)
        labels.append(y)
        word_hits.append(not y[int(np.argmin(p))])
        parts = split_claim(examples[i].claim)
        bad = [any(not ok for (a, b, _), ok in zip(words, y) if a >= q.start and b <= q.end) for q in parts]
        if len(parts) > 1 and any(bad) and not all(bad):
            tries += 1
            hits += bad[int(np.argmin(part_scores(parts, words, p)))]
    p, y = np.concatenate(probs), np.concatenate(labels)
    return {"word_roc_auc": roc_auc(y, p), "weakest_word_hit_rate": float(np.mean(word_hits)),
            "marked_share": float(1 - y.mean()), "weakest_part_hit_rate": hits / tries if tries else float("nan"),
            "claims_with_split_marks": tries, "words": int(len(y))}

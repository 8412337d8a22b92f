"""Training pairs for the cross-encoder, built from the citations themselves (SIDE-style).

For a claim, the passage holding its evidence is latent: WiCE's supporting sentences
point at it where known. Negatives are the page's other passages that match the
claim best lexically (hard) and the best passage of another page found by BM25
retrieval over all training pages. Token targets come from WiCE's `nst_*` marks
(which claim tokens the page does not support); a copy of such a claim with those
tokens removed is a fully supported claim for the same passage.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

from verifier_core.verification.evidence.passages import SourcePassage, passages
from verifier_core.verification.judgement.features import content_words
from verifier_core.verification.language.lexical import PassageBm25, terms
from verifier_core.verification.model.data import Example
from verifier_core.verification.types import Verdict

IGNORE = -1.0


@dataclass
class TrainPair:
    group: int  # pairs of one claim share a group (the listwise loss compares them)
    claim: str
    title: str
    passage: str
    label: float  # 1: the passage holds the claim's evidence
    word_labels: list[float]  # per content word of `claim`, by the whole page: 1 supported, 0 not, IGNORE
    weight: float = 1.0
    in_page: bool = True  # False for passages of other pages


def _supporting_spans(ex: Example) -> list[list[tuple[int, int]]]:
    return [[ex.sentence_spans[i] for i in s if 0 <= i < len(ex.sentence_spans)] for s in ex.supporting]


def _overlap(p: SourcePassage, spans: list[tuple[int, int]]) -> int:
    return sum(1 for a, b in spans if a < p.end and b > p.start)


def positive_passages(ex: Example, found: list[SourcePassage], limit: int = 2) -> list[int]:
    """Per supporting set, the passage holding most of it; at most `limit`, distinct."""
    chosen: list[int] = []
    for spans in _supporting_spans(ex):
        if not spans:
            continue
        best = max(range(len(found)), key=lambda i: (_overlap(found[i], spans), -i))
        if _overlap(found[best], spans) and best not in chosen:
            chosen.append(best)
        if len(chosen) >= limit:
            break
    return chosen


def claim_word_labels(ex: Example, claim: str) -> list[float]:
    """Per content word: 1 supported, 0 not, from the nst marks or the claim's label."""
    words = content_words(claim)
    if ex.claim_tokens:
        marks = _char_marks(claim, ex.claim_tokens, ex.unsupported)
        return [0.0 if any(marks[start:end]) else 1.0 for start, end, _ in words]
    fill = {Verdict.SUPPORTED: 1.0, Verdict.NOT_SUPPORTED: 0.0}.get(ex.label, IGNORE)
    return [fill] * len(words)


def _char_marks(claim: str, tokens: list[str], unsupported: list[bool]) -> list[bool]:
    marks = [False] * len(claim)
    pos = 0
    for tok, flag in zip(tokens, unsupported):
        at = claim.find(tok, pos)
        if at < 0:
            continue
        if flag:
            marks[at : at + len(tok)] = [True] * len(tok)
        pos = at + len(tok)
    return marks


def supported_variant(ex: Example) -> str | None:
    """The claim without its unsupported tokens: what the page does support."""
    if not ex.claim_tokens or not any(ex.unsupported):
        return None
    marks = _char_marks(ex.claim, ex.claim_tokens, ex.unsupported)
    kept = "".join(c for c, m in zip(ex.claim, marks) if not m)
    kept = " ".join(kept.split())
    return kept if len(terms(kept)) >= 2 else None


def _retrieved_negatives(examples: list[Example], split: list[list[SourcePassage]], k: int = 10) -> list[str | None]:
    """Per claim, the best BM25 passage from another page of the training set."""
    import bm25s

    corpus, owner = [], []
    for n, found in enumerate(split):
        for p in found:
            corpus.append(terms(p.text) or ["_"])
            owner.append((n, p.text))
    index = bm25s.BM25()
    index.index(corpus, show_progress=False)
    queries = [terms(ex.claim) or ["_"] for ex in examples]
    hits, _ = index.retrieve(queries, k=min(k, len(corpus)), show_progress=False)
    out: list[str | None] = []
    for n, row in enumerate(hits):
        other = [owner[j][1] for j in row if owner[j][0] != n and examples[owner[j][0]].page != examples[n].page]
        out.append(other[0] if other else None)
    return out


def build_pairs(examples: list[Example], seed: int, hard: int = 2, max_words: int = 64) -> list[TrainPair]:
    rng = random.Random(seed)
    split = [passages(ex.page, max_words=max_words) for ex in examples]
    retrieved = _retrieved_negatives(examples, split)
    pairs: list[TrainPair] = []
    for n, ex in enumerate(examples):
        pairs += _claim_pairs(n, ex, split[n], retrieved[n], hard, rng)
    return pairs


def _claim_pairs(group: int, ex: Example, found, retrieved, hard: int, rng) -> list[TrainPair]:
    if not found:
        return []
    positives = positive_passages(ex, found) if ex.label != Verdict.NOT_SUPPORTED else []
    banned = {i for i, p in enumerate(found) if any(_overlap(p, s) for s in _supporting_spans(ex))}
    query = terms(ex.claim)
    scores = PassageBm25([terms(p.text) for p in found]).scores(query)
    ranked = [i for i in sorted(range(len(found)), key=lambda i: -scores[i]) if i not in banned]
    negatives = ranked[:hard] + rng.sample(ranked[hard:], min(1, len(ranked[hard:])))
    labels = claim_word_labels(ex, ex.claim)
    out = [TrainPair(2 * group, ex.claim, ex.title, found[i].text, 1.0, labels) for i in positives]
    out += [TrainPair(2 * group, ex.claim, ex.title, found[i].text, 0.0, labels) for i in negatives]
    if retrieved:
        out.append(TrainPair(2 * group, ex.claim, ex.title, retrieved, 0.0, labels, in_page=False))
    variant = supported_variant(ex)
    if variant and positives:  # a claim of its own (odd group): it has its own words
        ones = [1.0] * len(content_words(variant))
        out.append(TrainPair(2 * group + 1, variant, ex.title, found[positives[0]].text, 1.0, ones))
    return out

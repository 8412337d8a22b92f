"""Evidence shown to editors: the quote (the body sentence of the source that best
supports the claim, or comes closest), the passage around it and the sentences in that
passage that carry the rest of the claim, with offsets into the source text, checked to
appear there verbatim.

The quote is chosen over the whole body, not only in the passage the cross-encoder liked
best: a sentence is worth the claim's words it holds, each weighted by how rare it is on
the page (so "1921" and "women's" outweigh "club" on a club's history page), and the
claim's figures it gives in any form (31 metres for "102 ft"). It must share a word with
the claim; where no body sentence does, there is no quote. The cross-encoder's ranking of
passages breaks ties.

REVERSUM verifies shown evidence separately from generating it; here the offsets are
re-checked against the source before anything is returned, so a bug in segmentation
can hide evidence but never show text the source does not contain.
"""
from __future__ import annotations

import logging
import math
from dataclasses import dataclass

from verifier_core.verification.evidence.passages import SourcePassage
from verifier_core.verification.evidence.sentences import Sentence
from verifier_core.verification.language.figures import Quantity, quantities
from verifier_core.verification.language.lexical import term_spans
from verifier_core.verification.language.mentions import figure_given
from verifier_core.verification.types import Evidence

log = logging.getLogger(__name__)
MAX_SENTENCES = 3  # the quote and up to two more sentences of its passage


@dataclass(frozen=True)
class BodySentence:
    """A body sentence of a page with what it says, computed once per page."""
    start: int
    end: int
    terms: frozenset[str]
    figures: tuple[Quantity, ...]


def page_sentences(sentences: list[Sentence], text: str, figures: list[Quantity]) -> list[BodySentence]:
    out = []
    for s in sentences:
        mine = tuple(q for q in figures if s.start <= q.start < s.end)
        out.append(BodySentence(s.start, s.end, frozenset(t for _, _, t in term_spans(text[s.start:s.end])), mine))
    return out


def select_evidence(text: str, claim: str, body: list[BodySentence], passages: list[SourcePassage],
                    ranked: list[int], title: str = "", at: list[int] | None = None) -> Evidence | None:
    """The quote first, then up to two sentences of its passage covering more of the claim;
    `ranked`: passage indices, best first (the cross-encoder's order); `at`: offsets of the
    source's figures that contradict the claim's, whose sentence is then the quote (the
    line the reason "the source gives ..." points to)."""
    wanted, figures = claim_terms(claim)
    title_key = " ".join(title.lower().split())
    candidates = [s for s in body if " ".join(text[s.start:s.end].lower().split()) != title_key]
    pointed = [s for s in candidates if any(s.start <= a < s.end for a in at or [])]
    quote = pointed[0] if pointed else _best(candidates, wanted, figures, passages, ranked)
    if quote is None:
        return _bare(text, passages, ranked)
    passage = _passage_of(quote, passages, ranked)
    start, end = min(passage.start, quote.start), max(passage.end, quote.end)
    chosen, covered = [quote], set(quote.terms & wanted)
    inside = [s for s in body if start <= s.start and s.end <= end and s is not quote]
    while len(chosen) < MAX_SENTENCES:
        more = max(inside, key=lambda s: (len((s.terms & wanted) - covered), -s.start), default=None)
        if more is None or not (more.terms & wanted) - covered:
            break
        chosen.append(more)
        covered |= more.terms & wanted
        inside.remove(more)
    spans = [(s.start, s.end) for s in chosen]
    evidence = Evidence(passage=text[start:end], sentences=[text[a:b] for a, b in spans], start=start, end=end,
                        sentence_spans=spans, quote=text[quote.start:quote.end], quote_span=(quote.start, quote.end))
    return evidence if verbatim(text, evidence) else None


def claim_terms(claim: str) -> tuple[set[str], list[Quantity]]:
    """The claim's words (less those inside its figures, which are matched by value) and figures."""
    figures = [q for q in quantities(claim) if q.kind != "score"]
    words = {t for a, b, t in term_spans(claim) if not any(q.start <= a < q.end for q in figures)}
    return words, figures


def _best(body: list[BodySentence], wanted: set[str], figures: list[Quantity], passages: list[SourcePassage],
          ranked: list[int]) -> BodySentence | None:
    """The sentence holding most of the claim, weighted by rarity on the page; it must share
    a word or a figure (in any unit) with the claim."""
    sharing = [s for s in body if s.terms & wanted or any(figure_given(q, f) for q in figures for f in s.figures)]
    if not sharing:
        return None
    df: dict[str, int] = {}
    for s in body:
        for t in s.terms & wanted:
            df[t] = df.get(t, 0) + 1
    weight = {t: math.log(1 + len(body) / n) for t, n in df.items()}
    rare = max(weight.values(), default=1.0)
    order = {p: n for n, p in enumerate(ranked)}

    def worth(s: BodySentence) -> tuple[float, int, int]:
        held = sum(weight[t] for t in s.terms & wanted)
        given = sum(rare for q in figures if any(figure_given(q, f) for f in s.figures))
        rank = min((order[p.index] for p in passages if p.index in order and p.start <= s.start and s.end <= p.end),
                   default=len(order))
        return round(held + given, 6), -rank, -s.start

    return max(sharing, key=worth)


def _passage_of(quote: BodySentence, passages: list[SourcePassage], ranked: list[int]) -> SourcePassage:
    """The best-ranked passage holding the quote, else the first one that does, else the
    one it starts in (the evidence is then widened to the whole quote)."""
    holding = [p for p in passages if p.start <= quote.start and quote.end <= p.end]
    order = {p: n for n, p in enumerate(ranked)}
    if holding:
        return min(holding, key=lambda p: (order.get(p.index, len(order)), p.index))
    return next((p for p in passages if p.start <= quote.start < p.end), passages[0])


def _bare(text: str, passages: list[SourcePassage], ranked: list[int]) -> Evidence | None:
    """No body sentence shares a word with the claim: the best passage, no quote."""
    if not passages:
        return None
    best = passages[ranked[0]] if ranked else passages[0]
    evidence = Evidence(passage=best.text, sentences=[], start=best.start, end=best.end, sentence_spans=[])
    return evidence if verbatim(text, evidence) else None


def verbatim(text: str, evidence: Evidence) -> bool:
    """The passage, the quote and every sentence appear in the source exactly where they
    claim to (a part's sentence may lie anywhere on the page, outside the passage)."""
    ok = text[evidence.start : evidence.end] == evidence.passage and all(
        0 <= a <= b <= len(text) and text[a:b] == s for s, (a, b) in zip(evidence.sentences, evidence.sentence_spans)
    )
    ok = ok and len(evidence.sentences) == len(evidence.sentence_spans)
    if evidence.quote_span is not None:
        a, b = evidence.quote_span
        ok = ok and evidence.start <= a <= b <= evidence.end and text[a:b] == evidence.quote
    if not ok:
        log.warning("evidence failed the verbatim check; not shown (start=%s end=%s)", evidence.start, evidence.end)
    return ok

"""Each part's evidence: the sentences of the whole page that together hold it.

WiCE's annotators mark minimal sets of a page's sentences that support a claim, two on
average and often far apart (the dateline gives the year, the body the event): one quote
holds a whole set for only a third of the supported claims. So each part of the claim
(evidence.parts) gets its own sentences, chosen as a weighted cover of its words over every
line of the page: a sentence is worth the part's words it adds, each weighted by how rare it
is on the page, and the part's figures it gives in any form (31 metres for "102 ft"), a date's
year and its day and month each from any line (figure_pieces), and, once, each word it says
together with the part's rarest word (what the part is about: a line tying the two is worth
more than lines holding them apart); the
sentence adding most is taken while it adds enough, up to MAX_PER_PART. Every line counts, not
only the body a quote is drawn from: a page's date or heading is often what states the year.
A part whose best sentence holds too little of it (its words the page lacks count too) gets
none. Words too general to carry a claim ("became", "first") count for nothing: they pull in
lines about something else.

Chosen on WiCE `dev`'s supported claims (bench/bench_real_citations.py measures it): a whole
gold set is shown for 56% of them with about three sentences shown a claim, 61% of them in
a gold set (the quote alone: 33%, 1.4 sentences). A date read in pieces was checked on WiCE's
`nst_train` sub-claims first (gold sets shown 67% -> 68%, 2.2 sentences a claim), then on
`dev` (56% -> 59%, no other figure of the benchmark worse); so was the link to the rarest word
(nst_train 68% -> 69%, 2.3 sentences a claim; dev 59% -> 62%, 3.4 sentences a claim, 64% of
them in a gold set).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import lru_cache

from verifier_core.retrieval.tokenize import tokenize
from verifier_core.text import sentence_spans
from verifier_core.verification.evidence.quote import claim_terms, verbatim
from verifier_core.verification.evidence.sentences import blocks, is_body, trimmed
from verifier_core.verification.language.figures import Quantity
from verifier_core.verification.language.lexical import term_spans
from verifier_core.verification.language.mentions import GENERAL, figure_given
from verifier_core.verification.types import Evidence, PartEvidence, PartVerdict

MAX_PER_PART = 4
FIRST_SHARE = 0.3  # the first sentence must hold this share of the part's weight, else none
MORE_SHARE = 0.05  # each further sentence must add this share of what the page holds of it
# A word or figure of the part the page lacks counts for half the rarest word, so that a part
# the page holds little of gets no line (of WiCE dev's not-supported claims, 14 of 43 get none
# at all, against 1 when only the words the page holds count; gold sets shown fall 59% -> 56%).
ABSENT = 0.5


@dataclass(frozen=True)
class Line:
    """A sentence of any line of a page (body or not) with what it says."""
    start: int
    end: int
    terms: frozenset[str]
    figures: tuple[Quantity, ...]
    body: bool


def page_lines(text: str, figures: list[Quantity]) -> list[Line]:
    """Every sentence of every line of the page that has a word, in page order."""
    out = []
    for block_start, block_end in blocks(text):
        for span in sentence_spans(text[block_start:block_end]):
            a, b = trimmed(text, block_start + span.start, block_start + span.end)
            found = frozenset(t for _, _, t in term_spans(text[a:b])) if a < b else frozenset()
            if found:
                out.append(Line(a, b, found, tuple(q for q in figures if a <= q.start < b), is_body(text[a:b])))
    return out


@lru_cache(maxsize=1)
def _general() -> frozenset[str]:
    return frozenset(tokenize(" ".join(GENERAL)))


def figure_pieces(q: Quantity) -> list[tuple[Quantity, float]]:
    """What of a figure one line may give, each with its share of the figure: a date with a
    year and a month is its year and its day and month, half each, since a page often gives
    them in different lines ("hits stores on Election Day, November 2." under a dateline of
    2004 gives "November 2, 2004"); any other figure is given whole."""
    year, month, day = q.date
    if q.kind != "date" or not (year and month):
        return [(q, 1.0)]
    return [(replace(q, kind="year", value=str(year), low=float(year), high=float(year), date=(0, 0, 0)), 0.5),
            (replace(q, value=f"{month:02d}-{day:02d}" if day else f"{month:02d}", date=(0, month, day)), 0.5)]


def part_sentences(part: str, lines: list[Line], max_sentences: int = MAX_PER_PART) -> list[tuple[int, int]]:
    """The (start, end) of the lines that together hold `part`, in page order; [] when the
    best of them holds under FIRST_SHARE of it."""
    words, figures = claim_terms(part)
    words -= _general()
    df: dict[str, int] = {}
    for line in lines:
        for t in line.terms & words:
            df[t] = df.get(t, 0) + 1
    weight = {t: math.log(1 + len(lines) / n) for t, n in df.items()}
    rare = max(weight.values(), default=1.0)
    pieces = [piece for q in figures for piece in figure_pieces(q)]
    given = [(q, share) for q, share in pieces if any(figure_given(q, f) for line in lines for f in line.figures)]
    absent = len(words - set(weight)) + sum(share for _, share in pieces) - sum(share for _, share in given)
    total = sum(weight.values()) + rare * sum(share for _, share in given)
    held_total = total
    total += ABSENT * rare * absent
    if total <= 0:
        return []
    covered: set[str] = set()
    open_figures = set(range(len(given)))
    chosen: list[Line] = []

    def gives(line: Line) -> set[int]:
        return {n for n in open_figures if any(figure_given(given[n][0], f) for f in line.figures)}

    # The part's rarest word the page holds is most often what it is about (a name): a word
    # of the part said in a line with it is worth that word again, once, so a line tying the
    # subject to a fact is taken even where other lines already hold each word apart ("Upton"
    # in one, "bill" in another do not say Upton backed the bill).
    anchor = max(weight, key=lambda t: (weight[t], t), default=None)
    linked: set[str] = set()

    def links(line: Line) -> float:
        held = line.terms & words
        return sum(weight[t] for t in held - linked - {anchor}) if anchor in held else 0.0

    def gain(line: Line) -> float:
        figures_added = sum(given[n][1] for n in gives(line))
        return round(sum(weight[t] for t in (line.terms & words) - covered) + rare * figures_added + links(line), 6)

    while len(chosen) < max_sentences:
        # Ties: a body sentence before a heading or dateline, then the earlier line.
        best = max((line for line in lines if line not in chosen), key=lambda s: (gain(s), s.body, -s.start),
                   default=None)
        if best is None or gain(best) < (MORE_SHARE * held_total if chosen else FIRST_SHARE * total):
            break
        open_figures -= gives(best)
        if anchor in best.terms:
            linked |= best.terms & words
        covered |= best.terms & words
        chosen.append(best)
    return sorted((line.start, line.end) for line in chosen)


def parts_with_evidence(parts: list[PartVerdict], text: str, lines: list[Line]) -> list[PartVerdict]:
    """Each part with the page's sentences that hold it."""
    out = []
    for part in parts:
        spans = part_sentences(part.text, lines)
        out.append(replace(part, evidence=PartEvidence([text[a:b] for a, b in spans], spans)))
    return out


def shown_evidence(evidence: Evidence | None, parts: list[PartVerdict], text: str) -> Evidence | None:
    """The quote's evidence showing the quote and every part's sentences, in page order (the
    passage stays the quote's); None when it would not be verbatim."""
    if evidence is None:
        return None
    spans = set(tuple(s) for p in parts for s in p.evidence.sentence_spans)
    if evidence.quote_span is not None:
        spans.add(tuple(evidence.quote_span))
    elif not spans:
        spans = set(tuple(s) for s in evidence.sentence_spans)
    ordered = sorted(spans)
    shown = replace(evidence, sentences=[text[a:b] for a, b in ordered], sentence_spans=ordered)
    return shown if verbatim(text, shown) else None

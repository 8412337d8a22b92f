"""From a claim's analysed sources to its verdict, confidence, parts and reason.

The verdict head (or, without a checkpoint, the fallback's cosine) gives the score, and
verdicts.Thresholds turns it into a verdict with a confidence. Rules then hold whatever
the score says: a claim whose figure the source states otherwise, about the same thing,
is `not_supported` with high confidence (a wrong figure is a failed citation, one an
editor can tag), an off-topic source is `not_supported`, and a claim cannot be more
supported than its weakest part. A generic page (a site's front page) never gives a
high-confidence `supported`.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from verifier_core.verification.evidence.parts import UNTRAINED, WordModel
from verifier_core.verification.judgement.calibration import VerdictHead
from verifier_core.verification.judgement.features import FEATURE_NAMES, ClaimAnalysis, SourceAnalysis, analyse_claim
from verifier_core.verification.judgement.checks import PageCheck, check, checked
from verifier_core.verification.judgement.figure_reading import Reader, Reading, read_figures, sentence_at
from verifier_core.verification.judgement.reasons import verdict_reasons, words
from verifier_core.verification.judgement.verdicts import HIGH, LOW
from verifier_core.verification.language.mentions import unmentioned
from verifier_core.verification.model import fallback
from verifier_core.verification.types import LABELS, PartVerdict, Reason, ReasonKind, Verdict

# Part verdicts: cuts on a part's mean word probability (the word model is balanced, so
# one half is its own even odds). PART_FLOOR: below it the weakest part keeps a claim
# from `supported` (0.0: the rule is off; the head already weighs `part_min`).
PART_SUPPORTED, PART_NOT_SUPPORTED = 0.5, 0.3
PART_FLOOR = 0.0
# A source holding fewer than one in five of the claim's content words is about something
# else: not_supported with high confidence. On WiCE `dev` 5 claims fall below it, all not
# supported (precision 1.0, recall 0.12); the verdict head alone never reaches 0.8 there.
OFF_TOPIC = 0.2
# A claim whose figure the source states otherwise scores at most this share of the
# supported cut (half of 0.767 for the shipped head): a failure by its score as well.
CONTRADICTED_SHARE = 0.5


def unsure_failure(verdict: str, probs: dict[str, float], features) -> bool:
    """A `partially_supported` verdict where the head's likeliest class is not_supported and
    the source gives none of the claim's numbers ("a racing eight built in 1999" on a club
    history that never mentions 1999): nothing shows that any part is supported, so it
    reads "not supported", with low confidence ("needs a look", no tag). Out of fold on WiCE
    `dev`, half of such claims are not supported and none is supported (dev half: 2 of 4;
    held-out half: 6 of 11)."""
    if verdict != Verdict.PARTIALLY_SUPPORTED or not probs:
        return False
    likeliest = max(probs, key=probs.get)
    numbers = features[FEATURE_NAMES.index("has_numbers")] > 0 and features[FEATURE_NAMES.index("cov_numbers")] == 0
    return likeliest == Verdict.NOT_SUPPORTED and bool(numbers)


@dataclass
class Judgement:
    score: float
    verdict: Verdict
    confidence: str
    reasons: list[Reason]
    parts: list[PartVerdict] = field(default_factory=list)
    probabilities: dict[str, float] = field(default_factory=dict)
    features: dict[str, float] = field(default_factory=dict)
    figures_at: list[int] = field(default_factory=list)  # where the source's contradicting figures are

    @property
    def reason(self) -> str:
        return words(self.reasons)


def head_columns(head: VerdictHead, features: np.ndarray) -> np.ndarray:
    """The features a head was fitted on, by name (older heads read fewer)."""
    index = {name: i for i, name in enumerate(FEATURE_NAMES)}
    return features[[index[name] for name in head.feature_names]]


def judge(claim: str, analyses: list[SourceAnalysis], *, head: VerdictHead | None, word_model: WordModel = UNTRAINED,
          generic: bool = False, evidence_sentence: str | None = None, evidence_at: tuple[int, int] | None = None,
          read: Reader | None = None) -> Judgement:
    """`read` (the cross-encoder, where there is one) reads each figure the rules find against
    the source's sentence (figure_reading.py): the page contradicts the claim (not supported,
    high confidence) or gives another figure that may be of another thing (a hint to check).
    Without it the rules' figures are hints. The head's `num_mismatch` feature stays the figure
    rules' alone, as it was fitted. Every reason is checked against the page (checks.py)."""
    found = analyse_claim(claim, analyses, word_model)
    at = PageCheck.of(claim, analyses)
    figures = _figures(claim, found, analyses, read, at)
    found.mismatches = [m for m, r in figures if r.kind == ReasonKind.FIGURE]
    if head is None:  # no checkpoint: cosine similarity, never a confident verdict
        score = float(np.clip(max((p for a in analyses for p in a.pair_probs), default=0.0), 0.0, 1.0))
        verdict, confidence = fallback.THRESHOLDS.decide(score)
        confidence, probs, named = LOW, {}, {"max_cosine": score}
    else:
        x = head_columns(head, found.features)
        p = head.probs(x[None, :])[0]
        score = float(p[0] + 0.5 * p[1])
        verdict, confidence = head.thresholds.decide(score)
        probs = {label: float(v) for label, v in zip(LABELS, p)}
        named = {name: float(v) for name, v in zip(head.feature_names, x)}
    off_topic = bool(analyses) and found.features[FEATURE_NAMES.index("cov_page")] < OFF_TOPIC
    if off_topic:
        verdict, confidence = Verdict.NOT_SUPPORTED, HIGH if head is not None else LOW
    parts = part_verdicts(found)
    weakest = min(parts, key=lambda part: part.score) if len(parts) > 1 else None
    verdict, confidence, score = _ruled(verdict, confidence, score, found, parts, probs, head)
    hinted = any(r.kind == ReasonKind.FIGURE_HINT for _, r in figures)
    if (generic or hinted) and verdict == Verdict.SUPPORTED:
        confidence = LOW
    reasons = _reasons(claim, analyses, at, verdict, [r for _, r in figures],
                       weakest.text if weakest and weakest.verdict != Verdict.SUPPORTED else None,
                       Reason(ReasonKind.QUOTE, sentence=" ".join((evidence_sentence or "").split()),
                              start=evidence_at[0] if evidence_at else -1, end=evidence_at[1] if evidence_at else -1))
    reasons = [Reason(ReasonKind.GENERIC_PAGE)] * bool(generic) + [Reason(ReasonKind.OFF_TOPIC)] * bool(off_topic) + reasons
    return Judgement(score, verdict, confidence, reasons, parts, probs, named,
                     [m.source_start for m in found.mismatches if m.source_start >= 0])


def _reasons(claim: str, analyses, at: PageCheck, verdict: Verdict, figures: list[Reason], weakest: str | None,
             quote: Reason) -> list[Reason]:
    """The verdict's reasons, each statement checked against the page before it is built on
    (a term the page holds in some form is not said to be absent) and the whole once more."""
    absent = check(Reason(ReasonKind.ABSENT, terms=tuple(_unmentioned(claim, analyses))), at)
    part = check(Reason(ReasonKind.PARTIAL, part=weakest), at) if weakest else None
    line = check(quote, at) if quote.sentence else None
    reasons = checked(verdict_reasons(verdict=verdict, absent=list(absent.terms) if absent else [], figures=figures,
                                      weakest_part=part.part if part else None,
                                      evidence_sentence=line.sentence if line else None), at)
    if line is not None:  # the quote keeps where it is on the page
        reasons = [line if r.kind == ReasonKind.QUOTE else r for r in reasons]
    return reasons or verdict_reasons(verdict=verdict, absent=[], figures=[], weakest_part=None, evidence_sentence=None)


def _figures(claim: str, found: ClaimAnalysis, analyses: list[SourceAnalysis], read: Reader | None,
             at: PageCheck) -> list[tuple]:
    """Each figure the page gives otherwise, as the verifier reads it, with its reason (a
    contradiction or a hint), checked against the page: [(mismatch, reason)]."""
    if not found.mismatches:
        return []
    owner = {id(q): a.text for a in analyses for q in a.quantities if a.text}
    if read is not None:
        readings = read_figures(claim, found.mismatches, lambda q: owner.get(id(q)), read)
    else:
        readings = [Reading(m) for m in found.mismatches]
    out = []
    for r in readings:
        m = r.mismatch
        text = owner.get(id(m.source)) if m.source is not None else None
        a, b = sentence_at(text, m.source.start, m.source.end) if text else (-1, -1)
        reason = check(Reason(ReasonKind.FIGURE if r.contradicts else ReasonKind.FIGURE_HINT, claimed=m.claim.text,
                              given=m.source_text, thing=m.thing, sentence=text[a:b] if text else "", start=a, end=b), at)
        if reason is not None:
            out.append((m, reason))
    return out


def _ruled(verdict, confidence: str, score: float, found: ClaimAnalysis, parts: list[PartVerdict],
           probs: dict[str, float], head: VerdictHead | None) -> tuple[Verdict, str, float]:
    """The rules over the head's verdict: a contradicted figure, an unsure failure, a weak part."""
    if found.mismatches:
        # Scored as a failure too: it sorts among the flagged claims by score, and any
        # suggestion that supports the claim outscores it.
        cut = (head.thresholds if head is not None else fallback.THRESHOLDS).supported
        return Verdict.NOT_SUPPORTED, HIGH if head is not None else LOW, min(score, CONTRADICTED_SHARE * cut)
    if unsure_failure(verdict, probs, found.features):
        return Verdict.NOT_SUPPORTED, LOW, score
    if verdict == Verdict.SUPPORTED and min((q.score for q in parts), default=1.0) < PART_FLOOR:
        return Verdict.PARTIALLY_SUPPORTED, LOW, score
    return verdict, confidence, score


def _unmentioned(claim: str, analyses: list[SourceAnalysis]) -> list[str]:
    """What carries the claim that none of the sources mentions (mentions.py)."""
    terms = set().union(*(a.page_terms for a in analyses)) if analyses else set()
    numbers = set().union(*(a.page_numbers for a in analyses)) if analyses else set()
    lower = "\n".join(a.page_lower for a in analyses)
    return unmentioned(claim, terms, [q for a in analyses for q in a.quantities], numbers, lower)


def part_verdicts(found: ClaimAnalysis) -> list[PartVerdict]:
    """Each part with its score; a part holding a contradicted figure is not supported."""
    out = []
    for part, score in zip(found.parts, found.part_scores):
        wrong = any(part.start <= m.claim.start < part.end for m in found.mismatches)
        if wrong or score < PART_NOT_SUPPORTED:
            verdict = Verdict.NOT_SUPPORTED
        else:
            verdict = Verdict.SUPPORTED if score >= PART_SUPPORTED else Verdict.PARTIALLY_SUPPORTED
        out.append(PartVerdict(part.text, part.start, part.end, score, verdict))
    return out

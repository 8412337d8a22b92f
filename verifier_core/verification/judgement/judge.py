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
from verifier_core.verification.judgement.figure_reading import Reader, read_mismatches
from verifier_core.verification.judgement.reasons import GENERIC_PAGE, verdict_reason
from verifier_core.verification.judgement.verdicts import HIGH, LOW
from verifier_core.verification.language.mentions import unmentioned
from verifier_core.verification.model import fallback
from verifier_core.verification.types import LABELS, PartVerdict, Verdict

# Part verdicts: cuts on a part's mean word probability (the word model is balanced, so
# one half is its own even odds). PART_FLOOR: below it the weakest part keeps a claim
# from `supported` (0.0: the rule is off; the head already weighs `part_min`).
PART_SUPPORTED, PART_NOT_SUPPORTED = 0.5, 0.3
PART_FLOOR = 0.0
# A source holding fewer than one in five of the claim's content words is about something
# else: not_supported with high confidence. On WiCE `dev` 5 claims fall below it, all not
# supported (precision 1.0, recall 0.12); the verdict head alone never reaches 0.8 there.
OFF_TOPIC = 0.2
OFF_TOPIC_REASON = "the source does not discuss the claim: it holds few of the claim's words"
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
    reason: str
    parts: list[PartVerdict] = field(default_factory=list)
    probabilities: dict[str, float] = field(default_factory=dict)
    features: dict[str, float] = field(default_factory=dict)
    figures_at: list[int] = field(default_factory=list)  # where the source's contradicting figures are


def head_columns(head: VerdictHead, features: np.ndarray) -> np.ndarray:
    """The features a head was fitted on, by name (older heads read fewer)."""
    index = {name: i for i, name in enumerate(FEATURE_NAMES)}
    return features[[index[name] for name in head.feature_names]]


def judge(claim: str, analyses: list[SourceAnalysis], *, head: VerdictHead | None, word_model: WordModel = UNTRAINED,
          generic: bool = False, evidence_sentence: str | None = None, read: Reader | None = None) -> Judgement:
    """`read` (the cross-encoder, where there is one) must read each contradicted figure as
    the source's own for the claim's thing before it is said (figure_reading.py). The head's
    `num_mismatch` feature stays the figure rules' alone, as it was fitted."""
    found = analyse_claim(claim, analyses, word_model)
    if read is not None and found.mismatches:
        owner = {id(q): a.text for a in analyses for q in a.quantities if a.text}
        found.mismatches = read_mismatches(claim, found.mismatches, lambda q: owner.get(id(q)), read)
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
    if generic and verdict == Verdict.SUPPORTED:
        confidence = LOW
    reason = verdict_reason(
        verdict=verdict, claim=claim, absent=_unmentioned(claim, analyses),
        mismatch_reasons=[m.reason for m in found.mismatches],
        weakest_part=weakest.text if weakest and weakest.verdict != Verdict.SUPPORTED else None,
        evidence_sentence=evidence_sentence)
    if off_topic:
        reason = f"{OFF_TOPIC_REASON}; {reason}"
    if generic:
        reason = f"{GENERIC_PAGE}; {reason}"
    return Judgement(score, verdict, confidence, reason, parts, probs, named,
                     [m.source_start for m in found.mismatches if m.source_start >= 0])


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

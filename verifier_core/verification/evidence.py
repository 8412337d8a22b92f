"""Evidence shown to editors: the best passage and the sentences in it that carry the
support, with offsets into the source text, checked to appear there verbatim.

REVERSUM verifies shown evidence separately from generating it; here the offsets are
re-checked against the source before anything is returned, so a bug in segmentation
can hide evidence but never show text the source does not contain.
"""
from __future__ import annotations

import logging

from verifier_core.verification.lexical import terms
from verifier_core.verification.passages import SourcePassage, Unit
from verifier_core.verification.types import Evidence

log = logging.getLogger(__name__)
MAX_SENTENCES = 3


def select_evidence(text: str, passage: SourcePassage, units: list[Unit], claim: str) -> Evidence | None:
    """Greedy cover of the claim's content words by the passage's sentences."""
    first, last = passage.units
    candidates = list(range(first, last))
    wanted = set(terms(claim))
    unit_terms = {i: set(terms(text[units[i].start : units[i].end])) for i in candidates}
    chosen: list[int] = []
    covered: set[str] = set()
    while len(chosen) < MAX_SENTENCES:
        best = max(candidates, key=lambda i: (len((unit_terms[i] & wanted) - covered), -i), default=None)
        if best is None or not (unit_terms[best] & wanted) - covered:
            break
        chosen.append(best)
        covered |= unit_terms[best] & wanted
        candidates.remove(best)
    if not chosen and last > first:
        chosen = [first]  # nothing shared: show where the passage begins
    spans = [(units[i].start, units[i].end) for i in sorted(chosen)]
    evidence = Evidence(
        passage=text[passage.start : passage.end],
        sentences=[text[a:b] for a, b in spans],
        start=passage.start,
        end=passage.end,
        sentence_spans=spans,
    )
    return evidence if verbatim(text, evidence) else None


def verbatim(text: str, evidence: Evidence) -> bool:
    """The passage and every sentence appear in the source exactly where they claim to."""
    ok = text[evidence.start : evidence.end] == evidence.passage and all(
        evidence.start <= a <= b <= evidence.end and text[a:b] == s and s in evidence.passage
        for s, (a, b) in zip(evidence.sentences, evidence.sentence_spans)
    )
    ok = ok and len(evidence.sentences) == len(evidence.sentence_spans)
    if not ok:
        log.warning("evidence failed the verbatim check; not shown (start=%s end=%s)", evidence.start, evidence.end)
    return ok

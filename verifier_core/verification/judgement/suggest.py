"""When a suggested source is "better than the current citation": the one rule.

SIDE's decision rule, kept in one pure function so that the pipeline, the pages and the
tests cannot drift apart: a suggestion is better only when it itself supports the claim
(verdict `supported`) and outscores the current citation. A claim without a citation
gets suggestions, but none of them is "better" than a citation that does not exist.
"""
from __future__ import annotations

from verifier_core.verification.types import Verdict


def suggestion_is_better(*, current_score: float | None, current_verdict: str | None,
                         suggestion_score: float, suggestion_verdict: str, has_citation: bool) -> bool:
    if not has_citation:
        return False
    if suggestion_verdict != Verdict.SUPPORTED:
        return False
    if current_verdict == Verdict.SOURCE_UNAVAILABLE or current_score is None:
        current_score = 0.0  # a citation that could not be read supports nothing
    return suggestion_score > current_score

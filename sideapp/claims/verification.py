"""Verifying a claim against its cited sources."""
from __future__ import annotations

from dataclasses import dataclass, field

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from sideapp.claims.models import Claim, ClaimCitation
from verifier_core.verification import ClaimInput, Evidence, SourceVerdict, Verdict, get_verifier
from verifier_core.verification.reasons import RULES
from verifier_core.verification.verdicts import HIGH


def verifier():
    return get_verifier(settings.SIDE_VERIFIER_DIR)


NOT_CHECKABLE = ("not checkable on its own: its words make no statement a source could support "
                 "(no sentence, item, cell or field of enough words around them)")


def claim_input(claim: Claim) -> ClaimInput:
    """The statement the claim is checked as (its own words when they stand alone)."""
    return ClaimInput(text=claim.statement, context=claim.context, title=claim.article.title,
                      section=claim.section_path)


def evidence_json(evidence: Evidence | None, **extra) -> dict | None:
    if evidence is None:
        return None
    return {**evidence.to_json(), "sentence_spans": [list(s) for s in evidence.sentence_spans], **extra}


@dataclass
class _Judged:
    verdict: str
    score: float | None
    evidence: dict | None
    reason: str
    confidence: str = ""
    parts: list = field(default_factory=list)


def claim_verify(*, claim: Claim) -> Claim:
    """Score each citation and the claim on the union of their evidence; store all at once.
    A claim that is not checkable on its own gets no verdict, only the reason in words."""
    links = list(claim.claim_citations.select_related("citation__source__document"))
    if not claim.checkable:
        _store(claim, links, {link.pk: _Judged("", None, None, NOT_CHECKABLE) for link in links}, None)
        return claim
    judged, texts = {}, []
    for link in links:
        reason = link.citation.unavailable_reason
        if reason:
            judged[link.pk] = _Judged(Verdict.SOURCE_UNAVAILABLE, None, None, reason, HIGH)
        else:
            texts.append((link, link.citation.source.document.text))
    urls = [link.citation.source.final_url or link.citation.source.url for link, _ in texts]
    result = verifier().score_claim(claim_input(claim), [t for _, t in texts], urls=urls) if texts else None
    if result is not None:
        for (link, _), one in zip(texts, result.sources):
            judged[link.pk] = _from_source(one)
    _store(claim, links, judged, result)
    return claim


def _from_source(one: SourceVerdict) -> _Judged:
    return _Judged(one.verdict, one.score, evidence_json(one.evidence), one.reason or "", one.confidence,
                   [p.to_json() for p in one.parts])


def _claim_outcome(claim: Claim, links, judged, result) -> _Judged:
    if not claim.checkable:
        return _Judged("", None, None, NOT_CHECKABLE)
    if claim.needs_citation or not links:
        return _Judged("", None, None, "needs a source: the claim has no citation")
    if result is None:
        reasons = "; ".join(dict.fromkeys(j.reason for j in judged.values()))
        return _Judged(Verdict.SOURCE_UNAVAILABLE, None, None, reasons, HIGH)
    evidence = evidence_json(result.evidence[0]) if result.evidence else None
    return _Judged(result.verdict, result.score, evidence, result.reason or "", result.confidence,
                   [p.to_json() for p in result.parts])


def _store(claim: Claim, links, judged, result) -> None:
    outcome = _claim_outcome(claim, links, judged, result)
    flagged, needs_look = Claim.flag_rule(verdict=outcome.verdict, confidence=outcome.confidence,
                                          needs_citation=claim.needs_citation or not links,
                                          checkable=claim.checkable)
    with transaction.atomic():
        for link in links:
            j = judged[link.pk]
            ClaimCitation.objects.filter(pk=link.pk).update(
                verdict=j.verdict, score=j.score, evidence=j.evidence, reason=j.reason[:2000],
                confidence=j.confidence, parts=j.parts)
        Claim.objects.filter(pk=claim.pk).update(
            verify_state=Claim.State.DONE, verify_reason=outcome.reason[:2000], verdict=outcome.verdict,
            score=outcome.score, evidence=outcome.evidence, flagged=flagged, verified_at=timezone.now(),
            confidence=outcome.confidence, parts=outcome.parts, needs_look=needs_look,
            method=f"{result.model_version} {RULES}" if result else "",
            # Suggestions wait until the scan's sources are in the corpus (stages dispatches them).
            suggest_state=Claim.State.PENDING if Claim.wants_suggestions(
                verdict=outcome.verdict, flagged=flagged, needs_look=needs_look) else "", suggest_reason="")
    claim.refresh_from_db()

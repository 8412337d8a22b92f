"""Queries behind the editors' pages."""
from __future__ import annotations

from django.db.models import F, Prefetch, QuerySet

from sideapp.models import Claim, ClaimCitation, Suggestion

FILTERS = {
    "flagged": "Flagged",
    "needs_source": "Needs a source",
    "unavailable": "Source unavailable",
    "all": "All verified",
}


def claim_list(*, show: str = "flagged", article: str = "") -> QuerySet[Claim]:
    """Claims of current revisions, the weakest support first (SIDE's triage order)."""
    claims = Claim.objects.filter(article__current_revision__revision_claims__claim=F("pk"))
    if show == "flagged":
        claims = claims.filter(flagged=True)
    elif show == "needs_source":
        claims = claims.filter(needs_citation=True)
    elif show == "unavailable":
        claims = claims.filter(verdict="source_unavailable")
    else:
        claims = claims.exclude(verify_state=Claim.State.PENDING)
    if article:
        claims = claims.filter(article__title__icontains=article)
    return claims.select_related("article").order_by(F("score").asc(nulls_first=True), "pk")


def claim_detail(pk: int) -> Claim:
    links = ClaimCitation.objects.select_related("citation__source")
    return (Claim.objects.select_related("article__wiki")
            .prefetch_related(Prefetch("claim_citations", queryset=links),
                              Prefetch("suggestions", queryset=Suggestion.objects.order_by("rank")))
            .get(pk=pk))


def evidence_parts(evidence: dict | None) -> list[tuple[str, bool]]:
    """The evidence passage cut into (text, is_support) pieces, so that a template can
    highlight the supporting sentences with plain auto-escaped text (never |safe)."""
    if not evidence or not evidence.get("passage"):
        return []
    passage = evidence["passage"]
    base = evidence.get("start", 0)  # offsets are into the source text; the passage starts here
    spans = sorted((s - base, e - base) for s, e in evidence.get("sentence_spans") or []
                   if 0 <= s - base <= e - base <= len(passage))
    parts, at = [], 0
    for start, end in spans:
        if start < at:
            continue
        parts += [(passage[at:start], False), (passage[start:end], True)]
        at = end
    parts.append((passage[at:], False))
    return [(text, mark) for text, mark in parts if text]

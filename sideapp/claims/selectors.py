"""Reads of claims: the editors' list and claim page, and the plain-dict reports of
`scan_article --json`."""
from __future__ import annotations

from django.db.models import F, Prefetch, QuerySet

from sideapp.claims.models import Claim, ClaimCitation, Suggestion
from sideapp.scans.models import Article, Revision, ScanItem
from verifier_core.verification import Verdict

FILTERS = {
    "flagged": "Flagged",
    "needs_look": "Needs a look",
    "needs_source": "Needs a source",
    "unavailable": "Source unavailable",
    "all": "All verified",
}


def claim_list(*, show: str = "flagged", article: str = "") -> QuerySet[Claim]:
    """Claims of current revisions, the weakest support first (SIDE's triage order)."""
    claims = Claim.objects.filter(article__current_revision__revision_claims__claim=F("pk"))
    if show == "flagged":
        claims = claims.filter(flagged=True)
    elif show == "needs_look":
        claims = claims.filter(needs_look=True)
    elif show == "needs_source":
        claims = claims.filter(needs_citation=True)
    elif show == "unavailable":
        claims = claims.filter(verdict=Verdict.SOURCE_UNAVAILABLE)
    else:
        claims = claims.exclude(verify_state=Claim.State.PENDING)
    if article:
        claims = claims.filter(article__title__icontains=article)
    return claims.select_related("article").order_by(F("score").asc(nulls_first=True), "pk")


def claim_counts() -> dict[str, int]:
    """How much the app knows: scanned articles and claims."""
    return {"article_count": Article.objects.exclude(current_revision=None).count(),
            "claim_count": Claim.objects.count()}


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

def _citation_dict(link: ClaimCitation) -> dict:
    citation, source = link.citation, link.citation.source
    return {
        "ref_name": citation.ref_name or None,
        "url": citation.url or None,
        "title": citation.title or None,
        "template": citation.template or None,
        "flags": list(citation.flags),
        "source_status": source.status if source else None,
        "verdict": link.verdict or None,
        "score": link.score,
        "evidence": link.evidence,
        "reason": link.reason or None,
        "confidence": link.confidence or None,
        "parts": link.parts,
    }


def _suggestion_dict(suggestion: Suggestion) -> dict:
    return {"url": suggestion.url, "title": suggestion.title or None, "score": suggestion.score,
            "verdict": suggestion.verdict or None, "better": suggestion.beats_current,
            "evidence": suggestion.evidence}


def revision_claims(revision: Revision) -> list[dict]:
    links = Prefetch("claim__claim_citations",
                     queryset=ClaimCitation.objects.select_related("citation__source"))
    rows = revision.revision_claims.select_related("claim").prefetch_related(links, "claim__suggestions")
    return [_claim_dict(rc.claim) for rc in rows]


def _claim_dict(claim: Claim) -> dict:
    return {
        "id": claim.pk,
        "text": claim.text,
        "context": claim.context,
        "section": claim.section_path,
        "needs_citation": claim.needs_citation,
        "tags": list(claim.tags),
        "citations": [_citation_dict(link) for link in claim.claim_citations.all()],
        "verdict": claim.verdict or None,
        "score": claim.score,
        "confidence": claim.confidence or None,
        "flagged": claim.flagged,
        "needs_look": claim.needs_look,
        "reason": claim.verify_reason or None,
        "parts": claim.parts,
        "evidence": claim.evidence,
        "suggestions": [_suggestion_dict(s) for s in claim.suggestions.all()],
    }


def scan_item_report(item: ScanItem) -> dict:
    """One article's result: the contract of `scan_article --json`, plus status and reason."""
    revision = item.revision
    return {
        "title": item.article.title if item.article else item.title,
        "revision": revision.rev_id if revision else None,
        "status": item.status,
        "reason": item.reason or None,
        "claims": revision_claims(revision) if revision else [],
    }

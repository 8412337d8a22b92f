"""Plain-dict reports of claims: the contract of `scan_article --json`."""
from __future__ import annotations

from django.db.models import Prefetch

from sideapp.claims.models import Claim, ClaimCitation, Suggestion
from sideapp.claims.reasons import reason_words
from sideapp.scans.models import Revision, ScanItem


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
        "reason": reason_words(link.reasons, link.reason) or None,
        "reasons": list(link.reasons or []),
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
    # "checked" only where the statement verified differs from the cited words.
    checked = {"checked": claim.checked} if claim.checked else {}
    return {
        "id": claim.pk,
        "text": claim.text,
        **checked,
        "checkable": claim.checkable,
        "context": claim.context,
        "section": claim.section_path,
        "needs_citation": claim.needs_citation,
        "tags": list(claim.tags),
        "citations": [_citation_dict(link) for link in claim.claim_citations.all()],
        "verdict": claim.verdict or None,
        "score": claim.score,
        "flagged": claim.flagged,
        "reason": reason_words(claim.reasons, claim.verify_reason) or None,
        "reasons": list(claim.reasons or []),
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

"""The claim page in editors' words: verdicts with a one-line reason, fetch status as a
sentence, why each suggestion ranks where it does, links into the wiki. No scores as the
message (they go to a tooltip), no internal names (they go to a details toggle)."""
from __future__ import annotations

from dataclasses import dataclass

from sideapp.claims.models import Claim, ClaimReview
from sideapp.claims.offers import ClaimOffers, claim_offers
from sideapp.claims.selectors import evidence_parts
from verifier_core.verification import Verdict

_DEFAULT_REASONS = {
    Verdict.SUPPORTED: "a passage of the source states it",
    Verdict.PARTIALLY_SUPPORTED: "the source backs part of it, not all",
    Verdict.NOT_SUPPORTED: "no passage of the source states it",
    Verdict.SOURCE_UNAVAILABLE: "the source could not be read",
}


def verdict_reason(verdict: str, reason: str = "") -> str:
    """The one-line reason shown under a verdict: the verifier's own when it gave one."""
    return reason.strip() or _DEFAULT_REASONS.get(verdict, "")


def verdict_words(claim: Claim) -> str:
    """What the page says the claim's state is."""
    if claim.needs_citation:
        return "needs a source"
    if claim.verdict:
        return Verdict(claim.verdict).label
    if claim.verify_state == Claim.State.FAILED:
        return "could not be checked"
    return "not checked yet"


@dataclass
class Evidence:
    parts: list[tuple[str, bool]]
    supports: bool  # styled as support, or as "closest passage found"


def _evidence(verdict: str, raw: dict | None) -> Evidence:
    return Evidence(evidence_parts(raw), verdict in (Verdict.SUPPORTED, Verdict.PARTIALLY_SUPPORTED))


def claim_page(claim: Claim, user) -> dict:
    links = list(claim.claim_citations.all())
    citation_passages = {(link.evidence or {}).get("passage") for link in links}
    own = claim.evidence if (claim.evidence or {}).get("passage") not in citation_passages else None
    reviews = list(claim.reviews.all())
    wiki, title = claim.article.wiki, claim.article.title
    current = claim.article.current_revision
    offers = claim_offers(claim)
    return {
        "claim": claim,
        "state": verdict_words(claim),
        "reason": verdict_reason(claim.verdict, claim.verify_reason) if claim.verdict else claim.verify_reason,
        "evidence": _evidence(claim.verdict, own),
        "citations": [{"link": link, "citation": link.citation, "source": link.citation.source,
                       "reason": verdict_reason(link.verdict, link.reason) if link.verdict else "",
                       "evidence": _evidence(link.verdict, link.evidence)} for link in links],
        "suggestions": [_suggestion(s, claim, user, offers) for s in claim.suggestions.all()],
        "tag_offer": offers.tag,
        "is_current": claim.current,
        "edit_url": wiki.page_url(title, action="edit", section=claim.section_number),
        "page_url": wiki.page_url(title, oldid=current.rev_id) if current else wiki.page_url(title),
        "flag_reviews": [r for r in reviews if r.suggestion_id is None],
        "my_review": next((r for r in reviews if r.suggestion_id is None and r.user_id == user.pk), None),
        "flag_reasons": [(r.value, r.label) for r in ClaimReview.FLAG_REASONS
                         if links or r != ClaimReview.Reason.SOURCE_SUPPORTS],
        "suggestion_reasons": [(r.value, r.label) for r in ClaimReview.SUGGESTION_REASONS],
    }


def _suggestion(suggestion, claim: Claim, user, offers: ClaimOffers) -> dict:
    mine = next((r for r in claim.reviews.all() if r.suggestion_id == suggestion.pk and r.user_id == user.pk),
                None)
    dismissed = sum(1 for r in claim.reviews.all() if r.suggestion_id == suggestion.pk)
    actions = offers.by_suggestion[suggestion.pk]
    return {"suggestion": suggestion, "why": _why(suggestion, claim), "mine": mine, "dismissed": dismissed,
            "evidence": _evidence(suggestion.verdict, suggestion.evidence),
            "add": actions["add"], "replace": actions["replace"]}


def _why(suggestion, claim: Claim) -> str:
    """Why a suggestion sits where it does: the verifier reranks retrieved pages by how
    well their best passage supports the claim."""
    said = f"ranked {suggestion.rank} of the pages found, by how well its best passage supports the claim"
    if claim.needs_citation or not claim.claim_citations.all():
        return said + "; the claim has no citation to compare with"
    if suggestion.beats_current:
        return said + "; it supports the claim and outscores the current citation"
    return said + "; it does not beat the current citation"

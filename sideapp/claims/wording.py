"""The claim page in editors' words: verdicts with a one-line reason, fetch status as a
sentence, why each suggestion ranks where it does, links into the wiki. No scores as the
message (they go to a tooltip), no internal names (they go to a details toggle)."""
from __future__ import annotations

from dataclasses import dataclass

from sideapp.claims.places import cited_fields, current_places
from sideapp.claims.models import Claim, ClaimCitation, ClaimReview
from sideapp.claims.offers import ClaimOffers, claim_offers
from sideapp.claims.reasons import reason_words
from sideapp.claims.selectors import evidence_parts
from sideapp.scans.wikis import saving_off_reason
from verifier_core.verification import Verdict


def verdict_reason(verdict: str, reason: str = "", reasons: list | None = None) -> str:
    """The one-line reason shown under a verdict: the verifier's own when it gave one, put in
    words from its data (`reasons`; the stored words for rows judged before they were kept)."""
    known = Verdict.of(verdict)
    return reason_words(reasons, reason).strip() or (known.default_reason if known else "")


def verdict_words(claim: Claim) -> str:
    """What the page says the claim's state is."""
    if not claim.checkable:
        return "not checkable on its own"
    if claim.needs_citation:
        return "needs a source"
    if claim.verdict:
        return Verdict(claim.verdict).label
    if claim.verify_state == Claim.State.FAILED:
        return "could not be checked"
    return "not checked yet"


def quote_of(evidence: dict | None) -> str:
    """The line quoted as saying it, verbatim from the source ("" when there is none); evidence
    stored before the parts had their own lines has it first among its sentences."""
    if "quote" in (evidence or {}):
        return str(evidence["quote"]).strip()
    sentences = (evidence or {}).get("sentences") or []
    return str(sentences[0]).strip() if sentences else ""


def part_lines(parts: list[dict] | None) -> list[dict]:
    """Each part of a claim in words, with the source's sentences that hold it ([] when none,
    or for a part judged before parts had their own lines)."""
    return [{"text": str(p.get("text") or ""), "verdict": p.get("verdict") or None,
             "verdict_words": Verdict.words(p["verdict"]) if p.get("verdict") else "",
             "sentences": [str(s) for s in (p.get("evidence") or {}).get("sentences") or []]}
            for p in parts or [] if isinstance(p, dict)]


def cited_words(link: ClaimCitation, place: dict | None = None) -> dict:
    """One citation of a claim with its own judgement (never the claim's): its name, link,
    verdict in words, confidence, reason and quote from its own source; named as the
    claim's own ref names it (`place`, sideapp.claims.places) where that is known."""
    citation = link.citation
    cited = cited_fields(citation, place)
    return {"title": cited["title"] or cited["url"] or citation.raw[:120], "url": cited["url"] or cited["archive_url"],
            "verdict": link.verdict, "confidence": link.confidence,
            "verdict_words": Verdict.words(link.verdict) if link.verdict else "not checked yet",
            "reason": verdict_reason(link.verdict, link.reason, link.reasons) if link.verdict else link.reason,
            "quote": quote_of(link.evidence)}


def found_better(claim: Claim, suggestions) -> bool:
    """Whether a suggestion supports the claim (and, where it has a citation, outscores it):
    only such a page is offered as "a better source" or "a source found"."""
    if claim.needs_citation or not claim.claim_citations.all():
        return any(s.verdict == Verdict.SUPPORTED for s in suggestions)
    return any(s.beats_current for s in suggestions)


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
    suggestions = list(claim.suggestions.all())
    places = current_places(claim)
    return {
        "claim": claim,
        "state": verdict_words(claim),
        "reason": verdict_reason(claim.verdict, claim.verify_reason, claim.reasons) if claim.verdict else claim.verify_reason,
        "evidence": _evidence(claim.verdict, own),
        "parts": part_lines(claim.parts),
        "citations": [{"link": link, "citation": link.citation, "source": link.citation.source,
                       "cited": cited_fields(link.citation, places.get(link.citation_id)),
                       "reason": verdict_reason(link.verdict, link.reason, link.reasons) if link.verdict else "",
                       "evidence": _evidence(link.verdict, link.evidence),
                       "parts": part_lines(link.parts) if len(links) > 1 else []} for link in links],
        # Pages that support the claim first; those that do not after them, under their own
        # heading; the ones this editor dismissed last, folded: what is still to judge comes first.
        "suggestions": sorted((_suggestion(s, claim, user, offers) for s in suggestions),
                              key=lambda item: (item["mine"] is not None, not item["supports"])),
        "no_better": claim.suggest_state == Claim.State.DONE and not found_better(claim, suggestions),
        "tag_offer": offers.tag,
        "archive_offer": offers.archive,
        "correct_offer": offers.correct,
        "is_current": claim.current,
        "saving_off": saving_off_reason(wiki),
        "edit_url": wiki.page_url(title, action="edit", section=claim.section_number),
        "page_url": wiki.page_url(title, oldid=current.rev_id) if current else wiki.page_url(title),
        # Other editors' judgements of the flag; this editor's own is said once, as `my_review`.
        "flag_reviews": [r for r in reviews if r.suggestion_id is None and r.user_id != user.pk],
        "my_review": next((r for r in reviews if r.suggestion_id is None and r.user_id == user.pk), None),
        "flag_reasons": [(r.value, r.label) for r in ClaimReview.FLAG_REASONS
                         if links or r != ClaimReview.Reason.SOURCE_SUPPORTS],
        "suggestion_reasons": [(r.value, r.label) for r in ClaimReview.SUGGESTION_REASONS],
    }


def _suggestion(suggestion, claim: Claim, user, offers: ClaimOffers) -> dict:
    reviews = [r for r in claim.reviews.all() if r.suggestion_id == suggestion.pk]
    mine = next((r for r in reviews if r.user_id == user.pk), None)
    actions = offers.by_suggestion[suggestion.pk]
    return {"suggestion": suggestion, "why": _why(suggestion, claim), "mine": mine, "dismissed": len(reviews),
            "supports": suggestion.verdict == Verdict.SUPPORTED,
            "others": [r for r in reviews if r is not mine],
            "evidence": _evidence(suggestion.verdict, suggestion.evidence),
            "add": actions["add"], "replace": actions["replace"]}


def _why(suggestion, claim: Claim) -> str:
    """Why a suggestion sits where it does: the verifier reranks retrieved pages by how
    well their best passage supports the claim."""
    said = f"ranked {suggestion.rank} of the pages found, by how well its best passage supports the claim"
    if suggestion.verdict != Verdict.SUPPORTED:
        return said + "; the verifier does not find the claim in it, so it is not offered"
    if claim.needs_citation or not claim.claim_citations.all():
        return said + "; the claim has no citation to compare with"
    if suggestion.beats_current:
        return said + "; it supports the claim and outscores the current citation"
    return said + "; it does not beat the current citation"

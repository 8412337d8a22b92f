"""The public answers in JSON: a page's findings (the gadget) and Edit Check's cards.

Plain dicts from rows already read (sideapp.api.selectors) and the claims' places in the
rendered page (sideapp.api.targets); no queries here.
"""
from __future__ import annotations

from typing import Callable

from sideapp.api.actions import card_actions
from sideapp.claims.models import Claim, ClaimCitation
from sideapp.claims.wording import verdict_reason, verdict_words
from sideapp.scans.models import Article


def quote_of(evidence: dict | None) -> str:
    """The evidence sentence, verbatim from the source ("" when there is none)."""
    sentences = (evidence or {}).get("sentences") or []
    return str(sentences[0]).strip() if sentences else ""


def page_findings(*, article: Article, claims: list[Claim], targets: dict[int, dict],
                  claim_url: Callable[[int], str]) -> dict:
    """The page's findings; the caller adds `stale` and `scan`, which change by the request."""
    revision = article.current_revision
    return {
        "wiki_id": article.wiki.wikiid, "page_id": article.page_id, "title": article.title,
        "revision": revision.rev_id, "scanned_at": revision.scanned_at.isoformat(),
        "claims": [claim_finding(c, targets.get(c.pk), claim_url(c.pk)) for c in claims],
    }


def claim_finding(claim: Claim, target: dict | None, url: str) -> dict:
    links = list(claim.claim_citations.all())
    return {
        "id": claim.pk, "text": claim.text,
        "target": target["text"] if target else None,
        "after": target["after"] if target else None,  # id of the footnote marker the claim ends at
        "section": claim.section_path, "verdict": claim.verdict or None, "verdict_words": verdict_words(claim),
        "confidence": claim.confidence or None, "needs_citation": claim.needs_citation,
        "reason": verdict_reason(claim.verdict, claim.verify_reason) if claim.verdict else claim.verify_reason,
        "score": claim.score, "quote": quote_of(claim.evidence),
        "citations": [_citation(link) for link in links],
        "suggestions": [{"id": s.pk, "url": s.url, "title": s.title, "quote": quote_of(s.evidence),
                         "better": s.beats_current, "verdict": s.verdict or None}
                        for s in claim.suggestions.all()],
        "actions": card_actions(claim), "url": url,
    }


def _citation(link: ClaimCitation) -> dict:
    citation = link.citation
    return {"url": citation.url or citation.archive_url, "ref_name": citation.ref_name, "title": citation.title,
            "verdict": link.verdict or None,
            "reason": verdict_reason(link.verdict, link.reason) if link.verdict else link.reason,
            "quote": quote_of(link.evidence)}


def edit_check_cards(links: list[ClaimCitation], targets: dict[int, dict]) -> list[dict]:
    """MediaWiki Edit Check's source-verification contract: one card per failing citation
    whose claim is found in the rendered page, the target followed there by exactly `url`."""
    cards = []
    for link in links:
        target = targets.get(link.claim_id)
        if target is None:
            continue
        citation = link.citation
        cards.append({
            "suggestion_id": f"side-{link.claim_id}-{citation.pk}",
            "target": target["text"],
            "url": [u for u in target["urls"] if u],
            "title": citation.title or citation.url,
            "quote": quote_of(link.evidence),
            "comments": verdict_reason(link.verdict, link.reason),
        })
    return cards

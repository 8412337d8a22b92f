"""The public answers in JSON: a page's findings (the gadget) and Edit Check's cards.

Plain dicts from rows already read (sideapp.api.selectors) and the claims' places in the
rendered page (sideapp.api.targets); no queries here.
"""
from __future__ import annotations

from typing import Callable

from sideapp.api.actions import card_actions
from sideapp.claims.models import Claim, ClaimCitation, ClaimReview
from sideapp.claims.places import cited_fields, current_places
from sideapp.claims.wording import part_lines, quote_of, verdict_reason, verdict_words
from sideapp.scans.models import Article
from sideapp.templatetags.side import claim_reason
from verifier_core.verification import Verdict


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
    places = current_places(claim)  # read with the claims (sideapp.api.selectors.finding_claims)
    return {
        "id": claim.pk, "text": claim.text,
        "target": target["text"] if target else None,
        "after": target["after"] if target else None,  # id of the footnote marker the claim ends at
        "section": claim.section_path, "verdict": claim.verdict or None, "verdict_words": verdict_words(claim),
        "confidence": claim.confidence or None, "needs_citation": claim.needs_citation,
        "reason": claim_reason(claim) or claim.verify_reason,
        "score": claim.score, "quote": quote_of(claim.evidence), "parts": _parts(claim.parts),
        "citations": [_citation(link, places.get(link.citation_id)) for link in links],
        "suggestions": [{"id": s.pk, "url": s.url, "title": s.title, "quote": quote_of(s.evidence),
                         "better": s.beats_current, "verdict": s.verdict or None}
                        for s in claim.suggestions.all()],
        "actions": card_actions(claim), "url": url, "editors": editors_said(claim),
    }


def editors_said(claim: Claim) -> dict:
    """What editors judged of the claim's flag on Side editor (their standing judgements,
    prefetched): how many verified it by hand, how many dismissed the flag and how many of
    those said its source does support it."""
    reviews = [r for r in claim.reviews.all() if r.suggestion_id is None]
    dismissed = [r for r in reviews if r.kind == ClaimReview.Kind.DISMISSED]
    return {"verified": sum(r.kind == ClaimReview.Kind.VERIFIED for r in reviews), "dismissed": len(dismissed),
            "source_supports": sum(r.reason == ClaimReview.Reason.SOURCE_SUPPORTS for r in dismissed)}


def _citation(link: ClaimCitation, place: dict | None = None) -> dict:
    """A citation with its own judgement, from its own source (never the claim's), named as
    the claim's own ref names it (`place`: a page cited twice is two refs)."""
    cited = cited_fields(link.citation, place)
    return {"url": cited["url"] or cited["archive_url"], "ref_name": cited["ref_name"] or place and place.get("name") or "",
            "title": cited["title"], "written": cited["written"], "tags": cited["tags"],
            "verdict": link.verdict or None, "confidence": link.confidence or None,
            "reason": verdict_reason(link.verdict, link.reason, link.reasons) if link.verdict else link.reason,
            "reasons": list(link.reasons or []), "quote": quote_of(link.evidence), "parts": _parts(link.parts),
            **archive_state(link)}


def _parts(parts: list[dict] | None) -> list[dict]:
    """Each part with its verdict and the source's sentences that hold it (`sentences`)."""
    return [{"text": p["text"], "verdict": p["verdict"], "sentences": p["sentences"]} for p in part_lines(parts)]


def archive_state(link: ClaimCitation) -> dict:
    """What became of the cited page and which copy the verdict read (docs/archives.md)."""
    copy = link.copy or {}
    archived = {"url": copy["url"], "timestamp": copy.get("timestamp", ""), "words": copy.get("words", "")} \
        if copy.get("read") in ("copy", "citation_archive") and copy.get("url") else None
    return {"page_state": link.page_state or None, "read": copy.get("words") or None, "archive": archived}


def edit_check_cards(links: list[ClaimCitation], targets: dict[int, dict]) -> list[dict]:
    """MediaWiki Edit Check's source-verification contract: one card per failing citation
    whose claim is found in the rendered page, the target followed there by exactly `url`;
    none for a claim its citations support together (another source carries it)."""
    cards = []
    for link in links:
        target = targets.get(link.claim_id)
        if target is None or link.claim.verdict == Verdict.SUPPORTED:
            continue
        citation = link.citation
        cited = cited_fields(citation, current_places(link.claim).get(citation.pk))  # the claim's own ref
        cards.append({
            "suggestion_id": f"side-{link.claim_id}-{citation.pk}",
            "target": target["text"],
            "url": [u for u in target["urls"] if u],
            "title": cited["title"] or cited["url"],
            "quote": quote_of(link.evidence),
            "comments": verdict_reason(link.verdict, link.reason, link.reasons),
            **archive_state(link),
        })
    return cards

"""A proposed change as data, for a wiki user's own browser to save: the same change as
today's apply and tag pages (sideapp.edits.services.edit_propose), cut to its section."""
from __future__ import annotations

from datetime import timezone

from sideapp.api.actions import card_offer
from sideapp.api.http import ApiError
from sideapp.claims.models import Claim, Suggestion
from sideapp.edits.services import ADD, REPLACE, TAG, EditUnavailable, edit_propose
from verifier_core.wikitext.sections import section_change

ACTIONS = (TAG, ADD, REPLACE)


def claim_proposal(*, claim: Claim, action: str, suggestion: Suggestion | None) -> dict:
    """{title, section, base_revision, base_timestamp, text, old_text, summary, diff}; an
    ApiError in words when the card does not offer this action or it cannot be built."""
    if not claim.current:
        raise ApiError(409, "This claim is not in the article's current scanned revision; "
                            "reload the page to see Side editor's findings for it.", code="not_current")
    offer = card_offer(claim, action=action, suggestion=suggestion)
    if not offer.offered or offer.refresh:
        raise ApiError(409, f"Side editor does not offer “{action}” for this claim: "
                            f"{offer.why_not or 'its suggested page must be read again first'}",
                       code="not_offered")
    try:
        proposal = edit_propose(claim=claim, mode=action, suggestion=suggestion)
    except EditUnavailable as exc:
        raise ApiError(409, str(exc), code="unavailable") from exc
    revision = claim.article.current_revision
    section = section_change(proposal.change.old, proposal.change.new, claim.section_number)
    stamp = revision.timestamp
    return {
        "claim": claim.pk, "action": action, "title": proposal.title, "section": section.number,
        "base_revision": proposal.base_rev_id,
        "base_timestamp": stamp.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ") if stamp else None,
        "text": section.new, "old_text": section.old, "summary": proposal.summary, "diff": proposal.diff,
    }

"""A proposed change as data, for a wiki user's own browser to save: the same change as
today's apply and tag pages (sideapp.edits.services.edit_propose), cut to its section."""
from __future__ import annotations

from datetime import timezone

from sideapp.api.actions import card_offer
from sideapp.api.diffs import diff_json
from sideapp.api.http import ApiError
from sideapp.claims.models import Claim, Suggestion
from sideapp.edits.services import ADD, ARCHIVE, CORRECT, REPLACE, TAG, EditProposal, EditUnavailable, edit_propose

ACTIONS = (TAG, ADD, REPLACE, ARCHIVE, CORRECT)


def claim_proposal(*, claim: Claim, action: str, suggestion: Suggestion | None) -> dict:
    """{title, section, base_revision, base_timestamp, text, old_text, summary, diff, ...}
    (`proposal_data`); an ApiError in words when the card does not offer this action or it
    cannot be built."""
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
    return {"claim": claim.pk, "action": action, **proposal_data(proposal),
            "diff_lines": diff_json(proposal.section.old, proposal.section.new, title=proposal.title)}


def proposal_data(proposal: EditProposal) -> dict:
    """The proposal as data (the API's and `propose_edit`'s shared fields): the section's
    wikitext before (`old_text`) and after (`text`), the occurrence it acts on in
    `old_text` (`target_ref`), the revision it is built on and the token its save takes."""
    stamp = proposal.base.timestamp
    return {
        "claim_id": proposal.claim.pk, "title": proposal.title, "section": proposal.section.number,
        "section_name": proposal.section_name, "base_revision": proposal.base_rev_id,
        "base_timestamp": stamp.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ") if stamp else None,
        "checked_revision": proposal.claim.article.current_revision.rev_id,
        "old_text": proposal.section.old, "text": proposal.section.new, "summary": proposal.summary,
        "diff": proposal.diff, "target_ref": proposal.target_in_section(), "token": proposal.token,
    }

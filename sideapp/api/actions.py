"""Which actions a card on the article page offers for a claim: the app's one offer rule
(sideapp.claims.offers), as the public API says it."""
from __future__ import annotations

from sideapp.claims.models import Claim, Suggestion
from sideapp.claims.offers import ADD, ARCHIVE, CORRECT, REPLACE, TAG, Offer, claim_offers, offer_for


def card_actions(claim: Claim) -> list[dict]:
    """[{"action": "tag"}, {"action": "correct", ...}, {"action": "add" | "replace", "suggestion": pk}]
    for a claim of its article's current revision: the tag and the figure's correction where
    they are offered, and add / replace with the
    best suggestion that may be offered now (a page that must be read again first is not
    offered from the card; the claim's page in Side editor reads it). Reads the claim's
    prefetched citations and suggestions with their sources."""
    if not claim.current:
        return []
    offers = claim_offers(claim)
    actions: list[dict] = [{"action": TAG}] if offers.tag.offered else []
    if offers.archive is not None and offers.archive.offered:  # the copy as cited, or {{dead link}}
        copy = offers.archive.link.copy or {}
        actions.append({"action": ARCHIVE, "kind": "archive_link" if copy.get("url") else "dead_link",
                        "copy": copy.get("words", ""), "url": copy.get("url", "")})
    if offers.correct is not None and offers.correct.offered:  # the figure its failing source gives
        claimed, given = offers.correct.figures
        actions.append({"action": CORRECT, "claim_figure": claimed, "source_figure": given})
    for pk, by_action in offers.by_suggestion.items():  # by rank
        if by_action[ADD].offered or by_action[REPLACE].offered:
            actions += [{"action": a, "suggestion": pk} for a in (ADD, REPLACE) if by_action[a].offered]
            break
    return actions


def card_offer(claim: Claim, *, action: str, suggestion: Suggestion | None) -> Offer:
    """Whether the card offers `action` (with `suggestion`), and why not in words."""
    if action != TAG and suggestion is not None:
        offered = {(a["action"], a.get("suggestion")) for a in card_actions(claim)}
        if (action, suggestion.pk) not in offered:
            decision = offer_for(claim, action, suggestion)
            return Offer(action, False, decision.why_not or "Side editor offers another suggestion first.")
    return offer_for(claim, action, suggestion)

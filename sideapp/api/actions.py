"""Which actions a card on the article page offers for a claim.

THE SEAM: branch edits24 writes the one shared rule deciding which actions are offered for
a claim, a citation and a suggestion. Until it lands, `card_actions` below is that rule for
the public API; on merge it becomes a call to the shared one. The proposal endpoint refuses
any action this function does not offer.
"""
from __future__ import annotations

from sideapp.claims.models import Claim, Suggestion
from sideapp.edits.selectors import failing_link
from sideapp.edits.services import ADD, REPLACE, TAG
from sideapp.sources.models import Source
from verifier_core.verification import Verdict
from verifier_core.verification.verdicts import HIGH


def card_actions(claim: Claim) -> list[dict]:
    """[{"action": "tag"}, {"action": "add" | "replace", "suggestion": pk}] for a claim of
    its article's current revision: tag only a read source judged not_supported with high
    confidence and not tagged yet; replace only a failing citation; add or replace only with
    a supporting suggestion that beats the citation (any supporting one for a claim with no
    citation) and is not cited already. Reads the claim's prefetched citations and suggestions."""
    if not claim.current:
        return []
    offered: list[dict] = []
    link = failing_link(claim)
    failing = link is not None and link.verdict == Verdict.NOT_SUPPORTED
    source = link.citation.source if link is not None else None
    if (failing and link.confidence == HIGH and source is not None and source.status == Source.Status.OK
            and "failed verification" not in claim.tags):
        offered.append({"action": TAG})
    best = _best_suggestion(claim)
    if best is not None:
        offered.append({"action": ADD, "suggestion": best.pk})
        if failing and link.citation.kind != "sfn":
            offered.append({"action": REPLACE, "suggestion": best.pk})
    return offered


def _best_suggestion(claim: Claim) -> Suggestion | None:
    links = list(claim.claim_citations.all())
    cited = {link.citation.url for link in links if link.citation.url}
    has_citation = bool(links)
    for suggestion in claim.suggestions.all():  # by rank
        if (suggestion.verdict == Verdict.SUPPORTED and suggestion.url not in cited
                and (suggestion.beats_current or not has_citation)):
            return suggestion
    return None


def offers(claim: Claim, *, action: str, suggestion: int | None) -> bool:
    """Whether the card offers `action` (with `suggestion`) for this claim."""
    return any(o["action"] == action and o.get("suggestion") == suggestion for o in card_actions(claim))

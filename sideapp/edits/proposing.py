"""Proposals for any scanned claim, offered or not: what `propose_edit` prints for bots,
audits and evaluations.

The same change as the pages and the API build (sideapp.edits.services.proposal_on), on
the wiki's current revision (read once per article), at the claim's own citation; the offer
rule only says whether Side editor would offer it (`offered`, `why`). Nothing is saved.
"""
from __future__ import annotations

from collections.abc import Iterator

from django.utils import timezone

from sideapp.claims import offers
from sideapp.claims.models import Claim, ClaimCitation, Suggestion
from sideapp.edits.locating import BaseText, base_read
from sideapp.claims.reasons import figures
from sideapp.edits.services import (
    ADD,
    ARCHIVE,
    CORRECT,
    REPLACE,
    TAG,
    EditUnavailable,
    offer_change,
    proposal_on,
    source_change,
)
from sideapp.sources.models import Source
from verifier_core.fetch import normalise_url
from verifier_core.wikitext.edits import NewSource, tag_failed_verification

ACTIONS = (TAG, ADD, REPLACE, CORRECT, ARCHIVE)


def claims_proposed(claims: list[Claim], *, action: str, url: str = "") -> Iterator[dict]:
    """One answer per claim, in order: the proposal as data, or {"claim_id", "error"}."""
    from sideapp.api.proposals import proposal_data

    bases: dict[int, BaseText] = {}
    for claim in claims:
        try:
            base = bases.get(claim.article_id) or bases.setdefault(claim.article_id, base_read(claim.article))
            proposal, offered, why = _proposal(claim, action, url, base)
        except EditUnavailable as exc:
            yield {"claim_id": claim.pk, "error": str(exc)}
            continue
        data = proposal_data(proposal)
        yield {**data, "action": action, "offered": offered, "why": why, "live": base.live,
               **({"note": base.note} if base.note else {})}


def _proposal(claim: Claim, action: str, url: str, base: BaseText):
    links = list(claim.claim_citations.all())
    if claim.article.current_revision is None:
        raise EditUnavailable("The claim's article has not been scanned.")
    if action in (TAG, REPLACE, CORRECT, ARCHIVE) and not links:
        raise EditUnavailable(f"The claim has no citation to {_VERB[action]}.")
    if action in (CORRECT, ARCHIVE):
        return _own_action(claim, action, links, base)
    suggestion = _suggestion(claim, url)
    if action != TAG and suggestion is None and not url:
        raise EditUnavailable("No --url was given and Side editor found no source to suggest for this claim.")
    offer = offers.offer_for(claim, action, suggestion)
    link = offer.link or (_weakest(links) if links else None)  # an add needs no cited link
    today = timezone.localdate()
    if action == TAG:
        change_of = lambda here: tag_failed_verification(here.wikitext, target=here.target(link), when=today)  # noqa: E731
    else:
        source = _new_source(url or suggestion.url, suggestion, today)
        change_of = lambda here: source_change(here, action, source, link=link)  # noqa: E731
    proposal = proposal_on(claim=claim, mode=action, base=base, change_of=change_of, suggestion=suggestion)
    why = offer.why_not if not offer.offered else ""
    if url and suggestion is None:
        why = "a source given by hand: Side editor offers only the sources it suggests and checked"
    return proposal, offer.offered and not (url and suggestion is None), why


_VERB = {TAG: "tag", REPLACE: "replace", CORRECT: "correct a figure against",
         ARCHIVE: "add an archived copy (or {{dead link}}) to"}


def _own_action(claim: Claim, action: str, links: list[ClaimCitation], base: BaseText):
    """A figure's correction or an archive edit, as the pages build it, offered or not: on the
    citation the offer rule names, else on one the change can be built for (a citation whose
    source gives another figure; one whose archived copy was read)."""
    offer = offers.offer_for(claim, action)
    link = offer.link or next((l for l in links if _buildable(action, l)), None)
    if link is None:
        raise EditUnavailable(offer.why_not or f"No citation of the claim allows this edit ({action}).")
    built = offers.Offer(action, offer.offered, offer.why_not, link)
    today = timezone.localdate()
    proposal = proposal_on(claim=claim, mode=action, base=base, link=link,
                           change_of=lambda here: offer_change(here, built, today))
    return proposal, offer.offered and offer.link == link, "" if offer.offered else offer.why_not


def _buildable(action: str, link: ClaimCitation) -> bool:
    if action == CORRECT:
        return figures(link.reasons) is not None
    copy = link.copy or {}
    return bool(copy.get("read") == "copy" and copy.get("url"))


def _suggestion(claim: Claim, url: str) -> Suggestion | None:
    """The claim's suggestion of `url`, else (no URL given) its first one that may be offered,
    else its first."""
    suggestions = list(claim.suggestions.all())
    if url:
        key = normalise_url(url)
        return next((s for s in suggestions if normalise_url(s.url) == key), None)
    best = offers.claim_offers(claim).best()
    return best or (suggestions[0] if suggestions else None)


def _weakest(links: list[ClaimCitation]) -> ClaimCitation:
    """The citation a tag or a replacement acts on when none fails: the weakest-scored."""
    return min(links, key=lambda l: (l.score if l.score is not None else 1.0, l.position))


def _new_source(url: str, suggestion: Suggestion | None, today) -> NewSource:
    """What is known of the page: the suggestion's title, else the stored page's."""
    source = suggestion.source if suggestion is not None else Source.objects.filter(
        normalized_url=normalise_url(url)).first()
    title = (suggestion.title if suggestion is not None else "") or (source.title if source else "")
    return NewSource(url=url, title=title, website=source.site_name if source else "", access_date=today)

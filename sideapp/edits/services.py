"""Editors' changes to the wiki, built from the scanned revision and saved with its base
revision (so nothing made since the scan is overwritten); and the audit log.

An edit is proposed (the wikitext change and its diff), shown, and saved only when the
editor confirms; the proposal is rebuilt from the same stored revision at save time, so
what is saved is what was shown. Only an edit that sideapp.claims.offers offers is
proposed (or saved); a suggested page read too long ago is read again first.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from django.db import transaction
from django.utils import timezone

from sideapp.claims import offers
from sideapp.claims.models import Claim, Suggestion
from sideapp.claims.suggestions import suggested_page_refresh
from sideapp.edits import selectors
from sideapp.edits.audit import audit_record
from sideapp.edits.models import AuditEntry
from sideapp.scans.models import ScanJob
from sideapp.scans.services import scan_request
from sideapp.scans.wikiapi import SavedEdit
from sideapp.scans.wikis import client_for
from verifier_core.wikitext.edits import (
    CitedRef,
    LocateError,
    NewSource,
    WikitextChange,
    add_citation,
    replace_citation,
    tag_failed_verification,
    unified_diff,
)
from verifier_core.wikitext.style import article_citations

ADD, REPLACE, TAG = offers.ADD, offers.REPLACE, offers.TAG
MODES = (ADD, REPLACE)  # modes of applying a suggestion; TAG is its own action
_ACTIONS = {ADD: AuditEntry.Action.APPLY_ADD, REPLACE: AuditEntry.Action.APPLY_REPLACE,
            TAG: AuditEntry.Action.TAG}
_WHY = {ADD: "source suggested by Side editor", REPLACE: "source suggested by Side editor",
        TAG: "checked with Side editor"}


class EditUnavailable(Exception):
    """This change cannot be built; the message says why, in a sentence."""


@dataclass(frozen=True)
class EditProposal:
    claim: Claim
    mode: str
    title: str
    base_rev_id: int
    change: WikitextChange
    summary: str
    diff: str


def edit_propose(*, claim: Claim, mode: str, suggestion: Suggestion | None = None,
                 today: date | None = None) -> EditProposal:
    """The wikitext change of `mode` (add / replace / tag) on the scanned revision;
    EditUnavailable, saying why, for an edit that is not offered."""
    revision = claim.article.current_revision
    if not claim.checkable:
        raise EditUnavailable("This claim is not checkable on its own, so no change to the wiki is offered for it.")
    if revision is None or not claim.current:
        raise EditUnavailable("This claim is not in the article's current scanned revision; "
                              "open the claim from the current list.")
    offer = _offered(claim, mode, suggestion)
    today = today or timezone.localdate()
    try:
        change = _change(claim, offer, revision.wikitext, today)
    except LocateError as exc:
        raise EditUnavailable(f"The change cannot be made: {exc}.") from exc
    return EditProposal(
        claim=claim, mode=mode, title=claim.article.title, base_rev_id=revision.rev_id,
        change=change, summary=f"{change.what}; {_WHY[mode]}",
        diff=unified_diff(change.old, change.new, title=claim.article.title),
    )


def _offered(claim: Claim, mode: str, suggestion: Suggestion | None) -> offers.Offer:
    """The offer of `mode`, after reading a suggested page again when it was read too
    long ago; raises EditUnavailable with the reason when it is not offered."""
    offer = offers.offer_for(claim, mode, suggestion)
    if offer.refresh and suggestion is not None and suggestion.source is not None:
        suggested_page_refresh(source=suggestion.source)
        suggestion = selectors.suggestions_of(claim).filter(pk=suggestion.pk).first()
        if suggestion is None:
            raise EditUnavailable("The suggested page no longer answers (or no longer says what was found "
                                  "there), so it was taken out of the suggestions.")
        offer = offers.offer_for(claim, mode, suggestion)
    if not offer.offered:
        raise EditUnavailable(offer.why_not)
    return offer


def _change(claim: Claim, offer: offers.Offer, wikitext: str, today: date) -> WikitextChange:
    if offer.action == TAG:
        return tag_failed_verification(wikitext, claim_text=claim.text, cited=_cited(offer.link), when=today)
    suggestion = offer.suggestion
    source = suggestion.source
    new = NewSource(url=suggestion.url, title=suggestion.title or source.title, website=source.site_name,
                    access_date=today)
    article = article_citations(wikitext)
    if offer.action == REPLACE:
        return replace_citation(wikitext, claim_text=claim.text, cited=_cited(offer.link), source=new,
                                article=article)
    link = selectors.last_link(claim)
    return add_citation(wikitext, claim_text=claim.text, cited=_cited(link) if link else None, source=new,
                        article=article)


def _cited(link) -> CitedRef:
    citation = link.citation
    return CitedRef(raw=citation.raw, ref_name=citation.ref_name or None, kind=citation.kind)


def edit_apply(*, user, claim: Claim, mode: str, suggestion: Suggestion | None = None,
               started_at: datetime) -> SavedEdit:
    """Save the proposed change on the wiki as the configured (shared bot) account, record
    it, and queue a re-scan of the article. The summary names the person who asked, since
    the wiki's history shows only the bot. Raises EditUnavailable or a WikiError
    (EditConflict when the page changed since the scan; nothing is saved then)."""
    proposal = edit_propose(claim=claim, mode=mode, suggestion=suggestion)
    client = client_for(claim.article.wiki, interactive=True)
    summary = f"{proposal.summary}; asked by {user.get_username()}"
    saved = client.edit(proposal.title, proposal.change.new, summary,
                        baserevid=proposal.base_rev_id, starttimestamp=started_at)
    with transaction.atomic():
        audit_record(user=user, action=_ACTIONS[mode], claim=claim, revision_id=saved.rev_id,
                     detail=f"{proposal.summary}: {proposal.change.snippet}")
        scan_request(wiki=claim.article.wiki, kind=ScanJob.Kind.TITLES,
                     titles=[claim.article.title], user=user)
    return saved

"""Editors' changes to the wiki, built from the scanned revision and saved with its base
revision (so nothing made since the scan is overwritten); and the audit log.

An edit is proposed (the wikitext change and its diff), shown, and saved only when the
editor confirms; the proposal is rebuilt from the same stored revision at save time, so
what is saved is what was shown.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from urllib.parse import urlsplit

from django.db import transaction
from django.utils import timezone

from sideapp.claims.models import Claim, Suggestion
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

ADD, REPLACE, TAG = "add", "replace", "tag"
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
    """The wikitext change of `mode` (add / replace / tag) on the scanned revision."""
    revision = claim.article.current_revision
    if not claim.checkable:
        raise EditUnavailable("This claim is not checkable on its own, so no change to the wiki is offered for it.")
    if revision is None or not claim.current:
        raise EditUnavailable("This claim is not in the article's current scanned revision; "
                              "open the claim from the current list.")
    today = today or timezone.localdate()
    try:
        change = _change(claim, mode, suggestion, revision.wikitext, today)
    except LocateError as exc:
        raise EditUnavailable(f"The change cannot be made: {exc}.") from exc
    return EditProposal(
        claim=claim, mode=mode, title=claim.article.title, base_rev_id=revision.rev_id,
        change=change, summary=f"{change.what}; {_WHY[mode]}",
        diff=unified_diff(change.old, change.new, title=claim.article.title),
    )


def _change(claim: Claim, mode: str, suggestion: Suggestion | None, wikitext: str,
            today: date) -> WikitextChange:
    if mode == TAG:
        link = selectors.failing_link(claim)
        if link is None:
            raise LocateError("the claim has no citation to tag")
        return tag_failed_verification(wikitext, claim_text=claim.text, cited=_cited(link), when=today)
    if suggestion is None:
        raise LocateError("no suggested source was given")
    source = NewSource(url=suggestion.url, title=suggestion.title or _source_title(suggestion),
                       website=_website(suggestion.url), access_date=today)
    if mode == REPLACE:
        link = selectors.failing_link(claim)
        if link is None:
            raise LocateError("the claim has no citation to replace; add the source instead")
        return replace_citation(wikitext, claim_text=claim.text, cited=_cited(link), source=source)
    link = selectors.last_link(claim)
    return add_citation(wikitext, claim_text=claim.text,
                        cited=_cited(link) if link else None, source=source)


def _cited(link) -> CitedRef:
    citation = link.citation
    return CitedRef(raw=citation.raw, ref_name=citation.ref_name or None, kind=citation.kind)


def _source_title(suggestion: Suggestion) -> str:
    return suggestion.source.title if suggestion.source else ""


def _website(url: str) -> str:
    host = (urlsplit(url).hostname or "").lower()
    return host[4:] if host.startswith("www.") else host


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

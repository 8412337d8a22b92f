"""Editors' changes to the wiki: proposed on the wiki's current revision, at the claim's own
citation, and saved without losing anyone's work.

An edit is proposed (the wikitext change of one section and its diff), shown, and saved
only when the editor confirms. The change is built where the claim's own citation stands
in the revision it is built on (sideapp.edits.locating): a page cited twice is two places,
and a claim or citation that moved refuses the edit in words. Only an edit that
sideapp.claims.offers offers is proposed (or saved); a suggested page read too long ago is
read again first. Saving (sideapp.edits.saving) rebuilds the change on the wiki's current
revision, refuses it when anyone touched the section since the revision the editor saw,
and records the attempt before and after the wiki is asked.
"""
from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date

from django.utils import timezone

from sideapp.claims import offers
from sideapp.claims.models import Claim, ClaimCitation, Suggestion
from sideapp.claims.suggestions import suggested_page_refresh
from sideapp.edits import saving, selectors
from sideapp.edits.audit import audit_record
from sideapp.edits.locating import BaseText, ClaimInText, article_style, base_read, claim_in_text
from sideapp.edits.models import AuditEntry
from sideapp.edits.tokens import SaveTicket, TokenRefused, ticket_without_token, token_issue, token_read
from sideapp.scans.models import ScanJob
from sideapp.scans.services import scan_request
from sideapp.scans.wikiapi import EditConflict, SavedEdit, WikiError, WikiUnavailable
from sideapp.scans.wikis import saving_off_reason
from sideapp.sources.rescue import rescue_change
from verifier_core.verification import Verdict
from verifier_core.wikitext.edits import (
    FAILED,
    LocateError,
    NewSource,
    WikitextChange,
    add_citation,
    correct_figure,
    occurrence_target,
    replace_citation,
    tag_failed_verification,
    word_unified_diff,
)
from verifier_core.wikitext.sections import SectionChange, section_change, section_heading, section_span

log = logging.getLogger(__name__)
ADD, REPLACE, TAG, ARCHIVE, CORRECT = offers.ADD, offers.REPLACE, offers.TAG, offers.ARCHIVE, offers.CORRECT
MODES = (ADD, REPLACE)  # modes of applying a suggestion; TAG, ARCHIVE and CORRECT are their own actions
ACTIONS = {ADD: AuditEntry.Action.APPLY_ADD, REPLACE: AuditEntry.Action.APPLY_REPLACE,
           TAG: AuditEntry.Action.TAG, ARCHIVE: AuditEntry.Action.ARCHIVE, CORRECT: AuditEntry.Action.CORRECT}
_WHY = {ADD: "source suggested by Side editor", REPLACE: "source suggested by Side editor",
        TAG: "checked with Side editor", ARCHIVE: "the copy as cited checked with Side editor",
        CORRECT: "checked with Side editor"}


class EditUnavailable(Exception):
    """This change cannot be built; the message says why, in a sentence."""


@dataclass(frozen=True)
class EditProposal:
    claim: Claim
    mode: str
    title: str
    base: BaseText  # the revision it is built on
    change: WikitextChange  # of the whole page; `change.target` is the occurrence it acts on
    section: SectionChange  # the same change cut to its section (number None: the whole page)
    summary: str
    diff: str
    token: str  # its confirm's signed save token (sideapp.edits.tokens); "" when shown to no one signed in
    link: ClaimCitation | None = None  # the citation it acts on, where it acts on one
    # Add and replace: whether the claim's citations carry {{failed verification}} here (the
    # preview offers to take it off), and whether this change does.
    untag_offered: bool = False
    untag: bool = False

    @property
    def base_rev_id(self) -> int:
        return self.base.rev_id

    @property
    def section_name(self) -> str:
        """The section's heading in words ("" for the lead or the whole page)."""
        if not self.section.number:
            return ""
        return (section_heading(self.change.old, self.section.number) or "").strip("= \t")

    def target_in_section(self) -> dict | None:
        """{"start", "end", "wikitext"} of the occurrence acted on, offsets in `section.old`."""
        target = self.change.target
        if target is None:
            return None
        start = section_span(self.change.old, self.section.number)[0] if self.section.number is not None else 0
        return {"start": target.start - start, "end": target.end - start, "wikitext": target.wikitext}


def untag_default(suggestion: Suggestion | None) -> bool:
    """Whether an add or replace takes the claim's {{failed verification}} off unless the
    editor says otherwise: when the new source is judged to support the claim."""
    return suggestion is not None and suggestion.verdict == Verdict.SUPPORTED


def edit_propose(*, claim: Claim, mode: str, suggestion: Suggestion | None = None,
                 today: date | None = None, base: BaseText | None = None,
                 offered: offers.Offer | None = None, untag: bool | None = None, user=None) -> EditProposal:
    """The change of `mode` (add / replace / tag / archive / correct) on the wiki's current revision (`base`, read
    when not given), with `user`'s save token; EditUnavailable, saying why, for an edit that is not offered or
    that cannot be placed without doubt. `untag` (add, replace): take the claim's {{failed verification}} off in
    the same edit; None: `untag_default`."""
    if not claim.checkable:
        raise EditUnavailable("This claim is not checkable on its own, so no change to the wiki is offered for it.")
    if claim.article.current_revision is None or not claim.current:
        raise EditUnavailable("This claim is not in the article's current scanned revision; "
                              "open the claim from the current list.")
    offer = offered or _offered(claim, mode, suggestion)
    day = today or timezone.localdate()
    untag = mode in MODES and (untag_default(offer.suggestion) if untag is None else untag)
    return proposal_on(claim=claim, mode=mode, base=base or base_read(claim.article),
                       change_of=lambda here: offer_change(here, offer, day, untag=untag),
                       suggestion=offer.suggestion if mode != TAG else None, link=offer.link, untag=untag, user=user)


def proposal_on(*, claim: Claim, mode: str, base: BaseText, change_of: Callable[[ClaimInText], WikitextChange],
                suggestion: Suggestion | None = None, link: ClaimCitation | None = None,
                untag: bool = False, user=None) -> EditProposal:
    """The change `change_of` makes at the claim's own citation in `base`, cut to its
    section; EditUnavailable in words when the claim cannot be placed there without doubt."""
    try:
        here = claim_in_text(claim, base.wikitext)
        change = change_of(here)
    except LocateError as exc:
        raise EditUnavailable(f"The change cannot be made: {exc}.") from exc
    section = section_change(change.old, change.new, here.claim.section_number)
    # A replaced citation's own tags go with it whatever is chosen: only the others are asked about.
    tagged = mode in MODES and any(mode != REPLACE or change.target is None or t.start != change.target.start
                                   for t in failing_tagged(here))
    return EditProposal(
        claim=claim, mode=mode, title=base.title, base=base, change=change, section=section,
        summary=f"{change.what}; {_WHY[mode]}", diff=word_unified_diff(section.old, section.new, title=base.title),
        token=token_issue(user=user, claim=claim, mode=mode, suggestion=suggestion, base_rev_id=base.rev_id,
                          page_id=base.page_id, title=base.title, untag=tagged and untag),
        link=link, untag_offered=tagged, untag=tagged and untag,
    )


def failing_tagged(here: ClaimInText) -> tuple:
    """The claim's citations that carry {{failed verification}} in this text, as targets."""
    return tuple(occurrence_target(here.wikitext, o) for o in here.claim.occurrences if FAILED in o.tags)


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


def offer_change(here: ClaimInText, offer: offers.Offer, today: date, *, untag: bool = False) -> WikitextChange:
    """The change `offer` stands for, at its citation in `here` (also propose_edit's, offered or not)."""
    wikitext = here.wikitext
    if offer.action == TAG:
        return tag_failed_verification(wikitext, target=here.target(offer.link), when=today)
    if offer.action == ARCHIVE:  # the archived copy as cited, or {{dead link}} (sideapp.sources.rescue)
        return rescue_change(wikitext, target=here.target(offer.link), link=offer.link, today=today)
    if offer.action == CORRECT:  # the claim's figure, as its failing source gives it
        claimed, given = offer.figures
        return correct_figure(wikitext, target=here.target(offer.link), claimed=claimed, given=given,
                              claim=here.claim)  # located from its own span, not by punctuation
    suggestion = offer.suggestion
    source = suggestion.source
    new = NewSource(url=suggestion.url, title=suggestion.title or source.title, website=source.site_name,
                    access_date=today)
    return source_change(here, offer.action, new, link=offer.link, untag=untag)


def source_change(here: ClaimInText, action: str, new: NewSource, *, link=None, untag: bool = False) -> WikitextChange:
    """Add `new` after the claim's citations, or put it in place of `link`'s occurrence;
    `untag`: the claim's {{failed verification}} taken off in the same edit."""
    article = article_style(here.wikitext)
    tagged = failing_tagged(here) if untag else ()
    if action == REPLACE:
        return replace_citation(here.wikitext, target=here.target(link), source=new, article=article, untag=tagged)
    return add_citation(here.wikitext, target=here.last(), needs_span=here.claim.needs_citation_span,
                        source=new, article=article, untag=tagged)


def edit_apply(*, user, claim: Claim, mode: str, suggestion: Suggestion | None = None,
               token: str | None = None, untag: bool | None = None) -> SavedEdit:
    """Save the change on the wiki as the configured (shared bot) account: rebuilt on the
    wiki's current revision, refused when anyone touched its section since the revision the
    editor saw (the signed `token` says which: sideapp.edits.tokens), recorded before and after
    the wiki is asked, and a re-scan queued. A repeat of a saved `token` answers with the
    revision already saved. Raises TokenRefused (audited), EditUnavailable or a WikiError
    (EditConflict when it could not be saved safely)."""
    article = claim.article
    ticket = _ticket(user, claim, mode, suggestion, token, untag)
    with saving.page_lock(article) as held:
        if (done := saving.saved_before(ticket.key)) is not None:
            return done
        attempt = saving.Attempt(user=user, claim=claim, action=ACTIONS[mode], token=ticket.key)
        try:
            proposal = _proposal_to_save(claim, mode, suggestion, ticket=ticket)
            if token == "":  # a confirm that answers no preview (token None: the server's own save)
                raise TokenRefused(NO_TOKEN)
        except (EditUnavailable, EditConflict, TokenRefused) as exc:
            attempt.closed(AuditEntry.Status.REFUSED, str(exc))
            raise
        except WikiError as exc:
            attempt.closed(AuditEntry.Status.FAILED, str(exc))
            raise
        return attempt.save(proposal, summary=f"{proposal.summary}; asked by {user.get_username()}", held=held,
                            after=lambda: scan_request(wiki=article.wiki, kind=ScanJob.Kind.TITLES,
                                                       titles=[article.title], user=user))


NO_TOKEN = ("This confirm carries no save token, so it is not known which preview it answers. Nothing was saved. "
            "Open the change again and confirm it from there.")


def _ticket(user, claim: Claim, mode: str, suggestion: Suggestion | None, token: str | None,
            untag: bool | None = None) -> SaveTicket:
    """The confirm's ticket from its signed token (a token that does not fit is refused, and
    the refusal audited); without one, built on the checked revision (edit_apply refuses a
    confirm that sent none once the change is known to be offered)."""
    if not token:
        revision = claim.article.current_revision
        return ticket_without_token(user=user, claim=claim, mode=mode, suggestion=suggestion,
                                    base_rev_id=revision.rev_id if revision else 0, untag=untag)
    try:
        return token_read(token, user=user, claim=claim, mode=mode, suggestion=suggestion)
    except TokenRefused as exc:
        log.warning("save of claim %s (%s) by %s refused: %s", claim.pk, mode, user.get_username(), exc)
        audit_record(user=user, action=ACTIONS[mode], claim=claim, detail="not saved: the save token does not fit",
                     status=AuditEntry.Status.REFUSED, outcome=str(exc))
        raise


def _same_page(ticket: SaveTicket, current: BaseText) -> None:
    """EditUnavailable in words when the page was moved (or another page took its title)
    between the preview and the confirm: the editor saw another title, nothing is saved."""
    if ticket.page_id and current.page_id and ticket.page_id != current.page_id:
        raise EditUnavailable(f"Another page is titled “{current.title}” now than the one you saw; nothing was saved. "
                              "Open the claim again.")
    if ticket.title and current.title != ticket.title:
        raise EditUnavailable(f"The page was moved since you saw it: “{ticket.title}” is now titled "
                              f"“{current.title}”. Nothing was saved. Open the claim again to see the change on "
                              "the page as it is now.")


def _proposal_to_save(claim: Claim, mode: str, suggestion: Suggestion | None, *, ticket: SaveTicket) -> EditProposal:
    """The change built on the wiki's current revision, once nobody has touched its section
    since the ticket's revision (the one the editor saw); EditConflict naming who did."""
    offer = _offered(claim, mode, suggestion)  # refused in words before the wiki is read
    if (off := saving_off_reason(claim.article.wiki)):
        raise EditUnavailable(off)
    current = base_read(claim.article)
    if not current.live:
        raise WikiUnavailable(f"the wiki could not be read just now ({current.problem}); nothing was saved")
    _same_page(ticket, current)
    since = ticket.base_rev_id
    if since > current.rev_id:
        raise EditConflict(f"edit conflict: revision {since}, which you saw, is no longer the page's (its latest is "
                           f"{current.rev_id}); nothing was saved. Check this revision and try again.")
    if since < current.rev_id:
        seen = edit_propose(claim=claim, mode=mode, suggestion=offer.suggestion, base=saving.revision_text(
            claim.article, since), offered=offer, untag=ticket.untag)
        saving.check_untouched(claim.article, seen, until=current.rev_id)
    return edit_propose(claim=claim, mode=mode, suggestion=offer.suggestion, base=current, offered=offer,
                        untag=ticket.untag)

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

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date

from django.utils import timezone

from sideapp.claims import offers
from sideapp.claims.models import Claim, ClaimCitation, Suggestion
from sideapp.claims.suggestions import suggested_page_refresh
from sideapp.edits import saving, selectors
from sideapp.edits.locating import BaseText, ClaimInText, article_style, base_read, claim_in_text
from sideapp.edits.models import AuditEntry
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
    token: str  # the key of its save: one confirm saves once
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


def save_token(*, claim: Claim, mode: str, suggestion: Suggestion | None, base_rev_id: int,
               untag: bool = False) -> str:
    """"<base revision>.<digest>": the same action on the same claim from the same revision is
    one save, however often it is confirmed (taking the failing tag off or not: two changes)."""
    key = f"{claim.pk}|{mode}|{suggestion.pk if suggestion else 0}|{base_rev_id}" + ("|untag" if untag else "")
    return f"{base_rev_id}.{hashlib.sha256(key.encode()).hexdigest()[:24]}"


def untag_default(suggestion: Suggestion | None) -> bool:
    """Whether an add or replace takes the claim's {{failed verification}} off unless the
    editor says otherwise: when the new source is judged to support the claim."""
    return suggestion is not None and suggestion.verdict == Verdict.SUPPORTED


def edit_propose(*, claim: Claim, mode: str, suggestion: Suggestion | None = None,
                 today: date | None = None, base: BaseText | None = None,
                 offered: offers.Offer | None = None, untag: bool | None = None) -> EditProposal:
    """The change of `mode` (add / replace / tag / archive / correct) on the wiki's current revision (`base`, read
    when not given); EditUnavailable, saying why, for an edit that is not offered or that
    cannot be placed without doubt. `untag` (add, replace): take the claim's {{failed
    verification}} off in the same edit; None: `untag_default`."""
    if not claim.checkable:
        raise EditUnavailable("This claim is not checkable on its own, so no change to the wiki is offered for it.")
    if claim.article.current_revision is None or not claim.current:
        raise EditUnavailable("This claim is not in the article's current scanned revision; "
                              "open the claim from the current list.")
    offer = offered or _offered(claim, mode, suggestion)
    day = today or timezone.localdate()
    untag = mode in MODES and (untag_default(offer.suggestion) if untag is None else untag)
    return proposal_on(claim=claim, mode=mode, base=base or base_read(claim.article),
                       change_of=lambda here: _change(here, offer, day, untag=untag),
                       suggestion=offer.suggestion if mode != TAG else None, link=offer.link, untag=untag)


def proposal_on(*, claim: Claim, mode: str, base: BaseText, change_of: Callable[[ClaimInText], WikitextChange],
                suggestion: Suggestion | None = None, link: ClaimCitation | None = None,
                untag: bool = False) -> EditProposal:
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
        token=save_token(claim=claim, mode=mode, suggestion=suggestion, base_rev_id=base.rev_id,
                         untag=tagged and untag), link=link, untag_offered=tagged, untag=tagged and untag,
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


def _change(here: ClaimInText, offer: offers.Offer, today: date, *, untag: bool = False) -> WikitextChange:
    wikitext = here.wikitext
    if offer.action == TAG:
        return tag_failed_verification(wikitext, target=here.target(offer.link), when=today)
    if offer.action == ARCHIVE:  # the archived copy as cited, or {{dead link}} (sideapp.sources.rescue)
        return rescue_change(wikitext, target=here.target(offer.link), link=offer.link, today=today)
    if offer.action == CORRECT:  # the claim's figure, as its failing source gives it
        claimed, given = offer.figures
        return correct_figure(wikitext, target=here.target(offer.link), claimed=claimed, given=given)
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
               token: str = "", untag: bool | None = None) -> SavedEdit:
    """Save the change on the wiki as the configured (shared bot) account: rebuilt on the
    wiki's current revision, refused when anyone touched its section since the revision the
    editor saw (`token` says which), recorded before and after the wiki is asked, and a
    re-scan queued. A repeat of a saved `token` answers with the revision already saved.
    Raises EditUnavailable or a WikiError (EditConflict when it could not be saved safely)."""
    article = claim.article
    asked = token or save_token(claim=claim, mode=mode, suggestion=suggestion,
                                base_rev_id=article.current_revision.rev_id if article.current_revision else 0,
                                untag=bool(untag))
    with saving.page_lock(article):
        if (done := saving.saved_before(asked)) is not None:
            return done
        attempt = saving.Attempt(user=user, claim=claim, action=ACTIONS[mode], token=asked)
        try:
            proposal = _proposal_to_save(claim, mode, suggestion, since=saving.token_base(asked), untag=untag)
        except (EditUnavailable, EditConflict) as exc:
            attempt.closed(AuditEntry.Status.REFUSED, str(exc))
            raise
        except WikiError as exc:
            attempt.closed(AuditEntry.Status.FAILED, str(exc))
            raise
        return attempt.save(proposal, summary=f"{proposal.summary}; asked by {user.get_username()}",
                            after=lambda: scan_request(wiki=article.wiki, kind=ScanJob.Kind.TITLES,
                                                       titles=[article.title], user=user))


def _proposal_to_save(claim: Claim, mode: str, suggestion: Suggestion | None, *, since: int | None,
                      untag: bool | None = None) -> EditProposal:
    """The change built on the wiki's current revision, once nobody has touched its section
    since revision `since` (the one the editor saw); EditConflict naming who did."""
    offer = _offered(claim, mode, suggestion)  # refused in words before the wiki is read
    if (off := saving_off_reason(claim.article.wiki)):
        raise EditUnavailable(off)
    current = base_read(claim.article)
    if not current.live:
        raise WikiUnavailable(f"the wiki could not be read just now ({current.problem}); nothing was saved")
    if since is not None and since < current.rev_id:
        seen = edit_propose(claim=claim, mode=mode, suggestion=offer.suggestion, base=saving.revision_text(
            claim.article, since), offered=offer, untag=untag)
        saving.check_untouched(claim.article, seen, until=current.rev_id)
    return edit_propose(claim=claim, mode=mode, suggestion=offer.suggestion, base=current, offered=offer, untag=untag)

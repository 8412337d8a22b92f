"""The archive edit: when it is offered, and the wikitext change it makes.

Offered on a citation whose page is dead, moved, a soft 404, usurped (or changed since it
was cited) when the copy as it was cited was read and supports the claim: `|archive-url=`,
`|archive-date=`, `|url-status=` (or `{{webarchive}}` after a bare link), as the article
writes its other archived citations. Where the page is dead and no archive holds a copy:
`{{dead link|date=}}`. Never an archive link to a copy that does not support the claim,
and never a change to a live page that still supports it.

    decision = archive_decision(facts)            # pure, on plain facts
    decision.offered, decision.why_not, decision.key, decision.kind
    change = rescue_change(wikitext, target=target, link=link, today=today)
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from sideapp.sources.archives import archives, citation_target
from sideapp.sources.models import ArchivedCopy
from verifier_core.fetch.citedates import timestamp_day
from verifier_core.fetch.pagestate import NOT_THE_WORK, UNREADABLE, USURPED
from verifier_core.verification import Verdict
from verifier_core.wikitext.archive_edit import add_archive, tag_dead_link
from verifier_core.wikitext.edits import RefTarget, WikitextChange

ARCHIVE_LINK, DEAD_LINK = "archive_link", "dead_link"
SUPPORTS = (Verdict.SUPPORTED, Verdict.PARTIALLY_SUPPORTED)


@dataclass(frozen=True)
class CitedPage:
    key: int  # the ClaimCitation's pk
    verdict: str
    page_state: str  # ClaimCitation.page_state ("" before its verdict)
    read: str  # which copy its verdict read: "live", "copy", "both", "citation_archive", ""
    has_archive: bool  # the citation carries an archive-url already
    dead_tagged: bool  # it carries {{dead link}} already
    # The archives' answer for the citation's day: "none" (no copy; also where no archive is
    # configured), "found", or "pending" (not asked yet, or busy: they did not answer).
    lookup: str = "none"


@dataclass(frozen=True)
class ArchiveDecision:
    offered: bool
    why_not: str = ""
    key: int | None = None
    kind: str = ""  # ARCHIVE_LINK or DEAD_LINK


def archive_decision(cited: list[CitedPage], *, current: bool = True) -> ArchiveDecision:
    """The first citation of the claim that an archive edit helps, or why none does."""
    if not current:
        return ArchiveDecision(False, "This claim is not in the article's current scanned revision.")
    if not cited:
        return ArchiveDecision(False, "The claim has no citation.")
    reasons = []
    for page in cited:
        decision = _one(page)
        if decision.offered:
            return decision
        reasons.append(decision.why_not)
    return ArchiveDecision(False, reasons[0])


def _one(page: CitedPage) -> ArchiveDecision:
    if not page.page_state:
        return ArchiveDecision(False, "Its cited page has not been checked yet.")
    if page.has_archive:
        return ArchiveDecision(False, "This citation has an archived copy already.")
    if page.page_state == UNREADABLE:
        return ArchiveDecision(False, "Its page could not be read just now (an error or no answer), so whether "
                                      "it is dead is not known; no archive link or {{dead link}} is offered.")
    if page.read == "copy":
        if page.verdict in SUPPORTS:
            return ArchiveDecision(True, key=page.key, kind=ARCHIVE_LINK)
        return ArchiveDecision(False, "The copy as it was cited does not support the claim, so no archive "
                                      "link is offered.")
    if page.read == "both":
        return ArchiveDecision(False, "Neither the live page nor the copy as it was cited supports the claim.")
    if page.page_state in NOT_THE_WORK and page.verdict == Verdict.SOURCE_UNAVAILABLE:
        if page.dead_tagged:
            return ArchiveDecision(False, "This citation is already tagged {{dead link}}, and no archive holds "
                                          "a copy of it.")
        if page.lookup == "pending":
            return ArchiveDecision(False, "Whether a web archive holds a copy of it is not known yet (the archives "
                                          "have not answered); {{dead link}} is offered once they say they hold none.")
        return ArchiveDecision(True, key=page.key, kind=DEAD_LINK)
    return ArchiveDecision(False, "The live page is the cited work; it is left alone.")


def url_status(page_state: str) -> str:
    """|url-status= for the page's fate: usurped, dead, or live (changed since cited)."""
    return "usurped" if page_state == USURPED else ("dead" if page_state in NOT_THE_WORK else "live")


def rescue_change(wikitext: str, *, target: RefTarget, link, today: date) -> WikitextChange:
    """The change `archive_decision` offered for `link` (a ClaimCitation with its copy)."""
    copy = link.copy or {}
    if copy.get("read") == "copy" and copy.get("url"):
        day = timestamp_day(copy.get("timestamp", "")) or today
        return add_archive(wikitext, target=target, archive_url=copy["url"], archive_date=day,
                           url_status=url_status(link.page_state))
    return tag_dead_link(wikitext, target=target, when=today)


def cited_pages(links) -> list[CitedPage]:
    """Facts of a claim's ClaimCitation rows (their citations loaded). The archives' answer is
    read (one query) only for dead pages with no copy read, where {{dead link}} could be offered."""
    dead = [l for l in links if l.page_state in NOT_THE_WORK and l.verdict == Verdict.SOURCE_UNAVAILABLE
            and l.citation.source_id and not l.citation.archive_url]
    lookups = _lookups(dead)
    return [CitedPage(key=link.pk, verdict=link.verdict, page_state=link.page_state,
                      read=(link.copy or {}).get("read", ""), has_archive=bool(link.citation.archive_url),
                      dead_tagged="dead link" in (link.citation.flags or []), lookup=lookups.get(link.pk, "none"))
            for link in links]


def _lookups(links) -> dict[int, str]:
    """{ClaimCitation pk: "none" | "found" | "pending"} for dead citations, by their day's copy."""
    if not links or not archives():
        return {}
    State = ArchivedCopy.State
    states = {(c.source_id, c.target): c.state for c in ArchivedCopy.objects.filter(
        source_id__in={l.citation.source_id for l in links}).only("source_id", "target", "state")}
    out = {}
    for link in links:
        state = states.get((link.citation.source_id, citation_target(link.citation)))
        out[link.pk] = ("none" if state == State.NONE else "found" if state == State.FOUND else "pending")
    return out

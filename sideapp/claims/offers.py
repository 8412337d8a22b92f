"""Which edits Side editor offers on a claim, and why not: the one rule.

An edit is offered only where an editor would make it:

- tag `{{failed verification}}`: on a citation whose source was read and judged
  `not_supported` with high confidence, not tagged already, of a claim not called
  supported;
- replace: that same failing citation, or one tagged `{{failed verification}}` on the wiki
  (an editor's judgement), and nothing else, by a suggestion that may be offered (below)
  and outscores it;
- add: a suggestion that may be offered and, when the claim has a citation, outscores it
  (verifier_core's `suggestion_is_better`, the one "better" rule);
- correct the figure: on a citation judged `not_supported` with high confidence because its
  source gives another figure for the claim's ("the source gives ... as 1996, not 1994"),
  of a claim not called supported, when no other failing citation gives a third figure.

A suggestion may be offered when it itself supports the claim, is not a page the claim
already cites (the same page after URL normalisation, `page_key`, or the same text), and
answered when it was last read, within SIDE_SUGGESTION_MAX_AGE_DAYS; an older one is
read again first (`Offer.refresh`), and a dead one never is.

The claim page, the apply and tag views (which refuse what is not offered), the article
report and any later API ask `offer_for` / `claim_offers`; the decisions are pure
functions over plain facts (`ClaimFacts`, `SuggestionFacts`) so that they are tested
without a database.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone

from sideapp.claims.models import Claim, ClaimCitation, Suggestion
from sideapp.claims.places import current_places
from sideapp.claims.reasons import figures as contradicted_figures
from verifier_core.fetch import same_page
from verifier_core.verification import Verdict
from verifier_core.verification.judgement.suggest import suggestion_is_better
from verifier_core.verification.judgement.verdicts import HIGH
from verifier_core.verification.language.quantities import says_less

TAG, ADD, REPLACE, CORRECT = "tag", "add", "replace", "correct"
ACTIONS = (TAG, ADD, REPLACE, CORRECT)
ARCHIVE = "archive"  # the copy as cited written into a dead citation, or {{dead link}} (sources.rescue)
FAILED_VERIFICATION = "failed verification"


@dataclass(frozen=True)
class CitedFacts:
    key: int  # the ClaimCitation's pk
    position: int
    verdict: str
    confidence: str
    score: float | None
    tagged: bool  # already carries {{failed verification}}
    urls: tuple[str, ...]  # url, archive-url, and where its fetch went
    text_hash: str = ""  # of the text read from it; "" when none was
    figures: tuple[str, str] | None = None  # (the claim's figure, the page's) the page contradicts


@dataclass(frozen=True)
class ClaimFacts:
    current: bool
    needs_citation: bool
    verdict: str
    score: float | None
    cited: tuple[CitedFacts, ...]
    checkable: bool = True  # a statement can be built from its words (issue 24's claims part)
    text: str = ""  # the claim's words (the figure corrected must be one of them)


@dataclass(frozen=True)
class SuggestionFacts:
    url: str
    verdict: str
    score: float
    stored: bool  # its page is stored (a Source row)
    answers: bool  # its last fetch read the live page
    dead_reason: str  # why it does not answer, in words
    fetched_at: datetime | None
    text_hash: str = ""


@dataclass(frozen=True)
class Decision:
    offered: bool
    why_not: str = ""  # a sentence when not offered
    target: CitedFacts | None = None  # the citation it acts on (tag, replace)
    refresh: bool = False  # offered once the suggested page is read again


# --- the rule, on plain facts ---------------------------------------------------------

def failing(claim: ClaimFacts, *, untagged_first: bool = False) -> CitedFacts | None:
    """The citation that fails the claim: read, judged not supported with high
    confidence, or tagged {{failed verification}} on the wiki (a person judged it so,
    whatever the verifier's doubt: the tagged list is where an editor comes for a better
    source); the weakest first, then the first in the page. `untagged_first`: one not
    yet tagged {{failed verification}} before any that is (two sources that both give
    another date are tagged one after the other)."""
    fails = [c for c in claim.cited if c.tagged or (c.verdict == Verdict.NOT_SUPPORTED and c.confidence == HIGH)]
    return min(fails, key=lambda c: (untagged_first and c.tagged, c.score if c.score is not None else 0.0, c.position),
               default=None)


def _claim_refusal(claim: ClaimFacts) -> str:
    if not claim.current:
        return "This claim is not in the article's current scanned revision; open it from the current list."
    if not claim.checkable:
        return "This claim is not checkable on its own, so no change to the wiki is offered for it."
    return ""


def _no_failing(claim: ClaimFacts) -> str:
    """Why no citation of the claim counts as failing, in words."""
    if claim.needs_citation or not claim.cited:
        return "The claim has no citation."
    if not claim.verdict:
        return "The claim has not been checked yet."
    if all(c.verdict == Verdict.SOURCE_UNAVAILABLE for c in claim.cited):
        return "Its source could not be read, so whether it supports the claim is not known."
    if any(c.verdict == Verdict.NOT_SUPPORTED for c in claim.cited):
        return "The verifier is not sure enough that its source fails the claim; it needs a look by a person."
    return "Its source supports the claim, at least in part."


def tag_decision(claim: ClaimFacts) -> Decision:
    if refusal := _claim_refusal(claim):
        return Decision(False, refusal)
    if claim.verdict == Verdict.SUPPORTED:
        return Decision(False, "The claim is called supported by its citations; none of them is tagged.")
    target = failing(claim, untagged_first=True)
    if target is None:
        return Decision(False, _no_failing(claim))
    if target.tagged:
        return Decision(False, "This citation is already tagged {{failed verification}}.", target)
    return Decision(True, target=target)


def correct_decision(claim: ClaimFacts) -> Decision:
    """The claim's figure changed to the one its failing source gives (its figure reason's data)."""
    if refusal := _claim_refusal(claim):
        return Decision(False, refusal)
    if claim.verdict == Verdict.SUPPORTED:
        return Decision(False, "The claim is called supported by its citations; its figures are left as they are.")
    fails = {c: figures for c in claim.cited if c.verdict == Verdict.NOT_SUPPORTED and c.confidence == HIGH
             and (figures := c.figures) is not None and figures[0] in claim.text}
    if not fails:
        return Decision(False, "No source of the claim gives another figure for it with confidence.")
    if len(set(fails.values())) > 1:
        return Decision(False, "Its sources give different figures for it; correct it by hand.")
    target = min(fails, key=lambda c: c.position)
    if says_less(*fails[target]):
        return Decision(False, "The source's figure leaves out part of the claim's (a date without its year); "
                               "correct it by hand.", target)
    return Decision(True, target=target)


def suggestion_decision(claim: ClaimFacts, suggestion: SuggestionFacts, action: str, *,
                        now: datetime, max_age: timedelta) -> Decision:
    """Whether `action` (add or replace) with `suggestion` is offered."""
    if refusal := _claim_refusal(claim) or _page_refusal(claim, suggestion):
        return Decision(False, refusal)
    target = failing(claim) if action == REPLACE else None
    if action == REPLACE and target is None:
        return Decision(False, f"Only a citation that fails the claim is replaced. {_no_failing(claim)} "
                               "Add the source instead.")
    if claim.cited and not claim.needs_citation and not _better(claim, suggestion, target):
        return Decision(False, "The suggested page does not score above the current citation.", target)
    if read_too_long_ago(suggestion.fetched_at, now=now, max_age=max_age):
        days = (now - suggestion.fetched_at).days if suggestion.fetched_at else None
        when = f"{days} days ago" if days is not None else "never"
        return Decision(False, f"The suggested page was last read {when}; it is read again before it is offered.",
                        target, refresh=True)
    return Decision(True, target=target)


def read_too_long_ago(fetched_at: datetime | None, *, now: datetime, max_age: timedelta) -> bool:
    """Whether a suggested page must be read again before it is offered."""
    return fetched_at is None or now - fetched_at > max_age


def _page_refusal(claim: ClaimFacts, suggestion: SuggestionFacts) -> str:
    if not suggestion.stored:
        return "The suggested page is no longer stored; it cannot be offered."
    if not suggestion.answers:
        return f"The suggested page no longer answers: {suggestion.dead_reason}."
    if any(same_page(suggestion.url, url) for cited in claim.cited for url in cited.urls):
        return "The suggested page is the source the claim already cites."
    if suggestion.text_hash and any(c.text_hash == suggestion.text_hash for c in claim.cited):
        return "The suggested page has the same text as the source the claim already cites."
    if suggestion.verdict != Verdict.SUPPORTED:
        return "The suggested page does not itself support the claim."
    return ""


def _better(claim: ClaimFacts, suggestion: SuggestionFacts, target: CitedFacts | None) -> bool:
    """verifier_core's one rule, against the citation replaced, else the claim as cited."""
    current = target or claim
    return suggestion_is_better(current_score=current.score, current_verdict=current.verdict,
                                suggestion_score=suggestion.score, suggestion_verdict=suggestion.verdict,
                                has_citation=True)


# --- facts from rows ------------------------------------------------------------------

def _text_hash(source) -> str:
    document = getattr(source, "document", None) if source is not None else None
    return document.sha256 if document is not None else ""


def cited_facts(link: ClaimCitation, place: dict | None = None) -> CitedFacts:
    """Facts of one citation of the claim; `place`, the claim's own occurrence of it (its
    tags, not those of another sentence citing the same page), where known."""
    citation, source = link.citation, link.citation.source
    urls = [citation.url, citation.archive_url, *((source.url, source.final_url) if source else ())]
    tags = place.get("tags", []) if place is not None else (citation.flags or [])
    return CitedFacts(key=link.pk, position=link.position, verdict=link.verdict, confidence=link.confidence,
                      score=link.score, tagged=FAILED_VERIFICATION in tags,
                      urls=tuple(u for u in urls if u), text_hash=_text_hash(source),
                      figures=contradicted_figures(link.reasons))


def claim_facts(claim: Claim) -> ClaimFacts:
    places = current_places(claim)
    return ClaimFacts(current=claim.current, needs_citation=claim.needs_citation, verdict=claim.verdict,
                      score=claim.score,
                      cited=tuple(cited_facts(l, places.get(l.citation_id)) for l in claim.claim_citations.all()),
                      # Claim.checkable arrives with the claims part of issue 24 (branch claims24).
                      checkable=getattr(claim, "checkable", True), text=claim.text)


def suggestion_facts(suggestion: Suggestion) -> SuggestionFacts:
    source = suggestion.source
    answers = source is not None and source.answers
    dead = "" if answers or source is None else (
        "only its archived copy could be read" if source.used_archive else source.status_sentence)
    document = getattr(source, "document", None) if source is not None else None
    read_at = source.fetched_at or (document.fetched_at if document else None) if source else None
    return SuggestionFacts(url=suggestion.url, verdict=suggestion.verdict, score=suggestion.score,
                           stored=source is not None, answers=answers, dead_reason=dead,
                           fetched_at=read_at, text_hash=document.sha256 if document else "")


# --- offers on rows: what the pages and views ask ---------------------------------------

@dataclass(frozen=True)
class Offer:
    action: str
    offered: bool
    why_not: str = ""
    link: ClaimCitation | None = None  # the citation it acts on (tag, replace)
    suggestion: Suggestion | None = None
    refresh: bool = False  # offered once the suggested page is read again

    @property
    def figures(self) -> tuple[str, str] | None:
        """(the claim's figure, its source's) for the correct-the-figure action."""
        return contradicted_figures(self.link.reasons) if self.action == CORRECT and self.link else None


@dataclass(frozen=True)
class ClaimOffers:
    tag: Offer
    by_suggestion: dict[int, dict[str, Offer]]  # suggestion pk -> {add, replace}
    archive: Offer | None = None
    correct: Offer | None = None

    def best(self) -> Suggestion | None:
        """The first suggestion (by rank) that may be added or may replace a citation."""
        for offers in self.by_suggestion.values():
            if any(o.offered for o in offers.values()):
                return offers[ADD].suggestion
        return None


def suggestion_max_age() -> timedelta:
    return timedelta(days=settings.SIDE_SUGGESTION_MAX_AGE_DAYS)


def _offer(claim: Claim, action: str, decision: Decision, suggestion: Suggestion | None = None) -> Offer:
    key = decision.target.key if decision.target else None
    link = next((l for l in claim.claim_citations.all() if l.pk == key), None) if key else None
    return Offer(action, decision.offered, decision.why_not, link, suggestion, decision.refresh)


def offer_for(claim: Claim, action: str, suggestion: Suggestion | None = None, *,
              now: datetime | None = None) -> Offer:
    """Whether `action` (tag, add, replace, correct) is offered on `claim`, and why not. The
    claim's citations with their sources (and the suggestion's source) should be
    loaded with their documents (see sideapp.claims.selectors.claim_detail)."""
    facts = claim_facts(claim)
    if action == TAG:
        return _offer(claim, TAG, tag_decision(facts))
    if action == ARCHIVE:
        return archive_offer(claim)
    if action == CORRECT:
        return _offer(claim, CORRECT, correct_decision(facts))
    if action not in (ADD, REPLACE) or suggestion is None:
        return Offer(action, False, "No suggested source was given.")
    decision = suggestion_decision(facts, suggestion_facts(suggestion), action,
                                   now=now or timezone.now(), max_age=suggestion_max_age())
    return _offer(claim, action, decision, suggestion)


def claim_offers(claim: Claim, *, now: datetime | None = None) -> ClaimOffers:
    """Every action on `claim`: the tag, and add / replace for each of its suggestions."""
    facts, now = claim_facts(claim), now or timezone.now()
    by_suggestion = {}
    for suggestion in claim.suggestions.all():
        page = suggestion_facts(suggestion)
        by_suggestion[suggestion.pk] = {
            action: _offer(claim, action, suggestion_decision(facts, page, action, now=now, max_age=suggestion_max_age()),
                           suggestion)
            for action in (ADD, REPLACE)}
    return ClaimOffers(tag=_offer(claim, TAG, tag_decision(facts)), by_suggestion=by_suggestion,
                       archive=archive_offer(claim), correct=_offer(claim, CORRECT, correct_decision(facts)))


def archive_offer(claim: Claim) -> Offer:
    """The archive edit (sideapp.sources.rescue): the copy as cited, or {{dead link}}."""
    from sideapp.sources.rescue import archive_decision, cited_pages

    links = list(claim.claim_citations.all())
    decision = archive_decision(cited_pages(links), current=claim.current and getattr(claim, "checkable", True))
    link = next((l for l in links if l.pk == decision.key), None)
    return Offer(ARCHIVE, decision.offered, decision.why_not, link)

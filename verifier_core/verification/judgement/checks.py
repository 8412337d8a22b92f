"""Every statement checked against the page before it is said.

A reason is read by an editor who then looks at the page: each one must be true of it. One
checker (`check`) tests a reason against the page's text and returns it as it may be said, cut
down to what holds, or None when nothing of it does:

- "no passage mentions X": X must be absent in every form the page may use (forms.py: dates in
  any format, a month alone in any date of it, numbers with or without separators or in words,
  plurals, abbreviations, case and diacritics), and not follow from the page's own figures and
  date ("125th anniversary" where the page says "125 years after", reckoning.py);
- "weakest part: P": the page must not state P word for word;
- a figure the page gives otherwise (a contradiction or a hint): the sentence it rests on must
  be the page's, at its offsets, and hold the page's figure; that the verifier reads it as the
  same fact of the same thing is figure_reading.py's part, before the reason is built;
- "the source says it: S": S must be the page's own line.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property

from verifier_core.verification.language.forms import Page, bare, held, plain
from verifier_core.verification.language.reckoning import reckoned_terms
from verifier_core.verification.types import Reason, ReasonKind


@dataclass
class PageCheck:
    """What the checker reads of a claim's sources: their texts, and each as a `Page`."""

    claim: str
    texts: list[str]
    page: Page

    @classmethod
    def of(cls, claim: str, analyses) -> "PageCheck":
        page = Page("\n".join(a.page_lower for a in analyses), [q for a in analyses for q in a.quantities],
                    set().union(*(a.page_terms for a in analyses)) if analyses else set())
        return cls(claim, [a.text for a in analyses if a.text], page)

    @cached_property
    def reckoned(self) -> set[str]:
        """The claim's words a span of years the page gives carries (reckoning.py)."""
        return reckoned_terms(self.claim, self.page.figures)


def check(reason: Reason, at: PageCheck) -> Reason | None:
    """The reason as far as it holds against the page (module docstring), or None."""
    kind = reason.kind
    if kind == ReasonKind.ABSENT:
        terms = tuple(t for t in (bare(t) for t in reason.terms) if t and absent(t, at))
        return replace(reason, terms=terms) if terms else None
    if kind == ReasonKind.PARTIAL and reason.part and stated(reason.part, at):
        return replace(reason, part="")
    if kind in (ReasonKind.FIGURE, ReasonKind.FIGURE_HINT):
        return reason if rests_on_page(reason, at) else None
    if kind == ReasonKind.QUOTE and not any(reason.sentence in t or plain(reason.sentence) in plain(t)
                                            for t in at.texts):
        return None
    return reason


def checked(reasons: list[Reason], at: PageCheck) -> list[Reason]:
    return [r for r in (check(r, at) for r in reasons) if r is not None]


def absent(term: str, at: PageCheck) -> bool:
    """Whether the page holds the term in no form, and no span of years it gives carries it."""
    if held(term, at.page):
        return False
    return term.lower() not in at.reckoned


def stated(part: str, at: PageCheck) -> bool:
    """The page states the part word for word (case, quote marks and spacing aside)."""
    want = plain(part).strip(" .,;:")
    return len(want.split()) >= 2 and want in at.page.plain


def rests_on_page(reason: Reason, at: PageCheck) -> bool:
    """The figure's sentence is a sentence of one of the pages, at its offsets, with the figure in it."""
    if not reason.sentence or reason.start < 0 or not reason.given:
        return False
    return any(t[reason.start:reason.end] == reason.sentence and reason.given in reason.sentence for t in at.texts)

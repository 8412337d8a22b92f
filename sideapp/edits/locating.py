"""Where an edit acts: the claim's own citation, found again in the text the edit is built on.

That text is the wiki's current revision, read when the edit is shown and again when it is
saved (`base_read`); when the wiki cannot be read, a preview is built on the checked
revision and says so, and nothing is saved.

The scan stored each claim with its fingerprint (its words and its citations). An edit is
built on a revision's text: that text is extracted again, the claim is the one with the
same fingerprint, and the occurrence it acts on is that claim's own (verifier_core's
`RefOccurrence`), never another sentence that cites the same page. A claim that is no
longer there, or a citation that is not, refuses the edit in words; nothing is guessed.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache

from sideapp.claims.models import Claim, ClaimCitation
from sideapp.scans.models import Article
from sideapp.scans.revisions import citation_fingerprint, claim_fingerprints
from sideapp.scans.wikiapi import WikiError
from sideapp.scans.wikis import client_for
from verifier_core.wikitext import extract
from verifier_core.wikitext import types as wt
from verifier_core.wikitext.edits import MOVED, LocateError, RefTarget, occurrence_target
from verifier_core.wikitext.style import article_citations


@dataclass(frozen=True)
class ClaimInText:
    """The claim as it stands in one text: its occurrences' citations' fingerprints beside
    them, so that the one citation an edit acts on is found by what it cites."""

    wikitext: str
    claim: wt.Claim
    citation_fps: tuple[str, ...]  # per occurrence of `claim`

    def target(self, link: ClaimCitation) -> RefTarget:
        """The occurrence of the claim that cites `link`'s citation."""
        for occurrence, fp in zip(self.claim.occurrences, self.citation_fps):
            if fp == link.citation.fingerprint:
                return occurrence_target(self.wikitext, occurrence)
        raise LocateError(MOVED)

    def last(self) -> RefTarget | None:
        """The claim's last citation, after which an added one goes (None: it has none)."""
        if not self.claim.occurrences:
            return None
        return occurrence_target(self.wikitext, self.claim.occurrences[-1])


def claim_in_text(claim: Claim, wikitext: str) -> ClaimInText:
    """`claim` in `wikitext`; LocateError in words when it is not there."""
    claims, fps = _extracted(claim.article.title, wikitext)
    mine = claims.get(claim.fingerprint)
    if mine is None:
        raise LocateError("the claim or its citation changed since the check; check this revision")
    return ClaimInText(wikitext, mine, tuple(fps[o.citation] for o in mine.occurrences))


@lru_cache(maxsize=4)
def article_style(wikitext: str):
    """How the article writes its citations (`style.article_citations`), read once per text
    however many of its claims are edited."""
    return article_citations(wikitext)


@lru_cache(maxsize=4)
def _extracted(title: str, wikitext: str) -> tuple[dict[str, wt.Claim], tuple[str, ...]]:
    """The text's claims by fingerprint (as the scan computes it) and its citations'
    fingerprints: one extraction per text, however many of its claims are edited."""
    extraction = extract(wikitext, title)
    fps = [citation_fingerprint(c) for c in extraction.citations]
    return dict(zip(claim_fingerprints(extraction.claims, fps), extraction.claims)), tuple(fps)


@dataclass(frozen=True)
class BaseText:
    """The revision an edit is built on."""

    title: str
    rev_id: int
    timestamp: datetime | None
    wikitext: str
    live: bool  # read from the wiki just now (False: the checked revision, the wiki did not answer)
    note: str = ""  # why it is not the wiki's current revision, in words
    problem: str = ""  # what the wiki answered instead
    page_id: int | None = None  # the wiki's id of the page (None: not known)


def base_read(article: Article) -> BaseText:
    """The wiki's current revision of the article, read by its page id where known (a page
    moved since is read as itself, never through its redirect); the checked one when the
    wiki cannot be read (`live` False, with the reason)."""
    revision = article.current_revision
    client = client_for(article.wiki, interactive=True)
    try:
        page = client.page_by_id(article.page_id) if article.page_id else client.page(article.title)
    except WikiError as exc:
        note = (f"The wiki could not be read just now ({exc}), so this change is built on revision "
                f"{revision.rev_id}, the one Side editor checked; saving reads the wiki again first.")
        return BaseText(article.title, revision.rev_id, revision.timestamp, revision.wikitext, False, note, str(exc),
                        page_id=article.page_id)
    return BaseText(page.title, page.rev_id, page.timestamp, page.wikitext, True, page_id=page.page_id or None)

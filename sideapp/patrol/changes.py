"""What one edit changed in an article's claims and citations, from the wikitext before
and after it: the same fingerprints as stored claims and citations (scans.revisions), so
that the claims an edit added are found among the rows its revision holds."""
from __future__ import annotations

from dataclasses import dataclass

from sideapp.scans.revisions import citation_fingerprint, claim_fingerprints
from verifier_core.wikitext import extract

# Tags MediaWiki puts on an edit that undoes others (1.36+).
REVERT_TAGS = frozenset({"mw-undo", "mw-rollback", "mw-manual-revert"})


@dataclass(frozen=True)
class Side:
    claims: frozenset[str]  # claim fingerprints
    needs_citation: frozenset[str]  # claims tagged {{citation needed}}
    citations: frozenset[str]  # citation fingerprints


@dataclass(frozen=True)
class EditChanges:
    added_claims: frozenset[str]  # claims new in this revision (new words or new citations)
    gained_tag: frozenset[str]  # claims that gained {{citation needed}}
    new_citations: frozenset[str]  # citations new in this revision
    removed_citations: frozenset[str]

    @property
    def checked(self) -> frozenset[str]:
        return self.added_claims | self.gained_tag


def side_of(wikitext: str, title: str) -> Side:
    if not wikitext:
        return Side(frozenset(), frozenset(), frozenset())
    extraction = extract(wikitext, title)
    citations = [citation_fingerprint(c) for c in extraction.citations]
    claims = claim_fingerprints(extraction.claims, citations)
    tagged = {fp for fp, claim in zip(claims, extraction.claims) if claim.needs_citation}
    return Side(frozenset(claims), frozenset(tagged), frozenset(citations))


def edit_changes(before: str, after: str, title: str) -> EditChanges:
    """The changes from wikitext `before` (empty: a new page) to `after`."""
    old, new = side_of(before, title), side_of(after, title)
    return EditChanges(
        added_claims=new.claims - old.claims,
        gained_tag=(new.needs_citation - old.needs_citation) & old.claims,
        new_citations=new.citations - old.citations,
        removed_citations=old.citations - new.citations,
    )

"""A claim's verdict from its citations' own verdicts, and its reason naming them.

Each citation of a claim is judged on its own source (ClaimCitation); the claim is judged
on the union of their evidence (verifier_core). Two rules join them here, on plain data:

- the claim is supported when its citations together support it, so never weaker than
  the best of them alone (a second source that supports the claim makes it supported,
  whatever the first one says);
- with several citations, the claim's reason names each by its title: the ones that
  support no part of it, those that give another figure for the claim's (contradict it),
  those that could not be read, and, when the others fail, the ones that carry it. One
  reason under the claim then never passes one source's word off as another's (the claim's
  reasons name the source that speaks for it: sideapp.claims.reasons.spoken_by).
"""
from __future__ import annotations

from dataclasses import dataclass

from sideapp.claims.reasons import note, spoken_by
from verifier_core.verification import Verdict
from verifier_core.verification.judgement.verdicts import HIGH

# How much of the claim a verdict says the source carries.
STRENGTH = {Verdict.NOT_SUPPORTED: 0, Verdict.PARTIALLY_SUPPORTED: 1, Verdict.SUPPORTED: 2}
NAME_CHARS = 70  # a long title is cut in the reason; the cited-source box has it whole


@dataclass(frozen=True)
class Cited:
    """One citation's own judgement of the claim."""
    name: str  # how the reason calls it: its title, else its URL
    verdict: str
    confidence: str = ""
    score: float | None = None
    contradicts: bool = False  # its source gives another figure for the claim's (a figure reason)


def citation_name(citation) -> str:
    """A citation as a reader knows it: its title, else its work or URL."""
    name = " ".join((citation.title or citation.work or citation.url or "").split())
    return name if len(name) <= NAME_CHARS else name[:NAME_CHARS - 1].rstrip() + "…"


def _rank(one: Cited) -> tuple:
    return STRENGTH.get(one.verdict, -1), one.confidence == HIGH, one.score if one.score is not None else -1.0


def strongest(cited: list[Cited]) -> Cited | None:
    """The citation that carries most of the claim on its own (None when none was read)."""
    judged = [c for c in cited if c.verdict in STRENGTH]
    return max(judged, key=_rank, default=None)


def stronger_alone(verdict: str, cited: list[Cited]) -> Cited | None:
    """The citation whose own verdict is stronger than the claim's `verdict` on the union
    of all of them, if any: the claim takes that citation's verdict."""
    best = strongest(cited)
    if best is None or STRENGTH[best.verdict] <= STRENGTH.get(verdict, -1):
        return None
    return best


def speaking_for(verdict: str, cited: list[Cited]) -> Cited | None:
    """The citation whose own words (evidence, reason) the claim shows: the best one alone
    when it reaches the claim's support on its own, so that "the source says it" quotes a
    source that says it, never another cited page's closest line. None when the claim's
    support comes only from its citations together, or none supports any of it."""
    best = strongest(cited)
    if best is None or best.verdict == Verdict.NOT_SUPPORTED:
        return None
    return best if STRENGTH[best.verdict] >= STRENGTH.get(verdict, -1) else None


def _names(cited: list[Cited]) -> str:
    names = [f"“{c.name}”" if c.name else "an untitled citation" for c in cited]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _verb(cited: list[Cited], one: str, several: str) -> str:
    return f"{_names(cited)} {one if len(cited) == 1 else several}"


def citations_said(verdict: str, cited: list[Cited], named: Cited | None = None) -> str:
    """What the claim's reason adds about its citations by name ("" with one citation,
    whose own reason the claim's already is); `named` is named by the reason already."""
    if len(cited) < 2:
        return ""
    by = {v: [c for c in cited if c.verdict == v] for v in Verdict}
    said = []
    failing = by[Verdict.NOT_SUPPORTED] + by[Verdict.PARTIALLY_SUPPORTED] + by[Verdict.SOURCE_UNAVAILABLE]
    if verdict in (Verdict.SUPPORTED, Verdict.PARTIALLY_SUPPORTED) and failing:
        if carrying := [c for c in by[Verdict.SUPPORTED] if c is not named]:
            said.append(_verb(carrying, "supports it", "support it"))
        partly = [c for c in by[Verdict.PARTIALLY_SUPPORTED] if c is not named]
        if partly and verdict == Verdict.PARTIALLY_SUPPORTED:
            said.append(_verb(partly, "supports part of it", "support parts of it"))
    # A source that gives another figure may support the rest of the claim: it contradicts
    # the claim, which is not the same as saying nothing of it.
    if contradicting := [c for c in by[Verdict.NOT_SUPPORTED] if c.contradicts]:
        said.append(_verb(contradicting, "contradicts it", "contradict it"))
    if silent := [c for c in by[Verdict.NOT_SUPPORTED] if not c.contradicts]:
        said.append(_verb(silent, "supports no part of it", "support no part of it"))
    if by[Verdict.SOURCE_UNAVAILABLE]:
        said.append(_verb(by[Verdict.SOURCE_UNAVAILABLE], "could not be read", "could not be read"))
    return "; ".join(said)


def reasons_with_citations(reasons: list[dict], verdict: str, cited: list[Cited],
                           speaker: Cited | None = None) -> list[dict]:
    """The claim's reasons (data) followed by what they say of its citations by name. The first
    reason, when it speaks for the page (`speaker`'s own: "the source says it: ..."), names it in
    place of "the source"."""
    spoken = spoken_by(reasons, speaker.name) if speaker is not None and len(cited) > 1 else reasons
    return spoken + note(citations_said(verdict, cited, speaker if spoken is not reasons else None))

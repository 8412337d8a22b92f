"""Claims from a rendered paragraph, as in SIDE.

A claim is the text a group of citations backs: the sentence before the group, or
only the clause since the previous group when one sentence carries several groups.
Markers with nothing but spaces or punctuation between them form one group
(`<ref>a</ref><ref>b</ref>`, `<ref>a</ref>{{dead link}}`). A maintenance tag that
follows a citation in its group flags that citation; every tag is also a tag of the
claim. `{{citation needed}}` with no citation makes a claim that needs one. Any other tag
standing alone inside a sentence (`Today{{when?}}, the fleet...`) questions words of
that sentence and does not cut it: it joins the next group of the same sentence.
Each claim also carries the statement it is checked as (statements.py).
"""
from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass, field

from ..text import Span, sentence_spans
from .builder import Marker, RawParagraph
from .statements import Place, statement
from .types import Citation, Claim, Paragraph, RefOccurrence

MAX_CONTEXT_CHARS = 2000
_WORD_CHAR = re.compile(r"[^\W_]")  # a letter or digit in any script
_TRIM_START = " ,;:)]–—-"
_TRIM_END = " ,;:([–—-"


@dataclass
class _Group:
    start: int
    end: int
    markers: list[Marker] = field(default_factory=list)


def paragraph_claims(
    raw: RawParagraph,
    section: list[str],
    paragraph_index: int,
    citations: list[Citation],
    subject: str = "",
) -> tuple[Paragraph, list[Claim]]:
    text = raw.text
    spans = sentence_spans(text)
    starts = [span.start for span in spans]
    cells = [m for m in raw.markers if m.kind == "cell"]
    claims: list[Claim] = []
    previous: _Group | None = None
    for group in _joined_tags(_groups(raw.markers, text), starts):
        claim = _claim(text, spans, starts, group, previous.end if previous else 0)
        before, previous = previous, group
        if claim is None:
            continue
        claim.span = _span(text, claim, group, before)
        claim.section = list(section)
        claim.paragraph_index = paragraph_index
        _attach_markers(claim, group, citations)
        span = spans[claim.sentence_index]
        place = Place(text, text[span.start : span.end].strip(), group.start, cells, subject,
                      section[-1] if section else "")
        _check_as(claim, statement(claim.text, raw.shape, place))
        claims.append(claim)
    return Paragraph([text[s.start : s.end] for s in spans]), claims


def _check_as(claim: Claim, built) -> None:
    claim.checked = "" if built.text == claim.text else built.text
    claim.checkable = built.checkable
    claim.kind = built.kind


def _groups(markers: list[Marker], text: str) -> list[_Group]:
    groups: list[_Group] = []
    for marker in sorted((m for m in markers if m.kind != "cell"), key=lambda m: m.offset):
        if groups and not _has_word(text[groups[-1].end : marker.offset]):
            groups[-1].end = max(groups[-1].end, marker.offset)
            groups[-1].markers.append(marker)
        else:
            groups.append(_Group(marker.offset, marker.offset, [marker]))
    return groups


def _joined_tags(groups: list[_Group], starts: list[int]) -> list[_Group]:
    """A group of tags only (no citation, no `citation needed`) followed by another group
    in the same sentence hands its tags on to that group instead of ending a claim."""
    out: list[_Group] = []
    carried: list[Marker] = []
    for group, following in zip(groups, [*groups[1:], None]):
        group.markers[:0] = carried
        carried = []
        questions = all(m.kind == "tag" and m.value != "citation needed" for m in group.markers)
        if questions and following is not None and _sentence(starts, following.start) == _sentence(starts, group.start):
            carried = group.markers
            continue
        out.append(group)
    return out


def _sentence(starts: list[int], offset: int) -> int:
    return bisect_left(starts, offset) - 1


def _claim(
    text: str, spans: list[Span], starts: list[int], group: _Group, previous_end: int
) -> Claim | None:
    sentence = _sentence(starts, group.start)  # last sentence starting before it
    if sentence < 0:
        return None  # a citation with no text before it in its paragraph
    clause_start = max(spans[sentence].start, previous_end)
    clause = text[clause_start : group.start]
    lead = len(clause) - len(clause.lstrip(_TRIM_START))
    claim_text = clause.lstrip(_TRIM_START).rstrip(_TRIM_END)
    if not _has_word(claim_text):
        return None
    context = _context(text, starts, clause_start + lead)
    return Claim(
        text=claim_text,
        context=context,
        section=[],
        citation_indices=[],
        sentence_index=sentence,
        after=text[group.end : spans[sentence].end].strip(),
    )


def _span(text: str, claim: Claim, group: _Group, before: _Group | None) -> tuple[int, int] | None:
    """Where the claim's words stand in the wikitext: from the end of the citations (and
    their tags) right before them in the paragraph to its own first citation, when both
    places are known and nothing but spaces or punctuation lies between that group and the
    claim's first word (`...long.{{sfn|x}} The new pier ...<ref>`); None otherwise."""
    own = next((m.place for m in group.markers if m.place is not None), None)
    start = text.find(claim.text, before.end if before else 0, group.start + 1) if claim.text else -1
    if own is None or before is None or start < 0 or _has_word(text[before.end : start]):
        return None
    places = [m.place for m in before.markers if m.place is not None]
    if not places or len(places) != len(before.markers) or max(p.end for p in places) > own.start:
        return None
    return max(p.end for p in places), own.start


def _context(text: str, starts: list[int], claim_start: int) -> str:
    """The paragraph before the claim, at most the last MAX_CONTEXT_CHARS characters
    cut at a sentence start (a list or table "paragraph" can be huge)."""
    start = claim_start - MAX_CONTEXT_CHARS
    if start > 0:
        first = bisect_left(starts, start)
        start = starts[first] if first < len(starts) and starts[first] < claim_start else start
    return text[max(0, start) : claim_start].strip()


def _attach_markers(claim: Claim, group: _Group, citations: list[Citation]) -> None:
    last_citation: int | None = None
    for marker in group.markers:
        if marker.kind == "cite":
            index = int(marker.value)
            if index not in claim.citation_indices:
                claim.citation_indices.append(index)
            last_citation = index
            claim.occurrences.append(_occurrence(index, marker.place))
            continue
        tag = str(marker.value)
        if tag not in claim.tags:
            claim.tags.append(tag)
        if last_citation is not None and tag not in citations[last_citation].flags:
            citations[last_citation].flags.append(tag)
        if last_citation is not None and tag not in claim.occurrences[-1].tags:
            claim.occurrences[-1].tags.append(tag)  # this use's own tag, not every use's
        if tag == "citation needed" and marker.place is not None and claim.needs_citation_span is None:
            claim.needs_citation_span = (marker.place.start, marker.place.end)
    claim.needs_citation = not claim.citation_indices and "citation needed" in claim.tags


def _occurrence(index: int, place) -> RefOccurrence:
    if place is None:
        return RefOccurrence(index, None, None)
    return RefOccurrence(index, place.start, place.end, place.kind, place.name, place.group)


def _has_word(text: str) -> bool:
    return _WORD_CHAR.search(text) is not None

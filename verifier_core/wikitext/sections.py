"""A page's sections as MediaWiki's `action=edit&section=N` sees them, so that a change
to one claim can be saved as an edit of its section only.

Section 0 is the lead; section N starts at the page's N-th heading and runs to the next
heading of the same or a higher level (a section holds its subsections). Headings are
counted as the extractor counts them (the page's top-level headings, see
document._render_sections), so `Claim.section_number` names the same section.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import mwparserfromhell
from mwparserfromhell.nodes import Heading


@dataclass(frozen=True)
class SectionChange:
    number: int | None  # None: the change spans sections; save the whole page
    old: str  # the section's text before (what the wiki returns for rvsection=N)
    new: str  # the section's text after: what `action=edit&section=N&text=` takes


@lru_cache(maxsize=8)
def _headings(wikitext: str) -> tuple[tuple[int, int, str], ...]:
    """(offset, level, heading as written) of the page's headings, in order (one parse per
    text: every claim edited on a page asks for the same headings)."""
    headings, at = [], 0
    for node in mwparserfromhell.parse(wikitext, skip_style_tags=True).nodes:
        if isinstance(node, Heading):
            headings.append((at, node.level, str(node).strip()))
        at += len(str(node))
    return tuple(headings)


def section_span(wikitext: str, number: int) -> tuple[int, int] | None:
    """(start, end) offsets of section `number`, or None when the page has no such section."""
    headings = [(at, level) for at, level, _ in _headings(wikitext)]
    if number == 0:
        return 0, headings[0][0] if headings else len(wikitext)
    if not 0 < number <= len(headings):
        return None
    start, level = headings[number - 1]
    end = next((offset for offset, other in headings[number:] if other <= level), len(wikitext))
    return start, end


def section_change(old: str, new: str, number: int) -> SectionChange:
    """The part of a whole-page change (`old` -> `new`) that falls in section `number`;
    `number=None` with the whole pages when the change reaches outside that section
    (e.g. a ref definition moved to a use in another section)."""
    span = section_span(old, number)
    if span is not None:
        start, end = span
        shift = len(new) - len(old)
        if old[:start] == new[:start] and old[end:] == new[end + shift:]:
            # MediaWiki keeps the blank lines between sections itself (Parser::replaceSection).
            return SectionChange(number, old[start:end].rstrip(), new[start:end + shift].rstrip())
    return SectionChange(None, old, new)


def section_heading(wikitext: str, number: int) -> str | None:
    """The heading of section `number` as written ("== Later life =="); "" for the lead."""
    if number == 0:
        return ""
    headings = _headings(wikitext)
    return headings[number - 1][2] if 0 < number <= len(headings) else None


def section_text(wikitext: str, heading: str, number: int) -> str | None:
    """The text of the section headed `heading` (the lead for ""): the one numbered
    `number` when several share the heading; None when the page has none so headed."""
    if heading == "":
        span = section_span(wikitext, 0)
        return wikitext[span[0]:span[1]].rstrip() if span else None
    numbers = [n for n, (_, _, written) in enumerate(_headings(wikitext), 1) if written == heading]
    if not numbers:
        return None
    span = section_span(wikitext, min(numbers, key=lambda n: abs(n - number)))
    return wikitext[span[0]:span[1]].rstrip() if span else None

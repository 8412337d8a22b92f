"""A page's sections as MediaWiki's `action=edit&section=N` sees them, so that a change
to one claim can be saved as an edit of its section only.

Section 0 is the lead; section N starts at the page's N-th heading and runs to the next
heading of the same or a higher level (a section holds its subsections). Headings are
counted as the extractor counts them (the page's top-level headings, see
document._render_sections), so `Claim.section_number` names the same section.
"""
from __future__ import annotations

from dataclasses import dataclass

import mwparserfromhell
from mwparserfromhell.nodes import Heading


@dataclass(frozen=True)
class SectionChange:
    number: int | None  # None: the change spans sections; save the whole page
    old: str  # the section's text before (what the wiki returns for rvsection=N)
    new: str  # the section's text after: what `action=edit&section=N&text=` takes


def section_span(wikitext: str, number: int) -> tuple[int, int] | None:
    """(start, end) offsets of section `number`, or None when the page has no such section."""
    headings: list[tuple[int, int]] = []  # (offset, level)
    at = 0
    for node in mwparserfromhell.parse(wikitext, skip_style_tags=True).nodes:
        if isinstance(node, Heading):
            headings.append((at, node.level))
        at += len(str(node))
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

"""Wikitext -> sections, paragraphs, sentences, citations, claims and links.

Pure Python over mwparserfromhell; never imports Django. The public entry points
never raise: whatever the input, they return data, and problems go to
`Extraction.warnings`.

    extract(wikitext, title) -> Extraction
    extract_links(wikitext) -> list[WikiLink]
    redirect_target(wikitext) -> str | None
"""
from __future__ import annotations

import logging

from .clean import strip_comments
from .document import extract_document, parse
from .links import links_in
from .links import redirect_target as _redirect_target
from .types import Citation, Claim, Extraction, Paragraph, Section, WikiLink

__all__ = [
    "Citation",
    "Claim",
    "Extraction",
    "Paragraph",
    "Section",
    "WikiLink",
    "FAILURE_WARNING",
    "extract",
    "extract_links",
    "redirect_target",
]

log = logging.getLogger(__name__)
FAILURE_WARNING = "extraction failed"


def extract(wikitext: str, title: str) -> Extraction:
    """Everything the scan needs from one article's wikitext."""
    try:
        return extract_document(wikitext if isinstance(wikitext, str) else "", title)
    except Exception as exc:  # a bug or a parser failure must not end the scan
        log.exception("wikitext extraction failed for %r", title)
        return Extraction(
            title=title,
            sections=[],
            citations=[],
            claims=[],
            plain_text="",
            warnings=[f"{FAILURE_WARNING}: {type(exc).__name__}: {exc}"],
        )


def extract_links(wikitext: str) -> list[WikiLink]:
    """Article-namespace wikilinks, target normalised, in order of appearance."""
    try:
        return links_in(parse(strip_comments(wikitext or "")))
    except Exception:
        log.exception("wikilink extraction failed")
        return []


def redirect_target(wikitext: str) -> str | None:
    """The target of a `#REDIRECT [[X]]` page, or None."""
    return _redirect_target(wikitext if isinstance(wikitext, str) else "")

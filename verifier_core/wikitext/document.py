"""Whole-article extraction: sections, paragraphs, citations, claims, plain text."""
from __future__ import annotations

import mwparserfromhell
from mwparserfromhell.nodes import Heading, Node
from mwparserfromhell.wikicode import Wikicode

from .builder import RawParagraph
from .citations import Registry
from .claims import paragraph_claims
from .clean import OffsetMap, without_comments
from .context import Ctx
from .links import links_in, redirect_target
from .render import new_ctx, plain, render_code, render_nodes
from .scan import prepass
from .statements import list_leads, subject_of
from .types import Claim, Extraction, Section

MAX_INPUT_CHARS = 4_000_000  # twice MediaWiki's page size limit


def parse(wikitext: str) -> Wikicode:
    # Style tags ('' and ''') are left as text and stripped later: the parser's style
    # tokenizer is the slow and fragile part on long pages.
    return mwparserfromhell.parse(wikitext, skip_style_tags=True)


def extract_document(wikitext: str, title: str) -> Extraction:
    warnings: list[str] = []
    if len(wikitext) > MAX_INPUT_CHARS:
        warnings.append(f"input cut to {MAX_INPUT_CHARS} characters")
        wikitext = wikitext[:MAX_INPUT_CHARS]
    wikitext, offsets = without_comments(wikitext)
    target = redirect_target(wikitext)
    code = parse(wikitext)
    if target is not None:
        return Extraction(title, [], [], [], "", links_in(code), target, warnings=warnings)
    pre = prepass(code, wikitext)
    registry = Registry(pre, plain)
    ctx = new_ctx(registry, pre.citing, title)
    sections, claims = _render_sections(ctx, code)
    registry.finish()
    _places_as_written(claims, offsets)
    if pre.malformed_refs:
        warnings.append(f"{pre.malformed_refs} malformed ref tag(s) left as text")
    return Extraction(
        title=title,
        sections=sections,
        citations=registry.citations,
        claims=claims,
        plain_text=_plain_text(sections),
        links=links_in(code),
        citation_occurrences=pre.occurrences,
        warnings=warnings + registry.warnings,
    )


def _render_sections(ctx: Ctx, code: Wikicode) -> tuple[list[Section], list[Claim]]:
    sections: list[Section] = []
    claims: list[Claim] = []
    stack: list[tuple[int, str]] = []  # (heading level, title) of the open sections
    subject = subject_of(ctx.title)
    paragraph_count = 0
    # MediaWiki numbers sections by their headings in page order (0 is the lead).
    for number, (heading, nodes) in enumerate(_split(code)):
        if heading is not None:
            level = heading.level
            while stack and stack[-1][0] >= level:
                stack.pop()
            stack.append((level, _heading_title(ctx, heading)))
        section = Section(path=[t for _, t in stack])
        raw: list[RawParagraph] = []
        ctx.start_section(raw)
        render_nodes(ctx, nodes)
        ctx.break_paragraph()
        list_leads(raw, subject, section.path[-1] if section.path else "")
        for paragraph in raw:
            built, found = paragraph_claims(
                paragraph, section.path, paragraph_count, ctx.registry.citations, subject
            )
            section.paragraphs.append(built)
            for claim in found:
                claim.section_number = number
            claims.extend(found)
            paragraph_count += 1
        sections.append(section)
    return sections, claims


def _places_as_written(claims: list[Claim], offsets: OffsetMap) -> None:
    """Occurrence offsets into the wikitext as given (with its comments), not as parsed."""
    for claim in claims:
        for occurrence in claim.occurrences:
            if occurrence.start is not None and occurrence.end is not None:
                occurrence.start, occurrence.end = offsets.start(occurrence.start), offsets.end(occurrence.end)
        if claim.needs_citation_span is not None:
            start, end = claim.needs_citation_span
            claim.needs_citation_span = (offsets.start(start), offsets.end(end))
        if claim.span is not None:  # from the end of a citation to the start of another
            start, end = claim.span
            claim.span = (offsets.end(start), offsets.start(end))


def _split(code: Wikicode) -> list[tuple[Heading | None, list[Node]]]:
    parts: list[tuple[Heading | None, list[Node]]] = [(None, [])]
    for node in code.nodes:
        if isinstance(node, Heading):
            parts.append((node, []))
        else:
            parts[-1][1].append(node)
    return parts


def _heading_title(ctx: Ctx, heading: Heading) -> str:
    with ctx.detached() as frame:
        render_code(ctx, heading.title)
        ctx.break_paragraph()
    return " ".join(" ".join(p.text for p in frame.sink).split())


def _plain_text(sections: list[Section]) -> str:
    blocks: list[str] = []
    for section in sections:
        if section.path:
            blocks.append(section.path[-1])
        blocks.extend(" ".join(p.sentences) for p in section.paragraphs)
    return "\n\n".join(b for b in blocks if b)

"""Plain data returned by the wikitext extractor. No behaviour, no Django.

The scan service persists these; the retrieval engine reads `links` for its anchor
dictionary. Field names are a contract: extend, don't rename.
"""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Citation:
    """One cited work. A named ref used several times is one Citation."""

    index: int  # position in Extraction.citations
    kind: str  # "ref" | "sfn" (short footnote) | "bare_url"
    raw: str  # raw wikitext of the ref body (or the short-footnote template)
    ref_name: str | None = None
    template: str | None = None  # normalised name: "cite web", "citation", "sfn", ...
    url: str | None = None
    archive_url: str | None = None
    title: str | None = None
    work: str | None = None  # website / work / newspaper / journal
    publisher: str | None = None
    date: str | None = None
    access_date: str | None = None
    doi: str | None = None
    isbn: str | None = None
    quote: str | None = None
    fields: dict[str, str] = field(default_factory=dict)  # every template parameter, as text
    flags: list[str] = field(default_factory=list)  # maintenance tags: "dead link", ...
    # For short footnotes: the bibliography entry they resolve to (its raw wikitext), and
    # the location inside the work ("p. 12").
    resolved_from: str | None = None
    location: str | None = None


@dataclass
class RefOccurrence:
    """One place in the wikitext where a claim's citation stands: a `<ref>` tag (a
    definition, an unnamed ref or a re-use of a named one), a short footnote (`{{sfn}}`)
    or `{{r|name}}`. Offsets are into the text given to `extract`; None when the
    extractor could not tie the citation to its place (a ref re-parsed inside a gallery)."""

    citation: int  # index into Extraction.citations
    start: int | None
    end: int | None
    kind: str = "ref"  # "ref" (a body) | "reuse" (<ref name=x/>) | "sfn" | "r" ({{r|x}})
    name: str | None = None
    group: str = ""
    tags: list[str] = field(default_factory=list)  # maintenance tags right after it


@dataclass
class Claim:
    text: str  # plain text of the sentence (or clause) the citations back
    context: str  # preceding sentences of the same paragraph
    section: list[str]  # section path, outermost first; [] for the lead
    citation_indices: list[int]  # into Extraction.citations, in order of appearance
    needs_citation: bool = False  # carries {{citation needed}} and no citation
    tags: list[str] = field(default_factory=list)  # "citation needed", "failed verification", ...
    paragraph_index: int = 0  # position of the paragraph in the article
    sentence_index: int = 0  # position of the sentence in its paragraph
    after: str = ""  # the rest of its sentence when the claim is a clause
    section_number: int = 0  # MediaWiki's section index (action=edit&section=N); 0: lead
    # The statement verified when `text` is not one on its own (statements.py): "" when
    # it is `text` itself. Not checkable: no statement of enough words could be built.
    checked: str = ""
    checkable: bool = True
    kind: str = "sentence"  # "sentence" | "clause" | "item" | "row" | "field"
    # Where its citations stand in the wikitext, in order (an edit acts on one of them),
    # and where its {{citation needed}} stands when it has one.
    occurrences: list[RefOccurrence] = field(default_factory=list)
    needs_citation_span: tuple[int, int] | None = None
    # The stretch of wikitext that holds the claim's words, ending at its first citation
    # (claims._span); None where the extractor cannot tell (the first claim of a paragraph).
    # An edit checks it against the text before it trusts it (sentence.claim_span).
    span: tuple[int, int] | None = None

    @property
    def statement(self) -> str:
        return self.checked or self.text


@dataclass
class Paragraph:
    sentences: list[str]


@dataclass
class Section:
    path: list[str]  # [] for the lead
    paragraphs: list[Paragraph] = field(default_factory=list)


@dataclass
class WikiLink:
    target: str  # normalised page title (first letter upper-case, underscores as spaces)
    anchor: str  # the text shown for the link


@dataclass
class Extraction:
    title: str
    sections: list[Section]
    citations: list[Citation]
    claims: list[Claim]
    plain_text: str  # the article body as plain text, claims are found in it
    links: list[WikiLink] = field(default_factory=list)
    redirect_target: str | None = None
    # Counted in the body, for checks: every <ref> occurrence (definition or reuse) and
    # every short-footnote template occurrence.
    citation_occurrences: int = 0
    warnings: list[str] = field(default_factory=list)  # e.g. "unresolved ref name 'x'"

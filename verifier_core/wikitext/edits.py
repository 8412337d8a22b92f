"""Wikitext changes an editor asks for on one claim, and their unified diff.

Pure functions over the page's text. Three changes:

- `add_citation`: a new ref right after the claim's citation (after the maintenance
  tags attached to it); for a claim with no citation, in place of its
  `{{citation needed}}`.
- `replace_citation`: the failing citation's ref is replaced by the new one at this
  claim only. A named ref re-used elsewhere is never broken: when this use holds the
  definition, the definition moves to the next use; when a list-defined ref loses its
  only use, its definition in the reference list goes too (MediaWiki would show an
  error for an unused list-defined ref).
- `tag_failed_verification`: `{{failed verification|date=Month YYYY}}` after the
  claim's citation.

A new ref is written the way the article writes its own (see `style`): its cite
template, site parameter and date format, the site's name as the article already spells
it; and when a named ref of the page already cites the same page, that ref is re-used
by name (`<ref name="x" />`) instead of copied.

A claim is found by its citation's occurrences and its words (see `locate`); anything
that cannot be placed raises `LocateError` with a sentence for the editor.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from .diff import unified_diff
from .locate import (
    LocateError,
    Occurrence,
    attached_tags_end,
    best_for_claim,
    citation_occurrences,
    has_attached_tag,
    ref_occurrences,
    tag_occurrences,
)
from .style import ArticleCitations, CiteStyle, article_citations, format_date

__all__ = [
    "CitedRef", "LocateError", "NewSource", "WikitextChange",
    "add_citation", "failed_verification_tag", "new_citation", "replace_citation",
    "tag_failed_verification", "unified_diff",
]

_MONTHS = ("January February March April May June July August September October "
           "November December").split()


@dataclass(frozen=True)
class NewSource:
    url: str
    title: str = ""
    website: str = ""  # the site's own name (its og:site_name); never a host name
    access_date: date | None = None


@dataclass(frozen=True)
class CitedRef:
    """The claim's citation as the extractor gave it (`Citation.ref_name/raw/kind`)."""

    raw: str
    ref_name: str | None = None
    kind: str = "ref"


@dataclass(frozen=True)
class WikitextChange:
    old: str
    new: str
    snippet: str  # the text added, for editors who edit by hand
    what: str  # one line: what changed, for the edit summary
    renamed: str = ""  # the ref given a name so that the snippet can re-use it ("" = none)


def _field(value: str) -> str:
    """A template parameter value that cannot end the template or the ref early."""
    value = " ".join(value.split()).replace("{{", "{ {").replace("}}", "} }")
    return value.replace("<", "&lt;").replace(">", "&gt;").replace("|", "{{!}}")


def new_citation(source: NewSource, style: CiteStyle = CiteStyle()) -> str:
    """`<ref>{{cite web |url= |title= |website= |access-date=}}</ref>` in `style` (its
    template, site parameter, site name and date format); the URL keeps its characters
    except those that would end the template ("|" as %7C, spaces as %20)."""
    url = source.url.strip().replace(" ", "%20").replace("|", "%7C")
    url = url.replace("{", "%7B").replace("}", "%7D").replace("<", "%3C").replace(">", "%3E")
    site = style.site_name or source.website
    parts = [
        f"url={url}",
        f"title={_field(source.title) or _field(url)}",
        *([f"{style.site_param}={_field(site)}"] if site.strip() else []),
        f"access-date={format_date(source.access_date or date.today(), style.date_format)}",
    ]
    return "<ref>{{" + style.template + " |" + " |".join(parts) + "}}</ref>"


def named_ref(name: str) -> str:
    quote = "'" if '"' in name else '"'
    return f"<ref name={quote}{name}{quote} />"


@dataclass(frozen=True)
class _NewRef:
    text: str
    elsewhere: tuple[tuple[int, int, str], ...] = ()  # (start, end, text) edits it needs
    renamed: str = ""  # the opening tag of the ref it names, as it will read


def _new_ref(wikitext: str, source: NewSource, article: ArticleCitations | None) -> _NewRef:
    """The ref to write: a re-use of the ref that already cites the page (naming it
    first when it has no name), else a new citation in the article's style."""
    article = article if article is not None else article_citations(wikitext)
    reuse = article.reuse_for(source.url)
    if reuse is None:
        return _NewRef(new_citation(source, article.style_for(source.url)))
    if reuse.unnamed is None:
        return _NewRef(named_ref(reuse.name))
    end = wikitext.index(">", reuse.unnamed.start)
    name = f' name="{reuse.name}"'
    return _NewRef(named_ref(reuse.name), ((end, end, name),), wikitext[reuse.unnamed.start:end] + name + ">")



def _applied(wikitext: str, edits: list[tuple[int, int, str]]) -> str:
    """`wikitext` with (start, end, text) replacements, which must not overlap."""
    for start, end, text in sorted(edits, reverse=True):
        wikitext = wikitext[:start] + text + wikitext[end:]
    return wikitext


def failed_verification_tag(when: date) -> str:
    return "{{failed verification|date=" + f"{_MONTHS[when.month - 1]} {when.year}" + "}}"


def _claim_occurrence(wikitext: str, claim_text: str, cited: CitedRef) -> Occurrence:
    found = citation_occurrences(wikitext, ref_name=cited.ref_name, raw=cited.raw, kind=cited.kind)
    if not found:
        raise LocateError(
            "the citation of this claim is no longer in the page's current text; "
            "re-scan the article"
        )
    return best_for_claim(wikitext, found, claim_text)


def _insert(wikitext: str, at: int, text: str) -> str:
    return wikitext[:at] + text + wikitext[at:]


def add_citation(
    wikitext: str, *, claim_text: str, cited: CitedRef | None, source: NewSource,
    article: ArticleCitations | None = None,
) -> WikitextChange:
    """The new ref after the claim's citation, or in place of its {{citation needed}}."""
    ref = _new_ref(wikitext, source, article)
    if cited is None:
        tags = tag_occurrences(wikitext, "citation needed")
        if not tags:
            raise LocateError("the claim has no citation and no {{citation needed}} tag to replace")
        tag = best_for_claim(wikitext, tags, claim_text)
        new = _applied(wikitext, [(tag.start, tag.end, ref.text), *ref.elsewhere])
        return WikitextChange(wikitext, new, ref.text, "Added a citation where one was needed", ref.renamed)
    occurrence = _claim_occurrence(wikitext, claim_text, cited)
    at = attached_tags_end(wikitext, occurrence.end)
    new = _applied(wikitext, [(at, at, ref.text), *ref.elsewhere])
    return WikitextChange(wikitext, new, ref.text, "Added a citation that supports the claim", ref.renamed)


def replace_citation(
    wikitext: str, *, claim_text: str, cited: CitedRef, source: NewSource,
    article: ArticleCitations | None = None,
) -> WikitextChange:
    """The claim's failing ref replaced by the new one, at this claim only."""
    if cited.kind == "sfn":
        raise LocateError("short footnotes ({{sfn}}) cannot be replaced here; add the source instead")
    occurrence = _claim_occurrence(wikitext, claim_text, cited)
    ref = _new_ref(wikitext, source, article)
    others = [o for o in ref_occurrences(wikitext)
              if cited.ref_name and o.name == cited.ref_name and o.group == occurrence.group
              and o.start != occurrence.start]
    edits: list[tuple[int, int, str]] = [(occurrence.start, occurrence.end, ref.text), *ref.elsewhere]
    body_uses = [o for o in others if not o.in_list]
    if occurrence.body is not None and body_uses:
        # This use held the definition: the next use takes it over, so the others still resolve.
        heir = body_uses[0]
        if heir.body is None:
            edits.append((heir.start, heir.end, _definition(occurrence, wikitext)))
    elif not body_uses:
        edits += [(o.start, o.end, "") for o in others if o.in_list]
    return WikitextChange(wikitext, _applied(wikitext, edits), ref.text,
                          "Replaced a citation that does not support the claim", ref.renamed)


def _definition(occurrence: Occurrence, wikitext: str) -> str:
    """The defining tag as written (its attributes and body), to move to another use."""
    return wikitext[occurrence.start : occurrence.end]


def tag_failed_verification(
    wikitext: str, *, claim_text: str, cited: CitedRef, when: date
) -> WikitextChange:
    occurrence = _claim_occurrence(wikitext, claim_text, cited)
    if has_attached_tag(wikitext, occurrence.end, "failed verification"):
        raise LocateError("this citation is already tagged {{failed verification}}")
    tag = failed_verification_tag(when)
    new = _insert(wikitext, occurrence.end, tag)
    return WikitextChange(
        wikitext, new, tag, "Tagged a citation that does not support the claim"
    )

"""Wikitext changes an editor asks for on one claim, and their unified diff.

Pure functions over the page's text. Every change acts on one occurrence of the claim's
citation (`RefTarget`: the ref, footnote or `{{r}}` that follows the claim, with its
offsets), never on another use of the same source: a page cited twice is two places.
The target is checked against the text before anything is built; text that no longer
holds it there raises `LocateError` ("the citation moved since the check").

- `add_citation`: a new ref right after the target and the maintenance tags attached to
  it (a tag on a ref that still fails stays); for a claim with no citation, in place of
  its `{{citation needed}}`.
- `replace_citation`: the target replaced by the new ref, with the maintenance tags about
  that source attached to it (`{{failed verification}}`, `{{dead link}}`,
  `{{better source needed}}`, ... with their dates). A named ref re-used elsewhere is
  never broken: when this use holds the definition, the definition moves to the next
  use; when a list-defined ref loses its only use, its definition goes too.
- either may also take the `{{failed verification}}` off the claim's own citations in the
  same edit (`untag`), once the new source supports the claim;
- `tag_failed_verification` / `untag_failed_verification`: `{{failed verification|date=}}`
  written after the target, or taken away.
- `correct_figure` (correct.py): the claim's figure, written once in the claim's own words
  (located from the extractor's span, never by punctuation), replaced by the figure the
  cited source gives; a figure a `{{convert}}`, `{{circa}}` or date template writes is
  changed in its parameter where that is certain.

A new ref is written the way the article writes its own (see `style`), and a page the
article already cites is re-used by name (`<ref name="x" />`) instead of copied.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

import mwparserfromhell

from .diff import unified_diff, word_unified_diff
from .locate import LocateError, attached_tags, masked, ref_occurrences
from .names import SPAN_TAGS, template_key
from .params import named, positional
from .plain import plain_wikitext
from .style import ArticleCitations, CiteStyle, article_citations, format_date
from .types import RefOccurrence

__all__ = [
    "MOVED", "LocateError", "NewSource", "RefTarget", "WikitextChange", "add_citation", "correct_figure",
    "failed_verification_tag", "new_citation", "occurrence_target", "replace_citation",
    "tag_failed_verification", "target_at", "unified_diff", "untag_failed_verification", "word_unified_diff",
]

_MONTHS = ("January February March April May June July August September October "
           "November December").split()
FAILED = "failed verification"
# Tags about the cited source, which go with it when it is replaced; tags about the
# claim's words ({{when?}}, {{dubious}}) stay.
SOURCE_TAGS = frozenset({
    FAILED, "dead link", "better source needed", "verification needed", "unreliable source?",
    "page needed", "full citation needed", "irrelevant citation", "primary source",
    "third-party source needed",
})
MOVED = "the citation moved since the check; check this revision"


@dataclass(frozen=True)
class NewSource:
    url: str
    title: str = ""
    website: str = ""  # the site's own name (its og:site_name); never a host name
    access_date: date | None = None


@dataclass(frozen=True)
class RefTarget:
    """The occurrence of the claim's citation an edit acts on: its offsets in the text
    the edit is built on and its text there; `kind` as the extractor says
    (RefOccurrence.kind: "ref", "reuse", "sfn", "r")."""

    start: int
    end: int
    wikitext: str
    kind: str = "ref"
    name: str | None = None
    group: str = ""


@dataclass(frozen=True)
class WikitextChange:
    old: str
    new: str
    snippet: str  # the text added, for editors who edit by hand
    what: str  # one line: what changed, for the edit summary
    renamed: str = ""  # the ref given a name so that the snippet can re-use it ("" = none)
    target: RefTarget | None = None  # the occurrence it acts on, in `old`
    replaces: str = ""  # the claim's text the snippet is written in place of ("": added at the citation)

    @property
    def snippet_place(self) -> str:
        """Where an editor making the change by hand writes the snippet, in words."""
        return (f"The text to write in place of “{self.replaces}” in the claim's sentence" if self.replaces
                else "The text to add at the claim's citation")


def target_at(wikitext: str, start: int | None, end: int | None, written: str | None = None, *,
              kind: str = "ref", name: str | None = None, group: str = "") -> RefTarget:
    """The target at [start, end) of `wikitext`; LocateError unless `written` (when given)
    is exactly what stands there, and a ref or template does."""
    if start is None or end is None or not 0 <= start < end <= len(wikitext):
        raise LocateError("where this citation stands in the page is not known; edit it by hand")
    here = wikitext[start:end]
    if (written is not None and here != written) or not here.lower().startswith(("<ref", "{{")):
        raise LocateError(MOVED)
    return RefTarget(start, end, here, kind, name, group)


def occurrence_target(wikitext: str, occurrence: RefOccurrence) -> RefTarget:
    """The target of one of an extraction's occurrences, in the text it was extracted from."""
    return target_at(wikitext, occurrence.start, occurrence.end, kind=occurrence.kind,
                     name=occurrence.name, group=occurrence.group)


def new_citation(source: NewSource, style: CiteStyle = CiteStyle()) -> str:
    """`<ref>{{cite web |url= |title= |website= |access-date=}}</ref>` in `style` (its
    template, site parameter, site name and date format). Every value of the fetched page
    (its URL, title and site name) is written as plain text (`plain_wikitext`): nothing it
    says becomes markup; a URL that is not http(s) is refused (NotPlain, a LocateError).
    A site name the article itself already writes (`style.site_name`) is the article's own
    wikitext and is written as the article writes it."""
    url = plain_wikitext(source.url, "url")
    site = " ".join(style.site_name.split()) or plain_wikitext(source.website)
    parts = [
        f"url={url}",
        f"title={plain_wikitext(source.title) or plain_wikitext(source.url)}",
        *([f"{style.site_param}={site}"] if site else []),
        f"access-date={format_date(source.access_date or date.today(), style.date_format)}",
    ]
    return "<ref>{{" + style.template + " |" + " |".join(parts) + "}}</ref>"


@dataclass(frozen=True)
class _NewRef:
    text: str
    elsewhere: tuple[tuple[int, int, str], ...] = ()  # (start, end, text) edits it needs
    renamed: str = ""  # the opening tag of the ref it names, as it will read


def _new_ref(wikitext: str, source: NewSource, article: ArticleCitations | None) -> _NewRef:
    """The ref to write: a re-use of the ref that already cites the page (naming it
    first when it has no name), else a new citation in the article's style."""
    article = article if article is not None else article_citations(wikitext)
    reuse = article.reuse_for(source.url, title=source.title)
    if reuse is None:
        return _NewRef(new_citation(source, article.style_for(source.url)))
    if reuse.unnamed is None:
        return _NewRef(article.named_ref(reuse.name))
    end = wikitext.index(">", reuse.unnamed.start)
    name = " name=" + article.quoted(reuse.name)
    return _NewRef(article.named_ref(reuse.name), ((end, end, name),),
                   wikitext[reuse.unnamed.start:end] + name + ">")


def _applied(wikitext: str, edits: list[tuple[int, int, str]]) -> str:
    """`wikitext` with (start, end, text) replacements, which must not overlap."""
    for start, end, text in sorted(edits, reverse=True):
        wikitext = wikitext[:start] + text + wikitext[end:]
    return wikitext


def failed_verification_tag(when: date) -> str:
    return "{{failed verification|date=" + f"{_MONTHS[when.month - 1]} {when.year}" + "}}"


def _checked(wikitext: str, target: RefTarget) -> RefTarget:
    return target_at(wikitext, target.start, target.end, target.wikitext, kind=target.kind,
                     name=target.name, group=target.group)


def add_citation(
    wikitext: str, *, target: RefTarget | None, source: NewSource,
    needs_span: tuple[int, int] | None = None, article: ArticleCitations | None = None,
    untag: tuple[RefTarget, ...] = (),
) -> WikitextChange:
    """The new ref after the target and its tags, or in place of the claim's
    {{citation needed}} (`needs_span`) when it has no citation. `untag`: the claim's own
    citations whose {{failed verification}} goes in the same edit (the new source supports
    the claim); their other tags stay."""
    ref = _new_ref(wikitext, source, article)
    if target is None:
        start, end, kept = _needs_tag(wikitext, needs_span)
        new = _applied(wikitext, [(start, end, kept + ref.text), *ref.elsewhere])
        return WikitextChange(wikitext, new, ref.text, "Added a citation where one was needed", ref.renamed)
    target = _checked(wikitext, target)
    tags = attached_tags(wikitext, target.end)
    at = tags[-1][1] if tags else target.end
    removed = _failing_tags(wikitext, untag)
    new = _applied(wikitext, [(at, at, ref.text), *ref.elsewhere, *removed])
    what = "Added a citation that supports the claim" + (_UNTAGGED if removed else "")
    return WikitextChange(wikitext, new, ref.text, what, ref.renamed, target)


_UNTAGGED = " and removed the {{failed verification}} tag it answers"


def _failing_tags(wikitext: str, targets: tuple[RefTarget, ...],
                  taken: tuple[tuple[int, int], ...] = ()) -> list[tuple[int, int, str]]:
    """Removals of the {{failed verification}} tags attached to `targets` (each checked to
    stand where it did), less spans another edit already takes away."""
    spans = {(start, end) for one in targets
             for start, end, tag in attached_tags(wikitext, _checked(wikitext, one).end) if tag == FAILED}
    return [(start, end, "") for start, end in sorted(spans - set(taken))]


def _needs_tag(wikitext: str, span: tuple[int, int] | None) -> tuple[int, int, str]:
    """The claim's {{citation needed}} and the words it keeps: a {{citation needed span}}
    wraps text, which stays when the tag goes."""
    if span is None:
        raise LocateError("the claim has no citation and no {{citation needed}} tag to replace")
    start, end = span
    written = wikitext[start:end] if 0 <= start < end <= len(wikitext) else ""
    try:
        nodes = mwparserfromhell.parse(written).nodes
    except Exception:  # noqa: BLE001 - odd markup: not the tag it was
        nodes = []
    if len(nodes) != 1 or not isinstance(nodes[0], mwparserfromhell.nodes.Template):
        raise LocateError(MOVED)
    template = nodes[0]
    if template_key(str(template.name)) not in SPAN_TAGS:
        return start, end, ""
    values = positional(template)
    text = named(template, "text") or (values[0] if values else None)
    return start, end, str(text).strip() if text is not None else ""


def replace_citation(
    wikitext: str, *, target: RefTarget, source: NewSource, article: ArticleCitations | None = None,
    untag: tuple[RefTarget, ...] = (),
) -> WikitextChange:
    """The target (and the tags about its source) replaced by the new ref, here only;
    `untag`, as for add_citation: the claim's other citations' {{failed verification}} too."""
    target = _checked(wikitext, target)
    if target.kind == "sfn":
        raise LocateError("short footnotes ({{sfn}}) cannot be replaced here; add the source instead")
    if target.kind == "r":
        raise LocateError("this citation is written as {{r|...}}; replace it by hand or add the source instead")
    ref = _new_ref(wikitext, source, article)
    tags = [t for t in attached_tags(wikitext, target.end) if t[2] in SOURCE_TAGS]
    edits: list[tuple[int, int, str]] = [(target.start, target.end, ref.text), *ref.elsewhere]
    edits += [(start, end, "") for start, end, _ in tags]
    removed = _failing_tags(wikitext, tuple(t for t in untag if t.start != target.start),
                            taken=tuple((start, end) for start, end, _ in tags))
    edits += removed + _named_ref_kept(wikitext, target)
    what = "Replaced a citation that does not support the claim" + (_UNTAGGED if removed else "")
    return WikitextChange(wikitext, _applied(wikitext, _merged(edits)), ref.text, what, ref.renamed, target)


def _merged(edits: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """Adjacent edits as one (the ref and the tags right after it)."""
    out: list[tuple[int, int, str]] = []
    for start, end, text in sorted(edits):
        if out and out[-1][1] == start and start != end:
            out[-1] = (out[-1][0], end, out[-1][2] + text)
        else:
            out.append((start, end, text))
    return out


def _named_ref_kept(wikitext: str, target: RefTarget) -> list[tuple[int, int, str]]:
    """What keeps the other uses of a named ref resolving once this use goes: its
    definition moved to the next use, or a list-defined ref with no use left removed."""
    if not target.name:
        return []
    others = [o for o in ref_occurrences(wikitext)
              if o.name == target.name and o.group == target.group and o.start != target.start]
    body_uses = [o for o in others if not o.in_list]
    if target.kind == "ref" and not body_uses and _r_uses(wikitext, target.name):
        raise LocateError(f"its definition is also used through {{{{r|{target.name}}}}}, which cannot hold it; "
                          "replace it by hand or add the source instead")
    if target.kind == "ref" and body_uses:
        heir = body_uses[0]
        return [] if heir.body is not None else [(heir.start, heir.end, target.wikitext)]
    if not body_uses:
        return [(o.start, o.end, "") for o in others if o.in_list]
    return []


def _r_uses(wikitext: str, name: str) -> bool:
    """Whether `{{r|...}}` re-uses the ref `name` somewhere in the text."""
    pattern = re.compile(r"\{\{\s*[Rr]\s*\|([^{}]*)\}\}")
    return any(name in [p.strip() for p in m.group(1).split("|") if "=" not in p]
               for m in pattern.finditer(masked(wikitext)))


def tag_failed_verification(wikitext: str, *, target: RefTarget, when: date) -> WikitextChange:
    target = _checked(wikitext, target)
    if any(tag == FAILED for _, _, tag in attached_tags(wikitext, target.end)):
        raise LocateError("this citation is already tagged {{failed verification}}")
    tag = failed_verification_tag(when)
    new = wikitext[: target.end] + tag + wikitext[target.end :]
    return WikitextChange(wikitext, new, tag, "Tagged a citation that does not support the claim",
                          target=target)


def untag_failed_verification(wikitext: str, *, target: RefTarget) -> WikitextChange:
    """The {{failed verification}} attached to the target taken away (its source was
    checked again and supports the claim)."""
    target = _checked(wikitext, target)
    tags = [(start, end) for start, end, tag in attached_tags(wikitext, target.end) if tag == FAILED]
    if not tags:
        raise LocateError("this citation carries no {{failed verification}} tag")
    new = _applied(wikitext, [(start, end, "") for start, end in tags])
    return WikitextChange(wikitext, new, "", "Removed a {{failed verification}} tag: the source supports the claim",
                          target=target)


def correct_figure(wikitext: str, **where) -> WikitextChange:
    """The claim's figure corrected in its own words: `correct.correct_figure` (its own
    module, built on the helpers above, so imported when called)."""
    from .correct import correct_figure as in_its_own_sentence

    return in_its_own_sentence(wikitext, **where)

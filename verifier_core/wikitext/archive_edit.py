"""The archived copy of a cited page written into its citation, as the article's other
archived citations are written; or `{{dead link}}` where no copy exists.

    style = archive_style(wikitext)
    change = add_archive(wikitext, target=target, archive_url=url, archive_date=day,
                         url_status="dead", style=style)
    change = tag_dead_link(wikitext, target=target, when=date.today())

- a cite template gets `|archive-url=`, `|archive-date=` (in the date format of the
  article's archive-dates, else of its other dates) and `|url-status=dead|usurped|live`,
  spelled as the article spells them (`archiveurl`, `archivedate` where it does), with the
  template's own spacing;
- a bare link (`[http://... Title]` or a bare URL in the ref) gets `{{webarchive |url=
  |date=}}` after it, or the spelling the article's other bare links use;
- its `{{dead link}}` goes (the citation now has its copy): inside the ref, right after it,
  and after each re-use of a named ref;
- a named ref used again elsewhere is changed where it is defined, so every use gets it.

Pure: text in, WikitextChange out; LocateError (a sentence) when it cannot be done.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from datetime import date

import mwparserfromhell

from .edits import RefTarget, WikitextChange, _applied, _checked
from .locate import LocateError, attached_tags, masked, ref_occurrences
from .names import is_cite_template, maintenance_tag, template_key
from .plain import plain_wikitext
from .style import article_citations, date_format_of, format_date

_MONTHS = ("January February March April May June July August September October "
           "November December").split()
URL_STATUSES = ("dead", "usurped", "live")
_DEAD_INSIDE = re.compile(r"[ \t]*\{\{([^{}|]+)(?:\|[^{}]*)?\}\}")  # a simple template, with the space before it
_BARE = re.compile(r"\[?(?:https?:)?//[^\s\]<>|]+(?:\s[^\]]*\])?", re.I)


@dataclass(frozen=True)
class ArchiveStyle:
    date_format: str = "dmy"
    url_param: str = "archive-url"
    date_param: str = "archive-date"
    status_param: str = "url-status"
    bare: str = "webarchive"  # the template after a bare link


def archive_style(wikitext: str) -> ArchiveStyle:
    """How the article writes its archived citations (its own dates where it has none)."""
    try:
        templates = mwparserfromhell.parse(masked(wikitext)).filter_templates(recursive=True)
    except Exception:  # noqa: BLE001 - odd markup: the article's date style only
        templates = []
    names, dates = Counter(), Counter()
    for t in templates:
        for param in t.params:
            key = str(param.name).strip().lower()
            if key in ("archive-url", "archiveurl", "archive-date", "archivedate"):
                names[key] += 1
            if key in ("archive-date", "archivedate") or (template_key(str(t.name)) == "webarchive" and key == "date"):
                if fmt := date_format_of(str(param.value).strip()):
                    dates[fmt] += 1
    fmt = dates.most_common(1)[0][0] if dates else article_citations(wikitext).style.date_format
    joined = names["archiveurl"] + names["archivedate"] > names["archive-url"] + names["archive-date"]
    return ArchiveStyle(fmt, "archiveurl" if joined else "archive-url", "archivedate" if joined else "archive-date")


def dead_link_tag(when: date) -> str:
    return "{{dead link|date=" + f"{_MONTHS[when.month - 1]} {when.year}" + "}}"


def add_archive(wikitext: str, *, target: RefTarget, archive_url: str, archive_date: date, url_status: str,
                style: ArchiveStyle | None = None) -> WikitextChange:
    """The citation at `target` (or its named definition) with its archived copy."""
    if url_status not in URL_STATUSES:
        raise ValueError(f"url_status must be one of {URL_STATUSES}")
    style = style or archive_style(wikitext)
    archive_url = plain_wikitext(archive_url, "url")  # an archive's answer: one working URL, never markup
    start, end = _definition(wikitext, _checked(wikitext, target))
    ref = wikitext[start:end]
    written = format_date(archive_date, style.date_format)
    new_ref, snippet = _with_archive(ref, archive_url, written, url_status, style)
    new = _applied(wikitext, [(start, end, _without_dead_link(new_ref)), *_dead_link_tags(wikitext, start, end)])
    what = ("Added the archived copy of a dead link that supports the claim" if url_status == "dead" else
            "Added the archived copy of a citation whose domain was taken over" if url_status == "usurped" else
            "Added the archived copy of the page as it was cited")
    return WikitextChange(wikitext, new, snippet, what, target=target)


def _without_dead_link(ref: str) -> str:
    """The ref without a `{{dead link}}` written inside it (where tag_dead_link puts it)."""
    return _DEAD_INSIDE.sub(lambda m: "" if maintenance_tag(template_key(m.group(1))) == "dead link" else m.group(0), ref)


def _dead_link_tags(wikitext: str, start: int, end: int) -> list[tuple[int, int, str]]:
    """The `{{dead link}}` tags written right after the citation at [start, end) and, for a
    named ref, after each of its re-uses (the tag an editor saw beside the claim): removed."""
    ends = {end}
    defined = next((o for o in ref_occurrences(wikitext) if o.start == start), None)
    if defined is not None and defined.name:
        ends |= {o.end for o in ref_occurrences(wikitext) if o.name == defined.name and o.group == defined.group}
    return [(a, b, "") for e in sorted(ends) for a, b, tag in attached_tags(wikitext, e) if tag == "dead link"]


def tag_dead_link(wikitext: str, *, target: RefTarget, when: date) -> WikitextChange:
    """`{{dead link|date=Month YYYY}}` inside the citation, after it (where no copy exists)."""
    start, end = _definition(wikitext, _checked(wikitext, target))
    ref = wikitext[start:end]
    if "dead link" in ref.lower().replace("_", " ") or any(t == "dead link" for *_, t in attached_tags(wikitext, end)):
        raise LocateError("this citation is already tagged {{dead link}}")
    tag = dead_link_tag(when)
    close = ref.lower().rfind("</ref")
    if close < 0:  # a self-closing ref cannot hold it: after the ref
        return WikitextChange(wikitext, _applied(wikitext, [(end, end, tag)]), tag,
                              "Tagged a dead link that has no archived copy", target=target)
    new_ref = ref[:close] + tag + ref[close:]
    return WikitextChange(wikitext, _applied(wikitext, [(start, end, new_ref)]), tag,
                          "Tagged a dead link that has no archived copy", target=target)


def _definition(wikitext: str, target: RefTarget) -> tuple[int, int]:
    """Where the citation's text is written: the target itself, or for a re-use of a named
    ref, its definition (so that every use gets the change)."""
    if target.kind == "ref":
        return target.start, target.end
    if target.kind != "reuse" or not target.name:
        raise LocateError("this citation is written as a short footnote or {{r}}; add the archived copy "
                          "to its full citation by hand")
    for occurrence in ref_occurrences(wikitext):
        if occurrence.name == target.name and occurrence.group == target.group and occurrence.body is not None:
            return occurrence.start, occurrence.end
    raise LocateError(f"the definition of the named ref {target.name!r} was not found")


def _with_archive(ref: str, url: str, written: str, status: str, style: ArchiveStyle) -> tuple[str, str]:
    code = mwparserfromhell.parse(ref)
    cites = [t for t in code.filter_templates(recursive=True) if is_cite_template(template_key(str(t.name)))]
    if cites:
        return _in_template(code, cites[0], url, written, status, style)
    return _after_link(ref, url, written, style)


def _in_template(code, cite, url, written, status, style) -> tuple[str, str]:
    present = {str(p.name).strip().lower() for p in cite.params if str(p.value).strip()}
    if present & {"archive-url", "archiveurl"}:
        raise LocateError("this citation has an archived copy already")
    for name in (style.url_param, style.date_param, style.status_param):
        while cite.has(name):  # an empty one, as left by a form: written anew below
            cite.remove(name)
    before, pre, post = str(cite), *_separator(str(cite))
    core, tail = before[:-2].rstrip(), before[len(before[:-2].rstrip()):]
    added = "".join(f"{pre}|{post}{name}={value}" for name, value in
                    ((style.url_param, url), (style.date_param, written), (style.status_param, status)))
    code.replace(cite, core + added + tail)
    return str(code), added.strip()


def _separator(template: str) -> tuple[str, str]:
    """The spacing around the pipes between the template's parameters, as written most
    (" |" in `{{cite web |url=x |title=y}}`, "\n| " in a template written one per line)."""
    pairs = Counter(re.findall(r"(\s*)\|(\s*)(?=[^|{}=]+=)", template))
    return pairs.most_common(1)[0][0] if pairs else (" ", "")


def _after_link(ref: str, url: str, written: str, style: ArchiveStyle) -> tuple[str, str]:
    body_start = ref.find(">") + 1
    close = ref.lower().rfind("</ref")
    link = _BARE.search(ref, body_start, close if close > 0 else len(ref))
    if close < 0 or link is None:
        raise LocateError("this citation has neither a cite template nor a link to add the archived copy to")
    tag = "{{" + style.bare + " |url=" + url + " |date=" + written + "}}"
    return ref[:link.end()] + " " + tag + ref[link.end():], tag



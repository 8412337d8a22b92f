"""Fields of a cite template (`{{cite web}}`, `{{citation}}`, German `{{Internetquelle}}`).

Values are plain text: `title=[[Foo|The Foo]] ''Bar''` becomes "The Foo Bar". URLs,
DOIs and ISBNs are kept as written (minus surrounding space) because rendering would
mangle them.
"""
from __future__ import annotations

from collections.abc import Callable

from mwparserfromhell.nodes import ExternalLink, Template
from mwparserfromhell.wikicode import Wikicode

from .names import template_key
from .params import Params, named, param_name
from .types import Citation

Plain = Callable[[Wikicode], str]

# Citation attribute -> parameter names, best first. Names are compared folded
# (case, "-", "_" and spaces ignored), so "access-date" also matches "accessdate".
_TEXT_FIELDS: dict[str, tuple[str, ...]] = {
    "title": ("title", "titel", "trans-title", "script-title", "chapter", "contribution"),
    "work": (
        "website", "work", "newspaper", "journal", "magazine", "periodical", "encyclopedia",
        "encyclopaedia", "dictionary", "werk", "sammelwerk", "site", "series",
    ),
    "publisher": ("publisher", "hrsg", "verlag", "institution", "agency"),
    "date": ("date", "datum", "year", "jahr", "publication-date"),
    "access_date": ("access-date", "zugriff", "abruf"),
    "quote": ("quote", "zitat", "trans-quote"),
}
_RAW_FIELDS: dict[str, tuple[str, ...]] = {
    "url": ("url", "chapter-url", "contribution-url", "section-url"),
    "archive_url": ("archive-url", "archiv-url"),
    "doi": ("doi",),
    "isbn": ("isbn", "isbn13"),
}


def apply_cite_template(citation: Citation, template: Template, plain: Plain) -> None:
    """Fill `citation` from a cite template's parameters (without overwriting)."""
    citation.template = template_key(str(template.name))
    params = Params(template)
    for param in template.params:
        name = param_name(param)
        if name and name not in citation.fields:
            citation.fields[name] = field_text(param.value, plain)
    for attr, names in _RAW_FIELDS.items():
        value = params.named(*names)
        if value is not None and getattr(citation, attr) is None:
            setattr(citation, attr, _raw_value(value))
    for attr, names in _TEXT_FIELDS.items():
        value = params.named(*names)
        if value is not None and getattr(citation, attr) is None:
            text = plain(value)
            setattr(citation, attr, text or None)


def apply_webarchive(citation: Citation, template: Template) -> None:
    """{{webarchive|url=...|date=...}} after a cite template supplies the archive URL, and
    its date the citation's archive-date unless the cite template gives one."""
    value = named(template, "url", "url1")
    if value is not None and citation.archive_url is None:
        citation.archive_url = _raw_value(value)
        day = named(template, "date", "date1")
        has_own = any(name.lower().replace("-", "").replace("_", "") == "archivedate"
                      for name in citation.fields)
        if day is not None and not has_own:
            citation.fields["archive-date"] = " ".join(str(day).split())


def copy_resolved(citation: Citation, entry: Citation) -> None:
    """A short footnote takes its work's fields from the bibliography entry."""
    for attr in (
        "url", "archive_url", "title", "work", "publisher", "date", "access_date", "doi",
        "isbn", "quote",
    ):
        if getattr(citation, attr) is None:
            setattr(citation, attr, getattr(entry, attr))
    for name, value in entry.fields.items():
        citation.fields.setdefault(name, value)
    citation.resolved_from = entry.raw


def field_text(value: Wikicode, plain: Plain) -> str:
    """Plain text of a parameter; a bare URL (which renders as nothing) stays as is."""
    text = plain(value)
    if not text and any(isinstance(n, ExternalLink) for n in value.nodes):
        text = " ".join(str(value).split())
    return text


def _raw_value(value: Wikicode) -> str | None:
    text = " ".join(str(value).split())
    return text or None

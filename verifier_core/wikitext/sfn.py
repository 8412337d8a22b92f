"""Short footnotes (`{{sfn|Smith|Jones|2001|p=12}}`, `{{harvnb}}`...) and the
bibliography entries they point at.

MediaWiki links a short footnote to the cite template whose anchor is
"CITEREF" + surnames + year; the anchor comes from the template's `ref=` parameter
(`ref=harv`, `ref={{sfnref|Smith|2001}}`, or a literal id) or, by default, from its
author surnames and year. We index every cite template of the article the same way,
and fall back to matching the first surname and the year.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from mwparserfromhell.nodes import Template

from .names import COLON_PAGES, IN_TEXT_AUTHOR_DATE, template_key
from .params import Params, positional_text

_YEAR = re.compile(r"^(?:c\.\s*)?\d{3,4}[a-z]?$|^n\.\s?d\.[a-z]?$|^nd[a-z]?$", re.I)
_YEAR_IN_DATE = re.compile(r"\b(\d{4})\b")
_KEY_JUNK = re.compile(r"[\W_]+")
_MARKUP = re.compile(r"\[\[(?:[^\]|]*\|)?|\]\]|''+|<[^>]*>")


@dataclass
class ShortRef:
    surnames: list[str]
    year: str | None
    location: str | None

    @property
    def label(self) -> str:
        return " ".join([" & ".join(self.surnames), self.year or ""]).strip()

    @property
    def key(self) -> str:
        return anchor_key(self.surnames, self.year)


def anchor_key(surnames: list[str], year: str | None) -> str:
    return _KEY_JUNK.sub("", ("".join(surnames) + (year or "")).lower())


def parse_short(template: Template) -> ShortRef:
    """Surnames, year and page of a short-footnote template."""
    if template_key(str(template.name)) in {"sfnm", "sfnmp"}:
        return _parse_sfnm(template)
    args = [_MARKUP.sub("", a).strip() for a in positional_text(template)]
    args = [a for a in args if a]
    year = args.pop() if args and _YEAR.match(args[-1]) else None
    return ShortRef(args[:4], year, _location(template))


def in_text_words(template: Template) -> str:
    """What an in-text author-date template prints in the sentence: "Smith (2010, p. 25)",
    "Roe & Doe 2001", "(Roe et al. 2001:4)", as Module:Footnotes writes it."""
    key = template_key(str(template.name))
    short = parse_short(template)
    names = short.surnames
    if len(names) >= 4:
        who = names[0] + " et al."
    elif len(names) == 3:
        who = f"{names[0]}, {names[1]} & {names[2]}"
    else:
        who = " & ".join(names)
    where = _colon_pages(template) if key in COLON_PAGES else short.location
    year = short.year or ""
    style = IN_TEXT_AUTHOR_DATE.get(key, "bare")
    if key in COLON_PAGES:
        dated = year + (f":{where}" if where else "")
        where = None
    else:
        dated = year + (f", {where}" if where and style != "yearp" else "")
    if style == "year":
        words = f"{who} ({dated})" if dated else who
    elif style == "yearp":
        words = (f"{who} ({year})" if year else who) + (f", {where}" if where else "")
    else:
        words = " ".join(part for part in (who, dated) if part)
        words = f"({words})" if style == "paren" else words
    return words.strip()


def _colon_pages(template: Template) -> str | None:
    params = Params(template)
    return params.named_text("p", "page", "pp", "pages", "loc", "at")


def _parse_sfnm(template: Template) -> ShortRef:
    # {{sfnm|1a1=Smith|1y=2001|1p=12|2a1=...}}: the first work only.
    params = Params(template)
    surnames = [params.named_text(f"1a{i}") for i in range(1, 5)]
    return ShortRef(
        [s for s in surnames if s],
        params.named_text("1y"),
        _location(template, prefix="1"),
    )


def _location(template: Template, prefix: str = "") -> str | None:
    params = Params(template)
    parts = []
    page = params.named_text(prefix + "p", prefix + "page")
    pages = params.named_text(prefix + "pp", prefix + "pages")
    loc = params.named_text(prefix + "loc", prefix + "at")
    if page:
        parts.append(f"p. {page}")
    if pages:
        parts.append(f"pp. {pages}")
    if loc:
        parts.append(loc)
    return ", ".join(parts) or None


class Bibliography:
    """Cite templates of the article, indexed by the anchors short footnotes use."""

    def __init__(self, templates: list[Template]) -> None:
        self._templates = templates
        self._by_key: dict[str, Template] = {}
        self._by_first: dict[tuple[str, str], Template] = {}
        self._indexed = False

    def resolve(self, short: ShortRef) -> Template | None:
        if not self._indexed:  # most articles have no short footnote: index on demand
            for template in self._templates:
                self._index(Params(template))
            self._indexed = True
        found = self._by_key.get(short.key)
        if found is None and short.surnames and short.year:
            first = anchor_key(short.surnames[:1], None)
            found = self._by_first.get((first, _year_digits(short.year)))
        return found

    def _index(self, params: Params) -> None:
        template = params.template
        ref = params.named("ref")
        ref_text = str(ref).strip() if ref is not None else ""
        surnames = _surnames(params)
        year = _year(params)
        if ref_text.lower() == "none":
            return
        if ref_text and ref_text.lower() != "harv":
            self._by_key.setdefault(_ref_anchor(ref), template)
        elif surnames:
            self._by_key.setdefault(anchor_key(surnames, year), template)
        if surnames and year:
            first = anchor_key(surnames[:1], None)
            self._by_first.setdefault((first, _year_digits(year)), template)
            last_word = anchor_key(surnames[0].split()[-1:], None)
            self._by_first.setdefault((last_word, _year_digits(year)), template)


def _ref_anchor(ref) -> str:
    """Key of `ref={{sfnref|Smith|2001}}` / `{{harvid|..}}` or of a literal anchor id."""
    for node in ref.nodes:
        if isinstance(node, Template) and template_key(str(node.name)) in {"sfnref", "harvid"}:
            args = positional_text(node)
            return anchor_key(args[:-1], args[-1]) if args else ""
    text = str(ref).strip()
    if text.upper().startswith("CITEREF"):
        text = text[len("CITEREF") :]
    return _KEY_JUNK.sub("", text.lower())


def _surnames(params: Params) -> list[str]:
    found = _numbered(params, ("last", "surname", "author-last", "author", "last-author"))
    if not found:
        found = _numbered(params, ("editor-last", "editor-surname", "editor"))
    if not found:
        listed = params.named_text("vauthors", "authors", "veditors", "autor")
        if listed:
            found = [a.split()[0] for a in re.split(r"[,;]", _MARKUP.sub("", listed)) if a.split()]
    return found[:4]


def _numbered(params: Params, stems: tuple[str, ...]) -> list[str]:
    """last/last1, last2 ... (also author1-last, author-last2 spellings), in order."""
    names: list[str] = []
    for i in range(1, 5):
        candidates = []
        for stem in stems:
            head, _, tail = stem.partition("-")
            candidates += [f"{stem}{i}", f"{head}{i}-{tail}" if tail else f"{stem}{i}"]
            if i == 1:
                candidates.append(stem)
        value = params.named_text(*candidates)
        if not value:
            break
        names.append(_MARKUP.sub("", value).strip())
    return [n for n in names if n]


def _year(params: Params) -> str | None:
    year = params.named_text("year", "jahr")
    if year:
        return year
    date = params.named_text("date", "datum", "publication-date")
    match = _YEAR_IN_DATE.search(date or "")
    return match.group(1) if match else None


def _year_digits(year: str) -> str:
    match = re.search(r"\d{3,4}", year)
    return match.group(0) if match else year.lower()

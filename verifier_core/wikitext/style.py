"""How an article writes its citations, so that a citation Side editor adds reads like
the article's own.

Read from the page's wikitext: the date format (the format its access-dates use, else
`{{Use dmy dates}}` / `{{Use mdy dates}}`, else day-month-year), the cite template its
web references use (`cite web`, `cite news` or `citation`) and the parameter that names
the site in them (`website`, `work`, `newspaper`, `publisher`); how a site the article
already cites is named there; and which named refs already cite which page, so that
the same source is re-used by name (`<ref name="x" />`) instead of copied: an unnamed ref
gets a name first, a descriptive one as editors write them (the page's slug, else the site
and the year: "ngc-ellery", "avg-2016"), never VisualEditor's `:0`; and a re-use is written
with the article's own spacing and quotes (`<ref name="x"/>` where the article writes so).

Access-dates lead because they are what the new citation writes: an article under
`{{Use dmy dates}}` whose refs all say `access-date=2024-05-14` keeps ISO access-dates
(the Manual of Style allows both, and the citation templates display either).
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field, replace
from datetime import date

import mwparserfromhell

from .locate import Occurrence, masked, ref_occurrences
from .names import is_cite_template, template_key
from .params import Params

DMY, MDY, ISO = "dmy", "mdy", "iso"
_MONTHS = ("January February March April May June July August September October "
           "November December").split()
_MONTH = r"(?:" + "|".join(m[:3] for m in _MONTHS) + r")[a-z]*\.?"
_FORMATS = (
    (ISO, re.compile(r"\d{4}-\d\d-\d\d$")),
    (DMY, re.compile(r"\d{1,2} " + _MONTH + r" \d{4}$", re.I)),
    (MDY, re.compile(_MONTH + r" \d{1,2}, \d{4}$", re.I)),
)
_USE_DATES = re.compile(r"\{\{\s*(?:use\s*)?(dmy|mdy)(?:\s*dates)?\s*(?:\||\}\})", re.I)
# The web citation templates a new citation may take, and the site parameters they use.
WEB_TEMPLATES = ("cite web", "cite news", "citation")
SITE_PARAMS = ("website", "work", "newspaper", "publisher", "magazine", "site")
_DEFAULT_SITE_PARAM = {"cite web": "website", "cite news": "work", "citation": "website"}


@dataclass(frozen=True)
class CiteStyle:
    template: str = "cite web"
    site_param: str = "website"
    date_format: str = DMY
    site_name: str = ""  # how the article already names this citation's site ("" = unknown)


@dataclass(frozen=True)
class Reuse:
    """How a new citation re-uses a ref already on the page: by `name`; `unnamed` is the
    ref to give that name first (None when it has it already)."""

    name: str
    unnamed: Occurrence | None = None


@dataclass
class ArticleCitations:
    """What one article's citations say about its style (see the module docstring)."""

    style: CiteStyle = field(default_factory=CiteStyle)
    # page key of a cited URL -> the name of the ref that cites it (default group only)
    named_refs: dict[str, str] = field(default_factory=dict)
    # page key -> the first unnamed ref (default group, in the body) that cites it
    unnamed_refs: dict[str, Occurrence] = field(default_factory=dict)
    ref_names: set[str] = field(default_factory=set)
    # site key (host) -> (template, site parameter, site name) as the article writes it
    sites: dict[str, tuple[str, str, str]] = field(default_factory=dict)
    # How the article writes a re-use: `<ref name="x" />` (space before "/>") or `<ref name=x/>`.
    space_before_close: bool = True
    name_quote: str = '"'

    def quoted(self, name: str) -> str:
        """`name` as the article quotes ref names (quoted whenever it has to be)."""
        quote = self.name_quote
        if not quote and not re.fullmatch(r"[\w.:-]+", name):
            quote = '"'
        if quote and quote in name:
            quote = "'" if quote == '"' else '"'
        return f"{quote}{name}{quote}"

    def named_ref(self, name: str) -> str:
        return f"<ref name={self.quoted(name)}{' ' if self.space_before_close else ''}/>"

    def style_for(self, url: str) -> CiteStyle:
        """The article's style, with the template and site name it already uses for
        `url`'s site when it cites that site elsewhere."""
        known = self.sites.get(_site_key(url))
        if known is None:
            return self.style
        template, param, name = known
        return replace(self.style, template=template, site_param=param, site_name=name)

    def reuse_for(self, url: str, *, title: str = "") -> Reuse | None:
        """The ref already citing `url`'s page, to re-use instead of a second copy."""
        from verifier_core.fetch.urls import page_key

        key = page_key(url) if url else ""
        if key in self.named_refs:
            return Reuse(self.named_refs[key])
        if key in self.unnamed_refs:
            unnamed = self.unnamed_refs[key]
            return Reuse(ref_name_for(url, unnamed.body or "", self.ref_names), unnamed)
        return None


_SLUG_WORD = re.compile(r"[a-z0-9]+")
_YEAR = re.compile(r"\b(1[5-9]\d\d|20\d\d)\b")
_PLAIN_PAGES = {"index", "default", "home", "page", "article", "story", "news", "html", "htm", "php", "aspx"}


def ref_name_for(url: str, body: str, taken: set[str]) -> str:
    """A name for a ref that has none, as editors name them: the page's slug
    ("ngc-ellery" for .../ngc-ellery.html), else the site and the year its citation gives
    ("avg-2016"), else the site; "-2", "-3" ... when taken. Never VisualEditor's ":0"."""
    from urllib.parse import urlsplit

    parts = urlsplit(url or "")
    host = (parts.hostname or "").removeprefix("www.")
    site = next((w for w in _SLUG_WORD.findall(host.split(".")[0].lower()) if not w.isdigit()), "") or "ref"
    segments = [s for s in parts.path.lower().split("/") if s]
    words = _SLUG_WORD.findall(segments[-1].rsplit(".", 1)[0]) if segments else []
    words = [w for w in words if w not in _PLAIN_PAGES]
    year = _YEAR.search(body or "")
    if words and not all(w.isdigit() for w in words):
        base = "-".join(words)[:40].strip("-")
    else:
        base = f"{site}-{year.group(1)}" if year else site
    name, n = base, 2
    while name in taken:
        name, n = f"{base}-{n}", n + 1
    return name


def format_date(when: date, date_format: str) -> str:
    if date_format == ISO:
        return when.isoformat()
    month = _MONTHS[when.month - 1]
    return f"{month} {when.day}, {when.year}" if date_format == MDY else f"{when.day} {month} {when.year}"


def date_format_of(value: str) -> str | None:
    value = " ".join(value.split())
    return next((name for name, pattern in _FORMATS if pattern.match(value)), None)


def article_citations(wikitext: str) -> ArticleCitations:
    """Read the style of `wikitext`'s citations (never raises: a page it cannot read
    gets the default style)."""
    try:
        templates = mwparserfromhell.parse(masked(wikitext)).filter_templates(recursive=True)
    except Exception:  # noqa: BLE001 - a parser failure on odd markup leaves the defaults
        return ArticleCitations()
    cites = [(key, Params(t)) for t in templates if is_cite_template(key := template_key(str(t.name)))]
    style = CiteStyle(date_format=_date_format(wikitext, cites))
    web = Counter(key for key, _ in cites if key in WEB_TEMPLATES)
    if web:
        chosen = max(WEB_TEMPLATES, key=lambda k: (web[k], k == "cite web"))
        style = replace(style, template=chosen, site_param=_site_param(chosen, cites))
    return _with_refs(ArticleCitations(style=style, sites=_sites(cites)), wikitext)


def _date_format(wikitext: str, cites: list[tuple[str, Params]]) -> str:
    accessed = Counter(f for _, p in cites if (f := date_format_of(p.named_text("access-date", "accessdate") or "")))
    if accessed:
        return accessed.most_common(1)[0][0]
    use = _USE_DATES.search(masked(wikitext))
    return use.group(1).lower() if use else DMY


def _site_param(template: str, cites: list[tuple[str, Params]]) -> str:
    used = Counter(next((name for name in SITE_PARAMS if p.named(name) is not None), None)
                   for key, p in cites if key == template)
    used.pop(None, None)
    return used.most_common(1)[0][0] if used else _DEFAULT_SITE_PARAM[template]


def _sites(cites: list[tuple[str, Params]]) -> dict[str, tuple[str, str, str]]:
    sites: dict[str, tuple[str, str, str]] = {}
    for key, params in cites:
        url, param = params.named_text("url"), next((n for n in SITE_PARAMS if params.named(n) is not None), None)
        if key in WEB_TEMPLATES and url and param and (site := _site_key(url)) and site not in sites:
            sites[site] = (key, param, " ".join(params.named_text(param).split()))
    return sites


_REUSE = re.compile(r"<ref\s[^<>]*?name\s*=\s*(\"|')?[^<>]*?(\s?)/>", re.I)


def _reuse_spelling(article: ArticleCitations, wikitext: str) -> None:
    """How the article writes re-uses: a space before "/>" or not, names quoted or not."""
    spaces, quotes = Counter(), Counter()
    for match in _REUSE.finditer(masked(wikitext)):
        spaces[bool(match.group(2))] += 1
        quotes[match.group(1) or ""] += 1
    if spaces:
        article.space_before_close = spaces[True] >= spaces[False]
        article.name_quote = max(quotes, key=lambda q: (quotes[q], q == '"'))


def _with_refs(article: ArticleCitations, wikitext: str) -> ArticleCitations:
    """The refs that cite each page: named ones, and unnamed ones of the body."""
    from verifier_core.fetch.urls import page_key

    _reuse_spelling(article, wikitext)
    for ref in ref_occurrences(wikitext):
        if ref.name:
            article.ref_names.add(ref.name)
        if ref.body is None or ref.group:
            continue
        for url in _urls_in(ref.body):
            if ref.name:
                article.named_refs.setdefault(page_key(url), ref.name)
            elif not ref.in_list:
                article.unnamed_refs.setdefault(page_key(url), ref)
    for key in article.named_refs:  # a page cited by name too is re-used by that name
        article.unnamed_refs.pop(key, None)
    return article


_URL = re.compile(r"https?://[^\s|\[\]{}<>\"']+", re.I)


def _urls_in(body: str) -> list[str]:
    """The URLs a ref cites: its cite template's url= (not archive-url=), or a bare link."""
    try:
        templates = mwparserfromhell.parse(body).filter_templates(recursive=False)
    except Exception:  # noqa: BLE001
        templates = []
    for template in templates:
        if is_cite_template(template_key(str(template.name))):
            url = Params(template).named_text("url")
            return [url] if url else []
    return _URL.findall(body)[:1]


def _site_key(url: str) -> str:
    """The host a site is known by; "" for an address (one IP may serve many sites)."""
    from verifier_core.fetch.urls import page_key

    host = page_key(url).split("/", 1)[0]
    bare = host.rsplit(":", 1)[0] if not host.endswith("]") else host
    return "" if bare.replace(".", "").isdigit() or bare.startswith("[") else host

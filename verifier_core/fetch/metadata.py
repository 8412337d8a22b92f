"""What a web page says about itself: its title, site, date and authors.

    from verifier_core.fetch.metadata import page_metadata
    meta = page_metadata(html, url)
    meta.title, meta.site_name, meta.date, meta.authors, meta.to_json()

Read, most trusted first, from the tags publishers write for libraries and social sites
(Highwire `citation_*`, Dublin Core, Open Graph and `article:*`), then JSON-LD
(`NewsArticle`, `WebPage`, ...), then the page itself (`<title>`, the first `<h1>`, a
byline, `<time datetime>`). Pure: no network; any parse failure gives an empty PageMeta.
The stored form (`to_json`) is what SourceDocument.meta holds and what other parts of the
app read: {"title", "site_name", "date" (ISO), "authors": [...], "modified", "raw_title",
"h1", "canonical", "type", "description"}, strings empty and lists empty when unknown.
"""
from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass, field

import lxml.etree
import lxml.html
from dateutil import parser as dateparser

_MAX = 300  # characters kept of any one field
_DEFAULT_DAY = dateparser.parse("2000-01-01")


@dataclass(frozen=True)
class PageMeta:
    title: str = ""  # the work's own title (citation_title, og:title, headline, <title>)
    site_name: str = ""  # the site or publication (og:site_name, citation_journal_title, publisher)
    date: str = ""  # published, ISO 8601 date ("2019-03-12")
    authors: list[str] = field(default_factory=list)
    modified: str = ""  # last modified, ISO date, when the page says
    raw_title: str = ""  # the <title> element as written ("Headline | Site")
    h1: str = ""
    canonical: str = ""
    type: str = ""  # og:type or the JSON-LD @type ("article", "NewsArticle", "website")
    description: str = ""

    def to_json(self) -> dict:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict | None) -> "PageMeta":
        data = data or {}
        known = {k: data[k] for k in cls.__dataclass_fields__ if k in data}
        known["authors"] = list(known.get("authors") or [])
        return cls(**known)


# meta name/property -> field, in order of trust (the first found wins).
_TITLE_KEYS = ("citation_title", "dc.title", "og:title", "twitter:title")
_SITE_KEYS = ("og:site_name", "citation_journal_title", "citation_publisher", "dc.publisher",
              "application-name")
_DATE_KEYS = ("citation_publication_date", "citation_date", "citation_online_date",
              "article:published_time", "dc.date", "dc.date.issued", "date", "pubdate",
              "publish-date", "og:published_time")
_MODIFIED_KEYS = ("article:modified_time", "og:updated_time", "last-modified", "dc.date.modified")
_AUTHOR_KEYS = ("citation_author", "dc.creator", "article:author", "author", "byl", "parsely-author")
_BYLINE_XPATH = ("//*[@rel='author']", "//*[contains(concat(' ', normalize-space(@class), ' '), ' byline ')]",
                 "//*[contains(concat(' ', normalize-space(@class), ' '), ' author ')]",
                 "//*[@itemprop='author']")


def page_metadata(html: str, url: str | None = None, *, tree=None) -> PageMeta:
    """The page's own metadata; empty fields where it says nothing. `tree`: the page already
    parsed by lxml (not modified here), so that a fetch parses it once."""
    if tree is None:
        try:
            tree = lxml.html.document_fromstring(
                (html or "<html></html>").encode("utf-8", errors="replace"),
                parser=lxml.html.HTMLParser(encoding="utf-8"))
        except (lxml.etree.ParserError, ValueError):
            return PageMeta()
    metas = _meta_tags(tree)
    ld = _json_ld(tree)
    raw_title = _clean(_text(tree.find(".//title")))
    h1 = _clean(_text(next(iter(tree.xpath("//h1")), None)))
    return PageMeta(
        title=_first(metas, _TITLE_KEYS) or ld.get("headline", "") or h1 or raw_title,
        site_name=_first(metas, _SITE_KEYS) or ld.get("site", ""),
        date=_iso(_first(metas, _DATE_KEYS) or ld.get("published", "") or _time_element(tree)),
        authors=_authors(metas, ld, tree),
        modified=_iso(_first(metas, _MODIFIED_KEYS) or ld.get("modified", "")),
        raw_title=raw_title,
        h1=h1,
        canonical=_canonical(tree),
        type=_first(metas, ("og:type",)) or ld.get("type", ""),
        description=_first(metas, ("description", "og:description")),
    )


def _meta_tags(tree) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for node in tree.xpath("//meta[@content]"):
        key = (node.get("name") or node.get("property") or node.get("itemprop") or "").strip().lower()
        value = _clean(node.get("content") or "")
        if key and value:
            found.setdefault(key, []).append(value)
    return found


def _first(metas: dict[str, list[str]], keys) -> str:
    return next((metas[k][0] for k in keys if metas.get(k)), "")


def _json_ld(tree) -> dict[str, str | list[str]]:
    """The first JSON-LD object that describes a work: headline, dates, authors, site."""
    for node in tree.xpath("//script[@type='application/ld+json']"):
        try:
            data = json.loads(node.text or "")
        except (ValueError, TypeError):
            continue
        for item in _ld_items(data):
            if any(k in item for k in ("headline", "datePublished", "author", "name")):
                return _ld_fields(item)
    return {}


def _ld_items(data) -> list[dict]:
    items = data if isinstance(data, list) else [data]
    out = []
    for item in items:
        if isinstance(item, dict):
            out.extend(_ld_items(item["@graph"]) if "@graph" in item else [item])
    return out


def _ld_fields(item: dict) -> dict:
    publisher = item.get("publisher") or item.get("isPartOf") or {}
    site = publisher.get("name", "") if isinstance(publisher, dict) else str(publisher)
    kind = item.get("@type", "")
    return {"headline": _clean(str(item.get("headline") or item.get("name") or "")),
            "published": str(item.get("datePublished") or ""), "modified": str(item.get("dateModified") or ""),
            "site": _clean(site), "authors": _ld_names(item.get("author")),
            "type": kind if isinstance(kind, str) else ",".join(map(str, kind))}


def _ld_names(value) -> list[str]:
    values = value if isinstance(value, list) else [value]
    names = [v.get("name", "") if isinstance(v, dict) else v for v in values if v]
    return [_clean(str(n)) for n in names if n]


def _authors(metas, ld, tree) -> list[str]:
    names: list[str] = []
    for key in _AUTHOR_KEYS:
        names.extend(v for v in metas.get(key, []) if not v.startswith("http"))
        if names:
            break
    names = names or list(ld.get("authors", [])) or _byline(tree)
    return list(dict.fromkeys(n for n in (_strip_by(n) for n in names) if n))[:10]


def _byline(tree) -> list[str]:
    for xpath in _BYLINE_XPATH:
        for node in tree.xpath(xpath)[:3]:
            text = _clean(_text(node))
            if 2 < len(text) < 80:
                return [text]
    return []


_BY = re.compile(r"^(?:by|written by|words by)\s+", re.I)


def _strip_by(name: str) -> str:
    return _BY.sub("", name).strip(" ,;|")[:_MAX]


def _time_element(tree) -> str:
    for node in tree.xpath("//time[@datetime]")[:1]:
        return node.get("datetime") or ""
    return ""


def _canonical(tree) -> str:
    for node in tree.xpath("//link[@rel='canonical'][@href]")[:1]:
        return node.get("href", "").strip()
    return ""


def _iso(value: str) -> str:
    """"2019-03-12" from any date a page writes ("12 March 2019", "2019-03-12T10:00:00Z"); "" when none."""
    value = (value or "").strip()
    if not value or not re.search(r"\d{4}", value):
        return ""
    try:
        return dateparser.parse(value, default=_DEFAULT_DAY, fuzzy=True).date().isoformat()
    except (ValueError, OverflowError, TypeError):
        return ""



def _text(node) -> str:
    return node.text_content() if node is not None else ""


def _clean(text: str) -> str:
    return " ".join((text or "").split())[:_MAX]

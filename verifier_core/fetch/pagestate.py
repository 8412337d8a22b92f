"""What became of a cited page: still the cited work, changed, gone, moved, a soft 404, usurped.

    from verifier_core.fetch.pagestate import CitedWork, PageView, page_state
    state = page_state(CitedWork(url=..., title=..., site=..., access_date=...),
                       PageView(status="ok", url=..., final_url=..., meta=page_meta, text=text))
    state.kind, state.words, state.is_cited_work, state.url_status

The citation's own metadata (title, authors, date, site) is held against the page's
(PageMeta: <title>, citation_* / Open Graph tags, JSON-LD, byline) to tell the cited work
from "something else at that address", and the reason is said in words ("the cited title
'X' does not appear; the address now leads to the site's home page"). Pure: the same rule
judges the live page and an archived copy. Never reads the URL's words for a verdict: a
path that says "missing" proves nothing; only what the server answered and the page says.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date
from urllib.parse import urlsplit

from verifier_core.fetch.citedates import cited_day, day_words
from verifier_core.fetch.metadata import PageMeta
from verifier_core.fetch.urls import page_key

LIVE, CHANGED, GONE, HOME, MOVED, SOFT404, USURPED, UNREADABLE = (
    "live", "changed", "gone", "home", "moved", "soft404", "usurped", "unreadable")
# The page at the address is not the cited work: read an archived copy instead.
NOT_THE_WORK = frozenset({GONE, HOME, MOVED, SOFT404, USURPED, UNREADABLE})
GONE_CODES = frozenset({404, 410, 451})

_SOFT404 = re.compile(
    r"\b(?:page (?:was |could )?not (?:be )?found|404\b|not found|page (?:you (?:requested|are looking for)|"
    r"does not exist|doesn't exist|no longer exists|cannot be found|can't be found)|no longer available|"
    r"has been removed|nothing (?:was )?found|error 404|sorry, we couldn't find)", re.I)
_PARKED = re.compile(
    r"\b(?:(?:this|the) domain (?:name )?(?:is|may be) for sale|buy this domain|domain (?:is )?for sale|"
    r"domain parking|parked (?:free|domain|by)|this domain has expired|make an offer on this domain|"
    r"inquire about this domain|hugedomains|sedo(?:parking)?\b|is available for purchase)", re.I)
_STOP = frozenset("a an and are as at be by for from has have in into is it its of on or that the this "
                  "to was were with new news home page site".split())
_HOME_PATHS = frozenset({"", "/", "/index.html", "/index.htm", "/index.php", "/home", "/default.aspx"})
_SHORT_PAGE = 2500  # characters: a "not found" page says little else


@dataclass(frozen=True)
class CitedWork:
    url: str
    title: str = ""
    site: str = ""  # website / work / publisher, as the citation names it
    authors: tuple[str, ...] = ()
    date: str = ""  # as written in the citation
    access_date: str = ""


@dataclass(frozen=True)
class PageView:
    status: str  # a FetchStatus value
    url: str  # the address asked for
    final_url: str = ""  # after redirects
    http_status: int | None = None
    meta: PageMeta = field(default_factory=PageMeta)
    text: str = ""


@dataclass(frozen=True)
class PageState:
    kind: str
    words: str  # what became of the page, in words
    detail: str = ""  # why, in words ("the cited title 'X' does not appear")

    @property
    def is_cited_work(self) -> bool:
        return self.kind not in NOT_THE_WORK

    @property
    def url_status(self) -> str:
        """The cite templates' |url-status=: live, dead or usurped."""
        return "usurped" if self.kind == USURPED else ("live" if self.is_cited_work else "dead")

    @property
    def sentence(self) -> str:
        return f"{self.words}; {self.detail}" if self.detail else self.words

    def to_json(self) -> dict:
        return {"kind": self.kind, "words": self.words, "detail": self.detail}


def page_state(cited: CitedWork, page: PageView) -> PageState:
    """What the address gives now, judged against what the citation says it cited."""
    if page.status != "ok":
        return _failed(page)
    title_fit = title_match(cited.title, page)
    named = _quoted(cited.title)
    # A page whose title is the cited title is the cited work, whatever its text says
    # (an album "available for purchase", an article about a "404 Not Found" error).
    if title_fit < 0.8 and _looks_soft404(page):
        return PageState(SOFT404, "the page now says it cannot be found, though the site answers as if it "
                         "were there (a soft 404)", f"the cited title {named} does not appear" if named else "")
    if title_fit < 0.8 and _PARKED.search(_head_text(page)):
        return PageState(USURPED, "the address now leads to a parked domain, offered for sale",
                         _site_detail(cited, page))
    if title_fit < 0.5 and not _author_match(cited, page):
        moved = _moved(cited, page, named)
        if moved is not None:
            return moved
    return _changed(cited, page) or PageState(LIVE, "the page is still there")


def title_match(title: str, page: PageView) -> float:
    """Share of the cited title's words found in the page's titles (or its first lines); 1.0
    when the citation gives no title (nothing to hold against)."""
    words = _words(title)
    if not words:
        return 1.0
    heads = _words(" ".join((page.meta.title, page.meta.raw_title, page.meta.h1)))
    body = _words(page.text[:3000])
    return max(len(words & heads) / len(words), 0.9 * len(words & body) / len(words))


def _failed(page: PageView) -> PageState:
    if page.status == "http_error" and page.http_status in GONE_CODES:
        return PageState(GONE, f"the page is gone (HTTP {page.http_status})")
    if page.status == "dns_error":
        return PageState(GONE, "the site's address no longer exists (its domain does not resolve)")
    if page.status == "http_error" and page.http_status:
        return PageState(UNREADABLE, f"the site answers with an error (HTTP {page.http_status})")
    return PageState(UNREADABLE, "the page could not be read")


def _moved(cited: CitedWork, page: PageView, named: str) -> PageState | None:
    """The address leads elsewhere: the site's home page, another page, another site."""
    final = page.final_url or page.url
    at_home = urlsplit(final).path in _HOME_PATHS and urlsplit(page.url).path not in _HOME_PATHS
    missing = f"the cited title {named} does not appear" if named else ""
    if at_home:
        return PageState(HOME, "the address now leads to the site's home page", missing)
    if _other_site(cited, page):
        return PageState(USURPED, "the domain is now used by someone else", _site_detail(cited, page))
    if not named:
        return None  # without a cited title, a different page cannot be told from the cited one
    if page_key(final) != page_key(page.url):
        return PageState(MOVED, "the address now leads to an unrelated page", f"{missing}; it is "
                         f"{_quoted(page.meta.title or page.meta.raw_title) or 'untitled'}")
    return PageState(MOVED, "the address now holds a different page",
                     f"{missing}; it is {_quoted(page.meta.title or page.meta.raw_title) or 'untitled'}")


def _changed(cited: CitedWork, page: PageView) -> PageState | None:
    """The cited work, updated after the citation's date (its access-date, else its date)."""
    asof = cited_day(cited.access_date) or cited_day(cited.date)
    stamp = page.meta.modified or page.meta.date
    try:
        updated = date.fromisoformat(stamp) if stamp else None
    except ValueError:
        return None
    if asof is None or updated is None or updated <= asof:
        return None
    return PageState(CHANGED, "the page has changed since it was cited",
                     f"it says it was updated on {day_words(updated)}, after {day_words(asof)}")


def _looks_soft404(page: PageView) -> bool:
    heads = " ".join((page.meta.raw_title, page.meta.h1, page.meta.title))
    if _SOFT404.search(heads):
        return True
    return len(page.text) < _SHORT_PAGE and bool(_SOFT404.search(page.text[:300]))


def _head_text(page: PageView) -> str:
    return " ".join((page.meta.raw_title, page.meta.h1, page.text[:1500]))


def _other_site(cited: CitedWork, page: PageView) -> bool:
    """Both name a site and the names share no word: someone else's site."""
    mine, theirs = _words(cited.site), _words(page.meta.site_name)
    return bool(mine) and bool(theirs) and not mine & theirs


def _site_detail(cited: CitedWork, page: PageView) -> str:
    says = page.meta.site_name or page.meta.raw_title or page.meta.title
    if cited.site and says:
        return f"it calls itself {_quoted(says)}, the citation names {_quoted(cited.site)}"
    return f"it reads {_quoted(says)}" if says else ""


def _author_match(cited: CitedWork, page: PageView) -> bool:
    mine = {w for a in cited.authors for w in _words(a)}
    theirs = {w for a in page.meta.authors for w in _words(a)}
    return bool(mine & theirs)


def _words(text: str) -> set[str]:
    return {w for w in re.findall(r"[^\W_]+", (text or "").lower()) if len(w) > 2 and w not in _STOP}


def _quoted(text: str) -> str:
    text = " ".join((text or "").split())
    return f"'{text[:80]}'" if text else ""

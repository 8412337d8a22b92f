"""Reads of a page by its id, of a title's namespace, and of the nearest revision whose text
the wiki shows (beside wikiapi.WikiClient, which they use for every request).

A page is known by its page id across moves: a check asked by id reads the page under
whatever title it has now.
"""
from __future__ import annotations

from dataclasses import dataclass

from sideapp.scans.wikiapi import (
    PAGE_RVPROP, InvalidTitle, PageData, PageMissing, RevisionHidden, WikiClient, _page_data, revision_text,
)

ANCESTORS = 20  # revisions looked at, newest first, for one whose text is not hidden


@dataclass(frozen=True)
class TitleInfo:
    title: str  # as the wiki writes it
    namespace: int
    page_id: int  # 0: no such page


def page_by_id(client: WikiClient, page_id: int) -> PageData:
    """The latest revision of page `page_id` under its present title (a moved page too)."""
    result = client.query(pageids=page_id, prop="revisions|info", inprop="protection", rvprop=PAGE_RVPROP,
                          rvslots="main", formatversion=2)
    pages = result.get("query", {}).get("pages", [])
    if not pages or pages[0].get("missing") or pages[0].get("invalid") or not pages[0].get("revisions"):
        raise PageMissing(f"the wiki has no page with id {page_id}: it was deleted")
    return _page_data(pages[0]["title"], pages[0], [])


def revision_sha1(client: WikiClient, rev_id: int) -> str:
    """The wiki's hash of revision `rev_id`'s text ("" when it does not say)."""
    result = client.query(revids=rev_id, prop="revisions", rvprop="ids|sha1", formatversion=2)
    pages = result.get("query", {}).get("pages", [])
    revisions = pages[0].get("revisions", []) if pages else []
    return str(revisions[0].get("sha1") or "") if revisions else ""


def latest_of_page(client: WikiClient, page_id: int) -> tuple[int, str]:
    """(latest revision id, present title) of page `page_id`."""
    result = client.query(pageids=page_id, prop="revisions", rvprop="ids", formatversion=2)
    pages = result.get("query", {}).get("pages", [])
    if not pages or pages[0].get("missing") or pages[0].get("invalid") or not pages[0].get("revisions"):
        raise PageMissing(f"the wiki has no page with id {page_id}: it was deleted")
    return int(pages[0]["revisions"][0]["revid"]), pages[0]["title"]


def title_info(client: WikiClient, title: str, *, follow: bool = False) -> TitleInfo:
    """What the wiki makes of `title`: its own spelling, namespace and page id (0: none);
    `follow`: of the page a redirect there leads to (a moved page's old title). InvalidTitle,
    in words, for a title the wiki refuses."""
    result = client.query(titles=title, formatversion=2, **({"redirects": 1} if follow else {}))
    pages = result.get("query", {}).get("pages", [])
    if not pages or pages[0].get("invalid"):
        reason = pages[0].get("invalidreason", "") if pages else ""
        raise InvalidTitle(f"the wiki does not take {title[:80]!r} as a page title" + (f": {reason}" if reason else ""))
    page = pages[0]
    return TitleInfo(title=page.get("title", title), namespace=int(page.get("ns", 0)),
                     page_id=0 if page.get("missing") else int(page.get("pageid") or 0))


def readable_before(client: WikiClient, rev_id: int) -> PageData | None:
    """Revision `rev_id` of its page, or the nearest earlier one whose text the wiki shows
    when its own is hidden; None when the last ANCESTORS are all hidden."""
    result = client.query(revids=rev_id, prop="info", formatversion=2)
    pages = result.get("query", {}).get("pages", [])
    if not pages or pages[0].get("missing"):
        raise PageMissing(f"revision {rev_id} is no longer on the wiki: its page or the revision was deleted")
    page_id = pages[0]["pageid"]
    older = client.query(pageids=page_id, prop="revisions", rvstartid=rev_id, rvdir="older", rvlimit=ANCESTORS,
                         rvprop=PAGE_RVPROP, rvslots="main", formatversion=2)
    page = older.get("query", {}).get("pages", [{}])[0]
    for revision in page.get("revisions", []):
        try:
            revision_text(revision)
        except (RevisionHidden, PageMissing):
            continue
        return _page_data(page["title"], {**page, "revisions": [revision]}, [])
    return None

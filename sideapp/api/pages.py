"""Which page a check asked through the API is of: named by page id or title, read from the
wiki as it is now (a page known by its id is checked under its present title, a moved one
too; a title that redirects, the page it leads to), and only in the article namespace."""
from __future__ import annotations

from sideapp.api.http import ApiError, text_field, whole_number
from sideapp.scans.models import Wiki
from sideapp.scans.wikiapi import InvalidTitle, PageMissing, WikiError
from sideapp.scans.wikipages import title_info
from sideapp.scans.wikis import client_for

TITLE_BYTES = 255  # MediaWiki's longest title


def page_to_scan(wiki: Wiki, data: dict) -> tuple[str, int]:
    """(present title, page id) of the page a scan request names; ApiError in words for a
    field of the wrong type, a title the wiki refuses, a page outside the articles, one
    that does not exist, or a wiki that does not answer."""
    page_id, title = data.get("page_id"), data.get("title")
    if page_id is not None and isinstance(title, str) and not title.strip():
        title = None  # an empty title beside the id: the id names the page
    if title is not None:
        title = text_field(title, "title", max_bytes=TITLE_BYTES).strip()
        if not title:
            raise ApiError(400, "title is empty.", code="bad_parameter")
        return _by_title(wiki, title)
    if page_id is None:
        raise ApiError(400, "Name the page to check: page_id (a number) or title.", code="bad_parameter")
    if isinstance(page_id, str):
        raise ApiError(400, f"page_id must be a whole number, not a string ({page_id[:40]!r}).", code="bad_parameter")
    return _by_id(wiki, whole_number(page_id, "page_id"))


def _by_title(wiki: Wiki, title: str) -> tuple[str, int]:
    try:
        # A redirect (a moved page's old title) is read as the page it leads to, never itself.
        info = title_info(client_for(wiki, interactive=True), title, follow=True)
    except InvalidTitle as exc:
        raise ApiError(400, f"{exc}.", code="bad_title") from exc
    except WikiError as exc:
        raise ApiError(502, f"The wiki did not answer: {exc}", code="wiki_unavailable") from exc
    if info.namespace != 0:
        raise ApiError(400, f"{info.title} is not an article: Side editor checks articles only.", code="not_an_article")
    if not info.page_id:
        raise ApiError(404, f"{wiki} has no page {info.title!r}.", code="unknown_page")
    return info.title, info.page_id


def _by_id(wiki: Wiki, page_id: int) -> tuple[str, int]:
    try:
        title, namespace = client_for(wiki, interactive=True).page_title(page_id)
    except PageMissing as exc:
        raise ApiError(404, f"{wiki} has no page with id {page_id}.", code="unknown_page") from exc
    except WikiError as exc:
        raise ApiError(502, f"The wiki did not answer: {exc}", code="wiki_unavailable") from exc
    if namespace != 0:
        raise ApiError(400, f"{title} is not an article: Side editor checks articles only.", code="not_an_article")
    return title, page_id

"""Talking to a MediaWiki through its API with mwclient.

Every failure becomes a `WikiError` subclass with a sentence a user can read; network
trouble is retried with exponential backoff before it is reported.
"""
from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Callable, TypeVar
from urllib.parse import urlsplit

import mwclient
import requests
from mwclient.errors import APIError, LoginError

log = logging.getLogger(__name__)
T = TypeVar("T")


class WikiError(Exception):
    """Base of every error this module reports; the message is shown to users."""


class WikiUnavailable(WikiError):
    pass


class PageMissing(WikiError):
    pass


class InvalidTitle(WikiError):
    pass


@dataclass(frozen=True)
class PageData:
    title: str  # the title the content belongs to (after following redirects)
    requested_title: str
    page_id: int
    rev_id: int
    timestamp: datetime | None
    wikitext: str
    redirected_from: str | None
    protection: tuple[str, ...]  # e.g. ("edit=sysop",)


@dataclass(frozen=True)
class ClientConfig:
    api_url: str
    username: str = ""
    password: str = ""
    user_agent: str = "SideEditor/0.1"
    timeout: float = 20.0
    retries: int = 3
    backoff: float = 1.0  # seconds before the first retry, doubled each time


def _split_api_url(api_url: str) -> tuple[str, str, str]:
    parts = urlsplit(api_url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise WikiUnavailable(f"{api_url!r} is not an http(s) URL of a wiki's api.php")
    path = parts.path or "/api.php"
    if not path.endswith("api.php"):
        raise WikiUnavailable(f"{api_url!r} does not end in api.php")
    return parts.scheme, parts.netloc, path[: -len("api.php")]


class WikiClient:
    """A thin, retrying layer over mwclient for the calls a scan needs."""

    def __init__(self, config: ClientConfig, sleep: Callable[[float], None] = time.sleep):
        self.config = config
        self._sleep = sleep
        self._site: mwclient.Site | None = None

    # -- connection -----------------------------------------------------------------
    @property
    def site(self) -> mwclient.Site:
        if self._site is None:
            self._site = self._retrying("connect", self._connect)
        return self._site

    def _connect(self) -> mwclient.Site:
        scheme, host, path = _split_api_url(self.config.api_url)
        site = mwclient.Site(
            host,
            path=path,
            scheme=scheme,
            clients_useragent=self.config.user_agent,
            connection_options={"timeout": self.config.timeout},
            max_retries=0,  # our own retry loop decides; mwclient's would sleep for minutes
            force_login=False,
        )
        if self.config.username:
            try:
                site.login(self.config.username, self.config.password)
            except LoginError as exc:
                raise WikiUnavailable(f"login as {self.config.username!r} failed: {exc}") from exc
        return site

    def _retrying(self, what: str, call: Callable[[], T]) -> T:
        delay = self.config.backoff
        for attempt in range(1, self.config.retries + 1):
            try:
                return call()
            except WikiError:
                raise
            except (requests.RequestException, mwclient.errors.MaximumRetriesExceeded, ValueError) as exc:
                # ValueError: mwclient raises it on a non-JSON answer (an HTML error page).
                if attempt == self.config.retries:
                    raise WikiUnavailable(
                        f"wiki API at {self.config.api_url} unreachable after {attempt} "
                        f"attempts ({what}): {type(exc).__name__}: {exc}"
                    ) from exc
                log.warning("wiki %s failed (attempt %d): %s; retrying", what, attempt, exc)
                self._sleep(delay)
                delay *= 2
        raise AssertionError("unreachable")

    def _api(self, action: str, **params) -> dict:
        try:
            return self._retrying(action, lambda: self.site.api(action, **params))
        except APIError as exc:
            raise WikiUnavailable(f"wiki API refused {action}: {exc.code}: {exc.info}") from exc

    # -- reads -----------------------------------------------------------------------
    def page(self, title: str) -> PageData:
        """Latest revision of `title`, following redirects, in one API request.

        Content, revision id and timestamp come from the same answer, so a page edited
        while we scan still gives one consistent revision.
        """
        result = self._api(
            "query", titles=title, redirects=1, prop="revisions|info", inprop="protection",
            rvprop="ids|timestamp|content", rvslots="main", formatversion=2,
        )
        query = result.get("query", {})
        pages = query.get("pages", [])
        if not pages:
            raise InvalidTitle(f"{title!r} is not a valid page title")
        page = pages[0]
        if page.get("invalid"):
            raise InvalidTitle(f"{title!r} is not a valid page title: {page.get('invalidreason', '')}")
        redirects = query.get("redirects", [])
        if page.get("missing") or not page.get("revisions"):
            if redirects:
                raise PageMissing(f"page {title!r} redirects to {page.get('title')!r}, "
                                  "which does not exist on the wiki")
            raise PageMissing(f"page {title!r} does not exist on the wiki")
        return _page_data(title, page, redirects)

    def category_members(self, category: str, limit: int = 5000) -> list[str]:
        name = category if ":" in category else f"Category:{category}"
        titles: list[str] = []
        params = {"list": "categorymembers", "cmtitle": name, "cmlimit": "max",
                  "cmnamespace": 0, "formatversion": 2}
        while len(titles) < limit:
            result = self._api("query", **params)
            titles += [m["title"] for m in result.get("query", {}).get("categorymembers", [])]
            if "continue" not in result:
                break
            params.update(result["continue"])
        return titles[:limit]

    def recent_changes(self, limit: int = 50) -> list[str]:
        """Titles of recently edited or created articles, newest first, without repeats."""
        result = self._api(
            "query", list="recentchanges", rcnamespace=0, rctype="edit|new",
            rcprop="title", rclimit=min(max(limit * 3, 1), 500), formatversion=2,
        )
        titles: list[str] = []
        for change in result.get("query", {}).get("recentchanges", []):
            if change["title"] not in titles:
                titles.append(change["title"])
        return titles[:limit]


def _page_data(requested: str, page: dict, redirects: list[dict]) -> PageData:
    revision = page["revisions"][0]
    content = revision.get("slots", {}).get("main", {}).get("content")
    if content is None:
        content = revision.get("content", "")
    stamp = revision.get("timestamp")
    return PageData(
        title=page["title"],
        requested_title=requested,
        page_id=int(page.get("pageid", 0)),
        rev_id=int(revision["revid"]),
        timestamp=datetime.strptime(stamp, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc)
        if stamp else None,
        wikitext=content,
        redirected_from=redirects[0]["from"] if redirects else None,
        protection=tuple(f"{p['type']}={p['level']}" for p in page.get("protection", [])),
    )

"""Talking to a MediaWiki through its API with mwclient, politely.

Every failure becomes a `WikiError` subclass with a sentence a user can read. Etiquette
for any real wiki (https://www.mediawiki.org/wiki/API:Etiquette):

- a descriptive User-Agent with the operator's contact (`SIDE_WIKI_CONTACT`);
- one request at a time per wiki in this process (a lock per API URL);
- `maxlag` on non-interactive calls (scans): a lagged wiki answers "maxlag" with a
  Retry-After header, and we wait that long before asking again;
- network trouble is retried with exponential backoff (tenacity) before it is reported;
- writes go through a bot-password login of the configured account, with the base
  revision so that an edit never overwrites a change made since the scan.
"""
from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import TypeVar
from urllib.parse import urlencode, urlsplit

import mwclient
import requests
from mwclient.errors import APIError, LoginError
from tenacity import RetryCallState, Retrying, retry_if_exception_type, stop_after_attempt

from sideapp.scans.refusals import failure_code, refusal_sentence

log = logging.getLogger(__name__)
T = TypeVar("T")
_MAX_LAG_WAIT = 120.0  # seconds; a wiki asking for longer is treated as down


class WikiError(Exception):
    """Base of every error this module reports; the message is shown to users."""


class WikiUnavailable(WikiError):
    pass


class PageMissing(WikiError):
    pass


class InvalidTitle(WikiError):
    pass


class RevisionHidden(WikiError):
    """The revision's text is hidden on the wiki (revision deletion): it is never read as
    an empty page."""


class WikiLoginFailed(WikiError):
    pass


class EditConflict(WikiError):
    """The page changed since the revision the edit was built on; nothing was saved."""


class EditOutcomeUnknown(WikiError):
    """The edit was sent but no answer came back (a timeout, a connection lost, a gateway's
    5xx): the wiki may have stored it. Its outcome is read from the page's history."""


class EditRefused(WikiError):
    """The wiki did not save the edit (protection, permissions, a filter, no change)."""


class ServerLagged(Exception):
    """The wiki's replicas lag more than our maxlag; it asked us to wait `seconds`."""

    def __init__(self, seconds: float):
        super().__init__(f"the wiki asked to wait {seconds:g} s (replication lag)")
        self.seconds = seconds


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
    sha1: str = ""  # the wiki's hash of the text: a revert has an earlier revision's


@dataclass(frozen=True)
class SiteInfo:
    """What a wiki says of itself (meta=siteinfo): how it is known wherever it is reached."""

    wikiid: str  # $wgDBname (with prefix): "enwiki"; the key of Edit Check and of gadgets
    sitename: str
    server: str  # "https://en.wikipedia.org", or protocol-relative "//..."
    script_path: str  # "/w"; "" when index.php sits at the root

    @property
    def identity(self) -> tuple[str, str]:
        return self.wikiid, self.sitename


@dataclass(frozen=True)
class SavedEdit:
    title: str
    old_rev_id: int
    rev_id: int
    diff_url: str  # the change on the wiki, for editors to check


@dataclass(frozen=True)
class ClientConfig:
    api_url: str
    username: str = ""  # a bot password's "User@app" name
    password: str = ""
    user_agent: str = "SideEditor/0.1"
    timeout: float = 20.0
    retries: int = 3
    backoff: float = 1.0  # seconds before the first retry, doubled each time
    maxlag: int | None = None  # set on non-interactive clients (scans)


def category_title(category: str) -> str:
    """The category's page title, "Category:" added when the name has no namespace."""
    return category if ":" in category else f"Category:{category}"


def _split_api_url(api_url: str) -> tuple[str, str, str]:
    parts = urlsplit(api_url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise WikiUnavailable(f"{api_url!r} is not an http(s) URL of a wiki's api.php")
    path = parts.path or "/api.php"
    if not path.endswith("api.php"):
        raise WikiUnavailable(f"{api_url!r} does not end in api.php")
    return parts.scheme, parts.netloc, path[: -len("api.php")]


_locks: dict[str, threading.RLock] = {}
_locks_guard = threading.Lock()


def wiki_lock(api_url: str) -> threading.RLock:
    """The lock that keeps this process to one request at a time on one wiki."""
    with _locks_guard:
        return _locks.setdefault(api_url, threading.RLock())


def _raise_on_lag(response: requests.Response, *args, **kwargs) -> None:
    # mwclient would sleep on its own here; we want tenacity to own every wait.
    if response.headers.get("x-database-lag"):
        raise ServerLagged(float(response.headers.get("retry-after") or 5))


# InvalidResponse (ValueError in older mwclient): a page that is not JSON, an HTML error
# page or a site that is not a wiki.
_RETRIED = (requests.RequestException, mwclient.errors.MaximumRetriesExceeded, mwclient.errors.InvalidResponse,
            ValueError, ServerLagged)


class WikiClient:
    """A polite, retrying layer over mwclient for the calls the app needs."""

    def __init__(self, config: ClientConfig, sleep: Callable[[float], None] = time.sleep):
        self.config = config
        self._sleep = sleep
        self._site: mwclient.Site | None = None
        self._lock = wiki_lock(config.api_url)

    # -- connection -----------------------------------------------------------------
    @property
    def site(self) -> mwclient.Site:
        if self._site is None:
            self._site = self._retrying("connect", self._connect)
        return self._site

    def _connect(self) -> mwclient.Site:
        scheme, host, path = _split_api_url(self.config.api_url)
        session = requests.Session()
        session.hooks["response"].append(_raise_on_lag)
        # mwclient sets its User-Agent only on a session of its own making.
        session.headers["User-Agent"] = f"{self.config.user_agent} {mwclient.client.USER_AGENT}"
        if self.config.maxlag is not None:
            # On the session, so that mwclient's own calls (site info, login) carry it too.
            session.params["maxlag"] = str(self.config.maxlag)
        site = mwclient.Site(
            host, path=path, scheme=scheme, pool=session,
            connection_options={"timeout": self.config.timeout},
            max_retries=0,  # tenacity decides; mwclient's own loop would sleep for minutes
            force_login=False,
        )
        if self.config.username:
            try:
                site.login(self.config.username, self.config.password)
            except LoginError as exc:
                raise WikiLoginFailed(
                    f"the wiki refused the login of {self.config.username!r}: "
                    f"{_login_reason(exc)}; check SIDE_WIKI_USERNAME and SIDE_WIKI_PASSWORD "
                    "(a bot password, Special:BotPasswords)"
                ) from exc
        return site

    def _retrying(self, what: str, call: Callable[[], T], attempts: int | None = None) -> T:
        attempts = attempts or self.config.retries

        def locked() -> T:
            with self._lock:
                return call()

        retrying = Retrying(
            retry=retry_if_exception_type(_RETRIED), stop=stop_after_attempt(attempts),
            wait=self._wait, sleep=self._sleep, reraise=True,
            before_sleep=lambda state: log.warning(
                "wiki %s failed (attempt %d): %s; retrying", what, state.attempt_number,
                state.outcome.exception()),
        )
        try:
            return retrying(locked)
        except _RETRIED as exc:
            log.warning("wiki %s at %s failed for good: %r", what, self.config.api_url, exc)
            tries = "when asked once" if attempts == 1 else f"after {attempts} tries"
            raise WikiUnavailable(
                f"the wiki at {self.config.api_url} did not answer {tries} ({_unanswered(exc, self.config)}). "
                "Check the address of its api.php, or try again later"
            ) from exc

    def _wait(self, state: RetryCallState) -> float:
        """As long as a lagged wiki asks; otherwise `backoff`, doubled each time."""
        exc = state.outcome.exception() if state.outcome else None
        if isinstance(exc, ServerLagged):
            return min(exc.seconds, _MAX_LAG_WAIT)
        return self.config.backoff * 2 ** (state.attempt_number - 1)

    def _api(self, action: str, **params) -> dict:
        try:
            return self._retrying(action, lambda: self.site.api(action, **params))
        except APIError as exc:
            raise WikiUnavailable(f"the wiki refused {action}: {exc.code}: {exc.info}") from exc

    # -- reads -----------------------------------------------------------------------
    def siteinfo(self) -> SiteInfo:
        """The wiki's own name for itself; mwclient reads siteinfo when it connects."""
        general = self.site.site
        return SiteInfo(wikiid=str(general.get("wikiid", "")), sitename=str(general.get("sitename", "")),
                        server=str(general.get("server", "")), script_path=str(general.get("scriptpath", "")))

    def page(self, title: str) -> PageData:
        """Latest revision of `title`, following redirects, in one API request.

        Content, revision id and timestamp come from the same answer, so a page edited
        while we scan still gives one consistent revision.
        """
        result = self._api(
            "query", titles=title, redirects=1, prop="revisions|info", inprop="protection",
            rvprop=PAGE_RVPROP, rvslots="main", formatversion=2,
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

    def page_by_id(self, page_id: int) -> PageData:
        """Latest revision of the page with id `page_id`, whatever it is titled now (a move
        keeps the id; no redirect is followed); PageMissing when the wiki has no such page."""
        result = self._api("query", pageids=page_id, prop="revisions|info", inprop="protection",
                           rvprop=PAGE_RVPROP, rvslots="main", formatversion=2)
        pages = result.get("query", {}).get("pages", [])
        if not pages or pages[0].get("missing") or pages[0].get("invalid") or not pages[0].get("revisions"):
            raise PageMissing(f"the wiki has no page with id {page_id} any more: it was deleted")
        return _page_data(pages[0]["title"], pages[0], [])

    def page_at(self, rev_id: int) -> PageData:
        """Revision `rev_id` of its page, whichever is latest now (a patrolled edit);
        PageMissing when the wiki no longer shows it (a deleted page or revision)."""
        result = self._api("query", revids=rev_id, prop="revisions|info", inprop="protection",
                           rvprop=PAGE_RVPROP, rvslots="main", formatversion=2)
        pages = result.get("query", {}).get("pages", [])
        if not pages or pages[0].get("missing") or not pages[0].get("revisions"):
            raise PageMissing(f"revision {rev_id} is no longer on the wiki: its page or the revision "
                              "was deleted")
        return _page_data(pages[0]["title"], pages[0], [])

    def revision_hashes(self, rev_ids: list[int]) -> dict[int, tuple[int, str]]:
        """{revision id: (its page id, the wiki's sha1 of its text)} for the revisions of
        `rev_ids` the wiki has (a deleted one, or one whose hash is hidden, is left out):
        what tells whether a wiki holds what Side editor stored of it (sideapp.scans.wikis)."""
        result = self._api("query", revids="|".join(str(r) for r in rev_ids), prop="revisions",
                           rvprop="ids|sha1", formatversion=2)
        found = {}
        for page in result.get("query", {}).get("pages", []):
            for revision in page.get("revisions", []):
                if revision.get("sha1") and not revision.get("sha1hidden"):
                    found[int(revision["revid"])] = (int(page.get("pageid", 0)), str(revision["sha1"]))
        return found

    def latest_revisions(self, limit: int) -> list[tuple[int, int, str]]:
        """(revision id, page id, sha1) of the wiki's newest `limit` revisions, newest first."""
        result = self._api("query", list="allrevisions", arvlimit=limit, arvprop="ids|sha1", formatversion=2)
        return [(int(r["revid"]), int(page.get("pageid", 0)), str(r["sha1"]))
                for page in result.get("query", {}).get("allrevisions", [])
                for r in page.get("revisions", []) if r.get("sha1") and not r.get("sha1hidden")]

    def query(self, **params) -> dict:
        """One action=query request, for background reads that build their own parameters
        (the patrol's recent changes)."""
        return self._api("query", **params)

    def page_title(self, page_id: int) -> tuple[str, int]:
        """(title, namespace) of the page with id `page_id`; PageMissing when there is none."""
        result = self._api("query", pageids=page_id, formatversion=2)
        pages = result.get("query", {}).get("pages", [])
        if not pages or pages[0].get("missing") or pages[0].get("invalid") or "title" not in pages[0]:
            raise PageMissing(f"the wiki has no page with id {page_id}")
        return pages[0]["title"], int(pages[0].get("ns", 0))

    def revisions_after(self, title: str, base: int, *, content: bool = True, limit: int = 50,
                        page_id: int | None = None) -> list[dict]:
        """The page's revisions after `base`, oldest first (at most `limit`): {"revid", "user",
        "timestamp", "comment", "text"}; "text" None where its content is hidden (or not asked).
        The page is `page_id`'s where given (a move keeps it), else `title`'s."""
        which = {"pageids": page_id} if page_id else {"titles": title}
        result = self._api("query", **which, prop="revisions", rvstartid=base, rvdir="newer",
                           rvlimit=limit + 1, rvslots="main", formatversion=2,
                           rvprop="ids|user|timestamp|comment" + ("|content" if content else ""))
        pages = result.get("query", {}).get("pages", [])
        found = pages[0].get("revisions", []) if pages else []
        return [{"revid": int(r["revid"]), "user": r.get("user", "(hidden)"), "timestamp": r.get("timestamp", ""),
                 "comment": r.get("comment", ""),
                 "text": (r.get("slots", {}).get("main", {}) or {}).get("content") if content else None}
                for r in found if int(r["revid"]) != base][:limit]

    def rendered_html(self, rev_id: int) -> str:
        """The HTML the wiki renders for revision `rev_id` (action=parse), without edit
        links and limit reports: what a reader sees of the article body."""
        result = self._api("parse", oldid=rev_id, prop="text", disableeditsection=1,
                           disablelimitreport=1, disabletoc=1, formatversion=2)
        return str(result.get("parse", {}).get("text", ""))

    def category_members(self, category: str, limit: int = 5000) -> list[str]:
        """Titles of the articles in `category`; PageMissing when it has none because the
        wiki has no such category (an empty list means one that exists but is empty)."""
        name = category_title(category)
        titles: list[str] = []
        params = {"list": "categorymembers", "cmtitle": name, "cmlimit": "max",
                  "cmnamespace": 0, "formatversion": 2}
        while len(titles) < limit:
            result = self._api("query", **params)
            titles += [m["title"] for m in result.get("query", {}).get("categorymembers", [])]
            if "continue" not in result:
                break
            params.update(result["continue"])
        if not titles and not self._exists(name):
            raise PageMissing(f"{name} does not exist on the wiki: check the category's name")
        return titles[:limit]

    def _exists(self, title: str) -> bool:
        pages = self._api("query", titles=title, formatversion=2).get("query", {}).get("pages", [])
        return bool(pages) and not pages[0].get("missing") and not pages[0].get("invalid")

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


    # -- writes ----------------------------------------------------------------------
    def latest_revision(self, title: str, *, page_id: int | None = None) -> tuple[int, str]:
        """(revision id, timestamp) of the page's latest revision, asked now (the page
        `page_id`'s where given, else `title`'s)."""
        which = {"pageids": page_id} if page_id else {"titles": title}
        result = self._api("query", **which, prop="revisions", rvprop="ids|timestamp", formatversion=2)
        pages = result.get("query", {}).get("pages", [])
        if not pages or pages[0].get("missing") or not pages[0].get("revisions"):
            raise PageMissing(f"page {title!r} does not exist on the wiki")
        revision = pages[0]["revisions"][0]
        return int(revision["revid"]), revision["timestamp"]

    def edit(self, title: str, text: str, summary: str, baserevid: int,
             starttimestamp: datetime, *, page_id: int | None = None) -> SavedEdit:
        """Save `text` as `title` (as the page `page_id`, where given: a page moved meanwhile
        is not reached through its redirect) if its latest revision is still `baserevid`.

        Raises `EditConflict` when someone edited the page since (checked first here,
        and again by the wiki itself through baserevid/basetimestamp/starttimestamp in
        case an edit lands in between). A save is never retried: a timeout after the
        wiki stored it must not store it twice; a save sent whose answer never came raises
        `EditOutcomeUnknown` (the caller reads the outcome from the page's history).
        """
        if not self.config.username:
            raise WikiLoginFailed("no wiki account is configured for edits: set "
                                  "SIDE_WIKI_USERNAME and SIDE_WIKI_PASSWORD (a bot password)")
        latest, stamp = self.latest_revision(title, page_id=page_id)
        if latest != baserevid:
            raise EditConflict(_conflict_message(title, baserevid, latest))
        params = {
            **({"pageid": page_id} if page_id else {"title": title}), "text": text, "summary": summary, "nocreate": 1,
            "baserevid": baserevid, "basetimestamp": stamp,
            "starttimestamp": starttimestamp.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "assert": "user", "formatversion": 2,
        }
        csrf = self._retrying("csrf token", lambda: self.site.get_token("csrf"))
        try:
            result = self._retrying("edit", lambda: self.site.api("edit", token=csrf, **params), attempts=1)["edit"]
        except APIError as exc:
            raise _edit_error(title, baserevid, exc) from exc
        except WikiUnavailable as exc:
            if _maybe_sent(exc.__cause__):
                raise EditOutcomeUnknown(
                    "the save was sent to the wiki but no answer came back "
                    f"({_unanswered(exc.__cause__, self.config)}), so the wiki may have stored it") from exc
            raise
        if result.get("result") != "Success":
            raise EditRefused(refusal_sentence(*failure_code(result), title))
        if result.get("nochange"):
            raise EditRefused(f"the page {title!r} already holds this text; nothing to save")
        new = int(result["newrevid"])
        return SavedEdit(title=title, old_rev_id=int(result.get("oldrevid") or baserevid),
                         rev_id=new, diff_url=self.diff_url(new))

    def diff_url(self, rev_id: int) -> str:
        """The wiki's page showing revision `rev_id` against the one before it."""
        index = self.config.api_url[: -len("api.php")] + "index.php"
        return f"{index}?{urlencode({'diff': 'prev', 'oldid': rev_id})}"


def _unanswered(exc: Exception, config: ClientConfig) -> str:
    """Why a wiki did not answer, in words (the exception itself goes to the log)."""
    host = urlsplit(config.api_url).netloc
    if isinstance(exc, ServerLagged):
        return f"its database lagged behind and it asked to wait {exc.seconds:g} s: replication lag"
    if isinstance(exc, requests.Timeout):
        return f"nothing came back within {config.timeout:g} seconds: timed out"
    if isinstance(exc, requests.exceptions.SSLError):
        return "its HTTPS certificate was not accepted"
    if isinstance(exc, requests.ConnectionError):
        if "NameResolution" in repr(exc) or "Name or service not known" in str(exc):
            return f"the host name {urlsplit(config.api_url).hostname} is not known"
        return f"the connection to {host} was refused or dropped"
    if isinstance(exc, requests.HTTPError) and exc.response is not None:
        code = exc.response.status_code
        return f"it answered with an HTTP {code} error" + (
            ": is this the address of its api.php?" if code == 404 else "")
    if isinstance(exc, (ValueError, mwclient.errors.InvalidResponse)):
        return "what came back was not a MediaWiki API answer: is this the address of its api.php?"
    return "it kept answering with errors"


def _maybe_sent(exc: BaseException | None) -> bool:
    """Whether a request that failed so may have reached the wiki (a connection never made
    did not; one that timed out, was dropped or got a gateway's 5xx may have)."""
    if isinstance(exc, requests.ConnectTimeout):
        return False
    if isinstance(exc, requests.HTTPError):
        return exc.response is not None and exc.response.status_code >= 500
    if isinstance(exc, requests.ConnectionError):
        return "NewConnectionError" not in repr(exc) and "Connection refused" not in str(exc)
    return isinstance(exc, requests.Timeout)


def _login_reason(exc: LoginError) -> str:
    info = exc.args[1] if len(exc.args) > 1 and isinstance(exc.args[1], dict) else {}
    return str(info.get("reason") or info.get("result") or exc)


def _conflict_message(title: str, base: int, latest: int) -> str:
    return (f"edit conflict: {title!r} was edited since it was scanned (scanned revision "
            f"{base}, now {latest}); nothing was saved. Re-scan the article and try again.")


def _edit_error(title: str, base: int, exc: APIError) -> WikiError:
    if exc.code == "editconflict":
        return EditConflict(f"edit conflict: {title!r} was edited while the change was being "
                            f"saved (scanned revision {base}); nothing was saved.")
    if exc.code in ("assertuserfailed", "assertbotfailed", "badtoken", "notloggedin"):
        return WikiLoginFailed(f"the wiki session of the configured account is not valid "
                               f"({exc.code}); nothing was saved. Try again.")
    if exc.code == "missingtitle":
        return PageMissing(f"page {title!r} no longer exists on the wiki")
    return EditRefused(refusal_sentence(exc.code, exc.info, title))

PAGE_RVPROP = "ids|timestamp|content|sha1"


def revision_text(revision: dict) -> str:
    """A revision's wikitext from an API answer; RevisionHidden when the wiki hides it
    (`texthidden`), PageMissing when it sent none: never "" for a text it did not send."""
    main = revision.get("slots", {}).get("main", {})
    if main.get("texthidden") or revision.get("texthidden"):
        raise RevisionHidden(f"the text of revision {revision.get('revid')} is hidden on the wiki "
                             "(revision deletion)")
    content = main.get("content", revision.get("content"))
    if content is None:
        raise PageMissing(f"the wiki sent no text for revision {revision.get('revid')}")
    return content


def _page_data(requested: str, page: dict, redirects: list[dict]) -> PageData:
    revision = page["revisions"][0]
    content = revision_text(revision)
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
        sha1=str(revision.get("sha1") or ""),
    )

"""Which wiki a scan talks to, known by what it says of itself and what it holds, and a
client for it.

A wiki is one row however it is reached: the address it answers at now (`api_url`) is
updated when it is reached somewhere else (the demo on another port, http becoming
https, a new domain). The row is found by siteinfo's wikiid and sitename, but a name is
not proof: two default installs, or a staging copy of production, say the same. So a known
identity answering at a new address is the same wiki only when it holds what Side editor
stored of it (the last revisions read there: each with its page and the wiki's sha1 of its
text), checked before the row moves; otherwise it is a wiki of its own, a new row named
alike, and the admins' wikis page says so. A wiki that does not answer keeps a row of its
own address until it does; then a row of the same wiki, if there is one, takes it in
(sideapp.scans.merging).
"""
from __future__ import annotations

import hashlib
import threading
import time

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from sideapp.edits.audit import audit_record
from sideapp.edits.models import AuditEntry
from sideapp.scans.merging import Models, wiki_merge
from sideapp.scans.models import Revision, Wiki
from sideapp.scans.wikiapi import ClientConfig, SiteInfo, WikiClient, WikiError


def wiki_for(*, api_url: str | None = None) -> Wiki:
    """The Wiki row for `api_url`, or for the configured wiki when None. Reads the
    wiki's siteinfo unless a known row already answers at this address."""
    url = (api_url or settings.SIDE_WIKI_API_URL).strip()
    known = Wiki.objects.filter(api_url=url).first()
    if known is not None and known.wikiid:
        return known
    client = _client(url)
    try:
        info = client.siteinfo()
    except WikiError:
        return known or Wiki.objects.get_or_create(api_url=url)[0]
    return wiki_identify(api_url=url, info=info, client=client)


def wiki_add(*, api_url: str, user) -> Wiki:
    """An admin's new wiki: it must answer (its siteinfo says who it is); a wiki known
    already under another address moves to this one when it holds what was stored of it
    (otherwise it is a wiki of its own, named alike). Raises WikiError, in words."""
    client = _client(api_url.strip())
    info = client.siteinfo()
    with transaction.atomic():
        wiki = wiki_identify(api_url=api_url.strip(), info=info, client=client)
        audit_record(user=user, action=AuditEntry.Action.WIKI_ADD, detail=f"{wiki} at {wiki.api_url}")
    return wiki


def wiki_identify(*, api_url: str, info: SiteInfo, client: WikiClient | None = None) -> Wiki:
    """The row of the wiki that answered at `api_url` with `info`: a row known by that
    identity that holds what this wiki holds gets this address (a row of this address
    without an identity is merged into it); otherwise the row of this address (or a new
    one) takes the identity: a wiki named alike is a wiki of its own."""
    same = _same_wiki(api_url, info, client or _client(api_url))  # asked before any row is locked
    with transaction.atomic():
        rows = Wiki.objects.select_for_update()
        same = rows.filter(pk=same.pk).first() if same is not None else None
        here = rows.filter(api_url=api_url).first()
        if same is not None and here is not None and here.pk != same.pk:
            if here.wikiid:  # a wiki of its own answered here before: the rows stay apart
                same = None
            else:
                wiki_merge(Models.of(_apps()), keep=same, drop=here)
        wiki = same or here or Wiki(api_url=api_url)
        wiki.api_url, wiki.wikiid, wiki.name = api_url, info.wikiid, info.sitename
        wiki.server, wiki.script_path, wiki.identified_at = info.server, info.script_path, timezone.now()
        wiki.save()
    return wiki


def _same_wiki(api_url: str, info: SiteInfo, client: WikiClient) -> Wiki | None:
    """The known row of the wiki answering at `api_url`: the one of its identity already at
    this address, else the first of its identity that holds what it holds."""
    if not info.wikiid:
        return None
    namesakes = list(Wiki.objects.filter(wikiid=info.wikiid, name=info.sitename).order_by("pk"))
    here = next((w for w in namesakes if w.api_url == api_url), None)
    if here is not None:
        return here
    return next((w for w in namesakes if wiki_holds(w, client)), None)


CHECKED_REVISIONS = 3  # the last revisions read of a wiki that another address must hold


def wiki_holds(wiki: Wiki, client: WikiClient) -> bool:
    """Whether the wiki `client` talks to holds what Side editor stored of `wiki`: of its
    last revisions read, at least one is there with the same page and sha1, and none is
    another page's or another text (a deleted revision proves nothing either way). A row
    with nothing stored is compared by the newest revision its own address holds now; when
    that address does not answer, nothing can tell them apart and nothing could be mixed
    (no page of it is stored), so it is the same wiki."""
    known = [(rev_id, page_id, sha1 or _sha1(text)) for rev_id, page_id, sha1, text in
             Revision.objects.filter(article__wiki=wiki, article__page_id__isnull=False).order_by("-pk")
             .values_list("rev_id", "article__page_id", "sha1", "wikitext")[:CHECKED_REVISIONS]]
    if not known:
        try:
            known = _client(wiki.api_url, retries=1).latest_revisions(CHECKED_REVISIONS)
        except WikiError:
            return True
        if not known:
            return True
    try:
        there = client.revision_hashes([rev_id for rev_id, _, _ in known])
    except WikiError:
        return False
    seen = [there[rev_id] == (page_id, sha1) for rev_id, page_id, sha1 in known if rev_id in there]
    return bool(seen) and all(seen)


def _sha1(text: str) -> str:
    """MediaWiki's sha1 of a revision's text (a row stored before the wiki's hash was kept)."""
    return hashlib.sha1(text.encode("utf-8")).hexdigest()


def wiki_is_configured(wiki: Wiki, *, ask: bool = True) -> bool:
    """Whether `wiki` is the one SIDE_WIKI_API_URL names (its bot account's wiki): the row
    at that address, or the row that moved there (the configured wiki reached at a new
    address). `ask`: read who answers at the configured address when no row is known
    there yet (at most every few minutes while it does not answer); without it, only the
    rows are read, so a scan of another wiki talks to that wiki alone."""
    url = settings.SIDE_WIKI_API_URL
    if wiki.api_url == url:
        return True
    if not wiki.wikiid:
        return False
    row = Wiki.objects.filter(api_url=url).first()
    if row is None and ask:
        row = _configured_row(url)
    return row is not None and row.pk == wiki.pk


_unanswered: dict[str, float] = {}
_UNANSWERED_TTL = 300.0  # seconds a process waits before asking a silent configured address again


def _configured_row(url: str) -> Wiki | None:
    """The row of the wiki answering at the configured address (identified, so a known row
    that holds what it holds moves there); None while it does not answer."""
    now = time.monotonic()
    if now - _unanswered.get(url, -_UNANSWERED_TTL) < _UNANSWERED_TTL:
        return None
    client = _client(url)
    try:
        info = client.siteinfo()
    except WikiError:
        _unanswered[url] = now
        return None
    return wiki_identify(api_url=url, info=info, client=client)


def saving_off_reason(wiki: Wiki) -> str | None:
    """Why edits cannot be saved on `wiki` from Side editor's own pages, in words; None
    when they can."""
    if not wiki_is_configured(wiki):
        return (f"Saving is off for {wiki}: Side editor holds a bot account only for the wiki "
                f"it is configured for ({settings.SIDE_WIKI_API_URL}). Copy the wikitext instead.")
    if not (settings.SIDE_WIKI_USERNAME and settings.SIDE_WIKI_PASSWORD):
        return ("Saving is off: no wiki account is configured (an admin sets SIDE_WIKI_USERNAME "
                "and SIDE_WIKI_PASSWORD to a bot password). Copy the wikitext instead.")
    return None


def client_for(wiki: Wiki, *, interactive: bool = False, follow: bool | None = None) -> WikiClient:
    """A client for `wiki`; scans are background work and send maxlag, an editor's
    save (interactive) does not. The configured wiki is reached at the configured
    address, with its bot account; credentials never go to another wiki. `follow`
    (interactive clients and the patrol's watcher): ask the configured address who answers
    there, so that the configured wiki's row follows it to a new address; a scan does not
    (a scan of another wiki, `scan_article --wiki URL`, talks to `wiki`'s own address alone)."""
    configured = wiki_is_configured(wiki, ask=interactive if follow is None else follow)
    return _client(
        settings.SIDE_WIKI_API_URL if configured else wiki.api_url,
        username=settings.SIDE_WIKI_USERNAME if configured else "",
        password=settings.SIDE_WIKI_PASSWORD if configured else "",
        maxlag=None if interactive else settings.SIDE_WIKI_MAXLAG, keep=not interactive,
    )


def _client(api_url: str, *, username: str = "", password: str = "", maxlag: int | None = None,
            keep: bool = False, retries: int | None = None) -> WikiClient:
    config = ClientConfig(
        api_url=api_url, username=username, password=password,
        user_agent=settings.SIDE_WIKI_USER_AGENT, timeout=settings.SIDE_WIKI_TIMEOUT,
        retries=retries or settings.SIDE_WIKI_RETRIES, backoff=settings.SIDE_WIKI_BACKOFF, maxlag=maxlag)
    return _background_client(config) if keep else WikiClient(config)


# Background clients (scans, patrol reads) kept per process for a few minutes: a worker
# reading one revision per job would otherwise open a session, read siteinfo and log in
# again for each (two to three requests for one). Kept briefly, so that a login that the
# wiki expired, or a changed setting, is picked up soon.
_KEPT_SECONDS = 300.0
_kept: dict[ClientConfig, tuple[float, WikiClient]] = {}
_kept_guard = threading.Lock()


def _background_client(config: ClientConfig) -> WikiClient:
    now = time.monotonic()
    with _kept_guard:
        for key in [k for k, (at, _) in _kept.items() if now - at > _KEPT_SECONDS]:
            del _kept[key]
        if config not in _kept:
            _kept[config] = (now, WikiClient(config))
        return _kept[config][1]


def _apps():
    from django.apps import apps

    return apps

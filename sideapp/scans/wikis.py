"""Which wiki a scan talks to, known by what it says of itself, and a client for it.

A wiki is one row however it is reached: the address it answers at now (`api_url`) is
updated when it is reached somewhere else (the demo on another port, http becoming
https, a new domain), because the row is found by siteinfo's wikiid and sitename. A wiki
that does not answer keeps a row of its own address until it does; then a row of the
same wiki, if there is one, takes it in (sideapp.scans.merging).
"""
from __future__ import annotations

import threading
import time

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from sideapp.edits.audit import audit_record
from sideapp.edits.models import AuditEntry
from sideapp.scans.merging import Models, wiki_merge
from sideapp.scans.models import Wiki
from sideapp.scans.wikiapi import ClientConfig, SiteInfo, WikiClient, WikiError


def wiki_for(*, api_url: str | None = None) -> Wiki:
    """The Wiki row for `api_url`, or for the configured wiki when None. Reads the
    wiki's siteinfo unless a known row already answers at this address."""
    url = (api_url or settings.SIDE_WIKI_API_URL).strip()
    known = Wiki.objects.filter(api_url=url).first()
    if known is not None and known.wikiid:
        return known
    try:
        info = _client(url).siteinfo()
    except WikiError:
        return known or Wiki.objects.get_or_create(api_url=url)[0]
    return wiki_identify(api_url=url, info=info)


def wiki_add(*, api_url: str, user) -> Wiki:
    """An admin's new wiki: it must answer (its siteinfo says who it is); a wiki known
    already under another address moves to this one. Raises WikiError, in words."""
    info = _client(api_url.strip()).siteinfo()
    with transaction.atomic():
        wiki = wiki_identify(api_url=api_url.strip(), info=info)
        audit_record(user=user, action=AuditEntry.Action.WIKI_ADD, detail=f"{wiki} at {wiki.api_url}")
    return wiki


@transaction.atomic
def wiki_identify(*, api_url: str, info: SiteInfo) -> Wiki:
    """The row of the wiki that answered at `api_url` with `info`: the row already known
    by that identity gets this address (a row of this address without an identity is
    merged into it), otherwise the row of this address (or a new one) takes the identity."""
    rows = Wiki.objects.select_for_update()
    same = rows.filter(wikiid=info.wikiid, name=info.sitename).order_by("pk").first() if info.wikiid else None
    here = rows.filter(api_url=api_url).first()
    if same is not None and here is not None and here.pk != same.pk:
        wiki_merge(Models.of(_apps()), keep=same, drop=here)
    wiki = same or here or Wiki(api_url=api_url)
    wiki.api_url, wiki.wikiid, wiki.name = api_url, info.wikiid, info.sitename
    wiki.server, wiki.script_path, wiki.identified_at = info.server, info.script_path, timezone.now()
    wiki.save()
    return wiki


def wiki_is_configured(wiki: Wiki) -> bool:
    """Whether `wiki` is the one SIDE_WIKI_API_URL names (its bot account's wiki), at
    that address or, known by its identity, at an address it had before."""
    url = settings.SIDE_WIKI_API_URL
    if wiki.api_url == url:
        return True
    if not wiki.wikiid:
        return False
    row = Wiki.objects.filter(api_url=url).first()
    if row is not None:
        return row.pk == wiki.pk
    return _configured_identity(url) == wiki.identity


_identities: dict[str, tuple[float, tuple[str, str] | None]] = {}
_IDENTITY_TTL = 300.0  # seconds a process trusts what the configured address said


def _configured_identity(url: str) -> tuple[str, str] | None:
    """Who answers at the configured address (asked at most every few minutes, so a
    page that asks for each claim does not wait on a wiki that is down)."""
    now = time.monotonic()
    seen = _identities.get(url)
    if seen is None or now - seen[0] > _IDENTITY_TTL:
        try:
            identity = _client(url).siteinfo().identity
        except WikiError:
            identity = None
        seen = _identities[url] = (now, identity)
    return seen[1]


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


def client_for(wiki: Wiki, *, interactive: bool = False) -> WikiClient:
    """A client for `wiki`; scans are background work and send maxlag, an editor's
    save (interactive) does not. The configured wiki is reached at the configured
    address, with its bot account; credentials never go to another wiki."""
    configured = wiki_is_configured(wiki)
    if configured and wiki.api_url != settings.SIDE_WIKI_API_URL:
        wiki_for()  # the configured wiki moved here: its row takes the new address
    return _client(
        settings.SIDE_WIKI_API_URL if configured else wiki.api_url,
        username=settings.SIDE_WIKI_USERNAME if configured else "",
        password=settings.SIDE_WIKI_PASSWORD if configured else "",
        maxlag=None if interactive else settings.SIDE_WIKI_MAXLAG, keep=not interactive,
    )


def _client(api_url: str, *, username: str = "", password: str = "", maxlag: int | None = None,
            keep: bool = False) -> WikiClient:
    config = ClientConfig(
        api_url=api_url, username=username, password=password,
        user_agent=settings.SIDE_WIKI_USER_AGENT, timeout=settings.SIDE_WIKI_TIMEOUT,
        retries=settings.SIDE_WIKI_RETRIES, backoff=settings.SIDE_WIKI_BACKOFF, maxlag=maxlag)
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

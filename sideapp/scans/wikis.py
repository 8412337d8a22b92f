"""Which wiki a scan talks to, and a client for it."""
from __future__ import annotations

from django.conf import settings

from sideapp.scans.models import Wiki
from sideapp.scans.wikiapi import ClientConfig, WikiClient


def wiki_for(*, api_url: str | None = None) -> Wiki:
    """The Wiki row for `api_url`, or for the configured wiki when None."""
    url = (api_url or settings.SIDE_WIKI_API_URL).strip()
    wiki, _ = Wiki.objects.get_or_create(api_url=url)
    return wiki


def client_for(wiki: Wiki, *, interactive: bool = False) -> WikiClient:
    """A client for `wiki`; scans are background work and send maxlag, an editor's
    save (interactive) does not."""
    configured = wiki.api_url == settings.SIDE_WIKI_API_URL
    return WikiClient(
        ClientConfig(
            api_url=wiki.api_url,
            # Bot credentials belong to the configured wiki only; never send them elsewhere.
            username=settings.SIDE_WIKI_USERNAME if configured else "",
            password=settings.SIDE_WIKI_PASSWORD if configured else "",
            user_agent=settings.SIDE_WIKI_USER_AGENT,
            timeout=settings.SIDE_WIKI_TIMEOUT,
            retries=settings.SIDE_WIKI_RETRIES,
            backoff=settings.SIDE_WIKI_BACKOFF,
            maxlag=None if interactive else settings.SIDE_WIKI_MAXLAG,
        )
    )

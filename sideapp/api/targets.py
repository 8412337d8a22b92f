"""Where each claim of a scanned revision reads in the article as the wiki renders it.

The wiki renders the revision once (`action=parse`); every claim with citations is located
there (verifier_core.wikitext.rendered) and the answer is kept in Redis for that revision, so
the findings and Edit Check answers never wait on the wiki again for it. A claim that needs a
source is placed by its words before its `{{citation needed}}` tag (no footnote: `after` null).
"""
from __future__ import annotations

import logging

from sideapp.api import cache
from sideapp.api.selectors import cited_claims, tagged_claims
from sideapp.scans.models import Article
from sideapp.scans.wikiapi import WikiError
from sideapp.scans.wikis import client_for
from verifier_core.fetch import normalise_url
from verifier_core.wikitext.rendered import claim_target, rendered_page, tagged_target

log = logging.getLogger(__name__)
KEEP_SECONDS = 30 * 86400  # a revision's rendering does not change; the key only saves space


def article_targets(article: Article) -> dict[int, dict] | None:
    """{claim id: {"text", "after", "urls", "whole"}} for the article's current scanned
    revision; None when the wiki could not render it (asked again next time)."""
    revision = article.current_revision
    if revision is None:
        return {}
    key = f"side:api:targets:v2:{revision.pk}"  # v2: claims that need a source too
    kept = cache.cached_json(key)
    if kept is not None:
        return {int(pk): target for pk, target in kept.items()}
    try:
        html = client_for(article.wiki).rendered_html(revision.rev_id)
    except WikiError as exc:
        log.warning("could not render %s revision %s: %s", article, revision.rev_id, exc)
        return None
    targets = locate(html, cited_claims(article), tagged_claims(article))
    cache.keep_json(key, targets, seconds=KEEP_SECONDS)
    return targets


def locate(html: str, claims: list[tuple[int, str, list[str]]],
           tagged: list[tuple[int, str]] = ()) -> dict[int, dict]:
    """Each (claim id, text, cited URLs) found in the rendered HTML, in article order, and
    each (claim id, text) of a claim that needs a source, found before its tag."""
    page = rendered_page(html)
    found: dict[int, dict] = {}
    used: set[str] = set()
    for pk, text, urls in claims:
        target = claim_target(page, text=text, urls=set(urls), normalise=normalise_url, used=used)
        if target is not None:
            used.add(target.after)
            found[pk] = {"text": target.text, "after": target.after, "urls": list(target.urls),
                         "whole": target.whole}
    tags: set[int] = set()
    for pk, text in tagged:
        placed = tagged_target(page, text=text, used=tags)
        if placed is not None:
            index, target = placed
            tags.add(index)
            found[pk] = {"text": target.text, "after": None, "urls": [], "whole": target.whole}
    return found


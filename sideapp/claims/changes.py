"""A page's findings version: the one place every write that changes what a page's findings
say (the public API, sideapp.api) reports itself, in its own transaction.

The findings' ETag and cache key come from the version (with the scanned revision, the last
scan, the rules and the offers' freshness: sideapp.api.views), so a verdict changed without
a scan (an archived copy read, a source read again, an editor's judgement, a suggestion
found or dropped) gives a new ETag at once: a reader revalidating gets the new verdict,
never a 304 with the old one, and no kept answer outlives it.

Writers: claims.verification (every verdict and its reasons), sources.reading (a claim left
waiting for an archived copy), pipeline.stages (a check that failed, in words),
claims.suggestions (suggestions found, or dropped when their page died), claims.reviews (an
editor's judgement), scans.revisions (a new scanned revision).
"""
from __future__ import annotations

from typing import Iterable

from django.db.models import F

from sideapp import events
from sideapp.claims.models import Claim
from sideapp.scans.models import Article


def findings_changed(*, articles: Iterable[int] = (), claims: Iterable[int] = ()) -> int:
    """Bump the findings version of `articles` and of the articles of `claims` (primary
    keys); call it inside the transaction of the write, after it. Returns the rows bumped."""
    ids = set(articles)
    claim_ids = list(claims)
    if claim_ids:
        ids |= set(Claim.objects.filter(pk__in=claim_ids).values_list("article_id", flat=True))
    if not ids:
        return 0
    rows = Article.objects.filter(pk__in=ids)
    if len(ids) > 1:  # locked in primary-key order: two writers of the same pages never wait in a circle
        list(rows.select_for_update().order_by("pk").values_list("pk", flat=True))
    bumped = rows.update(findings_version=F("findings_version") + 1)
    events.findings_changed.send(sender=Article, articles=list(ids))  # the API's kept answers go
    return bumped

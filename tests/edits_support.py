"""Rows for tests of editors' actions: sources read (or not) at a given age, and a claim's
citations judged as a finished verification leaves them (the verifier itself is tested
in tests/test_verification_*)."""
from __future__ import annotations

import hashlib
from datetime import timedelta

from django.utils import timezone

from sideapp.models import Source, SourceDocument
from verifier_core.fetch import normalise_url


def read_source(url: str, text: str = "", *, days_ago: float = 0, site_name: str = "",
                status: str = Source.Status.OK, used_archive: bool = False) -> Source:
    """A Source fetched `days_ago` days ago; with `text` (when its status is ok) as what
    was read from it."""
    fetched = timezone.now() - timedelta(days=days_ago)
    source = Source.objects.create(url=url, normalized_url=normalise_url(url), status=status,
                                   fetched_at=fetched, site_name=site_name, used_archive=used_archive,
                                   title=text[:40])
    if status == Source.Status.OK:
        text = text or f"The page at {url} says what it says, at some length, for the verifier."
        SourceDocument.objects.create(source=source, title=text[:40], text=text, fetched_at=fetched,
                                      sha256=hashlib.sha256(text.encode()).hexdigest())
    return source


def judge(link, verdict: str, *, score: float | None = None, confidence: str = "high"):
    """Give a ClaimCitation the verifier's judgement of its claim."""
    link.verdict, link.score, link.confidence = verdict, score, confidence
    link.save(update_fields=["verdict", "score", "confidence"])
    return link

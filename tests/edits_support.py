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
    source, _ = Source.objects.update_or_create(normalized_url=normalise_url(url), defaults={
        "url": url, "status": status, "fetched_at": fetched, "site_name": site_name,
        "used_archive": used_archive, "title": text[:40]})
    if status == Source.Status.OK:
        text = text or f"The page at {url} says what it says, at some length, for the verifier."
        SourceDocument.objects.update_or_create(source=source, defaults={
            "title": text[:40], "text": text, "fetched_at": fetched,
            "sha256": hashlib.sha256(text.encode()).hexdigest()})
    return source


def judge(link, verdict: str, *, score: float | None = None, confidence: str = "high"):
    """Give a ClaimCitation the verifier's judgement of its claim."""
    link.verdict, link.score, link.confidence = verdict, score, confidence
    link.save(update_fields=["verdict", "score", "confidence"])
    return link


def mark_read(source: Source, text: str = "") -> Source:
    """A pending Source (as a scan leaves it) fetched now, with `text` read from it."""
    text = text or f"The page at {source.url} says what it says, at some length, for the verifier."
    Source.objects.filter(pk=source.pk).update(status=Source.Status.OK, fetched_at=timezone.now())
    SourceDocument.objects.update_or_create(source=source, defaults={
        "title": text[:40], "text": text, "fetched_at": timezone.now(),
        "sha256": hashlib.sha256(text.encode()).hexdigest()})
    return Source.objects.get(pk=source.pk)


def judged_not_supported(claim, score: float = 0.1):
    """A scanned claim whose cited sources were read and, confidently, do not support it."""
    for link in claim.claim_citations.select_related("citation__source"):
        if link.citation.source is not None:
            mark_read(link.citation.source)
        judge(link, "not_supported", score=score)
    type(claim).objects.filter(pk=claim.pk).update(verdict="not_supported", score=score, confidence="high",
                                                   flagged=True, verify_state="done")
    claim.refresh_from_db()
    return claim


def suggested(claim, url: str, title: str = "A suggested page", *, score: float = 0.9, site_name: str = ""):
    """A supporting suggestion of `claim`, its page read just now."""
    return claim.suggestions.create(rank=claim.suggestions.count() + 1, url=url, title=title, score=score,
                                    verdict="supported", beats_current=True,
                                    source=read_source(url, f"{title}: what the page says.", site_name=site_name))

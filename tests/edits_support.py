"""Rows for tests of editors' actions: sources read (or not) at a given age, and a claim's
citations judged as a finished verification leaves them (the verifier itself is tested
in tests/test_verification_*)."""
from __future__ import annotations

import hashlib
from datetime import timedelta

from django.utils import timezone

from sideapp.models import Source, SourceDocument
from verifier_core.fetch import normalise_url
from verifier_core.verification import Reason, ReasonKind
from verifier_core.verification.judgement.reasons import words


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


def contradicted(claim, *, claimed: str, given: str, thing: str):
    """The claim's citations judged to give another figure than the claim's, as the verifier
    keeps it: a figure reason as data and its words."""
    reason = Reason(ReasonKind.FIGURE, claimed=claimed, given=given, thing=thing)
    claim.claim_citations.update(reasons=[reason.to_json()], reason=words([reason]))
    return claim


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


def as_scanned(revision) -> None:
    """Give the hand-made claim and citation rows of `revision` the fingerprints a scan of
    its wikitext gives them: an edit finds its claim again in the text by fingerprint
    (sideapp.edits.locating). Each row goes to the extracted claim that starts with the
    most of its words."""
    import re

    from sideapp.models import Citation, Claim
    from sideapp.scans.revisions import citation_fingerprint, claim_fingerprints
    from verifier_core.wikitext import extract

    extraction = extract(revision.wikitext, revision.article.title)
    citation_fps = [citation_fingerprint(c) for c in extraction.citations]
    claim_fps = claim_fingerprints(extraction.claims, citation_fps)
    words = [re.findall(r"\w+", c.text) for c in extraction.claims]
    for row in Claim.objects.filter(revision_claims__revision=revision):
        mine = re.findall(r"\w+", row.text)
        index = max(range(len(words)), key=lambda i: _common_start(words[i], mine))
        Claim.objects.filter(pk=row.pk).update(fingerprint=claim_fps[index])
        cited = list(dict.fromkeys(extraction.claims[index].citation_indices))
        for link in row.claim_citations.all():
            if link.position < len(cited):
                Citation.objects.filter(pk=link.citation_id).update(fingerprint=citation_fps[cited[link.position]])


def _common_start(a: list[str], b: list[str]) -> int:
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return n


def assert_nothing_saved(test) -> None:
    """No save on the wiki recorded (none saved, none pending); a confirm that was refused
    is in the audit log as refused or failed, with its reason."""
    from sideapp.edits.models import AuditEntry

    test.assertFalse(AuditEntry.objects.exclude(status__in=["refused", "failed"]).exists())
    test.assertFalse(AuditEntry.objects.filter(outcome="").exclude(status="").exists())


def confirmed(client, url: str, data: dict | None = None):
    """The change `url` previews confirmed as its form confirms it: posted with the save token
    the preview gave (none when the preview offered no change)."""
    data = dict(data or {})
    preview = client.get(url, data)
    proposal = (preview.context or {}).get("proposal") if preview.status_code == 200 else None
    return client.post(url, {**data, "confirm": "1", "token": proposal.token if proposal else ""})

"""Storing one scanned revision: its claims, citations and sources, in one transaction.

Claims and citations keep their identity across revisions through fingerprints:
- a citation is its normalised URL when it has one (so an access-date bump is the same
  citation), otherwise its whitespace-normalised raw wikitext;
- a claim is its normalised text plus the fingerprints of its citations, plus a counter
  when the same sentence with the same citations occurs twice.
So an unchanged claim in a new revision maps onto its old row (verdicts and votes stay),
and a claim whose citation changed becomes a new claim, to be verified afresh.
"""
from __future__ import annotations

import hashlib
from collections import Counter

from django.db import transaction

from sideapp.claims.changes import findings_changed
from sideapp.claims.models import Citation, Claim, ClaimCitation, RevisionClaim
from sideapp.scans.models import Article, Revision
from sideapp.scans.occurrences import occurrences_json, tagged
from sideapp.sources.models import Source
from sideapp.scans.wikiapi import PageData
from verifier_core.fetch import normalise_url
from verifier_core.text import normalise_space
from verifier_core.wikitext import types as wt

_CITATION_FIELDS = (
    "url", "archive_url", "title", "work", "publisher", "date", "access_date", "doi",
    "isbn", "quote", "location",
)
_CITATION_STORED = ["kind", "ref_name", "raw", "template", "fields", "flags", "source", *_CITATION_FIELDS]
_CLAIM_STORED = ["text", "context", "section", "section_number", "sentence_rest", "needs_citation", "tags",
                 "checked", "checkable", "tagged_revision"]


def _digest(*parts: str) -> str:
    return hashlib.sha256("\x1f".join(parts).encode("utf-8")).hexdigest()


def citation_fingerprint(citation: wt.Citation) -> str:
    if citation.url:
        return _digest("url", normalise_url(citation.url))
    return _digest("raw", normalise_space(citation.raw))


def claim_fingerprints(claims: list[wt.Claim], citation_fps: list[str]) -> list[str]:
    seen: Counter[str] = Counter()
    fingerprints = []
    for claim in claims:
        base = _digest(
            normalise_space(claim.text).lower(),
            ",".join(citation_fps[i] for i in claim.citation_indices),
        )
        seen[base] += 1
        fingerprints.append(base if seen[base] == 1 else _digest(base, str(seen[base])))
    return fingerprints


def _field(value: str | None, limit: int | None = None) -> str:
    value = value or ""
    return value[:limit] if limit else value


def _citation_row(article: Article, citation: wt.Citation, fingerprint: str) -> Citation:
    row = Citation(
        article=article, fingerprint=fingerprint, kind=citation.kind,
        ref_name=_field(citation.ref_name, 255), raw=citation.raw,
        template=_field(citation.template, 100), fields=citation.fields, flags=citation.flags,
    )
    for name in _CITATION_FIELDS:
        limit = Citation._meta.get_field(name).max_length
        setattr(row, name, _field(getattr(citation, name, None), limit))
    return row


def _sources_for(urls: set[str]) -> dict[str, Source]:
    """Source rows for these URLs, created when new, keyed by normalised URL."""
    by_norm = {normalise_url(u): u for u in urls}
    existing = {s.normalized_url: s for s in Source.objects.filter(normalized_url__in=by_norm)}
    missing = [Source(normalized_url=n, url=u) for n, u in by_norm.items() if n not in existing]
    Source.objects.bulk_create(missing, ignore_conflicts=True)  # a parallel scan may win the race
    return {s.normalized_url: s for s in Source.objects.filter(normalized_url__in=by_norm)}


def _store_citations(article: Article, extraction: wt.Extraction) -> tuple[list[str], dict[str, Citation]]:
    fps = [citation_fingerprint(c) for c in extraction.citations]
    existing = {c.fingerprint: c for c in Citation.objects.filter(article=article, fingerprint__in=fps)}
    sources = _sources_for({c.url for c in extraction.citations if c.url})
    new_rows: dict[str, Citation] = {}
    changed: list[Citation] = []
    kept: dict[str, Citation] = {}
    for citation, fp in zip(extraction.citations, fps):
        row = _citation_row(article, citation, fp)
        row.source = sources.get(normalise_url(citation.url)) if citation.url else None
        if fp in existing:
            row.pk = existing[fp].pk  # same citation: refresh its fields to the latest text
            kept[fp] = row
            if _values(row, _CITATION_STORED) != _values(existing[fp], _CITATION_STORED):
                changed.append(row)
        elif fp not in new_rows:
            new_rows[fp] = row
    Citation.objects.bulk_create(new_rows.values())
    # Only rows whose text changed: an edit elsewhere in a long article rewrites nothing here.
    Citation.objects.bulk_update(changed, _CITATION_STORED)
    return fps, {**kept, **new_rows}


def _values(row, fields: list[str]) -> list:
    """The row's stored values of `fields` (a foreign key's id, not its object)."""
    return [getattr(row, row._meta.get_field(name).attname) for name in fields]


def _store_claims(revision: Revision, extraction: wt.Extraction, citation_fps: list[str],
                  citations: dict[str, Citation]) -> int:
    article = revision.article
    fps = claim_fingerprints(extraction.claims, citation_fps)
    existing = {c.fingerprint: c for c in Claim.objects.filter(article=article, fingerprint__in=fps)}
    cited_rows = [citations[fp] for fp in citation_fps]
    places = [occurrences_json(claim, extraction.citations, cited_rows) for claim in extraction.claims]
    kept, created, changed, restated = [], [], [], []
    for claim, fp, place in zip(extraction.claims, fps, places):
        row = existing.get(fp) or Claim(article=article, fingerprint=fp, first_revision=revision)
        before = _values(row, _CLAIM_STORED)
        if row.pk and (row.checked, row.checkable) != (claim.checked, claim.checkable):
            restated.append(row.pk)  # same words, another statement to check: verify again
        row.text, row.context, row.section = claim.text, claim.context, claim.section
        row.needs_citation, row.tags, row.last_revision = claim.needs_citation, claim.tags, revision
        row.section_number, row.sentence_rest = claim.section_number, claim.after
        row.checked, row.checkable = claim.checked, claim.checkable
        was_tagged = row.tagged_revision is not None
        row.tagged_revision = (row.tagged_revision or revision.rev_id) if tagged(place) else None
        if row.pk and was_tagged != (row.tagged_revision is not None):
            _reflag(row)
        (kept if row.pk else created).append(row)
        if row.pk and _values(row, _CLAIM_STORED) != before:
            changed.append(row)
    # Every kept claim moves to this revision in one statement; only those whose words or
    # context changed are rewritten (a long article edited in one place rewrites one or two).
    Claim.objects.filter(pk__in=[row.pk for row in kept]).update(last_revision=revision)
    Claim.objects.bulk_update(changed, _CLAIM_STORED)
    Claim.objects.filter(pk__in=restated).update(verify_state=Claim.State.PENDING, suggest_state="")
    Claim.objects.bulk_create(created)
    rows = {r.fingerprint: r for r in kept + created}
    links = [
        ClaimCitation(claim=rows[fp], citation=citations[citation_fps[i]], position=pos)
        for claim, fp in zip(extraction.claims, fps)
        if fp not in existing
        for pos, i in enumerate(dict.fromkeys(claim.citation_indices))
    ]
    ClaimCitation.objects.bulk_create(links, ignore_conflicts=True)
    RevisionClaim.objects.bulk_create(
        [RevisionClaim(revision=revision, claim=rows[fp], position=i, occurrences=place)
         for i, (fp, place) in enumerate(zip(fps, places))],
    )
    return len(rows)


def _reflag(row: Claim) -> None:
    """A claim tagged (or untagged) on the wiki since its verdict: in or out of the flagged
    list. One tagged since, never searched for better sources, is searched now (the scan
    job dispatches its pending claims once the sources are in)."""
    tagged = row.tagged_revision is not None
    row.flagged, row.needs_look = Claim.flag_rule(
        verdict=row.verdict, confidence=row.confidence, needs_citation=row.needs_citation,
        checkable=row.checkable, tagged=tagged)
    changes = {"flagged": row.flagged, "needs_look": row.needs_look}
    if (tagged and row.verify_state == Claim.State.DONE and not row.suggest_state
            and Claim.wants_suggestions(verdict=row.verdict, flagged=row.flagged, needs_look=row.needs_look,
                                        tagged=tagged, checkable=row.checkable)):
        row.suggest_state = changes["suggest_state"] = Claim.State.PENDING
    Claim.objects.filter(pk=row.pk).update(**changes)


def revision_store(*, article: Article, page: PageData, extraction: wt.Extraction) -> Revision:
    """Write a new revision with its claims and citations; all or nothing."""
    with transaction.atomic():
        revision = Revision.objects.create(
            article=article, rev_id=page.rev_id, timestamp=page.timestamp,
            wikitext=page.wikitext, warnings=extraction.warnings[:100], sha1=page.sha1,
            citation_occurrences=extraction.citation_occurrences,
        )
        citation_fps, citations = _store_citations(article, extraction)
        revision.claim_count = _store_claims(revision, extraction, citation_fps, citations)
        revision.citation_count = len(set(citation_fps))
        revision.save(update_fields=["claim_count", "citation_count"])
        current = article.current_revision
        if current is None or current.rev_id < revision.rev_id:  # never step back in time
            article.current_revision = revision
            article.page_id = page.page_id
            article.save(update_fields=["current_revision", "page_id"])
            _mark_current(revision)
            findings_changed(articles=[article.pk])
    return revision


def _mark_current(revision: Revision) -> None:
    """Claim.current follows the article's current revision (same transaction)."""
    held = Claim.objects.filter(revision_claims__revision=revision)
    Claim.objects.filter(article=revision.article_id, current=True).exclude(pk__in=held).update(current=False)
    held.update(current=True)

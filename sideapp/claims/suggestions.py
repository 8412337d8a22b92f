"""Better sources for flagged claims: retrieve, rerank with the verifier, keep the best.

SIDE's decision rule: a suggestion is shown as better only where it itself supports the
claim and the verifier scores it above the current citation; a claim without a citation
gets suggestions but none is "better" (verifier_core.verification.suggest).
"""
from __future__ import annotations

from django.conf import settings
from django.db import transaction

from sideapp.claims.models import Claim, Suggestion
from sideapp.claims.verification import claim_input, evidence_json, verifier
from sideapp.corpus.services import anchors_sync, corpus_engine, corpus_sync
from sideapp.sources.models import Source, SourceDocument
from verifier_core.fetch import normalise_url
from verifier_core.retrieval import EmptyQueryError
from verifier_core.verification import SourceVerdict
from verifier_core.verification.suggest import suggestion_is_better

KEEP = 5


def _cited_urls(claim: Claim) -> set[str]:
    urls = set()
    for citation in claim.citations.select_related("source"):
        urls |= {u for u in (citation.url, citation.archive_url) if u}
        if citation.source:
            urls |= {citation.source.url, citation.source.final_url}
    return urls - {""}


def _candidates(claim: Claim) -> list[tuple[Source, SourceDocument]]:
    """Retrieved documents, best first, minus what the claim already cites."""
    cited = _cited_urls(claim)
    cited_norm = {normalise_url(u) for u in cited}
    try:
        hits = corpus_engine().search(
            claim.statement, title=claim.article.title, section=" ".join(claim.section),
            k=settings.SIDE_SUGGEST_CANDIDATES, exclude_urls=cited)
    except EmptyQueryError:
        return []
    wanted = [h.url for h in hits if normalise_url(h.url) not in cited_norm]
    docs = {d.source.url: d for d in SourceDocument.objects.select_related("source")
            .filter(source__url__in=wanted, source__status=Source.Status.OK)}
    return [(docs[u].source, docs[u]) for u in wanted if u in docs]


def is_better(candidate: SourceVerdict, current: float | None, *, current_verdict: str | None = None,
              has_citation: bool = True) -> bool:
    """SIDE's rule, applied by verifier_core's one function (see there)."""
    return suggestion_is_better(current_score=current, current_verdict=current_verdict, suggestion_score=candidate.score,
                                suggestion_verdict=candidate.verdict, has_citation=has_citation)


def claim_suggest(*, claim: Claim) -> Claim:
    """Store the top suggestions for `claim` (replacing earlier ones) in one transaction.
    A claim that is not checkable on its own gets none: no source can support it."""
    if not claim.checkable:
        return _stored(claim, [], "no suggestions: the claim is not checkable on its own")
    corpus_sync()
    anchors_sync()
    candidates = _candidates(claim)
    ranked = verifier().rerank(claim_input(claim), [doc.text for _, doc in candidates])[:KEEP]
    has_citation = not claim.needs_citation and claim.claim_citations.exists()
    rows = [
        Suggestion(claim=claim, rank=rank, url=source.url, title=doc.title or source.title,
                   source=source, score=one.score, verdict=one.verdict,
                   evidence=evidence_json(one.evidence), beats_current=is_better(
                       one, claim.score, current_verdict=claim.verdict, has_citation=has_citation))
        for rank, (index, one) in enumerate(ranked, start=1)
        for source, doc in [candidates[index]]
    ]
    better = sum(r.beats_current for r in rows)
    reason = (f"{better} of {len(rows)} suggestions score above the current citation" if rows
              else "no candidate source in the corpus passed the retrieval floor")
    return _stored(claim, rows, reason)


def _stored(claim: Claim, rows: list[Suggestion], reason: str) -> Claim:
    with transaction.atomic():
        Suggestion.objects.filter(claim=claim).delete()
        Suggestion.objects.bulk_create(rows)
        Claim.objects.filter(pk=claim.pk).update(suggest_state=Claim.State.DONE, suggest_reason=reason)
    claim.refresh_from_db()
    return claim

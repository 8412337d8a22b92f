"""Better sources for flagged claims: retrieve, rerank with the verifier, keep the best.

SIDE's decision rule: a suggestion is shown as better only where it itself supports the
claim and the verifier scores it above the current citation; a claim without a citation
gets suggestions but none is "better" (verifier_core.verification.judgement.suggest).

A suggestion an editor could use: never a page the claim already cites (the same page
after URL normalisation, `page_key`, or the same text), never a page that no longer
answers (a live URL that failed, or one read only through its archived copy), and a
page read too long ago (SIDE_SUGGESTION_MAX_AGE_DAYS) is read again first.
"""
from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from sideapp.claims.changes import findings_changed
from sideapp.claims.models import Claim, Suggestion
from sideapp.claims.offers import read_too_long_ago, suggestion_max_age
from sideapp.claims.verification import claim_input, evidence_json, verifier
from sideapp.corpus.services import anchors_sync, corpus_engine, corpus_sync
from sideapp.sources.models import Source, SourceDocument
from sideapp.sources.services import source_fetch
from verifier_core.fetch import page_key
from verifier_core.retrieval import EmptyQueryError
from verifier_core.verification import SourceVerdict
from verifier_core.verification.judgement.suggest import suggestion_is_better

KEEP = 5


@dataclass(frozen=True)
class _Cited:
    urls: set[str]
    pages: set[str]  # page_key of every URL
    texts: set[str]  # sha256 of the text read from each cited source


def _cited(claim: Claim) -> _Cited:
    urls, texts = set(), set()
    for citation in claim.citations.select_related("source__document").defer("source__document__text"):
        urls |= {citation.url, citation.archive_url}
        if citation.source:
            urls |= {citation.source.url, citation.source.final_url}
            document = getattr(citation.source, "document", None)
            texts |= {document.sha256} if document is not None else set()
    urls -= {""}
    return _Cited(urls, {page_key(u) for u in urls}, texts)


def _candidates(claim: Claim) -> list[tuple[Source, SourceDocument]]:
    """Retrieved documents that still answer, best first, minus what the claim already
    cites and minus repeats of one page (one suggestion per page)."""
    cited = _cited(claim)
    try:
        hits = corpus_engine().search(
            claim.statement, title=claim.article.title, section=" ".join(claim.section),
            k=settings.SIDE_SUGGEST_CANDIDATES, exclude_urls=cited.urls)
    except EmptyQueryError:
        return []
    wanted = [h.url for h in hits if page_key(h.url) not in cited.pages]
    docs = {d.source.url: d for d in SourceDocument.objects.select_related("source")
            .filter(source__url__in=wanted, source__status=Source.Status.OK, source__used_archive=False)
            .exclude(sha256__in=cited.texts)}
    seen: set[str] = set()
    found = []
    for url in wanted:
        doc = docs.get(url)
        if doc is not None and not {page_key(url), doc.sha256} & seen:
            seen |= {page_key(url), doc.sha256}
            found.append((doc.source, doc))
    return found


def suggested_page_refresh(*, source: Source) -> Source:
    """Read a suggested page again. One that no longer answers leaves every claim's
    suggestions; one whose text changed keeps only the suggestions whose evidence it
    still holds verbatim (shown evidence is always the page's own words)."""
    source_fetch(source=source, force=True)
    source = Source.objects.select_related("document").get(pk=source.pk)
    suggestions = Suggestion.objects.filter(source=source)
    document = getattr(source, "document", None)
    answers = source.answers and document is not None
    gone = [s for s in suggestions if not answers or not _evidence_in(s.evidence, document.text)]
    with transaction.atomic():
        Suggestion.objects.filter(pk__in=[s.pk for s in gone]).delete()
        findings_changed(claims=[s.claim_id for s in gone])
    return source


def _evidence_in(evidence: dict | None, text: str) -> bool:
    if not evidence or "passage" not in evidence:
        return True
    return text[evidence.get("start", 0):evidence.get("end", 0)] == evidence["passage"]


def _answering(ranked: list, candidates: list) -> list:
    """The ranked candidates whose page answers, the first KEEP of them: a page read
    too long ago is read again first, and one that is dead or changed is passed over."""
    kept, now = [], timezone.now()
    for index, one in ranked:
        source, doc = candidates[index]
        if read_too_long_ago(source.fetched_at or doc.fetched_at, now=now, max_age=suggestion_max_age()):
            fresh = suggested_page_refresh(source=source)
            document = getattr(fresh, "document", None)
            if not fresh.answers or document is None or document.sha256 != doc.sha256:
                continue
        kept.append((source, doc, one))
        if len(kept) == KEEP:
            break
    return kept


def is_better(candidate: SourceVerdict, current: float | None, *, current_verdict: str | None = None,
              has_citation: bool = True) -> bool:
    """SIDE's rule, applied by verifier_core's one function (see there)."""
    return suggestion_is_better(current_score=current, current_verdict=current_verdict, suggestion_score=candidate.score,
                                suggestion_verdict=candidate.verdict, has_citation=has_citation)


def suggestions_rank(claim: Claim) -> list[tuple[Source, SourceDocument, SourceVerdict]]:
    """The claim's best KEEP candidates that an editor could use, best first, as
    (page, its text, the verifier's judgement)."""
    return suggestions_rank_many([claim])[0]


def suggestions_rank_many(claims: list[Claim]) -> list[list[tuple[Source, SourceDocument, SourceVerdict]]]:
    """`suggestions_rank` of each claim, their candidates reranked in one cross-encoder run
    (shared batches, each distinct claim-passage pair read once): what each claim gets is
    what it gets alone, to float rounding."""
    candidates = [_candidates(claim) for claim in claims]
    ranked = verifier().rerank_many([(claim_input(claim), [doc.text for _, doc in found])
                                     for claim, found in zip(claims, candidates)])
    return [_answering(one, found) for one, found in zip(ranked, candidates)]


def claim_suggest(*, claim: Claim) -> Claim:
    """Store the top suggestions for `claim` (replacing earlier ones) in one transaction.
    A claim that is not checkable on its own gets none: no source can support it."""
    return claims_suggest(claims=[claim])[0]


def claims_suggest(*, claims: list[Claim]) -> list[Claim]:
    """`claim_suggest` of several claims (one article's, as the suggest stage hands them
    over), the corpus brought up to date once and the reranks in one run; each claim's
    suggestions are stored in its own transaction."""
    checkable = [claim for claim in claims if claim.checkable]
    if checkable:
        corpus_sync()
        anchors_sync()
    ranks = dict(zip((claim.pk for claim in checkable), suggestions_rank_many(checkable)))
    return [_suggestions_stored(claim, ranks[claim.pk]) if claim.checkable
            else _stored(claim, [], "no suggestions: the claim is not checkable on its own") for claim in claims]


def _suggestions_stored(claim: Claim, ranked: list[tuple[Source, SourceDocument, SourceVerdict]]) -> Claim:
    has_citation = not claim.needs_citation and claim.claim_citations.exists()
    rows = [
        Suggestion(claim=claim, rank=rank, url=source.url, title=doc.title or source.title,
                   source=source, score=one.score, verdict=one.verdict,
                   evidence=evidence_json(one.evidence), beats_current=is_better(
                       one, claim.score, current_verdict=claim.verdict, has_citation=has_citation))
        for rank, (source, doc, one) in enumerate(ranked, start=1)
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
        findings_changed(articles=[claim.article_id])
    claim.refresh_from_db()
    return claim

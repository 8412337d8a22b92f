"""Reads for editors' actions: the claim to edit with its citations, and an article's
flagged claims for its talk-page report."""
from __future__ import annotations

from django.db.models import F, Prefetch, QuerySet

from sideapp.claims.models import Claim, ClaimCitation, Suggestion
from sideapp.claims.offers import claim_offers
from sideapp.claims.places import cited_fields, current_places, places_prefetch
from sideapp.claims.selectors import suggestions_with_sources, with_sources
from sideapp.claims.wording import verdict_words
from sideapp.scans.models import Article
from verifier_core.wikitext.report import Link, ReportRow


def _links() -> QuerySet[ClaimCitation]:
    return with_sources(ClaimCitation.objects.order_by("position"))


def claim_for_edit(pk: int) -> Claim:
    """The claim with what the offer rule reads: its citations' sources, its suggestions'."""
    return (Claim.objects.select_related("article__wiki", "article__current_revision")
            .prefetch_related(Prefetch("claim_citations", queryset=_links()),
                              Prefetch("suggestions", queryset=suggestions_with_sources()))
            .get(pk=pk))


def suggestions_of(claim: Claim) -> QuerySet[Suggestion]:
    return suggestions_with_sources().filter(claim=claim)


def suggestion_of(claim: Claim, spk: int) -> Suggestion:
    return suggestions_of(claim).get(pk=spk)


def last_link(claim: Claim) -> ClaimCitation | None:
    """The claim's last citation, after which an added one goes."""
    links = list(claim.claim_citations.all())
    return links[-1] if links else None


def article_for_report(pk: int) -> Article:
    return Article.objects.select_related("current_revision", "wiki").get(pk=pk)


def report_rows(article: Article) -> list[ReportRow]:
    """Flagged claims of the article's current revision, in article order; the best
    suggestion is the first one that an editor is offered to add or put in (the offer rule)."""
    if article.current_revision is None:
        return []
    claims = (Claim.objects
              .filter(revision_claims__revision=article.current_revision, flagged=True)
              .prefetch_related(Prefetch("claim_citations", queryset=_links()),
                                Prefetch("suggestions", queryset=suggestions_with_sources()),
                                places_prefetch(article.current_revision_id))
              .order_by(F("revision_claims__position")))
    rows = []
    for claim in claims:
        best = claim_offers(claim).best()
        places = current_places(claim)
        cited = [cited_fields(l.citation, places.get(l.citation_id)) for l in claim.claim_citations.all()]
        rows.append(ReportRow(
            claim=claim.text, section=claim.section_path, verdict=verdict_words(claim),
            cited=tuple(Link(c["url"] or c["archive_url"], c["title"]) for c in cited
                        if c.get("url") or c.get("archive_url")),
            suggestion=Link(best.url, best.title) if best else None,
        ))
    return rows

"""Reads for editors' actions: the claim to edit with its citations, and an article's
flagged claims for its talk-page report."""
from __future__ import annotations

from django.db.models import F, Prefetch

from sideapp.claims.models import Claim, ClaimCitation, Suggestion
from sideapp.claims.wording import verdict_words
from sideapp.scans.models import Article
from verifier_core.verification import Verdict
from verifier_core.wikitext.report import Link, ReportRow


def claim_for_edit(pk: int) -> Claim:
    links = ClaimCitation.objects.select_related("citation").order_by("position")
    return (Claim.objects.select_related("article__wiki", "article__current_revision")
            .prefetch_related(Prefetch("claim_citations", queryset=links))
            .get(pk=pk))


def suggestion_of(claim: Claim, spk: int) -> Suggestion:
    return Suggestion.objects.select_related("source").get(pk=spk, claim=claim)


def failing_link(claim: Claim) -> ClaimCitation | None:
    """The citation an editor replaces or tags: the weakest one (no score counts as
    weakest: its source could not be read), the first on a tie."""
    links = list(claim.claim_citations.all())
    if not links:
        return None
    return min(links, key=lambda l: (l.verdict == Verdict.SUPPORTED,
                                     -1.0 if l.score is None else l.score, l.position))


def last_link(claim: Claim) -> ClaimCitation | None:
    """The claim's last citation, after which an added one goes."""
    links = list(claim.claim_citations.all())
    return links[-1] if links else None


def article_for_report(pk: int) -> Article:
    return Article.objects.select_related("current_revision", "wiki").get(pk=pk)


def report_rows(article: Article) -> list[ReportRow]:
    """Flagged claims of the article's current revision, in article order."""
    if article.current_revision is None:
        return []
    links = ClaimCitation.objects.select_related("citation").order_by("position")
    best = Suggestion.objects.order_by("-beats_current", "rank")
    claims = (Claim.objects
              .filter(revision_claims__revision=article.current_revision, flagged=True)
              .prefetch_related(Prefetch("claim_citations", queryset=links),
                                Prefetch("suggestions", queryset=best))
              .order_by(F("revision_claims__position")))
    rows = []
    for claim in claims:
        suggestions = list(claim.suggestions.all())
        rows.append(ReportRow(
            claim=claim.text, section=claim.section_path, verdict=verdict_words(claim),
            cited=tuple(Link(l.citation.url or l.citation.archive_url, l.citation.title)
                        for l in claim.claim_citations.all()
                        if l.citation.url or l.citation.archive_url),
            suggestion=Link(suggestions[0].url, suggestions[0].title) if suggestions else None,
        ))
    return rows

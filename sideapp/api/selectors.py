"""Reads of the public API: a wiki page by its identity, the claims of its current scanned
revision that have something to say, the failing citations Edit Check asks for."""
from __future__ import annotations

from django.db.models import Exists, OuterRef, Prefetch, Q, QuerySet

from sideapp.claims.models import Claim, ClaimCitation, Suggestion
from sideapp.claims.selectors import suggestions_with_sources, with_sources
from sideapp.scans.models import Article, ScanItem, ScanJob, Wiki
from verifier_core.verification import Verdict
from verifier_core.verification.verdicts import HIGH


def known_wiki(wiki_id: str) -> Wiki | None:
    """A wiki Side editor knows by its identity (siteinfo's wikiid = $wgDBname)."""
    return Wiki.objects.filter(wikiid=wiki_id).order_by("pk").first() if wiki_id else None


def page_article(*, wiki_id: str, page_id: int | None = None, title: str = "") -> Article | None:
    """The scanned article of a wiki page, by page id or title ("Foo_bar" = "Foo bar")."""
    articles = Article.objects.select_related("wiki", "current_revision").filter(wiki__wikiid=wiki_id)
    if page_id is not None:
        return articles.filter(page_id=page_id).order_by("pk").first()
    return articles.filter(title=title_form(title)).order_by("pk").first() if title else None


def title_form(title: str) -> str:
    """A title as MediaWiki stores it: spaces for underscores, first letter upper case."""
    title = " ".join(title.replace("_", " ").split())
    return title[:1].upper() + title[1:]


def checkable(claims: QuerySet[Claim]) -> QuerySet[Claim]:
    """Claims that can carry a verdict (a claim not checkable on its own has nothing to say)."""
    return claims.exclude(checkable=False)


def finding_claims(article: Article) -> list[Claim]:
    """The claims of the article's current scanned revision with something to say, in
    article order: a verdict that is flagged or needs a look, or a claim that needs a source
    and has a suggestion for it. Citations and suggestions come along (two more queries)."""
    suggested = Exists(Suggestion.objects.filter(claim=OuterRef("pk")))
    said = (Q(verdict__gt="") & (Q(flagged=True) | Q(needs_look=True))) | (Q(needs_citation=True) & suggested)
    links = with_sources(ClaimCitation.objects.order_by("position"))
    claims = (checkable(Claim.objects.filter(revision_claims__revision=article.current_revision_id))
              .filter(said).order_by("revision_claims__position")
              .prefetch_related(Prefetch("claim_citations", queryset=links),
                                Prefetch("suggestions", queryset=suggestions_with_sources())))
    return list(claims)


def failing_citations(article: Article) -> list[ClaimCitation]:
    """Edit Check's cards: each citation of the current scanned revision judged
    not_supported with high confidence, in article order."""
    claims = checkable(Claim.objects.filter(revision_claims__revision=article.current_revision_id))
    return list(ClaimCitation.objects
                .filter(claim__in=claims, claim__revision_claims__revision=article.current_revision_id,
                        verdict=Verdict.NOT_SUPPORTED, confidence=HIGH)
                .select_related("citation", "claim")
                .order_by("claim__revision_claims__position", "position"))


def cited_claims(article: Article) -> list[tuple[int, str, list[str]]]:
    """(claim id, text, cited URLs) of every claim of the current scanned revision, in
    article order: what is located in the rendered page once per revision."""
    links = (ClaimCitation.objects.filter(claim__revision_claims__revision=article.current_revision_id)
             .order_by("claim__revision_claims__position", "position")
             .values_list("claim_id", "claim__text", "citation__url", "citation__archive_url"))
    claims: dict[int, tuple[str, list[str]]] = {}
    for pk, text, url, archive in links:
        claims.setdefault(pk, (text, []))[1].append(url or archive)
    return [(pk, text, urls) for pk, (text, urls) in claims.items()]


def pending_scan(*, wiki: Wiki | int, title: str) -> ScanJob | None:
    """A running scan that has yet to read this page, so it will read its current revision (a
    request for the page joins it; one that has read the page already may have read an older
    revision)."""
    return (ScanJob.objects.filter(wiki=wiki, status__in=ScanJob.OPEN, items__title=title,
                                   items__status__in=ScanItem.UNFINISHED)
            .order_by("pk").first())


def latest_scan(*, wiki: Wiki | int, title: str) -> ScanJob | None:
    """The newest scan that read this page, running or ended: a page's claims change only
    through one, so its id tells whether a kept answer still holds."""
    return ScanJob.objects.filter(wiki=wiki, items__title=title).order_by("-pk").first()


def api_scan(pk: int) -> ScanJob:
    return ScanJob.objects.select_related("wiki").get(pk=pk, wiki__wikiid__gt="")

"""Reads of the public API: a wiki page by its identity, the claims of its current scanned
revision that have something to say, the failing citations Edit Check asks for."""
from __future__ import annotations

import hashlib
from datetime import datetime
from urllib.parse import urlsplit

from django.db.models import Prefetch, Q, QuerySet, prefetch_related_objects
from django.utils import timezone

from sideapp.claims.models import Claim, ClaimCitation, ClaimReview, Suggestion
from sideapp.claims.offers import read_too_long_ago, suggestion_max_age
from sideapp.claims.places import places_prefetch
from sideapp.claims.selectors import suggestions_with_sources, with_sources
from sideapp.scans.models import Article, ArticleTitle, ScanItem, ScanJob, Wiki
from sideapp.scans.pages import PAGE_FIRST
from verifier_core.verification import Verdict
from verifier_core.verification.judgement.verdicts import HIGH


def known_wiki(wiki_id: str, origin: str = "") -> Wiki | None:
    """A wiki Side editor knows by its identity (siteinfo's wikiid = $wgDBname). Of wikis
    named alike (a staging copy, two default installs: sideapp.scans.wikis), the one whose
    server is `origin`, the asking page's; None when that does not tell them apart (so an
    answer is never another wiki's page: `namesakes`)."""
    rows = list(Wiki.objects.filter(wikiid=wiki_id).order_by("pk")[:20]) if wiki_id else []
    if len(rows) <= 1:
        return rows[0] if rows else None
    return next((w for w in rows if origin and origin in server_origins(w.server)), None)


def namesakes(wiki_id: str) -> int:
    """How many wikis Side editor checks call themselves `wiki_id`."""
    return Wiki.objects.filter(wikiid=wiki_id).count() if wiki_id else 0


def server_origins(server: str) -> set[str]:
    """The origins (scheme://host[:port]) of a wiki's siteinfo `server`."""
    if not server:
        return set()
    if server.startswith("//"):  # protocol-relative ($wgServer "//en.wikipedia.org")
        return {f"https:{server}", f"http:{server}"}
    parts = urlsplit(server)
    return {f"{parts.scheme}://{parts.netloc}"}


def page_article(*, wiki: Wiki | None = None, wiki_id: str = "", page_id: int | None = None,
                 title: str = "") -> Article | None:
    """The scanned article of a wiki page, by page id (its row follows moves) or title
("Foo_bar" = "Foo bar"; of two rows with one title, the page's own: sideapp.scans.pages), of
`wiki` (or of the wiki known as `wiki_id`)."""
    articles = Article.objects.select_related("wiki", "current_revision")
    articles = articles.filter(wiki=wiki) if wiki is not None else articles.filter(wiki__wikiid=wiki_id)
    if page_id is not None:
        return articles.filter(page_id=page_id).order_by("pk").first()
    return articles.filter(title=title_form(title)).order_by(*PAGE_FIRST).first() if title else None


def title_held_before(wiki: Wiki, title: str) -> bool:
    """Whether a page of `wiki` Side editor scanned once had `title` (it moved since)."""
    return bool(title) and ArticleTitle.objects.filter(article__wiki=wiki, title=title_form(title)).exists()


def title_form(title: str) -> str:
    """A title as MediaWiki stores it: spaces for underscores, first letter upper case."""
    title = " ".join(title.replace("_", " ").split())
    return title[:1].upper() + title[1:]


def checkable(claims: QuerySet[Claim]) -> QuerySet[Claim]:
    """Claims that can carry a verdict (a claim not checkable on its own has nothing to say)."""
    return claims.exclude(checkable=False)


def finding_claims(article: Article) -> list[Claim]:
    """The claims of the article's current scanned revision that were checked, in article
    order: every verdict (the gadget hides the supported ones until a reader asks for all
    checks) and every claim that needs a source. Citations and suggestions come along (two
    more queries)."""
    said = Q(verdict__gt="") | Q(needs_citation=True)
    links = with_sources(ClaimCitation.objects.order_by("position"))
    claims = (checkable(Claim.objects.filter(revision_claims__revision=article.current_revision_id))
              .filter(said).order_by("revision_claims__position")
              .prefetch_related(Prefetch("claim_citations", queryset=links),
                                Prefetch("suggestions", queryset=suggestions_with_sources()),
                                Prefetch("reviews", queryset=ClaimReview.objects.order_by("pk")),
                                places_prefetch(article.current_revision_id)))
    return list(claims)


def offers_now(article: Article, *, now: datetime | None = None) -> tuple[str, datetime | None]:
    """What the page's suggestions may offer now, read once: a short digest (each one's page
    answers or not, and was read recently enough to be offered or not:
    SIDE_SUGGESTION_MAX_AGE_DAYS), and when the next offer expires with time alone (None:
    none will). No row is written when an offer expires, so the findings' ETag and cache key
    carry the digest beside the page's findings version (sideapp.claims.changes), and no kept
    answer outlives that moment (sideapp.api.fastpath)."""
    now, max_age = now or timezone.now(), suggestion_max_age()
    rows = (Suggestion.objects.filter(claim__revision_claims__revision=article.current_revision_id).order_by("pk")
            .values_list("pk", "source__status", "source__used_archive", "source__fetched_at",
                         "source__document__fetched_at"))
    state, ends = [], []
    for pk, status, archived, read, read_doc in rows:
        read = read or read_doc
        state.append((pk, status, archived, read_too_long_ago(read, now=now, max_age=max_age)))
        if read is not None and read + max_age > now:
            ends.append(read + max_age)
    digest = hashlib.sha1(repr(state).encode()).hexdigest()[:12] if state else "0"
    return digest, min(ends, default=None)


def failing_citations(article: Article) -> list[ClaimCitation]:
    """Edit Check's cards: each citation of the current scanned revision judged
    not_supported with high confidence, in article order."""
    claims = checkable(Claim.objects.filter(revision_claims__revision=article.current_revision_id))
    links = list(ClaimCitation.objects
                 .filter(claim__in=claims, claim__revision_claims__revision=article.current_revision_id,
                         verdict=Verdict.NOT_SUPPORTED, confidence=HIGH)
                 .select_related("citation", "claim__article")
                 .order_by("claim__revision_claims__position", "position"))
    # Each card names the claim's own ref: its places, read in one query, not one per card.
    prefetch_related_objects([link.claim for link in links], places_prefetch(article.current_revision_id))
    return links


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


def tagged_claims(article: Article) -> list[tuple[int, str]]:
    """(claim id, text) of every claim of the current scanned revision that needs a source
    (tagged {{citation needed}}, no citation), in article order: placed by its words."""
    return list(Claim.objects.filter(revision_claims__revision=article.current_revision_id, needs_citation=True)
                .order_by("revision_claims__position").values_list("pk", "text"))


def pending_scan(*, wiki: Wiki | int, title: str, page_id: int | None = None) -> ScanJob | None:
    """A running scan that has yet to read this page (by title, or by page id: it may have
    moved), so it will read its current revision (a request for the page joins it; one that
    has read the page already may have read an older revision)."""
    page = Q(items__title=title) | (Q(items__page_id=page_id) if page_id else Q())
    return (ScanJob.objects.filter(page, wiki=wiki, status__in=ScanJob.OPEN, items__status__in=ScanItem.UNFINISHED)
            .order_by("pk").first())


def latest_scan(*, wiki: Wiki | int, title: str) -> ScanJob | None:
    """The newest scan that read this page, running or ended: a page's claims change only
    through one, so its id tells whether a kept answer still holds."""
    return ScanJob.objects.filter(wiki=wiki, items__title=title).order_by("-pk").first()


def page_latest_scan(article: Article) -> ScanJob | None:
    """latest_scan of the page by its row (under any title it had) or its present title."""
    page = Q(items__article=article) | Q(items__title=article.title)
    if article.page_id:
        page |= Q(items__page_id=article.page_id)
    return ScanJob.objects.filter(page, wiki=article.wiki_id).order_by("-pk").first()


def api_scan(pk: int) -> ScanJob:
    return ScanJob.objects.select_related("wiki").get(pk=pk, wiki__wikiid__gt="")

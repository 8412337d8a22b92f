"""Reads of claims: the editors' list (filters, search, sort) and the claim page."""
from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Exists, F, IntegerField, OuterRef, Prefetch, Q, QuerySet, Subquery, TextField, Value
from django.db.models.functions import Cast, Coalesce

from sideapp.claims import search
from sideapp.claims.models import Claim, ClaimCitation, ClaimReview, Suggestion
from sideapp.scans.models import Article
from sideapp.sources.lists import BUCKETS, unreadable_q
from verifier_core.verification import ReasonKind, Verdict

SHOWS = {
    "flagged": "Flagged",
    "needs_look": "Needs a look",
    "needs_source": "Needs a source",
    "unavailable": "Sources that could not be read",
    "rescue": "Dead links with an archived copy",
    "uncheckable": "Not checkable on its own",
    "tagged": "Tagged on the wiki",
    "reviewed": "Dismissed or verified by me",
    "all": "All checked",
}
SORTS = {"score": "weakest support first", "relevance": "best match (searching)", "article": "article",
         "newest": "newest scan"}
PAGE_SIZE = 50
# What a row of the list shows; the rest (context, evidence, parts) stays in the table.
LIST_FIELDS = ("text", "section", "needs_citation", "checkable", "verdict", "score", "verify_reason", "reasons", "tagged_revision",
               "article__title", "article__wiki__name", "article__wiki__api_url")


@dataclass(frozen=True)
class ClaimFilters:
    show: str = "flagged"
    q: str = ""  # words of the claim, its section or its article's title (sideapp.claims.search)
    article: str = ""
    section: str = ""
    verdict: str = ""
    needs_source: bool = False
    better: bool = False  # has a suggestion better than its current citation
    sort: str = "score"  # "relevance" (best match) is the order of a search unless asked otherwise
    dead: str = ""  # a part of "Sources that could not be read" (sideapp.sources.lists.BUCKETS)


def current_claims() -> QuerySet[Claim]:
    """Claims that the current revision of their article still holds."""
    return Claim.objects.filter(current=True)


def claim_list(*, filters: ClaimFilters, user) -> QuerySet[Claim]:
    """The editors' list: SIDE's triage order (the weakest support first) unless asked
    otherwise; claims this user dismissed or verified are hidden except where asked for."""
    claims = _shown(current_claims(), filters.show, user)
    rank = None
    if filters.q:
        condition, aliases, rank = search.matching(filters.q)
        claims = claims.alias(**aliases).filter(condition)
    if filters.article:
        claims = claims.filter(article__title__icontains=filters.article)
    if filters.section:
        claims = claims.annotate(section_text=Cast("section", TextField())).filter(
            section_text__icontains=filters.section)
    if filters.verdict:
        claims = claims.filter(verdict=filters.verdict)
    if filters.needs_source:
        claims = claims.filter(needs_citation=True)
    if filters.show == "unavailable" and filters.dead in BUCKETS:
        claims = claims.filter(unreadable_q(filters.dead))
    if filters.better:
        claims = claims.filter(Exists(Suggestion.objects.filter(claim=OuterRef("pk"), beats_current=True)))
    if filters.sort == "relevance" and rank is not None:
        return claims.order_by(rank.desc(), *INDEXED_ORDER)
    return claims.order_by(*_order(filters.sort))


def claim_rows(*, pks: list[int], user) -> list[Claim]:
    """One page of the list, in the page's order: what a row shows, with this user's and
    everyone's reviews, and the citations whose source could not be read (why, in words
    and in detail, and an archived copy). Read by the page's ids (a second query):
    PostgreSQL evaluates a row's review subqueries for every row that an OFFSET skips,
    so page 40 would count the reviews of 2,000 claims to show 50."""
    unreadable = Prefetch("claim_citations", to_attr="unreadable_links", queryset=with_sources(
        ClaimCitation.objects.filter(verdict=Verdict.SOURCE_UNAVAILABLE)))
    rows = (_with_reviews(Claim.objects.filter(pk__in=pks), user).select_related("article__wiki").only(*LIST_FIELDS)
            .prefetch_related(unreadable))
    by_pk = {claim.pk: claim for claim in rows}
    return [by_pk[pk] for pk in pks if pk in by_pk]


def _shown(claims: QuerySet[Claim], show: str, user) -> QuerySet[Claim]:
    mine = Exists(ClaimReview.objects.filter(claim=OuterRef("pk"), user=user, suggestion=None))
    if show == "reviewed":
        return claims.filter(mine)
    if show == "all":
        return claims.exclude(verify_state=Claim.State.PENDING)
    claims = claims.exclude(mine)
    if show == "needs_source":
        return claims.filter(needs_citation=True)
    if show == "unavailable":
        return claims.filter(verdict=Verdict.SOURCE_UNAVAILABLE)
    if show == "rescue":  # dead pages whose copy as cited supports the claim (sources.lists)
        return claims.filter(unreadable_q("rescue"))
    if show == "uncheckable":
        return claims.filter(checkable=False)
    if show == "needs_look":
        return claims.filter(needs_look=True)
    if show == "tagged":  # {{failed verification}} on the wiki: out of the flagged list (flag_rule)
        return claims.filter(tagged_revision__isnull=False)
    return claims.filter(flagged=True)


def _with_reviews(claims: QuerySet[Claim], user) -> QuerySet[Claim]:
    """Each row carries how many editors dismissed or verified it, and this user's own
    judgement, read in the same query (the list's query count does not grow with rows)."""
    reviews = ClaimReview.objects.filter(claim=OuterRef("pk"), suggestion=None)
    counted = reviews.order_by().values("claim").annotate(n=Count("pk")).values("n")
    return claims.annotate(
        review_count=Coalesce(Subquery(counted, output_field=IntegerField()), Value(0)),
        my_review=Subquery(reviews.filter(user=user).values("kind")[:1]),
    )


# SIDE's order, weakest support first: the order of the list's indexes (Claim.Meta).
INDEXED_ORDER = (F("score").asc(nulls_first=True), "pk")


def _order(sort: str) -> tuple:
    if sort == "article":
        return ("article__title", "section_number", "pk")
    if sort == "newest":
        return (F("last_revision_id").desc(), *INDEXED_ORDER)  # ids grow with scan time
    return INDEXED_ORDER


def claim_counts() -> dict[str, int]:
    """How much the app knows: scanned articles and claims."""
    return {"article_count": Article.objects.exclude(current_revision=None).count(),
            "claim_count": Claim.objects.count()}


@dataclass(frozen=True)
class Overruled:
    """Claims given a kind of reason, and how many of them an editor said their source supports."""
    label: str
    given: int
    overruled: int


def overruled_reasons() -> list[Overruled]:
    """How often editors overrule the app, by reason: a figure reason ("the source gives
    ..., not ...") on any current claim, and the other flags. The share overruled is the
    false alarms editors found; `export_judgements --from editors` writes them out."""
    claims = current_claims().filter(checkable=True).annotate(
        figure=Exists(ClaimCitation.objects.filter(claim=OuterRef("pk"), reasons__contains=[{"kind": ReasonKind.FIGURE}])),
        overruled=Exists(ClaimReview.objects.filter(ClaimReview.SAYS_SUPPORTED, suggestion=None,
                                                    claim=OuterRef("pk"))))
    counts = {figure: (given, overruled) for figure, given, overruled in (
        claims.filter(Q(figure=True) | Q(flagged=True)).values("figure")
        .annotate(given=Count("pk"), overruled=Count("pk", filter=Q(overruled=True)))
        .values_list("figure", "given", "overruled"))}
    labels = {True: "a figure reason (“the source gives …, not …”)", False: "other flagged claims"}
    return [Overruled(label, *counts.get(key, (0, 0))) for key, label in labels.items()]


def with_sources(links: QuerySet[ClaimCitation]) -> QuerySet[ClaimCitation]:
    """Citations with their sources and whether (and what) text was read from them, for
    the offer rule (sideapp.claims.offers); never the text itself."""
    return links.select_related("citation__source__document").defer("citation__source__document__text")


def suggestions_with_sources() -> QuerySet[Suggestion]:
    return (Suggestion.objects.select_related("source__document").defer("source__document__text")
            .order_by("rank"))


def claim_detail(pk: int) -> Claim:
    links = with_sources(ClaimCitation.objects.all())
    suggestions = suggestions_with_sources()
    return (Claim.objects.select_related("article__wiki", "article__current_revision", "last_revision")
            .prefetch_related(Prefetch("claim_citations", queryset=links),
                              Prefetch("suggestions", queryset=suggestions),
                              Prefetch("reviews", queryset=ClaimReview.objects.select_related("user")))
            .get(pk=pk))


def evidence_parts(evidence: dict | None) -> list[tuple[str, bool]]:
    """The evidence passage cut into (text, is_support) pieces, so that a template can
    highlight the supporting sentences with plain auto-escaped text (never |safe)."""
    if not evidence or not evidence.get("passage"):
        return []
    passage = evidence["passage"]
    base = evidence.get("start", 0)  # offsets are into the source text; the passage starts here
    spans = sorted((s - base, e - base) for s, e in evidence.get("sentence_spans") or []
                   if 0 <= s - base <= e - base <= len(passage))
    parts, at = [], 0
    for start, end in spans:
        if start < at:
            continue
        parts += [(passage[at:start], False), (passage[start:end], True)]
        at = end
    parts.append((passage[at:], False))
    return [(text, mark) for text, mark in parts if text]

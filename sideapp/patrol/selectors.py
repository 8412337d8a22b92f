"""Patrol's reads: the feed's rows with their filters, the same rows as data (Atom feed
and public API), and each wiki's patrol state for the admins' wikis page."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import Exists, OuterRef, Prefetch, QuerySet

from sideapp.claims.models import Claim, ClaimCitation, Suggestion
from sideapp.claims.places import current_places, current_places_prefetch
from sideapp.claims.wording import cited_words, verdict_words
from sideapp.patrol.models import FeedToken, PatrolCursor, PatrolMark, PatrolRow
from sideapp.templatetags.side import claim_reason


@dataclass(frozen=True)
class PatrolFilters:
    show: str = "flagged"  # flagged, all, patrolled (those this user marked)
    verdict: str = ""
    wiki: int | None = None
    author: str = ""
    since: datetime | None = None
    bots: bool = False  # bots' edits too (when the watcher checks them: SIDE_PATROL_BOTS)


def patrol_rows(*, user=None, filters: PatrolFilters = PatrolFilters(), limit: int = 100) -> list[PatrolRow]:
    """Newest first; a user's default view leaves out the rows that user marked patrolled."""
    rows = PatrolRow.objects.filter(status=PatrolRow.Status.ADDED) if filters.show != "all" else PatrolRow.objects.all()
    if user is not None:
        marked = Exists(PatrolMark.objects.filter(row=OuterRef("pk"), user=user))
        rows = rows.annotate(marked=marked)
        rows = rows.filter(marked=True) if filters.show == "patrolled" else rows.filter(marked=False)
    if filters.show == "flagged":
        rows = rows.filter(PatrolRow.flagged_q())
    found = list(_narrowed(rows, filters).select_related(
        "edit__wiki", "article", "citation", "claim").prefetch_related(
        _best_suggestion(), _citations(), current_places_prefetch("claim__revision_claims"))[:limit])
    for row in found:
        row.diff_url = diff_url(row)
        row.cited = row_citations(row)
    return found


def _narrowed(rows: QuerySet[PatrolRow], filters: PatrolFilters) -> QuerySet[PatrolRow]:
    if filters.verdict:
        rows = rows.filter(claim__verdict="" if filters.verdict == "pending" else filters.verdict)
    if filters.wiki:
        rows = rows.filter(edit__wiki_id=filters.wiki)
    if filters.author:
        rows = rows.filter(edit__user__iexact=filters.author.strip())
    if filters.since:
        rows = rows.filter(edit__timestamp__gte=filters.since)
    if not filters.bots:
        rows = rows.filter(edit__bot=False)
    return rows


def _citations() -> Prefetch:
    return Prefetch("claim__claim_citations", queryset=ClaimCitation.objects.select_related("citation").order_by("position"))


def row_citations(row: PatrolRow) -> list[dict]:
    """The claim's citations, each with its own verdict (never the claim's): the row's own
    (the one the edit added) first, then the others the claim cites."""
    links = sorted(row.claim.claim_citations.all(), key=lambda link: link.citation_id != row.citation_id)
    places = current_places(row.claim)  # each named as the claim's own ref names it
    return [cited_words(link, places.get(link.citation_id)) | {"own": link.citation_id == row.citation_id}
            for link in links]


def _best_suggestion() -> Prefetch:
    return Prefetch("claim__suggestions", to_attr="better",
                    queryset=Suggestion.objects.filter(beats_current=True).order_by("rank"))


def row_words(row: PatrolRow) -> dict:
    """A row as plain data, in words (the Atom feed and the public API)."""
    claim: Claim = row.claim
    edit, citation = row.edit, row.citation
    better = getattr(claim, "better", None)
    best = better[0] if better else None
    return {
        "id": row.pk, "wiki_id": edit.wiki.wikiid, "rcid": edit.rcid, "revid": edit.revid,
        "parent_revid": edit.parent_revid, "title": row.article.title, "section": claim.section_path,
        "claim": claim.text, "user": edit.user, "timestamp": edit.timestamp.isoformat(),
        "comment": edit.comment, "status": row.status, "status_words": row.get_status_display(),
        "source": _own_source(row) if citation else None,
        "citations": [c | {"verdict": c["verdict"] or None} for c in _cited(row)],
        "verdict": claim.verdict or None, "verdict_words": verdict_words(claim), "reason": claim_reason(claim),
        "flagged": row.flagged,
        "diff_url": diff_url(row), "suggestion": {"url": best.url, "title": best.title} if best else None,
    }


def _own_source(row: PatrolRow) -> dict:
    """The row's citation with its own verdict and reason."""
    own = next((c for c in _cited(row) if c["own"]), None)
    words = {"verdict": own["verdict"] or None, "verdict_words": own["verdict_words"], "reason": own["reason"]} if own else {}
    named = {"url": own["url"], "title": own["title"]} if own else {"url": row.citation.url, "title": row.citation.title}
    return named | words


def _cited(row: PatrolRow) -> list[dict]:
    return row.cited if hasattr(row, "cited") else row_citations(row)


def diff_url(row: PatrolRow) -> str:
    return row.edit.wiki.page_url(row.article.title, diff=row.edit.revid, oldid=row.edit.parent_revid or row.edit.revid)


def feed_user(token: str):
    """The user a feed token belongs to; None for an unknown token."""
    found = FeedToken.objects.filter(token=token, user__is_active=True).select_related("user").first() if token else None
    return found.user if found else None


def patrol_states() -> dict[int, PatrolCursor]:
    """{wiki pk: its cursor}, for the admins' wikis page."""
    return {c.wiki_id: c for c in PatrolCursor.objects.all()}

"""Merging two rows that turned out to be one wiki (or one article, or one claim).

Before wikis were known by what they say of themselves, every new address of a wiki
(the demo on another port, http becoming https) made a new Wiki row with its own copy of
every article and claim. Merging folds the copy into the row that is kept: an article or
claim the kept row lacks moves over whole; one it has too is merged, so that editors'
reviews, annotators' votes and audit entries all end on the kept row. Where both copies
hold the same judgement (one person's review of the same claim, one annotator's vote on
the same pair), the kept row's stands and the copy's is dropped.

The functions take the model classes as an argument so that the migration that merges
existing duplicates runs the same code on its historical models (`Models.of(apps)`).
"""
from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Max, Q


@dataclass(frozen=True)
class Models:
    Wiki: type
    Article: type
    Revision: type
    ScanJob: type
    ScanItem: type
    Claim: type
    Citation: type
    ClaimCitation: type
    RevisionClaim: type
    Suggestion: type
    ClaimReview: type
    AuditEntry: type
    Item: type
    Assignment: type
    Vote: type
    # Models that came after the migrations that merge with this code (None there).
    PatrolRow: type | None = None
    PatrolMark: type | None = None
    ArticleTitle: type | None = None

    @classmethod
    def of(cls, apps) -> "Models":
        names = {"Item": "annotation", "Assignment": "annotation", "Vote": "annotation"}
        found = {}
        for name, spec in cls.__dataclass_fields__.items():
            try:
                found[name] = apps.get_model(names.get(name, "sideapp"), name)
            except LookupError:
                if spec.default is not None:
                    raise
        return cls(**found)


def wiki_merge(m: Models, *, keep, drop) -> None:
    """Fold Wiki `drop` into `keep` (call inside a transaction), then delete `drop`. The
    same page is the same page id (the same title for rows that have none)."""
    m.ScanJob.objects.filter(wiki=drop).update(wiki=keep)
    for article in m.Article.objects.filter(wiki=drop):
        twins = m.Article.objects.filter(wiki=keep)
        twin = (twins.filter(page_id=article.page_id) if article.page_id is not None
                else twins.filter(title=article.title, page_id=None)).first()
        if twin is None:
            m.Article.objects.filter(pk=article.pk).update(wiki=keep)
        else:
            article_merge(m, keep=twin, drop=article)
    drop.delete()


def article_merge(m: Models, *, keep, drop) -> None:
    """Fold Article `drop` into `keep`: revisions, claims, citations, scan items, patrol
    rows, titles, audit."""
    revisions = _move_or_map(m.Revision, drop, keep, "article", "rev_id")
    claims = _move_or_map(m.Claim, drop, keep, "article", "fingerprint")
    for old, new in claims.items():
        claim_merge(m, keep=new, drop=old)
    citations = _move_or_map(m.Citation, drop, keep, "article", "fingerprint")
    for old, new in citations.items():
        _repoint(m.ClaimCitation, "citation", old, new, unique_with="claim")
        if m.PatrolRow is not None:
            _patrol_rows_repoint(m, "citation", old, new)
        m.Citation.objects.filter(pk=old).delete()
    for old, new in revisions.items():
        _revision_repoint(m, old, new)
    m.ScanItem.objects.filter(article=drop).update(article=keep)
    m.AuditEntry.objects.filter(article=drop).update(article=keep)
    if m.PatrolRow is not None:
        m.PatrolRow.objects.filter(article=drop).update(article=keep)
    if m.ArticleTitle is not None:
        _titles_merge(m, keep, drop)
    _article_current(m, keep, drop)
    drop.delete()


def _titles_merge(m: Models, keep, drop) -> None:
    """The dropped row's titles become the kept row's past titles."""
    m.ArticleTitle.objects.filter(article=drop).update(article=keep)
    if drop.title != keep.title and not m.ArticleTitle.objects.filter(article=keep, title=drop.title).exists():
        m.ArticleTitle.objects.create(article=keep, title=drop.title, until=keep.titled_at,
                                      reason=f"the page was renamed to {keep.title}")


def claim_merge(m: Models, *, keep: int, drop: int) -> None:
    """Fold Claim `drop` into `keep` (same article, same fingerprint)."""
    reviews = m.ClaimReview.objects.filter(claim_id=drop, suggestion=None)
    reviews.filter(user__in=m.ClaimReview.objects.filter(claim_id=keep, suggestion=None)
                   .values("user")).delete()
    reviews.update(claim_id=keep)
    _suggestions_merge(m, keep, drop)
    for item in m.Item.objects.filter(claim_id=drop):
        twin = m.Item.objects.filter(kind=item.kind, claim_id=keep, wiki_source=item.wiki_source_id,
                                     suggested_source=item.suggested_source_id).first()
        if twin is None:
            m.Item.objects.filter(pk=item.pk).update(claim_id=keep)
        else:
            _item_merge(m, keep=twin, drop=item)
    m.AuditEntry.objects.filter(claim_id=drop).update(claim_id=keep)
    _repoint(m.RevisionClaim, "claim", drop, keep, unique_with="revision")
    if m.PatrolRow is not None:
        _patrol_rows_repoint(m, "claim", drop, keep)
    m.Claim.objects.filter(pk=drop).delete()  # its ClaimCitations are the kept claim's twins


def _patrol_rows_repoint(m: Models, field: str, old: int, new: int) -> None:
    """Patrol rows of claim (or citation) `old` move to `new`; a row that would repeat one
    the same edit has there already gives its patrollers' marks to that row, then goes."""
    other = "citation" if field == "claim" else "claim"
    for row in m.PatrolRow.objects.filter(**{f"{field}_id": old}):
        twin = m.PatrolRow.objects.filter(edit_id=row.edit_id, **{f"{field}_id": new},
                                          **{f"{other}_id": getattr(row, f"{other}_id")}).first()
        if twin is None:
            m.PatrolRow.objects.filter(pk=row.pk).update(**{f"{field}_id": new})
            continue
        marks = m.PatrolMark.objects.filter(row=row)
        marks.filter(user__in=m.PatrolMark.objects.filter(row=twin).values("user")).delete()
        marks.update(row=twin)
        m.PatrolRow.objects.filter(pk=row.pk).delete()


def _suggestions_merge(m: Models, keep: int, drop: int) -> None:
    """A suggestion of the same URL keeps the editors' reviews of either copy; one the
    kept claim lacks moves over after the kept claim's own."""
    rank = m.Suggestion.objects.filter(claim_id=keep).aggregate(n=Max("rank"))["n"] or 0
    for suggestion in m.Suggestion.objects.filter(claim_id=drop).order_by("rank"):
        twin = m.Suggestion.objects.filter(claim_id=keep, url=suggestion.url).first()
        if twin is None:
            rank += 1
            m.Suggestion.objects.filter(pk=suggestion.pk).update(claim_id=keep, rank=rank)
            m.ClaimReview.objects.filter(suggestion=suggestion).update(claim_id=keep)
            continue
        _repoint(m.ClaimReview, "suggestion", suggestion.pk, twin.pk, unique_with="user")
        m.ClaimReview.objects.filter(suggestion=twin).update(claim_id=keep)
        m.Suggestion.objects.filter(pk=suggestion.pk).delete()


def _item_merge(m: Models, *, keep, drop) -> None:
    """Two annotation items of one (claim, source, source): each annotator's assignment
    and vote move to the kept item unless they already answered it there."""
    answered = m.Assignment.objects.filter(item=keep).values("annotator")
    m.Assignment.objects.filter(item=drop).exclude(annotator__in=answered).update(item=keep)
    m.Vote.objects.filter(assignment__item=keep, item=drop).update(item=keep)
    drop.delete()
    # Item.taken: votes that are not skips plus unanswered assignments (annotation.services).
    taken = (m.Vote.objects.filter(item=keep).exclude(preference="skip").count()
             + m.Assignment.objects.filter(item=keep, state="open").count())
    m.Item.objects.filter(pk=keep.pk).update(taken=taken)


def _revision_repoint(m: Models, old: int, new: int) -> None:
    m.ScanItem.objects.filter(revision_id=old).update(revision_id=new)
    m.Claim.objects.filter(first_revision_id=old).update(first_revision_id=new)
    m.Claim.objects.filter(last_revision_id=old).update(last_revision_id=new)
    _repoint(m.RevisionClaim, "revision", old, new, unique_with="claim")
    m.Article.objects.filter(current_revision_id=old).update(current_revision_id=new)
    m.Revision.objects.filter(pk=old).delete()


def _article_current(m: Models, keep, drop) -> None:
    """The kept article's current revision is the newest of either; Claim.current
    follows it."""
    newest = m.Revision.objects.filter(article=keep).order_by("-rev_id").first()
    latest_scan = max(filter(None, [keep.last_scanned_at, drop.last_scanned_at]), default=None)
    m.Article.objects.filter(pk=keep.pk).update(
        current_revision=newest, page_id=keep.page_id or drop.page_id, last_scanned_at=latest_scan)
    held = m.RevisionClaim.objects.filter(revision=newest).values("claim")
    claims = m.Claim.objects.filter(article=keep)
    claims.filter(~Q(pk__in=held), current=True).update(current=False)
    claims.filter(pk__in=held).update(current=True)


def _move_or_map(model, drop, keep, parent: str, key: str) -> dict[int, int]:
    """Move `drop`'s children to `keep` where `keep` has none with the same `key`;
    return {drop's child pk: keep's twin pk} for the others."""
    twins = dict(model.objects.filter(**{parent: keep}).values_list(key, "pk"))
    pairs = {pk: twins[k] for pk, k in model.objects.filter(**{parent: drop}).values_list("pk", key)
             if k in twins}
    model.objects.filter(**{parent: drop}).exclude(pk__in=pairs).update(**{parent: keep})
    return pairs


def _repoint(model, field: str, old: int, new: int, *, unique_with: str) -> None:
    """Point `model` rows from `old` to `new`, dropping those that would repeat a row
    `new` already has (the same `unique_with`)."""
    rows = model.objects.filter(**{f"{field}_id": old})
    rows.filter(**{f"{unique_with}__in": model.objects.filter(**{f"{field}_id": new})
                   .values(unique_with)}).delete()
    rows.update(**{f"{field}_id": new})

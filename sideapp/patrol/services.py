"""Patrol's writes: switching a wiki's patrolling, what a scanned edit added, patrollers'
marks and feed tokens. The watcher itself is in watcher.py."""
from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from sideapp.claims.models import Claim
from sideapp.edits.audit import audit_record
from sideapp.edits.models import AuditEntry
from sideapp.patrol.changes import REVERT_TAGS, EditChanges, edit_changes
from sideapp.patrol.models import FeedToken, PatrolCursor, PatrolEdit, PatrolMark, PatrolRow
from sideapp.scans.models import Revision, ScanItem, Wiki
from sideapp.scans.wikiapi import WikiError
from sideapp.scans.wikis import client_for


def wiki_patrol_set(*, wiki: Wiki, on: bool, user=None) -> Wiki:
    """Switch patrolling of `wiki`. Switched on, it follows changes made from now on (the
    cursor of an earlier patrol that was switched off starts again from now); switched on
    again while on, its cursor stays where it is, so nothing is missed."""
    with transaction.atomic():
        was_on = Wiki.objects.select_for_update().get(pk=wiki.pk).patrol
        Wiki.objects.filter(pk=wiki.pk).update(patrol=on)
        wiki.patrol = on
        if on:
            cursor_start(wiki=wiki, restart=not was_on)
        audit_record(user=user, action=AuditEntry.Action.WIKI_PATROL,
                     detail=f"patrolling of {wiki} switched {'on' if on else 'off'}")
    return wiki


def cursor_start(*, wiki: Wiki, restart: bool = False) -> PatrolCursor:
    now = timezone.now()
    cursor, created = PatrolCursor.objects.get_or_create(wiki=wiki, defaults={"started_at": now})
    if restart and not created:
        PatrolCursor.objects.filter(pk=cursor.pk).update(
            started_at=now, last_timestamp=None, resume="", failures=0, next_poll_at=None,
            state=PatrolCursor.State.OK, reason="", missed="")
    return cursor


def edit_scanned(*, item: ScanItem) -> list[int]:
    """After the scan of a patrolled edit's revision: one row per citation it added, rows
    of earlier edits it undid marked, its status in words. Returns the claims to check
    (written on the scan job, whose progress counts only them)."""
    edit = PatrolEdit.objects.filter(scan_job_id=item.job_id).first()
    if edit is None:
        return []
    if item.status == ScanItem.Status.FAILED or item.revision is None:
        edit.end(PatrolEdit.Status.UNREADABLE, item.reason)
        return []
    try:
        changes = edit_changes(_parent_text(edit, item.revision), item.revision.wikitext, item.revision.article.title)
    except WikiError as exc:
        edit.end(PatrolEdit.Status.UNREADABLE, f"the revision before it could not be read: {exc}")
        return []
    with transaction.atomic():
        claims = list(Claim.objects.filter(revision_claims__revision=item.revision,
                                           fingerprint__in=changes.checked).prefetch_related("claim_citations__citation"))
        rows = _rows_for(edit, claims, changes)
        PatrolRow.objects.bulk_create(rows, ignore_conflicts=True)
        undone = _mark_undone(edit, item.revision)
        ids = [c.pk for c in claims]
        item.job.params["claims"] = ids
        item.job.save(update_fields=["params"])
        edit.end(*_edit_outcome(rows, undone, changes), claims_checked=len(ids))
    return ids


def _parent_text(edit: PatrolEdit, revision: Revision) -> str:
    """The wikitext before the edit: stored when that revision was scanned, else read."""
    if not edit.parent_revid:
        return ""
    stored = Revision.objects.filter(article=revision.article_id, rev_id=edit.parent_revid).first()
    if stored is not None:
        return stored.wikitext
    return client_for(edit.wiki).page_at(edit.parent_revid).wikitext


def _rows_for(edit: PatrolEdit, claims: list[Claim], changes: EditChanges) -> list[PatrolRow]:
    rows = []
    for claim in claims:
        links = [link.citation for link in claim.claim_citations.all()]
        new = [c for c in links if c.fingerprint in changes.new_citations]
        # A new claim behind a citation the page had already (a named ref used again)
        # is a row of that citation; a claim that gained {{citation needed}} has none.
        for citation in new or links[:1] or [None]:
            rows.append(PatrolRow(edit=edit, claim=claim, citation=citation, article_id=claim.article_id))
    return rows


def _mark_undone(edit: PatrolEdit, revision: Revision) -> int:
    """Rows of earlier edits of this article whose claim this revision no longer holds:
    reverted when the edit is a revert, removed otherwise."""
    earlier = PatrolRow.objects.filter(article=revision.article_id, status=PatrolRow.Status.ADDED,
                                       edit__rcid__lt=edit.rcid)
    gone = earlier.exclude(claim__revision_claims__revision=revision)
    reverted = bool(REVERT_TAGS & set(edit.tags))
    status = PatrolRow.Status.REVERTED if reverted else PatrolRow.Status.REMOVED
    verb = "reverted" if reverted else "removed"
    return gone.update(status=status, reason=f"{verb} by {edit.user or 'an anonymous edit'} in revision {edit.revid}")


def _edit_outcome(rows: list[PatrolRow], undone: int, changes: EditChanges) -> tuple[str, str]:
    if rows:
        n = len(rows)
        return PatrolEdit.Status.CHECKING, f"{n} added citation{'s' if n != 1 else ''} being checked"
    if undone:
        return PatrolEdit.Status.REVERTED, (f"undid an earlier edit: {undone} added citation"
                                            f"{'s' if undone != 1 else ''} marked reverted or removed")
    if changes.removed_citations:
        n = len(changes.removed_citations)
        return PatrolEdit.Status.REMOVED, f"only removed citations ({n}); nothing to check"
    return PatrolEdit.Status.NOTHING, "added no citation; nothing to check"


def rows_deleted(*, wiki: Wiki, title: str, reason: str) -> int:
    """A deleted page: its rows say so (their claims are no longer on the wiki)."""
    return PatrolRow.objects.filter(article__wiki=wiki, article__title=title, status=PatrolRow.Status.ADDED).update(
        status=PatrolRow.Status.DELETED, reason=reason[:2000])


def row_patrolled(*, user, row: PatrolRow) -> bool:
    """`user` marked `row` patrolled (once; audit-logged). False when it already was."""
    with transaction.atomic():
        _, created = PatrolMark.objects.get_or_create(user=user, row=row)
        if created:
            audit_record(user=user, action=AuditEntry.Action.PATROLLED, claim=row.claim,
                         revision_id=row.edit.revid, detail=f"patrol row {row.pk}")
    return created


def feed_token_for(*, user) -> FeedToken:
    return FeedToken.objects.get_or_create(user=user)[0]

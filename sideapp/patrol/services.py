"""Patrol's writes: switching a wiki's patrolling, what a scanned edit added, patrollers'
marks and feed tokens. The watcher itself is in watcher.py."""
from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from sideapp.claims.models import Claim
from sideapp.edits.audit import audit_record
from sideapp.edits.models import AuditEntry
from sideapp.patrol.changes import EditChanges, edit_changes
from sideapp.patrol.models import FeedToken, PatrolCursor, PatrolEdit, PatrolMark, PatrolRow
from sideapp.patrol.reverts import is_revert, rows_close_earlier, rows_close_new
from sideapp.scans.models import Article, Revision, ScanItem, Wiki
from sideapp.scans.wikiapi import RevisionHidden, WikiError
from sideapp.scans.wikipages import readable_before
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
    of earlier edits it took out closed (sideapp.patrol.reverts), its status in words.
    Returns the claims to check (written on the scan job, whose progress counts only them).
    A bot's revert (scanned only to close rows) adds no row."""
    edit = PatrolEdit.objects.filter(scan_job_id=item.job_id).first()
    if edit is None:
        return []
    if item.status == ScanItem.Status.FAILED or item.revision is None:
        edit.end(PatrolEdit.Status.UNREADABLE, item.reason)
        return []
    revision, close_only = item.revision, bool(item.job.params.get("close_only"))
    before, compared = "", ""
    if not close_only:
        try:
            before, compared = _parent_text(edit, revision)
        except WikiError as exc:
            before, compared = None, f"the revision before it could not be read: {exc}"
    changes = None if before is None or close_only else edit_changes(before, revision.wikitext,
                                                                         revision.article.title)
    with transaction.atomic():
        # One edit of an article at a time: an edit and its revert, scanned at once by two
        # workers, each see the other's rows or revision (sideapp.patrol.reverts).
        Article.objects.select_for_update().filter(pk=revision.article_id).first()
        undone = rows_close_earlier(edit=edit, revision=revision)
        if close_only:
            edit.end(*_bot_outcome(edit, revision, undone))
            return []
        if changes is None:  # nothing to compare with: no rows, said so
            edit.end(PatrolEdit.Status.UNREADABLE, f"could not compare: {compared}")
            return []
        return _rows_record(edit, item, changes, compared)


def _rows_record(edit: PatrolEdit, item: ScanItem, changes: EditChanges, compared: str) -> list[int]:
    revision = item.revision
    claims = list(Claim.objects.filter(revision_claims__revision=revision, fingerprint__in=changes.checked)
                  .prefetch_related("claim_citations__citation"))
    rows = _rows_for(edit, claims, changes)
    PatrolRow.objects.bulk_create(rows, ignore_conflicts=True)
    rows_close_new(edit=edit, rows=list(edit.rows.select_related("edit")), article_id=revision.article_id)
    ids = [c.pk for c in claims]
    item.job.params["claims"] = ids
    item.job.save(update_fields=["params"])
    status, reason = _edit_outcome(rows, is_revert(edit, revision), changes)
    edit.end(status, reason + (f" ({compared})" if compared else ""), claims_checked=len(ids))
    return ids


def _parent_text(edit: PatrolEdit, revision: Revision) -> tuple[str | None, str]:
    """The wikitext before the edit and what it was compared with, in words ("" for the
    revision before it): stored when that revision was scanned, else read; when the wiki
    hides that revision's text, the nearest earlier one it shows (None: none of them)."""
    if not edit.parent_revid:
        return "", ""
    stored = Revision.objects.filter(article=revision.article_id, rev_id=edit.parent_revid).first()
    if stored is not None:
        return stored.wikitext, ""
    client = client_for(edit.wiki)
    try:
        return client.page_at(edit.parent_revid).wikitext, ""
    except RevisionHidden:
        ancestor = readable_before(client, edit.parent_revid)
    if ancestor is None:
        return None, f"the earlier revision {edit.parent_revid} is hidden, and so are the ones before it"
    return ancestor.wikitext, (f"compared with revision {ancestor.rev_id}: the text of revision "
                               f"{edit.parent_revid} before it is hidden")


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


def _edit_outcome(rows: list[PatrolRow], revert: bool, changes: EditChanges) -> tuple[str, str]:
    """The edit's status from what it did itself (never from what was scanned before it)."""
    if rows:
        n = len(rows)
        return PatrolEdit.Status.CHECKING, f"{n} added citation{'s' if n != 1 else ''} being checked"
    if revert:
        return PatrolEdit.Status.REVERTED, "undid an earlier edit: the citations it took out are marked reverted"
    if changes.removed_citations:
        n = len(changes.removed_citations)
        return PatrolEdit.Status.REMOVED, f"only removed citations ({n}); nothing to check"
    return PatrolEdit.Status.NOTHING, "added no citation; nothing to check"


def _bot_outcome(edit: PatrolEdit, revision: Revision, undone: int) -> tuple[str, str]:
    said = "a bot's edit, not checked (SIDE_PATROL_BOTS)"
    if is_revert(edit, revision):
        return PatrolEdit.Status.REVERTED, (f"{said}; it undid an earlier edit: the citations it took out are "
                                            "marked reverted")
    return PatrolEdit.Status.SKIPPED, said + (f"; it took out {undone} added citation{'s' if undone != 1 else ''}"
                                              if undone else "")


def rows_deleted(*, article, reason: str) -> int:
    """A deleted page: its open rows say so (their claims are no longer on the wiki)."""
    return PatrolRow.objects.filter(article=article, status=PatrolRow.Status.ADDED).update(
        status=PatrolRow.Status.DELETED, reason=reason[:2000])


def rows_restored(*, article) -> int:
    """A restored page: the rows its deletion closed are open again."""
    return PatrolRow.objects.filter(article=article, status=PatrolRow.Status.DELETED).update(
        status=PatrolRow.Status.ADDED, reason="")


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

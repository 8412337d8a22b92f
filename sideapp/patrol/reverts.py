"""Closing patrol rows whose citation a later edit took out, in whatever order the edits
are scanned (any number of workers scan them, so a revert may be scanned before the edit it
reverts).

A row is closed by the earliest later edit of its article whose revision no longer holds
its claim, among the edits scanned so far: an edit scanned late closes the rows of earlier
edits that are still open or were closed by an edit later than itself, and an edit's new
rows are closed at once by the earliest later edit already scanned that lacks their claim.
Once every edit is scanned, each row ends the same whichever came first. The row says
*reverted* when the closing edit is a revert (MediaWiki's revert tags, or its text is that
of an earlier revision: the same sha1), or when the wiki tagged the row's own edit
`mw-reverted`; *removed* otherwise.
"""
from __future__ import annotations

from django.db.models import Q

from sideapp.claims.models import Claim
from sideapp.patrol.changes import REVERT_TAGS
from sideapp.patrol.models import PatrolEdit, PatrolRow
from sideapp.scans.models import Revision

CLOSED = (PatrolRow.Status.REVERTED, PatrolRow.Status.REMOVED)


def is_revert(edit: PatrolEdit, revision: Revision) -> bool:
    """The edit undoes others: tagged so by the wiki, or its text is an earlier revision's."""
    if REVERT_TAGS & set(edit.tags):
        return True
    return bool(revision.sha1) and Revision.objects.filter(
        article=revision.article_id, sha1=revision.sha1, rev_id__lt=revision.rev_id).exists()


def rows_close_earlier(*, edit: PatrolEdit, revision: Revision) -> int:
    """Rows of earlier edits of the article that `revision` no longer holds: closed by `edit`
    unless an edit earlier than it closed them already. How many it closed."""
    rows = (PatrolRow.objects.filter(article=revision.article_id, edit__rcid__lt=edit.rcid)
            .filter(Q(status=PatrolRow.Status.ADDED) | Q(status__in=CLOSED, closed_by__rcid__gt=edit.rcid))
            .exclude(claim__revision_claims__revision=revision))
    return _close(list(rows.select_related("edit")), edit, is_revert(edit, revision))


def rows_close_new(*, edit: PatrolEdit, rows: list[PatrolRow], article_id: int) -> int:
    """The new rows of `edit` (scanned after later edits of its article): each closed by the
    earliest later edit already scanned whose revision lacks its claim."""
    open_rows = [row for row in rows if row.pk and row.status == PatrolRow.Status.ADDED]
    closed = 0
    later = (PatrolEdit.objects.filter(wiki=edit.wiki_id, rcid__gt=edit.rcid, scan_job__items__article=article_id)
             .exclude(scan_job__items__revision=None).order_by("rcid")
             .values_list("pk", "scan_job__items__revision"))
    for later_pk, revision_pk in later:
        if not open_rows:
            break
        held = set(Claim.objects.filter(revision_claims__revision=revision_pk, pk__in=[r.claim_id for r in open_rows])
                   .values_list("pk", flat=True))
        gone = [row for row in open_rows if row.claim_id not in held]
        if gone:
            closer = PatrolEdit.objects.get(pk=later_pk)
            closed += _close(gone, closer, is_revert(closer, Revision.objects.get(pk=revision_pk)))
            open_rows = [row for row in open_rows if row.claim_id in held]
    return closed


def _close(rows: list[PatrolRow], closer: PatrolEdit, revert: bool) -> int:
    who = closer.user or "an anonymous edit"
    for row in rows:
        reverted = revert or "mw-reverted" in (row.edit.tags or [])
        status = PatrolRow.Status.REVERTED if reverted else PatrolRow.Status.REMOVED
        row.status, row.closed_by = status, closer
        row.reason = f"{'reverted' if reverted else 'removed'} by {who} in revision {closer.revid}"
    PatrolRow.objects.bulk_update(rows, ["status", "closed_by", "reason"])
    return len(rows)

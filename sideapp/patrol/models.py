"""Patrol: a wiki's recent changes followed from a cursor, each edit recorded once (by
rcid), and one row per citation an edit added, with what patrollers did about it."""
from __future__ import annotations

import secrets
from datetime import timedelta

from django.conf import settings
from django.db import models
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from sideapp.claims.models import Citation, Claim, ClaimCitation
from sideapp.scans.models import Article, ScanJob, Wiki
from verifier_core.fetch.pagestate import NOT_THE_WORK
from verifier_core.verification import Verdict


class PatrolCursor(models.Model):
    """Where the watcher stands on one wiki. Its row lock is the watcher's: one holder per
    wiki at a time, and the cursor moves in the transaction that records the changes read."""

    class State(models.TextChoices):
        OK = "ok", "following its recent changes"
        UNREACHABLE = "unreachable", "the wiki did not answer; asking again later"

    wiki = models.OneToOneField(Wiki, on_delete=models.CASCADE, related_name="patrol_cursor")
    started_at = models.DateTimeField()  # patrolling reads no change older than this
    last_timestamp = models.DateTimeField(null=True, blank=True)  # the newest change taken
    resume = models.CharField(max_length=64, blank=True)  # rccontinue of a read cut short
    polled_at = models.DateTimeField(null=True, blank=True)
    next_poll_at = models.DateTimeField(null=True, blank=True)  # a wiki that failed waits
    failures = models.PositiveIntegerField(default=0)
    state = models.CharField(max_length=16, choices=State.choices, default=State.OK)
    reason = models.TextField(blank=True)  # why the last read failed, in words
    missed = models.TextField(blank=True)  # "changes between X and Y were missed: ..."

    def __str__(self) -> str:
        return f"patrol of {self.wiki}"

    @property
    def read_from(self):
        """Where the next read starts: a bit before the newest change taken, so that a
        change committed late with an older timestamp is still seen (rcids dedupe)."""
        if self.last_timestamp is None:
            return self.started_at
        return max(self.started_at, self.last_timestamp - timedelta(seconds=settings.SIDE_PATROL_OVERLAP))

    def backoff(self) -> timedelta:
        """How long a wiki that failed `failures` times in a row is left alone."""
        return timedelta(seconds=min(settings.SIDE_PATROL_INTERVAL * 2 ** max(self.failures - 1, 0), 1800))


class PatrolEdit(models.Model):
    """One recent change of a patrolled wiki, taken once (unique by rcid)."""

    class Status(models.TextChoices):
        QUEUED = "queued", "waiting for its revision to be read"
        CHECKING = "checking", "its new citations are being checked"
        NOTHING = "nothing", "added no citation"
        REMOVED = "removed", "only removed citations"
        REVERTED = "reverted", "reverted an earlier edit"
        DELETED = "deleted", "the page was deleted"
        RESTORED = "restored", "the page was restored"
        MOVED = "moved", "a page move"
        SKIPPED = "skipped", "not checked"
        UNREADABLE = "unreadable", "its revision could not be read"

    wiki = models.ForeignKey(Wiki, on_delete=models.CASCADE, related_name="patrol_edits")
    rcid = models.BigIntegerField()
    kind = models.CharField(max_length=8)  # recentchanges type: edit, new, log
    revid = models.BigIntegerField(default=0)
    parent_revid = models.BigIntegerField(default=0)  # 0: a new page
    title = models.CharField(max_length=255)
    page_id = models.BigIntegerField(default=0)
    user = models.CharField(max_length=255, blank=True)
    bot = models.BooleanField(default=False)
    comment = models.TextField(blank=True)
    tags = models.JSONField(default=list, blank=True)
    timestamp = models.DateTimeField()
    scan_job = models.ForeignKey(ScanJob, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.QUEUED)
    reason = models.TextField(blank=True)  # the status in a sentence about this edit
    claims_checked = models.PositiveIntegerField(default=0)  # claims this edit sent to the verifier
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["wiki", "rcid"], name="patroledit_unique_rcid")]
        indexes = [models.Index(fields=["wiki", "title"], name="patroledit_title")]
        ordering = ["-timestamp", "-rcid"]

    def __str__(self) -> str:
        return f"{self.title} r{self.revid} by {self.user}"

    def end(self, status: str, reason: str = "", **fields) -> None:
        PatrolEdit.objects.filter(pk=self.pk).update(status=status, reason=reason[:2000], **fields)
        self.status, self.reason = status, reason[:2000]


class PatrolRow(models.Model):
    """A citation an edit added (or a claim that gained {{citation needed}}: no citation),
    as patrollers see it: the claim's verdict is read live from the claim."""

    class Status(models.TextChoices):
        ADDED = "added", "in the article"
        REVERTED = "reverted", "reverted"
        REMOVED = "removed", "removed by a later edit"
        DELETED = "deleted", "the page was deleted"

    edit = models.ForeignKey(PatrolEdit, on_delete=models.CASCADE, related_name="rows")
    claim = models.ForeignKey(Claim, on_delete=models.CASCADE, related_name="patrol_rows")
    citation = models.ForeignKey(Citation, null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    article = models.ForeignKey(Article, on_delete=models.CASCADE, related_name="patrol_rows")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.ADDED)
    reason = models.TextField(blank=True)
    # The edit that took the citation out (reverted or removed): the earliest such edit wins,
    # whichever was scanned first (sideapp.patrol.reverts).
    closed_by = models.ForeignKey(PatrolEdit, null=True, blank=True, on_delete=models.SET_NULL, related_name="closed")
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["edit", "claim", "citation"], name="patrolrow_unique",
                                               nulls_distinct=False)]
        ordering = ["-edit__timestamp", "-pk"]

    # Rows a patroller should look at: every verdict but "supported" (the new citation may
    # not say it, or could not be read), claims asking for a source, rows not judged yet
    # (they appear at once, and leave the view if the citation turns out to support the
    # claim), and an added citation whose page is already dead or not the cited work, even
    # where an archived copy supports the claim (the editor should link the copy).
    # `flagged_q` filters rows; `flagged` says it of one row: the same rule.
    @staticmethod
    def flagged_q() -> Q:
        return (Q(claim__flagged=True) | Q(claim__needs_citation=True) | ~Q(claim__verdict=Verdict.SUPPORTED)
                | Q(Exists(ClaimCitation.objects.filter(claim=OuterRef("claim"), citation=OuterRef("citation"),
                                                        page_state__in=NOT_THE_WORK))))

    @property
    def flagged(self) -> bool:
        claim = self.claim
        # The claim's citations as the patrol list prefetched them (no query per row there).
        return bool(claim.flagged or claim.needs_citation or claim.verdict != Verdict.SUPPORTED
                    or any(link.citation_id == self.citation_id and link.page_state in NOT_THE_WORK
                           for link in claim.claim_citations.all()))

    def __str__(self) -> str:
        return f"row {self.pk} of {self.edit}"


class PatrolMark(models.Model):
    """A patroller marked a row patrolled: it leaves that patroller's default view."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    row = models.ForeignKey(PatrolRow, on_delete=models.CASCADE, related_name="marks")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "row"], name="patrolmark_unique")]


def _new_token() -> str:
    return secrets.token_urlsafe(24)


class FeedToken(models.Model):
    """A user's secret for the Atom feed: a feed reader carries it instead of a session."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="patrol_feed")
    token = models.CharField(max_length=64, unique=True, default=_new_token)
    created_at = models.DateTimeField(default=timezone.now)

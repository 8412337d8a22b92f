"""The audit log: who did what to which claim or article, and the wiki revision it made."""
from __future__ import annotations

from django.conf import settings
from django.db import models

from sideapp.claims.models import Claim
from sideapp.scans.models import Article


class AuditEntry(models.Model):
    class Action(models.TextChoices):
        APPLY_ADD = "apply_add", "added a suggested citation"
        APPLY_REPLACE = "apply_replace", "replaced a citation with a suggested one"
        TAG = "tag", "tagged a citation {{failed verification}}"
        ARCHIVE = "archive", "added an archived copy (or {{dead link}}) to a citation"
        CORRECT = "correct", "corrected a figure to its cited source's"
        DISMISS = "dismiss", "dismissed a flag"
        VERIFIED = "verified", "marked a claim verified"
        REPORT = "report", "copied an article report"
        SCAN_START = "scan_start", "started a scan"
        SCAN_CANCEL = "scan_cancel", "cancelled a scan"
        SCAN_RERUN = "scan_rerun", "re-ran a scan"
        TAKE_BACK = "take_back", "took back a judgement"
        DISMISS_SUGGESTION = "dismiss_suggestion", "dismissed a suggestion"
        INDEX_UPDATE = "index_update", "asked for a corpus index update"
        WIKI_ADD = "wiki_add", "added a wiki"
        WIKI_PATROL = "wiki_patrol", "switched a wiki's patrolling"
        PATROLLED = "patrolled", "marked a new citation patrolled"

    class Status(models.TextChoices):
        """A save on the wiki: written `pending` before the wiki is asked, then its outcome."""

        DONE = "", "done"  # an action with no save on the wiki (dismiss, scan start...)
        PENDING = "pending", "being saved"
        SAVED = "saved", "saved"
        REFUSED = "refused", "refused"
        FAILED = "failed", "failed"

    # Rows outlive users, claims and articles: the log is the record of what happened, so
    # the person's name is kept as text too.
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                             on_delete=models.SET_NULL, related_name="audit_entries")
    username = models.CharField(max_length=150, blank=True)
    action = models.CharField(max_length=32, choices=Action.choices)
    claim = models.ForeignKey(Claim, null=True, blank=True, on_delete=models.SET_NULL,
                              related_name="audit_entries")
    article = models.ForeignKey(Article, null=True, blank=True, on_delete=models.SET_NULL,
                                related_name="audit_entries")
    revision_id = models.BigIntegerField(null=True, blank=True)  # the wiki revision made
    detail = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.DONE, blank=True)
    # A save's key: one save per confirmed proposal (a double click answers with the first).
    token = models.CharField(max_length=64, blank=True)
    base_revision = models.BigIntegerField(null=True, blank=True)  # the revision the change was built on
    outcome = models.TextField(blank=True)  # why it was refused or failed, in words

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name_plural = "audit entries"
        constraints = [
            models.UniqueConstraint(fields=["token"], name="auditentry_one_save_per_token",
                                    condition=models.Q(status__in=["pending", "saved"]) & ~models.Q(token="")),
        ]
        indexes = [models.Index(fields=["status", "created_at"], name="auditentry_pending",
                                condition=models.Q(status="pending"))]

    def __str__(self) -> str:
        who = self.username or (self.user.get_username() if self.user else "someone")
        return f"{who} {self.get_action_display()} at {self.created_at:%Y-%m-%d %H:%M}"

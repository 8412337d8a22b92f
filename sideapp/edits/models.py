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

    # Rows outlive users, claims and articles: the log is the record of what happened.
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                             on_delete=models.SET_NULL, related_name="audit_entries")
    action = models.CharField(max_length=32, choices=Action.choices)
    claim = models.ForeignKey(Claim, null=True, blank=True, on_delete=models.SET_NULL,
                              related_name="audit_entries")
    article = models.ForeignKey(Article, null=True, blank=True, on_delete=models.SET_NULL,
                                related_name="audit_entries")
    revision_id = models.BigIntegerField(null=True, blank=True)  # the wiki revision made
    detail = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name_plural = "audit entries"

    def __str__(self) -> str:
        who = self.user.get_username() if self.user else "someone"
        return f"{who} {self.get_action_display()} at {self.created_at:%Y-%m-%d %H:%M}"

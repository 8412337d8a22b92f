"""Corpus files imported by admins into the retrieval corpus."""
from __future__ import annotations

from django.conf import settings
from django.db import models


class CorpusImport(models.Model):
    """An admin's upload of `{url, title, text}` JSONL documents into the corpus."""

    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        DONE = "done"
        FAILED = "failed"

    UNFINISHED = (Status.QUEUED, Status.RUNNING)

    upload = models.FileField(upload_to="imports/")
    name = models.CharField(max_length=255)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.QUEUED)
    stage = models.CharField(max_length=32, blank=True)  # reading, storing, indexing
    total = models.PositiveIntegerField(default=0)
    done = models.PositiveIntegerField(default=0)
    report = models.JSONField(default=dict, blank=True)  # counts and skipped lines
    reason = models.TextField(blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.name

    @property
    def is_running(self) -> bool:
        return self.status in self.UNFINISHED
